"""Careful time judging, rules for the false accepts of a fresh blind set, each general. A club written by the
initials of a hyphenated word or without its closing affix ("PSG" of Paris Saint-Germain F.C., "QPR") is named by
them; a move's source named between its target and its date ("signed for PSG from Fenerbahçe in 2007") leaves the
date the target's start; a start and the end stated next for the same fact make one range, and a range stated to
the day does not join two spells weeks apart (an acting spell and the term after it). Each rule with a positive
that must stay right and a trap that must not be accepted."""

from __future__ import annotations

from chronoqa.records import Triple
from chronoqa.score.initials import initials_of
from chronoqa.score.judge_time import years_corrected
from time_verdicts import q, verdict

# Tomas Brel played for Paris Saint-Germain F.C. from 2008 to 2010
BREL = q(
    answers=("yes",),
    question="Did it still hold in 2009 that Tomas Brel played for Paris Saint-Germain F.C.?",
    S_star=(Triple("Tomas Brel", "playsFor", "Paris Saint-Germain F.C.", "2008", "2010"),),
    time_refs=({"which": "end", "value": "2010", "of": "answer"},),
)


def test_a_club_is_named_by_the_initials_of_its_hyphenated_words() -> None:
    assert initials_of("Paris Saint-Germain F.C.", min_len=3) == ("psgfc", "psg")
    assert initials_of("Queens Park Rangers F.C.", min_len=3).bare == "qpr"
    assert initials_of("Nationalist People's Coalition", min_len=3) == ("npc", None)


def test_a_moves_source_before_its_date_leaves_the_date_the_targets() -> None:
    right = "Brel signed for PSG from Lille in 2008 and his contract ran until 2010. So yes."
    assert verdict(BREL, right) == "right"
    # the move's date is PSG's start: a wrong year is wrong, the source named between or not
    assert verdict(BREL, "Brel signed for PSG from Lille in 2007 and his contract ran until 2010. So yes.") == "wrong"
    assert verdict(BREL, "Brel moved to PSG from Lille in 2007 and stayed until 2010. So yes.") == "wrong"
    # a wrong start by the initials alone, no source named: wrong as well
    assert verdict(BREL, "Brel joined PSG in 2007 and his contract ran until 2010. So yes.") == "wrong"


# Ada Lenz was acting President of Ruritania from 10 April 2010 to 8 July 2010, and President from 6 August 2010 to
# 6 August 2015
LENZ = q(
    answers=("Ada Lenz",),
    question="Who was the President of Ruritania whose term ended immediately before 7 August 2015?",
    granularity="day",
    S_star=(
        Triple("Ruritania, President", "name", "Ada Lenz", "2010-08-06", "2015-08-06"),
        Triple("Ruritania, President", "name", "Ada Lenz", "2010-04-10", "2010-07-08"),
    ),
    time_refs=({"answer": "Ada Lenz", "which": "end", "value": "2015-08-06"},),
)


def test_a_range_to_the_day_does_not_join_an_acting_spell_to_the_term() -> None:
    right = "Lenz was President from 6 August 2010, after the election, until 6 August 2015."
    assert verdict(LENZ, right) == "right"
    assert verdict(LENZ, "Lenz was President from 6 August 2010 until 6 August 2015.") == "right"
    # the acting spell's start, with the term's end: two spells a month apart joined into one
    trap = "Lenz was President from 10 April 2010, when she stepped in after the crash, until 6 August 2015."
    assert verdict(LENZ, trap) == "wrong"
    assert verdict(LENZ, "Lenz was President from 10 April 2010 until 6 August 2015.") == "wrong"
    # each spell stated on its own stays right
    both = (
        "Lenz was acting President from 10 April 2010 to 8 July 2010, then President from 6 August 2010 until 6 August"
        " 2015."
    )
    assert verdict(LENZ, both) == "right"


# Lev Arno played for Manchester City F.C. from 2010 to 2012
ARNO = q(
    answers=("2 years",),
    question="How many years passed between when Lev Arno joined Manchester City F.C. and when he left it?",
    S_star=(Triple("Lev Arno", "playsFor", "Manchester City F.C.", "2010", "2012"),),
    time_refs=({"which": "start", "value": "2010", "of": "answer"}, {"which": "end", "value": "2012", "of": "answer"}),
)


def test_came_from_a_source_to_a_target_dates_the_targets_start() -> None:
    right = "Arno came from Porto B to Manchester City in 2010 and left in 2012 for Racing Santander."
    assert verdict(ARNO, right) == "right"
    assert verdict(ARNO, "Arno arrived at Manchester City in 2010 and left in 2012.") == "right"
    # the target's start wrong, and the end swapped onto the start: wrong
    assert verdict(ARNO, "Arno came from Porto B to Manchester City in 2009 and left in 2012 for Racing.") == "wrong"
    assert verdict(ARNO, "Arno came from Porto B to Manchester City in 2012 and left in 2010.") == "wrong"


def test_a_year_corrected_where_it_stands_reads_as_its_correction() -> None:
    assert years_corrected("joined in 2000 — correction, 2001 — and moved") == "joined in 2001 and moved"
    assert verdict(ARNO, "Arno joined Manchester City in 2009 — correction, 2010 — and left in 2012.") == "right"
    assert verdict(ARNO, "Arno joined Manchester City in 2009 (sorry, 2010) and left in 2012.") == "right"
    # the correction is what counts: a wrong one is wrong, though the year it sets aside was right
    assert verdict(ARNO, "Arno joined Manchester City in 2010 — correction, 2011 — and left in 2012.") == "wrong"
    # a range is no correction: "2010–2012" keeps both ends
    assert years_corrected("from 2010 – 2012, rather long") == "from 2010 – 2012, rather long"


# Velling was in Upper Carinthia from 1871 to 1920; the release also knows Low Rhine (another unit)
VELLING = q(
    answers=("Upper Carinthia",),
    question="As of 1889, in which administrative unit was Velling located?",
    S_star=(Triple("Velling", "locatedIn", "Upper Carinthia", "1871", "1920"),),
    time_refs=({"which": "start", "value": "1871", "of": "answer"}, {"which": "end", "value": "1920", "of": "answer"}),
)


def test_a_stay_after_a_move_into_a_place_is_that_places() -> None:
    entities = ("Low Rhine",)
    right = (
        "After the treaty (1871) Velling was moved from Low Rhine into Upper Carinthia (Oberkärnten), where it"
        " remained until 1920."
    )
    assert verdict(VELLING, right, entities) == "right"
    also = "In 1871 Velling was moved from Low Rhine into Upper Carinthia, and it stayed there until 1920."
    assert verdict(VELLING, also, entities) == "right"
    # the stay's end wrong: the place moved into owns it, so it is wrong, not the source's
    wrong = "In 1871 Velling was moved from Low Rhine into Upper Carinthia (Oberkärnten), where it remained until 1918."
    assert verdict(VELLING, wrong, entities) == "wrong"
    assert (
        verdict(
            VELLING,
            "In 1871 Velling was moved from Low Rhine into Upper Carinthia, and it stayed there until 1919.",
            entities,
        )
        == "wrong"
    )
