"""Careful time judging: where the rules tie some references to their facts and ends, contradict nothing, and every
reference they could not tie still has its date written in the text, the verdict is undecided (an LLM judge decides
it), not wrong. A reference whose date is absent, or a contradicted date, stays wrong; a fully tied text stays right."""

from __future__ import annotations

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Triple
from chronoqa.score.time_accuracy import score_time
from time_verdicts import q, refs, verdict

# Ana Roth worked at Delft Institute from 1986 to 2015
DELFT = q(
    answers=("29 years",),
    question="How many years passed between when Ana Roth started and stopped working at Delft Institute?",
    S_star=(Triple("Ana Roth", "worksAt", "Delft Institute", "1986", "2015"),),
    time_refs=({"which": "start", "value": "1986", "of": "answer"}, {"which": "end", "value": "2015", "of": "answer"}),
)
# the end's year is written, but as a restructuring's date the rules do not tie to the stay's end
UNTIED = "Ana Roth joined Delft Institute in 1986; the 2015 restructuring closed her post there."


def test_an_untied_reference_whose_date_is_written_is_undecided() -> None:
    row = score_time(DELFT, AnswerRecord("q", "t", "ok", "29 years", UNTIED), True)
    assert row.undecided is not None and "could not tie" in row.undecided
    assert (row.n_cited, row.n_refs) == (1, 2)


def test_an_llm_judge_decides_the_untied_reference() -> None:
    for said in (True, False):
        record = AnswerRecord("q", "t", "ok", "29 years", UNTIED)
        row = score_time(DELFT, record, True, judge=lambda _q, _r, said=said: said)
        assert row.T is said and row.undecided is not None


def test_an_untied_reference_whose_date_is_absent_stays_wrong() -> None:
    assert verdict(DELFT, "Ana Roth joined Delft Institute in 1986; the 2014 restructuring closed her post there.") == (
        "wrong"
    )


def test_a_contradicted_date_stays_wrong_though_every_date_is_written() -> None:
    text = "Ana Roth joined Delft Institute in 1986 and left it in 2014; the 2015 restructuring closed the lab."
    assert verdict(DELFT, text) == "wrong"


def test_nothing_tied_stays_wrong() -> None:
    # no reference tied at all: the start is stated wrong, the end untied
    assert verdict(DELFT, "Ana Roth joined Delft Institute in 1987; the 2015 restructuring closed her post there.") == (
        "wrong"
    )


def test_every_reference_tied_stays_right() -> None:
    assert verdict(DELFT, "Ana Roth joined Delft Institute in 1986 and left it in 2015.") == "right"


# --------------------------------------------------------------------------------------------------
# Attribution rules that tie such dates: each with a trap (a shifted end, another's date) that stays unaccepted
# --------------------------------------------------------------------------------------------------

# Ian Dray owned Radio Kestrel from 1993 to 1994
KESTREL = q(
    answers=("1 year",),
    question="How many years passed between when Ian Dray acquired Radio Kestrel and when he stopped owning it?",
    S_star=(Triple("Ian Dray", "owns", "Radio Kestrel", "1993", "1994"),),
    time_refs=({"which": "start", "value": "1993", "of": "answer"}, {"which": "end", "value": "1994", "of": "answer"}),
)


def test_stopped_and_expelled_and_annulled_are_ends() -> None:
    assert verdict(KESTREL, "Ian Dray acquired Radio Kestrel in 1993 and stopped owning it in 1994.") == "right"
    assert verdict(KESTREL, "Ian Dray acquired Radio Kestrel in 1993 and stopped owning it in 1995.") == "wrong"
    assert verdict(KESTREL, "Ian Dray bought Radio Kestrel in 1993; he was expelled from it in 1994.") == "right"
    # the start said "stopped" is no start: the swapped ends are wrong
    assert verdict(KESTREL, "Ian Dray stopped owning Radio Kestrel in 1993 and acquired it in 1994.") == "wrong"
    wed = q(
        answers=("Rob Tarr",),
        question="In 2003, who was Lia Moor married to?",
        S_star=(Triple("Lia Moor", "isMarriedTo", "Rob Tarr", "2002", "2003"),),
        time_refs=refs(("start", "2002"), ("end", "2003")),
    )
    assert verdict(wed, "Lia Moor married Rob Tarr in 2002; the marriage was annulled in 2003.") == "right"
    assert verdict(wed, "Lia Moor married Rob Tarr in 2002; the marriage was annulled in 2004.") == "wrong"


# Tom Vane played for Wexland national team from 1999 to 2014 and for Dunmore FC from 2001 to 2014
VANE = q(
    answers=("no",),
    question="Yes or no: Tom Vane joined the Wexland national team after Tom Vane left Dunmore FC?",
    S_star=(Triple("Tom Vane", "playsFor", "Wexland national team", "1999", "2014"),),
    S_anchor=(Triple("Tom Vane", "playsFor", "Dunmore FC", "2001", "2014"),),
    time_refs=({"which": "start", "value": "1999", "of": "answer"}, {"which": "end", "value": "2014", "of": "anchor"}),
)


