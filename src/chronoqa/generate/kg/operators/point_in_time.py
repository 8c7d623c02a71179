"""point_in_time: "In 1994, which team did X play for?".

Draft: a chain of k time-dependent hops from the anchor (:func:`~chronoqa.generate.kg.operators.chains.draw_chain`)
with overlapping certain spans; ``t`` is drawn in the overlap, strictly inside every state hop's recorded spell
(:func:`~chronoqa.generate.kg.operators.chains.strictly_inside`: a start or end unit is a unit of change), and
every hop verified unique at ``t``; the answer is the last endpoint (an entity).

Validity rule (:func:`~chronoqa.generate.kg.operators.chains.time_and_hops_matter`): the time-free reading of
the path gives another answer set, and skipping any intermediate hop changes the answer.
"""

from __future__ import annotations

import random

from chronoqa.generate.kg.operators.base import AnswerKind, Operator
from chronoqa.generate.kg.operators.chains import (
    Draft,
    GenContext,
    draw_chain,
    pick_unit,
    strictly_inside,
    time_and_hops_matter,
    unique_at,
)
from chronoqa.generate.kg.templates import Renderer, Template, cap, state_only
from chronoqa.time import Granularity

__all__ = ["OPERATOR", "draft"]


def draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """A chain of k facts with overlapping certain spans; ``t`` drawn in the overlap; verified."""
    drawn = draw_chain(ctx, rng, k)
    if drawn is None:
        return None
    anchor, hops, spans = drawn
    spans = strictly_inside(ctx.index, hops, spans)
    if not spans:
        ctx.miss = "asked at a spell's boundary unit"
        return None
    for _ in range(3):
        t = pick_unit(spans, rng)
        ok = unique_at(ctx, hops, t)
        if ok is None:
            ctx.miss = "not unique at the drawn unit"
            continue
        tf = time_and_hops_matter(ctx.index, anchor, hops, t, ok[0])
        ctx.miss = "time or a hop does not matter"
        if tf is not None:
            return Draft(
                "point_in_time", "plain", anchor, tuple(hops), t, ok[0], AnswerKind.ENTITY, ok[1], time_free=tf
            )
    return None


def _on(rd: Renderer) -> str:
    return "On" if rd.granularity is Granularity.DAY else "In"


def _in(rd: Renderer, d: Draft) -> str:
    return f"{_on(rd)} {rd.when(d.t)}, {rd.ask(d)}?"


def _trailing(rd: Renderer, d: Draft) -> str:
    return f"{cap(rd.ask(d))} {_on(rd).lower()} {rd.when(d.t)}?"


def _as_of(rd: Renderer, d: Draft) -> str:
    return f"As of {rd.when(d.t)}, {rd.ask(d)}?"


def _during(rd: Renderer, d: Draft) -> str:
    return f"{cap(rd.ask(d))} during {rd.when(d.t)}?"


OPERATOR = Operator(
    name="point_in_time",
    title="Point-in-time",
    weight=0.1,
    answer=AnswerKind.ENTITY,
    draft=draft,
    templates=(
        Template("pit.in", _in),
        Template("pit.trailing", _trailing),
        Template("pit.as_of", _as_of, suits=state_only),
        Template("pit.during", _during, suits=state_only),
    ),
    render_time=True,
    tempbench=True,
    census="pool",
    answer_at_t=True,
)
