"""Careful time judging: whose date a clause states and at which end. Another spell rejoined, a country's age-group
side, a club named by the words before its city, a cue past a connector, an after-cue that opens a bracket, a "when"
aside, a relative-clause aside, a name the release does not know inside an aside, a wordy "from ... until" range,
a move that ends the spell before it, a date-first clause whose object is someone else, a clause going on with
"and" from a firm date, a name after ", with", and a where-clause stay at a place. Each rule with a trap of
the same shape that must stay wrong."""

from __future__ import annotations

from chronoqa.records import Question, Triple
from time_verdicts import q, verdict


def anchored(club: str, spells: tuple[tuple[str, str], ...], anchor: str, start: str) -> Question:
    """Which team Ivo Marek played for the year before he joined ``anchor``; the answer's spells at ``club``."""
    star, *stale = (Triple("Ivo Marek", "playsFor", club, a, b) for a, b in spells)
    return q(
        answers=(club,),
        question=f"Which team did Ivo Marek play for one year before Ivo Marek joined {anchor}?",
        S_star=(star,),
        S_stale=tuple(stale),
        S_anchor=(Triple("Ivo Marek", "playsFor", anchor, start, "2003"),),
        time_refs=({"which": "start", "value": start, "of": "anchor"},),
    )


def test_a_rejoined_spell_starts_where_its_data_starts() -> None:
    two = anchored("FK Lavra Sela", (("1996", "2001"), ("1990", "1995")), "FK Dolina", "2001")
    clubs = ("FK Lavra Sela", "FK Dolina", "Partizan Gora")
    text = "Marek had two spells at Lavra Sela. After a year at Partizan Gora he rejoined Lavra in {} and stayed until"
    text += " moving to Dolina in 2001, so in 2000 he was a Lavra player."
    assert verdict(two, text.format(1996), clubs) == "right"
    # the second spell began in 1996: a rejoin dated 1995 (the first spell's end) is wrong
    assert verdict(two, text.format(1995), clubs) == "wrong"


def test_a_countrys_age_group_side_names_the_team() -> None:
    youth = anchored("Nordia national under-20 football team", (("2002", "2003"),), "Club Vela", "2003")
    known = ("Nordia", "Club Vela")
    text = "Marek was capped by Nordia's U-20s from {} to 2003 and joined Club Vela in 2003, so in 2002 he was a U-20."
    assert verdict(youth, text.format(2002), known) == "right"
    # the team's spell began in 2002: a range from 2001 is its date, and wrong
    assert verdict(youth, text.format(2001), known) == "wrong"
    # another age ("U-21s") is no team of the question's: the range dates nothing of it
    assert verdict(youth, text.format(2001).replace("U-20s", "U-21s"), known) == "right"


def test_a_club_is_named_by_its_words_before_the_city_the_release_knows() -> None:
    red = anchored("Blue Star Novigrad", (("1984", "1989"),), "FK Lavra", "1989")
    text = "Marek came through at Blue Star and played there from 1984 to {} before joining Lavra in 1989."
    known = ("Novigrad", "FK Lavra")
    assert verdict(red, text.format(1989), known) == "right"
    assert verdict(red, text.format(1988), known) == "wrong"


def test_a_persons_given_names_do_not_name_another_person() -> None:
    chair = q(
        answers=("Ana Maria Costa",),
        source="table",
        question="Who chaired the Nordia council whose term began in 1994 and ended in 2000?",
        S_star=(Triple("Nordia council, chair", "name", "Ana Maria Costa", "1994", "2000"),),
        time_refs=(
            {"which": "start", "value": "1994", "answer": "Ana Maria Costa"},
            {"which": "end", "value": "2000", "answer": "Ana Maria Costa"},
        ),
    )
    known = ("Ana Maria Pires", "Costa")
    assert verdict(chair, "Ana Maria Costa chaired it from 1994 to 2000.", known) == "right"
    # her namesake's dates are not hers, though "Costa" is a place the release knows
    assert verdict(chair, "Ana Maria Pires chaired it from 1994 to 2000.", known) != "right"


