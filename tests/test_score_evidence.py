"""TRP / CCR / coverage and the negative-aware rates, pinned on hand-worked examples and properties."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronoqa.records import Question, Triple
from chronoqa.score.evidence import triple_key
from chronoqa.score.tempbench import aggregate, score_question


def tb(s: str, r: str, o: str, ts: Any, te: Any) -> dict[str, Any]:
    return {"s": s, "r": r, "o": o, "t_start": ts, "t_end": te}


# Four TempBench-format questions (float years, as TempBench ships them).
Q1 = {
    "id": "q1",
    "split": "test",
    "question": "In 1994 ...?",
    "t_query": 1994.0,
    "complexity": "2-hop",
    "operator": "point_in_time",
    "S_star": [tb("A", "r1", "B", 1994.0, 1994.0), tb("B", "r2", "C", 1994.0, 1994.0)],
    "S_dist": [tb("A", "r1", "D", 1994.0, 1994.0)],
    "S_stale": [tb("A", "r1", "B", 1990.0, 1990.0)],
}
Q2 = {
    "id": "q2",
    "split": "test",
    "question": "...",
    "t_query": 2000.0,
    "complexity": "1-hop",
    "operator": "interval",
    "S_star": [tb("E", "r3", "F", 1999.0, 2001.0)],
    "S_dist": [],
    "S_stale": [],
}
Q3 = {
    "id": "q3",
    "split": "test",
    "question": "...",
    "t_query": 2005.0,
    "complexity": "1-hop",
    "operator": "point_in_time",
    "S_star": [tb("G", "r4", "H", 2005.0, 2005.0)],
    "S_dist": [],
    "S_stale": [tb("G", "r4", "H", 2003.0, 2003.0)],
}
Q4 = {
    "id": "q4",
    "split": "test",
    "question": "...",
    "t_query": 2010.0,
    "complexity": "1-hop",
    "operator": "before_after",
    "S_star": [tb("I", "r5", "J", 2010.0, 2010.0)],
    "S_dist": [],
    "S_stale": [],
}

RETRIEVED = {
    # 3 distinct triples (ints, strings and a tuple mixed), 2 of them time-valid gold -> TRP 2/3, CCR 1, dist hit.
    "q1": [tb("A", "r1", "B", 1994, 1994), ("B", "r2", "C", "1994", "1994"), tb("A", "r1", "D", 1994, 1994)],
    # the same gold triple twice -> deduplicated: TRP 1/1, CCR 1.
    "q2": [tb("E", "r3", "F", 1999, 2001), ("E", "r3", "F", "1999", "2001")],
    # only the stale fact -> TRP 0, CCR 0, stale hit while gold missing -> wrong reason.
    "q3": [tb("G", "r4", "H", 2003.0, 2003.0)],
    # nothing -> TRP undefined, CCR 0.
    "q4": [],
}


def test_hand_worked_rows() -> None:
    r1 = score_question(Q1, RETRIEVED["q1"])
    assert r1["n_retrieved"] == 3 and r1["n_valid_hits"] == 2
    assert r1["TRP"] == pytest.approx(2 / 3) and r1["CCR"] == 1.0
    assert r1["dist_hit"] is True and r1["stale_hit"] is False and r1["wrong_reason"] is False
    r2 = score_question(Q2, RETRIEVED["q2"])
    assert (r2["n_retrieved"], r2["TRP"], r2["CCR"]) == (1, 1.0, 1.0)
    assert r2["stale_hit"] is None and r2["wrong_reason"] is None
    r3 = score_question(Q3, RETRIEVED["q3"])
    assert (r3["TRP"], r3["CCR"], r3["stale_hit"], r3["wrong_reason"]) == (0.0, 0.0, True, True)
    r4 = score_question(Q4, RETRIEVED["q4"])
    assert r4["TRP"] is None and r4["CCR"] == 0.0 and r4["n_retrieved"] == 0


def test_hand_worked_aggregate() -> None:
    rows = [score_question(q, RETRIEVED[q["id"]]) for q in (Q1, Q2, Q3, Q4)]
    agg = aggregate(rows)
    assert agg["n_questions"] == 4
    assert agg["coverage"] == pytest.approx(3 / 4)  # q4 retrieved nothing
    assert agg["TRP_macro"] == pytest.approx((2 / 3 + 1 + 0) / 3)  # = 5/9, q4 excluded (undefined)
    assert agg["CCR"] == pytest.approx(2 / 4)  # q1, q2 complete; q4 counts as 0
    c1 = agg["by_complexity"]["1-hop"]  # q2, q3, q4
    assert (c1["n_questions"], c1["coverage"], c1["TRP_macro"], c1["CCR"]) == (3, 2 / 3, 0.5, pytest.approx(1 / 3))
    c2 = agg["by_complexity"]["2-hop"]
    assert (c2["n_questions"], c2["TRP_macro"], c2["CCR"]) == (1, pytest.approx(2 / 3), 1.0)
    assert list(agg["by_complexity"]) == ["1-hop", "2-hop"]
    ops = agg["by_operator"]
    assert sorted(ops) == ["before_after", "interval", "point_in_time"]
    assert ops["before_after"]["TRP_macro"] is None and ops["before_after"]["coverage"] == 0.0
    assert ops["point_in_time"]["TRP_macro"] == pytest.approx((2 / 3 + 0) / 2)
    # stale hit defined on q1, q3 (they have S_stale): 1 of 2; dist on q1 only: 1 of 1;
    # wrong reason defined on q1, q3: q3 only -> 1/2.
    assert agg["stale_hit_rate"] == 0.5 and agg["dist_hit_rate"] == 1.0 and agg["wrong_reason_rate"] == 0.5


def test_time_validity_is_part_of_trp_and_ccr() -> None:
    # S* fact held 1990-1992; asked about 1994: the gold is not time-valid, so even the oracle scores 0.
    q = {"id": "x", "t_query": 1994.0, "S_star": [tb("X", "r", "Y", 1990, 1992)], "complexity": "1-hop"}
    row = score_question(q, [tb("X", "r", "Y", 1990, 1992)])
    assert (row["TRP"], row["CCR"]) == (0.0, 0.0)
    # An open end is valid up to the question's as_of; an unknown start is never *certainly* valid.
    qq = Question(
        id="y",
        split="test",
        question="?",
        t_query="2015",
        S_star=(Triple("X", "r", "Y", "2010", None),),
        as_of="2020-01-01",
    )
    assert score_question(qq, [("X", "r", "Y", "2010", None)])["CCR"] == 1.0
    q_late = {"id": "z", "t_query": "2021", "as_of": "2020", "S_star": [tb("X", "r", "Y", "2010", None)]}
    assert score_question(q_late, [tb("X", "r", "Y", "2010", None)])["TRP"] == 0.0
    q_unknown = {"id": "u", "t_query": "2015", "S_star": [tb("X", "r", "Y", None, "2018")]}
    assert score_question(q_unknown, [tb("X", "r", "Y", None, "2018")])["CCR"] == 0.0
    assert score_question(q_unknown, [tb("X", "r", "Y", None, "2018")], mode="possible")["CCR"] == 1.0
    # Month granularity: a fact from 2014-03 is not valid at 2014-02.
    qm = {"id": "m", "t_query": "2014-02", "granularity": "month", "S_star": [tb("X", "r", "Y", "2014-03", "2015")]}
    assert score_question(qm, [tb("X", "r", "Y", "2014-03", "2015")])["TRP"] == 0.0


def test_identity_normalises_times_and_rejects_garbage() -> None:
    assert triple_key(tb("a", "b", "c", 1994.0, "1994")) == triple_key(("a", "b", "c", 1994, 1994.0))
    assert triple_key(("a", "b", "c", "1994-03-01T00:00:00Z", None)) == ("a", "b", "c", "1994-03-01", None)
    with pytest.raises(Exception, match="5-tuple"):
        triple_key(("a", "b", "c"))
    with pytest.raises(Exception, match="no 'o'"):
        triple_key({"s": "a", "r": "b"})


def test_question_record_and_dict_score_the_same() -> None:
    qrec = Question.from_dict(Q1)
    assert score_question(qrec, RETRIEVED["q1"]) == score_question(Q1, RETRIEVED["q1"])


def test_oracle_gives_ccr_1_and_empty_lowers_coverage() -> None:
    qs = [Q1, Q2, Q3, Q4]
    oracle = aggregate([score_question(q, q["S_star"]) for q in qs])
    assert oracle["CCR"] == 1.0 and oracle["TRP_macro"] == 1.0 and oracle["coverage"] == 1.0
    empty = aggregate([score_question(q, []) for q in qs])
    assert empty["coverage"] == 0.0 and empty["CCR"] == 0.0 and empty["TRP_macro"] is None
    half = aggregate([score_question(q, q["S_star"] if q["id"] in ("q1", "q2") else []) for q in qs])
    assert half["coverage"] == 0.5 and half["CCR"] == 0.5 and half["TRP_macro"] == 1.0


def _trap_questions() -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """Six 1-hop questions: 3 with a functional stale negative, 3 whose 'stale' fact equals the gold."""
    qs, flags = [], {}
    for i in range(6):
        functional = i % 2 == 0
        gold = tb(f"S{i}", "r", f"O{i}", 2000.0 + i, 2000.0 + i)
        stale = tb(f"S{i}", "r", f"O{i}", 1990.0 + i, 1990.0 + i) if functional else dict(gold)
        qs.append(
            {
                "id": f"t{i}",
                "split": "test",
                "question": f"In {2000 + i}, ...?",
                "t_query": 2000.0 + i,
                "complexity": "1-hop",
                "operator": "point_in_time",
                "S_star": [gold],
                "S_dist": [],
                "S_stale": [stale],
            }
        )
        flags[f"t{i}"] = {"id": f"t{i}", "dist_functional": True, "stale_functional": functional}
    return qs, flags


def test_readme_trap_functional_subset() -> None:
    qs, flags = _trap_questions()
    everything = aggregate([score_question(q, q["S_stale"]) for q in qs])
    assert everything["TRP_macro"] == 0.5  # the non-functional half "leaks": 3 of 6 questions score 1
    sub = [q for q in qs if flags[q["id"]]["stale_functional"]]
    restricted = aggregate([score_question(q, q["S_stale"]) for q in sub])
    assert restricted["TRP_macro"] == 0.0 and restricted["CCR"] == 0.0


QUICKSTART = """
import json

