"""Careful judging of a move that leaves a spell ("left for Y in D": D ends the spell left), a cue that belongs to
the next date ("in D1 he was at X, having joined in D2"), ranges "all the way to", counts of years above twelve,
"exactly N years later", a year a relative phrase computes, a twinning's start, reserve sides and clubs with a number
inside their name, counts in Russian, Spanish and Japanese, Roman years and Greek yes/no, the question's window
restated and a table's from/to columns; each case with a trap of the same shape that must stay wrong (or
undecided)."""

from __future__ import annotations

from chronoqa.records import Triple
from test_judge_scripts_and_spells import judged_answer, q, verdict

KNOWN = ("Ola Brekke", "Vardal IF", "Skarnes BK", "Lomen FK")
STILL = q(answers=("yes",), question="Was it still the case in 2004 that Ola Brekke played for Vardal IF?",
          S_star=(Triple("Ola Brekke", "playsFor", "Vardal IF", "2002", "2006"),),
          time_refs=({"which": "end", "value": "2006", "of": "answer"},))  # fmt: skip


def test_leaving_for_another_club_ends_the_spell_left() -> None:
    assert verdict(STILL, "Brekke signed for Vardal IF in 2002 and left for Skarnes BK in 2006.", KNOWN) == "right"
    assert verdict(STILL, "Brekke came to Vardal IF in 2002, leaving for Lomen FK in 2006.", KNOWN) == "right"
    # the year of the move is the spell's end: a wrong one states no end and the start is contradicted
    assert verdict(STILL, "Brekke signed for Vardal IF in 2002 and left for Skarnes BK in 2007.", KNOWN) != "right"
    assert verdict(STILL, "Brekke signed for Vardal IF in 2001 and left for Skarnes BK in 2006.", KNOWN) == "wrong"
    # joining another club is no leaving: the date is that club's start, not the spell's end
    assert verdict(STILL, "Brekke signed for Vardal IF in 2002 and joined Skarnes BK in 2006.", KNOWN) != "right"


AFTER = q(answers=("Lomen FK",), question="Two years after Ola Brekke left Vardal IF, which team did he play for?",
          S_star=(Triple("Ola Brekke", "playsFor", "Lomen FK", "2007", "2010"),),
          S_anchor=(Triple("Ola Brekke", "playsFor", "Vardal IF", "2002", "2006"),),
          time_refs=({"which": "end", "value": "2006", "of": "anchor"},))  # fmt: skip


def test_a_cue_just_before_the_next_date_is_that_dates_own() -> None:
    text = "Brekke left Vardal IF in 2006. Two years on, in 2008, he was with Lomen FK, having signed in 2007."
    assert verdict(AFTER, text, KNOWN) == "right"
    # the next date's start, stated wrong, still contradicts the data
    text = "Brekke left Vardal IF in 2006. Two years on, in 2008, he was with Lomen FK, having signed in 2008."
    assert verdict(AFTER, text, KNOWN) == "wrong"
    # a cue with the date after it and no date of its own still gives the date before it its role
    assert verdict(AFTER, "Brekke left Vardal IF in 2006. In 2008 he signed for Lomen FK.", KNOWN) == "wrong"


PARTY = q(answers=("Green Alliance",), question="Going by the situation in 1996, which party was Jan Novák in?",
          S_star=(Triple("Jan Novák", "memberOf", "Green Alliance", "1994", "1998"),))  # fmt: skip
PARTIES = ("Jan Novák", "Green Alliance", "Civic Union")


def test_a_range_stated_all_the_way_and_a_party_whose_initial_is_a_latin_extended_capital() -> None:
    assert verdict(PARTY, "Novák sat for the Green Alliance from 1994 all the way to 1998.", PARTIES) == "right"
    assert verdict(PARTY, "Novák sat for the Green Alliance from 1994 right up until 1998.", PARTIES) == "right"
    assert verdict(PARTY, "Novák sat for the Green Alliance from 1994 all the way to 1999.", PARTIES) == "wrong"
    # "ŠDU" is another party the release does not know: its start is not the Green Alliance's
    text = "Novák was in the Green Alliance from 1994 to 1998, then the ŠDU from 1999."
    assert verdict(PARTY, text, PARTIES) == "right"
    text = "Novák was in the Green Alliance from 1993 to 1998, then the ŠDU from 1999."
    assert verdict(PARTY, text, PARTIES) == "wrong"


PRIZE = q(answers=("no",), question="Did Eva Lind win the Orm Prize in the year she joined the Tarn Academy?",
          S_star=(Triple("Eva Lind", "won", "Orm Prize", "1990", "1990"),),
          S_anchor=(Triple("Eva Lind", "memberOf", "Tarn Academy", "1974", "1974"),),
          time_refs=({"which": "start", "value": "1990", "of": "answer"},
                     {"which": "start", "value": "1974", "of": "anchor"}))  # fmt: skip
