"""A deterministic synthetic TKG for benchmarks and scale tests (numpy-vectorised: 10M facts in seconds).

Same :class:`SyntheticConfig` (seed included) → the same facts, byte for byte, in every format. Shape:

* heavy-tailed degrees: subjects, objects and relations are drawn from Zipf-like weights
  ``1 / rank ** exponent`` over randomly permuted ids (hubs are not simply the lowest ids);
* a mix of point facts, proper intervals, open-ended facts (start only) and end-only facts, at year
  granularity with a fraction at day granularity (days 1..28, so every date exists);
* ``p_repeat`` of the facts restate the (s, r, o) of an earlier interval fact in a later, disjoint
  period (the "holds in several periods" case that makes stale evidence).

Relation roles (off by default; :meth:`SyntheticConfig.mixed` turns on a realistic mix), each a share of
the facts over its own relation ids:

* functional (``functional_relations``, ``p_functional``): each subject holds one object at a time, a
  career of successive, mostly disjoint stints with different objects ("plays for", "head of");
* one-per-subject events (``event_relations``, ``p_event``): one point fact per subject ("born in"),
  the objects a small class of places (``event_places``);
* inverse-functional (``inverse_relations``, ``p_inverse``): careers seen from the object, each object
  has one subject at a time ("the head of an organisation");
* lifelong (``lifelong_relations``, ``p_lifelong``): one long interval per subject, most of the period
  ("located in", "part of"), objects drawn with the flatter ``lifelong_exponent``: the static hops that lead
  into an entity of a multi-hop question;
* the rest: the Zipf-random facts above (many values at once in both directions).

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

__all__ = ["ROLES", "SyntheticConfig", "SyntheticFacts", "generate"]

# relation roles, in relation-id order (see :meth:`SyntheticConfig.role_of`)
ROLES = ("functional", "event", "inverse", "lifelong", "zipf")


@dataclass(frozen=True, slots=True)
class SyntheticConfig:
    """Parameters of the generator (fractions of the four kinds must sum to 1; relation roles default to off).

    Relation roles (see the module docs): ``<role>_relations`` relation ids take ``p_<role>`` of the facts,
    split evenly between them; the rest go to the Zipf relations. ``career_mean``: mean stints per career;
    ``p_current``: share of careers whose last stint has no end; ``event_places``: share of the entities
    that are event objects; ``lifelong_exponent``: Zipf exponent of the lifelong relations' objects.
    """

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
    # relation roles (all off by default: every relation unconstrained, as ever); see :meth:`mixed`
    functional_relations: int = 0
    event_relations: int = 0
    inverse_relations: int = 0
    lifelong_relations: int = 0
    p_functional: float = 0.0
    p_event: float = 0.0
    p_inverse: float = 0.0
    p_lifelong: float = 0.0
    career_mean: float = 2.0
    p_current: float = 0.2
    event_places: float = 0.05
    lifelong_exponent: float = 0.5

    @classmethod
    def mixed(cls, n_facts: int = 100_000, **overrides: Any) -> SyntheticConfig:
        """The realistic relation mix used by the benchmarks: 20 relations, every question family possible.

        5 functional relations hold 25% of the facts (careers), 3 one-per-subject event relations 15%,
        3 inverse-functional relations 15%, 2 lifelong relations 10%, and 7 unconstrained Zipf relations
        the remaining 35%.
        """
        from dataclasses import replace

        base = cls(
            n_facts=n_facts,
            n_relations=20,
            functional_relations=5,
            event_relations=3,
            inverse_relations=3,
            lifelong_relations=2,
            p_functional=0.25,
            p_event=0.15,
            p_inverse=0.15,
            p_lifelong=0.10,
        )
        return replace(base, **overrides) if overrides else base

    def role_counts(self) -> dict[str, int]:
        """Facts per role (:data:`ROLES`), summing to ``n_facts``."""
        out = {role: round(p * self.n_facts) for role, k, p in self.roles()}
        out["zipf"] = self.n_facts - sum(out.values())
        return out

    def roles(self) -> tuple[tuple[str, int, float], ...]:
        """``(role, relations, share of facts)`` of the constrained roles, in relation-id order."""
        return (
            ("functional", self.functional_relations, self.p_functional),
            ("event", self.event_relations, self.p_event),
            ("inverse", self.inverse_relations, self.p_inverse),
            ("lifelong", self.lifelong_relations, self.p_lifelong),
        )

    def role_of(self, relation: int) -> str:
        """The role of relation id ``relation`` (one of :data:`ROLES`)."""
        for role, k, _ in self.roles():
            if relation < k:
                return role
            relation -= k
        return "zipf"

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
        roles = self.roles()
        for role, k, p in roles:
            if k < 0 or not 0 <= p <= 1 or (p > 0) != (k > 0):
                raise ValueError(f"{role}: need {role}_relations >= 1 with p_{role} > 0, or both 0 (got {k}, {p})")
        n_roles = sum(k for _, k, _ in roles)
        if sum(p for _, _, p in roles) > 1 + 1e-9 or n_roles > self.n_relations:
            raise ValueError(
                f"relation roles: p_functional + p_event + p_inverse + p_lifelong must be <= 1 and the {n_roles} role "
                f"relations fit in n_relations={self.n_relations}"
            )
        if self.role_counts()["zipf"] > 0 and n_roles == self.n_relations:
            raise ValueError("relation roles take every relation but some facts are left unconstrained: add relations")
        if self.career_mean < 1 or not 0 <= self.p_current <= 1 or not 0 < self.event_places <= 1:
            raise ValueError("need career_mean >= 1, 0 <= p_current <= 1 and 0 < event_places <= 1")
        if self.lifelong_exponent < 0:
            raise ValueError("need lifelong_exponent >= 0")
        if (self.functional_relations or self.inverse_relations) and self.entities() < 3:
            raise ValueError("careers need at least 3 entities (a holder and two values in turn)")


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


def _split(total: int, parts: int) -> list[int]:
    """``total`` split into ``parts`` near-equal counts (the first ones get the remainder)."""
    base, rest = divmod(total, parts)
    return [base + (i < rest) for i in range(parts)]


def _day_parts(rng: np.random.Generator, cfg: SyntheticConfig, n: int) -> tuple[np.ndarray, ...]:
    """Start month/day and end month/day: ``p_day`` of the facts at day granularity (days 1..28), else 0."""
    is_day = rng.random(n) < cfg.p_day
    return tuple(np.where(is_day, rng.integers(1, hi, size=n), 0).astype(np.int8) for hi in (13, 29, 13, 29))


def _zipf_part(rng: np.random.Generator, cfg: SyntheticConfig, n: int, rel0: int, n_rel: int) -> dict[str, np.ndarray]:
    """The unconstrained facts (Zipf (s, r, o) over relation ids ``rel0 .. rel0 + n_rel - 1``); see the module docs.

    With no relation roles this is the whole graph, drawn in the same order as ever (the default stays byte-identical).
    """
    n_e = cfg.entities()
    s = _zipf_draw(rng, n_e, n, cfg.zipf_exponent)
    o = _zipf_draw(rng, n_e, n, cfg.zipf_exponent)
    clash = s == o
    o[clash] = (o[clash] + 1) % n_e
    r = _zipf_draw(rng, n_rel, n, 1.0)
    if rel0:
        r += rel0
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
    return _part(
        s,
        r,
        o,
        kind != 3,
        (start_year, start_month, start_day),
        (kind == 0) | (kind == 1) | (kind == 3),
        (
            np.where(point, start_year, end_year),
            np.where(point, start_month, end_month),
            np.where(point, start_day, end_day),
        ),
    )


def _part(
    s: np.ndarray,
    r: np.ndarray,
    o: np.ndarray,
    has_start: np.ndarray,
    start: tuple[np.ndarray, np.ndarray, np.ndarray],
    has_end: np.ndarray,
    end: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> dict[str, np.ndarray]:
    """The :class:`SyntheticFacts` columns of a block of facts (unknown ends zeroed, the column dtypes)."""
    out = {"s": s, "r": r, "o": o, "has_start": has_start, "has_end": has_end}
    for which, has, (y, m, d) in (("start", has_start, start), ("end", has_end, end)):
        out[f"{which}_year"] = np.where(has, y, 0).astype(np.int32)
        out[f"{which}_month"] = np.where(has, m, 0).astype(np.int8)
        out[f"{which}_day"] = np.where(has, d, 0).astype(np.int8)
    return out


def _careers(
    rng: np.random.Generator, cfg: SyntheticConfig, n: int, rel: int, *, inverse: bool
) -> dict[str, np.ndarray]:
    """``n`` facts of one relation where each holder has one value at a time: a career of successive stints.

    Holders are distinct entities (one career each); a career has ``1 + geometric`` stints (mean
    ``career_mean``), each lasting ``geometric(1 / mean_duration)`` years and starting 0-2 years after the
    previous one ends (a 0-year gap shares one year with it, as "1990-1995, then 1995-2000" does), each with
    a value other than the previous one's (Zipf-drawn: popular values are held by many holders). The career
    is placed so that it ends by ``year_max`` where it fits; ``p_current`` of the last stints have no end
    (still held). The holder is the subject (``inverse`` false: "plays for") or the object (``inverse`` true:
    each organisation has one head at a time, a person may head several).
    """
    n_e = cfg.entities()
    if n == 0:
        empty = np.zeros(0, dtype=np.int32)
        return _part(empty, empty, empty, empty.astype(bool), (empty,) * 3, empty.astype(bool), (empty,) * 3)
    p_more = 1.0 - 1.0 / cfg.career_mean  # P(another stint): lengths 1 + geometric, mean career_mean
    est = int(n / cfg.career_mean * 1.2) + 16
    while True:
        lengths = rng.geometric(1.0 - p_more, size=est).astype(np.int64) if p_more > 0 else np.ones(est, np.int64)
        ends = np.cumsum(lengths)
        if ends[-1] >= n:
            break
        est *= 2
    n_careers = int(np.searchsorted(ends, n)) + 1
    lengths = lengths[:n_careers]
    lengths[-1] -= int(ends[n_careers - 1]) - n
    if n_careers > n_e:
        raise ValueError(
            f"relation R{rel}: {n:,} career facts need {n_careers:,} distinct holders but there are {n_e:,} "
            "entities: raise n_entities or career_mean, or give the role more relations"
        )
    holder_of_career = rng.permutation(n_e)[:n_careers].astype(np.int32)
    career = np.repeat(np.arange(n_careers), lengths)
    first = np.cumsum(lengths) - lengths  # first fact of each career
    pos = np.arange(n) - first[career]
    last = pos == lengths[career] - 1
    duration = rng.geometric(1.0 / cfg.mean_duration, size=n).astype(np.int64)
    gap = rng.integers(0, 3, size=n).astype(np.int64)  # before the next stint
    step = np.cumsum(duration + gap)
    offset = step - (duration + gap)
    offset -= offset[first][career]
    span = (offset + duration)[first + lengths - 1]
    room = np.maximum(cfg.year_max - cfg.year_min + 1 - span, 1)
    career_start = cfg.year_min + (rng.random(n_careers) * room).astype(np.int64)
    start_year = career_start[career] + offset
    end_year = start_year + duration
    holder = holder_of_career[career]
    value = _zipf_draw(rng, n_e, n, cfg.zipf_exponent)
    while True:  # a value other than the holder and the previous stint's
        prev = np.concatenate(([-1], value[:-1]))
        bad = (value == holder) | ((pos > 0) & (value == prev))
        if not bad.any():
            break
        value[bad] = (value[bad] + 1) % n_e
    open_end = last & (rng.random(n) < cfg.p_current)
    sm, sd, em, ed = _day_parts(rng, cfg, n)
    rel_col = np.full(n, rel, dtype=np.int32)
    s, o = (value, holder) if inverse else (holder, value)
    has_start = np.ones(n, dtype=bool)
    return _part(s, rel_col, o, has_start, (start_year, sm, sd), ~open_end, (end_year, em, ed))


def _one_per_subject(
    rng: np.random.Generator, cfg: SyntheticConfig, n: int, rel: int, what: str, places: float, exponent: float
) -> tuple[np.ndarray, np.ndarray]:
    """``n`` distinct subjects and a Zipf-drawn object for each (never the subject itself).

    Objects come from a random ``places`` share of the entities (at least 2), weighted ``1 / rank ** exponent``.
    """
    n_e = cfg.entities()
    if n > n_e:
        raise ValueError(
            f"relation R{rel}: {n:,} {what} need {n:,} distinct subjects but there are {n_e:,} entities: raise "
            "n_entities or give the role more relations"
        )
    s = rng.permutation(n_e)[:n].astype(np.int32)
    pool = rng.permutation(n_e)[: max(2, int(places * n_e))] if places < 1 else np.arange(n_e)
    pool = pool.astype(np.int32)
    pick = _zipf_draw(rng, pool.shape[0], n, exponent)
    o = pool[pick]
    clash = s == o
    o[clash] = pool[(pick[clash] + 1) % pool.shape[0]]  # pool entries are distinct: another entity
    return s, o


def _events(rng: np.random.Generator, cfg: SyntheticConfig, n: int, rel: int) -> dict[str, np.ndarray]:
    """``n`` point facts of one relation, one per subject ("born in", "founded in").

    The objects are a small class (``event_places`` of the entities, Zipf-weighted), so a place has many
    subjects over time: the inverse direction ("who was born in X in 1950?") reads ``many``, as a real
    birthplace does, instead of "one at a time" by mere sparsity.
    """
    s, o = _one_per_subject(rng, cfg, n, rel, "one-per-subject events", cfg.event_places, cfg.zipf_exponent)
    year = rng.integers(cfg.year_min, cfg.year_max + 1, size=n, dtype=np.int32)
    sm, sd, _, _ = _day_parts(rng, cfg, n)
    yes = np.ones(n, dtype=bool)
    return _part(s, np.full(n, rel, dtype=np.int32), o, yes, (year, sm, sd), yes, (year, sm, sd))


def _lifelong(rng: np.random.Generator, cfg: SyntheticConfig, n: int, rel: int) -> dict[str, np.ndarray]:
    """``n`` long intervals of one relation, one per subject: from the first 15% of the period to its last 15%.

    Objects are drawn over all entities with the flatter ``lifelong_exponent`` (most entities contain a few
    others, as regions and organisations do), so that most entities can be reached by a static hop.
    """
    s, o = _one_per_subject(rng, cfg, n, rel, "lifelong facts", 1.0, cfg.lifelong_exponent)
    span = cfg.year_max - cfg.year_min
    edge = int(0.15 * span)
    start = cfg.year_min + rng.integers(0, edge + 1, size=n, dtype=np.int32)
    end = cfg.year_max - rng.integers(0, edge + 1, size=n, dtype=np.int32)
    sm, sd, em, ed = _day_parts(rng, cfg, n)
    yes = np.ones(n, dtype=bool)
    return _part(s, np.full(n, rel, dtype=np.int32), o, yes, (start, sm, sd), yes, (np.maximum(end, start), em, ed))


def generate(config: SyntheticConfig | None = None, **overrides: Any) -> SyntheticFacts:
    """Generate a synthetic TKG (``generate(n_facts=1_000_000, seed=7)`` or with a config).

    Relation ids: the functional ones first, then the one-per-subject events, the inverse-functional
    ones, the lifelong ones and the unconstrained rest (:meth:`SyntheticConfig.role_of`). Facts come in that order too,
    the unconstrained ones first (with no roles, the graph is exactly the one this module always made).
    """
    cfg = config or SyntheticConfig()
    if overrides:
        from dataclasses import replace

        cfg = replace(cfg, **overrides)
    cfg.check()
    rng = np.random.default_rng(cfg.seed)
    roles = cfg.roles()
    n_roles = sum(k for _, k, _ in roles)
    counts = cfg.role_counts()
    parts = [_zipf_part(rng, cfg, counts["zipf"], n_roles, cfg.n_relations - n_roles)]
    rel = 0
    for role, k, _ in roles:
        for m in _split(counts[role], k) if k else []:
            if role == "event":
                parts.append(_events(rng, cfg, m, rel))
            elif role == "lifelong":
                parts.append(_lifelong(rng, cfg, m, rel))
            else:
                parts.append(_careers(rng, cfg, m, rel, inverse=role == "inverse"))
            rel += 1
    cols = parts[0] if len(parts) == 1 else {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return SyntheticFacts(**cols, n_entities=cfg.entities(), n_relations=cfg.n_relations)
