"""Careful time judging: a hedged date states nothing; a return to the club before a loan ends the loan.

"won it in 1961 or 1962" leaves the year open: neither date is stated (wrong), unless the choice is bound to the
fact by weak evidence only (undecided). "1961 or so" is an approximate date and still states 1961. A date "or
earlier" is left open too. "on loan at X in 2004, returning to Y in 2005" dates the loan's end: checked against the
data's end (a mismatch leaves T undecided), never counted as stating it.
"""

from __future__ import annotations

from chronoqa.records import Question, Triple
from time_verdicts import q, refs, verdict

OTHERS = ("Brackley Town", "Orla Vance")


def prize() -> Question:
    """When Tomas Hale won the Ferrand Prize (1961)."""
    return q(
        answers=("1961",),
        question="When did Tomas Hale win the Ferrand Prize?",
        S_star=(Triple("Tomas Hale", "hasWonPrize", "Ferrand Prize", "1961", None),),
        time_refs=refs(("start", "1961")),
    )


def test_a_choice_of_two_dates_states_neither() -> None:
    text = "Tomas Hale was given the Ferrand Prize in 1961 or 1962; the records disagree."
    assert verdict(prize(), text) == "wrong"
    assert verdict(prize(), "Tomas Hale was given the Ferrand Prize in 1962, or perhaps 1961.") == "wrong"
    # one date, stated: right
    assert verdict(prize(), "Tomas Hale was given the Ferrand Prize in 1961; the records agree.") == "right"


def test_a_date_left_open_states_nothing_but_or_so_is_an_approximate_date() -> None:
    assert verdict(prize(), "Tomas Hale was given the Ferrand Prize in 1961, or maybe earlier.") == "wrong"
    assert verdict(prize(), "Tomas Hale was given the Ferrand Prize in 1961 or later.") == "wrong"
    assert verdict(prize(), "Tomas Hale was given the Ferrand Prize in 1961 or so.") == "right"


def loan(end: str = "2004") -> Question:
    """When Dario Kell joined Brackley Town (a loan of 2004 whose end is ``end``)."""
    return q(
        answers=("2004",),
        question="What year did Dario Kell join Brackley Town?",
        S_star=(Triple("Dario Kell", "member of sports team", "Brackley Town", "2004", end),),
        time_refs=refs(("start", "2004")),
    )


def test_a_return_after_a_loan_is_held_to_the_loans_end() -> None:
    text = "Dario Kell went from Orla Vance to Brackley Town on loan in 2004, returning to Orla Vance in {} afterwards."
    assert verdict(loan(), text.format(2005), OTHERS) == "undecided"
    # the data's end: right
    assert verdict(loan(), text.format(2004), OTHERS) == "right"
    assert verdict(loan(end="2005"), text.format(2005), OTHERS) == "right"
    # a return not dated right after its club says nothing of the loan's end
    later = "Dario Kell went to Brackley Town on loan in 2004, returning to Orla Vance; he retired in 2007."
    assert verdict(loan(), later, OTHERS) == "right"


def test_a_return_never_states_the_end_it_is_checked_against() -> None:
    ended = q(
        answers=("2005",),
        question="When did Dario Kell leave Brackley Town?",
        S_star=(Triple("Dario Kell", "member of sports team", "Brackley Town", "2004", "2005"),),
        time_refs=refs(("end", "2005")),
    )
    text = "Dario Kell went from Orla Vance to Brackley Town on loan in 2004, returning to Orla Vance in 2005."
    assert verdict(ended, text, OTHERS) != "right"
    assert verdict(ended, "Dario Kell left Brackley Town in 2005 and went back to Orla Vance.", OTHERS) == "right"


def holding(end: str = "2003") -> Question:
    """How long Kestrel Holdings owned Amber Records (2001 to ``end``)."""
    return q(
        answers=(f"{int(end) - 2001} years",),
        question="How many years after Kestrel Holdings acquired Amber Records did it stop owning Amber Records?",
        S_star=(Triple("Kestrel Holdings", "owns", "Amber Records", "2001", end),),
        time_refs=refs(("start", "2001"), ("end", end)),
    )


def test_letting_it_go_is_an_end() -> None:
    text = "Kestrel Holdings acquired Amber Records in 2001 and let it go in 2003."
    assert verdict(holding(), text) == "right"
    # held to the data like any end: a different year is wrong
    assert verdict(holding(end="2004"), text) == "wrong"


def premier(start: str = "2019-03-05") -> Question:
    """Who is the Prime Minister of Veldoria as of 2024 (Orla Vance, since ``start``)."""
    return q(
        answers=("Orla Vance",),
        question="As of 1 June 2024, who is the Prime Minister of Veldoria?",
        granularity="day",
        S_star=(Triple("Veldorian Cabinet", "head of government", "Orla Vance", start, None),),
        time_refs=({"which": "start", "value": start, "answer": "Orla Vance"},),
    )


def test_the_questions_state_as_the_possessor_of_a_numbered_office_owns_no_date() -> None:
    text = "Orla Vance was sworn in as Veldoria's 4th Prime Minister on 5 March 2019 and still held office in 2024."
    # "Veldoria" is an entity the release knows, of no fact here; the question names it with the office
    assert verdict(premier(), text, ("Veldoria",)) == "right"
    assert verdict(premier(start="2019-03-06"), text, ("Veldoria",)) == "wrong"
    # a possessor of no office keeps the date: the start is the state's, not Orla Vance's
    other = "Orla Vance was sworn in after Veldoria's long crisis on 5 March 2019 and still held office in 2024."
    assert verdict(premier(), other, ("Veldoria",)) != "right"
