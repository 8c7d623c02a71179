"""Chains of facts over the graph index: the drafts every operator makes, and the search they share.

A :class:`Draft` is the logical content of a question before it is put into words. An operator's ``draft``
function (see :mod:`chronoqa.generate.kg.operators`) draws one candidate from the index with the cell's seeded
RNG and either returns a draft whose answer is verified unique on the full index, or ``None``.

Definitions (``t`` is a unit at the question granularity; "possible"/"certain" as in
:func:`chronoqa.time.valid_at`; reversed facts are ignored everywhere):

* time-dependent hop from entity ``e`` over ``(r, dir)`` at ``t``: the set of other endpoints of the
  facts of ``(e, r, dir)`` *possibly* valid at ``t`` must be exactly ``{x}``, and one such fact must be
  *certainly* valid at ``t`` (that fact enters ``S*``). Used by every hop of point_in_time and
  before_after chains (:func:`draw_chain`, :func:`unique_at`), so every intermediate hop is unique at
  ``t`` too.
* static hop (interval and sequence chains, whose ``t`` is the answer; :func:`static_prefix`): the set of
  other endpoints of *all* facts of ``(e, r, dir)`` is exactly ``{x}``; the fact entering ``S*`` is
  certainly valid at ``t``.

Each operator's own definition is in its module's docstring.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import TYPE_CHECKING, TypeVar, overload

import numpy as np

from chronoqa.generate.kg.index import NONE, POS, Col, GraphIndex
from chronoqa.generate.kg.operators.base import AnswerKind
from chronoqa.time import Granularity

if TYPE_CHECKING:
    from chronoqa.generate.kg.bridges import Bridges
    from chronoqa.generate.kg.modelling import Modelling
    from chronoqa.generate.kg.regime import Regimes

__all__ = [
    "HUB_CAP",
    "SEQ_SEED_TRIES",
    "TIME_FREE_CAP",
    "Draft",
    "GenContext",
    "Hop",
    "SeedList",
    "Spans",
    "askable_at",
    "build_chain_pool",
    "build_static_into",
    "certain",
    "draw_chain",
    "draw_final_fact",
    "draw_named_fact",
    "final_facts",
    "first_askable",
    "follow",
    "incident_sample",
    "nameable_sample",
    "pick_unit",
    "possible",
    "prefix_needed",
    "reach",
    "reference_rows",
    "static_depths",
    "static_options",
    "static_prefix",
    "strictly_inside",
    "time_and_hops_matter",
    "times_of",
    "unique_at",
]

K = TypeVar("K")  # what a caller keys a candidate time by (first_askable)
HUB_CAP = 512  # larger neighbourhoods are sampled, larger groups skipped (never unique in practice)
# interval / sequence chains of 2+ hops: redraws per attempt for an entity with a static hop into it
SEQ_SEED_TRIES = 16
# the time-free reading of a path stops counting answers beyond this many
TIME_FREE_CAP = 1000


@dataclass(frozen=True, slots=True)
class Hop:
    """One fact of a chain, traversed from ``src`` to ``dst`` (``forward``: ``src`` is the subject)."""

    fid: int
    rel: int
    forward: bool
    src: int
    dst: int


@dataclass(frozen=True, slots=True)
class Draft:
    """The logical content of one question (see the module docstring)."""

    operator: str  # the operator's registry name
    variant: str  # the operator's own reading (point_in_time: plain; before_after: after | before; ...)
    anchor: int
    hops: tuple[Hop, ...]
    t: int
    answers: tuple[int, ...]  # entity ids, or (time unit,) for time answers
    kind: AnswerKind
    extra_fids: tuple[int, ...] = ()  # further answer facts of a multi-answer question (S*)
    ref_fid: int = -1  # S_anchor fact
    offset: int = 0  # before_after: -1 / +1
    static_prefix: bool = False
    time_free: int = -1  # answers of the time-free reading (TIME_FREE_CAP: at least that many; -1: n/a)
    assumes_complete: bool = False  # the gold holds only if the graph is complete (first / last ever)
    outdated: tuple[int, ...] = ()  # entity ids that answered the question before t (present_state)
    horizon: int | None = None  # sequence "last": the unit up to which the question ranks (the data's horizon)
    pins: tuple[int | None, ...] = ()  # per bridge (hops[:-1]): the unit its words state ("as of 1995"), or None

    @property
    def n_hops(self) -> int:
        """Number of facts in the chain."""
        return len(self.hops)


Spans = list[tuple[int, int]]


@dataclass(frozen=True, eq=False)
class SeedList(Sequence[tuple[int, bool]]):
    """Chain seeds ``(fact position, anchor is the subject)`` held as two arrays (a tuple made when one is drawn)."""

    fids: np.ndarray  # int64
    subject: np.ndarray  # bool

    def __len__(self) -> int:
        return len(self.fids)

    @overload
    def __getitem__(self, i: int) -> tuple[int, bool]: ...
    @overload
    def __getitem__(self, i: slice) -> list[tuple[int, bool]]: ...
    def __getitem__(self, i: int | slice) -> tuple[int, bool] | list[tuple[int, bool]]:
        """The seed at position ``i`` (or the list of a slice)."""
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return int(self.fids[i]), bool(self.subject[i])

    def __iter__(self) -> Iterator[tuple[int, bool]]:
        return zip(self.fids.tolist(), self.subject.tolist(), strict=True)


@dataclass
class GenContext:
    """What a draft function needs: the index, the unit range of ``t``, the multi-answer policy, seed facts."""

    index: GraphIndex
    t_min: int
    t_max: int
    keep_multi: bool
    seedable: Sequence[tuple[int, bool]]  # (fact, anchor is subject): certain inside [t_min, t_max], first hop one
    timed: Sequence[int] | np.ndarray  # facts with a start known at the granularity (non-reversed)
    pool: dict[int, list[tuple[tuple[Hop, ...], Spans]]] | None = None  # k -> every time-unique chain
    static_into: list[list[tuple[Hop, int, int]]] | None = None  # entity -> every static hop into it
    static_depth: list[int] | None = None  # entity -> longest chain of static hops into it (time ignored, capped)
    seed_multi: Sequence[tuple[int, bool]] | None = None  # seeds whose (anchor, relation) has several values over time
    granularity: Granularity = Granularity.YEAR  # of t and of time answers
    life: frozenset[int] = frozenset()  # relations that date their subject's life (phrase table role birth / death)
    careers: frozenset[int] = frozenset()  # relations whose spells read as one career (phrase table ``career``)
    entity_subset: bool = False  # the graph is a subset of its source's entities (phrase table ``entity_subset``)
    # relation -> object -> the role its label marks (phrase table ``roles``: national teams); relations with roles
    object_roles: Mapping[int, Mapping[int, str]] = field(default_factory=dict)
    regimes: Regimes | None = None  # containment across regimes (generate.kg.regime); None: none declared
    modelling: Modelling | None = None  # circular chains, status at founding (generate.kg.modelling); None: no rule
    bridges: Bridges | None = None  # declared bridges and hub entities (generate.kg.bridges); None: no rule
    pool_removed: dict[int, Counter[str]] = field(default_factory=dict)  # k -> pool chains the bridge rules removed
    static_removed: Counter[str] = field(default_factory=Counter)  # static hops the bridge rules removed, by rule
    finals: dict[int, np.ndarray] = field(default_factory=dict)  # k -> final_facts(k), made when first drawn
    # (chain, unit) -> unique_at's verdict: a cell draws the same chain again and again, the check reads the index once
    unique_memo: dict[tuple[tuple[Hop, ...], int], tuple[tuple[int, ...], tuple[int, ...]] | None] = field(
        default_factory=dict
    )
    # why the current draw made no draft: set by the rule that decided (the cell counts it; "" before a draw)
    miss: str = ""
    drawn: tuple[int, ...] = ()  # the candidate the current draw drew: its chain's facts, or (final fact, entity)


def certain(row: list[int], t: int) -> bool:
    """The index row's fact is certainly valid at unit ``t``."""
    return row[Col.ACLO] <= t <= row[Col.ACHI]