# Kai Lund's wife in 1990 was Mira Holt (married 1984-1995); she received the Vela Prize in 1986
SPOUSE_PRIZE = q(
    answers=("1986",),
    answer_type="time",
    question="In which year did the spouse of Kai Lund as of 1990 receive the Vela Prize?",
    S_star=(
        Triple("Kai Lund", "spouse", "Mira Holt", "1984", "1995"),
        Triple("Mira Holt", "hasWonPrize", "Vela Prize", "1986", "1986"),
    ),
    time_refs=({"which": "start", "value": "1986", "of": "answer"},),
)


def test_a_cue_in_a_bracket_after_the_date_is_the_brackets_own() -> None:
    text = "Kai Lund's wife in 1990 was Mira Holt (married {}–1995). She received the Vela Prize in 1986."
    assert verdict(SPOUSE_PRIZE, text.format(1984)) == "right"
    # a cue after the date outside a bracket is still the date's: a wedding in 1983 is wrong
    assert verdict(SPOUSE_PRIZE, "In 1983 Kai Lund married Mira Holt. She received the Vela Prize in 1986.") == "wrong"


def test_a_seat_taken_with_a_word_between_is_a_start() -> None:
    senator = q(
        answers=("Olaf Berg",),
        question="Who took office as senator of Nordia in 1801?",
        S_star=(Triple("Olaf Berg", "positionHeld", "senator of Nordia", "1801", "1809"),),
        time_refs=({"which": "start", "value": "1801", "of": "answer"},),
    )
    assert verdict(senator, "Olaf Berg took his Senate seat in 1801.") == "right"
    assert verdict(senator, "Olaf Berg took his Senate seat in 1802.") == "wrong"


# Lina Roos was First Lady of Nordia from 2003 to 2007, married to Per Roos from 1975 to 2010
FIRST_LADY = q(
    answers=("yes",),
    question="Is it true that in 2004 the spouse of Per Roos was First Lady of Nordia?",
    S_star=(
        Triple("Per Roos", "spouse", "Lina Roos", "1975", "2010"),
        Triple("Lina Roos", "positionHeld", "First Lady of Nordia", "2003", "2007"),
    ),
    time_refs=({"which": "end", "value": "2007", "of": "answer"},),
)


def test_a_when_clause_between_commas_is_an_aside() -> None:
    text = "Lina Roos was First Lady of Nordia from 2003, when her husband Per Roos took office, until {}."
    assert verdict(FIRST_LADY, text.format(2007), ("Per Roos",)) == "right"
    # the end after the aside is still the office's: a wrong year contradicts it
    assert verdict(FIRST_LADY, text.format(2008), ("Per Roos",)) == "wrong"


def test_a_date_in_a_relative_clause_about_the_subject_cites_only() -> None:
    minister = q(
        answers=("2011",),
        answer_type="time",
        question="When did Omar Vik take office as Prime Minister of Nordia?",
        S_star=(Triple("Omar Vik", "positionHeld", "Prime Minister of Nordia", "2011", None),),
        time_refs=({"which": "start", "value": "2011", "of": "answer"},),
    )
    text = "Vik, who had led the opposition since 2004, was sworn in as Prime Minister of Nordia in {}."
    assert verdict(minister, text.format(2011)) == "right"
    assert verdict(minister, text.format(2012)) == "wrong"
    # a clause that names the office itself states its start
    said = "Vik, who became Prime Minister of Nordia in 2004, won again in 2011."
    assert verdict(minister, said) == "wrong"


def test_a_name_the_release_does_not_know_owns_the_date_of_its_own_aside() -> None:
    cornell = q(
        answers=("1985",),
        answer_type="time",
        question="What year did Lu Wen start working at Vela University?",
        S_star=(Triple("Lu Wen", "worksAt", "Vela University", "1985", None),),
        time_refs=({"which": "start", "value": "1985", "of": "answer"},),
    )
    text = "Lu Wen taught at Oster College (from 1982) and at home (Tarn Normal, from 1983) before joining Vela"
    assert verdict(cornell, text + " University in 1985.") == "right"
    # a name in an aside owns no date outside it
    assert verdict(cornell, "Lu Wen (a Tarn Normal alumnus) started at Vela University in 1983.") == "wrong"


