"""Ranking measures: spec round trip, hand-worked values through the scorer, agreement with ir_measures."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

import ir_measures
import pytest
from ir_measures import Qrel, ScoredDoc

from chronoqa.artifacts.runs import Run
from chronoqa.errors import UnknownNameError
from chronoqa.records import Question, Triple
from chronoqa.score.fast import gold_columns, hits_from_run, score_run
from chronoqa.score.measures import MEASURES, Measure, parse_measures


def t(i: int, year: int = 2000) -> Triple:
    return Triple(f"s{i}", "r", f"o{i}", str(year), str(year), doc_id=f"d{i}")


def values(questions: list[Question], run: dict[str, list[Triple]], measures: list[str]) -> dict[str, list[Any]]:
    """Each measure's per-question value (``None``: undefined) from the scorer."""
    ms = parse_measures(measures)
    sc = score_run(gold_columns(questions), hits_from_run(Run.from_mapping("r", run), questions), ms)
    return {
        str(m): [float(x) if d else None for x, d in zip(*(a.tolist() for a in sc.measures[str(m)]), strict=True)]
        for m in ms
    }


@pytest.mark.parametrize("text", ["R@10", "nDCG@10", "MRR", "MRR@5", "TRP", "CCR@3", "P@5"])
def test_measure_round_trip_and_hashable(text: str) -> None:
    m = Measure.parse(text)
    assert str(m) == text and Measure.parse(str(m)) == m
    assert len({m, Measure.parse(text)}) == 1


def test_measure_parse_errors_and_aliases() -> None:
    assert Measure.parse("ndcg@10") == Measure("nDCG", 10)
    assert Measure.parse("recall@5") == Measure("R", 5)
    assert parse_measures(["R@10", "r@10", "MRR"]) == (Measure("R", 10), Measure("MRR"))
    with pytest.raises(UnknownNameError, match="Did you mean"):
        Measure.parse("nDGC@10")
    with pytest.raises(ValueError, match="positive integer"):
        Measure.parse("R@x")


def test_every_measure_is_defined_in_its_docstring() -> None:
    for name in MEASURES:
        definition = Measure(name).definition
        assert definition.startswith(f"``{name}"), name
    assert "relevant hits in the top k / relevant items" in Measure.parse("R@5").definition


def test_hand_worked_values() -> None:
    # gold: s1, s2 valid in 2000; s3 is gold but held in 1990, so it is not relevant at t_query 2000.
    q = Question("q", "test", "?", "2000", (t(1), t(2), t(3, 1990)))
    empty = Question("empty", "test", "?", "2000", (t(1), t(2), t(3, 1990)))
    # no time-valid gold at all: recall-type measures are undefined for the question
    stale = Question("stale", "test", "?", "2000", (t(3, 1990),))
    run = {"q": [t(9), t(2), t(3, 1990), t(1)], "empty": [], "stale": [t(9), t(2), t(3, 1990), t(1)]}
    names = ["R@2", "R@10", "MRR", "MRR@1", "P@2", "P@10", "nDCG@10", "nDCG@2", "TRP", "TRP@2", "CCR"]
    got = values([q, empty, stale], run, names)
    # ranks: miss, hit, invalid gold, hit
    assert got["R@2"] == [0.5, 0.0, None]  # 1 of the 2 relevant in the top 2
    assert got["R@10"] == [1.0, 0.0, None]
    assert got["MRR"] == [0.5, 0.0, None]  # first relevant at rank 2
    assert got["MRR@1"] == [0.0, 0.0, None]  # ... which is beyond the cutoff 1
    assert got["P@2"] == [0.5, 0.0, 0.0]
    assert got["P@10"] == [0.2, 0.0, 0.0]  # 2 relevant / 10, though only 4 were returned
    dcg = 1 / math.log2(3) + 1 / math.log2(5)  # relevant at ranks 2 and 4
    idcg = 1 / math.log2(2) + 1 / math.log2(3)  # two relevant items
    assert got["nDCG@10"][0] == pytest.approx(dcg / idcg)
    assert got["nDCG@2"][0] == pytest.approx((1 / math.log2(3)) / idcg)
    assert got["nDCG@10"][1:] == [0.0, None]
    assert got["TRP"] == [0.5, None, 0.0]  # 2 valid gold of 4 retrieved; nothing retrieved: undefined
    assert got["TRP@2"] == [0.5, None, 0.0]
    assert got["CCR"] == [0.0, 0.0, 0.0]  # s3 is gold but not time-valid: the chain can never be complete