def possible(row: list[int], t: int) -> bool:
    """The index row's fact is possibly valid at unit ``t``."""
    return row[Col.APLO] <= t <= row[Col.APHI]


def incident_sample(idx: GraphIndex, e: int, rng: random.Random, cap: int = HUB_CAP) -> list[tuple[bool, list[int]]]:
    """``(forward, row)`` for the rows of ``e`` in both directions; a random ``cap`` of them for a hub."""
    (a1, b1), (a2, b2) = idx.bounds(e, True), idx.bounds(e, False)
    n1, n2 = b1 - a1, b2 - a2
    if n1 + n2 <= cap:
        return [(True, r) for r in idx.rows(True, a1, b1)] + [(False, r) for r in idx.rows(False, a2, b2)]
    picks = sorted(rng.sample(range(n1 + n2), cap))
    fw = np.array([p + a1 for p in picks if p < n1], dtype=np.int64)
    bw = np.array([p - n1 + a2 for p in picks if p >= n1], dtype=np.int64)
    return [(True, r) for r in idx.rows_at(True, fw)] + [(False, r) for r in idx.rows_at(False, bw)]


REF_SAMPLE = 64  # rows of an entity read per draft in search of a reference fact (a random sample of a hub's)


def reference_rows(
    idx: GraphIndex, rng: random.Random, entities: Sequence[int], used: set[int], nodes: set[int], cap: int = REF_SAMPLE
) -> list[list[int]]:
    """Adjacency rows of facts that may date a question about a chain, read from the named ``entities``' own.

    The one rule of the reference facts of before/after, relative and two-facts questions: a fact of an entity
    the question names (so the two facts share it, never two unrelated facts joined by a date), not a fact of the chain
    (``used``), its other end off the chain (``nodes``: no second chain entity, no answer), usable, and the only
    fact of its (s, r, o) (so "when X joined Y" names one time). A hub's rows are sampled (``cap`` each).
    """
    out = []
    for e in entities:
        out += [r for r in nameable_sample(idx, e, rng, cap) if r[Col.FID] not in used and r[Col.OTHER] not in nodes]
    return out


