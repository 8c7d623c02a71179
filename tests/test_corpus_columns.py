"""The columnar corpus (``corpus_columns``) and the columnar writers (``json_lines``, ``corpus.parquet``).

Gold: sentences typed by hand for every case of the time phrase, and for the bytes a reference written here, one
fact at a time (:func:`_sentence`: the statement filled by ``fill``, the time phrase worded case by case, the
first character a capital; then ``json.dumps`` per record through ``write_jsonl``), on hand fixtures and a
synthetic graph; on (mirror) YAGO11k and Wikidata12k, the JSON lines, the Parquet file and the documents read
back agree.
"""

# ruff: noqa: E501  (the hand-typed sentences are long)
from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronoqa.artifacts.release import (
    CORPUS_FILE,
    CORPUS_PARQUET_FILE,
    CORPUS_SCHEMA,
    docs_batches,
    load_release,
    write_corpus,
    write_release,
)
from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg.corpus import corpus_columns
from chronoqa.generate.kg.phrases import RelationPhrases, fill, generic_phrases
from chronoqa.io import iter_json_lines, json_lines, json_strings, write_jsonl
from chronoqa.records import Doc, Fact, FactColumns
from chronoqa.time import TimePoint, distinct_dates, render_dates, render_time, start_after_end

AS_OF = TimePoint(2026, 1, 1)


def _phr(key: str, statement: str, kind: str = "state") -> RelationPhrases:
    return replace(generic_phrases(key, key, kind), statement=statement)  # type: ignore[arg-type]


PHRASES = {
    "playsFor": _phr("playsFor", "{s} played for {o}"),
    "won": _phr("won", "{s} won {o}", "event"),
    "created": _phr("created", "{s} created {o}"),
    "ownedBy": _phr("ownedBy", "{o} owned {s}"),  # object first
    "twice": _phr("twice", "{s} and {o} met; {s} left"),  # three slots
    "plain": _phr("plain", "something happened"),  # no slot
    "lead": _phr("lead", "the team of {s} beat {o}"),  # a text first
}
LABELS = {
    "ann": "ann",
    "reds": "Reds",
    "prize": 'the "Gold" prize',
    "xbox": "Xbox\\360\n\ttwo",
    "strasse": "ßtraße",
    "blank": "",
    "brace": "{s}-{o} club",
    "sep": "line\u2028sep é 😀",
}
NOT_YEARS = {"created": frozenset({360, 100})}


def P(y: int, m: int | None = None, d: int | None = None) -> TimePoint:
    return TimePoint(y, m, d)


