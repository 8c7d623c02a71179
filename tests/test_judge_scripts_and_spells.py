"""Careful judging of names in other scripts, another person's full name, counts written as "half a decade" or
in Turkish, Dutch and Hungarian, clubs with three dotted letters, ranges that join two spells, and the agent of
an election: each case with a trap of the same shape that must stay wrong (or undecided)."""

from __future__ import annotations

from typing import Any

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Question, Triple
from chronoqa.score.answers import score_answer
from chronoqa.score.time_accuracy import score_time


def q(**kw: Any) -> Question:
    base: dict[str, Any] = {"id": "q", "split": "test", "question": "?", "t_query": "2000", "S_star": ()}
    base.update(kw)
    return Question(**base)


def judged_answer(question: Question, reply: str, cands: tuple[str, ...]) -> str:
    return score_answer(question, AnswerRecord("q", "t", "ok", reply, None), candidates=cands).verdict


def verdict(question: Question, expl: str, entities: tuple[str, ...]) -> str:
    row = score_time(question, AnswerRecord("q", "t", "ok", question.answers[0], expl), True, entities=entities)
    return "undecided" if row.undecided else ("right" if row.T else "wrong")


PM = q(answers=("Giuseppe Verdana",), source="table", question="Who was the Prime Minister of Ruritania in 2019?")
HOLDERS = ("Giuseppe Verdana", "Matteo Orsini", "Piet Holtkamp")


def test_a_surname_in_another_script_names_the_gold_person_where_no_rival_shares_it() -> None:
    # the given name spelled the Russian way ("Dzhuzeppe") is far from "Giuseppe"; the surname decides
    assert judged_answer(PM, "Джузеппе Вердана", HOLDERS) == "right"
    assert judged_answer(PM, "Маттео Орсини", HOLDERS) == "wrong"
    # a rival person with the same surname: the surname alone decides nothing
    assert judged_answer(PM, "Джузеппе Вердана", (*HOLDERS, "Carla Verdana")) != "right"
    dutch = q(answers=("Jan Pieter Holtkamp",), source="table", question="Who was the Prime Minister of Nordia?")
    # katakana drops the "r" of "-er" and writes "Jan" as "Yan"
    assert judged_answer(dutch, "ヤン・ピーター・ホルトカンプ", ("Jan Pieter Holtkamp", "Anna Varga")) == "right"
    assert judged_answer(dutch, "アンナ・ヴァルガ", ("Jan Pieter Holtkamp", "Anna Varga")) == "wrong"


