"""Partial time credit (T_half, T_loose), outcome classes and the join hop: hand-worked cases.

Each expected verdict is worked out by hand from the gold term (Hu Jintao, President of China, 15 March 2003
to 14 March 2013, day-level data) and the text, not by re-running the judge in another way.
"""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.artifacts.release import load_release
from chronoqa.records import Doc, Question, Triple
from chronoqa.score.answers import AnswerOutcome
from chronoqa.score.candidates import Judging
from chronoqa.score.outcomes import OUTCOME_CLASSES, class_metrics, hidden_hop, intermediate_hop, outcome_class
from chronoqa.score.time_accuracy import TimeRow, score_time

HU = Triple(
    "China, President", "name", "Hu Jintao", "2003-03-15", "2013-03-14", "China | President", "Name", "Hu Jintao"
)
XI = Triple("China, President", "name", "Xi Jinping", "2013-03-14", None, "China | President", "Name", "Xi Jinping")
JIANG = Triple(
    "China, President", "name", "Jiang Zemin", "1993-03-27", "2003-03-15", "China | President", "Name", "Jiang Zemin"
)


def _q(**kw: Any) -> Question:
    base: dict[str, Any] = {
        "id": "q",
        "split": "test",
        "question": "Who was the President of China whose term contained 1 June 2008?",
        "t_query": None,
        "S_star": (HU,),
        "S_dist": (XI, JIANG),
        "source": "table",
        "operator": "allen",
        "allen": "contains",
        "answers": ("Hu Jintao",),
        "answer_ids": ("Hu Jintao",),
        "granularity": "day",
        "as_of": "2024-12-13",
        "time_refs": (
            {"which": "start", "value": "2003-03-15", "answer": "Hu Jintao"},
            {"which": "end", "value": "2013-03-14", "answer": "Hu Jintao"},
        ),
    }
    base.update(kw)
    return Question(**base)


def _rec(answer: str, expl: str | None) -> AnswerRecord:
    return AnswerRecord("q", "test", "ok", answer, expl)


ENTITIES = ("Hu Jintao", "Xi Jinping", "Jiang Zemin")


@pytest.mark.parametrize(
    ("expl", "t", "half", "loose"),
    [
        # both ends, to the day
        ("Hu Jintao was president from 15 March 2003 to 14 March 2013.", True, True, True),
        # the start right, the end a wrong year: half only (2015 contradicts 2013 at any granularity)
        ("Hu Jintao was president from 15 March 2003 to 14 March 2015.", False, True, False),
        # months only: coarser than the day-level question, so no end is stated at day level; right by year
        ("Hu Jintao was president from March 2003 to March 2013.", False, False, True),
        ("Hu Jintao served from 2003 until 2013.", False, False, True),
        # the start alone, to the day: one end right, the end missing (loose needs every end)
        ("Hu Jintao took office on 15 March 2003.", False, True, False),
        # the right years but one day wrong: T fails on the contradiction, half has the end, loose compares years
        ("Hu Jintao was president from 16 March 2003 to 14 March 2013.", False, True, True),
        # another person's term: nothing stated for Hu's fact
        ("Jiang Zemin served from 27 March 1993 to 15 March 2003.", False, False, False),
        ("No dates given.", False, False, False),
    ],
)
def test_partial_time_credit_careful(expl: str, t: bool, half: bool, loose: bool) -> None:
    row = score_time(_q(), _rec("Hu Jintao", expl), True, entities=ENTITIES)
    assert (row.T, row.T_half, row.T_loose) == (t, half, loose)


def test_loose_equals_strict_t_on_year_level_questions() -> None:
    year_q = _q(
        granularity="year",
        time_refs=(
            {"which": "start", "value": "2003", "answer": "Hu Jintao"},
            {"which": "end", "value": "2013", "answer": "Hu Jintao"},
        ),
    )
    for expl, expected in (("Hu Jintao served from 2003 to 2013.", True), ("Hu Jintao served 2003-2012.", False)):
        row = score_time(year_q, _rec("Hu Jintao", expl), True, entities=ENTITIES)
        assert row.T is expected and row.T_loose is expected
    # one end right at year level
    assert score_time(year_q, _rec("Hu Jintao", "Hu Jintao served 2003-2012."), True).T_half is True


