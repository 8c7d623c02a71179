"""The two executors of the SQL steps: DuckDB in process (the default) and Apache Spark (``chronoqa[spark]``).

Both run the same :data:`~chronoqa.generate.kg.sql.queries.STEPS`, rendered for their dialect by sqlglot, and
return each output step's result as an Arrow table in the step's total order (an intermediate step's result
stays in the engine), or hand it batch by batch, in that order, to a *sink* the caller gives for it (a large
result then never stands whole in memory: the index fills its arrays from the batches). An input is an Arrow
table, or batches made one at a time (:func:`batches_of`: a large input made from the index's arrays then never
stands whole in the caller's memory beside the engine's copy). DuckDB reads a table straight from Arrow, loads
batches into a temporary table, and keeps intermediate results as temporary tables (all spilled to a temporary
folder past its memory limit, and dropped after the last step that reads them); Spark reads the inputs from
Parquet files in a folder (local, or a cluster's object storage: ``work_dir``) and writes every step's result
there as Parquet, the outputs read back with pyarrow.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import numpy as np
import pyarrow as pa

from chronoqa._gc import return_freed_memory
from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg.sql.queries import Step, render

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["DuckDBEngine", "Input", "Sink", "SparkEngine", "SqlEngine", "batches_of", "in_order"]

#: Takes an output step's result batch by batch, in the step's total order.
Sink = Callable[[pa.RecordBatch], None]
#: An input table of the steps: whole, or batches made one at a time (read once, by the engine).
Input: TypeAlias = pa.Table | pa.RecordBatchReader
#: Rows per batch handed to a sink, and per batch of an input made by :func:`batches_of`.
BATCH_ROWS = 1 << 20

#: DuckDB's memory limit unless the caller gives one (``KGBuildConfig.engine_memory``); past it DuckDB spills to a
#: temporary folder. The large inputs are loaded into DuckDB batch by batch (:func:`batches_of`), so every table,
#: sort and hash table of the SQL steps lives under this limit and the build's peak is its own arrays plus this,
#: whatever the graph's size (docs/scale.md: "Memory").
MEMORY_LIMIT = "256MB"
#: Spark settings of every session the engine builds: integer overflow is an error (ANSI), times in UTC.
SPARK_CONF: Mapping[str, str] = {
    "spark.sql.ansi.enabled": "true",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
}
#: And of a local session (a cluster's spark-submit sets its own memory and partitions).
SPARK_LOCAL_CONF: Mapping[str, str] = {
    **SPARK_CONF,
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "4",
    "spark.driver.memory": "2g",
}


def batches_of(
    n: int, columns: Callable[[int, int], Mapping[str, np.ndarray | pa.Array]], rows: int | None = None
) -> pa.RecordBatchReader:
    """An input of ``n`` rows made ``rows`` at a time (default :data:`BATCH_ROWS`), read once by the engine.

    ``columns(a, b)`` gives the columns of rows ``[a, b)``. Each batch is made when the engine reads it and
    dropped once read, so the caller holds one batch, not the whole input (the engine keeps its own copy,
    within its memory limit).
    """

    def batch(a: int, b: int) -> pa.RecordBatch:
        made = columns(a, b)
        return pa.RecordBatch.from_pydict({k: v if isinstance(v, pa.Array) else pa.array(v) for k, v in made.items()})

    step = rows or BATCH_ROWS

    def made() -> Iterator[pa.RecordBatch]:
        for a in range(0, n, step):
            yield batch(a, min(a + step, n))

    return pa.RecordBatchReader.from_batches(batch(0, 0).schema, made())


class SqlEngine(Protocol):
    """What runs the SQL steps: inputs by table name in, every output step's result by name out."""

    name: str

    def run(
        self,
        inputs: Mapping[str, Input],
        steps: Sequence[Step],
        params: Mapping[str, int],
        sinks: Mapping[str, Sink] | None = None,
    ) -> dict[str, pa.Table]:
        """Run ``steps`` in order over ``inputs``; each step reads the inputs and the earlier steps' results.

        An output step named in ``sinks`` goes to its sink (in order, batch by batch) instead of the returned
        mapping; no later step may read it.
        """
        ...


def _sorted(table: pa.Table | pa.RecordBatch, step: Step) -> bool:
    """True when the rows of ``table`` are in the step's total order."""
    if table.num_rows < 2:
        return True
    ok = np.zeros(table.num_rows - 1, dtype=bool)
    tied = np.ones(table.num_rows - 1, dtype=bool)
    for c in step.order:
        a = np.asarray(table.column(c).to_numpy(zero_copy_only=False))
        ok |= tied & (a[:-1] < a[1:])
        tied &= a[:-1] == a[1:]
    return bool((ok | tied).all())


def in_order(table: pa.Table, step: Step) -> pa.Table:
    """``table`` sorted by the step's total order (returned as is when already sorted: the usual case)."""
    return table if _sorted(table, step) else table.sort_by([(c, "ascending") for c in step.order])


