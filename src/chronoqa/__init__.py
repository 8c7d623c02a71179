"""chronoqa: time-sensitive QA benchmarks from temporal data, and the scoring of systems that answer them.

The public API is re-exported here; implementation modules are free to change.
"""

from __future__ import annotations

from chronoqa.errors import ChecksumError, ChronoqaError, DataError, LoadReport, SkippedRow, UnknownNameError
from chronoqa.records import Doc, Fact, Question, TemporalGraph, TemporalTable, Triple
from chronoqa.release import Release, load_release, write_release
from chronoqa.time import Allen, Granularity, Interval, TimePoint, parse_time, relate, valid_at

__version__ = "0.1.0"

__all__ = [
    "Allen",
    "ChecksumError",
    "ChronoqaError",
    "DataError",
    "Doc",
    "Fact",
    "Granularity",
    "Interval",
    "LoadReport",
    "Question",
    "Release",
    "SkippedRow",
    "TemporalGraph",
    "TemporalTable",
    "TimePoint",
    "Triple",
    "UnknownNameError",
    "__version__",
    "load_release",
    "parse_time",
    "relate",
    "valid_at",
    "write_release",
]
