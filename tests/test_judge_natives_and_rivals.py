"""Careful judging of names a reply writes in another language or script, or short, and of replies that commit to
a rival: durations counted in Greek and Ukrainian words, a state in Cyrillic or Greek, a state's short name for
its formal one, a party's native name and its initials, a club's initials without its type affix, a city named
after the gold club, a rival club named by one word, the question's own club kept as the answer. Each rule with a
trap of the same shape that must not be accepted."""

from __future__ import annotations

from answer_verdicts import q
from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Question, Triple
from chronoqa.score.answers import score_answer
from chronoqa.score.judge_names import NameIndex
from chronoqa.score.translit import state_exonym
from chronoqa.time import Duration, Granularity, count_of, durations_in


def judged(question: Question, reply: str, slot: tuple[str, ...] = (), context: tuple[str, ...] | None = None) -> str:
    """The verdict with the slot's entities as an index and the question's context apart, as ``evaluate`` does."""
    rec = AnswerRecord("q", "t", "ok", reply, None)
    index = NameIndex({label: (label,) for label in slot})
    return score_answer(question, rec, candidates=index, context=context).verdict


def test_durations_counted_in_greek_and_ukrainian_words() -> None:
    assert durations_in("Δύο χρόνια.") == [Duration(2, Granularity.YEAR)]
    assert durations_in("Сім місяців") == [Duration(7, Granularity.MONTH)]
    assert durations_in("П'ять років, з 1990 по 1995.") == [Duration(5, Granularity.YEAR)]
    three = q(answers=("3 years",), answer_ids=("P3Y",), answer_type="duration", question="How many years?")
    assert judged(three, "Три роки.") == "right"
    assert judged(three, "Τρία χρόνια (1981–1984).") == "right"
    assert judged(three, "Чотири роки.") == "wrong"
    assert judged(three, "Έξι χρόνια.") == "wrong"
    # a count alone in Cyrillic or Greek letters; a Latin word of another language alone is no count ("tre")
    assert count_of("Τρία.") == 3 and count_of("три") == 3 and count_of("tre") is None
    assert judged(three, "Три.") == "right" and judged(three, "Πέντε.") == "wrong"


COUNTRY = (Triple("Nordgrad", "country", "Russian Empire", "1812", "1917"),)


def test_a_state_named_in_cyrillic_or_greek() -> None:
    assert state_exonym("Российская Империя") == "Russian Empire" and state_exonym("ΕΣΣΔ") == "Soviet Union"
    assert state_exonym("Москва") is None
    place = q(answers=("Russian Empire",), question="Which country was Nordgrad part of in 1850?", S_star=COUNTRY)
    slot = ("Russian Empire", "Soviet Union", "Kingdom of Romania")
    ctx = ("Soviet Union", "Kingdom of Romania")
    assert judged(place, "Російська імперія.", slot, ctx) == "right"
    assert judged(place, "Ρωσική Αυτοκρατορία", slot, ctx) == "right"
    # a rival of the question named so is wrong; a state that is neither decides nothing
    assert judged(place, "Советский Союз", slot, ctx) == "wrong"
    assert judged(place, "Османская империя", slot, ctx) != "right"


def test_a_states_short_name_for_its_formal_name_where_no_rival_shares_it() -> None:
    formal = q(answers=("Kingdom of Serbia",), question="Which country was Nordgrad part of in 1900?",
               S_star=(Triple("Nordgrad", "country", "Kingdom of Serbia", "1882", "1918"),))  # fmt: skip
    slot = ("Kingdom of Serbia", "Serbia", "Ottoman Empire", "Socialist Republic of Serbia")
    assert judged(formal, "Serbia, from 1882.", slot, ("Ottoman Empire",)) == "right"
    # a rival of the question with the same short name (or that is the short-named state itself): undecided
    assert judged(formal, "Serbia, from 1882.", slot, ("Ottoman Empire", "Socialist Republic of Serbia")) == "undecided"
    assert judged(formal, "Serbia.", slot, ("Ottoman Empire", "Serbia")) == "undecided"
    assert judged(formal, "The Ottoman Empire.", slot, ("Ottoman Empire",)) == "wrong"


