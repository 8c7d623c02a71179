"""The time model: parsing, calendar arithmetic, validity and Allen relations.

Oracles are independent of the code under test: ``datetime.date`` ordinals for the calendar, a
brute-force Allen table over endpoints written here, and hand-worked cases for validity.
"""

from __future__ import annotations

import datetime
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronoqa.time import (
    Allen,
    Granularity,
    Interval,
    TimeParseError,
    TimePoint,
    allen_of_spans,
    civil_from_days,
    days_from_civil,
    days_in_month,
    is_leap_year,
    parse_time,
    point_relation,
    relate,
    valid_at,
)

Y, M, D = Granularity.YEAR, Granularity.MONTH, Granularity.DAY
EPOCH = datetime.date(1970, 1, 1).toordinal()


def tp(text: str) -> TimePoint:
    p = parse_time(text)
    assert p is not None
    return p


# --------------------------------------------------------------------------------------------------
# parsing
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1994", TimePoint(1994)),
        ("1994-03", TimePoint(1994, 3)),
        ("1994-03-07", TimePoint(1994, 3, 7)),
        ("1994_03_07", TimePoint(1994, 3, 7)),
        ("1994_03", TimePoint(1994, 3)),
        ("1994-##-##", TimePoint(1994)),
        ("1994-03-##", TimePoint(1994, 3)),
        ("-405", TimePoint(-405)),
        ("176", TimePoint(176)),
        ("1994.0", TimePoint(1994)),
        (1994.0, TimePoint(1994)),
        (1994, TimePoint(1994)),
        (" 2016_12 ", TimePoint(2016, 12)),
        ("1994-03-07T00:00:00Z", TimePoint(1994, 3, 7)),
        ("2000-02-29", TimePoint(2000, 2, 29)),
    ],
)
def test_parse_accepts_every_listed_format(value: object, expected: TimePoint) -> None:
    assert parse_time(value) == expected


@pytest.mark.parametrize("value", [None, "", "None", "none", "NaN", "nan", float("nan"), "null", "  "])
def test_unknown_markers_parse_to_none(value: object) -> None:
    assert parse_time(value) is None


@pytest.mark.parametrize(
    "value", ["1994-13", "1994-00", "1994-02-30", "1900-02-29", "1994_13_01", "1994-04-31", "1994.5", "abc", True]
)
def test_impossible_or_unreadable_dates_raise(value: object) -> None:
    with pytest.raises(TimeParseError):
        parse_time(value, field="start")


def test_parse_error_names_value_and_field() -> None:
    with pytest.raises(TimeParseError, match=r"'1994-13'.*field 'start'|field 'start'.*1994-13"):
        parse_time("1994-13", field="start")


def test_non_midnight_timestamp_is_refused() -> None:
    with pytest.raises(TimeParseError):
        parse_time("1994-03-07T12:00:00Z")


@pytest.mark.parametrize(
    ("point", "iso"),
    [
        (TimePoint(-405), "-0405"),
        (TimePoint(7), "0007"),
        (TimePoint(1994, 3), "1994-03"),
        (TimePoint(1994, 3, 7), "1994-03-07"),
    ],
)
def test_isoformat_round_trips(point: TimePoint, iso: str) -> None:
    assert point.isoformat() == iso
    assert parse_time(iso) == point


@given(st.integers(-3000, 3000), st.integers(1, 12), st.integers(1, 31))
def test_isoformat_round_trip_property(y: int, m: int, d: int) -> None:
    if d > days_in_month(y, m):
        with pytest.raises(TimeParseError):
            TimePoint(y, m, d)
        return
    for p in (TimePoint(y), TimePoint(y, m), TimePoint(y, m, d)):
        assert parse_time(p.isoformat()) == p


# --------------------------------------------------------------------------------------------------
# calendar arithmetic (oracle: datetime.date ordinals)
# --------------------------------------------------------------------------------------------------


