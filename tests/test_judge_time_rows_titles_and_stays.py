"""Careful time judging: a table row's dates are its first cell's, a two-word title named by its capital initials
("IM"), and a stay counted in seasons or years after its start ("stayed one season before joining Y in D", "stayed
two years"). Each rule with a trap of the same shape that must keep its verdict."""

from __future__ import annotations

from chronoqa.records import Triple
from time_verdicts import q, verdict

# Lena Ruhr: Kessel FC 2001-2002, then Orten FC 2002-2003 (the question asks what came after Kessel)
ORTEN = q(
    answers=("Orten FC",),
    question="After Kessel FC, which team did Lena Ruhr play for next?",
    S_star=(Triple("Lena Ruhr", "playsFor", "Orten FC", "2002", "2003"),),
    S_anchor=(Triple("Lena Ruhr", "playsFor", "Kessel FC", "2001", "2002"),),
    time_refs=({"which": "end", "value": "2002", "of": "anchor"}, {"which": "start", "value": "2002", "of": "answer"}),
)


def _table(orten: str, other: str = "2003–2004") -> str:
    return (
        f"| club | years |\n|---|---|\n| Kessel FC | 2001–2002 |\n| **Orten FC** | {orten} |\n| Balm FC | {other} |"
        "\n\nOrten was her next club after Kessel."
    )


def test_a_table_row_holds_its_first_cells_dates() -> None:
    assert verdict(ORTEN, _table("2002–2003"), ("Balm FC",)) == "right"
    # the answer's own row gives its spell a wrong end
    assert verdict(ORTEN, _table("2002–2004"), ("Balm FC",)) == "wrong"
    # another club's row is that club's, whatever its years: not the answer's
    assert verdict(ORTEN, _table("2002–2003", "2003–2008"), ("Balm FC",)) == "right"


def _period_first(orten: str) -> str:
    return f"| Period | Club |\n|---|---|\n| 2001–2002 | Kessel FC |\n| {orten} | Orten FC |\n| 2003–2004 | Balm FC |"


def test_a_table_whose_first_column_holds_only_dates_is_keyed_by_its_name_column() -> None:
    assert verdict(ORTEN, _period_first("2002–2003"), ("Balm FC",)) == "right"
    # the answer's row with a shifted end, or with the next row's years, stays wrong
    assert verdict(ORTEN, _period_first("2002–2004"), ("Balm FC",)) == "wrong"
    assert verdict(ORTEN, _period_first("2003–2004"), ("Balm FC",)) == "wrong"


# Rui Lemos became an International Master in 2009 and a Grandmaster in 2010
LEMOS = q(
    answers=("Grandmaster",),
    question="Which chess title did Rui Lemos receive in the year after Rui Lemos received International Master?",
    S_star=(Triple("Rui Lemos", "hasTitle", "Grandmaster", "2010", None),),
    S_anchor=(Triple("Rui Lemos", "hasTitle", "International Master", "2009", None),),
    time_refs=({"which": "start", "value": "2009", "of": "anchor"},),
)


def test_a_title_named_by_its_initials_is_held_to_its_data() -> None:
    assert verdict(LEMOS, "Lemos became an IM in 2009 and a GM the following year, 2010.") == "right"
    # the anchor's title named by its initials with a wrong year: wrong, as with its full name
    assert verdict(LEMOS, "Lemos became an IM in 2008 and a GM the following year, 2009.") == "wrong"
    assert verdict(LEMOS, "Lemos became an International Master in 2008 and a GM in 2009.") == "wrong"
    # initials that are no fact's ("FM", a title of someone else's) keep the shared subject's year a citation
    assert verdict(LEMOS, "Lemos became an FM in 2008, then an International Master in 2009.") == "right"