PRIZES = ("Eva Lind", "Orm Prize", "Tarn Academy")


def test_counts_of_years_above_twelve_pin_a_year() -> None:
    text = "Lind won the Orm Prize in 1990; she had joined the Tarn Academy sixteen years earlier."
    assert verdict(PRIZE, text, PRIZES) == "right"
    text = "Lind won the Orm Prize in 1990; she had joined the Tarn Academy seventeen years earlier."
    assert verdict(PRIZE, text, PRIZES) != "right"


TERM = q(answers=("Karl Rask",), source="table", granularity="day",
         question="Who was the President of Nordia whose term ended on 3 March 2016?",
         S_star=(Triple("Nordia", "President", "Karl Rask", "2011-03-03", "2016-03-03"),),
         time_refs=({"which": "start", "value": "2011-03-03", "answer": "Karl Rask"},
                    {"which": "end", "value": "2016-03-03", "answer": "Karl Rask"}))  # fmt: skip
RASK = ("Karl Rask", "Nordia", "Ida Moen")


def test_exactly_n_years_later_is_the_anniversary() -> None:
    text = "Rask took office on 3 March 2011 and left exactly five years later, when Ida Moen was sworn in."
    assert verdict(TERM, text, RASK) == "right"
    # without "exactly" only the year is pinned: a day-level end is not stated
    text = "Rask took office on 3 March 2011 and left five years later, when Ida Moen was sworn in."
    assert verdict(TERM, text, RASK) != "right"
    # the anniversary of a wrong start is a wrong end, and the start is wrong
    text = "Rask took office on 4 March 2011 and left exactly five years later, when Ida Moen was sworn in."
    assert verdict(TERM, text, RASK) == "wrong"


LATER = q(answers=("Nord FC",), question="Two years after Ola Brekke joined Vardal IF, which team did he play for?",
          S_star=(Triple("Ola Brekke", "playsFor", "Nord FC", "2003", "2006"),),
          S_anchor=(Triple("Ola Brekke", "playsFor", "Vardal IF", "2002", "2003"),),
          time_refs=({"which": "start", "value": "2002", "of": "anchor"},))  # fmt: skip


def test_a_year_a_relative_phrase_computes_dates_no_fact() -> None:
    known = ("Ola Brekke", "Vardal IF", "Nord FC")
    text = "Brekke joined Vardal IF in 2002, so two years later is 2004. He was at Nord FC from 2003 to 2006."
    assert verdict(LATER, text, known) == "right"
    # a start stated in a clause of its own is still read, and still contradicts
    text = "Brekke joined Vardal IF in 2002, so two years later is 2004. He joined Nord FC in 2004."
    assert verdict(LATER, text, known) == "wrong"


RESERVE = q(answers=("Orm United",), question="One year before Per Dal joined Orm United, which team did he play for?",
            S_star=(Triple("Per Dal", "playsFor", "Orm United", "2009", "2011"),),
            S_anchor=(Triple("Per Dal", "playsFor", "Kvist FC B", "2007", "2008"),),
            time_refs=({"which": "start", "value": "2009", "of": "answer"},))  # fmt: skip


def test_a_reserve_side_named_without_its_affix_owns_its_dates() -> None:
    known = ("Per Dal", "Orm United", "Kvist FC B", "Kvist FC")
    # "Kvist B" is the reserve side: a wrong start stated for it contradicts the data
    text = "Dal joined Orm United in 2009. A year earlier he was with Kvist B (2006–2008)."
    assert verdict(RESERVE, text, known) == "wrong"
    text = "Dal joined Orm United in 2009. A year earlier he was with Kvist B (2007–2008)."
    assert verdict(RESERVE, text, known) == "right"


TWIN = q(answers=("Hald Region",), question="In the year before Sande was twinned with Lokk, where was Sande located?",
         S_star=(Triple("Sande", "locatedIn", "Hald Region", "1970", "2001"),),
         S_anchor=(Triple("Sande", "twinnedWith", "Lokk", "1985", None),),
         time_refs=({"which": "start", "value": "1985", "of": "anchor"},))  # fmt: skip


def test_a_twinning_year_is_the_partnerships_start() -> None:
    known = ("Sande", "Lokk", "Hald Region")
    text = "Sande was twinned with Lokk in 1985, so the year before is 1984. Sande lay in Hald Region then."
    assert verdict(TWIN, text, known) == "right"
    # a wrong twinning year is wrong even where the counted-back year would be the right one
    text = "Sande was twinned with Lokk in 1986, so the year before is 1985. Sande lay in Hald Region then."
    assert verdict(TWIN, text, known) == "wrong"


HOW_LONG = q(
    answers=("3 years",),
    answer_ids=("P3Y",),
    answer_type="duration",
    question="How many years did Ola Brekke play for Vardal IF?",
)


