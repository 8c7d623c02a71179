"""The question families beyond the first four: durations, balanced yes/no, present state with outdated answers.

Each family is built on a small hand-written graph whose gold is worked out by hand below (never taken from
the builder), then every question is also re-derived by the independent checker (``kg_checker``); the
scorer's rules for the new answer kinds are pinned on hand-made answers.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.generate.kg import OPERATORS, KGBuildConfig, build_kg_benchmark
from chronoqa.records import Fact, Question, TemporalGraph
from chronoqa.score.answers import score_answer
from chronoqa.time import Duration, Granularity, TimePoint, durations_in, same_duration
from kg_checker import PHRASES, Checker, check_all, defect_report, open_end_of
from test_kg_build import fact, labels_of, random_graph, rel_labels

Y, M, D = Granularity.YEAR, Granularity.MONTH, Granularity.DAY

# Worked by hand (YAGO11k relations; playsFor is a state, one team at a time).
# Ann: Reds 1990-1994, Blues 1996-2001. Bob: Reds 2000-2003, Lions 2005 with no end recorded.
# Cid: Blues 1985-1985 (within one year), Lions 1988-1997, Reds 1998 with no end.
SPELLS = [
    fact(0, "Ann", "playsFor", "Reds", 1990, 1994),
    fact(1, "Ann", "playsFor", "Blues", 1996, 2001),
    fact(2, "Bob", "playsFor", "Reds", 2000, 2003),
    fact(3, "Bob", "playsFor", "Lions", 2005, None),
    fact(4, "Cid", "playsFor", "Blues", 1985, 1985),
    fact(5, "Cid", "playsFor", "Lions", 1988, 1997),
    fact(6, "Cid", "playsFor", "Reds", 1998, None),
]
# the closed spells of at least one year, and their lengths in years
DURATIONS = {("<Ann>", "<Reds>"): 4, ("<Ann>", "<Blues>"): 5, ("<Bob>", "<Reds>"): 3, ("<Cid>", "<Lions>"): 9}
CLOSED = {("<Ann>", "<Reds>"): (1990, 1994), ("<Ann>", "<Blues>"): (1996, 2001)}
CLOSED |= {("<Bob>", "<Reds>"): (2000, 2003), ("<Cid>", "<Lions>"): (1988, 1997), ("<Cid>", "<Blues>"): (1985, 1985)}


def _only(op: str) -> tuple[tuple[str, float], ...]:
    return tuple((name, 1.0 if name == op else 0.0) for name in OPERATORS)


def _build(facts: list[Fact], op: str, **kw: object) -> tuple[Checker, list[Question]]:
    g = TemporalGraph("hand", facts, labels_of(facts), rel_labels(facts))
    cfg = KGBuildConfig(
        **{"n_questions": 200, "seed": 3, "max_answer_share": 1.0, "max_hops": 1, "operator_weights": _only(op), **kw}  # type: ignore[arg-type]
    )
    b = build_kg_benchmark(g, cfg, phrases="yago11k")
    checker = Checker.from_table(g, PHRASES / "yago11k.toml", open_end=open_end_of(b.manifest))
    assert check_all(checker, b.questions) == []
    # "name repeated" is counted, not ruled out (a clause without a leading subject, a passive, two subjects)
    assert all(not v for k, v in defect_report(checker, b.questions).items() if k != "name repeated")
    return checker, [q for q in b.questions if q.operator == op]


def _asked(q: Question) -> tuple[str, str]:
    t = q.S_star[-1]
    return t.s_id, t.o_id


def test_durations_are_asked_of_closed_spells_only() -> None:
    _, qs = _build(SPELLS, "duration")
    got = {_asked(q): q for q in qs}
    assert set(got) == set(DURATIONS)  # no open spell (Bob/Lions, Cid/Reds), none within one year (Cid/Blues)
    for key, q in got.items():
        n = DURATIONS[key]
        assert q.answers == (f"{n} years",) and q.answer_ids == (f"P{n}Y",) and q.answer_type == "duration"
        assert q.t_query == str(CLOSED[key][0])
        assert q.question.startswith(("How many years", "How long, in years", "How long after"))


def test_yes_no_labels_are_balanced_and_never_rest_on_an_unknown_end() -> None:
    _, qs = _build(SPELLS, "yes_no", n_questions=400)
    labels = Counter(q.answers[0] for q in qs)
    assert labels["yes"] == labels["no"] > 0
    for q in qs:
        lo, hi = CLOSED[_asked(q)]  # only closed spells are asked about
        t = int(q.t_query)
        assert q.answers == (("yes",) if lo < t < hi else ("no",))
        assert lo < t < hi or hi < t <= hi + 3
        assert q.render_time and str(t) in q.question


# Worked by hand: Eve married Hal 1970-1980 and Ivo 1985-1999; Kim married Hal 1982 with no end recorded.
# As of 1990 Eve's spouse is Ivo, Hal being the outdated answer; as of 1975 nobody was outdated for Eve. Ivo's
# 1985 and Kim's 1982 (only the start year of an open marriage is asserted) start beside a gap in the record
# (1981-1984 for Eve, 1981 for Hal): a marriage the graph lacks may share the year, so neither is asked.
MARRIAGES = [
    fact(0, "Eve", "isMarriedTo", "Hal", 1970, 1980),
    fact(1, "Eve", "isMarriedTo", "Ivo", 1985, 1999),
    fact(2, "Kim", "isMarriedTo", "Hal", 1982, None),
]


def test_present_state_records_the_outdated_answers() -> None:
    _, qs = _build(MARRIAGES, "present_state")
    assert qs
    seen = set()
    for q in qs:
        anchor, t = q.logical_form["anchor"], int(q.t_query)
        if anchor == "<Eve>":
            assert 1986 <= t <= 1999 and q.answer_ids == ("<Ivo>",) and q.outdated_answers == ("Hal",)
        else:
            pytest.fail(f"no earlier spouse to be outdated, or a start beside a gap, for {anchor}: {q.question}")
        seen.add(anchor)
    assert seen == {"<Eve>"}


def test_the_checker_catches_a_wrong_gold_of_each_family() -> None:
    checker, qs = _build(SPELLS, "duration")
    bad = dataclasses.replace(qs[0], answers=("7 years",), answer_ids=("P7Y",))
    assert checker.check(bad)
    checker, qs = _build(SPELLS, "yes_no", n_questions=400)
    flipped = dataclasses.replace(qs[0], answers=("no",) if qs[0].answers == ("yes",) else ("yes",))
    flipped = dataclasses.replace(flipped, answer_ids=flipped.answers)
    assert checker.check(flipped)
    checker, qs = _build(MARRIAGES, "present_state")
    assert checker.check(dataclasses.replace(qs[0], outdated_answers=()))


def test_new_families_fill_on_a_random_graph_and_can_be_switched_off() -> None:
    g = random_graph(1500, 4)
    b = build_kg_benchmark(g, KGBuildConfig(n_questions=300, seed=1), phrases="yago11k")
    new = {"duration", "yes_no", "present_state", "two_facts", "allen", "relative"}
    assert new <= {q.operator for q in b.questions}
    old = ("point_in_time", "before_after", "interval", "sequence")
    off = build_kg_benchmark(g, KGBuildConfig(n_questions=300, seed=1, operators=old), phrases="yago11k")
    assert {q.operator for q in off.questions} == set(old)
    assert set(off.manifest["counts"]["composition"]) == set(old)


def test_durations_read_write_and_tolerance() -> None:
    assert (Duration(4, Y).text(), Duration(4, Y).iso()) == ("4 years", "P4Y")
    assert (Duration(1, M).text(), Duration(400, D).iso()) == ("1 month", "P400D")
    assert Duration.parse_iso("P18M") == Duration(18, M) and Duration.parse_iso("4 years") is None
    assert durations_in("About four years, or 50 months; 2.5 yrs") == [
        Duration(4, Y),
        Duration(50, M),
        Duration(2.5, Y),
    ]
    assert durations_in("in 1994 and 2001") == []
    # year and month granularity: the true span lies strictly within one unit of the gold, so a whole number
    # must equal it ("5 years" for 1995 to 1999 is a wrong end year) and a fraction may fall within one unit
    assert not same_duration(Duration(5, Y), Duration(4, Y)) and not same_duration(Duration(3, Y), Duration(4, Y))
    assert same_duration(Duration(4.5, Y), Duration(4, Y)) and same_duration(Duration(3.5, Y), Duration(4, Y))
    assert same_duration(Duration(48, M), Duration(4, Y)) and same_duration(Duration(54, M), Duration(4, Y))
    assert not same_duration(Duration(60, M), Duration(4, Y)) and not same_duration(Duration(13, M), Duration(12, M))
    # day granularity: exact
    assert same_duration(Duration(400, D), Duration(400, D)) and not same_duration(Duration(401, D), Duration(400, D))


def _q(kind: str, answer: str, gold_id: str) -> Question:
    return Question(
        id="q", split="test", question="?", t_query="2000", S_star=(), answers=(answer,), answer_ids=(gold_id,),
        answer_type=kind,
    )  # fmt: skip


@pytest.mark.parametrize("mode", ["careful", "strict"])
@pytest.mark.parametrize(
    ("kind", "gold", "gold_id", "reply", "outcome"),
    [
        ("yes_no", "no", "no", "No, he had left by then.", "correct"),
        ("yes_no", "no", "no", "Yes.", "wrong"),
        ("yes_no", "yes", "yes", "True", "correct"),
        ("yes_no", "no", "no", "No idea.", "abstain"),
        ("duration", "4 years", "P4Y", "5 years", "wrong"),
        ("duration", "4 years", "P4Y", "about 4.5 years", "correct"),
        ("duration", "4 years", "P4Y", "four years", "correct"),
        ("duration", "4 years", "P4Y", "48 months", "correct"),
        ("duration", "4 years", "P4Y", "4", "correct"),
        ("duration", "4 years", "P4Y", "6 years", "wrong"),
        ("duration", "4 years", "P4Y", "4 years, or maybe 9 years", "wrong"),
    ],
)
def test_yes_no_and_durations_are_scored(
    mode: str, kind: str, gold: str, gold_id: str, reply: str, outcome: str
) -> None:
    got = score_answer(_q(kind, gold, gold_id), AnswerRecord("q", "x", "ok", reply), mode=mode)  # type: ignore[arg-type]
    assert got.outcome == outcome


# Worked by hand (playsFor a state, one team at a time; prizes and births events; YAGO11k reads an open end as
# unknown: a spell with no end is asserted in its start year only).
# Ann: Reds 1990-1994, Blues 1996-2001; married Bob 1992 (no end); won the Cup 1995 (between teams), the Medal
# 1998. Eve: Hawks 2000-2003, Lions 2005 with no end; won the Shield 2005, the Star 2008 (the Lions spell is
# not asserted then). Gus (born 1998) and Dan (born 2000) share nothing with Ann or Eve: never a reference.
OTHER_FACTS = [
    fact(0, "Ann", "playsFor", "Reds", 1990, 1994),
    fact(1, "Ann", "playsFor", "Blues", 1996, 2001),
    fact(2, "Ann", "isMarriedTo", "Bob", 1992, None),
    fact(3, "Ann", "hasWonPrize", "Cup", 1995, None),
    fact(4, "Ann", "hasWonPrize", "Medal", 1998, None),
    fact(5, "Eve", "playsFor", "Hawks", 2000, 2003),
    fact(6, "Eve", "playsFor", "Lions", 2005, None),
    fact(7, "Eve", "hasWonPrize", "Star", 2008, None),
    fact(8, "Eve", "hasWonPrize", "Shield", 2005, None),
    fact(9, "Gus", "wasBornIn", "Rome", 1998, None),
    fact(10, "Dan", "wasBornIn", "Oslo", 2000, None),
]
# (anchor, year, answer, reference fact): the asked team at the start of another fact of the same person
AT_OTHER_FACT = {
    ("<Ann>", 1992, "<Reds>", 2),  # when Ann married Bob
    ("<Ann>", 1998, "<Blues>", 4),  # when Ann won the Medal
}  # not when Eve won the Shield (2005): the Lions spell starts then beside a gap (2004) in her record


def test_two_facts_asks_at_a_fact_of_a_named_entity_and_never_past_an_open_end() -> None:
    checker, qs = _build(OTHER_FACTS, "two_facts")
    got = {(q.logical_form["anchor"], int(q.t_query), q.answer_ids[0], q.logical_form["reference_fact"]) for q in qs}
    # not at the Cup (no team), nor at the Star (the Lions spell has no known end), never at Gus's or Dan's birth
    assert got == AT_OTHER_FACT
    for q in qs:
        assert not q.render_time and q.t_query not in q.question
        assert [t.fact_id for t in q.S_anchor] == [q.logical_form["reference_fact"]]
        assert list(q.time_refs) == [{"which": "start", "value": q.t_query, "of": "anchor"}]
    wrong = dataclasses.replace(qs[0], answers=("Lions",), answer_ids=("<Lions>",))
    assert checker.check(wrong)
    ann = next(q for q in qs if q.t_query == "1998")
    gus = dataclasses.replace(ann.S_anchor[0], s="Gus", o="Rome", s_id="<Gus>", o_id="<Rome>", fact_id=9)
    gus = dataclasses.replace(gus, r_id="<wasBornIn>")  # Gus's birth, the same year: two facts that share nothing
    unrelated = dataclasses.replace(ann, logical_form={**ann.logical_form, "reference_fact": 9}, S_anchor=(gus,))
    assert any("shares no one named entity" in e for e in checker.check(unrelated))
    assert len(defect_report(checker, [unrelated])["unrelated reference fact"]) == 1


# Worked by hand (SPELLS above, read at year granularity; an open end is only known to be at or after its start).
# (asked fact, reference fact, comparison) -> answer, for pairs of facts sharing an entity:
WINDOW_ANSWERS = {
    (0, 2, "start_before_start"): "yes",  # Ann joined the Reds 1990, Bob 2000
    (0, 2, "end_before_start"): "yes",  # Ann left 1994, before Bob joined 2000
    (0, 2, "end_after_start"): "no",
    (0, 2, "still"): "no",  # Bob joined 2000, after Ann had left 1994
    (1, 0, "start_after_end"): "yes",  # Ann joined the Blues 1996 after leaving the Reds 1994
    (1, 0, "start_same_end"): "no",
    (1, 4, "end_after_end"): "yes",  # Ann left the Blues 2001, Cid 1985
    (2, 0, "start_after_end"): "yes",
    (2, 0, "start_before_start"): "no",  # Bob 2000, Ann 1990
    (2, 3, "end_before_start"): "yes",  # Bob left the Reds 2003, joined the Lions 2005
    (2, 6, "start_after_start"): "yes",  # Bob 2000, Cid 1998
    (2, 6, "end_after_start"): "yes",  # Bob left 2003, Cid joined 1998
    (3, 2, "start_after_start"): "yes",  # Bob joined the Lions 2005, the Reds 2000
    (3, 2, "start_same_start"): "no",
    (4, 6, "start_same_start"): "no",  # Cid joined the Blues 1985, the Reds 1998
    (4, 6, "end_before_start"): "yes",  # Cid left the Blues 1985
    (5, 4, "start_after_end"): "yes",  # Cid joined the Lions 1988, left the Blues 1985
    (5, 4, "start_after_start"): "yes",
    (5, 4, "end_before_start"): "no",  # Cid left the Lions 1997, joined the Blues 1985
    (0, 1, "start_after_end"): "no",  # Ann joined the Reds 1990, left the Blues 2001
    (2, 3, "start_before_start"): "yes",  # Bob joined the Reds 2000, the Lions 2005
    (6, 4, "start_after_end"): "yes",  # Cid joined the Reds 1998, left the Blues 1985
    (6, 4, "start_before_start"): "no",  # Cid joined the Reds 1998, the Blues 1985
    (5, 6, "start_after_start"): "no",  # the Lions 1988, the Reds 1998
    (6, 0, "start_after_end"): "yes",  # Cid joined the Reds 1998, Ann had left 1994
    (6, 0, "end_before_start"): "no",
    (6, 2, "start_before_start"): "yes",  # Cid 1998, Bob 2000
    (0, 1, "end_after_end"): "no",  # Ann left the Reds 1994, the Blues 2001
    (0, 1, "start_before_end"): "yes",  # Ann joined the Reds 1990, left the Blues 2001
    (1, 0, "end_after_end"): "yes",
    (2, 3, "end_same_start"): "no",  # Bob left the Reds 2003, joined the Lions 2005
}
# never asked: an end that is not recorded is never named or compared, even where every completion at or after
# its start gives one label (Cid's Reds end after 1994), and "still" needs the asked spell to have a recorded end
WINDOW_OPEN = {
    (2, 6, "end_after_end"), (2, 6, "start_before_end"), (2, 6, "still"), (6, 2, "still"), (6, 2, "end_after_end"),
    (3, 5, "still"), (6, 4, "still"), (6, 5, "still"), (0, 6, "start_before_end"), (3, 5, "end_after_end"),
    (6, 0, "end_after_end"), (6, 4, "end_same_end"), (6, 4, "end_after_start"), (2, 3, "end_before_end"),
}  # fmt: skip


def test_allen_compares_two_windows_and_never_decides_on_an_unknown_end() -> None:
    checker, qs = _build(SPELLS, "allen", n_questions=400)
    labels = Counter(q.answers[0] for q in qs)
    assert labels["yes"] == labels["no"] > 5
    got = {(q.S_star[-1].fact_id, q.S_anchor[0].fact_id, q.logical_form["variant"]): q.answers[0] for q in qs}
    assert not set(got) & WINDOW_OPEN
    assert got == {k: WINDOW_ANSWERS[k] for k in got}  # every question of this seed is worked out above
    for q in qs:
        a, b = checker.by_id[q.S_star[-1].fact_id], checker.by_id[q.S_anchor[0].fact_id]
        assert {a.s, a.o} & {b.s, b.o} and a.id != b.id  # two facts of one entity
        assert a.s == b.s  # of one player: no two of them share more than a club
        assert not q.render_time and q.answer_type == "yes_no"
    flipped = dataclasses.replace(qs[0], answers=("no",) if qs[0].answers == ("yes",) else ("yes",))
    assert checker.check(dataclasses.replace(flipped, answer_ids=flipped.answers))


def test_the_checker_leaves_a_same_year_or_unrecorded_end_comparison_open() -> None:
    # Xan left the Reds in 1995, the year Yul joined; Zed joined in 1999 with no end recorded
    facts = [
        fact(0, "Xan", "playsFor", "Reds", 1990, 1995),
        fact(1, "Yul", "playsFor", "Reds", 1995, 2000),
        fact(2, "Zed", "playsFor", "Reds", 1999, None),
    ]
    g = TemporalGraph("hand", facts, labels_of(facts), rel_labels(facts))
    checker = Checker.from_table(g, PHRASES / "yago11k.toml", open_end="unknown")
    x, y, z = (checker.by_id[i] for i in range(3))
    assert checker.comparison(x, y, "end_before_start") is None  # the order within 1995 is not recorded
    assert checker.comparison(x, y, "end_same_start") is True
    assert checker.comparison(x, y, "start_before_start") is True
    assert checker.comparison(y, z, "end_before_end") is None  # Zed's end may fall before or after 2000
    assert checker.comparison(x, z, "end_before_end") is True  # Zed's end is at or after 1999 > 1995
    assert checker.comparison(y, z, "still") is True  # Zed joined 1999, inside Yul's 1995-2000
    assert checker.comparison(z, y, "still") is None  # Zed's spell has no recorded end
    assert checker.allen_relation(x, y) == "overlaps"  # year spans read whole: both hold in 1995
    assert checker.allen_relation(y, x) == "overlapped-by" and checker.allen_relation(x, z) == "undetermined"


# Worked by hand: Ann played for the Reds 1990-1994, the Blues 1996-2001 and the Lions from 2003 (no end);
# Ann was married to Zoe 1993-1999 and born in Oslo 1970. Only Ann's team changes over time. A reference is a
# fact of Ann's off the chain; "t" is 2 or 3 years from its start or 1 to 3 from its recorded end, and Ann's team
# must be certain and alone then (the Lions only in 2003: the spell's end is not recorded), and not a year where
# a spell starts or ends beside a gap in the record (1995, 2002): 1994, 1996, 2001 and 2003 are not asked.
RELATIVE_FACTS = [
    fact(0, "Ann", "playsFor", "Reds", 1990, 1994),
    fact(1, "Ann", "playsFor", "Blues", 1996, 2001),
    fact(2, "Ann", "playsFor", "Lions", 2003, None),
    fact(3, "Ann", "isMarriedTo", "Zoe", 1993, 1999),
    fact(4, "Ann", "wasBornIn", "Oslo", 1970, None),
]
# (t_query, answer, reference fact, offset)
RELATIVE = {
    (1990, "<Reds>", 3, -3), (1991, "<Reds>", 3, -2), (1997, "<Blues>", 3, -2), (1998, "<Blues>", 3, -1),
    (2000, "<Blues>", 3, 1), (1997, "<Blues>", 0, 3), (1993, "<Reds>", 1, -3), (2000, "<Blues>", 2, -3),
}  # fmt: skip


def test_relative_time_counts_from_a_recorded_start_or_end() -> None:
    checker, qs = _build(RELATIVE_FACTS, "relative")
    got = {(int(q.t_query), q.answer_ids[0], q.logical_form["reference_fact"], q.logical_form["offset"]) for q in qs}
    assert got <= RELATIVE and len(got) >= 2  # one question per gold chain: at most one per team
    for q in qs:
        assert q.logical_form["anchor"] == "<Ann>" and not q.render_time and q.t_query not in q.question
        which = q.logical_form["variant"].split("_")[1]
        assert [(t["which"], t["of"]) for t in q.time_refs] == [(which, "anchor")]
        n = abs(q.logical_form["offset"])
        words = ("the year ", "a year ") if n == 1 else (f"{['two', 'three'][n - 2]} years ",)
        assert any(w in q.question.lower() for w in words)
    moved = dataclasses.replace(qs[0], logical_form={**qs[0].logical_form, "offset": qs[0].logical_form["offset"] + 1})
    assert checker.check(moved)


def test_allen_never_compares_ones_own_birth_with_ones_life() -> None:
    # Ann and Bob were born in Oslo (1970, 1971), played for the Reds (1990-1994, 1992-1996) and were married
    # (1995-2000: two linked people, whose facts may be paired): "Ann joined the Reds after Ann was born" is known a
    # priori; the two births, or the two spells, are fair to compare
    facts = [
        fact(0, "Ann", "wasBornIn", "Oslo", 1970, None),
        fact(1, "Bob", "wasBornIn", "Oslo", 1971, None),
        fact(2, "Ann", "playsFor", "Reds", 1990, 1994),
        fact(3, "Bob", "playsFor", "Reds", 1992, 1996),
        fact(4, "Ann", "isMarriedTo", "Bob", 1995, 2000),
    ]
    _, qs = _build(facts, "allen", n_questions=100)
    pairs = {frozenset((q.S_star[-1].fact_id, q.S_anchor[0].fact_id)) for q in qs}
    assert pairs & {frozenset((0, 1)), frozenset((2, 3))}
    assert not pairs & {frozenset((0, 2)), frozenset((1, 3)), frozenset((0, 4))}


# Worked by hand (Wikidata relations, both states). Twelve deputies D0..D11 each hold the office "Deputy" for
# two legislatures that meet (1990-1995, then 1995-2000): 12 of the 13 position-held triples are split into
# adjacent spells, so position held is stored per term, and Mia's one 2001-2006 spell need not be her whole
# tenure. Employers are not split: each of the three employments below is a whole spell (6, 4 and 9 years).
TERMS = [
    *(Fact(2 * i + j, f"D{i}", "P39", "Q1", TimePoint(1990 + 5 * j), TimePoint(1995 + 5 * j), 2 * i + j + 1)
      for i in range(12) for j in range(2)),
    Fact(24, "Mia", "P39", "Q1", TimePoint(2001), TimePoint(2006), 25),
    Fact(25, "Mia", "P108", "Acme", TimePoint(1990), TimePoint(1996), 26),
    Fact(26, "Mia", "P108", "Bolt", TimePoint(1997), TimePoint(2001), 27),
    Fact(27, "D0", "P108", "Acme", TimePoint(1980), TimePoint(1989), 28),
]  # fmt: skip
TERM_LABELS = {"Q1": "Deputy", **{f"D{i}": f"Deputy Number {i}" for i in range(12)}, "Mia": "Mia Rossi"}


def test_no_duration_over_a_relation_stored_per_term() -> None:
    g = TemporalGraph("hand", TERMS, {**labels_of(TERMS), **TERM_LABELS}, rel_labels(TERMS))
    cfg = KGBuildConfig(n_questions=200, seed=3, max_answer_share=1.0, max_hops=1, operator_weights=_only("duration"))
    b = build_kg_benchmark(g, cfg, phrases="wikidata12k")
    checker = Checker.from_table(g, PHRASES / "wikidata12k.toml", open_end=open_end_of(b.manifest))
    assert check_all(checker, b.questions) == []
    qs = [q for q in b.questions if q.operator == "duration"]
    got = {(q.S_star[0].s_id, q.S_star[0].o_id, q.answer_ids[0]) for q in qs}
    assert got == {("Mia", "Acme", "P6Y"), ("Mia", "Bolt", "P4Y"), ("D0", "Acme", "P9Y")}  # never Mia's 5-year term
    assert defect_report(checker, qs)["duration over per-term spells"] == []
    term = dataclasses.replace(qs[0].S_star[0], s="Mia Rossi", r_id="P39", o="Deputy", o_id="Q1", fact_id=24)
    made = dataclasses.replace(qs[0], S_star=(term,), answers=("5 years",), answer_ids=("P5Y",))
    assert len(defect_report(checker, [made])["duration over per-term spells"]) == 1
