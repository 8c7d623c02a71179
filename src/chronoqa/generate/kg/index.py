"""Compact index of a temporal graph at the question granularity, built once per build.

* Entities and relations are interned to integers.
* Each fact gets integer unit bounds at the question granularity: the *possible* span (units where the
  fact might hold: unknown start = since forever) and the *certain* span (units where it surely holds:
  never for an unknown start), following :func:`chronoqa.time.valid_at`, with the state/event reading
  of the phrase table applied first: an event without an end happens at its start; an open-ended
  state (start, no end) is possibly valid until ``as_of``, and certainly valid until ``as_of`` under the
  ``ongoing`` reading but only in its start unit under the ``unknown`` reading (see :func:`certain_interval`).
* Reversed facts (start after end) are valid nowhere and are left out of the adjacency: they are never
  gold, never negatives and never count for uniqueness (they still get a corpus document).
* So are facts with a *non-year date*: a start or end year that the build's ``not_years`` setting lists
  for the fact's relation (numbers the source's extraction read as years, see :func:`has_non_year`).
* *Implausible* facts (see :mod:`chronoqa.generate.kg.plausible`) keep their possible span, so they
  still count against answer uniqueness (conservative), but get an empty certain span: they are never
  gold, never a reference fact and never a negative.
* A *symmetric* relation (marriage, twinning) is traversed forward only: each of its facts appears in
  the outgoing table of both endpoints and in no incoming table, and a fact and its mirror share one
  (s, r, o) triple count.
* Each relation direction is ``one`` or ``many`` in the world (:attr:`GraphIndex.rel_one`); only a ``one``
  direction may be an answer hop or an intermediate description.
* Adjacency is two CSR tables sorted by (entity, relation, fact): outgoing (entity = subject) and
  incoming (entity = object), each row holding only its key and its fact id (two int32 columns while
  ``entities * relations`` fits in int32); a neighbourhood is one slice, and :meth:`GraphIndex.rows` reads
  the relation and the bounds from the per-fact table, and the other endpoint as ``s + o - entity`` (the
  object from the subject, the subject from the object: a mirrored row's too). A direction with at most
  :data:`ROW_CACHE_MAX` rows keeps its rows gathered once (``(m, 9)``, 36 bytes a row), since a small graph's
  build is dominated by Python-level row access; a large one gathers each slice when asked.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import overload

import numpy as np

from chronoqa.records import Fact, FactColumns
from chronoqa.time import Granularity, Interval, TimePoint, unit_bounds

__all__ = [
    "KEY_INT32_MAX",
    "NEG",
    "NONE",
    "POS",
    "Col",
    "DocIds",
    "GraphIndex",
    "certain_interval",
    "effective_interval",
    "expand_years",
    "first_appearance",
    "has_non_year",
    "key_dtype",
]

NEG = -(2**31) + 2
POS = 2**31 - 2
NONE = -(2**31) + 1  # marker for "no unit" in the SU/EU columns
KEY_INT32_MAX = 2**31 - 1  # adjacency keys are int32 while entities * relations stays below this
ROW_CACHE_MAX = 1 << 20  # a direction with at most this many rows keeps them gathered (the small graphs' hot path)
CHUNK_ROWS = 1 << 20  # adjacency rows per chunk of the whole-table statistics (bounds their temporaries)


def key_dtype(n_ent: int, n_rel: int) -> type[np.signedinteger]:
    """The dtype of the adjacency keys ``entity * n_rel + relation``: int32 when every key fits, else int64."""
    return np.int32 if max(n_ent, 1) * max(n_rel, 1) <= KEY_INT32_MAX else np.int64


class Col:
    """Column numbers of the per-fact table and of the adjacency rows (:meth:`GraphIndex.rows`).

    An adjacency row is its fact's table row with the fact id in place of the entity (``FID`` = ``S``) and
    the other endpoint in place of the object (``OTHER`` = ``O``): ``AR`` and ``APLO..AEU`` are the table's
    ``R`` and ``PLO..EU``.
    """

    S, R, O, PLO, PHI, CLO, CHI, SU, EU = range(9)  # per-fact table  # noqa: E741
    FID, AR, OTHER, APLO, APHI, ACLO, ACHI, ASU, AEU = range(9)  # adjacency rows


def effective_interval(fact: Fact, is_event: bool) -> Interval:
    """The validity interval under the state/event reading: an event without an end happens at its start."""
    if is_event and fact.end is None and fact.start is not None:
        return Interval(fact.start, fact.start)
    return Interval(fact.start, fact.end)


def certain_interval(fact: Fact, is_event: bool, open_end: str = "ongoing") -> Interval:
    """The interval over which the fact is *certainly* valid (read with ``valid_at(..., mode="certain")``).

    As :func:`effective_interval`, except that under the ``unknown`` open-end reading a state with a start
    and no end is certain only in its start unit (``[start, start]``): the data records no end, so
    nothing after the start is asserted.
    """
    if open_end == "unknown" and not is_event and fact.end is None and fact.start is not None:
        return Interval(fact.start, fact.start)
    return effective_interval(fact, is_event)


def has_non_year(fact: Fact, not_years: Mapping[str, Collection[int]] | None) -> bool:
    """True when the fact's start or end year is listed in ``not_years`` (relation id → years) for its relation."""
    if not not_years:
        return False
    bad = not_years.get(fact.r)
    if not bad:
        return False
    return any(p is not None and p.year in bad for p in (fact.start, fact.end))