def test_partial_time_credit_strict_rule() -> None:
    # the strict rule: a date anywhere in the text cites a reference of the same end
    row = score_time(_q(), _rec("Hu Jintao", "From 15 March 2003 to 2013."), True, mode="strict")
    assert (row.T, row.T_half, row.T_loose) == (False, True, True)
    row = score_time(_q(), _rec("Hu Jintao", "In 1990."), True, mode="strict")
    assert (row.T, row.T_half, row.T_loose) == (False, False, False)


def _outcome(outcome: str, correct: bool, intermediate: bool | None = None) -> AnswerOutcome:
    return AnswerOutcome("q", outcome, correct, 1, int(correct), 0, intermediate=intermediate)


def _row(t: bool | None, outdated_t: bool | None = None, half: bool | None = None) -> TimeRow:
    return TimeRow("q", False, t, 2, 0, T_half=half, outdated_T=outdated_t)


def test_outcome_classes_from_verdicts() -> None:
    assert outcome_class(_outcome("correct", True), _row(True)) == "right_holder_right_date"
    assert outcome_class(_outcome("correct", True), _row(False)) == "right_holder_wrong_date"
    assert outcome_class(_outcome("outdated", False), _row(False, True)) == "outdated_right_date"
    assert outcome_class(_outcome("outdated", False), _row(False, False)) == "outdated_wrong_date"
    for other in ("wrong", "abstain", "error", "missing", "undecided"):
        assert outcome_class(_outcome(other, False), _row(False)) == "other_wrong"
    assert outcome_class(_outcome("correct", True), _row(None)) is None  # no time reference: no class


def test_class_metrics_sum_to_one_and_bound_t() -> None:
    outs = [_outcome("correct", True), _outcome("correct", True), _outcome("outdated", False), _outcome("wrong", False)]
    rows = [_row(True), _row(False, half=True), _row(False, True), _row(None)]
    ans, tim = class_metrics(outs, rows)
    assert ans == {}  # no join question: no join metric
    den = tim["other_wrong"][1]
    assert den.tolist() == [1, 1, 1, 0]  # the question without a time reference has no class
    shares = sum(tim[c][0] for c in OUTCOME_CLASSES)
    assert shares.tolist() == den.tolist()  # each question with a T is in exactly one class
    assert tim["T_half"][0].tolist() == [1, 1, 0, 0]  # T counts as half credit; the outdated answer has no half
    assert tim["right_holder_wrong_date"][0].tolist() == [0, 1, 0, 0]
    assert tim["outdated_right_date"][0].tolist() == [0, 0, 1, 0]


NOW_Q = _q(
    question="As of 13 December 2024, who is the President of China?",
    t_query="2024-12-13",
    operator="time_alignment",
    allen=None,
    S_star=(XI,),
    S_dist=(HU, JIANG),
    answers=("Xi Jinping",),
    answer_ids=("Xi Jinping",),
    outdated_answers=("Hu Jintao", "Jiang Zemin"),
    time_refs=({"which": "start", "value": "2013-03-14", "answer": "Xi Jinping"},),
)


def _docs() -> list[Doc]:
    return [
        Doc(f"d{i}", f"{t.o} ({t.t_start}-{t.t_end})", t.s, t.r, t.o, t.t_start, t.t_end, t.s_id, t.r_id, t.o_id, i)
        for i, t in enumerate((HU, XI, JIANG))
    ]


@pytest.mark.parametrize(
    ("answer", "expl", "cls"),
    [
        ("Xi Jinping", "Xi Jinping has been president since 14 March 2013.", "right_holder_right_date"),
        ("Xi Jinping", "Xi Jinping has been president since 2012.", "right_holder_wrong_date"),
        # an outdated holder with his own start right (TDBench: "outdated"), or wrong ("partial outdated")
        ("Hu Jintao", "Hu Jintao has been president since 15 March 2003.", "outdated_right_date"),
        ("Hu Jintao", "Hu Jintao has been president since 14 March 2013.", "outdated_wrong_date"),
        ("Wen Jiabao", "Wen Jiabao since 2003.", "other_wrong"),
    ],
)
def test_outcome_classes_through_the_judge(answer: str, expl: str, cls: str) -> None:
    judging = Judging(_docs())
    rec = _rec(answer, expl)
    o = judging.answer(NOW_Q, rec)
    row = judging.time(NOW_Q, rec, o.correct, o.outcome)
    assert outcome_class(o, row) == cls


