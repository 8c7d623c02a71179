"""allen: "Is it true that X joined Z before Y left Z?" (how two facts' validity windows relate; yes or no).

A relation between two facts, each named by its (s, r, o) and the only fact with it, whose starts are known at
the granularity. The asked fact ``A`` ends a chain of k-1 static hops (as in yes_no); the reference fact ``B``
touches ``A``'s named entity (``final_other``) and no other entity of the chain ("Was it still the case when Y won P
that X was married to Y?"), has A's subject as its subject or one linked to it by a fact of the graph
(:func:`related_subjects`: "Did X join Z before Y left Z?" pairs two strangers who share a club), and is not the
birth or death of A's subject when A is another fact of that subject, nor the reverse (joining a club after one's
own birth is known a priori). The question compares one endpoint of each window, in units of the granularity:

* ``<pa>_<op>_<pb>`` (``pa``, ``pb`` in start / end, ``op`` in before / after / same): "Is it true that X
  joined Z before Y left Z?" is ``start(A) < end(B)``; ``same`` asks for the same unit ("in the same year that");
* ``still``: B's start lies strictly inside A's window (``start(A) < start(B) < end(A)``): yes; it lies after
  A's end: no.

An event has no end: it is read at its start unit. Nothing is guessed: two endpoints in the same unit are not
ordered (their order within the unit is not recorded), and an end the data does not record (a state with no end,
under either open-end reading) is only known to be at or after its start; a comparison that these unknowns
leave open is not asked, and no question names such an end at all (:func:`ends_rested_on`, rule ``end of an open
fact`` in :mod:`~chronoqa.generate.kg.tenure`). The label is drawn first, half each, and a comparison with that
truth is looked for (the cell keeps the labels balanced, as for yes_no). The pair's Allen relation
(:func:`chronoqa.time.allen_of_spans` over the unit windows) follows from its endpoints; the checker counts it per
question.

``B`` goes to ``S_anchor`` (its start, or end, is a time reference of the anchor); ``t_query`` is A's start
unit, which the question does not show.

Validity rule (:func:`gold_comparison`): the prefix is certainly valid at ``t_query``, and the comparison of the
recorded endpoints gives the label.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from chronoqa.generate.kg.index import NONE, Col, GraphIndex, certain_interval
from chronoqa.generate.kg.operators.base import AnswerKind, GoldFacts, Operator, time_ref
from chronoqa.generate.kg.operators.chains import (
    Draft,
    GenContext,
    Hop,
    askable_at,
    draw_named_fact,
    nameable_sample,
    reach,
)
from chronoqa.generate.kg.templates import Renderer, Template
from chronoqa.records import Fact, Question
from chronoqa.time import Granularity, parse_time, valid_at

__all__ = [
    "COMPARISONS",
    "OPERATOR",
    "VARIANTS",
    "compare",
    "draft",
    "gold_comparison",
    "life_order_fixed",
    "related_subjects",
    "still",
    "time_refs",
    "truth",
    "window",
]

#: ``(endpoint of A, comparison, endpoint of B)`` a question may ask, in draw order (``still`` apart).
COMPARISONS = tuple(
    (pa, op, pb) for pa in ("start", "end") for op in ("before", "after", "same") for pb in ("start", "end")
)
REF_TRIES = 24  # facts of the named entity kept per drawn asked fact (a random sample of 4x as many is read)

#: A window in units: ``(start, end)``; ``end`` is ``None`` where the data records none (at or after the start).
Window = tuple[int, int | None]


def window(su: int, eu: int, is_event: bool) -> Window | None:
    """The unit window of a fact (``None`` without a known start): an event at its start, a state to its end."""
    if su == NONE:
        return None
    if is_event:
        return (su, su) if eu in (NONE, su) else None  # an event over several units is implausible data
    return (su, None if eu == NONE else eu)


def _before(a: int | None, la: int, b: int | None, lb: int) -> bool | None:
    """``a < b`` where an unknown ``a`` (``None``) is ``>= la`` and an unknown ``b`` is ``>= lb``; ``None``: open."""
    if a is not None and b is not None:
        return None if a == b else a < b
    if a is None and b is not None:
        return False if la > b else None
    if a is not None and b is None:
        return True if a < lb else None
    return None


def compare(wa: Window, pa: str, op: str, wb: Window, pb: str) -> bool | None:
    """Whether endpoint ``pa`` of window ``wa`` is ``op`` (before / after / same) endpoint ``pb`` of ``wb``.

    ``None`` when the data leaves it open: the same unit for before / after, an unrecorded end that may fall
    either way.
    """
    a = wa[0] if pa == "start" else wa[1]
    b = wb[0] if pb == "start" else wb[1]
    la, lb = wa[0], wb[0]  # an unknown end is at or after its start
    if op == "before":
        return _before(a, la, b, lb)
    if op == "after":
        return _before(b, lb, a, la)
    if a is not None and b is not None:
        return a == b
    lo, known = (la, b) if a is None else (lb, a)
    return False if known is not None and known < lo else None


def still(wa: Window, wb: Window) -> bool | None:
    """B begins strictly inside A's closed window (yes) or after it ended (no); anything else is open."""
    sa, ea = wa
    sb = wb[0]
    if ea is None or sb in (sa, ea):
        return None
    if sa < sb < ea:
        return True
    return False if sb > ea else None


