"""The :class:`~chronoqa.generate.kg.index.GraphIndex` built by the SQL steps, and the engine of a build.

:func:`build_index` is the one call of the builder: ``duckdb`` (the default) and ``spark`` run
:data:`~chronoqa.generate.kg.sql.queries.STEPS` over the tables of :func:`input_tables` and fill the index's
arrays from their results batch by batch (:class:`IndexArrays`); the tests hold the engines equal array for array.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.generate.kg.config import ENGINES
from chronoqa.generate.kg.index import NEG, NONE, POS, GraphIndex, key_dtype
from chronoqa.generate.kg.sql.engines import DuckDBEngine, Input, Sink, SparkEngine, SqlEngine, batches_of
from chronoqa.generate.kg.sql.queries import STEPS
from chronoqa.records import Fact, FactColumns
from chronoqa.time import Granularity, TimePoint, unit_bounds

__all__ = [
    "ENGINES",
    "IndexArrays",
    "build_index",
    "engine_session",
    "fact_arrays",
    "fact_columns",
    "fact_rows",
    "input_tables",
    "sql_engine",
    "sql_params",
]


def fact_columns(facts: Sequence[Fact]) -> FactColumns:
    """``facts`` as columns whose codes stand for distinct names (recoded where two codes share a name)."""
    cols = FactColumns.from_facts(facts)
    if len(set(cols.entities)) != len(cols.entities) or len(set(cols.relations)) != len(cols.relations):
        # two codes for one name: recode so that equal names share a code (as the numpy index interns them)
        ent, e_inv = np.unique(np.asarray(cols.entities, dtype=object), return_inverse=True)
        rel, r_inv = np.unique(np.asarray(cols.relations, dtype=object), return_inverse=True)
        cols = FactColumns(
            list(ent), list(rel), cols.ids, e_inv[cols.s].astype(np.int32), r_inv[cols.r].astype(np.int32),
            e_inv[cols.o].astype(np.int32), cols.has_start, cols.start_year, cols.start_month, cols.start_day,
            cols.has_end, cols.end_year, cols.end_month, cols.end_day, cols.lines,
        )  # fmt: skip
    return cols


def fact_arrays(cols: FactColumns, first: int = 0) -> dict[str, pa.Array]:
    """The per-fact columns every SQL input table starts with: position, codes, known ends and their years.

    ``cols`` may be rows ``first, first + 1, ...`` of the facts (:func:`fact_rows`): positions count from ``first``.
    """
    return {
        "pos": pa.array(np.arange(first, first + len(cols), dtype=np.int64)),
        "s": pa.array(np.asarray(cols.s, dtype=np.int32)),
        "r": pa.array(np.asarray(cols.r, dtype=np.int32)),
        "o": pa.array(np.asarray(cols.o, dtype=np.int32)),
        "has_start": pa.array(np.asarray(cols.has_start, dtype=bool)),
        "start_year": pa.array(np.asarray(cols.start_year, dtype=np.int32)),
        "has_end": pa.array(np.asarray(cols.has_end, dtype=bool)),
        "end_year": pa.array(np.asarray(cols.end_year, dtype=np.int32)),
    }


def fact_rows(cols: FactColumns, a: int, b: int) -> FactColumns:
    """Rows ``[a, b)`` of ``cols`` as views of its arrays (no copy), sharing the name tables."""
    return FactColumns(cols.entities, cols.relations, **{f: getattr(cols, f)[a:b] for f in cols._array_fields()})


def _bounds(cols: FactColumns, which: str, g: Granularity) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`~chronoqa.time.unit_bounds` of the start or end dates as int32 (zeros where the date is not stated).

    :func:`~chronoqa.time.unit_bounds` is asked about each distinct date once; rows find theirs through a dense
    table of packed ``(year, month, day)`` codes when the years span a few thousand, else through a sort.
    """
    has = np.asarray(getattr(cols, f"has_{which}"), dtype=bool)
    n = len(has)
    if not bool(has.any()):
        return np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32), np.zeros(n, dtype=bool)
    y, m, d = (np.asarray(getattr(cols, f"{which}_{f}")) for f in ("year", "month", "day"))
    y = np.where(has, y, y[has][0]).astype(np.int64)  # an unknown date reads as a known one (zeroed below)
    code = (y * 13 + np.where(has, m, 0)) * 32 + np.where(has, d, 0)
    del y
    low, span = int(code.min()), int(code.max() - code.min()) + 1
    if span <= 64 * n + 1_000_000:  # dense: one slot per possible code
        code -= low
        seen = np.zeros(span, dtype=bool)
        seen[code] = True
        uniq = np.flatnonzero(seen) + low
        inverse = (np.cumsum(seen, dtype=np.int32) - 1)[code]
    else:
        uniq, inverse = np.unique(code, return_inverse=True)
    del code
    ym, dd = np.divmod(uniq, 32)
    yy, mm = np.divmod(ym, 13)
    lo, hi, fine = unit_bounds(yy, mm, dd, g)
    lo, hi, fine = lo.astype(np.int32)[inverse], hi.astype(np.int32)[inverse], fine[inverse]
    lo[~has], hi[~has], fine[~has] = 0, 0, False
    return lo, hi, fine


