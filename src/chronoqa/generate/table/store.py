"""A :class:`~chronoqa.records.TemporalTable` loaded into DuckDB at the data's true granularity.

Every row becomes one record of the DuckDB table: the attribute columns (text), ``_row`` (the row
index in the source table), ``_start``/``_end`` (ISO text of the source cell, at its own precision and
never finer than the comparison granularity: a bare year ``2003`` in a month-level store stays ``2003``;
``_end`` NULL for an open end) and ``_lo``/``_hi``: the closed *unit* bounds of the validity interval at
the comparison granularity (years, months since year 0, or days since 1970-01-01; see
:mod:`chronoqa.time`). An open end is closed at the build's fixed ``as_of`` date, so SQL compares
integers at the data's granularity and never reads the wall clock.

**Cells coarser than the comparison granularity** (a bare year in a table compared at month level, which
happens when the granularity is declared finer than some cells, or in a join): ``_lo``/``_hi`` take the
widest reading (January to December of that year), and :attr:`TableStore.lo_last` /
:attr:`TableStore.hi_first` the narrowest (the last unit the start may be, the first unit the end may be).
:meth:`TableStore.uncertain` tells whether a question's comparison could depend on where in its year such
a cell falls; such a question is not asked, and counted (``precision_skipped``).

The comparison granularity is detected (:func:`detect_granularity`): day-level dates that are nearly
all January 1st are year placeholders (TDBench's sports and organizations tables), and comparing them
at day level would invent false answers and false ``none`` labels; such tables are compared at YEAR
level, and the finding is reported.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa

from chronoqa.records import TemporalTable
from chronoqa.time import Granularity, Interval, TimePoint, render_unit

__all__ = [
    "NOTE_REVERSED",
    "NOTE_START_AFTER_AS_OF",
    "NOTE_UNKNOWN_START",
    "GranularityReport",
    "TableStore",
    "detect_granularity",
    "format_unit",
    "quote_ident",
    "sql_literal",
    "unit_iso",
]

NOTE_UNKNOWN_START = "rows without a start date (no Allen relation is defined): left out of the store"
NOTE_REVERSED = "rows whose start lies after their end at the comparison granularity: left out of the store"
NOTE_START_AFTER_AS_OF = "rows starting after as_of: left out of the store"


@dataclass(frozen=True, slots=True)
class GranularityReport:
    """What the dates of a table really resolve to, and why."""

    printed: str
    granularity: str
    endpoints: int
    jan1_share: float
    first_of_month_share: float
    reason: str

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {
            "printed": self.printed,
            "granularity": self.granularity,
            "endpoints": self.endpoints,
            "jan1_share": round(self.jan1_share, 4),
            "first_of_month_share": round(self.first_of_month_share, 4),
            "reason": self.reason,
        }


def detect_granularity(table: TemporalTable, *, placeholder_share: float = 0.5) -> GranularityReport:
    """The granularity the table's dates really carry.

    The coarsest granularity any known endpoint is printed at is the starting point (mixed tables
    such as YAGO11k, whose years and days sit side by side, are compared at the coarsest level).
    Day-level dates of which at least ``placeholder_share`` fall on January 1st are year placeholders
    (a real date is January 1st one time in 365), and dates that are all the 1st of a month are months.
    """
    points = [p for iv in table.intervals for p in (iv.start, iv.end) if p is not None]
    if not points:
        return GranularityReport("year", "year", 0, 0.0, 0.0, "no known dates: year")
    coarsest = min(p.granularity for p in points)
    printed = max(p.granularity for p in points)
    days = [p for p in points if p.granularity is Granularity.DAY]
    jan1 = sum(1 for p in days if p.month == 1 and p.day == 1) / len(days) if days else 0.0
    first = sum(1 for p in days if p.day == 1) / len(days) if days else 0.0
    g: Granularity
    if coarsest is not Granularity.DAY:
        g, reason = coarsest, f"some dates are printed at {coarsest} level only: compared at {coarsest} level"
    elif jan1 >= placeholder_share:
        g = Granularity.YEAR
        reason = f"{jan1:.0%} of the day-level dates are January 1st: year placeholders, compared at year level"
    elif first == 1.0:
        g, reason = Granularity.MONTH, "every day-level date is the 1st of its month: compared at month level"
    else:
        g, reason = Granularity.DAY, "real day-level dates: compared at day level"
    return GranularityReport(str(printed), str(g), len(points), jan1, first, reason)


def unit_iso(unit: int, granularity: Granularity) -> str:
    """ISO text of one unit (``2004``, ``2004-03``, ``2004-03-07``)."""
    return TimePoint.from_unit(unit, granularity).isoformat()


def format_unit(unit: int, granularity: Granularity) -> str:
    """Readable form of one unit for questions (``2004``, ``7 March 2004``): :func:`chronoqa.time.render_unit`."""
    return render_unit(unit, granularity)


def quote_ident(name: str) -> str:
    """A SQL identifier, double-quoted (works in DuckDB and SQLite)."""
    return '"' + name.replace('"', '""') + '"'


def sql_literal(value: str | int | None) -> str:
    """A SQL literal: integers as is, text single-quoted, ``None`` as NULL."""
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    return "'" + value.replace("'", "''") + "'"


@dataclass
class TableStore:
    """One temporal table in an in-memory DuckDB database, plus the same data as numpy arrays.

    Use :meth:`build`. ``rows`` holds the row indices (into ``table.rows``) that were stored;
    ``lo``/``hi``/``open_end`` are aligned with ``rows``. ``notes`` counts rows left out and why.
    """

    table: TemporalTable
    sql_name: str
    granularity: Granularity
    as_of: TimePoint
    con: duckdb.DuckDBPyConnection
    rows: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    open_end: np.ndarray
    notes: Counter[str] = field(default_factory=Counter)
    #: the last unit each row's start may be, and the first unit its end may be: equal to ``lo``/``hi`` unless
    #: the cell is coarser than the comparison granularity (a bare year in a month-level store)
    lo_last: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    hi_first: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: stored cells coarser than the comparison granularity (a bare year at month level)
    coarse_cells: int = 0
    #: candidate questions not asked because their gold could depend on where a coarse cell falls
    precision_skipped: int = 0
    #: positions whose end :meth:`read_handovers_as_meets` moved one unit earlier, and the candidate questions
    #: skipped because they would state that end
    handover_moved: set[int] = field(default_factory=set)
    handover_skipped: int = 0

    @classmethod
    def build(
        cls,
        table: TemporalTable,
        *,
        as_of: TimePoint,
        granularity: Granularity | None = None,
        sql_name: str | None = None,
        con: duckdb.DuckDBPyConnection | None = None,
    ) -> TableStore:
        """Load ``table`` (rows without a defined interval are counted in ``notes`` and left out)."""
        g = granularity if granularity is not None else Granularity.parse(detect_granularity(table).granularity)
        name = sql_name or table.name
        notes: Counter[str] = Counter()
        asof_unit = as_of.hi(g)
        keep: list[int] = []
        los: list[int] = []
        his: list[int] = []
        lo_lasts: list[int] = []
        hi_firsts: list[int] = []
        opens: list[bool] = []
        starts: list[str] = []
        ends: list[str | None] = []
        iso: dict[TimePoint, str] = {}

        def iso_of(p: TimePoint) -> str:  # the cell at its own precision, never finer than g
            text = iso.get(p)
            if text is None:
                text = iso[p] = p.truncate(g).isoformat()
            return text

        for i, iv in enumerate(table.intervals):
            lo_hi = _bounds(iv, g, asof_unit)
            if lo_hi is None:
                notes[NOTE_UNKNOWN_START] += 1
                continue
            lo, hi = lo_hi
            if lo > asof_unit:
                notes[NOTE_START_AFTER_AS_OF] += 1
                continue
            if lo > hi:
                notes[NOTE_REVERSED] += 1
                continue
            assert iv.start is not None
            keep.append(i)
            los.append(lo)
            his.append(hi)
            lo_lasts.append(iv.start.hi(g))
            hi_firsts.append(hi if iv.end is None else iv.end.lo(g))
            opens.append(iv.end is None)
            starts.append(iso_of(iv.start))
            ends.append(None if iv.end is None else iso_of(iv.end))
        rows = np.asarray(keep, dtype=np.int64)
        lo_a = np.asarray(los, dtype=np.int64)
        hi_a = np.asarray(his, dtype=np.int64)
        open_a = np.asarray(opens, dtype=bool)
        arrays: dict[str, pa.Array] = {"_row": pa.array(rows)}
        for j, col in enumerate(table.columns):
            arrays[col] = pa.array([table.rows[i][j] for i in keep], type=pa.string())
        arrays["_start"] = pa.array(starts, type=pa.string())
        arrays["_end"] = pa.array(ends, type=pa.string())
        arrays["_lo"] = pa.array(lo_a)
        arrays["_hi"] = pa.array(hi_a)
        arrow = pa.table(arrays)
        conn = con if con is not None else duckdb.connect(":memory:")
        conn.register("_arrow_src", arrow)
        conn.execute(f"CREATE OR REPLACE TABLE {quote_ident(name)} AS SELECT * FROM _arrow_src")
        conn.unregister("_arrow_src")
        lo_last = np.minimum(np.asarray(lo_lasts, dtype=np.int64), hi_a)
        hi_first = np.maximum(np.asarray(hi_firsts, dtype=np.int64), lo_last)
        coarse = int(np.count_nonzero(lo_last != lo_a) + np.count_nonzero(hi_first != hi_a))
        return cls(table, name, g, as_of, conn, rows, lo_a, hi_a, open_a, notes, lo_last, hi_first, coarse)

    def uncertain(self, positions: Sequence[int] | np.ndarray, spans: Sequence[tuple[int, int]]) -> bool:
        """Whether comparing the rows at ``positions`` with the units ``spans`` could depend on a coarse cell.

        A start coarser than the comparison granularity lies somewhere in ``[lo, lo_last]`` (an end in
        ``[hi_first, hi]``). Every comparison a question makes (``<``, ``=``, ``+ 1``) of such an endpoint with a
        unit ``u`` has one verdict wherever the true date falls unless ``u`` lies within one unit of that range;
        ``spans`` are the question's compared units as closed ranges (a reference's ``b0``, ``b1``; the gold
        row's compared endpoint for "the last ... before"). False when every cell is at least as fine as the
        comparison granularity (every TDBench table at its detected granularity).
        """
        pos = np.asarray(positions, dtype=np.int64)
        if len(pos) == 0 or not spans:
            return False
        for lo, last in ((self.lo[pos], self.lo_last[pos]), (self.hi_first[pos], self.hi[pos])):
            wide = lo != last
            if not wide.any():
                continue
            a, b = lo[wide] - 1, last[wide] + 1
            for u0, u1 in spans:
                if bool(((a <= u1) & (u0 <= b)).any()):
                    return True
        return False

    @property
    def asof_unit(self) -> int:
        """The unit of ``as_of`` at the comparison granularity (where open ends are closed)."""
        return self.as_of.hi(self.granularity)

    def values(self, column: str) -> list[str | None]:
        """The stored rows' values of one attribute column (aligned with ``rows``)."""
        j = self.table.columns.index(column)
        return [self.table.rows[int(i)][j] for i in self.rows]

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        """Run one query and fetch every row."""
        return self.con.execute(sql).fetchall()

    def read_handovers_as_meets(self, key: Sequence[str]) -> tuple[int, int]:
        """Read a same-unit handover at coarse granularity as *meets*; return (pairs, rows) read so.

        At year or month granularity (a year placeholder ``2009-01-01`` included) a closed row of a key that
        ends in the unit where another row of the key begins (``2003..2009`` then ``2009..2018``) is read as
        ending in the unit before (``2003..2008``): the change happened in 2009, so the first row *meets*
        the next instead of overlapping it. Only closed rows longer than one unit are read so (an open end is
        ``as_of``, not a change); ``lo`` is never moved, so the reading does not depend on row order. Both
        the numpy ``hi`` and DuckDB's ``_hi`` are updated; ``_end`` and the corpus keep the data's end (the corpus
        renders the source cells, :func:`~chronoqa.generate.table.corpus.store_docs`). At day
        granularity nothing is read so (a same-day handover shares the day: ``overlaps``).
        """
        if self.granularity == Granularity.DAY:
            return 0, 0
        pairs = 0
        moved: list[int] = []
        for positions in key_index(self, key).values():
            starts = Counter(int(self.lo[p]) for p in positions)
            for p in positions:
                lo, hi = int(self.lo[p]), int(self.hi[p])
                if self.open_end[p] or lo >= hi or not starts[hi]:
                    continue
                pairs += starts[hi]
                moved.append(p)
        self.handover_moved = set(moved)
        if moved:
            self.hi[moved] -= 1
            self.hi_first[moved] = np.minimum(self.hi_first[moved], self.hi[moved])
            ids = ", ".join(str(int(self.rows[p])) for p in moved)
            self.con.execute(f"UPDATE {quote_ident(self.sql_name)} SET _hi = _hi - 1 WHERE _row IN ({ids})")
        return pairs, len(moved)

    def row_iso(self, row: int) -> tuple[str, str | None]:
        """Start and end (``None`` when open) of a source row at the comparison granularity."""
        iv = self.table.intervals[row]
        assert iv.start is not None
        start = iv.start.truncate(self.granularity).isoformat()
        end = None if iv.end is None else iv.end.truncate(self.granularity).isoformat()
        return start, end


def _bounds(iv: Interval, g: Granularity, asof_unit: int) -> tuple[int, int] | None:
    if iv.start is None:
        return None
    lo = iv.start.lo(g)
    hi = asof_unit if iv.end is None else iv.end.hi(g)
    return lo, hi


def key_index(store: TableStore, columns: Sequence[str]) -> dict[tuple[str | None, ...], list[int]]:
    """Positions (into ``store.rows``) of the stored rows per value of ``columns``, in row order."""
    idx = [store.table.columns.index(c) for c in columns]
    out: dict[tuple[str | None, ...], list[int]] = {}
    for pos, i in enumerate(store.rows):
        row = store.table.rows[int(i)]
        out.setdefault(tuple(row[j] for j in idx), []).append(pos)
    return out
