"""The graph index's heavy steps as SQL, run by DuckDB (default) or Apache Spark, from one source.

* :mod:`~chronoqa.generate.kg.sql.queries`: the steps (DuckDB dialect) and the tested subset of SQL they use.
* :mod:`~chronoqa.generate.kg.sql.engines`: the executors (:class:`DuckDBEngine`, :class:`SparkEngine`).
* :mod:`~chronoqa.generate.kg.sql.index`: the input tables, the index assembled from the results, and
  :func:`build_index`, the builder's engine switch (``numpy`` | ``duckdb`` | ``spark``).
* :mod:`~chronoqa.generate.kg.sql.plausible`: the implausible-date rules as SQL (:func:`implausible_dates`,
  the builder's switch for them).
* :mod:`~chronoqa.generate.kg.sql.candidates`: the candidate search (seeds, multi groups, timed facts) as SQL
  (:func:`find_candidates`, the builder's switch for it).
* :mod:`~chronoqa.generate.kg.sql.cardinality`: the relation cardinality statistics read by
  :meth:`~chronoqa.generate.kg.index.GraphIndex.infer_one` as SQL (:func:`group_stats_by_sql`).
* :mod:`~chronoqa.generate.kg.sql.overlap`: the overlapping groups read by
  :meth:`~chronoqa.generate.kg.index.GraphIndex.one_at` as SQL (:func:`overlap_keys_by_sql`).

See docs/scale.md for running on a cluster.
"""

from chronoqa.generate.kg.sql.candidates import CANDIDATE_STEPS, GROUP_STEPS, candidates_by_sql, find_candidates
from chronoqa.generate.kg.sql.cardinality import CARDINALITY_STEPS, Cardinality, cardinality_by_sql, group_stats_by_sql
from chronoqa.generate.kg.sql.engines import DuckDBEngine, SparkEngine, SqlEngine
from chronoqa.generate.kg.sql.index import (
    ENGINES,
    IndexArrays,
    build_index,
    engine_session,
    fact_arrays,
    fact_columns,
    input_tables,
    sql_engine,
    sql_params,
)
from chronoqa.generate.kg.sql.overlap import OVERLAP_STEPS, overlap_keys_by_sql
from chronoqa.generate.kg.sql.plausible import PLAUSIBLE_STEPS, implausible_by_sql, implausible_dates
from chronoqa.generate.kg.sql.queries import STEPS, Step, check_subset, render

__all__ = [
    "CANDIDATE_STEPS",
    "CARDINALITY_STEPS",
    "ENGINES",
    "GROUP_STEPS",
    "OVERLAP_STEPS",
    "PLAUSIBLE_STEPS",
    "STEPS",
    "Cardinality",
    "DuckDBEngine",
    "IndexArrays",
    "SparkEngine",
    "SqlEngine",
    "Step",
    "build_index",
    "candidates_by_sql",
    "cardinality_by_sql",
    "check_subset",
    "engine_session",
    "fact_arrays",
    "fact_columns",
    "find_candidates",
    "group_stats_by_sql",
    "implausible_by_sql",
    "implausible_dates",
    "input_tables",
    "overlap_keys_by_sql",
    "render",
    "sql_engine",
    "sql_params",
]
