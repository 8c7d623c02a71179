"""The KG operators as objects (one module each, one registry) and the build as a list of named steps."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg import OPERATORS, KGBuildConfig, build_kg_benchmark
from chronoqa.generate.kg.build import STEPS
from chronoqa.generate.kg.index import Col
from chronoqa.generate.kg.operators import (
    REGISTRY,
    AnswerKind,
    Draft,
    GenContext,
    Hop,
    Operator,
    point_in_time,
    static_depths,
    templates,
)
from chronoqa.generate.kg.operators.base import GoldFacts
from chronoqa.generate.kg.operators.chains import build_static_into, incident_sample, static_options
from chronoqa.generate.kg.steps import BuildState
from chronoqa.generate.kg.templates import Renderer, Template
from chronoqa.records import Question
from chronoqa.time import Granularity, TimePoint
from sql_index_fixtures import index_of
from test_kg_build import random_graph


def test_the_registry_names_every_operator_once_in_cell_order() -> None:
    assert (
        tuple(REGISTRY)
        == OPERATORS
        == (
            "point_in_time",
            "before_after",
            "interval",
            "sequence",
            "duration",
            "yes_no",
            "present_state",
            "two_facts",
            "allen",
            "relative",
        )
    )
    assert all(name == op.name for name, op in REGISTRY.items())
    assert sum(op.weight for op in REGISTRY.values()) == pytest.approx(1.0)
    assert dict(KGBuildConfig().operator_weights) == {name: op.weight for name, op in REGISTRY.items()}
    ids = [t.id for op in REGISTRY.values() for t in op.templates]
    assert len(ids) == len(set(ids)) == len(templates())
    assert {op.title for op in REGISTRY.values()} == {
        "Point-in-time",
        "Before/after",
        "Interval",
        "Sequence",
        "Duration",
        "Yes/no",
        "Present state",
        "Two facts",
        "Two windows",
        "Relative time",
    }


def test_answer_kinds() -> None:
    assert [k.value for k in AnswerKind] == ["entity", "year", "date", "duration", "count", "yes_no"]
    assert AnswerKind.DATE.at(Granularity.YEAR) is AnswerKind.YEAR
    assert AnswerKind.DATE.at(Granularity.MONTH) is AnswerKind.DATE is AnswerKind.YEAR.at(Granularity.DAY)
    assert AnswerKind.ENTITY.at(Granularity.DAY) is AnswerKind.ENTITY
    assert (AnswerKind.YEAR.answer_type, AnswerKind.DATE.answer_type) == ("time", "time")
    assert AnswerKind.ENTITY.answer_type == "entity" and AnswerKind.COUNT.answer_type == "count"
    assert [k for k in AnswerKind if k.is_time] == [AnswerKind.YEAR, AnswerKind.DATE]
    assert REGISTRY["interval"].answer_kind(Granularity.YEAR) is AnswerKind.YEAR
    assert REGISTRY["interval"].answer_kind(Granularity.DAY) is AnswerKind.DATE
    assert {REGISTRY[n].answer for n in ("point_in_time", "before_after", "sequence")} == {AnswerKind.ENTITY}


def test_questions_record_their_operators_declarations() -> None:
    b = build_kg_benchmark(random_graph(1500, 4), KGBuildConfig(n_questions=300, seed=1), phrases="yago11k")
    assert {q.operator for q in b.questions} == set(OPERATORS)
    for q in b.questions:
        op = REGISTRY[q.operator]
        assert q.answer_type == op.answer_kind(Granularity.YEAR).answer_type
        assert q.render_time == op.render_time
        assert q.template_id in {t.id for t in op.templates}
        assert (q.logical_form["final_other"] is not None) == op.names_final_entity


def test_the_build_is_its_list_of_steps() -> None:
    assert [s.__name__ for s in STEPS] == [
        "resolve_inputs",
        "run_engine",
        "check_labels",
        "prepare_drafting",
        "fill_cells",
        "assemble_questions",
        "audit",
        "make_manifest",
    ]
    g, cfg = random_graph(800, 2), KGBuildConfig(n_questions=120, seed=5)
    state = BuildState(g, cfg, "yago11k", {}, {}, None)
    for step in STEPS:
        step(state)
    b = build_kg_benchmark(g, cfg, phrases="yago11k")
    assert [q.to_dict() for q in state.questions] == [q.to_dict() for q in b.questions]
    assert state.manifest == b.manifest


def test_the_kg_manifest_is_the_shared_header_plus_its_sections() -> None:
    from chronoqa.generate.result import MANIFEST_COUNT_KEYS, MANIFEST_KEYS, check_manifest

    b = build_kg_benchmark(random_graph(800, 2), KGBuildConfig(n_questions=120, seed=5), phrases="yago11k")
    check_manifest(b.manifest)
    assert set(MANIFEST_KEYS) <= set(b.manifest) and set(MANIFEST_COUNT_KEYS) <= set(b.manifest["counts"])
    assert b.manifest["builder"] == "kg" and b.manifest["counts"]["questions"] == len(b.questions)
    splits = b.manifest["counts"]["splits"]
    assert list(splits) == sorted(splits) and sum(splits.values()) == len(b.questions)


def _toy_draft(ctx: GenContext, rng: random.Random, k: int) -> Draft | None:
    d = point_in_time.draft(ctx, rng, k)
    return None if d is None else dataclasses.replace(d, operator="toy")


def _toy_text(rd: Renderer, d: Draft) -> str:
    return f"Toy: in {rd.when(d.t)}, {rd.ask(d)}?"


def test_a_new_operator_is_one_module_and_its_registration(monkeypatch: pytest.MonkeyPatch) -> None:
    toy = Operator("toy", "Toy", 0.0, AnswerKind.ENTITY, _toy_draft, (Template("toy.in", _toy_text),))
    monkeypatch.setitem(REGISTRY, "toy", toy)
    cfg = KGBuildConfig(n_questions=60, seed=3, operators=("toy",), operator_weights=(("toy", 1.0),), max_hops=1)
    b = build_kg_benchmark(random_graph(800, 2), cfg, phrases="yago11k")
    assert b.questions and {q.operator for q in b.questions} == {"toy"}
    assert all(q.question.startswith("Toy: in ") and q.template_id == "toy.in" for q in b.questions)
    assert b.manifest["counts"]["composition"] == {"toy": {"1-hop": len(b.questions), "2-hop": 0, "3+-hop": 0}}
    assert "| Toy | " in b.datacard
    assert b.manifest["audit"] == {"leaks": 0, "invalid_gold": 0}


def test_the_audit_applies_each_operators_gold_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(gold: GoldFacts, q: Question, positions: Sequence[int]) -> str | None:
        return f"S* fact {q.S_star[0].fact_id} rejected"

    toy = Operator("toy", "Toy", 0.0, AnswerKind.ENTITY, _toy_draft, (Template("toy.in", _toy_text),), gold_rule=never)
    monkeypatch.setitem(REGISTRY, "toy", toy)
    cfg = KGBuildConfig(n_questions=20, seed=3, operators=("toy",), operator_weights=(("toy", 1.0),), max_hops=1)
    want = r"0 question\(s\) contain their answer, [1-9]\d* fail their operator's gold rule \(first: \['rand-0+: S\*"
    with pytest.raises(ChronoqaError, match=want):
        build_kg_benchmark(random_graph(800, 2), cfg, phrases="yago11k")


def test_static_depths_by_hand() -> None:
    # static hops 0 -> 1 -> 2 -> 3, and 4 -> 2; entity 5 has none. Longest chains into each (capped at 2).
    def into(src: int, dst: int) -> tuple[Hop, int, int]:
        return (Hop(0, 0, True, src, dst), 0, 0)

    table = [[], [into(0, 1)], [into(1, 2), into(4, 2)], [into(2, 3)], [], []]
    assert static_depths(table, 2) == [0, 1, 2, 2, 0, 0]
    assert static_depths(table, 3) == [0, 1, 2, 3, 0, 0]


def test_the_sampled_static_search_offers_the_exhaustive_tables_hops() -> None:
    """A graph past ``exhaustive_max_facts`` has no table of every static hop: its chains search the hops into an
    entity on demand (``static_options``). Both must offer the same hops into ``c`` at unit ``t``: a fact ``(a, r, c)``
    certainly valid at ``t`` whose ``(a, r, direction)`` has ``c`` as its only value, ``a`` not yet on the chain.
    The graph is small (no entity a hub), so the on-demand search reads every row and the sets must be equal."""
    facts = random_graph(800, 2).facts
    idx = index_of(
        facts, {"<hasWonPrize>": True}, Granularity.parse("year"), TimePoint(2026, 1, 1),
        cardinality={"<playsFor>": (False, True), "<hasWonPrize>": (False, False), "<worksAt>": (True, False)},
        symmetric=("<isMarriedTo>",),
    )  # fmt: skip
    table = build_static_into(idx)
    rows = [row for e in range(len(idx.ent_names)) for _, row in incident_sample(idx, e, random.Random(0))]
    units = sorted({int(row[Col.ACLO]) for row in rows})
    rng, compared, offered = random.Random(0), 0, 0
    for c in range(len(idx.ent_names)):
        for t in random.Random(c).sample(units, 3):
            want = sorted((h.fid, h.src, h.rel, h.forward) for h, lo, hi in table[c] if lo <= t <= hi)
            got = sorted((h.fid, h.src, h.rel, h.forward) for h in static_options(idx, c, t, {c}, rng, limit=10**6))
            assert got == want, (idx.ent_names[c], t)
            compared, offered = compared + 1, offered + len(want)
    assert compared > 500 and offered > 100  # hops to offer: not only empty sets compared
