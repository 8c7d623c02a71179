"""Careful time accuracy on prose written the way models write: each case is a sentence shape, with the
reading a careful human gives it (right or wrong) and a trap of the same shape that must stay wrong."""

from __future__ import annotations

from typing import Any

import pytest

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Question, Triple
from chronoqa.score.answers import score_answer
from chronoqa.score.judge_names import NameIndex
from chronoqa.score.judge_time import tables_as_fields
from chronoqa.score.time_accuracy import score_time


def q(**kw: Any) -> Question:
    base: dict[str, Any] = {"id": "q", "split": "test", "question": "?", "t_query": "2000", "S_star": ()}
    base.update(kw)
    return Question(**base)


def table_q(name: str, start: str, end: str | None = None, question: str = "Who led Ruritania?") -> Question:
    refs = [{"which": "start", "value": start, "answer": name}]
    if end:
        refs.append({"which": "end", "value": end, "answer": name})
    return q(answers=(name,), source="table", granularity="day", question=question, time_refs=tuple(refs))


LEADERS = ("Anna Varga", "Bela Kun", "Carla Dorn", "Dieter Ost", "Erik Lund")
VARGA = table_q("Anna Varga", "1993-04-02", "1996-11-20")


def verdict(question: Question, expl: str, entities: tuple[str, ...] = LEADERS) -> str:
    row = score_time(question, AnswerRecord("q", "t", "ok", question.answers[0], expl), True, entities=entities)
    return "undecided" if row.undecided else ("right" if row.T else "wrong")


@pytest.mark.parametrize(
    ("expl", "expected"),
    [
        # an end stated as an event
        ("Varga took office on 2 April 1993 and died in office on 20 November 1996.", "right"),
        ("Varga took office on 2 April 1993 and died in office on 20 November 1997.", "wrong"),
        # the same end as a noun: "until her death in office on D"
        ("Varga was in office from 2 April 1993 until her death in office on 20 November 1996.", "right"),
        ("Varga was in office from 2 April 1993 until her death in office on 20 November 1997.", "wrong"),
        # "until B took over on D" ends A's term on D
        ("Anna Varga governed from 2 April 1993 until Bela Kun took over on 20 November 1996.", "right"),
        ("Anna Varga governed from 2 April 1993 until Bela Kun took over on 21 November 1996.", "wrong"),
        # a sentence-initial word is no given name: "After Kun" names Kun, whose date it is
        (
            "After Kun, who took office in May 1990, Anna Varga began on 2 April 1993 and quit on 20 November 1996.",
            "right",
        ),
        # another term of the same person: its dates cite, never contradict
        ("Varga's first term ran from 2 April 1993 to 20 November 1996 (she returned 2001–2004).", "right"),
        # a Markdown table: the row's name, the column's end
        (
            "| Leader | Took office | Left office |\n|---|---|---|\n| Anna Varga | 2 April 1993 | 20 November 1996 |",
            "right",
        ),
        (
            "| Leader | Took office | Left office |\n|---|---|---|\n| Anna Varga | 20 November 1996 | 2 April 1993 |",
            "wrong",
        ),
        # "Key: value" lines after the name
        ("Answer: Anna Varga\nTerm start: 1993-04-02\nTerm end: 1996-11-20", "right"),
        # colloquial starts and ends: "kicked off", "got going", "dates from"; "wrapped up", "came to an end"
        ("Varga's premiership kicked off on 2 April 1993 and wrapped up on 20 November 1996.", "right"),
        ("Varga's premiership kicked off on 20 November 1996 and wrapped up on 2 April 1993.", "wrong"),
        ("Varga's time in charge dates from 2 April 1993 and came to an end on 20 November 1996.", "right"),
        ("Varga's time in charge got going on 2 April 1993 and was over by 20 November 1997.", "wrong"),
        # a slashed date whose day/month order is open states no day: undecided, never guessed
        ("Varga was sworn in on 04/02/1993 and resigned on 11/20/1996.", "undecided"),
        ("Varga was sworn in on 02/04/1993 and resigned on 20/11/1996.", "undecided"),
    ],
)
def test_terms_in_prose(expl: str, expected: str) -> None:
    assert verdict(VARGA, expl) == expected


def test_both_and_couples() -> None:
    pair = q(answers=("Anna Varga", "Bela Kun"), source="table", granularity="day",
             time_refs=({"which": "end", "value": "2001-06-30", "answer": "Anna Varga"},
                        {"which": "end", "value": "2001-06-30", "answer": "Bela Kun"}))  # fmt: skip
    assert verdict(pair, "Both of their acting terms ended on 30 June 2001.") == "right"
    assert verdict(pair, "Both of their acting terms ended on 30 June 2002.") == "wrong"
    marriage = q(answers=("Lena Holm",), S_star=(Triple("Lena Holm", "isMarriedTo", "Oskar Berg", "1961", "1970"),))
    who = ("Lena Holm", "Oskar Berg", "Pia Falk")
    text = "Oskar Berg married Lena Holm in 1961, after his divorce from Pia Falk; they split in 1970."
    assert verdict(marriage, text, who) == "right"
    assert verdict(marriage, "Lena Holm (m. 1961; div. 1970) was his second wife.", who) == "right"
    assert (
        verdict(marriage, "Oskar Berg married Lena Holm in 1961; the marriage ended in divorce in 1970.", who)
        == "right"
    )
    assert (
        verdict(marriage, "Oskar Berg married Lena Holm in 1961; the marriage ended in divorce in 1971.", who)
        == "wrong"
    )


def test_names_the_release_does_not_know() -> None:
    spell = q(answers=("Nord FC",), question="Which team did Tom Ek join in 2004?",
              S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2004", None),))  # fmt: skip
    people = ("Tom Ek", "Nord FC")
    # "Granit" and "Valby" are clubs the release does not list: their years are not Nord FC's
    assert verdict(spell, "Tom Ek spent 2001–03 with Granit and Valby before signing for Nord FC in 2004.",
                   people) == "right"  # fmt: skip
    assert verdict(spell, "Tom Ek signed for Nord FC in 2005 after a spell at Granit.", people) == "wrong"
    # an aside's name owns no later date
    assert verdict(spell, "Tom Ek (like Pia Falk) signed for the club in 2004.", (*people, "Pia Falk")) == "right"
    assert verdict(spell, "Tom Ek met Pia Falk, who signed for the club in 2004.", (*people, "Pia Falk")) == "wrong"
    # "the following year", "two years later" read as years
    assert verdict(spell, "Tom Ek left Granit in 2002 and joined Nord FC two years later.", people) == "right"
    assert verdict(spell, "Tom Ek left Granit in 2002 and joined Nord FC the following year.", people) == "wrong"


def test_tables_become_field_lines() -> None:
    text = "Intro.\n| PM | From | To |\n|:--|--:|---|\n| A B | 1990 | 1994 |\nAfter."
    # a header is written in lower case: it names a column, never an entity ("Years" is a film's label too)
    assert tables_as_fields(text) == "Intro.\nA B.\nfrom: 1990.\nto: 1994.\nAfter."
    assert tables_as_fields("a | b") == "a | b"  # no rule line: no table


def test_dates_written_as_feast_days_or_with_an_open_slashed_order() -> None:
    death = q(answers=("Ely",), question="Where did Ola Rask die in 1992?",
              S_star=(Triple("Ola Rask", "diedIn", "Ely", "1992", "1992"),))  # fmt: skip
    assert verdict(death, "Ola Rask died in Ely on Christmas Day 1992.", ("Ola Rask", "Ely")) == "right"
    # the question needs the year only, and the year of 05/04/1992 is certain whichever the order
    assert verdict(death, "Ola Rask died in Ely on 05/04/1992.", ("Ola Rask", "Ely")) == "right"
    assert verdict(death, "Ola Rask died in Ely on 05/04/1993.", ("Ola Rask", "Ely")) == "wrong"
    holiday = table_q("Anna Varga", "1993-12-25")
    assert verdict(holiday, "Anna Varga was sworn in on Christmas Day 1993.") == "right"
    assert verdict(holiday, "Anna Varga was sworn in on Christmas Eve 1993.") == "wrong"


@pytest.mark.parametrize(
    "reply",
    [
        "Sorry, I couldn't find a record of where she played first.",
        "I was unable to confirm which club signed him.",
        "I have no reliable information about this player.",
    ],
)
def test_a_refusal_in_prose_is_an_abstention(reply: str) -> None:
    team = q(answers=("Nord FC",), S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2004", None),))
    got = score_answer(team, AnswerRecord("q", "t", "ok", reply, None), candidates=("Nord FC", "Granit"))
    assert got.outcome == "abstain" and got.verdict == "wrong"


def test_clipped_years_take_the_century_of_the_text_or_the_question() -> None:
    spell = q(answers=("Nord FC",), question="Which team did Tom Ek join after Granit?",
              S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2004", None),))  # fmt: skip
    people = ("Tom Ek", "Nord FC", "Granit")
    # the text's own full year settles the century of "'04"
    assert verdict(spell, "Tom Ek left Granit in 2003 and joined Nord FC in '04.", people) == "right"
    assert verdict(spell, "Tom Ek left Granit in 2003 and joined Nord FC in '05.", people) == "wrong"
    # with no full year in the text, the question's years settle it
    assert verdict(spell, "Tom Ek signed for Nord FC in ’04.", people) == "right"
    assert verdict(spell, "Tom Ek signed for Nord FC in ’03.", people) == "wrong"
    # a decade is no clipped year
    assert verdict(spell, "Tom Ek signed for Nord FC in the '00s.", people) != "right"


def test_a_clipped_year_answers_a_year_question() -> None:
    year = q(answers=("1985",), answer_type="time", question="In what year did Ruritania join the league?")
    assert score_answer(year, AnswerRecord("q", "t", "ok", "'85", None)).verdict == "right"
    assert score_answer(year, AnswerRecord("q", "t", "ok", "'86", None)).verdict == "wrong"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("My first guess is Granit, but correcting myself: Nord FC.", "right"),
        ("My first guess is Nord FC, but correcting myself: Granit.", "wrong"),
        ("Granit? No — he had left by then. It was Nord FC.", "right"),
        ("Nord FC? No — he had left by then. It was Granit.", "wrong"),
        ("Granit. On second thought, Nord FC.", "right"),
        ("Nord FC. On second thought, Granit.", "wrong"),
        ("Granit... hold on, he had left by then. In 2004 he was at Nord FC.", "right"),
        ("Nord FC... hang on, he had left by then. In 2004 he was at Granit.", "wrong"),
    ],
)
def test_a_self_correction_keeps_what_follows_it(reply: str, expected: str) -> None:
    team = q(answers=("Nord FC",), S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2004", None),))
    got = score_answer(team, AnswerRecord("q", "t", "ok", reply, None), candidates=("Nord FC", "Granit"))
    assert got.verdict == expected


def test_bounds_with_a_qualifier_or_the_word_year_and_halloween() -> None:
    spell = q(answers=("Nord FC",), question="Which team did Tom Ek play for during 2001?",
              S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "1998", "2003"),))  # fmt: skip
    people = ("Tom Ek", "Nord FC")
    assert verdict(spell, "Tom Ek played for Nord FC between 1998 and the year 2003.", people) == "right"
    assert verdict(spell, "Tom Ek played for Nord FC between 1998 and the year 2004.", people) == "wrong"
    joined = q(answers=("Nord FC",), question="When did Tom Ek join Nord FC?",
               S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "1998", None),))  # fmt: skip
    assert verdict(joined, "Tom Ek was with Nord FC from mid-1998.", people) == "right"
    assert verdict(joined, "Tom Ek was with Nord FC from early 1999.", people) == "wrong"
    halloween = table_q("Anna Varga", "1993-10-31")
    assert verdict(halloween, "Anna Varga was sworn in on Halloween 1993.") == "right"
    assert verdict(halloween, "Anna Varga was sworn in on Halloween 1994.") == "wrong"


