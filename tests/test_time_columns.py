"""``chronoqa.time.unit_bounds`` against the scalar :class:`TimePoint` it vectorises, and its error."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronoqa.time import (
    Granularity,
    TimeParseError,
    TimePoint,
    date_codes,
    date_table,
    distinct_dates,
    distinct_dates_of,
    render_time,
    unit_bounds,
)


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


@st.composite
def _masked_column(draw: st.DrawFn) -> tuple[list[TimePoint | None], list[int]]:
    """Points or ``None`` (unknown), and what an unknown row holds instead (any junk, even an impossible date)."""
    known = draw(st.lists(st.none() | _points(), max_size=30))
    return known, draw(st.lists(st.integers(-50000, 50000), min_size=3, max_size=3))


@settings(max_examples=80, deadline=None)
@given(st.lists(_masked_column(), min_size=1, max_size=3), st.booleans(), st.booleans())
def test_distinct_dates_of_matches_scalar(
    drawn: list[tuple[list[TimePoint | None], list[int]]], far: bool, masked: bool
) -> None:
    columns: list[list[TimePoint | None]] = []
    arrays = []
    for known, junk in drawn:
        if far:  # a year far off: the sort, not the presence table
            known = [TimePoint(-40000), *known]
        if not masked:  # no mask: every row known
            known = [p or TimePoint(2000) for p in known]
        # an unknown row holds junk (month 77, year 50000): never read as a date
        y = np.array([p.year if p else junk[0] for p in known], dtype=np.int32)
        m = np.array([(p.month or 0) if p else junk[1] % 100 for p in known], dtype=np.int8)
        d = np.array([(p.day or 0) if p else junk[2] % 100 for p in known], dtype=np.int8)
        mask = np.array([p is not None for p in known], dtype=bool)
        arrays.append((y, m, d, mask if masked else None))
        columns.append(known)
    points, positions = distinct_dates_of(*arrays)
    # brute force: every known point, sorted as codes sort (year, month, day; unstated 0 first)
    expected = sorted({p for known in columns for p in known if p}, key=lambda p: (p.year, p.month or 0, p.day or 0))
    assert points == expected
    for known, pos in zip(columns, positions, strict=True):
        assert pos.dtype == np.int32 and len(pos) == len(known)
        assert [points[i] if p else None for p, i in zip(known, pos.tolist(), strict=True)] == known
        assert all(i == 0 for p, i in zip(known, pos.tolist(), strict=True) if p is None)
    # the table alone, positions asked for a batch of rows at a time: the same
    table = date_table(*arrays)
    assert table.points == points and table.codes.tolist() == sorted(set(table.codes.tolist()))
    assert table.isoformat().to_pylist() == [p.isoformat() for p in expected]
    assert table.render().to_pylist() == [render_time(p) for p in expected]
    for (y, m, d, rows_known), pos in zip(arrays, positions, strict=True):
        for a in range(0, len(y), 7):
            rows = slice(a, a + 7)
            got = table.positions(y[rows], m[rows], d[rows], None if rows_known is None else rows_known[rows])
            assert got.dtype == np.int32 and got.tolist() == pos[rows].tolist()


def test_distinct_dates_of_hand_worked() -> None:
    # start: 1994-03-07, unknown (junk: month 13), 1994; end: 1994, 405 BC, unknown (junk year 90000)
    start = (np.array([1994, 7, 1994]), np.array([3, 13, 0]), np.array([7, 40, 0]), np.array([True, False, True]))
    end = (np.array([1994, -405, 90000]), np.array([0, 0, 0]), np.array([0, 0, 0]), np.array([True, True, False]))
    points, (pos_s, pos_e) = distinct_dates_of(start, end)
    assert points == [TimePoint(-405), TimePoint(1994), TimePoint(1994, 3, 7)]
    assert pos_s.tolist() == [2, 0, 1] and pos_e.tolist() == [1, 0, 0]
    assert distinct_dates_of() == ([], [])
    none = np.zeros(3, dtype=bool)
    assert [p.tolist() for p in distinct_dates_of((*start[:3], none))[1]] == [[0, 0, 0]]
    assert date_table((*start[:3], none)).positions(*start[:3], none).tolist() == [0, 0, 0]
    far = date_table(start, end, (np.array([-40000]), np.array([0]), np.array([0]), None))  # by a sort
    assert far.points[0] == TimePoint(-40000) and far.positions(*end).tolist() == [2, 1, 0]
    with pytest.raises(TimeParseError, match="month 13 of 7"):
        distinct_dates_of((*start[:3], np.ones(3, dtype=bool)))
    with pytest.raises(TimeParseError, match="day 30 of 2001-02"):
        distinct_dates_of((np.array([2001]), np.array([2]), np.array([30]), None))


def test_date_table_texts_hand_worked() -> None:
    # every era of render_year, leap and month-end days (the scalar check), a month alone
    dates = [(-405, 3, 7), (0, None, None), (427, None, None), (1994, 3, None), (2000, 2, 29), (2001, 1, 31)]
    points = [TimePoint(*t) for t in [*dates, (12000, 12, 31)]]
    y, m, d = (np.array(v) for v in zip(*((p.year, p.month or 0, p.day or 0) for p in points), strict=True))
    table = date_table((y, m, d, None))
    assert table.isoformat().to_pylist() == [
        "-0405-03-07", "0000", "0427", "1994-03", "2000-02-29", "2001-01-31", "12000-12-31",
    ]  # fmt: skip
    assert table.render().to_pylist() == [
        "7 March 405 BC", "year 0", "427 AD", "March 1994", "29 February 2000", "31 January 2001",
        "31 December 12000 AD",
    ]  # fmt: skip
    empty = date_table((y[:0], m[:0], d[:0], None))
    assert empty.points == [] and empty.isoformat().to_pylist() == [] and empty.render().to_pylist() == []
    for month, day, message in ((2, 29, "day 29 of 2001-02"), (0, 5, "a day needs a month")):
        with pytest.raises(TimeParseError, match=message):
            date_table((np.array([2001]), np.array([month]), np.array([day]), None))
