"""yes_no: "Was it still the case in 2003 that X played for Y?" (the answer is yes or no).

Draft: k-1 static hops from the anchor to ``e``, then the final fact ``f`` between ``e`` and a named entity: a
state, the only fact with its (s, r, o), with a start and an end both known at the granularity. The label is
drawn first, half each (the cell keeps the labels balanced: ``cells.CellFiller``):

* ``yes``: ``t`` strictly between the start and end units (the spell certainly holds at ``t`` and had begun
  before it, so "still" is true);
* ``no``: ``t`` one to three units after the end unit, and no fact of the same (s, r, o) possibly valid at ``t``
  (no later spell with the same partner); ``t`` strictly inside a spell of another value that rules the asked
  state out, or more than a unit from every spell of both parties' timelines (:func:`no_settled`: a start or end
  unit is a unit of change, in which the asked value may have come back).

An open or unknown end is never asked about: both labels need the end, so no answer depends on a guess.
``t`` is stated in the question.

Validity rule (:func:`gold_label`): ``yes`` needs the S* facts certainly valid at ``t``; ``no`` needs the
answer fact to have ended before ``t`` (not possibly valid at ``t``) and the prefix certainly valid at ``t``.
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
    possible,
    reach,
)
from chronoqa.generate.kg.templates import Renderer, Template
from chronoqa.records import Fact, Question
from chronoqa.time import valid_at

__all__ = ["LABELS", "NO_AFTER", "OPERATOR", "draft", "gold_label", "no_settled", "time_refs"]

#: The answer labels; a draft's ``answers`` is ``(1,)`` for yes and ``(0,)`` for no.
LABELS = ("no", "yes")
NO_AFTER = 3  # a "no" asks about a unit at most this many units after the spell ended


def _pick_t(row: list[int], yes: bool, rng: random.Random, t_max: int) -> int | None:
    su, eu = row[Col.SU], row[Col.EU]
    if yes:
        if eu - su < 2:
            return None
        return rng.randrange(su + 1, eu)
    hi = min(eu + NO_AFTER, t_max)
    return rng.randrange(eu + 1, hi + 1) if hi > eu else None


def draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    """A closed spell and a unit inside it (yes) or just after it (no); k-1 static hops lead to it."""
    yes = rng.random() < 0.5
    drawn = draw_named_fact(ctx, rng, k)
    if drawn is None:
        return None
    fid, row, forward, e, other = drawn
    idx = ctx.index
    r = row[Col.R]
    if idx.rel_event[r] or row[Col.SU] == NONE or row[Col.EU] == NONE:
        return None
    t = _pick_t(row, yes, rng, ctx.t_max)
    if t is None or not ctx.t_min <= t <= ctx.t_max:
        return None
    if yes and not askable_at(ctx, row, t):
        return None
    if not yes:
        timeline = idx.group_array(e, r, forward)
        if any(possible(x, t) for x in timeline[timeline[:, Col.OTHER] == other].tolist()):
            return None  # the same partner again at t (another spell, or an uncertain span)
        if not no_settled(idx, e, r, forward, other, t):
            ctx.miss = "asked at a spell's boundary unit"
            return None
    pre = reach(ctx, rng, e, t, k, {other}, time_free=False)  # the question states t
    if pre is None:
        return None
    final = Hop(fid, r, forward, e, other)
    label = LABELS[yes]
    return Draft("yes_no", label, pre[0], (*pre[1], final), t, (int(yes),), AnswerKind.YES_NO, static_prefix=True)


def no_settled(idx: GraphIndex, e: int, r: int, forward: bool, other: int, t: int) -> bool:
    """A "no" at ``t`` is settled by the data.

    ``t`` lies strictly inside a closed spell of another value in a one-valued timeline of either party (the spell
    rules the asked state out), or more than a unit from every spell of both parties' timelines. A spell's start or
    end unit is a unit of change: in it the asked value may have come back (Soler's Atlético spell ends in 1992, the
    data has nothing after it in 1992-93, and he returned to Barcelona then).
    """
    near = False  # each party's timeline tested whole (a hub's is long), not listed
    for ent, fwd, partner in ((e, forward, other), (other, not forward, e)):
        timeline = idx.group_array(ent, r, fwd)
        su, eu = timeline[:, Col.ASU], timeline[:, Col.AEU]
        ruled_out = (timeline[:, Col.OTHER] != partner) & (su != NONE) & (eu != NONE) & (su < t) & (t < eu)
        if idx.one_at(ent, r, fwd) and ruled_out.any():
            return True
        # within a unit of a spell; the unit moved to t's side, so that the int32 bounds never wrap
        near = near or bool(((timeline[:, Col.APLO] <= t + 1) & (t - 1 <= timeline[:, Col.APHI])).any())
    return not near


def gold_label(gold: GoldFacts, q: Question, positions: Sequence[int]) -> str | None:
    """Yes: every S* fact certainly valid at ``t_query``; no: the prefix is, the closed answer fact ended before."""
    tq = q.t_query_point
    assert tq is not None
    last = len(q.logical_form["path"]) - 1
    for i, pos in enumerate(positions):
        f = gold.facts[pos]
        iv = certain_interval(f, gold.is_event.get(f.r, False), gold.open_end)
        if i == last and q.answers == ("no",):
            if f.end is None or valid_at(iv, tq, tq.granularity, as_of=gold.as_of, mode="possible"):
                return f"S* fact {f.id} may hold at {q.t_query}: the answer is not no"
        elif not valid_at(iv, tq, tq.granularity, as_of=gold.as_of, mode="certain"):
            return f"S* fact {f.id} not valid at {q.t_query}"
        if i == last and f.end is None:
            return f"S* fact {f.id} has no end: the answer would depend on it"
    return None


def time_refs(d: Draft, facts: Sequence[Fact], t_iso: str) -> list[dict[str, str]]:
    """The end of the asked spell (what decides the label)."""
    f = facts[d.hops[-1].fid]
    return [time_ref("end", f.end.isoformat(), "answer")] if f.end is not None else []


def _statement(rd: Renderer, d: Draft) -> str:
    return rd.final_clause(d, "statement")


def _still(rd: Renderer, d: Draft) -> str:
    return f"Was it still the case in {rd.when(d.t)} that {_statement(rd, d)}?"


def _true_that(rd: Renderer, d: Draft) -> str:
    return f"Is it true that in {rd.when(d.t)} {_statement(rd, d)}?"


def _yes_or_no(rd: Renderer, d: Draft) -> str:
    return f"Yes or no: in {rd.when(d.t)}, {_statement(rd, d)}?"


def _case_in(rd: Renderer, d: Draft) -> str:
    return f"In {rd.when(d.t)}, was it the case that {_statement(rd, d)}?"


def ends_rested_on(idx: GraphIndex, d: Draft) -> list[int]:
    """A ``no`` rests on the asked fact's end (a ``yes`` asks inside the spell: a longer tenure keeps it)."""
    return [d.hops[-1].fid] if d.variant == "no" else []


OPERATOR = Operator(
    name="yes_no",
    title="Yes/no",
    weight=0.1,
    answer=AnswerKind.YES_NO,
    draft=draft,
    templates=(
        Template("yn.still", _still),
        Template("yn.true_that", _true_that),
        Template("yn.yes_or_no", _yes_or_no),
        Template("yn.case_in", _case_in),
    ),
    time_refs=time_refs,
    ends_rested_on=ends_rested_on,
    gold_rule=gold_label,
    names_final_entity=True,
    render_time=True,
)