def test_a_decade_states_no_year() -> None:
    born = q(answers=("Ely",), question="When was Ola Rask born in Ely?",
             S_star=(Triple("Ola Rask", "wasBornIn", "Ely", "1939", "1939"),))  # fmt: skip
    assert verdict(born, "Ola Rask was born in Ely in 1939.", ("Ola Rask", "Ely")) == "right"
    assert verdict(born, "Ola Rask was born in Ely in the late 1930s.", ("Ola Rask", "Ely")) == "wrong"


def test_a_founding_year_in_a_club_name() -> None:
    club = q(answers=("FC Nordby 1900",), S_star=(Triple("Tom Ek", "playsFor", "FC Nordby 1900", "2004", None),))
    cands = ("FC Nordby 1900", "Granit")
    assert score_answer(club, AnswerRecord("q", "t", "ok", "FC Nordby", None), candidates=cands).verdict == "right"
    assert score_answer(club, AnswerRecord("q", "t", "ok", "Granit", None), candidates=cands).verdict == "wrong"
    # a one-word name keeps its year: "Nordby" alone is not the club
    one = q(answers=("Nordby 1900",), S_star=(Triple("Tom Ek", "playsFor", "Nordby 1900", "2004", None),))
    got = score_answer(one, AnswerRecord("q", "t", "ok", "Nordby", None), candidates=("Nordby 1900", "Granit"))
    assert got.verdict != "right"


@pytest.mark.parametrize(
    ("reply", "gold", "expected"),
    [
        ("Trick question? As far as I can tell, no one matches: the terms do not line up.", (), "right"),
        ("Trick question? As far as I can tell, Anna Varga.", (), "wrong"),
        ("Trick question? As far as I can tell, no one matches.", ("Anna Varga",), "wrong"),
    ],
)
def test_a_preamble_before_no_one(reply: str, gold: tuple[str, ...], expected: str) -> None:
    question = q(answers=gold, source="table")
    got = score_answer(question, AnswerRecord("q", "t", "ok", reply, None), candidates=LEADERS)
    assert got.verdict == expected


def test_the_answer_is_the_questions_own_entity_or_a_refusal() -> None:
    after = q(answers=("Nord FC",), question="After Tom Ek left Granit, which team did he play for next?",
              S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2004", None),),
              S_anchor=(Triple("Tom Ek", "playsFor", "Granit", "2001", "2003"),))  # fmt: skip
    slot = ("Nord FC", "Valby")  # the anchor club is the question's own, not a rival answer

    def judged(reply: str) -> str:
        rec = AnswerRecord("q", "t", "ok", reply, None)
        return score_answer(after, rec, candidates=slot, known=(*slot, "Granit", "Tom Ek")).verdict

    assert judged("The answer is Granit.") == "wrong"
    assert judged("### Answer\nGranit") == "wrong"
    assert judged("The answer is Nord FC.") == "right"
    for reply in ("I'm sorry, but I can't help with that.", "idk"):
        assert score_answer(after, AnswerRecord("q", "t", "ok", reply, None)).outcome == "abstain"


def test_a_transliterated_administrative_word() -> None:
    unit = q(answers=("Tver Governorate",), S_star=(Triple("Rzhev", "locatedIn", "Tver Governorate", "1796", "1929"),))
    cands = ("Tver Governorate", "Pskov Governorate")
    for reply, expected in (("Tver Guberniya", "right"), ("Pskov Guberniya", "wrong")):
        assert score_answer(unit, AnswerRecord("q", "t", "ok", reply, None), candidates=cands).verdict == expected


def test_the_questions_own_office_owns_no_date() -> None:
    office = table_q("Anna Varga", "1993-04-02", "1996-11-20", question="Who was the Prime Minister of Ruritania?")
    known = (*LEADERS, "Ruritania", "Ruritania, Prime Minister")
    text = "Anna Varga's time as Ruritania's Prime Minister got going on 2 April 1993 and lasted until 20 Nov 1996."
    assert verdict(office, text, known) == "right"
    assert verdict(office, "Anna Varga's term as Prime Minister of Ruritania ran until 20 November 1996; she took "
                           "office on 2 April 1993.", known) == "right"  # fmt: skip
    swapped = "Anna Varga's time as Ruritania's Prime Minister got going on 20 Nov 1996 and lasted until 2 April 1993."
    assert verdict(office, swapped, known) == "wrong"
    # another holder's possessive still owns its dates
    other = "Bela Kun's time as Ruritania's Prime Minister got going on 2 April 1993 and lasted until 20 November 1996."
    assert verdict(office, other, known) == "wrong"


def test_until_after_and_keeps_the_subject_of_the_clause() -> None:
    spell = q(answers=("yes",), answer_type="yes_no", question="Did Tom Ek play for Nord FC in 2003?",
              S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2001", "2004"),),
              time_refs=({"which": "end", "value": "2004", "of": "answer"},))  # fmt: skip
    people = ("Tom Ek", "Nord FC", "Granit")
    assert verdict(spell, "Yes; Tom Ek joined Nord FC in 2001 and stayed until 2004, before moving to Granit.",
                   people) == "right"  # fmt: skip
    assert verdict(spell, "Yes; Tom Ek joined Nord FC in 2001 and stayed until 2005, before moving to Granit.",
                   people) == "wrong"  # fmt: skip


@pytest.mark.parametrize(
    ("expl", "expected"),
    [
        ("1939 — I can't recall the exact dates.", "wrong"),
        ("1939. Not certain about the dates, sorry.", "wrong"),
        ("I don't remember the precise dates, but Ola Rask was born in Ely in 1939.", "right"),
        ("I don't remember the precise dates, but Ola Rask was born in Ely in 1938.", "wrong"),
    ],
)
def test_a_reply_that_disclaims_the_dates_states_none(expl: str, expected: str) -> None:
    born = q(answers=("1939",), answer_type="time", question="In what year was Ola Rask born in Ely?",
             S_star=(Triple("Ola Rask", "wasBornIn", "Ely", "1939", "1939"),))  # fmt: skip
    assert verdict(born, expl, ("Ola Rask", "Ely")) == expected


