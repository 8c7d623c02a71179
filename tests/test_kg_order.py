"""A KG build does not depend on the order of its input facts: the release is a function of their content and the seed.

The facts of a graph read in another order (a shuffled file, Parquet parts read back by a cluster in another
order) give byte-identical release folders; another seed gives another draw. The canonical order itself is
checked against a brute-force one: the same 64-bit mix in plain Python integers and a Python sort.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
from chronoqa.records import Fact, FactColumns, TemporalGraph
from chronoqa.time import TimePoint

SYNTH = {"n_questions": 300, "generic_phrases": True, "allow_ids": True}


def release_bytes(folder: Path) -> dict[str, bytes]:
    """Every file of a release folder by relative path."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def build_release(graph: TemporalGraph, out: Path, **config: Any) -> dict[str, bytes]:
    """The release folder of ``graph`` as bytes."""
    return release_bytes(build_kg_benchmark(graph, KGBuildConfig(**config)).write(out))


def permuted_columns(graph: TemporalGraph, seed: int) -> TemporalGraph:
    """``graph`` with its facts in a random order (``FactColumns.take``: ids and lines travel with their facts)."""
    cols = FactColumns.from_facts(graph.facts)
    return dataclasses.replace(graph, facts=cols.take(np.random.default_rng(seed).permutation(len(cols))))


def shuffled_facts(graph: TemporalGraph, seed: int) -> TemporalGraph:
    """``graph`` with its facts as a shuffled list of :class:`Fact` (so another entity and relation table order)."""
    facts = list(graph.facts)
    random.Random(seed).shuffle(facts)
    return dataclasses.replace(graph, facts=facts)


def synthetic_graph() -> TemporalGraph:
    """A small synthetic graph (columnar, 3,000 facts)."""
    from chronoqa.sources.synthetic import generate

    return generate(n_facts=3_000, seed=2).to_graph("synthetic3000")


# -- releases ------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_synthetic_release_does_not_depend_on_fact_order(tmp_path: Path) -> None:
    graph = synthetic_graph()
    base = build_release(graph, tmp_path / "base", **SYNTH)
    assert len(base["benchmark.jsonl"]) > 10_000
    assert build_release(permuted_columns(graph, 1), tmp_path / "perm", **SYNTH) == base
    assert build_release(shuffled_facts(graph, 2), tmp_path / "list", **SYNTH) == base
    reversed_graph = dataclasses.replace(graph, facts=FactColumns.from_facts(graph.facts)[::-1])
    assert build_release(reversed_graph, tmp_path / "rev", **SYNTH) == base


@pytest.mark.slow
def test_per_year_release_does_not_depend_on_fact_order(tmp_path: Path) -> None:
    graph = synthetic_graph()
    cfg = {**SYNTH, "expand_years": True}
    base = build_release(graph, tmp_path / "base", **cfg)
    assert build_release(permuted_columns(graph, 3), tmp_path / "perm", **cfg) == base


@pytest.mark.slow
def test_another_seed_draws_other_questions(tmp_path: Path) -> None:
    graph = synthetic_graph()
    a = build_kg_benchmark(graph, KGBuildConfig(seed=0, **SYNTH))
    b = build_kg_benchmark(permuted_columns(graph, 4), KGBuildConfig(seed=1, **SYNTH))
    texts_a, texts_b = {q.question for q in a.questions}, {q.question for q in b.questions}
    assert len(texts_a & texts_b) < len(texts_a) // 2


@pytest.mark.slow
@pytest.mark.mirror
@pytest.mark.parametrize("name", ["yago11k", "wikidata12k"])
def test_real_release_does_not_depend_on_fact_order(name: str, mirror: Path, tmp_path: Path) -> None:
    from chronoqa import datasets

    # Wikidata12k through its loader reads entity2name.txt: the labelled build
    graph = datasets.load_graph(name, on_bad_row="skip", as_of=TimePoint(2026, 1, 1))
    if name == "wikidata12k":
        assert graph.entity_labels
    base = build_release(graph, tmp_path / "base")
    assert build_release(permuted_columns(graph, 5), tmp_path / "perm") == base


def test_fact_helpers_keep_every_fact() -> None:
    graph = synthetic_graph()
    key = sorted(map(_fact_key, graph.facts))
    assert sorted(map(_fact_key, permuted_columns(graph, 6).facts)) == key
    assert sorted(map(_fact_key, shuffled_facts(graph, 7).facts)) == key


def _fact_key(f: Fact) -> tuple[Any, ...]:
    return (f.id, f.s, f.r, f.o, str(f.start), str(f.end), f.line)


