"""The 13 Allen relations as SQL conditions, numpy predicates and reference constructions.

A row's validity is the closed unit span ``[_lo, _hi]``; the reference is the closed unit span
``[b0, b1]``; both are read half-open (``[x0, x1 + 1)``), as everywhere in :mod:`chronoqa.time`. Each
relation is one condition on the two spans, written once here and used three ways: as the DuckDB
``WHERE`` clause of the question's SQL, as a vectorised numpy predicate for screening candidates,
and as the constraint the reference construction satisfies. Every reference lies strictly before
the ``as_of`` unit, so an open-ended row (closed at ``as_of``) can only stand in relations that say
the row *continues after* the reference: it never "ends" inside or before it.

Validity in the world: ``before`` and ``after`` scan an unbounded past or future ("every term that ended
before 1993"), whose gold holds only if the table reaches back to the beginning of time. They are asked in
their *bounded* form (:data:`BOUNDED`): "the last ... whose term ended before T" (of the rows ending before
T, those ending latest) and "the first ... whose term began after T". The units a question is about
(:func:`asked_span`) must lie inside the key's coverage, from its first row to its last known end.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from chronoqa.time import Allen

__all__ = [
    "BOUNDED",
    "RELATIONS",
    "TIME_REFS",
    "RelationSpec",
    "asked_span",
    "bounded_mask",
    "bounded_sql",
    "random_reference",
]

Predicate = Callable[[np.ndarray, np.ndarray, int, int], np.ndarray]
Builder = Callable[[int, int, int, int, random.Random], tuple[int, int] | None]


def _pick(rng: random.Random, lo: int, hi: int) -> int | None:
    return rng.randint(lo, hi) if lo <= hi else None


def _before(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    b0 = _pick(rng, a1 + 2, min(a1 + 1 + w, last))
    return None if b0 is None else (b0, b0)


def _after(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    b1 = _pick(rng, a0 - 1 - w, min(a0 - 2, last))
    return None if b1 is None else (b1, b1)


def _meets(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    return (a1 + 1, a1 + 1) if a1 + 1 <= last else None


def _met_by(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    return (a0 - 1, a0 - 1) if a0 - 1 <= last else None


def _overlaps(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    b0 = _pick(rng, max(a0 + 1, a1 - w), a1)
    b1 = _pick(rng, a1 + 1, min(a1 + w, last))
    return None if b0 is None or b1 is None else (b0, b1)


def _overlapped_by(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    b0 = _pick(rng, a0 - w, a0 - 1)
    b1 = _pick(rng, a0, min(a1 - 1, a0 + w, last))
    return None if b0 is None or b1 is None else (b0, b1)


def _starts(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    b1 = _pick(rng, a1 + 1, min(a1 + w, last))
    return None if b1 is None else (a0, b1)


def _started_by(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    b1 = _pick(rng, max(a0, a1 - 1 - w), min(a1 - 1, last))
    return None if b1 is None else (a0, b1)


def _during(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    b0 = _pick(rng, a0 - w, a0 - 1)
    b1 = _pick(rng, a1 + 1, min(a1 + w, last))
    return None if b0 is None or b1 is None else (b0, b1)


def _contains(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    b0 = _pick(rng, a0 + 1, min(a1 - 1, last))
    if b0 is None:
        return None
    b1 = _pick(rng, b0, min(a1 - 1, b0 + w, last))
    return None if b1 is None else (b0, b1)


def _finishes(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    if a1 > last:
        return None
    b0 = _pick(rng, a0 - w, a0 - 1)
    return None if b0 is None else (b0, a1)


def _finished_by(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    if a1 > last:
        return None
    b0 = _pick(rng, a0 + 1, a1)
    return None if b0 is None else (b0, a1)


def _equals(a0: int, a1: int, last: int, w: int, rng: random.Random) -> tuple[int, int] | None:
    return (a0, a1) if a1 <= last else None


@dataclass(frozen=True, slots=True)
class RelationSpec:
    """One Allen relation ``row R reference``: its SQL condition, predicate and reference builder.

    ``sql`` is a template over the row columns ``_lo``/``_hi`` and the reference bounds ``{b0}``/``{b1}``.
    ``build(a0, a1, last, window, rng)`` returns a reference ``(b0, b1)`` with ``b1 <= last`` for which
    the relation holds with the row ``[a0, a1]``, or ``None`` when no such reference exists.
    """

    relation: Allen
    sql: str
    predicate: Predicate
    build: Builder

    def condition(self, b0: int, b1: int) -> str:
        """The SQL condition for one reference."""
        return self.sql.format(b0=b0, b1=b1)


RELATIONS: dict[Allen, RelationSpec] = {
    spec.relation: spec
    for spec in (
        RelationSpec(Allen.BEFORE, "_hi + 1 < {b0}", lambda lo, hi, b0, b1: hi + 1 < b0, _before),
        RelationSpec(Allen.AFTER, "_lo > {b1} + 1", lambda lo, hi, b0, b1: lo > b1 + 1, _after),
        RelationSpec(Allen.MEETS, "_hi + 1 = {b0}", lambda lo, hi, b0, b1: hi + 1 == b0, _meets),
        RelationSpec(Allen.MET_BY, "_lo = {b1} + 1", lambda lo, hi, b0, b1: lo == b1 + 1, _met_by),
        RelationSpec(
            Allen.OVERLAPS,
            "_lo < {b0} AND _hi >= {b0} AND _hi < {b1}",
            lambda lo, hi, b0, b1: (lo < b0) & (hi >= b0) & (hi < b1),
            _overlaps,
        ),
        RelationSpec(
            Allen.OVERLAPPED_BY,
            "_lo > {b0} AND _lo <= {b1} AND _hi > {b1}",
            lambda lo, hi, b0, b1: (lo > b0) & (lo <= b1) & (hi > b1),
            _overlapped_by,
        ),
        RelationSpec(Allen.STARTS, "_lo = {b0} AND _hi < {b1}", lambda lo, hi, b0, b1: (lo == b0) & (hi < b1), _starts),
        RelationSpec(
            Allen.STARTED_BY,
            "_lo = {b0} AND _hi > {b1}",
            lambda lo, hi, b0, b1: (lo == b0) & (hi > b1),
            _started_by,
        ),
        RelationSpec(Allen.DURING, "_lo > {b0} AND _hi < {b1}", lambda lo, hi, b0, b1: (lo > b0) & (hi < b1), _during),
        RelationSpec(
            Allen.CONTAINS, "_lo < {b0} AND _hi > {b1}", lambda lo, hi, b0, b1: (lo < b0) & (hi > b1), _contains
        ),
        RelationSpec(
            Allen.FINISHES, "_lo > {b0} AND _hi = {b1}", lambda lo, hi, b0, b1: (lo > b0) & (hi == b1), _finishes
        ),
        RelationSpec(
            Allen.FINISHED_BY,
            "_lo < {b0} AND _hi = {b1}",
            lambda lo, hi, b0, b1: (lo < b0) & (hi == b1),
            _finished_by,
        ),
        RelationSpec(
            Allen.EQUALS, "_lo = {b0} AND _hi = {b1}", lambda lo, hi, b0, b1: (lo == b0) & (hi == b1), _equals
        ),
    )
}

#: Which gold dates an explanation must cite (TDBench's rule).
TIME_REFS: dict[Allen, tuple[str, ...]] = {
    r: (
        ("start",)
        if r in (Allen.AFTER, Allen.MET_BY, Allen.STARTED_BY)
        else ("end",)
        if r in (Allen.BEFORE, Allen.MEETS, Allen.FINISHED_BY)
        else ("start", "end")
    )
    for r in Allen
}


def random_reference(lo: int, hi: int, *, last: int, window: int, rng: random.Random) -> tuple[int, int] | None:
    """A random reference starting inside the documented span ``[lo, hi]`` of a key (finds ``none`` questions)."""
    b0 = _pick(rng, lo, min(hi, last))
    if b0 is None:
        return None
    b1 = _pick(rng, b0, min(b0 + window, last))
    return None if b1 is None else (b0, b1)


#: Relations asked in a bounded form: ``last`` (latest end among the matching rows), ``first`` (earliest start).
BOUNDED: dict[Allen, str] = {Allen.BEFORE: "last", Allen.AFTER: "first"}


def asked_span(relation: Allen, b0: int, b1: int) -> tuple[int, int]:
    """The units a question is about: the unit before ``b0`` (before, meets), after ``b1`` (after, met-by)."""
    if relation in (Allen.BEFORE, Allen.MEETS):
        return b0 - 1, b0 - 1
    if relation in (Allen.AFTER, Allen.MET_BY):
        return b1 + 1, b1 + 1
    return b0, b1


def bounded_mask(relation: Allen, lo: np.ndarray, hi: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``mask`` narrowed to the bounded form's pick (the latest-ending / earliest-starting matching rows)."""
    form = BOUNDED.get(relation)
    if form is None or not mask.any():
        return mask
    if form == "last":
        return mask & (hi == hi[mask].max())
    return mask & (lo == lo[mask].min())


def bounded_sql(relation: Allen, condition: str, scope: str) -> str:
    """The SQL condition of the bounded form (``condition`` itself for the other relations).

    ``condition`` plus: the row's end (last) or start (first) is the extreme among the rows of ``scope`` (a
    ``FROM ... WHERE ...`` clause selecting the key's rows) that satisfy ``condition``.
    """
    form = BOUNDED.get(relation)
    if form is None:
        return condition
    col, agg = ("_hi", "MAX") if form == "last" else ("_lo", "MIN")
    return f"{condition} AND {col} = (SELECT {agg}({col}) {scope} AND {condition})"
