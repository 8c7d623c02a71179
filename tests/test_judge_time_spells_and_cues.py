"""Careful time judging: another spell's date beside the asked one, a leave year before the fact began, an aside
about another thing, "and joined Y" after a leave date, enrolment as a start, a marriage stated as a state, and a
term of one day said after its date. Each rule with a trap of the same shape that must stay wrong."""

from __future__ import annotations

from chronoqa.records import Triple
from time_verdicts import q, verdict

# Vennik belonged to Nordmark twice: 1801-1866, then again from 1919 (the question asks about the second spell)
NORDMARK = q(
    answers=("Nordmark",),
    question="Up to 2010, in which district was Vennik located most recently?",
    S_star=(Triple("Vennik", "locatedIn", "Nordmark", "1919", None),),
    S_stale=(Triple("Vennik", "locatedIn", "Nordmark", "1801", "1866"),),
    time_refs=({"which": "start", "value": "1919", "of": "answer"},),
)


def test_a_date_of_another_spell_of_the_same_fact_contradicts_nothing() -> None:
    text = "Vennik: Nordmark (1801–1866), then Ostgau (1866–1919), and Nordmark again (from 1919)."
    assert verdict(NORDMARK, text, ("Ostgau",)) == "right"
    # a start that is no spell's at all is still wrong
    wrong = "Vennik: Nordmark (1805–1866), then Ostgau (1866–1919), and Nordmark again (from 1919)."
    assert verdict(NORDMARK, wrong, ("Ostgau",)) == "wrong"


# the anchor fact (Tomas Brand at Rivera FC) began in 2016 and the data knows no end
RIVERA = q(
    answers=("no",),
    question="Did Ola Sund join Rivera FC in the year Tomas Brand left Rivera FC?",
    S_star=(Triple("Ola Sund", "playsFor", "Rivera FC", "2012", "2014"),),
    S_anchor=(Triple("Tomas Brand", "playsFor", "Rivera FC", "2016", None),),
    time_refs=({"which": "start", "value": "2012", "of": "answer"},),
)


def test_a_leave_year_before_the_fact_began_is_wrong_though_the_end_is_open() -> None:
    assert verdict(RIVERA, "Ola Sund joined Rivera in 2012. Tomas Brand left Rivera in 2013, so no.") == "wrong"
    # the last, corrected statement is checked: it leaves before 2016 too
    fixed = "Ola Sund joined Rivera in 2012. Brand left Rivera in 2012 as well... no — Brand actually left in 2015."
    assert verdict(RIVERA, fixed) == "wrong"
    # a leave year the open end allows decides nothing against it
    assert verdict(RIVERA, "Ola Sund joined Rivera in 2012; Tomas Brand only left Rivera in 2019, so no.") == "right"


def test_an_aside_about_another_thing_named_by_a_common_noun_does_not_contradict() -> None:
    town = q(
        answers=("Greater Lunden",),
        question="In which unit was Lunden located when Brakel became a commune?",
        S_star=(Triple("Lunden", "locatedIn", "Greater Lunden", "2017", None),),
        S_anchor=(Triple("Brakel", "instanceOf", "commune", "2017", None),),
        time_refs=({"which": "start", "value": "2017", "of": "anchor"},),
    )
    text = "Brakel became a commune in 2017, when Lunden was in Greater Lunden (the county having ended in 2015)."
    assert verdict(town, text) == "right"
    # the same end stated for the fact itself, outside an aside, is still wrong
    own = "Brakel became a commune in 2017, when Lunden was in Greater Lunden; Lunden left Greater Lunden in 2015."
    assert verdict(town, own) == "wrong"


NEXT_CLUB = q(
    answers=("Kestrel FC",),
    question="Which team did Ivo Brant play for immediately after Ivo Brant left Harbour FC?",
    S_star=(Triple("Ivo Brant", "playsFor", "Kestrel FC", "2005", "2009"),),
    S_anchor=(Triple("Ivo Brant", "playsFor", "Harbour FC", "2001", "2005"),),
    time_refs=({"which": "end", "value": "2005", "of": "anchor"}, {"which": "start", "value": "2005", "of": "answer"}),
)


