"""Question families of status and event tables (see :mod:`.kinds`), each a SQL query whose rows are the gold.

Status tables (the state of a key since a date):

* ``status_since``: "Since which year has same-sex marriage been legal in Argentina?": the start of the
  key's row valid at ``as_of`` (answer: a time).
* ``status_at``: "What was the legality of same-sex marriage in Aland in 2005?": the state of a key at a
  year its history covers, asked only where the key has rows of several states (the time changes the
  answer) and one row holds the whole year (no handover that year). A table with one row per key holds
  no such question; the data card says so, with the counts.
* ``status_set``: "Which countries made same-sex marriage legal between 2010 and 2015?": the keys of one
  category whose state began inside the window (answer: a set, scored with TDBench's 3-of-many rule when
  it has more than three members, all-of otherwise: ``logical_form["scoring"]``). The window must leave
  out some keys of that category and state (the time matters). The gold presumes the table lists every
  key (closed world): ``assumes_complete``, asked only on a table declared complete
  (``TableBuildConfig.complete``).

Event tables (things that happen at a date or over a short span; an open end means "no end recorded",
so an open-ended event row is read as the point at its start):

* ``event_when``: "In which year were the 26th Summer Olympics held?": the event named by the fewest
  columns that identify it, none of which spells its year (``Athens 1896`` would give the answer away).
* ``event_order``: "Which Olympic Games were the first held in Greece?" (or most recently): among the
  rows of a recurring value (a delimited cell counts for each of its values), the one with the earliest
  (latest) start; asked only when that start is held by one row and the value's rows name several answers
  (the order is needed). "First" and "most recent" presume the table lists every row of the value:
  ``assumes_complete``, asked only on a table declared complete (a streaming catalogue is not a
  director's filmography).
* ``event_in``: "Which city hosted the Winter Olympics in 1964?" / "Who directed *Abigail* released in
  2024?": a recurring value and a year pick the one row of that year (two films *Marco* in 2024: no
  question); the value must have several answers over time (the time disambiguates). A cell of a
  delimited column ("Chris Buck, Jennifer Lee") is split into its values.

Every gold set is the result of the question's DuckDB query, re-checked against a plain Python
evaluation over the stored rows (a disagreement is an error). Phrases come from the table's phrase
entry (``{"tables": {"legal": {"since": ..., "set": ...}, "olympic": {"when": ..., "in:Season": ...}}}``;
a table with ``in:<column>`` entries is asked ``event_in`` questions about those columns only) or from the
column names.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from chronoqa.errors import ChronoqaError
from chronoqa.generate.table.config import TableBuildConfig, cardinality_of
from chronoqa.generate.table.kinds import (
    NO_DELIMITER,
    TableKind,
    delimiter_pattern,
    has_delimited_values,
    is_multi_value,
    split_cell,
    unique_columns,
)
from chronoqa.generate.table.store import TableStore, quote_ident, sql_literal
from chronoqa.generate.table.tfd import TFD
from chronoqa.generate.table.triples import question_id, row_triple
from chronoqa.generate.table.verbalise import (
    PhraseBook,
    column_label,
    english_list,
    person_column,
    plural_noun,
    plural_question,
    render,
)
from chronoqa.records import Question, Triple
from chronoqa.time import Granularity, TimePoint, parse_time, render_time

__all__ = ["event_questions", "status_questions"]

_YEAR_RE = re.compile(r"(?<!\d)(\d{4})(?!\d)")
#: ``status_at``: another state of the key must be held within this many years of the asked year.
_AT_NEAR = 3
_T = TypeVar("_T")


class _Rows:
    """The stored rows of one table: values by column, unit spans, canonical triples, SQL helpers."""

    def __init__(
        self, store: TableStore, primary: TFD | None, config: TableBuildConfig, book: PhraseBook | None = None
    ) -> None:
        self.store, self.primary, self.config = store, primary, config
        self.g = store.granularity
        self.pos = list(range(len(store.rows)))
        self.cols = store.table.columns
        self.candidates: Counter[str] = Counter()  # family -> questions the data allows before quotas
        self.notes: dict[str, str] = {}  # family -> why the data allows no question of it
        self.asked_in: set[int] = set()  # positions an event_in question asks about (one question per row)
        self.kept_for_when: set[int] = set()  # positions event_in leaves to event_when
        name = store.table.name
        self.declared = {c.split(".", 1)[1]: d for c, d in config.delimiters.items() if c.split(".", 1)[0] == name}
        self._delimited: dict[str, bool] = {}
        self._names: tuple[str, ...] | None = None
        self.complete = config.is_complete(name)
        as_of = parse_time(config.as_of, field="as_of")
        self.as_of_text = render_time(as_of) if as_of is not None else config.as_of  # "13 December 2024"

    def not_complete(self, family: str, gold: str) -> None:
        """Note that ``family``'s candidates are not asked: their gold needs the table complete, not declared."""
        n = self.candidates[family]
        if n and not self.complete:
            self.notes[family] = (
                f"{n} candidates not asked: their gold ({gold}) holds only if the table lists every row of its "
                f"domain in the world, and {self.store.table.name} is not declared complete (phrase file "
                '"complete": "true", or TableBuildConfig.complete)'
            )

    def start_refs(self, positions: Sequence[int], answer_col: str) -> tuple[dict[str, str], ...]:
        """The dates an explanation must cite: each matched row's start, for the answer it names."""
        return tuple(
            {"which": "start", "value": self.triple(p).t_start or "", "answer": self.v(p, answer_col) or ""}
            for p in positions
        )

    def pattern(self, col: str) -> re.Pattern[str]:
        """The pattern that splits ``col``'s cells (declared, else detected)."""
        d = self.declared.get(col)
        return delimiter_pattern(None if d == NO_DELIMITER else d)

    def delimited(self, col: str) -> bool:
        """``col``'s cells are split into values: declared, or at least 5 % of its cells hold a delimiter."""
        if col not in self._delimited:
            d = self.declared.get(col)
            vals = [self.v(p, col) for p in self.pos]
            self._delimited[col] = d != NO_DELIMITER and (d is not None or has_delimited_values(vals))
        return self._delimited[col]

    def multi(self, col: str) -> bool:
        """A multi-value column (at least 30 % of its cells hold its delimiter): never a name or an answer."""
        if self.declared.get(col) == NO_DELIMITER:
            return False
        return is_multi_value([self.v(p, col) for p in self.pos], self.pattern(col))

    def split(self, value: str, col: str) -> list[str]:
        """The values of one cell of ``col``."""
        return split_cell(value, self.delimited(col), self.pattern(col))

    def several(self, value: str, col: str) -> bool:
        """One cell of ``col`` holds several values (with its column's delimiter)."""
        return self.declared.get(col) != NO_DELIMITER and bool(self.pattern(col).search(value))

    def v(self, pos: int, col: str) -> str | None:
        return self.store.table.rows[int(self.store.rows[pos])][self.cols.index(col)]

    def row(self, pos: int) -> int:
        return int(self.store.rows[pos])

    def year(self, unit: int) -> int:
        return TimePoint.from_unit(unit, self.g).year

    def triple(self, pos: int) -> Triple:
        return row_triple(self.store, self.row(pos), self.primary)

    def where(self, values: dict[str, str]) -> str:
        return " AND ".join(f"{quote_ident(c)} = {sql_literal(v)}" for c, v in values.items())

    def run(self, sql: str, expected: Sequence[int]) -> list[tuple[object, ...]]:
        """Execute ``sql``; its row ids must be the Python evaluation's (``expected`` positions)."""
        got = self.store.query(sql)
        if sorted(int(str(r[0])) for r in got) != sorted(self.row(p) for p in expected):
            raise ChronoqaError(f"internal check failed: {sql} disagrees with the rows the family selects")
        return got

    def text(self, pos: int, col: str) -> str:
        """A cell as a question prints it: the values of a delimited cell as an English list ("A and B")."""
        v = self.v(pos, col) or ""
        return english_list(self.split(v, col)) if v and self.delimited(col) else v

    def names(self) -> tuple[str, ...]:
        """The categorical columns (at most 40 values: a country, a city): named with "the" where English does.

        "Of the United States"; titles and people (more values) are printed as they are.
        """
        if self._names is None:
            self._names = tuple(c for c in self.cols if len(self.values_of(c)) <= 40)
        return self._names

    def values_of(self, col: str) -> Counter[str]:
        return Counter(v for p in self.pos if (v := self.v(p, col)) is not None)

    def question(self, **kw: object) -> Question:
        """A table question with the fields every family shares."""
        base: dict[str, object] = {
            "split": "",
            "t_query": None,
            "source": "table",
            "allen": None,
            "hops": 1,
            "render_time": False,
            "granularity": str(self.g),
            "as_of": self.config.as_of,
        }
        return Question(**{**base, **kw})  # type: ignore[arg-type]


