"""Single-table questions: the 13 Allen relations against a reference, and time alignment.

For each seed row (seeded shuffle) and each relation a reference ``[b0, b1]`` is built for which the
relation holds with the seed row, plus random references near the key's history (which yield ``none``
questions); the question's DuckDB query is executed and its rows are the gold, re-checked against a
numpy evaluation of the relation (a disagreement is an error, never a label). Each relation ×
cardinality cell has its own exact quota; identical queries are dropped.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from chronoqa.errors import ChronoqaError
from chronoqa.generate.table.allen import (
    BOUNDED,
    RELATIONS,
    TIME_REFS,
    asked_span,
    bounded_mask,
    bounded_sql,
    random_reference,
)
from chronoqa.generate.table.config import CARDINALITIES, WINDOWS, TableBuildConfig, cardinality_of
from chronoqa.generate.table.kinds import MULTI_VALUE_RE
from chronoqa.generate.table.store import TableStore, format_unit, quote_ident, sql_literal, unit_iso
from chronoqa.generate.table.tfd import TFD
from chronoqa.generate.table.triples import question_id, row_triple
from chronoqa.generate.table.verbalise import (
    CLAUSES,
    ROLE_COLUMNS,
    PhraseBook,
    TFDPhrases,
    bounded_subject,
    column_label,
    render,
    row_noun,
)
from chronoqa.records import Question, Triple
from chronoqa.time import Allen, Granularity

__all__ = ["SPELL_FAMILIES", "Candidate", "TFDContext", "alignment_questions", "allen_questions", "spell_questions"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A reference for one relation on one key, with the rows it matches (positions into ``store.rows``)."""

    relation: Allen
    key: tuple[str, ...]
    b0: int
    b1: int
    matched: tuple[int, ...]  # positions into store.rows
    answers: tuple[str, ...]


