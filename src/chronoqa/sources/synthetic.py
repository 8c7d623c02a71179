"""A deterministic synthetic TKG for benchmarks and scale tests (numpy-vectorised: 10M facts in seconds).

Same :class:`SyntheticConfig` (seed included) → the same facts, byte for byte, in every format. Shape:

* heavy-tailed degrees: subjects, objects and relations are drawn from Zipf-like weights
  ``1 / rank ** exponent`` over randomly permuted ids (hubs are not simply the lowest ids);
* a mix of point facts, proper intervals, open-ended facts (start only) and end-only facts, at year
  granularity with a fraction at day granularity (days 1..28, so every date exists);
* ``p_repeat`` of the facts restate the (s, r, o) of an earlier interval fact in a later, disjoint
  period (the "holds in several periods" case that makes stale evidence).

Writers: :meth:`SyntheticFacts.write_hyte` (HyTE folder), :meth:`SyntheticFacts.write_tgb` (TGB edge
list, one edge per year), :meth:`SyntheticFacts.write_quintuples` (CSV/TSV/Parquet), and
:meth:`SyntheticFacts.to_graph` for an in-memory :class:`~chronoqa.records.TemporalGraph`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from chronoqa.records import FactColumns, TemporalGraph

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["KINDS", "SyntheticConfig", "SyntheticFacts", "generate"]

KINDS = ("point", "interval", "start_only", "end_only")


@dataclass(frozen=True, slots=True)
class SyntheticConfig:
    """Parameters of the generator (fractions of the four kinds must sum to 1)."""

    n_facts: int = 100_000
    n_entities: int | None = None
    n_relations: int = 20
    seed: int = 0
    year_min: int = 1900
    year_max: int = 2020
    zipf_exponent: float = 1.1
    p_point: float = 0.35
    p_interval: float = 0.35
    p_start_only: float = 0.25
    p_end_only: float = 0.05
    p_day: float = 0.2
    p_repeat: float = 0.05
    mean_duration: float = 5.0

    def entities(self) -> int:
        """Number of entities (default: a tenth of the facts, at least 10)."""
        return self.n_entities if self.n_entities is not None else max(10, self.n_facts // 10)

    def check(self) -> None:
        """Raise :class:`ValueError` on an impossible configuration."""
        ps = (self.p_point, self.p_interval, self.p_start_only, self.p_end_only)
        if any(p < 0 for p in ps) or abs(sum(ps) - 1.0) > 1e-9:
            raise ValueError(f"kind fractions {ps} must be >= 0 and sum to 1")
        if self.n_facts < 0 or self.entities() < 2 or self.n_relations < 1:
            raise ValueError("need n_facts >= 0, at least 2 entities and 1 relation")
        if self.year_min > self.year_max:
            raise ValueError(f"year_min {self.year_min} > year_max {self.year_max}")
        if not 0 <= self.p_day <= 1 or not 0 <= self.p_repeat < 0.5 or self.mean_duration < 1:
            raise ValueError("need 0 <= p_day <= 1, 0 <= p_repeat < 0.5 and mean_duration >= 1")


def _zipf_draw(rng: np.random.Generator, n_items: int, size: int, exponent: float) -> np.ndarray:
    """Draw ``size`` item ids with weights about ``1 / rank ** exponent`` over permuted ids.

    Ranks come from the inverse CDF of the continuous power law on ``[1, n_items + 1)`` (O(size),
    no table lookups, so 10M draws stay fast); the permutation spreads the hubs over the id range.
    """
    u = rng.random(size)
    top = float(n_items + 1)
    if abs(exponent - 1.0) < 1e-12:
        x = np.power(top, u)
    else:
        k = 1.0 - exponent
        x = np.power(1.0 + u * (top**k - 1.0), 1.0 / k)
    ranks = np.minimum(x.astype(np.int64) - 1, n_items - 1)
    np.maximum(ranks, 0, out=ranks)
    perm = rng.permutation(n_items).astype(np.int32)
    return perm[ranks]


@dataclass(frozen=True)
class SyntheticFacts:
    """Column arrays of a synthetic TKG. Month/day 0 means "not stated"; ``has_start``/``has_end`` mark known ends."""

    s: np.ndarray
    r: np.ndarray
    o: np.ndarray
    has_start: np.ndarray
    start_year: np.ndarray
    start_month: np.ndarray
    start_day: np.ndarray
    has_end: np.ndarray
    end_year: np.ndarray
    end_month: np.ndarray
    end_day: np.ndarray
    n_entities: int
    n_relations: int

    def __len__(self) -> int:
        return int(self.s.shape[0])

    @staticmethod
    def entity_name(i: int) -> str:
        """Name of entity ``i``."""
        return f"E{i}"

    @staticmethod
    def relation_name(i: int) -> str:
        """Name of relation ``i``."""
        return f"R{i}"

    def kinds(self) -> np.ndarray:
        """Kind index per fact (see :data:`KINDS`)."""
        both = self.has_start & self.has_end
        same = (
            (self.start_year == self.end_year) & (self.start_month == self.end_month) & (self.start_day == self.end_day)
        )
        out = np.full(len(self), 3, dtype=np.int8)
        out[self.has_start & ~self.has_end] = 2
        out[both] = 1
        out[both & same] = 0
        return out

    # -- string columns ---------------------------------------------------------------------------
    def _time_strings(self, which: str, sep: str, missing: str | None) -> pa.Array:
        import pyarrow as pa
        import pyarrow.compute as pc

        has = getattr(self, f"has_{which}")
        year = pa.array(getattr(self, f"{which}_year"))
        month = pa.array(getattr(self, f"{which}_month"))
        day = pa.array(getattr(self, f"{which}_day"))
        ystr = pc.utf8_lpad(pc.cast(year, pa.string()), 4, "0")
        mstr = pc.utf8_lpad(pc.cast(month, pa.string()), 2, "0")
        dstr = pc.utf8_lpad(pc.cast(day, pa.string()), 2, "0")
        full = pc.binary_join_element_wise(ystr, mstr, dstr, sep)
        text = pc.if_else(pa.array(getattr(self, f"{which}_day") > 0), full, ystr)
        text = pc.if_else(pa.array(has), text, pa.scalar(None, pa.string()))
        return text if missing is None else pc.fill_null(text, missing)

    def names(self, ids: np.ndarray, prefix: str) -> pa.Array:
        """The names of entity or relation ids: ``prefix`` + the id (``E12``, ``R3``)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        return pc.binary_join_element_wise(pa.scalar(prefix), pc.cast(pa.array(ids), pa.string()), "")

    def to_arrow(self) -> pa.Table:
        """Quintuple table ``s, r, o, start, end`` (ISO times, nulls for unknown)."""
        import pyarrow as pa

        return pa.table(
            {
                "s": self.names(self.s, "E"),
                "r": self.names(self.r, "R"),
                "o": self.names(self.o, "E"),
                "start": self._time_strings("start", "-", None),
                "end": self._time_strings("end", "-", None),
            }
        )

    # -- writers ----------------------------------------------------------------------------------
    def write_quintuples(self, path: str | Path) -> Path:
        """Write ``s,r,o,start,end`` as ``.csv``, ``.tsv`` or ``.parquet`` (empty cell = unknown), atomically."""
        import pyarrow.csv as pacsv
        import pyarrow.parquet as pq

        from chronoqa.io import atomic_write

        path = Path(path)
        table = self.to_arrow()
        suffix = path.suffix.lower()
        with atomic_write(path, "wb") as fh:
            if suffix in (".parquet", ".pq"):
                pq.write_table(table, fh)
            elif suffix in (".csv", ".tsv"):
                delimiter = "\t" if suffix == ".tsv" else ","
                fh.write((delimiter.join(table.column_names) + "\n").encode())
                opts = pacsv.WriteOptions(include_header=False, delimiter=delimiter, quoting_style="none")
                pacsv.write_csv(table, fh, opts)
            else:
                raise ValueError(f"{path}: unknown quintuple format {suffix!r}: expected .csv, .tsv or .parquet")
        return path

    def write_hyte(self, folder: str | Path) -> Path:
        """Write a HyTE folder (``temporal``, ``entities.dict``, ``relations.dict``; YAGO-style times), atomically."""
        import pyarrow as pa
        import pyarrow.csv as pacsv

        from chronoqa.io import atomic_write

        folder = Path(folder)
        opts = pacsv.WriteOptions(include_header=False, delimiter="\t", quoting_style="none")
        ent = np.arange(self.n_entities, dtype=np.int64)
        rel = np.arange(self.n_relations, dtype=np.int64)
        for name, ids, prefix in (("entities.dict", ent, "E"), ("relations.dict", rel, "R")):
            with atomic_write(folder / name, "wb") as fh:
                pacsv.write_csv(pa.table({"id": ids, "name": self.names(ids, prefix)}), fh, opts)
        table = pa.table(
            {
                "s": pa.array(self.s),
                "r": pa.array(self.r),
                "o": pa.array(self.o),
                "start": self._time_strings("start", "_", "None"),
                "end": self._time_strings("end", "_", "None"),
            }
        )
        with atomic_write(folder / "temporal", "wb") as fh:
            pacsv.write_csv(table, fh, opts)
        return folder

    def tgb_edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(ts, head, tail, relation)`` arrays of the TGB expansion (one edge per year; see ``sources.tgb``)."""
        start = self.start_year.astype(np.int64)
        end = np.where(self.has_end, self.end_year, self.start_year).astype(np.int64)
        ok = self.has_start & (end >= start)
        idx = np.flatnonzero(ok)
        counts = (end - start + 1)[idx]
        rows = np.repeat(idx, counts)
        offsets = np.arange(rows.shape[0]) - np.repeat(np.cumsum(counts) - counts, counts)
        ts = start[rows] + offsets
        order = np.argsort(ts, kind="stable")
        rows, ts = rows[order], ts[order]
        return ts, self.s[rows], self.o[rows], self.r[rows]

    def write_tgb(self, path: str | Path) -> int:
        """Write a TGB edge list ``ts,head,tail,relation_type`` (CSV), atomically; returns the edge count."""
        import pyarrow as pa
        import pyarrow.csv as pacsv

        from chronoqa.io import atomic_write

        ts, head, tail, rel = self.tgb_edges()
        table = pa.table(
            {
                "ts": pa.array(ts),
                "head": self.names(head, "E"),
                "tail": self.names(tail, "E"),
                "relation_type": self.names(rel, "R"),
            }
        )
        with atomic_write(path, "wb") as fh:
            fh.write(b"ts,head,tail,relation_type\n")
            pacsv.write_csv(table, fh, pacsv.WriteOptions(include_header=False, quoting_style="none"))
        return int(ts.shape[0])

    def to_columns(self) -> FactColumns:
        """The facts as :class:`~chronoqa.records.FactColumns` (no :class:`Fact` objects; arrays shared, not copied)."""
        n = len(self)
        index = np.int32 if n < 2**31 - 1 else np.int64  # ids and lines: int32 where they fit
        return FactColumns(
            [f"E{i}" for i in range(self.n_entities)],
            [f"R{i}" for i in range(self.n_relations)],
            np.arange(n, dtype=index),
            self.s.astype(np.int32, copy=False),
            self.r.astype(np.int32, copy=False),
            self.o.astype(np.int32, copy=False),
            self.has_start.astype(bool, copy=False),
            self.start_year.astype(np.int32, copy=False),
            self.start_month.astype(np.int8, copy=False),
            self.start_day.astype(np.int8, copy=False),
            self.has_end.astype(bool, copy=False),
            self.end_year.astype(np.int32, copy=False),
            self.end_month.astype(np.int8, copy=False),
            self.end_day.astype(np.int8, copy=False),
            np.arange(1, n + 1, dtype=index),
        )

    def to_graph(self, name: str = "synthetic") -> TemporalGraph:
        """The facts as a :class:`TemporalGraph` of :meth:`to_columns` (ids ``E<i>``/``R<i>``, no labels).

        Lines are row + 1; no :class:`Fact` object is made until one is asked for (``graph.facts[i]``, iteration).
        """
        return TemporalGraph(name=name, facts=self.to_columns())


def generate(config: SyntheticConfig | None = None, **overrides: Any) -> SyntheticFacts:
    """Generate a synthetic TKG (``generate(n_facts=1_000_000, seed=7)`` or with a config)."""
    cfg = config or SyntheticConfig()
    if overrides:
        from dataclasses import replace

        cfg = replace(cfg, **overrides)
    cfg.check()
    rng = np.random.default_rng(cfg.seed)
    n, n_e = cfg.n_facts, cfg.entities()
    s = _zipf_draw(rng, n_e, n, cfg.zipf_exponent)
    o = _zipf_draw(rng, n_e, n, cfg.zipf_exponent)
    clash = s == o
    o[clash] = (o[clash] + 1) % n_e
    r = _zipf_draw(rng, cfg.n_relations, n, 1.0)
    kind = rng.choice(4, size=n, p=[cfg.p_point, cfg.p_interval, cfg.p_start_only, cfg.p_end_only]).astype(np.int8)
    start_year = rng.integers(cfg.year_min, cfg.year_max + 1, size=n, dtype=np.int32)
    duration = rng.geometric(1.0 / cfg.mean_duration, size=n).astype(np.int32)
    end_year = start_year + duration
    is_day = rng.random(n) < cfg.p_day
    start_month = np.where(is_day, rng.integers(1, 13, size=n), 0).astype(np.int8)
    start_day = np.where(is_day, rng.integers(1, 29, size=n), 0).astype(np.int8)
    end_month = np.where(is_day, rng.integers(1, 13, size=n), 0).astype(np.int8)
    end_day = np.where(is_day, rng.integers(1, 29, size=n), 0).astype(np.int8)
    # repeated triples: a later, disjoint period of an earlier interval fact
    n_rep = round(cfg.p_repeat * n)
    interval_idx = np.flatnonzero(kind == 1)
    n_rep = min(n_rep, interval_idx.shape[0], n - interval_idx.shape[0])
    if n_rep > 0:
        sources = rng.permutation(interval_idx)[:n_rep]
        is_source = np.zeros(n, dtype=bool)
        is_source[sources] = True
        targets = rng.permutation(np.flatnonzero(~is_source))[:n_rep]
        s[targets], r[targets], o[targets] = s[sources], r[sources], o[sources]
        kind[targets] = 1
        gap = rng.integers(1, 6, size=n_rep, dtype=np.int32)
        start_year[targets] = end_year[sources] + gap
        end_year[targets] = start_year[targets] + duration[targets]
    point = kind == 0
    end_year = np.where(point, start_year, end_year)
    end_month = np.where(point, start_month, end_month)
    end_day = np.where(point, start_day, end_day)
    has_start = kind != 3
    has_end = (kind == 0) | (kind == 1) | (kind == 3)
    return SyntheticFacts(
        s=s,
        r=r,
        o=o,
        has_start=has_start,
        start_year=np.where(has_start, start_year, 0).astype(np.int32),
        start_month=np.where(has_start, start_month, 0).astype(np.int8),
        start_day=np.where(has_start, start_day, 0).astype(np.int8),
        has_end=has_end,
        end_year=np.where(has_end, end_year, 0).astype(np.int32),
        end_month=np.where(has_end, end_month, 0).astype(np.int8),
        end_day=np.where(has_end, end_day, 0).astype(np.int8),
        n_entities=n_e,
        n_relations=cfg.n_relations,
    )