def test_an_event_said_to_take_place_in_another_year_contradicts() -> None:
    won = q(answers=("1998",), answer_type="time", question="In which year did Ola Rask win the Nordic Prize?",
            S_star=(Triple("Ola Rask", "hasWonPrize", "Nordic Prize", "1998", "1998"),))  # fmt: skip
    who = ("Ola Rask", "Nordic Prize")
    assert verdict(won, "Ola Rask winning the Nordic Prize took place in 1998.", who) == "right"
    assert verdict(won, "1998. Ola Rask winning the Nordic Prize happened in 1997.", who) == "wrong"
    assert verdict(won, "Ola Rask's Nordic Prize win occurred in 1997, so the answer is 1998.", who) == "wrong"


@pytest.mark.parametrize(
    ("expl", "expected"),
    [
        # counted from the date before, at the relative's own unit
        ("Varga was elected on 31 March 1993 and sworn in two days later; she quit on 20 November 1996.", "right"),
        ("Varga was elected on 31 March 1993 and sworn in three days later; she quit on 20 November 1996.", "wrong"),
        # a relative glossed by its explicit date: the explicit one counts
        ("Varga took office on 2 April 1993 and stepped down three years later, on 20 November 1996.", "right"),
        ("Varga took office on 2 April 1993 and stepped down three years later, on 21 November 1996.", "wrong"),
        # "handed the office back to X" ends her term as it starts X's
        ("Varga was sworn in on 2 April 1993 and handed the office back to Kun on 20 November 1996.", "right"),
        ("Varga was sworn in on 2 April 1993 and handed the office back to Kun on 21 November 1996.", "wrong"),
        # a day counted from a year pins no day
        ("Varga won the 1993 vote, took office two days after it, and left on 20 November 1996.", "wrong"),
    ],
)  # fmt: skip
def test_relative_dates_that_pin_the_day(expl: str, expected: str) -> None:
    assert verdict(VARGA, expl) == expected


def test_relative_years_counted_from_a_following_clause() -> None:
    spell = q(answers=("Nord FC",), question="Which team did Tom Ek join in 2005?",
              S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2005", None),))  # fmt: skip
    people = ("Tom Ek", "Nord FC", "Granit")
    assert verdict(spell, "Tom Ek joined Nord FC the year after he signed for Granit in 2004.", people) == "right"
    assert verdict(spell, "Tom Ek joined Nord FC two years after signing for Granit in 2004.", people) == "wrong"
    assert verdict(spell, "Tom Ek signed for Granit in 2003; he joined Nord FC two years later.", people) == "right"
    # an approximate count pins no year: left to a reader who can weigh it
    assert verdict(spell, "Tom Ek signed for Granit in 1995; he joined Nord FC a decade later.", people) == "undecided"
    assert verdict(spell, "Tom Ek signed for Granit in 2003; about two years later he joined Nord FC.",
                   people) == "undecided"  # fmt: skip


def judged_answer(question: Question, reply: str, cands: tuple[str, ...] = ("Nord FC", "Granit")) -> str:
    return score_answer(question, AnswerRecord("q", "t", "ok", reply, None), candidates=cands).verdict


TEAM = q(answers=("Nord FC",), S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2004", None),))


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        # a first answer set up only to be set aside
        ("You might be tempted to say Granit, but the dates rule it out: Nord FC.", "right"),
        ("You might be tempted to say Nord FC, but the dates rule it out: Granit.", "wrong"),
        ("I was going to say Granit, but checking the years, Nord FC is right.", "right"),
        ("I was going to say Nord FC, but checking the years, Granit is right.", "wrong"),
        # a hedge between two answers
        ("Could be Nord FC, could be Granit — hard to say.", "wrong"),
        ("It could also be Nord FC.", "wrong"),
        # an interjection is no second answer
        ("Hmm, Nord FC? Yes — Nord FC.", "right"),
        ("Hmm, Granit? Yes — Granit.", "wrong"),
    ],
)
def test_set_aside_hedged_and_interjected_answers(reply: str, expected: str) -> None:
    assert judged_answer(TEAM, reply) == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        # the successor or predecessor named with a plain verb after the one answer
        ("Anna Varga; Bela Kun came after her in 1996.", "right"),
        ("Anna Varga, then Bela Kun took over in 1996.", "right"),
        ("Anna Varga. Bela Kun was her successor.", "right"),
        ("Anna Varga, who kept the seat warm between Kun's first and second terms.", "right"),
        # the same shapes with the rival first: he is the answer given
        ("Bela Kun; Anna Varga came after him in 1996.", "wrong"),
        ("Bela Kun, then Anna Varga took over in 1996.", "wrong"),
        ("Anna Varga, then Bela Kun.", "wrong"),  # a bare "A, then B" lists two answers
        ("Anna Varga and Bela Kun.", "wrong"),
        ("Kun's the one.", "wrong"),
    ],
)
def test_a_successor_named_as_context(reply: str, expected: str) -> None:
    one = q(answers=("Anna Varga",), source="table")
    assert judged_answer(one, reply, LEADERS) == expected


def test_a_successor_in_a_list_question_is_a_second_answer() -> None:
    two = q(answers=("Anna Varga", "Carla Dorn"), source="table")
    assert judged_answer(two, "Anna Varga, then Bela Kun took over.", LEADERS) == "wrong"


def test_an_outdated_holder_named_as_the_one_taken_over_from() -> None:
    now = q(answers=("Anna Varga",), source="table", operator="time_alignment", outdated_answers=("Bela Kun",))
    got = score_answer(now, AnswerRecord("q", "t", "ok", "Varga. She took over from Bela Kun in 1993.", None),
                       candidates=LEADERS)  # fmt: skip
    assert got.outcome != "outdated"
    got = score_answer(now, AnswerRecord("q", "t", "ok", "Bela Kun, who took over in 1990.", None), candidates=LEADERS)
    assert got.outcome == "outdated"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        # a given name or a short form the data does not list: left to a reader who knows it
        ("That's Anna — the first woman in the post.", "undecided"),
        ("Varga.", "right"),
        # a word a rival shares is no part of the gold's name
        ("That's Bela — the first man in the post.", "undecided"),
        # the gold's surname inside a longer word decides, whatever the given name
        ("Anna Vargaei", "wrong"),
    ],
)
def test_a_part_of_the_gold_name(reply: str, expected: str) -> None:
    one = q(answers=("Anna Varga",), source="table")
    assert judged_answer(one, reply, LEADERS[1:]) == expected  # the rivals, as evaluate gives them


@pytest.mark.parametrize(
    ("reply", "gold", "expected"),
    [
        ("I believe so, yes.", "yes", "right"),
        ("I believe so, yes.", "no", "wrong"),
        ("Not true.", "no", "right"),
        ("Not true.", "yes", "wrong"),
        ("He did, by all accounts.", "yes", "right"),
        ("It wasn't the case.", "yes", "wrong"),
        ("Well, yes and no.", "yes", "undecided"),
    ],
)
def test_yes_or_no_said_later_in_the_reply(reply: str, gold: str, expected: str) -> None:
    asked = q(answers=(gold,), answer_type="yes_no", question="Did Tom Ek play for Nord FC in 2003?")
    assert judged_answer(asked, reply) == expected


@pytest.mark.parametrize(
    "reply",
    ["Can't say — my records don't cover that.", "No idea, honestly.", "That's beyond what I can answer reliably."],
)
def test_more_refusals(reply: str) -> None:
    got = score_answer(TEAM, AnswerRecord("q", "t", "ok", reply, None), candidates=("Nord FC", "Granit"))
    assert got.outcome == "abstain"


def test_decades_and_vague_counts_in_a_duration() -> None:
    span = q(answers=("59 years",), answer_ids=("P59Y",), answer_type="duration", question="How many years?")
    assert judged_answer(span, "about six decades") == "wrong"
    sixty = q(answers=("60 years",), answer_ids=("P60Y",), answer_type="duration", question="How many years?")
    assert judged_answer(sixty, "six decades") == "right"
    assert judged_answer(span, "Just a few years.") == "wrong"
    assert judged_answer(span, "Several decades.") == "wrong"


def test_club_names_without_particles_or_a_two_digit_year() -> None:
    for gold, reply, rival in (("Clube de Regatas do Leme", "Clube Regatas Leme", "Clube Regatas Sul"),
                               ("KFC Krefeld 05", "KFC Krefeld", "KFC Bonn")):  # fmt: skip
        club = q(answers=(gold,), S_star=(Triple("Tom Ek", "playsFor", gold, "2004", None),))
        assert judged_answer(club, reply, (gold, rival)) == "right"
        assert judged_answer(club, rival, (gold, rival)) == "wrong"


@pytest.mark.parametrize(
    ("expl", "expected"),
    [
        ("Anna Varga war vom 2. April 1993 bis 20. November 1996 Regierungschefin.", "right"),
        ("Anna Varga war vom 2. April 1993 bis 21. November 1996 Regierungschefin.", "wrong"),
        ("Anna Varga gobernó desde el 2 de abril de 1993 hasta el 20 de noviembre de 1996.", "right"),
        ("Anna Varga gobernó desde el 20 de noviembre de 1996 hasta el 2 de abril de 1993.", "wrong"),
        ("Anna Varga a gouverné du 2 avril 1993 au 20 novembre 1996.", "right"),
        ("Anna Varga a gouverné du 2 avril 1993 jusqu'au 20 novembre 1995.", "wrong"),
    ],
)
def test_dates_in_german_spanish_and_french(expl: str, expected: str) -> None:
    # a trap is never accepted; where the rules cannot read the clause's own words it is left undecided
    got = verdict(VARGA, expl)
    assert got == expected if expected == "right" else got != "right"


