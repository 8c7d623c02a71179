"""Careful time judging: the reference's own fact at the end no reference asks for (a check-only end).

A bare year stated for the answer's one-year spell ("the U-20 spell was in 2003") states both its ends: it is held
to the data too, unless the data has another spell of the same fact across years.

A question whose only reference is one end of a fact (the end of a senate seat) is still answered wrongly by a text
that gives the fact's other end wrong in the same breath ("from 1807 until he resigned in 1816", data 1805): that end
is checked, never required. An unstated other end costs nothing; an end the data leaves open never contradicts; a
start of another fact in the same sentence is that fact's, not the reference's.
"""

from __future__ import annotations

from chronoqa.records import Question, Triple
from chronoqa.score.time_accuracy import ref_facts
from time_verdicts import q, refs, verdict

OTHERS = ("Valeria", "Amber Institute")


def senate(start: str | None = "1805", end: str | None = "1816") -> Question:
    """Whether Jon Tarrant held a senate seat in 1812; the only reference is the seat's end (1816)."""
    return q(
        answers=("Yes",),
        question="Is it true that in 1812 Jon Tarrant held the position of Senator of Oakland?",
        S_star=(Triple("Jon Tarrant", "position held", "Senator of Oakland", start, end),),
        time_refs=refs(("end", "1816")),
    )


def test_a_wrong_start_beside_the_referenced_end_is_wrong() -> None:
    # "the Senate" names nothing the rules know; the pronoun's clause ties the range to the seat
    text = "Jon Tarrant, former governor of Valeria, sat in the Senate from {} until he resigned in 1816."
    assert verdict(senate(), text.format(1807), OTHERS) == "wrong"
    # the data's start beside the same end: right
    assert verdict(senate(), text.format(1805), OTHERS) == "right"
    # the reference is still the only one: nothing is added to what must be stated
    assert len(ref_facts(senate())[1]) == 1


def test_an_unstated_or_open_other_end_costs_nothing() -> None:
    assert verdict(senate(), "Jon Tarrant was Senator of Oakland until he resigned in 1816.", OTHERS) == "right"
    # the data does not know the start: a stated start contradicts nothing
    unknown = "Jon Tarrant, former governor of Valeria, sat in the Senate from 1807 until he resigned in 1816."
    assert verdict(senate(start=None), unknown, OTHERS) == "right"


def test_another_facts_start_in_the_same_sentence_is_unaffected() -> None:
    # "joined Valeria in 1807" is the next post's start, not the seat's
    text = "Jon Tarrant was Senator of Oakland until he resigned in 1816, and he joined Valeria in 1807."
    assert verdict(senate(), text, OTHERS) == "right"
    # an until-clause that names another entity does not carry the range over to it
    moved = (
        "Jon Tarrant, former governor of Valeria, sat in the Senate from 1807 until Amber Institute hired him in 1816."
    )
    assert verdict(senate(), moved, OTHERS) != "wrong"


def faculty(start: str | None = "1993") -> Question:
    """Whether Ada Fenn still worked at Amber Institute in 2003; the only reference is the stay's end (2012)."""
    return q(
        answers=("Yes",),
        question="Did it still hold in 2003 that Ada Fenn worked at Amber Institute?",
        S_star=(Triple("Ada Fenn", "worksAt", "Amber Institute", start, "2012"),),
        time_refs=refs(("end", "2012")),
    )


def test_a_loosely_bound_range_with_a_wrong_other_end_is_undecided() -> None:
    # "ABI's" names nothing the rules know: the range may cite but not contradict, so its wrong start leaves T open
    text = "Ada Fenn was on ABI's faculty from {} until 2012, so in 2003 she was still there."
    assert verdict(faculty(), text.format(1995), OTHERS) == "undecided"
    assert verdict(faculty(), text.format(1993), OTHERS) == "right"
    assert verdict(faculty(start=None), text.format(1995), OTHERS) == "right"
    # a firmly bound range is held to the data as before
    assert verdict(faculty(), "Ada Fenn worked at Amber Institute from 1995 until 2012.", OTHERS) == "wrong"


def youth(spells: tuple[tuple[str, str], ...] = (("2007", "2007"),)) -> Question:
    """Whether Tomas Brel still played for the Ruvia under-20 team in 2009; the only reference is the spell's end."""
    rows = tuple(Triple("Tomas Brel", "member of sports team", "Ruvia under-20 team", a, b) for a, b in spells)
    return q(
        answers=("No",),
        question="Did it still hold in 2009 that Tomas Brel played for the Ruvia under-20 team?",
        S_star=rows[:1],
        S_dist=rows[1:],
        time_refs=refs(("end", spells[0][1])),
    )


def test_a_one_year_spell_stated_as_another_year_is_wrong() -> None:
    # a bare year states both ends of a spell the data has in one year alone: a wrong year is wrong
    text = "No. Tomas Brel's Ruvia under-20 team spell was in {}; he left the Ruvia under-20 team in 2007."
    assert verdict(youth(), text.format(2006), OTHERS) == "wrong"
    assert verdict(youth(), text.format(2007), OTHERS) == "right"
    # the reference is still the only one
    assert len(ref_facts(youth())[1]) == 1


def test_a_one_year_spell_without_its_year_or_beside_another_spell_is_unaffected() -> None:
    # no year stated for the spell: nothing to hold to the data
    assert verdict(youth(), "No. Tomas Brel left the Ruvia under-20 team in 2007.", OTHERS) == "right"
    # the data has a second spell across years: the bare year may be that spell's, and decides nothing
    two = youth((("2007", "2007"), ("2005", "2006")))
    text = "No. Tomas Brel's Ruvia under-20 team spell was in 2006; he left the Ruvia under-20 team in 2007."
    assert verdict(two, text, OTHERS) == "right"