# (fact, the sentence typed by hand) for every case of the time phrase, open end read as "ongoing"
HAND: list[tuple[tuple[str, str, str, TimePoint | None, TimePoint | None], str]] = [
    (("ann", "playsFor", "reds", P(2000), P(2004)), "Ann played for Reds from 2000 to 2004."),
    (("ann", "playsFor", "reds", P(2000, 3), P(2004, 5, 7)), "Ann played for Reds from March 2000 to 7 May 2004."),
    (("ann", "won", "prize", P(2003), None), 'Ann won the "Gold" prize in 2003.'),
    (("ann", "won", "prize", P(2003, 3, 7), None), 'Ann won the "Gold" prize on 7 March 2003.'),
    (("ann", "playsFor", "reds", P(1999, 2), P(1999, 2)), "Ann played for Reds in February 1999."),
    (("ann", "playsFor", "reds", P(-405), P(-405)), "Ann played for Reds in 405 BC."),
    (("ann", "playsFor", "reds", P(427), P(0)), "Ann played for Reds (recorded from 427 AD to year 0: start after end, invalid)."),
    (("ann", "playsFor", "reds", P(2010), None), "Ann played for Reds from 2010, ongoing as of 2026-01-01."),
    (("ann", "playsFor", "reds", None, P(1990)), "Ann played for Reds until 1990 (start unknown)."),
    (("ann", "playsFor", "reds", None, None), "Ann played for Reds (time unknown)."),
    # reversed at the start's granularity, and not reversed when the coarser end still covers the start
    (("ann", "playsFor", "reds", P(2005), P(2001)), "Ann played for Reds (recorded from 2005 to 2001: start after end, invalid)."),
    (("ann", "playsFor", "reds", P(2001, 5), P(2001, 3, 31)), "Ann played for Reds (recorded from May 2001 to 31 March 2001: start after end, invalid)."),
    (("ann", "playsFor", "reds", P(2001, 5, 3), P(2001, 4)), "Ann played for Reds (recorded from 3 May 2001 to April 2001: start after end, invalid)."),
    (("ann", "playsFor", "reds", P(2001, 5, 3), P(2001)), "Ann played for Reds from 3 May 2001 to 2001."),
    (("ann", "playsFor", "reds", P(2001, 5, 3), P(2001, 5)), "Ann played for Reds from 3 May 2001 to May 2001."),
    (("ann", "playsFor", "reds", P(2001), P(2001, 5, 3)), "Ann played for Reds from 2001 to 3 May 2001."),
    # years listed as not being years (relation "created")
    (("ann", "created", "xbox", P(360), None), "Ann created Xbox\\360\n\ttwo (date recorded as 360, not a valid year)."),
    (("ann", "created", "xbox", P(360), P(360)), "Ann created Xbox\\360\n\ttwo (date recorded as 360, not a valid year)."),
    (("ann", "created", "xbox", P(360, 1), P(360, 5)), "Ann created Xbox\\360\n\ttwo (dates recorded as 0360-01 to 0360-05; 360 is not a valid year)."),
    (("ann", "created", "xbox", P(1999), P(360)), "Ann created Xbox\\360\n\ttwo (dates recorded as 1999 to 0360; 360 is not a valid year)."),
    (("ann", "created", "xbox", P(360), P(100)), "Ann created Xbox\\360\n\ttwo (dates recorded as 0360 to 0100; 100 and 360 are not a valid year)."),
    (("ann", "created", "xbox", None, P(100)), "Ann created Xbox\\360\n\ttwo (date recorded as 100, not a valid year)."),
    (("ann", "created", "xbox", P(1999), None), "Ann created Xbox\\360\n\ttwo from 1999, ongoing as of 2026-01-01."),
    (("ann", "playsFor", "reds", P(360), None), "Ann played for Reds from 360 AD, ongoing as of 2026-01-01."),
    # templates and labels: object first, three slots, no slot, a text first, capitals, braces, escapes
    (("reds", "ownedBy", "ann", P(2000), P(2001)), "Ann owned Reds from 2000 to 2001."),
    (("ann", "twice", "reds", P(2000), None), "Ann and Reds met; ann left from 2000, ongoing as of 2026-01-01."),
    (("ann", "plain", "reds", P(2000), None), "Something happened from 2000, ongoing as of 2026-01-01."),
    (("ann", "lead", "reds", P(2000), None), "The team of ann beat Reds from 2000, ongoing as of 2026-01-01."),
    (("strasse", "playsFor", "brace", P(2000), None), "SStraße played for {s}-{o} club from 2000, ongoing as of 2026-01-01."),
    (("blank", "playsFor", "reds", P(2000), None), " played for Reds from 2000, ongoing as of 2026-01-01."),
    (("blank", "lead", "sep", P(2000), None), "The team of  beat line\u2028sep é 😀 from 2000, ongoing as of 2026-01-01."),
]  # fmt: skip


def _hand_facts() -> list[Fact]:
    return [Fact(i, s, r, o, a, b, i + 1) for i, ((s, r, o, a, b), _) in enumerate(HAND)]