def test_a_first_cap_is_the_sides_start_and_a_last_cap_its_end() -> None:
    text = "Vane won his first Wexland cap in {}, before he signed for Dunmore in 2001. He left Dunmore in 2014."
    assert verdict(VANE, text.format(1999)) == "right"
    assert verdict(VANE, text.format(2000)) == "wrong"
    last = "Vane joined Wexland in 1999 and won his last Wexland cap in {}. He left Dunmore in 2014."
    assert verdict(VANE, last.format(2014)) == "right"
    assert verdict(VANE, last.format(2013)) == "wrong"


# Kenji Ono died in Osaka on 14 November 1988; he was married to Aiko Ono from 1940; Rin Sato died in Osaka on
# 14 August 1988
ONO = q(
    answers=("yes",),
    question="Is it true that the spouse of Aiko Ono died in Osaka in the same year that Rin Sato died there?",
    S_star=(
        Triple("Aiko Ono", "isMarriedTo", "Kenji Ono", "1940", "1988"),
        Triple("Kenji Ono", "diedIn", "Osaka", "1988-11-14", "1988-11-14"),
    ),
    S_anchor=(Triple("Rin Sato", "diedIn", "Osaka", "1988-08-14", "1988-08-14"),),
    time_refs=(
        {"which": "start", "value": "1988", "of": "answer"},
        {"which": "start", "value": "1988-08-14", "of": "anchor"},
    ),
)


def test_a_death_read_for_a_marriage_cites_the_spouses_death_event() -> None:
    rin = " Rin Sato died in Osaka on 14 August 1988."
    apposed = "Aiko Ono's husband, former minister Kenji Ono, died in Osaka on 14 November {}." + rin
    married = "Kenji Ono, married to Aiko Ono from 1940, died in {}." + rin
    assert verdict(ONO, apposed.format(1988)) == "right" and verdict(ONO, married.format(1988)) == "right"
    # a shifted year for his death states no date of his event: never right (its year is written in Rin Sato's date)
    assert verdict(ONO, apposed.format(1987)) == "undecided" and verdict(ONO, married.format(1987)) == "undecided"
    # no year of his own at all, Rin Sato's in another month: wrong
    assert verdict(ONO, "Kenji Ono, married to Aiko Ono from 1940, died in Osaka." + rin.replace("1988", "1989")) == (
        "wrong"
    )


# Leo Varga held the Presidency of Marland from 2003 to 2007; married to Eva Varga from 1975; Ian Roos held it from 1989
VARGA = q(
    answers=("no",),
    question="Yes or no: the spouse of Eva Varga took office as President of Marland in the same year as Ian Roos?",
    S_star=(
        Triple("Eva Varga", "isMarriedTo", "Leo Varga", "1975", "2010"),
        Triple("Leo Varga", "holdsPosition", "President of Marland", "2003", "2007"),
    ),
    S_anchor=(Triple("Ian Roos", "holdsPosition", "President of Marland", "1989", "1999"),),
    time_refs=(
        {"which": "start", "value": "2003", "of": "answer"},
        {"which": "start", "value": "1989", "of": "anchor"},
    ),
)


def test_the_kin_possessor_before_a_copula_narrows_no_fact() -> None:
    text = "Eva Varga's husband was Leo Varga, who became President of Marland in {}. Ian Roos took office in 1989."
    assert verdict(VARGA, text.format(2003)) == "right"
    assert verdict(VARGA, text.format(2004)) == "wrong"


# Sam Ward joined the Labour Union Party in 1903 and the Federalist Party of Norland in 1917 (no ends known)
WARD = q(
    answers=("no",),
    question="Yes or no: Sam Ward joined the Labour Union Party the year he joined the Federalist Party of Norland?",
    S_star=(Triple("Sam Ward", "memberOf", "Labour Union Party", "1903", None),),
    S_anchor=(Triple("Sam Ward", "memberOf", "Federalist Party of Norland", "1917", None),),
    time_refs=(
        {"which": "start", "value": "1903", "of": "answer"},
        {"which": "start", "value": "1917", "of": "anchor"},
    ),
)


def test_a_partys_members_name_it_and_going_over_to_it_is_its_start() -> None:
    text = "Sam Ward joined Labour Union in 1903 and went over to the Federalists in {} after the split."
    assert verdict(WARD, text.format(1917)) == "right"
    assert verdict(WARD, text.format(1916)) == "wrong"


# Paul Hahn headed the government of Oberland from 1998 to 1999
HAHN = q(
    answers=("1 year",),
    question="How long after Paul Hahn became head of government of Oberland did he cease to be?",
    S_star=(Triple("Oberland", "headOfGovernment", "Paul Hahn", "1998", "1999"),),
    time_refs=refs(("start", "1998"), ("end", "1999")),
)