def _year_unit_range(year: int, g: Granularity) -> tuple[int, int]:
    p = TimePoint(year)
    return p.lo(g), p.hi(g)


def _spells_year(rows: _Rows, col: str) -> bool:
    """True when some row's value in ``col`` contains that row's start year (``Athens 1896``, ``2024``)."""
    for p in rows.pos:
        v = rows.v(p, col)
        if v is not None and str(rows.year(int(rows.store.lo[p]))) in _YEAR_RE.findall(v):
            return True
    return False


def _measure(rows: _Rows, col: str) -> bool:
    """A numeric measure (``popularity``): every value a number with a decimal point."""
    vals = [rows.v(p, col) for p in rows.pos]
    return all(v is not None and re.fullmatch(r"-?\d+\.\d+", v) for v in vals)


def _phrase(book: PhraseBook, table: str, family: str, default: str) -> str:
    return str(book.tables.get(table, {}).get(family, default))


def _answer_column(rows: _Rows, book: PhraseBook, family: str, default: str) -> str:
    """The answer column of a family: the phrase file's ``answer:<family>`` entry, else ``default``.

    For data whose best name column is damaged (TDBench's ``olympic.csv`` cuts ``City`` to its first word:
    ``Salt``, ``Los``, ``St.``), a phrase file names another (``"answer:order": "Game_name"``).
    """
    col = str(book.tables.get(rows.store.table.name, {}).get(f"answer:{family}", default))
    if col not in rows.cols:
        raise ChronoqaError(
            f"phrase file: table {rows.store.table.name!r} entry 'answer:{family}' names column {col!r}, "
            f"which the table does not have (columns: {', '.join(rows.cols)}); name one of them"
        )
    return col


# --------------------------------------------------------------------------------------------------
# Status tables
# --------------------------------------------------------------------------------------------------


