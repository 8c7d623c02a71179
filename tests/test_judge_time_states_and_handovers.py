"""Careful time judging: a marriage stated as a state after its date ("was therefore married"), the question's date
tested after it ("falls inside"), a window restated by "overlapped", a handover naming the new holder's start, a
graduation after a study's start as its end, a club named by its acronym ("BVSC") and a shared subject's spell left
for the other fact, and a date trailed off and corrected ("2008... actually I believe 2007"). Each rule with a trap
of the same shape that must stay wrong."""

from __future__ import annotations

from chronoqa.records import Triple
from chronoqa.score.judge_names import NameIndex
from chronoqa.score.judge_time import _label_prefix
from time_verdicts import q, verdict

# Ilse Varga was married to Tomas Berg from 1971 to 1983
VARGA = q(
    answers=("Tomas Berg",),
    question="As of 1975, who was Ilse Varga married to?",
    S_star=(Triple("Ilse Varga", "isMarriedTo", "Tomas Berg", "1971", "1983"),),
)


def test_a_marriage_stated_as_a_state_after_its_date_is_no_wedding() -> None:
    text = "Ilse Varga married Tomas Berg in 1971 and they divorced in 1983. In 1975 she was therefore married to Berg."
    assert verdict(VARGA, text) == "right"
    # a wedding in the asked year is still a start, and wrong
    wrong = "Ilse Varga married Tomas Berg in 1971 and they divorced in 1983. In 1975 she married Berg again."
    assert verdict(VARGA, wrong) == "wrong"


# Norland belonged to the Southern League from 1820 to 1871
NORLAND = q(
    answers=("yes",),
    question="Did it still hold in 1850 that Norland was a member of the Southern League?",
    S_star=(Triple("Norland", "memberOf", "Southern League", "1820", "1871"),),
    time_refs=({"which": "end", "value": "1871", "of": "answer"},),
)


def test_the_questions_date_tested_after_it_is_no_end() -> None:
    text = (
        "Norland was in the Southern League from 1820 until its dissolution in 1871, and Norland stayed a member. 1850 "
    )
    text += "falls inside it."
    assert verdict(NORLAND, text) == "right"
    # the same year stated as the membership's end is wrong
    wrong = "Norland was a member of the Southern League from 1820 until 1850."
    assert verdict(NORLAND, wrong) == "wrong"


# Ado Bara, president of Lemuria from 12 May 2005 to 3 March 2009 (died in office)
BARA = q(
    answers=("Ado Bara",),
    source="table",
    granularity="day",
    question="Who was the President of Lemuria whose term began before 1 June 2007 and ended on or after it?",
    S_star=(Triple("Lemuria", "president", "Ado Bara", "2005-05-12", "2009-03-03"),),
    time_refs=(
        {"answer": "Ado Bara", "which": "start", "value": "2005-05-12"},
        {"answer": "Ado Bara", "which": "end", "value": "2009-03-03"},
    ),
)


def test_a_term_that_overlapped_the_questions_date_states_no_end_at_it() -> None:
    text = (
        "Bara took office on 12 May 2005 and died on 3 March 2009, so his term overlapped 1 June 2007 and ended later."
    )
    assert verdict(BARA, text) == "right"
    # a term said to end on the question's date is still wrong
    wrong = "Bara took office on 12 May 2005, and his term ended on 1 June 2007."
    assert verdict(BARA, wrong) == "wrong"


def test_a_handover_to_the_answer_is_its_start() -> None:
    text = "After the election, Ivo Dran handed over to Ado Bara on 12 May 2005. Bara served until 3 March 2009."
    assert verdict(BARA, text, ("Ivo Dran",)) == "right"
    # a handover to the answer on another day is its start, and wrong
    wrong = "After the election, Ivo Dran handed over to Ado Bara on 12 June 2005. Bara served until 3 March 2009."
    assert verdict(BARA, wrong, ("Ivo Dran",)) == "wrong"


# Petra Lind studied at Varna University from 1980 to 1986
LIND = q(
    answers=("6 years",),
    question="How long did Petra Lind study at Varna University?",
    S_star=(Triple("Petra Lind", "educatedAt", "Varna University", "1980", "1986"),),
    time_refs=({"which": "start", "value": "1980", "of": "answer"}, {"which": "end", "value": "1986", "of": "answer"}),
)


def test_a_graduation_after_a_studys_start_is_its_end() -> None:
    text = "Petra Lind studied at Varna University from 1980, with a year abroad, and graduated in 1986."
    assert verdict(LIND, text) == "right"
    # a graduation in another year is a wrong end
    wrong = "Petra Lind studied at Varna University from 1980, with a year abroad, and graduated in 1985."
    assert verdict(LIND, wrong) == "wrong"


