"""Careful time judging: a date its clause plainly states as an end (or an event's day) no reference asks for.

"Signed for Tarn Rovers in 2003 and stayed until his move to Olden City in 2007" states the spell's end, though the
question asks only its start: where the data knows that end (2006) and the text gives another, the text is wrong. The
tie must be plain ("X ran/lasted/stayed until D", "until his move ... in D", "lasted until he died ... in D"; an
event's verb and place right before its day); a loosely tied date, an unstated end, an end the data leaves open or
another spell's end decides nothing, and the references to state are the same as before.
"""

from __future__ import annotations

from chronoqa.records import Question, Triple
from chronoqa.score.time_accuracy import ref_facts
from time_verdicts import q, refs, verdict

OTHERS = ("Olden City", "Corby Athletic")


def spell(end: str | None = "2006", more: tuple[tuple[str, str], ...] = ()) -> Question:
    """When Ivo Marek joined Tarn Rovers; the only reference is the spell's start (2003)."""
    rows = tuple(Triple("Ivo Marek", "member of sports team", "Tarn Rovers", a, b) for a, b in (("2003", end), *more))
    return q(
        answers=("2003",),
        question="In what year did Ivo Marek join Tarn Rovers?",
        S_star=rows[:1],
        S_dist=rows[1:],
        time_refs=refs(("start", "2003")),
    )


def test_an_end_stated_until_a_move_is_held_to_the_data() -> None:
    # "Kestrel Town" names nothing the rules know: the date only cites, but its clause plainly states the end
    text = "Ivo Marek signed for Tarn Rovers in 2003 and stayed until his move to Kestrel Town in {}."
    assert verdict(spell(), text.format(2007), OTHERS) == "wrong"
    assert verdict(spell(), text.format(2006), OTHERS) == "right"
    # the end is checked, never required: the references are the same
    assert len(ref_facts(spell())[1]) == 1


def assembly(end: str | None = "2001") -> Question:
    """When Ada Fenn took her seat in the 9th Riverland Assembly; the only reference is the seat's start (1997)."""
    return q(
        answers=("1997",),
        question="In what year did Ada Fenn take office as Member of the 9th Riverland Assembly?",
        S_star=(Triple("Ada Fenn", "position held", "Member of the 9th Riverland Assembly", "1997", end),),
        time_refs=refs(("start", "1997")),
    )


def test_a_body_that_ran_until_a_date_is_held_to_the_seats_end() -> None:
    text = "Ada Fenn was elected in 1997 and sat in the 9th Riverland Assembly, which ran until {}, when she moved on."
    assert verdict(assembly(), text.format(2005), OTHERS) == "wrong"
    assert verdict(assembly(), text.format(2001), OTHERS) == "right"
    assert verdict(assembly(end=None), text.format(2005), OTHERS) == "right"


def test_an_unstated_or_open_end_or_another_spells_end_costs_nothing() -> None:
    assert verdict(spell(), "Ivo Marek signed for Tarn Rovers in 2003.", OTHERS) == "right"
    text = "Ivo Marek signed for Tarn Rovers in 2003 and stayed until his move to Kestrel Town in 2011."
    # the data leaves the end open: nothing to hold the stated end to
    assert verdict(spell(end=None), text, OTHERS) == "right"
    # a second spell at the same club, which the data ends in 2011
    assert verdict(spell(more=(("2009", "2011"),)), text, OTHERS) == "right"


def test_a_loosely_tied_date_is_not_wrong() -> None:
    # someone else the clause names may be the one who stayed: the coach, not the spell
    for text in (
        "Ivo Marek signed for Tarn Rovers in 2003 (the coach, who stayed until 2009, had scouted him).",
        "Ivo Marek signed for Tarn Rovers in 2003 under coach Bram Dijk, and Dijk stayed until 2009.",
        "Ivo Marek signed for Tarn Rovers in 2003 under coach Bram Dijk, who stayed until 2009.",
    ):
        assert verdict(spell(), text, OTHERS) == "right", text
    # another club's end after the move: Olden City's, not Tarn Rovers'
    moved = "Ivo Marek signed for Tarn Rovers in 2003, and he left Olden City in 2009."
    assert verdict(spell(), moved, OTHERS) == "right"


def marriage(end: str = "1990") -> Question:
    """In what year Lena Vos married Piet Vos; the only reference is the marriage's start (1960)."""
    return q(
        answers=("1960",),
        question="In what year did Lena Vos marry Piet Vos?",
        S_star=(Triple("Lena Vos", "spouse", "Piet Vos", "1960", end),),
        time_refs=refs(("start", "1960")),
    )


def test_a_marriage_that_lasted_until_a_death_is_held_to_its_end() -> None:
    text = "Lena Vos married Piet Vos in 1960; the marriage lasted until he died in a car accident in {}."
    assert verdict(marriage(), text.format(1989), OTHERS) == "wrong"
    assert verdict(marriage(), text.format(1990), OTHERS) == "right"


def death(day: str = "2010-05-04") -> Question:
    """In what year Mira Holt died in Corby; the reference is the year, the data may have the day."""
    return q(
        answers=("2010",),
        question="What year did Mira Holt die in Corby?",
        S_star=(Triple("Mira Holt", "died in", "Corby", day, day),),
        time_refs=refs(("start", "2010")),
    )


def test_an_events_day_after_its_verb_and_place_is_held_to_the_datas_day() -> None:
    text = "Mira Holt died in Corby, Northshire, on {} 2010."
    assert verdict(death(), text.format("4 June"), OTHERS) == "wrong"
    assert verdict(death(), text.format("4 May"), OTHERS) == "right"
    assert verdict(death(), "Mira Holt died in Corby in 2010.", OTHERS) == "right"
    # the data has the year only: a day cannot be held to it
    assert verdict(death("2010"), text.format("4 June"), OTHERS) == "right"
