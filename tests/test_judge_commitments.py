"""Careful answer judging: what a reply commits to.

Hedged yes/no that still commits, colloquial yes/no, a club named by one distinctive word of its name, the
answer sentence of a long paragraph, a place named with the larger place it lies in, and a lower-case "a" after
a club's name (an article, not a reserve side's letter); names written in Hebrew letters.
"""

from __future__ import annotations

from typing import Any

import pytest

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Question, Triple
from chronoqa.score.answers import score_answer
from chronoqa.score.judge_names import NameIndex, club_words, tokens
from chronoqa.score.translit import hebrew_names


def q(**kw: Any) -> Question:
    base: dict[str, Any] = {"id": "q", "split": "test", "question": "?", "t_query": "2000", "S_star": ()}
    base.update(kw)
    return Question(**base)


def judged(question: Question, reply: str, cands: tuple[str, ...] | NameIndex = ("Nord FC", "Granit")) -> str:
    return score_answer(question, AnswerRecord("q", "t", "ok", reply, None), candidates=cands).verdict


ASKED_YES = q(answers=("yes",), answer_type="yes_no", question="Did Tom Ek play for Nord FC in 2000?")
ASKED_NO = q(answers=("no",), answer_type="yes_no", question="Did Tom Ek still play for Nord FC in 2000?")


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        # colloquial yes and no as a first word
        ("Nope, he had gone to Granit by then and stayed there.", "no"),
        ("Yep, he was still there.", "yes"),
        # a reply that denies it for the time asked
        ("Not in 2000. He was at Nord FC from 1995 to 1998 and then he was at Granit.", "no"),
        ("Not any more: he had left the year before.", "no"),
        # a hedge word that qualifies the one answer the reply gives still commits
        ("Probably yes. I cannot be completely sure, but I think he was still on their books.", "yes"),
        ("I believe so, most likely yes; he was their captain that season.", "yes"),
        ("Most likely no: he was on loan elsewhere.", "no"),
    ],
)
def test_a_yes_or_no_the_reply_commits_to(reply: str, said: str) -> None:
    assert judged(ASKED_YES, reply) == ("right" if said == "yes" else "wrong")
    assert judged(ASKED_NO, reply) == ("right" if said == "no" else "wrong")


@pytest.mark.parametrize(
    "reply",
    [
        # the hedge opens the other side again: no commitment
        "Probably yes, though he may already have joined Granit by then.",
        "Probably yes, unless the loan had started.",
        # a hedge with no yes or no after it
        "Probably, but I would not bet on it.",
    ],
)
def test_a_hedge_that_reopens_the_question_commits_to_nothing(reply: str) -> None:
    assert judged(ASKED_YES, reply) != "right"
    assert judged(ASKED_NO, reply) != "right"


VARELA = q(
    answers=("Club Atlético Varela",),
    S_star=(Triple("Tom Ek", "playsFor", "Club Atlético Varela", "1999", "2001"),),
)
CLUBS = ("Club Atlético Varela", "Granit FC", "Club Atlético Ostende")


def test_club_words_are_the_name_less_affixes_and_words_many_clubs_share() -> None:
    assert club_words("Club Atlético Varela") == ("varela",)
    assert club_words("OKS Fotboll") == ("oks",)
    assert club_words("S.C. Lindqvist Paulista") == ("lindqvist", "paulista")
    assert club_words("Tom Ek") == ()  # no affix: no club
    assert club_words("Varela United F.C.") == ("varela",)


@pytest.mark.parametrize(
    ("reply", "cands", "expected"),
    [
        ("In 2000 he was with Varela.", CLUBS, "right"),
        ("Varela, in the second division.", CLUBS, "right"),
        # another club of the slot has the word in its name: it names neither for sure
        ("In 2000 he was with Varela.", (*CLUBS, "Varela Sur FC"), "undecided"),
        # a word many clubs' names hold names none
        ("In 2000 he was with Atlético.", CLUBS, "undecided"),
        # next to a capitalised word its name does not have, the word is part of another name
        ("In 2000 he was with Varela Rovers.", CLUBS, "undecided"),
        # under a negation it names no answer
        ("He was not with Varela in 2000.", CLUBS, "undecided"),
        # the word is another candidate's answer when the reply names that one too
        ("He was with Varela, then Granit.", CLUBS, "wrong"),
    ],
)
def test_a_club_named_by_one_distinctive_word(reply: str, cands: tuple[str, ...], expected: str) -> None:
    assert judged(VARELA, reply, cands) == expected