def _candidates(ctx: GenContext, rng: random.Random, other: int, skip: set[int], fid: int) -> list[int]:
    """Reference facts of the named entity: unique triples, usable, known start, the far end off the chain."""
    idx = ctx.index
    out = []
    for row in nameable_sample(idx, other, rng, REF_TRIES * 4):
        g = row[Col.FID]
        if g != fid and row[Col.OTHER] not in skip and row[Col.ASU] != NONE:
            out.append(g)
    rng.shuffle(out)
    return out[:REF_TRIES]


#: Every question a pair may be asked: the endpoint comparisons, then ``still``.
VARIANTS = (*(f"{pa}_{op}_{pb}" for pa, op, pb in COMPARISONS), "still")


def truth(variant: str, wa: Window, wb: Window) -> bool | None:
    """The answer to ``variant`` for the windows ``wa`` (the asked fact) and ``wb`` (``None``: left open)."""
    if variant == "still":
        return still(wa, wb)
    pa, op, pb = variant.split("_")
    return compare(wa, pa, op, wb, pb)


def _fits(variant: str, a_event: bool, b_event: bool) -> bool:
    """An event has no end to compare (and is never "still" the case)."""
    if variant == "still":
        return not a_event
    pa, _, pb = variant.split("_")
    return not (pa == "end" and a_event) and not (pb == "end" and b_event)


def related_subjects(idx: GraphIndex, a: int, b: int) -> bool:
    """The subjects of the two facts are one entity or linked by a fact of the graph (a spouse; the asked fact).

    Two players who only share a club, two people born in one city, two winners of one prize are unrelated: "Did
    Ernest Lawrence win the Enrico Fermi Award after John von Neumann won it?" reads as trivia, and over a subset
    graph a repeat win of either is missing ("Boeheim after Bennett", who won again in 2018).
    """
    return a == b or any(bool((idx.other_at(fw, slice(*idx.bounds(a, fw))) == b).any()) for fw in (True, False))


def draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """A named fact A, a fact B of A's named entity, and a comparison of their windows with the drawn label.

    The comparison and the label are drawn first (each variant as often, half of each label), then a fact B
    that gives that label is looked for among a sample of the named entity's facts.
    """
    variant = VARIANTS[rng.randrange(len(VARIANTS))]
    yes = rng.random() < 0.5
    drawn = draw_named_fact(ctx, rng, k)
    if drawn is None:
        return None
    fid, row, forward, e, other = drawn
    idx = ctx.index
    r = row[Col.R]
    wa = window(row[Col.SU], row[Col.EU], bool(idx.rel_event[r]))
    if wa is None or (variant == "still" and idx.rel_event[r]) or not askable_at(ctx, row, wa[0]):
        return None
    t = wa[0]
    pre = reach(ctx, rng, e, t, k, {other})  # the static prefix first: where it fails, nothing else is read
    if pre is None:
        return None
    chain = {e} | {h.src for h in pre[1]}
    for gid in _candidates(ctx, rng, other, chain, fid):
        g = idx.fact_row(gid)
        wb = window(g[Col.SU], g[Col.EU], bool(idx.rel_event[g[Col.R]]))
        if wb is None or not _fits(variant, bool(idx.rel_event[r]), bool(idx.rel_event[g[Col.R]])):
            continue
        if g[Col.S] == row[Col.S] and ctx.life & {r, g[Col.R]}:
            continue  # one's own birth or death against another fact of one's life: the order is known a priori
        if not related_subjects(idx, row[Col.S], g[Col.S]):
            continue  # two strangers who share a club, a city or a prize: trivia, not one story
        if truth(variant, wa, wb) is yes:
            final = Hop(fid, r, forward, e, other)
            return Draft("allen", variant, pre[0], (*pre[1], final), t, (int(yes),), AnswerKind.YES_NO,
                         ref_fid=gid, static_prefix=True)  # fmt: skip
    return None