def nameable_sample(idx: GraphIndex, e: int, rng: random.Random, cap: int) -> list[list[int]]:
    """The rows of :func:`incident_sample` whose facts a question may name by their triple (``idx.nameable``).

    A hub's rows are sampled as :func:`incident_sample` does (the same draws); another entity's, which draw nothing,
    are read from the index's per-entity list (made once per entity).
    """
    (a1, b1), (a2, b2) = idx.bounds(e, True), idx.bounds(e, False)
    if b1 - a1 + b2 - a2 <= cap:
        return idx.nameable_rows(e)
    return [row for _, row in incident_sample(idx, e, rng, cap=cap) if idx.nameable(row[Col.FID])]


def first_askable(
    ctx: GenContext, anchor: int, hops: list[Hop], times: Sequence[tuple[K, int]]
) -> tuple[K, int, tuple[tuple[int, ...], tuple[int, ...]], int] | None:
    """The first ``(key, t)`` of ``times`` at which a point-in-time chain may be asked: ``(key, t, unique, time_free)``.

    Every hop unique and certain at ``t`` (:func:`unique_at`), and the time and every hop matter
    (:func:`time_and_hops_matter`): the rule of the questions that ask a chain at a time resolved from a reference
    fact (before/after, relative, two facts).
    """
    for key, t in times:
        ok = unique_at(ctx, hops, t)
        if ok is None:
            ctx.miss = "not unique at the drawn unit"
            continue
        tf = time_and_hops_matter(ctx.index, anchor, hops, t, ok[0])
        if tf is not None:
            return key, t, ok, tf
        ctx.miss = "time or a hop does not matter"
    return None


