"""TDBench-style benchmarks from temporal tables: TFDs, the 13 Allen relations, temporal joins.

Entry point: :func:`build_table_benchmark` (and ``chronoqa build table``), which returns a
:class:`~chronoqa.generate.result.BuildResult`; ``.write(out_dir)`` writes the release. See
``docs/table-builder.md``. Modules, laid out like the KG builder: :mod:`.config`, :mod:`.store` (a table
in DuckDB), :mod:`.tfd`, :mod:`.allen`, :mod:`.triples` (row identity), :mod:`.questions` (Allen and
time alignment), :mod:`.join` and :mod:`.join_questions`, :mod:`.corpus`, :mod:`.datacard`,
:mod:`.verbalise` (phrases), :mod:`.sql_text` (an optional LLM wording, kept when faithful), :mod:`.build`
(the orchestration).
"""

from __future__ import annotations

from chronoqa.generate.result import BuildResult
from chronoqa.generate.table.allen import RELATIONS, TIME_REFS, RelationSpec
from chronoqa.generate.table.build import TableBuild, build_table_benchmark
from chronoqa.generate.table.config import (
    AS_OF_DATA,
    CARDINALITIES,
    DEFAULT_AS_OF,
    JoinSpec,
    TableBuildConfig,
    cardinality_of,
    latest_date,
)
from chronoqa.generate.table.datacard import question_counts
from chronoqa.generate.table.join import JoinDiff, JoinResult, compare_joined, temporal_join
from chronoqa.generate.table.sql_text import sql_to_text
from chronoqa.generate.table.store import GranularityReport, TableStore, detect_granularity
from chronoqa.generate.table.tfd import TFD, TFDReport, check_tfd, discover_tfds, select_tfds
from chronoqa.generate.table.triples import primary_tfd, row_triple
from chronoqa.generate.table.verbalise import PhraseBook, graph_phrases, paraphrase_questions
from chronoqa.sources.graph_table import graph_as_table

__all__ = [
    "AS_OF_DATA",
    "CARDINALITIES",
    "DEFAULT_AS_OF",
    "RELATIONS",
    "TFD",
    "TIME_REFS",
    "BuildResult",
    "GranularityReport",
    "JoinDiff",
    "JoinResult",
    "JoinSpec",
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
    "graph_phrases",
    "latest_date",
    "paraphrase_questions",
    "primary_tfd",
    "question_counts",
    "row_triple",
    "select_tfds",
    "sql_to_text",
    "temporal_join",
]