def status_questions(
    store: TableStore, kind: TableKind, book: PhraseBook, primary: TFD | None, config: TableBuildConfig
) -> tuple[list[Question], dict[str, int], dict[str, str]]:
    """``status_since``, ``status_at`` and ``status_set`` questions of one status table.

    Also returns per family the candidates (questions the data allows before quotas) and, for a family the
    data allows none of, why.

    Quotas (a table of a hundred rows should give a hundred questions): ``4 × per_cell`` ``status_since``
    per category (one per key: a key's start asked once), ``2 × per_cell`` ``status_set`` per category and
    state, ``2 × per_cell`` ``status_at`` per category.
    """
    rows = _Rows(store, primary, config, book)
    out = _since(rows, kind, book) + _at(rows, kind, book) if kind.key else []
    out += _sets(rows, kind, book)
    return out, dict(sorted(rows.candidates.items())), dict(sorted(rows.notes.items()))


def _since(rows: _Rows, kind: TableKind, book: PhraseBook) -> list[Question]:
    assert kind.state is not None
    store = rows.store
    name = store.table.name
    default = _key_phrase(f"Since which year has the {column_label(kind.state)} of", kind) + f" been {{{kind.state}}}?"
    template = _phrase(book, name, "since", default)
    now = store.asof_unit
    live = [p for p in rows.pos if int(store.lo[p]) <= now <= int(store.hi[p]) and store.open_end[p]]
    rows.candidates["status_since"] += len(live)
    rng = random.Random(f"{rows.config.seed}:{name}:since")
    rng.shuffle(live)
    filled: Counter[str] = Counter()
    out = []
    seen: set[str] = set()
    for p in live:
        cat = rows.v(p, kind.category) if kind.category else ""
        if filled[str(cat)] >= 4 * rows.config.per_cell:
            continue
        key = {c: rows.v(p, c) or "" for c in kind.key}
        matched = [q for q in rows.pos if all(rows.v(q, c) == v for c, v in key.items())]
        matched = [q for q in matched if int(store.lo[q]) <= now <= int(store.hi[q])]
        sql = (
            f"SELECT _row, _start FROM {quote_ident(store.sql_name)} WHERE {rows.where(key)} "
            f"AND _lo <= {now} AND _hi >= {now} ORDER BY _row"
        )
        if sql in seen:
            continue
        got = rows.run(sql, matched)
        answers = tuple(sorted({str(r[1]) for r in got}))
        if len(answers) != 1:
            continue
        seen.add(sql)
        filled[str(cat)] += 1
        values = {c: rows.text(p, c) for c in rows.cols}
        star = tuple(rows.triple(q) for q in matched)
        out.append(
            rows.question(
                id=question_id(f"{name}-since", sql),
                question=render(template, values, articled=kind.key),
                S_star=star,
                operator="status_since",
                answers=answers,
                answer_ids=answers,
                answer_type="time",
                cardinality="unique",
                template_id="table/status/since",
                time_refs=tuple({"which": "start", "value": a, "answer": a} for a in answers),
                sql=sql,
                logical_form={
                    "table": name,
                    "kind": "status",
                    "key": [key[c] for c in kind.key],
                    "relation": "status_since",
                    "columns": list(kind.key),
                    "must_keep": [key[c] for c in kind.key],
                },
            )
        )
    return out


_AtCandidate = tuple[tuple[str, ...], int, int]  # (key, year, the one row holding the key's state that year)


def _at(rows: _Rows, kind: TableKind, book: PhraseBook) -> list[Question]:
    """``status_at``: the state of a key in a year inside its history, where the history has several states."""
    assert kind.state is not None
    st = kind.state
    by_key: dict[tuple[str, ...], list[int]] = {}
    for p in rows.pos:
        by_key.setdefault(tuple(rows.v(p, c) or "" for c in kind.key), []).append(p)
    cands = [c for key, ps in sorted(by_key.items()) for c in _at_candidates(rows, st, key, ps)]
    rows.candidates["status_at"] += len(cands)
    if not cands:
        rows.notes["status_at"] = _at_none_note(rows, st, by_key)
        return []
    picked = _at_pick(rows, kind, cands)
    template = _phrase(
        book, rows.store.table.name, "at", _key_phrase(f"What was the {column_label(st)} of", kind) + " in {year}?"
    )
    return [_at_question(rows, kind, template, c, by_key[c[0]]) for c in picked]


def _key_phrase(lead: str, kind: TableKind) -> str:
    """``"<lead> {k0} ({k1}, {k2})"``: a key named by its first column, the others in brackets."""
    k0, rest = kind.key[0], kind.key[1:]
    return f"{lead} {{{k0}}}" + (" (" + ", ".join("{" + c + "}" for c in rest) + ")" if rest else "")


def _at_candidates(rows: _Rows, st: str, key: tuple[str, ...], ps: list[int]) -> list[_AtCandidate]:
    """The years of one key's history that one row holds whole, with another state near enough to matter."""
    store, g = rows.store, rows.g
    if len({rows.v(p, st) for p in ps}) < 2:  # one state over the key's history: the time changes nothing
        return []
    out = []
    for y in range(rows.year(min(int(store.lo[p]) for p in ps)), rows.year(store.asof_unit) + 1):
        lo, hi = _year_unit_range(y, g)
        inside = [p for p in ps if int(store.lo[p]) <= hi and int(store.hi[p]) >= lo]
        if len(inside) != 1 or int(store.lo[inside[0]]) > lo or int(store.hi[inside[0]]) < hi:
            continue
        if int(store.lo_last[inside[0]]) > lo or int(store.hi_first[inside[0]]) < hi:
            store.precision_skipped += 1  # a bare year's row may start or end inside the asked year
            continue
        here = rows.v(inside[0], st)
        # another state within _AT_NEAR years: the asked year decides (2016, eight years after the one
        # change of a heritage element, is answered "inscribed" by the prior alone)
        if any(
            rows.v(q, st) != here
            and rows.year(int(store.lo[q])) - _AT_NEAR <= y <= rows.year(int(store.hi[q])) + _AT_NEAR
            for q in ps
        ):
            out.append((key, y, inside[0]))
    return out


