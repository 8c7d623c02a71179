"""Implicit-time questions over a temporal join: 2 hops (event id) and 3 hops (two event columns).

"Who was the Prime Minister of the host country during the 1996 Summer Olympics?": the event row names
the time, the fact rows valid then are the gold. ``S_anchor`` holds the event row, ``S_star`` the fact
rows, each the source row's canonical triple (:func:`~chronoqa.generate.table.triples.row_triple`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from chronoqa.errors import ChronoqaError
from chronoqa.generate.table.config import TableBuildConfig, cardinality_of
from chronoqa.generate.table.join import JoinResult
from chronoqa.generate.table.store import TableStore, quote_ident, sql_literal
from chronoqa.generate.table.tfd import TFD, TFDReport, check_tfd
from chronoqa.generate.table.triples import question_id, row_triple
from chronoqa.generate.table.verbalise import PhraseBook, column_label, plural_noun, plural_question, render
from chronoqa.records import Question, TemporalTable, Triple
from chronoqa.time import Granularity, TimePoint

__all__ = ["join_questions"]


def _event_ids(table: TemporalTable, exclude: Sequence[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Columns (2-hop) and column pairs (3-hop) that identify a row of the event table."""
    cols = [c for c in table.columns if c not in exclude]

    def unique(cs: Sequence[str]) -> bool:
        idx = [table.columns.index(c) for c in cs]
        vals = [tuple(r[i] for i in idx) for r in table.rows]
        return all(v is not None for t in vals for v in t) and len(set(vals)) == len(vals)

    singles = [c for c in cols if unique([c])]
    distinct = {c: len({r[table.columns.index(c)] for r in table.rows}) for c in cols}
    pairs = [
        (a, b)
        for n, a in enumerate(cols)
        for b in cols[n + 1 :]
        if a not in singles and b not in singles and unique([a, b])
    ]
    # prefer the most categorical pair (edition + season over edition + city)
    pairs.sort(key=lambda p: (distinct[p[0]] * distinct[p[1]], cols.index(p[0]), cols.index(p[1])))
    return singles, pairs


@dataclass(frozen=True)
class _JoinContext:
    join: JoinResult
    store: TableStore
    right_store: TableStore
    tfd: TFD
    rest: tuple[str, ...]
    event_cols: tuple[str, ...]
    hops: int
    phrases: PhraseBook
    config: TableBuildConfig
    left_store: TableStore
    primary: Mapping[str, TFD | None]


def join_questions(
    join: JoinResult,
    right_tfd: TFD,
    store: TableStore,
    sides: tuple[TableStore, TableStore],
    primary: Mapping[str, TFD | None],
    phrases: PhraseBook,
    config: TableBuildConfig,
) -> tuple[list[Question], list[TFDReport]]:
    """Implicit-time questions over the joined table: 2-hop (event id) and 3-hop (two event columns).

    ``sides`` are the (left, right) source stores; ``primary`` maps a table name to its primary TFD
    (the question triples are the source rows' canonical triples, :func:`row_triple`).
    """
    left_store, right_store = sides
    singles, pairs = _event_ids(join.left, join.on)
    rest = tuple(c for c in right_tfd.lhs if c not in join.on)
    plans: list[tuple[tuple[str, ...], int]] = []
    if singles:
        plans.append(((singles[0],), 2))
    if pairs:
        plans.append((pairs[0], 3))
    combos, coverage = _right_combos(join, right_store, rest)
    out: list[Question] = []
    reports: list[TFDReport] = []
    for event_cols, hops in plans:
        tfd = TFD((*event_cols, *rest), right_tfd.rhs)
        reports.append(check_tfd(store, tfd))
        ctx = _JoinContext(join, store, right_store, tfd, rest, event_cols, hops, phrases, config, left_store, primary)
        rng = random.Random(f"{config.seed}:{store.table.name}:{tfd}:join")
        lefts = list(range(len(join.left.rows)))
        rng.shuffle(lefts)
        filled: Counter[str] = Counter()
        seen: set[str] = set()
        for li in lefts:
            out += _event_questions(ctx, li, combos, coverage, filled, seen)
    return out, reports


_Values = tuple[str | None, ...]


def _right_combos(
    join: JoinResult, right_store: TableStore, rest: tuple[str, ...]
) -> tuple[dict[_Values, set[_Values]], dict[tuple[_Values, _Values], tuple[int, int]]]:
    """Every right-hand key value a shared value ever has (every role the host country has had), with its span."""
    right_idx = [join.right.columns.index(c) for c in rest]
    right_on = [join.right.columns.index(c) for c in join.on]
    combos: dict[_Values, set[_Values]] = {}
    coverage: dict[tuple[_Values, _Values], tuple[int, int]] = {}
    for pos, ri in enumerate(right_store.rows.tolist()):
        r = join.right.rows[ri]
        shared_v, rest_v = tuple(r[k] for k in right_on), tuple(r[k] for k in right_idx)
        combos.setdefault(shared_v, set()).add(rest_v)
        lo, hi = int(right_store.lo[pos]), int(right_store.hi[pos])
        old = coverage.get((shared_v, rest_v), (lo, hi))
        coverage[(shared_v, rest_v)] = (min(old[0], lo), max(old[1], hi))
    return combos, coverage


