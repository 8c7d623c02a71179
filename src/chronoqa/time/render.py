"""The one time renderer: a :class:`~chronoqa.time.TimePoint` as English text.

Every builder writes times into questions and corpus text through :func:`render_time`, and
:func:`chronoqa.time.extract_times` reads that text back as the same point (a property test holds
the two together). The forms:

* ``1994``, ``March 1994``, ``7 March 1994``: years 1000..2100 are written bare;
* ``405 BC``, ``March 405 BC``, ``7 March 405 BC``: year ``-n`` is ``n BC``, the data's convention
  (Wikidata and YAGO write 405 BC as ``-405``), which is also how :mod:`chronoqa.time.text` reads it;
* ``427 AD``, ``March 427 AD``, ``2500 AD``: other positive years carry their era, because a bare
  ``427`` is a number, not a year, to a reader (and to :func:`~chronoqa.time.extract_times`).

Year ``0`` has no English name under the data's convention (``1 BC`` is ``-1``) and is written
``year 0``, which no reader takes for another year. Years beyond 9999 either way are written with
their era but are not read back (the text reader takes at most four digits).
"""

from __future__ import annotations

from typing import Final

from chronoqa.time._core import Granularity, TimeParseError, TimePoint, parse_time

__all__ = ["MONTH_NAMES", "float_year", "render_time", "render_unit", "render_year"]

MONTH_NAMES: Final = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip

#: Years written without an era (what a reader takes for a year on its own).
_BARE_YEARS: Final = range(1000, 2101)


def render_year(year: int) -> str:
    """English form of a year: ``1994``, ``405 BC`` (year ``-405``), ``427 AD``, ``year 0``."""
    if year in _BARE_YEARS:
        return str(year)
    if year < 0:
        return f"{-year} BC"
    if year == 0:
        return "year 0"
    return f"{year} AD"


def render_time(point: TimePoint) -> str:
    """English form of a time point at its own granularity: ``1994``, ``March 1994``, ``7 March 1994``, ``405 BC``."""
    year = render_year(point.year)
    if point.month is None:
        return year
    month = MONTH_NAMES[point.month - 1]
    if point.day is None:
        return f"{month} {year}"
    return f"{point.day} {month} {year}"


def render_unit(unit: int, granularity: Granularity) -> str:
    """English form of one unit of ``granularity`` (years, months since year 0, days since 1970-01-01)."""
    return render_time(TimePoint.from_unit(unit, granularity))


def float_year(value: object) -> float | None:
    """A year-granular time as TempBench writes it (``"1994"`` → ``1994.0``); ``None`` for an unknown time.

    A time finer than a year (``1994-03``) raises :class:`TimeParseError`: a float year would drop its month.
    """
    point = parse_time(value)
    if point is None:
        return None
    if point.granularity is not Granularity.YEAR:
        raise TimeParseError(f"{value!r} is finer than a year: a float year such as 1994.0 would drop its month/day")
    return float(point.year)