def test_a_club_word_another_club_of_the_slot_index_shares_decides_nothing() -> None:
    slot = NameIndex({c: (c,) for c in (*CLUBS, "Deportivo Varela Norte")})
    assert slot.with_word("varela") == frozenset({"Club Atlético Varela", "Deportivo Varela Norte"})
    assert judged(VARELA, "He was with Varela.", slot) == "undecided"
    alone = NameIndex({c: (c,) for c in CLUBS})
    assert judged(VARELA, "He was with Varela.", alone) == "right"


def test_a_short_club_name_in_capitals() -> None:
    oks = q(answers=("OKS Fotboll",), S_star=(Triple("Tom Ek", "playsFor", "OKS Fotboll", "1999", "2001"),))
    cands = ("OKS Fotboll", "Granit FC")
    assert judged(oks, "He moved to **OKS** in Malmö.", cands) == "right"
    assert judged(oks, "He moved to Granit.", cands) == "wrong"


def test_a_lower_case_a_after_a_club_is_an_article() -> None:
    nord = q(answers=("Nord FC",), S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "1999", "2001"),))
    assert judged(nord, "He signed for Nord FC a year after leaving Granit.") == "right"
    # a capital letter after it names the club's reserve side, another team
    assert judged(nord, "He signed for Nord FC B that summer.") != "right"
    varela_b = "In 2000 he was with Varela B, the reserve side."
    assert judged(VARELA, varela_b, CLUBS) != "right"


def test_barca_is_barcelona() -> None:
    cands = ("FC Barcelona", "FC Barcelona B", "RCD Espanyol")
    reserves = q(answers=("FC Barcelona B",), S_star=(Triple("Tom Ek", "playsFor", "FC Barcelona B", "1999", None),))
    first = q(answers=("FC Barcelona",), S_star=(Triple("Tom Ek", "playsFor", "FC Barcelona", "1999", None),))
    assert judged(reserves, "Barça B.", cands) == "right"
    assert judged(first, "Barça.", cands) == "right"
    assert judged(first, "Barça B.", cands) != "right"


PARAGRAPH_CLUBS = ("Nord FC", "Granit", "Lokomotiv Ost", "Sundby IF")


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        # the sentence that puts him at the question's time commits; the rest is his career
        (
            "Tom Ek is a Swedish midfielder who moved around a lot. He started at Granit and spent years at "
            "Lokomotiv Ost. As of 2000 he was playing for Nord FC. Later he went on to Sundby IF.",
            "right",
        ),
        (
            "Tom Ek is a Swedish midfielder who moved around a lot. He started at Nord FC and spent years at "
            "Lokomotiv Ost. By 2000 he was turning out for Granit.",
            "wrong",
        ),
        # a conclusion commits, and it outweighs a sentence at the question's time
        (
            "Tom Ek came through at Granit. He then had a short spell with Lokomotiv Ost. So the answer is Nord FC.",
            "right",
        ),
        (
            "Tom Ek came through at Granit. In 2000 he was at Nord FC, people say. So the answer is Granit.",
            "wrong",
        ),
        # two committed sentences that disagree decide nothing for the gold
        (
            "Tom Ek came through at Granit. As of 2000 he was at Nord FC. In 2000 he also was at Sundby IF.",
            "wrong",
        ),
        # a short reply is read whole: a second club is a second answer
        ("He played for Granit. As of 2000 he was at Nord FC.", "wrong"),
    ],
)
def test_the_committed_sentence_of_a_paragraph(reply: str, expected: str) -> None:
    nord = q(answers=("Nord FC",), S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "1999", "2001"),))
    assert judged(nord, reply, PARAGRAPH_CLUBS) == expected


STATES = ("Kingdom of Ruritania", "Empire of Borduria", "Free State of Graustark")


@pytest.mark.parametrize(
    ("reply", "relation", "expected"),
    [
        ("In 1910 Strelsau lay in the Kingdom of Ruritania within the Empire of Borduria.", "country", "right"),
        ("Strelsau was in the Kingdom of Ruritania, part of the Empire of Borduria then.", "country", "right"),
        # only a question that asks where a place lies reads the second place as its container
        ("In 1910 Strelsau lay in the Kingdom of Ruritania within the Empire of Borduria.", "playsFor", "wrong"),
        # named before the gold, or in another sentence, the other place is a second answer
        ("Within the Empire of Borduria, the Kingdom of Ruritania.", "country", "wrong"),
        ("The Kingdom of Ruritania. It was also in the Free State of Graustark.", "country", "wrong"),
    ],
)
def test_a_place_named_with_the_place_it_lies_in(reply: str, relation: str, expected: str) -> None:
    place = q(
        answers=("Kingdom of Ruritania",), S_star=(Triple("Strelsau", relation, "Kingdom of Ruritania", "1900", None),)
    )
    assert judged(place, reply, STATES) == expected