def _at_none_note(rows: _Rows, st: str, by_key: dict[tuple[str, ...], list[int]]) -> str:
    """Why a status table holds no ``status_at`` question, with the counts."""
    several = sum(1 for ps in by_key.values() if len(ps) > 1)
    changing = sum(1 for ps in by_key.values() if len({rows.v(p, st) for p in ps}) > 1)
    if not changing:
        return (
            f"{len(by_key)} keys in {len(rows.pos)} rows, {several} with more than one row, none with two states: "
            "the state at any time the table covers is the state since the key's start (asked as status_since)"
        )
    return (
        f"{changing} keys with two states, none holding one state for a whole year within {_AT_NEAR} years of another"
    )


def _at_pick(rows: _Rows, kind: TableKind, cands: list[_AtCandidate]) -> list[_AtCandidate]:
    """The candidates kept: shuffled, the states interleaved, ``2 × per_cell`` per category, the answer share capped."""
    assert kind.state is not None
    st = kind.state
    rng = random.Random(f"{rows.config.seed}:{rows.store.table.name}:at")
    rng.shuffle(cands)
    # interleave the states (one of each in turn) so the quota does not go to the commonest state first
    by_state: dict[str, list[_AtCandidate]] = {}
    for c in cands:
        by_state.setdefault(str(rows.v(c[2], st)), []).append(c)
    queues = [by_state[k] for k in sorted(by_state)]
    mixed = [q[i] for i in range(max(map(len, queues))) for q in queues if i < len(q)]
    filled: Counter[str] = Counter()
    picked: list[_AtCandidate] = []
    for c in mixed:
        cat = str(rows.v(c[2], kind.category) if kind.category else "")
        if filled[cat] < 2 * rows.config.per_cell:
            filled[cat] += 1
            picked.append(c)
    picked, dropped, top = _cap_answer_share(picked, lambda c: str(rows.v(c[2], st)), rows.config.max_answer_share)
    if dropped:
        rows.notes["status_at"] = (
            f"{dropped} questions dropped so that no state answers more than {rows.config.max_answer_share:.0%} "
            f"of them ({top!r} was the most frequent; max_answer_share)"
        )
    return picked


def _at_question(rows: _Rows, kind: TableKind, template: str, cand: _AtCandidate, history: list[int]) -> Question:
    """The ``status_at`` question of one candidate, its gold the rows of its DuckDB query."""
    assert kind.state is not None
    st, store, name = kind.state, rows.store, rows.store.table.name
    key_t, y, p = cand
    where = dict(zip(kind.key, key_t, strict=True))
    lo, hi = _year_unit_range(y, rows.g)
    sql = (
        f"SELECT _row, {quote_ident(st)} FROM {quote_ident(store.sql_name)} WHERE {rows.where(where)} "
        f"AND _lo <= {hi} AND _hi >= {lo} ORDER BY _row"
    )
    got = rows.run(sql, [p])
    answers = (str(got[0][1]),)
    year_text = render_time(TimePoint(y))
    others = [q for q in history if rows.v(q, st) != answers[0]]
    tp = rows.triple(p)
    return rows.question(
        id=question_id(f"{name}-at", sql),
        question=render(template, {c: rows.text(p, c) for c in rows.cols} | {"year": year_text}, articled=kind.key),
        S_star=(tp,),
        S_dist=tuple(rows.triple(q) for q in others),
        operator="status_at",
        answers=answers,
        answer_ids=answers,
        answer_type="entity",
        cardinality="unique",
        template_id="table/status/at",
        time_refs=({"which": "start", "value": tp.t_start or "", "answer": answers[0]},),
        sql=sql,
        reference={"start": str(y), "end": str(y)},
        logical_form={
            "table": name,
            "kind": "status",
            "key": list(key_t),
            "relation": "status_at",
            "columns": list(kind.key),
            "state": st,
            "year": y,
            "must_keep": [*key_t, year_text],
        },
    )


def _cap_answer_share(items: list[_T], answer: Callable[[_T], str], share: float) -> tuple[list[_T], int, str]:
    """Drop the last items of the most frequent answer until it answers at most ``share`` of them.

    Returns ``(kept items in order, number dropped, the most frequent answer before the cap)``. A single
    answer (nothing else to balance it) is kept as it is.
    """
    counts = Counter(answer(i) for i in items)
    if len(counts) < 2:
        return items, 0, next(iter(counts), "")
    top = min(counts, key=lambda a: (-counts[a], a))
    kept = list(items)
    while True:
        counts = Counter(answer(i) for i in kept)
        big = min(counts, key=lambda a: (-counts[a], a))
        if counts[big] <= share * len(kept) or counts[big] == 1:
            break
        last = max(i for i, it in enumerate(kept) if answer(it) == big)
        del kept[last]
    return kept, len(items) - len(kept), top


