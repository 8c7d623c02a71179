"""The KG builder's columnar and SQL steps against per-fact references kept here (Python loops).

Each reference below works a step out fact by fact (or group by group) in plain Python; the index, the
implausible-date rules, the cardinality statistics and the overlapping groups (SQL on DuckDB) and the per-year
expansion (arrays) must give the same arrays / facts / verdicts on YAGO11k and Wikidata12k (mirror), on
synthetic graphs and on hand-made facts with every corner (events, open ends, reversed, non-years).
"""

from __future__ import annotations

import bisect
import dataclasses
import re
import statistics
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest

from chronoqa.generate.kg import index as index_module
from chronoqa.generate.kg.build import resolve_not_years, resolve_open_end, resolve_phrases
from chronoqa.generate.kg.config import KGBuildConfig
from chronoqa.generate.kg.index import NEG, NONE, POS, Col, GraphIndex, expand_years, has_non_year
from chronoqa.generate.kg.phrases import RelationPhrases, load_phrase_table
from chronoqa.generate.kg.plausible import CENTURY_GAP, EARLY
from chronoqa.generate.kg.sql import DuckDBEngine, implausible_by_sql, overlap_keys_by_sql
from chronoqa.records import Fact, FactColumns, TemporalGraph
from chronoqa.sources.synthetic import SyntheticConfig, generate
from chronoqa.time import Granularity, TimePoint
from sql_index_fixtures import index_of

AS_OF = TimePoint(2026, 1, 1)


def reference_table(
    facts: Sequence[Fact],
    is_event: Mapping[str, bool],
    g: Granularity,
    as_of: TimePoint,
    open_end: str,
    not_years: Mapping[str, Collection[int]] | None,
) -> tuple[list[str], list[str], np.ndarray, np.ndarray, np.ndarray]:
    """The index's per-fact table worked out fact by fact: names, table, reversed and non-year masks."""
    ent_id: dict[str, int] = {}
    rel_id: dict[str, int] = {}
    n = len(facts)
    table = np.empty((n, 9), dtype=np.int32)
    rev = np.zeros(n, dtype=bool)
    nyr = np.zeros(n, dtype=bool)
    as_lo, as_hi = as_of.lo(g), as_of.hi(g)

    def units(p: TimePoint) -> tuple[int, int, int]:
        return p.lo(g), p.hi(g), p.lo(g) if p.granularity >= g else NONE

    for i, f in enumerate(facts):
        s = ent_id.setdefault(f.s, len(ent_id))
        o = ent_id.setdefault(f.o, len(ent_id))
        r = rel_id.setdefault(f.r, len(rel_id))
        ev = is_event.get(f.r, False)
        start = f.start
        end = f.end if f.end is not None or not ev else f.start
        su = eu = NONE
        if start is not None:
            plo, clo, su = units(start)
        else:
            plo, clo = NEG, POS
        if end is not None:
            e_lo, e_hi, _ = units(end)
            phi, chi = e_hi, e_lo
            if f.end is not None:
                eu = units(f.end)[2]
        else:
            phi, chi = as_hi, as_lo
            if open_end == "unknown" and start is not None:
                chi = units(start)[0]
        if start is not None and f.end is not None and units(start)[0] > units(f.end)[1]:
            rev[i] = True
            plo, phi, clo, chi = POS, NEG, POS, NEG
        if has_non_year(f, not_years):
            nyr[i] = True
            plo, phi, clo, chi = POS, NEG, POS, NEG
        if clo == POS:
            chi = NEG
        table[i] = (s, r, o, plo, phi, clo, chi, su, eu)
    return list(ent_id), list(rel_id), table, rev, nyr