def static_options(
    idx: GraphIndex, c: int, t: int, visited: set[int], rng: random.Random, limit: int = 40
) -> list[Hop]:
    """Static hops *into* ``c`` (``a → c``), fact certainly valid at ``t`` (at most ``limit`` rows checked)."""
    cands: list[tuple[bool, list[int]]] = []
    # forward: the hop a → c follows a fact (a, r, c), so c is the object (an incoming row of c);
    # a symmetric relation's rows are all outgoing, and it is traversed forward
    for into_forward, row in incident_sample(idx, c, rng):
        fw = True if idx.rel_symmetric[row[Col.AR]] else not into_forward
        if row[Col.OTHER] not in visited and row[Col.OTHER] != c and certain(row, t) and idx.one(row[Col.AR], fw):
            cands.append((fw, row))
    rng.shuffle(cands)
    out: list[Hop] = []
    for forward, row in cands[:limit]:
        a, r = row[Col.OTHER], row[Col.AR]
        if idx.group_size(a, r, forward) > HUB_CAP:
            continue
        others = {x[Col.OTHER] for x in idx.group(a, r, forward)}
        if others == {c}:
            out.append(Hop(row[Col.FID], r, forward, a, c))
    return out


def static_prefix(
    ctx: GenContext, rng: random.Random, end: int, t: int, k: int, visited: set[int], *, time_free: bool = True
) -> tuple[int, tuple[Hop, ...]] | None:
    """``k`` static hops ending at ``end`` (depth-first, bounded); returns (anchor, hops in chain order).

    Every hop names an intermediate entity, so only hops the bridge rules allow are taken (``time_free``: the
    question shows no time; see :mod:`chronoqa.generate.kg.bridges`).
    """
    budget = [12]
    br = ctx.bridges
    barred = Counter[str]()  # hops the bridge rules kept out of the search, by rule

    def options(cur: int, seen: set[int]) -> list[Hop]:
        if ctx.static_into is None:
            opts = static_options(ctx.index, cur, t, seen, rng)
        else:
            opts = [h for h, lo, hi in ctx.static_into[cur] if lo <= t <= hi and h.src not in seen]
            rng.shuffle(opts)
        if br is not None:
            why = [br.hop_reason(ctx.index, h, t, time_free=time_free) for h in opts]
            barred.update(w for w in why if w is not None)
            opts = [h for h, w in zip(opts, why, strict=True) if w is None]
        return opts

    def dfs(cur: int, depth: int, seen: set[int]) -> list[Hop] | None:
        if depth == k:
            return []
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        for hop in options(cur, seen):
            rest = dfs(hop.src, depth + 1, seen | {hop.src})
            if rest is not None:
                return [hop, *rest]
        return None

    found = dfs(end, 0, set(visited) | {end})
    if found is None:
        ctx.miss = (
            min(barred, key=lambda w: (-barred[w], w)) if barred
            else "static prefix search budget spent" if budget[0] <= 0
            else "no static hop certain at the answer time"
        )  # fmt: skip
        return None
    anchor = found[-1].src if found else end
    return anchor, tuple(reversed(found))


def _subtract(spans: Spans, lo: int, hi: int) -> Spans:
    out: Spans = []
    for a, b in spans:
        if hi < a or lo > b:
            out.append((a, b))
            continue
        if a < lo:
            out.append((a, lo - 1))
        if hi < b:
            out.append((hi + 1, b))
    return out


def _intersect(spans: Spans, lo: int, hi: int) -> Spans:
    return [(max(a, lo), min(b, hi)) for a, b in spans if max(a, lo) <= min(b, hi)]


def strictly_inside(idx: GraphIndex, hops: Sequence[Hop], spans: Spans) -> Spans:
    """``spans`` narrowed to the units strictly inside the recorded spell of every state hop of ``hops``.

    A spell's start or end unit is one in which the state changes: at the data's granularity who held it then is
    not determined (a marriage recorded to 1984 may have ended in 1983), so no state is asked there.
    """
    for h in hops:
        row = idx.fact_row(h.fid)
        if idx.rel_event[row[Col.R]]:
            continue
        lo = row[Col.SU] + 1 if row[Col.SU] != NONE else -POS
        hi = row[Col.EU] - 1 if row[Col.EU] != NONE else POS
        spans = _intersect(spans, lo, hi)
    return spans