def input_tables(
    facts: Sequence[Fact],
    is_event: Mapping[str, bool],
    granularity: Granularity,
    not_years: Mapping[str, Collection[int]] | None = None,
    symmetric: Collection[str] = (),
) -> tuple[dict[str, Input], FactColumns]:
    """The ``facts``, ``relations`` and ``not_years`` tables of the SQL steps, and the columns they came from.

    ``facts`` is made a batch at a time as the engine reads it (:func:`~chronoqa.generate.kg.sql.engines.batches_of`:
    the unit bounds of a batch's rows, then dropped).
    """
    cols = fact_columns(facts)
    g = Granularity.parse(granularity)

    def fact_batch(a: int, b: int) -> dict[str, Any]:
        part = fact_rows(cols, a, b)
        s_lo, s_hi, s_fine = _bounds(part, "start", g)
        e_lo, e_hi, e_fine = _bounds(part, "end", g)
        units = {"s_lo": s_lo, "s_hi": s_hi, "s_fine": s_fine, "e_lo": e_lo, "e_hi": e_hi, "e_fine": e_fine}
        return {**fact_arrays(part, a), **units}

    fact_table = batches_of(len(cols), fact_batch)
    names = list(cols.relations)
    sym = set(symmetric)
    relations = pa.table(
        {
            "code": pa.array(np.arange(len(names), dtype=np.int32)),
            "name": pa.array(names, type=pa.string()),
            "is_event": pa.array([bool(is_event.get(x, False)) for x in names], type=pa.bool_()),
            "symmetric": pa.array([x in sym for x in names], type=pa.bool_()),
        }
    )
    ny = [(code, y) for code, x in enumerate(names) for y in sorted(set((not_years or {}).get(x, ())))]
    not_years_table = pa.table(
        {
            "r": pa.array([c for c, _ in ny], type=pa.int32()),
            "year": pa.array([y for _, y in ny], type=pa.int32()),
        }
    )
    return {"facts": fact_table, "relations": relations, "not_years": not_years_table}, cols


def sql_params(granularity: Granularity, as_of: TimePoint, open_end: str) -> dict[str, int]:
    """The integer parameters of the steps: ``as_of``'s units, the open-end reading and the index's markers."""
    g = Granularity.parse(granularity)
    return {
        "as_lo": as_of.lo(g),
        "as_hi": as_of.hi(g),
        "unknown": int(open_end == "unknown"),
        "neg": NEG,
        "pos": POS,
        "none": NONE,
    }


def _np(table: pa.Table | pa.RecordBatch, column: str, dtype: type) -> np.ndarray:
    """One column of a result table or batch as a numpy array of ``dtype``."""
    return np.asarray(table.column(column).to_numpy(zero_copy_only=False), dtype=dtype)


#: The per-fact result columns that make ``GraphIndex.table``, in its column order.
_TABLE_COLUMNS = ("s", "r", "o", "plo", "phi", "clo", "chi", "su", "eu")