# --------------------------------------------------------------------------------------------------
# Names written in Hebrew letters: compared by their consonants
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("run", "label", "expected"),
    [
        ("דנה ולר", "Dana Weller", True),
        ("ג'ון רידר", "John Reader", True),  # a geresh makes ג a j
        ("קסלר", "Dana Kessler", True),  # the surname alone
        ("ולר", "Dana Weller", False),  # two consonants (ו may be a vowel): too few to tell
        ("דנה ולר", "Mona Keller", False),
        ("דנה", "Dana Weller", False),  # a given name alone is no surname
        ("דן", "Dan", False),  # too few consonants to tell
        ("גון רידר", "John Reader", False),  # without the geresh, ג is a g
    ],
)
def test_hebrew_names_by_their_consonants(run: str, label: str, expected: bool) -> None:
    assert hebrew_names(run, [t.key for t in tokens(label)]) is expected


def test_a_spouse_named_in_hebrew_decides_only_when_no_rival_has_the_same_consonants() -> None:
    spouse = q(answers=("Dana Weller",), S_star=(Triple("Ole Berg", "isMarriedTo", "Dana Weller", "1990", "1995"),))
    people = ("Dana Weller", "Mona Keller")
    assert judged(spouse, "דנה ולר", people) == "right"
    assert judged(spouse, "מונה קלר", people) != "right"
    # "Dina Waller" has Dana Weller's consonants: the Hebrew could be either
    assert judged(spouse, "דנה ולר", (*people, "Dina Waller")) == "undecided"


# --------------------------------------------------------------------------------------------------
# An empty gold set: a reply that reasons first and concludes that nobody fits
# --------------------------------------------------------------------------------------------------

NOBODY = q(
    answers=(), source="table", question="Who led Ruritania whose term began after 1 May 1990 and ended in 1991?"
)
RULERS = ("Anna Varga", "Bela Kun")


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Anna Varga ruled from 1988 to 1993 and Bela Kun from 1993, so neither fits; so nobody.", "right"),
        ("Varga's term began in 1988, long before May 1990. Answer: none.", "right"),
        ("Bela Kun started in 1993, so there isn't one.", "right"),
        ("No Ruritanian PM fits: Varga began in 1988.", "right"),
        # a conclusion that names someone is a claim
        ("Varga began in 1988, so it must be Bela Kun.", "wrong"),
        # a hedged conclusion commits to nothing
        ("Varga began in 1988, so probably nobody.", "wrong"),
        # "no one" in the middle of the reasoning is no conclusion
        ("Varga began in 1988 and no one disputes it; so the answer is Bela Kun.", "wrong"),
    ],
)
def test_a_reply_that_concludes_nobody_fits(reply: str, expected: str) -> None:
    assert judged(NOBODY, reply, RULERS) == expected


# --------------------------------------------------------------------------------------------------
# A successor named after the gold with the verb of taking over: context, not a second answer
# --------------------------------------------------------------------------------------------------

VARGA_Q = q(answers=("Anna Varga",), source="table", question="Who led Ruritania until 20 November 1996?")


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Anna Varga, until Bela Kun took over on 21 November 1996.", "right"),
        ("Anna Varga — Bela Kun was sworn in the next day.", "right"),
        ("That's Varga: her term ended when Kun took office.", "right"),
        # named before the gold, the successor is no context
        ("Bela Kun took over from Anna Varga.", "wrong"),
        # without the verb, a second name after the gold is a second answer
        ("Anna Varga and Bela Kun.", "wrong"),
        # the successor named again as the answer
        ("Anna Varga? No wait, Bela Kun took over earlier, so the answer is Bela Kun.", "wrong"),
    ],
)
def test_a_successor_taking_over_after_the_gold_is_context(reply: str, expected: str) -> None:
    assert judged(VARGA_Q, reply, RULERS) == expected


def test_a_city_in_cyrillic_by_its_own_name_the_data_writes_in_english() -> None:
    home = q(answers=("Moscow",), S_star=(Triple("Ole Berg", "residence", "Moscow", "1990", "1992"),))
    cities = ("Moscow", "Minsk", "Santiago")
    assert judged(home, "Москва.", cities) == "right"
    assert judged(home, "Минск.", cities) != "right"  # another city's name: not the gold
