"""Time arithmetic on columns: unit bounds of many dates at once, for the columnar builders and the store.

The calendar still lives in :mod:`chronoqa.time._core` only: each *distinct* date of the columns is converted
once by :class:`~chronoqa.time.TimePoint` and the result is mapped back to the rows, so a 10M-row column with a
few thousand distinct dates costs a few thousand scalar conversions and some numpy. A :class:`DateTable` also
writes its dates as text (ISO, English) from each distinct year's text, joined to the months and days by Arrow.

A date column is three integer arrays ``(year, month, day)`` where ``0`` stands for "not stated" in ``month``
and ``day`` (``1994`` is ``(1994, 0, 0)``, ``1994-03`` is ``(1994, 3, 0)``); rows whose date is missing are
masked by the caller. Years are astronomical (``-405`` is 406 BC), as everywhere in chronoqa.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from chronoqa.time._core import Granularity, TimePoint
from chronoqa.time.render import MONTH_NAMES, render_time, render_year

__all__ = [
    "DateColumn",
    "DateTable",
    "date_codes",
    "date_table",
    "distinct_dates",
    "distinct_dates_of",
    "render_dates",
    "start_after_end",
    "unit_bounds",
]

_MONTHS = 13  # month codes 0..12
_DAYS = 32  # day codes 0..31


def date_codes(year: np.ndarray, month: np.ndarray, day: np.ndarray) -> np.ndarray:
    """One int64 code per ``(year, month, day)`` row, equal for equal dates (for ``np.unique`` and joins)."""
    return (year.astype(np.int64) * _MONTHS + month.astype(np.int64)) * _DAYS + day.astype(np.int64)


#: Largest code range resolved with a presence table instead of a sort (a span of about 20,000 years).
_DENSE_SPAN = 1 << 23
_CHUNK = 1 << 20  # rows converted at a time

#: A masked date column: ``(year, month, day, mask)``, ``mask`` a bool array (rows whose date is known) or
#: ``None`` (every row).
DateColumn = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]


def distinct_dates(year: np.ndarray, month: np.ndarray, day: np.ndarray) -> tuple[list[TimePoint], np.ndarray]:
    """The distinct dates of a date column as points (in date-code order), and each row's position among them.

    Row ``i`` is ``points[positions[i]]`` (``positions``: int32, the input's length). One column of
    :func:`distinct_dates_of`.

    Raises:
        TimeParseError: A row holds an impossible date (month 13, 30 February), naming it.

    """
    points, (positions,) = distinct_dates_of((year, month, day, None))
    return points, positions


def distinct_dates_of(*columns: DateColumn) -> tuple[list[TimePoint], list[np.ndarray]]:
    """The distinct dates of several masked date columns together (in date-code order), and each column's positions.

    ``positions[k][i]`` is row ``i``'s position among ``points`` in column ``k`` where its ``mask`` holds, ``0``
    elsewhere (int32 arrays of each column's length): a graph's start and end columns share one list of dates
    without being concatenated. :func:`date_table`'s points and positions, each row's code computed once.

    Raises:
        TimeParseError: A known row holds an impossible date (month 13, 30 February), naming it.

    """
    table, positions = _table(columns, keep=True)
    assert positions is not None
    return table.points, positions


def date_table(*columns: DateColumn) -> DateTable:
    """The distinct dates of several masked date columns together, positions left to :meth:`DateTable.positions`.

    For columns too long to hold every row's position at once: each batch of rows asks for its own. Linear in
    the rows when the known years span less than about 20,000 years (a presence table over the codes, a chunk
    of rows at a time), a sort otherwise. The rows outside a mask are never read as dates.

    Raises:
        TimeParseError: A known row holds an impossible date (month 13, 30 February), naming it.

    """
    return _table(columns, keep=False)[0]


@dataclass(frozen=True, eq=False)
class DateTable:
    """The distinct dates of some date columns (:func:`date_table`), and where a row's date is among them.

    ``codes`` are the dates' :func:`date_codes`, ascending; :attr:`points` (made when first asked for),
    :meth:`isoformat` and :meth:`render` give the dates in that order.
    """

    codes: np.ndarray
    _y_lo: int  # the presence table's first year (its codes less this year's first)
    _rank: np.ndarray | None  # each code's position (the last slot: 0, for the unknown rows); None: by a sort

    @functools.cached_property
    def points(self) -> list[TimePoint]:
        """The dates as :class:`TimePoint` values."""
        return [
            TimePoint(y, m or None, d or None) for y, m, d in zip(*(a.tolist() for a in self._parts()), strict=True)
        ]

    def _parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The dates' years, months and days (0: not stated)."""
        ym, day = np.divmod(self.codes, _DAYS)
        year, month = np.divmod(ym, _MONTHS)
        return year, month, day

    def isoformat(self) -> pa.Array:
        """Each date's :meth:`TimePoint.isoformat` (``1994``, ``1994-03``, ``-0405-03-07``), an Arrow string array.

        Each distinct year written once by :meth:`TimePoint.isoformat`, then joined to the month and day.
        """
        year, month, day = self._parts()
        years, at = np.unique(year, return_inverse=True)
        texts = pa.array([TimePoint(int(y)).isoformat() for y in years.tolist()], pa.string())
        months = pa.array(["", *(f"-{m:02d}" for m in range(1, _MONTHS))], pa.string())
        days = pa.array(["", *(f"-{d:02d}" for d in range(1, _DAYS))], pa.string())
        return pc.binary_join_element_wise(texts.take(at.reshape(-1)), months.take(month), days.take(day), "")

    def render(self) -> pa.Array:
        """Each date's :func:`~chronoqa.time.render_time` (``1994``, ``7 March 405 BC``), an Arrow string array.

        Each distinct year written once by :func:`~chronoqa.time.render_year`, the months by
        :data:`~chronoqa.time.MONTH_NAMES`, as :func:`~chronoqa.time.render_time` joins them.
        """
        year, month, day = self._parts()
        years, at = np.unique(year, return_inverse=True)
        texts = pa.array([render_year(int(y)) for y in years.tolist()], pa.string())
        months = pa.array(["", *(f"{name} " for name in MONTH_NAMES)], pa.string())
        days = pa.array(["", *(f"{d} " for d in range(1, _DAYS))], pa.string())
        return pc.binary_join_element_wise(days.take(day), months.take(month), texts.take(at.reshape(-1)), "")

    def positions(
        self, year: np.ndarray, month: np.ndarray, day: np.ndarray, mask: np.ndarray | None = None
    ) -> np.ndarray:
        """Each row's position among :attr:`points` where ``mask`` holds (``None``: every row), ``0`` elsewhere.

        An int32 array of the rows' length. The rows are rows of the columns the table was made from (a slice of
        them: a batch), so that each known date is one of the points.
        """
        if self._rank is None:
            pos = np.zeros(len(year), dtype=np.int32)
            k = slice(None) if mask is None else mask
            pos[k] = np.searchsorted(self.codes, date_codes(year[k], month[k], day[k]))
            return pos
        pos = np.empty(len(year), dtype=np.int32)
        for a in range(0, len(year), _CHUNK):
            rows = slice(a, a + _CHUNK)
            code = _dense_codes((year, month, day, mask), rows, self._y_lo, len(self._rank) - 1, pos[rows])
            pos[rows] = self._rank[code]
        return pos


def _table(columns: tuple[DateColumn, ...], keep: bool) -> tuple[DateTable, list[np.ndarray] | None]:
    """:func:`date_table`, and with ``keep`` each column's positions (each row's code computed once)."""
    known = [(y, m, d, mask) for y, m, d, mask in columns if len(y) and (mask is None or mask.any())]
    if not known:
        none = [np.zeros(len(col[0]), dtype=np.int32) for col in columns]
        return DateTable(np.zeros(0, dtype=np.int64), 0, np.zeros(1, dtype=np.int32)), none if keep else None
    y_lo, span = _code_span(known, masked=False)  # the bounds of every row: no masked pass (cheap)
    if span > _DENSE_SPAN:  # perhaps only because of rows outside the masks: their own bounds
        y_lo, span = _code_span(known, masked=True)
    positions: list[np.ndarray] | None = None
    rank: np.ndarray | None = None
    if span <= _DENSE_SPAN:
        # each known row's code (int32: the span is below 2**23), the others ``span``: a slot of their own, then 0
        present = np.zeros(span + 1, dtype=bool)
        kept = []
        buffer = np.empty(0 if keep else _CHUNK, dtype=np.int32)
        for col in columns:
            out = np.empty(len(col[0]), dtype=np.int32) if keep else buffer
            for a in range(0, len(col[0]), _CHUNK):  # chunk by chunk: the temporaries of one chunk at a time
                rows = slice(a, a + _CHUNK)
                present[_dense_codes(col, rows, y_lo, span, out[rows] if keep else out[: len(col[0][rows])])] = True
            kept.append(out)
        present[span] = False
        uniq = np.flatnonzero(present) + y_lo * _MONTHS * _DAYS
        rank = np.cumsum(present, dtype=np.int32) - 1
        rank[span] = 0
        if keep:
            for pos in kept:
                for a in range(0, len(pos), _CHUNK):
                    rows = slice(a, a + _CHUNK)
                    pos[rows] = rank[pos[rows]]
            positions = kept
    else:
        masks = [slice(None) if mask is None else mask for _, _, _, mask in columns]
        codes = [date_codes(y[k], m[k], d[k]) for (y, m, d, _), k in zip(columns, masks, strict=True)]
        uniq, sorted_at = np.unique(np.concatenate(codes), return_inverse=True)
        if keep:
            inverse, at, positions = sorted_at.reshape(-1).astype(np.int32), 0, []
            for (y, _, _, _), k, c in zip(columns, masks, codes, strict=True):
                pos = np.zeros(len(y), dtype=np.int32)
                pos[k] = inverse[at : at + len(c)]
                at += len(c)
                positions.append(pos)
    _check(uniq)
    return DateTable(uniq.astype(np.int64), y_lo, rank), positions


def _check(codes: np.ndarray) -> None:
    """Raise :class:`TimeParseError` for the first impossible date among ``codes`` (a day with no month, 30 February).

    Months are 0..12 and days 0..31 already; :class:`TimePoint` checks the codes whose day may not exist (a day
    without a month, or a day past the 28th), every other one is a date.
    """
    ym, day = np.divmod(codes, _DAYS)
    year, month = np.divmod(ym, _MONTHS)
    for i in np.flatnonzero(((month == 0) & (day != 0)) | (day > 28)).tolist():
        TimePoint(int(year[i]), int(month[i]) or None, int(day[i]) or None)


def _dense_codes(col: DateColumn, rows: slice, y_lo: int, span: int, out: np.ndarray) -> np.ndarray:
    """The codes less ``y_lo``'s first of ``col``'s ``rows`` into ``out`` (int32), ``span`` for an unknown row."""
    y, m, d, mask = col
    np.subtract(y[rows], y_lo, out=out, casting="unsafe")
    out *= _MONTHS
    out += m[rows]
    out *= _DAYS
    out += d[rows]
    if mask is not None:
        np.copyto(out, span, where=~mask[rows])
    return out


def _code_span(columns: list[DateColumn], masked: bool) -> tuple[int, int]:
    """The lowest year and the number of date codes from its first to the highest year's last, over ``columns``.

    Over every row (``masked=False``: unmasked reductions, the quick bounds, wide enough for the known rows)
    or over the known rows alone. Raises :class:`TimeParseError` for a known row whose month or day no code
    holds (it would read as another date), naming the first.
    """
    lows, highs = [], []
    for y, m, d, mask in columns:
        if mask is None or not masked:
            y_lo, y_hi = int(y.min()), int(y.max())
        else:
            big = np.iinfo(y.dtype)
            y_lo, y_hi = int(np.min(y, where=mask, initial=big.max)), int(np.max(y, where=mask, initial=big.min))
        if m.min() < 0 or m.max() >= _MONTHS or d.min() < 0 or d.max() >= _DAYS:
            bad = (m < 0) | (m >= _MONTHS) | (d < 0) | (d >= _DAYS)
            rows = np.flatnonzero(bad if mask is None else bad & mask)
            if len(rows):  # the first such known row, named
                i = int(rows[0])
                TimePoint(int(y[i]), int(m[i]) or None, int(d[i]) or None)  # raises TimeParseError
        lows.append(y_lo)
        highs.append(y_hi)
    return min(lows), (max(highs) - min(lows) + 1) * _MONTHS * _DAYS


def render_dates(
    year: np.ndarray,
    month: np.ndarray,
    day: np.ndarray,
    render: Callable[[TimePoint], str] = render_time,
) -> tuple[list[str], np.ndarray]:
    """Each distinct date of a date column rendered once by ``render``, and each row's position among them.

    Row ``i``'s text is ``texts[positions[i]]`` with ``texts, positions = render_dates(...)``, equal to
    ``render(TimePoint(year[i], month[i] or None, day[i] or None))``; ``render`` is a scalar renderer of this
    package (:func:`~chronoqa.time.render_time` by default, or ``TimePoint.isoformat``). ``texts`` is in date-code
    order (as :func:`distinct_dates`), ``positions`` is an int32 array of the input's length.

    Raises:
        TimeParseError: A row holds an impossible date (month 13, 30 February), naming it.

    """
    points, positions = distinct_dates(year, month, day)
    return [render(p) for p in points], positions


def unit_bounds(
    year: np.ndarray, month: np.ndarray, day: np.ndarray, granularity: Granularity
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """First unit, last unit and "stated at least as finely" of each date, at ``granularity``.

    Row ``i`` gets ``TimePoint(year[i], month[i] or None, day[i] or None).lo(granularity)``, ``.hi(...)`` and
    ``.granularity >= granularity`` (int64, int64, bool arrays of the input's length). Units are those of
    :meth:`TimePoint.lo`: years, months since year 0, or days since 1970-01-01.

    Raises:
        TimeParseError: A row holds an impossible date (month 13, 30 February), naming it.

    """
    g = Granularity.parse(granularity)
    points, inverse = distinct_dates(year, month, day)
    lo = np.array([p.lo(g) for p in points], dtype=np.int64)
    hi = np.array([p.hi(g) for p in points], dtype=np.int64)
    fine = np.array([p.granularity >= g for p in points], dtype=bool)
    return lo[inverse], hi[inverse], fine[inverse]


def start_after_end(
    start: tuple[np.ndarray, np.ndarray, np.ndarray], end: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> np.ndarray:
    """Per row, whether the start lies after the end at the start's own granularity (a reversed span).

    Row ``i`` is ``s.lo(s.granularity) > e.hi(s.granularity)`` for ``s``, ``e`` the start and end points of the
    row (``(year, month, day)`` arrays, both ends known: the caller masks the others). Integer comparisons only:
    a date's units at month and day granularity order as ``(year, month)`` and ``(year, month, day)`` do, and an
    end stated coarser than the start ends at its last month (December) and last day (no valid start day of
    that month lies after day 31, so 31 stands for the month's last day).
    """
    sy, sm, sd = (a.astype(np.int64) for a in start)
    ey, em, ed = (a.astype(np.int64) for a in end)
    s_month = sy * 12 + sm - 1
    e_month = ey * 12 + np.where(em == 0, 12, em) - 1
    by_day = s_month * 32 + sd > e_month * 32 + np.where(ed == 0, 31, ed)
    return np.where(sm == 0, sy > ey, np.where(sd == 0, s_month > e_month, by_day))