@given(st.dates(min_value=datetime.date(1, 1, 1), max_value=datetime.date(9999, 12, 31)))
def test_days_from_civil_matches_datetime(d: datetime.date) -> None:
    n = days_from_civil(d.year, d.month, d.day)
    assert n == d.toordinal() - EPOCH
    assert civil_from_days(n) == (d.year, d.month, d.day)


@given(st.integers(-2_000_000, 2_000_000))
def test_civil_from_days_round_trip_incl_bc(n: int) -> None:
    y, m, d = civil_from_days(n)
    assert 1 <= m <= 12
    assert 1 <= d <= days_in_month(y, m)
    assert days_from_civil(y, m, d) == n


@given(st.integers(-2000, 2000))
def test_consecutive_years_are_contiguous(y: int) -> None:
    # Dec 31 of one year is the day before Jan 1 of the next, BC included
    assert days_from_civil(y, 12, 31) + 1 == days_from_civil(y + 1, 1, 1)
    length = 366 if (y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)) else 365
    assert days_from_civil(y + 1, 1, 1) - days_from_civil(y, 1, 1) == length
    assert is_leap_year(y) == (length == 366)


@pytest.mark.parametrize(
    ("year", "month", "days"),
    [(1994, 2, 28), (1996, 2, 29), (1900, 2, 28), (2000, 2, 29), (2023, 4, 30), (2023, 12, 31), (-4, 2, 29)],
)
def test_month_ends(year: int, month: int, days: int) -> None:
    assert days_in_month(year, month) == days
    assert TimePoint(year, month).last_day() == days_from_civil(year, month, days)


def test_point_spans() -> None:
    p = TimePoint(1994)
    assert p.first_day() == datetime.date(1994, 1, 1).toordinal() - EPOCH
    assert p.last_day() == datetime.date(1994, 12, 31).toordinal() - EPOCH
    assert (p.lo(M), p.hi(M)) == (1994 * 12, 1994 * 12 + 11)
    assert TimePoint(1994, 3, 7).lo(Y) == TimePoint(1994, 3, 7).hi(Y) == 1994


@pytest.mark.parametrize(
    ("start", "n", "g", "expected"),
    [
        ("2020-01-31", 1, M, "2020-02-29"),
        ("2019-01-31", 1, M, "2019-02-28"),
        ("1999-12-31", 1, D, "2000-01-01"),
        ("2000-02-28", 1, D, "2000-02-29"),
        ("1900-02-28", 1, D, "1900-03-01"),
        ("2020-02-29", 1, Y, "2021-02-28"),
        ("2020-03-01", -1, D, "2020-02-29"),
        ("1994-12", 1, M, "1995-01"),
        ("1994", -2000, Y, "-0006"),
    ],
)
def test_shift(start: str, n: int, g: Granularity, expected: str) -> None:
    assert tp(start).shift(n, g) == tp(expected)


# --------------------------------------------------------------------------------------------------
# validity
# --------------------------------------------------------------------------------------------------


def test_valid_at_tempbench_year_case() -> None:
    iv = Interval(tp("1990"), tp("1995"))  # t_start <= t_query <= t_end, ends included
    assert [y for y in range(1985, 2000) if valid_at(iv, TimePoint(y))] == list(range(1990, 1996))


def test_valid_at_point_fact() -> None:
    iv = Interval.point(tp("2011"))
    assert valid_at(iv, tp("2011"))
    assert not valid_at(iv, tp("2010"))
    assert not valid_at(iv, tp("2012"))


def test_unknown_start_is_conservative() -> None:
    iv = Interval(None, tp("1995"))
    assert valid_at(iv, tp("1800"), mode="possible")  # might have held since forever
    assert not valid_at(iv, tp("1800"), mode="certain")  # but is never certain
    assert not valid_at(iv, tp("1996"), mode="possible")


