"""The corpus lines kernel (numba, ``chronoqa[fast]``) against Arrow's joins (the reference) and a hand fixture.

Gold: three JSON lines typed by hand; otherwise the Arrow path of the same plan (``kernel_rows`` above the graph:
Arrow, ``0``: the kernel), itself checked against the per-document writer in ``test_corpus_columns.py``. Inputs:
the hand facts (every case of the time phrase, listed not-years, empty and non-ASCII labels, undecided capitals,
templates without slots), every kind of doc ids, a synthetic graph with listed not-years, YAGO11k and
Wikidata12k (mirror). Without numba these skip, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from chronoqa.artifacts.release import CORPUS_FILE, CORPUS_PARQUET_FILE, write_corpus
from chronoqa.generate.kg import corpus as corpus_mod
from chronoqa.generate.kg.corpus import ColumnarCorpus, corpus_columns, kernel_available
from chronoqa.generate.kg.index import DocIds
from chronoqa.generate.kg.phrases import generic_phrases
from chronoqa.records import Fact
from chronoqa.time import TimePoint

sys.path.insert(0, str(Path(__file__).parent))
from test_corpus_columns import AS_OF, HAND, LABELS, NOT_YEARS, PHRASES, _hand_facts

ARROW = sys.maxsize  # kernel_rows: never the kernel


@pytest.fixture(autouse=True)
def _numba() -> None:
    if not kernel_available():
        if os.environ.get("CI") == "true":
            pytest.fail("numba is missing in CI: the dev extra installs chronoqa[fast]")
        pytest.skip("numba is not installed: pip install chronoqa[fast] to test the corpus lines kernel")


def _lines(cc: ColumnarCorpus) -> bytes:
    return b"".join(bytes(lines) for _, _, lines in cc.parts(batches=False, lines=True) if lines is not None)


def _texts(cc: ColumnarCorpus) -> list[pa.Array]:
    return [b.column("text") for b in cc.reader()]


def _same(make: object) -> None:
    """The kernel's JSON lines and text column equal Arrow's for ``make(kernel_rows)``."""
    arrow, kern = make(ARROW), make(0)  # type: ignore[operator]
    assert not arrow.kernel and kern.kernel
    assert _lines(kern) == _lines(arrow)
    got, want = _texts(kern), _texts(arrow)
    assert [len(t) for t in got] == [len(t) for t in want]
    assert all(g.equals(w) for g, w in zip(got, want, strict=True))
    assert all(g.type == pa.string() and g.null_count == 0 for g in got)


def test_hand_worked_lines() -> None:
    facts = [
        Fact(0, "ann", "playsFor", "reds", TimePoint(2000), TimePoint(2004, 5, 7)),
        Fact(7, "reds", "won", "prize", TimePoint(2003, 3), None),
        Fact(12, "blank", "lead", "sep", None, None),
    ]
    ids = DocIds(
        np.array([0, 7, 12], dtype=np.int64), np.array([2001, 0, -5], dtype=np.int32), np.array([1, 0, 1], bool)
    )
    cc = corpus_columns(facts, ids, PHRASES, LABELS.__getitem__, str.upper, AS_OF, kernel_rows=0)
    assert cc.kernel
    assert _lines(cc).decode("utf-8") == (
        '{"doc_id":"F0-2001","text":"Ann played for Reds from 2000 to 7 May 2004.","s":"ann","r":"PLAYSFOR",'
        '"o":"Reds","t_start":"2000","t_end":"2004-05-07","s_id":"ann","r_id":"playsFor","o_id":"reds","fact_id":0}\n'
        '{"doc_id":"F7","text":"Reds won the \\"Gold\\" prize in March 2003.","s":"Reds","r":"WON",'
        '"o":"the \\"Gold\\" prize","t_start":"2003-03","t_end":null,"s_id":"reds","r_id":"won","o_id":"prize",'
        '"fact_id":7}\n'
        '{"doc_id":"F12--5","text":"The team of  beat line\u2028sep é 😀 (time unknown).","s":"","r":"LEAD",'
        '"o":"line\u2028sep é 😀","t_start":null,"t_end":null,"s_id":"blank","r_id":"lead","o_id":"sep",'
        '"fact_id":12}\n'
    )
    assert _texts(cc)[0].to_pylist() == [
        "Ann played for Reds from 2000 to 7 May 2004.",
        'Reds won the "Gold" prize in March 2003.',
        "The team of  beat line\u2028sep é 😀 (time unknown).",
    ]


@pytest.mark.parametrize("open_end", ["ongoing", "unknown"])
def test_kernel_equals_arrow_on_the_hand_facts_with_every_kind_of_doc_ids(open_end: str) -> None:
    facts = _hand_facts()
    n = len(facts)
    expanded = DocIds(np.arange(n, dtype=np.int64) + 7, np.arange(n, dtype=np.int32) - 3, np.arange(n) % 3 == 0)
    given = [f'D"{i}\\é' for i in range(n)]
    for ids in (None, given, pa.array(given), expanded, DocIds(np.arange(n, dtype=np.int64) * 1000)):
        for rows, threads in ((4, 0), (5, 2), (1000, None)):

            def make(kernel_rows: int, ids: object = ids, rows: int = rows, threads: int | None = threads) -> object:
                return corpus_columns(facts, ids, PHRASES, LABELS.__getitem__, str.upper, AS_OF, open_end,  # type: ignore[arg-type]
                                      NOT_YEARS, batch_rows=rows, threads=threads, kernel_rows=kernel_rows)  # fmt: skip

            _same(make)
    assert len(HAND) == n


def test_kernel_on_templates_without_slots_and_no_listed_years() -> None:
    facts = _hand_facts()
    plain = [Fact(f.id, f.s, "plain", f.o, f.start, f.end) for f in facts]
    for fs, bad in ((plain, NOT_YEARS), (facts, {})):

        def make(kernel_rows: int, fs: list[Fact] = fs, bad: object = bad) -> object:
            return corpus_columns(fs, None, PHRASES, LABELS.__getitem__, str.upper, AS_OF, "ongoing", bad,  # type: ignore[arg-type]
                                  batch_rows=7, kernel_rows=kernel_rows)  # fmt: skip

        _same(make)
    empty = corpus_columns([], None, PHRASES, LABELS.__getitem__, str.upper, AS_OF, kernel_rows=0)
    assert empty.kernel and _lines(empty) == b""


def test_kernel_equals_arrow_and_the_release_files_on_a_synthetic_graph(tmp_path: Path) -> None:
    from chronoqa.sources.synthetic import generate

    syn = generate(n_facts=6000, seed=3)
    cols = syn.to_columns()
    phr = {r: generic_phrases(r, f"rel {r}", "event" if i % 3 == 0 else "state") for i, r in enumerate(cols.relations)}
    phr[cols.relations[0]] = replace(phr[cols.relations[0]], statement="{o} was held by {s}; {s} agreed")
    years = sorted({f.start.year for f in syn.to_graph().facts if f.start is not None})
    bad = {"R1": frozenset(years[::7]), "R2": frozenset(years[1::5])}

    def label(e: str) -> str:
        return "" if e.endswith("3") else f'ent "{e}" ü' if e.endswith("7") else e.lower()

    n = len(cols)
    ids = DocIds(cols.ids, (cols.start_year + 1).astype(np.int32), np.arange(n) % 4 == 1)
    for doc_ids in (None, ids):

        def make(kernel_rows: int, doc_ids: object = doc_ids) -> ColumnarCorpus:
            return corpus_columns(cols, doc_ids, phr, label, str.title, AS_OF, "ongoing", bad, batch_rows=1000,  # type: ignore[arg-type]
                                  threads=2, kernel_rows=kernel_rows)  # fmt: skip

        kern = make(0)
        cases = np.concatenate([kern._plan.row_cases(a, min(a + 1000, n))[0] for a in range(0, n, 1000)])
        assert set(np.unique(cases).tolist()) >= {0, 1, 2, 4, 5, 6}  # listed years, points, intervals
        _same(make)
        for name, cc in (("arrow", make(ARROW)), ("kernel", kern)):
            write_corpus(tmp_path / name, cc, "both")
        _same_release(tmp_path)


def _same_release(tmp_path: Path) -> None:
    """The two release corpora: the same ``corpus.jsonl`` bytes, the same ``corpus.parquet`` table.

    Parquet is compared as read: the Arrow path's own file bytes differ from run to run (a known defect of the
    dictionary columns' pages, not of the text column the kernel makes).
    """
    import pyarrow.parquet as pq

    assert (tmp_path / "kernel" / CORPUS_FILE).read_bytes() == (tmp_path / "arrow" / CORPUS_FILE).read_bytes()
    got, want = (pq.read_table(tmp_path / f / CORPUS_PARQUET_FILE) for f in ("kernel", "arrow"))
    assert got.equals(want)
    assert got.column("text").to_pylist() == want.column("text").to_pylist()


def test_the_default_threshold_keeps_small_corpora_on_arrow(monkeypatch: pytest.MonkeyPatch) -> None:
    facts = _hand_facts()
    assert not corpus_columns(facts, None, PHRASES, LABELS.__getitem__, str.upper, AS_OF).kernel
    monkeypatch.setattr(corpus_mod, "KERNEL_MIN_ROWS", len(facts))
    assert corpus_columns(facts, None, PHRASES, LABELS.__getitem__, str.upper, AS_OF).kernel
    monkeypatch.setattr(corpus_mod, "kernel_available", lambda: False)  # numba missing: Arrow, same bytes
    assert not corpus_columns(facts, None, PHRASES, LABELS.__getitem__, str.upper, AS_OF).kernel


@pytest.mark.mirror
@pytest.mark.slow
@pytest.mark.parametrize(("name", "expand"), [("yago11k", False), ("yago11k", True), ("wikidata12k", False)])
def test_kernel_equals_arrow_on_real_corpora(
    mirror: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, expand: bool
) -> None:
    from chronoqa.datasets import load_graph
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark

    build = build_kg_benchmark(load_graph(name), KGBuildConfig(n_questions=30, expand_years=expand))
    assert build.corpus_batches is not None
    for least, folder in ((ARROW, "arrow"), (0, "kernel")):
        monkeypatch.setattr(corpus_mod, "KERNEL_MIN_ROWS", least)
        cc = build.corpus_batches()
        assert isinstance(cc, ColumnarCorpus) and cc.kernel == (least == 0)
        write_corpus(tmp_path / folder, cc, "both")
    _same_release(tmp_path)