def test_a_year_answer_in_another_language() -> None:
    year = q(answers=("2008-05-07",), answer_type="time", granularity="day", question="When did he take office?")
    assert score_answer(year, AnswerRecord("q", "t", "ok", "El 7 de mayo de 2008.", None)).verdict == "right"
    assert score_answer(year, AnswerRecord("q", "t", "ok", "Am 7. März 2008.", None)).verdict == "wrong"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Candidates:\n- Bela Kun\n- Anna Varga ✓\n- Carla Dorn", "right"),
        ("Candidates:\n- Bela Kun ✓\n- Anna Varga\n- Carla Dorn", "wrong"),
        ("1. Bela Kun\n2. **Anna Varga** (this one)\n3. Carla Dorn", "right"),
        ("1. **Bela Kun** ← answer\n2. Anna Varga", "wrong"),
        # two marks say two answers
        ("- Bela Kun ✓\n- Anna Varga ✓", "wrong"),
    ],
)
def test_a_list_of_candidates_with_one_marked(reply: str, expected: str) -> None:
    one = q(answers=("Anna Varga",), source="table")
    assert judged_answer(one, reply, LEADERS) == expected


def test_one_bold_item_of_a_list_question_is_no_mark() -> None:
    two = q(answers=("Anna Varga", "Bela Kun"), source="table")
    assert judged_answer(two, "- **Anna Varga**\n- Bela Kun", LEADERS) == "right"
    assert judged_answer(two, "- **Anna Varga**\n- Carla Dorn", LEADERS) == "wrong"


def test_a_duration_given_as_a_choice_a_range_or_a_bound_states_no_count() -> None:
    three = q(answers=("3 years",), answer_ids=("P3Y",), answer_type="duration", question="How many years?")
    one = q(answers=("1 year",), answer_ids=("P1Y",), answer_type="duration", question="How many years?")
    # two numbers offered ("two or three", "3-4") hedge between them, even when one is the gold
    assert judged_answer(three, "Perhaps two or three years, hard to say.") == "wrong"
    assert judged_answer(three, "3 to 4 years") == "wrong"
    assert judged_answer(three, "around 3-4 years") == "wrong"
    # the second number written after the unit ("a year or two") is a count in the same unit
    assert judged_answer(one, "A year or two, I'd say.") == "wrong"
    assert judged_answer(three, "Three years or four.") == "wrong"
    assert judged_answer(one, "A year or so.") == "right"  # "so" is no number
    assert judged_answer(one, "A year, to 2005.") == "right"  # a year after "to" is no count
    assert judged_answer(three, "Roughly three years.") == "right"  # one number, a plain approximation
    assert judged_answer(three, "He joined in 1999 or so and stayed 3 years.") == "right"  # a year is no count
    # a bound says more or less than the gold, not the gold
    assert judged_answer(one, "Under a year - only one season.") == "wrong"
    assert judged_answer(one, "More than one year.") == "wrong"
    assert judged_answer(one, "one year") == "right"


TWO_ON_ONE_DAY = q(
    answers=("Anna Varga", "Bela Kun"),
    source="table",
    granularity="day",
    question="Who led Ruritania until 8 July 2010?",
    time_refs=(
        {"which": "end", "value": "2010-07-08", "answer": "Anna Varga"},
        {"which": "end", "value": "2010-07-08", "answer": "Bela Kun"},
    ),
)


def test_two_holders_with_the_same_end_each_need_it() -> None:
    def said(expl: str) -> str:
        return verdict(TWO_ON_ONE_DAY, expl)

    assert said("Varga's acting term ended on 8 July 2010; Kun then acted until 8 July 2010 as well.") == "right"
    # the second holder's own end stated differently: no longer hidden behind the first holder's equal date
    assert said("Varga's acting term ended on 8 July 2010; Kun then acted as head of state until 6 August 2010.") == (
        "wrong"
    )
    assert said("Kun's acting term ended on 8 July 2010; Varga then served until 9 July 2010.") == "wrong"


def test_a_term_within_one_day_begins_and_ends_on_it() -> None:
    one_day = table_q("Bela Kun", "2010-07-08", "2010-07-08")
    assert verdict(one_day, "Bela Kun acted for a few hours on 8 July 2010 before Carla Dorn took over.") == "right"
    assert verdict(one_day, "Bela Kun acted for a few hours on 9 July 2010 before Carla Dorn took over.") == "wrong"
    same_day = "Carla Dorn left on 8 July 2010. For a few hours that same day, Bela Kun held the post."
    day_after = "Carla Dorn left on 8 July 2010. For a few hours the day after, Bela Kun held the post."
    assert verdict(one_day, same_day) == "right" and verdict(one_day, day_after) == "wrong"
    # a plain date with a start cue still states only the start
    # (its end's date is written, untied: undecided, never right)
    assert verdict(one_day, "Bela Kun took office on 8 July 2010.") == "undecided"


def test_a_move_in_and_a_move_on() -> None:
    # "came to X" and "took her seat" open the fact, "moved on" closes it; "removed" stays an end
    assert verdict(VARGA, "Varga came to office on 2 April 1993 and moved on on 20 November 1996.") == "right"
    assert verdict(VARGA, "Varga came to office on 20 November 1996 and moved on on 2 April 1993.") == "wrong"
    assert verdict(VARGA, "Varga took her seat on 2 April 1993 and was removed on 20 November 1996.") == "right"
    assert verdict(VARGA, "Varga took her seat on 2 April 1993 and was removed on 2 April 1996.") == "wrong"
    # "broke through" is a start (no "through" end), buying one starts owning it
    assert verdict(VARGA, "Varga broke through on 2 April 1993 and quit on 20 November 1996.") == "right"
    assert verdict(VARGA, "Varga broke through on 2 April 1994 and quit on 20 November 1996.") == "wrong"
    assert verdict(VARGA, "Varga bought it on 2 April 1993 and kept it until 20 November 1996.") == "right"
    assert verdict(VARGA, "Varga bought it on 2 April 1993 and kept it until 20 November 1995.") == "wrong"


# --------------------------------------------------------------------------------------------------
# Every date stated for a fact of the question's evidence must agree with the data
# --------------------------------------------------------------------------------------------------

# A two-hop time question: the answer's fact (Varn in Ostland) and the supporting hop (Ostland in Nordia).
TWO_HOPS = q(
    answers=("1931",),
    answer_type="time",
    question="What year did Varn become part of the country Ostland was part of?",
    S_star=(
        Triple("Ostland", "country", "Nordia", "1929", "1977"),
        Triple("Varn", "country", "Nordia", "1931", "1977"),
    ),
    time_refs=({"which": "start", "value": "1931", "of": "answer"},),
)
PLACES = ("Varn", "Ostland", "Nordia", "Sudmark")


@pytest.mark.parametrize(
    ("expl", "expected"),
    [
        ("Ostland joined Nordia in 1929 and Varn followed in 1931.", "right"),
        # the supporting hop's start or end stated wrong: the explanation is not time-accurate
        ("Ostland joined Nordia in 1930 and Varn followed in 1931.", "wrong"),
        ("Ostland belonged to Nordia from 1929 to 1976; Varn joined it in 1931.", "wrong"),
        ("| fact |\n|---|\n| Ostland was part of Nordia, from 1928 |\n| Varn was part of Nordia from 1931 |", "wrong"),
        # the same years for the right facts, and a date of another entity's fact, stay as they were
        ("| fact |\n|---|\n| Ostland was part of Nordia, from 1929 |\n| Varn was part of Nordia from 1931 |", "right"),
        ("Varn joined Nordia in 1931; Ostland had been part of Sudmark, beginning 1911.", "right"),
        # a date attributed to no fact ("Relevant years: ...") decides nothing
        ("Varn joined Nordia in 1931. Relevant years: 1930, 1931.", "right"),
    ],
)  # fmt: skip
def test_a_wrong_date_of_a_supporting_fact(expl: str, expected: str) -> None:
    assert verdict(TWO_HOPS, expl, PLACES) == expected


