"""Run files, and running a retriever over a benchmark release (with reuse of identical runs).

For a run named ``NAME`` three files are written, atomically:

* ``NAME.run.jsonl``: one line per question, every question of the (split of the) benchmark, in
  benchmark order: ``{"qid": str, "hits": [{"doc_id", "rank" (1-based), "score", "s", "r", "o",
  "t_start", "t_end"}, ...]}``; ``hits`` is empty when nothing was retrieved.
* ``NAME.run.trec``: the TREC run format ``qid Q0 docid rank score tag`` (ir_measures, ranx and
  trec_eval read it). Scores are strictly ordered within a question by construction of the
  retrievers' tie-breaking (score, then corpus order) except for exact ties, where TREC tools may
  reorder; ``rank`` in the JSONL file is authoritative.
* ``NAME.run.meta.json``: ``spec``, ``control``, ``corpus_sha256``, ``benchmark_sha256``,
  ``toolkit_version``, ``k``, ``n_questions``, ``timing`` (seconds), plus ``split`` and ``params``.

``run_retrieval`` reuses a saved run when its meta file records the same spec, corpus, benchmark,
toolkit version, ``k`` and split.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from chronoqa._gc import gc_paused
from chronoqa.artifacts.release import BENCHMARK_FILE, CORPUS_FILE, Release, load_release
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.io import atomic_write, dumps, read_json, read_jsonl, sha256_file, write_json
from chronoqa.records import Question
from chronoqa.retrieve.base import Corpus, Hit, RetrievalQuery, query_from_question
from chronoqa.retrieve.registry import REGISTRY, BuildContext, Registry
from chronoqa.retrieve.spec import RetrieverSpec

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


class RunHit(NamedTuple):
    """One hit of a run line."""

    doc_id: str
    rank: int
    score: float
    s: str
    r: str
    o: str
    t_start: str | None
    t_end: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form (fixed key order)."""
        return self._asdict()


class RunLine(NamedTuple):
    """One question's hits, in rank order."""

    qid: str
    hits: tuple[RunHit, ...]