def test_a_degree_taken_or_a_doctorate_completed_after_a_studys_start_is_its_end() -> None:
    taken = "Petra Lind went up to Varna University in 1980 and took her degree in 1986 before teaching."
    assert verdict(LIND, taken) == "right"
    completed = "Petra Lind enrolled at Varna University in 1980 and completed her doctorate there in 1986."
    assert verdict(LIND, completed) == "right"
    # the same close in another year is a wrong end, and a wrong start stays wrong
    assert verdict(LIND, taken.replace("1986", "1985")) == "wrong"
    assert verdict(LIND, completed.replace("1980", "1981")) == "wrong"


# Kovacs played for Budapesti VSC from 1999 to 2001, then for FC Lahti from 2001
KOVACS = q(
    answers=("FC Lahti",),
    question="After Imre Kovacs left Budapesti VSC, which team did Imre Kovacs play for next?",
    S_star=(Triple("Imre Kovacs", "playsFor", "FC Lahti", "2001", "2001"),),
    S_anchor=(Triple("Imre Kovacs", "playsFor", "Budapesti VSC", "1999", "2001"),),
    time_refs=({"which": "end", "value": "2001", "of": "anchor"}, {"which": "start", "value": "2001", "of": "answer"}),
)


def test_a_club_named_by_its_acronym_holds_its_range_to_its_data() -> None:
    right = "Kovacs played for BVSC from 1999 to 2001, then moved to FC Lahti in 2001."
    assert verdict(KOVACS, right) == "right"
    # the left club's range starting a year early is wrong
    wrong = "Kovacs played for BVSC from 1998 to 2001, then moved to FC Lahti in 2001."
    assert verdict(KOVACS, wrong) == "wrong"


def test_a_shared_subjects_range_before_a_move_to_one_fact_is_the_others() -> None:
    right = "Imre Kovacs played from 1999 to 2001, then moved to FC Lahti in 2001."
    assert verdict(KOVACS, right) == "right"
    wrong = "Imre Kovacs played from 1998 to 2001, then moved to FC Lahti in 2001."
    assert verdict(KOVACS, wrong) == "wrong"


# Ola Sund joined Rivera FC in 2012
SUND = q(
    answers=("Rivera FC",),
    question="Which club did Ola Sund join in 2012?",
    S_star=(Triple("Ola Sund", "playsFor", "Rivera FC", "2012", None),),
    time_refs=({"which": "start", "value": "2012", "of": "answer"},),
)


def test_a_date_trailed_off_and_corrected_is_replaced_by_the_correction() -> None:
    wrong = "Ola Sund joined Rivera FC in 2012... actually I believe Sund joined Rivera FC in 2013."
    assert verdict(SUND, wrong) == "wrong"
    right = "Ola Sund joined Rivera FC in 2013... actually I believe Sund joined Rivera FC in 2012."
    assert verdict(SUND, right) == "right"


# Rui Lago joined Porto Azul in 2009; Omar Sel joined Porto Azul in 2012; Rui Lago was married to Eva Kimm 2006-2010
LAGO = q(
    answers=("yes",),
    question="Did the spouse of Eva Kimm as of 2007 join Porto Azul before Omar Sel joined Porto Azul?",
    S_star=(
        Triple("Eva Kimm", "isMarriedTo", "Rui Lago", "2006", "2010"),
        Triple("Rui Lago", "playsFor", "Porto Azul", "2009", "2009"),
    ),
    S_anchor=(Triple("Omar Sel", "playsFor", "Porto Azul", "2012", "2013"),),
    time_refs=(
        {"which": "start", "value": "2009", "of": "answer"},
        {"which": "start", "value": "2012", "of": "anchor"},
    ),
)


def test_a_table_rows_name_with_a_bracketed_gloss_owns_the_rows_dates() -> None:
    table = "| Player | Joined |\n|---|---|\n| Rui Lago (Kimm's husband 2006–2010) | {} |\n| Omar Sel | 2012 |"
    assert verdict(LAGO, table.format("2009")) == "right"
    # the row's own date is held to the row's fact
    assert verdict(LAGO, table.format("2008")) == "wrong"


# Karl Vell headed Ostmark from 1962 to 1978 (after Hans Rorr, 1960-1962) and chaired the Council from 1972
VELL = q(
    answers=("yes",),
    question="Was Karl Vell still head of Ostmark when he took office as chair of the Council?",
    S_star=(
        Triple("Ostmark", "headOfGovernment", "Hans Rorr", "1960", "1962"),
        Triple("Ostmark", "headOfGovernment", "Karl Vell", "1962", "1978"),
    ),
    S_anchor=(Triple("Karl Vell", "holdsPosition", "chair of the Council", "1972", "1973"),),
    time_refs=(
        {"which": "start", "value": "1962", "of": "answer"},
        {"which": "end", "value": "1978", "of": "answer"},
        {"which": "start", "value": "1972", "of": "anchor"},
    ),
)