def _time_phrase(f: Fact, is_event: bool, open_end: str, bad: Collection[int]) -> str:
    """The time phrase of one fact, case by case (the reference the columnar corpus is checked against)."""
    s, e = f.start, f.end
    listed = sorted({p.year for p in (s, e) if p is not None and p.year in bad})
    if listed:
        years = " and ".join(map(str, listed))
        if s is None or e is None or s == e:
            return f" (date recorded as {years}, not a valid year)."
        verb = "is" if len(listed) == 1 else "are"
        return f" (dates recorded as {s.isoformat()} to {e.isoformat()}; {years} {verb} not a valid year)."
    if s is not None and e is not None and s.lo(s.granularity) > e.hi(s.granularity):
        return f" (recorded from {render_time(s)} to {render_time(e)}: start after end, invalid)."
    if s is not None and ((e is None and is_event) or e == s):
        return f" {'on' if s.day is not None else 'in'} {render_time(s)}."
    if s is not None and e is not None:
        return f" from {render_time(s)} to {render_time(e)}."
    if s is not None:
        tail = " (end not recorded)" if open_end == "unknown" else f", ongoing as of {AS_OF.isoformat()}"
        return f" from {render_time(s)}{tail}."
    return f" until {render_time(e)} (start unknown)." if e is not None else " (time unknown)."


def _sentence(f: Fact, phr: RelationPhrases, label: Callable[[str], str], open_end: str, bad: Collection[int]) -> str:
    text = fill(phr.statement, s=label(f.s), o=label(f.o)) + _time_phrase(f, phr.is_event, open_end, bad)
    return text[:1].upper() + text[1:]


def _reference(
    facts: Sequence[Fact],
    ids: Sequence[str],
    phrases: Mapping[str, RelationPhrases],
    label: Callable[[str], str],
    rel_label: Callable[[str], str],
    open_end: str = "ongoing",
    not_years: Mapping[str, Collection[int]] | None = None,
) -> list[Doc]:
    """The corpus one fact at a time, as the reference says it (``AS_OF``)."""
    bad = not_years or {}

    def doc(f: Fact, i: str) -> Doc:
        iso = [None if t is None else t.isoformat() for t in (f.start, f.end)]
        text = _sentence(f, phrases[f.r], label, open_end, bad.get(f.r, ()))
        return Doc(i, text, label(f.s), rel_label(f.r), label(f.o), *iso, f.s, f.r, f.o, f.id)

    return [doc(f, i) for f, i in zip(facts, ids, strict=True)]


def _docs(facts: list[Fact], open_end: str = "ongoing", doc_ids: list[str] | None = None) -> list[Doc]:
    ids = doc_ids or [f"F{f.id}" for f in facts]
    return _reference(facts, ids, PHRASES, LABELS.__getitem__, str.upper, open_end, NOT_YEARS)


def _table(facts: list[Fact] | FactColumns, open_end: str = "ongoing", **kw: object) -> pa.Table:
    return corpus_columns(facts, None, PHRASES, LABELS.__getitem__, str.upper, AS_OF, open_end, NOT_YEARS, **kw).reader().read_all()  # type: ignore[arg-type]  # fmt: skip


def _reference_bytes(docs: list[Doc], tmp_path: Path) -> bytes:
    write_jsonl(tmp_path / "ref.jsonl", (d.to_dict() for d in docs))
    return (tmp_path / "ref.jsonl").read_bytes()


def _columnar_bytes(table: pa.Table | pa.RecordBatchReader, tmp_path: Path) -> bytes:
    batches = table.to_batches() if isinstance(table, pa.Table) else table
    return b"".join(lines.to_pybytes() for _, lines in iter_json_lines(batches))


def test_every_time_phrase_case_by_hand() -> None:
    facts = _hand_facts()
    table = _table(facts)
    assert table.schema.equals(CORPUS_SCHEMA)
    assert table.column("text").to_pylist() == [want for _, want in HAND]
    assert [d.text for d in _docs(facts)] == [want for _, want in HAND]  # the reference agrees with the hand
    unknown = _table(facts, "unknown").column("text").to_pylist()
    assert unknown[7] == "Ann played for Reds from 2010 (end not recorded)."
    assert unknown[:7] == [want for _, want in HAND[:7]]


