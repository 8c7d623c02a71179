"""``chronoqa.time.unit_bounds`` against the scalar :class:`TimePoint` it vectorises, and its error."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronoqa.time import Granularity, TimeParseError, TimePoint, date_codes, distinct_dates, unit_bounds


@st.composite
def _points(draw: st.DrawFn) -> TimePoint:
    year = draw(st.integers(-3000, 3000))
    month = draw(st.none() | st.integers(1, 12))
    if month is None:
        return TimePoint(year)
    day = draw(st.none() | st.integers(1, 28))
    return TimePoint(year, month, day)


@settings(max_examples=60, deadline=None)
@given(st.lists(_points(), min_size=1, max_size=40), st.sampled_from(list(Granularity)))
def test_unit_bounds_match_scalar(points: list[TimePoint], g: Granularity) -> None:
    y = np.array([p.year for p in points])
    m = np.array([p.month or 0 for p in points])
    d = np.array([p.day or 0 for p in points])
    lo, hi, fine = unit_bounds(y, m, d, g)
    assert lo.tolist() == [p.lo(g) for p in points]
    assert hi.tolist() == [p.hi(g) for p in points]
    assert fine.tolist() == [p.granularity >= g for p in points]


def test_hand_worked_units() -> None:
    lo, hi, fine = unit_bounds(np.array([1970, 1994, -405]), np.array([1, 3, 0]), np.array([2, 0, 0]), Granularity.DAY)
    # 1970-01-02 is day 1; March 1994 is days 8825..8855; 406 BC (year -405) covers 365 days (not a leap year)
    assert lo.tolist()[:2] == [1, 8825] and hi.tolist()[:2] == [1, 8855]
    assert hi[2] - lo[2] == 364 and fine.tolist() == [True, False, False]
    codes = date_codes(np.array([2000, 2000, 2001]), np.array([1, 1, 0]), np.array([5, 5, 0]))
    assert codes[0] == codes[1] != codes[2]


def test_impossible_date_is_named() -> None:
    with pytest.raises(TimeParseError, match="day 30 of 2001-02"):
        unit_bounds(np.array([2001]), np.array([2]), np.array([30]), Granularity.YEAR)


@pytest.mark.parametrize(
    ("month", "day", "message"),
    [(13, 0, "month 13 of 2001"), (-1, 0, "month -1 of 2001"), (5, 32, "day 32 of 2001-05"), (3, -2, "day -2")],
)
def test_distinct_dates_names_a_month_or_day_no_code_holds(month: int, day: int, message: str) -> None:
    # month 13 would share the code of the next year, day 32 that of the next month: named, not read as those
    year, months, days = np.array([2000, 2001, 2002]), np.array([1, month, 2]), np.array([1, day, 0])
    for dense in (True, False):
        y = year if dense else np.array([2000, 2001, 40000])  # the presence table, then the sort
        with pytest.raises(TimeParseError, match=message):
            distinct_dates(y, months.astype(np.int8), days.astype(np.int8))