def corner_facts() -> list[Fact]:
    """Every branch of the unit rules: events with and without an end, open ends, reversed, non-years, no time."""
    t = TimePoint
    return [
        Fact(0, "a", "born", "b", t(1950, 3, 4), None, 1),  # event, no end
        Fact(1, "a", "born", "c", t(1950), t(1952), 2),  # event over years
        Fact(2, "b", "member", "c", t(1990, 5), None, 3),  # open-ended state
        Fact(3, "c", "member", "a", t(2001), t(1999), 4),  # reversed
        Fact(4, "d", "member", "a", None, t(1980, 1, 2), 5),  # end only
        Fact(5, "d", "member", "e", None, None, 6),  # no time
        Fact(6, "e", "owns", "d", t(360), t(2000), 7),  # non-year start
        Fact(7, "e", "owns", "a", t(1999, 12), t(1999, 12, 31), 8),  # mixed granularities
        Fact(8, "a", "member", "a", t(-405), t(-400), 9),  # self loop, BC
        Fact(9, "f", "born", "a", t(2020, 2, 29), t(2020, 2, 29), 10),
    ]


def _mirror_graph(mirror: Path, name: str) -> TemporalGraph:
    from chronoqa.datasets import wikidata12k, yago11k

    return {"yago11k": yago11k.load, "wikidata12k": wikidata12k.load}[name](mirror / name)


def _check_table(facts: Sequence[Fact], is_event: Mapping[str, bool], not_years: Mapping[str, Collection[int]]) -> None:
    for g in Granularity:
        for open_end in ("ongoing", "unknown"):
            ents, rels, table, rev, nyr = reference_table(facts, is_event, g, AS_OF, open_end, not_years)
            for given in (list(facts), FactColumns.from_facts(facts)):
                idx = index_of(given, is_event, g, AS_OF, open_end, not_years)
                assert idx.ent_names == ents and idx.rel_names == rels
                assert idx.ent_id == {e: i for i, e in enumerate(ents)}
                np.testing.assert_array_equal(idx.table, table)
                np.testing.assert_array_equal(idx.reversed_mask, rev)
                assert idx.not_year_mask is not None
                np.testing.assert_array_equal(idx.not_year_mask, nyr)


def test_index_table_equals_the_per_fact_loop_on_corner_facts() -> None:
    _check_table(corner_facts(), {"born": True, "member": False}, {"owns": [360], "member": [1999]})


def test_index_table_equals_the_per_fact_loop_on_a_synthetic_graph() -> None:
    facts = list(generate(n_facts=3000, seed=5).to_graph().facts)
    _check_table(facts, {"R1": True, "R4": True}, {"R2": [1950, 1951]})


@pytest.mark.parametrize("name", ["yago11k", "wikidata12k"])
def test_index_table_equals_the_per_fact_loop_on_mirror_graphs(mirror: Path, name: str) -> None:
    facts = list(_mirror_graph(mirror, name).facts)
    rels = sorted({f.r for f in facts})
    is_event = {r: i % 3 == 0 for i, r in enumerate(rels)}
    _check_table(facts, is_event, {rels[1]: [1000, 1999, 2000]})


def _permuted(cols: FactColumns, seed: int) -> FactColumns:
    """The same facts with entity and relation codes in a shuffled order (and names nobody uses)."""
    rng = np.random.default_rng(seed)
    ents = [*cols.entities, "unused-entity"]
    rels = [*cols.relations, "unused-relation"]
    pe, pr = rng.permutation(len(ents)), rng.permutation(len(rels))
    new_ents, new_rels = [""] * len(ents), [""] * len(rels)
    for old, new in enumerate(pe.tolist()):
        new_ents[new] = ents[old]
    for old, new in enumerate(pr.tolist()):
        new_rels[new] = rels[old]
    return FactColumns(
        new_ents, new_rels, cols.ids, pe[cols.s].astype(np.int32), pr[cols.r].astype(np.int32),
        pe[cols.o].astype(np.int32), cols.has_start, cols.start_year, cols.start_month, cols.start_day, cols.has_end,
        cols.end_year, cols.end_month, cols.end_day, cols.lines,
    )  # fmt: skip