def test_open_end_with_and_without_as_of() -> None:
    iv = Interval(tp("1990"), None)
    as_of = tp("2000-06-30")
    assert valid_at(iv, tp("2000"), as_of=as_of)
    assert not valid_at(iv, tp("2001"), as_of=as_of)
    assert valid_at(iv, tp("3000"))  # no as_of: unbounded
    assert not valid_at(iv, tp("1989"))


def test_coarse_and_fine_points() -> None:
    day_fact = Interval.point(tp("1994-03-07"))
    # the year 1994 at day granularity: the fact possibly holds in it, but not on every day of it
    assert valid_at(day_fact, tp("1994"), D, mode="possible")
    assert not valid_at(day_fact, tp("1994"), D, mode="certain")
    # at year granularity the day is truncated to its year
    assert valid_at(day_fact, tp("1994"), Y, mode="certain")
    year_fact = Interval(tp("1994"), tp("1996"))
    assert valid_at(year_fact, tp("1996-12-31"))
    assert not valid_at(year_fact, tp("1997-01-01"))
    assert valid_at(year_fact, tp("1994-01"))
    month_fact = Interval(tp("1994-03"), tp("1994-05"))
    assert valid_at(month_fact, tp("1994-05-31"))
    assert not valid_at(month_fact, tp("1994-06-01"))
    assert not valid_at(month_fact, tp("1994-02-28"))


def test_reversed_interval_is_valid_nowhere() -> None:
    iv = Interval(tp("2012"), tp("2010"))
    assert iv.is_reversed()
    assert not any(valid_at(iv, TimePoint(y)) for y in range(2000, 2020))
    with pytest.raises(ValueError, match="reversed"):
        relate(iv, Interval(tp("2010"), tp("2011")), Y)


def _brute_valid(iv: tuple[int | None, int | None], t: int) -> bool:
    s, e = iv
    if s is not None and e is not None and s > e:
        return False
    return (s is None or s <= t) and (e is None or t <= e)


@given(
    st.one_of(st.none(), st.integers(1900, 1950)),
    st.one_of(st.none(), st.integers(1900, 1950)),
    st.integers(1890, 1960),
)
def test_valid_at_matches_brute_force_at_year_granularity(s: int | None, e: int | None, t: int) -> None:
    iv = Interval(None if s is None else TimePoint(s), None if e is None else TimePoint(e))
    assert valid_at(iv, TimePoint(t), mode="possible") == _brute_valid((s, e), t)


# --------------------------------------------------------------------------------------------------
# Allen relations (oracle: Allen's table over half-open endpoints, written here)
# --------------------------------------------------------------------------------------------------


def brute_allen(a: tuple[int, int], b: tuple[int, int]) -> list[Allen]:
    """Every relation whose endpoint definition holds; spans [x0, x1] read as [x0, x1 + 1)."""
    a0, a1 = a[0], a[1] + 1
    b0, b1 = b[0], b[1] + 1
    table = {
        Allen.BEFORE: a1 < b0,
        Allen.AFTER: b1 < a0,
        Allen.MEETS: a1 == b0,
        Allen.MET_BY: b1 == a0,
        Allen.OVERLAPS: a0 < b0 < a1 < b1,
        Allen.OVERLAPPED_BY: b0 < a0 < b1 < a1,
        Allen.STARTS: a0 == b0 and a1 < b1,
        Allen.STARTED_BY: a0 == b0 and b1 < a1,
        Allen.DURING: b0 < a0 and a1 < b1,
        Allen.CONTAINS: a0 < b0 and b1 < a1,
        Allen.FINISHES: b0 < a0 and a1 == b1,
        Allen.FINISHED_BY: a0 < b0 and a1 == b1,
        Allen.EQUALS: a0 == b0 and a1 == b1,
    }
    return [rel for rel, holds in table.items() if holds]


span = st.tuples(st.integers(-20, 20), st.integers(0, 15)).map(lambda p: (p[0], p[0] + p[1]))


