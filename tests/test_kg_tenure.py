"""The end of a per-term spell read as the end of a tenure (``GraphIndex.tenure_end``, ``generate.kg.tenure``).

A hand-made graph whose tenure ends are worked out by hand below; the builder's questions are re-derived by the
independent checker, whose count of questions resting on another end is pinned on a question made to break it.
"""

from __future__ import annotations

import dataclasses

from chronoqa.generate.kg import OPERATORS, KGBuildConfig, build_kg_benchmark
from chronoqa.generate.kg.operators import REGISTRY, AnswerKind, Draft, Hop
from chronoqa.generate.kg.tenure import RULE, tenure_reason
from chronoqa.records import Fact, TemporalGraph
from chronoqa.time import Granularity, TimePoint
from kg_checker import PHRASES, Checker, check_all, defect_report, open_end_of, tenure_ends
from sql_index_fixtures import index_of
from test_kg_build import fact, labels_of, rel_labels


def _f(i: int, s: str, r: str, o: str, a: int, b: int | None) -> Fact:
    return Fact(i, s, r, o, TimePoint(a), TimePoint(b) if b is not None else None, i + 1)


# Worked by hand (Wikidata12k's P54, member of sports team: a state, one team at a time). Twelve players K0..K11
# each play for Club Zero in two seasons that touch (1990-1995, 1995-2000): 12 split triples, so P54 is stored
# per term. Their 1995 ends are inside one tenure (not an end); their 2000 ends are followed by nothing (not
# corroborated). Ann leaves Club Alpha in 2004 and joins Club Beta in 2004 (corroborated: an end); Beta ends 2010,
# followed by nothing. Bea leaves Club Alpha in 2004 and joins Club Beta only in 2008 (not corroborated).
# Cal's Club Gamma spells 2001-2003 and 2004-2006 touch (one tenure: 2003 is no end), then he joins Club Alpha
# in 2007 (corroborated: 2006 is an end).
PLAYERS = [
    *(_f(2 * i + j, f"K{i}", "P54", "Q0", 1990 + 5 * j, 1995 + 5 * j) for i in range(12) for j in range(2)),
    _f(24, "Ann", "P54", "QA", 2001, 2004),
    _f(25, "Ann", "P54", "QB", 2004, 2010),
    _f(26, "Bea", "P54", "QA", 2001, 2004),
    _f(27, "Bea", "P54", "QB", 2008, 2012),
    _f(28, "Cal", "P54", "QG", 2001, 2003),
    _f(29, "Cal", "P54", "QG", 2004, 2006),
    _f(30, "Cal", "P54", "QA", 2007, 2011),
]  # fmt: skip
LABELS = {
    "Q0": "Club Zero", "QA": "Club Alpha", "QB": "Club Beta", "QG": "Club Gamma",
    "Ann": "Ann Holm", "Bea": "Bea Lind", "Cal": "Cal Moss", **{f"K{i}": f"Keeper Number {i}" for i in range(12)},
}  # fmt: skip
TENURE_ENDS = {24, 29}  # Ann's Alpha (2004, Beta joined 2004) and Cal's merged Gamma tenure (2006, Alpha 2007)


def test_index_reads_only_corroborated_tenure_ends() -> None:
    idx = index_of(
        PLAYERS, {"P54": False}, Granularity.YEAR, TimePoint(2026), "unknown", cardinality={"P54": (True, False)}
    )
    assert idx.per_term(idx.rel_id["P54"])
    assert {f.id for f in PLAYERS if idx.tenure_end(f.id)} == TENURE_ENDS


def test_index_reads_every_end_of_a_relation_not_stored_per_term() -> None:
    few = [f for f in PLAYERS if f.id >= 24]  # no split triple left but Cal's: P54 is not per term here
    idx = index_of(
        few, {"P54": False}, Granularity.YEAR, TimePoint(2026), "unknown", cardinality={"P54": (True, False)}
    )
    assert not idx.per_term(idx.rel_id["P54"])
    assert all(idx.tenure_end(i) for i in range(len(few)))  # index positions


