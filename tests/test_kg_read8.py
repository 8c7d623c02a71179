"""What the eighth blind read found, each rule on a hand-made graph whose expected outcome was worked by hand: a
spell of an ``exclusive`` relation that another value's start interrupts bears no end, length or "still in"; on a
graph, "next" is not asked across a gap.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from chronoqa.generate.kg import OPERATORS, KGBuildConfig, build_kg_benchmark
from chronoqa.generate.kg.operators import AnswerKind, Draft, Hop
from chronoqa.generate.kg.phrases import load_phrase_table
from chronoqa.generate.kg.tenure import INTERRUPTED, tenure_reason
from chronoqa.records import Question, TemporalGraph
from chronoqa.time import Granularity, TimePoint
from kg_checker import PHRASES, Checker, check_all, defect_report, interrupted_spells, open_end_of
from sql_index_fixtures import index_of
from test_kg_build import fact, labels_of, rel_labels
from test_kg_entity_rules import _built, asking

# Worked by hand (YAGO; isAffiliatedTo declares `exclusive`: one party at a time). Clay: Republican 1854-1903,
# Liberal Republican 1870-1872, Democrat 1872-1890: the Republican spell contains the Liberal Republicans' 1870
# start (interrupted); the Liberal Republican spell ends in 1872, the year the Democratic one starts (a switch, not
# an interruption); nothing starts inside the Democratic spell. Ann: Republican 1900-1910, Democrat 1910-1920 (a
# switch). Bob: Democrat 1950-1960 and Republican 1950-1955, both starting in 1950: each contains the other's start.
PARTIES = [
    fact(0, "Cassius_Clay", "isAffiliatedTo", "Republican_Party", 1854, 1903),
    fact(1, "Cassius_Clay", "isAffiliatedTo", "Liberal_Republican_Party", 1870, 1872),
    fact(2, "Cassius_Clay", "isAffiliatedTo", "Democratic_Party", 1872, 1890),
    fact(3, "Ann_Holm", "isAffiliatedTo", "Republican_Party", 1900, 1910),
    fact(4, "Ann_Holm", "isAffiliatedTo", "Democratic_Party", 1910, 1920),
    fact(5, "Bob_Lind", "isAffiliatedTo", "Democratic_Party", 1950, 1960),
    fact(6, "Bob_Lind", "isAffiliatedTo", "Republican_Party", 1950, 1955),
    fact(7, "Cassius_Clay", "wasBornIn", "Madison_County", 1810, 1810),
]
INTERRUPTED_SPELLS = {0, 5, 6}


def _index(roles: dict[int, dict[int, str]] | None = None):  # type: ignore[no-untyped-def]
    idx = index_of(PARTIES, {"<isAffiliatedTo>": False, "<wasBornIn>": True}, Granularity.YEAR, TimePoint(2026))
    idx.mark_interrupted([idx.rel_id["<isAffiliatedTo>"]], roles or {})
    return idx


def test_index_marks_the_spells_another_value_starts_in() -> None:
    idx = _index()
    assert {f.id for f in PARTIES if idx.interrupted(f.id)} == INTERRUPTED_SPELLS


def test_a_value_of_another_role_does_not_interrupt() -> None:
    idx = index_of(PARTIES, {"<isAffiliatedTo>": False, "<wasBornIn>": True}, Granularity.YEAR, TimePoint(2026))
    rel = idx.rel_id["<isAffiliatedTo>"]
    # the Liberal Republicans and the Democrats read as another role (as national teams beside clubs): Clay's
    # Republican spell and Bob's two spells stand, each alone in its role; the Liberal Republican spell ends as the
    # Democratic one starts
    other = {idx.ent_id[e]: "other" for e in ("<Liberal_Republican_Party>", "<Democratic_Party>")}
    idx.mark_interrupted([rel], {rel: other})
    assert {f.id for f in PARTIES if idx.interrupted(f.id)} == set()


def test_the_rule_rejects_ends_lengths_and_holding_on_of_an_interrupted_spell() -> None:
    idx = _index()
    rel, clay, rep = idx.rel_id["<isAffiliatedTo>"], idx.ent_id["<Cassius_Clay>"], idx.ent_id["<Republican_Party>"]

    def reason(op: str, variant: str, fid: int = 0, ref: int = -1) -> str | None:
        hop = Hop(fid, rel, True, clay, rep)
        return tenure_reason(idx, Draft(op, variant, clay, (hop,), 1860, (rep,), AnswerKind.ENTITY, ref_fid=ref))

    rejected = [("interval", "end"), ("duration", "plain"), ("yes_no", "yes"), ("yes_no", "no"), ("allen", "still")]
    assert [reason(op, v, ref=2 if op == "allen" else -1) for op, v in rejected] == [INTERRUPTED] * len(rejected)
    assert reason("interval", "start") is None  # the start of an interrupted spell stays usable
    assert reason("allen", "start_before_start", ref=2) is None
    assert reason("relative", "after_end", fid=7, ref=0) == INTERRUPTED  # counted from the interrupted end
    assert all(reason(op, v, fid=2, ref=4 if op == "allen" else -1) is None for op, v in rejected)  # Clay's Democrats


def test_no_question_reads_an_interrupted_spell(tmp_path: Path) -> None:
    b, checker = _built(PARTIES, asking(tmp_path, "isAffiliatedTo"), n=400)
    assert interrupted_spells(checker) == INTERRUPTED_SPELLS  # the checker's own reading agrees with the hand one
    assert defect_report(checker, b.questions)["interrupted spell"] == []
    durations = {q.S_star[-1].fact_id: q.answers[0] for q in b.questions if q.operator == "duration"}
    assert durations == {1: "2 years", 2: "18 years", 3: "10 years", 4: "10 years"}
    starts = [q for q in b.questions if q.operator == "interval" and q.logical_form["variant"] == "start"]
    assert 0 in {q.S_star[-1].fact_id for q in starts}  # "When did Clay become affiliated with the Republicans?"
    q = next(q for q in b.questions if q.operator == "duration")  # made by hand: the same question over fact 0
    made = dataclasses.replace(q, id="made", S_star=(dataclasses.replace(q.S_star[-1], fact_id=0),))
    assert [m.split(":")[0] for m in defect_report(checker, [made])["interrupted spell"]] == ["made"]


# Worked by hand (YAGO). Igor: Athletic 2005-2008, then Numancia 2010-2012 (a two-year gap: the graph may lack the
# club between), then Eibar from 2012 (no end: no "last" is asked of him). Ann: Reds 2000-2004, Blues 2005-2008
# (joined the year after: the data leaves the turn of 2004-05 empty, where a loan it lacks may sit). Cid: Owls
# 2001-2003, Hawks 2003-2006 (joined the year he left). "Next" is asked after Owls (Hawks) and after Numancia (Eibar)
# only, on any graph: with the table's `entity_subset` off too.
TEAMS = [
    fact(0, "Igor", "playsFor", "Athletic", 2005, 2008),
    fact(1, "Igor", "playsFor", "Numancia", 2010, 2012),
    fact(2, "Ann", "playsFor", "Reds", 2000, 2004),
    fact(3, "Ann", "playsFor", "Blues", 2005, 2008),
    fact(4, "Cid", "playsFor", "Owls", 2001, 2003),
    fact(5, "Cid", "playsFor", "Hawks", 2003, 2006),
    fact(6, "Igor", "playsFor", "Eibar", 2012, None),
]
ONLY_SEQ = tuple((name, 1.0 if name == "sequence" else 0.0) for name in OPERATORS)


def _nexts(table: Path) -> tuple[Checker, list[Question], dict[int, str]]:
    g = TemporalGraph("hand", TEAMS, labels_of(TEAMS), rel_labels(TEAMS))
    cfg = KGBuildConfig(n_questions=200, seed=2, max_answer_share=1.0, operator_weights=ONLY_SEQ)
    b = build_kg_benchmark(g, cfg, phrases=load_phrase_table(table))
    checker = Checker.from_table(g, table, open_end=open_end_of(b.manifest))
    assert check_all(checker, b.questions) == []
    nexts = [q for q in b.questions if q.logical_form["variant"] == "next"]
    return checker, nexts, {q.logical_form["reference_fact"]: q.answer_ids[0] for q in nexts}


def test_next_is_not_asked_across_a_gap(tmp_path: Path) -> None:
    for table in (PHRASES / "yago11k.toml", tmp_path / "yago11k.toml"):
        if not table.exists():  # the same table without the subset declaration
            text = (PHRASES / "yago11k.toml").read_text(encoding="utf-8")
            table.write_text(text.replace("entity_subset = true", ""), encoding="utf-8")
        checker, nexts, asked = _nexts(table)
        assert asked == {1: "<Eibar>", 4: "<Hawks>"}
        assert defect_report(checker, nexts)["next across a gap"] == []
        for ref, ans in ((0, 1), (2, 3)):  # after Athletic: Numancia; after Reds: Blues
            made = dataclasses.replace(
                nexts[0], id="made", logical_form={**nexts[0].logical_form, "reference_fact": ref},
                S_star=(dataclasses.replace(nexts[0].S_star[0], fact_id=ans),),
            )  # fmt: skip
            assert [m.split(":")[0] for m in defect_report(checker, [made])["next across a gap"]] == ["made"]


# Worked by hand (YAGO). Ann (Reds 2000-2004) and Bob (Reds 2002-2006) share only a club; Dee (Medal 1995) and
# Eve (Medal 2001) only a prize; Cal was married to Dee 1990-2000. An Allen pair is asked of one subject's facts or
# of two subjects a fact links (Cal and Dee: "Was it still the case when Dee won the Medal that Cal was married to
# Dee?" -> yes), never of Ann and Bob or Dee and Eve.
PAIRS = [
    fact(0, "Ann", "playsFor", "Reds", 2000, 2004),
    fact(1, "Bob", "playsFor", "Reds", 2002, 2006),
    fact(2, "Cal", "isMarriedTo", "Dee", 1990, 2000),
    fact(3, "Dee", "hasWonPrize", "Medal", 1995, None),
    fact(4, "Eve", "hasWonPrize", "Medal", 2001, None),
    fact(5, "Ann", "playsFor", "Blues", 2005, 2009),
]
ONLY_ALLEN = tuple((name, 1.0 if name == "allen" else 0.0) for name in OPERATORS)


def test_allen_pairs_two_facts_of_one_story() -> None:
    g = TemporalGraph("hand", PAIRS, labels_of(PAIRS), rel_labels(PAIRS))
    cfg = KGBuildConfig(n_questions=400, seed=2, max_answer_share=1.0, operator_weights=ONLY_ALLEN)
    b = build_kg_benchmark(g, cfg, phrases="yago11k")
    checker = Checker.from_table(g, PHRASES / "yago11k.toml", open_end=open_end_of(b.manifest))
    assert check_all(checker, b.questions) == []
    pairs = {frozenset((q.S_star[-1].fact_id, q.S_anchor[0].fact_id)) for q in b.questions}
    assert frozenset((2, 3)) in pairs  # Cal's marriage and Dee's medal: linked by the marriage
    assert pairs <= {frozenset((2, 3)), frozenset((0, 5))}  # Ann's own two clubs may be compared too
    assert defect_report(checker, b.questions)["unrelated Allen pair"] == []
    q = b.questions[0]  # made by hand: Ann's Reds against Bob's Reds
    made = dataclasses.replace(
        q, id="made", S_star=(dataclasses.replace(q.S_star[-1], s_id="<Ann>", fact_id=0),),
        S_anchor=(dataclasses.replace(q.S_anchor[0], s_id="<Bob>", fact_id=1),),
    )  # fmt: skip
    assert [m.split(":")[0] for m in defect_report(checker, [made])["unrelated Allen pair"]] == ["made"]


# Worked by hand (YAGO; created declares `object_not = "person"`). Nancy "created" Stephen King in 1976 (a cast
# credit: King is shown a person by his birth) and RoboCop in 1987. The first is implausible (`not_of_type`); the
# second is plausible but not asked either (`created` is declared `ask = false` since read 9), and stays in the corpus.
CREDITS = [
    fact(0, "Nancy_Allen", "created", "Stephen_King", 1976, None),
    fact(1, "Stephen_King", "wasBornIn", "Portland", 1947, 1947),
    fact(2, "Nancy_Allen", "created", "RoboCop", 1987, None),
]


def test_a_person_is_not_a_created_work() -> None:
    b, checker = _built(CREDITS, "yago11k", n=100)
    assert {x["fact"]: x["reason"] for x in b.implausible or ()} == {0: "not_of_type"}
    assert checker.implausible == {0: "not_of_type"}  # the second implementation
    asked = {t.fact_id for q in b.questions for t in (*q.S_star, *q.S_anchor)}
    assert asked == {1} and {0, 2} <= {d.fact_id for d in b.corpus()}
