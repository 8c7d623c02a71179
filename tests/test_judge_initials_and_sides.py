"""Careful judging of a yes or no said in another language as a reply's own first clause, of a gold name written
as its initials, of a national team named by its country or as "<country> U-20", and of durations written in
words of two parts: each case with a trap of the same shape that must not be accepted."""

from __future__ import annotations

from answer_verdicts import judged, q
from chronoqa.records import Triple
from chronoqa.score.initials import initials_of
from chronoqa.time import Duration, Granularity, count_of, durations_in

YES = q(answers=("yes",), answer_type="yes_no", question="Did Tom Ek still play for Nord FC in 2001?")
NO = q(answers=("no",), answer_type="yes_no", question="Did Tom Ek still play for Nord FC in 2004?")


def test_a_yes_or_no_of_another_language_counts_as_the_replys_own_first_clause() -> None:
    assert judged(NO, "Nej.") == "right"
    assert judged(NO, "Nei, han hadde gått videre.") == "right"
    assert judged(YES, "Da, a jucat acolo până în 2002.") == "right"
    assert judged(YES, "はい。2002年まで在籍していました。") == "right"
    assert judged(NO, "Ні, він пішов раніше.") == "right"
    # the other side is wrong, not undecided
    assert judged(YES, "Nej.") == "wrong"
    assert judged(NO, "Da.") == "wrong"
    assert judged(YES, "いいえ。") == "wrong"
    # the same letters as a word of a sentence say nothing ("Da" is Italian "from")
    assert judged(YES, "Da 1998 a 2003 giocò per il Nord FC.") != "right"
    assert judged(NO, "Nu pot spune.") != "right"


TITLES = ("Grandmaster", "International Master", "Woman International Master")


def test_a_gold_name_written_as_its_initials() -> None:
    assert initials_of("Party of Democratic Socialism").full == "pds"
    assert initials_of("Rot-Weiss Essen").full == "rwe"
    assert initials_of("Woman Grandmaster").full == "wgm"  # a title written as one word abbreviated as two
    assert initials_of("Grandmaster").full == "gm"
    assert initials_of("Nordhausen").full is None and initials_of("1. FC Nord").full is None
    title = q(answers=("International Master",), question="Which chess title did Tom Ek receive in 1990?")
    assert judged(title, "IM", TITLES) == "right"
    assert judged(title, "He was given the IM title that spring.", TITLES) == "right"
    grand = q(answers=("Grandmaster",), question="Which chess title did Tom Ek receive in 1995?")
    assert judged(grand, "GM, in 1995.", TITLES) == "right"
    # the initials of a rival title, or the gold's under a negation, or in lower case, accept nothing
    assert judged(title, "GM", TITLES) != "right"
    assert judged(title, "Certainly not IM.", TITLES) != "right"
    assert judged(title, "Im Jahr 1990 nichts.", TITLES) != "right"
    # a rival with the same initials: the initials decide nothing
    lake = q(answers=("Lake Hollis",), question="Where did Tom Ek live in 1990?")
    assert judged(lake, "LH", ("Lake Hollis", "Little Harbor")) != "right"
    assert judged(lake, "LH", ("Lake Hollis", "Port Amber")) == "right"
    # initials next to a capitalised word are a longer name ("AC Sylvan" is no "Athletic Club")
    club = q(answers=("Athletic Club",), S_star=(Triple("Tom Ek", "playsFor", "Athletic Club", "1990", None),))
    assert judged(club, "AC Sylvan", ("Athletic Club", "Nord FC")) != "right"
    assert judged(club, "AC, from 1990.", ("Athletic Club", "Nord FC")) == "right"


SENIOR = q(answers=("Freedonia national football team",), question="Which national team did Tom Ek play for in 2003?",
           S_star=(Triple("Tom Ek", "playsFor", "Freedonia national football team", "2002", "2006"),))  # fmt: skip
SIDES = ("Freedonia national football team", "Freedonia national under-21 football team", "Sylvan FC")


def test_a_senior_national_team_named_by_its_country_alone() -> None:
    ctx = SIDES[1:]
    assert judged(SENIOR, "Freedonia", SIDES, ctx) == "right"
    assert judged(SENIOR, "By then he was playing for Freedonia — the full side.", SIDES, ctx) == "right"
    assert judged(SENIOR, "Freedonia's senior side.", SIDES, ctx) == "right"
    # an age side, a youth cap, a place, a side's mark: not the senior team
    assert judged(SENIOR, "Freedonia's under-21s.", SIDES, ctx) != "right"
    assert judged(SENIOR, "He was a youth international for Freedonia.", SIDES, ctx) != "right"
    assert judged(SENIOR, "He played club football in Freedonia.", SIDES, ctx) != "right"
    assert judged(SENIOR, "Freedonia U21", SIDES, ctx) != "right"
    assert judged(SENIOR, "Not Freedonia.", SIDES, ctx) != "right"
    # a country alone names no age side
    under = SIDES[1]
    young = q(answers=(under,), question="Which team did Tom Ek play for?",
              S_star=(Triple("Tom Ek", "playsFor", under, "1998", "2000"),))  # fmt: skip
    assert judged(young, "Freedonia", SIDES, (SIDES[0], SIDES[2])) != "right"


def test_a_mens_age_side_named_as_country_and_age() -> None:
    gold = "Freedonia men's national under-20 soccer team"
    rival = "Freedonia men's national under-23 soccer team"
    side = q(answers=(gold,), question="At first, which team did Tom Ek play for?",
             S_star=(Triple("Tom Ek", "playsFor", gold, "1996", "1997"),))  # fmt: skip
    cands = (gold, rival, "Sylvan FC")
    assert judged(side, "Freedonia's U-20 national team", cands, (rival,)) == "right"
    assert judged(side, "The Freedonia U20s.", cands, (rival,)) == "right"
    assert judged(side, "Freedonia U-23", cands, (rival,)) == "wrong"


def test_durations_in_words_of_two_parts_and_a_round_figure_before_the_count() -> None:
    assert durations_in("a span of twenty-four years") == [Duration(24, Granularity.YEAR)]
    assert durations_in("thirty one years") == [Duration(31, Granularity.YEAR)]
    assert [d.units for d in durations_in("between twenty and thirty years")] == [20, 30]
    assert count_of("seven") == 7 and count_of("Forty-two.") == 42 and count_of("seventh") is None
    twenty_four = q(answers=("24 years",), answer_ids=("P24Y",), answer_type="duration", question="How many years?")
    four = q(answers=("4 years",), answer_ids=("P4Y",), answer_type="duration", question="How many years?")
    assert judged(twenty_four, "He was a member from 1970 to 1994: twenty-four years.") == "right"
    assert judged(four, "He was a member from 1970 to 1994: twenty-four years.") == "wrong"  # not "four years"
    assert judged(twenty_four, "twenty-four") == "right" and judged(four, "twenty-four") == "wrong"
    seven = q(answers=("7 years",), answer_ids=("P7Y",), answer_type="duration", question="How many years?")
    assert judged(seven, "seven") == "right" and judged(seven, "seventy") == "wrong"
    nineteen = q(answers=("19 years",), answer_ids=("P19Y",), answer_type="duration", question="How many years?")
    twenty = q(answers=("20 years",), answer_ids=("P20Y",), answer_type="duration", question="How many years?")
    reply = "Nearly two decades — 19 years, from 1981 to 2000."
    assert judged(nineteen, reply) == "right"
    assert judged(twenty, reply) == "wrong"  # the count it states is 19
    assert judged(twenty, "Nearly two decades.") == "right"  # a round figure alone is read as before