def test_succeeding_someone_the_rules_do_not_know_is_the_subjects_start() -> None:
    text = "Paul Hahn succeeded Karl Brand as head of government in {} and resigned in 1999 over a scandal."
    assert verdict(HAHN, text.format(1998)) == "right"
    # another year states no start: the start is missing, not tied
    assert verdict(HAHN, text.format(1997)) == "wrong"


# Ada Obi was President of Sahel from 29 May 2007 to 5 May 2010
OBI = q(
    answers=("Ada Obi",),
    question="Who was the President of Sahel whose term began before 10 August 2009 and ended before 2012?",
    S_star=(Triple("Ada Obi", "holds", "President of Sahel", "2007-05-29", "2010-05-05"),),
    time_refs=refs(("start", "2007-05-29"), ("end", "2010-05-05")),
    granularity="day",
)


def test_a_date_restating_the_one_before_it_in_dashes_or_brackets_is_read_as_that_one() -> None:
    text = "Ada Obi took office on 29 May 2007 and died in office in May 2010 — on {} May 2010 — after which Eze Umo"
    assert verdict(OBI, text.format(5) + " became president.", ("Eze Umo",)) == "right"
    # the day that refines the death is the death's: another day is wrong, not Eze Umo's start
    assert verdict(OBI, text.format(6) + " became president.", ("Eze Umo",)) == "wrong"
    bracket = "Ada Obi took office on 29 May 2007 and served until spring 2010 ({} May 2010), when Eze Umo took over."
    assert verdict(OBI, bracket.format(5), ("Eze Umo",)) == "right"


# Gil Rocha played for Parmo FC from 2010 to 2015
ROCHA = q(
    answers=("Parmo FC",),
    question="Which team did Gil Rocha play for as of 2011?",
    S_star=(Triple("Gil Rocha", "playsFor", "Parmo FC", "2010", "2015"),),
    time_refs=refs(("start", "2010"), ("end", "2015")),
)


def test_until_his_dated_move_ends_the_stay_before_it() -> None:
    text = "Rocha left Boca Sur for Parmo in 2010 and stayed until his {} move to Atala, so in 2011 he was at Parmo."
    assert verdict(ROCHA, text.format(2015), ("Boca Sur", "Atala")) == "right"
    assert verdict(ROCHA, text.format(2014), ("Boca Sur", "Atala")) == "wrong"


# Ivo Linn was Prime Minister of Norland from 7 February 1996 to 31 October 1997
LINN = q(
    answers=("Ivo Linn",),
    question="Who was the Prime Minister of Norland whose term began after 1995 and ended before 1998?",
    S_star=(Triple("Ivo Linn", "holds", "Prime Minister of Norland", "1996-02-07", "1997-10-31"),),
    time_refs=refs(("start", "1996-02-07"), ("end", "1997-10-31")),
    granularity="day",
)


def test_taking_over_the_same_day_is_that_day_not_an_approximation() -> None:
    text = "Ema Kos resigned on 7 February 1996; Ivo Linn took over the {} day and served until 31 October 1997."
    assert verdict(LINN, text.format("same"), ("Ema Kos",)) == "right"
    # the next day is a computed date: it cites, never contradicts; the start's day is written in Kos's date
    assert verdict(LINN, text.format("next"), ("Ema Kos",)) == "undecided"
    # "about" still marks an approximation: no day is pinned
    assert verdict(LINN, text.format("same").replace("over the", "over about the"), ("Ema Kos",)) != "right"


# Tom Bard won the Lark Award for Best Actor in 1949
BARD = q(
    answers=("1949",),
    question="In what year did Tom Bard receive the Lark Award for Best Actor?",
    S_star=(Triple("Tom Bard", "hasWonPrize", "Lark Award for Best Actor", "1949", "1949"),),
    time_refs=({"which": "start", "value": "1949", "of": "answer"},),
)


def test_a_second_award_of_the_kind_is_another_instance_not_the_facts_date() -> None:
    text = "Tom Bard won the Lark Award for Best Actor in {} and later a second Lark Award, for a musical, in 1957."
    assert verdict(BARD, text.format(1949)) == "right"
    assert verdict(BARD, text.format(1950)) == "wrong"


# Ada Obi has been President of Norland since 20 January 2021
NORLAND = q(
    answers=("Ada Obi",),
    question="As of 13 December 2024, who is the President of Norland?",
    S_star=(Triple("Ada Obi", "holds", "President of Norland", "2021-01-20", None),),
    time_refs=refs(("start", "2021-01-20")),
    granularity="day",
)


def test_the_questions_own_date_restated_in_a_conclusion_states_no_date_of_the_fact() -> None:
    text = (
        "Ada Obi was inaugurated on {} January 2021. Although Ben Cole won the November 2024 election, he would not"
        " be sworn in until 20 January 2025, so on 13 December 2024 the president was still Obi."
    )
    assert verdict(NORLAND, text.format(20), ("Ben Cole",)) == "right"
    assert verdict(NORLAND, text.format(21), ("Ben Cole",)) == "wrong"
