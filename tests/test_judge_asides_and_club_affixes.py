"""General rules from a fresh blind set's misses, each with a trap of the same shape that must not turn right.

Answer judge: a year answer's bracketed aside that dates another fact ("(awarded the next year, 1958)") is context
where the text outside the brackets states the gold year and no other, unless the aside hedges or corrects; a
year-like number inside a club's name ("signed for 1899 Hoffenheim", "TSV 1860 München") is no date; a club's
"Football Club" goes with its other affixes ("Perth Glory" for "Perth Glory Football Club"); a closing abbreviated
affix names the club spelled out ("Vasco Esporte Clube" for "Vasco E.C."); French "un an" is one year.
"""

from __future__ import annotations

from answer_verdicts import judged, q
from chronoqa.records import Triple
from chronoqa.time import Granularity
from chronoqa.time.duration import Duration, durations_in

PRIZE_YEAR = q(answers=("1957",), answer_type="time", question="In which year did Ola Vik win the Nord Prize?")
DIED = q(answers=("1988",), answer_type="time", question="In which year did the wife of Per Lund die?")


def test_a_bracketed_aside_dating_another_fact_is_context() -> None:
    assert judged(PRIZE_YEAR, "Vik won the 1957 Nord Prize (presented to him in 1958).") == "right"
    assert judged(DIED, "His wife was Kari Holm (they had married in 1950); she died in Bergen in 1988.") == "right"
    # the gold year only inside the aside, or a wrong year outside it: wrong
    assert judged(PRIZE_YEAR, "Vik won the 1958 Nord Prize (nominated in 1957).") == "wrong"
    assert judged(DIED, "His wife was Kari Holm (married 1988); she died in 1990.") == "wrong"


def test_an_aside_that_hedges_or_corrects_the_year_stays() -> None:
    assert judged(PRIZE_YEAR, "Vik won the Nord Prize in 1957 (or 1958).") == "wrong"
    assert judged(PRIZE_YEAR, "Vik won the Nord Prize in 1957 (some sources say 1958).") == "wrong"
    assert judged(PRIZE_YEAR, "Vik won the Nord Prize in 1957 (actually 1958).") == "wrong"
    assert judged(PRIZE_YEAR, "Vik won the Nord Prize in 1957 (1958?).") == "wrong"


LEFT = q(answers=("2016",), answer_type="time", question="In what year did Jan Oster leave Hertha BSC?")


def test_a_number_inside_a_clubs_name_is_no_date() -> None:
    assert judged(LEFT, "Oster left Hertha in 2016 and signed for 1899 Hoffenheim.") == "right"
    assert judged(LEFT, "He left Hertha in 2016, then played for TSV 1860 München.") == "right"
    # a wrong year with the club's number, or the club's number as the only year: wrong
    assert judged(LEFT, "Oster left Hertha in 2015 and joined 1860 München.") == "wrong"
    assert judged(LEFT, "Oster left Hertha and joined 2016 Hoffenheim in 2017.") == "wrong"
    # a year after a move with no name after it stays a date: "joined in 2016" reads, "left 2015, joined 2016" too
    assert judged(LEFT, "Oster left 2015 for Mainz, not 2016.") == "wrong"


PLAYS = "member of sports team"
GLORY = q(
    answers=("Perth Glory Football Club",),
    question="Which club did Ann Roe play for in 2012?",
    S_star=(Triple("Ann Roe", PLAYS, "Perth Glory Football Club", "2011", "2013"),),
)
VASCO = q(
    answers=("Vasco E.C.",),
    question="Which club did Rui Sá play for in 2015?",
    S_star=(Triple("Rui Sá", PLAYS, "Vasco E.C.", "2015", "2016"),),
)
CLUBS = ("Perth Glory Football Club", "Perth City Soccer Club", "Vasco E.C.", "Bahia Esporte Clube", "Santos FC")


def test_a_clubs_football_club_goes_with_its_affixes() -> None:
    assert judged(GLORY, "**Perth Glory**", CLUBS) == "right"
    assert judged(GLORY, "Perth Glory FC.", CLUBS) == "right"
    # another club of the same city: wrong
    assert judged(GLORY, "Perth City.", CLUBS) == "wrong"


def test_a_closing_abbreviated_affix_spelled_out_names_the_club() -> None:
    assert judged(VASCO, "Vasco Esporte Clube", CLUBS) == "right"
    # another club spelled out the same way: wrong
    assert judged(VASCO, "Bahia Esporte Clube", CLUBS) == "wrong"
    assert judged(VASCO, "Santos Futebol Clube", CLUBS) != "right"


def test_french_one_year() -> None:
    assert durations_in("Un an.") == [Duration(1, Granularity.YEAR)]
    assert durations_in("Elle y a travaillé 1 an.") == [Duration(1, Granularity.YEAR)]
    # "an" elsewhere is no unit; "un an et demi" is not one year
    assert durations_in("In 2014 an injury ended it.") == []
    assert durations_in("un an et demi") == []
    one = q(answers=("1 year",), answer_ids=("P1Y",), answer_type="duration", question="How many years?")
    three = q(answers=("3 years",), answer_ids=("P3Y",), answer_type="duration", question="How many years?")
    assert judged(one, "Un an.") == "right"
    assert judged(three, "Un an.") == "wrong"


def test_no_aside_is_context_where_the_text_outside_hedges() -> None:
    assert judged(PRIZE_YEAR, "Vik won the Nord Prize in 1957 or after his Oslo Medal (1958).") == "wrong"
    assert judged(PRIZE_YEAR, "Vik probably won the Nord Prize in 1957 (the Oslo Medal in 1958).") == "wrong"
