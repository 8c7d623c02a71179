"""Careful time judging: a stay said to go on past its end, a stay's reach, a relative date after an aside.

Each rule is paired with the same sentence with a wrong date, which must not be right: "was still there in D" in a
year the spell does not reach is wrong; "stayed with X into D" is X's end; "that year" after a bracketed aside counts
from the main clause's date, not the aside's; a stay's end stated outright is not overridden by a later move out of it;
"his D1–D2 X spell" is X's range; "his last appearances for X were in D" is X's end.
"""

from __future__ import annotations

from chronoqa.records import Question, Triple
from time_verdicts import q, verdict

OTHERS = ("Ana Bram", "Rovia FC", "Dunmore FC")


def one_year_after(castella_end: str) -> Question:
    """The club a year after joining Castella FC (2007); Castella's spell ends ``castella_end``."""
    return q(
        answers=("Rovia FC",),
        question="Which club did Ivo Marek play for one year after Ivo Marek joined Castella FC?",
        S_star=(Triple("Ivo Marek", "member of sports team", "Rovia FC", "2008", "2009"),),
        S_anchor=(Triple("Ivo Marek", "member of sports team", "Castella FC", "2007", castella_end),),
        time_refs=({"which": "start", "value": "2007", "of": "anchor"},),
    )


def test_a_stay_said_to_go_on_past_its_end_is_wrong() -> None:
    text = "He joined Castella FC in 2007 and was still there in 2008, so the answer is Castella FC."
    assert verdict(one_year_after("2007"), text, OTHERS) == "wrong"
    # the data's spell reaches 2008: the same words are right
    assert verdict(one_year_after("2009"), text, OTHERS) == "right"
    # a plain move in the year after is no state claimed at it
    assert verdict(one_year_after("2007"), "He joined Castella FC in 2007 and left for Rovia FC in 2008.") == "right"


def left_when(end: str) -> Question:
    return q(
        answers=(end,),
        question="When did Ivo Marek leave Castella FC?",
        S_star=(Triple("Ivo Marek", "member of sports team", "Castella FC", "2010", end),),
        time_refs=({"which": "end", "value": end, "of": "answer"},),
    )


def test_stayed_with_a_side_into_a_year_is_its_end() -> None:
    text = "Ivo Marek joined Castella FC in 2010 and stayed with the club into 2012."
    assert verdict(left_when("2012"), text, OTHERS) == "right"
    assert verdict(left_when("2013"), text, OTHERS) != "right"


def next_club(start: str) -> Question:
    """The club after Castella FC (2012-2014): Rovia FC from ``start``."""
    return q(
        answers=("Rovia FC",),
        question="After Ivo Marek left Castella FC, which club did Ivo Marek play for next?",
        S_star=(Triple("Ivo Marek", "member of sports team", "Rovia FC", start, "2016"),),
        S_anchor=(Triple("Ivo Marek", "member of sports team", "Castella FC", "2012", "2014"),),
        time_refs=(
            {"which": "end", "value": "2014", "of": "anchor"},
            {"which": "start", "value": start, "of": "answer"},
        ),
    )


def test_that_year_after_an_aside_counts_from_the_main_clause() -> None:
    text = "Marek left Castella FC in 2014 (he had been there since 2012) and joined Rovia FC that year."
    assert verdict(next_club("2014"), text, ("Ana Bram", "Dunmore FC")) == "right"
    # "that year" is 2014, not the aside's 2012: where Rovia's spell began in 2015 it is wrong
    assert verdict(next_club("2015"), text, ("Ana Bram", "Dunmore FC")) == "wrong"


def during(end: str) -> Question:
    return q(
        answers=("Castella FC",),
        question="Which club did Ivo Marek play for during 2012?",
        S_star=(Triple("Ivo Marek", "member of sports team", "Castella FC", "2011", end),),
        time_refs=({"which": "start", "value": "2011", "of": "answer"}, {"which": "end", "value": end, "of": "answer"}),
    )


def test_a_stated_end_is_not_overridden_by_a_later_move() -> None:
    text = "Marek played for Castella FC from 2011 to 2013 before returning to Rovia FC in 2014."
    assert verdict(during("2013"), text, OTHERS) == "right"
    # the stated end against the data is still wrong
    assert verdict(during("2014"), text, OTHERS) == "wrong"


def joined_after(castella_end: str) -> Question:
    return q(
        answers=("No",),
        question="Yes or no: Ivo Marek joined Rovia FC after Ivo Marek left Castella FC?",
        S_star=(Triple("Ivo Marek", "member of sports team", "Rovia FC", "2003", "2004"),),
        S_anchor=(Triple("Ivo Marek", "member of sports team", "Castella FC", "2008", castella_end),),
        time_refs=(
            {"which": "start", "value": "2003", "of": "answer"},
            {"which": "end", "value": castella_end, "of": "anchor"},
        ),
    )


def test_a_range_before_a_name_and_spell_is_that_names() -> None:
    text = "No. He was at Rovia FC in 2003–04, years before his 2008–2011 Castella FC spell ended."
    assert verdict(joined_after("2011"), text, ("Ana Bram",)) == "right"
    assert verdict(joined_after("2012"), text, ("Ana Bram",)) == "wrong"


def left_youth_before(youth_end: str) -> Question:
    return q(
        answers=("Yes",),
        question="Yes or no: Ivo Marek left the Valeria national under-19 football team before Ivo Marek joined "
        "Castella FC?",
        S_star=(
            Triple("Ivo Marek", "member of sports team", "Valeria national under-19 football team", "1996", youth_end),
        ),
        S_anchor=(Triple("Ivo Marek", "member of sports team", "Castella FC", "1999", "2005"),),
        time_refs=(
            {"which": "end", "value": youth_end, "of": "answer"},
            {"which": "start", "value": "1999", "of": "anchor"},
        ),
    )


def test_last_appearances_for_a_side_are_its_end() -> None:
    text = (
        "Yes. Marek's last appearances for the Valeria national under-19 football team were in 1998, and he signed "
        "for Castella FC the following year."
    )
    assert verdict(left_youth_before("1998"), text, OTHERS) == "right"
    assert verdict(left_youth_before("1997"), text, OTHERS) == "wrong"