@dataclass(frozen=True, eq=False)
class DocIds(Sequence[str]):
    """The corpus doc id of each fact position as arrays; a string is made only when one is asked for.

    Position ``i`` is ``F<facts[i]>`` (a fact kept whole), or ``F<facts[i]>-<years[i]>`` where ``expanded[i]``
    (one year of a fact expanded by :func:`expand_years`). ``facts`` are the original fact ids.
    """

    facts: np.ndarray  # int64 original fact ids
    years: np.ndarray | None = None  # int32, read where expanded
    expanded: np.ndarray | None = None  # bool

    def __len__(self) -> int:
        return len(self.facts)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        """The doc id at position ``i`` (or the list of a slice)."""
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if self.expanded is not None and self.years is not None and self.expanded[i]:
            return f"F{int(self.facts[i])}-{int(self.years[i])}"
        return f"F{int(self.facts[i])}"

    def __iter__(self) -> Iterator[str]:
        for i in range(len(self)):
            yield self[i]


def expand_years(
    facts: Sequence[Fact],
    is_event: Mapping[str, bool],
    as_of: TimePoint,
    not_years: Mapping[str, Collection[int]] | None = None,
) -> tuple[FactColumns, DocIds]:
    """Per-year mode: one point fact per year of every interval fact, as TGB builds tkgl-smallpedia.

    A fact with both ends known becomes one point fact per year of ``start.year..end.year``; a fact
    with a start only becomes one point fact at its start year (TGB's single edge: the open end is
    not expanded, ``as_of`` is unused); facts with an unknown start, reversed facts and facts with a
    non-year date (:func:`has_non_year` under ``not_years``) stay as they are. Returns the new facts as
    columns (ids renumbered 0..n-1 in order of (original fact, year)) and their doc ids (``F<orig>`` for a
    fact kept whole, ``F<orig>-<year>`` for an expanded one). Array operations only: no loop per fact.
    """
    del is_event, as_of  # the expansion is the same for states and events (TGB's)
    cols = FactColumns.from_facts(facts)
    sy = cols.start_year.astype(np.int64)
    whole = ~cols.has_start | (cols.has_end & (sy > cols.end_year)) | _non_year_mask(cols, not_years)
    last = np.where(cols.has_end, cols.end_year, sy)
    count = np.where(whole, 1, last - sy + 1)
    rows = np.repeat(np.arange(len(cols), dtype=np.int64), count)
    year = (sy[rows] + (np.arange(len(rows)) - np.repeat(np.cumsum(count) - count, count))).astype(np.int32)
    out = cols.take(rows)
    grown = ~whole[rows]
    zero = np.zeros(1, dtype=np.int8)
    expanded = FactColumns(
        out.entities, out.relations, np.arange(len(rows), dtype=np.int64), out.s, out.r, out.o,
        out.has_start, np.where(grown, year, out.start_year), np.where(grown, zero, out.start_month),
        np.where(grown, zero, out.start_day), out.has_end | grown, np.where(grown, year, out.end_year),
        np.where(grown, zero, out.end_month), np.where(grown, zero, out.end_day), out.lines,
    )  # fmt: skip
    return expanded, DocIds(out.ids, year, grown)


