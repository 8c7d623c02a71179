"""Question drafts: chains of facts that answer a temporal question uniquely over the whole graph.

A :class:`Draft` is the logical content of a question before it is put into words. Each operator has
a generator (registry :data:`GENERATORS`) that draws one candidate from the index with the cell's
seeded RNG and either returns a draft whose answer is verified unique on the full index, or ``None``.

Definitions (``t`` is a unit at the question granularity; "possible"/"certain" as in
:func:`chronoqa.time.valid_at`; reversed facts are ignored everywhere):

* time-dependent hop from entity ``e`` over ``(r, dir)`` at ``t``: the set of other endpoints of the
  facts of ``(e, r, dir)`` *possibly* valid at ``t`` must be exactly ``{x}``, and one such fact must be
  *certainly* valid at ``t`` (that fact enters ``S*``). Used by every hop of point_in_time and
  before_after chains, so every intermediate hop is unique at ``t`` too.
* static hop (interval and sequence chains, whose ``t`` is the answer): the set of other endpoints of
  *all* facts of ``(e, r, dir)`` is exactly ``{x}``; the fact entering ``S*`` is certainly valid at ``t``.
* point_in_time: k time-dependent hops from the anchor at ``t``; answer = last endpoint.
* before_after: reference fact ``g`` of the anchor (the only fact with its (s, r, o); known start);
  ``t = start(g) ± 1``; then as point_in_time. ``g`` goes to ``S_anchor``.
* interval: k-1 static hops from the anchor to ``e``, then the final fact ``f`` between ``e`` and a
  named entity, the only fact with its (s, r, o); answer = ``start(f)`` (or ``end(f)`` for a state);
  ``t`` = the answer.
* sequence: k-1 static hops to ``e``, then the timeline of ``(e, r, dir)`` (every fact with a known
  start at the granularity, at least two facts): ``first`` = the only fact with the smallest start,
  ``last`` = the only fact with the largest start, ``next`` after a reference fact ``y`` (the only fact
  of the timeline with its other endpoint) = the only fact with the smallest start among those with
  start > start(y) (events) or start >= end(y) and start > start(y) (states, ``y`` with a known end).
  ``t`` = the answer fact's start; ``y`` goes to ``S_anchor``. ``first``/``last`` over an inverse
  timeline (asking for the subject: "who was born in X first?") needs at most
  :data:`SEQ_INVERSE_FIRST_LAST_CAP` facts in it: over a larger open class (everyone born in a city)
  the graph's partial list makes "first"/"last" read oddly and mean little.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import overload

import numpy as np

from chronoqa.generate.kg.index import NONE, Col, GraphIndex

__all__ = [
    "GENERATORS",
    "HUB_CAP",
    "SEQ_INVERSE_FIRST_LAST_CAP",
    "Draft",
    "GenContext",
    "Hop",
    "SeedList",
    "build_chain_pool",
    "build_static_into",
    "incident_sample",
    "static_depths",
    "static_options",
]

HUB_CAP = 512  # larger neighbourhoods are sampled, larger groups skipped (never unique in practice)
# "first"/"last" over an inverse timeline ("who was born in X first?") ranks an open class of subjects
# that the graph lists only in part: asked only when that timeline has at most this many facts
SEQ_INVERSE_FIRST_LAST_CAP = 10
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

    operator: str
    variant: str  # plain | after | before | start | end | first | last | next
    anchor: int
    hops: tuple[Hop, ...]
    t: int
    answers: tuple[int, ...]  # entity ids, or (time unit,) for time answers
    answer_is_time: bool
    extra_fids: tuple[int, ...] = ()  # further answer facts of a multi-answer question (S*)
    ref_fid: int = -1  # S_anchor fact
    offset: int = 0  # before_after: -1 / +1
    static_prefix: bool = False
    time_free: int = -1  # answers of the time-free reading (TIME_FREE_CAP: at least that many; -1: n/a)
    assumes_complete: bool = False  # the gold holds only if the graph is complete (first / last ever)

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
    """What a generator needs: the index, the unit range of ``t``, the multi-answer policy, seed facts."""

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


def _certain(row: list[int], t: int) -> bool:
    return row[Col.ACLO] <= t <= row[Col.ACHI]


def _possible(row: list[int], t: int) -> bool:
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


def static_options(
    idx: GraphIndex, c: int, t: int, visited: set[int], rng: random.Random, limit: int = 40
) -> list[Hop]:
    """Static hops *into* ``c`` (``a → c``), fact certainly valid at ``t`` (at most ``limit`` rows checked)."""
    cands: list[tuple[bool, list[int]]] = []
    # forward: the hop a → c follows a fact (a, r, c), so c is the object (an incoming row of c);
    # a symmetric relation's rows are all outgoing, and it is traversed forward
    for into_forward, row in incident_sample(idx, c, rng):
        fw = True if idx.rel_symmetric[row[Col.AR]] else not into_forward
        if row[Col.OTHER] not in visited and row[Col.OTHER] != c and _certain(row, t) and idx.one(row[Col.AR], fw):
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


def _static_prefix(
    ctx: GenContext, rng: random.Random, end: int, t: int, k: int, visited: set[int]
) -> tuple[int, tuple[Hop, ...]] | None:
    """``k`` static hops ending at ``end`` (depth-first, bounded); returns (anchor, hops in chain order)."""
    budget = [12]

    def options(cur: int, seen: set[int]) -> list[Hop]:
        if ctx.static_into is None:
            return static_options(ctx.index, cur, t, seen, rng)
        opts = [h for h, lo, hi in ctx.static_into[cur] if lo <= t <= hi and h.src not in seen]
        rng.shuffle(opts)
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
        return None
    anchor = found[-1].src if found else end
    return anchor, tuple(reversed(found))


def _triple_unique(idx: GraphIndex, fid: int) -> bool:
    return bool(idx.triple_count[fid] == 1)


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


def _pick_unit(spans: Spans, rng: random.Random) -> int:
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


def _unique_at(ctx: GenContext, hops: list[Hop], t: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Check every hop is unique at ``t`` (final hop: several answers allowed with ``keep_multi``)."""
    answers: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()
    seen = {hops[0].src}
    idx = ctx.index
    for i, h in enumerate(hops):
        a, b = idx.group_bounds(h.src, h.rel, h.forward)
        grp = idx.rows_array(h.forward, a, b)  # an array: a hub's group is never a list
        possible = np.unique(grp[(grp[:, Col.APLO] <= t) & (t <= grp[:, Col.APHI]), Col.OTHER]).tolist()
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