@settings(max_examples=400)
@given(span, span)
def test_exactly_one_relation_holds_and_matches_brute_force(a: tuple[int, int], b: tuple[int, int]) -> None:
    holds = brute_allen(a, b)
    assert len(holds) == 1
    assert allen_of_spans(a, b) == holds[0]


@settings(max_examples=400)
@given(span, span)
def test_converse_holds_with_arguments_swapped(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert allen_of_spans(b, a) == allen_of_spans(a, b).converse
    assert allen_of_spans(a, b).converse.converse == allen_of_spans(a, b)


def test_all_thirteen_relations_are_reachable() -> None:
    seen = {
        allen_of_spans((a0, a1), (b0, b1))
        for a0 in range(5)
        for a1 in range(a0, 5)
        for b0 in range(5)
        for b1 in range(b0, 5)
    }
    assert seen == set(Allen)


@pytest.mark.parametrize(
    ("a", "b", "g", "expected"),
    [
        (("1990", "1999"), ("2000", "2005"), Y, Allen.MEETS),  # ends in the unit just before
        (("1990", "2000"), ("2000", "2005"), Y, Allen.OVERLAPS),  # sharing an end unit
        (("1990", "1995"), ("1997", "2005"), Y, Allen.BEFORE),
        (("2001", "2003"), ("2000", "2005"), Y, Allen.DURING),
        (("2000", "2003"), ("2000", "2005"), Y, Allen.STARTS),
        (("2003", "2005"), ("2000", "2005"), Y, Allen.FINISHES),
        (("2000", "2005"), ("2000", "2005"), Y, Allen.EQUALS),
        (("2000-01-01", "2000-06-30"), ("2000", "2000"), D, Allen.STARTS),
        (("2000-01-01", "2000-06-30"), ("2000", "2000"), Y, Allen.EQUALS),
    ],
)
def test_relate_hand_worked(a: tuple[str, str], b: tuple[str, str], g: Granularity, expected: Allen) -> None:
    ia, ib = Interval(tp(a[0]), tp(a[1])), Interval(tp(b[0]), tp(b[1]))
    assert relate(ia, ib, g) == expected
    assert relate(ib, ia, g) == expected.converse


def test_relate_open_end_needs_as_of() -> None:
    open_iv = Interval(tp("2000"), None)
    other = Interval(tp("2001"), tp("2002"))
    with pytest.raises(ValueError, match="as_of"):
        relate(open_iv, other, Y)
    assert relate(open_iv, other, Y, as_of=tp("2010")) == Allen.CONTAINS
    assert relate(open_iv, other, Y, as_of=tp("2002")) == Allen.FINISHED_BY


def test_point_relation_cases() -> None:
    iv = Interval(tp("2000"), tp("2005"))
    assert point_relation(tp("1998"), iv, Y) == Allen.BEFORE
    assert point_relation(tp("1999"), iv, Y) == Allen.MEETS
    assert point_relation(tp("2000"), iv, Y) == Allen.STARTS
    assert point_relation(tp("2003"), iv, Y) == Allen.DURING
    assert point_relation(tp("2005"), iv, Y) == Allen.FINISHES
    assert point_relation(tp("2006"), iv, Y) == Allen.MET_BY
    assert point_relation(tp("2009"), iv, Y) == Allen.AFTER
    assert point_relation(tp("2000"), Interval.point(tp("2000")), Y) == Allen.EQUALS


def test_allen_parse_names() -> None:
    assert Allen.parse("met_by") is Allen.MET_BY
    assert Allen.parse("Overlapped By") is Allen.OVERLAPPED_BY
    with pytest.raises(ValueError, match="Unknown Allen relation"):
        Allen.parse("overlap")


def test_granularity_parse_and_nan_float() -> None:
    assert Granularity.parse("Month") is M
    with pytest.raises(ValueError):
        Granularity.parse("week")
    assert parse_time(math.nan) is None
