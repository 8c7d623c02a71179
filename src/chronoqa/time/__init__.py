"""The one time package: every parse and comparison of a time in chronoqa happens here.

``chronoqa.time._core`` holds the time model (points, intervals, validity, Allen relations) and its
conventions; ``chronoqa.time.render`` writes a point as English (the one renderer every builder uses) and
``chronoqa.time.text`` finds time expressions in free text (questions, explanations), reading that English
back as the same point.
Nothing outside this package parses dates or builds ``datetime`` objects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chronoqa.time._core import (
    Allen,
    Granularity,
    Interval,
    TimeParseError,
    TimePoint,
    ValidityMode,
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
from chronoqa.time.columns import (
    DateColumn,
    DateTable,
    date_codes,
    date_table,
    distinct_dates,
    distinct_dates_of,
    render_dates,
    start_after_end,
    unit_bounds,
)
from chronoqa.time.duration import TOLERANCE, Duration, count_of, durations_in, same_duration
from chronoqa.time.render import MONTH_NAMES, float_year, render_time, render_unit, render_year

if TYPE_CHECKING:
    from chronoqa.time.text import MENTION_KINDS, TimeMention, extract_times

# The text reader (many patterns compiled at import) is imported on first use: the builders never read free text.
_TEXT = frozenset(("MENTION_KINDS", "TimeMention", "extract_times"))


def __getattr__(name: str) -> Any:
    if name in _TEXT:
        from chronoqa.time import text

        return getattr(text, name)
    raise AttributeError(f"module 'chronoqa.time' has no attribute {name!r}")


__all__ = [
    "MENTION_KINDS",
    "MONTH_NAMES",
    "TOLERANCE",
    "Allen",
    "DateColumn",
    "DateTable",
    "Duration",
    "Granularity",
    "Interval",
    "TimeMention",
    "TimeParseError",
    "TimePoint",
    "ValidityMode",
    "allen_of_spans",
    "civil_from_days",
    "count_of",
    "date_codes",
    "date_table",
    "days_from_civil",
    "days_in_month",
    "distinct_dates",
    "distinct_dates_of",
    "durations_in",
    "extract_times",
    "float_year",
    "is_leap_year",
    "parse_time",
    "point_relation",
    "relate",
    "render_dates",
    "render_time",
    "render_unit",
    "render_year",
    "same_duration",
    "start_after_end",
    "unit_bounds",
    "valid_at",
]
