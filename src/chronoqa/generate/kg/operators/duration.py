"""duration: "How many years after X joined Y did X leave Y?" (the answer is a number of units).

Draft: k-1 static hops from the anchor to ``e``, then the final fact ``f`` between ``e`` and a named entity: a
state, the only fact with its (s, r, o), with a start and an end both known at the granularity (a closed
interval: an open or unknown end is never guessed) and at least one unit apart, over a relation the data does not
store per term (:meth:`~chronoqa.generate.kg.index.GraphIndex.per_term`: one spell of a deputy's or a player's
tenure is not its length; "How long was Ernest Bevin a Member of Parliament?" answered from his one 1950-1951
spell in the graph). The answer is
``end unit - start unit`` (:class:`chronoqa.time.Duration`), scored within the granularity's tolerance
(:data:`chronoqa.time.TOLERANCE`: at year and month granularity the true span lies strictly within one unit,
so a stated whole number must equal the gold and a fraction may fall within a unit; exact at day
granularity); ``t`` is the start.

Validity rule (:func:`gold_closed_spell`): the S* facts are certainly valid at ``t`` and the answer fact's end
is known and ``answer`` units after its start.

One hop only (:data:`BRIDGE_NAMED_TWICE`): a duration names its spell twice, at its start and at its end, so a
description of ``e`` reads twice too ("How many years passed between when the spouse of Ferdinand Marcos as of 1970
became affiliated with the Nacionalista Party and when the affiliation of that spouse ... ended?"), a roundabout
name for one person (blind read 10: unnatural, 4 of 120); the 2-hop cell stays empty with its census.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from chronoqa.generate.kg.index import NONE, Col, GraphIndex, certain_interval
from chronoqa.generate.kg.operators.base import (
    AnswerKind,
    GoldFacts,
    Operator,
    gold_certain_at_t_query,
    time_ref,
)
from chronoqa.generate.kg.operators.chains import (
    Draft,
    GenContext,
    Hop,
    askable_at,
    draw_named_fact,
    reach,
)
from chronoqa.generate.kg.templates import Renderer, Template
from chronoqa.records import Fact, Question
from chronoqa.time import Duration, Granularity

__all__ = ["OPERATOR", "career_gap", "draft", "gold_closed_spell", "time_refs"]


def career_gap(idx: GraphIndex, fid: int, s: int, r: int, su: int, eu: int) -> bool:
    """The subject's record of a career relation has a gap beside the spell ``su``-``eu`` of fact ``fid``.

    Another spell of ``(s, r)`` ends before ``su - 1`` (starts after ``eu + 1``) and no other spell may hold in
    ``su - 1`` (``eu + 1``): the graph lacks what the subject did in between, which may be this employer too
    (Evans-Pritchard: the London School of Economics to 1930, then Oxford 1946-1970 only; he was at Oxford from 1935).
    """
    others = [x for x in idx.group(s, r, True) if x[Col.FID] != fid]

    def held(t: int) -> bool:
        return any(x[Col.APLO] <= t <= x[Col.APHI] for x in others)

    before = any(x[Col.AEU] != NONE and x[Col.AEU] < su - 1 for x in others) and not held(su - 1)
    after = any(x[Col.ASU] != NONE and x[Col.ASU] > eu + 1 for x in others) and not held(eu + 1)
    return before or after


BRIDGE_NAMED_TWICE = "a bridge named twice in a duration"


def draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """A closed spell of a state, named by its (s, r, o); its length in units (one hop: see the module docstring)."""
    if k > 1:
        ctx.miss = BRIDGE_NAMED_TWICE
        return None
    drawn = draw_named_fact(ctx, rng, k)
    if drawn is None:
        return None
    fid, row, forward, e, other = drawn
    idx = ctx.index
    r = row[Col.R]
    su, eu = row[Col.SU], row[Col.EU]
    if idx.rel_event[r] or su == NONE or eu == NONE or eu - su < 1 or idx.per_term(r):
        return None  # an event, an open or unknown end, a spell within one unit, or one term of a tenure
    if r in ctx.careers and career_gap(idx, fid, row[Col.S], r, su, eu):
        ctx.miss = "gap in a career record"
        return None  # the spell may be the last part of a longer one the graph leaves out
    if not askable_at(ctx, row, su):
        return None
    n = eu - su
    pre = reach(ctx, rng, e, su, k, {other})
    if pre is None:
        return None
    final = Hop(fid, r, forward, e, other)
    return Draft("duration", "closed", pre[0], (*pre[1], final), su, (n,), AnswerKind.DURATION, static_prefix=True)


def gold_closed_spell(gold: GoldFacts, q: Question, positions: Sequence[int]) -> str | None:
    """S* certainly valid at ``t_query``; the answer fact a closed state whose length is the answer."""
    why = gold_certain_at_t_query(gold, q, positions)
    if why is not None:
        return why
    f = gold.facts[positions[len(q.logical_form["path"]) - 1]]
    g = Granularity.parse(q.granularity)
    iv = certain_interval(f, gold.is_event.get(f.r, False), gold.open_end)
    if gold.is_event.get(f.r, False) or iv.start is None or iv.end is None or f.end is None:
        return f"duration fact {f.id} is not a closed state"
    want = Duration(iv.end.lo(g) - iv.start.lo(g), g)
    if list(q.answer_ids) != [want.iso()]:
        return f"duration {q.answer_ids} != {want.iso()}"
    return None


def time_refs(d: Draft, facts: Sequence[Fact], t_iso: str) -> list[dict[str, str]]:
    """The start and the end of the spell."""
    f = facts[d.hops[-1].fid]
    end = f.end.isoformat() if f.end is not None else ""
    return [time_ref("start", t_iso, "answer"), time_ref("end", end, "answer")]


def _start(rd: Renderer, d: Draft) -> str:
    return rd.final_clause(d, "start_clause")


def _end(rd: Renderer, d: Draft, which: str, *, it: bool = False) -> str:
    """The spell's end after its start: its second wording where the table has one ("did the marriage end")."""
    which = rd.end_field(d.hops[-1].fid, which)
    return rd.final_clause(d, which, again=True, it=it)  # "... and when that spouse stopped ...": not named twice


