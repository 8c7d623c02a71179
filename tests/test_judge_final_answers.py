"""Careful judging of what a reply finally commits to, and of names that decide a reply without naming the gold.

A reply that deliberates and then commits with an explicit marker ("Final answer: X") is judged on X; a bold
answer at the head of a reply is its headline; a person who shares only the gold's surname, a youth side of
another age, a club written with the letters of its legal form, and a university named in the language of its
town; a reply that corrects itself mid-way ("2003... no, 2004", "nee, wacht: no") is read from the correction; a
background clause ("..., having co-founded X in 1981") gives a time answer no second year.
Each case with a trap of the same shape that must not be accepted.
"""

from __future__ import annotations

import pytest

from answer_verdicts import judged, q
from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Question, Triple
from chronoqa.score.answers import committed_answer, score_answer
from chronoqa.score.judge_names import NameIndex, club_words

CLUBS = ("Nord FC", "Granit FC", "Ostende SC")
NEXT_CLUB = q(
    answers=("Granit FC",),
    question="Which team did Tom Ek play for a year after he left Nord FC?",
    S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "1990", "1994"),),
)


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        # the names weighed before the marker are no answers: the one after it decides
        ("Nord FC... no wait, he left Nord in 1994, so a year later — Granit FC? Actually I think he went back "
         "to Nord. Final answer: Nord FC.", "wrong"),
        ("Granit FC? He left Nord in 1994.\n\n**Answer:** Ostende SC", "wrong"),
        ("Nord FC... he left them in 1994, so Granit FC? Maybe he went back to Ostende. Final answer: Ostende SC.",
         "wrong"),
        ("Ostende SC, or perhaps Granit FC; they both signed players that year. So my answer is Ostende SC.", "wrong"),
        ("I weighed Granit FC against Ostende SC.\n\n**Answer:** Ostende SC", "wrong"),
        # the marker followed by the gold is right, whatever was weighed before it
        ("Ostende SC, or maybe Nord FC again? He had left Nord in 1994. Final answer: Granit FC.", "right"),
        ("Ostende SC perhaps, or Granit FC. So my answer is Granit FC", "right"),
        ("Ostende SC was one option.\n**Final answer:** Granit FC", "right"),
        # a hedge after the marker stays a hedge
        ("Ostende SC or Granit FC. Final answer: probably Granit FC.", "wrong"),
        ("Final answer: Granit FC or Ostende SC.", "wrong"),
    ],
)  # fmt: skip
def test_a_reply_is_judged_on_what_its_explicit_marker_commits_to(reply: str, verdict: str) -> None:
    assert judged(NEXT_CLUB, reply, CLUBS) == verdict


def test_the_committed_part_is_what_follows_the_last_marker() -> None:
    assert committed_answer("A? B? Final answer: C.") == "C."
    assert committed_answer("My answer: A. No, final answer is B") == "B"
    assert committed_answer("Answer: A\nbecause of B") == "A\nbecause of B"
    assert committed_answer("The final answer is unclear to me.") == "unclear to me."
    # nothing after the marker, or no marker: the whole text
    assert committed_answer("He won it in 1990. Final answer:") == "He won it in 1990. Final answer:"
    assert committed_answer("So the answer depends on the year.") == "So the answer depends on the year."


PROVINCE = q(answers=("Nordmark District",), question="In which administrative unit was Altdorf located in 1900?")
UNITS = ("Nordmark District", "Ostmark Region", "Altdorf")


def test_a_bold_answer_at_the_head_of_a_reply_is_its_headline() -> None:
    text = " — Altdorf (Altendorf) was in annexed Ostmark Region from 1871 to 1920."
    assert judged(PROVINCE, "**Nordmark District**" + text, UNITS) == "right"
    assert judged(PROVINCE, "**Nordmark District**:" + text[2:], UNITS) == "right"
    # the bold names the rival: wrong, whatever the explanation names
    assert judged(PROVINCE, "**Ostmark Region** — Altdorf was in the Nordmark District until 1920.", UNITS) == "wrong"
    # not in bold, and no paragraph break: the whole reply is read, and it names both
    assert judged(PROVINCE, "Nordmark District" + text, UNITS) == "wrong"


NEXT_HEAD = q(
    answers=("Karin Berg",),
    question="Who was head of government of Nordland immediately after Olof Strand?",
    S_star=(Triple("Nordland", "headOfGovernment", "Olof Strand", "1982", "1993"),),
)
# the slot as evaluation builds it: an index of the entities that may answer (the gold among them)
HEADS = NameIndex({label: (label,) for label in ("Karin Berg", "Olof Strand", "Lena Holm")})


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        # another person who shares the gold's surname: given names of someone else
        ("Anna Maria Berg took over from Strand in 1993.", "wrong"),
        ("Per Anders Berg", "wrong"),
        # one given name of someone else may be a short form or nickname of the gold's: not decided by this rule
        ("Lisa Berg", "undecided"),
        # the gold's own given name, its initial, or a sentence's first word before the surname: the gold
        ("Karin Berg took over from Strand in 1993.", "right"),
        ("K. Berg took over in 1993.", "right"),
        ("Then Berg took over.", "right"),
    ],
)
def test_a_person_sharing_only_the_golds_surname_is_someone_else(reply: str, verdict: str) -> None:
    rec = AnswerRecord("q", "t", "ok", reply, None)
    assert score_answer(NEXT_HEAD, rec, candidates=HEADS).verdict == verdict