def test_another_persons_full_name_is_wrong_not_undecided() -> None:
    wed = q(answers=("Barbara Lind",), question="Who was Tom Ek married to in 1988?",
            S_star=(Triple("Tom Ek", "isMarriedTo", "Barbara Lind", "1981", "1990"),))  # fmt: skip
    cands = ("Barbara Lind", "Nord FC")
    assert judged_answer(wed, "Marta Oskarsdottir", cands) == "wrong"
    assert judged_answer(wed, "Марта Оскарсдоттир", cands) == "wrong"  # after transliteration too
    # a single unknown word (a nickname, a maiden name) may be a form of the gold: undecided
    assert judged_answer(wed, "Babs", cands) == "undecided"
    assert judged_answer(wed, "Oskarsdottir", cands) == "undecided"
    # a name that is no person's (a club, a prize) says nothing of whom the reply meant
    assert judged_answer(wed, "Granit FC", (*cands, "Granit FC")) != "right"
    assert judged_answer(wed, "Blue Rovers FC", cands) == "undecided"
    # the slot is no person: an unknown club name stays undecided
    team = q(answers=("Nord FC",), S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2004", None),))
    assert judged_answer(team, "Sud Rovers", ("Nord FC", "Granit")) == "undecided"


def test_half_a_decade_and_years_in_turkish_dutch_and_hungarian() -> None:
    five = q(answers=("5 years",), answer_ids=("P5Y",), answer_type="duration", question="How many years?")
    four = q(answers=("4 years",), answer_ids=("P4Y",), answer_type="duration", question="How many years?")
    assert judged_answer(five, "Half a decade, from 1990 to 1995.", ()) == "right"
    assert judged_answer(four, "Half a decade, from 1990 to 1995.", ()) == "wrong"
    assert judged_answer(four, "4 yıl (1990–1994).", ()) == "right" and judged_answer(five, "4 yıl", ()) == "wrong"
    assert judged_answer(four, "4 jaar", ()) == "right" and judged_answer(four, "5 év", ()) == "wrong"


def test_a_club_named_without_its_three_dotted_letters() -> None:
    club = q(answers=("S.S.C. Ostiano",), S_star=(Triple("Tom Ek", "playsFor", "S.S.C. Ostiano", "2004", None),))
    clubs = ("S.S.C. Ostiano", "A.C. Lucca")
    assert judged_answer(club, "Ostiano", clubs) == "right"
    assert judged_answer(club, "Lucca", clubs) == "wrong"
    # in an explanation, the short name owns its dates: a wrong end is a contradiction
    spell = q(answers=("S.S.C. Ostiano",), question="Which team did Tom Ek play for in 1947?",
              S_star=(Triple("Tom Ek", "playsFor", "S.S.C. Ostiano", "1946", "1948"),),
              time_refs=({"which": "start", "value": "1946", "of": "answer"},))  # fmt: skip
    known = ("Tom Ek", *clubs)
    assert verdict(spell, "Ek was at Ostiano from 1946 to 1948.", known) == "right"
    assert verdict(spell, "Ek was at Ostiano from 1946 to 1949.", known) == "wrong"


def test_a_range_that_joins_two_spells_across_a_gap_contradicts() -> None:
    def two_spells(first: tuple[str, str], second: tuple[str, str]) -> Question:
        return q(answers=("Nord FC",), question="Which team did Tom Ek play for in 2006?",
                 S_star=(Triple("Tom Ek", "playsFor", "Nord FC", *second),),
                 S_dist=(Triple("Tom Ek", "playsFor", "Nord FC", *first),),
                 time_refs=({"which": "end", "value": second[1], "of": "answer"},))  # fmt: skip

    gap = two_spells(("2001", "2001"), ("2005", "2007"))
    known = ("Tom Ek", "Nord FC", "Sud FC")
    assert verdict(gap, "Tom Ek played for Nord FC from 2005 to 2007.", known) == "right"
    # each end is some spell's, the range is none: he was not there from 2001 to 2007
    assert verdict(gap, "Tom Ek played for Nord FC from 2001 to 2007.", known) == "wrong"
    # spells that follow on join into one range
    on = two_spells(("2001", "2004"), ("2005", "2007"))
    assert verdict(on, "Tom Ek played for Nord FC from 2001 to 2007.", known) == "right"
    assert verdict(on, "Tom Ek played for Nord FC from 2001 to 2008.", known) == "wrong"


def test_the_agent_of_an_election_and_the_offices_initials_own_no_date() -> None:
    term = q(answers=("Anna Varga",), source="table", granularity="day",
             question="Who was the Prime Minister of Ruritania whose term began on 2 April 1993?",
             time_refs=({"which": "start", "value": "1993-04-02", "answer": "Anna Varga"},),
             S_star=(Triple("Ruritania", "headOfGovernment", "Anna Varga", "1993-04-02", "1996-11-20"),))  # fmt: skip
    leaders = ("Anna Varga", "Bela Kun")
    said = "Varga was elected PM by the State Assembly on 2 April 1993 and served until {} 1996."
    assert verdict(term, said.format("20 November"), leaders) == "right"
    assert verdict(term, said.format("21 November"), leaders) == "wrong"
    # a name that is no agent still may own the date: it only cites
    other = "Varga was elected PM on 2 April 1993; the Hofburg Accord ran until 21 November 1996."
    assert verdict(term, other, leaders) == "right"


def test_a_club_city_written_in_german() -> None:
    team = q(answers=("SK Isar Wien",), S_star=(Triple("Tom Ek", "playsFor", "SK Isar Wien", "2002", "2003"),))
    clubs = ("SK Isar Wien", "FC Donau Vienna")
    assert judged_answer(team, "Isar Vienna", clubs) == "right"
    assert judged_answer(team, "Donau Wien", clubs) == "wrong"


def test_an_office_of_the_fact_and_the_head_of_its_label_own_no_date() -> None:
    mayor = q(answers=("Paul Reno",), question="Who was the head of government of Varnville as of 1952?",
              S_star=(Triple("Varnville", "headOfGovernment", "Paul Reno", "1952", "1970"),),
              time_refs=({"which": "start", "value": "1952", "of": "answer"},
                         {"which": "end", "value": "1970", "of": "answer"}))  # fmt: skip
    known = ("Paul Reno", "Varnville", "mayor", "Member")
    assert verdict(mayor, "Paul Reno was mayor of Varnville from 1952 to 1970.", known) == "right"
    assert verdict(mayor, "Paul Reno was mayor of Varnville from 1952 to 1971.", known) == "wrong"
    seat = q(answers=("yes",), answer_type="yes_no", question="Did Tom Ek still hold the seat in 2000?",
             S_star=(Triple("Tom Ek", "positionHeld", "Member of the 9th Diet of Ruritania", "1997", "2001"),),
             time_refs=({"which": "end", "value": "2001", "of": "answer"},))  # fmt: skip
    known = ("Tom Ek", "Member", "Member of the 9th Diet of Ruritania")
    assert verdict(seat, "Yes. Ek was a Member of the 9th Diet from 1997 to 2001.", known) == "right"
    assert verdict(seat, "Yes. Ek was a Member of the 9th Diet from 1997 to 2002.", known) == "wrong"


def test_a_town_that_begins_the_clubs_name_is_the_club() -> None:
    spell = q(answers=("2 years",), answer_ids=("P2Y",), answer_type="duration",
              question="How many years passed between when Tom Ek joined Varn Rovers F.C. and when he left it?",
              S_star=(Triple("Tom Ek", "playsFor", "Varn Rovers F.C.", "1998", "2000"),),
              time_refs=({"which": "start", "value": "1998", "of": "answer"},
                         {"which": "end", "value": "2000", "of": "answer"}))  # fmt: skip
    known = ("Tom Ek", "Varn", "Varn Rovers F.C.", "Granit", "Sud FC")
    assert verdict(spell, "Tom Ek joined Varn from Granit in 1998 and left in 2000.", known) == "right"
    assert verdict(spell, "Tom Ek joined Varn from Granit in 1998 and left in 2001.", known) == "wrong"


def test_years_with_turkish_and_hungarian_endings_and_cjk_bounds() -> None:
    from chronoqa.time.text import english_dates, extract_times

    def read(text: str) -> list[tuple[str, str]]:
        return [(m.kind, str(m.interval.start or m.interval.end)) for m in extract_times(english_dates(text))]

    assert read("2011-től 2013-ig") == [("range", "2011")]
    assert read("2002'den 2005'e kadar") == [("range", "2002")]
    assert read("2013-ig játszott") == [("until", "2013")] and read("2011-ben") == [("point", "2011")]
    assert read("1982年から1994年まで") == [("range", "1982")]
    assert read("直至2001年") == [("until", "2001")] and read("2013年3月5日") == [("point", "2013-03-05")]
    term = q(answers=("yes",), answer_type="yes_no", question="In 2012, did Tom Ek play for Nord FC?",
             S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2011", "2013"),),
             time_refs=({"which": "end", "value": "2013", "of": "answer"},))  # fmt: skip
    known = ("Tom Ek", "Nord FC", "Sud FC")
    assert verdict(term, "Igen. Tom Ek 2011-ben igazolt a Nord FC-hez, és 2013-ig játszott ott.", known) == "right"
    assert verdict(term, "Igen. Tom Ek 2011-ben igazolt a Nord FC-hez, és 2014-ig játszott ott.", known) == "wrong"


def test_a_restated_window_and_a_year_of_another_calendar_date_no_fact() -> None:
    term = q(answers=("Anna Varga",), source="table", granularity="day",
             question="Who was the President of Ruritania whose term began before 22 November 2024 and continued after "
                      "24 November 2024?",
             time_refs=({"which": "start", "value": "2023-12-10", "answer": "Anna Varga"},))  # fmt: skip
    leaders = ("Anna Varga", "Bela Kun")
    said = "Anna Varga has been president since {} December 2023, so her term covers 22–24 November 2024."
    assert verdict(term, said.format("10"), leaders) == "right"
    assert verdict(term, said.format("11"), leaders) == "wrong"
    joined = q(answers=("2015",), answer_type="time", question="In what year did Tom Ek join Nord FC?",
               S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2015", "2015"),),
               time_refs=({"which": "start", "value": "2015", "of": "answer"},))  # fmt: skip
    known = ("Tom Ek", "Nord FC")
    assert verdict(joined, "Tom Ek joined Nord FC in 2015 (1394 in the Iranian calendar).", known) == "right"
    assert verdict(joined, "Tom Ek joined Nord FC in 2016 (1395 in the Iranian calendar).", known) == "wrong"


def test_a_turkish_verb_after_the_date_is_its_cue() -> None:
    spell = q(answers=("3 years",), answer_ids=("P3Y",), answer_type="duration",
              question="How long after Tom Ek joined Nord FC did he leave Nord FC?",
              S_star=(Triple("Tom Ek", "playsFor", "Nord FC", "2002", "2005"),),
              time_refs=({"which": "start", "value": "2002", "of": "answer"},
                         {"which": "end", "value": "2005", "of": "answer"}))  # fmt: skip
    known = ("Tom Ek", "Nord FC", "Sud FC")
    assert verdict(spell, "Tom Ek, Nord FC'ye 2002'de katıldı ve 2005'te ayrıldı.", known) == "right"
    # the verbs swapped: 2002 is read as the end and 2005 as the start
    assert verdict(spell, "Tom Ek, Nord FC'den 2002'de ayrıldı ve 2005'te katıldı.", known) != "right"


def test_a_couple_of_years_is_two_and_an_earlier_holder_in_the_pluperfect_is_context() -> None:
    two = q(answers=("2 years",), answer_ids=("P2Y",), answer_type="duration", question="How many years?")
    three = q(answers=("3 years",), answer_ids=("P3Y",), answer_type="duration", question="How many years?")
    assert judged_answer(two, "A couple of years, 1998 to 2000.", ()) == "right"
    assert judged_answer(three, "A couple of years, 1998 to 2000.", ()) == "wrong"
    mayor = q(answers=("Paul Reno",), source="table", question="Who was the mayor of Varnville in 1952?")
    holders = ("Paul Reno", "Ivo Marr", "Lena Sand")
    assert judged_answer(mayor, "Paul Reno — although Ivo Marr had been mayor earlier, in 1944–47.", holders) == "right"
    # the rival as the answer with the gold as the earlier holder, or two holders offered, stay wrong
    assert judged_answer(mayor, "Ivo Marr — although Paul Reno had been mayor earlier.", holders) == "wrong"
    assert judged_answer(mayor, "Paul Reno, or Ivo Marr, who had been mayor.", holders) == "wrong"
