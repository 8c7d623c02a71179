"""Careful time judging of a move that leaves a spell ("left for Y in D": D ends the spell left) and of a cue that
belongs to the next date ("in D1 he was at X, having joined in D2": D1 is a state, D2 the start); each case with a
trap of the same shape that must stay wrong."""

from __future__ import annotations

from typing import Any

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Question, Triple
from chronoqa.score.time_accuracy import score_time


def q(**kw: Any) -> Question:
    base: dict[str, Any] = {"id": "q", "split": "test", "question": "?", "t_query": "2000", "S_star": ()}
    base.update(kw)
    return Question(**base)


def verdict(question: Question, expl: str, entities: tuple[str, ...]) -> str:
    row = score_time(question, AnswerRecord("q", "t", "ok", question.answers[0], expl), True, entities=entities)
    return "undecided" if row.undecided else ("right" if row.T else "wrong")


KNOWN = ("Ola Brekke", "Vardal IF", "Skarnes BK", "Lomen FK")
STILL = q(answers=("yes",), question="Was it still the case in 2004 that Ola Brekke played for Vardal IF?",
          S_star=(Triple("Ola Brekke", "playsFor", "Vardal IF", "2002", "2006"),),
          time_refs=({"which": "end", "value": "2006", "of": "answer"},))  # fmt: skip


def test_leaving_for_another_club_ends_the_spell_left() -> None:
    assert verdict(STILL, "Brekke signed for Vardal IF in 2002 and left for Skarnes BK in 2006.", KNOWN) == "right"
    assert verdict(STILL, "Brekke came to Vardal IF in 2002, leaving for Lomen FK in 2006.", KNOWN) == "right"
    # the year of the move is the spell's end: a wrong one states no end and the start is contradicted
    assert verdict(STILL, "Brekke signed for Vardal IF in 2002 and left for Skarnes BK in 2007.", KNOWN) != "right"
    assert verdict(STILL, "Brekke signed for Vardal IF in 2001 and left for Skarnes BK in 2006.", KNOWN) == "wrong"
    # joining another club is no leaving: the date is that club's start, not the spell's end
    assert verdict(STILL, "Brekke signed for Vardal IF in 2002 and joined Skarnes BK in 2006.", KNOWN) != "right"


AFTER = q(answers=("Lomen FK",), question="Two years after Ola Brekke left Vardal IF, which team did he play for?",
          S_star=(Triple("Ola Brekke", "playsFor", "Lomen FK", "2007", "2010"),),
          S_anchor=(Triple("Ola Brekke", "playsFor", "Vardal IF", "2002", "2006"),),
          time_refs=({"which": "end", "value": "2006", "of": "anchor"},))  # fmt: skip


def test_a_cue_just_before_the_next_date_is_that_dates_own() -> None:
    text = "Brekke left Vardal IF in 2006. Two years on, in 2008, he was with Lomen FK, having signed in 2007."
    assert verdict(AFTER, text, KNOWN) == "right"
    # the next date's start, stated wrong, still contradicts the data
    text = "Brekke left Vardal IF in 2006. Two years on, in 2008, he was with Lomen FK, having signed in 2008."
    assert verdict(AFTER, text, KNOWN) == "wrong"
    # a cue with the date after it and no date of its own still gives the date before it its role
    assert verdict(AFTER, "Brekke left Vardal IF in 2006. In 2008 he signed for Lomen FK.", KNOWN) == "wrong"
