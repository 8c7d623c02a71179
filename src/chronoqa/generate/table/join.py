"""Temporal natural join of two temporal tables, and its comparison with a pre-joined table.

The temporal natural join pairs rows whose shared attribute columns are equal and whose validity
intervals overlap (share at least one unit at the comparison granularity; open ends closed at
``as_of``); the joined row's validity is the intersection.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from chronoqa.errors import ChronoqaError
from chronoqa.records import TemporalTable
from chronoqa.time import Granularity, Interval, TimePoint

__all__ = ["JoinDiff", "JoinResult", "compare_joined", "temporal_join"]


@dataclass(frozen=True)
class JoinResult:
    """The joined table and, per joined row, the (left, right) source row indices."""

    table: TemporalTable
    on: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]
    left: TemporalTable
    right: TemporalTable
    unmatched_left: tuple[int, ...]


def temporal_join(
    left: TemporalTable,
    right: TemporalTable,
    *,
    granularity: Granularity,
    as_of: TimePoint,
    on: Sequence[str] | None = None,
    name: str | None = None,
    aliases: Mapping[str, str] | None = None,
) -> JoinResult:
    """Temporal natural join of ``left`` and ``right`` on ``on`` (default: every shared column).

    ``aliases`` maps a left-hand value of a join column to the right table's spelling of it
    (``{"Great Britain": "United Kingdom"}``); the joined row carries the right table's spelling.
    """
    alias = dict(aliases or {})
    shared = tuple(on) if on is not None else tuple(c for c in left.columns if c in right.columns)
    if not shared:
        raise ChronoqaError(
            f"tables {left.name!r} and {right.name!r} share no column to join on "
            f"(left: {', '.join(left.columns)}; right: {', '.join(right.columns)})"
        )
    for c in shared:
        if c not in left.columns or c not in right.columns:
            raise ChronoqaError(f"join column {c!r} is not in both {left.name!r} and {right.name!r}")
    li = [left.columns.index(c) for c in shared]
    ri = [right.columns.index(c) for c in shared]
    extra = [j for j, c in enumerate(right.columns) if c not in shared]
    columns = (*left.columns, *(right.columns[j] for j in extra))
    index: dict[tuple[str | None, ...], list[int]] = {}
    for j, row in enumerate(right.rows):
        index.setdefault(tuple(row[k] for k in ri), []).append(j)
    rows: list[tuple[str | None, ...]] = []
    intervals: list[Interval] = []
    pairs: list[tuple[int, int]] = []
    unmatched: list[int] = []
    g = granularity
    for i, row in enumerate(left.rows):
        a = left.intervals[i]
        matched = False
        shared_values = tuple(alias.get(v, v) if v is not None else None for v in (row[k] for k in li))
        for j in index.get(shared_values, ()):
            b = right.intervals[j]
            if a.start is None or b.start is None:
                continue
            a_hi = as_of.hi(g) if a.end is None else a.end.hi(g)
            b_hi = as_of.hi(g) if b.end is None else b.end.hi(g)
            lo = max(a.start.lo(g), b.start.lo(g))
            hi = min(a_hi, b_hi)
            if lo > hi:
                continue
            start = a.start if a.start.lo(g) >= b.start.lo(g) else b.start
            if a.end is None and b.end is None:
                end: TimePoint | None = None
            elif a.end is None or (b.end is not None and b_hi < a_hi):
                end = b.end
            else:
                end = a.end
            lrow = list(row)
            for k, v in zip(li, shared_values, strict=True):
                lrow[k] = v
            rows.append((*lrow, *(right.rows[j][k] for k in extra)))
            intervals.append(Interval(start, end))
            pairs.append((i, j))
            matched = True
        if not matched:
            unmatched.append(i)
    joined = TemporalTable(
        name=name or f"{left.name}_{right.name}",
        columns=columns,
        rows=rows,
        intervals=intervals,
        lines=list(range(1, len(rows) + 1)),
        start_column=left.start_column,
        end_column=left.end_column,
    )
    return JoinResult(joined, shared, tuple(pairs), left, right, tuple(unmatched))


@dataclass(frozen=True)
class JoinDiff:
    """Differences between our join and a reference (pre-joined) table, on ``key`` columns."""

    key: tuple[str, ...]
    only_ours: tuple[tuple[str | None, ...], ...]
    only_theirs: tuple[tuple[str | None, ...], ...]
    changed: tuple[tuple[tuple[str | None, ...], str, str, str], ...]

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {
            "key": list(self.key),
            "only_ours": [list(k) for k in self.only_ours],
            "only_theirs": [list(k) for k in self.only_theirs],
            "changed": [[list(k), f, a, b] for k, f, a, b in self.changed],
        }


def compare_joined(ours: TemporalTable, theirs: TemporalTable, key: Sequence[str]) -> JoinDiff:
    """Rows only in one table (by ``key``) and, for shared keys, attribute and date differences."""

    def index(t: TemporalTable) -> dict[tuple[str | None, ...], tuple[dict[str, str | None], Interval]]:
        ks = [t.columns.index(c) for c in key]
        return {
            tuple(r[k] for k in ks): (dict(zip(t.columns, r, strict=True)), t.intervals[n])
            for n, r in enumerate(t.rows)
        }

    a, b = index(ours), index(theirs)
    changed: list[tuple[tuple[str | None, ...], str, str, str]] = []
    for k in sorted(set(a) & set(b), key=repr):
        ra, ia = a[k]
        rb, ib = b[k]
        for c in sorted(set(ra) & set(rb)):
            if ra[c] != rb[c]:
                changed.append((k, c, str(ra[c]), str(rb[c])))
        if str(ia) != str(ib):
            changed.append((k, "validity", str(ia), str(ib)))
    return JoinDiff(
        tuple(key),
        tuple(sorted(set(a) - set(b), key=repr)),
        tuple(sorted(set(b) - set(a), key=repr)),
        tuple(changed),
    )
