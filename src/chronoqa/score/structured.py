"""Time accuracy of a structured reply (``structured@1``), read from its fields, not from prose.

A record with ``structured`` fields (:class:`~chronoqa.artifacts.answers.StructuredAnswer`) has its
answers list as its answer text (joined by ``"; "``), judged as any answer text is
(:func:`~chronoqa.score.answers.score_answer`). Its dates are judged here, against the question's gold
time references (:func:`~chronoqa.score.time_accuracy.gold_time_refs`, each belonging to a fact as
:func:`~chronoqa.score.time_accuracy.ref_facts` says):

* A reference about an answer's fact is compared with the claims of the answers that name that gold
  answer (every claim, for a time answer): dates claimed for another entity never count for the gold's
  fact. A reference about the fact the question is anchored on is compared with the ``reference`` dates.
* A ``start`` reference reads a claim's ``start`` (its ``date`` when it gives no start), an ``end``
  reference its ``end`` (or ``date``), an ``any`` reference any of them; a time answer given without
  dates is read as its own date.
* Each field is read by :mod:`chronoqa.time` (:func:`~chronoqa.score.time_accuracy.cites`) and compared
  at the question's granularity (the reference's own when coarser). A reference is cited when at least
  one claim states that end and every claim that states it names the reference's time.

**T** is 1 when every reference is cited. A record without structured fields (a free-text protocol, or a
structured reply that was not valid JSON) gets ``None`` from :func:`structured_time`: the prose judge reads it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from chronoqa.artifacts.answers import AnswerClaim, AnswerRecord, DateClaim, StructuredAnswer
from chronoqa.records import Question
from chronoqa.score.answers import gold_names
from chronoqa.score.judge_names import NameIndex
from chronoqa.score.time_accuracy import Judge, TimeRef, TimeRow, cites, gold_time_refs, ref_facts
from chronoqa.time import Granularity, TimePoint

__all__ = ["claims_of_facts", "structured_time"]

Claim = AnswerClaim | DateClaim


def _named(q: Question, claims: Sequence[AnswerClaim], aliases: Mapping[str, Sequence[str]] | None) -> list[set[int]]:
    """For each claim, the gold answers (indexes of ``q.answers``) its answer names (all, for a time answer)."""
    if q.answer_type == "time":
        return [set(range(len(q.answers))) for _ in claims]
    index = NameIndex({str(i): tuple(sorted(names)) for i, names in enumerate(gold_names(q, aliases))})
    return [{int(k) for m in index.find(c.answer) if not m.negated for k in m.keys if k.isdigit()} for c in claims]


def claims_of_facts(
    q: Question, reply: StructuredAnswer, n_facts: int, aliases: Mapping[str, Sequence[str]] | None = None
) -> list[list[Claim]]:
    """The claims about each fact of :func:`~chronoqa.score.time_accuracy.ref_facts` (rules in the module docstring)."""
    claims = list(reply.answers)
    out: list[list[Claim]] = [[] for _ in range(n_facts)]
    if not claims and reply.reference is None:
        return out
    named = _named(q, claims, aliases)
    table = q.source == "table" or any("answer" in r for r in q.time_refs)
    anchor = n_facts - 1 if (q.S_anchor and not table and n_facts > 1) else None
    for fi in range(n_facts):
        if fi == anchor:
            out[fi] = [reply.reference] if reply.reference is not None else []
        elif table:
            out[fi] = [c for c, gi in zip(claims, named, strict=True) if fi in gi]
        elif fi == 0:
            out[fi] = [c for c, gi in zip(claims, named, strict=True) if gi]
    return out


def _fields(claim: Claim, which: str, time_answer: bool) -> list[str]:
    """What a claim states for one end of its fact (``start``, ``end``, or ``any``)."""
    dates = (claim.start, claim.end, claim.date)
    if time_answer and isinstance(claim, AnswerClaim) and not any(dates):
        dates = (None, None, claim.answer)
    start, end, date = dates
    if which in ("start", "end"):
        own = start if which == "start" else end
        return [d for d in (own or date,) if d]
    return [d for d in dates if d]


def _cited(claims: Sequence[Claim], which: str, value: TimePoint, g: Granularity, time_answer: bool) -> bool:
    """At least one claim states this end, and each that does names the reference's time in one of its fields."""
    stated = [fs for fs in (_fields(c, which, time_answer) for c in claims) if fs]
    ref = [TimeRef(which, value)]
    return bool(stated) and all(any(cites(f, ref, g) for f in fs) for fs in stated)


def structured_time(
    q: Question,
    record: AnswerRecord | None,
    answer_correct: bool,
    *,
    aliases: Mapping[str, Sequence[str]] | None = None,
    judge: Judge | None = None,
) -> TimeRow | None:
    """Time accuracy from a record's structured fields; ``None`` when it has none (the prose judge reads it)."""
    if record is None or record.structured is None or record.status == "error":
        return None
    verdict = judge(q, record) if judge is not None else None
    refs = gold_time_refs(q)
    if not refs:
        return TimeRow(q.id, answer_correct, None, 0, 0, verdict)
    g = Granularity.parse(q.granularity or "year")
    facts, fact_refs = ref_facts(q, refs)
    claims = claims_of_facts(q, record.structured, len(facts), aliases)
    time_answer = q.answer_type == "time"
    n = sum(1 for which, value, fi in fact_refs if _cited(claims[fi], which, value, g, time_answer))
    return TimeRow(q.id, answer_correct, n == len(fact_refs), len(fact_refs), n, verdict)