def test_a_wrong_date_of_the_anchor_fact_or_of_the_answers_other_end() -> None:
    wed = q(answers=("Ida Holm",), question="Who was Per Dal married to when Ole Vik won the Nordic Prize?",
            S_star=(Triple("Per Dal", "isMarriedTo", "Ida Holm", "1984", None),),
            S_anchor=(Triple("Ole Vik", "hasWonPrize", "Nordic Prize", "1986", None),),
            time_refs=({"which": "start", "value": "1986", "of": "anchor"},))  # fmt: skip
    who = ("Per Dal", "Ida Holm", "Ole Vik", "Nordic Prize")
    assert verdict(wed, "Per Dal and Ida Holm married in 1984; Ole Vik received the Nordic Prize in 1986.", who) == (
        "right"
    )
    assert verdict(wed, "Per Dal and Ida Holm married in 1985; Ole Vik received the Nordic Prize in 1986.", who) == (
        "wrong"
    )
    # a table question asking only for the start: a wrong end of the same term is wrong too
    term = Triple("Ruritania, Prime Minister", "name", "Anna Varga", "1993-04-02", "1996-11-20")
    ref = {"which": "start", "value": "1993-04-02", "answer": "Anna Varga"}
    start_only = q(answers=("Anna Varga",), source="table", granularity="day", question="Who led Ruritania?",
                   time_refs=(ref,), S_star=(term,))  # fmt: skip
    assert verdict(start_only, "Anna Varga took office on 2 April 1993 and resigned on 20 November 1996.") == "right"
    assert verdict(start_only, "Anna Varga took office on 2 April 1993 and resigned on 20 November 1995.") == "wrong"


def test_another_term_of_the_same_holder_is_no_wrong_date() -> None:
    spell = q(answers=("Nord FC",), question="Which team did Tom Ek play for in 2006?",
              S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2005", "2007"),),
              S_dist=(Triple("Tom Ek", "playsFor", "Nord FC", "1999", "2001"),),
              time_refs=({"which": "end", "value": "2007", "of": "answer"},))  # fmt: skip
    people = ("Tom Ek", "Nord FC", "Granit")
    assert verdict(spell, "Tom Ek first joined Nord FC in 1999; his second spell there ended in 2007.", people) == (
        "right"
    )
    assert verdict(spell, "Tom Ek first joined Nord FC in 1998; his second spell there ended in 2007.", people) == (
        "wrong"
    )


def test_a_state_at_a_date_is_no_start() -> None:
    wed = q(answers=("Ida Holm",), question="Who was Per Dal married to in 1990?",
            S_star=(Triple("Per Dal", "isMarriedTo", "Ida Holm", "1984", "1995"),),
            S_anchor=(Triple("Per Dal", "diedIn", "Varn", "1995", "1995"),),
            time_refs=({"which": "start", "value": "1995", "of": "anchor"},))  # fmt: skip
    who = ("Per Dal", "Ida Holm", "Varn")
    # "so in 1990 she was his wife", "in 1990 he was still married to her": no start is stated
    assert verdict(wed, "Per Dal died in Varn in 1995; he had married Ida Holm in 1984, so in 1990 she was his "
                        "wife.", who) == "right"  # fmt: skip
    assert verdict(wed, "In 1990 Per Dal was still married to Ida Holm; he died in Varn in 1995.", who) == "right"
    assert verdict(wed, "Per Dal married Ida Holm in 1990; he died in Varn in 1995.", who) == "wrong"


def test_a_date_of_another_country_a_place_was_part_of() -> None:
    # "part of Sudmark, beginning D": Sudmark's date, not the hop's ("on loan from X" still sets X aside)
    assert verdict(TWO_HOPS, "Ostland was part of Nordia from 1929. Varn was part of Sudmark, beginning 1925. Varn "
                             "was part of Nordia, beginning 1931.", PLACES) == "right"  # fmt: skip
    assert verdict(TWO_HOPS, "Ostland was part of Nordia from 1929. Varn was part of Nordia, beginning 1925.",
                   PLACES) == "wrong"  # fmt: skip


def test_a_when_clause_of_another_entity_dates_the_change_before_it() -> None:
    assert verdict(TWO_HOPS, "Ostland joined Nordia in 1929; Varn became part of Nordia when Sudmark fell in 1931.",
                   PLACES) == "right"  # fmt: skip
    assert verdict(TWO_HOPS, "Ostland joined Nordia in 1929; Varn became part of Nordia when Sudmark fell in 1932.",
                   PLACES) == "wrong"  # fmt: skip


RASK_DIED = q(answers=("1906",), answer_type="time", question="In which year did Ola Rask die in Ely?",
              S_star=(Triple("Ola Rask", "diedIn", "Ely", "1906", "1906"),))  # fmt: skip


@pytest.mark.parametrize(
    ("expl", "expected"),
    [
        # a vague year states no year; a closing line that restates the answer dates nothing
        ("My reasoning:\n- Ola Rask died in Ely in the 1900-something period.\nSo the answer is 1906.", "wrong"),
        ("Ola Rask died in Ely sometime in the early 1900s.\nAnswer: 1906", "wrong"),
        ("Ola Rask died in Ely in 1900-odd.\n→ 1906", "wrong"),
        # the same closing line after a stated year
        ("Here is my reasoning.\n- Ola Rask died in Ely in 1906.\nSo the answer is 1906.", "right"),
        ("Ola Rask died in Ely in 1905.\nAnswer: 1906", "wrong"),
        # "in 1906 something changed" is a year
        ("In 1906 something ended: Ola Rask died in Ely.", "right"),
        # a reply that disclaims its dates in French, Spanish or German states none
        ("Réponse : 1906. Je ne connais pas les dates exactes.", "wrong"),
        ("1906 — no recuerdo las fechas con precisión.", "wrong"),
        ("1906; ich weiss die genauen Daten nicht.", "wrong"),
        ("No recuerdo las fechas exactas, pero Ola Rask died in Ely in 1906.", "right"),
    ],
)  # fmt: skip
def test_vague_years_and_disclaimed_dates(expl: str, expected: str) -> None:
    assert verdict(RASK_DIED, expl, ("Ola Rask", "Ely")) == expected


def test_a_range_written_backwards_states_its_ends_as_written() -> None:
    spell = q(answers=("Nord FC",), question="Which team did Tom Ek play for in 2003?",
              S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2002", "2004"),))  # fmt: skip
    people = ("Tom Ek", "Nord FC", "Granit")
    assert verdict(spell, "Tom Ek played for Nord FC between 2004 and 2002.", people) == "wrong"
    assert verdict(spell, "Tom Ek played for Nord FC from 2004 to 2002.", people) == "wrong"
    assert verdict(spell, "Tom Ek played for Nord FC between 2002 and 2004.", people) == "right"
    # a clipped start before a full end is no later than the end: "'02" here is 2002, not 2102
    assert verdict(spell, "Tom Ek played for Nord FC between '02 and 2004.", people) == "right"
    assert verdict(spell, "Tom Ek played for Nord FC between '01 and 2004.", people) == "wrong"


# --------------------------------------------------------------------------------------------------
# Answers: hedged yes/no, other languages, conclusions, short forms of names
# --------------------------------------------------------------------------------------------------

ASKED_YES = q(answers=("yes",), answer_type="yes_no", question="Did Tom Ek play for Nord FC in 2003?")
ASKED_NO = q(answers=("no",), answer_type="yes_no", question="Did Tom Ek play for Nord FC in 2009?")


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        # commits to neither: not a yes, not a no
        (ASKED_YES, "Yes or no? Tough to say; it could go either way.", "wrong"),
        (ASKED_NO, "No... hard to tell, I'd lean neither way.", "wrong"),
        # a hedge that then commits
        (ASKED_YES, "Hard to say at first, but yes, he did.", "right"),
        (ASKED_YES, "Difficult to tell — but no.", "wrong"),
        # yes and no in other languages
        (ASKED_YES, "Oui, il jouait là-bas.", "right"),
        (ASKED_YES, "Nein.", "wrong"),
        (ASKED_NO, "Нет.", "right"),
        (ASKED_NO, "Sí, claro.", "wrong"),
        # "no se unió" (he did not join) is a no, not "no sé" (I don't know)
        (ASKED_NO, "No se unió al club en 2009.", "right"),
    ],
)
def test_hedged_and_foreign_yes_or_no(question: Question, reply: str, expected: str) -> None:
    assert judged_answer(question, reply) == expected


@pytest.mark.parametrize(
    "reply",
    ["I'm drawing a blank on that.", "That's outside what I can recall with confidence.",
     "This isn't something I have information on.", "There's not enough context here to answer.",
     "No lo sé.", "Je ne sais pas, désolé.", "Ich weiß es nicht.", "Не знаю."],
)  # fmt: skip
def test_refusals_in_more_words_and_languages(reply: str) -> None:
    got = score_answer(TEAM, AnswerRecord("q", "t", "ok", reply, None), candidates=("Nord FC", "Granit"))
    assert got.outcome == "abstain"
    # a refusal word next to a named answer does not hide it
    named = score_answer(TEAM, AnswerRecord("q", "t", "ok", "Granit. " + reply, None), candidates=("Nord FC", "Granit"))
    assert named.verdict == "wrong"


def test_nobody_in_other_languages_years_and_durations() -> None:
    empty = q(answers=(), source="table", question="Who led Ruritania in 1850?")
    assert judged_answer(empty, "Personne ne convient.", LEADERS) == "right"
    assert judged_answer(empty, "Nadie.", LEADERS) == "right"
    assert judged_answer(q(answers=("Anna Varga",), source="table"), "Niemand.", LEADERS) == "wrong"
    year = q(answers=("2011",), answer_type="time", question="In which year?")
    assert judged_answer(year, "2011年") == "right" and judged_answer(year, "2012年") == "wrong"
    assert judged_answer(year, "2011년") == "right"
    span = q(answers=("12 years",), answer_ids=("P12Y",), answer_type="duration", question="How many years?")
    assert judged_answer(span, "12 Jahre") == "right" and judged_answer(span, "13 años") == "wrong"
    assert judged_answer(span, "12 лет") == "right"


