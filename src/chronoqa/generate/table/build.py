"""``build_table_benchmark``: TDBench's method (TFD → temporal SQL → questions), done properly.

For each input table: detect the true granularity, load it into DuckDB (:class:`TableStore`),
discover TFDs (or take the named ones), and for each kept TFD generate

* Allen questions: for each seed row (seeded shuffle) and each of the 13 relations a reference
  ``[b0, b1]`` for which the relation holds with the seed row, plus random references near the key's
  history (which yield ``none`` questions); the question's DuckDB query is executed and its rows are
  the gold. Each relation × cardinality cell has its own exact quota; identical queries are dropped.
* time-alignment questions for keys whose latest row is open-ended ("As of {as_of}, who is ...").

Joins add implicit-time 2-hop and 3-hop questions over the temporal natural join. Every gold set is
re-checked against a numpy evaluation of the relation; a disagreement is an error, never a label.

Triple identity: every stored row has ONE canonical :class:`~chronoqa.records.Triple`
(:func:`row_triple`, from the table's primary TFD, :func:`primary_tfd`); the row's corpus ``Doc`` and
every question triple naming that row (``S_star``, ``S_dist``, ``S_stale``, ``S_anchor``, join rows)
are built from it, so ``corpus[t.doc_id].triple() == t`` for every question triple ``t``.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from chronoqa.artifacts.release import FunctionalFlags, write_release
from chronoqa.errors import ChronoqaError
from chronoqa.generate.splits import assign_splits
from chronoqa.generate.table.allen import RELATIONS, TIME_REFS, random_reference
from chronoqa.generate.table.join import JoinResult, temporal_join
from chronoqa.generate.table.store import (
    TableStore,
    detect_granularity,
    format_unit,
    quote_ident,
    sql_literal,
    unit_iso,
)
from chronoqa.generate.table.tfd import TFD, TFDReport, check_tfd, discover_tfds, select_tfds
from chronoqa.generate.table.verbalise import (
    CLAUSES,
    ROLE_COLUMNS,
    ParaphraseReport,
    PhraseBook,
    column_label,
    paraphrase_questions,
    render,
)
from chronoqa.records import Doc, Question, TemporalTable, Triple
from chronoqa.time import Allen, Granularity, TimePoint, parse_time

__all__ = [
    "AS_OF_DATA",
    "CARDINALITIES",
    "DEFAULT_AS_OF",
    "JoinSpec",
    "TableBuild",
    "TableBuildConfig",
    "build_table_benchmark",
    "cardinality_of",
    "latest_date",
    "primary_tfd",
    "row_triple",
    "write_table_build",
]

CARDINALITIES = ("none", "unique", "multiple")
#: ``as_of`` value meaning "the latest date found in the input tables" (their snapshot date).
AS_OF_DATA = "data"
DEFAULT_AS_OF = AS_OF_DATA
#: Reference window (in units of the comparison granularity) around a seed row.
WINDOWS = {Granularity.YEAR: 6, Granularity.MONTH: 48, Granularity.DAY: 1460}


def cardinality_of(n_answers: int) -> str:
    """``none`` / ``unique`` / ``multiple`` for a number of distinct answers."""
    return CARDINALITIES[min(n_answers, 2)]


@dataclass(frozen=True, slots=True)
class JoinSpec:
    """A temporal join to build implicit-time questions from: ``left`` holds events, ``right`` facts."""

    left: str
    right: str
    on: tuple[str, ...] | None = None
    aliases: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TableBuildConfig:
    """Everything that decides a table build (recorded in the manifest).

    ``as_of`` is the fixed "now" (open ends are closed there, references lie before it); the default
    ``"data"`` takes the latest date found in the input tables (their snapshot date), never the
    wall clock. ``tfds`` maps a table name to TFDs named by the user (``"Country,Role->Name"``); when a table has
    none, TFDs are discovered (``max_lhs``, ``threshold``, ``min_changing_*``). ``per_cell`` is the exact
    quota of each relation × cardinality cell per TFD (and of each cardinality of the time-alignment
    and join questions). ``build_tables`` limits which tables get single-table questions (default:
    all tables that are not only the event side of a join).
    """

    as_of: str = DEFAULT_AS_OF
    seed: int = 0
    per_cell: int = 10
    tfds: Mapping[str, Sequence[str]] = field(default_factory=dict)
    max_lhs: int = 3
    threshold: float = 0.1
    min_changing_keys: int = 2
    min_changing_share: float = 0.3
    granularity: Mapping[str, str] = field(default_factory=dict)
    joins: Sequence[JoinSpec] = ()
    build_tables: Sequence[str] | None = None
    max_seed_rows: int = 5000
    random_refs_per_seed: int = 1
    ratios: tuple[float, float, float] = (0.7, 0.1, 0.2)
    alignment: bool = True

    def to_dict(self) -> dict[str, Any]:
        """JSON form for the manifest."""
        return {
            "as_of": self.as_of,
            "seed": self.seed,
            "per_cell": self.per_cell,
            "tfds": {k: list(v) for k, v in sorted(self.tfds.items())},
            "max_lhs": self.max_lhs,
            "threshold": self.threshold,
            "min_changing_keys": self.min_changing_keys,
            "min_changing_share": self.min_changing_share,
            "granularity": dict(sorted(self.granularity.items())),
            "joins": [
                {"left": j.left, "right": j.right, "on": list(j.on or ()), "aliases": dict(sorted(j.aliases.items()))}
                for j in self.joins
            ],
            "build_tables": None if self.build_tables is None else list(self.build_tables),
            "max_seed_rows": self.max_seed_rows,
            "random_refs_per_seed": self.random_refs_per_seed,
            "ratios": list(self.ratios),
            "alignment": self.alignment,
        }


@dataclass(frozen=True)
class TableBuild:
    """The result of a build: questions, corpus, flags, manifest and data card, ready to write."""

    questions: tuple[Question, ...]
    corpus: tuple[Doc, ...]
    flags: tuple[FunctionalFlags, ...]
    manifest: Mapping[str, Any]
    datacard: str
    tfd_reports: Mapping[str, tuple[TFDReport, ...]]
    joins: tuple[JoinResult, ...] = ()

    def counts(self) -> dict[str, dict[str, dict[str, int]]]:
        """Per source: (relation or operator) → cardinality → count."""
        out: dict[str, dict[str, dict[str, int]]] = {}
        for q in self.questions:
            src = str(q.logical_form.get("table", ""))
            row = q.allen if q.operator == "allen" and q.allen else f"{q.operator}:{q.hops}-hop"
            if q.operator == "time_alignment":
                row = "time_alignment"
            cell = out.setdefault(src, {}).setdefault(row, dict.fromkeys(CARDINALITIES, 0))
            cell[q.cardinality] += 1
        return out


# --------------------------------------------------------------------------------------------------
# Single-table questions
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Candidate:
    relation: Allen
    key: tuple[str, ...]
    b0: int
    b1: int
    matched: tuple[int, ...]  # positions into store.rows
    answers: tuple[str, ...]


class _TFDContext:
    """One TFD on one store: key index, column positions, phrases."""

    def __init__(self, store: TableStore, tfd: TFD, phrases: PhraseBook, primary: TFD | None = None) -> None:
        self.store, self.tfd = store, tfd
        self.primary = tfd if primary is None else primary  # the table's primary TFD: canonical row triples
        cols = store.table.columns
        self.x_idx = [cols.index(c) for c in tfd.lhs]
        self.y_idx = cols.index(tfd.rhs)
        self.keys: dict[tuple[str, ...], np.ndarray] = {}
        groups: dict[tuple[str | None, ...], list[int]] = {}
        for pos, i in enumerate(store.rows.tolist()):
            row = store.table.rows[i]
            xs = tuple(row[j] for j in self.x_idx)
            if row[self.y_idx] is None or any(v is None for v in xs):
                continue
            groups.setdefault(xs, []).append(pos)
        # only keys whose value changes over time make time-sensitive questions
        self.keys = {
            tuple(str(x) for x in k): np.asarray(v, dtype=np.int64)
            for k, v in groups.items()
            if len({store.table.rows[int(store.rows[p])][self.y_idx] for p in v}) > 1
        }
        self.phrases = phrases.for_tfd(tfd.lhs, tfd.rhs)
        ys = [store.table.rows[int(store.rows[p])][self.y_idx] for v in self.keys.values() for p in v]
        # a right-hand side with few distinct values (Legal/Illegal) is a value, not an entity
        self.answer_type = "value" if len(set(ys)) <= max(10, len(ys) // 20) and len(ys) > 40 else "entity"

    def y(self, pos: int) -> str:
        v = self.store.table.rows[int(self.store.rows[pos])][self.y_idx]
        assert v is not None
        return v

    def where_key(self, key: Sequence[str]) -> str:
        return " AND ".join(f"{quote_ident(c)} = {sql_literal(v)}" for c, v in zip(self.tfd.lhs, key, strict=True))

    def sql(self, key: Sequence[str], condition: str) -> str:
        t = quote_ident(self.store.sql_name)
        y = quote_ident(self.tfd.rhs)
        return f"SELECT _row, {y} FROM {t} WHERE {self.where_key(key)} AND {condition} ORDER BY _row"

    def subject(self, key: Sequence[str]) -> str:
        return render(self.phrases.subject, dict(zip(self.tfd.lhs, key, strict=True)))

    def triple(self, pos: int) -> Triple:
        """The canonical triple of the stored row at ``pos`` (the same as its corpus document's)."""
        return row_triple(self.store, int(self.store.rows[pos]), self.primary)


def primary_tfd(kept: Sequence[TFD]) -> TFD | None:
    """The TFD that gives a table's canonical row triples: the first kept one, ``None`` when none is kept.

    Kept TFDs come in a fixed order (named ones in the order given; discovered ones by left-hand side
    size, then name), so the choice is deterministic. Questions of the primary TFD have ``o`` = answer.
    """
    return kept[0] if kept else None


def row_triple(store: TableStore, i: int, tfd: TFD | None) -> Triple:
    """The ONE canonical triple of source row ``i`` of ``store``'s table.

    With a TFD ``X ->T Y``: ``s`` = the ``X`` values joined by ``", "`` (``"Germany, President"``),
    ``r`` = the label of ``Y``'s column, ``o`` = the ``Y`` value; ``s_id`` = the raw ``X`` values joined
    by ``" | "``, ``r_id`` = ``Y``'s column name, ``o_id`` = the ``Y`` value. Without one (``tfd=None``):
    the generic triple, ``X`` = every attribute column but the last, ``Y`` = the last attribute column.
    Times are ISO at the store's comparison granularity (never finer than printed; ``t_end`` ``None`` for
    an open end). The corpus document of the row and every question triple naming it use this function.
    """
    t = store.table
    cols = t.columns
    xs, y = (tfd.lhs, tfd.rhs) if tfd is not None else (cols[:-1], cols[-1])
    row = t.rows[i]
    x_vals = [row[cols.index(c)] for c in xs]
    y_val = row[cols.index(y)] or ""
    start, end = store.row_iso(i)
    return Triple(
        s=", ".join(v for v in x_vals if v),
        r=column_label(y),
        o=y_val,
        t_start=start,
        t_end=end,
        s_id=" | ".join("" if v is None else v for v in x_vals),
        r_id=y,
        o_id=y_val,
        fact_id=i,
        doc_id=_doc_id(t.name, t.lines[i]),
    )


def _doc_id(table: str, line: int) -> str:
    return f"{table}:{line}"


def _qid(prefix: str, sql: str) -> str:
    return f"{prefix}-{hashlib.sha256(sql.encode('utf-8')).hexdigest()[:12]}"


def _evaluate(ctx: _TFDContext, key: tuple[str, ...], relation: Allen, b0: int, b1: int) -> tuple[int, ...]:
    pos = ctx.keys[key]
    mask = RELATIONS[relation].predicate(ctx.store.lo[pos], ctx.store.hi[pos], b0, b1)
    return tuple(int(p) for p in pos[np.asarray(mask, dtype=bool)])


def _allen_candidates(
    ctx: _TFDContext, config: TableBuildConfig, rng: random.Random, open_relations: Callable[[], set[Allen]]
) -> Iterator[_Candidate]:
    store = ctx.store
    last = store.asof_unit - 1
    window = WINDOWS[store.granularity]
    seeds = [(k, int(p)) for k in sorted(ctx.keys) for p in ctx.keys[k]]
    rng.shuffle(seeds)
    for key, pos in seeds[: config.max_seed_rows]:
        wanted = open_relations()
        if not wanted:
            return
        a0, a1 = int(store.lo[pos]), int(store.hi[pos])
        refs: list[tuple[Allen | None, tuple[int, int]]] = []
        for rel in Allen:
            if rel not in wanted:
                continue
            ref = RELATIONS[rel].build(a0, a1, last, window, rng)
            if ref is not None:
                refs.append((rel, ref))
        key_pos = ctx.keys[key]
        klo, khi = int(store.lo[key_pos].min()), int(store.hi[key_pos].max())
        for _ in range(config.random_refs_per_seed):
            ref = random_reference(klo, khi, last=last, window=window, rng=rng)
            if ref is not None:
                refs.append((None, ref))
        for rel_or_none, (b0, b1) in refs:
            for rel in [r for r in Allen if r in wanted] if rel_or_none is None else (rel_or_none,):
                matched = _evaluate(ctx, key, rel, b0, b1)
                answers = tuple(sorted({ctx.y(p) for p in matched}))
                yield _Candidate(rel, key, b0, b1, matched, answers)


def _allen_question(ctx: _TFDContext, cand: _Candidate, config: TableBuildConfig) -> Question:
    store = ctx.store
    g = store.granularity
    cond = RELATIONS[cand.relation].condition(cand.b0, cand.b1)
    sql = ctx.sql(cand.key, cond)
    result = store.query(sql)
    gold = tuple(int(r[0]) for r in result)
    expected = tuple(int(store.rows[p]) for p in cand.matched)
    if gold != expected:  # the SQL and the relation definition must agree
        raise ChronoqaError(f"internal check failed: {sql} returned rows {gold}, the relation gives {expected}")
    pos_of = {int(store.rows[p]): p for p in ctx.keys[cand.key]}
    subject = ctx.subject(cand.key)
    gold_pos = [pos_of[r] for r in gold]
    answers = tuple(sorted({ctx.y(p) for p in gold_pos}))
    star = tuple(ctx.triple(p) for p in gold_pos)
    others = [p for p in ctx.keys[cand.key].tolist() if p not in set(gold_pos)]
    stale = tuple(ctx.triple(p) for p in others if ctx.y(p) in answers)
    dist = tuple(ctx.triple(p) for p in others if ctx.y(p) not in answers)
    dates = {
        "b0": format_unit(cand.b0, g),
        "b1": format_unit(cand.b1, g),
        "b0_minus": format_unit(cand.b0 - 1, g),
        "b1_plus": format_unit(cand.b1 + 1, g),
    }
    prep = "on" if g is Granularity.DAY else "in"
    dates["at_b0"] = f"{prep} {dates['b0']}"
    dates["at_b1"] = f"{prep} {dates['b1']}"
    clause = CLAUSES[cand.relation].format(p=ctx.phrases.period, **dates)
    text = f"{ctx.phrases.wh} {subject} {clause}?"
    used = [name for name in ("b0", "b1", "b0_minus", "b1_plus") if "{" + name + "}" in CLAUSES[cand.relation]]
    used += ["b0"] if "{at_b0}" in CLAUSES[cand.relation] else []
    used += ["b1"] if "{at_b1}" in CLAUSES[cand.relation] else []
    must_keep = [*cand.key, *sorted({dates[u] for u in used})]
    refs = []
    for p, t in zip(gold_pos, star, strict=True):
        for which in TIME_REFS[cand.relation]:
            value = t.t_start if which == "start" else t.t_end
            if value is not None:
                refs.append({"which": which, "value": value, "answer": ctx.y(p)})
    return Question(
        id=_qid(f"{store.table.name}-{cand.relation.value}", sql),
        split="",
        question=text,
        t_query=None,
        S_star=star,
        S_dist=dist,
        S_stale=stale,
        source="table",
        operator="allen",
        allen=cand.relation.value,
        hops=1,
        answers=answers,
        answer_ids=answers,
        answer_type=ctx.answer_type,
        cardinality=cardinality_of(len(answers)),
        template_id=f"table/allen/{cand.relation.value}",
        render_time=False,
        granularity=str(g),
        as_of=config.as_of,
        time_refs=tuple(refs),
        sql=sql,
        reference={"start": unit_iso(cand.b0, g), "end": unit_iso(cand.b1, g)},
        logical_form={
            "table": store.table.name,
            "tfd": str(ctx.tfd),
            "key": list(cand.key),
            "relation": cand.relation.value,
            "reference_units": [cand.b0, cand.b1],
            "must_keep": must_keep,
        },
    )


def _allen_questions(ctx: _TFDContext, config: TableBuildConfig) -> list[Question]:
    rng = random.Random(f"{config.seed}:{ctx.store.table.name}:{ctx.tfd}")
    quota = config.per_cell
    filled: Counter[tuple[Allen, str]] = Counter()
    seen: set[tuple[tuple[str, ...], Allen, tuple[int, ...], tuple[str, ...]]] = set()
    seen_sql: set[str] = set()
    chosen: list[_Candidate] = []
    full_at = len(Allen) * len(CARDINALITIES)
    full = 0

    def open_relations() -> set[Allen]:
        return {r for r in Allen if any(filled[(r, c)] < quota for c in CARDINALITIES)}

    for cand in _allen_candidates(ctx, config, rng, open_relations):
        cell = (cand.relation, cardinality_of(len(cand.answers)))
        if filled[cell] >= quota:
            continue
        sql = ctx.sql(cand.key, RELATIONS[cand.relation].condition(cand.b0, cand.b1))
        # identical queries, and queries asking the same thing of the same key with the same gold rows
        sig = (cand.key, cand.relation, cand.matched, cand.answers)
        if sql in seen_sql or (cand.matched and sig in seen):
            continue
        seen_sql.add(sql)
        seen.add(sig)
        chosen.append(cand)
        filled[cell] += 1
        if filled[cell] == quota:
            full += 1
            if full == full_at:
                break
    return [_allen_question(ctx, c, config) for c in chosen]


def _alignment_questions(ctx: _TFDContext, config: TableBuildConfig) -> list[Question]:
    store = ctx.store
    g = store.granularity
    unit = store.asof_unit
    rng = random.Random(f"{config.seed}:{store.table.name}:{ctx.tfd}:now")
    keys = sorted(ctx.keys)
    rng.shuffle(keys)
    filled: Counter[str] = Counter()
    out = []
    for key in keys:
        pos = ctx.keys[key]
        latest = pos[np.lexsort((store.hi[pos], store.lo[pos]))[-1]]
        if not store.open_end[latest]:
            continue
        mask = (store.lo[pos] <= unit) & (store.hi[pos] >= unit)
        matched = [int(p) for p in pos[mask]]
        answers = tuple(sorted({ctx.y(p) for p in matched}))
        card = cardinality_of(len(answers))
        if filled[card] >= config.per_cell:
            continue
        sql = ctx.sql(key, f"_lo <= {unit} AND _hi >= {unit}")
        gold = tuple(int(r[0]) for r in store.query(sql))
        if gold != tuple(int(store.rows[p]) for p in matched):
            raise ChronoqaError(f"internal check failed: {sql} returned rows {gold}")
        filled[card] += 1
        subject = ctx.subject(key)
        star = tuple(ctx.triple(p) for p in matched)
        others = [int(p) for p in pos if int(p) not in set(matched)]
        outdated = tuple(sorted({ctx.y(p) for p in others} - set(answers)))
        asof_text = format_unit(unit, g)
        out.append(
            Question(
                id=_qid(f"{store.table.name}-now", sql),
                split="",
                question=f"As of {asof_text}, {ctx.phrases.wh_now[0].lower()}{ctx.phrases.wh_now[1:]} {subject}?",
                t_query=unit_iso(unit, g),
                S_star=star,
                S_dist=tuple(ctx.triple(p) for p in others if ctx.y(p) not in answers),
                S_stale=tuple(ctx.triple(p) for p in others if ctx.y(p) in answers),
                source="table",
                operator="time_alignment",
                allen=None,
                hops=1,
                answers=answers,
                answer_ids=answers,
                answer_type=ctx.answer_type,
                cardinality=card,
                template_id="table/time_alignment",
                render_time=True,
                granularity=str(g),
                as_of=config.as_of,
                time_refs=tuple(
                    {"which": "start", "value": t.t_start or "", "answer": ctx.y(p)}
                    for p, t in zip(matched, star, strict=True)
                ),
                outdated_answers=outdated,
                sql=sql,
                reference={"start": unit_iso(unit, g), "end": unit_iso(unit, g)},
                logical_form={
                    "table": store.table.name,
                    "tfd": str(ctx.tfd),
                    "key": list(key),
                    "relation": "time_alignment",
                    "must_keep": [*key, asof_text],
                },
            )
        )
    return out


# --------------------------------------------------------------------------------------------------
# Joins: implicit time, 2 and 3 hops
# --------------------------------------------------------------------------------------------------


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


def _join_questions(
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
    right_idx = [join.right.columns.index(c) for c in rest]
    right_on = [join.right.columns.index(c) for c in join.on]
    # every right-hand key value a shared value ever has (e.g. every role the host country has had)
    combos: dict[tuple[str | None, ...], set[tuple[str | None, ...]]] = {}
    coverage: dict[tuple[tuple[str | None, ...], tuple[str | None, ...]], tuple[int, int]] = {}
    for pos, ri in enumerate(right_store.rows.tolist()):
        r = join.right.rows[ri]
        shared_v, rest_v = tuple(r[k] for k in right_on), tuple(r[k] for k in right_idx)
        combos.setdefault(shared_v, set()).add(rest_v)
        lo, hi = int(right_store.lo[pos]), int(right_store.hi[pos])
        old = coverage.get((shared_v, rest_v), (lo, hi))
        coverage[(shared_v, rest_v)] = (min(old[0], lo), max(old[1], hi))
    g_join = store.granularity
    left_iv = join.left.intervals
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
            lrow = join.left.rows[li]
            ev = tuple(lrow[join.left.columns.index(c)] for c in event_cols)
            shared = tuple(lrow[join.left.columns.index(c)] for c in join.on)
            ev_iv = left_iv[li]
            if ev_iv.start is None:
                continue
            ev_lo = ev_iv.start.lo(g_join)
            ev_hi = ev_iv.end.hi(g_join) if ev_iv.end is not None else store.asof_unit
            for combo in sorted(combos.get(shared, set()), key=repr):
                if any(v is None for v in (*ev, *combo)):
                    continue
                # only events inside the documented span of the key (else "none" only means "not recorded")
                cov_lo, cov_hi = coverage[(shared, combo)]
                rg_ = right_store.granularity
                if ev_lo < _convert(cov_lo, rg_, g_join, "lo") or ev_hi > _convert(cov_hi, rg_, g_join, "hi"):
                    continue
                values = {c: str(v) for c, v in zip((*event_cols, *rest), (*ev, *combo), strict=True)}
                where = " AND ".join(f"{quote_ident(c)} = {sql_literal(values[c])}" for c in tfd.lhs)
                sql = (
                    f"SELECT _row, {quote_ident(tfd.rhs)} FROM {quote_ident(store.sql_name)} "
                    f"WHERE {where} ORDER BY _row"
                )
                if sql in seen:
                    continue
                result = store.query(sql)
                answers = tuple(sorted({str(r[1]) for r in result}))
                card = cardinality_of(len(answers))
                if filled[card] >= config.per_cell:
                    continue
                seen.add(sql)
                filled[card] += 1
                out.append(_join_question(ctx, values, [int(r[0]) for r in result], answers, sql, li))
    return out, reports


def _convert(u: int, src: Granularity, dst: Granularity, side: str) -> int:
    """A unit of ``src`` as the first/last unit of ``dst`` it covers."""
    p = TimePoint.from_unit(u, src)
    return p.lo(dst) if side == "lo" else p.hi(dst)


def _join_question(
    ctx: _JoinContext, values: dict[str, str], rows: list[int], answers: tuple[str, ...], sql: str, event_row: int
) -> Question:
    join, tfd, event_cols, rest = ctx.join, ctx.tfd, ctx.event_cols, ctx.rest
    base = ctx.phrases.for_tfd((*join.on, *rest), tfd.rhs)
    key = ",".join(event_cols)
    if key in ctx.phrases.joins:
        text = render(ctx.phrases.joins[key], values)
    else:
        event = (
            values[event_cols[0]]
            if len(event_cols) == 1
            else "the event with " + " and ".join(f"{column_label(c)} {values[c]}" for c in event_cols)
        )
        role = " ".join(values[c] for c in rest) or column_label(tfd.rhs)
        shared = " and ".join(column_label(c) for c in join.on)
        text = f"{base.wh} the {role} of the {shared} of {event}, at the time of that event?"
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
        id=_qid(f"{ctx.store.table.name}-join{ctx.hops}", sql),
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
    )


# --------------------------------------------------------------------------------------------------
# The build
# --------------------------------------------------------------------------------------------------


def _tfd_reports(store: TableStore, named: Sequence[str], config: TableBuildConfig) -> tuple[list[TFDReport], list]:
    """(kept reports, all candidate reports) for one table."""
    if named:
        reports = [check_tfd(store, TFD.parse(t, store.table.columns)) for t in named]
        return reports, reports
    candidates = discover_tfds(store, max_lhs=config.max_lhs)
    kept = select_tfds(
        candidates,
        threshold=config.threshold,
        min_changing_keys=config.min_changing_keys,
        min_changing_share=config.min_changing_share,
    )
    return [_with_role(r, candidates) for r in kept], candidates


def _with_role(kept: TFDReport, candidates: Sequence[TFDReport]) -> TFDReport:
    """Add a role-like column that is constant within each key (same keys), so questions can name it."""
    if any(column_label(c) in ROLE_COLUMNS for c in kept.tfd.lhs):
        return kept
    for r in candidates:
        extra = set(r.tfd.lhs) - set(kept.tfd.lhs)
        if (
            r.tfd.rhs == kept.tfd.rhs
            and set(kept.tfd.lhs) < set(r.tfd.lhs)
            and len(extra) == 1
            and column_label(next(iter(extra))) in ROLE_COLUMNS
            and r.keys == kept.keys
            and r.violations == kept.violations
        ):
            return r
    return kept


def _corpus(stores: Sequence[TableStore], phrases: PhraseBook, primary: Mapping[str, TFD | None]) -> list[Doc]:
    return [d for store in stores for d in _store_docs(store, phrases, primary.get(store.table.name))]


def _store_docs(store: TableStore, phrases: PhraseBook, tfd: TFD | None) -> Iterator[Doc]:
    """Every stored row verbalised once; its s/r/o/times/ids are the row's canonical triple (:func:`row_triple`).

    Readable dates are memoised per build (many rows share them).
    """
    t = store.table
    g = store.granularity
    readable: dict[int, str] = {}

    def text_of(u: int) -> str:
        if u not in readable:
            readable[u] = format_unit(u, g)
        return readable[u]

    for lo, hi, i in zip(store.lo.tolist(), store.hi.tolist(), store.rows.tolist(), strict=True):
        tr = row_triple(store, i, tfd)
        when = f"from {text_of(lo)} to {text_of(hi)}" if tr.t_end is not None else f"since {text_of(lo)}"
        yield Doc(
            doc_id=tr.doc_id,
            text=f"{phrases.fact(t.name, t.columns, t.rows[i])} ({when}).",
            s=tr.s,
            r=tr.r,
            o=tr.o,
            t_start=tr.t_start,
            t_end=tr.t_end,
            s_id=tr.s_id,
            r_id=tr.r_id,
            o_id=tr.o_id,
            fact_id=tr.fact_id,
        )


def _check_identity(questions: Sequence[Question], corpus: Sequence[Doc]) -> None:
    """Every question triple must be its corpus document's triple (the identity scoring relies on)."""
    docs = {d.doc_id: d for d in corpus}
    for q in questions:
        for name in ("S_star", "S_dist", "S_stale", "S_anchor"):
            for t in getattr(q, name):
                d = docs.get(t.doc_id)
                if d is None:
                    raise ChronoqaError(
                        f"question {q.id}: {name} names row {t.doc_id}, which is not in the corpus (left out of the "
                        "store: no start, reversed, or starting after as_of); fix the row or pass a later as_of"
                    )
                if d.triple() != t:
                    raise ChronoqaError(f"internal check failed: question {q.id} {name} {t} differs from {d.triple()}")


def _report_dict(table: TemporalTable) -> dict[str, object] | None:
    return None if table.report is None else table.report.to_dict()


def latest_date(tables: Sequence[TemporalTable]) -> TimePoint:
    """The last day of the latest known date in ``tables``: the data's snapshot date, used as ``as_of``."""
    days = [p.last_day() for t in tables for iv in t.intervals for p in (iv.start, iv.end) if p is not None]
    if not days:
        raise ChronoqaError("no table has a known date: give as_of explicitly")
    return TimePoint.from_unit(max(days), Granularity.DAY)


def build_table_benchmark(
    tables: Sequence[TemporalTable],
    config: TableBuildConfig | None = None,
    *,
    phrases: PhraseBook | None = None,
    paraphrase: Callable[[str], str] | None = None,
    sources: Mapping[str, Mapping[str, Any]] | None = None,
) -> TableBuild:
    """Build a table benchmark from ``tables`` (see the module docstring).

    ``paraphrase``, when given, rewrites each question; a paraphrase that drops a key value or a date
    is rejected (the template text stays) and counted in the manifest. ``sources`` (table name →
    path/sha256) is recorded in the manifest as is.
    """
    import duckdb

    cfg = config or TableBuildConfig()
    book = phrases or PhraseBook()
    as_of_source = "latest date in the input tables" if cfg.as_of == AS_OF_DATA else "given"
    if cfg.as_of == AS_OF_DATA:
        as_of = latest_date(tables)
        cfg = replace(cfg, as_of=as_of.isoformat())
    else:
        parsed = parse_time(cfg.as_of, field="as_of")
        if parsed is None:
            raise ChronoqaError(f"as_of {cfg.as_of!r} is not a date: expected e.g. 2025-01-01, or {AS_OF_DATA!r}")
        as_of = parsed
    names = [t.name for t in tables]
    dup = sorted(n for n, c in Counter(names).items() if c > 1)
    if dup:
        raise ChronoqaError(f"two input tables are both named {dup[0]!r}: give them different names")
    by_name = {t.name: t for t in tables}
    con = duckdb.connect(":memory:")
    stores: dict[str, TableStore] = {}
    gran_reports = {}
    for t in tables:
        rep = detect_granularity(t)
        gran_reports[t.name] = rep
        g = (
            Granularity.parse(cfg.granularity[t.name])
            if t.name in cfg.granularity
            else Granularity.parse(rep.granularity)
        )
        stores[t.name] = TableStore.build(t, as_of=as_of, granularity=g, con=con)
    event_only = {j.left for j in cfg.joins} - {j.right for j in cfg.joins}
    to_build = list(cfg.build_tables) if cfg.build_tables is not None else [n for n in names if n not in event_only]
    for n in to_build:
        if n not in by_name:
            from chronoqa.errors import UnknownNameError

            raise UnknownNameError("table", n, names)
    questions: list[Question] = []
    tfd_reports: dict[str, tuple[TFDReport, ...]] = {}
    tfd_manifest: dict[str, Any] = {}
    kept_by_table: dict[str, list[TFD]] = {}
    for n in names:
        if n not in to_build and n not in {j.right for j in cfg.joins}:
            continue
        kept, candidates = _tfd_reports(stores[n], cfg.tfds.get(n, ()), cfg)
        tfd_reports[n] = tuple(candidates)
        kept_by_table[n] = [r.tfd for r in kept]
        tfd_manifest[n] = {
            "named": list(cfg.tfds.get(n, ())),
            "kept": [r.to_dict() for r in kept],
            "candidates": [
                {k: v for k, v in r.to_dict().items() if k != "examples"} for r in candidates if r.changing_keys > 0
            ],
        }
        if n not in to_build:
            continue
        for tfd in kept_by_table[n]:
            ctx = _TFDContext(stores[n], tfd, book, primary_tfd(kept_by_table[n]))
            questions.extend(_allen_questions(ctx, cfg))
            if cfg.alignment:
                questions.extend(_alignment_questions(ctx, cfg))
    # one canonical triple per row, shared by its corpus document and every question naming it
    primary = {n: primary_tfd(kept_by_table.get(n, [])) for n in names}
    joins: list[JoinResult] = []
    join_manifest = []
    for spec in cfg.joins:
        for side in (spec.left, spec.right):
            if side not in by_name:
                from chronoqa.errors import UnknownNameError

                raise UnknownNameError("table", side, names)
        ls, rs = stores[spec.left], stores[spec.right]
        g = max(ls.granularity, rs.granularity)
        jr = temporal_join(
            by_name[spec.left], by_name[spec.right], granularity=g, as_of=as_of, on=spec.on, aliases=spec.aliases
        )
        joins.append(jr)
        jstore = TableStore.build(jr.table, as_of=as_of, granularity=g, con=con)
        usable = [t for t in kept_by_table.get(spec.right, []) if set(jr.on) <= set(t.lhs)]
        join_reports: list[TFDReport] = []
        for rtfd in usable:
            qs, reps = _join_questions(jr, rtfd, jstore, (ls, rs), primary, book, cfg)
            questions.extend(qs)
            join_reports.extend(reps)
        join_manifest.append(
            {
                "left": spec.left,
                "right": spec.right,
                "on": list(jr.on),
                "granularity": str(g),
                "rows": len(jr.table),
                "unmatched_left_rows": [by_name[spec.left].lines[i] for i in jr.unmatched_left],
                "tfds": [r.to_dict() for r in join_reports],
            }
        )
    para_report: ParaphraseReport | None = None
    if paraphrase is not None:
        questions, para_report = paraphrase_questions(questions, paraphrase)
    splits = assign_splits(
        questions,
        strata=lambda q: (q.operator, q.allen or "", q.cardinality),
        group=lambda q: (str(q.logical_form.get("table")), tuple(q.logical_form.get("key", ()))),
        seed=cfg.seed,
        ratios=cfg.ratios,
    )
    questions = [replace(q, split=s) for q, s in zip(questions, splits, strict=True)]
    corpus = _corpus(list(stores.values()), book, primary)
    _check_identity(questions, corpus)
    flags = tuple(FunctionalFlags(q.id, bool(q.S_dist), bool(q.S_stale)) for q in questions)
    build = TableBuild(tuple(questions), tuple(corpus), flags, {}, "", tfd_reports, tuple(joins))
    counts = build.counts()
    manifest = {
        "builder": "chronoqa.generate.table",
        "config": cfg.to_dict(),
        "seed": cfg.seed,
        "as_of": cfg.as_of,
        "as_of_source": as_of_source,
        "sources": {k: dict(v) for k, v in sorted((sources or {}).items())},
        "tables": {
            n: {
                "rows": len(by_name[n]),
                "stored_rows": len(stores[n].rows),
                "granularity": gran_reports[n].to_dict() | {"used": str(stores[n].granularity)},
                "left_out": dict(sorted(stores[n].notes.items())),
                "load_report": _report_dict(by_name[n]),
            }
            for n in names
        },
        "tfds": tfd_manifest,
        "joins": join_manifest,
        "counts": counts,
        "questions": len(questions),
        "corpus_docs": len(corpus),
        "splits": dict(sorted(Counter(q.split for q in questions).items())),
        "paraphrase": None if para_report is None else para_report.to_dict(),
    }
    from chronoqa import __version__

    manifest["toolkit_version"] = __version__
    return replace(build, manifest=manifest, datacard=_datacard(build, manifest, counts))


def _datacard(build: TableBuild, manifest: Mapping[str, Any], counts: Mapping[str, Any]) -> str:
    lines = [
        "# Data card: table benchmark (chronoqa build table)",
        "",
        f"Questions: {len(build.questions)}; corpus documents: {len(build.corpus)}; as_of: {manifest['as_of']}; "
        f"seed: {manifest['seed']}.",
        "",
        "Gold answers are the rows returned by each question's DuckDB query; every gold set was re-checked "
        "against an independent evaluation of the Allen relation over all rows of the key. Intervals are closed "
        "over units of the table's granularity and read half-open for Allen relations; open ends are closed at "
        "as_of; references always lie before as_of.",
        "",
        "## Tables",
        "",
        "| table | rows | stored | granularity used | why |",
        "|---|---|---|---|---|",
    ]
    for n, t in manifest["tables"].items():
        lines.append(
            f"| {n} | {t['rows']} | {t['stored_rows']} | {t['granularity']['used']} | {t['granularity']['reason']} |"
        )
    lines += ["", "## Relation × cardinality", ""]
    for src, rows in sorted(counts.items()):
        lines += [f"### {src}", "", "| relation | none | unique | multiple | total |", "|---|---|---|---|---|"]
        order = [r.value for r in Allen]
        for rel in sorted(rows, key=lambda r: (order.index(r) if r in order else 99, r)):
            c = rows[rel]
            lines.append(f"| {rel} | {c['none']} | {c['unique']} | {c['multiple']} | {sum(c.values())} |")
        lines.append("")
    lines += ["## TFDs used", ""]
    for n, t in manifest["tfds"].items():
        for k in t["kept"]:
            lines.append(
                f"- {n}: `{k['tfd']}` — {k['rows']} rows, {k['keys']} keys, {k['changing_keys']} keys change over "
                f"time, {k['violations']} violating pairs ({k['violating_rows']} rows), {k['handovers']} handovers"
            )
    lines += ["", "## Splits", ""]
    lines += [f"- {k}: {v}" for k, v in manifest["splits"].items()]
    lines += [
        "",
        "## Known limitations",
        "",
        "- Questions come from deterministic templates; a paraphrase step is optional and rejected when it loses "
        "a key value or a date.",
        "- `none` questions presuppose an answer that does not exist in the data; the data may be incomplete.",
        "- Rows without a start date, with start after end, or starting after as_of are left out (counted above).",
        "",
    ]
    return "\n".join(lines)


def write_table_build(build: TableBuild, out_dir: str) -> None:
    """Write ``build`` as a release folder (benchmark.jsonl, corpus, qrels, manifest, DATACARD.md)."""
    write_release(out_dir, build.questions, build.corpus, build.flags, build.manifest, build.datacard)
