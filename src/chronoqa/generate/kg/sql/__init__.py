"""The graph index's heavy steps as SQL, run by DuckDB (default) or Apache Spark, from one source.

* :mod:`~chronoqa.generate.kg.sql.queries`: the steps (DuckDB dialect) and the tested subset of SQL they use.
* :mod:`~chronoqa.generate.kg.sql.engines`: the executors (:class:`DuckDBEngine`, :class:`SparkEngine`).
* :mod:`~chronoqa.generate.kg.sql.index`: the input tables, the index assembled from the results, and
  :func:`build_index`, the builder's engine switch (``numpy`` | ``duckdb`` | ``spark``).

See docs/scale.md for running on a cluster.
"""

from chronoqa.generate.kg.sql.engines import DuckDBEngine, SparkEngine, SqlEngine
from chronoqa.generate.kg.sql.index import ENGINES, build_index, index_from_results, input_tables, sql_params
from chronoqa.generate.kg.sql.queries import STEPS, Step, check_subset, render

__all__ = [
    "ENGINES",
    "STEPS",
    "DuckDBEngine",
    "SparkEngine",
    "SqlEngine",
    "Step",
    "build_index",
    "check_subset",
    "index_from_results",
    "input_tables",
    "render",
    "sql_params",
]