def test_a_conclusion_that_names_only_the_questions_own_entity() -> None:
    after = q(answers=("Nord FC",), question="Which team did Tom Ek play for after Granit?",
              S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2004", None),),
              S_anchor=(Triple("Tom Ek", "playsFor", "Granit", "2001", "2004"),))  # fmt: skip
    slot = ("Nord FC", "Granit", "Sud FC")

    def judged(reply: str) -> str:
        return score_answer(after, AnswerRecord("q", "t", "ok", reply, None), candidates=slot).verdict

    assert judged("He had been at Granit before that, therefore: Granit.") == "wrong"
    assert judged("He had been at Granit before that, therefore: Nord FC.") == "right"


def test_short_forms_of_states_only_without_a_rival() -> None:
    kingdom = q(answers=("Kingdom of Ruritania",), question="Which country was Varn part of in 1850?",
                S_star=(Triple("Varn", "country", "Kingdom of Ruritania", "1800", "1900"),))  # fmt: skip
    alone = ("Kingdom of Ruritania", "Sudmark")
    assert judged_answer(kingdom, "Ruritania.", alone) == "right"
    assert judged_answer(kingdom, "Sudmark.", alone) == "wrong"
    # the release also knows a Ruritania of its own: "Ruritania" names that one
    assert judged_answer(kingdom, "Ruritania.", (*alone, "Ruritania")) != "right"
    ssr = q(answers=("Ostian Soviet Socialist Republic",), question="Which unit was Varn in in 1970?",
            S_star=(Triple("Varn", "locatedIn", "Ostian Soviet Socialist Republic", "1940", "1991"),))  # fmt: skip
    rivals = ("Ostian Soviet Socialist Republic", "Nordian Soviet Socialist Republic")
    assert judged_answer(ssr, "The Ostian SSR.", rivals) == "right"
    assert judged_answer(ssr, "The Nordian SSR.", rivals) == "wrong"
    union = q(answers=("Soviet Union",), question="Which country was Varn part of in 1970?")
    assert judged_answer(union, "The USSR.", ("Soviet Union", "Russian Empire")) == "right"


def test_short_forms_of_clubs_and_people() -> None:
    for gold, reply in (("Ely Town A.F.C.", "Ely Town"), ("U.S. Varese 1910", "Varese"), ("1. FC Varn", "Varn"),
                        ("Esporte Clube Ostia", "Ostia"), ("Calcio Lecce 1908", "Calcio Lecce")):  # fmt: skip
        club = q(answers=(gold,), S_star=(Triple("Tom Ek", "playsFor", gold, "2004", None),))
        rival = "Granit A.F.C."
        assert judged_answer(club, reply, (gold, rival)) == "right", gold
        assert judged_answer(club, "Granit", (gold, rival)) == "wrong", gold
    # a year alone closing a title is no founding year: "Nordic Saga 2049" is not "Nordic Saga"
    film = q(answers=("Nordic Saga 2049",), S_star=(Triple("Tom Ek", "actedIn", "Nordic Saga 2049", "2017", None),))
    assert judged_answer(film, "Nordic Saga", ("Nordic Saga 2049", "Nordic Saga")) != "right"
    corpus = NameIndex({label: (label,) for label in ("Nordic Saga 2049", "Nordic Saga")})  # as evaluate passes it
    assert score_answer(film, AnswerRecord("q", "t", "ok", "Nordic Saga", None), candidates=corpus).verdict != "right"
    italian = q(answers=("Varese F.C.",), S_star=(Triple("Tom Ek", "playsFor", "Varese F.C.", "2004", None),))
    assert judged_answer(italian, "Nel 2005 giocava nell'Varese.", ("Varese F.C.", "Granit F.C.")) == "right"
    assert judged_answer(italian, "Nel 2005 giocava nell'Granit.", ("Varese F.C.", "Granit F.C.")) == "wrong"
    # glued initials of the gold's given names; other initials are another person
    pm = q(answers=("Jan Peter Varga",), source="table")
    assert judged_answer(pm, "JP Varga", ("Jan Peter Varga", "Bela Kun")) == "right"
    assert judged_answer(pm, "KL Varga", ("Jan Peter Varga", "Bela Kun")) != "right"
    # "the England under-18s" is the under-18 team, a rival of the under-16 one
    u16 = q(answers=("England national under-16 football team",))
    teams = ("England national under-16 football team", "England national under-18 football team")
    assert judged_answer(u16, "He started with the England under-18s.", teams) == "wrong"
    assert judged_answer(u16, "He started with the England under-16s.", teams) == "right"


# --------------------------------------------------------------------------------------------------
# Buying and selling, bounds, sums, arrows, pairs of names and replies in other languages
# --------------------------------------------------------------------------------------------------

OWNED = q(answers=("25 years",), answer_type="duration", question="How long did Tom Ek own Nord Park?",
          S_star=(Triple("Tom Ek", "owns", "Nord Park", "1959", "1984"),),
          time_refs=({"which": "start", "value": "1959", "of": "answer"},
                     {"which": "end", "value": "1984", "of": "answer"}))  # fmt: skip
PARK = ("Tom Ek", "Nord Park", "Granit")


@pytest.mark.parametrize(
    ("expl", "expected"),
    [
        # acquiring starts owning, selling ends it
        ("Tom Ek acquired Nord Park in 1959; he sold it in 1984.", "right"),
        ("Tom Ek acquired Nord Park in 1958; he sold it in 1984.", "wrong"),
        ("Tom Ek acquired Nord Park in 1959; he sold it in 1985.", "wrong"),
        # the years of a sum after an arrow are arithmetic, not dates of the fact
        ("Tom Ek bought Nord Park in 1959 and sold it in 1984 → 1984 − 1959 = 25 years.", "right"),
        ("Tom Ek bought Nord Park in 1959 and sold it in 1985 → 1985 − 1959 = 26 years.", "wrong"),
    ],
)
def test_buying_selling_and_a_sum(expl: str, expected: str) -> None:
    assert verdict(OWNED, expl, PARK) == expected


LEFT_BY = q(answers=("no",), answer_type="yes_no", question="Did Tom Ek play for Nord FC in 2007?",
            S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "1997", "2005"),),
            time_refs=({"which": "end", "value": "2005", "of": "answer"},))  # fmt: skip


def test_by_a_date_bounds_a_change_and_states_no_end() -> None:
    teams = ("Tom Ek", "Nord FC", "Granit")
    assert verdict(LEFT_BY, "No. Ek was with Nord FC from 1997 until 2005; by 2007 he had moved on.", teams) == "right"
    assert verdict(LEFT_BY, "No. Ek was with Nord FC from 1997 until 2006; by 2007 he had moved on.", teams) == "wrong"
    # a date with a cue of its own is still an end: "left in 2007" contradicts 2005
    assert (
        verdict(LEFT_BY, "No. Ek joined Nord FC in 1997, left in 2005 and rejoined; he left in 2007.", teams) != "right"
    )


def test_an_arrow_between_two_days_is_a_term() -> None:
    assert verdict(VARGA, "Anna Varga: in office 2 April 1993 → 20 November 1996.") == "right"
    assert verdict(VARGA, "Anna Varga: in office 2 April 1993 → 21 November 1996.") == "wrong"
    assert verdict(VARGA, "Anna Varga: in office 20 November 1996 → 2 April 1993.") == "wrong"


# One year before Varn joined Nordia (the anchor), where was Kerr, Nordia's capital (a supporting fact)?
CAPITAL = q(answers=("Lanmark",), question="One year before Varn joined Nordia, in which region was Nordia's capital?",
            S_star=(Triple("Kerr", "locatedIn", "Lanmark", "1708", "1929"),
                    Triple("Kerr", "capitalOf", "Nordia", "1922", "1991")),
            S_anchor=(Triple("Varn", "country", "Nordia", "1923", "1991"),),
            time_refs=({"which": "start", "value": "1923", "of": "anchor"},))  # fmt: skip
CITIES = ("Varn", "Kerr", "Nordia", "Lanmark", "Ostland")


@pytest.mark.parametrize(
    ("expl", "expected"),
    [
        # two names of the clause that share one fact: the date is that fact's (Kerr's start as capital)
        ("Varn joined Nordia in 1923. A year earlier, Kerr — capital of Nordia since 1922 — lay in Lanmark.", "right"),
        ("Varn joined Nordia in 1923. A year earlier, Kerr — capital of Nordia since 1918 — lay in Lanmark.", "wrong"),
        # an arrow before words starts a step: "the year before is 1922" is no start of Varn in Nordia
        ("1. Varn joined Nordia in 1923 → the year before is 1922.\n2. Kerr lay in Lanmark (1708–1929).", "right"),
        ("1. Varn joined Nordia in 1924 → the year before is 1923.\n2. Kerr lay in Lanmark (1708–1929).", "wrong"),
    ],
)  # fmt: skip
def test_a_pair_of_names_and_a_step_after_an_arrow(expl: str, expected: str) -> None:
    assert verdict(CAPITAL, expl, CITIES) == expected