def test_hand_fixture_bytes_equal_the_reference(tmp_path: Path) -> None:
    facts = _hand_facts()
    for open_end in ("ongoing", "unknown"):
        ref = _reference_bytes(_docs(facts, open_end), tmp_path)
        assert _columnar_bytes(_table(facts, open_end), tmp_path) == ref
        assert _columnar_bytes(_table(FactColumns.from_facts(facts), open_end, batch_rows=4), tmp_path) == ref
    rows = [json.loads(line) for line in _columnar_bytes(_table(facts), tmp_path).decode().split("\n")[:-1]]
    assert rows[2]["o"] == 'the "Gold" prize' and rows[2]["t_end"] is None and rows[2]["r"] == "WON"
    assert rows[16]["text"].startswith("Ann created Xbox\\360\n\ttwo") and rows[16]["fact_id"] == 16


def test_doc_ids_are_given_or_made_from_fact_ids(tmp_path: Path) -> None:
    facts = _hand_facts()[:5]
    ids = [f"F{f.id}-x" for f in facts]
    table = (
        corpus_columns(facts, ids, PHRASES, LABELS.__getitem__, str.upper, AS_OF, "ongoing", NOT_YEARS)
        .reader()
        .read_all()
    )
    assert table.column("doc_id").to_pylist() == ids
    arrow_ids = corpus_columns(facts, pa.array(ids), PHRASES, LABELS.__getitem__, str.upper, AS_OF).reader().read_all()
    assert arrow_ids.column("doc_id").to_pylist() == ids
    assert _table(facts).column("doc_id").to_pylist() == ["F0", "F1", "F2", "F3", "F4"]
    with pytest.raises(ValueError, match="4 doc ids for 5 facts"):
        corpus_columns(facts, ids[:4], PHRASES, LABELS.__getitem__, str.upper, AS_OF)
    with pytest.raises(KeyError):
        corpus_columns(
            [Fact(0, "ann", "nope", "reds", None, None)], None, PHRASES, LABELS.__getitem__, str, AS_OF
        ).reader().read_all()


def test_synthetic_graph_equals_the_reference(tmp_path: Path) -> None:
    from chronoqa.sources.synthetic import generate

    syn = generate(n_facts=6000, seed=3)
    cols = syn.to_columns()
    facts = list(syn.to_graph().facts)
    phr = {r: generic_phrases(r, f"rel {r}", "event" if i % 3 == 0 else "state") for i, r in enumerate(cols.relations)}
    years = sorted({f.start.year for f in facts if f.start is not None})
    bad = {"R1": frozenset(years[::7]), "R2": frozenset(years[1::5])}

    def label(e: str) -> str:
        return f'ent "{e}"' if e.endswith("7") else e.lower()

    for open_end in ("ongoing", "unknown"):
        docs = _reference(facts, [f"F{f.id}" for f in facts], phr, label, str.title, open_end, bad)
        assert list(corpus_columns(cols, None, phr, label, str.title, AS_OF, open_end, bad).docs()) == docs
        ref = _reference_bytes(docs, tmp_path)
        got = corpus_columns(cols, None, phr, label, str.title, AS_OF, open_end, bad, batch_rows=1000).reader()
        assert _columnar_bytes(got, tmp_path) == ref
        cc = corpus_columns(cols, None, phr, label, str.title, AS_OF, open_end, bad, batch_rows=1000, threads=2)
        write_corpus(tmp_path / "cc", cc)
        assert (tmp_path / "cc" / CORPUS_FILE).read_bytes() == ref


