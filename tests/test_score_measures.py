"""Ranking measures: spec round trip, hand-worked values, agreement with ir_measures."""

from __future__ import annotations

import math
import random
from typing import Any

import ir_measures
import pytest
from ir_measures import Qrel, ScoredDoc

from chronoqa.errors import UnknownNameError
from chronoqa.score.evidence import prepare_question, retrieved_keys
from chronoqa.score.measures import DEFAULT_MEASURES, Measure, compute, parse_measures


def t(i: int, year: int = 2000) -> dict[str, Any]:
    return {"s": f"s{i}", "r": "r", "o": f"o{i}", "t_start": year, "t_end": year, "doc_id": f"d{i}"}


@pytest.mark.parametrize("text", ["R@10", "nDCG@10", "MRR", "MRR@5", "TRP", "CCR@3", "P@5"])
def test_measure_round_trip_and_hashable(text: str) -> None:
    m = Measure.parse(text)
    assert str(m) == text and Measure.parse(str(m)) == m
    assert len({m, Measure.parse(text)}) == 1


def test_measure_parse_errors_and_aliases() -> None:
    assert Measure.parse("ndcg@10") == Measure("nDCG", 10)
    assert Measure.parse("recall@5") == Measure("R", 5)
    assert [str(m) for m in DEFAULT_MEASURES] == ["R@10", "nDCG@10", "MRR", "TRP", "CCR"]
    assert parse_measures(["R@10", "r@10", "MRR"]) == (Measure("R", 10), Measure("MRR"))
    with pytest.raises(UnknownNameError, match="Did you mean"):
        Measure.parse("nDGC@10")
    with pytest.raises(ValueError, match="positive integer"):
        Measure.parse("R@x")


def test_hand_worked_values() -> None:
    # gold: s1, s2 valid in 2000; s3 is gold but held in 1990, so it is not relevant at t_query 2000.
    q = {"id": "q", "t_query": 2000, "S_star": [t(1), t(2), t(3, 1990)]}
    pq = prepare_question(q)
    keys = retrieved_keys([t(9), t(2), t(3, 1990), t(1)])  # ranks: miss, hit, invalid gold, hit
    assert compute("R@2", pq, keys) == 0.5  # 1 of the 2 relevant in the top 2
    assert compute("R@10", pq, keys) == 1.0
    assert compute("MRR", pq, keys) == 0.5  # first relevant at rank 2
    assert compute("P@2", pq, keys) == 0.5
    dcg = 1 / math.log2(3) + 1 / math.log2(5)  # relevant at ranks 2 and 4
    idcg = 1 / math.log2(2) + 1 / math.log2(3)  # two relevant items
    assert compute("nDCG@10", pq, keys) == pytest.approx(dcg / idcg)
    assert compute("TRP", pq, keys) == 0.5  # 2 valid gold of 4 retrieved
    assert compute("CCR", pq, keys) == 0.0  # s3 is gold but not time-valid: the chain can never be complete
    # A question with nothing retrieved scores 0 (not dropped); TRP is undefined.
    for m in ("R@10", "nDCG@10", "MRR", "P@10", "CCR"):
        assert compute(m, pq, ()) == 0.0
    assert compute("TRP", pq, ()) is None
    # No time-valid gold at all: recall-type measures are undefined for the question.
    q0 = prepare_question({"id": "q0", "t_query": 2000, "S_star": [t(3, 1990)]})
    assert compute("R@10", q0, keys) is None and compute("nDCG@10", q0, keys) is None


def test_agrees_with_ir_measures() -> None:
    rng = random.Random(7)
    qrels, run, ours = [], [], {}
    prepared = {}
    for qi in range(40):
        n_gold = rng.randint(1, 4)
        docs = rng.sample(range(30), 12)
        gold = docs[:n_gold]
        q = {"id": f"q{qi}", "t_query": 2000, "S_star": [t(i) for i in gold]}
        prepared[q["id"]] = prepare_question(q)
        for i in gold:
            qrels.append(Qrel(q["id"], f"d{i}", 1))
        ranking = rng.sample(docs, rng.randint(1, 12))
        for rank, i in enumerate(ranking):
            run.append(ScoredDoc(q["id"], f"d{i}", float(100 - rank)))
        ours[q["id"]] = retrieved_keys([t(i) for i in ranking])
    measures = [ir_measures.parse_measure(m) for m in ("nDCG@10", "R@10", "RR@10", "RR", "P@5", "nDCG@5")]
    theirs = {(m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(measures, qrels, run)}
    mine_names = {
        "nDCG@10": "nDCG@10",
        "R@10": "R@10",
        "RR@10": "MRR@10",
        "RR": "MRR",
        "P@5": "P@5",
        "nDCG@5": "nDCG@5",
    }
    assert len(theirs) == 40 * len(measures)
    for (qid, name), value in theirs.items():
        assert compute(mine_names[name], prepared[qid], ours[qid]) == pytest.approx(value, abs=1e-9), (qid, name)