def test_outdated_holder_of_two_terms_may_cite_either() -> None:
    # Hu Jintao given a second, earlier term: a reply with the start of either term states his own dates
    early = Triple("China, President", "name", "Hu Jintao", "1990-01-01", "1991-01-01", "China | President", "Name")
    q = replace(NOW_Q, S_dist=(early, HU, JIANG))
    judging = Judging(_docs())
    for expl, cls in (
        ("Hu Jintao has been president since 15 March 2003.", "outdated_right_date"),
        ("Hu Jintao has been president since 1 January 1990.", "outdated_right_date"),
        ("Hu Jintao has been president since 1 January 1995.", "outdated_wrong_date"),
    ):
        rec = _rec("Hu Jintao", expl)
        o = judging.answer(q, rec)
        assert outcome_class(o, judging.time(q, rec, o.correct, o.outcome)) == cls, expl


HOWARD = Triple(
    "Australia, Prime Minister", "name", "John Howard", "1996-03-11", "2007-12-03", "Australia | Prime Minister"
)
JOIN_Q = _q(
    question="Who was the Prime Minister of the host country during the Sydney 2000 Olympic Games?",
    operator="temporal_join",
    allen=None,
    hops=2,
    S_star=(HOWARD,),
    answers=("John Howard",),
    answer_ids=("John Howard",),
    logical_form={"table": "olympic_leaders", "tfd": "Game_name,Role->Name", "key": ["Sydney 2000", "Prime Minister"]},
)


def test_join_hop_named_and_metrics() -> None:
    # the hidden hop is the fact row's key value the question does not state: the host country
    assert intermediate_hop(JOIN_Q, _rec("Paul Keating", "The 2000 Games were held in Australia.")) is True
    assert intermediate_hop(JOIN_Q, _rec("Tony Blair", "The Games were in Sydney, United Kingdom.")) is False
    assert intermediate_hop(JOIN_Q, _rec("x", "It was not Australia.")) is False  # negated
    assert intermediate_hop(_q(), _rec("Hu Jintao", "United States")) is None  # not a join question
    outs = [_outcome("wrong", False, True), _outcome("correct", True, True), _outcome("wrong", False, False)]
    outs.append(_outcome("correct", True, None))
    ans, _ = class_metrics(outs, [_row(True)] * 4)
    num, den = ans["join_intermediate_right"]
    assert num.tolist() == [1, 1, 0, 0] and den.tolist() == [1, 1, 1, 0]
    num, den = ans["join_wrong_given_intermediate"]
    assert float(np.sum(num)) / float(np.sum(den)) == 0.5  # of two right hops, one final answer wrong


def test_join_hop_is_the_host_country_on_tdbench_tables(mirror: Path, tmp_path: Path) -> None:
    from chronoqa.cli import app

    tables = mirror / "tdbench"
    out = tmp_path / "join"
    args = ["build", "table", str(tables / "dyknow_leaders.csv"), str(tables / "olympic.csv")]
    res = CliRunner().invoke(app, [*args, "--join", "olympic.csv:dyknow_leaders.csv", "--out", str(out)])
    assert res.exit_code == 0, res.output
    joins = [q for q in load_release(out).questions if q.operator == "temporal_join" and q.S_star]
    assert joins
    with (tables / "olympic.csv").open(encoding="utf-8") as f:
        countries = {row["Country"] for row in csv.DictReader(f)}
    for q in joins:
        hop = hidden_hop(q)
        # one hidden hop, a host country of the Olympic table, the one of the event row the question names
        assert len(hop) == 1 and hop[0] in countries, (q.question, hop)
        assert hop[0] in q.S_anchor[0].s_id.split(" | "), q.question
        assert hop[0].casefold() not in q.question.casefold()