class TFDContext:
    """One TFD on one store: key index (only keys whose value changes), column positions, phrases."""

    def __init__(
        self, store: TableStore, tfd: TFD, phrases: PhraseBook, primary: TFD | None = None, *, functional: bool = False
    ) -> None:
        self.store, self.tfd = store, tfd
        # one holder at a time (a TFD within the violation threshold): a gold set of two rows held at once is a
        # conflict in the data (Governors-General filed as monarchs), never asked; ``conflicts`` counts them
        self.functional = functional
        self.conflicts = 0
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
        # a role cell holding several labels ("director / manager") is no English title: its key is not asked
        roles = [i for i, c in enumerate(tfd.lhs) if column_label(c) in ROLE_COLUMNS]
        self.declined = {
            " | ".join(k): len(v) for k, v in self.keys.items() if any(MULTI_VALUE_RE.search(k[i]) for i in roles)
        }
        self.keys = {k: v for k, v in self.keys.items() if " | ".join(k) not in self.declined}
        # a key's coverage: from its first row to its last known end (open ends closed at as_of)
        self.coverage = {k: (int(store.lo[v].min()), int(store.hi[v].max())) for k, v in self.keys.items()}
        table = store.table
        row = str(phrases.tables.get(table.name, {}).get("row", "")) or row_noun(
            table.columns, table.start_column, table.end_column
        )
        self.phrases = phrases.for_tfd(tfd.lhs, tfd.rhs, row)
        self.tenure_lo, self.tenure_hi, self.split = _tenures(self)
        self.split_skipped = 0
        ys = [store.table.rows[int(store.rows[p])][self.y_idx] for v in self.keys.values() for p in v]
        # a right-hand side with few distinct values (Legal/Illegal) is a value, not an entity
        self.answer_type = "value" if len(set(ys)) <= max(10, len(ys) // 20) and len(ys) > 40 else "entity"

    def y(self, pos: int) -> str:
        """The right-hand value of the stored row at ``pos``."""
        v = self.store.table.rows[int(self.store.rows[pos])][self.y_idx]
        assert v is not None
        return v

    def where_key(self, key: Sequence[str]) -> str:
        """SQL condition selecting ``key``."""
        return " AND ".join(f"{quote_ident(c)} = {sql_literal(v)}" for c, v in zip(self.tfd.lhs, key, strict=True))

    def condition(self, key: Sequence[str], relation: Allen, b0: int, b1: int) -> str:
        """The SQL condition of ``relation`` against ``[b0, b1]`` (bounded form for before/after)."""
        scope = f"FROM {quote_ident(self.store.sql_name)} WHERE {self.where_key(key)}"
        return bounded_sql(relation, RELATIONS[relation].condition(b0, b1), scope)

    def sql(self, key: Sequence[str], condition: str) -> str:
        """The question query: the gold rows of ``key`` under ``condition``."""
        t = quote_ident(self.store.sql_name)
        y = quote_ident(self.tfd.rhs)
        return f"SELECT _row, {y} FROM {t} WHERE {self.where_key(key)} AND {condition} ORDER BY _row"

    def subject(self, key: Sequence[str], *, plural: bool = False) -> str:
        """The phrase naming ``key`` ("the President of Germany"; plural: "the Presidents of Germany")."""
        values = dict(zip(self.tfd.lhs, key, strict=True))
        return render(self.phrases.number(plural).subject, values, articled=self.tfd.lhs)

    def triple(self, pos: int) -> Triple:
        """The canonical triple of the stored row at ``pos`` (the same as its corpus document's)."""
        return row_triple(self.store, int(self.store.rows[pos]), self.primary)


def _tenures(ctx: TFDContext) -> tuple[np.ndarray, np.ndarray, frozenset[int]]:
    """Each row's span read as one holding: adjoining rows of a key with the same value joined.

    A table may split one time in office into rows (Andreotti: one row per cabinet, the next beginning the day
    the last ended): in the world the holder's time in office did not end or begin there. Returns the joined
    spans (indexed by position, equal to the row's own where nothing adjoins) and the positions of split rows.
    """
    store = ctx.store
    lo, hi = store.lo.copy(), store.hi.copy()
    split: set[int] = set()
    for pos in ctx.keys.values():
        for value in {ctx.y(int(p)) for p in pos}:
            rows = sorted((int(store.lo[p]), int(store.hi[p]), int(p)) for p in pos if ctx.y(int(p)) == value)
            chain = [rows[0]]
            for row in [*rows[1:], None]:
                if row is not None and row[0] <= max(r[1] for r in chain) + 1:
                    chain.append(row)
                    continue
                if len(chain) > 1:
                    span_lo, span_hi = min(r[0] for r in chain), max(r[1] for r in chain)
                    for _, _, p in chain:
                        lo[p], hi[p] = span_lo, span_hi
                        split.add(p)
                chain = [row] if row is not None else []
    return lo, hi, frozenset(split)


def _evaluate(
    ctx: TFDContext,
    key: tuple[str, ...],
    relation: Allen,
    b0: int,
    b1: int,
    *,
    data_ends: bool = False,
    tenures: bool = False,
) -> tuple[int, ...]:
    """The key's rows standing in ``relation`` to ``[b0, b1]``.

    ``data_ends``: with the data's ends, not the handover reading's (a moved row ends one unit later).
    ``tenures``: with adjoining rows of the same value read as one span (:func:`_tenures`).
    """
    pos = ctx.keys[key]
    lo, hi = ctx.store.lo[pos], ctx.store.hi[pos]
    if tenures:
        lo, hi = ctx.tenure_lo[pos], ctx.tenure_hi[pos]
    if data_ends:
        hi = hi + np.asarray([int(p) in ctx.store.handover_moved for p in pos], dtype=hi.dtype)
    mask = bounded_mask(relation, lo, hi, np.asarray(RELATIONS[relation].predicate(lo, hi, b0, b1), dtype=bool))
    return tuple(int(p) for p in pos[mask])


def _allen_candidates(
    ctx: TFDContext, config: TableBuildConfig, rng: random.Random, open_relations: Callable[[], set[Allen]]
) -> Iterator[Candidate]:
    store = ctx.store
    last = store.asof_unit - 1
    window = WINDOWS[store.granularity]
    seeds = [(k, int(p)) for k in sorted(ctx.keys) for p in ctx.keys[k]]
    rng.shuffle(seeds)
    drawn: set[tuple[object, int, int]] = set()  # random windows per key: none asked twice (two seeds of a key)
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
        klo, khi = ctx.coverage[key]
        for _ in range(config.random_refs_per_seed):
            ref = random_reference(klo, khi, last=last, window=window, rng=rng)
            if ref is not None and (key, *ref) not in drawn:
                drawn.add((key, *ref))
                refs.append((None, ref))
        for rel_or_none, (b0, b1) in refs:
            # a random reference is asked one relation (drawn), so "none" questions do not repeat one window
            open_rels = [r for r in Allen if r in wanted]
            for rel in (open_rels[rng.randrange(len(open_rels))],) if rel_or_none is None else (rel_or_none,):
                asked = asked_span(rel, b0, b1)
                if asked[0] < klo or asked[1] > khi:  # the world may hold rows the table does not
                    continue
                matched = _evaluate(ctx, key, rel, b0, b1)
                if store.coarse_cells and _coarse_uncertain(ctx, key, rel, b0, b1, matched):
                    store.precision_skipped += 1  # "2003" vs "March 2003": the data cannot tell
                    continue
                moved = store.handover_moved
                if moved and (
                    (rel in END_STATED and any(int(p) in moved for p in matched))  # "ended in 2018" for a 2019 end
                    or (
                        set(ctx.keys[key].tolist()) & moved
                        and _evaluate(ctx, key, rel, b0, b1, data_ends=True) != matched
                    )
                ):
                    store.handover_skipped += 1  # the text would hold in the reading only, not in the data
                    continue
                if ctx.split and _splits_a_tenure(ctx, key, rel, b0, b1, matched):
                    ctx.split_skipped += 1  # "whose time in office began ..." at a row boundary inside one tenure
                    continue
                if not matched and rel in BOUNDED:  # no row before/after T: the table starts (or ends) too late
                    continue
                if (not matched or rel in BOUNDED) and not config.is_complete(store.table.name):
                    # "none", and "the last ... before T", hold only if the table lists every holder of the key
                    continue
                if ctx.functional and len(matched) > 1 and _conflict(store, matched):
                    ctx.conflicts += 1  # two holders at once on a one-holder TFD: a data conflict, not an answer
                    continue
                answers = tuple(sorted({ctx.y(p) for p in matched}))
                yield Candidate(rel, key, b0, b1, matched, answers)


def _splits_a_tenure(
    ctx: TFDContext, key: tuple[str, ...], relation: Allen, b0: int, b1: int, matched: Sequence[int]
) -> bool:
    """Whether the gold rests on a row of a split holding (its boundary is a cabinet's, not a time in office's).

    True when a row split from an adjoining row of the same value matches, read as rows or as holdings.
    """
    if not ctx.split.intersection(int(p) for p in ctx.keys[key]):
        return False
    held = _evaluate(ctx, key, relation, b0, b1, tenures=True)
    return bool(ctx.split.intersection(matched) or ctx.split.intersection(held))


def _coarse_uncertain(
    ctx: TFDContext, key: tuple[str, ...], relation: Allen, b0: int, b1: int, matched: Sequence[int]
) -> bool:
    """Whether the gold could change with where in its year a coarse cell of the key's rows falls.

    The relation compares each row's endpoints with ``b0`` and ``b1`` (:meth:`TableStore.uncertain`); the
    bounded forms also compare the rows' ends (starts) with one another: the gold row is the last one only if
    no other qualifying row may end as late under some reading.
    """
    store = ctx.store
    pos = ctx.keys[key]
    if store.uncertain(pos, [(b0, b0), (b1, b1)]):
        return True
    form = BOUNDED.get(relation)
    if form is None or not matched:
        return False
    lo, hi = store.lo[pos], store.hi[pos]
    qualifies = np.asarray(RELATIONS[relation].predicate(lo, hi, b0, b1), dtype=bool)
    gold = np.isin(pos, np.asarray(matched, dtype=np.int64))
    if form == "last":  # the latest end: [hi_first, hi] per row
        first, last = store.hi_first[pos], hi
        rival = qualifies & ~gold & (last >= first[gold].min())
    else:  # the earliest start: [lo, lo_last] per row
        first, last = lo, store.lo_last[pos]
        rival = qualifies & ~gold & (first <= last[gold].max())
    wide = first != last
    return bool((rival & (wide | bool(wide[gold].any()))).any())


def _conflict(store: TableStore, matched: Sequence[int]) -> bool:
    """Two of the rows share more than a boundary unit (two holders at once, not a handover)."""
    spans = sorted((int(store.lo[p]), int(store.hi[p])) for p in matched)
    end = spans[0][1]
    for lo, hi in spans[1:]:
        if lo < end:
            return True
        end = max(end, hi)
    return False


#: Relations whose question states a gold row's end ("and ended in 2018", "ended before 2019"): never asked
#: about a row whose end was moved by the handover reading (the data's end is the next unit: a term that
#: ended in 2019 "ended before 2019" only in the reading).
END_STATED = frozenset(r for r, clause in CLAUSES.items() if "ended" in clause)


def _allen_question(ctx: TFDContext, cand: Candidate, config: TableBuildConfig) -> Question:
    store = ctx.store
    g = store.granularity
    sql = ctx.sql(cand.key, ctx.condition(cand.key, cand.relation, cand.b0, cand.b1))
    result = store.query(sql)
    gold = tuple(int(r[0]) for r in result)
    expected = tuple(int(store.rows[p]) for p in cand.matched)
    if gold != expected:  # the SQL and the relation definition must agree
        raise ChronoqaError(f"internal check failed: {sql} returned rows {gold}, the relation gives {expected}")
    pos_of = {int(store.rows[p]): p for p in ctx.keys[cand.key]}
    gold_pos = [pos_of[r] for r in gold]
    answers = tuple(sorted({ctx.y(p) for p in gold_pos}))
    plural = len(answers) > 1
    phrases = ctx.phrases.number(plural)
    subject = ctx.subject(cand.key, plural=plural)
    form = BOUNDED.get(cand.relation)
    if form is not None and not phrases.row:
        subject = bounded_subject(subject, form)
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
    text = f"{phrases.wh} {subject} {_clause(phrases, cand.relation, form, len(gold), dates)}?"
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
        id=question_id(f"{store.table.name}-{cand.relation.value}", sql),
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
        template_id=f"table/allen/{cand.relation.value}" + (f".{form}" if form else ""),
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
            **({"form": form} if form else {}),
        },
        assumes_complete=not answers or form is not None,
    )