def _sets(rows: _Rows, kind: TableKind, book: PhraseBook) -> list[Question]:
    """``status_set`` questions: the keys of one category whose state began inside a window of years."""
    if kind.category is None or kind.entity is None or kind.state is None:
        return []
    store = rows.store
    name = store.table.name
    ent, cat, st = kind.entity, kind.category, kind.state
    default = (
        f"Which {plural_noun(column_label(ent))} had {column_label(cat)} {{{cat}}} with {column_label(st)} "
        f"{{{st}}} starting between {{from}} and {{to}}?"
    )
    template = _phrase(book, name, "set", default)
    groups: dict[tuple[str, str], list[int]] = {}
    for p in rows.pos:
        c, s, e = rows.v(p, cat), rows.v(p, st), rows.v(p, ent)
        if c is not None and s is not None and e is not None and not rows.several(e, ent):
            groups.setdefault((c, s), []).append(p)
    rng = random.Random(f"{rows.config.seed}:{name}:set")
    out = []
    seen: set[str] = set()
    for group, members in sorted(groups.items()):
        years = sorted({rows.year(int(store.lo[p])) for p in members})
        if len(years) < 2:
            continue
        rows.candidates["status_set"] += len(years)  # one window per start year, at least
        if not rows.complete:  # "which countries ... between 2010 and 2015" needs every country listed
            continue
        out += _set_windows(rows, kind, template, group, members, years, rng, seen)
    rows.not_complete("status_set", "the keys whose state began in a window")
    return out


def _set_windows(
    rows: _Rows,
    kind: TableKind,
    template: str,
    group: tuple[str, str],
    members: list[int],
    years: list[int],
    rng: random.Random,
    seen: set[str],
) -> list[Question]:
    """Up to ``2 × per_cell`` ``status_set`` questions of one (category, state) group.

    Each asks about a random window of start years that leaves out some of the group's members (the time
    must change the answer).
    """
    assert kind.category is not None and kind.entity is not None and kind.state is not None
    store, g, name = rows.store, rows.g, rows.store.table.name
    ent, cat, st = kind.entity, kind.category, kind.state
    c, s = group
    out = []
    made = 0
    for _ in range(16 * rows.config.per_cell):
        if made >= 2 * rows.config.per_cell:
            break
        y0 = rng.choice(years)
        y1 = min(y0 + rng.choice((2, 4, 9)), rows.year(store.asof_unit))  # never past as_of
        if y1 <= y0:  # "between 2023 and 2023": no window
            continue
        lo, hi = _year_unit_range(y0, g)[0], _year_unit_range(y1, g)[1]
        matched = [p for p in members if lo <= int(store.lo[p]) <= hi]
        if not matched or len(matched) == len(members):  # the window must change the answer
            continue
        sql = (
            f"SELECT _row, {quote_ident(ent)} FROM {quote_ident(store.sql_name)} WHERE "
            f"{rows.where({cat: c, st: s})} AND _lo >= {lo} AND _lo <= {hi} ORDER BY _row"
        )
        sql_all = sql  # the entity filter (no multi-value cells) is applied below, on the SQL's rows
        if sql in seen:
            continue
        got = [r for r in store.query(sql_all) if not rows.several(str(r[1]), ent)]
        if sorted(int(str(r[0])) for r in got) != sorted(rows.row(p) for p in matched):
            raise ChronoqaError(f"internal check failed: {sql} disagrees with the rows the family selects")
        seen.add(sql)
        made += 1
        answers = tuple(sorted({str(r[1]) for r in got}))
        values = {cat: c, st: s, "from": str(y0), "to": str(y1)}
        out.append(
            rows.question(
                id=question_id(f"{name}-set", sql),
                question=render(template, values),
                S_star=tuple(rows.triple(p) for p in matched),
                operator="status_set",
                answers=answers,
                answer_ids=answers,
                answer_type="entity",
                cardinality=cardinality_of(len(answers)),
                template_id="table/status/set",
                time_refs=rows.start_refs(matched, ent),
                sql=sql,
                reference={"start": str(y0), "end": str(y1)},
                logical_form={
                    "table": name,
                    "kind": "status",
                    "key": [c, s],
                    "relation": "status_set",
                    "columns": [cat, st, ent],
                    "window": [y0, y1],
                    "scoring": "3-of" if len(answers) > 3 else "all-of",
                    "must_keep": [c, str(y0), str(y1)],
                },
                assumes_complete=True,
            )
        )
    return out


# --------------------------------------------------------------------------------------------------
# Event tables
# --------------------------------------------------------------------------------------------------


def event_questions(
    store: TableStore, kind: TableKind, book: PhraseBook, primary: TFD | None, config: TableBuildConfig
) -> tuple[list[Question], dict[str, int], dict[str, str]]:
    """``event_when``, ``event_in`` and ``event_order`` questions of one event table.

    Also returns per family the candidates and, for a family the data allows none of, why.

    Quotas (a table of fifty rows should give a hundred questions): ``10 × per_cell`` ``event_when``
    questions (one per identified row); ``4 × per_cell`` ``event_in`` per column (at most ``3 × per_cell`` of
    one cardinality); ``per_cell`` ``event_order`` per column and form (first, most recent), on a table
    declared complete only.
    """
    rows = _Rows(store, primary, config, book)
    usable = [c for c in rows.cols if not _spells_year(rows, c) and not _measure(rows, c) and not rows.multi(c)]
    ids = unique_columns(store.table, usable) or _nearly_unique(rows, usable)
    # one question per row across event_in and event_when: "Which Summer Games were held in 1996?" (Atlanta 1996)
    # and "In which year were the 26th Summer Games held?" (1996) give each other's answer away. Half the
    # identified rows (seeded) are kept for event_when; event_in asks the others; event_when then every row left
    if ids:
        ident = Counter(tuple(rows.v(p, c) for c in ids) for p in rows.pos)
        share = [p for p in rows.pos if ident[tuple(rows.v(p, c) for c in ids)] == 1]
        random.Random(f"{rows.config.seed}:{store.table.name}:share").shuffle(share)
        rows.kept_for_when = set(share[::2])
    ins = _in_year(rows, usable, book)
    out = _when(rows, ids, book, rows.asked_in) if ids else []
    out += ins
    out += _order(rows, usable, book)
    return out, dict(sorted(rows.candidates.items())), dict(sorted(rows.notes.items()))