WIDOW = q(answers=("Ely",), question="In 2003, where did the spouse of Ida Holm die?",
          S_star=(Triple("Per Dal", "diedIn", "Ely", "2003-10-31", "2003-10-31"),
                  Triple("Ida Holm", "isMarriedTo", "Per Dal", "1987", "2003")),
          time_refs=({"which": "start", "value": "2003-10-31", "of": "answer"},))  # fmt: skip
EARLIER = q(answers=("Nord FC",), question="Three years before Tom Ek joined Sud FC, which team did he play for?",
            S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "1989", "1993"),),
            S_anchor=(Triple("Tom Ek", "playsFor", "Sud FC", "1995", "1996"),),
            time_refs=({"which": "start", "value": "1995", "of": "anchor"},))  # fmt: skip


def test_an_unknown_word_that_qualifies_a_known_name_or_opens_the_next_clause() -> None:
    people = ("Ida Holm", "Per Dal", "Ely", "Tom Ek", "Nord FC", "Sud FC")
    # "the Oxford scholar Per Dal": Oxford (unknown) qualifies the spouse, the marriage date stays firm
    assert verdict(WIDOW, "Ida Holm married the Oxford scholar Per Dal in 1987. He died in Ely on 31 October 2003.",
                   people) == "right"  # fmt: skip
    assert verdict(WIDOW, "Ida Holm married the Oxford scholar Per Dal in 1978. He died in Ely on 31 October 2003.",
                   people) == "wrong"  # fmt: skip
    # "since 1989 before moving to Hallam in 1993": Hallam is the next clause's
    said = (
        "Ek joined Sud FC in 1995. Three years earlier he was at Nord FC, where he had played since {} "
        "before moving to Hallam in 1993."
    )
    assert verdict(EARLIER, said.format(1989), people) == "right"
    assert verdict(EARLIER, said.format(1986), people) == "wrong"


SPELL = q(answers=("1 year",), answer_type="duration", question="How long did Tom Ek play for Nord FC?",
          S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "1989", "1990"),),
          time_refs=({"which": "start", "value": "1989", "of": "answer"},
                     {"which": "end", "value": "1990", "of": "answer"}))  # fmt: skip


@pytest.mark.parametrize(
    ("expl", "expected"),
    [
        ("Tom Ek fichó por el Nord FC en 1989 y se marchó en 1990. Por tanto, un año.", "right"),
        ("Tom Ek fichó por el Nord FC en 1989 y se marchó en 1991. Por tanto, dos años.", "wrong"),
        ("Tom Ek a rejoint le Nord FC en 1989 et l'a quitté en 1990 : un an.", "right"),
        ("Tom Ek a rejoint le Nord FC en 1988 et l'a quitté en 1990 : deux ans.", "wrong"),
        ("Tom Ek ingressou no Nord FC em 1989 e deixou o clube em 1990: um ano.", "right"),
        ("Tom Ek ingressou no Nord FC em 1989 e deixou o clube em 1992: três anos.", "wrong"),
        # German capitalises nouns ("den Verein 1990" reads as a title): not read, so undecided, never wrong
        ("Tom Ek kam 1989 zu Nord FC und verließ den Verein 1990 wieder. Das ist ein Jahr.", "undecided"),
        ("Tom Ek kam 1989 zu Nord FC und verließ Nord FC 1992 wieder. Das sind drei Jahre.", "wrong"),
        # Russian: "с 1989 по 1990 год" is a range
        ("Tom Ek играл за Nord FC с 1989 по 1990 год — один год.", "right"),
        ("Tom Ek играл за Nord FC с 1989 по 1991 год — два года.", "wrong"),
    ],
)
def test_starts_and_ends_in_spanish_french_portuguese_german_and_russian(expl: str, expected: str) -> None:
    got = verdict(SPELL, expl, ("Tom Ek", "Nord FC", "Granit"))
    assert got == expected if expected != "wrong" else got != "right"


CAPPED = q(answers=("yes",), answer_type="yes_no", question="Did Tom Ek play for the Nordia national team in 2000?",
           S_star=(Triple("Tom Ek", "playsFor", "Nordia national football team", "1998", "2006"),),
           time_refs=({"which": "end", "value": "2006", "of": "answer"},))  # fmt: skip


def test_a_country_named_for_its_national_team_by_its_player() -> None:
    known = ("Tom Ek", "Nordia", "Nordia national football team", "Sud FC")
    assert verdict(CAPPED, "Yes. Tom Ek was capped by Nordia between 1998 and 2006.", known) == "right"
    assert verdict(CAPPED, "Yes. Tom Ek was capped by Nordia between 1998 and 2007.", known) == "wrong"
    assert (
        verdict(CAPPED, "Yes. Tom Ek made his Nordia debut in 1997 and played for them until 2006.", known) == "wrong"
    )
    # a date of the country itself, with no player named in the clause, is not the team's
    assert verdict(CAPPED, "Yes. Tom Ek played for Sud FC until 2007. Nordia was founded in 2006.", known) != "right"


def test_a_count_hedged_between_two_numbers_and_counts_in_other_languages() -> None:
    four = q(answers=("4 years",), answer_ids=("P4Y",), answer_type="duration", question="How many years?")
    one = q(answers=("1 year",), answer_ids=("P1Y",), answer_type="duration", question="How many years?")
    # "between three and four years" offers two counts: a hedge, wrong even though one of them is the gold
    assert judged_answer(four, "It was probably between three and four years in all.") == "wrong"
    assert judged_answer(four, "Somewhere between 4 and 5 years, I think.") == "wrong"
    assert judged_answer(four, "Four years: he arrived between 1990 and 1991 and stayed four years.") == "right"
    # counts written out in German, Italian, Spanish, French and Portuguese
    assert judged_answer(four, "Vier Jahre (1990–1994).") == "right"
    assert judged_answer(four, "Quattro anni.") == "right" and judged_answer(four, "Cinque anni.") == "wrong"
    assert judged_answer(four, "Unos cuatro años.") == "right" and judged_answer(four, "tres años") == "wrong"
    assert judged_answer(four, "Il y est resté quatre ans.") == "right"
    assert judged_answer(four, "Ficou lá dois anos.") == "wrong"
    assert judged_answer(one, "Un anno soltanto.") == "right" and judged_answer(one, "Zwei Jahre.") == "wrong"
    assert judged_answer(one, "Une année.") == "right"


TERM = q(answers=("Nord FC",), question="Which team did Tom Ek play for in 1992?",
         S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "1990", "1994"),),
         time_refs=({"which": "start", "value": "1990", "of": "answer"},
                    {"which": "end", "value": "1994", "of": "answer"}))  # fmt: skip
CLUBS = ("Tom Ek", "Nord FC", "Sud FC")


@pytest.mark.parametrize(
    ("expl", "expected"),
    [
        # a name directly before a span of years ("Nord FC 1990–1994"): the years are the spell, no title
        ("Tom Ek: Nord FC 1990–1994.", "right"),
        ("Tom Ek: Nord FC 1990–1995.", "wrong"),
        ("Tom Ek: Nord FC 1989–1994.", "wrong"),
        # years joined by an arrow are a span unless a sum follows the second
        ("Nord FC: 1990 → 1994 = 4 years.", "right"),
        ("Nord FC: 1990 → 1993 = 3 years.", "wrong"),
        ("Nord FC: 1994 → 1990.", "wrong"),
    ],
)  # fmt: skip
def test_a_span_of_years_after_a_name_or_an_arrow(expl: str, expected: str) -> None:
    got = verdict(TERM, expl, CLUBS)
    assert got == expected if expected != "wrong" else got != "right"


def test_years_after_a_capitalised_word_stay_a_title_unless_they_span() -> None:
    from chronoqa.time.text import extract_times

    assert extract_times("He ran Windows 2000 on it.") == []
    assert extract_times("They beat FC Wil 1900 at home.") == []
    assert [m.text for m in extract_times("Sud FC 1998–2001 and Nord FC 2001-2004.")] == ["1998–2001", "2001-2004"]
    # an arrow between years that a sum follows computes ("1984 → 1984 − 1959"): no span
    assert [m.kind for m in extract_times("sold in 1984 → 1984 − 1959 = 25")] == ["point", "point", "point"]
    assert [m.kind for m in extract_times("Nord FC: 1990 → 1994.")] == ["range"]


# The year Ida Holm's husband won the Gold Medal (the marriage is a bridge fact, the prize the answer's)
MEDAL = q(answers=("1985",), answer_type="time", question="In which year did Ida Holm's spouse win the Gold Medal?",
          S_star=(Triple("Ida Holm", "isMarriedTo", "Per Dal", "1970", "1995"),
                  Triple("Per Dal", "hasWonPrize", "Gold Medal", "1985", None)),
          time_refs=({"which": "start", "value": "1985", "of": "answer"},))  # fmt: skip
