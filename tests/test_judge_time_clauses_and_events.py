"""Careful time judging: a shared subject's clause pinned to one fact by its dates, events that end a stay ("until he
fled X in D", "when the state was founded in D"), stays and steps ("stayed into D", "stepped up to X"), a bound that
is no end ("ran past D"), brackets that gloss a date, Nordic club names, and French and Spanish cues and ranges. Each
rule with a trap of the same shape that must stay wrong, or a case the rule must leave alone."""

from __future__ import annotations

from chronoqa.records import Triple
from chronoqa.time.text import english_dates, extract_times
from time_verdicts import q, refs, verdict

# Mara Ilic was in the Blue Party 1980-1990 (the answer) and taught at Orlen Polytechnic 1985-1995 (the anchor)
PARTY = q(
    answers=("Blue Party",),
    question="When Mara Ilic started working for Orlen Polytechnic, which political party was Mara Ilic a member of?",
    S_star=(Triple("Mara Ilic", "memberOf", "Blue Party", "1980", "1990"),),
    S_anchor=(Triple("Mara Ilic", "worksFor", "Orlen Polytechnic", "1985", "1995"),),
    time_refs=({"which": "start", "value": "1985", "of": "anchor"},),
)
PARTY_TEXT = "Mara Ilic began teaching at the poly in 1985. Then she was still in the BP, which she had joined in {}."


def test_a_shared_subjects_clause_is_pinned_to_the_fact_one_of_its_dates_matches() -> None:
    # "joined in 1980" is the party's start alone: the sentence is the party's, so its end is held to the data
    assert verdict(PARTY, PARTY_TEXT.format("1980 and left in 1990")) == "right"
    assert verdict(PARTY, PARTY_TEXT.format("1980 and left in 1991")) == "wrong"
    # no date of the sentence is one fact's alone: the subject's dates still decide nothing
    assert verdict(PARTY, PARTY_TEXT.format("1979 and left in 1991")) == "right"
    # dates that pin two different facts leave the sentence shared
    assert verdict(PARTY, PARTY_TEXT.format("1980 and left in 1995")) == "right"


# Ben Kort lived in Mellin from 1932 to 1933
MELLIN = q(
    answers=("Mellin",),
    question="Where did Ben Kort live in 1932?",
    S_star=(Triple("Ben Kort", "livesIn", "Mellin", "1932", "1933"),),
    time_refs=refs(("start", "1932"), ("end", "1933")),
)


def test_an_event_after_until_ends_the_stay_whoever_its_clause_names() -> None:
    text = "Ben Kort lived in Mellin from 1932 until he fled Norland in {}."
    assert verdict(MELLIN, text.format(1933), ("Norland",)) == "right"
    assert verdict(MELLIN, text.format(1934), ("Norland",)) == "wrong"
    # a clause with a cue of its own keeps its owner: 1934 is Ada Roe's start, only cited for Ben Kort's end
    took = "Ben Kort lived in Mellin from 1932 until Ada Roe took over the house in 1934; he had left in 1933."
    assert verdict(MELLIN, took, ("Ada Roe",)) == "right"


def test_an_event_in_a_when_clause_dates_the_change_before_it() -> None:
    citizen = q(
        answers=("Republic of Sel",),
        question="When did Ola Vik become a citizen of the Republic of Sel?",
        S_star=(Triple("Ola Vik", "citizenOf", "Republic of Sel", "1949", "1990"),),
        time_refs=refs(("start", "1949"), ("end", "1990")),
    )
    text = "Vik became a Sel citizen when the Republic of Sel was founded in {} and stayed one until union in 1990."
    assert verdict(citizen, text.format(1949)) == "right"
    assert verdict(citizen, text.format(1950)) == "wrong"
    # an event with no change before "when" stays an event: no start is stated
    assert (
        verdict(citizen, "Vik lived in the Republic of Sel when it was founded in 1949 and stayed until 1990.")
        == "undecided"  # the start's year is written, untied: never right
    )


PINE = q(
    answers=("Pine United",),
    question="Which team did Ari Dale play for in 2012?",
    S_star=(Triple("Ari Dale", "playsFor", "Pine United", "2012", "2013"),),
    time_refs=refs(("start", "2012"), ("end", "2013")),
)


def test_a_stay_into_a_year_ends_in_that_year() -> None:
    assert verdict(PINE, "Dale joined Pine United in 2012 and stayed into 2013.") == "right"
    assert verdict(PINE, "Dale joined Pine United in 2012 and stayed into 2014.") == "wrong"
    # "moved into" is no stay: it states no end
    assert verdict(PINE, "Dale joined Pine United in 2012 and moved into coaching in 2014.") == "wrong"


