"""sequence: "Up to 2017, which team did X play for last?", "After X left Y, which team did X join next?".

Draft: k-1 static hops to ``e``, then the timeline of ``(e, r, dir)`` (every fact with a known start at the
granularity, at least two facts): ``last`` = the only fact with the largest start, ``next`` after a reference
fact ``y`` (the only fact of the timeline with its other endpoint) = the only fact with the smallest start among
those with start > start(y) (events) or start >= end(y) and start > start(y) (states, ``y`` with a known end),
asked only where no other spell starts from end(y) (an event: start(y)) up to it (:func:`next_is_unique`).
``t`` = the answer fact's start; ``y`` goes to ``S_anchor``. ``last`` assumes the graph is complete up to its
horizon (``assumes_complete``).

Closed-world rule (:func:`closed_at_horizon`): a graph frozen in one year, asked as of a later ``as_of``, closes
no timeline by itself. "Last" is asked only where the data's own record reaches its horizon
(:meth:`~chronoqa.generate.kg.index.GraphIndex.horizon`, the latest year holding a share of its dates, 2017 for
YAGO11k and Wikidata12k): the answer's spell is certainly valid in the horizon year or later (an open end only under
the ``ongoing`` reading; under ``unknown`` it asserts nothing after its start; an event: happens in it), and the
question says so ("Up to 2017, which team did X play for last?"). A spell that ended
before the horizon while nothing follows it ("Berlin's last head of government: Klaus Wowereit, to 2014"; Rita
Hayworth's last husband in YAGO, to 1955) is a stale record, not the end of the timeline. "First" is not asked:
no date in the graph closes a timeline's start (a player's youth clubs, a place's earlier rulers are missing).

Validity rule (:func:`orderable`, :func:`every_hop_needed`): the direction is ``one`` for ``e`` and its
timeline has no unknown start, no self-loop and two or more distinct values; ``last`` over a state timeline
needs every other spell to have a known end (:func:`last_is_latest`: an open spell may outlast the last
start); ``last`` over an inverse
timeline (asking for the subject: "who was born in X last?") needs at most :data:`SEQ_INVERSE_FIRST_LAST_CAP`
facts in it (over a larger open class the graph's partial list makes "first"/"last" read oddly and mean
little); skipping any prefix hop must not lead to ``e`` again. A state timeline is not ordered over a spell
nested in another (a loan inside a spell: :func:`~chronoqa.generate.kg.tenure.nested_reason`, the one rule of every
operator that orders a timeline).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from chronoqa.generate.kg.index import NEG, NONE, POS, Col, GraphIndex
from chronoqa.generate.kg.operators.base import AnswerKind, Operator, time_ref
from chronoqa.generate.kg.operators.chains import (
    HUB_CAP,
    Draft,
    GenContext,
    Hop,
    certain,
    draw_final_fact,
    prefix_needed,
    static_prefix,
)
from chronoqa.generate.kg.templates import Renderer, Template, cap
from chronoqa.records import Fact
from chronoqa.time import TimePoint

__all__ = [
    "OPERATOR",
    "SEQ_INVERSE_FIRST_LAST_CAP",
    "closed_at_horizon",
    "draft",
    "every_hop_needed",
    "last_is_latest",
    "next_adjoins",
    "next_is_unique",
    "orderable",
    "time_refs",
    "unorderable",
]

# "first"/"last" over an inverse timeline ("who was born in X first?") ranks an open class of subjects
# that the graph lists only in part: asked only when that timeline has at most this many facts
SEQ_INVERSE_FIRST_LAST_CAP = 10

Row = list[int]


def orderable(idx: GraphIndex, e: int, r: int, forward: bool) -> list[Row] | None:
    """The timeline of ``(e, r, dir)`` when it can be ordered (see the module docstring), else ``None``."""
    return None if unorderable(idx, e, r, forward) else idx.group(e, r, forward)


def unorderable(idx: GraphIndex, e: int, r: int, forward: bool) -> str | None:
    """Why the timeline of ``(e, r, dir)`` cannot be ordered, or ``None`` (it can)."""
    if not idx.one_at(e, r, forward) or idx.group_size(e, r, forward) > HUB_CAP:
        return "open-class timeline"  # a "many" timeline ("who played for X first?") ranks an open class
    timeline = idx.group(e, r, forward)
    if len(timeline) < 2 or any(x[Col.ASU] == NONE or x[Col.OTHER] == e for x in timeline):
        # an unknown start, or a self-loop ("the Cossack Hetmanate was part of itself")
        return "timeline of one fact, an unknown start or a self-loop"
    if len({x[Col.OTHER] for x in timeline}) < 2:
        return "one value over all time"  # the order is not needed
    return None


def _next_after(
    idx: GraphIndex, timeline: list[Row], r: int, rng: random.Random, roles: Mapping[int, str]
) -> tuple[list[Row], Row] | None:
    """The candidates for "next" after a reference fact drawn with ``rng``, and that reference.

    Spells of another role than the reference's (``roles``: object -> the role its label marks) are another
    timeline: national-team spells overlap club spells, so "next after leaving the national team" is not a club.
    """
    counts: dict[int, int] = {}
    for x in timeline:
        counts[x[Col.OTHER]] = counts.get(x[Col.OTHER], 0) + 1
    refs = [x for x in timeline if counts[x[Col.OTHER]] == 1 and idx.usable(x[Col.FID])]
    if not refs:
        return None
    y = refs[rng.randrange(len(refs))]
    timeline = [x for x in timeline if roles.get(x[Col.OTHER]) == roles.get(y[Col.OTHER])]
    if idx.rel_event[r]:
        after = [x for x in timeline if x[Col.ASU] > y[Col.ASU]]
    else:
        if y[Col.AEU] == NONE:
            return None
        after = [x for x in timeline if x[Col.ASU] >= y[Col.AEU] and x[Col.ASU] > y[Col.ASU]]
    if not after:
        return None
    best = min(x[Col.ASU] for x in after)
    if not next_is_unique(idx, timeline, r, y, best):
        return None
    return [x for x in after if x[Col.ASU] == best], y


def next_is_unique(idx: GraphIndex, timeline: Sequence[Row], r: int, y: Row, best: int) -> bool:
    """No spell but the reference ``y`` and the answer starts from ``y``'s end (an event: its start) to ``best``.

    "Immediately after X left Y" read at the granularity: a spell that starts in the unit the reference ends
    (Kärnten left in 2008, Antalyaspor joined in 2008) is as much "next" as a later one, even where it does not
    start after the reference's own start; two such spells leave the question without one answer.
    """
    lo = y[Col.ASU] if idx.rel_event[r] else y[Col.AEU]
    return sum(1 for x in timeline if x[Col.FID] != y[Col.FID] and lo <= x[Col.ASU] <= best) == 1


def next_adjoins(idx: GraphIndex, r: int, y: Row, ans: Row) -> bool:
    """The answer starts in the unit the reference spell ``y`` ends (an event: the unit it happens or the next).

    A unit the data leaves empty between the two may hold a spell the data misses: a club that dropped out of a
    subset graph ("After Athletic Bilbao (to 2008), which team did Igor Angulo play for next?" -> Numancia, from
    2010), or a loan the source never recorded (Bulykin's Düsseldorf spell ends in 2010, Ajax starts in 2011; he
    was at ADO Den Haag for 2010-11). So "next" across it is not asked, on any graph.
    """
    if idx.rel_event[r]:
        return ans[Col.ASU] - y[Col.ASU] <= 1
    return ans[Col.ASU] <= y[Col.AEU]


def draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """First / last / next in the timeline of (e, r, dir); k-1 static hops lead to ``e``."""
    drawn = draw_final_fact(ctx, rng, k)
    if drawn is None:
        return None
    _, row, forward, e, _ = drawn
    idx = ctx.index
    r = row[Col.R]
    ctx.miss = unorderable(idx, e, r, forward) or ""
    if ctx.miss:
        return None
    timeline = idx.group(e, r, forward)
    variant = ("last", "next")[rng.randrange(2)]
    if variant == "last" and not forward and len(timeline) > SEQ_INVERSE_FIRST_LAST_CAP:
        ctx.miss = "open-class timeline"
        return None
    ref = -1
    visited: set[int] = set()
    horizon = min(idx.horizon(), ctx.t_max)
    if variant == "last":
        best = max(x[Col.ASU] for x in timeline)
        cands = [x for x in timeline if x[Col.ASU] == best]
    else:
        nxt = _next_after(idx, timeline, r, rng, ctx.object_roles.get(r, {}) if forward else {})
        if nxt is None:
            ctx.miss = "no unambiguous reference with a later spell"
            return None
        cands, y = nxt
        if not next_adjoins(idx, r, y, cands[0]):
            ctx.miss = "next across a gap"
            return None
        ref = y[Col.FID]
        visited.add(y[Col.OTHER])
    if len(cands) != 1:
        ctx.miss = "two spells start in the same unit"
        return None
    ans = cands[0]
    if variant == "last" and not (last_is_latest(idx, timeline, r, ans) and closed_at_horizon(idx, r, ans, horizon)):
        ctx.miss = "last not closed at the horizon"
        return None
    t = ans[Col.ASU]
    if not ctx.t_min <= t <= ctx.t_max or not certain(ans, t) or ans[Col.OTHER] in visited:
        ctx.miss = "answer time outside the range or not certain"
        return None
    pre = static_prefix(ctx, rng, e, t, k - 1, visited | {ans[Col.OTHER]})
    if pre is None or not every_hop_needed(idx, pre[1], e):
        ctx.miss = ctx.miss if pre is None else "a hop does not matter"
        return None
    final = Hop(ans[Col.FID], r, forward, e, ans[Col.OTHER])
    return Draft(
        "sequence", variant, pre[0], (*pre[1], final), t, (ans[Col.OTHER],), AnswerKind.ENTITY, ref_fid=ref,
        static_prefix=True, time_free=len({x[Col.OTHER] for x in timeline}), assumes_complete=variant == "last",
        horizon=horizon if variant == "last" else None,
    )  # fmt: skip


def last_is_latest(idx: GraphIndex, timeline: Sequence[Row], r: int, ans: Row) -> bool:
    """The spell that started last is the latest one: no other spell of a state timeline has an unknown end.

    A spell with no recorded end may still run after the last start ("Most recently, which team did Totti
    play for?" is Roma, whose spell has no end, not the later-starting youth team), so "last" is not asked.
    """
    if idx.rel_event[r]:
        return True
    return all(x[Col.AEU] != NONE for x in timeline if x[Col.FID] != ans[Col.FID])


def closed_at_horizon(idx: GraphIndex, r: int, ans: Row, horizon: int) -> bool:
    """The answer of a "last" question still holds at the data's horizon (the closed-world rule, module docstring).

    A state spell *certainly* valid in the horizon's year or later (under the ``unknown`` open-end reading a spell
    with no recorded end asserts nothing after its start unit: Coventry City "from 2015" does not show the player
    was still there in 2017, the graph may lack his later clubs); an event in that year or later.
    """
    year = TimePoint.from_unit(horizon, idx.granularity).year
    end = ans[Col.ASU] if idx.rel_event[r] else ans[Col.ACHI]
    return end >= POS or (end not in (NONE, NEG) and TimePoint.from_unit(end, idx.granularity).year >= year)


def every_hop_needed(idx: GraphIndex, prefix: Sequence[Hop], e: int) -> bool:
    """Skipping prefix hop ``i-1`` (going on from its source) must not lead to ``e`` again."""
    return prefix_needed(idx, prefix, e)


def time_refs(d: Draft, facts: Sequence[Fact], t_iso: str) -> list[dict[str, str]]:
    """The reference fact's end ("next" after a state with an end) or start, then the answer fact's start."""
    out = []
    if d.ref_fid >= 0:
        ref = facts[d.ref_fid]
        which, tp = ("end", ref.end) if d.variant == "next" and ref.end is not None else ("start", ref.start)
        if tp is not None:
            out.append(time_ref(which, tp.isoformat(), "anchor"))
    out.append(time_ref("start", t_iso, "answer"))
    return out


def _next_which(rd: Renderer, d: Draft) -> str:
    """The field of a "next" question's reference: its start (event) or end (state)."""
    return "start_clause" if rd.rel(d.hops[-1].rel).is_event else "end_clause"