def _nearly_unique(rows: _Rows, usable: Sequence[str]) -> tuple[str, ...]:
    """Two columns that identify all but at most 2 % of the rows (the rows they do not identify are skipped)."""
    best: tuple[int, tuple[str, ...]] | None = None
    for i, a in enumerate(usable):
        for b in usable[i + 1 :]:
            vals = Counter((rows.v(p, a), rows.v(p, b)) for p in rows.pos)
            clash = sum(n for n in vals.values() if n > 1)
            if clash <= 0.02 * len(rows.pos) and (best is None or clash < best[0]):
                best = (clash, (a, b))
    return best[1] if best else ()


def _end_unit(rows: _Rows, p: int) -> int:
    """An event's last unit: its end, or its start when no end is recorded (an open end is no duration)."""
    return int(rows.store.lo[p]) if rows.store.open_end[p] else int(rows.store.hi[p])


_END_SQL = "CASE WHEN _end IS NULL THEN _lo ELSE _hi END"


def _when(rows: _Rows, ids: tuple[str, ...], book: PhraseBook, asked: set[int]) -> list[Question]:
    """``event_when`` questions of the identified rows, except the rows ``asked`` by ``event_in``."""
    store = rows.store
    name = store.table.name
    noun = _event_noun(rows)
    default = (
        f"In which year did the {noun} with " + " and ".join(f"{_label(c, noun)} {{{c}}}" for c in ids) + " take place?"
    )
    template = _phrase(book, name, "when", default)
    ident = Counter(tuple(rows.v(p, c) for c in ids) for p in rows.pos)
    order = [p for p in rows.pos if ident[tuple(rows.v(p, c) for c in ids)] == 1]
    rows.candidates["event_when"] += len(order)
    if asked & set(order):
        rows.notes["event_when"] = (
            f"{len(asked & set(order))} rows asked by event_in are not asked by event_when (each question would "
            "give the other's answer away)"
        )
    order = [p for p in order if p not in asked]
    random.Random(f"{rows.config.seed}:{name}:when").shuffle(order)
    out = []
    for p in order[: rows.config.per_cell * 10]:
        key = {c: rows.v(p, c) or "" for c in ids}
        sql = f"SELECT _row, _lo, {_END_SQL} FROM {quote_ident(store.sql_name)} WHERE {rows.where(key)} ORDER BY _row"
        got = rows.run(sql, [p])
        y0 = rows.year(int(str(got[0][1])))
        answers = (str(y0),)
        t = rows.triple(p)
        out.append(
            rows.question(
                id=question_id(f"{name}-when", sql),
                question=render(template, {c: rows.text(p, c) for c in rows.cols}, articled=rows.names()),
                S_star=(t,),
                operator="event_when",
                answers=(str(y0),),
                answer_ids=(str(y0),),
                answer_type="time",
                cardinality="unique",
                template_id="table/event/when",
                time_refs=({"which": "start", "value": t.t_start or "", "answer": answers[0]},),
                sql=sql,
                logical_form={
                    "table": name,
                    "kind": "event",
                    "key": list(key.values()),
                    "relation": "event_when",
                    "columns": list(ids),
                    "must_keep": [v for c, kv in key.items() for v in rows.split(kv, c)],
                },
            )
        )
    return out


def _in_year(rows: _Rows, usable: Sequence[str], book: PhraseBook) -> list[Question]:
    """``event_in`` questions: a recurring value and a year pick the one row of that year."""
    name = rows.store.table.name
    counts = {c: rows.values_of(c) for c in usable}
    recurring = [c for c in usable if any(n > 1 for n in counts[c].values())]
    phrased = [c for c in recurring if f"in:{c}" in book.tables.get(name, {})]
    recurring = phrased or recurring  # a phrase file naming some columns asks about those only
    return [q for k in recurring for q in _in_column(rows, usable, book, counts, k)]


def _in_column(
    rows: _Rows, usable: Sequence[str], book: PhraseBook, counts: dict[str, Counter[str]], k: str
) -> list[Question]:
    """The ``event_in`` questions about one recurring column ``k`` (its answer: the most specific other column)."""
    store, name = rows.store, rows.store.table.name
    targets = [c for c in usable if c != k and len(counts[c]) > len(counts[k])]
    if not targets:
        return []
    y = _answer_column(rows, book, f"in:{k}", max(targets, key=lambda c: (len(counts[c]), -usable.index(c))))
    if f"in:{k}" not in book.tables.get(name, {}) and _numeric(rows, k):
        return []  # "the 9 game of 1956": a number names no event without a phrase file
    wh = "Who" if person_column(y) else "What"
    default = f"{wh} was the {_label(y, _event_noun(rows))} of {_event_phrase(rows, k, counts[k])}?"
    template = _phrase(book, name, f"in:{k}", default)
    by_k: dict[str, list[int]] = {}
    for p in rows.pos:
        kv, yv = rows.v(p, k), rows.v(p, y)
        if kv is not None and yv is not None:
            by_k.setdefault(kv, []).append(p)
    cands = [
        (kv, rows.year(int(store.lo[p])))
        for kv, ps in sorted(by_k.items())
        if len({rows.v(q, y) for q in ps}) > 1  # the value alone has several answers: the year is needed
        for p in ps
    ]
    random.Random(f"{rows.config.seed}:{name}:in:{k}").shuffle(cands)
    rows.candidates["event_in"] += sum(
        1 for kv, year in cands if sum(1 for p in by_k[kv] if rows.year(int(store.lo[p])) == year) == 1
    )
    filled: Counter[str] = Counter()
    seen: set[str] = set()
    out = []
    for kv, year in cands:
        q = _in_question(rows, (k, y, template), kv, year, by_k[kv], filled, seen)
        if q is not None:
            out.append(q)
    return out


