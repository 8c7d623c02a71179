"""interval: "In which year did X join Y?" (the answer is a time).

Draft: k-1 static hops from the anchor to ``e``, then the final fact ``f`` between ``e`` and a named entity, the
only fact with its (s, r, o); the answer is ``start(f)`` (or ``end(f)`` for a state); ``t`` is the answer.

Validity rule (:func:`every_hop_needed`): the named entity alone must not give the answer, and skipping any
prefix hop must change it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from chronoqa.generate.kg.index import NONE, Col, GraphIndex
from chronoqa.generate.kg.operators.base import AnswerKind, Operator, time_ref
from chronoqa.generate.kg.operators.chains import (
    Draft,
    GenContext,
    Hop,
    askable_at,
    draw_named_fact,
    follow,
    static_prefix,
    times_of,
)
from chronoqa.generate.kg.templates import Renderer, Template
from chronoqa.records import Fact

__all__ = ["OPERATOR", "draft", "every_hop_needed", "time_refs"]


def draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """The only fact of its (s, r, o) gives the answer time; k-1 static hops lead to it."""
    drawn = draw_named_fact(ctx, rng, k)
    if drawn is None:
        return None
    fid, row, forward, e, other = drawn
    idx = ctx.index
    r = row[Col.R]
    use_end = not idx.rel_event[r] and row[Col.EU] != NONE and rng.random() < 0.4
    t = row[Col.EU] if use_end else row[Col.SU]
    if not askable_at(ctx, row, t):
        ctx.miss = "answer time outside the range or not certain"
        return None
    person = e if forward else other
    if r in ctx.life and times_of(idx, {person}, r, True, other, use_end, any_partner=True) != {t}:
        ctx.miss = "birth or death dated twice"  # asked without its place ("In what year was X born?")
        return None
    ctx.miss = "a hop does not matter"  # the checks below, unless static_prefix says otherwise
    if k > 1 and times_of(idx, {other}, r, not forward or idx.rel_symmetric[r], e, use_end, any_partner=True) == {t}:
        return None  # the named entity alone gives the answer: the description of e is not needed
    pre = static_prefix(ctx, rng, e, t, k - 1, {other})
    if pre is None:
        return None
    anchor, prefix = pre
    final = Hop(fid, r, forward, e, other)
    if not every_hop_needed(idx, prefix, final, use_end, t):
        return None
    kind = AnswerKind.DATE.at(ctx.granularity)
    return Draft("interval", "end" if use_end else "start", anchor, (*prefix, final), t, (t,), kind, static_prefix=True)


def every_hop_needed(idx: GraphIndex, prefix: Sequence[Hop], final: Hop, use_end: bool, t: int) -> bool:
    """Skipping prefix hop ``i-1`` (going on from its source) must not give the same answer time ``t``."""
    for i in range(1, len(prefix)):
        ents = follow(idx, {prefix[i - 1].src}, [(h.rel, h.forward) for h in prefix[i:]], None)
        if ents is not None and times_of(idx, ents, final.rel, final.forward, final.dst, use_end) == {t}:
            return False
    return True


def time_refs(d: Draft, facts: Sequence[Fact], t_iso: str) -> list[dict[str, str]]:
    """The asked time of the answer fact: its start, or its end."""
    return [time_ref("end" if d.variant == "end" else "start", t_iso, "answer")]


def _ask(rd: Renderer, d: Draft) -> str:
    return rd.final_clause(d, "ask_end" if d.variant == "end" else "ask_start")


def _which(rd: Renderer, d: Draft) -> str:
    return f"In which {rd.unit_word()} {_ask(rd, d)}?"


def _when(rd: Renderer, d: Draft) -> str:
    return f"When {_ask(rd, d)}?"


def _what(rd: Renderer, d: Draft) -> str:
    return f"What {rd.unit_word()} {_ask(rd, d)}?"


def _in_what(rd: Renderer, d: Draft) -> str:
    return f"In what {rd.unit_word()} {_ask(rd, d)}?"


def ends_rested_on(idx: GraphIndex, d: Draft) -> list[int]:
    """An ``end`` question's answer is the asked fact's recorded end."""
    return [d.hops[-1].fid] if d.variant == "end" else []


OPERATOR = Operator(
    name="interval",
    title="Interval",
    weight=0.1,
    answer=AnswerKind.DATE,
    draft=draft,
    templates=(
        Template("iv.which", _which),
        Template("iv.when", _when),
        Template("iv.what", _what),
        Template("iv.in_what", _in_what),
    ),
    time_refs=time_refs,
    ends_rested_on=ends_rested_on,
    names_final_entity=True,
    tempbench=True,
    census="static",
)
