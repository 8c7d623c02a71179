"""General rules from a fresh blind set's misses, each with a trap of the same shape that must stay wrong.

Answer judge: a larger administrative unit named after the gold unit and a comma says where it lies ("Mytishchinsky
District, Moscow Oblast"), while a unit of the gold's own rank is a second answer; a year answer's other years, set
beside it as another named thing's ("before his Leibniz Prize (1987)", "the 1991 Nobel"), are context. Time judge: a
club named by its opening word common to many clubs ("joined Sporting in 2010" for Sporting Clube de Portugal), where
no other fact's entity has that word; a spell "on loan at" another club is that club's ("spent 2012–13 on loan at
Lokomotiv Moscow"); "until she became X in D" ends the stay before it at D.
"""

from __future__ import annotations

import time_verdicts as tv
from answer_verdicts import judged, q
from chronoqa.records import Triple

PLACE = "located in the administrative territorial entity"
TOWN = q(
    answers=("Mytishchinsky District",),
    question="In which administrative unit was Pushkino located as of 1959?",
    S_star=(Triple("Pushkino", PLACE, "Mytishchinsky District", "1957", "1962"),),
)
RIVALS = ("Moscow Oblast", "Pushkinsky Urban District, Moscow Oblast", "Mytishchinsky District")


def test_a_larger_unit_after_the_gold_says_where_it_lies() -> None:
    assert judged(TOWN, "Mytishchinsky District, Moscow Oblast.", RIVALS) == "right"
    assert judged(TOWN, "Мытищинский район (Mytishchinsky District), Moscow Oblast.", RIVALS) == "right"
    # a unit of the gold's own rank after it is a second answer; the larger unit alone or as a choice is wrong
    assert judged(TOWN, "Mytishchinsky District, Pushkinsky Urban District.", RIVALS) == "wrong"
    assert judged(TOWN, "Moscow Oblast.", RIVALS) == "wrong"
    assert judged(TOWN, "Mytishchinsky District or Moscow Oblast.", RIVALS) == "wrong"


def test_a_smaller_unit_after_a_larger_gold_is_a_second_answer() -> None:
    region = q(
        answers=("Moscow Oblast",),
        question="In which administrative unit was Pushkino located in 1964?",
        S_star=(Triple("Pushkino", PLACE, "Moscow Oblast", "1963", "1965"),),
    )
    assert judged(region, "Moscow Oblast, Mytishchinsky District.", RIVALS) == "wrong"


FONTE = tv.q(
    answers=("yes",),
    question="Yes or no: Rui Fonte left Sporting Clube de Portugal after he left the Portugal national under-16 team?",
    S_star=(Triple("Rui Fonte", "playsFor", "Sporting Clube de Portugal", "2009", "2011"),),
    S_anchor=(Triple("Rui Fonte", "playsFor", "Portugal national under-16 football team", "2005", "2006"),),
    time_refs=(
        {"which": "end", "value": "2011", "of": "answer"},
        {"which": "end", "value": "2006", "of": "anchor"},
    ),
)


def test_a_club_named_by_its_opening_word_common_to_many_clubs() -> None:
    assert tv.verdict(FONTE, "Rui Fonte left the U-16s in 2006 and Sporting in 2011.") == "right"
    # a wrong year for Sporting, the two years swapped: wrong
    assert tv.verdict(FONTE, "Rui Fonte left the U-16s in 2006 and Sporting in 2010.") == "wrong"
    assert tv.verdict(FONTE, "Rui Fonte left the U-16s in 2011 and Sporting in 2006.") == "wrong"
    # another club named: its year is no Sporting's
    assert tv.verdict(FONTE, "Rui Fonte left the U-16s in 2006 and Benfica in 2011.") != "right"


