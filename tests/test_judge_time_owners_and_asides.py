"""Careful time judging: whose date a clause states and at which end. Another spell rejoined, a country's age-group
side, a club named by the words before its city, a cue past a connector, an after-cue that opens a bracket, a "when"
aside, a relative-clause aside, a name the release does not know inside an aside, a wordy "from ... until" range,
a move that ends the spell before it, and a date-first clause whose object is someone else. Each rule with a trap of
the same shape that must stay wrong."""

from __future__ import annotations

from typing import Any

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Question, Triple
from chronoqa.score.time_accuracy import score_time


def q(**kw: Any) -> Question:
    base: dict[str, Any] = {"id": "q", "split": "test", "question": "?", "t_query": None, "S_star": ()}
    base.update(kw)
    return Question(**base)


def verdict(question: Question, expl: str, entities: tuple[str, ...] = ()) -> str:
    row = score_time(question, AnswerRecord("q", "t", "ok", question.answers[0], expl), True, entities=entities)
    return "undecided" if row.undecided else ("right" if row.T else "wrong")


def anchored(club: str, spells: tuple[tuple[str, str], ...], anchor: str, start: str) -> Question:
    """Which team Ivo Marek played for the year before he joined ``anchor``; the answer's spells at ``club``."""
    star, *stale = (Triple("Ivo Marek", "playsFor", club, a, b) for a, b in spells)
    return q(
        answers=(club,),
        question=f"Which team did Ivo Marek play for one year before Ivo Marek joined {anchor}?",
        S_star=(star,),
        S_stale=tuple(stale),
        S_anchor=(Triple("Ivo Marek", "playsFor", anchor, start, "2003"),),
        time_refs=({"which": "start", "value": start, "of": "anchor"},),
    )


def test_a_rejoined_spell_starts_where_its_data_starts() -> None:
    two = anchored("FK Lavra Sela", (("1996", "2001"), ("1990", "1995")), "FK Dolina", "2001")
    clubs = ("FK Lavra Sela", "FK Dolina", "Partizan Gora")
    text = "Marek had two spells at Lavra Sela. After a year at Partizan Gora he rejoined Lavra in {} and stayed until"
    text += " moving to Dolina in 2001, so in 2000 he was a Lavra player."
    assert verdict(two, text.format(1996), clubs) == "right"
    # the second spell began in 1996: a rejoin dated 1995 (the first spell's end) is wrong
    assert verdict(two, text.format(1995), clubs) == "wrong"


def test_a_countrys_age_group_side_names_the_team() -> None:
    youth = anchored("Nordia national under-20 football team", (("2002", "2003"),), "Club Vela", "2003")
    known = ("Nordia", "Club Vela")
    text = "Marek was capped by Nordia's U-20s from {} to 2003 and joined Club Vela in 2003, so in 2002 he was a U-20."
    assert verdict(youth, text.format(2002), known) == "right"
    # the team's spell began in 2002: a range from 2001 is its date, and wrong
    assert verdict(youth, text.format(2001), known) == "wrong"
    # another age ("U-21s") is no team of the question's: the range dates nothing of it
    assert verdict(youth, text.format(2001).replace("U-20s", "U-21s"), known) == "right"


def test_a_club_is_named_by_its_words_before_the_city_the_release_knows() -> None:
    red = anchored("Blue Star Novigrad", (("1984", "1989"),), "FK Lavra", "1989")
    text = "Marek came through at Blue Star and played there from 1984 to {} before joining Lavra in 1989."
    known = ("Novigrad", "FK Lavra")
    assert verdict(red, text.format(1989), known) == "right"
    assert verdict(red, text.format(1988), known) == "wrong"


def test_a_persons_given_names_do_not_name_another_person() -> None:
    chair = q(
        answers=("Ana Maria Costa",),
        source="table",
        question="Who chaired the Nordia council whose term began in 1994 and ended in 2000?",
        S_star=(Triple("Nordia council, chair", "name", "Ana Maria Costa", "1994", "2000"),),
        time_refs=(
            {"which": "start", "value": "1994", "answer": "Ana Maria Costa"},
            {"which": "end", "value": "2000", "answer": "Ana Maria Costa"},
        ),
    )
    known = ("Ana Maria Pires", "Costa")
    assert verdict(chair, "Ana Maria Costa chaired it from 1994 to 2000.", known) == "right"
    # her namesake's dates are not hers, though "Costa" is a place the release knows
    assert verdict(chair, "Ana Maria Pires chaired it from 1994 to 2000.", known) != "right"