def _to_sink(batches: Iterator[pa.RecordBatch], step: Step, sink: Sink) -> None:
    """Hand ``batches`` to ``sink``, checking the step's order within each batch and across their boundaries.

    Raises:
        ChronoqaError: The engine gave the rows out of order (they are already partly handed on: not repaired).

    """
    last: pa.RecordBatch | None = None
    for batch in batches:
        if not batch.num_rows:
            continue
        edge = batch.slice(0, 1) if last is None else pa.concat_batches([last, batch.slice(0, 1)])
        if not (_sorted(batch, step) and _sorted(edge, step)):
            raise ChronoqaError(f"the SQL engine returned step {step.name} out of its order {step.order}")
        sink(batch)
        last = batch.slice(batch.num_rows - 1, 1)


class DuckDBEngine:
    """Runs the steps in an in-memory DuckDB connection (opened and closed by :meth:`run`).

    ``threads`` defaults to DuckDB's (every core); ``memory_limit`` (a DuckDB size) to :data:`MEMORY_LIMIT`: past
    it DuckDB spills its sorts, hash tables, loaded inputs and intermediate tables to a temporary folder removed
    after the run, so the build's peak stays near the arrays it keeps. A loaded input or intermediate table is
    dropped after the last step that reads it.
    """

    name = "duckdb"

    def __init__(self, threads: int | None = None, memory_limit: str | None = MEMORY_LIMIT) -> None:
        self.threads = threads
        self.memory_limit = memory_limit

    def run(
        self,
        inputs: Mapping[str, Input],
        steps: Sequence[Step],
        params: Mapping[str, int],
        sinks: Mapping[str, Sink] | None = None,
    ) -> dict[str, pa.Table]:
        """Run ``steps`` over the Arrow ``inputs``; the output steps' results come back as Arrow tables.

        An input given as batches is loaded into a temporary table (dropped after the last step that reads it). A
        result going to a sink is streamed from DuckDB batch by batch (its sort spills past the memory limit).
        """
        import duckdb

        with tempfile.TemporaryDirectory(prefix="chronoqa-duckdb-") as spill:
            con = duckdb.connect(":memory:", config={"temp_directory": spill})
            try:
                if self.threads:
                    con.execute(f"SET threads TO {int(self.threads)}")
                if self.memory_limit:
                    con.execute("SET memory_limit = ?", [self.memory_limit])
                con.execute("SET preserve_insertion_order = false")  # outputs are ordered by ORDER BY alone
                loaded = [name for name, table in inputs.items() if _load(con, name, table)]
                out: dict[str, pa.Table] = {}
                for i, step in enumerate(steps):
                    sql = render(step, "duckdb", params)
                    if not step.output:
                        con.execute(f"CREATE TEMP TABLE {step.name} AS {sql}")
                    elif step.name in (sinks or {}):
                        _to_sink(iter(con.sql(sql).to_arrow_reader(BATCH_ROWS)), step, (sinks or {})[step.name])
                    else:
                        out[step.name] = in_order(con.sql(sql).to_arrow_table(), step)
                        con.register(step.name, out[step.name])
                    for done in _last_read(steps, i, loaded):
                        con.execute(f"DROP TABLE {done}")
                return out
            finally:
                con.close()
                return_freed_memory()  # the batches' and DuckDB's freed pages, not kept under the later steps' peak


def _load(con: Any, name: str, table: Input) -> bool:
    """Make ``table`` readable as ``name``: a table registered as it is (False), batches loaded one by one (True)."""
    if isinstance(table, pa.Table):
        con.register(name, table)
        return False
    con.register(f"{name}_batches", table)
    con.execute(f"CREATE TEMP TABLE {name} AS SELECT * FROM {name}_batches")
    con.unregister(f"{name}_batches")
    return True


def _last_read(steps: Sequence[Step], i: int, loaded: Sequence[str] = ()) -> list[str]:
    """The tables (intermediate results, ``loaded`` inputs) step ``i`` is the last to read (dropped after it)."""
    names = [*loaded, *(s.name for s in steps[: i + 1] if not s.output)]
    return [n for n in names if _reads(steps[i], n) and not any(_reads(s, n) for s in steps[i + 1 :])]


def _reads(step: Step, table: str) -> bool:
    """True when ``step`` reads ``table`` (a word of its SQL)."""
    return re.search(rf"\b{re.escape(table)}\b", step.sql) is not None


def _spark() -> Any:
    try:
        import pyspark
    except ImportError as exc:
        raise ChronoqaError(
            "the spark engine needs PySpark (and Java 17): pip install chronoqa[spark]; or build with "
            "--engine duckdb (the default)"
        ) from exc
    return pyspark