def test_index_reads_a_successor_in_a_one_holder_office() -> None:
    # P6 head of government: one holder at a time both ways. Twelve towns with two touching terms of their mayor
    # make it per term; Oslo's mayor Ola (2000-2004) is followed by Per in 2005 (a successor: an end), Per's
    # 2005-2009 by nobody.
    towns = [_f(2 * i + j, f"T{i}", "P6", f"M{i}", 1990 + 4 * j, 1994 + 4 * j) for i in range(12) for j in range(2)]
    oslo = [_f(24, "Oslo", "P6", "Ola", 2000, 2004), _f(25, "Oslo", "P6", "Per", 2005, 2009)]
    idx = index_of(
        towns + oslo, {"P6": False}, Granularity.YEAR, TimePoint(2026), "unknown", cardinality={"P6": (True, True)}
    )
    assert {f.id for f in towns + oslo if idx.tenure_end(f.id)} == {24}


def test_each_operator_says_which_recorded_ends_its_draft_rests_on() -> None:
    # Bea's Club Alpha spell (fact 26) ends in 2004 with no successor: no tenure's end. Her Beta spell (27) is the
    # reference fact where one is needed. The rule asks the draft's operator: only the readings below rest on an end.
    idx = index_of(
        PLAYERS, {"P54": False}, Granularity.YEAR, TimePoint(2026), "unknown", cardinality={"P54": (True, False)}
    )
    rel, bea, alpha = idx.rel_id["P54"], idx.ent_id["Bea"], idx.ent_id["QA"]
    asked = Hop(26, rel, True, bea, alpha)

    def reason(op: str, variant: str, ref: int = -1, fid: int = 26) -> str | None:
        hop = dataclasses.replace(asked, fid=fid)
        return tenure_reason(idx, Draft(op, variant, bea, (hop,), 2003, (alpha,), AnswerKind.ENTITY, ref_fid=ref))

    resting = {
        ("interval", "end", -1), ("yes_no", "no", -1), ("allen", "still", 27), ("allen", "end_before_start", 27),
        ("allen", "start_after_end", 26), ("relative", "after_end", 26), ("sequence", "next", 26),
    }  # fmt: skip
    not_resting = {
        ("interval", "start", -1), ("yes_no", "yes", -1), ("allen", "start_before_start", 27),
        ("relative", "before_start", 26), ("sequence", "last", 26),
        *((op, "plain", 26) for op in ("point_in_time", "before_after", "duration", "present_state", "two_facts")),
    }  # fmt: skip
    assert {(op, v, ref) for op, v, ref in resting if reason(op, v, ref) == RULE} == resting
    assert {(op, v, ref) for op, v, ref in not_resting if reason(op, v, ref) is not None} == set()
    # the same readings over Ann's Alpha spell (24), whose 2004 end is a tenure's (Beta joined then), stand
    assert all(reason(op, v, 24 if ref == 26 else ref, fid=24) is None for op, v, ref in resting)
    assert set(REGISTRY) == {op for op, _, _ in resting | not_resting}  # every registered operator is covered


def _only(op: str) -> tuple[tuple[str, float], ...]:
    return tuple((name, 1.0 if name == op else 0.0) for name in OPERATORS)