def _clause(phrases: TFDPhrases, relation: Allen, form: str | None, rows: int, dates: dict[str, str]) -> str:
    """The relation's clause: "whose term began ..." or, on a row read as what it is, "during the stay that began ...".

    The row noun's number follows the gold rows (two stays of one doctor: "during the stays that began ..."); the
    bounded forms name the one row they pick ("during the last stay that ended before ...").
    """
    if not phrases.row:
        return CLAUSES[relation].format(p=phrases.period, **dates)
    noun = phrases.row_plural if rows > 1 and form is None else phrases.row
    body = CLAUSES[relation].removeprefix("whose {p} ").format(**dates)
    if relation is Allen.CONTAINS and dates["b0"] == dates["b1"]:  # one day, month or year: said once
        body = f"began before and continued after {dates['b0']}"
    return f"during the {form + ' ' if form else ''}{noun} that {body}"


def allen_questions(ctx: TFDContext, config: TableBuildConfig) -> list[Question]:
    """Allen-relation questions of one TFD, with an exact quota per relation × cardinality cell."""
    rng = random.Random(f"{config.seed}:{ctx.store.table.name}:{ctx.tfd}")
    quota = config.per_cell
    filled: Counter[tuple[Allen, str]] = Counter()
    seen: set[tuple[tuple[str, ...], Allen, tuple[int, ...], tuple[str, ...]]] = set()
    seen_sql: set[str] = set()
    chosen: list[Candidate] = []
    # "none" cells are filled only on a table declared complete (elsewhere no "none" question is asked)
    cards = CARDINALITIES if config.is_complete(ctx.store.table.name) else CARDINALITIES[1:]
    full_at = len(Allen) * len(cards)
    full = 0

    def open_relations() -> set[Allen]:
        return {r for r in Allen if any(filled[(r, c)] < quota for c in cards)}

    for cand in _allen_candidates(ctx, config, rng, open_relations):
        cell = (cand.relation, cardinality_of(len(cand.answers)))
        if filled[cell] >= quota:
            continue
        sql = ctx.sql(cand.key, ctx.condition(cand.key, cand.relation, cand.b0, cand.b1))
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