def test_counts_in_russian_spanish_and_japanese() -> None:
    assert judged_answer(HOW_LONG, "Три года.", ()) == "right"
    assert judged_answer(HOW_LONG, "Пять лет.", ()) == "wrong"
    assert judged_answer(HOW_LONG, "Tres años (2002–2005).", ()) == "right"
    twelve = q(
        answers=("12 years",),
        answer_ids=("P12Y",),
        answer_type="duration",
        question="How many years did Ola Brekke play for X?",
    )
    assert judged_answer(twelve, "Doce años.", ()) == "right"
    assert judged_answer(twelve, "Once años.", ()) == "wrong"
    assert judged_answer(HOW_LONG, "3年です。", ()) == "right"
    assert judged_answer(HOW_LONG, "5年間です。", ()) == "wrong"
    # a year written in Japanese or an era's year is no count
    assert judged_answer(HOW_LONG, "2003年です。", ()) != "right"
    assert judged_answer(HOW_LONG, "平成3年", ()) != "right"


def test_a_year_in_roman_numerals_and_yes_or_no_in_greek() -> None:
    year = q(answers=("1994",), answer_type="time", question="In which year did Eva Lind write Orm?")
    assert judged_answer(year, "MCMXCIV", ()) == "right"
    assert judged_answer(year, "MCMXCV.", ()) == "wrong"
    still = q(answers=("yes",), answer_type="yes_no", question="Was Ola Brekke still at Vardal IF in 2004?")
    assert judged_answer(still, "Ναι, έπαιζε εκεί το 2004.", ()) == "right"
    assert judged_answer(still, "Όχι, είχε φύγει.", ()) == "wrong"


def test_a_club_named_without_the_number_inside_its_name() -> None:
    club = q(answers=("Kvist 05 Hammar",), question="Which team did Per Dal play for in 2008?")
    cands = ("Kvist 05 Hammar", "Orm United", "Hammar FC")
    assert judged_answer(club, "Kvist Hammar.", cands[:2]) == "right"
    assert judged_answer(club, "Hammar.", cands[:2]) == "right"
    # another club of the same town: the town alone names neither
    assert judged_answer(club, "Hammar.", cands) != "right"
    # a rival club left, in a German clause of context, is no second answer
    orm = q(answers=("Orm United",), question="Which team did Per Dal play for in 2010?")
    for rival in ("Kvist 05 Hammar", "Kvist Hammar"):
        assert judged_answer(orm, f"Dal spielte für Orm United, nachdem er {rival} verlassen hatte.", cands) == "right"
        assert judged_answer(orm, f"Dal spielte für Orm United und {rival}.", cands) == "wrong"


WINDOW = q(answers=("Karl Rask",), source="table", granularity="day",
           question="Who was the President of Nordia whose term began after 1 May 2009 and ended before 1 June 2017?",
           S_star=(Triple("Nordia", "President", "Karl Rask", "2011-03-03", "2016-03-03"),),
           time_refs=({"which": "start", "value": "2011-03-03", "answer": "Karl Rask"},
                      {"which": "end", "value": "2016-03-03", "answer": "Karl Rask"}))  # fmt: skip


def test_the_questions_window_restated_and_a_tables_from_and_to_columns() -> None:
    text = "Rask served from 3 March 2011 to 3 March 2016; his whole term sits between May 2009 and June 2017."
    assert verdict(WINDOW, text, RASK) == "right"
    text = "Rask took office on 3 March 2011 and left on 3 March 2016, so his term straddles 1 May 2012."
    assert verdict(WINDOW, text, RASK) == "right"
    # the term's own dates stay read: a wrong start is still wrong beside a restated window
    text = "Rask served from 3 March 2012 to 3 March 2016; his whole term sits between May 2009 and June 2017."
    assert verdict(WINDOW, text, RASK) == "wrong"
    table = "| President | from | to |\n|---|---|---|\n| Karl Rask | 3 March 2011 | 3 March 2016 |"
    assert verdict(WINDOW, table, RASK) == "right"
    swapped = "| President | from | to |\n|---|---|---|\n| Karl Rask | 3 March 2016 | 3 March 2011 |"
    assert verdict(WINDOW, swapped, RASK) != "right"


OFFICE = q(answers=("2011",), answer_type="time", question="What year did Karl Rask become President of Nordia?",
           S_star=(Triple("Karl Rask", "holdsOffice", "President of Nordia", "2011", "2016"),),
           time_refs=({"which": "start", "value": "2011", "of": "answer"},))  # fmt: skip


def test_a_second_term_named_as_the_second_cites_and_never_contradicts() -> None:
    known = ("Karl Rask", "President of Nordia")
    text = "Karl Rask took office as President of Nordia in 2011; he served two terms, the second beginning in 2016."
    assert verdict(OFFICE, text, known) == "right"
    text = "Karl Rask took office as President of Nordia in 2012; he served two terms, the second beginning in 2016."
    assert verdict(OFFICE, text, known) == "wrong"