def test_no_question_rests_on_a_per_term_end_the_data_does_not_corroborate() -> None:
    g = TemporalGraph("hand", PLAYERS, {**labels_of(PLAYERS), **LABELS}, rel_labels(PLAYERS))
    checker = Checker.from_table(g, PHRASES / "wikidata12k.toml", open_end="unknown")
    assert tenure_ends(checker) == TENURE_ENDS  # the checker's own reading agrees with the hand one
    asked_ends: set[int] = set()
    for op in ("interval", "yes_no", "relative", "allen", "sequence"):
        cfg = KGBuildConfig(n_questions=300, seed=5, max_answer_share=1.0, max_hops=1, operator_weights=_only(op))
        b = build_kg_benchmark(g, cfg, phrases="wikidata12k")
        chk = Checker.from_table(g, PHRASES / "wikidata12k.toml", open_end=open_end_of(b.manifest))
        assert check_all(chk, b.questions) == []
        assert defect_report(chk, b.questions)["end of a per-term spell"] == []
        for q in b.questions:
            if q.operator == "interval" and q.logical_form["variant"] == "end":
                asked_ends.add(q.S_star[0].fact_id)
    # "In which year did Ann leave Club Alpha?" -> 2004; Cal's Gamma tenure ends in 2006 but is two facts of one
    # triple, which an interval question does not time; no other end is asked
    assert asked_ends == {24}
    cfg = KGBuildConfig(n_questions=300, seed=5, max_hops=1, max_answer_share=1.0, operator_weights=_only("interval"))
    starts = build_kg_benchmark(g, cfg, phrases="wikidata12k")
    asked = [q for q in starts.questions if q.logical_form["variant"] != "end"]
    assert any(q.S_star[0].fact_id == 26 for q in asked)  # Bea's start at Alpha stays usable
    made = dataclasses.replace(asked[0], logical_form={**asked[0].logical_form, "variant": "end"})
    bad = dataclasses.replace(
        made,
        S_star=(dataclasses.replace(made.S_star[0], fact_id=26, r_id="P54", s="Bea Lind", o="Club Alpha"),),
        time_refs=({"which": "end", "value": "2004", "of": "answer"},),
    )
    assert len(defect_report(checker, [bad])["end of a per-term spell"]) == 1


# Worked by hand (YAGO11k's playsFor: one team at a time; not a declared bridge). Dan played for Gent 2005-2006,
# then the record is silent until Utrecht 2009-2011 (the world: AGOVV Apeldoorn from 2006), then PSV 2011-2013.
# Read at a year, the unique values are Gent 2005 and 2006, Utrecht 2009 and 2010, PSV 2012 and 2013 (2011 holds
# two). Gent's 2006 ends beside the gap, Utrecht's 2009 starts beside it: a missing club may share those years.
GAP = [
    fact(0, "Dan", "playsFor", "Gent", 2005, 2006),
    fact(1, "Dan", "playsFor", "Utrecht", 2009, 2011),
    fact(2, "Dan", "playsFor", "PSV", 2011, 2013),
]
BESIDE_GAP = {("<Gent>", "2006"), ("<Utrecht>", "2009")}


def test_no_value_read_at_a_year_beside_a_gap_in_the_record() -> None:
    g = TemporalGraph("hand", GAP, labels_of(GAP), rel_labels(GAP))
    asked: set[tuple[str, str]] = set()
    for op in ("point_in_time", "relative", "before_after"):
        cfg = KGBuildConfig(n_questions=200, seed=2, max_answer_share=1.0, max_hops=1, operator_weights=_only(op))
        b = build_kg_benchmark(g, cfg, phrases="yago11k")
        checker = Checker.from_table(g, PHRASES / "yago11k.toml", open_end=open_end_of(b.manifest))
        assert check_all(checker, b.questions) == []
        assert defect_report(checker, b.questions)["value changes near the time"] == []
        asked |= {(q.answer_ids[0], q.t_query) for q in b.questions}
    assert asked and asked <= {("<Gent>", "2005"), ("<Utrecht>", "2010"), ("<PSV>", "2012"), ("<PSV>", "2013")}
    q = next(q for q in b.questions if q.operator == "before_after")
    made = dataclasses.replace(
        q, t_query="2006", answers=("Gent",), answer_ids=("<Gent>",),
        S_star=(dataclasses.replace(q.S_star[0], o="Gent", o_id="<Gent>", fact_id=0, t_start="2005", t_end="2006"),),
    )  # fmt: skip
    assert len(defect_report(checker, [made])["value changes near the time"]) == 1