def test_release_writer_equals_the_reference_for_every_doc_id_form(tmp_path: Path) -> None:
    # write_corpus on corpus_columns: ids made from fact ids, given (with bytes JSON escapes), expanded by year
    from chronoqa.generate.kg.index import DocIds

    facts = _hand_facts()
    n = len(facts)
    expanded = DocIds(np.arange(n, dtype=np.int64) + 7, np.arange(n, dtype=np.int32) + 1990, np.arange(n) % 3 == 0)
    for ids in (None, [f'D"{i}\\' for i in range(n)], expanded, DocIds(np.arange(n, dtype=np.int64))):
        want = list(ids) if ids is not None else None
        for open_end in ("ongoing", "unknown"):
            ref = _reference_bytes(_docs(facts, open_end, want), tmp_path)
            for threads, rows in ((0, 4), (2, 5), (None, 1000)):
                cc = corpus_columns(facts, ids, PHRASES, LABELS.__getitem__, str.upper, AS_OF, open_end, NOT_YEARS,
                                    batch_rows=rows, threads=threads)  # fmt: skip
                assert len(cc) == n
                for fmt in ("jsonl", "both"):
                    assert write_corpus(tmp_path / fmt, cc, fmt) == n
                    assert (tmp_path / fmt / CORPUS_FILE).read_bytes() == ref
                parquet = pq.read_table(tmp_path / "both" / CORPUS_PARQUET_FILE)
                assert parquet.column("text").to_pylist() == [d.text for d in _docs(facts, open_end, want)]
                assert write_corpus(tmp_path / "pq", cc, "parquet") == n
                assert not (tmp_path / "pq" / CORPUS_FILE).exists()
    plain = [
        Fact(f.id, f.s, "plain", f.o, f.start, f.end) for f in facts
    ]  # templates without a slot: one text piece per row
    write_corpus(
        tmp_path / "plain", corpus_columns(plain, None, PHRASES, LABELS.__getitem__, str.upper, AS_OF, batch_rows=7)
    )
    assert (tmp_path / "plain" / CORPUS_FILE).read_bytes() == _reference_bytes(_docs(plain), tmp_path)
    assert [b.num_rows for b in corpus_columns(facts, None, PHRASES, LABELS.__getitem__, str.upper, AS_OF,
                                               batch_rows=8).reader()] == [8, 8, 8, 7]  # fmt: skip


@pytest.mark.mirror
@pytest.mark.slow
@pytest.mark.parametrize(("name", "expand"), [("yago11k", False), ("yago11k", True), ("wikidata12k", False)])
def test_real_corpus_lines_parquet_and_documents_agree(mirror: Path, tmp_path: Path, name: str, expand: bool) -> None:
    from chronoqa.datasets import load_graph
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark

    build = build_kg_benchmark(load_graph(name), KGBuildConfig(n_questions=30, expand_years=expand))
    assert build.corpus_batches is not None
    write_corpus(tmp_path / "new", build.corpus_batches(), "both")
    lines = (tmp_path / "new" / CORPUS_FILE).read_bytes()
    docs = list(build.corpus())
    assert lines == b"".join(
        json.dumps(d.to_dict(), ensure_ascii=False, separators=(",", ":")).encode() + b"\n" for d in docs
    )
    assert len(docs) == build.manifest["counts"]["corpus_docs"] == len({d.doc_id for d in docs})
    assert all(d.text[:1].isupper() or not d.text[:1].isalpha() for d in docs)
    assert load_release_corpus(tmp_path / "new" / CORPUS_PARQUET_FILE) == docs


def load_release_corpus(path: Path) -> list[Doc]:
    import pyarrow.parquet as pq

    return [Doc.from_dict(row) for row in pq.read_table(path).to_pylist()]


# -- the writers ------------------------------------------------------------------------------------------