PRIZE_PEOPLE = ("Ida Holm", "Per Dal", "Gold Medal", "Royal Academy", "Ely")


@pytest.mark.parametrize(
    ("expl", "expected"),
    [
        # "A and B were married from D": the pair owns the date, the marriage's start (a bridge fact's date)
        ("Holm and Dal were married from 1970 until his death in 1995; Dal won the Gold Medal in 1985.", "right"),
        ("Holm and Dal were married from 1966 until his death in 1995; Dal won the Gold Medal in 1985.", "wrong"),
        # a giver after "from the": the prize's date is the winner's, not the giver's
        ("He received the Gold Medal from the Royal Academy in 1985.", "right"),
        ("He received the Gold Medal from the Royal Academy in 1986.", "wrong"),
    ],
)  # fmt: skip
def test_a_pair_of_names_owns_its_date_and_a_giver_does_not(expl: str, expected: str) -> None:
    got = verdict(MEDAL, expl, PRIZE_PEOPLE)
    assert got == expected if expected != "wrong" else got != "right"


START_ONLY = table_q("Anna Varga", "1993-04-02", question="Who was the first leader of Ruritania after 1 March 1993?")


def test_a_start_noun_before_took_place_and_italian_dates_and_cues() -> None:
    assert verdict(START_ONLY, "Varga's inauguration took place on 2 April 1993.") == "right"
    assert verdict(START_ONLY, "Varga's inauguration took place on 3 April 1993.") == "wrong"
    # an event that took place names no start of its own: "the vote took place" stays an event
    assert verdict(START_ONLY, "The vote took place on 2 March 1993; Varga led from 2 April 1993.") == "right"
    ended = table_q("Anna Varga", "1993-04-02", "1996-11-20")
    said = "Anna Varga ha iniziato il mandato il 2 aprile 1993 e lo ha concluso il {} novembre 1996."
    assert verdict(ended, said.format(20)) == "right"
    assert verdict(ended, said.format(21)) == "wrong"


def test_a_rival_named_as_an_earlier_spell_and_nobody_said_of_the_office() -> None:
    in_2005 = q(answers=("Nord FC",), question="Which team did Tom Ek play for in 2005?",
                S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2004", "2007"),))  # fmt: skip
    # "having earlier been at Granit", "had previously played for Granit": an earlier spell, context
    said = "In 2005 he played for **Nord FC** (2004–07), having earlier been at Granit."
    assert judged_answer(in_2005, said) == "right"
    assert judged_answer(in_2005, "Nord FC. He had previously played for Granit.") == "right"
    assert judged_answer(in_2005, "Nord FC, previously Granit") == "wrong"  # a bare "previously X": a second answer
    # the same shape with the gold as the earlier spell names the rival as the answer
    assert judged_answer(in_2005, "In 2005 he played for Granit, having earlier been at Nord FC.") == "wrong"
    assert judged_answer(in_2005, "Granit and Nord FC.") == "wrong"
    empty = q(answers=(), source="table", question="Who was the President of Ruritania whose term began in 1850?")
    said = "No Ruritanian president began a term in 1850: Anna Varga served on."
    assert judged_answer(empty, said, LEADERS) == "right"
    assert judged_answer(empty, "No elected leader took office that year.", LEADERS) == "right"
    # "No, ..." answers the question with someone: not a none
    assert judged_answer(empty, "No, Anna Varga was president then.", LEADERS) == "wrong"
    held = q(answers=("Anna Varga",), source="table", question="Who was the President of Ruritania in 1850?")
    assert judged_answer(held, "No Ruritanian president served in 1850.", LEADERS) == "wrong"


RESIGNED = q(answers=("2004",), answer_type="time", question="When did Tom Ek cease to be a member of Nord FC?",
             S_star=(Triple("Tom Ek", "memberOf", "Nord FC", "2000", "2004"),),
             time_refs=({"which": "end", "value": "2004", "of": "answer"},))  # fmt: skip


def test_a_common_noun_of_the_question_in_lower_case_is_no_entity() -> None:
    # the corpus holds an entity labelled "member": written in lower case, the question's own noun names nobody
    known = ("Tom Ek", "Nord FC", "member", "Sud FC")
    assert verdict(RESIGNED, "Ek was a member from 2000 to 2004.", known) == "right"
    assert verdict(RESIGNED, "Ek was a member from 2000 to 2005.", known) == "wrong"
    # a capitalised form, or a noun the question does not use, is still the entity's
    assert verdict(RESIGNED, "Tom Ek left Nord FC in 2004; Member joined in 2001.", known) == "right"


def test_the_historic_present_of_a_timeline_and_a_year_a_sum_computes() -> None:
    # "1990: Tom Ek joins Nord FC" states the start; "leaves" the end
    assert verdict(TERM, "1990 (Tom Ek joins Nord FC); 1994 (he leaves).", CLUBS) == "right"
    assert verdict(TERM, "1991 (Tom Ek joins Nord FC); 1994 (he leaves).", CLUBS) == "wrong"
    # "1990 − 2 = 1988": the question's arithmetic computes a year, it dates no fact
    before = q(answers=("Sud FC",), question="Which team did Tom Ek play for two years before he joined Nord FC?",
               S_star=(Triple("Tom Ek", "playsFor", "Sud FC", "1986", "1990"),),
               S_anchor=(Triple("Tom Ek", "playsFor", "Nord FC", "1990", "1994"),),
               time_refs=({"which": "start", "value": "1990", "of": "anchor"},))  # fmt: skip
    assert verdict(before, "1990 (Tom Ek joins Nord FC) minus 2 = 1988: he was at Sud FC.", CLUBS) == "right"
    assert verdict(before, "1990 (Tom Ek joins Nord FC) − 2 = 1988: he was at Sud FC.", CLUBS) == "right"
    assert verdict(before, "1991 (Tom Ek joins Nord FC) minus 2 = 1989: he was at Sud FC.", CLUBS) == "wrong"


def test_a_handover_in_a_clause_joined_by_and_is_the_sentence_subjects() -> None:
    said = "Anna Varga succeeded Bela Kun on 2 April 1993 and handed over to Carla Dorn on {} 1996."
    assert verdict(VARGA, said.format("20 November")) == "right"
    assert verdict(VARGA, said.format("21 November")) != "right"
    # a clause that names its own subject keeps it: Kun's handover is no end of Varga's
    other = "Anna Varga took office on 2 April 1993; Bela Kun handed over to Carla Dorn on 20 November 1996."
    assert verdict(VARGA, other) != "right"


def test_a_city_in_its_own_language_in_a_club_name() -> None:
    team = q(answers=("FC Vistula Warsaw",), question="Which team did Tom Ek play for in 1999?",
             S_star=(Triple("Tom Ek", "playsFor", "FC Vistula Warsaw", "1998", "2000"),))  # fmt: skip
    clubs = ("FC Vistula Warsaw", "FC Union Bucharest", "SC Isar Munich")
    assert judged_answer(team, "Vistula Warszawa.", clubs) == "right"
    assert judged_answer(team, "He was at Union București in 1999.", clubs) == "wrong"
    assert judged_answer(team, "Isar München.", clubs) == "wrong"


def test_a_portuguese_or_italian_club_by_its_distinctive_word() -> None:
    team = q(answers=("Associação Nortenha de Desportos",), question="Which team did Tom Ek play for in 1999?",
             S_star=(Triple("Tom Ek", "playsFor", "Associação Nortenha de Desportos", "1998", "2000"),))  # fmt: skip
    clubs = ("Associação Nortenha de Desportos", "Sociedade Esportiva Sulista", "Polisportiva Lagunare")
    assert judged_answer(team, "Nortenha.", clubs) == "right"
    assert judged_answer(team, "He was at Sulista.", clubs) == "wrong"
    assert judged_answer(team, "Lagunare", clubs) == "wrong"
    # two clubs of the same word: the short form names neither
    assert judged_answer(team, "Nortenha.", (*clubs, "Nortenha Futebol Clube")) != "right"
    # "Sociedade Esportiva e Recreativa X": the joined affixes go, X names the club
    vale = q(
        answers=("Sociedade Esportiva e Recreativa Vale do Norte",),
        question="Which team did Tom Ek play for?",
        S_star=(Triple("Tom Ek", "playsFor", "Sociedade Esportiva e Recreativa Vale do Norte", "1998", "2000"),),
    )
    rivals = ("Sociedade Esportiva e Recreativa Vale do Norte", "Sociedade Esportiva Sulista")
    assert judged_answer(vale, "Vale do Norte (SER).", rivals) == "right"
    assert judged_answer(vale, "Sulista (SE).", rivals) == "wrong"


def test_a_number_word_is_no_surname() -> None:
    index = NameIndex({"Radio Seven": ["Radio Seven"], "Anna Varga": ["Anna Varga"]})
    assert index.find("Seven years later he left.") == []
    assert [m.keys for m in index.find("He worked for Radio Seven.")] == [frozenset({"Radio Seven"})]
    assert [m.keys for m in index.find("Varga left after seven years.")] == [frozenset({"Anna Varga"})]
