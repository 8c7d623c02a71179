"""relative: "Two years after X joined Y, who was the manager of Y?" (a time stated relative to a fact).

Draft: a point-in-time chain (every hop unique and certain at ``t``, as point_in_time); a reference fact ``g`` of
the anchor (the only fact with its (s, r, o), its far end off the chain), and ``t = point(g) + offset`` in units
of the granularity, where ``point`` is its start or, for a state with an end recorded at the granularity, its
end: "The year after X left Y, which club did X play for?". Offsets: 2 or 3 units before or after a start (one
unit from a start is before_after's question), 1 to 3 before or after an end. An end the data does not record
is never used (a state with no end has no "year after it ended").

``g`` goes to ``S_anchor`` and ``time_refs`` (the point used); ``render_time = false`` (the system must resolve
``t`` from ``g``). The logical form records the point as the variant (``after_start``, ``before_end``...) and
the signed offset.

Validity rule: as point_in_time (:func:`~chronoqa.generate.kg.operators.chains.time_and_hops_matter`): the
time-free reading and every skipped hop give another answer. A reference fact in the asked timeline is not nested
with the answer's spell or another spell of it (:func:`~chronoqa.generate.kg.tenure.nested_reason`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from chronoqa.generate.kg.index import NONE, Col, GraphIndex
from chronoqa.generate.kg.operators.base import AnswerKind, Operator, time_ref
from chronoqa.generate.kg.operators.chains import (
    Draft,
    GenContext,
    draw_chain,
    first_askable,
    reference_rows,
)
from chronoqa.generate.kg.templates import Renderer, Template, cap
from chronoqa.records import Fact

__all__ = ["OFFSETS", "OPERATOR", "draft", "time_refs"]

#: Signed offsets in units from a reference fact's start or end.
OFFSETS = {"start": (-3, -2, 2, 3), "end": (-3, -2, -1, 1, 2, 3)}
_NUMBERS = {1: "one", 2: "two", 3: "three"}


def _points(ctx: GenContext, rng: random.Random, anchor: int, used: set[int], nodes: set[int]) -> list[tuple[int, str]]:
    """``(fact, start | end)`` for the anchor's reference facts (:func:`reference_rows`) with that point known."""
    idx = ctx.index
    out = []
    for ref in reference_rows(idx, rng, [anchor], used, nodes):
        gid = ref[Col.FID]
        if ref[Col.ASU] != NONE:
            out.append((gid, "start"))
        if ref[Col.AEU] != NONE and not idx.rel_event[ref[Col.AR]]:
            out.append((gid, "end"))
    return out


def draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """A point_in_time chain asked a few units before or after the start or end of a fact of the anchor."""
    idx = ctx.index
    drawn = draw_chain(ctx, rng, k)
    if drawn is None:
        return None
    anchor, hops, spans = drawn
    nodes = {anchor} | {h.dst for h in hops}
    refs: list[tuple[int, str, int]] = []
    for gid, which in _points(ctx, rng, anchor, {h.fid for h in hops}, nodes):
        row = idx.fact_row(gid)
        u = row[Col.SU] if which == "start" else row[Col.EU]
        refs += [(gid, which, off) for off in OFFSETS[which] if any(a <= u + off <= b for a, b in spans)]
    rng.shuffle(refs)
    times = [((gid, which, off), idx.fact_row(gid)[Col.SU if which == "start" else Col.EU] + off)
             for gid, which, off in refs[:4]]  # fmt: skip
    found = first_askable(ctx, anchor, hops, times)
    if found is None:
        return None
    (gid, which, off), t, ok, tf = found
    variant = f"{'after' if off > 0 else 'before'}_{which}"
    return Draft("relative", variant, anchor, tuple(hops), t, ok[0], AnswerKind.ENTITY, ok[1], ref_fid=gid,
                 offset=off, time_free=tf)  # fmt: skip


def time_refs(d: Draft, facts: Sequence[Fact], t_iso: str) -> list[dict[str, str]]:
    """The point of the reference fact the offset is counted from."""
    which = d.variant.split("_")[1]
    f = facts[d.ref_fid]
    p = f.start if which == "start" else f.end
    return [time_ref(which, p.isoformat(), "anchor")] if p is not None else []


def _when(rd: Renderer, d: Draft, *, trailing: bool = False) -> str:
    """The time clause: "two years after X joined Y", "the year before leaving Y" (the question's subject's).

    ``trailing``: after the question clause, which named an entity it may say "it" or "its" for
    (:meth:`Renderer.ref_clause`).
    """
    side, which = d.variant.split("_")
    clause = rd.ref_clause(d, f"{which}_clause", trailing=trailing)
    n = abs(d.offset)
    unit = rd.unit_word()
    amount = f"the {unit}" if n == 1 else f"{_NUMBERS[n]} {unit}s"
    return f"{amount} {side} {clause}"


def _field(d: Draft) -> str:
    """The reference's clause field: of its start or of its end."""
    return f"{d.variant.split('_')[1]}_clause"


def _lead(rd: Renderer, d: Draft) -> str:
    """The time clause first; the question clause says "its" for its subject the reference named."""
    return f"{cap(_when(rd, d))}, {rd.ask(d, rd.ref_names(d, _field(d)))}?"


def _trailing(rd: Renderer, d: Draft) -> str:
    return f"{cap(rd.ask(d))} {_when(rd, d, trailing=True)}?"


def _prior_to(rd: Renderer, d: Draft, later: str) -> str:
    """The time clause with a prepositional offset: "three years prior to joining Y", "a year on from leaving Y".

    ``later`` says an offset after the reference ("on from" leads a question; a trailing "on from" reads badly, so
    a trailing one says "after"). Only before a gerund the question's subject shares (a preposition takes no
    clause); :func:`_when` otherwise.
    """
    side, which = d.variant.split("_")
    shared = rd.shared_gerund(d, f"{which}_clause")
    if shared is None:
        return _when(rd, d, trailing=later == "after")
    n = abs(d.offset)
    unit = rd.unit_word()
    amount = f"a {unit}" if n == 1 else f"{_NUMBERS[n]} {unit}s"
    return f"{amount} {later if side == 'after' else 'prior to'} {shared}"


def _prior_lead(rd: Renderer, d: Draft) -> str:
    return f"{cap(_prior_to(rd, d, 'on from'))}, {rd.ask(d, rd.ref_names(d, _field(d)))}?"


def _prior_trailing(rd: Renderer, d: Draft) -> str:
    return f"{cap(rd.ask(d))} {_prior_to(rd, d, 'after')}?"


def ends_rested_on(idx: GraphIndex, d: Draft) -> list[int]:
    """A ``..._end`` question counts from the reference fact's end."""
    return [d.ref_fid] if d.variant.endswith("_end") else []


OPERATOR = Operator(
    name="relative",
    title="Relative time",
    weight=0.1,
    answer=AnswerKind.ENTITY,
    draft=draft,
    templates=(
        Template("rt.lead", _lead),
        Template("rt.trailing", _trailing),
        Template("rt.prior_lead", _prior_lead),
        Template("rt.prior_trailing", _prior_trailing),
    ),
    time_refs=time_refs,
    ends_rested_on=ends_rested_on,
    answer_at_t=True,
)