def alignment_questions(ctx: TFDContext, config: TableBuildConfig) -> list[Question]:
    """Time-alignment questions ("As of {as_of}, who is ...") for keys whose latest row is open-ended."""
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
        if store.coarse_cells and store.uncertain(pos, [(unit, unit)]):
            store.precision_skipped += 1  # a bare year's row may or may not hold at as_of
            continue
        mask = (store.lo[pos] <= unit) & (store.hi[pos] >= unit)
        matched = [int(p) for p in pos[mask]]
        answers = tuple(sorted({ctx.y(p) for p in matched}))
        card = cardinality_of(len(answers))
        if filled[card] >= config.per_cell or (not answers and not config.is_complete(store.table.name)):
            continue
        if ctx.functional and len(matched) > 1 and _conflict(store, matched):
            ctx.conflicts += 1
            continue
        sql = ctx.sql(key, f"_lo <= {unit} AND _hi >= {unit}")
        gold = tuple(int(r[0]) for r in store.query(sql))
        if gold != tuple(int(store.rows[p]) for p in matched):
            raise ChronoqaError(f"internal check failed: {sql} returned rows {gold}")
        filled[card] += 1
        subject = ctx.subject(key, plural=len(answers) > 1)
        wh_now = ctx.phrases.number(len(answers) > 1).wh_now
        star = tuple(ctx.triple(p) for p in matched)
        others = [int(p) for p in pos if int(p) not in set(matched)]
        outdated = tuple(sorted({ctx.y(p) for p in others} - set(answers)))
        asof_text = format_unit(unit, g)
        out.append(
            Question(
                id=question_id(f"{store.table.name}-now", sql),
                split="",
                question=f"As of {asof_text}, {wh_now[0].lower()}{wh_now[1:]} {subject}?",
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
                assumes_complete=not answers,
            )
        )
    return out