def test_the_subject_of_an_active_succession_is_the_one_in_its_clause() -> None:
    text = "Hans Rorr governed Ostmark (1960–1962). Vell succeeded him in {} and stayed until 1978. Vell became chair "
    text += "of the Council in 1972."
    assert verdict(VELL, text.format("1962")) == "right"
    # the successor's start a year late is not stated
    assert verdict(VELL, text.format("1963")) == "wrong"


# Velsk became a Hero City of the Union in 1974, while in Karsk Republic (1946-1991)
VELSK = q(
    answers=("Karsk Republic",),
    question="When Velsk gained the status of Hero City of the Union, in which unit was Velsk located?",
    S_star=(Triple("Velsk", "locatedIn", "Karsk Republic", "1946", "1991"),),
    S_anchor=(Triple("Velsk", "award", "Hero City of the Union", "1974", None),),
    time_refs=({"which": "start", "value": "1974", "of": "anchor"},),
)


def test_a_labels_opening_words_name_it() -> None:
    text = "Velsk was awarded the title Hero City in {}. It was then in Karsk Republic, where it stayed until 1991."
    assert verdict(VELSK, text.format("1974"), ("City",)) == "right"
    # the title a year late is wrong
    assert verdict(VELSK, text.format("1975"), ("City",)) == "wrong"


def test_an_opening_that_is_another_entitys_whole_name_names_no_longer_label() -> None:
    base = NameIndex({o: (o,) for o in ("Real Madrid", "City")})
    assert _label_prefix("Real Madrid Castilla", "He joined Real Madrid in 2001.", [], base) == []
    assert _label_prefix("Hero City of the Union", "the title Hero City in 1974", [], base) == ["Hero City"]
    # a rival label of the question opening the same way names neither
    assert _label_prefix("Hero City of the Union", "the title Hero City in 1974", ["Hero City Guard"], base) == []


# Norland and Osterland both belonged to the Southern League from 1820 to 1871; the question asks about Osterland
LEAGUE = q(
    answers=("yes",),
    question="Did it still hold in 1850 that Osterland was a member of the union Norland was in?",
    S_star=(
        Triple("Norland", "memberOf", "Southern League", "1820", "1871"),
        Triple("Osterland", "memberOf", "Southern League", "1820", "1871"),
    ),
    time_refs=({"which": "end", "value": "1871", "of": "answer"},),
)


def test_a_second_entity_over_the_same_period_shares_the_dates() -> None:
    text = (
        "Norland was in the Southern League from 1820 until its dissolution in 1871, and Osterland was a member over "
    )
    assert verdict(LEAGUE, text + "the same period.") == "right"
    # without "the same period" the dates are Norland's alone
    assert verdict(LEAGUE, text + "many years.") == "wrong"


# Lessac lay in Bezirk Nord from 1871 to 1920
LESSAC = q(
    answers=("Bezirk Nord",),
    question="How long was Lessac located in Bezirk Nord?",
    S_star=(Triple("Lessac", "located in the administrative territorial entity", "Bezirk Nord", "1871", "1920"),),
    time_refs=({"which": "start", "value": "1871", "of": "answer"}, {"which": "end", "value": "1920", "of": "answer"}),
)


def test_a_sentence_opening_on_an_event_and_its_date_dates_the_start_of_the_state_after_it() -> None:
    text = "After the Treaty of Velm in 1871, Lessac was in Bezirk Nord, which lasted until 1920."
    assert verdict(LESSAC, text) == "right"
    with_it = "With the Act of Union taking effect in 1871, Lessac was part of Bezirk Nord until 1920."
    assert verdict(LESSAC, with_it) == "right"
    when = "When the districts were created in 1871, Lessac was placed in Bezirk Nord, where it stayed until 1920."
    assert verdict(LESSAC, when) == "right"
    # the event in another year states no start of the state: not all the references are stated
    assert verdict(LESSAC, text.replace("1871", "1869")) == "wrong"
    # the main clause that dates its own change keeps that date, and a wrong one is wrong
    own = "After the collapse of the Old Empire in 1869, Lessac came under Bezirk Nord in 1872 and stayed until 1920."
    assert verdict(LESSAC, own) == "wrong"
    assert verdict(LESSAC, own.replace("1872", "1871")) == "right"
    # an opening that says a change of its own ("After leaving X in D") is that change's date, not a start
    left = "After leaving Bezirk Nord in 1920, Lessac was in Bezirk Sud; it had been in Bezirk Nord since 1871."
    assert verdict(LESSAC, left) == "right"
    # a when-clause that states a change of its own keeps it: an end, not the next state's start
    ended = "When Lessac left Bezirk Nord in 1871, it went to Bezirk Sud; it had been in Bezirk Nord until 1920."
    assert verdict(LESSAC, ended) == "undecided"  # every year is written, one untied: never right
