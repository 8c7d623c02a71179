"""Careful judging of a yes or no in a script with combining marks (Hindi, Thai) or in Arabic, of a yes or no a
reply concludes with after its reasoning, of a divided German state by its own name, of a gold whose name a corpus
work takes with an article ("the Grandmaster title"), of a rival set after the gold with a dash as its fuller name,
and of a conclusion "..., so X" that keeps the question's own entity: each with a trap of the same shape."""

from __future__ import annotations

from answer_verdicts import judged, q
from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Triple
from chronoqa.score.answers import score_answer

YES = q(answers=("yes",), answer_type="yes_no", question="Did Tom Ek still play for Nord FC in 2001?")
NO = q(answers=("no",), answer_type="yes_no", question="Did Tom Ek still play for Nord FC in 2004?")


def test_a_yes_or_no_in_a_script_with_combining_marks_or_in_arabic() -> None:
    assert judged(NO, "नहीं। वह 2003 में चले गए।") == "right"
    assert judged(YES, "हाँ, वह 2002 तक वहीं खेले।") == "right"
    assert judged(NO, "لا، غادر في 2003.") == "right"
    assert judged(YES, "ใช่ เขาเล่นจนถึงปี 2002") != "right"  # no clause mark after it: not read alone
    # the other side is wrong, not undecided
    assert judged(YES, "नहीं।") == "wrong"
    assert judged(NO, "نعم.") == "wrong"
    # a longer word that starts with the same letters says nothing
    assert judged(NO, "नहींतर 2004 में वह खेले।") != "right"


def test_a_yes_or_no_concluded_after_reasoning() -> None:
    assert judged(NO, "He left in 2003 and the question asks about 2004, so I'd say no.") == "right"
    assert judged(YES, "They were practically the same year, so I'd say no.") == "wrong"
    assert judged(YES, "He was still on the books that season. Therefore: yes.") == "right"
    # a conclusion that is not the reply's last word decides nothing by this rule
    assert judged(YES, "So I'd say no, though he may have stayed on.") != "right"


STATES = ("West Germany", "East Germany", "Germany", "Nazi Germany")
WEST = q(answers=("West Germany",), question="In 1960, which country was Nordstadt located in?",
         S_star=(Triple("Nordstadt", "country", "West Germany", "1949", "1990"),))  # fmt: skip


def test_a_divided_german_state_by_its_own_name() -> None:
    assert judged(WEST, "Bundesrepublik Deutschland (Westdeutschland).", STATES, ("East Germany",)) == "right"
    assert judged(WEST, "Westdeutschland.", STATES, ("East Germany",)) == "right"
    assert judged(WEST, "Die Deutsche Demokratische Republik.", STATES, ("East Germany",)) == "wrong"
    assert judged(WEST, "Ostdeutschland.", STATES, ("East Germany",)) == "wrong"
    # the official name alone is unified Germany's too: it decides nothing by the table
    assert judged(WEST, "Bundesrepublik Deutschland.", STATES, ("East Germany",)) != "right"


TITLES = ("Grandmaster", "International Master", "FIDE Master")
WORKS = ("The Grandmaster", "Grandmaster Flash")  # other entities the corpus knows: a film, a musician
GM = q(answers=("Grandmaster",), question="Which chess title did Tom Ek receive in 1996?",
       S_star=(Triple("Tom Ek", "title of chess person", "Grandmaster", "1996", None),))  # fmt: skip


def known_judged(reply: str) -> str:
    """The verdict of ``reply`` where the corpus also knows :data:`WORKS`."""
    rec = AnswerRecord("q", "t", "ok", reply, None)
    return score_answer(GM, rec, candidates=TITLES, context=TITLES[1:], known=(*TITLES, *WORKS)).verdict


def test_a_gold_whose_name_a_corpus_work_takes_with_an_article() -> None:
    assert known_judged("Three years on he earned the Grandmaster title.") == "right"
    assert known_judged("He earned the **Grandmaster** title in 1996.") == "right"
    # a capitalised "The" inside a sentence names the work: not the gold
    assert known_judged("He earned The Grandmaster title.") != "right"
    # the same shape with a rival title, or with the longer name the corpus knows, is never right
    assert known_judged("He earned the FIDE Master title.") != "right"
    assert known_judged("He toured with the Grandmaster Flash crew.") != "right"


POLAND = q(answers=("Nordland",), question="In 1926, which country was Sylvagrad part of?",
           S_star=(Triple("Sylvagrad", "country", "Nordland", "1918", None),))  # fmt: skip
NATIONS = ("Nordland", "Second Nordish Republic", "Ostmark Empire")


def test_a_rival_set_after_the_gold_with_a_dash_as_its_fuller_name() -> None:
    ctx = ("Second Nordish Republic", "Ostmark Empire")
    assert judged(POLAND, "Nordland — the Second Nordish Republic at that point.", NATIONS, ctx) == "right"
    assert judged(POLAND, "Nordland – Second Nordish Republic.", NATIONS, ctx) == "right"
    # a rival with no word of the gold's stem after the dash is a second answer
    assert judged(POLAND, "Nordland — the Ostmark Empire at that point.", NATIONS, ctx) != "right"
    # the rival alone, or before the gold, is not glossed
    assert judged(POLAND, "The Second Nordish Republic.", NATIONS, ctx) != "right"
    assert judged(POLAND, "The Second Nordish Republic — Nordland.", NATIONS, ctx) != "right"


CLUB_Q = q(answers=("Nord FC",), question="Which club did Tom Ek play for in the year before Tom Ek joined Sylvan SK?",
           S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2001", "2004"),),
           S_anchor=(Triple("Tom Ek", "playsFor", "Sylvan SK", "2005", None),))  # fmt: skip
CLUBS = ("Nord FC", "Sylvan SK", "Ostby United")


def test_a_conclusion_that_keeps_the_questions_own_entity() -> None:
    reply = "Nord FC... no wait, by 2004 he'd already signed for Sylvan SK, so Sylvan SK."
    assert judged(CLUB_Q, reply, CLUBS, ("Ostby United",)) == "wrong"
    assert judged(CLUB_Q, "He had signed for Sylvan SK in 2005, so Nord FC.", CLUBS, ("Ostby United",)) == "right"
    # a conclusion that goes on past the name is no bare conclusion
    assert judged(CLUB_Q, "He went to Sylvan SK, so Sylvan SK fans loved him.", CLUBS, ("Ostby United",)) != "right"
