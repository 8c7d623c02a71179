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
  ``t`` = the answer fact's start; ``y`` goes to ``S_anchor``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby

from chronoqa.generate.kg.index import NONE, Col, GraphIndex

__all__ = ["GENERATORS", "Draft", "GenContext", "Hop", "static_options", "step_options"]


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

    @property
    def n_hops(self) -> int:
        """Number of facts in the chain."""
        return len(self.hops)


@dataclass
class GenContext:
    """What a generator needs: the index, the unit range of ``t``, the multi-answer policy, seed facts."""

    index: GraphIndex
    t_min: int
    t_max: int
    keep_multi: bool
    seedable: list[int]  # facts with a non-empty certain span inside [t_min, t_max]
    timed: list[int]  # facts with a start known at the granularity (non-reversed)


def _certain(row: list[int], t: int) -> bool:
    return row[Col.ACLO] <= t <= row[Col.ACHI]


def _possible(row: list[int], t: int) -> bool:
    return row[Col.APLO] <= t <= row[Col.APHI]


def step_options(
    idx: GraphIndex, e: int, t: int, visited: set[int], exclude: set[int], *, final: bool = False, multi: bool = False
) -> list[tuple[Hop, tuple[int, ...], tuple[int, ...]]]:
    """Time-dependent hops out of ``e`` at ``t``: ``(hop, answer entities, extra answer facts)`` per option.

    A group (relation, direction) qualifies when its possibly-valid endpoints are one entity (or, for a
    final hop with ``multi``, several entities, each with a certainly valid fact) not yet visited.
    """
    out: list[tuple[Hop, tuple[int, ...], tuple[int, ...]]] = []
    for forward in (True, False):
        rows = idx.incident(e, forward)
        for r, grp_iter in groupby(rows, key=lambda row: row[Col.AR]):
            grp = list(grp_iter)
            possible = sorted({row[Col.OTHER] for row in grp if _possible(row, t)})
            if not possible or (len(possible) > 1 and not (final and multi)):
                continue
            if any(x in visited or x == e for x in possible):
                continue
            chosen: list[list[int]] = []
            for x in possible:
                cert = [row for row in grp if row[Col.OTHER] == x and _certain(row, t) and row[Col.FID] not in exclude]
                if not cert:
                    break
                chosen.append(cert[0])
            else:
                first = chosen[0]
                hop = Hop(first[Col.FID], r, forward, e, first[Col.OTHER])
                out.append((hop, tuple(possible), tuple(c[Col.FID] for c in chosen[1:])))
    return out


def static_options(idx: GraphIndex, c: int, t: int, visited: set[int], rng: random.Random, limit: int = 40) -> list[Hop]:
    """Static hops *into* ``c`` (``a → c``) whose fact is certainly valid at ``t`` (checked on at most ``limit`` rows)."""
    cands: list[tuple[bool, list[int]]] = []
    for forward in (True, False):  # forward: the hop a → c follows a fact (a, r, c), so c is the object
        for row in idx.incident(c, not forward):
            if row[Col.OTHER] not in visited and row[Col.OTHER] != c and _certain(row, t):
                cands.append((forward, row))
    rng.shuffle(cands)
    out: list[Hop] = []
    for forward, row in cands[:limit]:
        a, r = row[Col.OTHER], row[Col.AR]
        others = {x[Col.OTHER] for x in idx.group(a, r, forward)}
        if others == {c}:
            out.append(Hop(row[Col.FID], r, forward, a, c))
    return out


