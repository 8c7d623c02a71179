"""Re-grounding an old question on the newer data, with the builders' own code.

:class:`TableGround` runs an Allen or time-alignment question's own SQL on the new build's stores (the tables as
that build read them) and makes its gold from the rows, as the table builder does; a question of another table
family is checked by its facts only (``regrounded`` false). :class:`KGGround` looks each ``S*`` fact up in the
new graph and runs the operator's own gold rule (the build audit's re-check); a fact the newer data added beside
an ``S*`` fact (same subject and relation, another object, possibly valid at ``t_query``) retires the question
as no longer unique. A KG question the new build drew itself never comes here: the build's record is its gold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from chronoqa.artifacts.release import Release
from chronoqa.generate.kg.operators import REGISTRY
from chronoqa.generate.refresh.keys import Docs, FactKey, Grounding, fact_key, show_fact
from chronoqa.generate.result import BuildResult
from chronoqa.generate.table.allen import TIME_REFS
from chronoqa.generate.table.config import cardinality_of
from chronoqa.generate.table.store import TableStore, key_index
from chronoqa.generate.table.triples import row_triple
from chronoqa.records import Question, Triple, time_str
from chronoqa.time import Allen, Duration, Granularity, parse_time, valid_at

__all__ = ["KGGround", "TableGround"]

#: KG answer kinds a re-dated fact is followed for (the operator's gold rule re-checks them); a time or duration
#: answer is drawn again from the re-dated fact (:meth:`KGGround._dated_gold`).
_REDATABLE_ANSWERS = ("entity", "yes_no", "time", "duration")
#: Table operators whose gold is the rows of their SQL (``SELECT _row, <answer column>``).
_SQL_OPERATORS = ("allen", "time_alignment")


class TableGround:
    """Re-grounds table questions on the new build's stores."""

    def __init__(self, build: BuildResult) -> None:
        self.stores: dict[str, TableStore] = build.stats["stores"]
        self.primary = build.stats["primary"]
        self.complete = set(build.manifest["config"].get("complete") or ())
        self.docs = Docs(build.corpus())
        self._keys: dict[tuple[str, str], dict[tuple[str | None, ...], list[int]]] = {}

    def __call__(self, q: Question) -> Grounding:
        """``q`` on the newer table (its new gold), or why it is retired."""
        lf = q.logical_form
        store = self.stores.get(str(lf.get("table")))
        if store is None:
            return Grounding(None, f"its table {lf.get('table')!r} is not in the newer data")
        if q.operator not in _SQL_OPERATORS:
            return _by_facts(q, self.docs, f"{q.operator} questions")
        if q.granularity != str(store.granularity):
            return Grounding(None, f"the table is now compared at {store.granularity}, the question at {q.granularity}")
        rhs = str(lf["tfd"]).split("->")[1]
        positions = self._key_rows(store, str(lf["tfd"])).get(tuple(lf["key"]))
        if not positions:
            return Grounding(None, f"its facts are gone: no row of {' | '.join(lf['key'])} in the newer table")
        rows = [(int(r[0]), str(r[1])) for r in store.query(str(q.sql)) if r[1] is not None]
        answers = tuple(sorted({y for _, y in rows}))
        why = self._invalid(q, answers, store)
        if why:
            return Grounding(None, why)
        return Grounding(self._question(q, store, rows, answers, positions, rhs))

    def _key_rows(self, store: TableStore, tfd: str) -> dict[tuple[str | None, ...], list[int]]:
        lhs = tfd.split("->")[0].split(",")
        cached = self._keys.get((store.sql_name, tfd))
        if cached is None:
            cached = self._keys[(store.sql_name, tfd)] = key_index(store, lhs)
        return cached

    def _invalid(self, q: Question, answers: tuple[str, ...], store: TableStore) -> str:
        """Why the new gold no longer fits the question's wording or the builder's rules ('' when it does)."""
        if not answers and store.table.name not in self.complete:
            return "no answer now, and a 'none' answer is asked only of a table declared complete"
        if (len(answers) > 1) != (len(q.answers) > 1):
            was = "one answer" if len(q.answers) <= 1 else "several answers"
            return f"worded for {was}, now {len(answers)} ({', '.join(answers)}): no longer unique/valid"
        return ""

    def _question(
        self, q: Question, store: TableStore, rows: list[tuple[int, str]], answers: tuple[str, ...],
        positions: Sequence[int], rhs: str,
    ) -> Question:  # fmt: skip
        """The question with the gold of ``rows``: S*, negatives of its key, time references, cardinality."""
        primary = self.primary.get(store.table.name)
        y = store.table.columns.index(rhs)
        gold = {r for r, _ in rows}
        star = tuple(row_triple(store, r, primary) for r, _ in rows)
        others = [int(store.rows[p]) for p in positions if int(store.rows[p]) not in gold]
        value = {r: store.table.rows[r][y] for r in others}
        refs = _time_refs(q, star, [a for _, a in rows])
        return replace(
            q, answers=answers, answer_ids=answers, cardinality=cardinality_of(len(answers)), S_star=star,
            S_dist=tuple(row_triple(store, r, primary) for r in others if value[r] not in answers),
            S_stale=tuple(row_triple(store, r, primary) for r in others if value[r] in answers),
            time_refs=refs, assumes_complete=q.assumes_complete or not answers,
            outdated_answers=tuple(sorted({str(v) for v in value.values() if v is not None} - set(answers)))
            if q.operator == "time_alignment" else q.outdated_answers,
        )  # fmt: skip


