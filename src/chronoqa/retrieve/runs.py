"""Running a retriever over a benchmark release, with reuse of identical runs.

The run files (``NAME.run.jsonl``, ``NAME.run.trec``, ``NAME.run.meta.json``), their record type
:class:`~chronoqa.artifacts.runs.Run` and their one reader live in :mod:`chronoqa.artifacts.runs`
(re-exported here). ``run_retrieval`` reuses a saved run when its meta file records the same spec,
corpus, benchmark, toolkit version, ``k`` and split.
"""

from __future__ import annotations

import functools
import hashlib
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from chronoqa._gc import gc_paused
from chronoqa.artifacts.release import BENCHMARK_FILE, CORPUS_FILE, CORPUS_PARQUET_FILE, Release, load_release
from chronoqa.artifacts.runs import Run, RunHit, RunLine, read_run, run_paths, write_run
from chronoqa.errors import ChronoqaError
from chronoqa.io import read_json
from chronoqa.records import Question
from chronoqa.retrieve.base import Corpus, Hit, RetrievalQuery, query_from_question
from chronoqa.retrieve.registry import REGISTRY, BuildContext, Registry
from chronoqa.spec import RetrieverSpec

__all__ = [
    "Run",
    "RunHit",
    "RunLine",
    "RunResult",
    "gold_recall",
    "load_corpus",
    "read_run",
    "run_name",
    "run_paths",
    "run_retrieval",
    "write_run",
]


def run_name(spec: str | RetrieverSpec) -> str:
    """A file-system-safe name for a spec: ``bm25`` stays ``bm25``; parameters add a short hash."""
    text = str(RetrieverSpec.parse(spec))
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")
    if safe == text:
        return safe
    return f"{safe[:80]}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


@dataclass(frozen=True)
class RunResult:
    """What :func:`run_retrieval` did for one spec."""

    spec: str
    name: str
    path: Path
    control: bool
    reused: bool
    n_questions: int
    seconds: float
    run: Run


def _toolkit_version() -> str:
    from chronoqa import __version__

    return __version__


def _lines(corpus: Corpus, qids: Sequence[str], hits: Sequence[Sequence[Hit]]) -> list[RunLine]:
    out = []
    for qid, row in zip(qids, hits, strict=True):
        rh = []
        for rank, h in enumerate(row, 1):
            d = corpus.docs[h.pos]
            rh.append(RunHit(d.doc_id, rank, float(h.score), d.s, d.r, d.o, d.t_start, d.t_end))
        out.append(RunLine(qid, tuple(rh)))
    return out


def load_corpus(release: Release) -> Corpus:
    """The corpus of a release, keyed by the checksum of the file it is read from (``corpus.jsonl``, else Parquet).

    The checksum names the retrievers' cached indexes.
    """
    name = release.corpus_file
    if name is None:
        raise ChronoqaError(
            f"{release.path} has no {CORPUS_FILE} or {CORPUS_PARQUET_FILE}: retrievers need the benchmark's corpus "
            "(rebuild the release, or copy its corpus file back)"
        )
    return Corpus(release.corpus, release.sha256(name) or "")


def run_retrieval(
    bench: str | Path | Release,
    specs: Sequence[str | RetrieverSpec],
    out_dir: str | Path,
    *,
    k: int = 100,
    split: str | None = None,
    batch_size: int = 256,
    registry: Registry = REGISTRY,
    reuse: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
    encoding: Callable[[str, int, int], None] | None = None,
) -> list[RunResult]:
    """Run each spec over the benchmark's questions (all, or one ``split``) and write its run files.

    Retrievers see only :func:`~chronoqa.retrieve.base.query_from_question`; controls also get the questions.
    ``progress(spec, done, total)``: ``done=0`` before a retriever is built (not for a reused run), then after
    each batch of questions; ``encoding(spec, done, total)`` while it encodes the corpus (dense), per batch.
    """
    if k <= 0:
        raise ValueError(f"k must be positive, got {k}")
    release = bench if isinstance(bench, Release) else load_release(bench)
    questions: list[Question] = list(release.questions) if split is None else release.split(split)
    if split is not None and not questions:
        splits = sorted({q.split for q in release.questions})
        raise ChronoqaError(f"split {split!r} has no questions in {release.path}; splits there: {', '.join(splits)}")
    corpus = load_corpus(release)
    bench_sha = release.sha256(BENCHMARK_FILE) or ""
    parsed = [RetrieverSpec.parse(s) for s in specs]
    for s in parsed:  # fail fast on typos and bad parameters, before any index is built
        registry.resolve_params(s)
    ctx = BuildContext(corpus, {q.id: q for q in questions})
    queries: list[RetrievalQuery] = [query_from_question(q) for q in questions]
    qids = [q.qid for q in queries]
    results = []
    for spec in parsed:
        spec_text = str(spec)
        name = run_name(spec)
        jsonl, _, meta_file = run_paths(out_dir, name)
        control = registry.is_control(spec)
        want = {
            "spec": spec_text,
            "corpus_sha256": corpus.sha256,
            "benchmark_sha256": bench_sha,
            "toolkit_version": _toolkit_version(),
            "k": k,
            "n_questions": len(queries),
            "split": split,
        }
        if reuse and meta_file.exists() and jsonl.exists():
            old = read_json(meta_file)
            if isinstance(old, dict) and all(old.get(key) == value for key, value in want.items()):
                results.append(RunResult(spec_text, name, jsonl, control, True, len(queries), 0.0, read_run(jsonl)))
                continue
        t0 = time.perf_counter()
        hits: list[list[Hit]] = []
        if progress is not None:
            progress(spec_text, 0, len(queries))
        ctx.on_encode = None if encoding is None else functools.partial(encoding, spec_text)
        with gc_paused():
            retriever = registry.build(spec, ctx)
            t1 = time.perf_counter()
            for start in range(0, len(queries), batch_size):
                hits.extend(retriever.retrieve(queries[start : start + batch_size], k))
                if progress is not None:
                    progress(spec_text, len(hits), len(queries))
        t2 = time.perf_counter()
        lines = _lines(corpus, qids, hits)
        meta = {**want, "control": control, "params": registry.resolve_params(spec)}
        timing = {
            "build_s": round(t1 - t0, 4),
            "retrieve_s": round(t2 - t1, 4),
            "queries_per_s": round(len(queries) / (t2 - t1), 2) if t2 > t1 else None,
        }
        path = write_run(out_dir, name, lines, meta, timing)
        results.append(
            RunResult(spec_text, name, path, control, False, len(queries), t2 - t0, Run(spec_text, tuple(lines), meta))
        )
    return results


def gold_recall(run: Run, questions: Sequence[Question], k: int = 10) -> float | None:
    """Mean recall@``k`` of S* doc ids over the questions whose S* names documents.

    A quick summary for the command line; the scoring stage computes the real metrics. ``None`` when
    no question has S* doc ids.
    """
    by_qid = run.as_dict()
    total, n = 0.0, 0
    for q in questions:
        gold = {t.doc_id for t in q.S_star if t.doc_id}
        if not gold:
            continue
        got = {h.doc_id for h in by_qid.get(q.id, ())[:k]}
        total += len(gold & got) / len(gold)
        n += 1
    return total / n if n else None