def test_agrees_with_ir_measures() -> None:
    rng = random.Random(7)
    qrels: list[Qrel] = []
    run: list[ScoredDoc] = []
    questions: list[Question] = []
    ours: dict[str, list[Triple]] = {}
    for qi in range(60):
        n_gold = rng.randint(1, 15)
        docs = rng.sample(range(40), 25)
        gold = docs[:n_gold]
        questions.append(Question(f"q{qi}", "test", "?", "2000", tuple(t(i) for i in gold)))
        qrels.extend(Qrel(f"q{qi}", f"d{i}", 1) for i in gold)
        ranking = rng.sample(docs, rng.randint(0, 25))
        run.extend(ScoredDoc(f"q{qi}", f"d{i}", float(100 - rank)) for rank, i in enumerate(ranking))
        ours[f"q{qi}"] = [t(i) for i in ranking]
    pairs = {"nDCG@10": "nDCG@10", "nDCG@3": "nDCG@3", "nDCG": "nDCG", "R@10": "R@10", "R@3": "R@3",
             "RR@10": "MRR@10", "RR": "MRR", "P@5": "P@5", "P@20": "P@20"}  # fmt: skip
    measures = [ir_measures.parse_measure(m) for m in pairs]
    theirs = {(m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(measures, qrels, run)}
    mine = values(questions, ours, list(pairs.values()))
    index = {q.id: i for i, q in enumerate(questions)}
    checked = 0
    for (qid, name), value in theirs.items():
        assert mine[pairs[name]][index[qid]] == pytest.approx(value, abs=1e-12), (qid, name)
        checked += 1
    assert checked >= 50 * len(measures)  # ir_measures leaves out the questions with an empty ranking


def test_outrank_hand_worked() -> None:
    """Outrank: every time-valid gold triple retrieved (within k) above every stale or distractor triple."""
    gold, dist, stale, other = t(1), t(5, 1995), t(6, 1990), t(9)

    def q(qid: str, s_star: tuple[Triple, ...] = (gold,), **negs: tuple[Triple, ...]) -> Question:
        return Question(qid, "test", "?", "2000", s_star, **negs)

    questions = [
        q("below", S_dist=(dist,)),  # the distractor comes first
        q("above", S_dist=(dist,), S_stale=(stale,)),  # gold first, both negatives after it
        q("alone", S_dist=(dist,)),  # no negative retrieved: gold outranks it
        q("missed", S_dist=(dist,)),  # gold never retrieved
        q("late", S_dist=(dist,)),  # gold first among what was retrieved, but at rank 2
        q("two", (gold, t(2)), S_stale=(stale,)),  # the stale fact sits between the two gold facts
        q("no-negatives"),  # undefined: nothing to outrank
        q("no-valid-gold", (t(3, 1990),), S_dist=(dist,)),  # undefined: no time-valid gold
    ]
    run = {
        "below": [dist, gold],
        "above": [gold, other, dist, stale],
        "alone": [gold],
        "missed": [dist, other],
        "late": [other, gold],
        "two": [gold, stale, t(2)],
        "no-negatives": [gold],
        "no-valid-gold": [t(3, 1990), dist],
    }
    got = values(questions, run, ["Outrank", "Outrank@1"])
    assert got["Outrank"] == [0.0, 1.0, 1.0, 0.0, 1.0, 0.0, None, None]
    assert got["Outrank@1"] == [0.0, 1.0, 1.0, 0.0, 0.0, 0.0, None, None]
    assert str(Measure.parse("outrank@10")) == "Outrank@10"


def test_an_anchor_fact_is_no_negative() -> None:
    """The anchor event ("the year before X joined Y": X's spell at Y), also listed among X's other spells in
    S_dist, is evidence the question needs: ranked above the gold it is no error, and retrieved it is no
    distractor hit; the other spells stay negatives."""
    gold, anchor, other_spell = t(1, 2000), t(2, 2001), t(3, 1995)
    q_anchor_only = Question("a", "test", "?", "2000", (gold,), S_dist=(anchor,), S_anchor=(anchor,))
    q_both = Question("b", "test", "?", "2000", (gold,), S_dist=(anchor, other_spell), S_anchor=(anchor,))
    questions = [q_anchor_only, q_both, replace(q_both, id="c")]
    run = {"a": [anchor, gold], "b": [anchor, gold, other_spell], "c": [other_spell, anchor, gold]}
    got = values(questions, run, ["Outrank"])
    # a: its only distractor is the anchor, so nothing to outrank (undefined); b: the gold is above the other
    # spell (the anchor above it is no negative); c: the other spell comes first
    assert got["Outrank"] == [None, 1.0, 0.0]
    sc = score_run(gold_columns(questions), hits_from_run(Run.from_mapping("r", run), questions))
    assert sc.dist_defined.tolist() == [False, True, True]
    assert sc.dist_hit.tolist() == [False, True, True]