test = [json.loads(l) for l in open('benchmark/benchmark_labelled.jsonl',
                                    encoding='utf-8')]
test = [q for q in test if q['split'] == 'test']          # 1,743 questions

q = test[0]
q['question']    # 'In 1994, what was ... ?'
q['t_query']     # 1994.0  -- the time the question is asked about
q['S_star']      # [{'s':..., 'r':..., 'o':..., 't_start':..., 't_end':...}, ...]
q['S_dist']      # same (s,r), wrong object
q['S_stale']     # same (s,r,o), wrong time

from tempbench_eval import score_question, aggregate

rows = [score_question(q, my_retriever(q['question'], q['t_query']))
        for q in test]
print(aggregate(rows))

flags = {json.loads(l)['id']: json.loads(l)
         for l in open('benchmark/functional_negatives.jsonl', encoding='utf-8')}
sub = [q for q in test if flags[q['id']]['stale_functional']]
"""


def test_seed_readme_quickstart_runs_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    qs, flags = _trap_questions()
    qs = [*qs, {**Q1, "split": "train"}]
    (tmp_path / "benchmark").mkdir()
    (tmp_path / "benchmark" / "benchmark_labelled.jsonl").write_text(
        "".join(json.dumps(q) + "\n" for q in qs), encoding="utf-8"
    )
    (tmp_path / "benchmark" / "functional_negatives.jsonl").write_text(
        "".join(json.dumps(f) + "\n" for f in flags.values()), encoding="utf-8"
    )
    shim = tmp_path / "code"
    shim.mkdir()
    (shim / "tempbench_eval.py").write_text("from chronoqa.score.tempbench_eval import aggregate, score_question\n")
    monkeypatch.syspath_prepend(str(shim))
    monkeypatch.chdir(tmp_path)
    by_question = {q["question"]: q for q in qs}

    def my_retriever(question: str, t_query: float) -> list[tuple[Any, ...]]:
        q = by_question[question]
        assert isinstance(t_query, float)
        return [tuple(t[k] for k in ("s", "r", "o", "t_start", "t_end")) for t in q["S_stale"]]

    ns: dict[str, Any] = {"my_retriever": my_retriever}
    exec(compile(QUICKSTART, "quickstart", "exec"), ns)
    out = capsys.readouterr().out
    assert "'n_questions': 6" in out and "'TRP_macro': 0.5" in out
    sub_rows = [score_question(q, my_retriever(q["question"], q["t_query"])) for q in ns["sub"]]
    assert len(ns["sub"]) == 3
    agg = aggregate(sub_rows)
    assert (agg["TRP_macro"], agg["CCR"]) == (0.0, 0.0)


# ------------------------------------------------------------------------------------------------
# Properties, checked against an independent brute force of TempBench's text definitions.
# ------------------------------------------------------------------------------------------------

YEARS = st.integers(1990, 1996)


@st.composite
def triple_st(draw: st.DrawFn) -> tuple[str, str, str, int, int]:
    a, b = draw(YEARS), draw(YEARS)
    return (
        draw(st.sampled_from("abc")),
        draw(st.sampled_from("rs")),
        draw(st.sampled_from("xyz")),
        min(a, b),
        max(a, b),
    )


@st.composite
def case_st(draw: st.DrawFn) -> tuple[dict[str, Any], list[tuple[str, str, str, int, int]]]:
    gold = draw(st.lists(triple_st(), min_size=1, max_size=3, unique=True))
    retrieved = draw(st.lists(triple_st() | st.sampled_from(gold), max_size=6))
    q = {"id": "p", "t_query": float(draw(YEARS)), "complexity": "1-hop", "S_star": [tb(*t) for t in gold]}
    return q, retrieved


def brute(q: dict[str, Any], retrieved: list[tuple[str, str, str, int, int]]) -> tuple[float | None, float]:
    tq = q["t_query"]
    gold = {(t["s"], t["r"], t["o"], t["t_start"], t["t_end"]) for t in q["S_star"]}
    valid_gold = {g for g in gold if g[3] <= tq <= g[4]}
    distinct = set(retrieved)
    trp = len(distinct & valid_gold) / len(distinct) if distinct else None
    ccr = 1.0 if gold <= distinct and valid_gold == gold else 0.0
    return trp, ccr


@settings(max_examples=300, deadline=None)
@given(case_st())
def test_properties_match_brute_force_and_bounds(case: tuple[dict[str, Any], list[Any]]) -> None:
    q, retrieved = case
    q_before, r_before = copy.deepcopy(q), copy.deepcopy(retrieved)
    row = score_question(q, retrieved)
    assert q == q_before and retrieved == r_before  # inputs not mutated
    trp, ccr = brute(q, retrieved)
    assert row["TRP"] == (None if trp is None else pytest.approx(trp))
    assert row["CCR"] == ccr
    assert row["TRP"] is None or 0.0 <= row["TRP"] <= 1.0
    assert row["CCR"] in (0.0, 1.0)


@settings(max_examples=300, deadline=None)
@given(case_st(), st.data())
def test_adding_gold_valid_never_lowers_ccr_and_non_gold_never_raises_trp(
    case: tuple[dict[str, Any], list[Any]], data: st.DataObject
) -> None:
    q, retrieved = case
    base = score_question(q, retrieved)
    gold = [(t["s"], t["r"], t["o"], t["t_start"], t["t_end"]) for t in q["S_star"]]
    valid = [g for g in gold if g[3] <= q["t_query"] <= g[4]]
    if valid:
        g = data.draw(st.sampled_from(valid))
        more = score_question(q, [*retrieved, g])
        assert more["CCR"] >= base["CCR"]
    extra = data.draw(triple_st())
    if triple_key(extra) not in {triple_key(g) for g in gold}:
        after = score_question(q, [*retrieved, extra])
        if base["TRP"] is not None:
            assert after["TRP"] is not None and after["TRP"] <= base["TRP"]