def test_a_range_in_words_from_a_date_until_another_starts_at_the_first() -> None:
    town = q(
        answers=("Oster",),
        question="In which administrative unit was Vennik located in 1843?",
        S_star=(Triple("Vennik", "locatedIn", "Oster", "1790", "1968"),),
        time_refs=(
            {"which": "start", "value": "1790", "of": "answer"},
            {"which": "end", "value": "1968", "of": "answer"},
        ),
    )
    text = "Vennik belonged to Oster from the creation of the districts in {} until the 1968 reform."
    assert verdict(town, text.format(1790)) == "right"
    assert verdict(town, text.format(1791)) == "wrong"


def test_a_move_to_the_next_club_ends_the_spell_before_it() -> None:
    qatar = q(
        answers=("Vela SC",),
        question="Which team did Amir Saleh play for in 2005?",
        S_star=(Triple("Amir Saleh", "playsFor", "Vela SC", "2005", "2008"),),
        time_refs=(
            {"which": "start", "value": "2005", "of": "answer"},
            {"which": "end", "value": "2008", "of": "answer"},
        ),
    )
    clubs = ("Vela SC", "Tarn FC", "Oster FC")
    text = "Saleh moved to Vela SC in 2005 and stayed three seasons, before joining Tarn FC in {}."
    assert verdict(qatar, text.format(2008), clubs) == "right"
    assert verdict(qatar, text.format(2009), clubs) == "wrong"
    left = "He joined Vela SC in 2005 from Oster FC and left for Tarn FC in {}, so in 2006 he was there."
    assert verdict(qatar, left.format(2008), clubs) == "right"
    assert verdict(qatar, left.format(2009), clubs) == "wrong"


def test_a_clause_that_opens_with_its_date_is_the_objects() -> None:
    wed = q(
        answers=("Ruth Dale",),
        question="Who was Ralf Orm married to during 1926?",
        S_star=(Triple("Ralf Orm", "spouse", "Ruth Dale", "1924", "1932"),),
        time_refs=(
            {"which": "start", "value": "1924", "of": "answer"},
            {"which": "end", "value": "1932", "of": "answer"},
        ),
    )
    people = ("Ruth Dale", "Hedda Moss")
    text = "Orm married Ruth Dale in 1924; they divorced in 1932, and in 1934 he married {}."
    assert verdict(wed, text.format("Hedda Moss"), people) == "right"
    # a wedding to the fact's own spouse in another year is still wrong
    assert verdict(wed, text.format("Ruth Dale"), people) == "wrong"


# Ida Roth became an International Master in 1996 and a Grandmaster in 1997 (start-only facts)
TITLES = q(
    answers=("International Master",),
    question="Which chess title did Ida Roth receive in the year before Ida Roth received the chess title Grandmaster?",
    S_star=(Triple("Ida Roth", "title", "International Master", "1996", None),),
    S_anchor=(Triple("Ida Roth", "title", "Grandmaster", "1997", None),),
    time_refs=({"which": "start", "value": "1997", "of": "anchor"},),
)


def test_a_lower_case_article_does_not_make_a_fact_entity_anothers() -> None:
    film = ("The Grandmaster",)  # a film the release knows
    text = "Roth became an International Master in 1996 and was awarded the Grandmaster title in {}."
    assert verdict(TITLES, text.format(1997), film) == "right"
    assert verdict(TITLES, text.format(1998), film) == "wrong"
    # the film's own date (the title case keeps "The") is not the title's
    assert verdict(TITLES, "Roth was a Grandmaster from 1997. The Grandmaster was released in 2013.", film) == "right"


def test_a_date_restated_as_the_same_year_is_no_list() -> None:
    club = q(
        answers=("Grandmaster",),
        question="Which chess title did Ida Roth receive at the time Ida Roth joined SK Lavra?",
        S_star=(Triple("Ida Roth", "title", "Grandmaster", "2000", None),),
        S_anchor=(Triple("Ida Roth", "playsFor", "SK Lavra", "2000", "2004"),),
        time_refs=({"which": "start", "value": "2000", "of": "anchor"},),
    )
    text = "Roth joined SK Lavra in {}, the same year she was awarded the Grandmaster title."
    assert verdict(club, text.format(2000)) == "right"
    assert verdict(club, text.format(2001)) == "wrong"