@dataclass(frozen=True)
class Run:
    """A loaded run: lines in file order (iterate for ``(qid, hits)`` pairs) and its meta data."""

    name: str
    lines: tuple[RunLine, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __iter__(self) -> Iterator[RunLine]:
        return iter(self.lines)

    def __len__(self) -> int:
        return len(self.lines)

    def as_dict(self) -> dict[str, tuple[RunHit, ...]]:
        """Question id → hits."""
        return {line.qid: line.hits for line in self.lines}

    @property
    def control(self) -> bool:
        """Whether the run comes from a control retriever."""
        return bool(self.meta.get("control", False))


def run_name(spec: str | RetrieverSpec) -> str:
    """A file-system-safe name for a spec: ``bm25`` stays ``bm25``; parameters add a short hash."""
    text = str(RetrieverSpec.parse(spec))
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")
    if safe == text:
        return safe
    return f"{safe[:80]}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


def run_paths(out_dir: str | Path, name: str) -> tuple[Path, Path, Path]:
    """``(jsonl, trec, meta)`` paths of run ``name`` in ``out_dir``."""
    d = Path(out_dir)
    return d / f"{name}.run.jsonl", d / f"{name}.run.trec", d / f"{name}.run.meta.json"


def write_run(out_dir: str | Path, name: str, lines: Sequence[RunLine], meta: Mapping[str, Any]) -> Path:
    """Write ``NAME.run.jsonl``, ``NAME.run.trec`` and ``NAME.run.meta.json``; returns the JSONL path."""
    jsonl, trec, meta_file = run_paths(out_dir, name)
    tag = re.sub(r"\s+", "_", name) or "run"
    with atomic_write(jsonl) as fh:
        for line in lines:
            fh.write(dumps({"qid": line.qid, "hits": [h.to_dict() for h in line.hits]}))
            fh.write("\n")
    with atomic_write(trec) as fh:
        for line in lines:
            for h in line.hits:
                fh.write(f"{line.qid} Q0 {h.doc_id} {h.rank} {h.score!r} {tag}\n")
    write_json(meta_file, dict(meta))  # last: a meta file marks a complete run
    return jsonl


def read_run(path: str | Path) -> Run:
    """Read a run written by :func:`write_run` (``NAME.run.jsonl``, or its folder + name via the meta).

    Bad lines raise :class:`chronoqa.errors.DataError` naming the file, line and field.
    """
    p = Path(path)
    if not p.exists():
        raise DataError(str(p), 0, "(file)", str(p), "an existing run file", "write one with `chronoqa retrieve`")
    lines: list[RunLine] = []
    seen: set[str] = set()
    for lineno, obj in enumerate(read_jsonl(p), 1):
        qid = obj.get("qid")
        if not isinstance(qid, str) or not qid:
            raise DataError(str(p), lineno, "qid", qid, "a non-empty question id", "regenerate the run")
        if qid in seen:
            raise DataError(str(p), lineno, "qid", qid, "one line per question", "remove the duplicate line")
        seen.add(qid)
        raw = obj.get("hits")
        if not isinstance(raw, list):
            raise DataError(str(p), lineno, "hits", raw, "a list of hits", "regenerate the run")
        hits = []
        for j, h in enumerate(raw):
            try:
                hits.append(
                    RunHit(
                        str(h["doc_id"]),
                        int(h["rank"]),
                        float(h["score"]),
                        str(h["s"]),
                        str(h["r"]),
                        str(h["o"]),
                        h.get("t_start"),
                        h.get("t_end"),
                    )
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise DataError(
                    str(p),
                    lineno,
                    f"hits[{j}]",
                    str(h)[:80],
                    "a hit with doc_id, rank, score, s, r, o, t_start, t_end",
                    f"regenerate the run ({exc!r})",
                ) from None
        hits.sort(key=lambda h: h.rank)
        lines.append(RunLine(qid, tuple(hits)))
    meta_file = p.with_name(p.name.removesuffix(".jsonl") + ".meta.json")
    meta = read_json(meta_file) if meta_file.exists() else {}
    name = p.name.removesuffix(".run.jsonl")
    return Run(str(meta.get("spec", name)), tuple(lines), meta)


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
    """The corpus of a loaded release, keyed by the checksum of its ``corpus.jsonl``."""
    path = release.path / CORPUS_FILE
    if not path.exists():
        raise ChronoqaError(f"{release.path} has no {CORPUS_FILE}: retrievers need the benchmark's corpus")
    return Corpus(release.corpus, sha256_file(path))


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
) -> list[RunResult]:
    """Run each spec over the benchmark's questions (all, or one ``split``) and write its run files.

    Retrievers see only :func:`~chronoqa.retrieve.base.query_from_question`; controls also get the
    questions. ``progress(spec, done, total)`` is called after each batch.
    """
    if k <= 0:
        raise ValueError(f"k must be positive, got {k}")
    release = bench if isinstance(bench, Release) else load_release(bench)
    questions: list[Question] = list(release.questions) if split is None else release.split(split)
    if split is not None and not questions:
        splits = sorted({q.split for q in release.questions})
        raise ChronoqaError(f"split {split!r} has no questions in {release.path}; splits there: {', '.join(splits)}")
    corpus = load_corpus(release)
    bench_sha = sha256_file(release.path / BENCHMARK_FILE)
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
        with gc_paused():
            retriever = registry.build(spec, ctx)
            t1 = time.perf_counter()
            for start in range(0, len(queries), batch_size):
                hits.extend(retriever.retrieve(queries[start : start + batch_size], k))
                if progress is not None:
                    progress(spec_text, len(hits), len(queries))
        t2 = time.perf_counter()
        lines = _lines(corpus, qids, hits)
        meta = {
            **want,
            "control": control,
            "params": registry.resolve_params(spec),
            "timing": {
                "build_s": round(t1 - t0, 4),
                "retrieve_s": round(t2 - t1, 4),
                "queries_per_s": round(len(queries) / (t2 - t1), 2) if t2 > t1 else None,
            },
        }
        path = write_run(out_dir, name, lines, meta)
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