# -- the canonical order against a brute-force one -------------------------------------------------------

M64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def py_mix(x: int) -> int:
    """splitmix64's finaliser in Python integers (the reference for :func:`mix64`)."""
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & M64
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def py_name(name: str) -> int:
    """FNV-1a 64 of the UTF-8 bytes, then the finaliser (the textbook loop)."""
    h = 0xCBF29CE484222325
    for b in name.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & M64
    return py_mix(h)


def py_date(p: TimePoint | None) -> int:
    return 0 if p is None else ((p.year + 2**31) * 13 + (p.month or 0)) * 32 + (p.day or 0) + 1


def py_content(f: Fact) -> tuple[int, ...]:
    return (py_name(f.s), py_name(f.r), py_name(f.o), py_date(f.start), py_date(f.end))


def py_order(facts: list[Fact], seed: int, mix: Callable[[int], int] = py_mix) -> list[tuple[Any, ...]]:
    """The facts sorted by the documented rule, computed per fact with Python integers and ``sorted``."""

    def key(f: Fact) -> tuple[Any, ...]:
        h = mix((seed + GAMMA) & M64)
        for k in py_content(f):
            h = mix(((h ^ k) + GAMMA) & M64)
        return (h, *py_content(f), f.id, f.line)

    return [_fact_key(f) for f in sorted(facts, key=key)]


def tricky_facts() -> list[Fact]:
    """Duplicates (same content, other ids), same ids on other lines, unknown ends, BC years, non-ASCII names."""
    y = TimePoint
    base = [
        Fact(0, "Zoë", "r1", "Ålesund", y(1990), y(2001, 3)),
        Fact(1, "Zoë", "r1", "Ålesund", y(1990), y(2001, 3)),  # same content, another id
        Fact(2, "a", "r2", "b", None, y(5)),
        Fact(3, "a", "r2", "b", y(-44, 3, 15), None),
        Fact(4, "", "r1", "b", None, None),  # empty name
        Fact(5, "b", "r1", "a", y(2000, 1, 1), y(2000, 1, 1)),
        Fact(5, "b", "r1", "a", y(2000, 1, 1), y(2000, 1, 1), 9),  # same id, another line
        Fact(6, "a long entity name " * 20, "r2", "東京", y(1868), None),
        Fact(7, "a", "r2", "b", y(5), None),
    ]
    return base


@pytest.mark.parametrize("seed", [0, 1, -3, 2**70])
def test_canonical_order_equals_the_python_sort(seed: int) -> None:
    from chronoqa.generate.kg.order import canonical_facts

    facts = tricky_facts() + list(synthetic_graph().facts)[:500]
    want = py_order(facts, seed)
    for shuffle in range(3):
        shuffled = list(facts)
        random.Random(shuffle).shuffle(shuffled)
        got = canonical_facts(FactColumns.from_facts(shuffled), seed)
        assert [_fact_key(f) for f in got] == want


@pytest.mark.parametrize("bits", [0, 3, 8])
def test_canonical_order_breaks_equal_keys_by_content_id_and_line(bits: int) -> None:
    import chronoqa.generate.kg.order as order

    facts = tricky_facts() * 2  # every fact twice: equal content, id and line
    cols = FactColumns.from_facts(facts)
    # a mix that keeps only the low bits of the key: many facts share a key (bits=0: all), or only its high bits
    low = (1 << bits) - 1
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(order, "mix64", lambda x, scratch=None: x.__iand__(np.uint64(low)))
        mp.setattr(order, "name_keys", lambda names: np.array([py_name(n) for n in names], dtype=np.uint64))
        got = [_fact_key(cols[i]) for i in order.canonical_order(cols, 5).tolist()]
    assert got == py_order(facts, 5, mix=lambda x: x & low)


def test_name_keys_depend_on_the_name_alone() -> None:
    from chronoqa.generate.kg.order import name_keys

    names = ["", "a", "ab", "Zoë", "東京", "x" * 300, "E1", "E10"]
    assert name_keys(names).tolist() == [py_name(n) for n in names]
    assert name_keys(names[::-1]).tolist() == [py_name(n) for n in names[::-1]]
    assert name_keys([]).tolist() == []
    assert name_keys(["", ""]).tolist() == [py_name("")] * 2


