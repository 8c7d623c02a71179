"""A temporal fact store on embedded DuckDB: one facts table plus label tables, cached on disk.

Tables::

    facts(id BIGINT, s VARCHAR, r VARCHAR, o VARCHAR,
          t_start VARCHAR, t_end VARCHAR,              -- ISO at the fact's own granularity, NULL = unknown/open
          start_lo BIGINT, start_hi BIGINT,            -- first/last day (days since 1970-01-01) the start covers
          end_lo BIGINT, end_hi BIGINT,                -- same for the end; NULL when unknown / open
          granularity VARCHAR,                         -- 'year' | 'month' | 'day' (coarsest known end), NULL: no time
          reversed BOOLEAN,                            -- start after end (valid nowhere)
          line BIGINT)                                 -- 1-based source line
    entities(id VARCHAR, label VARCHAR)                -- every entity of the facts or the labels (label = id when none)
    relations(id VARCHAR, label VARCHAR, facts BIGINT)
    meta(key VARCHAR, value VARCHAR)                   -- name, schema version, cache key

Day numbers make every time comparison an integer comparison. A fact is *possibly* valid at a time
point ``t`` (at ``t``'s own granularity, as :func:`chronoqa.time.valid_at` says) when
``(start_lo IS NULL OR start_lo <= t_last) AND (end_hi IS NULL OR t_first <= end_hi) AND NOT reversed``
with ``t_first``/``t_last`` the first/last day ``t`` covers (the tests check this against ``valid_at``
on YAGO11k). One corner differs: ``reversed`` is judged at the fact's own granularity, while
``valid_at`` judges it at the query's, so a fact stated ``2016-12 .. 2016-03`` is excluded here but
counts as possibly valid in the year 2016 there (no such fact in YAGO11k or Wikidata12k).
Loading reads the graph's columns (:class:`~chronoqa.records.FactColumns`, one conversion per distinct
date) into Arrow tables (no row-by-row inserts). :meth:`FactStore.cached` builds a store once per
cache key (e.g. the source files' checksums) into a DuckDB file and reopens it read-only afterwards.

DuckDB 2.x: results are always fully consumed (:meth:`FactStore.execute` returns a list), so the
connection is never left busy.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import duckdb

from chronoqa._gc import gc_paused
from chronoqa.paths import cache_dir
from chronoqa.records import FactColumns, TemporalGraph
from chronoqa.time import Interval, distinct_dates_of

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["SCHEMA_VERSION", "FactStore", "cache_key", "graph_to_arrow"]

SCHEMA_VERSION = "1"


def cache_key(*parts: object) -> str:
    """A stable hex key from JSON-able parts plus the store schema and toolkit versions.

    The toolkit version is part of the key, so a release that changes a reader rebuilds its stores.
    """
    from chronoqa import __version__

    blob = json.dumps([SCHEMA_VERSION, __version__, *parts], sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


@gc_paused()
def graph_to_arrow(graph: TemporalGraph) -> tuple[pa.Table, pa.Table, pa.Table]:
    """The ``facts``, ``entities`` and ``relations`` tables of ``graph`` as Arrow tables.

    Read from the graph's columns (:class:`~chronoqa.records.FactColumns`; a graph that holds :class:`Fact`
    objects is turned into columns first), so no Python object is made per fact.
    """
    import numpy as np
    import pyarrow as pa

    cols = FactColumns.from_facts(graph.facts)
    used = np.unique(np.concatenate([cols.s, cols.o]))
    entity_names = pa.array(cols.entities, pa.string())
    relation_names = pa.array(cols.relations, pa.string())
    rel_count: Counter[str] = Counter()
    counts = np.bincount(cols.r, minlength=len(cols.relations)) if len(cols) else np.zeros(0, np.int64)
    for i in np.flatnonzero(counts).tolist():
        rel_count[cols.relations[i]] += int(counts[i])
    facts = pa.table(
        {
            "id": pa.array(cols.ids, pa.int64()),
            "s": entity_names.take(pa.array(cols.s)),
            "r": relation_names.take(pa.array(cols.r)),
            "o": entity_names.take(pa.array(cols.o)),
            **_time_columns(cols),
            "line": pa.array(cols.lines, pa.int64()),
        }
    )
    ents = sorted({cols.entities[i] for i in used.tolist()} | set(graph.entity_labels))
    entity_table = pa.table(
        {"id": pa.array(ents, pa.string()), "label": pa.array([graph.entity_label(e) for e in ents], pa.string())}
    )
    rels = sorted(set(rel_count) | set(graph.relation_labels))
    relation_table = pa.table(
        {
            "id": pa.array(rels, pa.string()),
            "label": pa.array([graph.relation_label(r) for r in rels], pa.string()),
            "facts": pa.array([rel_count.get(r, 0) for r in rels], pa.int64()),
        }
    )
    return facts, entity_table, relation_table


def _time_columns(cols: FactColumns) -> dict[str, pa.Array]:
    """The time columns of the facts table (see the module docstring), one conversion per distinct date.

    Each distinct date is a :class:`TimePoint` (its ISO text, day span and granularity); ``reversed`` is
    :meth:`Interval.is_reversed` (the time package's rule), judged once per distinct (start, end) pair.
    """
    import numpy as np
    import pyarrow as pa

    has_s, has_e = cols.has_start, cols.has_end
    points, (sp, ep) = distinct_dates_of(
        (cols.start_year, cols.start_month, cols.start_day, has_s), (cols.end_year, cols.end_month, cols.end_day, has_e)
    )
    # code 0 stands for "no time", code k for points[k - 1]
    sc = np.where(has_s, sp.astype(np.int64) + 1, 0)
    ec = np.where(has_e, ep.astype(np.int64) + 1, 0)
    m = len(points) + 1
    first = np.array([0, *(t.first_day() for t in points)], np.int64)
    last = np.array([0, *(t.last_day() for t in points)], np.int64)
    gran_code = np.array([0, *(int(t.granularity) for t in points)], np.int64)
    iso = pa.array([None, *(t.isoformat() for t in points)], pa.string())
    sg, eg = gran_code[sc], gran_code[ec]
    g = np.where(has_s & has_e, np.minimum(sg, eg), np.maximum(sg, eg))
    pairs, inverse = np.unique(sc * m + ec, return_inverse=True)
    starts_of, ends_of = (x.tolist() for x in divmod(pairs, m))
    pair_rev = np.array(
        [
            bool(a and b) and Interval(points[a - 1], points[b - 1]).is_reversed()
            for a, b in zip(starts_of, ends_of, strict=True)
        ],
        dtype=bool,
    )
    rev = pair_rev[inverse.reshape(-1)] if len(cols) else np.zeros(0, dtype=bool)
    gran_names = pa.array([None, "year", "month", "day"], pa.string())
    return {
        "t_start": iso.take(pa.array(sc)),
        "t_end": iso.take(pa.array(ec)),
        "start_lo": pa.array(first[sc], mask=~has_s),
        "start_hi": pa.array(last[sc], mask=~has_s),
        "end_lo": pa.array(first[ec], mask=~has_e),
        "end_hi": pa.array(last[ec], mask=~has_e),
        "granularity": gran_names.take(pa.array(g)),
        "reversed": pa.array(rev, pa.bool_()),
    }


class FactStore:
    """A DuckDB connection holding the fact tables (see the module docstring). Use as a context manager."""

    def __init__(self, con: duckdb.DuckDBPyConnection, path: Path | None = None) -> None:
        self._con = con
        self.path = path

    # -- construction -----------------------------------------------------------------------------
    @classmethod
    def from_graph(cls, graph: TemporalGraph, path: str | Path | None = None, *, key: str = "") -> FactStore:
        """Build a store from a graph, in memory (``path=None``) or into a new DuckDB file."""
        facts, entities, relations = graph_to_arrow(graph)
        return cls._build(facts, entities, relations, graph.name, path, key)

    @classmethod
    def _build(
        cls,
        facts: pa.Table,
        entities: pa.Table,
        relations: pa.Table,
        name: str,
        path: str | Path | None,
        key: str,
    ) -> FactStore:
        if path is not None and Path(path).exists():
            raise FileExistsError(f"{path}: a store already exists there (delete it, or open it with FactStore.open)")
        con = duckdb.connect(":memory:" if path is None else str(path))
        try:
            for table_name, table in (("facts", facts), ("entities", entities), ("relations", relations)):
                con.register("_incoming", table)
                con.execute(f"CREATE TABLE {table_name} AS SELECT * FROM _incoming")
                con.unregister("_incoming")
            con.execute("CREATE TABLE meta(key VARCHAR, value VARCHAR)")
            con.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [["name", name], ["schema_version", SCHEMA_VERSION], ["cache_key", key]],
            )
            con.execute("CHECKPOINT")
        except BaseException:
            con.close()
            raise
        return cls(con, None if path is None else Path(path))

    @classmethod
    def open(cls, path: str | Path, *, read_only: bool = True) -> FactStore:
        """Open an existing store file (read-only by default, so several processes can share it)."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such store file")
        return cls(duckdb.connect(str(path), read_only=read_only), path)

    @classmethod
    def cached(
        cls,
        name: str,
        key: str,
        graph: Callable[[], TemporalGraph],
        *,
        folder: str | Path | None = None,
    ) -> FactStore:
        """Open the cached store of ``name`` for ``key``, building it from ``graph()`` on first use.

        The file is ``<folder>/<name>-<key[:16]>.duckdb`` (default folder: ``<cache>/stores``); it is
        built under a temporary name and renamed into place, so a killed build leaves no broken store.
        """
        if folder is None:
            folder = cache_dir() / "stores"
        folder = Path(folder)
        path = folder / f"{name}-{key[:16]}.duckdb"
        if path.is_file():
            return cls.open(path)
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(tmp)
        try:
            cls.from_graph(graph(), tmp, key=key).close()
            os.replace(tmp, path)
        finally:
            for leftover in (tmp, tmp + ".wal"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(leftover)
        return cls.open(path)

    # -- queries ----------------------------------------------------------------------------------
    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        """Run SQL and return every row (fully consumed)."""
        return self._con.execute(sql, params).fetchall() if params is not None else self._con.execute(sql).fetchall()

    def arrow(self, sql: str, params: Sequence[Any] | dict[str, Any] | None = None) -> pa.Table:
        """Run SQL and return the result as an Arrow table (fully consumed)."""
        return self._con.sql(sql, params=params).to_arrow_table()

    def scalar(self, sql: str, params: Sequence[Any] | dict[str, Any] | None = None) -> Any:
        """Run SQL returning one value."""
        rows = self.execute(sql, params)
        return rows[0][0] if rows else None

    @property
    def name(self) -> str:
        """The dataset name recorded at build time."""
        return str(self.scalar("SELECT value FROM meta WHERE key = 'name'"))

    def __len__(self) -> int:
        return int(self.scalar("SELECT count(*) FROM facts"))

    def close(self) -> None:
        """Close the connection."""
        self._con.close()

    def __enter__(self) -> FactStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