class IndexArrays:
    """The index's arrays, filled batch by batch from the streamed results (the engine's sinks).

    ``fact_table`` (one row per fact, in position order) fills the per-fact table and flags; the adjacency
    (``out_adj``, ``in_adj``, in key order) is sized from it (a kept fact has an outgoing row, and a symmetric
    one a second: its mirror; one that is not symmetric an incoming row) and filled in place, so no result
    stands whole as Arrow beside the arrays made from it.
    """

    def __init__(self, n: int, symmetric: np.ndarray) -> None:
        self.table = np.empty((n, len(_TABLE_COLUMNS)), dtype=np.int32)
        self.is_reversed = np.empty(n, dtype=bool)
        self.non_year = np.empty(n, dtype=bool)
        self.n = np.empty(n, dtype=np.int32)
        self.symmetric = symmetric  # per fact: its relation is symmetric
        self.adj: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._at: dict[str, int] = {"fact_table": 0, "out_adj": 0, "in_adj": 0}

    def sinks(self) -> dict[str, Sink]:
        """The sink of each streamed result, by step name."""
        return {"fact_table": self._facts, "out_adj": self._adjacency("out_adj"), "in_adj": self._adjacency("in_adj")}

    def _facts(self, batch: pa.RecordBatch) -> None:
        i = self._at["fact_table"]
        j = i + batch.num_rows
        for c, name in enumerate(_TABLE_COLUMNS):
            self.table[i:j, c] = _np(batch, name, np.int32)
        self.is_reversed[i:j] = _np(batch, "is_reversed", bool)
        self.non_year[i:j] = _np(batch, "non_year", bool)
        self.n[i:j] = _np(batch, "n", np.int32)
        self._at["fact_table"] = j

    def _adjacency(self, name: str) -> Sink:
        def fill(batch: pa.RecordBatch) -> None:
            if name not in self.adj:
                self.adj[name] = self._allocate(name)
            keys, fids = self.adj[name]
            i = self._at[name]
            j = i + batch.num_rows
            keys[i:j] = _np(batch, "key", keys.dtype.type)
            fids[i:j] = _np(batch, "fid", np.int32)
            self._at[name] = j

        return fill

    def _allocate(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        kept = self.n > 0  # an ignored fact has no triple count and no adjacency row
        m = (
            int(kept.sum()) + int((kept & self.symmetric).sum())
            if name == "out_adj"
            else int((kept & ~self.symmetric).sum())
        )
        n_ent = int(self.table[:, [0, 2]].max()) + 1 if len(self.table) else 0
        n_rel = int(self.table[:, 1].max()) + 1 if len(self.table) else 0
        return np.empty(m, dtype=key_dtype(n_ent, n_rel)), np.empty(m, dtype=np.int32)

    def done(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """One adjacency's ``(keys, fids)``, checked whole (empty when the result had no row)."""
        keys, fids = self.adj.get(name) or self._allocate(name)
        if self._at[name] != len(keys) or self._at["fact_table"] != len(self.table):
            raise ChronoqaError(f"the SQL engine returned {self._at[name]} rows of {name}, expected {len(keys)}")
        return keys, fids


def sql_engine(engine: str | SqlEngine, memory_limit: str | None = None) -> SqlEngine:
    """The executor an engine name stands for (``duckdb``, ``spark``), or ``engine`` itself when it is one.

    ``memory_limit`` is DuckDB's (``None``: :data:`~chronoqa.generate.kg.sql.engines.MEMORY_LIMIT`).

    Raises:
        UnknownNameError: ``engine`` names no SQL engine.

    """
    if engine == "duckdb":
        return DuckDBEngine() if memory_limit is None else DuckDBEngine(memory_limit=memory_limit)
    if engine == "spark":
        return SparkEngine()
    if isinstance(engine, str):
        raise UnknownNameError("index engine", engine, ENGINES)
    return engine


@contextlib.contextmanager
def engine_session(engine: str | SqlEngine, memory_limit: str | None = None) -> Iterator[SqlEngine]:
    """One engine for the build's several SQL runs: a name resolved once, a Spark session entered once.

    :func:`build_index` and the other steps each build (and stop) a Spark session when given the name ``spark``;
    inside ``with engine_session("spark") as engine`` they share one. ``memory_limit`` as :func:`sql_engine`.
    """
    runner = sql_engine(engine, memory_limit)
    if isinstance(runner, SparkEngine):
        with runner:
            yield runner
    else:
        yield runner


def build_index(
    engine: str | SqlEngine,
    facts: Sequence[Fact],
    is_event: Mapping[str, bool],
    granularity: Granularity,
    as_of: TimePoint,
    open_end: str = "ongoing",
    not_years: Mapping[str, Collection[int]] | None = None,
    *,
    cardinality: Mapping[str, tuple[bool, bool]] | None = None,
    symmetric: Collection[str] = (),
) -> GraphIndex:
    """Intern, compute unit bounds and build both adjacency tables of ``facts`` with the chosen engine.

    ``engine`` is ``duckdb`` (in process), ``spark`` (a local session built and stopped here; ``chronoqa[spark]``)
    or a ready :class:`~chronoqa.generate.kg.sql.engines.SqlEngine` (e.g. a
    :class:`~chronoqa.generate.kg.sql.engines.SparkEngine` on a cluster). ``facts`` is any ``Sequence[Fact]``
    (columns are used as they are). Entities and relations are interned in order of first appearance (subject,
    object, then relation of each fact in turn), whatever the order of the columns' codes. ``open_end`` is the
    reading of a state with a start and no end (``ongoing`` or ``unknown``); ``not_years`` (relation id → years)
    marks facts with a non-year date, which are valid nowhere; ``cardinality`` maps a relation id to ``(forward
    is one, inverse is one)`` (default: both one); ``symmetric`` names the symmetric relation ids.

    Raises:
        UnknownNameError: ``engine`` names no engine.
        ChronoqaError: ``spark`` without PySpark installed.

    """
    runner = sql_engine(engine)
    inputs, cols = input_tables(facts, is_event, granularity, not_years, symmetric)
    sym = set(symmetric)
    arrays = IndexArrays(len(cols), np.array([x in sym for x in cols.relations], dtype=bool)[np.asarray(cols.r)])
    results = runner.run(inputs, STEPS, sql_params(granularity, as_of, open_end), arrays.sinks())
    del inputs
    pa.default_memory_pool().release_unused()  # the Arrow inputs and batches are gone: give their pages back
    ent_names = [cols.entities[c] for c in _np(results["ent_ids"], "code", np.int64).tolist()]
    rel_names = [cols.relations[c] for c in _np(results["rel_ids"], "code", np.int64).tolist()]
    card = cardinality or {}
    return GraphIndex(
        Granularity.parse(granularity), as_of, facts,
        ent_names, rel_names, {r: i for i, r in enumerate(rel_names)},
        [bool(is_event.get(x, False)) for x in rel_names], arrays.table, arrays.is_reversed,
        *arrays.done("out_adj"), *arrays.done("in_adj"),
        arrays.n, open_end, arrays.non_year, np.zeros(len(cols), bool),
        [card.get(x, (True, True)) for x in rel_names], [x in sym for x in rel_names],
    )  # fmt: skip