#: The families of one (key, value) spell of a many-valued TFD: the spell's start, or its end.
SPELL_FAMILIES = ("spell_start", "spell_end")
_SPELL_WH = {Granularity.YEAR: "In which year", Granularity.MONTH: "In which month", Granularity.DAY: "On which day"}


def spell_questions(ctx: TFDContext, config: TableBuildConfig, templates: dict[str, str]) -> list[Question]:
    """When one listed spell of a key with a value began or ended: "In which year did X join Y?".

    On a many-valued TFD (a player holds a club and a national team at once) of a table not declared complete,
    no question may ask for *the* values of a key at a time (the table may miss one: Messi's senior national
    team); the start or end of one listed (key, value) pair needs no other row. Asked where the pair has one
    stored row (Ronaldo played for Manchester United twice: not asked), the end only of a closed row whose end
    the handover reading did not move (a year placeholder ``2018-01-01`` where the next spell begins may be the
    end of 2017 or a day of 2018: not stated, as in the Allen relations, and counted in ``handover_skipped``).
    ``templates``: ``spell_start`` / ``spell_end`` from the table's phrase entry (fields: the TFD's columns),
    else "In which year did {value} become {subject}?" / "... stop being {subject}?". The answer is the source
    cell at its own precision (never finer than the comparison granularity); ``10 × per_cell`` per family.
    """
    out: list[Question] = []
    for family in SPELL_FAMILIES:
        cands = _spell_candidates(ctx, family)
        random.Random(f"{config.seed}:{ctx.store.table.name}:{ctx.tfd}:{family}").shuffle(cands)
        out += [_spell_question(ctx, config, templates, family, c) for c in cands[: 10 * config.per_cell]]
    return out


