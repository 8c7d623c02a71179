"""TDBench-style benchmarks from temporal tables: TFDs, the 13 Allen relations, temporal joins.

Entry point: :func:`build_table_benchmark` (and ``chronoqa build table``). See ``docs/table-builder.md``.
"""

from __future__ import annotations

from chronoqa.generate.table.allen import RELATIONS, TIME_REFS, RelationSpec
from chronoqa.generate.table.build import (
    AS_OF_DATA,
    CARDINALITIES,
    DEFAULT_AS_OF,
    JoinSpec,
    TableBuild,
    TableBuildConfig,
    build_table_benchmark,
    cardinality_of,
    latest_date,
    write_table_build,
)
from chronoqa.generate.table.join import JoinDiff, JoinResult, compare_joined, temporal_join
from chronoqa.generate.table.store import GranularityReport, TableStore, detect_granularity
from chronoqa.generate.table.tfd import TFD, TFDReport, check_tfd, discover_tfds, select_tfds
from chronoqa.generate.table.verbalise import ParaphraseReport, PhraseBook, paraphrase_questions
from chronoqa.generate.table.yago import graph_as_table

__all__ = [
    "AS_OF_DATA",
    "CARDINALITIES",
    "DEFAULT_AS_OF",
    "RELATIONS",
    "TFD",
    "TIME_REFS",
    "GranularityReport",
    "JoinDiff",
    "JoinResult",
    "JoinSpec",
    "ParaphraseReport",
    "PhraseBook",
    "RelationSpec",
    "TFDReport",
    "TableBuild",
    "TableBuildConfig",
    "TableStore",
    "build_table_benchmark",
    "cardinality_of",
    "check_tfd",
    "compare_joined",
    "detect_granularity",
    "discover_tfds",
    "graph_as_table",
    "latest_date",
    "paraphrase_questions",
    "select_tfds",
    "temporal_join",
    "write_table_build",
]
