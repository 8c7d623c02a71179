"""Per-question verdicts: how one run or one answer folder scored each question (the explorer's rows).

The evaluate stage writes them beside each metrics file (:func:`chronoqa.artifacts.metrics.write_verdicts`);
the report reads them back to draw the question explorer, the "fails everywhere" view, the operator x hops
heatmaps and the significance matrix. Every number here comes from :func:`chronoqa.score.evaluate.evaluate`'s
per-question rows; the only thing computed here is *where* a run returned the question's own facts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from chronoqa.artifacts.answers import AnswerRecord, read_answers
from chronoqa.artifacts.metrics import AnswerVerdict, Phrasing, RetrievalVerdict
from chronoqa.artifacts.release import Release
from chronoqa.artifacts.runs import RunHit, RunSource, read_run
from chronoqa.records import Question, Triple
from chronoqa.score.evaluate import EvaluationResult
from chronoqa.score.outcomes import outcome_class

__all__ = ["FACT_SETS", "MAX_ANSWER_CHARS", "OUTRANK", "answer_verdicts", "question_facts", "retrieval_verdicts"]

FACT_SETS: tuple[str, ...] = ("S_star", "S_dist", "S_stale", "S_anchor")
"""The fact sets a question's timeline draws, in drawing order."""

OUTRANK = "Outrank@10"
"""The rank measure a retrieval verdict records beside CCR (one of evaluate's default measures)."""

MAX_ANSWER_CHARS = 300
"""Answer texts longer than this are cut (with ``…``) in the verdicts: the explorer shows, it does not archive."""


def question_facts(q: Question) -> list[tuple[str, Triple]]:
    """The question's facts in timeline order: (set name, triple) for S*, S_dist, S_stale, S_anchor."""
    return [(name, t) for name in FACT_SETS for t in getattr(q, name)]


def _hit_key(h: RunHit) -> tuple[str, str, str, str | None, str | None]:
    def s(v: object) -> str | None:
        return None if v is None or v == "" else str(v)

    return (h.s, h.r, h.o, s(h.t_start), s(h.t_end))


def _marks(facts: Sequence[tuple[str, Triple]], hits: Sequence[RunHit]) -> list[list[int]]:
    """``[fact index, rank]`` for every returned hit that is one of the question's facts (by doc id, else key)."""
    by_doc: dict[str, int] = {}
    by_key: dict[tuple[str, str, str, str | None, str | None], int] = {}
    for k, (_, t) in enumerate(facts):
        if t.doc_id:
            by_doc.setdefault(t.doc_id, k)
        by_key.setdefault(t.key(), k)
    out: list[list[int]] = []
    for pos, h in enumerate(hits):
        j = by_doc.get(h.doc_id) if h.doc_id else None
        i = j if j is not None else by_key.get(_hit_key(h))
        if i is not None:
            out.append([i, int(h.rank) if float(h.rank).is_integer() else pos + 1])
    return out


def retrieval_verdicts(result: EvaluationResult, run: RunSource, release: Release) -> list[RetrievalVerdict]:
    """One row per question with evidence: CCR, stale/dist hits, hits returned and the marks of its own facts."""
    hits = read_run(run, docs=release.corpus).hits
    by_id = {q.id: q for q in release.questions}
    num, den = result.retrieval_values.get(OUTRANK, (None, None))
    rows = []
    for i, r in enumerate(result.evidence_rows):
        facts = question_facts(by_id[r.id])
        outrank = None if num is None or den is None or not den[i] else int(num[i])
        rows.append(
            RetrievalVerdict(
                qid=r.id,
                CCR=int(r.CCR),
                stale_hit=r.stale_hit,
                dist_hit=r.dist_hit,
                n_retrieved=r.n_retrieved,
                marks=_marks(facts, hits.get(r.id, ())),
                Outrank=outrank,
            )
        )
    return rows


def _cut(text: str | None) -> str | None:
    if text is None or len(text) <= MAX_ANSWER_CHARS:
        return text
    return text[: MAX_ANSWER_CHARS - 1] + "…"


def _phrasings(rows: Sequence[tuple[str, str, bool]] | None, recs: Mapping[str, AnswerRecord]) -> list[Phrasing] | None:
    """Each paraphrase of a question: its id, text, verdict and answer (None: the question has no set)."""
    if rows is None:
        return None
    return [Phrasing(pid, text, int(ok), _cut(recs[pid].answer if pid in recs else None)) for pid, text, ok in rows]


def answer_verdicts(result: EvaluationResult, answers: str | Path | Iterable[AnswerRecord]) -> list[AnswerVerdict]:
    """One row per scored question: outcome, A, T (``None``: no time reference), the answer text, the class.

    The class is TDBench's outcome class (:func:`chronoqa.score.outcomes.outcome_class`); on a join question the
    row also says whether the reply names the intermediate hop.
    """
    recs = {r.qid: r for r in (read_answers(answers) if isinstance(answers, (str, Path)) else list(answers))}
    times: Mapping[str, Any] = {t.qid: t for t in result.time_rows}
    rows = []
    for o in result.answer_outcomes:
        rec = recs.get(o.qid)
        t = times.get(o.qid)
        rows.append(
            AnswerVerdict(
                qid=o.qid,
                outcome=o.outcome,
                A=int(o.correct),
                T=None if t is None or t.T is None else int(t.T),
                answer=_cut(rec.answer if rec is not None else None),
                explanation=_cut(rec.explanation if rec is not None else None),
                outcome_class=None if t is None else outcome_class(o, t),
                intermediate=o.intermediate,
                phrasings=_phrasings(result.phrasings.get(o.qid), recs),
            )
        )
    return rows
