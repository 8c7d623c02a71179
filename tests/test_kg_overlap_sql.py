"""The overlapping groups of ``GraphIndex.one_at`` as SQL (DuckDB; Spark on the fixture).

Oracles: a hand fixture whose overlapping groups are worked out on paper below (nested spans, spans that touch
in one unit, one value twice, open and unknown bounds, events, a symmetric relation reached through mirrored
rows, an implausible and a reversed fact, a group the merge is needed for); and the every-pair reference of
``tests/test_kg_columnar.py`` on synthetic graphs, a mixed synthetic graph, YAGO11k and Wikidata12k.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from chronoqa.generate.kg.build import resolve_phrases
from chronoqa.generate.kg.index import GraphIndex
from chronoqa.generate.kg.sql import (
    OVERLAP_STEPS,
    DuckDBEngine,
    SparkEngine,
    check_subset,
    overlap_keys_by_sql,
    render,
)
from chronoqa.generate.kg.sql.overlap import overlap_tables
from chronoqa.records import Fact
from chronoqa.sources.synthetic import SyntheticConfig, generate
from chronoqa.time import Granularity, TimePoint
from sql_index_fixtures import index_of, yago11k_index
from test_kg_columnar import reference_overlap_keys

AS_OF = TimePoint(2026, 1, 1)

#: (s, r, o, start, end) at year granularity; a certain span holds its start and end years. ``won`` is an event,
#: ``wed`` symmetric; each case has subjects and objects of its own, so that its groups hold nothing else.
FACTS: list[tuple[str, str, str, str | None, str | None]] = [
    ("n", "p", "n.a", "1990", "2010"),  # nested: n.b inside n.a, 1995-2000 together: overlapping
    ("n", "p", "n.b", "1995", "2000"),
    ("t", "p", "t.a", "1990", "1995"),  # touching: 1995 together, one unit: not overlapping
    ("t", "p", "t.b", "1995", "2000"),
    ("u", "p", "u.a", "1990", "1994"),  # adjacent, nothing together
    ("u", "p", "u.b", "1995", "2000"),
    ("w", "p", "w.a", "1990", "1995"),  # 1994-1995 together: two units, overlapping
    ("w", "p", "w.b", "1994", "2000"),
    ("s", "p", "s.a", "1990", "2000"),  # one value twice, overlapping itself: one value, not overlapping
    ("s", "p", "s.a", "1995", "2005"),
    ("k", "p", "k.a", "1990", "1995"),  # k.b shares one unit with each k.a fact (1995, 1996): no pair holds
    ("k", "p", "k.a", "1996", "2000"),  # two units together, so not overlapping (pairs of facts are compared)
    ("k", "p", "k.b", "1995", "1996"),
    ("m", "p", "m.a", "1990", "2010"),  # m.b meets the long m.a span only: in start order m.b follows the
    ("m", "p", "m.a", "1992", "1994"),  # short one, so the spans of m.a must be merged first: overlapping
    ("m", "p", "m.b", "2000", "2005"),
    ("c3", "p", "c3.a", "1990", "1995"),  # a chain of c3.a spans merged into 1990-2005; c3.b 2003-2004 inside
    ("c3", "p", "c3.a", "1994", "2000"),
    ("c3", "p", "c3.a", "1999", "2005"),
    ("c3", "p", "c3.b", "2003", "2004"),
    ("d", "p", "d.a", "1990", "2000"),  # the same span for two values: ties in start order, overlapping
    ("d", "p", "d.b", "1990", "2000"),
    ("dup", "p", "dup.a", "1990", "2000"),  # one fact twice, the other value apart: not overlapping
    ("dup", "p", "dup.a", "1990", "2000"),
    ("dup", "p", "dup.b", "1980", "1985"),
    ("o", "p", "o.a", None, "2000"),  # no start: never certain
    ("o", "p", "o.b", "1990", "2000"),
    ("nb", "p", "nb.a", None, None),  # no bounds: never certain (possibly together everywhere)
    ("nb", "p", "nb.b", None, None),
    ("e", "p", "e.a", "1990", None),  # open end: certain until as_of (ongoing), or in 1990 only (unknown)
    ("e", "p", "e.b", "2000", "2010"),
    ("ev", "won", "ev.a", "1990", None),  # events without an end: certain in one unit only
    ("ev", "won", "ev.b", "1990", None),
    ("imp", "p", "imp.a", "1990", "2000"),  # imp.b is marked implausible (no certain span): not overlapping
    ("imp", "p", "imp.b", "1995", "2005"),
    ("rv", "p", "rv.a", "1990", "2000"),  # rv.b is reversed: ignored
    ("rv", "p", "rv.b", "2005", "1995"),
    ("c", "wed", "d1", "1990", "2000"),  # symmetric: c holds d1 and e1 in 1995-2000 (outgoing rows)
    ("c", "wed", "e1", "1995", "2010"),
    ("m1", "wed", "hub", "1990", "2000"),  # hub holds m1 and m2 in 1995-2000 through its mirrored rows only
    ("m2", "wed", "hub", "1995", "2005"),
    ("in1", "q", "shared", "1990", "2000"),  # incoming: shared is held by in1 and in2 in 1995-2000
    ("in2", "q", "shared", "1995", "2005"),
    ("tin1", "q", "tshared", "1990", "1995"),  # incoming, touching in 1995 only
    ("tin2", "q", "tshared", "1995", "2000"),
]
IMPLAUSIBLE = [i for i, f in enumerate(FACTS) if f[2] == "imp.b"]

#: The overlapping (entity, relation) groups, worked out by hand: (outgoing, incoming) per open-end reading.
EXPECTED: dict[str, tuple[set[tuple[str, str]], set[tuple[str, str]]]] = {
    "ongoing": (
        {("n", "p"), ("w", "p"), ("m", "p"), ("c3", "p"), ("d", "p"), ("e", "p"), ("c", "wed"), ("hub", "wed")},
        {("shared", "q")},
    ),
    "unknown": (
        {("n", "p"), ("w", "p"), ("m", "p"), ("c3", "p"), ("d", "p"), ("c", "wed"), ("hub", "wed")},
        {("shared", "q")},
    ),
}


def fixture_index(open_end: str = "ongoing") -> GraphIndex:
    """The index of :data:`FACTS` (``won`` an event, ``wed`` symmetric), :data:`IMPLAUSIBLE` marked."""
    facts = [
        Fact(i, s, r, o, TimePoint.parse(a) if a else None, TimePoint.parse(b) if b else None, i + 1)
        for i, (s, r, o, a, b) in enumerate(FACTS)
    ]
    idx = index_of(facts, {"won": True}, Granularity.YEAR, AS_OF, open_end, symmetric=("wed",))
    idx.mark_implausible(IMPLAUSIBLE)
    return idx


def named(idx: GraphIndex, keys: frozenset[int]) -> set[tuple[str, str]]:
    """Group keys as (entity name, relation name)."""
    return {(idx.ent_names[k // idx.n_rel], idx.rel_names[k % idx.n_rel]) for k in keys}


def python_keys(idx: GraphIndex) -> dict[bool, frozenset[int]]:
    """The reference: every pair of certain spans of each group (``reference_overlap_keys``), both directions."""
    return {forward: reference_overlap_keys(idx, forward) for forward in (True, False)}


def test_every_step_is_in_the_subset_and_keeps_its_partition() -> None:
    for step in OVERLAP_STEPS:
        check_subset(step.sql)
        for dialect in ("duckdb", "spark"):
            assert "PARTITION BY" in render(step, dialect, {}).upper()
            assert "ROWS BETWEEN" not in render(step, dialect, {}).upper()  # no window frame


@pytest.mark.parametrize("open_end", ["ongoing", "unknown"])
def test_hand_fixture_worked_by_hand(open_end: str) -> None:
    idx = fixture_index(open_end)
    want_out, want_in = EXPECTED[open_end]
    got = overlap_keys_by_sql("duckdb", idx)
    assert (named(idx, got[True]), named(idx, got[False])) == (want_out, want_in)
    ref = python_keys(idx)
    assert (named(idx, ref[True]), named(idx, ref[False])) == (want_out, want_in)


def test_hand_fixture_merged_spans() -> None:
    # the merged runs of the groups holding two or more values certain for two units or more, by hand
    idx = fixture_index()
    steps = tuple(replace(s, order=("dir", "key", "lo", "other")) if s.name == "v_merged" else s for s in OVERLAP_STEPS)
    merged = DuckDBEngine().run(overlap_tables(idx), steps, {})["v_merged"].to_pylist()  # read back an intermediate
    runs: dict[tuple[str, str, int], list[tuple[int, int]]] = defaultdict(list)
    for r in merged:
        runs[idx.ent_names[r["key"] // idx.n_rel], idx.ent_names[r["other"]], r["dir"]].append((r["lo"], r["hi"]))
    assert runs[("m", "m.a", 0)] == [(1990, 2009)]  # 1992-1993 inside 1990-2009
    assert runs[("c3", "c3.a", 0)] == [(1990, 2004)]  # 1990-1994, 1994-1999, 1999-2004 chained
    assert runs[("k", "k.a", 0)] == [(1990, 1994), (1996, 1999)]  # 1995 is no unit of either shortened span
    assert runs[("dup", "dup.a", 0)] == [(1990, 1999)]
    assert {("s", "s.a", 0), ("imp", "imp.a", 0), ("ev", "ev.a", 0)}.isdisjoint(runs)  # one value certain: none


def test_empty_graph() -> None:
    idx = index_of([], {}, Granularity.YEAR, AS_OF)
    assert overlap_keys_by_sql("duckdb", idx) == python_keys(idx) == {True: frozenset(), False: frozenset()}


def test_use_overlap_keys_is_what_one_at_reads() -> None:
    idx = fixture_index()
    n = idx.ent_id["n"], idx.rel_id["p"]
    assert not idx.one_at(*n, True)
    fresh = fixture_index()
    fresh.use_overlap_keys({True: frozenset(), False: frozenset()})
    assert fresh.one_at(*n, True)  # the keys given are read, not worked out again


@pytest.mark.parametrize("granularity", [Granularity.YEAR, Granularity.DAY])
def test_synthetic_equals_every_pair(granularity: Granularity) -> None:
    data = generate(n_facts=6000, seed=1, n_entities=300, n_relations=6, mean_duration=8.0)
    for open_end in ("ongoing", "unknown"):
        idx = index_of(data.to_columns(), {"R1": True}, granularity, AS_OF, open_end, symmetric=["R2"])
        idx.mark_implausible(np.arange(0, 6000, 7))
        got = overlap_keys_by_sql("duckdb", idx)
        for forward in (True, False):
            assert got[forward] == reference_overlap_keys(idx, forward)
        assert got[True] and got[False]  # the check is not vacuous


def test_crowded_small_groups_equal_every_pair() -> None:
    # many spans of few values in a dozen years: ties, touching spans, nesting and repeats everywhere
    rng = np.random.default_rng(7)
    facts = []
    for i in range(3000):
        a = int(rng.integers(2000, 2012))
        b = a + int(rng.integers(-1, 5))  # -1: reversed now and then
        start = None if rng.random() < 0.05 else TimePoint(a)
        end = None if rng.random() < 0.1 else TimePoint(b)
        s, o = f"s{rng.integers(0, 150)}", f"v{rng.integers(0, 4)}"
        facts.append(Fact(i, s, f"r{rng.integers(0, 3)}", o, start, end, i + 1))
    for open_end in ("ongoing", "unknown"):
        idx = index_of(facts, {"r2": True}, Granularity.YEAR, AS_OF, open_end, symmetric=("r1",))
        idx.mark_implausible(np.arange(0, len(facts), 17))
        got = overlap_keys_by_sql("duckdb", idx)
        for forward in (True, False):
            assert got[forward] == reference_overlap_keys(idx, forward)
        assert got[False] and 0 < len(got[True]) < len(set(idx.out_keys.tolist()))  # some overlap, not all


def test_mixed_synthetic_equals_every_pair() -> None:
    facts = generate(SyntheticConfig.mixed(50_000, seed=3)).to_graph().facts
    for open_end in ("ongoing", "unknown"):
        idx = index_of(facts, {"R5": True, "R6": True}, Granularity.YEAR, AS_OF, open_end,
                               symmetric=("R1", "R7"))  # fmt: skip
        idx.mark_implausible(np.arange(0, len(facts), 13))
        ref = python_keys(idx)
        assert overlap_keys_by_sql("duckdb", idx) == ref
        assert ref[True] and ref[False]


@pytest.mark.mirror
def test_yago11k_equals_every_pair(mirror: Path) -> None:
    idx, _ = yago11k_index(AS_OF)
    ref = python_keys(idx)
    assert overlap_keys_by_sql("duckdb", idx) == ref
    assert ref[True]


@pytest.mark.mirror
def test_wikidata12k_equals_every_pair(mirror: Path) -> None:
    from chronoqa.datasets import wikidata12k

    graph = wikidata12k.load(mirror / "wikidata12k")
    phr, _, _ = resolve_phrases(graph, None, generic=False)
    for open_end in ("ongoing", "unknown"):
        idx = index_of(
            graph.facts, {r: p.is_event for r, p in phr.items()}, Granularity.YEAR, AS_OF, open_end,
            symmetric=sorted(r for r, p in phr.items() if p.symmetric),
        )  # fmt: skip
        ref = python_keys(idx)
        assert overlap_keys_by_sql("duckdb", idx) == ref
        assert ref[True]


@pytest.mark.spark
@pytest.mark.slow
def test_spark_equals_every_pair_on_the_hand_fixture(spark: SparkEngine) -> None:
    for open_end in ("ongoing", "unknown"):
        idx = fixture_index(open_end)
        assert overlap_keys_by_sql(spark, idx) == python_keys(idx)
    empty = index_of([], {}, Granularity.YEAR, AS_OF)
    assert overlap_keys_by_sql(spark, empty) == python_keys(empty)