def _same_index(a: GraphIndex, b: GraphIndex) -> None:
    assert a.ent_names == b.ent_names and a.rel_names == b.rel_names and a.rel_event == b.rel_event
    assert a.rel_symmetric == b.rel_symmetric and a.rel_one == b.rel_one
    arrays = ("table", "reversed_mask", "out_keys", "out_rows", "in_keys", "in_rows", "triple_count", "ignored_mask")
    for name in arrays:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
        assert getattr(a, name).dtype == getattr(b, name).dtype, name


def test_columns_in_any_code_order_give_the_index_of_the_facts() -> None:
    data = generate(n_facts=4000, seed=2)
    facts = list(data.to_graph().facts)
    kw = {"symmetric": ["R3"], "cardinality": {"R1": (False, True)}}
    want = index_of(facts, {"R0": True}, Granularity.DAY, AS_OF, "unknown", {"R5": [1990]}, **kw)  # type: ignore[arg-type]
    for cols in (data.to_columns(), _permuted(data.to_columns(), 1), _permuted(FactColumns.from_facts(facts), 2)):
        got = index_of(cols, {"R0": True}, Granularity.DAY, AS_OF, "unknown", {"R5": [1990]}, **kw)  # type: ignore[arg-type]
        _same_index(got, want)


# -- implausible dates -----------------------------------------------------------------------------


def _years(f: Fact) -> list[int]:
    return [p.year for p in (f.start, f.end) if p is not None]


_UNDER = re.compile(r"(?<!\w)(?:u|under)[- ]?(\d\d)(?!\w)", re.IGNORECASE)


def _youth_over(person: str, side: str, year: int, births: Mapping[str, int]) -> bool:
    """``side`` (an entity read by its id, as the rules' default label) names an under-N side, 14 <= N <= 23, and
    ``year`` is more than N + 2 years after ``person``'s birth year."""
    limits = [int(n) for n in _UNDER.findall(side.replace("_", " ")) if 14 <= int(n) <= 23]
    return bool(limits) and person in births and year - births[person] > limits[0] + 2


def _contradicted_births(
    facts: Sequence[Fact], phrases: Mapping[str, RelationPhrases], ignored: Sequence[bool]
) -> set[int]:
    """Positions of the births (with a start) at least two, and at least half, of whose subject's facts of relations
    with no role (with a start, on either side, a self-loop once) start before: ``birth_contradicted``."""
    life: dict[str, list[int]] = defaultdict(list)  # entity -> start years of its facts of no role
    for i, f in enumerate(facts):
        if not ignored[i] and f.start is not None and phrases[f.r].role is None:
            for e in {f.s, f.o}:
                life[e].append(f.start.year)
    out = set()
    for i, f in enumerate(facts):
        if ignored[i] or f.start is None or phrases[f.r].role != "birth":
            continue
        before = len([y for y in life[f.s] if y < f.start.year])
        if before >= 2 and 2 * before >= len(life[f.s]):
            out.add(i)
    return out


def _lives_and_years(
    facts: Sequence[Fact], phrases: Mapping[str, RelationPhrases], ignored: Sequence[bool], contradicted: set[int]
) -> tuple[dict[str, int], dict[str, int], dict[str, list[int]], dict[str, float]]:
    """Births (of no ``contradicted`` birth) and deaths by entity, each entity's sorted representative years and
    each relation's median year."""
    births: dict[str, int] = {}
    deaths: dict[str, int] = {}
    per_entity: dict[str, list[int]] = defaultdict(list)  # entity -> sorted representative years
    per_relation: dict[str, list[int]] = defaultdict(list)
    for i, f in enumerate(facts):
        if ignored[i]:
            continue
        ys = _years(f)
        if not ys:
            continue
        role = phrases[f.r].role
        if role == "birth" and f.start is not None and i not in contradicted:
            births[f.s] = min(births.get(f.s, f.start.year), f.start.year)
        elif role == "death" and f.start is not None:
            deaths[f.s] = max(deaths.get(f.s, f.start.year), f.start.year)
        rep = ys[0]
        per_relation[f.r].append(rep)
        per_entity[f.s].append(rep)
        if f.o != f.s:
            per_entity[f.o].append(rep)
    for ys in per_entity.values():
        ys.sort()
    return births, deaths, per_entity, {r: statistics.median(ys) for r, ys in per_relation.items()}


