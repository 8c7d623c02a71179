"""The on-disk contracts between stages: one module per file format, each with its record type, writer and reader.

* :mod:`chronoqa.artifacts.release`: a benchmark release folder (what both builders write, every stage reads).
* :mod:`chronoqa.artifacts.runs`: run files (what retrieval writes; answer and evaluate read), one :class:`Run`.
* :mod:`chronoqa.artifacts.answers`: answer folders (what the answer stage writes; evaluate reads).
* :mod:`chronoqa.artifacts.metrics`: the evaluate folder (what evaluate writes; the report reads).
* :mod:`chronoqa.artifacts.remote`: those files at a URI (``s3://``, ``gs://``, ``hdfs://``, ``file://``): a graph
  downloaded for reading, a release uploaded manifest last, a release read from a cached copy.

This package imports only the floors below it (:mod:`chronoqa.time`, :mod:`chronoqa.records`,
:mod:`chronoqa.errors`, :mod:`chronoqa.io`, :mod:`chronoqa.paths`); every stage imports it, and no stage
imports another stage for a file format.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chronoqa.artifacts.answers import AnswerRecord, read_answers, write_answers
    from chronoqa.artifacts.metrics import MetricsFolder, MetricsRecord, read_metrics, write_metrics
    from chronoqa.artifacts.release import FunctionalFlags, Release, load_release, write_release
    from chronoqa.artifacts.runs import Run, RunHit, RunLine, read_run, write_run

# Each name is imported from its module on first use: a stage imports the formats it reads and writes, not every
# format's (the answer and metrics records pull in pydantic, which a build never needs).
_HOME = {
    **dict.fromkeys(("AnswerRecord", "read_answers", "write_answers"), "answers"),
    **dict.fromkeys(("MetricsFolder", "MetricsRecord", "read_metrics", "write_metrics"), "metrics"),
    **dict.fromkeys(("FunctionalFlags", "Release", "load_release", "write_release"), "release"),
    **dict.fromkeys(("Run", "RunHit", "RunLine", "read_run", "write_run"), "runs"),
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'chronoqa.artifacts' has no attribute {name!r}")
    return getattr(importlib.import_module(f"chronoqa.artifacts.{home}"), name)


__all__ = [
    "AnswerRecord",
    "FunctionalFlags",
    "MetricsFolder",
    "MetricsRecord",
    "Release",
    "Run",
    "RunHit",
    "RunLine",
    "load_release",
    "read_answers",
    "read_metrics",
    "read_run",
    "write_answers",
    "write_metrics",
    "write_release",
    "write_run",
]