def _next_clause(rd: Renderer, d: Draft, *, again: bool = False) -> str:
    """The reference of a "next" question: the clause of its start (event) or end (state).

    A gerund where it shares the question clause's subject ("After leaving Y, which club did X play for next?",
    :meth:`Renderer.ref_clause`). ``again``: the question clause named the entity before ("... immediately after
    that spouse moved away"), so the clause says "it" or "its" for an entity that one named ("... immediately after
    Carl Edvard Rotwitt ceased to be its head of government").
    """
    e_text = rd.named_again(d) if again else rd.noun(d.hops[:-1], d.anchor, d.pins)
    return rd.ref_clause(d, _next_which(rd, d), subject_text=e_text, trailing=again)


def _ref_other(rd: Renderer, d: Draft) -> str:
    """The reference of a "next" question named by its other endpoint only, without repeating its clause.

    "Who won the William Allan Award next after Elizabeth F. Neufeld?": the reference is the only fact of the
    timeline (of the final hop's source, in its direction) with that endpoint.
    """
    row = rd.index.fact_row(d.ref_fid)
    return rd.ent(row[2] if d.hops[-1].forward else row[0])


def _horizon(rd: Renderer, d: Draft) -> str:
    """The data's horizon a "last" question ranks up to ("2017")."""
    assert d.horizon is not None
    return rd.when(d.horizon)