def life_order_fixed(ctx: GenContext, d: Draft) -> str | None:
    """A before / after comparison whose answer a life gives, not the data: rule ``order fixed by a life``.

    One fact dates an entity's birth or death (a relation of ``ctx.life``, the phrase table's ``role``) and the
    entity is a party of the other fact, as its subject or its object: "Is it true that Betty Hutton married Alan W.
    Livingston after Alan W. Livingston died?" is no, always; "Ann Sheridan died after marrying Edward Norris" yes,
    always. The draft skips one's own birth or death against a fact of the same subject; this reads the pair
    once worded (:attr:`Operator.worded_rule <chronoqa.generate.kg.operators.base.Operator>`), so that a dropped
    question moves no other draw. "In the same year" and "still ... when" read a date, not an order, and stay.
    """
    if d.variant == "still" or d.variant.split("_")[1] == "same":
        return None
    a, b = ctx.index.fact_row(d.hops[-1].fid), ctx.index.fact_row(d.ref_fid)
    fixed = any(x[Col.R] in ctx.life and x[Col.S] in (y[Col.S], y[Col.O]) for x, y in ((a, b), (b, a)))
    return "order fixed by a life" if fixed else None


def _fact_window(start: str | None, end: str | None, is_event: bool, g: Granularity) -> Window | None:
    """A recorded fact's unit window from its ISO times (a time coarser than ``g`` is unknown)."""
    s, e = parse_time(start) if start else None, parse_time(end) if end else None
    su = s.lo(g) if s is not None and s.granularity >= g else NONE
    eu = e.lo(g) if e is not None and e.granularity >= g else NONE
    return window(su, eu, is_event)


def gold_comparison(gold: GoldFacts, q: Question, positions: Sequence[int]) -> str | None:
    """The prefix certainly valid at ``t_query``; the recorded windows of A and B give the question's label."""
    tq = q.t_query_point
    assert tq is not None and len(q.S_anchor) == 1
    g = tq.granularity
    for pos in positions[:-1]:
        f = gold.facts[pos]
        iv = certain_interval(f, gold.is_event.get(f.r, False), gold.open_end)
        if not valid_at(iv, tq, g, as_of=gold.as_of, mode="certain"):
            return f"S* fact {f.id} not valid at {q.t_query}"
    a, b = q.S_star[len(q.logical_form["path"]) - 1], q.S_anchor[0]
    wa = _fact_window(a.t_start, a.t_end, gold.is_event.get(a.r_id, False), g)
    wb = _fact_window(b.t_start, b.t_end, gold.is_event.get(b.r_id, False), g)
    if wa is None or wb is None:
        return "a fact of the comparison has no known start"
    variant = q.logical_form["variant"]
    said = truth(variant, wa, wb)
    if said is None or q.answers != (("yes",) if said else ("no",)):
        return f"comparison {variant} of {wa} and {wb} is {said}, not {q.answers}"
    return None


