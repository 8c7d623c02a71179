"""A ``chronoqa run`` opens its release once: each release file is read at most once per process, whatever the
number of stages, and a release whose corpus is Parquet runs through every stage as one with ``corpus.jsonl``.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chronoqa.artifacts.release import CORPUS_FILE, CORPUS_PARQUET_FILE, load_release
from chronoqa.io import read_json
from chronoqa.pipeline.config import load_config
from chronoqa.pipeline.run import run_pipeline

pytest.importorskip("bm25s")

#: Every retriever, control and offline answerer kind: each one is a stage that reads the release.
RUN = {"retrievers": "bm25,graph", "controls": "oracle,random", "baselines": "extractive,prior", "n_bootstrap": 20}

_WATCH: list[tuple[Path, Counter[str]]] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """Count the read-only opens of files under a watched folder (``open`` is raised by io.open and os.open)."""
    if event != "open" or not _WATCH or not isinstance(args[0], str | bytes | Path):
        return
    path, mode, flags = Path(str(args[0] if not isinstance(args[0], bytes) else args[0].decode())), args[1], args[2]
    writing = any(c in mode for c in "wax+") if isinstance(mode, str) else bool(flags & 3)
    folder, counts = _WATCH[-1]
    if not writing and path.parent.resolve() == folder:
        counts[path.name] += 1


sys.addaudithook(_audit)


@pytest.fixture
def watch() -> Iterator[Any]:
    """``watch(folder)`` starts counting the read opens of the files in ``folder``; returns the counter."""

    def start(folder: Path) -> Counter[str]:
        counts: Counter[str] = Counter()
        _WATCH.append((folder.resolve(), counts))
        return counts

    yield start
    _WATCH.clear()


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One graph built twice with ``chronoqa build kg``: its corpus as JSONL and as Parquet."""
    from typer.testing import CliRunner

    from chronoqa.cli import app
    from chronoqa.sources.synthetic import SyntheticConfig, generate

    tmp = tmp_path_factory.mktemp("releases")
    generate(SyntheticConfig.mixed(3000), seed=1).write_hyte(tmp / "in")
    base = ["build", "kg", "--input", str(tmp / "in"), "--n-questions", "40", "--generic-phrases", "--allow-ids"]
    out = {}
    for fmt in ("jsonl", "parquet"):
        res = CliRunner().invoke(app, [*base, "--out", str(tmp / fmt), "--corpus-format", fmt])
        assert res.exit_code == 0, res.output
        out[fmt] = tmp / fmt
    assert (out["parquet"] / CORPUS_PARQUET_FILE).exists() and not (out["parquet"] / CORPUS_FILE).exists()
    return out


def test_a_run_reads_each_release_file_once(releases: dict[str, Path], tmp_path: Path, watch: Any) -> None:
    rel = releases["jsonl"]
    counts = watch(rel)
    res = run_pipeline(load_config(None, bench=str(rel), out=str(tmp_path / "run"), **RUN))
    stages = [s.name for s in res.stages]
    assert len(stages) == 4 + 5 + 2 and not any(s.skipped for s in res.stages)  # 4 runs, 5 answer files
    assert counts["benchmark.jsonl"] == 1 and counts[CORPUS_FILE] == 1, counts
    assert max(counts.values()) == 1, counts
    counts.clear()  # a resumed run: every stage skipped, the digests still come from one read
    again = run_pipeline(load_config(None, bench=str(rel), out=str(tmp_path / "run"), **RUN))
    assert all(s.skipped for s in again.stages)
    assert max(counts.values(), default=0) == 1, counts


def test_a_release_is_read_lazily_and_checked(releases: dict[str, Path], watch: Any) -> None:
    n_lines = len((releases["jsonl"] / "benchmark.jsonl").read_text(encoding="utf-8").splitlines())
    counts = watch(releases["jsonl"])
    rel = load_release(releases["jsonl"])
    assert not counts  # opening reads nothing
    assert len(rel.questions) == n_lines >= 30 and not counts[CORPUS_FILE]
    docs = rel.corpus
    first = docs[0]
    assert docs.index_of(first.doc_id) == 0 and docs[len(docs) - 1] == list(docs)[-1]
    assert rel.sha256(CORPUS_FILE) is not None and counts[CORPUS_FILE] == 1


def test_parquet_corpus_runs_through_every_stage(releases: dict[str, Path], tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from chronoqa.cli import app

    args = [f"--{k.replace('_', '-')}={v}" for k, v in RUN.items()]
    for fmt in ("jsonl", "parquet"):
        res = CliRunner().invoke(app, ["run", "--bench", str(releases[fmt]), "--out", str(tmp_path / fmt), *args])
        assert res.exit_code == 0, res.output
    assert list(load_release(releases["parquet"]).corpus) == list(load_release(releases["jsonl"]).corpus)
    stage = read_json(tmp_path / "parquet" / "retrieve-bm25" / "stage.json")
    assert stage["inputs"]["corpus"]["path"].endswith(CORPUS_PARQUET_FILE)
    for name in (
        "retrieve-bm25/bm25.run.jsonl",
        "retrieve-graph/graph.run.jsonl",
        "answer-extractive@graph/answers.jsonl",
    ):
        assert (tmp_path / "parquet" / name).read_bytes() == (tmp_path / "jsonl" / name).read_bytes(), name
    summaries = [read_json(tmp_path / fmt / "report" / "summary.json") for fmt in ("jsonl", "parquet")]
    assert summaries[0]["composition"]["n_docs"] == len(load_release(releases["jsonl"]).corpus) > 2000
    assert [s["retrieval"] for s in summaries] == [summaries[0]["retrieval"]] * 2
    assert [s["answers"] for s in summaries] == [summaries[0]["answers"]] * 2
