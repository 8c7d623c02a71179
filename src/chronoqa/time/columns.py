"""Time arithmetic on columns: unit bounds of many dates at once, for the columnar builders and the store.

The calendar still lives in :mod:`chronoqa.time._core` only: each *distinct* date of the columns is converted
once by :class:`~chronoqa.time.TimePoint` and the result is mapped back to the rows, so a 10M-row column with a
few thousand distinct dates costs a few thousand scalar conversions and some numpy.

A date column is three integer arrays ``(year, month, day)`` where ``0`` stands for "not stated" in ``month``
and ``day`` (``1994`` is ``(1994, 0, 0)``, ``1994-03`` is ``(1994, 3, 0)``); rows whose date is missing are
masked by the caller. Years are astronomical (``-405`` is 406 BC), as everywhere in chronoqa.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chronoqa.time._core import Granularity, TimePoint
from chronoqa.time.render import render_time

__all__ = ["date_codes", "distinct_dates", "render_dates", "start_after_end", "unit_bounds"]

_MONTHS = 13  # month codes 0..12
_DAYS = 32  # day codes 0..31


def date_codes(year: np.ndarray, month: np.ndarray, day: np.ndarray) -> np.ndarray:
    """One int64 code per ``(year, month, day)`` row, equal for equal dates (for ``np.unique`` and joins)."""
    return (year.astype(np.int64) * _MONTHS + month.astype(np.int64)) * _DAYS + day.astype(np.int64)


#: Largest code range resolved with a presence table instead of a sort (a span of about 20,000 years).
_DENSE_SPAN = 1 << 23
_CHUNK = 1 << 20  # rows converted at a time


def distinct_dates(year: np.ndarray, month: np.ndarray, day: np.ndarray) -> tuple[list[TimePoint], np.ndarray]:
    """The distinct dates of a date column as points (in date-code order), and each row's position among them.

    Row ``i`` is ``points[positions[i]]`` (``positions``: int32, the input's length). Linear in the rows when the
    years span less than about 20,000 years (a presence table over the codes, each row's code computed once), a
    sort otherwise.

    Raises:
        TimeParseError: A row holds an impossible date (month 13, 30 February), naming it.

    """
    n = len(year)
    if n == 0:
        return [], np.zeros(0, dtype=np.int32)
    y_lo, y_hi = int(year.min()), int(year.max())
    span = (y_hi - y_lo + 1) * _MONTHS * _DAYS
    months, days = (int(month.min()), int(month.max())), (int(day.min()), int(day.max()))
    if not (months[0] >= 0 and months[1] < _MONTHS and days[0] >= 0 and days[1] < _DAYS):
        # a month or day no date code can hold (it would read as another date): the first such row, named
        i = int(np.flatnonzero((month < 0) | (month >= _MONTHS) | (day < 0) | (day >= _DAYS))[0])
        TimePoint(int(year[i]), int(month[i]) or None, int(day[i]) or None)  # raises TimeParseError
    if span <= _DENSE_SPAN:
        # each row's code less the lowest year's first code (int32: the span is below 2**23), then its rank
        inverse = np.empty(n, dtype=np.int32)
        present = np.zeros(span, dtype=bool)
        for a in range(0, n, _CHUNK):  # chunk by chunk: the temporaries of one chunk at a time
            rows = slice(a, a + _CHUNK)
            code = (year[rows].astype(np.int32) - np.int32(y_lo)) * np.int32(_MONTHS) + month[rows]
            code = code * np.int32(_DAYS) + day[rows]
            inverse[rows] = code
            present[code] = True
        uniq = np.flatnonzero(present) + y_lo * _MONTHS * _DAYS
        rank = np.cumsum(present, dtype=np.int32) - 1
        for a in range(0, n, _CHUNK):
            rows = slice(a, a + _CHUNK)
            inverse[rows] = rank[inverse[rows]]
    else:
        uniq, sorted_at = np.unique(date_codes(year, month, day), return_inverse=True)
        inverse = sorted_at.reshape(-1).astype(np.int32)
    points = []
    for c in uniq.tolist():
        ym, d = divmod(c, _DAYS)
        y, m = divmod(ym, _MONTHS)
        points.append(TimePoint(y, m or None, d or None))
    return points, inverse


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