def reference_implausible(
    facts: Sequence[Fact],
    phrases: Mapping[str, RelationPhrases],
    ignored: Sequence[bool],
    as_of: TimePoint,
    open_end: str,
    default_max_years: int,
) -> dict[int, str]:
    """The implausible-date rules worked out in Python: one pass per fact."""
    contradicted = _contradicted_births(facts, phrases, ignored)  # no births for the rules below
    births, deaths, per_entity, rel_median = _lives_and_years(facts, phrases, ignored, contradicted)

    def off(e: str, own: int, ys: list[int]) -> bool | None:
        """True/False: the fact's years are far from / near e's other facts; None: e has too few to tell."""
        lst = per_entity.get(e, [])
        n = len(lst) - 1
        if n < 1:
            return None
        i = bisect.bisect_left(lst, own)  # the fact's own entry, removed from the list

        def kth(j: int) -> int:
            return lst[j] if j < i else lst[j + 1]

        if n < 3:  # too few for a median: only an early year (AD 1-999) far from every other fact counts
            if min(ys) >= EARLY:
                return None
            return all(abs(y - kth(j)) > CENTURY_GAP for y in ys for j in range(n))
        k = n // 2
        med = kth(k) if n % 2 else (kth(k - 1) + kth(k)) / 2
        return any(abs(y - med) > CENTURY_GAP for y in ys)

    out: dict[int, str] = {}
    for i, f in enumerate(facts):
        if ignored[i]:
            continue
        p = phrases[f.r]
        if p.is_event and f.start is not None and f.end is not None and f.end.year > f.start.year:
            out[i] = "event_over_years"
            continue
        if not p.is_event and open_end == "ongoing" and f.start is not None and f.end is None:
            limit = p.max_years if p.max_years is not None else default_max_years
            if as_of.year - f.start.year > limit:
                out[i] = "open_end_too_long"
                continue
        closed = not p.is_event and f.start is not None and f.end is not None
        if closed and p.max_years is not None and f.end.year - f.start.year > p.max_years:  # type: ignore[union-attr]
            out[i] = "span_too_long"
            continue
        if p.role is None and f.start is not None:
            y = f.start.year
            ents = (f.s, f.o)
            if any(e in births and y < births[e] + p.min_age for e in ents):
                out[i] = "before_birth"
                continue
            if any(e in deaths and y > deaths[e] for e in ents):
                out[i] = "after_death"
                continue
            if _youth_over(f.s, f.o, y, births) or _youth_over(f.o, f.s, y, births):
                out[i] = "youth_over_age"
                continue
        ys = _years(f)
        if ys:
            verdicts = [v for v in (off(f.s, ys[0], ys), off(f.o, ys[0], ys) if f.o != f.s else None) if v is not None]
            if verdicts and all(verdicts):
                out[i] = "century_outlier"
            elif not verdicts and min(ys) < EARLY and abs(min(ys) - rel_median[f.r]) > CENTURY_GAP:
                out[i] = "century_outlier"  # no other fact dates the entities: the relation's own years do
        if i in contradicted and i not in out:
            out[i] = "birth_contradicted"  # after the rules on its own dates
    return {**out, **_mirror_disagreements(facts, phrases, ignored, out)}


