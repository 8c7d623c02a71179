"""Time arithmetic on columns: unit bounds of many dates at once, for the columnar builders and the store.

The calendar still lives in :mod:`chronoqa.time._core` only: each *distinct* date of the columns is converted
once by :class:`~chronoqa.time.TimePoint` and the result is mapped back to the rows, so a 10M-row column with a
few thousand distinct dates costs a few thousand scalar conversions and some numpy.

A date column is three integer arrays ``(year, month, day)`` where ``0`` stands for "not stated" in ``month``
and ``day`` (``1994`` is ``(1994, 0, 0)``, ``1994-03`` is ``(1994, 3, 0)``); rows whose date is missing are
masked by the caller. Years are astronomical (``-405`` is 406 BC), as everywhere in chronoqa.
"""

from __future__ import annotations

import numpy as np

from chronoqa.time._core import Granularity, TimePoint

__all__ = ["date_codes", "unit_bounds"]

_MONTHS = 13  # month codes 0..12
_DAYS = 32  # day codes 0..31


def date_codes(year: np.ndarray, month: np.ndarray, day: np.ndarray) -> np.ndarray:
    """One int64 code per ``(year, month, day)`` row, equal for equal dates (for ``np.unique`` and joins)."""
    return (year.astype(np.int64) * _MONTHS + month.astype(np.int64)) * _DAYS + day.astype(np.int64)


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
    codes = date_codes(year, month, day)
    uniq, inverse = np.unique(codes, return_inverse=True)
    lo = np.empty(len(uniq), dtype=np.int64)
    hi = np.empty(len(uniq), dtype=np.int64)
    fine = np.empty(len(uniq), dtype=bool)
    for i, c in enumerate(uniq.tolist()):
        ym, d = divmod(c, _DAYS)
        y, m = divmod(ym, _MONTHS)
        point = TimePoint(y, m or None, d or None)
        lo[i], hi[i], fine[i] = point.lo(g), point.hi(g), point.granularity >= g
    inverse = inverse.reshape(-1)
    return lo[inverse], hi[inverse], fine[inverse]