def _walk(
    ctx: GenContext, rng: random.Random, anchor: int, t: int, k: int, visited: set[int], exclude: set[int]
) -> tuple[tuple[Hop, ...], tuple[int, ...], tuple[int, ...]] | None:
    """Depth-first search for k time-dependent hops from ``anchor`` (random order, bounded expansions)."""
    budget = [24]

    def dfs(cur: int, depth: int, seen: set[int]) -> list[tuple[Hop, tuple[int, ...], tuple[int, ...]]] | None:
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        final = depth == k - 1
        opts = step_options(ctx.index, cur, t, seen, exclude, final=final, multi=ctx.keep_multi)
        rng.shuffle(opts)
        for opt in opts:
            if final:
                return [opt]
            rest = dfs(opt[0].dst, depth + 1, seen | {opt[0].dst})
            if rest is not None:
                return [opt, *rest]
        return None

    found = dfs(anchor, 0, set(visited) | {anchor})
    if found is None:
        return None
    return tuple(o[0] for o in found), found[-1][1], found[-1][2]


def _static_prefix(
    ctx: GenContext, rng: random.Random, end: int, t: int, k: int, visited: set[int]
) -> tuple[int, tuple[Hop, ...]] | None:
    """``k`` static hops ending at ``end`` (depth-first, bounded); returns (anchor, hops in chain order)."""
    budget = [12]

    def dfs(cur: int, depth: int, seen: set[int]) -> list[Hop] | None:
        if depth == k:
            return []
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        for hop in static_options(ctx.index, cur, t, seen, rng):
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
    s, r, o = idx.fact_row(fid)[:3]
    return sum(1 for row in idx.group(s, r, True) if row[Col.OTHER] == o) == 1


def _aligned_chain(
    ctx: GenContext, rng: random.Random, anchor: int, k: int, lo: int, hi: int, fanout: int = 6
) -> tuple[list[Hop], int, int] | None:
    """A chain of k facts from ``anchor`` whose certain spans share a unit in ``[lo, hi]`` (no uniqueness yet)."""
    idx = ctx.index
    budget = [30]

    def dfs(cur: int, depth: int, lo: int, hi: int, seen: set[int]) -> tuple[list[Hop], int, int] | None:
        if depth == k:
            return [], lo, hi
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        rows = [(True, row) for row in idx.incident(cur, True)] + [(False, row) for row in idx.incident(cur, False)]
        rng.shuffle(rows)
        tried = 0
        for forward, row in rows:
            other = row[Col.OTHER]
            if other in seen or other == cur:
                continue
            nlo, nhi = max(lo, row[Col.ACLO]), min(hi, row[Col.ACHI])
            if nlo > nhi:
                continue
            tried += 1
            rest = dfs(other, depth + 1, nlo, nhi, seen | {other})
            if rest is not None:
                return [Hop(row[Col.FID], row[Col.AR], forward, cur, other), *rest[0]], rest[1], rest[2]
            if tried >= fanout:
                break
        return None

    return dfs(anchor, 0, lo, hi, {anchor})


