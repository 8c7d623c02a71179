"""The answer stage: a release (+ a run file) + an answerer → ``answers.jsonl`` + ``answers.meta.json``.

``answers.jsonl`` has exactly one line per question of the split, in benchmark order::

    {"qid", "answerer", "status": "ok"|"error"|"abstain", "answer", "explanation", "error", "raw"}

Failed calls are lines with status ``error`` (the scorer counts them wrong), never missing lines.
``answers.meta.json`` records the answerer spec and parameters (protocol name and version, model), the
run file it read (with its spec and sha256) and the counts by status.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chronoqa.answer.base import AnswerContext, Answerer, AnswerRecord, Evidence
from chronoqa.artifacts.release import Release, load_release
from chronoqa.errors import ChronoqaError
from chronoqa.io import read_json, read_jsonl, sha256_file, write_json, write_jsonl

__all__ = ["ANSWERS_FILE", "ANSWERS_META_FILE", "AnswerSummary", "answer_release", "load_hits", "read_answers"]

ANSWERS_FILE = "answers.jsonl"
ANSWERS_META_FILE = "answers.meta.json"


def load_hits(run_path: str | Path) -> dict[str, list[Evidence]]:
    """Retrieved facts per question id from a run file, in rank order (read by the scorer's own reader)."""
    from chronoqa.score.runs import load_run

    return {qid: [dict(h) for h in hits] for qid, hits in load_run(run_path).hits.items()}


def read_answers(path: str | Path) -> list[AnswerRecord]:
    """Read an ``answers.jsonl`` file (or the folder holding one)."""
    p = Path(path)
    if p.is_dir():
        p = p / ANSWERS_FILE
    return [AnswerRecord.from_dict(d) for d in read_jsonl(p)]


@dataclass(frozen=True)
class AnswerSummary:
    """What one answer stage wrote."""

    out_dir: Path
    n: int
    by_status: Mapping[str, int]
    meta: Mapping[str, Any]


def answer_release(
    release: Release | str | Path,
    answerer: Answerer,
    out_dir: str | Path,
    *,
    run: str | Path | None = None,
    split: str = "test",
    cache_dir: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    limit: int | None = None,
) -> AnswerSummary:
    """Answer every question of ``split`` and write ``answers.jsonl`` + ``answers.meta.json`` atomically.

    ``run`` is required for answerers that read retrieved facts (``extractive``, ``llm`` with
    ``rag@1``). ``limit`` keeps the first N questions (for smoke runs).
    """
    rel = release if isinstance(release, Release) else load_release(release)
    questions: Sequence = [q for q in rel.questions if split in ("all", q.split)]
    if limit is not None:
        questions = questions[:limit]
    if answerer.uses_evidence and run is None:
        raise ChronoqaError(f"answerer {answerer.spec!r} reads retrieved facts: pass a run file (--run)")
    from chronoqa.score.runs import meta_path

    evidence = load_hits(run) if (run is not None and answerer.uses_evidence) else {}
    context = AnswerContext(
        train=rel.split("train"), cache_dir=None if cache_dir is None else str(cache_dir), progress=progress
    )
    records: list[AnswerRecord] = []
    for rec in answerer.answer(questions, evidence, context):
        records.append(rec)
    if [r.qid for r in records] != [q.id for q in questions]:
        raise ChronoqaError(
            f"answerer {answerer.spec!r} returned {len(records)} records for {len(questions)} questions"
        )
    out = Path(out_dir)
    counts = Counter(r.status for r in records)
    run_info: dict[str, Any] | None = None
    if run is not None:
        rp = Path(run)
        run_info = {"path": rp.name, "sha256": sha256_file(rp)}
        mp = meta_path(rp)
        if mp.exists():
            m = read_json(mp)
            run_info.update({k: m.get(k) for k in ("spec", "control") if k in m})
    meta = {
        "answerer": answerer.spec,
        **answerer.meta(),
        "release": str(rel.manifest.get("name", rel.path.name)) if rel.manifest else rel.path.name,
        "split": split,
        "run": run_info,
        "n_questions": len(records),
        "by_status": {s: counts.get(s, 0) for s in ("ok", "abstain", "error")},
    }
    write_jsonl(out / ANSWERS_FILE, (r.to_dict() for r in records))
    write_json(out / ANSWERS_META_FILE, meta)
    return AnswerSummary(out, len(records), meta["by_status"], meta)