def _mirror_disagreements(
    facts: Sequence[Fact], phrases: Mapping[str, RelationPhrases], ignored: Sequence[bool], out: Mapping[int, str]
) -> dict[int, str]:
    """``mirror_disagrees`` of the facts not already in ``out``."""
    dated = defaultdict(list)  # (s, r, o) -> the dated facts valid somewhere
    for i, f in enumerate(facts):
        if not ignored[i] and _years(f):
            dated[(f.s, f.r, f.o)].append(f)

    def same(a: TimePoint | None, b: TimePoint | None) -> bool:
        return a is None or b is None or a.year == b.year

    found = {}
    for i, f in enumerate(facts):
        mirrors = dated.get((f.o, f.r, f.s), []) if phrases[f.r].symmetric and f.s != f.o else []
        if i in out or ignored[i] or not _years(f) or not mirrors:
            continue
        if not any(same(f.start, g.start) and same(f.end, g.end) for g in mirrors):
            found[i] = "mirror_disagrees"  # the graph dates the marriage two ways
    return found


def _check_implausible(
    facts: Sequence[Fact], phr: Mapping[str, RelationPhrases], not_years: Mapping[str, Collection[int]] | None = None
) -> dict[int, str]:
    got_any: dict[int, str] = {}
    for open_end in ("ongoing", "unknown"):
        idx = index_of(facts, {k: p.is_event for k, p in phr.items()}, Granularity.YEAR, AS_OF, open_end,
                               not_years)  # fmt: skip
        ignored = idx.ignored_mask
        want = reference_implausible(facts, phr, ignored.tolist(), AS_OF, open_end, 80)
        for given in (list(facts), FactColumns.from_facts(facts)):
            assert implausible_by_sql(DuckDBEngine(), given, phr, ignored.tolist(), AS_OF, open_end, 80) == want
        got_any.update(want)
    return got_any


def _generic_phrases(facts: Sequence[Fact]) -> dict[str, RelationPhrases]:
    rels = sorted({(f.r, f.r) for f in facts})
    phr, _ = load_phrase_table("yago11k").resolve(rels, generic=True)
    roles = {"R0": {"role": "birth", "kind": "event"}, "R1": {"role": "death", "kind": "event"},
             "R2": {"kind": "event"}, "R3": {"max_years": 30}}  # fmt: skip
    return {k: dataclasses.replace(p, **roles.get(k, {})) for k, p in phr.items()}  # type: ignore[arg-type]


@pytest.mark.parametrize(("n_entities", "year_min"), [(None, 1900), (4000, 600), (300, 700)])
def test_implausible_equals_the_per_fact_pass_on_synthetic_graphs(n_entities: int | None, year_min: int) -> None:
    facts = list(generate(n_facts=3000, seed=7, n_entities=n_entities, year_min=year_min).to_graph().facts)
    facts += [Fact(len(facts), "E1", "R5", "E1", TimePoint(650), TimePoint(2001), 0)]  # self loop, early
    found = _check_implausible(facts, _generic_phrases(facts), {"R4": [1950]})
    assert len(set(found.values())) >= 3  # the rules are exercised, not all silent


def test_implausible_equals_the_per_fact_pass_on_a_mixed_graph() -> None:
    """The benchmark shape (careers, events, lifelong, Zipf): entities with many facts, medians at every parity."""
    facts = list(generate(SyntheticConfig.mixed(6000, seed=3)).to_graph().facts)
    # early starts on every 41st dated fact (some before their end, some reversed), so the outlier rules fire
    for i in range(0, len(facts), 41):
        if facts[i].start is not None:
            facts[i] = facts[i]._replace(start=TimePoint(350 + 13 * i % 700))
    found = _check_implausible(facts, _generic_phrases(facts))
    assert len(set(found.values())) >= 3
    assert sum(1 for v in found.values() if v == "century_outlier") >= 20


def test_implausible_with_no_dated_fact_or_one_entity() -> None:
    undated = [Fact(i, f"E{i % 3}", "R2", f"E{i % 5}", None, None, 0) for i in range(12)]
    assert _check_implausible(undated, _generic_phrases(undated)) == {}
    years = [5, 900, 1900, 1901, 1902, 450, 2000]  # one subject: medians over 1..6 others, both parities
    facts = [Fact(i, "E0", "R5", "E0" if i % 2 else f"E{i}", TimePoint(y), None, 0) for i, y in enumerate(years)]
    for cut in range(1, len(facts) + 1):
        _check_implausible(facts[:cut], _generic_phrases(facts))