# Tiago Sousa: Vale SC 2007-2008, then Braga from 2008
VALE = q(
    answers=("2007",),
    question="In which year did Tiago Sousa join Vale SC?",
    S_star=(Triple("Tiago Sousa", "playsFor", "Vale SC", "2007", "2008"),),
    time_refs=({"which": "start", "value": "2007", "of": "answer"},),
)


def test_a_stay_counted_before_a_move_ends_at_the_move() -> None:
    right = "Tiago Sousa moved from Leiria to Vale in 2007 and stayed one season before joining Braga in 2008."
    assert verdict(VALE, right, ("Braga", "Leiria")) == "right"
    wrong = "Tiago Sousa moved from Leiria to Vale in 2007 and stayed one season before joining Braga in 2010."
    assert verdict(VALE, wrong, ("Braga", "Leiria")) == "wrong"
    # a move with no stay between may leave a gap: its year only cites the spell's end
    gap = "Tiago Sousa moved from Leiria to Vale in 2007, before joining Braga in 2010."
    assert verdict(VALE, gap, ("Braga", "Leiria")) == "right"


def test_a_stay_counted_in_years_is_held_to_the_data_with_a_years_slack() -> None:
    assert verdict(VALE, "Tiago Sousa joined Vale in 2007 and stayed one season.") == "right"
    # two years from 2007 is 2009, a year from the data's 2008: a season may close a year on
    assert verdict(VALE, "Tiago Sousa joined Vale in 2007 and stayed two years.") == "right"
    # five years from 2007 is 2012, far from 2008: wrong
    assert verdict(VALE, "Tiago Sousa joined Vale in 2007 and stayed five years.") == "wrong"
    # a stay counted from another player's date is his, not the fact's
    assert verdict(VALE, "Tiago Sousa joined Vale in 2007; Rui Costa joined Braga in 2001 and stayed five years.") == (
        "right"
    )


# Ana Maria Costa chaired the Nordia council from 15 March 2003 to 14 March 2013
CHAIR = q(
    answers=("Ana Maria Costa",),
    source="table",
    granularity="day",
    question="Who chaired the Nordia council whose term began on 15 March 2003 and ended on 14 March 2013?",
    S_star=(Triple("Nordia council, chair", "name", "Ana Maria Costa", "2003-03-15", "2013-03-14"),),
    time_refs=(
        {"which": "start", "value": "2003-03-15", "answer": "Ana Maria Costa"},
        {"which": "end", "value": "2013-03-14", "answer": "Ana Maria Costa"},
    ),
)


def test_a_range_resumed_after_a_phrase_put_in_it_ends_the_same_term() -> None:
    text = "Ana Maria Costa chaired it from 15 March 2003, succeeding Olle Berg, to {}, when Ivar Dahl took over."
    assert verdict(CHAIR, text.format("14 March 2013"), ("Olle Berg", "Ivar Dahl")) == "right"
    assert verdict(CHAIR, text.format("14 March 2012"), ("Olle Berg", "Ivar Dahl")) == "wrong"


# Ivo Marek: Kessel FC 2008-2009, then Vardar FC 2009-2011
VARDAR = q(
    answers=("Vardar FC",),
    question="Which team did Ivo Marek play for immediately after Ivo Marek left Kessel FC?",
    S_star=(Triple("Ivo Marek", "playsFor", "Vardar FC", "2009", "2011"),),
    S_anchor=(Triple("Ivo Marek", "playsFor", "Kessel FC", "2008", "2009"),),
    time_refs=({"which": "end", "value": "2009", "of": "anchor"}, {"which": "start", "value": "2009", "of": "answer"}),
)


def test_a_where_clause_stay_is_the_places_and_a_move_after_a_leave_starts_it() -> None:
    text = "Marek left Kessel in 2009 and went straight to Vardar, where he stayed until {}."
    assert verdict(VARDAR, text.format(2011)) == "right"
    # the stay's end is held to the place's data
    assert verdict(VARDAR, text.format(2013)) == "wrong"


