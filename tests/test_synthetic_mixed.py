"""The synthetic generator's relation roles (functional careers, events, inverse-functional, lifelong).

Every property is recounted here in plain Python over the generated :class:`Fact` objects (never with
the generator's own arrays); the default shape is pinned by a sha256 recorded before the roles existed.
The 20k build is checked by the independent brute-force checker (``kg_checker``), with the relations'
cardinality declared from the generator's design, not from what the builder infers.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
from chronoqa.records import Fact
from chronoqa.sources.synthetic import ROLES, SyntheticConfig, generate
from kg_checker import Checker, check_all, world_report

# sha256 of the HyTE ``temporal`` file, recorded from the generator before relation roles were added
DEFAULT_SHA = {
    (5000, 1, 20): "f0a3f69d1519f3aea6495627417456c9f82dcc7ae3fa1e0157ffe58dce31b084",
    (20000, 0, 7): "e8442f6a41fd134e000488922f6141536ef7cc95684ca5e56f62316eda095bc9",
}


@pytest.mark.parametrize(("n", "seed", "n_rel"), sorted(DEFAULT_SHA))
def test_default_shape_is_unchanged(tmp_path: Path, n: int, seed: int, n_rel: int) -> None:
    generate(n_facts=n, seed=seed, n_relations=n_rel).write_hyte(tmp_path / "h")
    assert hashlib.sha256((tmp_path / "h" / "temporal").read_bytes()).hexdigest() == DEFAULT_SHA[(n, seed, n_rel)]
    assert SyntheticConfig(n_facts=n).role_counts() == {
        "functional": 0,
        "event": 0,
        "inverse": 0,
        "lifelong": 0,
        "zipf": n,
    }


# The mixed synthetic graph is designed for the four chain operators; the families asked of single facts
# (duration, yes/no, present state, two facts) are pinned on hand-worked graphs and the real releases.
CHAIN_OPERATORS = ("point_in_time", "before_after", "interval", "sequence")


def test_mixed_is_deterministic_and_differs_by_seed(tmp_path: Path) -> None:
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        generate(SyntheticConfig.mixed(30_000, seed=seed)).write_quintuples(tmp_path / f"{name}.csv")
    a, b, c = ((tmp_path / f"{x}.csv").read_bytes() for x in "abc")
    assert a == b and a != c


def _by_role(cfg: SyntheticConfig) -> dict[str, list[Fact]]:
    out: dict[str, list[Fact]] = defaultdict(list)
    for f in generate(cfg).to_graph().facts:
        out[cfg.role_of(int(f.r[1:]))].append(f)
    return out


CFG = SyntheticConfig.mixed(40_000, seed=2)


@pytest.fixture(scope="module")
def by_role() -> dict[str, list[Fact]]:
    return _by_role(CFG)


def test_role_shares_and_relation_ids(by_role: dict[str, list[Fact]]) -> None:
    assert set(by_role) == set(ROLES)
    n = CFG.n_facts
    assert sum(map(len, by_role.values())) == n
    for role, share in (("functional", 0.25), ("event", 0.15), ("inverse", 0.15), ("lifelong", 0.10), ("zipf", 0.35)):
        assert len(by_role[role]) == round(share * n), role
    rels = {role: sorted({int(f.r[1:]) for f in fs}) for role, fs in by_role.items()}
    assert rels == {
        "functional": [0, 1, 2, 3, 4],
        "event": [5, 6, 7],
        "inverse": [8, 9, 10],
        "lifelong": [11, 12],
        "zipf": list(range(13, 20)),
    }


def _careers(facts: list[Fact], holder_is_subject: bool) -> dict[tuple[str, str], list[Fact]]:
    out: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for f in facts:
        out[(f.s if holder_is_subject else f.o, f.r)].append(f)
    return out


@pytest.mark.parametrize("role", ["functional", "inverse"])
def test_careers_hold_one_value_at_a_time(by_role: dict[str, list[Fact]], role: str) -> None:
    careers = _careers(by_role[role], holder_is_subject=role == "functional")
    lengths = Counter(len(c) for c in careers.values())
    assert lengths[1] > 0 and sum(v for k, v in lengths.items() if k >= 3) > 0
    assert 1.7 < sum(map(len, careers.values())) / len(careers) < 2.3  # career_mean 2
    shared_year = 0
    for (holder, _), stints in careers.items():
        stints.sort(key=lambda f: f.start.sort_key())  # type: ignore[union-attr]
        for i, f in enumerate(stints):
            assert f.start is not None
            value = f.o if role == "functional" else f.s
            assert value != holder
            if i + 1 < len(stints):
                nxt = stints[i + 1]
                assert f.end is not None, "only the last stint may be open"
                assert nxt.start is not None and nxt.start.year >= f.end.year  # never two at once over a year
                assert (nxt.o if role == "functional" else nxt.s) != value  # a move, not a renewal
                shared_year += nxt.start.year == f.end.year
            else:
                assert f.end is None or f.end.year > f.start.year
    n_next = sum(len(c) - 1 for c in careers.values())
    assert 0.2 < shared_year / n_next < 0.5  # gap 0, 1 or 2 years: about a third share the boundary year
    open_last = sum(c[-1].end is None for c in careers.values())
    assert 0.15 < open_last / len(careers) < 0.25  # p_current 0.2
    # the other side is an open class: a popular value has several holders at once
    by_value: dict[tuple[str, str], set[str]] = defaultdict(set)
    for (holder, r), stints in careers.items():
        for f in stints:
            if f.start is not None and f.start.year <= 1950 <= (f.end.year if f.end else 3000):
                by_value[(f.o if role == "functional" else f.s, r)].add(holder)
    assert max(map(len, by_value.values())) >= 5


def test_events_are_one_point_per_subject_in_a_small_class_of_places(by_role: dict[str, list[Fact]]) -> None:
    facts = by_role["event"]
    per_subject = Counter((f.s, f.r) for f in facts)
    assert set(per_subject.values()) == {1}
    assert all(f.start is not None and f.start == f.end for f in facts)
    places: dict[str, set[str]] = defaultdict(set)
    for f in facts:
        places[f.r].add(f.o)
        assert f.o != f.s
    assert len(places) == 3 and all(len(p) <= CFG.event_places * CFG.entities() for p in places.values())
    assert len(facts) / len({(f.o, f.r) for f in facts}) > 3  # many subjects per place: an open class


def test_lifelong_facts_cover_the_middle_of_the_period(by_role: dict[str, list[Fact]]) -> None:
    facts = by_role["lifelong"]
    assert set(Counter((f.s, f.r) for f in facts).values()) == {1}
    lo, hi = CFG.year_min + 18, CFG.year_max - 18  # 15% of the 120-year period from each end
    for f in facts:
        assert f.start is not None and f.end is not None
        assert CFG.year_min <= f.start.year <= lo and hi <= f.end.year <= CFG.year_max


def test_zipf_relations_stay_many(by_role: dict[str, list[Fact]]) -> None:
    at_once: dict[tuple[str, str], set[str]] = defaultdict(set)
    for f in by_role["zipf"]:
        if f.start is not None and f.end is not None and f.start.year <= 1980 <= f.end.year:
            at_once[(f.s, f.r)].add(f.o)
    assert max(map(len, at_once.values())) >= 3


def test_bad_role_configs_are_refused() -> None:
    with pytest.raises(ValueError, match="functional_relations >= 1"):
        SyntheticConfig(p_functional=0.2).check()
    with pytest.raises(ValueError, match="fit in n_relations"):
        SyntheticConfig(n_relations=2, functional_relations=3, p_functional=0.5).check()
    with pytest.raises(ValueError, match="add relations"):
        SyntheticConfig(n_relations=1, functional_relations=1, p_functional=0.5).check()
    with pytest.raises(ValueError, match="at least 3 entities"):
        SyntheticConfig(n_entities=2, n_relations=2, inverse_relations=1, p_inverse=0.5).check()
    with pytest.raises(ValueError, match="distinct subjects"):
        generate(SyntheticConfig(n_facts=1000, n_entities=100, n_relations=2, event_relations=1, p_event=0.5))
    with pytest.raises(ValueError, match="distinct holders"):
        generate(SyntheticConfig(n_facts=1000, n_entities=20, n_relations=2, functional_relations=1, p_functional=0.9))


# declared from the generator's design (independent of the builder's inference from the data)
DECLARED = {
    "functional": ("one", "many"),
    "event": ("one", "many"),
    "inverse": ("many", "one"),
    "lifelong": ("one", "many"),
    "zipf": ("many", "many"),
}


def _declared(cfg: SyntheticConfig) -> dict[str, tuple[str, str]]:
    return {f"R{i}": DECLARED[cfg.role_of(i)] for i in range(cfg.n_relations)}


def test_a_20k_mixed_build_fills_every_operator_and_hop() -> None:
    cfg = SyntheticConfig.mixed(20_000)
    g = generate(cfg).to_graph("synthetic20k")
    b = build_kg_benchmark(g, KGBuildConfig(n_questions=400, generic_phrases=True, operators=CHAIN_OPERATORS))
    comp = b.manifest["counts"]["composition"]
    assert b.manifest["counts"]["questions"] >= 390
    # sequence asks "next" only where the answer's stint starts in the unit the reference's ends (no unit
    # between them that a missed stint could fill), and the generator starts two of three stints 1-2 years after
    # the previous one ends: that rule rejects 33, 34 and 16 of the 1,200, 1,200 and 600 draws the sequence cells
    # may make here, which end with 18, 12 and 6 questions
    for op, cells in comp.items():
        for hops, n in cells.items():
            assert n >= (5 if op == "sequence" else 10), (op, hops, comp)
    inferred = {r: (v["objects_at_once"], v["subjects_at_once"]) for r, v in b.manifest["cardinality"].items()}
    assert inferred == _declared(cfg)  # the builder reads each role as designed


def test_mixed_questions_pass_the_independent_checker() -> None:
    # a smaller graph: the brute-force checker is quadratic in a hub's degree
    cfg = SyntheticConfig.mixed(6_000, seed=1)
    g = generate(cfg).to_graph("synthetic6k")
    b = build_kg_benchmark(g, KGBuildConfig(n_questions=200, generic_phrases=True, operators=CHAIN_OPERATORS))
    assert {op for op, cells in b.manifest["counts"]["composition"].items() if sum(cells.values())} == {
        "point_in_time",
        "before_after",
        "interval",
        "sequence",
    }
    decl = {
        r: {"kind": "state", "objects_at_once": fw, "subjects_at_once": inv, "default_max_years": 100}
        for r, (fw, inv) in _declared(cfg).items()
    }
    checker = Checker(g, {r: "state" for r in decl}, open_end=b.manifest["open_end"]["reading"], decl=decl)
    flags = {f.id: (f.dist_functional, f.stale_functional) for f in b.flags}
    assert check_all(checker, b.questions, flags) == []
    assert world_report(checker, b.questions) == {}
