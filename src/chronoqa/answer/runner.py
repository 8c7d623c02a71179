"""The answer stage: a release (+ a run) + an answerer -> an answer folder (``answers.jsonl`` + meta).

The files and their one reader and writer live in :mod:`chronoqa.artifacts.answers`: exactly one line
per question of the split, in benchmark order; failed calls are lines with status ``error``, never
missing lines. ``answers.meta.json`` records the answerer spec and parameters (protocol name and
version, model), the run file it read (with its spec and sha256) and the counts by status.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chronoqa.answer.base import AnswerContext, Answerer, AnswerRecord, Evidence
from chronoqa.artifacts.answers import (
    ANSWERS_FILE,
    ANSWERS_META_FILE,
    MAX_ANSWER_CHARS,
    capped,
    check_cap,
    read_answers,
    write_answers,
)
from chronoqa.artifacts.paraphrases import ParaphraseRecord, phrased_questions
from chronoqa.artifacts.release import Release, load_release
from chronoqa.artifacts.runs import RunSource, meta_path, read_run
from chronoqa.errors import ChronoqaError
from chronoqa.io import read_json, sha256_file
from chronoqa.records import Doc

__all__ = ["ANSWERS_FILE", "ANSWERS_META_FILE", "AnswerSummary", "answer_release", "load_hits", "read_answers"]


def load_hits(run: RunSource, docs: Iterable[Doc] | None = None) -> dict[str, list[Evidence]]:
    """Retrieved facts per question id from a run of any shape, in rank order (read by the one run reader)."""
    return {line.qid: [h.to_dict() for h in line.hits] for line in read_run(run, docs=docs)}


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
    max_answer_chars: int = MAX_ANSWER_CHARS,
    paraphrases: Sequence[ParaphraseRecord] = (),
) -> AnswerSummary:
    """Answer every question of ``split`` and write ``answers.jsonl`` + ``answers.meta.json`` atomically.

    ``run`` is required for answerers that read retrieved facts (``extractive``, ``llm`` with
    ``rag@1``). ``limit`` keeps the first N questions (for smoke runs). A reply with a text longer than
    ``max_answer_chars`` characters is stored as an ``error`` line naming the cap
    (:func:`chronoqa.artifacts.answers.capped`). ``paraphrases`` (a paraphrase set of the release): each
    answered question's accepted paraphrases are answered too (ids ``<qid>~p<i>``), after the originals; a
    paraphrase is shown the facts retrieved for its original (the run is not re-run on its wording).
    """
    check_cap(max_answer_chars)
    rel = release if isinstance(release, Release) else load_release(release)
    questions: Sequence = [q for q in rel.questions if split in ("all", q.split)]
    if limit is not None:
        questions = questions[:limit]
    if answerer.uses_evidence and run is None:
        raise ChronoqaError(f"answerer {answerer.spec!r} reads retrieved facts: pass a run file (--run)")
    evidence = load_hits(run, rel.corpus) if (run is not None and answerer.uses_evidence) else {}
    if paraphrases:
        phrased = phrased_questions(questions, paraphrases)
        origin = {r.pid: r.qid for r in paraphrases}
        evidence = {**evidence, **{p.id: evidence[origin[p.id]] for p in phrased if origin[p.id] in evidence}}
        questions = [*questions, *phrased]
    context = AnswerContext(
        train=rel.split("train"),
        cache_dir=None if cache_dir is None else str(cache_dir),
        progress=progress,
        corpus=lambda: rel.corpus,
    )
    records: list[AnswerRecord] = []
    for rec in answerer.answer(questions, evidence, context):
        records.append(capped(rec, max_answer_chars))
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
    if paraphrases:
        meta["n_paraphrases"] = len(phrased)
    write_answers(out, records, meta, max_chars=max_answer_chars)
    return AnswerSummary(out, len(records), meta["by_status"], meta)