def pick_unit(spans: Spans, rng: random.Random) -> int:
    """One unit drawn uniformly from ``spans`` with ``rng``."""
    total = sum(b - a + 1 for a, b in spans)
    k = rng.randrange(total)
    for a, b in spans:
        if k <= b - a:
            return a + k
        k -= b - a + 1
    raise AssertionError("unreachable")


def _aligned_chain(
    ctx: GenContext, rng: random.Random, anchor: int, k: int, lo: int, hi: int, fanout: int = 8
) -> tuple[list[Hop], Spans] | None:
    """A chain of k facts from ``anchor`` with the units where every hop is unique and certain.

    Each hop keeps the units of ``[lo, hi]`` where its fact is certainly valid and no fact of the same
    (entity, relation, direction) group towards another endpoint is possibly valid; the chain's units
    are the intersection (with ``keep_multi`` the final hop keeps its certain span only: the answer
    set is verified afterwards).
    """
    idx = ctx.index
    budget = [20 * k]

    def dfs(cur: int, depth: int, spans: Spans, seen: set[int]) -> tuple[list[Hop], Spans] | None:
        if depth == k:
            return [], spans
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        final = depth == k - 1
        rows = incident_sample(idx, cur, rng)
        groups: dict[tuple[bool, int], list[list[int]]] = {}
        for forward, row in rows:
            groups.setdefault((forward, row[Col.AR]), []).append(row)
        if len(rows) >= HUB_CAP:  # sampled: fetch the full groups (skipping giant ones)
            for fw, r in list(groups):
                groups[(fw, r)] = idx.group(cur, r, fw) if idx.group_size(cur, r, fw) <= HUB_CAP else []
        rng.shuffle(rows)
        tried = 0
        for forward, row in rows:
            other = row[Col.OTHER]
            multi_ok = final and ctx.keep_multi  # several answers asked for: the entity's overlap is the point
            if other in seen or other == cur:
                continue
            if not (idx.one(row[Col.AR], forward) if multi_ok else idx.one_at(cur, row[Col.AR], forward)):
                continue
            win = _intersect(spans, row[Col.ACLO], row[Col.ACHI])
            if not groups[(forward, row[Col.AR])]:
                continue
            if not (final and ctx.keep_multi):
                for x in groups[(forward, row[Col.AR])]:
                    if not win:
                        break
                    if x[Col.OTHER] != other:
                        win = _subtract(win, x[Col.APLO], x[Col.APHI])
            if not win:
                continue
            tried += 1
            rest = dfs(other, depth + 1, win, seen | {other})
            if rest is not None:
                return [Hop(row[Col.FID], row[Col.AR], forward, cur, other), *rest[0]], rest[1]
            if tried >= fanout:
                break
        return None

    return dfs(anchor, 0, [(lo, hi)], {anchor})


