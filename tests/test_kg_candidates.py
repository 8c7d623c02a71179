"""The candidate search of a KG build: the SQL steps (DuckDB; Spark in test_kg_engines.py).

Oracles: a hand fixture whose seeds, multi groups and timed facts are worked out on paper below, and a brute
force over :meth:`GraphIndex.group` (one Python set per group) on synthetic graphs and YAGO11k.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from chronoqa.generate.kg.candidates import Candidates
from chronoqa.generate.kg.index import Col, GraphIndex
from chronoqa.generate.kg.sql import CANDIDATE_STEPS, DuckDBEngine, Step, check_subset, find_candidates
from chronoqa.generate.kg.sql.candidates import candidate_tables
from chronoqa.records import Fact
from chronoqa.time import Granularity, TimePoint
from sql_index_fixtures import index_of, yago11k_index

AS_OF = TimePoint(2026, 1, 1)
T_MAX = 2025  # as_of's year minus one, at year granularity

#: (s, r, o, start, end); 'wed' symmetric, 'won' an event.
FACTS = (
    ("ann", "plays", "club_a", "2000", "2005"),  # 0 seed (subject), ann/plays holds two clubs: multi
    ("ann", "plays", "club_b", "2006", "2010"),  # 1 seed (subject), multi
    ("bob", "plays", "club_a", "2001", "2003"),  # 2 marked implausible: no seed, still timed and in the groups
    ("cat", "wed", "dan", "1990", "2000"),  # 3 symmetric: seeds from both ends; cat/wed holds dan and eve
    ("cat", "wed", "eve", "2001", "2010"),  # 4 the same
    ("ann", "won", "prize", "2030", None),  # 5 certain only after t_max: no seed; timed
    ("bob", "plays", "club_c", "2012", "2008"),  # 6 reversed: ignored everywhere
    ("ann", "plays", "club_a", None, "1999"),  # 7 end only: never certain, not timed; in the groups
)
ONE = {"plays": (True, False), "wed": (True, True), "won": (True, True)}  # inverse of plays: many


def fixture_index() -> GraphIndex:
    """The index of :data:`FACTS`, cardinality set and fact 2 marked implausible (as the builder leaves it)."""
    facts = [
        Fact(i, s, r, o, TimePoint.parse(a) if a else None, TimePoint.parse(b) if b else None, i + 1)
        for i, (s, r, o, a, b) in enumerate(FACTS)
    ]
    idx = index_of(facts, {"won": True}, Granularity.YEAR, AS_OF, "ongoing", symmetric=("wed",))
    idx.rel_one = [ONE[r] for r in idx.rel_names]
    idx.mark_implausible([2])
    return idx


def differences(a: Candidates, b: Candidates) -> list[str]:
    """The fields on which two candidate sets differ (dtype, shape or a value)."""
    pairs = {
        "seeds.fids": (a.seeds.fids, b.seeds.fids),
        "seeds.subject": (a.seeds.subject, b.seeds.subject),
        "seeds_multi.fids": (a.seeds_multi.fids, b.seeds_multi.fids),
        "seeds_multi.subject": (a.seeds_multi.subject, b.seeds_multi.subject),
        "timed": (a.timed, b.timed),
        "multi_out": (a.multi_out, b.multi_out),
        "multi_in": (a.multi_in, b.multi_in),
    }
    out = [
        f"{k}: {x.dtype}{x.shape} vs {y.dtype}{y.shape}"
        for k, (x, y) in pairs.items()
        if x.dtype != y.dtype or x.shape != y.shape or not np.array_equal(x, y)
    ]
    return out + (["n_rel"] if a.n_rel != b.n_rel else [])


def brute_multi_keys(idx: GraphIndex, forward: bool) -> list[int]:
    """The group keys of one direction holding two or more distinct other endpoints (one Python set per group)."""
    keys = (idx.out_keys if forward else idx.in_keys).tolist()
    found: dict[int, set[int]] = {}
    for key, row in zip(keys, idx.out_rows.tolist() if forward else idx.in_rows.tolist(), strict=True):
        found.setdefault(key, set()).add(row[Col.OTHER])
    return sorted(k for k, values in found.items() if len(values) > 1)


def brute_force(idx: GraphIndex, t_max: int) -> tuple[list[tuple[int, bool]], list[tuple[int, bool]], list[int]]:
    """Seeds, multi seeds and timed facts fact by fact, from the definitions (one Python set per group)."""

    def several(e: int, r: int, forward: bool) -> bool:
        return len({row[Col.OTHER] for row in idx.group(e, r, forward)}) > 1

    seeds, multi, timed = [], [], []
    for fid, row in enumerate(idx.table.tolist()):
        if idx.ignored_mask[fid]:
            continue
        if row[Col.SU] != -(2**31) + 1:
            timed.append(fid)
        if not (row[Col.CLO] <= row[Col.CHI] and row[Col.CLO] <= t_max):
            continue
        s, r, o = row[Col.S], row[Col.R], row[Col.O]
        sym = idx.rel_symmetric[r]
        for subject, anchor, forward in ((True, s, True), (False, o, sym)):
            if idx.one(r, True if sym else forward):
                seeds.append((fid, subject))
                if several(anchor, r, forward):
                    multi.append((fid, subject))
    return seeds, multi, timed


def test_every_step_is_in_the_subset() -> None:
    for step in CANDIDATE_STEPS:
        check_subset(step.sql)
        assert ("ORDER BY" in step.sql.split(")")[-1]) == step.output  # an output's outer query has a total order


def test_hand_fixture_worked_by_hand() -> None:
    idx = fixture_index()
    assert idx.ent_names[:7] == ["ann", "club_a", "club_b", "bob", "cat", "dan", "eve"]
    assert idx.rel_names == ["plays", "wed", "won"]  # n_rel 3: key = entity * 3 + relation
    for engine in ("duckdb",):
        c = find_candidates(engine, idx, T_MAX)
        assert list(c.seeds) == [(0, True), (1, True), (3, True), (3, False), (4, True), (4, False)], engine
        assert list(c.seeds_multi) == [(0, True), (1, True), (3, True), (4, True)], engine
        assert c.timed.tolist() == [0, 1, 2, 3, 4, 5], engine
        assert c.multi_out.tolist() == [0 * 3 + 0, 4 * 3 + 1], engine  # ann/plays, cat/wed
        assert c.multi_in.tolist() == [1 * 3 + 0], engine  # club_a/plays: ann (facts 0, 7) and bob (2)
        ent = np.array([0, 1, 4, 3, 6])  # ann, club_a, cat, bob, eve
        rel = np.array([0, 0, 1, 0, 1])
        fw = np.array([True, False, False, True, True])  # cat/wed backward: a symmetric relation has no in rows
        assert c.several_values(ent, rel, fw).tolist() == [True, True, False, False, False], engine


def test_the_multi_groups_and_their_values() -> None:
    idx = fixture_index()
    steps = [*CANDIDATE_STEPS[:1], Step("all_groups", "SELECT * FROM groups ORDER BY dir, key", ("dir", "key"))]
    groups = DuckDBEngine().run(candidate_tables(idx), steps, {})["all_groups"].to_pylist()
    multi = [(g["dir"], g["key"]) for g in groups if g["n_values"] >= 2]
    assert multi == [(0, 0), (0, 13), (1, 3)]  # ann/plays (clubs a, b), cat/wed (bob, dan), club_a/plays in (ann, bob)
    for g in groups:  # each group's distinct values, counted apart from the SQL over the index's own rows
        e, rel = divmod(g["key"], 3)
        assert g["r"] == rel
        assert len({row[Col.OTHER] for row in idx.group(e, rel, g["dir"] == 0)}) == g["n_values"]
    out = DuckDBEngine().run(candidate_tables(idx), CANDIDATE_STEPS, {"t_max": T_MAX, "n_rel": 3, "none": -(2**31) + 1})
    assert [(m["dir"], m["key"]) for m in out["multi"].to_pylist()] == multi
    given = find_candidates("duckdb", idx, T_MAX, out["multi"])  # handed in: the same candidates
    found = find_candidates("duckdb", idx, T_MAX)
    assert list(given.seeds_multi) == list(found.seeds_multi) == [(0, True), (1, True), (3, True), (4, True)]
    assert given.multi_out.tolist() == found.multi_out.tolist() and given.multi_in.tolist() == found.multi_in.tolist()


def test_empty_graph() -> None:
    idx = index_of([], {}, Granularity.YEAR, AS_OF)
    got = find_candidates("duckdb", idx, T_MAX)
    assert len(got.seeds) == len(got.seeds_multi) == len(got.timed) == len(got.multi_out) == len(got.multi_in) == 0
    assert brute_force(idx, T_MAX) == ([], [], [])


def synthetic_index(n: int) -> GraphIndex:
    """A synthetic graph's index with a mix of one/many directions and some facts marked implausible."""
    from chronoqa.sources.synthetic import generate

    syn = generate(n_facts=n, seed=3)
    facts = syn.to_graph().facts
    is_event = {f"R{i}": i % 5 == 0 for i in range(syn.n_relations)}
    idx = index_of(facts, is_event, Granularity.YEAR, AS_OF, symmetric=("R1", "R7"))
    idx.rel_one = [(i % 3 != 0, i % 2 == 0) for i in range(len(idx.rel_names))]
    idx.mark_implausible(np.arange(0, n, 97))
    return idx