def _in_question(
    rows: _Rows,
    columns: tuple[str, str, str],
    kv: str,
    year: int,
    ps: list[int],
    filled: Counter[str],
    seen: set[str],
) -> Question | None:
    """The ``event_in`` question of value ``kv`` in ``year`` (``columns``: the key, the answer, the template).

    None where the year holds several rows of the value, the query was asked already or its cardinality's
    quota is full; ``filled`` and ``seen`` record what was made.
    """
    k, y, template = columns
    store, name = rows.store, rows.store.table.name
    lo, hi = _year_unit_range(year, rows.g)
    matched = [p for p in ps if int(store.lo[p]) <= hi and _end_unit(rows, p) >= lo]
    sql = (
        f"SELECT _row, {quote_ident(y)} FROM {quote_ident(store.sql_name)} WHERE {rows.where({k: kv})} "
        f"AND _lo <= {hi} AND {_END_SQL} >= {lo} AND {quote_ident(y)} IS NOT NULL ORDER BY _row"
    )
    if sql in seen or rows.kept_for_when.intersection(matched) or rows.asked_in.intersection(matched):
        return None
    got = rows.run(sql, matched)
    if len(got) != 1:  # several rows that year (two films "Marco" in 2024): the year does not disambiguate
        return None
    answers = tuple(sorted(set(rows.split(str(got[0][1]), y))))
    card = cardinality_of(len(answers))
    if filled[card] >= 3 * rows.config.per_cell or sum(filled.values()) >= 4 * rows.config.per_cell:
        return None
    seen.add(sql)
    filled[card] += 1
    rows.asked_in.update(matched)
    others = [p for p in ps if p not in matched]
    year_text = render_time(TimePoint(year))
    return rows.question(
        id=question_id(f"{name}-in", sql),
        question=render(
            plural_question(template) if len(answers) > 1 else template,
            # the one row's other columns may word it ("the {Role} of {Country}"), never the answer's
            {c: rows.text(matched[0], c) for c in rows.cols if c != y} | {k: kv, "year": year_text},
            # after "the {year}" the value is attributive and "the" is said once: "the 1984 United States game"
            articled=[c for c in rows.names() if c != k or f"the {{year}} {{{k}}}" not in template],
        ),
        S_star=tuple(rows.triple(p) for p in matched),
        S_dist=tuple(rows.triple(p) for p in others if rows.v(p, y) not in answers),
        operator="event_in",
        answers=answers,
        answer_ids=answers,
        answer_type="entity",
        cardinality=card,
        template_id=f"table/event/in/{k}",
        time_refs=rows.start_refs(matched, y),
        sql=sql,
        reference={"start": str(year), "end": str(year)},
        logical_form={
            "table": name,
            "kind": "event",
            "key": [kv],
            "relation": "event_in",
            "column": k,
            "target": y,
            "year": year,
            "must_keep": [kv, year_text],
        },
    )


_ORDER_DEFAULTS = {
    "first": "Of the {nouns} with {key_label} {{{key}}}, which {answer} came first?",
    "last": "As of {{as_of}}, of the {nouns} with {key_label} {{{key}}}, which {answer} came most recently?",
}


def _event_noun(rows: _Rows) -> str:
    """What one row of an event table is, from its column names.

    A prefix two columns share (``Game_edition``, ``Game_name``: ``game``), else ``event``.
    """
    prefixes = Counter(c.split("_", 1)[0].lower() for c in rows.cols if "_" in c)
    shared = sorted(p for p, n in prefixes.items() if n >= 2)
    return shared[0] if shared else "event"


def _label(col: str, noun: str) -> str:
    """A column's label without the event noun it starts with (``Game_edition`` of a game: ``edition``)."""
    label = column_label(col)
    return label[len(noun) + 1 :] if label.startswith(noun + " ") else label


def _numeric(rows: _Rows, col: str) -> bool:
    return all(v is None or v.isdigit() for v in (rows.v(p, col) for p in rows.pos))


def _event_phrase(rows: _Rows, k: str, counts: Counter[str]) -> str:
    """The noun phrase naming one event by a value of ``k`` and its year, as English reads it.

    A name-like column (more than 40 distinct values: a title) gives ``{Title} ({year})``; a category
    gives ``the {year} {Season} game`` (the noun from the column names, :func:`_event_noun`).
    """
    if len(counts) > 40:
        return f"{{{k}}} ({{year}})"
    return f"the {{year}} {{{k}}} {_event_noun(rows)}"


_OrderCandidate = tuple[str, int, list[int]]  # (the value, the first / last row, all the value's rows)