def unique_at(ctx: GenContext, hops: list[Hop], t: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Check every hop is unique at ``t`` (final hop: several answers allowed with ``keep_multi``).

    Returns ``(answers, extra answer facts)``, or ``None``; remembered per chain and unit (``ctx.unique_memo``).
    """
    key = (tuple(hops), t)
    if key not in ctx.unique_memo:
        ctx.unique_memo[key] = _unique_at(ctx, hops, t)
    return ctx.unique_memo[key]


def _unique_at(ctx: GenContext, hops: list[Hop], t: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """:func:`unique_at`, worked out on the index."""
    answers: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()
    seen = {hops[0].src}
    idx = ctx.index
    for i, h in enumerate(hops):
        a, b = idx.group_bounds(h.src, h.rel, h.forward)
        grp = idx.rows_array(h.forward, a, b)  # an array: a hub's group is never a list
        possible = sorted(set(grp[(grp[:, Col.APLO] <= t) & (t <= grp[:, Col.APHI]), Col.OTHER].tolist()))
        final = i == len(hops) - 1
        if possible != [h.dst] and not (final and ctx.keep_multi and h.dst in possible and len(possible) > 1):
            return None
        if any(x in seen for x in possible):
            return None
        seen.update(possible)
        if final:
            answers = tuple(possible)
            more = []
            for x in possible:
                if x == h.dst:
                    continue
                cert = grp[(grp[:, Col.OTHER] == x) & (grp[:, Col.ACLO] <= t) & (t <= grp[:, Col.ACHI]), Col.FID]
                if not len(cert):
                    return None
                more.append(int(cert[0]))
            extra = tuple(more)
    return answers, extra


def build_chain_pool(
    idx: GraphIndex, t_min: int, t_max: int, ks: range, cap: int = 200_000
) -> dict[int, list[tuple[tuple[Hop, ...], Spans]]]:
    """Every chain of k facts (k in ``ks``, distinct entities) with the units where each hop is unique and certain.

    Exhaustive, so only used on graphs small enough (see ``KGBuildConfig.exhaustive_max_facts``); at most
    ``cap`` chains per k, in a deterministic order.
    """
    hop_table: list[list[tuple[Hop, Spans]]] = []
    for e in range(len(idx.ent_names)):
        groups: dict[tuple[bool, int], list[list[int]]] = {}
        for forward in (True, False):
            a, b = idx.bounds(e, forward)
            for row in idx.rows(forward, a, b):
                groups.setdefault((forward, row[Col.AR]), []).append(row)
        out: list[tuple[Hop, Spans]] = []
        for (forward, r), grp in groups.items():
            if len(grp) > HUB_CAP or not idx.one_at(e, r, forward):
                continue
            for row in grp:
                if row[Col.OTHER] == e:
                    continue
                win = _intersect([(t_min, t_max)], row[Col.ACLO], row[Col.ACHI])
                for x in grp:
                    if not win:
                        break
                    if x[Col.OTHER] != row[Col.OTHER]:
                        win = _subtract(win, x[Col.APLO], x[Col.APHI])
                if win:
                    out.append((Hop(row[Col.FID], r, forward, e, row[Col.OTHER]), win))
        hop_table.append(out)
    pool: dict[int, list[tuple[tuple[Hop, ...], Spans]]] = {k: [] for k in ks}
    kmax = max(ks, default=0)

    def extend(chain: list[Hop], spans: Spans, seen: set[int]) -> None:
        k = len(chain)
        if k in pool:
            if len(pool[k]) >= cap:
                return
            pool[k].append((tuple(chain), spans))
        if k >= kmax:
            return
        for hop, win in hop_table[chain[-1].dst]:
            if hop.dst in seen:
                continue
            both: Spans = []
            for lo, hi in win:
                both += _intersect(spans, lo, hi)
            if both:
                extend([*chain, hop], both, seen | {hop.dst})

    for e, hops in enumerate(hop_table):
        for hop, win in hops:
            extend([hop], win, {e, hop.dst})
    return pool


def build_static_into(idx: GraphIndex) -> list[list[tuple[Hop, int, int]]]:
    """Per entity ``x``, every static hop ``a → x`` (``(a, r, dir)`` leads to ``x`` only) with its certain span."""
    into: list[list[tuple[Hop, int, int]]] = [[] for _ in idx.ent_names]
    for a in range(len(idx.ent_names)):
        for forward in (True, False):
            lo, hi = idx.bounds(a, forward)
            for r, grp_iter in groupby(idx.rows(forward, lo, hi), key=lambda row: row[Col.AR]):
                grp = list(grp_iter)
                if not idx.one(r, forward):
                    continue
                x = grp[0][Col.OTHER]
                if x == a or any(row[Col.OTHER] != x for row in grp):
                    continue
                for row in grp:
                    into[x].append((Hop(row[Col.FID], r, forward, a, x), row[Col.ACLO], row[Col.ACHI]))
    return into


def static_depths(static_into: list[list[tuple[Hop, int, int]]], cap: int) -> list[int]:
    """Per entity, the longest chain (at most ``cap``) of static hops ending at it, ignoring time and repeats."""
    depth = [0] * len(static_into)
    for _ in range(cap):
        depth = [min(cap, max((1 + depth[h.src] for h, _, _ in into), default=0)) for into in static_into]
    return depth


def draw_chain(ctx: GenContext, rng: random.Random, k: int) -> tuple[int, list[Hop], Spans] | None:
    """A chain of k hops: from the exhaustive pool when there is one, else by the bounded search."""
    if ctx.pool is not None and k in ctx.pool and not ctx.keep_multi:
        chains = ctx.pool[k]
        if not chains:
            ctx.miss = "no chain the rules leave in the pool"
            return None
        hops_t, spans = chains[rng.randrange(len(chains))]
        ctx.drawn = tuple(h.fid for h in hops_t)
        return hops_t[0].src, list(hops_t), spans
    seeds = ctx.seed_multi if k == 1 and ctx.seed_multi is not None else ctx.seedable
    if not seeds:
        ctx.miss = "no chain of k facts unique and certain at a unit"
        return None
    fid, subject = seeds[rng.randrange(len(seeds))]
    row = ctx.index.fact_row(fid)
    anchor = row[Col.S] if subject else row[Col.O]
    chain = _aligned_chain(ctx, rng, anchor, k, ctx.t_min, ctx.t_max)
    if chain is None:
        ctx.miss = "no chain of k facts unique and certain at a unit"
        return None
    ctx.drawn = tuple(h.fid for h in chain[0])
    return anchor, chain[0], chain[1]


def draw_final_fact(ctx: GenContext, rng: random.Random, k: int) -> tuple[int, list[int], bool, int, int] | None:
    """The final fact of an interval or sequence chain: ``(fact, its row, forward, e, other endpoint)``.

    A fact with a start known at the granularity, read from its subject or its object at random (``e``, the
    entity the chain reaches; a symmetric relation is traversed forward). A k-hop chain needs k-1 static hops
    into ``e``: with the static hops listed (``static_depth``), drawn from :func:`final_facts` only and read
    from an endpoint that has them; else redrawn up to :data:`SEQ_SEED_TRIES` times until ``e`` has them.
    """
    pool = final_facts(ctx, k) if k > 1 and ctx.static_depth is not None else ctx.timed
    if not len(pool):
        ctx.miss = "no fact with a start" if k == 1 else "no fact with k-1 bridge hops into it"
        return None
    idx = ctx.index
    for _ in range(SEQ_SEED_TRIES if k > 1 and ctx.static_depth is None else 1):
        fid = int(pool[rng.randrange(len(pool))])
        row = idx.fact_row(fid)
        forward = rng.random() < 0.5  # the chain reaches the subject (forward final hop) or the object
        if ctx.static_depth is not None and k > 1:  # an endpoint without the hops cannot be the one reached
            forward = ctx.static_depth[row[Col.S]] >= k - 1 and (forward or ctx.static_depth[row[Col.O]] < k - 1)
        e, other = (row[Col.S], row[Col.O]) if forward else (row[Col.O], row[Col.S])
        forward = forward or idx.rel_symmetric[row[Col.R]]  # a symmetric relation is traversed forward
        if ctx.static_depth is None or k == 1 or ctx.static_depth[e] >= k - 1:
            ctx.drawn = (fid, e)
            return fid, row, forward, e, other
    ctx.miss = "no k-1 bridge hops into the drawn facts"
    return None


def final_facts(ctx: GenContext, k: int) -> np.ndarray:
    """The facts with a start one of whose entities has k-1 static hops into it (``static_depth``), in order."""
    assert ctx.static_depth is not None
    if k not in ctx.finals:
        depth = np.asarray(ctx.static_depth, dtype=np.int64)
        timed = np.asarray(ctx.timed, dtype=np.int64)
        table = ctx.index.table  # two columns of the timed rows, not a copy of the rows (a table's size at 10M)
        ctx.finals[k] = timed[np.maximum(depth[table[timed, Col.S]], depth[table[timed, Col.O]]) >= k - 1]
    return ctx.finals[k]


def draw_named_fact(ctx: GenContext, rng: random.Random, k: int) -> tuple[int, list[int], bool, int, int] | None:
    """:func:`draw_final_fact`, kept only where the question can name the fact by its (s, r, o) alone.

    The fact of a duration, interval, yes/no or Allen question is named without its time ("when X joined Y"),
    so it must be the only fact of its (s, r, o) and usable (no implausible or invalid date).
    """
    drawn = draw_final_fact(ctx, rng, k)
    if drawn is None:
        return None
    if not ctx.index.single_triple(drawn[0]):
        ctx.miss = "the asked triple holds more than once"
        return None
    if not ctx.index.usable(drawn[0]):
        ctx.miss = "an implausible or invalid date"
        return None
    return drawn


def askable_at(ctx: GenContext, row: list[int], t: int) -> bool:
    """Unit ``t`` is inside the build's range of question times and the fact of ``row`` certainly holds at it."""
    return t != NONE and ctx.t_min <= t <= ctx.t_max and row[Col.CLO] <= t <= row[Col.CHI]


def follow(idx: GraphIndex, start: set[int], steps: list[tuple[int, bool]], t: int | None) -> set[int] | None:
    """Entities reached from ``start`` along ``steps`` over facts possibly valid at ``t`` (any time: ``None``).

    Returns ``None`` when a frontier grows beyond :data:`TIME_FREE_CAP` (too many to list).
    """
    cur = set(start)
    for r, forward in steps:
        nxt: set[int] = set()
        for e in sorted(cur):
            a, b = idx.group_bounds(e, r, forward)
            if b - a > TIME_FREE_CAP:
                return None
            for row in idx.rows(forward, a, b):
                if t is None or possible(row, t):
                    nxt.add(row[Col.OTHER])
        if len(nxt) > TIME_FREE_CAP:
            return None
        cur = nxt
    return cur


def times_of(
    idx: GraphIndex, ents: set[int], r: int, forward: bool, other: int, use_end: bool, *, any_partner: bool = False
) -> set[int]:
    """Start (or end) units of the facts ``(e, r, dir, x)``, ``e`` in ``ents``, ``x == other`` unless ``any_partner``.

    A fact without the asked time at the granularity gives ``NONE`` (an unknown time, never equal to a unit).
    """
    out: set[int] = set()
    for e in sorted(ents):
        rows = idx.rows_array(forward, *idx.group_bounds(e, r, forward))
        if not any_partner:
            rows = rows[rows[:, Col.OTHER] == other]
        out.update(rows[:, Col.AEU if use_end else Col.ASU].tolist())
    return out


def time_and_hops_matter(idx: GraphIndex, anchor: int, hops: list[Hop], t: int, answers: tuple[int, ...]) -> int | None:
    """The time and every hop must matter; returns the time-free answer count, or ``None`` when one does not.

    * The time-free reading (the same path over facts valid at any time) must give another answer set.
    * Skipping any intermediate hop (going on from its source entity) must give another answer set.
    """
    want = set(answers)
    steps = [(h.rel, h.forward) for h in hops]
    free = follow(idx, {anchor}, steps, None)
    if free == want:
        return None
    for i in range(len(hops) - 1):
        if follow(idx, {hops[i].src}, steps[i + 1 :], t) == want:
            return None
    return TIME_FREE_CAP if free is None else len(free)


def prefix_needed(idx: GraphIndex, prefix: Sequence[Hop], e: int) -> bool:
    """Skipping prefix hop ``i-1`` (going on from its source) must not lead to ``e`` again."""
    for i in range(1, len(prefix) + 1):
        if follow(idx, {prefix[i - 1].src}, [(h.rel, h.forward) for h in prefix[i:]], None) == {e}:
            return False
    return True


def reach(
    ctx: GenContext, rng: random.Random, e: int, t: int, k: int, visited: set[int], *, time_free: bool = True
) -> tuple[int, tuple[Hop, ...]] | None:
    """``k - 1`` static hops leading to ``e`` (:func:`static_prefix`), each needed (:func:`prefix_needed`)."""
    pre = static_prefix(ctx, rng, e, t, k - 1, visited, time_free=time_free)
    if pre is None or not prefix_needed(ctx.index, pre[1], e):
        return None
    return pre
