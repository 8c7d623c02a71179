"""present_state: "As of 2014, who was X married to?" with the earlier values recorded as outdated answers.

Draft: k-1 static hops from the anchor to ``e``, then the state timeline of ``(e, r, dir)`` (a ``one``
direction for ``e``): an answer fact ``f`` and a unit ``t`` where ``f`` is certainly valid and asserted (``t``
strictly inside its closed span: its start and end units are units of change; an open spell is never asked), where
no other value of the timeline is possibly valid, and before which at least one other value held in a spell
with a known end (the outdated answers: a system that reads an earlier fact answers one of them). The answer
is ``f``'s other endpoint; ``Question.outdated_answers`` holds the earlier values, latest first.

Validity rule: the default one (every S* fact certainly valid at ``t``); skipping a prefix hop must not lead
to ``e`` again, nor give the answer at ``t`` (:func:`~chronoqa.generate.kg.operators.chains.time_and_hops_matter`);
the time matters by construction (the outdated values answer the time-free reading too).
"""

from __future__ import annotations

import random

from chronoqa.generate.kg.index import NONE, Col
from chronoqa.generate.kg.operators.base import AnswerKind, Operator
from chronoqa.generate.kg.operators.chains import (
    HUB_CAP,
    Draft,
    GenContext,
    Hop,
    draw_final_fact,
    possible,
    reach,
    time_and_hops_matter,
)
from chronoqa.generate.kg.templates import Renderer, Template, cap

__all__ = ["OPERATOR", "asserted_units", "draft", "outdated_before"]

Row = list[int]


def asserted_units(row: Row, t_min: int, t_max: int) -> tuple[int, int] | None:
    """The units where the data asserts the state and no change of it.

    Its closed certain span less its start and end units (units of change, as
    :func:`~chronoqa.generate.kg.operators.chains.strictly_inside`); an open spell asserts only its start unit, a
    unit of change, so none.
    """
    if row[Col.AEU] == NONE or row[Col.ASU] == NONE:
        return None
    lo, hi = max(row[Col.ACLO], row[Col.ASU] + 1), min(row[Col.ACHI], row[Col.AEU] - 1)
    lo, hi = max(lo, t_min), min(hi, t_max)
    return (lo, hi) if lo <= hi else None


def outdated_before(timeline: list[Row], ans: Row, t: int) -> list[int] | None:
    """Other values of closed spells ended before ``t``, latest first; ``None`` when another may hold at ``t``."""
    ended: dict[int, int] = {}
    for x in timeline:
        if x[Col.OTHER] == ans[Col.OTHER]:
            continue
        if possible(x, t):
            return None
        if x[Col.AEU] != NONE and x[Col.AEU] < t:
            ended[x[Col.OTHER]] = max(ended.get(x[Col.OTHER], NONE), x[Col.AEU])
    return sorted(ended, key=lambda o: (-ended[o], o))


def draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """A timeline value at ``t`` after earlier values ended; k-1 static hops lead to ``e``."""
    drawn = draw_final_fact(ctx, rng, k)
    if drawn is None:
        return None
    fid, _, forward, e, other = drawn
    idx = ctx.index
    r = idx.fact_row(fid)[Col.R]
    if idx.rel_event[r] or not idx.one_at(e, r, forward) or idx.group_size(e, r, forward) > HUB_CAP:
        return None
    timeline = idx.group(e, r, forward)
    ans = next((x for x in timeline if x[Col.FID] == fid), None)
    span = asserted_units(ans, ctx.t_min, ctx.t_max) if ans is not None else None
    if ans is None or span is None or other == e or not idx.usable(fid):
        ctx.miss = "asked at a spell's boundary unit" if ans is not None and span is None else ctx.miss
        return None
    t = rng.randint(*span)
    outdated = outdated_before(timeline, ans, t)
    if not outdated:
        return None
    pre = reach(ctx, rng, e, t, k, {other, *outdated}, time_free=False)  # "As of t"
    if pre is None:
        return None
    final = Hop(fid, r, forward, e, other)
    if time_and_hops_matter(idx, pre[0], [*pre[1], final], t, (other,)) is None:
        return None  # skipping a hop (from its source, at t) gives the answer too
    return Draft(
        "present_state", "plain", pre[0], (*pre[1], final), t, (other,), AnswerKind.ENTITY, static_prefix=True,
        time_free=len(outdated) + 1, outdated=tuple(outdated),
    )  # fmt: skip


def _as_of(rd: Renderer, d: Draft) -> str:
    return f"As of {rd.when(d.t)}, {rd.ask(d)}?"


def _trailing(rd: Renderer, d: Draft) -> str:
    return f"{cap(rd.ask(d))} as of {rd.when(d.t)}?"


def _stood(rd: Renderer, d: Draft) -> str:
    return f"As things stood in {rd.when(d.t)}, {rd.ask(d)}?"


def _back_in(rd: Renderer, d: Draft) -> str:
    return f"Back in {rd.when(d.t)}, {rd.ask(d)}?"


OPERATOR = Operator(
    name="present_state",
    title="Present state",
    weight=0.1,
    answer=AnswerKind.ENTITY,
    draft=draft,
    templates=(
        Template("ps.as_of", _as_of),
        Template("ps.trailing", _trailing),
        Template("ps.stood", _stood),
        Template("ps.back_in", _back_in),
    ),
    render_time=True,
    census="pool",
    answer_at_t=True,
)