def test_a_leave_date_followed_by_and_joined_starts_the_next_spell() -> None:
    text = "Ivo Brant left Harbour in 2005 and joined Kestrel, staying until 2009."
    assert verdict(NEXT_CLUB, text, ("Harbour FC", "Kestrel FC")) == "right"
    # "and left Y" after the date is no start of Y
    assert verdict(NEXT_CLUB, "Ivo Brant joined Harbour in 2001 and left Kestrel, staying until 2009.") != "right"


def test_enrolment_is_the_start_of_a_study() -> None:
    study = q(
        answers=("Lowland",),
        question="Which country was Tarn part of when Edda Hull enrolled at Corvin Academy?",
        S_star=(Triple("Tarn", "partOf", "Lowland", "1920", "1945"),),
        S_anchor=(Triple("Edda Hull", "educatedAt", "Corvin Academy", "1933", "1937"),),
        time_refs=({"which": "start", "value": "1933", "of": "anchor"},),
    )
    assert verdict(study, "Edda Hull enrolled at Corvin Academy in 1933; Tarn was then in Lowland.") == "right"
    assert verdict(study, "Edda Hull enrolled at Corvin Academy in 1935; Tarn was then in Lowland.") == "wrong"


SPOUSE = q(
    answers=("Rolf Aune",),
    question="Counting from when Liv Moe died in Bergen, who was Liv Moe married to three years earlier?",
    S_star=(Triple("Rolf Aune", "isMarriedTo", "Liv Moe", "1971", "1980"),),
    S_anchor=(Triple("Liv Moe", "diedIn", "Bergen", "1980-05-02", "1980-05-02"),),
    time_refs=({"which": "start", "value": "1980-05-02", "of": "anchor"},),
)


def test_was_married_after_the_date_is_a_state_not_a_wedding() -> None:
    text = "Liv Moe died in Bergen on 2 May 1980. Three years before, in 1977, she was married to Rolf Aune; wed 1971."
    assert verdict(SPOUSE, text) == "right"
    # "married X in D" (the verb before the date) is still the wedding: a wrong year contradicts
    wrong = "Liv Moe died in Bergen on 2 May 1980. She married Rolf Aune in 1977."
    assert verdict(SPOUSE, wrong) == "wrong"


def test_a_term_of_one_day_said_after_its_date_begins_and_ends_on_it() -> None:
    acting = q(
        answers=("Anna Kell",),
        source="table",
        granularity="day",
        question="Who was the acting President of Nordia whose term began on 3 May 2011?",
        S_star=(Triple("Nordia, President", "name", "Anna Kell", "2011-05-03", "2011-05-03"),),
        time_refs=(
            {"which": "start", "value": "2011-05-03", "answer": "Anna Kell"},
            {"which": "end", "value": "2011-05-03", "answer": "Anna Kell"},
        ),
    )
    assert verdict(acting, "Anna Kell – acting president on 3 May 2011 (a single day).") == "right"
    assert verdict(acting, "Anna Kell – acting president on 4 May 2011 (a single day).") == "wrong"


def test_a_dated_spell_at_a_club_is_the_clubs_not_the_subjects() -> None:
    loan = q(
        answers=("Pine United",),
        question="One year after Ari Dale joined Cove Rovers, which team did Ari Dale play for?",
        S_star=(Triple("Ari Dale", "playsFor", "Pine United", "2012", "2015"),),
        S_anchor=(Triple("Ari Dale", "playsFor", "Cove Rovers", "2012", "2012"),),
        time_refs=({"which": "start", "value": "2012", "of": "anchor"},),
    )
    clubs = ("Pine United", "Cove Rovers")
    right = "He had a short 2012 stint at Cove Rovers, then joined Pine United that year."
    assert verdict(loan, right, clubs) == "right"
    # the year of the stint is the club's: a wrong one contradicts its data
    assert verdict(loan, "He had a short 2013 stint at Cove Rovers, then joined Pine United in 2012.", clubs) == "wrong"


def test_a_territory_that_came_under_a_state_starts_there() -> None:
    town = q(
        answers=("Republic of Velia",),
        question="As of 1930, which country was Orsk part of?",
        S_star=(Triple("Orsk", "country", "Republic of Velia", "1920", "1940"),),
        time_refs=(
            {"which": "start", "value": "1920", "of": "answer"},
            {"which": "end", "value": "1940", "of": "answer"},
        ),
    )
    text = "Orsk came under the Republic of Velia in {} and stayed there until the annexation of 1940."
    assert verdict(town, text.format(1920)) == "right"
    assert verdict(town, text.format(1921)) == "wrong"
