"""Table-driven tests of the free-text time parser (chronoqa.time.text)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronoqa.time import Interval, TimePoint, extract_times, valid_at

Y = TimePoint


def iv(a: TimePoint | None, b: TimePoint | None) -> Interval:
    return Interval(a, b)


# (text, [(mention text, interval, kind, exclusive), ...]) — every expected value is written by hand.
CASES: list[tuple[str, list[tuple[str, Interval, str, bool]]]] = [
    ("Who led France in 1994?", [("1994", iv(Y(1994), Y(1994)), "point", False)]),
    ("In 1994 the club won.", [("1994", iv(Y(1994), Y(1994)), "point", False)]),
    ("1994", [("1994", iv(Y(1994), Y(1994)), "point", False)]),
    ("as of March 1994", [("March 1994", iv(Y(1994, 3), Y(1994, 3)), "point", False)]),
    ("in Sept. 2001", [("Sept. 2001", iv(Y(2001, 9), Y(2001, 9)), "point", False)]),
    ("on the 5th of March 1994", [("the 5th of March 1994", iv(Y(1994, 3, 5), Y(1994, 3, 5)), "point", False)]),
    ("on March 5, 1994,", [("March 5, 1994", iv(Y(1994, 3, 5), Y(1994, 3, 5)), "point", False)]),
    ("on March 5th 1994", [("March 5th 1994", iv(Y(1994, 3, 5), Y(1994, 3, 5)), "point", False)]),
    ("on 5 March 1994", [("5 March 1994", iv(Y(1994, 3, 5), Y(1994, 3, 5)), "point", False)]),
    ("date: 1994-03-05.", [("1994-03-05", iv(Y(1994, 3, 5), Y(1994, 3, 5)), "point", False)]),
    ("date 1994/03/05", [("1994/03/05", iv(Y(1994, 3, 5), Y(1994, 3, 5)), "point", False)]),
    ("month 1994-03", [("1994-03", iv(Y(1994, 3), Y(1994, 3)), "point", False)]),
    ("on 29 February 2000", [("29 February 2000", iv(Y(2000, 2, 29), Y(2000, 2, 29)), "point", False)]),
    ("in the 1990s", [("the 1990s", iv(Y(1990), Y(1999)), "decade", False)]),
    ("1990s", [("1990s", iv(Y(1990), Y(1999)), "decade", False)]),
    ("the 1880's", [("the 1880's", iv(Y(1880), Y(1889)), "decade", False)]),
    ("in the mid-1990s", [("the mid-1990s", iv(Y(1990), Y(1999)), "decade", False)]),
    ("the 19th century", [("the 19th century", iv(Y(1801), Y(1900)), "century", False)]),
    ("a 21st-century idea", [("21st-century", iv(Y(2001), Y(2100)), "century", False)]),
    ("the nineteenth century", [("the nineteenth century", iv(Y(1801), Y(1900)), "century", False)]),
    ("the 5th century BC", [("the 5th century BC", iv(Y(-500), Y(-401)), "century", False)]),
    ("between 1994 and 1998", [("between 1994 and 1998", iv(Y(1994), Y(1998)), "range", False)]),
    ("from 1994 to 1998", [("from 1994 to 1998", iv(Y(1994), Y(1998)), "range", False)]),
    ("1994–1998", [("1994–1998", iv(Y(1994), Y(1998)), "range", False)]),
    ("1994 - 1998", [("1994 - 1998", iv(Y(1994), Y(1998)), "range", False)]),
    ("2020-2021", [("2020-2021", iv(Y(2020), Y(2021)), "range", False)]),
    ("the 1994–98 term", [("1994–98", iv(Y(1994), Y(1998)), "range", False)]),
    ("the 1994/95 season", [("1994/95", iv(Y(1994), Y(1995)), "range", False)]),
    ("the 1999/00 season", [("1999/00", iv(Y(1999), Y(2000)), "range", False)]),
    (
        "from March 1994 until 5 June 1998",
        [("from March 1994 until 5 June 1998", iv(Y(1994, 3), Y(1998, 6, 5)), "range", False)],
    ),
    ("between the 1980s and 1995", [("between the 1980s and 1995", iv(Y(1980), Y(1995)), "range", False)]),
    ("since March 2014", [("since March 2014", iv(Y(2014, 3), None), "since", False)]),
    ("Since 2014", [("Since 2014", iv(Y(2014), None), "since", False)]),
    ("after 2001", [("after 2001", iv(Y(2001), None), "since", True)]),
    ("2009–present", [("2009–present", iv(Y(2009), None), "since", False)]),
    ("from March 2009 to the present day", [("from March 2009 to the present", iv(Y(2009, 3), None), "since", False)]),
    ("(2009 - now)", [("2009 - now", iv(Y(2009), None), "since", False)]),
    ("2009 to nowhere", [("2009", iv(Y(2009), Y(2009)), "point", False)]),
    ("until 2001", [("until 2001", iv(None, Y(2001)), "until", False)]),
    ("before 2001", [("before 2001", iv(None, Y(2001)), "until", True)]),
    ("prior to the 1990s", [("prior to the 1990s", iv(None, Y(1999)), "until", True)]),
    ("44 BC", [("44 BC", iv(Y(-44), Y(-44)), "point", False)]),
    ("in AD 800", [("AD 800", iv(Y(800), Y(800)), "point", False)]),
    ("March 44 BC", [("March 44 BC", iv(Y(-44, 3), Y(-44, 3)), "point", False)]),
    ("TempBench tag <t=1994.0>", [("1994.0", iv(Y(1994), Y(1994)), "point", False)]),
    # two separate points, not a range: "and" joins a range only after "between"
    (
        "in 1994 and 1998",
        [("1994", iv(Y(1994), Y(1994)), "point", False), ("1998", iv(Y(1998), Y(1998)), "point", False)],
    ),
    # reversed "range" stays two points
    (
        "1998-1994",
        [("1998", iv(Y(1998), Y(1998)), "point", False), ("1994", iv(Y(1994), Y(1994)), "point", False)],
    ),
    # ordinal words, numeric day forms, abbreviated months, a shared year
    ("on the tenth of May, 2022", [("the tenth of May, 2022", iv(Y(2022, 5, 10), Y(2022, 5, 10)), "point", False)]),
    (
        "the thirty-first of May 2010",
        [("the thirty-first of May 2010", iv(Y(2010, 5, 31), Y(2010, 5, 31)), "point", False)],
    ),
    ("May the tenth, 2022", [("May the tenth, 2022", iv(Y(2022, 5, 10), Y(2022, 5, 10)), "point", False)]),
    ("on 30.06.1994", [("30.06.1994", iv(Y(1994, 6, 30), Y(1994, 6, 30)), "point", False)]),
    ("on 1.7.2004", [("1.7.2004", iv(Y(2004, 7, 1), Y(2004, 7, 1)), "point", False)]),
    ("on 17/02/2012", [("17/02/2012", iv(Y(2012, 2, 17), Y(2012, 2, 17)), "point", False)]),
    ("on 05/31/2010", [("05/31/2010", iv(Y(2010, 5, 31), Y(2010, 5, 31)), "point", False)]),
    ("on 12/12/1996", [("12/12/1996", iv(Y(1996, 12, 12), Y(1996, 12, 12)), "point", False)]),
    # the day/month order is open: the year alone, which is certain
    ("03/04/2014", [("03/04/2014", iv(Y(2014), Y(2014)), "point", False)]),
    ("version 3.10.2004", []),
    ("1 Jul. 2004", [("1 Jul. 2004", iv(Y(2004, 7, 1), Y(2004, 7, 1)), "point", False)]),
    (
        "from 24 February to 5 March 2004",
        [("24 February to 5 March 2004", iv(Y(2004, 2, 24), Y(2004, 3, 5)), "range", False)],
    ),
    (
        "20 December to 5 January 2000",
        [("20 December to 5 January 2000", iv(Y(1999, 12, 20), Y(2000, 1, 5)), "range", False)],
    ),
    ("01.07.2004 to 31.05.2010", [("01.07.2004 to 31.05.2010", iv(Y(2004, 7, 1), Y(2010, 5, 31)), "range", False)]),
    ("in summer 2004", [("2004", iv(Y(2004), Y(2004)), "point", False)]),
    ("411 B.C.", [("411 B.C.", iv(Y(-411), Y(-411)), "point", False)]),
    ("405 BC", [("405 BC", iv(Y(-405), Y(-405)), "point", False)]),
    # an impossible day keeps its year only
    ("February 30, 1994", [("1994", iv(Y(1994), Y(1994)), "point", False)]),
    # ambiguous / adversarial: nothing
    ("May", []),
    ("in May", []),
    ("We may 5 times", []),
    ("May 5", []),
    ("He scored 5 goals", []),
    ("25", []),
    ("a 3-hop question", []),
    ("1,500 people", []),
    ("2,000", []),
    ("2000 people attended", []),
    ("it cost $2000", []),
    ("up 1999%", []),
    ("'94", []),
    ("the '90s", []),
    ("05/03/1994", [("05/03/1994", iv(Y(1994), Y(1994)), "point", False)]),
    ("Blink-182", []),
    ("Blade Runner 2049", []),
    ("room number 1408", []),
    ("the 12345 code", []),
    ("year 999", []),
    ("3000", []),
    ("v1994", []),
    ("1994.5", []),
    ("10:2000", []),
    ("", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] or "<empty>" for c in CASES])
def test_extract_times_table(text: str, expected: list[tuple[str, Interval, str, bool]]) -> None:
    got = extract_times(text)
    assert [(m.text, m.interval, m.kind, m.exclusive) for m in got] == expected
    for m in got:
        assert text[m.begin : m.end] == m.text


def test_title_number_next_to_a_real_year() -> None:
    got = extract_times("Windows 2000 was released in February 2000.")
    assert [(m.text, m.interval) for m in got] == [("February 2000", iv(Y(2000, 2), Y(2000, 2)))]


def test_several_mentions_in_order() -> None:
    text = "He played for Ajax from 1994 to 1998, then moved in March 1999 and retired in the 2000s."
    got = extract_times(text)
    assert [m.kind for m in got] == ["range", "point", "decade"]
    assert [m.begin for m in got] == sorted(m.begin for m in got)
    assert got[1].interval == Interval.point(Y(1999, 3))


def test_strict_interval_moves_exclusive_bounds() -> None:
    (before,) = extract_times("before 2001")
    assert before.strict_interval() == Interval(None, Y(2000))
    (after,) = extract_times("after March 2001")
    assert after.strict_interval() == Interval(Y(2001, 4), None)
    (until,) = extract_times("until 2001")
    assert until.strict_interval() == until.interval


def test_mentions_feed_valid_at() -> None:
    (m,) = extract_times("between 1994 and 1998")
    fact = Interval(Y(1996, 5), Y(2003))
    assert m.interval.start is not None
    assert valid_at(fact, m.interval.start.shift(2), m.interval.granularity)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1000, max_value=2100), st.integers(min_value=1, max_value=12))
def test_month_year_roundtrip(year: int, month: int) -> None:
    names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October"]
    names += ["November", "December"]
    text = f"It happened in {names[month - 1]} {year}, they say."
    (m,) = extract_times(text)
    assert m.interval == Interval.point(Y(year, month))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 -/,.$'abcMayJun–s", max_size=40))
def test_never_crashes_and_offsets_match(text: str) -> None:
    got = extract_times(text)
    last = -1
    for m in got:
        assert text[m.begin : m.end] == m.text
        assert m.begin >= last
        last = m.end
        assert m.kind in ("point", "range", "decade", "century", "since", "until")


def test_deterministic() -> None:
    text = "From 1994 to 1998 and since March 2014; the 19th century; 1990s."
    assert extract_times(text) == extract_times(text)


def test_an_open_slashed_order_gives_the_year_only() -> None:
    (alone,) = extract_times("signed on 04/07/1987")
    assert alone.ambiguous and alone.interval == iv(Y(1987), Y(1987))
    # another slashed date of the text settles no order: no day is guessed
    first, second = extract_times("joined 04/07/1987, left 25/06/1990")
    assert first.ambiguous and first.interval == iv(Y(1987), Y(1987))
    assert not second.ambiguous and second.interval == iv(Y(1990, 6, 25), Y(1990, 6, 25))
    (rng,) = extract_times("from 08/02/2001 to 08/30/2003")
    assert rng.ambiguous and rng.interval == iv(Y(2001), Y(2003, 8, 30))


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("she died on Christmas Day 1971", Y(1971, 12, 25)),
        ("late on Christmas Eve, 1968", Y(1968, 12, 24)),
        ("sworn in on New Year's Day 1959", Y(1959, 1, 1)),
        ("resigned on New Year’s Eve 1999", Y(1999, 12, 31)),
    ],
)
def test_fixed_feast_days_are_days(text: str, day: TimePoint) -> None:
    (m,) = extract_times(text)
    assert m.interval == iv(day, day) and m.kind == "point"
