"""KG builder: the intermediate entities of multi-hop questions are one in the world, and never hubs.

A hand-made YAGO graph whose questions were worked by hand, built with the shipped phrase table (whose
``[bridges]`` declares birth and death places lifelong and marriage one at a time, and team membership not at
all) and with the same table less its ``[bridges]`` (no bridge or hub rule), where the questions the rules
remove are asked. The independent checker (``kg_checker.bridge_errors``) counts none in the first build and
every one in the second.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
from chronoqa.generate.kg.phrases import load_phrase_table
from chronoqa.records import Question, TemporalGraph
from kg_checker import PHRASES, Checker, bridge_errors, check_all, defect_report, open_end_of
from test_kg_build import fact, labels_of, rel_labels

YAGO = PHRASES / "yago11k.toml"

# Worked by hand:
# * Ann was married to Bob 1990-2000; Bob played for Reds 1985-1995 and Blues 1996-2005. "Which team did the
#   spouse of Ann play for in 1997?" (Blues) is asked only strictly inside the marriage (1991-1999): in 1990 or
#   2000 Ann may have had another spouse that year. "When did the spouse of Ann join Blues?" names the spouse
#   with no time (many remarry): it is asked only pinned, "the spouse of Ann as of 1993", a year strictly
#   inside the marriage other than the answer's (Cal also joined Blues, so Blues' own facts do not give the
#   year away). Bob joined Reds in 1985 and left in 1995, joined Blues in 1996 and left in 2005.
# * Dan was married to Eve 2000-2001: no year strictly inside, so the spouse of Dan is never pinned nor asked.
# * 25 other players played for Reds (a hub: the 1% of entities with the most facts, 20 or more), so "Which
#   team did the spouse of Ann play for in 1993?" (Reds) is never asked; asked of Bob alone it is (1 hop).
HAND = [
    ("Ann", "isMarriedTo", "Bob", 1990, 2000), ("Bob", "playsFor", "Reds", 1985, 1995),
    ("Bob", "playsFor", "Blues", 1996, 2005), ("Cal", "playsFor", "Blues", 2001, 2004),
    *[(f"Player_{chr(65 + i)}", "playsFor", "Reds", 1900 + 2 * i, 1901 + 2 * i) for i in range(25)],
    ("Dan", "isMarriedTo", "Eve", 2000, 2001), ("Eve", "playsFor", "Greens", 1998, 2003),
    ("Fay", "playsFor", "Greens", 1999, 2002),
]  # fmt: skip
BOB_TIMES = {("start", "Reds"): "1985", ("end", "Reds"): "1995", ("start", "Blues"): "1996", ("end", "Blues"): "2005"}
FACTS = [fact(i, *row) for i, row in enumerate(HAND)]
GRAPH = TemporalGraph("hand", FACTS, labels_of(FACTS), rel_labels(FACTS))
SPOUSE_TEAM = ("<isMarriedTo>", "<playsFor>")


def _build(phrases: str | Path) -> list[Question]:
    cfg = KGBuildConfig(n_questions=400, seed=3, max_answer_share=1.0)
    return build_kg_benchmark(GRAPH, cfg, phrases=phrases).questions


def _rels(q: Question) -> tuple[str, ...]:
    return tuple(step["r"] for step in q.logical_form["path"])


def _no_bridges(tmp_path: Path) -> Path:
    text = YAGO.read_text(encoding="utf-8")
    start = text.index("[bridges]")
    out = tmp_path / "no_bridges.toml"
    out.write_text(text[:start] + text[text.index("[relations.playsFor]") :], encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def ruled() -> list[Question]:
    return _build("yago11k")


def test_timed_bridges_only_strictly_inside_their_fact(ruled: list[Question]) -> None:
    spouse_team = [q for q in ruled if _rels(q) == SPOUSE_TEAM and q.operator in ("point_in_time", "yes_no")]
    assert spouse_team, "the spouse's team is asked at some year inside the marriage"
    for q in spouse_team:
        assert 1990 < int(q.t_query) < 2000, q.question
    assert {q.answers for q in spouse_team if q.operator == "point_in_time"} == {("Blues",)}


def test_time_free_and_hub_bridges_are_not_asked(ruled: list[Question], tmp_path: Path) -> None:
    def removed(qs: list[Question]) -> list[Question]:  # the spouse named with no time, or the hub answering
        return [
            q for q in qs
            if _rels(q) == SPOUSE_TEAM
            and ((q.operator == "interval" and "at" not in q.logical_form["path"][0]) or q.answers == ("Reds",))
        ]  # fmt: skip

    assert removed(ruled) == []
    assert any(q.answers == ("Reds",) and q.hops == 1 for q in ruled), "a hub may answer a 1-hop question"
    loose = _build(_no_bridges(tmp_path))  # the same table with no [bridges]: the removed questions are asked
    assert {q.operator for q in removed(loose)} >= {"interval", "point_in_time"}
    assert ("1996",) in [q.answers for q in removed(loose) if q.operator == "interval"]
    checker = Checker.from_table(GRAPH, YAGO, open_end="unknown")
    assert check_all(checker, ruled) == []
    assert defect_report(checker, ruled)["bridge or hub"] == []
    counted = {m.split(":")[0] for m in defect_report(checker, loose)["bridge or hub"]}
    assert {q.id for q in removed(loose)} <= counted  # the checker finds every one of them


def test_bridge_declarations_are_checked(tmp_path: Path) -> None:
    text = YAGO.read_text(encoding="utf-8")
    for old, new, match in [
        ('"wasBornIn object"', '"wasBornIn middle"', r"bridges entry 'wasBornIn middle': expected '<relation key"),
        ('holds = "lifelong", reason = "one is born', 'holds = "forever", reason = "one is born', r"holds = "),
        ('"diedIn object"', '"diesIn object"', r"bridges entry 'diesIn object'"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text.replace(old, new), encoding="utf-8")
        with pytest.raises(ChronoqaError, match=match):
            load_phrase_table(bad)
    table = load_phrase_table(YAGO)
    assert table.bridges[("isMarriedTo", "object")][0] == "at a time"
    assert ("playsFor", "object") not in table.bridges
    assert open_end_of({"open_end": {"reading": "unknown"}}) == "unknown"


def test_time_free_bridges_are_pinned_strictly_inside_their_fact(ruled: list[Question]) -> None:
    pinned = [q for q in ruled if _rels(q) == SPOUSE_TEAM and q.operator == "interval"]
    assert pinned, "the spouse's joining and leaving are asked, the spouse pinned to a year"
    for q in pinned:
        at = q.logical_form["path"][0]["at"]
        assert q.logical_form["anchor"] == "<Ann>" and 1990 < int(at) < 2000 and at != q.t_query, q.question
        assert f"the person married to Ann in {at}" in q.question  # the dated description (object_at)
        assert q.answers == (BOB_TIMES[(q.logical_form["variant"], q.logical_form["final_other"][1:-1])],)
    assert len({q.logical_form["path"][0]["at"] for q in pinned}) > 1 or len(pinned) == 1  # drawn, not fixed
    assert not [q for q in ruled if q.logical_form["anchor"] == "<Dan>" and len(q.logical_form["path"]) > 1]
    assert [q.logical_form for q in _build("yago11k")] == [q.logical_form for q in ruled]  # same seed, same pins


def test_the_checker_reads_a_pinned_bridge_at_its_time(ruled: list[Question]) -> None:
    checker = Checker.from_table(GRAPH, YAGO, open_end="unknown")
    q = next(q for q in ruled if _rels(q) == SPOUSE_TEAM and q.operator == "interval")
    path = [dict(step) for step in q.logical_form["path"]]
    for at, flagged in (("1990", True), ("1999", False), (None, True)):  # 1990: the marriage's first year
        if at is None:
            path[0].pop("at")
        else:
            path[0]["at"] = at
        text = q.question.replace(q.logical_form["path"][0]["at"], at or "")
        moved = dataclasses.replace(q, logical_form={**q.logical_form, "path": path}, question=text)
        assert bool(bridge_errors(checker, [moved])) is flagged, at


# Worked by hand, a value that changes near the asked year: Amy was married to Ben 1998-2000 and to Cy 2000-2002.
# "Who was Amy married to in t?" has one answer in the graph in 1999 (Ben) and 2001 (Cy), the units strictly inside
# each marriage (a start or end unit is never asked), but each lies within a
# year of the other marriage's start or end: at year granularity the spouse is not one answer (Rogers, Pepper and
# Ayres; Kyiv's rulers in 1918), so Amy's spouse is never asked at a time. Zoe, married to Max 1950-1960 and Ned
# 1970-1980, is asked in the calm years. Without the [bridges] table (marriage not declared one at a time) Amy's
# spouse is asked.
TURN = [
    fact(0, "Amy", "isMarriedTo", "Ben", 1998, 2000), fact(1, "Amy", "isMarriedTo", "Cy", 2000, 2002),
    fact(2, "Zoe", "isMarriedTo", "Max", 1950, 1960), fact(3, "Zoe", "isMarriedTo", "Ned", 1970, 1980),
]  # fmt: skip
TURN_GRAPH = TemporalGraph("turn", TURN, labels_of(TURN), rel_labels(TURN))


def test_a_value_is_not_asked_within_a_year_of_its_change(tmp_path: Path) -> None:
    def amy_asked(qs: list[Question]) -> list[Question]:
        return [q for q in qs if q.operator == "point_in_time" and q.logical_form["anchor"] == "<Amy>"]

    cfg = KGBuildConfig(n_questions=400, seed=3, max_answer_share=1.0)
    ruled = build_kg_benchmark(TURN_GRAPH, cfg, phrases="yago11k").questions
    loose = build_kg_benchmark(TURN_GRAPH, cfg, phrases=_no_bridges(tmp_path)).questions
    assert amy_asked(ruled) == []
    assert any(q.operator == "point_in_time" and q.logical_form["anchor"] == "<Zoe>" for q in ruled)
    assert {q.answers for q in amy_asked(loose)} == {("Ben",), ("Cy",)}
    checker = Checker.from_table(TURN_GRAPH, YAGO, open_end="unknown")
    assert defect_report(checker, ruled)["value changes near the time"] == []
    counted = {m.split(" ")[0] for m in defect_report(checker, loose)["value changes near the time"]}
    assert {q.id for q in amy_asked(loose)} <= counted
