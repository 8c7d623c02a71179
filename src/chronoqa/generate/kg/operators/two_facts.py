"""two_facts: "Which team did X play for when Y joined Z?" (the answer holds at another fact's time).

A relation between two facts: the asked fact's validity window contains the point where a second, unrelated
fact begins. Draft: a point-in-time chain (every hop unique and certain at ``t``); a reference fact ``g`` of
*another* entity (neither endpoint on the chain or among the answers: the question names two separate
facts), the only fact with its (s, r, o), whose start is known at the granularity; ``t`` is that start unit.
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

import numpy as np

from chronoqa.generate.kg.index import Col
from chronoqa.generate.kg.operators.base import AnswerKind, Operator, time_ref
from chronoqa.generate.kg.operators.chains import (
    Draft,
    GenContext,
    draw_chain,
    follow,
    time_and_hops_matter,
    triple_unique,
    unique_at,
)
from chronoqa.generate.kg.templates import Renderer, Template, cap
from chronoqa.records import Fact

__all__ = ["OPERATOR", "REF_TRIES", "draft", "time_refs"]

REF_TRIES = 16  # facts starting inside the chain's spans drawn per chain in search of a reference fact


def _by_start(ctx: GenContext) -> tuple[np.ndarray, np.ndarray]:
    """The timed facts sorted by start unit, and their start units (made once per build context)."""
    if ctx.timed_by_start is None:
        timed = np.asarray(ctx.timed, dtype=np.int64)
        su = ctx.index.table[timed, Col.SU]
        order = np.argsort(su, kind="stable")
        ctx.timed_by_start = (timed[order], su[order])
    return ctx.timed_by_start


def _reference(ctx: GenContext, rng: random.Random, spans: list[tuple[int, int]], nodes: set[int]) -> list[int]:
    """Candidate reference facts: another entity's unique fact whose known start unit lies in ``spans``."""
    idx = ctx.index
    fids, starts = _by_start(ctx)
    ranges = [(int(np.searchsorted(starts, a, "left")), int(np.searchsorted(starts, b, "right"))) for a, b in spans]
    total = sum(hi - lo for lo, hi in ranges)
    out: list[int] = []
    for _ in range(min(REF_TRIES, total)):
        k = rng.randrange(total)
        for lo, hi in ranges:
            if k < hi - lo:
                break
            k -= hi - lo
        gid = int(fids[lo + k])
        s, o = int(idx.table[gid, Col.S]), int(idx.table[gid, Col.O])
        if s in nodes or o in nodes or gid in out or not triple_unique(idx, gid) or not idx.usable(gid):
            continue
        out.append(gid)
        if len(out) == 4:
            break
    return out


def draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """A point_in_time chain asked at the start unit of an unrelated, unambiguous reference fact."""
    idx = ctx.index
    if not len(ctx.timed):
        return None
    drawn = draw_chain(ctx, rng, k)
    if drawn is None:
        return None
    anchor, hops, spans = drawn
    free = follow(idx, {anchor}, [(h.rel, h.forward) for h in hops], None)
    if free is not None and len(free) < 2:
        return None  # one value over all time: no reference time can matter (time_and_hops_matter says no)
    nodes = {anchor} | {h.dst for h in hops}
    for gid in _reference(ctx, rng, spans, nodes):
        t = idx.fact_row(gid)[Col.SU]
        ok = unique_at(ctx, hops, t)
        if ok is None or {idx.fact_row(gid)[Col.S], idx.fact_row(gid)[Col.O]} & set(ok[0]):
            continue
        tf = time_and_hops_matter(idx, anchor, hops, t, ok[0])
        if tf is None:
            continue
        return Draft(
            "two_facts", "when", anchor, tuple(hops), t, ok[0], AnswerKind.ENTITY, ok[1], ref_fid=gid, time_free=tf
        )
    return None


def time_refs(d: Draft, facts: Sequence[Fact], t_iso: str) -> list[dict[str, str]]:
    """The start of the reference fact (the point the answer holds at)."""
    start = facts[d.ref_fid].start
    return [time_ref("start", start.isoformat(), "anchor")] if start is not None else []


def _ref(rd: Renderer, d: Draft) -> str:
    return rd.fact_clause(d.ref_fid, "start_clause")


def _trailing(rd: Renderer, d: Draft) -> str:
    return f"{cap(rd.ask(d))} when {_ref(rd, d)}?"


def _lead(rd: Renderer, d: Draft) -> str:
    return f"When {_ref(rd, d)}, {rd.ask(d)}?"


def _at_the_time(rd: Renderer, d: Draft) -> str:
    return f"At the time {_ref(rd, d)}, {rd.ask(d)}?"


def _trailing_time(rd: Renderer, d: Draft) -> str:
    return f"{cap(rd.ask(d))} at the time {_ref(rd, d)}?"


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
)
