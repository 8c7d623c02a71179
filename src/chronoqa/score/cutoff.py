"""Knowledge-cutoff slices: whether a question's gold became true before or after a model's cutoff.

The time a gold *became true* (:func:`gold_time`) is, for every answer kind, the latest known start among the
facts the gold rests on (``S*`` and ``S_anchor``): an entity, a time, a yes/no or a count answer is true from the
moment its last supporting fact began. A duration answer is known only once its fact ended: its time is the
latest known end of ``S*`` (the latest start when no end is known). A question none of whose facts has a date is
``undated``. Against a cutoff, a gold time is ``before`` (its last day before the cutoff's first day), ``after``
(its first day at or after it) or ``straddles`` it (a year 2023 against a cutoff 2023-10);
:meth:`chronoqa.time.TimePoint.side_of` decides. ``docs/metrics.md`` has the definitions with examples.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from chronoqa.records import Question, Triple
from chronoqa.time import TimePoint, parse_time

__all__ = ["CUTOFF_SIDES", "cutoff_side", "cutoff_slices", "gold_time"]

#: The slices of ``evaluate --cutoff``, in report order.
CUTOFF_SIDES = ("before", "straddles", "after", "undated")


def _latest(triples: Sequence[Triple], which: str) -> TimePoint | None:
    points = [p for t in triples if (p := parse_time(getattr(t, which))) is not None]
    return max(points, key=lambda p: p.sort_key(), default=None)


def gold_time(q: Question) -> TimePoint | None:
    """When ``q``'s gold became true (see the module docstring); ``None`` for an undated question."""
    if q.answer_type == "duration":
        end = _latest(q.S_star, "t_end")
        if end is not None:
            return end
    return _latest((*q.S_star, *q.S_anchor), "t_start")


def cutoff_side(q: Question, cutoff: TimePoint) -> str:
    """``before``, ``straddles``, ``after`` or ``undated``: where ``q``'s gold time lies against ``cutoff``."""
    t = gold_time(q)
    return "undated" if t is None else t.side_of(cutoff)


def cutoff_slices(qs: Sequence[Question], cutoff: TimePoint) -> list[tuple[str, str, np.ndarray]]:
    """The ``by_cutoff`` slices of ``qs`` that have questions: (group, side, question indices)."""
    sides = [cutoff_side(q, cutoff) for q in qs]
    return [
        ("by_cutoff", side, np.array([i for i, s in enumerate(sides) if s == side], dtype=np.int64))
        for side in CUTOFF_SIDES
        if side in sides
    ]
