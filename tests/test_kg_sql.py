"""The SQL index (DuckDB) equals the per-fact Python reference array for array.

Oracles: the per-fact Python reference (``reference_index``: a loop per fact, adjacency by sorting tuples,
written independently of the SQL) on hand fixtures, YAGO11k, Wikidata12k and a synthetic graph; and
hand-worked rows of the fixture (units worked out on paper from the dates) for the corner cases, so that a bug
shared by the SQL and the reference is caught too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.generate.kg.index import NEG, NONE, POS, Col
from chronoqa.generate.kg.sql import (
    STEPS,
    DuckDBEngine,
    build_index,
    check_subset,
    engines,
    render,
    sql_engine,
    sql_params,
)
from chronoqa.generate.kg.sql.candidates import adjacency_table
from chronoqa.generate.kg.sql.plausible import PLAUSIBLE_STEPS, implausible_by_sql
from chronoqa.records import Fact, FactColumns
from chronoqa.time import Granularity, TimePoint
from sql_index_fixtures import build_args, hand_facts, index_differences, reference_index
from test_kg_columnar import reference_implausible


@pytest.mark.parametrize("granularity", ["year", "month", "day"])
@pytest.mark.parametrize("open_end", ["ongoing", "unknown"])
def test_hand_fixture_equals_numpy(granularity: str, open_end: str) -> None:
    args = build_args(hand_facts(), granularity, open_end)
    assert index_differences(build_index("duckdb", **args), reference_index(**args)) == []


def test_hand_fixture_rows_worked_by_hand() -> None:
    idx = build_index("duckdb", **build_args(hand_facts(), "year", "unknown"))
    assert idx.ent_names == ["ann", "bob", "cat", "prize", "club", "dan", "eve"]  # s, o per fact, first seen
    assert idx.rel_names == ["wed", "won", "plays", "owns"]
    t = idx.table
    # 0: ann wed bob 1990-2000
    assert t[0].tolist() == [0, 0, 1, 1990, 2000, 1990, 2000, 1990, 2000]
    # 1: open end under 'unknown': possibly until as_of (2026), certainly only in 1995
    assert t[1].tolist() == [1, 0, 0, 1995, 2026, 1995, 1995, 1995, NONE]
    # 2: event without an end holds at its start; day precision is finer than year: SU = 1999
    assert t[2].tolist() == [2, 1, 3, 1999, 1999, 1999, 1999, 1999, NONE]
    # 3 reversed and 4 non-year: valid nowhere, out of the adjacency
    assert t[3, Col.PLO : Col.CHI + 1].tolist() == [POS, NEG, POS, NEG]
    assert t[4, Col.PLO : Col.CHI + 1].tolist() == [POS, NEG, POS, NEG]
    assert idx.reversed_mask.tolist()[3:5] == [True, False]
    assert idx.not_year_mask is not None and idx.not_year_mask.tolist()[3:5] == [False, True]
    # 5: end only: possibly since forever, never certain
    assert t[5].tolist() == [5, 2, 4, NEG, 1980, POS, NEG, NONE, 1980]
    # 9: an event without any date: possibly valid until as_of, never certain
    assert t[9].tolist() == [2, 1, 3, NEG, 2026, POS, NEG, NONE, NONE]
    # triple counts: 0 and 1 are one symmetric triple; 6 and 7 share (ann, plays, club); 3 is ignored
    assert idx.triple_count.tolist() == [2, 2, 2, 0, 0, 1, 2, 2, 1, 2, 1]
    # symmetric: facts 0, 1 and 8 appear in the outgoing table from both ends (8 twice from eve), never incoming
    out_fids = idx.out_rows[:, Col.FID].tolist()
    assert sorted(f for f in out_fids if f in (0, 1, 8)) == [0, 0, 1, 1, 8, 8]
    assert not {0, 1, 8} & set(idx.in_rows[:, Col.FID].tolist())
    assert 3 not in out_fids and 4 not in out_fids
    assert np.all(np.diff(idx.out_keys) >= 0) and np.all(np.diff(idx.in_keys) >= 0)


def test_day_units_cross_a_year_boundary() -> None:
    idx = build_index("duckdb", **build_args(hand_facts(), "day"))
    first = TimePoint(2001, 12, 30).lo(Granularity.DAY)
    assert idx.table[10, Col.PLO : Col.CHI + 1].tolist() == [first, first + 3, first, first + 3]


def test_empty_graph() -> None:
    args = build_args([])
    assert index_differences(build_index("duckdb", **args), reference_index(**args)) == []


def test_columns_with_codes_out_of_first_appearance_order() -> None:
    facts = hand_facts()
    cols = FactColumns.from_facts(facts)
    perm = np.array([6, 5, 4, 3, 2, 1, 0])  # entity codes reversed: the SQL must re-intern by first appearance
    inv = np.argsort(perm)
    shuffled = FactColumns(
        [cols.entities[i] for i in perm], cols.relations[::-1], cols.ids, inv[cols.s].astype(np.int32),
        (len(cols.relations) - 1 - cols.r).astype(np.int32), inv[cols.o].astype(np.int32), cols.has_start,
        cols.start_year, cols.start_month, cols.start_day, cols.has_end, cols.end_year, cols.end_month,
        cols.end_day, cols.lines,
    )  # fmt: skip
    assert list(shuffled) == facts
    args = build_args(facts)
    assert index_differences(build_index("duckdb", **{**args, "facts": shuffled}), reference_index(**args)) == []


def test_inputs_made_in_small_batches_give_the_same_results(monkeypatch: pytest.MonkeyPatch) -> None:
    # every input made a batch at a time (the facts, pfacts, adj, cfacts) cut into batches of 3 rows: the index
    # and the implausible dates still equal the Python references (no row lost or doubled at a batch boundary)
    monkeypatch.setattr(engines, "BATCH_ROWS", 3)
    for granularity in ("year", "day"):
        args = build_args(hand_facts(), granularity, "unknown")
        assert index_differences(build_index("duckdb", **args), reference_index(**args)) == []
    test_implausible_rules_equal_python_on_random_graphs()


def test_adjacency_input_holds_the_index_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engines, "BATCH_ROWS", 5)  # a batch that straddles the outgoing/incoming boundary
    idx = build_index("duckdb", **build_args(hand_facts()))
    got = adjacency_table(idx, ("r", Col.R), ("plo", Col.PLO)).read_all().to_pylist()
    want = [
        {"dir": d, "key": int(k), "other": row[Col.OTHER], "r": row[Col.AR], "plo": row[Col.APLO]}
        for d, keys, rows in ((0, idx.out_keys, idx.out_rows), (1, idx.in_keys, idx.in_rows))
        for k, row in zip(keys.tolist(), rows.tolist(), strict=True)
    ]
    assert got == want
    assert len(idx.out_keys) % 5 and len(idx.in_keys) > 5  # one batch holds rows of both directions


def test_engine_memory_is_a_size_and_not_in_the_manifest() -> None:
    from chronoqa.generate.kg import KGBuildConfig

    assert KGBuildConfig(engine_memory="64MB").to_dict() == KGBuildConfig().to_dict()
    with pytest.raises(ValueError, match="engine_memory"):
        KGBuildConfig(engine_memory="lots")
    runner = sql_engine("duckdb", "64MB")
    assert isinstance(runner, DuckDBEngine) and runner.memory_limit == "64MB"


def test_unknown_engine_names_the_known_ones() -> None:
    with pytest.raises(UnknownNameError, match="duckdb"):
        build_index("duckdbb", **build_args(hand_facts()))


@pytest.mark.slow
def test_synthetic_100k_equals_numpy() -> None:
    from chronoqa.sources.synthetic import generate

    cols = generate(n_facts=100_000, seed=3).to_columns()
    is_event = {f"R{i}": i % 5 == 0 for i in range(20)}
    kw = {
        "is_event": is_event,
        "granularity": Granularity.DAY,
        "as_of": TimePoint(2026, 1, 1),
        "not_years": {"R3": {1950, 1951}},
        "symmetric": ("R1", "R7"),
    }
    for open_end in ("ongoing", "unknown"):
        sql = build_index("duckdb", cols, open_end=open_end, **kw)  # type: ignore[arg-type]
        ref = reference_index(list(cols), open_end=open_end, **kw)  # type: ignore[arg-type]
        assert index_differences(sql, ref) == []
        assert sql.not_year_mask is not None and sql.not_year_mask.any() and sql.rel_symmetric[sql.rel_id["R1"]]


@pytest.mark.mirror
@pytest.mark.parametrize("dataset", ["yago11k", "wikidata12k"])
def test_real_graphs_equal_numpy(mirror: Path, dataset: str) -> None:
    from chronoqa import datasets
    from chronoqa.generate.kg.build import resolve_not_years, resolve_open_end, resolve_phrases
    from chronoqa.generate.kg.config import KGBuildConfig
    from chronoqa.generate.kg.phrases import load_phrase_table

    graph = datasets.load_graph(dataset, on_bad_row="skip", as_of=TimePoint(2026, 1, 1))
    phr, _, _ = resolve_phrases(graph, None, generic=False)
    table = load_phrase_table(dataset)
    open_end, _ = resolve_open_end(KGBuildConfig(), table)
    not_years, _ = resolve_not_years(KGBuildConfig(), table, sorted({(f.r, graph.relation_label(f.r)) for f in graph}))
    kw = {
        "is_event": {r: p.is_event for r, p in phr.items()},
        "as_of": TimePoint(2026, 1, 1),
        "not_years": {r: frozenset(y) for r, y in not_years.items()},
        "symmetric": sorted(r for r, p in phr.items() if p.symmetric),
    }
    for g in (Granularity.YEAR, Granularity.DAY):
        for reading in dict.fromkeys((open_end, "ongoing", "unknown")):
            ref = reference_index(graph.facts, granularity=g, open_end=reading, **kw)  # type: ignore[arg-type]
            sql = build_index("duckdb", graph.facts, granularity=g, open_end=reading, **kw)  # type: ignore[arg-type]
            assert index_differences(sql, ref) == [], (g, reading)


# -- the SQL subset -----------------------------------------------------------------------------------


def test_every_step_is_in_the_subset_and_transpiles() -> None:
    params = {**sql_params(Granularity.YEAR, TimePoint(2026), "ongoing"), "as_of_year": 2026, "ongoing": 1,
              "gap": 300, "early": 1000}  # fmt: skip
    for step in (*STEPS, *PLAUSIBLE_STEPS):
        check_subset(step.sql)
        spark = render(step, "spark", params)
        # an output step ends in its total order; an intermediate one stays unordered in the engine
        assert ":" not in spark and ("ORDER BY" in spark.upper().rsplit(")", 1)[-1]) == step.output, step.name


@pytest.mark.parametrize(
    ("sql", "why"),
    [
        ("SELECT a / 2 AS x FROM t", "Div"),
        ("SELECT a // 2 AS x FROM t", "IntDiv"),
        ("SELECT a % 2 AS x FROM t", "Mod"),
        ("SELECT 1.5 AS x FROM t", "not an integer"),
        ("SELECT date_diff('year', a, b) AS x FROM t", "DateDiff"),
        ("SELECT * FROM t ASOF JOIN u ON t.a >= u.a", "ASOF"),
        ("SELECT * FROM t FULL JOIN u ON t.a = u.a", "FULL"),
        ("SELECT rand() AS x FROM t", "Rand"),
        ("SELECT ROW_NUMBER() OVER () AS x FROM t", "no ORDER BY"),
        ("SELECT CAST(a AS DOUBLE) AS x FROM t", "BIGINT or INT"),
        ("SELECT a FROM t UNION SELECT a FROM u", "UNION ALL"),
    ],
)
def test_the_subset_rejects(sql: str, why: str) -> None:
    with pytest.raises(ChronoqaError, match=why):
        check_subset(sql)


# -- the implausible-date rules as SQL ----------------------------------------------------------------


def _phrases(graph_relations: list[str], kinds: dict[str, tuple[str, str | None, int | None]]) -> dict[str, Any]:
    from dataclasses import replace

    from chronoqa.generate.kg.phrases import generic_phrases

    out = {}
    for r in graph_relations:
        kind, role, max_years = kinds[r]
        out[r] = replace(generic_phrases(r, r, kind), role=role, max_years=max_years)  # type: ignore[arg-type]
    return out


def test_implausible_rules_on_the_hand_fixture() -> None:
    from chronoqa.generate.kg.build import resolve_phrases
    from chronoqa.generate.kg.phrases import load_phrase_table
    from test_kg_world import IMPLAUSIBLE, WANT, YAGO, graph

    table = load_phrase_table(YAGO)
    phr, _, _ = resolve_phrases(graph("odd", IMPLAUSIBLE), "yago11k", generic=False)
    ignored = [False] * len(IMPLAUSIBLE)
    got = implausible_by_sql(
        DuckDBEngine(), IMPLAUSIBLE, phr, ignored, TimePoint(2026, 1, 1), "ongoing", table.default_max_years
    )  # fmt: skip
    assert got == WANT  # worked by hand in tests/test_kg_world.py


def test_implausible_rules_equal_python_on_random_graphs() -> None:
    # 400 independent small graphs in one run (their own entities and relations): every median corner (one, two,
    # three, many other facts; ties with the fact's own year; early years; doubled medians) against plausible.py
    rng = np.random.default_rng(11)
    facts: list[Fact] = []
    kinds: dict[str, tuple[str, str | None, int | None]] = {}
    ignored: list[bool] = []
    for comp in range(400):
        names = [f"c{comp}e{i}" for i in range(int(rng.integers(2, 7)))]
        rels = {f"c{comp}born": ("event", "birth", None), f"c{comp}died": ("event", "death", None),
                f"c{comp}won": ("event", None, None), f"c{comp}held": ("state", None, int(rng.integers(5, 80))),
                f"c{comp}in": ("state", None, None)}  # fmt: skip
        kinds.update(rels)
        base = int(rng.choice([50, 900, 1500, 1990]))
        for _ in range(int(rng.integers(1, 25))):
            s, o = rng.choice(names, 2)
            start = base + int(rng.integers(-400, 400)) if rng.random() < 0.85 else None
            end = None if rng.random() < 0.4 else (start or base) + int(rng.integers(-2, 30))
            r = str(rng.choice(list(rels)))
            facts.append(Fact(len(facts), str(s), r, str(o), TimePoint(start) if start is not None else None,
                              TimePoint(end) if end is not None else None, len(facts) + 1))  # fmt: skip
            ignored.append(bool(rng.random() < 0.05))
    phr = _phrases(sorted(kinds), kinds)
    for open_end in ("ongoing", "unknown"):
        want = reference_implausible(facts, phr, ignored, TimePoint(2026, 1, 1), open_end, 60)
        got = implausible_by_sql(DuckDBEngine(), facts, phr, ignored, TimePoint(2026, 1, 1), open_end, 60)
        assert got == want
        # every rule that applies fired (a birth contradicted by its life among them)
        assert len(set(want.values())) == (7 if open_end == "ongoing" else 6)


@pytest.mark.mirror
@pytest.mark.parametrize("dataset", ["yago11k", "wikidata12k"])
def test_implausible_rules_equal_python_on_real_graphs(mirror: Path, dataset: str) -> None:
    from chronoqa import datasets
    from chronoqa.generate.kg.phrases import load_phrase_table

    graph = datasets.load_graph(dataset, on_bad_row="skip", as_of=TimePoint(2026, 1, 1))
    table = load_phrase_table(dataset)
    phr, _ = table.resolve(sorted({(f.r, graph.relation_label(f.r)) for f in graph}), generic=False)
    idx = reference_index(graph.facts, {r: p.is_event for r, p in phr.items()}, Granularity.YEAR, TimePoint(2026))
    ignored = idx.ignored_mask.tolist()
    for open_end in ("ongoing", "unknown"):
        args = (graph.facts, phr, ignored, TimePoint(2026, 1, 1), open_end, table.default_max_years)
        want = reference_implausible(*args)
        assert want and implausible_by_sql(DuckDBEngine(), *args) == want