def first_appearance(codes: np.ndarray, names: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """Recode ``codes`` (indices into ``names``) to the order of first appearance: ``(new codes, their names)``.

    Names no code uses are left out. Codes already in that order (``0, 1, ...`` as they first appear, every
    name used) come back unchanged as int32.
    """
    n = len(codes)
    if not n:
        return np.zeros(0, dtype=np.int32), []
    first = np.full(len(names), n, dtype=np.int64)
    np.minimum.at(first, codes, np.arange(n, dtype=np.int32 if n < 2**31 else np.int64))
    used = np.flatnonzero(first < n)
    used = used[np.argsort(first[used], kind="stable")]
    if len(used) == len(names) and bool(np.all(used == np.arange(len(used)))):
        return codes.astype(np.int32, copy=False), list(names)
    new = np.zeros(len(names), dtype=np.int32)
    new[used] = np.arange(len(used), dtype=np.int32)
    return new[codes], [names[i] for i in used.tolist()]


def _first_appearance_pair(
    s: np.ndarray, o: np.ndarray, names: Sequence[str], s_out: np.ndarray, o_out: np.ndarray
) -> list[str]:
    """:func:`first_appearance` of the interleaved codes ``s[0], o[0], s[1], ...``, written to ``s_out``/``o_out``.

    Returns the names in first-appearance order (no interleaved copy is made).
    """
    n = len(s)
    if not n:
        return []
    first = np.full(len(names), 2 * n, dtype=np.int64)
    pos = np.arange(0, 2 * n, 2, dtype=np.int64)
    np.minimum.at(first, s, pos)
    pos += 1
    np.minimum.at(first, o, pos)
    del pos
    used = np.flatnonzero(first < 2 * n)
    used = used[np.argsort(first[used], kind="stable")]
    new = np.zeros(len(names), dtype=np.int32)
    new[used] = np.arange(len(used), dtype=np.int32)
    s_out[:] = new[s]
    o_out[:] = new[o]
    if len(used) == len(names) and bool(np.all(used == np.arange(len(used)))):
        return list(names)
    return [names[i] for i in used.tolist()]


def _date_units(cols: FactColumns, which: str, g: Granularity) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`~chronoqa.time.unit_bounds` of the start or end column as int32 (zeros where the date is unknown).

    :func:`~chronoqa.time.unit_bounds` is asked about each distinct date once; rows find theirs through a dense
    table of packed ``(year, month, day)`` codes when the years span a few thousand, else through a sort.
    """
    has = getattr(cols, f"has_{which}")
    n = len(has)
    y, m, d = (getattr(cols, f"{which}_{f}") for f in ("year", "month", "day"))
    if not bool(has.any()):
        return np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32), np.zeros(n, dtype=bool)
    y = np.where(has, y, y[has][0]).astype(np.int64)  # unknown dates read as a known one (masked by the caller)
    code = (y * 13 + np.where(has, m, 0)) * 32 + np.where(has, d, 0)
    del y
    low, span = int(code.min()), int(code.max() - code.min()) + 1
    if span <= 64 * n + 1_000_000:  # dense: one slot per possible code
        code -= low
        seen = np.zeros(span, dtype=bool)
        seen[code] = True
        uniq = np.flatnonzero(seen)
        slot = np.cumsum(seen, dtype=np.int32) - 1
        del seen
        inverse = slot[code]
        del slot
        uniq += low
    else:
        uniq, inverse = np.unique(code, return_inverse=True)
    del code
    ym, dd = np.divmod(uniq, 32)
    yy, mm = np.divmod(ym, 13)
    lo, hi, fine = unit_bounds(yy, mm, dd, g)
    return lo.astype(np.int32)[inverse], hi.astype(np.int32)[inverse], fine[inverse]


def _non_year_mask(cols: FactColumns, not_years: Mapping[str, Collection[int]] | None) -> np.ndarray:
    """Per fact, :func:`has_non_year` on the columns."""
    out = np.zeros(len(cols), dtype=bool)
    if not not_years:
        return out
    code = {name: i for i, name in enumerate(cols.relations)}
    for rel, years in sorted(not_years.items()):
        if rel not in code or not years:
            continue
        bad = np.array(sorted(years), dtype=np.int64)
        hit = (cols.has_start & np.isin(cols.start_year, bad)) | (cols.has_end & np.isin(cols.end_year, bad))
        out |= (cols.r == code[rel]) & hit
    return out


def _segment_cummax(values: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """Running maximum of int64 ``values`` restarting at each segment (``segment``: non-decreasing ids 0, 1, ...).

    Values must lie within ±2**31 (units and the NEG/POS markers do).
    """
    offset = segment.astype(np.int64) * 2**33
    return np.maximum.accumulate(values + offset) - offset


def _group_chunks(keys: np.ndarray, size: int | None = None) -> Iterator[tuple[int, int]]:
    """Row ranges ``[a, b)`` of about ``size`` rows covering sorted ``keys``, each cut where the key changes.

    ``size`` defaults to :data:`CHUNK_ROWS`. A run of equal keys (a group) is never split, so per-group work
    done chunk by chunk gives what it gives on the whole table, with temporaries the size of a chunk (a group
    longer than ``size`` is one chunk).
    """
    m = len(keys)
    size = CHUNK_ROWS if size is None else size
    a = 0
    while a < m:
        b = min(a + size, m)
        if b < m:  # move the cut back to the start of the group holding row b (forward when that is a)
            b = int(keys.searchsorted(keys[b], "left"))
            if b <= a:
                b = int(keys.searchsorted(keys[a], "right"))
        yield a, b
        a = b


def _group_stats(idx: GraphIndex, forward: bool, window: int = 20) -> tuple[np.ndarray, ...]:
    """Per relation, over the (entity, relation) groups of one adjacency table, what :meth:`GraphIndex.infer_one` reads.

    Returns ``(groups, groups with two or more values, of which overlapping, distinct values summed)``, each an
    array indexed by relation. A group is *overlapping* when, its possible spans sorted by (start, end, value),
    one span and one of the next ``window - 1`` spans hold different values for more than one unit together.
    Worked out chunk by chunk (:func:`_group_chunks`): temporaries stay small on huge graphs.
    """
    n_rel = idx.n_rel
    out = tuple(np.zeros(n_rel, dtype=np.int64) for _ in range(4))
    keys, fids = (idx.out_keys, idx.out_fids) if forward else (idx.in_keys, idx.in_fids)
    if not len(keys):
        return out
    g_rel_parts, n_values_parts, overlapping_parts = [], [], []
    for a, b in _group_chunks(keys):
        f = fids[a:b]
        g_rel, n_values, overlapping = _chunk_group_stats(
            keys[a:b], idx.other_at(forward, slice(a, b)), idx.table[f, Col.PLO], idx.table[f, Col.PHI], n_rel,
            window,
        )  # fmt: skip
        g_rel_parts.append(g_rel)
        n_values_parts.append(n_values)
        overlapping_parts.append(overlapping)
    g_rel, n_values, overlapping = (np.concatenate(x) for x in (g_rel_parts, n_values_parts, overlapping_parts))
    multi = n_values >= 2
    return (
        np.bincount(g_rel, minlength=n_rel),
        np.bincount(g_rel, weights=multi, minlength=n_rel).astype(np.int64),
        np.bincount(g_rel, weights=multi & overlapping, minlength=n_rel).astype(np.int64),
        np.bincount(g_rel, weights=n_values, minlength=n_rel).astype(np.int64),
    )


def _pack(high: np.ndarray, low: np.ndarray) -> np.ndarray:
    """Two int32 columns as one int64 that sorts as the pair ``(high, low)`` does (``high`` >= 0 or not)."""
    return (high.astype(np.int64) << 32) | (low.astype(np.int64) + (1 << 31))


def _chunk_group_stats(
    keys: np.ndarray, other: np.ndarray, plo: np.ndarray, phi: np.ndarray, n_rel: int, window: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per group of the rows (whole groups, sorted by key): ``(relation, distinct values, overlapping)``."""
    m = len(keys)
    # the table is sorted by key: groups are runs, numbered in order
    first = np.r_[True, keys[1:] != keys[:-1]]
    gid = np.cumsum(first, dtype=np.int32) - 1
    g_rel = (keys[first] % n_rel).astype(np.int64)
    del first
    # by group, then value (one int64 per row, sorted: no index permutation): distinct values are the changes
    by_value = np.sort(_pack(gid, other))
    new_value = np.r_[True, by_value[1:] != by_value[:-1]]
    n_values = np.bincount((by_value[new_value] >> 32).astype(np.int64), minlength=len(g_rel))
    del by_value, new_value
    order = np.lexsort((_pack(phi, other), _pack(gid, plo)))  # by group, start, end, value: two keys, not four
    plo, phi, other = plo[order], phi[order], other[order]
    del order
    overlapping = np.zeros(len(g_rel), dtype=bool)
    cand = np.flatnonzero(gid[1:] == gid[:-1]).astype(np.int32)  # positions with a next row in their group
    for d in range(1, window):
        cand = cand[cand + d < m]
        cand = cand[(gid[cand + d] == gid[cand]) & ~overlapping[gid[cand]]]  # a group that ended stays ended
        if not len(cand):
            break
        j = cand + d
        low = np.maximum(plo[cand], plo[j]).astype(np.int64)
        hit = (other[cand] != other[j]) & (np.minimum(phi[cand], phi[j]) - low >= 1)
        overlapping[gid[cand[hit]]] = True
    return g_rel, n_values, overlapping


def _overlapping_keys(keys: np.ndarray, other: np.ndarray, clo: np.ndarray, chi: np.ndarray) -> list[int]:
    """The keys (of whole groups) where two different values are certain together for two units or more."""
    lo = clo.astype(np.int64)
    hi = chi.astype(np.int64) - 1
    sel = lo <= hi
    k, other, lo, hi = keys[sel].astype(np.int64), other[sel], lo[sel], hi[sel]
    if not len(k):
        return []
    order = np.lexsort((hi, lo, other, k))
    k, other, lo, hi = k[order], other[order], lo[order], hi[order]
    seg_start = np.r_[True, (k[1:] != k[:-1]) | (other[1:] != other[:-1])]
    reach = _segment_cummax(hi, np.cumsum(seg_start) - 1)
    starts = np.flatnonzero(seg_start | np.r_[True, lo[1:] > reach[:-1]])
    m_key, m_lo, m_hi = k[starts], lo[starts], np.maximum.reduceat(hi, starts)
    order = np.lexsort((m_lo, m_key))
    m_key, m_lo, m_hi = m_key[order], m_lo[order], m_hi[order]
    key_start = np.r_[True, m_key[1:] != m_key[:-1]]
    reach = _segment_cummax(m_hi, np.cumsum(key_start) - 1)
    hit = ~key_start[1:] & (m_lo[1:] <= reach[:-1])
    return np.unique(m_key[1:][hit]).tolist()


@dataclass
class GraphIndex:
    """Integer tables over the facts (see the module docstring)."""

    granularity: Granularity
    as_of: TimePoint
    facts: Sequence[Fact]
    ent_names: list[str]
    rel_names: list[str]
    rel_id: dict[str, int]
    rel_event: list[bool]
    table: np.ndarray  # (n, 9) int32, columns Col.S..Col.EU
    reversed_mask: np.ndarray  # (n,) bool
    out_keys: np.ndarray  # (m,) sorted: subject * n_rel + relation (dtype: key_dtype)
    out_fids: np.ndarray  # (m,) int32 fact ids of the outgoing rows
    in_keys: np.ndarray
    in_fids: np.ndarray
    triple_count: np.ndarray  # (n,) int32: kept facts sharing this fact's (s, r, o); 0 if ignored
    open_end: str = "ongoing"
    not_year_mask: np.ndarray | None = None  # (n,) bool: facts with a non-year date (None: none)
    implausible_mask: np.ndarray | None = None  # (n,) bool: implausible dates (counted, never gold)
    rel_one: list[tuple[bool, bool]] = field(default_factory=list)  # relation -> (forward one, inverse one)
    rel_symmetric: list[bool] = field(default_factory=list)
    ignored_mask: np.ndarray = field(init=False)  # (n,) bool: reversed or non-year: valid nowhere
    _overlapping: tuple[frozenset[int], frozenset[int]] | None = field(init=False, default=None)
    _infer_stats: dict[bool, tuple[np.ndarray, ...]] = field(init=False, default_factory=dict)
    _ent_id: dict[str, int] | None = field(init=False, default=None)
    _mirror_pos: array[int] = field(init=False)  # sorted positions of the outgoing rows from an object (bisected)
    _row_cache: dict[bool, np.ndarray] = field(init=False, default_factory=dict)  # direction -> gathered rows

    def __post_init__(self) -> None:
        """Derive ``ignored_mask`` (facts valid nowhere and left out of the adjacency)."""
        if self.not_year_mask is None:
            self.not_year_mask = np.zeros(len(self.reversed_mask), dtype=bool)
        if self.implausible_mask is None:
            self.implausible_mask = np.zeros(len(self.reversed_mask), dtype=bool)
        if not self.rel_one:
            self.rel_one = [(True, True)] * len(self.rel_names)
        if not self.rel_symmetric:
            self.rel_symmetric = [False] * len(self.rel_names)
        self.ignored_mask = self.reversed_mask | self.not_year_mask
        self._mirror_pos = array("q")
        if any(self.rel_symmetric) and len(self.out_keys):  # a mirrored row's entity is its fact's object
            entity = self.out_keys // self.n_rel
            self._mirror_pos = array("q", np.flatnonzero(entity != self.table[self.out_fids, Col.S]).tobytes())
        for forward, fids in ((True, self.out_fids), (False, self.in_fids)):
            if len(fids) <= ROW_CACHE_MAX:
                self._row_cache[forward] = self._gather(forward, 0, len(fids))

    @property
    def ent_id(self) -> dict[str, int]:
        """Entity name → integer id, made on first use (the build itself never looks a name up)."""
        if self._ent_id is None:
            self._ent_id = {name: i for i, name in enumerate(self.ent_names)}
        return self._ent_id

    def infer_one(self, relation: int, forward: bool, overlap_share: float = 0.05, mean_values: float = 3.0) -> bool:
        """Infer from the data whether a direction has one value at a time (for relations nobody declared).

        ``one`` when (a) at most ``overlap_share`` of the (entity, relation, direction) groups with two or
        more distinct values hold two of them at once for more than one unit, and (b) an entity has on
        average at most ``mean_values`` distinct values over all time (a class such as "the people born
        in X" grows without bound and reads as ``many`` even where the graph holds one per year).
        Conservative: an unsure direction reads ``many``.
        """
        out_table = forward or self.rel_symmetric[relation]
        stats = self._infer_stats.get(out_table)
        if stats is None:
            stats = self._infer_stats[out_table] = _group_stats(self, out_table)
        groups, multi, overlapping, n_values = (int(x[relation]) for x in stats)
        if not groups:
            return True
        return overlapping <= overlap_share * max(multi, 1) and n_values <= mean_values * groups

    def use_group_stats(self, stats: Mapping[bool, tuple[np.ndarray, ...]]) -> None:
        """Give :meth:`infer_one` statistics worked out elsewhere (by ``forward``, as ``_group_stats`` returns)."""
        self._infer_stats.update(stats)

    def mark_implausible(self, positions: Collection[int] | np.ndarray) -> None:
        """Give the facts at ``positions`` an empty certain span (never gold); their possible span still counts."""
        assert self.implausible_mask is not None
        sel = np.fromiter(positions, dtype=np.int64, count=len(positions))
        if not len(sel):
            return
        self.implausible_mask[sel] = True
        self.table[sel, Col.CLO] = POS
        self.table[sel, Col.CHI] = NEG  # the adjacency rows read their bounds from the table
        for rows in self._row_cache.values():  # and the gathered ones are updated alike
            hit = self.implausible_mask[rows[:, Col.FID]]
            rows[hit, Col.ACLO] = POS
            rows[hit, Col.ACHI] = NEG

    def one(self, relation: int, forward: bool) -> bool:
        """True when the direction has one value at a time in the world (an answer hop may use it)."""
        fw, inv = self.rel_one[relation]
        return fw if forward else inv

    def one_at(self, entity: int, relation: int, forward: bool) -> bool:
        """:meth:`one`, and the entity's own values of the group are never certain together for two units or more.

        A player listed with a club and a national youth team over the same years shows that, for this
        entity, the direction holds several values at once: none of its values is asked for alone.
        """
        if not self.one(relation, forward):
            return False
        if self._overlapping is None:
            self._overlapping = (self._overlap_keys(True), self._overlap_keys(False))
        key = entity * self.n_rel + relation
        return key not in self._overlapping[0 if forward or self.rel_symmetric[relation] else 1]

    def use_overlap_keys(self, keys: Mapping[bool, Collection[int]]) -> None:
        """Give :meth:`one_at` its overlapping group keys worked out elsewhere (both directions, by ``forward``).

        Each value is what :meth:`_overlap_keys` would return for the index as it stands: give them after
        :meth:`mark_implausible` (an implausible fact has no certain span).
        """
        self._overlapping = (frozenset(keys[True]), frozenset(keys[False]))

    def _overlap_keys(self, forward: bool) -> frozenset[int]:
        """Group keys where two different values are certain together for two units or more (array operations).

        Two certain spans overlap for two units or more exactly when the spans shortened by their last unit
        intersect; the spans of each (group, value) are merged first, so any intersection left is between two
        different values. Worked out chunk by chunk of whole groups (:func:`_group_chunks`).
        """
        keys, fids = (self.out_keys, self.out_fids) if forward else (self.in_keys, self.in_fids)
        found: set[int] = set()
        for a, b in _group_chunks(keys):
            f, other = fids[a:b], self.other_at(forward, slice(a, b))
            found.update(_overlapping_keys(keys[a:b], other, self.table[f, Col.CLO], self.table[f, Col.CHI]))
        return frozenset(found)

    def usable(self, fid: int) -> bool:
        """True for a fact that may be gold, a reference or a negative (not ignored, not implausible)."""
        assert self.implausible_mask is not None
        return not (self.ignored_mask[fid] or self.implausible_mask[fid])

    @classmethod
    def build(
        cls,
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
        """Intern, compute unit bounds and build both adjacency tables (array operations and two sorts).

        ``facts`` is any ``Sequence[Fact]``; it is converted once to :class:`~chronoqa.records.FactColumns`
        (nothing to do for columns). Entities and relations are interned in order of first appearance
        (subject, object, then relation of each fact in turn), whatever the order of the columns' codes.
        ``open_end`` is the reading of a state with a start and no end (``ongoing`` or ``unknown``);
        ``not_years`` (relation id → years) marks facts with a non-year date, which are valid nowhere;
        ``cardinality`` maps a relation id to ``(forward is one, inverse is one)`` (default: both one);
        ``symmetric`` names the symmetric relation ids.
        """
        g = granularity
        cols = FactColumns.from_facts(facts)
        n = len(cols)
        table = np.empty((n, 9), dtype=np.int32)
        ent_names = _first_appearance_pair(cols.s, cols.o, cols.entities, table[:, Col.S], table[:, Col.O])
        r_arr, rel_names = first_appearance(cols.r, cols.relations)
        table[:, Col.R] = r_arr
        rel_id = {name: i for i, name in enumerate(rel_names)}
        rel_event = [bool(is_event.get(name, False)) for name in rel_names]
        has_s, has_e = cols.has_start, cols.has_end
        # an event without an end ends at its start
        end_from_start = ~has_e & has_s & (np.array(rel_event, dtype=bool)[r_arr] if n else np.zeros(0, dtype=bool))
        del r_arr
        has_eff = has_e | end_from_start
        s_lo, s_hi, s_fine = _date_units(cols, "start", g)
        table[:, Col.PLO] = np.where(has_s, s_lo, NEG)
        table[:, Col.CLO] = np.where(has_s, s_hi, POS)
        table[:, Col.SU] = np.where(has_s & s_fine, s_lo, NONE)
        del s_fine
        e_lo, e_hi, e_fine = _date_units(cols, "end", g)
        table[:, Col.EU] = np.where(has_e & e_fine, e_lo, NONE)
        del e_fine
        rev = has_s & has_e & (s_lo > e_hi)
        as_lo, as_hi = as_of.lo(g), as_of.hi(g)
        table[:, Col.PHI] = np.where(has_eff, np.where(end_from_start, s_hi, e_hi), as_hi)
        del e_hi
        chi = np.where(has_eff, np.where(end_from_start, s_lo, e_lo), as_lo)
        del e_lo, s_hi
        if open_end == "unknown":  # certain in the start unit only
            chi[~has_eff & has_s] = s_lo[~has_eff & has_s]
        del s_lo, has_eff, end_from_start
        table[:, Col.CHI] = chi
        del chi
        nyr = _non_year_mask(cols, not_years)
        dead = rev | nyr
        table[dead, Col.PLO] = POS
        table[dead, Col.PHI] = NEG
        table[dead, Col.CLO] = POS
        table[table[:, Col.CLO] == POS, Col.CHI] = NEG
        imp = np.zeros(n, dtype=bool)
        card = cardinality or {}
        rel_one = [card.get(name, (True, True)) for name in rel_names]
        sym_names = set(symmetric)
        rel_sym = [name in sym_names for name in rel_names]
        n_rel = max(len(rel_names), 1)
        keep = np.flatnonzero(~dead).astype(np.int32)
        del dead
        sym_rows = np.array(rel_sym, dtype=bool)[table[keep, Col.R]] if len(keep) else np.zeros(0, dtype=bool)

        kdt = key_dtype(len(ent_names), n_rel)

        def adjacency(ent_col: int, mirror: bool) -> tuple[np.ndarray, np.ndarray]:
            mirrored = mirror and bool(sym_rows.any())
            if mirrored:  # symmetric facts: also listed from their object, in this (outgoing) table
                twins = keep[sym_rows]
                ids = np.concatenate([keep, twins])
                ent = np.concatenate([table[keep, ent_col], table[twins, Col.O]])
                del twins
            else:
                ids = keep if mirror else keep[~sym_rows]  # symmetric facts have no incoming rows
                ent = table[ids, ent_col]
            keys = ent.astype(kdt)
            del ent
            keys *= n_rel
            keys += table[ids, Col.R]
            # ids ascend except after the mirrored block: a stable sort by key is by (key, fact) otherwise
            order = np.lexsort((ids, keys)) if mirrored else np.argsort(keys, kind="stable")
            return keys[order], ids[order]

        out_keys, out_fids = adjacency(Col.S, True)
        in_keys, in_fids = adjacency(Col.O, False)
        triple_count = np.zeros(n, dtype=np.int32)
        if len(keep):
            n_ent = max(len(ent_names), 1)
            a, b = table[keep, Col.S], table[keep, Col.O]
            tkey = np.where(sym_rows, np.minimum(a, b), a).astype(np.int64)
            tkey *= n_rel
            tkey += table[keep, Col.R]
            tkey *= n_ent
            tkey += np.where(sym_rows, np.maximum(a, b), b)
            del a, b
            order = np.argsort(tkey, kind="stable")
            tkey = tkey[order]
            starts = np.flatnonzero(np.r_[True, tkey[1:] != tkey[:-1]])
            del tkey
            sizes = np.diff(np.r_[starts, len(order)]).astype(np.int32)
            triple_count[keep[order]] = np.repeat(sizes, sizes)
        return cls(
            g, as_of, facts, ent_names, rel_names, rel_id, rel_event, table, rev,
            out_keys, out_fids, in_keys, in_fids, triple_count, open_end, nyr, imp, rel_one, rel_sym,
        )  # fmt: skip

    # -- lookups ----------------------------------------------------------------------------------
    @property
    def n_rel(self) -> int:
        """Number of relations (at least 1)."""
        return max(len(self.rel_names), 1)

    def fact_row(self, fid: int) -> list[int]:
        """The per-fact table row of one fact."""
        return self.table[fid].tolist()

    def other_at(self, forward: bool, sel: slice | np.ndarray = slice(None)) -> np.ndarray:
        """The other endpoints (int32) of the adjacency rows ``sel`` (a slice or positions) of one direction.

        The object of an outgoing row, the subject of a mirrored outgoing row or of an incoming row.
        """
        if not forward:
            return self.table[self.in_fids[sel], Col.S]
        fids = self.out_fids[sel]
        other = self.table[fids, Col.O]
        if len(self._mirror_pos):  # s + o - entity: the object from the subject, the subject of a mirrored row
            other += self.table[fids, Col.S] - self.out_keys[sel] // self.n_rel
        return other

    def _block(self, forward: bool, sel: np.ndarray) -> np.ndarray:
        """Adjacency rows at positions ``sel`` (columns ``Col.FID..Col.AEU``) of one direction."""
        fids = (self.out_fids if forward else self.in_fids)[sel]
        out = self.table.take(fids, axis=0)  # FID, AR, OTHER, APLO.. sit where S, R, O, PLO.. do
        if not forward:
            out[:, Col.OTHER] = out[:, Col.S]
        elif len(self._mirror_pos):  # as other_at (no int32 overflow: s - entity, then + o, stays in range)
            out[:, Col.OTHER] += out[:, Col.S] - self.out_keys[sel] // self.n_rel
        out[:, Col.FID] = fids
        return out

    def rows_array(self, forward: bool, a: int, b: int) -> np.ndarray:
        """Adjacency rows ``[a, b)`` of one direction as an ``(b - a, 9)`` int32 array (columns ``Col.FID..``).

        Read only: a slice of the gathered rows of a small direction, else gathered now (:meth:`_gather`).
        """
        rows = self._row_cache.get(forward)
        return rows[a:b] if rows is not None else self._gather(forward, a, b)

    def _gather(self, forward: bool, a: int, b: int) -> np.ndarray:
        """Adjacency rows ``[a, b)`` from the per-fact table.

        One gather, the fact ids written in, and the other endpoint fixed where it is not the table's object
        (incoming rows; mirrored rows, found by bisection).
        """
        if not forward:
            fids = self.in_fids[a:b]
            out = self.table.take(fids, axis=0)
            out[:, Col.OTHER] = out[:, Col.S]
        else:
            fids = self.out_fids[a:b]
            out = self.table.take(fids, axis=0)
            mirror = self._mirror_pos
            if mirror:
                i = bisect_left(mirror, a)
                if i < len(mirror) and mirror[i] < b:
                    at = [p - a for p in mirror[i : bisect_left(mirror, b)]]
                    out[at, Col.OTHER] = out[at, Col.S]
        out[:, Col.FID] = fids
        return out

    @property
    def out_rows(self) -> np.ndarray:
        """Every outgoing row as one ``(m, 9)`` array, made on each call (for tests and small graphs)."""
        return self._gather(True, 0, len(self.out_fids))

    @property
    def in_rows(self) -> np.ndarray:
        """Every incoming row as one ``(m, 9)`` array, made on each call (for tests and small graphs)."""
        return self._gather(False, 0, len(self.in_fids))

    def group_bounds(self, entity: int, relation: int, forward: bool) -> tuple[int, int]:
        """Slice ``[a, b)`` of the adjacency table holding the group (entity, relation, direction)."""
        keys = self.out_keys if forward else self.in_keys
        k = keys.dtype.type(entity * self.n_rel + relation)  # a key of the array's dtype: no cast of the array
        return int(keys.searchsorted(k, "left")), int(keys.searchsorted(k, "right"))

    def bounds(self, entity: int, forward: bool) -> tuple[int, int]:
        """Slice ``[a, b)`` of the adjacency table holding all rows of ``entity`` in one direction."""
        keys = self.out_keys if forward else self.in_keys
        k = entity * self.n_rel
        kind = keys.dtype.type  # (entity + 1) * n_rel fits the key dtype (see key_dtype)
        return int(keys.searchsorted(kind(k), "left")), int(keys.searchsorted(kind(k + self.n_rel), "left"))

    def rows(self, forward: bool, a: int, b: int) -> list[list[int]]:
        """Adjacency rows ``[a, b)`` of one direction as Python lists."""
        rows = self._row_cache.get(forward)
        return (rows[a:b] if rows is not None else self._gather(forward, a, b)).tolist()

    def rows_at(self, forward: bool, positions: np.ndarray) -> list[list[int]]:
        """Adjacency rows at the given positions."""
        rows = self._row_cache.get(forward)
        return (rows[positions] if rows is not None else self._block(forward, positions)).tolist()

    def group_size(self, entity: int, relation: int, forward: bool) -> int:
        """Number of rows of a group."""
        a, b = self.group_bounds(entity, relation, forward)
        return b - a

    def group(self, entity: int, relation: int, forward: bool) -> list[list[int]]:
        """Adjacency rows of the (non-ignored) facts with ``entity`` as subject (forward) or object."""
        return self.rows(forward, *self.group_bounds(entity, relation, forward))

    def incident(self, entity: int, forward: bool) -> list[list[int]]:
        """All adjacency rows of ``entity`` in one direction, sorted by relation then fact id."""
        return self.rows(forward, *self.bounds(entity, forward))
