"""Careful time judging, rules for the false accepts of a fresh blind set, each general. A club named
"<place>i <initials>" is named by its place ("joined Pécs in 2010" of Pécsi VSC); an end stated for a fact the data
leaves open that is the fact's start, its start stated nowhere, is a swapped end; "became a GM in 2009 and IM in 2008"
dates the second title's start as firmly as the first's; a day written without its year after a full date of the same
sentence ("handed over on 10 December 2023, ... began on 11 December") is of that year. Then kinds of false reject
that recur: a one-year spell's other spell keeps its range ("where he'd started in 1994–95"); a move's source ("moved
from X to Delft") is no antecedent of a later "his"; a short lower-case word joins no surname ("Villa in" is not
Villain); "so yes in 2016" restates the question's date; a company's legal form ("Warner Bros.") makes no person's
name. Each rule with a positive that must stay right and a trap that must not be accepted."""

from __future__ import annotations

from chronoqa.records import Triple
from chronoqa.time.text import yearless_days
from time_verdicts import q, verdict

# Tom Vass played for Kecskeméti TE from 2005 to 2009 and joined Pécsi VSC in 2010
VASS = q(
    answers=("Kecskeméti TE",),
    question="In the year before Tom Vass joined Pécsi VSC, which team did Tom Vass play for?",
    S_star=(Triple("Tom Vass", "playsFor", "Kecskeméti TE", "2005", "2009"),),
    S_anchor=(Triple("Tom Vass", "playsFor", "Pécsi VSC", "2010", "2012"),),
    time_refs=({"which": "start", "value": "2010", "of": "anchor"},),
)


def test_a_club_is_named_by_the_place_its_adjective_names() -> None:
    assert verdict(VASS, "Vass joined Pécs in 2010 after five years at Kecskemét (2005–2009).") == "right"
    # the place names the club: a wrong year for its start is wrong, whether the anchor's or the answer's
    assert verdict(VASS, "Vass joined Pécs in 2011 after five years at Kecskemét (2005–2009).") == "wrong"
    assert verdict(VASS, "Vass joined Pécs in 2010; he had been at Kecskemét since 2004.") == "wrong"


# Piet Lund played for Harbour FC from 2006 to 2009; Ivo Marsh joined Harbour FC in 2012 (the data knows no end)
HARBOUR = q(
    answers=("yes",),
    question="Is it true that Piet Lund left Harbour FC before Ivo Marsh joined Harbour FC?",
    S_star=(Triple("Piet Lund", "playsFor", "Harbour FC", "2006", "2009"),),
    S_anchor=(Triple("Ivo Marsh", "playsFor", "Harbour FC", "2012", None),),
    time_refs=({"which": "end", "value": "2009", "of": "answer"},),
)


def test_an_open_facts_start_stated_as_its_end_is_wrong() -> None:
    assert verdict(HARBOUR, "Yes. Lund left Harbour in 2009, while Ivo Marsh's time there ended in 2012.") == "wrong"
    assert verdict(HARBOUR, "Yes. Lund left Harbour in 2009, while Ivo Marsh's time there began in 2012.") == "right"
    # the start stated too: a spell begun and ended in one year the data does not close, not a swap
    text = "Yes. Lund left Harbour in 2009; Ivo Marsh joined Harbour in 2012 and left it in 2012."
    assert verdict(HARBOUR, text) == "right"


# Ada Ronn became an International Master in 2007 and a Grandmaster in 2009
RONN = q(
    answers=("International Master",),
    question="Two years before Ada Ronn received the chess title Grandmaster, which chess title did Ada Ronn receive?",
    S_star=(Triple("Ada Ronn", "hasTitle", "International Master", "2007", None),),
    S_anchor=(Triple("Ada Ronn", "hasTitle", "Grandmaster", "2009", None),),
    time_refs=({"which": "start", "value": "2009", "of": "anchor"},),
)


def test_a_left_out_verb_dates_the_second_fact_firmly() -> None:
    assert verdict(RONN, "Ronn became a GM in 2009 and IM in 2007, two years earlier.") == "right"
    assert verdict(RONN, "Ronn became a GM in 2009 and IM in 2008, a year earlier.") == "wrong"
    assert verdict(RONN, "Ronn became a Grandmaster in 2009 and an International Master in 2008.") == "wrong"
    # a clause with a verb of its own after "and in D" states a state at D, not the title's start
    assert verdict(RONN, "Ronn became a GM in 2009, and in 2008 she was already an IM.") == "right"


# Ana Vidal's term as President of Ruritania began on 10 December 2023
VIDAL = q(
    answers=("Ana Vidal",),
    question="Who was the President of Ruritania whose term began immediately after 9 December 2023?",
    granularity="day",
    S_star=(Triple("Ana Vidal", "holdsPosition", "President of Ruritania", "2023-12-10", None),),
    time_refs=({"answer": "Ana Vidal", "which": "start", "value": "2023-12-10"},),
)


def test_a_day_without_its_year_takes_the_year_of_its_sentence() -> None:
    text = "Luis Mora handed over on 10 December 2023, and Vidal's term formally began on {}, after the ceremony."
    assert verdict(VIDAL, text.format("11 December"), ("Luis Mora",)) == "wrong"
    text = "Luis Mora's term ended on 9 December 2023, and Vidal took office on {}."
    assert verdict(VIDAL, text.format("10 December"), ("Luis Mora",)) == "right"
    assert verdict(VIDAL, text.format("December 10th"), ("Luis Mora",)) == "right"