def _order(rows: _Rows, usable: Sequence[str], book: PhraseBook) -> list[Question]:
    """``event_order`` questions: the first (most recent) row of a recurring value, by start."""
    name = rows.store.table.name
    counts = {c: rows.values_of(c) for c in usable}
    answer_cols = [c for c in usable if not rows.delimited(c)]
    if not answer_cols:
        return []
    ans = max(answer_cols, key=lambda c: (len(counts[c]), -usable.index(c)))  # the most specific name column
    ans = _answer_column(rows, book, "order", ans)
    members = _order_members(rows, usable, ans)
    phrases = book.tables.get(name, {})
    phrased = [k for k in members if f"first:{k}" in phrases or f"last:{k}" in phrases]
    out: list[Question] = []
    for k in phrased or [k for k in sorted(members, key=usable.index) if not _numeric(rows, k)]:
        for form, pick in (("first", min), ("last", max)):
            noun = _event_noun(rows)
            default = _ORDER_DEFAULTS[form].format(
                nouns=plural_noun(noun), answer=_label(ans, noun), key_label=_label(k, noun), key=k
            )
            template = _phrase(book, name, f"{form}:{k}", default)
            cands = _order_candidates(rows, members[k], ans, pick)
            rows.candidates["event_order"] += len(cands)
            if not rows.complete:  # "the first film directed by X" needs every film of X listed
                continue
            random.Random(f"{rows.config.seed}:{name}:{form}:{k}").shuffle(cands)
            out += [_order_question(rows, (k, ans, form, template), c) for c in cands[: rows.config.per_cell]]
    rows.not_complete("event_order", "the first / most recent row of a value")
    return out


def _order_members(rows: _Rows, usable: Sequence[str], ans: str) -> dict[str, dict[str, list[int]]]:
    """Per column other than the answer's, the rows of each of its values (a delimited cell counts for each)."""
    members: dict[str, dict[str, list[int]]] = {}
    for k in usable:
        if k == ans:
            continue
        by_v = members.setdefault(k, {})
        for p in rows.pos:
            kv, av = rows.v(p, k), rows.v(p, ans)
            if kv is not None and av is not None:
                for v in rows.split(kv, k):
                    by_v.setdefault(v, []).append(p)
    return members


def _order_candidates(
    rows: _Rows, by_value: dict[str, list[int]], ans: str, pick: Callable[[Iterable[int]], int]
) -> list[_OrderCandidate]:
    """The values whose first (``pick=min``) or last (``max``) start is one row's beyond doubt, answers differing."""
    store = rows.store
    cands = []
    for kv, ps in sorted(by_value.items()):
        if len(ps) < 2 or len({rows.v(p, ans) for p in ps}) < 2:  # one answer without the order: no question
            continue
        edge = pick(int(store.lo[p]) for p in ps)
        top = [p for p in ps if int(store.lo[p]) == edge]
        if len(top) != 1:  # a tie at the table's granularity has no single first
            continue
        p0, rest = top[0], [p for p in ps if p != top[0]]
        if store.uncertain(rest, [(int(store.lo[p0]), int(store.lo_last[p0]))]) or store.uncertain(
            [p0], [(int(store.lo[p]), int(store.lo_last[p])) for p in rest]
        ):
            store.precision_skipped += 1  # the order could turn on where in its year a bare year falls
            continue
        cands.append((kv, top[0], ps))
    return cands


def _order_question(rows: _Rows, spec: tuple[str, str, str, str], cand: _OrderCandidate) -> Question:
    """The ``event_order`` question of one candidate (``spec``: key column, answer column, form, template)."""
    k, ans, form, template = spec
    kv, p, ps = cand
    store, name = rows.store, rows.store.table.name
    agg = "MIN" if form == "first" else "MAX"
    cond = _member_sql(k, kv, rows.pattern(k) if rows.delimited(k) else None)
    t = quote_ident(store.sql_name)
    sql = (
        f"SELECT _row, {quote_ident(ans)} FROM {t} WHERE {cond} AND {quote_ident(ans)} IS NOT NULL "
        f"AND _lo = (SELECT {agg}(_lo) FROM {t} WHERE {cond} AND {quote_ident(ans)} IS NOT NULL) "
        "ORDER BY _row"
    )
    got = rows.run(sql, [p])
    answers = (str(got[0][1]),)
    tp = rows.triple(p)
    # a phrase file may word it with the answer row's other columns ("the {Role} of {Country}"); the
    # default names the key only (another column may spell the answer: City "Salt" of "Salt Lake City")
    values = {c: rows.text(p, c) for c in rows.cols if c != ans} | {k: kv, "as_of": rows.as_of_text}
    return rows.question(
        id=question_id(f"{name}-{form}", sql),
        question=render(template, values, articled=rows.names()),
        S_star=(tp,),
        S_dist=tuple(rows.triple(q) for q in ps if q != p),
        operator="event_order",
        answers=answers,
        answer_ids=answers,
        answer_type="entity",
        cardinality="unique",
        template_id=f"table/event/{form}/{k}",
        time_refs=({"which": "start", "value": tp.t_start or "", "answer": answers[0]},),
        sql=sql,
        logical_form={
            "table": name,
            "kind": "event",
            "key": [kv],
            "relation": "event_order",
            "form": form,
            "column": k,
            "target": ans,
            "must_keep": [kv],
        },
        assumes_complete=True,
    )


def _member_sql(column: str, value: str, pattern: re.Pattern[str] | None) -> str:
    """SQL: ``column`` is ``value``, or (a delimited column: its ``pattern``) one of its cell's values is."""
    col = quote_ident(column)
    if pattern is None:
        return f"{col} = {sql_literal(value)}"
    cells = f"regexp_split_to_array(trim({col}), {sql_literal(pattern.pattern)})"
    return f"list_contains({cells}, {sql_literal(value)})"