def test_a_step_up_to_the_next_side_is_its_start() -> None:
    step = q(
        answers=("Tarn national under-18 team",),
        question="After Ivo Rell left the Tarn national under-17 team, which team did Ivo Rell play for next?",
        S_star=(Triple("Ivo Rell", "playsFor", "Tarn national under-18 team", "1991", None),),
        S_anchor=(Triple("Ivo Rell", "playsFor", "Tarn national under-17 team", "1990", "1991"),),
        time_refs=(
            {"which": "end", "value": "1991", "of": "anchor"},
            {"which": "start", "value": "1991", "of": "answer"},
        ),
    )
    assert verdict(step, "Rell left the U-17s in 1991 and stepped up to the U-18s the same year.") == "right"
    # "stepped down" stays an end: no start of the U-18s is stated
    # (the start's year is written, untied: undecided, never right)
    assert verdict(step, "Rell left the U-17s in 1991 and stepped down from the U-18s the same year.") == "undecided"


def test_a_term_that_ran_past_a_year_does_not_end_there() -> None:
    term = q(
        answers=("Eva Lund",),
        question="Who was mayor of Pell in 2011?",
        S_star=(Triple("Pell", "mayor", "Eva Lund", "2010", "2018"),),
        time_refs=refs(("start", "2010"), ("end", "2018")),
    )
    assert verdict(term, "Eva Lund was mayor of Pell from 2010; her term ran past 2016 and ended in 2018.") == "right"
    assert verdict(term, "Eva Lund was mayor of Pell from 2010; her term ran until 2016 and ended in 2018.") == "wrong"


def test_a_bracket_naming_another_state_after_a_date_makes_it_cite_only() -> None:
    town = q(
        answers=("Arlen Empire",),
        question="Which country was Tovin part of in 1733?",
        S_star=(Triple("Tovin", "country", "Arlen Empire", "1721", "1917"),),
        time_refs=refs(("start", "1721"), ("end", "1917")),
    )
    others = ("Tsardom of Arlen",)
    text = (
        "Tovin came under Arlen rule in 1654{}, which became the Arlen Empire in 1721. Tovin stayed in it until 1917."
    )
    assert verdict(town, text.format(" (Tsardom of Arlen)"), others) == "right"
    # without the bracket the year is the empire's own start, and wrong
    assert verdict(town, text.format(""), others) == "wrong"
    # a bracket that names the fact's own entity glosses nothing away
    assert verdict(town, text.format(" (Arlen Empire)"), others) == "wrong"


def test_a_bracket_between_a_ranges_dates_is_a_gloss_of_the_first() -> None:
    town = q(
        answers=("Bezirk Nord",),
        question="In which district was Velden located in 1883?",
        S_star=(Triple("Velden", "locatedIn", "Bezirk Nord", "1871", "1920"),),
        time_refs=refs(("start", "1871"), ("end", "1920")),
    )
    text = "From 1871 (Treaty of Lyon) to {}, Velden was in Bezirk Nord; before that in Mosel."
    assert verdict(town, text.format(1920), ("Mosel", "Treaty of Lyon")) == "right"
    assert verdict(town, text.format(1921), ("Mosel", "Treaty of Lyon")) == "wrong"


def test_a_territory_that_passed_from_one_state_to_another_starts_with_the_second() -> None:
    town = q(
        answers=("Dual Realm",),
        question="In 1893, which country was Sava part of?",
        S_star=(Triple("Sava", "country", "Dual Realm", "1878", "1918"),),
        time_refs=refs(("start", "1878"), ("end", "1918")),
    )
    text = "Sava passed from Ottoman rule to the Dual Realm in {} and stayed part of the Dual Realm until 1918."
    assert verdict(town, text.format(1878)) == "right"
    assert verdict(town, text.format(1879)) == "wrong"


def test_a_nordic_club_word_makes_the_town_word_name_the_club() -> None:
    move = q(
        answers=("Arden Boldklub",),
        question="Which team did Lise Holm join in 2000?",
        S_star=(Triple("Lise Holm", "playsFor", "Arden Boldklub", "2000", "2001"),),
        time_refs=refs(("start", "2000")),
    )
    assert (
        verdict(move, "Lise Holm played for Voss from 1997 to 1999 and signed for Arden in 2000.", ("Voss",)) == "right"
    )
    assert (
        verdict(move, "Lise Holm played for Voss from 1997 to 1999 and signed for Arden in 2002.", ("Voss",)) == "wrong"
    )


