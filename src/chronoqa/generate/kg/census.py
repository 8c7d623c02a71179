"""The candidate chains of a thin multi-hop cell, counted, with the rule that rejected each.

A cell of two or more hops that ends under :data:`THIN` questions is not filled by weakening a rule; the
release says instead what the data holds. For a point-in-time cell (and so for before/after, two-facts and
present-state chains, which are point-in-time chains with another time reference) the builder holds every
chain of k facts whose hops are unique and certain at some unit (the exhaustive pool, small graphs only).
Each chain is tried at the units of its span (at most :data:`MAX_UNITS`, evenly spaced) and counted once,
under the furthest stage it reaches at its best unit:

1. ``not unique at any unit``: some hop has another value possibly valid at every tried unit;
2. ``time or a hop does not matter``: the time-free path or a skipped hop gives the same answer;
3. a regime rule (:mod:`chronoqa.generate.kg.regime`) or a bridge or hub rule (:mod:`chronoqa.generate.kg.bridges`,
   counted where the pool lost the chain before drawing), by name;
4. ``graph-walk phrasing`` (:func:`chronoqa.generate.kg.templates.graph_walk`);
5. ``valid``.

The valid chains are then counted by distinct gold chain and answer (one question each) and by distinct
answer: a cell of fewer than 100 questions keeps at most one question per answer (the 2% answer-prior cap),
so fewer than :data:`THIN` distinct answers bound the cell below :data:`THIN` whatever the draws.
For interval and sequence cells (a static prefix into a timeline) the candidates are the facts with a start
that one of their entities reaches over k-1 static hops the bridge rules allow (time ignored); the draw
rejections say the rest.

The **coverage account** (:func:`coverage_account`, manifest ``coverage``, data card *Coverage*) is one record per
cell of the operator x hops matrix (point-in-time, before/after, interval, sequence x 1, 2, 3+ hops): the
questions made, the draws, every draw that made no question under the rule that decided it, and every distinct
candidate drawn (a chain of the pool; a final fact and the entity the chain reaches) under ``made a question`` or,
failing that, the rule that decided most of its draws. The rules count themselves where they decide
(``GenContext.miss`` for a draw that found no chain, the cell's rejections after it), so the account is never a
second implementation of a rule; a thin multi-hop cell adds its census (every candidate, drawn or not), whose
``static_hops_removed`` counts the static hops the bridge rules took out of every prefix search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

from chronoqa.generate.kg.bridges import bridge_reason
from chronoqa.generate.kg.cells import MADE, MATRIX, Cell
from chronoqa.generate.kg.modelling import modelling_reason
from chronoqa.generate.kg.operators import REGISTRY
from chronoqa.generate.kg.operators.base import AnswerKind
from chronoqa.generate.kg.operators.chains import (
    Draft,
    GenContext,
    Hop,
    Spans,
    final_facts,
    time_and_hops_matter,
    unique_at,
)
from chronoqa.generate.kg.regime import regime_reason
from chronoqa.generate.kg.templates import Renderer, graph_walk

__all__ = ["MATRIX", "MAX_UNITS", "THIN", "CoverageCell", "cell_census", "coverage_account"]

THIN = 50  # a cell with fewer questions gets a census
MAX_UNITS = 40  # units tried per chain
_STAGES = ("not unique at any unit", "time or a hop does not matter")


def _units(spans: Spans) -> list[int]:
    units = [u for a, b in spans for u in range(a, b + 1)]
    step = max(1, len(units) // MAX_UNITS)
    return units[::step][:MAX_UNITS]


def _best(ctx: GenContext, rd: Renderer, hops: tuple[Hop, ...], spans: Spans) -> tuple[int, str, Draft | None]:
    """The furthest stage the chain reaches at any tried unit: (stage, reason, the valid draft or None)."""
    best: tuple[int, str, Draft | None] = (0, _STAGES[0], None)
    pit = REGISTRY["point_in_time"]
    for t in _units(spans):
        ok = unique_at(ctx, list(hops), t)
        if ok is None:
            continue
        tf = time_and_hops_matter(ctx.index, hops[0].src, list(hops), t, ok[0])
        if tf is None:
            best = max(best, (1, _STAGES[1], None), key=lambda x: x[0])
            continue
        d = Draft("point_in_time", "plain", hops[0].src, hops, t, ok[0], AnswerKind.ENTITY, ok[1], time_free=tf)
        why = regime_reason(ctx.regimes, d) or modelling_reason(ctx.modelling, d, ctx.index)
        why = why or bridge_reason(ctx.bridges, ctx.index, d)
        if why is not None:
            best = max(best, (2, why, None), key=lambda x: x[0])
            continue
        if graph_walk(rd, d, pit.templates[0].text(rd, d)):
            best = max(best, (3, "graph-walk phrasing", None), key=lambda x: x[0])
            continue
        return 4, "valid", d
    return best


def _pool_census(ctx: GenContext, rd: Renderer, k: int) -> dict[str, Any]:
    assert ctx.pool is not None
    reasons: Counter[str] = Counter(ctx.pool_removed.get(k, {}))  # removed from the pool before drawing
    golds: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for hops, spans in ctx.pool.get(k, []):
        _, why, d = _best(ctx, rd, hops, spans)
        reasons[why] += 1
        if d is not None:
            golds.add((tuple(sorted(h.fid for h in hops)), d.answers))
    return {
        "candidates": "every chain of k facts unique and certain at some unit (exhaustive pool)",
        "chains": reasons.total(),
        "by_rule": dict(sorted(reasons.items())),
        "distinct_gold_and_answer": len(golds),
        "distinct_answers": len({a for _, ans in golds for a in ans}),
    }


def _static_census(ctx: GenContext, k: int) -> dict[str, Any]:
    n = len(final_facts(ctx, k))
    return {
        "candidates": "facts with a start one of whose entities has k-1 static hops the bridge rules allow into it",
        "chains": n,
        "static_hops_removed": dict(sorted(ctx.static_removed.items())),
    }


def cell_census(ctx: GenContext, rd: Renderer, operator: str, k: int) -> dict[str, Any] | None:
    """The census of a thin ``operator``/``k`` cell (see the module docstring), or ``None`` where none applies.

    The operator declares which chains its census counts (``Operator.census``).
    """
    if k < 2:
        return None
    over = REGISTRY[operator].census
    if over == "pool" and ctx.pool is not None:
        return _pool_census(ctx, rd, k)
    if over == "static" and ctx.static_depth is not None:
        return _static_census(ctx, k)
    return None


class CoverageCell(TypedDict):
    """One cell of the operator x hops matrix in the coverage account."""

    operator: str
    hops: int
    questions: int
    draws: int
    draws_by_rule: dict[str, int]  # every draw that made no question, under the rule that decided it
    candidates_drawn: int  # distinct candidates (a chain; a final fact and the entity reached) drawn
    candidates_by_outcome: dict[str, int]  # each drawn candidate: "made a question", else its most frequent rule
    census: NotRequired[dict[str, Any]]  # a thin multi-hop cell: every candidate, drawn or not (cell_census)


def _by_count(c: Counter[str]) -> dict[str, int]:
    return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))


def coverage_account(cells: Sequence[Cell], censuses: Mapping[str, dict[str, Any] | None]) -> dict[str, CoverageCell]:
    """Per matrix cell (``cells``: the build's cells) its account (module docstring)."""
    out: dict[str, CoverageCell] = {}
    for c in cells:
        if c.operator not in MATRIX:
            continue
        why = Counter({k: v for k, v in c.rejected.items() if k != "no unique chain"}) + c.no_chain
        outcome = Counter(
            MADE if MADE in seen else min(seen, key=lambda w: (-seen[w], w)) for seen in c.candidates.values()
        )
        rec = CoverageCell(
            operator=c.operator, hops=c.hops, questions=len(c.drafts), draws=c.attempts, draws_by_rule=_by_count(why),
            candidates_drawn=len(c.candidates), candidates_by_outcome=_by_count(outcome),
        )  # fmt: skip
        if (census := censuses.get(c.name)) is not None:
            rec["census"] = census
        out[c.name] = rec
    return out