def _gerunds(rd: Renderer, d: Draft, which: str) -> tuple[str, str, int] | None:
    """The spell's start as a gerund, its end ``which`` with the object as "it", and their shared subject; or None.

    Where both clauses open with one entity, the fact's subject or, for a field opening with its object ("{o}
    became head of government of {s}"), its object (``end_clause``: a gerund too): "after joining Y ... leave it",
    "X joining Y and leaving it", "after becoming head of government of Y did X leave that office".
    """
    fid = d.hops[-1].fid
    lead = rd.lead_entity(fid, "start_clause")
    start = None if lead is None else rd.gerund(fid, "start_clause", lead)
    if start is None or lead is None or rd.lead_entity(fid, rd.end_field(fid, which)) != lead:
        return None
    if which == "end_clause":
        end = rd.gerund(fid, rd.end_field(fid, which), lead, it=True)
    else:
        end = _end(rd, d, which, it=True)
    return None if end is None else (start, end, lead)


def _after(rd: Renderer, d: Draft) -> str:
    if (g := _gerunds(rd, d, "ask_end")) is not None:
        return f"How many {rd.unit_word()}s after {g[0]} {g[1]}?"
    return f"How many {rd.unit_word()}s after {_start(rd, d)} {_end(rd, d, 'ask_end')}?"


def _subject(rd: Renderer, d: Draft, e: int) -> str:
    """The spell's entity ``e`` as the question names it (the chain's entity where it is that)."""
    last = d.hops[-1]
    return rd.noun(d.hops[:-1], d.anchor, d.pins) if e == last.src else rd.ent(e)


def _between(rd: Renderer, d: Draft) -> str:
    if (g := _gerunds(rd, d, "end_clause")) is not None:
        return f"How many {rd.unit_word()}s passed between {_subject(rd, d, g[2])} {g[0]} and {g[1]}?"
    return f"How many {rd.unit_word()}s passed between when {_start(rd, d)} and when {_end(rd, d, 'end_clause')}?"


def _from_until(rd: Renderer, d: Draft) -> str:
    if (g := _gerunds(rd, d, "end_clause")) is not None:
        return f"How long, in {rd.unit_word()}s, was it from {_subject(rd, d, g[2])} {g[0]} to {g[1]}?"
    return f"How long, in {rd.unit_word()}s, was it from when {_start(rd, d)} until {_end(rd, d, 'end_clause')}?"


def _how_long_after(rd: Renderer, d: Draft) -> str:
    """The unit last: "How long after joining Y did X leave it, in years?" ("Counting in years, ..." is stilted)."""
    if (g := _gerunds(rd, d, "ask_end")) is not None:
        return f"How long after {g[0]} {g[1]}, in {rd.unit_word()}s?"
    return f"How long after {_start(rd, d)} {_end(rd, d, 'ask_end')}, in {rd.unit_word()}s?"


OPERATOR = Operator(
    name="duration",
    title="Duration",
    weight=0.1,
    answer=AnswerKind.DURATION,
    draft=draft,
    templates=(
        Template("du.after", _after),
        Template("du.between", _between),
        Template("du.from_until", _from_until),
        Template("du.how_long_after", _how_long_after),
    ),
    time_refs=time_refs,
    gold_rule=gold_closed_spell,
    names_final_entity=True,
)