def test_two_clubs_sharing_the_opening_word_are_named_by_neither() -> None:
    two = tv.q(
        answers=("yes",),
        question="Did Rui Fonte leave Sporting Clube de Portugal after he left Sporting Clube de Braga?",
        S_star=(Triple("Rui Fonte", "playsFor", "Sporting Clube de Portugal", "2009", "2011"),),
        S_anchor=(Triple("Rui Fonte", "playsFor", "Sporting Clube de Braga", "2005", "2006"),),
        time_refs=(
            {"which": "end", "value": "2011", "of": "answer"},
            {"which": "end", "value": "2006", "of": "anchor"},
        ),
    )
    assert tv.verdict(two, "He left Braga in 2006 and Sporting in 2011.") != "right"


ZIEGLER = tv.q(
    answers=("yes",),
    question="Did it still hold in 2013 that Reto Ziegler played for Juventus F.C.?",
    S_star=(Triple("Reto Ziegler", "playsFor", "Juventus F.C.", "2011", "2015"),),
    time_refs=tv.refs(("end", "2015")),
)


def test_a_spell_on_loan_at_another_club_is_that_clubs() -> None:
    other = ("Lokomotiv Moscow",)
    right = "Ziegler was a Juventus player from 2011 to 2015, even though he spent 2012–13 on loan at Lokomotiv Moscow."
    assert tv.verdict(ZIEGLER, right, other) == "right"
    # a wrong end beside the loan, or the loan's end as the club's: wrong
    wrong = "Ziegler was a Juventus player from 2011 to 2014, even though he spent 2012–13 on loan at Lokomotiv Moscow."
    assert tv.verdict(ZIEGLER, wrong, other) == "wrong"
    late = "Ziegler was a Juventus player from 2011 to 2013, then spent 2013–15 on loan at Lokomotiv Moscow."
    assert tv.verdict(ZIEGLER, late, other) == "wrong"
    # a spell on loan at the fact's own club is its own
    assert tv.verdict(ZIEGLER, "Ziegler spent 2011–15 on loan at Juventus.", other) == "right"


AWARD = q(
    answers=("1983",),
    answer_type="time",
    question="When did Bert Sakmann receive the W. Alden Spencer Award?",
    S_star=(Triple("Bert Sakmann", "award received", "W. Alden Spencer Award", "1983", "1983"),),
)


def test_another_named_things_year_beside_the_answer_is_context() -> None:
    right = "He got the Spencer Award in 1983, a few years before his Leibniz Prize (1987) and before the 1991 Nobel."
    assert judged(AWARD, right) == "right"
    # the years swapped (the gold year is the other thing's), a choice, a second year of the same thing: wrong
    assert judged(AWARD, "He received it in 1987, a few years after his Leibniz Prize (1983).") == "wrong"
    assert judged(AWARD, "He received it in 1983 or after his Leibniz Prize (1987).") == "wrong"
    assert judged(AWARD, "He received it in 1983 and again in 1987.") == "wrong"
    assert judged(AWARD, "He received it in 1983 and after 1987.") == "wrong"


TRUSS = tv.q(
    answers=("yes",),
    question="Was it still the case in 2015 that Liz Truss held the position of Environment Secretary?",
    S_star=(Triple("Liz Truss", "position held", "Environment Secretary", "2014", "2016"),),
    time_refs=tv.refs(("end", "2016")),
)


def test_until_the_subject_starts_the_next_post_is_the_stays_end() -> None:
    said = "Truss served as Environment Secretary from July 2014 until she became Justice Secretary in 2016."
    assert tv.verdict(TRUSS, said) == "right"
    assert tv.verdict(TRUSS, said.replace("2016", "2015")) == "wrong"
    # the years swapped: a wrong start and end
    assert (
        tv.verdict(TRUSS, "Truss served as Environment Secretary from 2016 until she became Justice Secretary in 2014.")
        == "wrong"
    )
    # another person's start after "until" is no end the rule reads for her
    assert (
        tv.verdict(
            TRUSS, "Truss served as Environment Secretary from July 2014 until Coffey joined the cabinet in 2015."
        )
        != "right"
    )
