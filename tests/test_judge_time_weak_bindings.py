"""Careful time judging: a mismatching date bound to a fact by weak evidence only makes T undecided, not wrong.

A ``wrong`` verdict needs the date bound firmly to the fact (its clause's subject is the fact's and its predicate or
object names the fact). A date whose owner is only the object of a time preposition, only the nearest name after it
past a connector, a subject after it whose object is another entity, the subject of another agent's subordinate
clause, or a pronoun clause that names nothing of the fact before a bracket, may belong to another fact. Each weak
binding is paired with its firmly bound variant, which must stay wrong.
"""

from __future__ import annotations

from chronoqa.records import Question, Triple
from time_verdicts import q, refs, verdict

CLUBS = ("FK Lavra Sela", "FK Dolina", "Partizan Gora")


def anchored(spells: tuple[tuple[str, str], ...], anchor_end: str = "2003") -> Question:
    """Which team Ivo Marek played for the year before he joined FK Dolina (2001); his spells at FK Lavra Sela."""
    star, *stale = (Triple("Ivo Marek", "playsFor", "FK Lavra Sela", a, b) for a, b in spells)
    return q(
        answers=("FK Lavra Sela",),
        question="Which team did Ivo Marek play for one year before Ivo Marek joined FK Dolina?",
        S_star=(star,),
        S_stale=tuple(stale),
        S_anchor=(Triple("Ivo Marek", "playsFor", "FK Dolina", "2001", anchor_end),),
        time_refs=({"which": "start", "value": "2001", "of": "anchor"},),
    )


def left(end: str) -> Question:
    """In what year Ivo Marek left FK Dolina (he played there from 2001 to ``end``)."""
    return q(
        answers=(end,),
        question="In what year did Ivo Marek leave FK Dolina?",
        S_star=(Triple("Ivo Marek", "playsFor", "FK Dolina", "2001", end),),
        time_refs=refs(("end", end)),
    )


def test_a_range_after_a_time_prepositions_object_is_undecided() -> None:
    two = anchored((("1996", "2000"), ("1990", "1995")))
    # "before Dolina" only times the spells at Lavra Sela: the ranges may be Lavra Sela's, not Dolina's
    weak = "Marek had two spells at Lavra Sela before Dolina — 1990–1995 and 1996–2000 — and moved to Dolina in 2001."
    assert verdict(two, weak, CLUBS) == "undecided"
    # the same ranges stated for Dolina itself contradict its data (from 2001)
    assert verdict(two, weak.replace("at Lavra Sela before Dolina", "at Dolina"), CLUBS) == "wrong"
    assert verdict(two, "Marek was at Dolina (1996–2000) and joined Dolina in 2001.", CLUBS) == "wrong"


def test_a_date_in_another_agents_subordinate_clause_is_undecided() -> None:
    joined = q(
        answers=("2001",),
        question="In what year did Ivo Marek join FK Dolina?",
        S_star=(Triple("Ivo Marek", "playsFor", "FK Dolina", "2001", "2002"),),
        time_refs=refs(("start", "2001")),
    )
    # what Partizan Gora did in 2003 may be a later move, not the end of the stay at Dolina (2002)
    weak = "Marek came to Dolina in 2001 and spent a season there before Partizan Gora signed him in 2003."
    assert verdict(joined, weak, CLUBS) == "undecided"
    # the player's own leaving, in the same place, is the stay's end: 2003 is wrong
    assert verdict(joined, weak.replace("Partizan Gora signed him", "leaving"), CLUBS) == "wrong"
    # a subordinate clause that ended before the date leaves the date to the player's own clause
    firm = "Marek came to Dolina in 2001 and spent a season there; after Partizan Gora called, he left Dolina in 2003."
    assert verdict(joined, firm, CLUBS) == "wrong"


def test_a_bracket_after_a_pronoun_clause_that_names_nothing_of_the_fact_is_undecided() -> None:
    stay = left("2002")
    weak = "Marek joined Dolina in 2001 and left it in 2002; he was already a senior international by then (1998–2004)."
    assert verdict(stay, weak, CLUBS) == "undecided"
    # the clause names the fact's club: the bracket is that stay's, and wrong
    assert verdict(stay, weak.replace("a senior international", "at Dolina"), CLUBS) == "wrong"
    # a cue of its own binds the bracket to the clause before it
    assert verdict(stay, "Marek joined Dolina in 2001 (staying until 2004).", CLUBS) == "wrong"


def test_a_subject_after_the_date_with_another_entity_as_object_is_undecided() -> None:
    prize = q(
        answers=("Nordia Prize",),
        question="When did Ivo Marek receive the Nordia Prize?",
        S_star=(Triple("Ivo Marek", "hasWonPrize", "Nordia Prize", "1961", "1961"),),
        time_refs=refs(("start", "1961")),
    )
    known = ("Nordia Prize", "Vela Medal")
    weak = "Ivo Marek won the Nordia Prize in 1961; decades later, in 2002, he received the Vela Medal."
    assert verdict(prize, weak, known) == "undecided"
    # the same clause with the fact's own prize as its object states a second, wrong date for it
    assert verdict(prize, weak.replace("Vela Medal", "Nordia Prize"), known) == "wrong"
    assert verdict(prize, "In 2002, he received the Nordia Prize.", known) == "wrong"


def test_firm_negatives_stay_wrong() -> None:
    # a swapped start and end of the fact's own spell, an off-by-one year stated plainly, a wrong anchor date
    stay = left("2002")
    assert verdict(stay, "Marek joined Dolina in 2002 and left it in 2001.", CLUBS) == "wrong"
    assert verdict(stay, "Marek joined Dolina in 2001 and left it in 2003.", CLUBS) == "wrong"
    two = anchored((("1996", "2000"),))
    assert verdict(two, "Marek joined Dolina in 2002; in 2001 he was at Lavra Sela.", CLUBS) == "wrong"
    assert verdict(two, "Marek joined Dolina in 2001; in 2000 he was at Lavra Sela.", CLUBS) == "right"


def test_a_year_range_over_day_level_spells_is_held_to_them_by_year() -> None:
    # two day-level terms a month apart (acting, then elected): "(2010–2015)" spans both, stated by the year
    chair = q(
        answers=("Ana Maria Costa",),
        source="table",
        question="Who chaired the Nordia council whose term ended on 6 August 2015?",
        S_star=(Triple("Nordia council, chair", "name", "Ana Maria Costa", "2010-08-06", "2015-08-06"),),
        S_stale=(Triple("Nordia council, chair", "name", "Ana Maria Costa", "2010-04-10", "2010-07-08"),),
        time_refs=({"which": "end", "value": "2015-08-06", "answer": "Ana Maria Costa"},),
        granularity="day",
    )
    text = "Ana Maria Costa chaired it until 6 August 2015, so Ana Maria Costa ({}) is the one."
    assert verdict(chair, text.format("2010–2015")) == "right"
    # a year range that no chain of her terms covers is still wrong
    assert verdict(chair, text.format("2008–2015")) == "wrong"