def test_a_yearless_day_is_dated_only_after_a_full_date_of_its_sentence() -> None:
    assert yearless_days("ended on 9 December 2023, and Vidal began on 10 December.") == (
        "ended on 9 December 2023, and Vidal began on 10 December 2023."
    )
    assert yearless_days("Born on 5 March 1950. Died on 11 December.") == "Born on 5 March 1950. Died on 11 December."
    # a day before the full date, or more than a month after it, is not guessed
    assert yearless_days("took office on 10 December 2023 and left on 9 December.").endswith("9 December.")
    assert yearless_days("took office on 10 May 2001 and left on 20 July.").endswith("20 July.")
    # a day already read with its year, or a day's range, is left as it is
    same = "served from 15 March 2003 until 15 March 2013, and on 11–12 March 2013 handed over."
    assert yearless_days(same) == same


# Rui Lopes played for Porto SC from 1994 to 1995 and again in 2006; he joined Vila FC in 2005
LOPES = q(
    answers=("Porto SC",),
    question="In the year after Rui Lopes joined Vila FC, which team did Rui Lopes play for?",
    S_star=(Triple("Rui Lopes", "playsFor", "Porto SC", "2006", "2006"),),
    S_anchor=(Triple("Rui Lopes", "playsFor", "Vila FC", "2005", "2005"),),
    S_dist=(Triple("Rui Lopes", "playsFor", "Porto SC", "1994", "1995"),),
    time_refs=({"which": "start", "value": "2005", "of": "anchor"},),
)


def test_a_one_year_spells_other_spell_keeps_its_range() -> None:
    text = (
        "Rui Lopes joined Vila FC in 2005; the following year, 2006, he was back at Porto SC, where he'd started in {}."
    )
    assert verdict(LOPES, text.format("1994–95")) == "right"
    assert verdict(LOPES, text.format("1994–96")) == "wrong"
    # the other spell's end is no start
    assert verdict(LOPES, text.format("1995")) == "wrong"


# Jan Mol worked for Delft University from 1859 until his death in 1871
MOL = q(
    answers=("12 years",),
    question="How many years after Jan Mol started working for Delft University did Jan Mol stop working there?",
    S_star=(Triple("Jan Mol", "employer", "Delft University", "1859", "1871"),),
    time_refs=({"which": "start", "value": "1859", "of": "answer"}, {"which": "end", "value": "1871", "of": "answer"}),
)


def test_a_moves_source_is_no_antecedent_of_his() -> None:
    text = "Mol moved from Hans Brink to Delft in 1859 and stayed until his death in {} — twelve years."
    assert verdict(MOL, text.format("1871"), ("Hans Brink",)) == "right"
    assert verdict(MOL, text.format("1872"), ("Hans Brink",)) == "wrong"
    # named as the subject, the other person owns "his": not the fact's end
    text = "Mol went to Delft in 1859. Hans Brink stayed there until his death in 1871."
    assert verdict(MOL, text, ("Hans Brink",)) != "right"


# Ole Dam left Aston Villa F.C. in 2014; Tim Vos joined Aston Villa F.C. in 2015
VILLA = q(
    answers=("no",),
    question="Is it true that Ole Dam left Aston Villa F.C. in the same year that Tim Vos joined Aston Villa F.C.?",
    S_star=(Triple("Ole Dam", "playsFor", "Aston Villa F.C.", "2011", "2014"),),
    S_anchor=(Triple("Tim Vos", "playsFor", "Aston Villa F.C.", "2015", "2016"),),
    time_refs=({"which": "end", "value": "2014", "of": "answer"}, {"which": "start", "value": "2015", "of": "anchor"}),
)


def test_a_short_lower_case_word_joins_no_surname() -> None:
    others = ("François-Xavier Villain",)  # "Villa in" would join to his surname
    assert verdict(VILLA, "No. Dam left Villa in 2014; Vos joined the following year, 2015.", others) == "right"
    assert verdict(VILLA, "No. Dam left Villa in 2013; Vos joined the following year, 2014.", others) == "wrong"


# Ana Roth was a Member of the Blue Assembly from 2015 to 2017
ROTH = q(
    answers=("yes",),
    question="Was it still the case in 2016 that Ana Roth held the position of Member of the Blue Assembly?",
    S_star=(Triple("Ana Roth", "holdsPosition", "Member of the Blue Assembly", "2015", "2017"),),
    time_refs=({"which": "end", "value": "2017", "of": "answer"},),
)


def test_a_yes_conclusions_date_is_the_questions() -> None:
    text = "Ana Roth sat in the Blue Assembly from 2015 until its dissolution in {}, so yes in 2016."
    assert verdict(ROTH, text.format("2017")) == "right"
    assert verdict(ROTH, text.format("2018")) == "wrong"
    # a stated end at the question's date outside a conclusion is still an end
    assert verdict(ROTH, "Ana Roth sat in the Blue Assembly from 2015 until 2016.") == "wrong"


# Nova Pictures acquired Orbit Group in 1987; Warner Bros. acquired Orbit Group in 1989
ORBIT = q(
    answers=("no",),
    question="Is it true that Nova Pictures acquired Orbit Group after Warner Bros. acquired Orbit Group?",
    S_star=(Triple("Nova Pictures", "owns", "Orbit Group", "1987", "1989"),),
    S_anchor=(Triple("Warner Bros.", "owns", "Orbit Group", "1989", "1990"),),
    time_refs=(
        {"which": "start", "value": "1987", "of": "answer"},
        {"which": "start", "value": "1989", "of": "anchor"},
    ),
)


def test_a_company_is_named_by_its_name_before_its_legal_form() -> None:
    others = ("Jack Warner",)  # a person of the release whose surname the company's name shares
    assert verdict(ORBIT, "No. Nova acquired Orbit in 1987, before Warner's 1989 acquisition.", others) == "right"
    # another year: never right (a possessor before the date binds it weakly: undecided)
    assert verdict(ORBIT, "No. Nova acquired Orbit in 1987, before Warner's 1990 acquisition.", others) != "right"