def _draw_chain(ctx: GenContext, rng: random.Random, k: int) -> tuple[int, list[Hop], Spans] | None:
    """A chain of k hops: from the exhaustive pool when there is one, else by the bounded search."""
    if ctx.pool is not None and k in ctx.pool and not ctx.keep_multi:
        chains = ctx.pool[k]
        if not chains:
            return None
        hops_t, spans = chains[rng.randrange(len(chains))]
        return hops_t[0].src, list(hops_t), spans
    seeds = ctx.seed_multi if k == 1 and ctx.seed_multi is not None else ctx.seedable
    if not seeds:
        return None
    fid, subject = seeds[rng.randrange(len(seeds))]
    row = ctx.index.fact_row(fid)
    anchor = row[Col.S] if subject else row[Col.O]
    chain = _aligned_chain(ctx, rng, anchor, k, ctx.t_min, ctx.t_max)
    if chain is None:
        return None
    return anchor, chain[0], chain[1]


def gen_point_in_time(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """point_in_time: a chain of k facts with overlapping certain spans; ``t`` drawn in the overlap; verified."""
    drawn = _draw_chain(ctx, rng, k)
    if drawn is None:
        return None
    anchor, hops, spans = drawn
    for _ in range(3):
        t = _pick_unit(spans, rng)
        ok = _unique_at(ctx, hops, t)
        if ok is None:
            continue
        tf = _world_valid(ctx.index, anchor, hops, t, ok[0])
        if tf is not None:
            return Draft("point_in_time", "plain", anchor, tuple(hops), t, ok[0], False, ok[1], time_free=tf)
    return None


def gen_before_after(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """before_after: a point_in_time chain; ``t`` = start ± 1 of an unambiguous reference fact of the anchor."""
    idx = ctx.index
    drawn = _draw_chain(ctx, rng, k)
    if drawn is None:
        return None
    anchor, hops, spans = drawn
    used = {h.fid for h in hops}
    nodes = {anchor} | {h.dst for h in hops}
    refs: list[tuple[int, int]] = []
    for _, ref in incident_sample(idx, anchor, rng):
        if ref[Col.FID] in used or ref[Col.ASU] == NONE or ref[Col.OTHER] in nodes or not idx.usable(ref[Col.FID]):
            continue
        if not _triple_unique(idx, ref[Col.FID]):
            continue
        for off in (-1, 1):
            u = ref[Col.ASU] + off
            if any(a <= u <= b for a, b in spans):
                refs.append((ref[Col.FID], off))
    rng.shuffle(refs)
    for gid, off in refs[:4]:
        t = idx.fact_row(gid)[Col.SU] + off
        ok = _unique_at(ctx, hops, t)
        if ok is None:
            continue
        tf = _world_valid(idx, anchor, hops, t, ok[0])
        if tf is None:
            continue
        return Draft(
            "before_after", "after" if off > 0 else "before", anchor, tuple(hops), t, ok[0], False, ok[1],
            ref_fid=gid, offset=off, time_free=tf,
        )  # fmt: skip
    return None


def gen_interval(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """interval: the only fact of its (s, r, o) gives the answer time; k-1 static hops lead to it."""
    if not len(ctx.timed):
        return None
    idx = ctx.index
    for _ in range(SEQ_SEED_TRIES if k > 1 and ctx.static_depth is not None else 1):
        fid = int(ctx.timed[rng.randrange(len(ctx.timed))])
        row = idx.fact_row(fid)
        forward = rng.random() < 0.5  # the chain reaches the subject (forward final hop) or the object
        e, other = (row[Col.S], row[Col.O]) if forward else (row[Col.O], row[Col.S])
        forward = forward or idx.rel_symmetric[row[Col.R]]  # a symmetric relation is traversed forward
        if ctx.static_depth is None or k == 1 or ctx.static_depth[e] >= k - 1:
            break  # a k-hop chain needs k-1 static hops into e: redraw (within this attempt) until e has them
    else:
        return None
    r = row[Col.R]
    use_end = not idx.rel_event[r] and row[Col.EU] != NONE and rng.random() < 0.4
    t = row[Col.EU] if use_end else row[Col.SU]
    if t == NONE or not ctx.t_min <= t <= ctx.t_max or not row[Col.CLO] <= t <= row[Col.CHI]:
        return None
    if not _triple_unique(idx, fid):
        return None
    if k > 1 and _times_of(idx, {other}, r, not forward or idx.rel_symmetric[r], e, use_end, any_partner=True) == {t}:
        return None  # the named entity alone gives the answer: the description of e is not needed
    pre = _static_prefix(ctx, rng, e, t, k - 1, {other})
    if pre is None:
        return None
    anchor, prefix = pre
    final = Hop(fid, r, forward, e, other)
    for i in range(1, len(prefix)):  # skipping prefix hop i-1 must change the answer
        ents = _follow(idx, {prefix[i - 1].src}, [(h.rel, h.forward) for h in prefix[i:]], None)
        if ents is not None and _times_of(idx, ents, r, forward, other, use_end) == {t}:
            return None
    return Draft("interval", "end" if use_end else "start", anchor, (*prefix, final), t, (t,), True, static_prefix=True)


def gen_sequence(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """sequence: first / last / next in the timeline of (e, r, dir); k-1 static hops lead to ``e``."""
    if not len(ctx.timed):
        return None
    idx = ctx.index
    for _ in range(SEQ_SEED_TRIES if k > 1 and ctx.static_depth is not None else 1):
        row = idx.fact_row(int(ctx.timed[rng.randrange(len(ctx.timed))]))
        forward = rng.random() < 0.5
        e = row[Col.S] if forward else row[Col.O]
        forward = forward or idx.rel_symmetric[row[Col.R]]
        if ctx.static_depth is None or k == 1 or ctx.static_depth[e] >= k - 1:
            break  # a k-hop chain needs k-1 static hops into e: redraw (within this attempt) until e has them
    else:
        return None
    r = row[Col.R]
    if not idx.one_at(e, r, forward) or idx.group_size(e, r, forward) > HUB_CAP:
        return None  # a "many" timeline ("who played for X first?") ranks an open class
    timeline = idx.group(e, r, forward)
    if len(timeline) < 2 or any(x[Col.ASU] == NONE or x[Col.OTHER] == e for x in timeline):
        return None  # an unknown start, or a self-loop ("the Cossack Hetmanate was part of itself")
    distinct = len({x[Col.OTHER] for x in timeline})
    if distinct < 2:
        return None  # one value over all time: the order is not needed
    variant = ("first", "last", "next")[rng.randrange(3)]
    if variant != "next" and not forward and len(timeline) > SEQ_INVERSE_FIRST_LAST_CAP:
        return None
    ref = -1
    visited: set[int] = set()
    if variant in ("first", "last"):
        best = min(x[Col.ASU] for x in timeline) if variant == "first" else max(x[Col.ASU] for x in timeline)
        cands = [x for x in timeline if x[Col.ASU] == best]
    else:
        counts: dict[int, int] = {}
        for x in timeline:
            counts[x[Col.OTHER]] = counts.get(x[Col.OTHER], 0) + 1
        refs = [x for x in timeline if counts[x[Col.OTHER]] == 1 and idx.usable(x[Col.FID])]
        if not refs:
            return None
        y = refs[rng.randrange(len(refs))]
        if idx.rel_event[r]:
            after = [x for x in timeline if x[Col.ASU] > y[Col.ASU]]
        else:
            if y[Col.AEU] == NONE:
                return None
            after = [x for x in timeline if x[Col.ASU] >= y[Col.AEU] and x[Col.ASU] > y[Col.ASU]]
        if not after:
            return None
        best = min(x[Col.ASU] for x in after)
        cands = [x for x in after if x[Col.ASU] == best]
        ref = y[Col.FID]
        visited.add(y[Col.OTHER])
    if len(cands) != 1:
        return None
    ans = cands[0]
    t = ans[Col.ASU]
    if not ctx.t_min <= t <= ctx.t_max or not _certain(ans, t) or ans[Col.OTHER] in visited:
        return None
    pre = _static_prefix(ctx, rng, e, t, k - 1, visited | {ans[Col.OTHER]})
    if pre is None:
        return None
    anchor, prefix = pre
    for i in range(1, len(prefix) + 1):  # skipping prefix hop i-1 must not lead to e again
        if _follow(idx, {prefix[i - 1].src}, [(h.rel, h.forward) for h in prefix[i:]], None) == {e}:
            return None
    final = Hop(ans[Col.FID], r, forward, e, ans[Col.OTHER])
    return Draft(
        "sequence", variant, anchor, (*prefix, final), t, (ans[Col.OTHER],), False, ref_fid=ref, static_prefix=True,
        time_free=distinct, assumes_complete=variant != "next",
    )  # fmt: skip


def _follow(idx: GraphIndex, start: set[int], steps: list[tuple[int, bool]], t: int | None) -> set[int] | None:
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
                if t is None or _possible(row, t):
                    nxt.add(row[Col.OTHER])
        if len(nxt) > TIME_FREE_CAP:
            return None
        cur = nxt
    return cur


def _times_of(
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
        out.update(np.unique(rows[:, Col.AEU if use_end else Col.ASU]).tolist())
    return out


def _world_valid(idx: GraphIndex, anchor: int, hops: list[Hop], t: int, answers: tuple[int, ...]) -> int | None:
    """The time and every hop must matter; returns the time-free answer count, or ``None`` when one does not.

    * The time-free reading (the same path over facts valid at any time) must give another answer set.
    * Skipping any intermediate hop (going on from its source entity) must give another answer set.
    """
    want = set(answers)
    steps = [(h.rel, h.forward) for h in hops]
    free = _follow(idx, {anchor}, steps, None)
    if free == want:
        return None
    for i in range(len(hops) - 1):
        if _follow(idx, {hops[i].src}, steps[i + 1 :], t) == want:
            return None
    return TIME_FREE_CAP if free is None else len(free)


GENERATORS: dict[str, Callable[[GenContext, random.Random, int], Draft | None]] = {
    "point_in_time": gen_point_in_time,
    "before_after": gen_before_after,
    "interval": gen_interval,
    "sequence": gen_sequence,
}