SPD = "Social Democratic Party of Germany"
PARTY = q(answers=(SPD,), question="Which party was Tom Ek a member of in 1980?",
          S_star=(Triple("Tom Ek", "member of political party", SPD, "1970", None),))  # fmt: skip
PARTIES = ("Social Democratic Party of Germany", "Alliance '90/The Greens", "Free Democratic Party")


def test_a_party_by_its_native_name_or_its_initials() -> None:
    ctx = ("Alliance '90/The Greens",)
    assert judged(PARTY, "SPD", PARTIES, ctx) == "right"
    assert judged(PARTY, "Er war in der Sozialdemokratische Partei Deutschlands.", PARTIES, ctx) == "right"
    assert judged(PARTY, "Die Grünen", PARTIES, ctx) == "wrong"  # the rival by its native name
    assert judged(PARTY, "Not the SPD.", PARTIES, ctx) != "right"
    # a rival with the same initials: the initials decide nothing
    rival = ("Social Democratic Party of Germany", "Sylvan People's Democrats")
    assert judged(PARTY, "SPD", rival, rival[1:]) != "right"


CLUB = "Nordbury Park Wanderers F.C."
BEFORE = q(answers=(CLUB,), question="Which team did Tom Ek play for in 1998?",
           S_star=(Triple("Tom Ek", "playsFor", CLUB, "1996", "1999"),))  # fmt: skip


def test_a_clubs_initials_without_its_type_affix() -> None:
    slot = (CLUB, "Pellam Town F.C.", "Sylvanton Harriers F.C.")
    assert judged(BEFORE, "NPW", slot, slot[1:]) == "right"
    # another club of the question with the same initials, with its affix or without: nothing decided by them
    assert judged(BEFORE, "NPW", (CLUB, "FC Newton Port Wolves"), ("FC Newton Port Wolves",)) != "right"
    assert judged(BEFORE, "NPW", (CLUB, "Newton Port Wolves"), ("Newton Port Wolves",)) != "right"


def test_a_rival_club_named_by_one_distinctive_word_is_wrong() -> None:
    slot = (CLUB, "Pellam Town F.C.", "Sylvanton Harriers F.C.")
    ctx = slot[1:]
    assert judged(BEFORE, "Sylvanton — he signed for them in 1997.", slot, ctx) == "wrong"
    # a word that makes the club context ("moved from"), or a word two rivals share, commits to nothing
    assert judged(BEFORE, "He moved from Sylvanton in 1996.", slot, ctx) == "undecided"
    two = (CLUB, "Sylvanton Harriers F.C.", "Sylvanton Rovers F.C.")
    assert judged(BEFORE, "Sylvanton — he signed for them in 1997.", two, two[1:]) == "undecided"


def test_a_city_named_after_the_gold_club_is_where_it_plays() -> None:
    gold = "Clube Atlético Nordeste"
    city = q(answers=(gold,), question="Which team did Tom Ek play for in 1998?",
             S_star=(Triple("Tom Ek", "playsFor", gold, "1996", "1999"),))  # fmt: skip
    slot = (gold, "Porto Verde FC", "Sylvanton Harriers F.C.")
    assert judged(city, "He was with Clube Atlético Nordeste (Nordeste) in Porto Verde.", slot, slot[1:]) == "right"
    assert judged(city, "He was with Clube Atlético Nordeste and Porto Verde.", slot, slot[1:]) == "wrong"


def test_a_reply_that_keeps_the_questions_own_club_is_wrong() -> None:
    after = q(answers=("Pellam Town F.C.",), question="Which team did Tom Ek play for a year after he joined Nord FC?",
              S_star=(Triple("Tom Ek", "playsFor", "Pellam Town F.C.", "1992", "1994"),),
              S_anchor=(Triple("Tom Ek", "playsFor", "Nord FC", "1991", "1992"),))  # fmt: skip
    slot = ("Pellam Town F.C.", "Nord FC", "Sylvanton Harriers F.C.")
    ctx = ("Nord FC", "Sylvanton Harriers F.C.")
    assert judged(after, "Pellam? Actually no, in 1992 he was still a Nord FC player.", slot, ctx) == "wrong"
    assert judged(after, "He stayed at Nord FC.", slot, ctx) == "wrong"
    # the club named with no word that keeps it decides nothing
    assert judged(after, "He was young when he signed for Nord FC in 1991.", slot, ctx) == "undecided"