def _up_to(rd: Renderer, d: Draft) -> str:
    """The lead of a "last" question: "Up to 2017, "."""
    return f"Up to {_horizon(rd, d)}, "


def _plain(rd: Renderer, d: Draft) -> str:
    if d.variant == "next":
        return f"After {_next_clause(rd, d)}, {rd.ask(d, rd.ref_names(d, _next_which(rd, d)))} next?"
    return f"{_up_to(rd, d)}{rd.ask(d)} last?"


def _alt(rd: Renderer, d: Draft) -> str:
    if d.variant == "next":
        return f"{cap(rd.ask(d))} next after {_ref_other(rd, d)}?"
    return f"{_up_to(rd, d)}{rd.ask(d)} most recently?"


def _lead(rd: Renderer, d: Draft) -> str:
    if d.variant == "next":
        return f"{cap(rd.ask(d))} immediately after {_next_clause(rd, d, again=True)}?"
    return f"Most recently up to {_horizon(rd, d)}, {rd.ask(d)}?"


def _earliest(rd: Renderer, d: Draft) -> str:
    if d.variant == "next":
        return f"After {_ref_other(rd, d)}, {rd.ask(d)} next?"
    return f"{_up_to(rd, d)}{rd.ask(d)} last of all?"


def ends_rested_on(idx: GraphIndex, d: Draft) -> list[int]:
    """``next`` over a state starts where the reference fact ends (over events, at its one time)."""
    return [d.ref_fid] if d.variant == "next" and not idx.rel_event[d.hops[-1].rel] else []


OPERATOR = Operator(
    name="sequence",
    title="Sequence",
    weight=0.1,
    answer=AnswerKind.ENTITY,
    draft=draft,
    templates=(
        Template("seq.plain", _plain),
        Template("seq.alt", _alt),
        Template("seq.lead", _lead),
        Template("seq.earliest", _earliest),
    ),
    time_refs=time_refs,
    ends_rested_on=ends_rested_on,
    tempbench=True,
    census="static",
)
