"""The retrieval scorer: evidence per question (TRP, CCR, stale / distractor / wrong-reason hits) on
hand-worked cases, and the same scores whichever way a run is read (memory, Arrow columns, lines)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chronoqa.artifacts.release import FunctionalFlags
from chronoqa.artifacts.runs import Run, read_run
from chronoqa.records import Question, Triple
from chronoqa.score.fast import RunScores, gold_columns, hits_from_run, score_run
from chronoqa.score.measures import Measure, parse_measures


def T(s: str, year: int | None, end: int | str | None = "same", o: str = "o") -> Triple:
    """A fact held from ``year`` to ``end`` (the same year by default; ``None``: open end or unknown start)."""
    e = year if end == "same" else end
    return Triple(s, "r", o, None if year is None else str(year), None if e is None else str(e))


def hit(t: Triple) -> dict[str, Any]:
    return {"s": t.s, "r": t.r, "o": t.o, "t_start": t.t_start, "t_end": t.t_end}


def optional(num: np.ndarray, den: np.ndarray) -> list[float | None]:
    return [float(x) if d else None for x, d in zip(num.tolist(), den.tolist(), strict=True)]


def tri(value: np.ndarray, defined: np.ndarray) -> list[bool | None]:
    return [bool(v) if d else None for v, d in zip(value.tolist(), defined.tolist(), strict=True)]


# Eight questions, each worked by hand below.
A, B, D, A_OLD = T("a", 1994), T("b", 1994), T("a", 1994, o="d"), T("a", 1990)
QUESTIONS = [
    Question("q1", "test", "?", "1994", (A, B), S_dist=(D,), S_stale=(A_OLD,), hops=2),
    Question("q2", "test", "?", "2000", (T("e", 1999, 2001),)),  # an empty run line
    Question("q3", "test", "?", "2005", (T("g", 2005),), S_stale=(T("g", 2003),)),  # stale not functional
    Question("q4", "test", "?", "2010", (T("i", 2010),), S_stale=(T("i", 2008),)),
    Question("q5", "test", "?", "2000", (T("j", 1990),)),  # its gold does not hold at 2000
    Question("q6", "test", "?", "2000", (T("k", 2000),)),  # no run line at all
    Question("q7", "test", "?", "2000", (T("l", 2000),), S_stale=(T("l", 2000),)),  # the negative is the gold
    Question("q8", "test", "?", "2000", (T("m", 1998, None),), as_of="2005"),  # open end, closed at as_of
]
FLAGS = {q.id: FunctionalFlags(q.id, dist_functional=True, stale_functional=q.id != "q3") for q in QUESTIONS}
HITS = {
    # A again at rank 3 is a duplicate (dropped); B's years as numbers are the same identity as "1994"
    "q1": [hit(A), hit(D), hit(A), {**hit(B), "t_start": 1994, "t_end": 1994.0}],
    "q2": [],
    "q3": [hit(T("g", 2003))],
    "q4": [hit(T("i", 2008)), hit(T("x", 2010))],
    "q5": [hit(T("j", 1990))],
    "q7": [hit(T("l", 2000))],
    "q8": [hit(T("m", 1998, None))],
}


def score(measures: tuple[Measure, ...] = ()) -> RunScores:
    return score_run(gold_columns(QUESTIONS, FLAGS), hits_from_run(Run.from_mapping("r", HITS), QUESTIONS), measures)


def test_evidence_hand_worked() -> None:
    sc = score()
    #                           q1  q2  q3  q4  q5  q6  q7  q8
    assert sc.n_retrieved.tolist() == [3, 0, 1, 2, 1, 0, 1, 1]  # q1: the repeated A counts once
    assert sc.n_gold.tolist() == [2, 1, 1, 1, 1, 1, 1, 1]
    assert sc.n_valid_hits.tolist() == [2, 0, 0, 0, 0, 0, 1, 1]
    assert sc.covered.tolist() == [1, 0, 1, 1, 1, 0, 1, 1]
    # TRP = time-valid gold hits / hits; undefined for q2 and q6, which retrieved nothing
    assert optional(*sc.trp) == [2 / 3, None, 0.0, 0.0, 0.0, None, 1.0, 1.0]
    # CCR: q1 found A and B; q5 found its gold but it is not valid at 2000, so the chain is never complete
    assert sc.ccr.tolist() == [1, 0, 0, 0, 0, 0, 1, 1]
    # stale hit: defined where the question has a functional stale negative (q3's is not functional);
    # q7's stale triple is also its gold, so retrieving it is no stale hit
    assert tri(sc.stale_hit, sc.stale_defined) == [False, None, None, True, None, None, False, None]
    assert tri(sc.dist_hit, sc.dist_defined) == [True, None, None, None, None, None, None, None]
    # wrong reason: a negative hit while CCR is 0 (q4); q1 hit its distractor but found the chain
    wrong, defined = sc.wrong_reason
    assert tri(wrong, defined) == [False, None, None, True, None, None, False, None]


def test_measures_hand_worked_per_question() -> None:
    sc = score(parse_measures(["R@1", "P@2", "MRR", "nDCG@2", "TRP@1", "CCR@2"]))
    got = {name: optional(*v) for name, v in sc.measures.items()}
    #                                q1   q2   q3   q4   q5    q6   q7   q8
    assert got["R@1"] == [0.5, 0.0, 0.0, 0.0, None, 0.0, 1.0, 1.0]  # q5 has no valid gold: undefined
    assert got["P@2"] == [0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.5]  # divided by 2 even when fewer were returned
    # q1 after de-duplication: A (relevant), D, B (relevant) at ranks 1, 2, 3
    assert got["MRR"] == [1.0, 0.0, 0.0, 0.0, None, 0.0, 1.0, 1.0]
    assert got["nDCG@2"] == pytest.approx([1 / (1 + 1 / np.log2(3)), 0, 0, 0, None, 0, 1, 1])
    assert got["TRP@1"] == [1.0, None, 0.0, 0.0, 0.0, None, 1.0, 1.0]
    assert got["CCR@2"] == [0.0, 0, 0, 0, 0, 0, 1, 1]  # q1's B is at rank 3 after de-duplication


def make_case(seed: int, n: int = 120) -> tuple[list[Question], dict[str, FunctionalFlags], Run]:
    """Random questions and a run with duplicates, open ends, unknown starts, month granularity, negatives."""
    rng = random.Random(seed)

    def rand_triple() -> Triple:
        a, b = rng.randint(1990, 1996), rng.randint(1990, 1996)
        end = None if rng.random() < 0.1 else str(max(a, b))
        start = None if rng.random() < 0.05 else str(min(a, b))
        return Triple(rng.choice("abc"), rng.choice("rs"), rng.choice("xyz"), start, end)

    qs, flags, hits = [], {}, {}
    for i in range(n):
        gold = tuple(rand_triple() for _ in range(rng.randint(0, 3)))
        stale = tuple(rand_triple() for _ in range(rng.randint(0, 2)))
        dist = tuple(rand_triple() for _ in range(rng.randint(0, 2)))
        qs.append(
            Question(
                f"q{i}", "test", "?", str(rng.randint(1990, 1996)), gold, S_dist=dist, S_stale=stale,
                as_of=rng.choice([None, "1995"]), granularity=rng.choice(["year", "year", "month"]),
            )
        )  # fmt: skip
        flags[f"q{i}"] = FunctionalFlags(f"q{i}", rng.random() < 0.7, rng.random() < 0.7)
        if rng.random() < 0.9:
            pool = [*gold, *stale, *dist]
            hits[f"q{i}"] = [
                (rng.choice(pool) if pool and rng.random() < 0.5 else rand_triple()).to_dict()
                for _ in range(rng.randint(0, 12))
            ]
    return qs, flags, Run.from_mapping("r", hits)


def as_lists(sc: RunScores) -> dict[str, Any]:
    out: dict[str, Any] = {
        "n": sc.n_retrieved.tolist(),
        "trp": optional(*sc.trp),
        "ccr": sc.ccr.tolist(),
        "stale": tri(sc.stale_hit, sc.stale_defined),
        "dist": tri(sc.dist_hit, sc.dist_defined),
        "wrong": tri(*sc.wrong_reason),
    }
    return out | {name: optional(*v) for name, v in sc.measures.items()}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_way_of_reading_a_run_scores_the_same(seed: int, tmp_path: Path) -> None:
    qs, flags, run = make_case(seed)
    gold = gold_columns(qs, flags)
    path = tmp_path / "r.run.jsonl"
    with path.open("w") as fh:
        for qid, hs in run.hits.items():
            # shuffle file order but keep ranks: the reader must sort by rank
            ranked = [{**h.to_dict(), "rank": j + 1, "doc_id": "d"} for j, h in enumerate(hs)]
            random.Random(seed).shuffle(ranked)
            fh.write(json.dumps({"qid": qid, "hits": ranked}) + "\n")
    columnar = read_run(path, columnar=True)
    assert columnar.columns is not None  # read by pyarrow, not line by line
    lines = read_run(path)
    assert lines.columns is None and lines.lines == columnar.lines
    ms = parse_measures(["R@3", "nDCG@5", "MRR@2", "P@3", "TRP@2", "CCR", "CCR@2"])
    expected = as_lists(score_run(gold, hits_from_run(run, qs), ms))
    assert any(x is not None for x in expected["stale"]) and 0 < sum(expected["ccr"]) < len(qs)
    for read in (columnar, lines):
        assert as_lists(score_run(gold, hits_from_run(read, qs), ms)) == expected


def test_ccr_measure_without_cutoff_is_the_evidence_ccr() -> None:
    qs, flags, run = make_case(3)
    sc = score_run(gold_columns(qs, flags), hits_from_run(run, qs), (Measure("CCR"), Measure("CCR", 1000)))
    assert sc.measures["CCR"][0].tolist() == sc.ccr.tolist() == sc.measures["CCR@1000"][0].tolist()


def test_file_reader_falls_back_on_numeric_times(tmp_path: Path) -> None:
    qs = [Question("q0", "test", "?", "1994", (Triple("a", "r", "b", "1994", "1994"),))]
    path = tmp_path / "x.run.jsonl"
    path.write_text(
        json.dumps({"qid": "q0", "hits": [{"s": "a", "r": "r", "o": "b", "t_start": 1994.0, "t_end": 1994}]}) + "\n"
    )
    run = read_run(path, columnar=True)
    assert run.columns is None  # the line reader handles TempBench float years
    assert run.lines[0].hits[0].t_start == 1994.0
    sc = score_run(gold_columns(qs), hits_from_run(run, qs))
    assert sc.ccr.tolist() == [1.0]
