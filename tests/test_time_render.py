"""The one time renderer (chronoqa.time.render) and its read-back by chronoqa.time.extract_times."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronoqa.generate.kg.templates import render_time_text
from chronoqa.generate.table.store import format_unit
from chronoqa.time import Granularity, TimePoint, days_in_month, extract_times, render_time, render_unit

Y = TimePoint

# every expected string written by hand
CASES = [
    (Y(1994), "1994"),
    (Y(1994, 3), "March 1994"),
    (Y(1994, 3, 7), "7 March 1994"),
    (Y(-405), "405 BC"),  # the data writes 405 BC as -405 (Wikidata, YAGO), and so does the text reader
    (Y(-44, 3, 15), "15 March 44 BC"),
    (Y(-1), "1 BC"),
    (Y(427), "427 AD"),  # a bare "427" reads as a number, not a year
    (Y(800, 12, 25), "25 December 800 AD"),
    (Y(1000), "1000"),
    (Y(2100), "2100"),
    (Y(2101), "2101 AD"),
    (Y(0), "year 0"),
]


@pytest.mark.parametrize(("point", "text"), CASES)
def test_render_time_by_hand(point: TimePoint, text: str) -> None:
    assert render_time(point) == text


def test_both_builders_write_bc_years_as_the_data_does() -> None:
    """Live bug before: both builders wrote year -405 as "406 BC", which the text reader reads as -406."""
    assert render_time_text(Y(-405)) == "405 BC"
    assert format_unit(-405, Granularity.YEAR) == "405 BC"
    assert format_unit(Y(-405, 3).lo(Granularity.MONTH), Granularity.MONTH) == "March 405 BC"
    assert format_unit(Y(-405, 3, 7).first_day(), Granularity.DAY) == "7 March 405 BC"
    # an explanation quoting the corpus is read back as the corpus's own year
    [m] = extract_times(f"It began in {render_time_text(Y(-405))}.")
    assert m.interval.start == Y(-405)


def test_year_zero_is_never_read_as_another_year() -> None:
    assert extract_times(f"It began in {render_time(Y(0))}.") == []


@st.composite
def points(draw: st.DrawFn) -> TimePoint:
    year = draw(st.integers(-9999, 9999).filter(lambda y: y != 0))
    g = draw(st.sampled_from(list(Granularity)))
    if g is Granularity.YEAR:
        return Y(year)
    month = draw(st.integers(1, 12))
    if g is Granularity.MONTH:
        return Y(year, month)
    return Y(year, month, draw(st.integers(1, days_in_month(year, month))))


# (sentence, kind of the mention, does the mention's interval start at the point)
CONTEXTS = (
    ("{}", "point", True),
    ("It began in {}.", "point", True),
    ("{}, then", "point", True),
    ("Who was the Prime Minister of Sweden whose term ended before {}?", "until", False),
)


@settings(max_examples=400, deadline=None)
@given(points(), st.sampled_from(CONTEXTS))
def test_rendered_time_reads_back_as_the_same_point(point: TimePoint, context: tuple[str, str, bool]) -> None:
    sentence, kind, starts = context
    text = render_time(point)
    [mention] = extract_times(sentence.format(text))
    assert mention.text.removeprefix("before ") in (text, text + ".")  # "AD." reads as the abbreviation "A.D."
    assert mention.kind == kind
    assert mention.interval.start == (point if starts else None)
    assert mention.interval.end == point


@settings(max_examples=200, deadline=None)
@given(points())
def test_render_unit_is_render_time_of_the_unit(point: TimePoint) -> None:
    g = point.granularity
    assert render_unit(point.lo(g), g) == render_time(point)
    assert render_time_text(point) == render_time(point) == format_unit(point.lo(g), g)
