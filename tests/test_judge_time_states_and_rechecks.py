"""Careful time judging: an event a state holds since, a negated change, a former state, a re-check.

Each rule is paired with a trap that must stay wrong: "since the death of X on D" dates the holder's start (a wrong
day is still wrong); a change the clause negates ("was never lost") states no end, a plain one does; a state the
subject left that names none of the question's facts ("stopped being an ordinary commune") is not the fact's end, the
fact's own end still is; a reply that re-checks ("Let me recheck: ...") is read from there on; a label whose capitalised
words are all kinds of thing is named by its ordinal phrase ("the 41st Parliament"), another ordinal names it not.
"""

from __future__ import annotations

from chronoqa.records import Question, Triple
from chronoqa.score.answers import after_correction
from time_verdicts import q, refs, verdict

OTHERS = ("Ana Bram", "Castella")


def status(name: str, start: str, end: str | None = None) -> Question:
    """When Ville Brune gained the status ``name`` (the reference: its start)."""
    return q(
        answers=(start,),
        question=f"What year did Ville Brune gain the status of {name}?",
        S_star=(Triple("Ville Brune", "instance of", name, start, end),),
        time_refs=refs(("start", start)),
    )


def test_since_an_event_on_a_date_is_the_states_start() -> None:
    # a table's question: the holder's term, whose start must be stated as a start
    king = q(
        answers=("Carl Bram",),
        question="As of 13 December 2024, who is the King of Oakland?",
        source="table",
        S_star=(Triple("King of Oakland", "holder", "Carl Bram", "2022-09-08", None),),
        time_refs=({"answer": "Carl Bram", "which": "start", "value": "2022-09-08"},),
        granularity="day",
    )
    text = "Carl Bram has been King of Oakland since the death of Ana Bram on {} September 2022."
    assert verdict(king, text.format(8), OTHERS) == "right"
    assert verdict(king, text.format(9), OTHERS) == "wrong"


def test_a_negated_change_after_the_date_states_no_end() -> None:
    landmark = status("National Landmark", "1976")
    text = "Ville Brune's National Landmark designation came in 1976, and the status was {} lost."
    assert verdict(landmark, text.format("never"), OTHERS) == "right"
    # the same change, not negated, is read as the date's end: the start given as an end
    assert verdict(landmark, text.format("soon"), OTHERS) == "wrong"


def test_a_former_state_that_names_no_fact_is_not_the_facts_end() -> None:
    delegated = status("delegated commune", "2016", "2019")
    text = "Ville Brune stopped being {} at the end of 2015 and became a delegated commune on 1 January 2016."
    assert verdict(delegated, text.format("an ordinary commune"), OTHERS) == "right"
    # the fact's own end, stated wrong, is still wrong
    own = "Ville Brune became a delegated commune in 2016 and stopped being a delegated commune at the end of 2018."
    assert verdict(delegated, own, OTHERS) == "wrong"


def test_a_recheck_sets_aside_what_came_before_it() -> None:
    youth = q(
        answers=("No",),
        question="Is it true that in 2005 Ivo Marek played for the Valeria national under-19 football team?",
        S_star=(Triple("Ivo Marek", "member of", "Valeria national under-19 football team", "2004", "2004"),),
        time_refs=refs(("end", "2004")),
    )
    first = "Ivo Marek played for Valeria U-19 in 2005 only, before stepping up to Castella"
    text = first + "... wait — that would make it yes. Let me recheck: his U-19 year was 2004. So no."
    assert after_correction(text).startswith("his U-19 year was 2004")
    assert verdict(youth, text, OTHERS) == "right"
    # without the re-check, the first reading's 2005 stands and is wrong
    assert verdict(youth, first + ". His U-19 year was 2004. So no.", OTHERS) == "wrong"


def test_an_ordinal_phrase_names_a_label_of_generic_words() -> None:
    member = q(
        answers=("Yes",),
        question="Did Ivo Marek take office as Member of the 41st Parliament of the United Kingdom after Ivo Marek "
        "took office as Chancellor of the Duchy of Oakland?",
        S_star=(
            Triple("Ivo Marek", "position held", "Member of the 41st Parliament of the United Kingdom", "1997", "2001"),
        ),
        S_anchor=(Triple("Ivo Marek", "position held", "Chancellor of the Duchy of Oakland", "1993", "1994"),),
        time_refs=(
            {"which": "start", "value": "1997", "of": "answer"},
            {"which": "start", "value": "1993", "of": "anchor"},
        ),
    )
    text = (
        "Marek was Chancellor of the Duchy of Oakland (shadow) from 1993 to 1994 and entered the {} Parliament in 1997."
    )
    assert verdict(member, text.format("41st"), OTHERS) == "right"
    # another parliament's number: the elided subject's date stays the chancellorship's, and is wrong for it
    assert verdict(member, text.format("40th"), OTHERS) == "wrong"