def _event_questions(
    ctx: _JoinContext,
    li: int,
    combos: dict[_Values, set[_Values]],
    coverage: dict[tuple[_Values, _Values], tuple[int, int]],
    filled: Counter[str],
    seen: set[str],
) -> list[Question]:
    """The questions about one event (left row ``li``): one per right-hand key its shared value has had.

    Only events inside the documented span of the key are asked (else "none" only means "not recorded");
    ``filled`` (per cardinality) and ``seen`` (queries asked) are shared by the TFD's questions.
    """
    join, store, right_store, config = ctx.join, ctx.store, ctx.right_store, ctx.config
    event_cols, rest, tfd = ctx.event_cols, ctx.rest, ctx.tfd
    g_join, rg_ = store.granularity, right_store.granularity
    lrow = join.left.rows[li]
    ev = tuple(lrow[join.left.columns.index(c)] for c in event_cols)
    shared = tuple(lrow[join.left.columns.index(c)] for c in join.on)
    ev_iv = join.left.intervals[li]
    if ev_iv.start is None:
        return []
    ev_lo = ev_iv.start.lo(g_join)
    ev_hi = ev_iv.end.hi(g_join) if ev_iv.end is not None else store.asof_unit
    out = []
    for combo in sorted(combos.get(shared, set()), key=repr):
        if any(v is None for v in (*ev, *combo)):
            continue
        cov_lo, cov_hi = coverage[(shared, combo)]
        if ev_lo < _convert(cov_lo, rg_, g_join, "lo") or ev_hi > _convert(cov_hi, rg_, g_join, "hi"):
            continue
        values = {c: str(v) for c, v in zip((*event_cols, *rest), (*ev, *combo), strict=True)}
        where = " AND ".join(f"{quote_ident(c)} = {sql_literal(values[c])}" for c in tfd.lhs)
        sql = f"SELECT _row, {quote_ident(tfd.rhs)} FROM {quote_ident(store.sql_name)} WHERE {where} ORDER BY _row"
        if sql in seen:
            continue
        result = store.query(sql)
        answers = tuple(sorted({str(r[1]) for r in result}))
        card = cardinality_of(len(answers))
        if filled[card] >= config.per_cell or (not answers and not config.is_complete(join.right.name)):
            continue  # "none" holds only if the fact table lists every holder (declared complete)
        seen.add(sql)
        filled[card] += 1
        out.append(_join_question(ctx, values, [int(r[0]) for r in result], answers, sql, li))
    return out


def _convert(u: int, src: Granularity, dst: Granularity, side: str) -> int:
    """A unit of ``src`` as the first/last unit of ``dst`` it covers."""
    p = TimePoint.from_unit(u, src)
    return p.lo(dst) if side == "lo" else p.hi(dst)


def _join_question(
    ctx: _JoinContext, values: dict[str, str], rows: list[int], answers: tuple[str, ...], sql: str, event_row: int
) -> Question:
    join, tfd, event_cols, rest = ctx.join, ctx.tfd, ctx.event_cols, ctx.rest
    plural = len(answers) > 1
    base = ctx.phrases.for_tfd((*join.on, *rest), tfd.rhs)
    key = ",".join(event_cols)
    if plural and f"{key}:plural" in ctx.phrases.joins:
        text = render(ctx.phrases.joins[f"{key}:plural"], values, articled=rest)
    elif key in ctx.phrases.joins:
        template = ctx.phrases.joins[key]
        text = render(plural_question(template) if plural else template, values, articled=rest)
    else:
        event = (
            values[event_cols[0]]
            if len(event_cols) == 1
            else "the event with " + " and ".join(f"{column_label(c)} {values[c]}" for c in event_cols)
        )
        role = " ".join(values[c] for c in rest) or column_label(tfd.rhs)
        shared = " and ".join(column_label(c) for c in join.on)
        wh = base.number(plural).wh
        text = (
            f"{wh} the {plural_noun(role) if plural else role} of the {shared} of {event}, at the time of that event?"
        )
    g = ctx.store.granularity
    star: list[Triple] = []
    ys: list[str] = []
    right_primary = ctx.primary.get(join.right.name)
    for jr in rows:
        li, ri = join.pairs[jr]
        if li != event_row:
            raise ChronoqaError(f"internal check failed: {sql} returned a row of another event")
        ys.append(join.right.rows[ri][join.right.columns.index(tfd.rhs)] or "")
        star.append(row_triple(ctx.right_store, ri, right_primary))
    anchor = row_triple(ctx.left_store, event_row, ctx.primary.get(join.left.name))
    refs = [
        {"which": which, "value": value, "answer": y}
        for y, t in zip(ys, star, strict=True)
        for which, value in (("start", t.t_start), ("end", t.t_end))
        if value is not None
    ]
    return Question(
        id=question_id(f"{ctx.store.table.name}-join{ctx.hops}", sql),
        split="",
        question=text,
        t_query=None,
        S_star=tuple(star),
        S_anchor=(anchor,),
        source="table",
        operator="temporal_join",
        allen=None,
        hops=ctx.hops,
        answers=answers,
        answer_ids=answers,
        answer_type="entity" if base.wh.lower().startswith("who") else "value",
        cardinality=cardinality_of(len(answers)),
        template_id=f"table/join/{ctx.hops}-hop",
        render_time=False,
        granularity=str(g),
        as_of=ctx.config.as_of,
        time_refs=tuple(refs),
        sql=sql,
        reference=None,
        logical_form={
            "table": ctx.store.table.name,
            "tfd": str(tfd),
            "key": [values[c] for c in tfd.lhs],
            "relation": "temporal_join",
            "must_keep": [values[c] for c in tfd.lhs],
        },
        assumes_complete=not answers,
    )