_SpellCandidate = tuple[tuple[str, ...], str, int]  # (key, value, the pair's one row)


def _spell_candidates(ctx: TFDContext, family: str) -> list[_SpellCandidate]:
    """The (key, value) pairs with one stored row; for ``spell_end``, a closed row whose end was not moved."""
    store = ctx.store
    cands: list[_SpellCandidate] = []
    for key in sorted(ctx.keys):
        by_value: dict[str, list[int]] = {}
        for p in ctx.keys[key].tolist():
            by_value.setdefault(ctx.y(p), []).append(int(p))
        for value, ps in sorted(by_value.items()):
            if len(ps) != 1 or (family == "spell_end" and store.open_end[ps[0]]):
                continue
            if family == "spell_end" and ps[0] in store.handover_moved:
                store.handover_skipped += 1  # "2009-01-01" at a handover: the end of 2008 or during 2009
                continue
            cands.append((key, value, ps[0]))
    return cands


def _spell_question(
    ctx: TFDContext, config: TableBuildConfig, templates: dict[str, str], family: str, cand: _SpellCandidate
) -> Question:
    """The question of one spell's start or end, its gold the row its DuckDB query returns (checked)."""
    store = ctx.store
    key, value, p = cand
    column = "_start" if family == "spell_start" else "_end"
    sql = (
        f"SELECT _row, {column} FROM {quote_ident(store.sql_name)} WHERE {ctx.where_key(key)} "
        f"AND {quote_ident(ctx.tfd.rhs)} = {sql_literal(value)} ORDER BY _row"
    )
    got = store.query(sql)
    triple = ctx.triple(p)
    answer = triple.t_start if family == "spell_start" else triple.t_end
    if [(int(r[0]), r[1]) for r in got] != [(int(store.rows[p]), answer)]:
        raise ChronoqaError(f"internal check failed: {sql} returned {got}, the row gives {answer}")
    assert answer is not None
    values = dict(zip(ctx.tfd.lhs, key, strict=True)) | {ctx.tfd.rhs: value}
    if family in templates:
        text = render(templates[family], values, articled=ctx.tfd.lhs)
    else:
        verb = "become" if family == "spell_start" else "stop being"
        text = f"{_SPELL_WH[store.granularity]} did {value} {verb} {ctx.subject(key)}?"
    others = [q for q in ctx.keys[key].tolist() if q != p]
    return Question(
        id=question_id(f"{store.table.name}-{family}", sql),
        split="",
        question=text,
        t_query=None,
        S_star=(triple,),
        S_dist=tuple(ctx.triple(q) for q in others),
        S_stale=(),
        source="table",
        operator=family,
        allen=None,
        hops=1,
        answers=(answer,),
        answer_ids=(answer,),
        answer_type="time",
        cardinality="unique",
        template_id=f"table/spell/{family.split('_')[1]}",
        render_time=False,
        granularity=str(store.granularity),
        as_of=config.as_of,
        time_refs=({"which": family.split("_")[1], "value": answer, "answer": answer},),
        sql=sql,
        logical_form={
            "table": store.table.name,
            "tfd": str(ctx.tfd),
            "key": list(key),
            "value": value,
            "relation": family,
            "must_keep": [*key, value],
        },
        assumes_complete=False,
    )