class SparkEngine:
    """Runs the steps on Spark; a context manager that builds the session on entry and stops it on exit.

    ``master`` is the Spark master URL: by default ``$CHRONOQA_SPARK_MASTER``, else spark-submit's when the
    process runs under it, else ``local[2]``. ``work_dir`` is the folder (or ``s3a://`` / ``hdfs://`` URL the
    executors can reach) for the Parquet inputs and outputs: by default ``$CHRONOQA_SPARK_DIR``, else a fresh
    temporary folder (removed after each run; fine in local mode only). Given an existing ``session``, or where a
    session is already active in the process (spark-submit's), the engine uses it and leaves it running.
    """

    name = "spark"

    def __init__(
        self,
        master: str | None = None,
        *,
        work_dir: str | Path | None = None,
        conf: Mapping[str, str] | None = None,
        session: SparkSession | None = None,
    ) -> None:
        self.master = master or os.environ.get("CHRONOQA_SPARK_MASTER") or (
            None if "PYSPARK_GATEWAY_PORT" in os.environ else "local[2]"  # under spark-submit: its master
        )  # fmt: skip
        work = work_dir if work_dir is not None else os.environ.get("CHRONOQA_SPARK_DIR")
        self.work_dir = str(work) if work else None
        local = self.master is not None and self.master.startswith("local")
        self.conf = {**(SPARK_LOCAL_CONF if local else SPARK_CONF), **(conf or {})}
        self._session = session
        self._owned = False

    def __enter__(self) -> SparkEngine:
        if self._session is None:
            _spark()
            from pyspark.sql import SparkSession

            self._session = SparkSession.getActiveSession()  # spark-submit's, or a caller's: used, left running
        if self._session is None:
            from pyspark.sql import SparkSession

            builder = SparkSession.builder.appName("chronoqa-index")
            if self.master:
                builder = builder.master(self.master)
            for k, v in self.conf.items():
                builder = builder.config(k, v)
            self._session = builder.getOrCreate()
            self._session.sparkContext.setLogLevel("ERROR")
            self._owned = True
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        if self._owned and self._session is not None:
            self._session.stop()
            self._session = None
            self._owned = False

    @contextlib.contextmanager
    def _folder(self) -> Iterator[str]:
        if self.work_dir is not None:
            yield self.work_dir.rstrip("/")
            return
        tmp = tempfile.mkdtemp(prefix="chronoqa-spark-")
        try:
            yield tmp
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def run(
        self,
        inputs: Mapping[str, Input],
        steps: Sequence[Step],
        params: Mapping[str, int],
        sinks: Mapping[str, Sink] | None = None,
    ) -> dict[str, pa.Table]:
        """Write ``inputs`` as Parquet, run ``steps`` (each written as Parquet), read the results back as Arrow."""
        if self._session is None:  # not entered: a session for this run only
            with self:
                return self.run(inputs, steps, params, sinks)
        spark = self._session
        out: dict[str, pa.Table] = {}
        with self._folder() as folder:
            local = "://" not in folder
            for name, table in inputs.items():
                path = f"{folder}/in/{name}"
                if local:
                    os.makedirs(path, exist_ok=True)
                    _write_parquet(table, f"{path}/part-00000.parquet")
                else:  # object storage: let Spark write it
                    whole = table if isinstance(table, pa.Table) else table.read_all()
                    spark.createDataFrame(whole.to_pandas()).write.mode("overwrite").parquet(path)
                spark.read.parquet(path).createOrReplaceTempView(name)
            for step in steps:
                path = f"{folder}/out/{step.name}"
                spark.sql(render(step, "spark", params)).write.mode("overwrite").parquet(path)
                spark.read.parquet(path).createOrReplaceTempView(step.name)
                if not step.output:
                    continue
                if local:
                    out[step.name] = in_order(_read_parts(path), step)
                else:
                    out[step.name] = in_order(pa.Table.from_pandas(spark.read.parquet(path).toPandas()), step)
                if step.name in (sinks or {}):  # read whole (and put in order), then handed on
                    _to_sink(iter(out.pop(step.name).to_batches(BATCH_ROWS)), step, (sinks or {})[step.name])
        return out


def _write_parquet(table: Input, path: str) -> None:
    """One input as one Parquet file: a table at once, batches as they are made (one row group each)."""
    import pyarrow.parquet as pq

    if isinstance(table, pa.Table):
        pq.write_table(table, path)
        return
    with pq.ParquetWriter(path, table.schema) as writer:
        for batch in table:
            writer.write_batch(batch)


def _read_parts(path: str) -> pa.Table:
    """The Parquet part files of one Spark output folder, concatenated in part order."""
    import pyarrow.parquet as pq

    parts = sorted(p for p in Path(path).iterdir() if p.name.startswith("part-") and p.suffix == ".parquet")
    if not parts:
        raise ChronoqaError(f"Spark wrote no Parquet part into {path}")
    tables = [pq.read_table(p) for p in parts]
    return pa.concat_tables(tables, promote_options="permissive") if len(tables) > 1 else tables[0]