def test_implausible_births_a_life_contradicts() -> None:
    # E0, born 2000: facts of no role from 1990 (its subject), 1995 (its object), 2005 and 2010: two of four earlier,
    # half: the birth is contradicted and dates nothing. E1, born 2000: 1990, 1995 and three later: two of five, a
    # birth, both earlier facts before_birth. E2, born 2000: a self-loop in 1990 (read once) and 2005: one earlier,
    # a birth, the self-loop before_birth.
    rows = [("E0", "R0", "P", 2000), ("E0", "R5", "X", 1990), ("Y", "R5", "E0", 1995), ("E0", "R5", "Z", 2005),
            ("E0", "R5", "W", 2010), ("E1", "R0", "P", 2000), ("E1", "R5", "X", 1990), ("E1", "R5", "V", 1995),
            ("E1", "R5", "A", 2001), ("E1", "R5", "B", 2002), ("E1", "R5", "C", 2003), ("E2", "R0", "P", 2000),
            ("E2", "R5", "E2", 1990), ("E2", "R5", "Q", 2005)]  # fmt: skip
    facts = [Fact(i, s, r, o, TimePoint(y), TimePoint(y), 0) for i, (s, r, o, y) in enumerate(rows)]
    found = _check_implausible(facts, _generic_phrases(facts))
    assert found == {0: "birth_contradicted", 6: "before_birth", 7: "before_birth", 12: "before_birth"}


@pytest.mark.parametrize("name", ["yago11k", "wikidata12k"])
def test_implausible_equals_the_per_fact_pass_on_mirror_graphs(mirror: Path, name: str) -> None:
    graph = _mirror_graph(mirror, name)
    phr, _, _ = resolve_phrases(graph, None, generic=False)
    table = load_phrase_table(name)
    not_years, _ = resolve_not_years(KGBuildConfig(), table, sorted({(f.r, graph.relation_label(f.r)) for f in graph}))
    assert resolve_open_end(KGBuildConfig(), table)[0] in ("ongoing", "unknown")
    found = _check_implausible(list(graph.facts), phr, {r: frozenset(ys) for r, ys in not_years.items()})
    assert found


# -- per-year expansion, cardinality inference, overlapping groups ----------------------------------


def reference_expand_years(
    facts: Sequence[Fact], not_years: Mapping[str, Collection[int]] | None
) -> tuple[list[Fact], list[str]]:
    """``expand_years`` as it was: one loop per fact and year."""
    out: list[Fact] = []
    docs: list[str] = []
    for f in facts:
        start, end = f.start, f.end
        if start is None or (end is not None and start.year > end.year) or has_non_year(f, not_years):
            out.append(f._replace(id=len(out)))
            docs.append(f"F{f.id}")
            continue
        last = start.year if end is None else end.year
        for y in range(start.year, last + 1):
            out.append(Fact(len(out), f.s, f.r, f.o, TimePoint(y), TimePoint(y), f.line))
            docs.append(f"F{f.id}-{y}")
    return out, docs


def test_expand_years_equals_the_per_fact_loop() -> None:
    facts = corner_facts() + list(generate(n_facts=2000, seed=4).to_graph().facts)
    want_facts, want_docs = reference_expand_years(facts, {"owns": [360], "R2": [1950]})
    for given in (facts, FactColumns.from_facts(facts)):
        got_facts, got_docs = expand_years(given, {}, AS_OF, {"owns": [360], "R2": [1950]})
        assert list(got_facts) == want_facts
        assert list(got_docs) == want_docs and got_docs[3:5] == want_docs[3:5] and len(got_docs) == len(want_docs)


