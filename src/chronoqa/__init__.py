"""chronoqa: time-sensitive QA benchmarks from temporal data, and the scoring of systems that answer them.

The public API is re-exported here; implementation modules are free to change.
"""

from __future__ import annotations

import importlib
from typing import Any

from chronoqa.artifacts.release import Release, load_release, write_release
from chronoqa.errors import ChecksumError, ChronoqaError, DataError, LoadReport, SkippedRow, UnknownNameError
from chronoqa.records import Doc, Fact, Question, TemporalGraph, TemporalTable, Triple
from chronoqa.time import Allen, Granularity, Interval, TimePoint, parse_time, relate, valid_at

__version__ = "0.1.0"

# The stage entry points, imported on first use so that ``import chronoqa`` stays light
# (scoring pulls in scipy, retrieval bm25s, the dense retriever torch).
_LAZY = {
    "load_graph": "chronoqa.datasets",
    "fetch": "chronoqa.datasets",
    "read_hyte": "chronoqa.sources",
    "read_table": "chronoqa.sources",
    "KGBuildConfig": "chronoqa.generate.kg",
    "build_kg_benchmark": "chronoqa.generate.kg",
    "TableBuildConfig": "chronoqa.generate.table",
    "build_table_benchmark": "chronoqa.generate.table",
    "run_retrieval": "chronoqa.retrieve",
    "read_run": "chronoqa.artifacts.runs",
    "Run": "chronoqa.artifacts.runs",
    "evaluate": "chronoqa.score.evaluate",
    "score_question": "chronoqa.score.tempbench",
    "aggregate": "chronoqa.score.tempbench",
    "run_pipeline": "chronoqa.pipeline",
    "RunConfig": "chronoqa.pipeline",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'chronoqa' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


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
    *_LAZY,
]