def test_synthetic_equals_brute_force() -> None:
    idx = synthetic_index(20_000)
    ref = find_candidates("duckdb", idx, T_MAX)
    seeds, multi, timed = brute_force(idx, T_MAX)
    assert list(ref.seeds) == seeds and list(ref.seeds_multi) == multi and ref.timed.tolist() == timed
    assert 0 < len(multi) < len(seeds)  # both kinds occur
    assert ref.multi_out.tolist() == brute_multi_keys(idx, True) and ref.multi_in.tolist() == brute_multi_keys(
        idx, False
    )
    assert len(ref.multi_in) > 0


@pytest.mark.slow
def test_synthetic_100k_equals_brute_force() -> None:
    idx = synthetic_index(100_000)
    for t_max in (T_MAX, 1990):
        got = find_candidates("duckdb", idx, t_max)
        seeds, multi, timed = brute_force(idx, t_max)
        assert list(got.seeds) == seeds and list(got.seeds_multi) == multi and got.timed.tolist() == timed


@pytest.mark.mirror
def test_yago11k_equals_brute_force(mirror: Path) -> None:
    from chronoqa.generate.kg.build import resolve_cardinality

    idx, phr = yago11k_index(AS_OF)
    card, _ = resolve_cardinality(phr, idx)
    idx.rel_one = [card.get(r, (True, True)) for r in idx.rel_names]
    ref = find_candidates("duckdb", idx, T_MAX)
    seeds, multi, timed = brute_force(idx, T_MAX)
    assert list(ref.seeds) == seeds and list(ref.seeds_multi) == multi and ref.timed.tolist() == timed


@pytest.mark.parametrize("table_min", [1 << 24, 0])  # the flag table; bisection (a span over 4 bytes a value)
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_member_equals_isin(table_min: int, dtype: type, monkeypatch: pytest.MonkeyPatch) -> None:
    import chronoqa.generate.kg.candidates as cand

    monkeypatch.setattr(cand, "MEMBER_TABLE_MIN", table_min)
    monkeypatch.setattr(cand, "_MEMBER_CHUNK", 7)  # several chunks, the last one short
    rng = np.random.default_rng(3)
    for spread in (10, 1_000, 2**31 - 2):
        keys = np.unique(rng.integers(5, spread + 5, 40)).astype(np.int64)
        # values below, inside and above the keys' span, the span's ends, and the keys themselves
        values = np.concatenate(
            [rng.integers(-3, spread + 9, 60), keys, [keys[0] - 1, keys[-1] + 1, 0, spread + 4]]
        ).astype(dtype)
        got = cand.member(values, keys)
        assert got.dtype == bool and got.tolist() == np.isin(values, keys).tolist()
        assert cand.member(values[:0], keys).tolist() == []
    assert cand.member(np.arange(4, dtype=dtype), np.zeros(0, np.int64)).tolist() == [False] * 4