def test_a_conclusions_restated_state_only_cites() -> None:
    yes = q(
        answers=("yes",),
        question="Yes or no: in 2000, Ivo Marek played for Vardar FC?",
        S_star=(Triple("Ivo Marek", "playsFor", "Vardar FC", "1999", "2002"),),
        time_refs=({"which": "end", "value": "2002", "of": "answer"},),
    )
    text = "Ivo Marek moved from Kessel to Vardar in 1999 and stayed until {}, so he was a Vardar player in 2000."
    assert verdict(yes, text.format(2002), ("Kessel FC",)) == "right"
    assert verdict(yes, text.format(2003), ("Kessel FC",)) == "wrong"


# Olaf Berg was President of Nordia from 29 May 2007 until his death on 5 May 2010
BERG = q(
    answers=("Olaf Berg",),
    source="table",
    granularity="day",
    question="Who was the President of Nordia whose term began after 28 December 2004 and ended before 14 May 2012?",
    S_star=(Triple("Nordia, President", "name", "Olaf Berg", "2007-05-29", "2010-05-05"),),
    time_refs=(
        {"which": "start", "value": "2007-05-29", "answer": "Olaf Berg"},
        {"which": "end", "value": "2010-05-05", "answer": "Olaf Berg"},
    ),
)


def test_a_successors_stay_after_him_and_a_restated_window_are_not_the_terms() -> None:
    text = "Berg was inaugurated on {} and served until his death on 5 May 2010, within the 2004–2012 window. {}"
    after = "Ivar Dahl succeeded him and stayed until 2015."
    assert verdict(BERG, text.format("29 May 2007", after), ("Ivar Dahl",)) == "right"
    # the term's own wrong start is still wrong beside the window
    assert verdict(BERG, text.format("29 May 2008", after), ("Ivar Dahl",)) == "wrong"
    # the fact's own subject before "and stayed" keeps the stay his
    own = "Berg succeeded Ivar Dahl and stayed until 2015."
    assert verdict(BERG, text.format("29 May 2007", own), ("Ivar Dahl",)) == "wrong"


def test_a_possessor_before_a_kin_word_is_not_the_dates_owner() -> None:
    spouse = q(
        answers=("no",),
        question="Did the spouse of Per Roos as of 1981 die in Lund in the year Eva Lind was born in Lund?",
        S_star=(
            Triple("Per Roos", "spouse", "Lina Roos", "1973", "1994"),
            Triple("Lina Roos", "diedIn", "Lund", "1994", "1994"),
        ),
        S_anchor=(Triple("Eva Lind", "wasBornIn", "Lund", "1950-08-05", "1950-08-05"),),
        time_refs=(
            {"which": "start", "value": "1994", "of": "answer"},
            {"which": "start", "value": "1950-08-05", "of": "anchor"},
        ),
    )
    text = "Per Roos's wife Lina Roos died in Lund in {} (2 March); Eva Lind was born in Lund on 5 August 1950."
    assert verdict(spouse, text.format(1994)) == "right"
    assert verdict(spouse, text.format(1995)) == "wrong"


def test_the_place_an_event_happened_in_is_not_the_dates_owner() -> None:
    firm = q(
        answers=("1885",),
        answer_type="time",
        question="What year did Olaf Berg create Berg Dahl?",
        S_star=(Triple("Olaf Berg", "created", "Berg Dahl", "1885", None),),
        time_refs=({"which": "start", "value": "1885", "of": "answer"},),
    )
    text = "Olaf Berg founded his practice, which became Berg Dahl, in New York in {}."
    assert verdict(firm, text.format(1885), ("New York",)) == "right"
    assert verdict(firm, text.format(1886), ("New York",)) == "wrong"
    # a state at the place keeps the date the place's: the fact's own year is not stated
    state = "Olaf Berg, of Berg Dahl, was at New York in 1885."
    assert verdict(firm, state, ("New York",)) != "right"