def _youth(starts: tuple[str, str]) -> Question:
    return q(
        answers=("Nordia national under-21 football team",),
        question="Which national team did Ivo Marek play for in 2010?",
        S_star=(Triple("Ivo Marek", "playsFor", "Nordia national under-21 football team", *starts),),
        time_refs=({"which": "start", "value": starts[0], "of": "answer"}, {"which": "end", "value": starts[1]}),
    )


def test_two_years_that_follow_on_are_a_spell_and_an_age_alone_names_the_team() -> None:
    text = "Marek was capped at U-21 level in 2010 and 2011; by 2014 he had moved on."
    assert verdict(_youth(("2010", "2011")), text) == "right"
    # the data has one year only: the pair's first year is a start that is none of the data's
    assert verdict(_youth(("2011", "2011")), text) == "wrong"
    # a longer list stays a bare list: it states no start or end
    listed = "Marek was capped at U-21 level in 2009, 2010 and 2011."
    assert verdict(_youth(("2010", "2011")), listed) != "right"


def test_a_clause_going_on_with_and_from_the_same_owners_firm_date_states_its_fact() -> None:
    state = q(
        answers=("Federal Nordia",),
        question="Which country was Nordia part of when Ivo Marek became head of government of Nordia?",
        S_star=(Triple("Nordia", "country", "Federal Nordia", "1949", "1990"),),
        S_anchor=(Triple("Nordia", "headOfGovernment", "Ivo Marek", "1962", "1978"),),
        time_refs=({"which": "start", "value": "1962", "of": "anchor"},),
    )
    known = ("Nordia", "Federal Nordia", "Ivo Marek")
    then = " Nordia was then part of Federal Nordia (1949–1990)."
    text = "Ivo Marek became Minister-President of Nordia in 1962 and led the state until {}." + then
    assert verdict(state, text.format(1978), known) == "right"
    # the anchor's term ended in 1978: "until 1974" is its end, though an unknown title stands before 1962
    assert verdict(state, text.format(1974), known) == "wrong"
    # a party the release does not know, led in the clause that goes on, may own the date: it cites only
    party = "Ivo Marek became Minister-President of Nordia in 1962 and led the Vardar Party until 1974." + then
    assert verdict(state, party, known) == "right"
    # the first date is not firm (the unknown title may own it): the clause going on from it stays a citation
    loose = "Ivo Marek became Minister-President in 1962 and led the state until 1974." + then
    assert verdict(state, loose, known) == "right"


def test_a_name_after_a_comma_and_with_belongs_to_an_aside_not_to_the_range() -> None:
    lavra = anchored("FK Lavra Sela", (("1996", "2001"),), "FK Dolina", "2001")
    clubs = ("FK Lavra Sela", "FK Dolina")
    text = "Marek was in Lavra Sela's first team from {} to 2001, with loans at Vardar and Ostrava in between. He"
    text += " joined Dolina in 2001."
    assert verdict(lavra, text.format(1996), clubs) == "right"
    assert verdict(lavra, text.format(1995), clubs) == "wrong"
    # without the comma the unknown club may be the range's own ("from 1995 to 2001 with Vardar"): it cites only
    assert (
        verdict(
            lavra,
            "Marek was in Lavra Sela's first team and played from 1995 to 2001 with Vardar. He joined Dolina in 2001.",
            clubs,
        )
        == "right"
    )


def test_a_where_clause_right_after_the_place_with_a_range_is_the_persons_stay_there() -> None:
    lavra = anchored("FK Lavra Sela", (("1996", "2001"),), "FK Dolina", "2001")
    clubs = ("FK Lavra Sela", "FK Dolina")
    text = "Marek joined Dolina in 2001. In 2000 he was at Lavra Sela, where he played from {} to 2001, before Dolina."
    assert verdict(lavra, text.format(1996), clubs) == "right"
    assert verdict(lavra, text.format(1995), clubs) == "wrong"
    # a where-clause dating another thing at the place (a point, not a stay) may cite, never contradict
    other = "Marek joined Dolina in 2001. In 2000 he was at Lavra Sela, where he became captain in 1995, before Dolina."
    assert verdict(lavra, other, clubs) == "right"