def _unique_at(
    ctx: GenContext, hops: list[Hop], t: int
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Check every hop is unique at ``t`` (final hop: several answers allowed with ``keep_multi``)."""
    answers: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()
    seen = {hops[0].src}
    for i, h in enumerate(hops):
        grp = ctx.index.group(h.src, h.rel, h.forward)
        possible = sorted({row[Col.OTHER] for row in grp if _possible(row, t)})
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
                cert = [row[Col.FID] for row in grp if row[Col.OTHER] == x and _certain(row, t)]
                if not cert:
                    return None
                more.append(cert[0])
            extra = tuple(more)
    return answers, extra


def gen_point_in_time(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """point_in_time: a chain of k facts with overlapping certain spans; ``t`` drawn in the overlap; verified."""
    if not ctx.seedable:
        return None
    row = ctx.index.fact_row(ctx.seedable[rng.randrange(len(ctx.seedable))])
    anchor = row[Col.S] if rng.random() < 0.5 else row[Col.O]
    chain = _aligned_chain(ctx, rng, anchor, k, ctx.t_min, ctx.t_max)
    if chain is None:
        return None
    hops, lo, hi = chain
    for _ in range(3):
        t = rng.randint(lo, hi)
        ok = _unique_at(ctx, hops, t)
        if ok is not None:
            return Draft("point_in_time", "plain", anchor, tuple(hops), t, ok[0], False, ok[1])
    return None


def gen_before_after(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """before_after: an unambiguous reference fact of the anchor, ``t`` = its start ± 1, then k hops."""
    if not ctx.timed:
        return None
    gid = ctx.timed[rng.randrange(len(ctx.timed))]
    row = ctx.index.fact_row(gid)
    offset = 1 if rng.random() < 0.5 else -1
    t = row[Col.SU] + offset
    if not ctx.t_min <= t <= ctx.t_max or not _triple_unique(ctx.index, gid):
        return None
    anchor, other = (row[Col.S], row[Col.O]) if rng.random() < 0.5 else (row[Col.O], row[Col.S])
    walked = _walk(ctx, rng, anchor, t, k, {other}, {gid})
    if walked is None:
        return None
    hops, answers, extra = walked
    variant = "after" if offset > 0 else "before"
    return Draft("before_after", variant, anchor, hops, t, answers, False, extra, ref_fid=gid, offset=offset)


def gen_interval(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """interval: the only fact of its (s, r, o) gives the answer time; k-1 static hops lead to it."""
    if not ctx.timed:
        return None
    fid = ctx.timed[rng.randrange(len(ctx.timed))]
    idx = ctx.index
    row = idx.fact_row(fid)
    r = row[Col.R]
    use_end = not idx.rel_event[r] and row[Col.EU] != NONE and rng.random() < 0.4
    t = row[Col.EU] if use_end else row[Col.SU]
    if t == NONE or not ctx.t_min <= t <= ctx.t_max or not row[Col.CLO] <= t <= row[Col.CHI]:
        return None
    if not _triple_unique(idx, fid):
        return None
    forward = rng.random() < 0.5  # the chain reaches the subject (forward final hop) or the object
    e, other = (row[Col.S], row[Col.O]) if forward else (row[Col.O], row[Col.S])
    pre = _static_prefix(ctx, rng, e, t, k - 1, {other})
    if pre is None:
        return None
    anchor, prefix = pre
    final = Hop(fid, r, forward, e, other)
    return Draft("interval", "end" if use_end else "start", anchor, (*prefix, final), t, (t,), True, static_prefix=True)


def gen_sequence(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """sequence: first / last / next in the timeline of (e, r, dir); k-1 static hops lead to ``e``."""
    if not ctx.timed:
        return None
    idx = ctx.index
    row = idx.fact_row(ctx.timed[rng.randrange(len(ctx.timed))])
    forward = rng.random() < 0.5
    e = row[Col.S] if forward else row[Col.O]
    r = row[Col.R]
    timeline = idx.group(e, r, forward)
    if len(timeline) < 2 or any(x[Col.ASU] == NONE for x in timeline):
        return None
    variant = ("first", "last", "next")[rng.randrange(3)]
    ref = -1
    visited: set[int] = set()
    if variant in ("first", "last"):
        best = min(x[Col.ASU] for x in timeline) if variant == "first" else max(x[Col.ASU] for x in timeline)
        cands = [x for x in timeline if x[Col.ASU] == best]
    else:
        counts: dict[int, int] = {}
        for x in timeline:
            counts[x[Col.OTHER]] = counts.get(x[Col.OTHER], 0) + 1
        refs = [x for x in timeline if counts[x[Col.OTHER]] == 1]
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
    final = Hop(ans[Col.FID], r, forward, e, ans[Col.OTHER])
    return Draft("sequence", variant, anchor, (*prefix, final), t, (ans[Col.OTHER],), False, ref_fid=ref, static_prefix=True)


GENERATORS: dict[str, Callable[[GenContext, random.Random, int], Draft | None]] = {
    "point_in_time": gen_point_in_time,
    "before_after": gen_before_after,
    "interval": gen_interval,
    "sequence": gen_sequence,
}
