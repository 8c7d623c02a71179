"""Compact index of a temporal graph at the question granularity, built once per build.

The index is built by the SQL steps of :mod:`chronoqa.generate.kg.sql` (``build_index``: DuckDB in process, or
Spark); this module holds its arrays and the lookups the question drafting makes on them.

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
from chronoqa.time import Granularity, Interval, TimePoint

__all__ = [
    "HORIZON_SHARE",
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
    "has_non_year",
    "key_dtype",
]

NEG = -(2**31) + 2
POS = 2**31 - 2
NONE = -(2**31) + 1  # marker for "no unit" in the SU/EU columns
KEY_INT32_MAX = 2**31 - 1  # adjacency keys are int32 while entities * relations stays below this
HORIZON_SHARE = 0.001  # a year holding at least this share of the graph's dates is inside its horizon
PER_TERM_SHARE = 0.04  # a state relation with this share of split triples is stored per term (GraphIndex.per_term)
PER_TERM_MIN = 10  # ... and at least this many split triples
ROW_CACHE_MAX = 1 << 20  # a direction with at most this many rows keeps them gathered (the small graphs' hot path)


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


def run_sizes(*keys: np.ndarray) -> np.ndarray:
    """Per row, how many rows share all of ``keys`` (equal-length integer columns) with it."""
    order = np.lexsort(keys[::-1])  # the first key most significant
    same = np.ones(max(len(order) - 1, 0), dtype=bool)  # a sorted row equal to the one before on every key
    for k in keys:
        col = k[order]
        same &= col[1:] == col[:-1]
    starts = np.flatnonzero(np.concatenate(([True], ~same))) if len(order) else np.zeros(0, dtype=np.int64)
    sizes = np.diff(np.append(starts, len(order)))
    out = np.empty(len(order), dtype=np.int64)
    out[order] = np.repeat(sizes, sizes)
    return out


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
    _ent_start: dict[bool, np.ndarray] = field(init=False, default_factory=dict)  # direction -> first row per entity
    _groups: dict[tuple[int, int, bool], tuple[int, int]] = field(init=False, default_factory=dict)  # group_bounds
    _horizon: int | None = field(init=False, default=None)
    _per_term: np.ndarray | None = field(init=False, default=None)
    _tenure_end: np.ndarray | None = field(init=False, default=None)
    _interrupted: frozenset[int] = field(init=False, default=frozenset())  # mark_interrupted
    unknown_end_rels: frozenset[int] = field(init=False, default=frozenset())  # declared end_unknown relations
    convention_rels: frozenset[int] = field(init=False, default=frozenset())  # declared date_convention relations
    year_uncertain: frozenset[int] = field(init=False, default=frozenset())  # facts dated a year apart (declared)
    squad_moves: frozenset[int] = field(init=False, default=frozenset())  # spells ending in a move within a club
    loans: frozenset[int] = field(init=False, default=frozenset())  # spells within another (one_spell_per_object)
    # per fact, as bytes (one read is a plain index, no NumPy scalar): usable (reset when a fact is marked
    # implausible) and the only fact of its (s, r, o); made on first use
    _usable: bytes | None = field(init=False, default=None)
    _single: bytes | None = field(init=False, default=None)
    # entity -> its rows (both directions) of nameable facts (:meth:`nameable_rows`), for the entities asked
    _nameable: dict[int, list[list[int]]] = field(init=False, default_factory=dict)

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
        if out_table not in self._infer_stats:  # not given: worked out now by the SQL steps, in process
            from chronoqa.generate.kg.sql.cardinality import group_stats_by_sql

            self._infer_stats.update(group_stats_by_sql("duckdb", self))
        stats = self._infer_stats[out_table]
        groups, multi, overlapping, n_values = (int(x[relation]) for x in stats)
        if not groups:
            return True
        return overlapping <= overlap_share * max(multi, 1) and n_values <= mean_values * groups

    def use_group_stats(self, stats: Mapping[bool, tuple[np.ndarray, ...]]) -> None:
        """Give :meth:`infer_one` its statistics (by ``forward``, as ``sql.cardinality.group_stats_by_sql`` gives)."""
        self._infer_stats.update(stats)

    def mark_implausible(self, positions: Collection[int] | np.ndarray) -> None:
        """Give the facts at ``positions`` an empty certain span (never gold); their possible span still counts."""
        assert self.implausible_mask is not None
        sel = np.fromiter(positions, dtype=np.int64, count=len(positions))
        if not len(sel):
            return
        self.implausible_mask[sel] = True
        self._usable = None
        self._nameable.clear()
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
        if self._overlapping is None:  # not given: worked out now by the SQL steps, in process
            from chronoqa.generate.kg.sql.overlap import overlap_keys_by_sql

            self.use_overlap_keys(overlap_keys_by_sql("duckdb", self))
        assert self._overlapping is not None
        key = entity * self.n_rel + relation
        return key not in self._overlapping[0 if forward or self.rel_symmetric[relation] else 1]

    def use_overlap_keys(self, keys: Mapping[bool, Collection[int]]) -> None:
        """Give :meth:`one_at` its overlapping group keys worked out elsewhere (both directions, by ``forward``).

        Each value is what :func:`~chronoqa.generate.kg.sql.overlap.overlap_keys_by_sql` returns for the index as
        it stands: give them after :meth:`mark_implausible` (an implausible fact has no certain span).
        """
        self._overlapping = (frozenset(keys[True]), frozenset(keys[False]))

    def per_term(self, relation: int) -> bool:
        """True for a state relation the data stores per term (one spell in the graph need not be a whole tenure).

        Such a relation splits a holder's tenure into adjacent spells of one (s, r, o): of its triples with a
        dated, kept fact, at least :data:`PER_TERM_SHARE` (and :data:`PER_TERM_MIN` triples) hold a spell that
        starts at most one unit after another one's end (Wikidata12k: member of sports team, position held,
        member of; a deputy's 2002-2007 and 2007-2012 legislatures). The graph is a subset of its source, so a
        single spell of such a relation may be one term of several: its length is not asked.
        """
        if self._per_term is None:
            t = self.table  # the five columns read, one at a time, as they are (int32): never a copy of whole rows
            state = ~np.asarray(self.rel_event, dtype=bool)[t[:, Col.R]]
            rows = np.flatnonzero(state & ~self.ignored_mask & (t[:, Col.SU] != NONE))
            # in (s, r, o, start) order, sorted as two int64 keys, (s, r) and (o, start): fewer passes than four
            sr = t[rows, Col.S].astype(np.int64)
            sr *= self.n_rel
            sr += t[rows, Col.R]
            o_su = t[rows, Col.O].astype(np.int64)
            o_su <<= 32
            o_su += t[rows, Col.SU]
            o_su -= NONE  # a start is never NONE here: the key stays in (o << 32) + [1, 2 ** 32)
            rows = rows[np.lexsort((o_su, sr))]
            del sr, o_su
            s_, r_, o_, su, eu = (t[rows, c] for c in (Col.S, Col.R, Col.O, Col.SU, Col.EU))
            del rows
            same = (s_[:-1] == s_[1:]) & (r_[:-1] == r_[1:]) & (o_[:-1] == o_[1:])
            gap = su[1:].astype(np.int64) - eu[:-1]  # int64: an end NONE would wrap in int32 (it is masked)
            adjacent = same & (eu[:-1] != NONE) & (gap >= 0) & (gap <= 1)
            del gap, su, eu
            first = np.ones(len(s_), dtype=bool)
            first[1:] = ~same  # one row per triple
            triple = np.cumsum(first, dtype=np.int32) - 1  # each row's triple
            split = np.unique(triple[1:][adjacent])  # the triples holding a spell that touches another
            triples = np.bincount(r_[first], minlength=self.n_rel)
            n_split = np.bincount(r_[np.flatnonzero(first)[split]], minlength=self.n_rel)
            self._per_term = (n_split >= PER_TERM_MIN) & (n_split >= PER_TERM_SHARE * triples)
        return bool(self._per_term[relation])

    def tenure_end(self, fid: int) -> bool:
        """True when the fact's recorded end may be read as the end of a tenure (a question may rest on it).

        Every end does, except that of a spell of a relation stored per term (:meth:`per_term`), where one spell
        need not be the whole tenure: spells of one (s, r, o) that touch (the next starts at most one unit after
        the previous end) are one tenure, whose only end is its last; and that end is read as the tenure's only
        where the data corroborates it: in a ``one`` direction another value starts in the end unit or the next
        (he joined another club; for an office held by one at a time, the successor took it). Otherwise no
        question rests on the end (:func:`~chronoqa.generate.kg.tenure.tenure_reason`); starts stay usable.
        """
        if self._tenure_end is None:
            self._tenure_end = np.ones(len(self.table), dtype=bool)
            terms = [r for r in range(len(self.rel_names)) if not self.rel_event[r] and self.per_term(r)]
            if terms:
                self._tenure_end &= ~_unsure_ends(self, terms)
        return bool(self._tenure_end[fid])

    def mark_interrupted(self, relations: Collection[int], roles: Mapping[int, Mapping[int, str]]) -> None:
        """Mark the interrupted spells of ``relations`` (declared ``exclusive``: one value at a time in the world).

        A dated, closed spell is interrupted where another kept spell of the same subject, relation and role
        (``roles``: relation -> object -> role key, national teams beside clubs; absent: the relation's own) with
        another object starts in its start unit or later and before its end unit (Cassius M. Clay a Republican
        1854-1903 while a Liberal Republican from 1870): the spell is no membership of that length, so no question
        rests on its end, its length or its holding on (:meth:`interrupted`). A start in the end unit is a switch.
        """
        t, out = self.table, set()
        by_group: dict[tuple[int, int, str], list[tuple[int, int, int, int]]] = {}
        for fid in np.flatnonzero(np.isin(t[:, Col.R], list(relations)) & ~self.ignored_mask).tolist():
            s_, r, o, su, eu = (int(t[fid, c]) for c in (Col.S, Col.R, Col.O, Col.SU, Col.EU))
            by_group.setdefault((s_, r, roles.get(r, {}).get(o, "")), []).append((fid, o, su, eu))
        for spells in by_group.values():
            for fid, o, su, eu in spells:
                if su != NONE and eu != NONE and any(
                    o2 != o and s2 != NONE and su <= s2 < eu for _, o2, s2, _ in spells
                ):  # fmt: skip
                    out.add(fid)
        self._interrupted = frozenset(out)

    def interrupted(self, fid: int) -> bool:
        """True for a spell :meth:`mark_interrupted` marked (another value of an exclusive relation starts in it)."""
        return fid in self._interrupted

    def end_recorded(self, fid: int) -> bool:
        """True when a question may name or compare the fact's end.

        The data records one and the relation's ends are events of the world (not declared ``end_unknown``:
        Wikidata's "instance of" spells). An open end is unknown, never a guess (rule ``end of an open fact``,
        :mod:`~chronoqa.generate.kg.tenure`).
        """
        return int(self.table[fid, Col.EU]) != NONE and int(self.table[fid, Col.R]) not in self.unknown_end_rels

    def usable(self, fid: int) -> bool:
        """True for a fact that may be gold, a reference or a negative (not ignored, not implausible)."""
        if self._usable is None:
            assert self.implausible_mask is not None
            self._usable = (~(self.ignored_mask | self.implausible_mask)).tobytes()
        return self._usable[fid] == 1

    def single_triple(self, fid: int) -> bool:
        """True for the only kept fact with its (s, r, o) (``triple_count`` 1): a question may name it without time."""
        if self._single is None:
            self._single = (self.triple_count == 1).tobytes()
        return self._single[fid] == 1

    def horizon(self) -> int:
        """The data's horizon: the last unit of the latest year holding :data:`HORIZON_SHARE` of the graph's dates.

        The dates are the known starts and ends of the facts valid somewhere; a stray late date (YAGO11k's 2600)
        holds no share. ``NEG`` for a graph without dates. Worked out once.
        """
        if self._horizon is None:
            keep = ~self.ignored_mask
            units = np.concatenate([self.table[keep, Col.SU], self.table[keep, Col.EU]])
            units = units[units != NONE]
            self._horizon = NEG
            if len(units):
                values, counts = np.unique(units, return_counts=True)
                years: dict[int, int] = {}
                for u, c in zip(values.tolist(), counts.tolist(), strict=True):
                    y = TimePoint.from_unit(u, self.granularity).year
                    years[y] = years.get(y, 0) + c
                floor = HORIZON_SHARE * len(units)
                top = max(y for y, c in years.items() if c >= floor)
                self._horizon = max(u for u in values.tolist() if TimePoint.from_unit(u, self.granularity).year == top)
        return self._horizon

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
        """Slice ``[a, b)`` of the adjacency table holding the group (entity, relation, direction).

        Each group is searched once and remembered (a build asks the same groups again and again; it holds those
        it asked, never every group of the graph).
        """
        got = self._groups.get((entity, relation, forward))
        if got is None:
            keys = self.out_keys if forward else self.in_keys
            k = keys.dtype.type(entity * self.n_rel + relation)  # a key of the array's dtype: no cast of the array
            got = int(keys.searchsorted(k, "left")), int(keys.searchsorted(k, "right"))
            self._groups[(entity, relation, forward)] = got
        return got

    def bounds(self, entity: int, forward: bool) -> tuple[int, int]:
        """Slice ``[a, b)`` of the adjacency table holding all rows of ``entity`` in one direction.

        Every entity's first row is found once per direction (one vectorised search), then read here.
        """
        start = self._ent_start.get(forward)
        if start is None:
            keys = self.out_keys if forward else self.in_keys
            firsts = np.arange(len(self.ent_names) + 1, dtype=np.int64) * self.n_rel  # (entity + 1) * n_rel fits
            start = self._ent_start[forward] = keys.searchsorted(firsts.astype(keys.dtype), "left")
        return int(start[entity]), int(start[entity + 1])

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

    def group_array(self, entity: int, relation: int, forward: bool) -> np.ndarray:
        """The rows of :meth:`group` as one read-only int32 array: a hub's group is tested whole, not listed."""
        return self.rows_array(forward, *self.group_bounds(entity, relation, forward))

    def incident(self, entity: int, forward: bool) -> list[list[int]]:
        """All adjacency rows of ``entity`` in one direction, sorted by relation then fact id."""
        return self.rows(forward, *self.bounds(entity, forward))

    def nameable(self, fid: int) -> bool:
        """True for a fact a question may name by its (s, r, o) alone: usable and the only fact of its triple."""
        return self.usable(fid) and self.single_triple(fid)

    def nameable_rows(self, entity: int) -> list[list[int]]:
        """The rows of ``entity``, outgoing then incoming (as :meth:`incident`), of its :meth:`nameable` facts.

        Read only. Each entity's list is made once and remembered (the drafts ask the same entities again and
        again; only the entities asked are held), until a fact is marked implausible.
        """
        got = self._nameable.get(entity)
        if got is None:
            got = [row for fw in (True, False) for row in self.incident(entity, fw) if self.nameable(row[Col.FID])]
            self._nameable[entity] = got
        return got


def _unsure_ends(idx: GraphIndex, terms: Sequence[int]) -> np.ndarray:
    """Per fact: a dated end of one of ``terms`` (per-term relations) that :meth:`GraphIndex.tenure_end` rejects."""
    t = idx.table
    out = np.zeros(len(t), dtype=bool)
    rows = np.flatnonzero(np.isin(t[:, Col.R], terms) & ~idx.ignored_mask & (t[:, Col.SU] != NONE))
    s_, r_, o_, su = (t[rows, c].astype(np.int64) for c in (Col.S, Col.R, Col.O, Col.SU))
    eu = t[rows, Col.EU].astype(np.int64)
    reach = np.where(eu == NONE, POS, eu)  # an open end: the tenure runs on, no end of it is known
    order = np.lexsort((reach, su, o_, r_, s_))
    rows, s_, r_, o_, su, reach = rows[order], s_[order], r_[order], o_[order], su[order], reach[order]
    new_triple = np.ones(len(rows), dtype=bool)
    new_triple[1:] = (s_[1:] != s_[:-1]) | (r_[1:] != r_[:-1]) | (o_[1:] != o_[:-1])
    gid = np.cumsum(new_triple) - 1
    # the furthest end reached so far in the triple (int64: the triple's number above the shifted unit)
    run = np.maximum.accumulate((gid << 33) + (reach - NEG))
    before = np.empty_like(run)
    before[0], before[1:] = -1, run[:-1]
    prev_reach = np.where(new_triple, NEG - 2, (before & ((1 << 33) - 1)) + NEG)
    starts = new_triple | (su > prev_reach + 1)  # a spell not touching the tenure so far starts a new one
    tenure = np.cumsum(starts) - 1
    last = np.maximum.reduceat(reach, np.flatnonzero(starts))[tenure]
    dated = reach != POS
    interior = dated & (reach < last)
    ends = dated & ~interior & (last != POS)
    followed = np.zeros(len(rows), dtype=bool)
    for forward in (True, False):
        if any(idx.one(r, forward) for r in terms):
            followed |= _successor(idx, rows, forward, terms) & ends
    out[rows[interior | (ends & ~followed)]] = True
    return out


def _successor(idx: GraphIndex, rows: np.ndarray, forward: bool, terms: Sequence[int]) -> np.ndarray:
    """Per row: in a ``one`` direction, its entity's value changes at its end (another starts then or a unit on)."""
    t = idx.table
    ent, other = (Col.S, Col.O) if forward else (Col.O, Col.S)
    one = np.array([r in terms and idx.one(r, forward) for r in range(idx.n_rel)], dtype=bool)
    cand = np.flatnonzero(one[t[:, Col.R]] & ~idx.ignored_mask & (t[:, Col.SU] != NONE))
    found = np.zeros(len(rows), dtype=bool)
    if not len(cand) or not len(rows):
        return found
    lo_unit = int(t[cand, Col.SU].min())
    span = max(int(t[rows, Col.EU].max()), int(t[cand, Col.SU].max())) - lo_unit + 3
    n_ent = max(len(idx.ent_names), 1)
    if n_ent * n_ent * idx.n_rel * span >= 1 << 62:  # the keys would overflow int64: corroborate nothing
        return found

    def keys(fids: np.ndarray, unit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        group = t[fids, ent].astype(np.int64) * idx.n_rel + t[fids, Col.R]
        at = unit.astype(np.int64) - lo_unit
        return group * span + at, (group * n_ent + t[fids, other]) * span + at

    by_group, by_value = (np.sort(k) for k in keys(cand, t[cand, Col.SU]))
    for step in (0, 1):  # another value starting in the end unit or the next
        g, v = keys(rows, t[rows, Col.EU].astype(np.int64) + step)
        n_any = np.searchsorted(by_group, g, "right") - np.searchsorted(by_group, g, "left")
        n_same = np.searchsorted(by_value, v, "right") - np.searchsorted(by_value, v, "left")
        found |= n_any > n_same
    return found & one[t[rows, Col.R]]