def test_canonical_order_ignores_the_name_tables() -> None:
    from chronoqa.generate.kg.order import canonical_facts

    cols = FactColumns.from_facts(synthetic_graph().facts)[:400]
    # the same facts with a name table holding unused names, in another order, and one name twice
    ents = ["unused", *reversed(cols.entities), cols.entities[0]]
    recode = np.array([len(cols.entities) - i for i in range(len(cols.entities))], dtype=np.int32)
    recode[0] = len(ents) - 1
    other = dataclasses.replace(cols, entities=ents, s=recode[cols.s], o=recode[cols.o])
    assert [_fact_key(f) for f in other] == [_fact_key(f) for f in cols]
    assert [_fact_key(f) for f in canonical_facts(other, 4)] == [_fact_key(f) for f in canonical_facts(cols, 4)]


def test_another_seed_gives_another_order() -> None:
    from chronoqa.generate.kg.order import canonical_order

    cols = FactColumns.from_facts(synthetic_graph().facts)
    a, b = canonical_order(cols, 0), canonical_order(cols, 1)
    assert sorted(a.tolist()) == list(range(len(cols))) == sorted(b.tolist())
    assert (a != b).mean() > 0.99
    assert canonical_order(cols[:0], 0).tolist() == []


def test_the_manifest_names_the_order_rule(tmp_path: Path) -> None:
    from chronoqa.generate.kg.order import ORDER_RULE

    build = build_kg_benchmark(synthetic_graph(), KGBuildConfig(**{**SYNTH, "n_questions": 30}))
    assert build.manifest["sampling"] == ORDER_RULE and ORDER_RULE.startswith("content order")
    assert "content order" in build.datacard


def test_columns_in_order_are_not_copied() -> None:
    from chronoqa.generate.kg.order import CanonicalFacts, canonical_facts

    cols = FactColumns.from_facts(synthetic_graph().facts)
    ordered = canonical_facts(cols, 3)
    assert isinstance(ordered, CanonicalFacts) and ordered.seed == 3
    assert ordered is not cols and canonical_facts(ordered, 3) is ordered
    assert canonical_facts(ordered, 4) is not ordered
    assert canonical_facts(cols[:1], 0).ids.tolist() == cols.ids[:1].tolist()
    # a replaced copy (other arrays) claims no order: ordered again
    swapped = dataclasses.replace(ordered, s=ordered.o, o=ordered.s)
    assert swapped.seed is None
    assert [_fact_key(f) for f in canonical_facts(swapped, 3)] == py_order(list(swapped), 3)
    # plain columns that happen to be in order (a slice of ordered ones): the same arrays, tagged, no copy
    plain = ordered[:]
    assert type(plain) is FactColumns
    again = canonical_facts(plain, 3)
    assert again is not plain and all(getattr(again, f) is getattr(plain, f) for f in FactColumns._array_fields())


def test_ordered_columns_are_not_ordered_again(monkeypatch: pytest.MonkeyPatch) -> None:
    import chronoqa.generate.kg.order as order

    graph = order.canonical_graph(synthetic_graph(), 6)
    calls: list[int] = []
    real = order.canonical_order
    monkeypatch.setattr(order, "canonical_order", lambda cols, seed: calls.append(seed) or real(cols, seed))
    assert order.canonical_facts(graph.facts, 6) is graph.facts  # type: ignore[arg-type]
    build_kg_benchmark(graph, KGBuildConfig(**{**SYNTH, "n_questions": 20, "seed": 6}))
    assert calls == []
    build_kg_benchmark(graph, KGBuildConfig(**{**SYNTH, "n_questions": 20, "seed": 7}))  # another seed: ordered
    assert calls == [7]


def test_canonical_graph_keeps_the_graph_and_orders_its_facts() -> None:
    from chronoqa.generate.kg.order import canonical_graph

    graph = shuffled_facts(synthetic_graph(), 4)  # a list of Fact
    ordered = canonical_graph(graph, 2)
    assert (ordered.name, ordered.entity_labels, ordered.report) == (graph.name, graph.entity_labels, graph.report)
    # brute force: the Python sort of the same facts
    assert [_fact_key(f) for f in ordered.facts] == py_order(list(graph.facts), 2)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 5])
def test_a_graph_ordered_by_its_caller_gives_the_same_release(seed: int, tmp_path: Path) -> None:
    from chronoqa.generate.kg.order import canonical_graph

    graph = permuted_columns(synthetic_graph(), 8)
    cfg = {**SYNTH, "seed": seed}
    base = build_release(graph, tmp_path / "base", **cfg)
    assert build_release(canonical_graph(graph, seed), tmp_path / "pre", **cfg) == base
    # ordered for another seed: the build orders again, same bytes
    assert build_release(canonical_graph(graph, seed + 1), tmp_path / "other", **cfg) == base