def test_expand_years_equals_the_per_fact_loop_on_yago(mirror: Path) -> None:
    facts = list(_mirror_graph(mirror, "yago11k").facts)
    want_facts, want_docs = reference_expand_years(facts, None)
    got_facts, got_docs = expand_years(FactColumns.from_facts(facts), {}, AS_OF)
    assert list(got_facts) == want_facts and list(got_docs) == want_docs


def reference_infer_one(
    idx: GraphIndex, relation: int, forward: bool, window: int = 20
) -> tuple[bool, tuple[int, ...]]:
    """``GraphIndex.infer_one`` worked out in Python (groups, a window of ``window`` sorted spans), and its counts."""
    keys, rows = (idx.out_keys, idx.out_rows) if forward or idx.rel_symmetric[relation] else (idx.in_keys, idx.in_rows)
    sel = rows[(keys % idx.n_rel) == relation]
    if not len(sel):
        return True, (0, 0, 0, 0)
    ents = (keys[(keys % idx.n_rel) == relation] // idx.n_rel).tolist()
    groups: dict[int, list[list[int]]] = {}
    for e, row in zip(ents, sel.tolist(), strict=True):
        groups.setdefault(e, []).append(row)
    multi = overlapping = n_values = 0
    for grp in groups.values():
        values = {row[Col.OTHER] for row in grp}
        n_values += len(values)
        if len(values) < 2:
            continue
        multi += 1
        spans = sorted((row[Col.APLO], row[Col.APHI], row[Col.OTHER]) for row in grp)
        if any(
            a[2] != b[2] and min(a[1], b[1]) - max(a[0], b[0]) >= 1
            for i, a in enumerate(spans)
            for b in spans[i + 1 : i + window]
        ):
            overlapping += 1
    counts = (len(groups), multi, overlapping, n_values)
    return overlapping <= 0.05 * max(multi, 1) and n_values <= 3.0 * len(groups), counts


def reference_overlap_keys(idx: GraphIndex, forward: bool) -> frozenset[int]:
    """The groups ``GraphIndex.one_at`` rules out, worked out in Python: every pair of certain spans of each group."""
    keys, rows = (idx.out_keys, idx.out_rows) if forward else (idx.in_keys, idx.in_rows)
    out: set[int] = set()
    if not len(keys):
        return frozenset()
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], len(keys)]
    for i in np.flatnonzero(ends - starts > 1).tolist():
        grp = rows[starts[i] : ends[i]]
        certain = grp[grp[:, Col.ACLO] <= grp[:, Col.ACHI]]
        spans = sorted(zip(*(certain[:, c].tolist() for c in (Col.ACLO, Col.ACHI, Col.OTHER)), strict=True))
        if any(
            a[2] != b[2] and min(a[1], b[1]) - max(a[0], b[0]) >= 1 for j, a in enumerate(spans) for b in spans[j + 1 :]
        ):
            out.add(int(keys[starts[i]]))
    return frozenset(out)


def _check_groups(idx: GraphIndex) -> None:
    for r in range(len(idx.rel_names)):
        for forward in (True, False):
            want, counts = reference_infer_one(idx, r, forward)
            assert idx.infer_one(r, forward) == want, (idx.rel_names[r], forward)
            stats = idx._infer_stats[forward or idx.rel_symmetric[r]]
            assert tuple(int(x[r]) for x in stats) == counts
    got = overlap_keys_by_sql("duckdb", idx)
    for forward in (True, False):
        assert got[forward] == reference_overlap_keys(idx, forward)


@pytest.mark.parametrize("seed", [0, 1])
def test_group_statistics_equal_the_python_groups_on_synthetic_graphs(seed: int) -> None:
    data = generate(n_facts=6000, seed=seed, n_entities=300, n_relations=6, mean_duration=8.0)
    for g in (Granularity.YEAR, Granularity.DAY):
        idx = index_of(data.to_columns(), {"R1": True}, g, AS_OF, symmetric=["R2"])
        idx.mark_implausible(np.arange(0, 6000, 7))
        _check_groups(idx)
        assert reference_overlap_keys(idx, True) and reference_overlap_keys(idx, False)  # the check is not vacuous