def time_refs(d: Draft, facts: Sequence[Fact], t_iso: str) -> list[dict[str, str]]:
    """The compared endpoints the data records: A's (of the answer) and B's (of the anchor)."""
    a, b = facts[d.hops[-1].fid], facts[d.ref_fid]
    parts = d.variant.split("_")
    pa, pb = (("start", "end"), "start") if d.variant == "still" else ((parts[0],), parts[2])
    refs = [time_ref("start", t_iso, "answer")] if "start" in pa else []
    if "end" in pa and a.end is not None:
        refs.append(time_ref("end", a.end.isoformat(), "answer"))
    p = b.start if pb == "start" else b.end
    if p is not None:
        refs.append(time_ref(pb, p.isoformat(), "anchor"))
    return refs


def _clause(rd: Renderer, d: Draft, which: str) -> str:
    return rd.final_clause(d, which)


def _reference(rd: Renderer, d: Draft, a_which: str, b_which: str) -> tuple[str, bool]:
    """B's clause after A's, and whether it is a gerund.

    A gerund where both clauses open with one entity ("X left Y before joining Z"), else "it" for the one thing
    A's clause names that B repeats ("X joined Y before it acquired Z": :meth:`Renderer.it_clause`), else in full.
    """
    a = d.hops[-1].fid
    lead = rd.lead_entity(a, a_which)
    shared = None if lead is None else rd.gerund(d.ref_fid, b_which, lead)
    if shared is not None:
        return shared, True
    named = {d.anchor} | {h.src for h in d.hops} | {h.dst for h in d.hops}
    it = rd.it_clause(d.ref_fid, b_which, named)
    return (rd.fact_clause(d.ref_fid, b_which) if it is None else it), False


def _comparison(rd: Renderer, d: Draft) -> str:
    """The comparison: "X left Y in the same year as joining Z" where B shares A's clause subject, else in full."""
    pa, op, pb = d.variant.split("_")
    ref, gerund = _reference(rd, d, f"{pa}_clause", f"{pb}_clause")
    word = f"in the same {rd.unit_word()} {'as' if gerund else 'that'}" if op == "same" else op
    return f"{_clause(rd, d, f'{pa}_clause')} {word} {ref}"


def _is_still(rd: Renderer, d: Draft) -> bool:
    return d.variant == "still"


def _not_still(rd: Renderer, d: Draft) -> bool:
    return d.variant != "still"


def _true_that(rd: Renderer, d: Draft) -> str:
    return f"Is it true that {_comparison(rd, d)}?"


def _yes_or_no(rd: Renderer, d: Draft) -> str:
    return f"Yes or no: {_comparison(rd, d)}?"


def _still(rd: Renderer, d: Draft) -> str:
    """B before A ("Was it still the case when Y joined Z that X played for Y?"); a gerund follows A instead."""
    ref, gerund = _reference(rd, d, "statement", "start_clause")
    if gerund:
        return f"Was it still the case that {_clause(rd, d, 'statement')} when {ref}?"
    return f"Was it still the case when {rd.fact_clause(d.ref_fid, 'start_clause')} that {_clause(rd, d, 'statement')}?"


def _at_the_time(rd: Renderer, d: Draft) -> str:
    """B inside A read at B's start: "Is it true that X played for Y at the time of joining Z?".

    ("... and was still so when joining Z" is stilted.)
    """
    ref, gerund = _reference(rd, d, "statement", "start_clause")
    return f"Is it true that {_clause(rd, d, 'statement')} at the time {'of ' if gerund else ''}{ref}?"


def ends_rested_on(idx: GraphIndex, d: Draft) -> list[int]:
    """The asked fact's end where the comparison reads it (``still``, ``end_...``), the reference's likewise."""
    parts = d.variant.split("_")
    asked = [d.hops[-1].fid] if d.variant == "still" or parts[0] == "end" else []
    return asked + ([d.ref_fid] if parts[-1] == "end" else [])


OPERATOR = Operator(
    name="allen",
    title="Two windows",
    weight=0.1,
    answer=AnswerKind.YES_NO,
    draft=draft,
    templates=(
        Template("al.true_that", _true_that, _not_still),
        Template("al.yes_or_no", _yes_or_no, _not_still),
        Template("al.still", _still, _is_still),
        Template("al.at_the_time", _at_the_time, _is_still),
    ),
    time_refs=time_refs,
    ends_rested_on=ends_rested_on,
    worded_rule=life_order_fixed,
    gold_rule=gold_comparison,
    names_final_entity=True,
)