def _time_refs(q: Question, star: Sequence[Triple], answers: Sequence[str]) -> tuple[dict[str, str], ...]:
    """The dates the question asks for, of each gold row: its Allen relation's (the start for time alignment)."""
    which = TIME_REFS[Allen(q.allen)] if q.allen else ("start",)
    out = []
    for t, a in zip(star, answers, strict=True):
        for w in which:
            v = t.t_start if w == "start" else t.t_end
            if v is not None:
                out.append({"which": w, "value": v, "answer": a})
    return tuple(out)


def _by_facts(q: Question, docs: Docs, what: str) -> Grounding:
    """A question kept when every ``S*`` fact is still in the data (its gold not recomputed: ``regrounded`` false)."""
    gone = [t for t in q.S_star if docs.triple(t) is None]
    if gone:
        return Grounding(None, f"its facts are gone: {show_fact(gone[0])} (not re-grounded: {what})", False)
    return Grounding(docs.remap(q), f"not re-grounded ({what}): kept because its S* facts are unchanged", False)


class KGGround:
    """Re-grounds KG questions the new build did not draw: their facts looked up, the operator's gold rule run."""

    def __init__(self, build: BuildResult, release: Release) -> None:
        self.gold = build.stats["gold"]
        self.docs = Docs(build.corpus())
        self.pos: dict[FactKey, int] = {}
        self.by_ids: dict[tuple[str, str, str], list[int]] = {}
        self.by_end: dict[tuple[str, str], list[int]] = {}  # (subject, r) and (object, "~r") -> positions
        for i, f in enumerate(self.gold.facts):
            self.pos.setdefault((f.s, f.r, f.o, time_str(f.start), time_str(f.end)), i)
            self.by_ids.setdefault((f.s, f.r, f.o), []).append(i)
            self.by_end.setdefault((f.s, f.r), []).append(i)
            self.by_end.setdefault((f.o, "~" + f.r), []).append(i)
        old = {fact_key(d)[:3] for d in release.corpus}
        self.added = {i for ids, ps in self.by_ids.items() if ids not in old for i in ps}  # re-dated ones are not

    def __call__(self, q: Question) -> Grounding:
        """``q`` on the newer graph (its answers kept, its facts re-dated where the answer allows), or why not."""
        star = []
        for t in q.S_star:
            if fact_key(t) in self.pos:
                star.append(t)
                continue
            moved = self._moved(t)
            if moved is None or not _answer_kept(q, t, moved):
                return self._missing(t)
            star.append(moved)
        nq = replace(q, S_star=tuple(star))
        if q.answer_type in ("time", "duration"):
            timed = self._dated_gold(nq)
            if isinstance(timed, str):
                return Grounding(None, timed)
            nq = timed
        why = REGISTRY[q.operator].gold_rule(self.gold, nq, [self.pos[fact_key(t)] for t in star])
        if why is not None:
            return Grounding(None, f"its gold no longer holds: {why}")
        holder = self._added_holder(nq)
        if holder is not None:
            return Grounding(None, f"no longer unique: the added fact {holder} may also hold at {nq.t_query}")
        return Grounding(self.docs.remap(nq))

    def _dated_gold(self, q: Question) -> Question | str:
        """A time or duration question's gold from its answer fact as the newer data dates it, or why it is retired.

        As the interval and duration operators draft them: the answer fact is the chain's final fact and must be
        the only one of its (s, r, o). A time answer is its asked end (start or end) at the question's granularity,
        and is also ``t_query``; a duration answer is its closed spell's length in units (at least one), ``t_query``
        its start. The operator's gold rule then re-checks the new gold.
        """
        fact = q.S_star[-1]
        spells = self.by_ids.get((fact.s_id, fact.r_id, fact.o_id), [])
        if len(spells) > 1:
            return f"no longer unique: {show_fact(fact)} now holds in {len(spells)} spells, the answer asks of one"
        g = Granularity.parse(q.granularity or "year")
        start, end = parse_time(fact.t_start), parse_time(fact.t_end)
        asked = {str(r.get("which")) for r in q.time_refs if r.get("of") == "answer"}
        if q.answer_type == "duration":
            if start is None or end is None or min(start.granularity, end.granularity) < g:
                return f"its spell is no longer closed at {g} granularity: {show_fact(fact)}"
            n = end.lo(g) - start.lo(g)
            if n < 1:
                return f"its spell now lasts under one {g}: {show_fact(fact)}"
            t = start.truncate(g).isoformat()
            values = {"start": t, "end": end.isoformat()}
            answers, ids = (Duration(n, g).text(),), (Duration(n, g).iso(),)
        else:
            point = end if asked == {"end"} else start
            if asked not in ({"start"}, {"end"}) or point is None or point.granularity < g:
                return f"its asked date ({', '.join(sorted(asked))}) is unknown or coarser than a {g} now"
            t = point.truncate(g).isoformat()
            values, answers, ids = {next(iter(asked)): t}, (t,), (t,)
        refs = tuple({**r, "value": values[str(r["which"])]} if r.get("of") == "answer" else r for r in q.time_refs)
        form = {**q.logical_form, "t_query": t} if q.logical_form else q.logical_form
        return replace(q, answers=answers, answer_ids=ids, t_query=t, time_refs=refs, logical_form=form)

    def _moved(self, t: Triple) -> Triple | None:
        """``t`` re-dated as the newer data dates it (``None``: gone, or no one spell continues it).

        A fact now dated more than once (spells) continues in the one spell that starts when it started.
        """
        facts = [self.gold.facts[i] for i in self.by_ids.get((t.s_id, t.r_id, t.o_id), [])]
        if len(facts) > 1:
            facts = [f for f in facts if time_str(f.start) == t.t_start]
        if len(facts) != 1:
            return None
        f = facts[0]
        return replace(t, t_start=time_str(f.start), t_end=time_str(f.end))

    def _missing(self, t: Triple) -> Grounding:
        f = self.gold.facts
        moved = [f[i] for i in self.by_ids.get((t.s_id, t.r_id, t.o_id), [])]
        if not moved:
            return Grounding(None, f"its facts are gone: {show_fact(t)} is not in the newer data")
        dates = ", ".join(f"{time_str(x.start) or '?'}..{time_str(x.end) or ''}" for x in moved)
        why = f"S* fact {show_fact(t)} re-dated to {dates}; not re-grounded (its answer or spell depends on the dates)"
        return Grounding(None, why, False)

    def _added_holder(self, q: Question) -> str | None:
        """An added fact that a hop of an entity or time question's chain could also take (``None``: none).

        From the entity the chain is at (the anchor first), with the hop's relation, to another entity, possibly
        valid at ``t_query``. The final hop of an operator that names its final entity is not walked: the question
        names where it ends.
        """
        tq, at = q.t_query_point, q.logical_form.get("anchor")
        if tq is None or q.answer_type not in ("entity", "time") or not self.added:
            return None
        facts = self.gold.facts
        hops = len(q.logical_form.get("path") or ()) - int(REGISTRY[q.operator].names_final_entity)
        for t in q.S_star[:hops]:
            if at not in (t.s_id, t.o_id):
                return None  # not a chain from the anchor: nothing to walk
            nxt = t.o_id if at == t.s_id else t.s_id
            for i in self.by_end.get((at, t.r_id), []) + self.by_end.get((at, "~" + t.r_id), []):
                f = facts[i]
                if i in self.added and nxt not in (f.s, f.o) and _possibly_at(f, tq, self.gold.as_of):
                    return f"{f.s} | {f.r} | {f.o} | {time_str(f.start) or '?'}..{time_str(f.end) or ''}"
            at = nxt
        return None


def _answer_kept(q: Question, old: Triple, new: Triple) -> bool:
    """Whether a question can be re-grounded through a re-dated fact.

    An entity or yes/no answer is kept (its gold rule re-checks the dates); a time or duration answer is drawn
    again from the new dating (:meth:`KGGround._dated_gold`); any other answer (a count) only when the dates it
    asks for (``time_refs``: start / end) are unchanged.
    """
    if q.answer_type in _REDATABLE_ANSWERS:
        return True
    asked = {str(r.get("which")) for r in q.time_refs}
    same = {"start": old.t_start == new.t_start, "end": old.t_end == new.t_end}
    return bool(asked) and all(same.get(w, False) for w in asked)


def _possibly_at(f: Any, t: Any, as_of: Any) -> bool:
    return valid_at(f.interval, t, t.granularity, as_of=as_of, mode="possible")