@pytest.mark.parametrize("name", ["yago11k", "wikidata12k"])
def test_group_statistics_equal_the_python_groups_on_mirror_graphs(mirror: Path, name: str) -> None:
    graph = _mirror_graph(mirror, name)
    phr, _, _ = resolve_phrases(graph, None, generic=False)
    symmetric = [r for r, p in phr.items() if p.symmetric]
    for open_end in ("ongoing", "unknown"):
        idx = index_of(graph.facts, {r: p.is_event for r, p in phr.items()}, Granularity.YEAR, AS_OF,
                               open_end, symmetric=symmetric)  # fmt: skip
        _check_groups(idx)


def test_rows_gathered_per_slice_equal_the_gathered_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # a large graph gathers each slice from the per-fact table (symmetric twins and self-loops included); a
    # small one keeps its rows: the two read alike, before and after implausible dates are marked
    facts = corner_facts() + list(generate(n_facts=3000, seed=5, n_entities=200, n_relations=5).to_graph().facts)
    facts.append(Fact(len(facts), "E1", "R2", "E1", TimePoint(1990), TimePoint(1995)))  # a symmetric self-loop
    build = dict(is_event={"R1": True}, granularity=Granularity.YEAR, as_of=AS_OF, symmetric=["R2"])
    cached = index_of(facts, **build)  # type: ignore[arg-type]
    monkeypatch.setattr(index_module, "ROW_CACHE_MAX", 0)
    lean = index_of(facts, **build)  # type: ignore[arg-type]
    assert set(cached._row_cache) == {True, False} and not lean._row_cache
    assert len(lean._mirror_pos) > 0
    for idx in (cached, lean):
        idx.mark_implausible(np.arange(0, len(facts), 13))
    positions = np.array([0, 5, 3, 17], dtype=np.int64)
    for forward in (True, False):
        a, b = 0, len(cached.out_fids if forward else cached.in_fids)
        np.testing.assert_array_equal(lean.rows_array(forward, a, b), cached.rows_array(forward, a, b))
        np.testing.assert_array_equal(lean.out_rows if forward else lean.in_rows, cached.rows_array(forward, a, b))
        assert lean.rows_at(forward, positions) == cached.rows_at(forward, positions)
        np.testing.assert_array_equal(lean.other_at(forward), cached.rows_array(forward, a, b)[:, Col.OTHER])
        for e in range(len(cached.ent_names)):
            assert lean.incident(e, forward) == cached.incident(e, forward)
            for r in range(len(cached.rel_names)):
                assert lean.group(e, r, forward) == cached.group(e, r, forward)
    # the brute force: every row is its fact's table row, read from the row's own entity
    for forward in (True, False):
        for row, key in zip(lean.out_rows if forward else lean.in_rows, lean.out_keys if forward else lean.in_keys,
                            strict=True):  # fmt: skip
            s, r, o, *bounds = lean.table[row[Col.FID]].tolist()
            e = int(key) // lean.n_rel
            assert row[Col.AR] == r and row[Col.APLO :].tolist() == bounds and int(key) % lean.n_rel == r
            assert (e, int(row[Col.OTHER])) in ((s, o), (o, s)) and (not forward or e == s or lean.rel_symmetric[r])


@pytest.mark.parametrize("n", [0, 1, 2, 7, 500])
def test_run_sizes_counts_the_rows_sharing_every_key(n: int) -> None:
    """Each row's count of rows equal to it on all keys, against a plain Counter over the key tuples."""
    from collections import Counter

    rng = np.random.default_rng(n)
    keys = [rng.integers(lo, lo + 3, n, dtype=np.int32) for lo in (0, 5, NONE)]
    tuples = list(zip(*(k.tolist() for k in keys), strict=True))
    counts = Counter(tuples)
    assert index_module.run_sizes(*keys).tolist() == [counts[t] for t in tuples]