def test_json_lines_equal_json_dumps_per_record(tmp_path: Path) -> None:
    strings = ["plain", 'q"uote', "back\\slash", "ctl\x00\x01\x1f\x7f", "nl\n\r\t\b\f", "é 😀 \u2028", "", None]
    records = [
        {"a": s, "d": strings[(i * 3) % len(strings)], "n": (i - 3) * 10**12 if i % 4 else None, "b": i % 3 == 0}
        for i, s in enumerate(strings)
    ]
    records[2]["b"] = None
    table = pa.table(
        {
            "a": pa.array([r["a"] for r in records], pa.string()),
            "d": pa.array([r["d"] for r in records], pa.string()).dictionary_encode(),
            "n": pa.array([r["n"] for r in records], pa.int64()),
            "b": pa.array([r["b"] for r in records], pa.bool_()),
        }
    )
    write_jsonl(tmp_path / "ref.jsonl", records)
    for sliced in (table, table.slice(0)):
        assert (
            bytes(b"".join(bytes(json_lines(b)) for b in sliced.to_batches())) == (tmp_path / "ref.jsonl").read_bytes()
        )
    assert bytes(json_lines(table.slice(3, 2).to_batches()[0])) == b"".join(
        (tmp_path / "ref.jsonl").read_bytes().splitlines(keepends=True)[3:5]
    )
    assert bytes(json_lines(pa.record_batch({"a": pa.array([], pa.string())}))) == b""
    with pytest.raises(TypeError, match="double"):
        json_lines(pa.record_batch({"x": pa.array([1.5])}))