YOUTH = "Freedonia national under-19 football team"
YOUTH_SIDE = q(
    answers=(YOUTH,),
    question="The year before Tom Ek joined Nord FC, which national team did he play for?",
    S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2001", "2004"),),
)


def test_a_youth_side_of_another_age_is_another_team() -> None:
    assert judged(YOUTH_SIDE, "The year before Nord, Ek was with the Freedonian U-21s.", (YOUTH, "Nord FC")) == "wrong"
    assert judged(YOUTH_SIDE, "He was with the under-23s.", (YOUTH, "Nord FC")) == "wrong"
    # an age that is no side's mark decides nothing
    assert judged(YOUTH_SIDE, "At 18 he was under 21 years of age.", (YOUTH, "Nord FC")) == "undecided"


def test_a_club_written_with_the_letters_of_its_legal_form() -> None:
    assert club_words("Halden Boldklub") == ("halden",)
    assert club_words("Skarvik Idrottsförening") == ("skarvik",)
    side = q(answers=("Halden Boldklub",), question="Which team did Tom Ek play for after Nord FC?",
             S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2001", "2004"),))  # fmt: skip
    assert judged(side, "Halden BK", ("Halden Boldklub", "Nord FC", "Granit FC")) == "right"
    assert judged(side, "He signed for Halden BK in 2004.", ("Halden Boldklub", "Nord FC")) == "right"
    # another club of the slot has the same town word: the short form names neither
    assert judged(side, "Halden BK", ("Halden Boldklub", "Halden Idrettslag", "Nord FC")) != "right"
    # letters of another legal form make another club
    assert judged(side, "Halden FF", ("Halden Boldklub", "Nord FC")) != "right"


SCHOOL = q(answers=("University of Tarnhelm",), question="Where was Tom Ek educated in 1990?")


def test_a_university_named_in_the_language_of_its_town() -> None:
    assert judged(SCHOOL, "Universität Tarnhelm", ("University of Tarnhelm", "Nord College")) == "right"
    assert judged(SCHOOL, "Università di Tarnhelm.", ("University of Tarnhelm", "Nord College")) == "right"
    # another town's university: not the gold
    assert judged(SCHOOL, "Universität Ostende", ("University of Tarnhelm", "Nord College")) != "right"
    # a rival of the same words ("Tarnhelm University" beside "University of Tarnhelm"): not safe to accept
    assert judged(SCHOOL, "Universität Tarnhelm", ("University of Tarnhelm", "Tarnhelm University")) != "right"


AWARD_YEAR = q(answers=("2004",), answer_type="time", question="In what year did Tom Ek win the Nord Award?")
STILL_THERE = q(answers=("No",), answer_type="yes_no", question="Was Tom Ek still playing for Nord FC in 2011?")


@pytest.mark.parametrize(
    ("question", "reply", "verdict"),
    [
        # a first figure that trails off into a "no": the figure after it is the answer
        (AWARD_YEAR, "Tom Ek won the Nord Award in 2003... no, 2004 — the year Nord went unbeaten.", "right"),
        (AWARD_YEAR, "Tom Ek won the Nord Award in 2004... no, 2003 — the year Nord went unbeaten.", "wrong"),
        # a trailing-off "no" that is no correction ("no doubt") sets nothing aside: both years stand
        (AWARD_YEAR, "Tom Ek won the Nord Award in 2003... no doubt it was 2004.", "wrong"),
        # "no, wait" in Dutch or German
        (STILL_THERE, "Ja... nee, wacht: no. Tom Ek had left Nord FC by 2011.", "right"),
        (STILL_THERE, "Nein... nein, warte: yes. Tom Ek was still at Nord FC in 2011.", "wrong"),
    ],
)  # fmt: skip
def test_a_reply_that_corrects_itself_mid_way_is_read_from_the_correction(
    question: Question, reply: str, verdict: str
) -> None:
    assert judged(question, reply, CLUBS) == verdict


JOINED_YEAR = q(answers=("1988",), answer_type="time", question="In what year did Ana Bram join the Nord Party?")


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        # a background clause's year is no second answer
        ("She joined the Nord Party at its founding in 1988, having co-founded the Ost Party in 1981.", "right"),
        ("1988 — that's when she joined the Nord Party, though she stayed in the Ost Party until 1990.", "right"),
        # the background clause does not make a wrong main year right
        ("She joined the Nord Party in 1987, having co-founded the Ost Party in 1988.", "wrong"),
        # a clause that hedges is a second answer, not background
        ("She joined the Nord Party in 1988, though she may have joined in 1987.", "wrong"),
        ("She joined the Nord Party in 1988, having possibly signed up in 1987.", "wrong"),
        # two years in the main clause stay two answers
        ("She joined the Nord Party in 1988 or 1987.", "wrong"),
    ],
)  # fmt: skip
def test_a_time_answers_background_clause_states_no_second_year(reply: str, verdict: str) -> None:
    assert judged(JOINED_YEAR, reply) == verdict
