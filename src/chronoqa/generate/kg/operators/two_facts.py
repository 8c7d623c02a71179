"""two_facts: "Which team did X play for when X married Y?" (the answer holds at another fact's time).

A relation between two facts: the asked fact's validity window contains the point where a second fact begins.
Draft: a point-in-time chain (every hop unique and certain at ``t``); a reference fact ``g`` of an entity the
question names on the chain (the anchor or a bridge, never the answer: the two facts share a person, an
organisation or a place, so the question reads as one story, not as two unrelated facts joined by a date), its
other end off the chain, the only fact with its (s, r, o), whose start is known at the granularity; ``t`` is
that start unit (:func:`~chronoqa.generate.kg.operators.chains.reference_rows`, shared with relative).
``g`` goes to ``S_anchor``; the question's time reference is its start. ``t`` is not shown (the system must
resolve the time of ``g``).

Unknown and open ends are never guessed: ``g`` is used by its start only (an unknown start is never drawn),
and the chain's facts must be *certainly* valid at ``t`` with no other value *possibly* valid at ``t`` (an
open end counts as possibly going on; under the ``unknown`` open-end reading it is certain only in its start
unit), so an answer that rests on an end the data does not record is not asked.

Validity rule: as point_in_time (:func:`~chronoqa.generate.kg.operators.chains.time_and_hops_matter`): the
time-free reading and every skipped hop give another answer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from chronoqa.generate.kg.index import NONE, Col
from chronoqa.generate.kg.operators.base import AnswerKind, Operator, time_ref
from chronoqa.generate.kg.operators.chains import (
    Draft,
    GenContext,
    Hop,
    Spans,
    draw_chain,
    first_askable,
    follow,
    reference_rows,
)
from chronoqa.generate.kg.templates import Renderer, Template, cap, event_time
from chronoqa.records import Fact

__all__ = ["CHAIN_TRIES", "OPERATOR", "draft", "time_refs"]

CHAIN_TRIES = 8  # 1-hop chains drawn per attempt until one has a candidate reference fact


def _reference(ctx: GenContext, rng: random.Random, hops: list[Hop], anchor: int, spans: Spans) -> list[int]:
    """Candidate reference facts: a named chain entity's fact (:func:`reference_rows`) starting inside ``spans``."""
    nodes = {anchor} | {h.dst for h in hops}
    named = [anchor, *(h.dst for h in hops[:-1])]  # the anchor and the bridges: never the answer
    rows = reference_rows(ctx.index, rng, named, {h.fid for h in hops}, nodes)
    out = [r[Col.FID] for r in rows if r[Col.ASU] != NONE and any(a <= r[Col.ASU] <= b for a, b in spans)]
    rng.shuffle(out)
    return out[:4]


def draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """A point_in_time chain asked at the start unit of an unambiguous fact of one of its named entities."""
    idx = ctx.index
    # most 1-hop chains' anchors have no other dated fact: redraw within the attempt (a longer chain names more
    # entities, and reading all of their facts per redraw would cost more than it finds)
    for _ in range(CHAIN_TRIES if k == 1 else 1):
        drawn = draw_chain(ctx, rng, k)
        if drawn is None:
            return None
        anchor, hops, spans = drawn
        refs = _reference(ctx, rng, hops, anchor, spans)
        if refs:
            break
    else:
        return None
    free = follow(idx, {anchor}, [(h.rel, h.forward) for h in hops], None)
    if free is not None and len(free) < 2:
        return None  # one value over all time: no reference time can matter (time_and_hops_matter says no)
    found = first_askable(ctx, anchor, hops, [(gid, idx.fact_row(gid)[Col.SU]) for gid in refs])
    if found is None:
        return None
    gid, t, ok, tf = found
    return Draft(
        "two_facts", "when", anchor, tuple(hops), t, ok[0], AnswerKind.ENTITY, ok[1], ref_fid=gid, time_free=tf
    )


def time_refs(d: Draft, facts: Sequence[Fact], t_iso: str) -> list[dict[str, str]]:
    """The start of the reference fact (the point the answer holds at)."""
    start = facts[d.ref_fid].start
    return [time_ref("start", start.isoformat(), "anchor")] if start is not None else []


def _ref(rd: Renderer, d: Draft, lead: str, *, trailing: bool = False) -> str:
    """The reference after ``lead`` ("when", "at the time"): a gerund where it shares the question's subject.

    "Which party was X a member of when moving to Y?", "... at the time of moving to Y?"; else the full clause,
    after the question clause with "it", "there" or "its" for an entity that one named ("In which country was
    Berlin located when Johann Euler moved there?", :meth:`Renderer.ref_clause`). An event's gerund reads "at the
    time of" after either lead, its noun where it has one: "at the time of death in Y", not "when dying in Y"
    (:func:`~chronoqa.generate.kg.templates.event_time`).
    """
    shared = rd.shared_gerund(d, "start_clause")
    if shared is None:
        return f"{lead} {rd.ref_clause(d, 'start_clause', trailing=trailing)}"
    if rd.is_event(d.ref_fid):
        return event_time(shared)
    return f"{'at the time of' if lead == 'at the time' else lead} {shared}"


def _trailing(rd: Renderer, d: Draft) -> str:
    return f"{cap(rd.ask(d))} {_ref(rd, d, 'when', trailing=True)}?"


def _lead(rd: Renderer, d: Draft) -> str:
    """The reference first; the question clause says "its" for its subject the reference named."""
    return f"{cap(_ref(rd, d, 'when'))}, {rd.ask(d, rd.ref_names(d, 'start_clause'))}?"


def _at_the_time(rd: Renderer, d: Draft) -> str:
    return f"{cap(_ref(rd, d, 'at the time'))}, {rd.ask(d, rd.ref_names(d, 'start_clause'))}?"


def _trailing_time(rd: Renderer, d: Draft) -> str:
    return f"{cap(rd.ask(d))} {_ref(rd, d, 'at the time', trailing=True)}?"


OPERATOR = Operator(
    name="two_facts",
    title="Two facts",
    weight=0.1,
    answer=AnswerKind.ENTITY,
    draft=draft,
    templates=(
        Template("tf.trailing", _trailing),
        Template("tf.lead", _lead),
        Template("tf.at_the_time", _at_the_time),
        Template("tf.trailing_time", _trailing_time),
    ),
    time_refs=time_refs,
    census="pool",
    answer_at_t=True,
)