def test_json_lines_of_columns_without_nulls_equal_json_dumps() -> None:
    # columns with no missing value are joined with their keys and quotes as scalars: the same bytes
    records = [{"a": s, "n": i - 2, "b": i % 2 == 0} for i, s in enumerate(["x", 'q"', "é\n", ""])]
    batch = pa.RecordBatch.from_pylist(records)
    want = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)
    assert bytes(json_lines(batch)).decode("utf-8") == want
    for name in ("a", "n", "b"):
        one = "".join(json.dumps({name: r[name]}, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)
        assert bytes(json_lines(batch.select([name]))).decode("utf-8") == one


@settings(max_examples=40)
@given(st.lists(st.one_of(st.none(), st.text(max_size=12)), max_size=30))
def test_json_lines_escape_any_text_as_json_dumps(values: list[str | None]) -> None:
    batch = pa.record_batch({"k": pa.array(values, pa.string())})
    want = "".join(json.dumps({"k": v}, ensure_ascii=False, separators=(",", ":")) + "\n" for v in values)
    assert bytes(json_lines(batch)).decode("utf-8") == want


def _dumps(value: str | None, prefix: str, suffix: str, quoted: bool) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return prefix + (text if quoted or value is None else text[1:-1]) + suffix


@settings(max_examples=60)
@given(
    st.lists(st.one_of(st.none(), st.text(max_size=12)), max_size=30),
    st.sampled_from(["", ',"k":']),
    st.sampled_from(["", "}"]),
    st.booleans(),
    st.integers(0, 3),
)
def test_json_strings_equal_json_dumps(
    values: list[str | None], prefix: str, suffix: str, quoted: bool, cut: int
) -> None:
    arr = pa.array(values, pa.string()).slice(min(cut, len(values)))  # a slice: offsets not from 0
    want = [_dumps(v, prefix, suffix, quoted) for v in values[cut:]]
    assert json_strings(arr, prefix, suffix, quoted=quoted).to_pylist() == want


def test_json_strings_find_escapes_across_scan_chunks() -> None:
    # several MB of text, a byte JSON escapes in each chunk the scan compares at a time (and one in the last
    # string): each escaped where it is, every other string unchanged
    rng = np.random.default_rng(0)
    values = ["x" * int(n) for n in rng.integers(0, 40, 200_000)]
    at = np.cumsum([len(v) for v in values])
    for k in (1 << 18) * np.arange(1, 14):
        i = int(np.searchsorted(at, k))  # the string that holds byte k
        values[i] = values[i] + ['"', "\\", "\x01", "\n"][int(k >> 18) % 4]
    values[-1] += "\x1f"
    arr = pa.array(values, pa.string())
    out = json_strings(arr, quoted=False).to_pylist()
    assert out == [_dumps(v, "", "", False) for v in values]
    assert sum(a != b for a, b in zip(out, values, strict=True)) == 14


def _release(tmp_path: Path, name: str, corpus: object, fmt: str) -> Path:
    return write_release(tmp_path / name, [], corpus, [], {"k": 1}, "# card\n", corpus_format=fmt)  # type: ignore[arg-type]


def test_release_corpus_formats(tmp_path: Path) -> None:
    facts = _hand_facts()
    docs = _docs(facts)
    plain = _release(tmp_path, "plain", docs, "jsonl")
    assert not (plain / CORPUS_PARQUET_FILE).exists()
    both = _release(tmp_path, "both", _table(facts), "both")
    assert (both / CORPUS_FILE).read_bytes() == (plain / CORPUS_FILE).read_bytes()
    again = _release(tmp_path, "again", _table(facts, batch_rows=8), "both")
    from_docs = _release(tmp_path, "docs", docs, "parquet")
    assert not (from_docs / CORPUS_FILE).exists()
    docs_both = _release(tmp_path, "docs_both", iter(docs), "both")  # documents through the columnar writers
    assert (docs_both / CORPUS_FILE).read_bytes() == (plain / CORPUS_FILE).read_bytes()
    assert (again / CORPUS_FILE).read_bytes() == (plain / CORPUS_FILE).read_bytes()
    # deterministic Parquet: the same batches give the same bytes
    _release(tmp_path, "both2", _table(facts), "both")
    assert (tmp_path / "both2" / CORPUS_PARQUET_FILE).read_bytes() == (both / CORPUS_PARQUET_FILE).read_bytes()
    _release(tmp_path, "docs2", docs, "parquet")
    assert (tmp_path / "docs2" / CORPUS_PARQUET_FILE).read_bytes() == (from_docs / CORPUS_PARQUET_FILE).read_bytes()
    # load_release reads either: the same documents
    for folder in (plain, both, from_docs):
        assert list(load_release(folder).corpus) == docs
    with pytest.raises(ChronoqaError, match="corpus format 'csv' is unknown"):
        _release(tmp_path, "bad", docs, "csv")
    assert not (tmp_path / "bad").exists()


def test_parquet_encodes_only_the_repeated_columns_and_summarises_only_fact_id(tmp_path: Path) -> None:
    """Dictionary pages for the label, date and id columns, none for the unique ``doc_id`` and ``text`` (hashing
    every document's text costs a third of the encoding); min/max statistics only for ``fact_id``, the one column
    whose ranges tell row groups of a fact-ordered corpus apart."""
    folder = _release(tmp_path, "pq", _table(_hand_facts()), "parquet")
    meta = pq.ParquetFile(folder / CORPUS_PARQUET_FILE).metadata
    group = meta.row_group(0)
    columns = {group.column(i).path_in_schema: group.column(i) for i in range(group.num_columns)}
    assert set(columns) == set(CORPUS_SCHEMA.names)
    for name, col in columns.items():
        dictionary = any("DICTIONARY" in e for e in col.encodings)
        assert dictionary == (name not in ("doc_id", "text", "fact_id")), (name, col.encodings)
        assert col.is_stats_set == (name == "fact_id"), name


def test_docs_batches_and_schema_check(tmp_path: Path) -> None:
    docs = _docs(_hand_facts())
    batches = list(docs_batches(docs, 10))
    assert [b.num_rows for b in batches] == [10, 10, 10, 1]
    assert pa.Table.from_batches(batches).to_pylist() == [d.to_dict() for d in docs]
    wrong = pa.table({"doc_id": ["F0"]})
    with pytest.raises(ChronoqaError, match="CORPUS_SCHEMA"):
        write_corpus(tmp_path, wrong, "both")


def test_parquet_corpus_with_a_repeated_doc_id_is_refused(tmp_path: Path) -> None:
    from chronoqa.errors import DataError

    docs = _docs(_hand_facts())[:3]
    docs[2] = Doc(docs[0].doc_id, *[getattr(docs[2], f) for f in CORPUS_SCHEMA.names[1:]])
    folder = _release(tmp_path, "dup", docs, "parquet")
    (folder / "benchmark.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(DataError, match="line 1 has it"):
        load_release(folder).load()
    (folder / CORPUS_PARQUET_FILE).write_bytes(b"not parquet")
    with pytest.raises(DataError, match="parquet"):
        load_release(folder).load()


# -- time on columns --------------------------------------------------------------------------------------


@st.composite
def _points(draw: st.DrawFn, years: tuple[int, int] = (-3000, 3000)) -> TimePoint:
    year = draw(st.integers(*years))
    month = draw(st.none() | st.integers(1, 12))
    if month is None:
        return TimePoint(year)
    day = draw(st.none() | st.integers(1, 28) | st.just(-1))
    if day == -1:  # a month's last day
        return TimePoint(year, month, (TimePoint(year, month).last_day() - TimePoint(year, month).first_day()) + 1)
    return TimePoint(year, month, day)


def _ymd(points: list[TimePoint]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.array([p.year for p in points], dtype=np.int32),
        np.array([p.month or 0 for p in points], dtype=np.int8),
        np.array([p.day or 0 for p in points], dtype=np.int8),
    )


@settings(max_examples=60)
@given(st.lists(_points(), max_size=40), st.sampled_from([(-3000, 3000), (-30000, 30000)]))
def test_distinct_and_rendered_dates_match_scalar(points: list[TimePoint], _span: tuple[int, int]) -> None:
    if _span[1] > 3000 and points:
        points = [*points, TimePoint(29999), TimePoint(-29999)]  # the sort path (dates over 20,000 years)
    import chronoqa.time.columns as tc

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tc, "_CHUNK", 3)  # several chunks
        chunked, pos_c = distinct_dates(*_ymd(points))
    assert [chunked[i] for i in pos_c.tolist()] == points
    got, pos = distinct_dates(*_ymd(points))
    assert [got[i] for i in pos.tolist()] == points
    assert len(got) == len(set(points))
    texts, pos2 = render_dates(*_ymd(points))
    assert [texts[i] for i in pos2.tolist()] == [render_time(p) for p in points]
    iso, pos3 = render_dates(*_ymd(points), render=TimePoint.isoformat)
    assert [iso[i] for i in pos3.tolist()] == [p.isoformat() for p in points]


@settings(max_examples=80)
@given(st.lists(st.tuples(_points((1990, 2002)), _points((1990, 2002))), min_size=1, max_size=40))
def test_start_after_end_matches_scalar(pairs: list[tuple[TimePoint, TimePoint]]) -> None:
    got = start_after_end(_ymd([s for s, _ in pairs]), _ymd([e for _, e in pairs]))
    assert got.tolist() == [s.lo(s.granularity) > e.hi(s.granularity) for s, e in pairs]


def test_cli_corpus_format(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from chronoqa.cli import app
    from chronoqa.sources.synthetic import generate

    generate(n_facts=3000, seed=1).write_hyte(tmp_path / "in")
    base = ["build", "kg", "--input", str(tmp_path / "in"), "--n-questions", "20", "--generic-phrases", "--allow-ids"]
    res = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "both"), "--corpus-format", "both"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "plain")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "both" / CORPUS_FILE).read_bytes() == (tmp_path / "plain" / CORPUS_FILE).read_bytes()
    assert (tmp_path / "both" / CORPUS_PARQUET_FILE).exists() and not (
        tmp_path / "plain" / CORPUS_PARQUET_FILE
    ).exists()
    assert list(load_release(tmp_path / "both").corpus) == list(load_release(tmp_path / "plain").corpus)
    bad = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "bad"), "--corpus-format", "csv"])
    assert bad.exit_code == 2 and "--corpus-format" in bad.output and not (tmp_path / "bad").exists()
