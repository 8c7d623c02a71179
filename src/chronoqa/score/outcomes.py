"""Partial time credit, outcome classes and the join intermediate hop, as per-question ratio metrics.

Everything here reads verdicts the one judge already made (:class:`~chronoqa.score.answers.AnswerOutcome`
and :class:`~chronoqa.score.time_accuracy.TimeRow`); nothing judges a text a second way. Definitions
(``docs/metrics.md``, "Partial credit and outcome classes"):

* ``T_half``: at least one time reference stated for its fact at its end (one end right), or ``T``.
  ``T_loose``: ``T`` with dates compared by their year only (right at a coarser granularity), or ``T``.
  Both over the questions that have a ``T``; ``T <= T_loose`` and ``T <= T_half`` question by question.
* Outcome classes, over the questions that have a ``T`` (they sum to 1): :data:`OUTCOME_CLASSES`.
* Join questions (``operator == "temporal_join"``): ``join_intermediate_right`` (the reply names the hidden
  hop: the key value of the gold fact rows the question does not state, e.g. the host country of the Games it
  names) and
  ``join_wrong_given_intermediate`` (of those, the share whose final answer is wrong).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Question
from chronoqa.score.answers import AnswerOutcome
from chronoqa.score.judge_names import NameIndex, fold
from chronoqa.score.time_accuracy import TimeRow

__all__ = ["OUTCOME_CLASSES", "class_metrics", "hidden_hop", "intermediate_hop", "outcome_class"]

OUTCOME_CLASSES: tuple[str, ...] = (
    "right_holder_right_date",
    "right_holder_wrong_date",
    "outdated_right_date",
    "outdated_wrong_date",
    "other_wrong",
)
"""Right answer with its dates right / wrong; an outdated holder (a time-alignment question answered with an
earlier holder) with that holder's own dates right / wrong; anything else (wrong, abstain, error, missing,
undecided)."""

_Metrics = dict[str, tuple[np.ndarray, np.ndarray]]


def outcome_class(o: AnswerOutcome, t: TimeRow) -> str | None:
    """The class of one answer and its explanation; ``None`` when the question has no time reference."""
    if t.T is None:
        return None
    if o.correct:
        return "right_holder_right_date" if t.T else "right_holder_wrong_date"
    if o.outcome == "outdated":
        return "outdated_right_date" if t.outdated_T else "outdated_wrong_date"
    return "other_wrong"


def hidden_hop(q: Question) -> list[str]:
    """The key values of a join question's fact rows that the question does not state (the hop to find).

    "Who was the Prime Minister of the host country during the Vancouver 2010 Olympic Games?": the fact row's
    key is ``Canada | Prime Minister``; the question states the role, so the hop is ``Canada``.
    """
    if q.operator != "temporal_join":
        return []
    asked = fold(q.question)
    parts = dict.fromkeys(p.strip() for t in q.S_star for p in (t.s_id or t.s).split(" | "))
    return [p for p in parts if p and fold(p) not in asked]


def intermediate_hop(q: Question, rec: AnswerRecord | None) -> bool | None:
    """Whether the reply (answer and explanation) names every hidden hop of a join question, not negated.

    ``None`` for a question that is no join or hides no hop. Names are found by the judge's one name reader
    (:class:`~chronoqa.score.judge_names.NameIndex`).
    """
    hidden = hidden_hop(q)
    if not hidden:
        return None
    if rec is None or rec.status == "error":
        return False
    text = " ".join(x for x in (rec.answer, rec.explanation) if x)
    found = {k for m in NameIndex({v: [v] for v in hidden}).find(text) if not m.negated for k in m.keys}
    return all(v in found for v in hidden)


def _rate(flags: Sequence[bool], den: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.fromiter(flags, dtype=np.float64, count=len(flags)) * den, den


def class_metrics(outcomes: Sequence[AnswerOutcome], rows: Sequence[TimeRow]) -> tuple[_Metrics, _Metrics]:
    """(answer-block metrics, time-block metrics): the join hop, partial credit and the outcome classes."""
    n = len(rows)
    has_t = np.fromiter((t.T is not None for t in rows), dtype=np.float64, count=n)
    tim: _Metrics = {
        "T_half": _rate([bool(t.T) or bool(t.T_half) for t in rows], has_t),
        "T_loose": _rate([bool(t.T) or bool(t.T_loose) for t in rows], has_t),
    }
    classes = [outcome_class(o, t) for o, t in zip(outcomes, rows, strict=True)]
    for name in OUTCOME_CLASSES:
        tim[name] = _rate([c == name for c in classes], has_t)
    ans: _Metrics = {}
    hop = [o.intermediate for o in outcomes]
    if any(h is not None for h in hop):
        is_join = np.fromiter((h is not None for h in hop), dtype=np.float64, count=n)
        right = np.fromiter((bool(h) for h in hop), dtype=np.float64, count=n)
        ans["join_intermediate_right"] = (right * is_join, is_join)
        ans["join_wrong_given_intermediate"] = _rate([not o.correct for o in outcomes], right)
    return ans, tim
