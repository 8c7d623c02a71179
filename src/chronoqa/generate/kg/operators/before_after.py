"""before_after: "In the year after X joined Y, which team did Z play for?".

Draft: a point-in-time chain; ``t = start(g) ± 1`` for a reference fact ``g`` of the anchor (the only fact with
its (s, r, o), with a known start, off the chain); then verified as point_in_time. ``g`` goes to ``S_anchor``;
the question's time reference is its start.

Validity rule: as point_in_time (:func:`~chronoqa.generate.kg.operators.chains.time_and_hops_matter`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from chronoqa.generate.kg.index import NONE, Col
from chronoqa.generate.kg.operators.base import AnswerKind, Operator, time_ref
from chronoqa.generate.kg.operators.chains import (
    HUB_CAP,
    Draft,
    GenContext,
    draw_chain,
    first_askable,
    reference_rows,
)
from chronoqa.generate.kg.templates import Renderer, Template, cap
from chronoqa.records import Fact

__all__ = ["OPERATOR", "draft", "time_refs"]


def draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """A point_in_time chain; ``t`` = start ± 1 of an unambiguous reference fact of the anchor."""
    idx = ctx.index
    drawn = draw_chain(ctx, rng, k)
    if drawn is None:
        return None
    anchor, hops, spans = drawn
    used = {h.fid for h in hops}
    nodes = {anchor} | {h.dst for h in hops}
    refs: list[tuple[int, int]] = []
    for ref in reference_rows(idx, rng, [anchor], used, nodes, cap=HUB_CAP):
        for off in (-1, 1):
            u = ref[Col.ASU] + off
            if ref[Col.ASU] != NONE and any(a <= u <= b for a, b in spans):
                refs.append((ref[Col.FID], off))
    rng.shuffle(refs)
    ctx.miss = "no unambiguous reference fact a unit off"
    times = [((gid, off), idx.fact_row(gid)[Col.SU] + off) for gid, off in refs[:4]]
    found = first_askable(ctx, anchor, hops, times)
    if found is None:
        return None
    (gid, off), t, ok, tf = found
    return Draft(
        "before_after", "after" if off > 0 else "before", anchor, tuple(hops), t, ok[0], AnswerKind.ENTITY,
        ok[1], ref_fid=gid, offset=off, time_free=tf,
    )  # fmt: skip


def time_refs(d: Draft, facts: Sequence[Fact], t_iso: str) -> list[dict[str, str]]:
    """The start of the reference fact (the anchor's)."""
    start = facts[d.ref_fid].start
    return [time_ref("start", start.isoformat(), "anchor")] if start is not None else []


def _clause(rd: Renderer, d: Draft) -> str:
    return f"the {rd.unit_word()} {'after' if d.offset > 0 else 'before'} {rd.ref_clause(d, 'start_clause')}"


def _lead(rd: Renderer, d: Draft) -> str:
    return f"In {_clause(rd, d)}, {rd.ask(d)}?"


def _trailing(rd: Renderer, d: Draft) -> str:
    return f"{cap(rd.ask(d))} in {_clause(rd, d)}?"


def _one(rd: Renderer, d: Draft) -> str:
    side = "after" if d.offset > 0 else "before"
    return f"One {rd.unit_word()} {side} {rd.ref_clause(d, 'start_clause')}, {rd.ask(d)}?"


def _trailing_one(rd: Renderer, d: Draft) -> str:
    side = "after" if d.offset > 0 else "before"
    return f"{cap(rd.ask(d))} one {rd.unit_word()} {side} {rd.ref_clause(d, 'start_clause')}?"


OPERATOR = Operator(
    name="before_after",
    title="Before/after",
    weight=0.1,
    answer=AnswerKind.ENTITY,
    draft=draft,
    templates=(
        Template("ba.lead", _lead),
        Template("ba.trailing", _trailing),
        Template("ba.one", _one),
        Template("ba.trailing_one", _trailing_one),
    ),
    time_refs=time_refs,
    tempbench=True,
    census="pool",
    answer_at_t=True,
)