def test_french_entered_and_left_and_a_spanish_range_between_two_years() -> None:
    school = q(
        answers=("no",),
        question="Did it still hold in 1887 that Paul Rey was educated at Lycée Corot?",
        S_star=(Triple("Paul Rey", "educatedAt", "Lycée Corot", "1883", "1886"),),
        time_refs=refs(("end", "1886")),
    )
    fr = "Non. Paul Rey est entré au Lycée Corot en 1883 et en est sorti en {}, après le bac ; en 1887, plus."
    assert verdict(school, fr.format(1886)) == "right"
    assert verdict(school, fr.format(1885)) == "wrong"
    es = "No. Paul Rey estudió en el Lycée Corot entre 1883 y {}; en 1887 ya no estaba allí."
    assert verdict(school, es.format(1886)) == "right"
    assert verdict(school, es.format(1885)) == "wrong"


def test_entre_y_and_zwischen_und_read_as_a_range() -> None:
    for text in ("jugó allí entre 1993 y 1996", "war zwischen 1993 und 1996 dort", "entre 1993 et 1996"):
        found = extract_times(english_dates(text))
        assert [(m.kind, str(m.interval.start), str(m.interval.end)) for m in found] == [("range", "1993", "1996")]
    # "entre" before no year is left alone
    assert english_dates("entre amigos y 1996") == "entre amigos y 1996"


# Oda Lunde was in the Green League from 1990 to 2004, when it merged into another party
LEAGUE = q(
    answers=("Green League",),
    question="Was Oda Lunde still in the Green League in 2000?",
    S_star=(Triple("Oda Lunde", "memberOf", "Green League", "1990", "2004"),),
    time_refs=({"which": "end", "value": "2004", "of": "answer"},),
)


def test_a_bracketed_gloss_inside_an_until_event_keeps_the_event_the_stays_end() -> None:
    text = "Yes: Lunde was in the League from 1990 until it merged into the Forward Alliance (FA) in {}."
    assert verdict(LEAGUE, text.format(2004), ("Forward Alliance",)) == "right"
    # a shifted end is never right
    assert verdict(LEAGUE, text.format(2005), ("Forward Alliance",)) != "right"


# Veld was in Kora County from 1950 to 1961
COUNTY = q(
    answers=("Kora County",),
    question="In which administrative unit was Veld located in 1955?",
    S_star=(Triple("Veld", "locatedIn", "Kora County", "1950", "1961"),),
    time_refs=refs(("start", "1950"), ("end", "1961")),
)


def test_the_names_of_a_when_clause_between_dashes_own_no_date() -> None:
    text = "Veld was part of Kora County from 1950 — when the old Tarn Province was split up — until {}."
    assert verdict(COUNTY, text.format(1961), ("Tarn Province",)) == "right"
    assert verdict(COUNTY, text.format(1962), ("Tarn Province",)) == "wrong"
    # the swapped end: a date that is the start stays wrong
    assert (
        verdict(
            COUNTY,
            "Veld was part of Kora County from 1961 — when the old Tarn Province was split up — until 1950.",
            ("Tarn Province",),
        )
        != "right"
    )


# Dorn was part of the Kingdom of Mera from 1620 to 1790
MERA = q(
    answers=("Kingdom of Mera",),
    question="Which country was Dorn part of in 1700?",
    S_star=(Triple("Dorn", "partOf", "Kingdom of Mera", "1620", "1790"),),
    time_refs=refs(("start", "1620"), ("end", "1790")),
)


def test_a_stay_there_until_an_event_in_the_passive_ends_at_the_event() -> None:
    text = (
        "After the Treaty of Lund in 1620, Dorn came under the Kingdom of Mera, and it stayed there until the Republic"
        " of Vess was proclaimed in {}."
    )
    assert verdict(MERA, text.format(1790), ("Republic of Vess", "Treaty of Lund")) == "right"
    # a shifted end is never right
    assert verdict(MERA, text.format(1791), ("Republic of Vess", "Treaty of Lund")) != "right"


# Ana Rey played for Vora FC from 1987 to 1992
VORA = q(
    answers=("Vora FC",),
    question="Which team did Ana Rey play for in 1990?",
    S_star=(Triple("Ana Rey", "playsFor", "Vora FC", "1987", "1992"),),
    time_refs=refs(("start", "1987"), ("end", "1992")),
)


def test_a_bracketed_year_refines_the_decade_before_it() -> None:
    text = "Ana Rey played for Vora FC from the late 1980s ({}) up to 1992."
    assert verdict(VORA, text.format(1987)) == "right"
    # a shifted year inside the decade is the start it states: wrong
    assert verdict(VORA, text.format(1988)) == "wrong"
    # a year outside the decade refines nothing: never right
    assert verdict(VORA, text.format(1991)) != "right"
