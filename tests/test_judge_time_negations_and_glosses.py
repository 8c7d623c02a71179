"""Careful time judging, rules for kinds of false reject and false accept that recur across blind sets. A negated
"until" ("didn't join X until 2012") dates the clause's event, not an end, and a call-up is a start; a dash after a
year that opens a count or a sum ("2015 — 29 years") is no range; a move's source or purpose named after its date
("arrived in 2012 from Skeid") owns no date; "on reflection" sets aside what came before it; "spent 2013 and 2014" is
a stay's range; a person named after a kin noun or a succession ("his first wife Ruth Lane") is no antecedent of a
later "his"; a possessor in an "after" adjunct ("after Jan Berk's dismissal") owns no date of the clause; "..., and
remained so until X was carved out in 1944" ends the clause's stay; a kin possessor ("Rita Vale's husband, Tom Vale,")
narrows no fact; "the very next day" is the next day; a stint that "began and ended on D" is a one-day term;
"staying to 1997" is a stay's end; "switched to X in D" is X's start. Each rule with a trap of the same shape that
must not be accepted."""

from __future__ import annotations

from chronoqa.records import Question, Triple
from time_verdicts import q, verdict

# Piet Lund left Harbour FC in 2009; Ivo Marsh joined Harbour FC in 2012 (the data knows no end)
HARBOUR = q(
    answers=("yes",),
    question="Is it true that Piet Lund left Harbour FC before Ivo Marsh joined Harbour FC?",
    S_star=(Triple("Piet Lund", "playsFor", "Harbour FC", "2006", "2009"),),
    S_anchor=(Triple("Ivo Marsh", "playsFor", "Harbour FC", "2012", None),),
    time_refs=({"which": "end", "value": "2009", "of": "answer"}, {"which": "start", "value": "2012", "of": "anchor"}),
)


def test_a_negated_until_dates_the_clauses_start() -> None:
    assert verdict(
        HARBOUR, "Yes. Lund's spell at Harbour ended in 2009; Ivo Marsh didn't join Harbour until 2012."
    ) == ("right")
    assert verdict(HARBOUR, "Yes. Lund left Harbour in 2009, and it was not until 2012 that Marsh joined them.") == (
        "right"
    )
    # the negated clause's own start, stated wrong, is still wrong
    assert verdict(HARBOUR, "Yes. Lund left Harbour in 2009; Ivo Marsh didn't join Harbour until 2011.") == "wrong"
    # an "until" with no negation is still an end: Lund "stayed until 2012" contradicts his 2009 end
    assert verdict(HARBOUR, "Yes. Lund stayed at Harbour until 2012; Ivo Marsh joined Harbour in 2012.") == "wrong"


# Jan Wisła played for Poland from 2006 to 2008; Adam Nowy from 1991 to 1999
POLAND = q(
    answers=("no",),
    question="Is it true that Jan Wisła joined Poland before Adam Nowy left Poland?",
    S_star=(Triple("Jan Wisła", "playsFor", "Poland national team", "2006", "2008"),),
    S_anchor=(Triple("Adam Nowy", "playsFor", "Poland national team", "1991", "1999"),),
    time_refs=({"which": "start", "value": "2006", "of": "answer"}, {"which": "end", "value": "1999", "of": "anchor"}),
)


def test_a_first_call_up_is_the_sides_start() -> None:
    text = "No. Adam Nowy's Poland career ran 1991–1999, whereas Wisła didn't win his first call-up until 2006."
    assert verdict(POLAND, text) == "right"
    assert (
        verdict(POLAND, "No. Adam Nowy played for Poland from 1991 to 1999. Jan Wisła won his first call-up in 2006.")
        == "right"
    )
    # another year for the call-up is wrong
    assert (
        verdict(POLAND, "No. Adam Nowy played for Poland from 1991 to 1999. Jan Wisła won his first call-up in 2005.")
        == "wrong"
    )


# Ana Roth worked at Delft Institute from 1986 to 2015
DELFT = q(
    answers=("29 years",),
    question="How many years passed between when Ana Roth started and stopped working at Delft Institute?",
    S_star=(Triple("Ana Roth", "worksAt", "Delft Institute", "1986", "2015"),),
    time_refs=({"which": "start", "value": "1986", "of": "answer"}, {"which": "end", "value": "2015", "of": "answer"}),
)


def test_a_count_or_a_sum_after_a_dash_is_no_range_to_a_clipped_year() -> None:
    # "2015 — 29 years" is the year 2015 and a count, not the range 2015–2029
    assert verdict(DELFT, "Ana Roth joined Delft Institute in 1986 and stayed until 2015 — 29 years.") == "right"
    assert verdict(DELFT, "Ana Roth joined Delft Institute in 1986 and left in 2015 — 2015 − 1986 = 29 years.") == (
        "right"
    )
    # the year before the dash is still held to the data
    assert verdict(DELFT, "Ana Roth joined Delft Institute in 1986 and stayed until 2014 — 28 years.") == "wrong"
    # a real range after a dash is still a range: a start of 2015 contradicts the data's 1986
    assert verdict(DELFT, "Ana Roth worked at Delft Institute 2015 — 2029.") == "wrong"


# Tom Vik played for Bergen SK from 2013 to 2014, then joined Aarhus FC in 2015 (the question's anchor)
BERGEN = q(
    answers=("Bergen SK",),
    question="Which team did Tom Vik play for two years before Tom Vik joined Aarhus FC?",
    S_star=(Triple("Tom Vik", "playsFor", "Bergen SK", "2013", "2014"),),
    S_anchor=(Triple("Tom Vik", "playsFor", "Aarhus FC", "2015", None),),
    time_refs=({"which": "start", "value": "2015", "of": "anchor"},),
)


def test_a_moves_source_or_purpose_after_its_date_owns_no_date() -> None:
    # "arrived in 2012 from Skeid": the start is Bergen's, held to the data (2013): wrong
    text = "Vik joined Aarhus FC in 2015; in 2013 he was at Bergen SK, where he had arrived in 2012 from Skeid."
    assert verdict(BERGEN, text) == "wrong"
    purpose = "Vik joined Aarhus FC in 2015. He had moved to Bergen SK in 2012 to play for Ola Berg."
    assert verdict(BERGEN, purpose) == "wrong"
    # the right start, with the same source: right
    right = "Vik joined Aarhus FC in 2015; in 2013 he was at Bergen SK, where he had arrived in 2013 from Skeid."
    assert verdict(BERGEN, right) == "right"
    # a name after the date that is no source (no "from"): the date may be that name's, it contradicts nothing
    assert verdict(BERGEN, "Vik joined Aarhus FC in 2015. Bergen SK signed him in 2012 with Skeid.") != "wrong"


# Eva Lind received the Kessler Prize in 2013
PRIZE = q(
    answers=("2013",),
    question="When did Eva Lind receive the Kessler Prize?",
    S_star=(Triple("Eva Lind", "wonPrize", "Kessler Prize", "2013", "2013"),),
    time_refs=({"which": "start", "value": "2013", "of": "answer"},),
)


def test_a_self_correction_on_reflection_is_what_the_reply_states() -> None:
    # the corrected year is the one stated: wrong
    text = (
        "Eva Lind received the Kessler Prize in 2013. Hmm, on reflection I think the Kessler Prize was actually 2007."
    )
    assert verdict(PRIZE, text) == "wrong"
    # corrected the other way, onto the data's year: right
    back = "Eva Lind received the Kessler Prize in 2007. On further reflection, she received the Kessler Prize in 2013."
    assert verdict(PRIZE, back) == "right"


def test_two_years_a_stay_spent_are_its_range() -> None:
    # Lee Park was at Astra FC in 2013 only; the question's anchor is his start at Polonia in 2010
    def astra(start: str, end: str) -> Question:
        return q(
            answers=("Astra FC",),
            question="Which team did Lee Park play for three years after Lee Park joined Polonia?",
            S_star=(Triple("Lee Park", "playsFor", "Astra FC", start, end),),
            S_anchor=(Triple("Lee Park", "playsFor", "Polonia", "2010", "2012"),),
            time_refs=({"which": "start", "value": "2010", "of": "anchor"},),
        )

    text = (
        "Lee Park joined Polonia in 2010 and stayed through 2012, then went to Astra FC, where he spent 2013 and 2014."
    )
    # "spent 2013 and 2014" is the stay 2013–2014: wrong for a stay of 2013 alone, right for 2013–2014
    assert verdict(astra("2013", "2013"), text) == "wrong"
    assert verdict(astra("2013", "2014"), text) == "right"


# Tom Hale was married to Ada Fox from 1990 until his death in 1999
HALE = q(
    answers=("Ada Fox",),
    question="Who was Tom Hale married to during 1995?",
    S_star=(Triple("Ada Fox", "isMarriedTo", "Tom Hale", "1990", "1999"),),
    time_refs=({"which": "start", "value": "1990", "of": "answer"}, {"which": "end", "value": "1999", "of": "answer"}),
)
# Ana Moss held office from 2007 until her death in 2010 (her predecessor, Olu Bako, is no entity of the release)
MOSS = q(
    answers=("Ana Moss",),
    question="Who held the office of President of Nubia in 2008?",
    S_star=(Triple("Ana Moss", "holdsPosition", "President of Nubia", "2007", "2010"),),
    time_refs=({"which": "start", "value": "2007", "of": "answer"}, {"which": "end", "value": "2010", "of": "answer"}),
)


def test_a_person_named_after_a_kin_noun_or_a_succession_is_no_antecedent_of_his() -> None:
    kin = "Tom Hale married Ada Fox in 1990, after the death of his first wife Ruth Lane, and they were together until"
    assert verdict(HALE, kin + " his death in 1999.", ("Ruth Lane",)) == "right"
    assert verdict(HALE, kin + " his death in 1998.", ("Ruth Lane",)) == "wrong"
    moss = "Ana Moss took office in 2007 after succeeding Olu Bako. Her presidency ended with her death in "
    assert verdict(MOSS, moss + "2010.", ("Olu Bako",)) == "right"
    assert verdict(MOSS, moss + "2011.", ("Olu Bako",)) == "wrong"
    # a person named as the subject stays the antecedent: the death is Bako's, not Moss's end
    bako = (
        "Ana Moss took office in 2007. Olu Bako had led the country before her; his term ended with his death in 2010."
    )
    assert verdict(MOSS, bako, ("Olu Bako",)) == "undecided"  # Moss's end year is written, untied: never right


# Ivo Kral was acting prime minister of Nubia from 24 February 2004 to 5 March 2004 (Jan Berk before him)
KRAL = q(
    answers=("Ivo Kral",),
    question="Who was the acting Prime Minister of Nubia whose term ended on 5 March 2004?",
    granularity="day",
    S_star=(Triple("Ivo Kral", "holdsPosition", "Prime Minister of Nubia", "2004-02-24", "2004-03-05"),),
    time_refs=(
        {"which": "start", "value": "2004-02-24", "of": "answer"},
        {"which": "end", "value": "2004-03-05", "of": "answer"},
    ),
)


def test_a_possessor_in_an_after_adjunct_owns_no_date_of_the_clause() -> None:
    berk = ("Jan Berk",)
    text = "Ivo Kral was acting PM after Jan Berk's dismissal, from 24 February 2004 until 5 March 2004."
    assert verdict(KRAL, text, berk) == "right"
    between = "Ivo Kral was acting PM from 24 February 2004, after Jan Berk's dismissal, until 5 March 2004."
    assert verdict(KRAL, between, berk) == "right"
    # the subject's own date, stated wrong, is still wrong
    assert verdict(KRAL, between.replace("5 March", "15 March"), berk) == "wrong"
    # a date right after the adjunct's event is the event's: "Berk's dismissal on D" states no start of Kral's
    event = "Ivo Kral was acting PM after Jan Berk's dismissal on 24 February 2004."
    assert verdict(KRAL, event, berk) != "right"


# Velen belonged to Nordheim Oblast from 1930 to 1944
VELEN = q(
    answers=("14 years",),
    question="How long after Velen became part of Nordheim Oblast did Velen cease to be part of Nordheim Oblast?",
    S_star=(Triple("Velen", "locatedIn", "Nordheim Oblast", "1930", "1944"),),
    time_refs=({"which": "start", "value": "1930", "of": "answer"}, {"which": "end", "value": "1944", "of": "answer"}),
)


def test_an_until_event_after_a_clause_ends_that_clauses_stay() -> None:
    others = ("Sudheim Oblast",)
    text = "Velen became part of Nordheim Oblast in 1930, when the okrugs were dissolved, and remained so until "
    assert verdict(VELEN, text + "Sudheim Oblast was carved out in 1944.", others) == "right"
    # the stay's end stated wrong is never accepted (bound through the until-clause, it may be the event's: undecided)
    assert verdict(VELEN, text + "Sudheim Oblast was carved out in 1945.", others) != "right"
    # a name between the clause and the "until" keeps the event's date apart: no end of Velen's stated
    apart = (
        "Velen became part of Nordheim Oblast in 1930; Sudheim Oblast remained so until Ostheim was carved out in 1944."
    )
    assert verdict(VELEN, apart, (*others, "Ostheim")) != "right"


# Tom Vale was married to Rita Vale from 1891 to 1923 and a senator from 1915 to 1921
VALE = q(
    answers=("1915",),
    question="In what year did the spouse of Rita Vale as of 1908 take office as senator?",
    S_star=(
        Triple("Tom Vale", "isMarriedTo", "Rita Vale", "1891", "1923"),
        Triple("Tom Vale", "holdsPosition", "Senator of Nubia", "1915", "1921"),
    ),
    time_refs=({"which": "start", "value": "1915", "of": "answer"},),
)


def test_a_kin_possessor_narrows_no_fact() -> None:
    assert verdict(VALE, "Rita Vale's husband, Tom Vale, entered the Nubian senate in 1915 (serving until 1921).") == (
        "right"
    )
    assert verdict(VALE, "Rita Vale's husband, Tom Vale, entered the Nubian senate in 1916.") == "wrong"
    # both names as the clause's own pair still narrow to their fact: a marriage in 1915 is wrong (data: 1891)
    assert verdict(VALE, "Rita Vale and Tom Vale married in 1915.") == "wrong"


# Hans Kohl was president of Nubia from 1 July 2004 (Jan Rau before him)
KOHL = q(
    answers=("Hans Kohl",),
    question="Who was the first president of Nubia whose term began after 23 April 2003?",
    granularity="day",
    S_star=(Triple("Hans Kohl", "holdsPosition", "President of Nubia", "2004-07-01", "2010-05-31"),),
    time_refs=({"which": "start", "value": "2004-07-01", "of": "answer"},),
)


def test_the_very_next_day_is_the_next_day() -> None:
    text = "Jan Rau's term ended on {}, and his successor Hans Kohl was sworn in the very next day."
    assert verdict(KOHL, text.format("30 June 2004"), ("Jan Rau",)) == "right"
    assert verdict(KOHL, text.format("29 June 2004"), ("Jan Rau",)) == "wrong"


# Ola Berg acted as president of Nubia on 8 July 2010 only; Ivo Sand acted from 10 April 2010 to 8 July 2010
ACTING = q(
    answers=("Ola Berg", "Ivo Sand"),
    question="Who were the acting presidents of Nubia whose terms ended on 8 July 2010?",
    granularity="day",
    S_star=(
        Triple("Ola Berg", "holdsPosition", "President of Nubia", "2010-07-08", "2010-07-08"),
        Triple("Ivo Sand", "holdsPosition", "President of Nubia", "2010-04-10", "2010-07-08"),
    ),
    time_refs=(
        {"answer": "Ivo Sand", "which": "start", "value": "2010-04-10"},
        {"answer": "Ivo Sand", "which": "end", "value": "2010-07-08"},
        {"answer": "Ola Berg", "which": "start", "value": "2010-07-08"},
        {"answer": "Ola Berg", "which": "end", "value": "2010-07-08"},
    ),
)


def test_a_term_that_began_and_ended_on_one_day() -> None:
    sand = "Ivo Sand was acting president from 10 April 2010 to 8 July 2010. "
    assert verdict(ACTING, sand + "Ola Berg's stint began and ended on 8 July 2010.") == "right"
    # another day is wrong
    assert verdict(ACTING, sand + "Ola Berg's stint began and ended on 9 July 2010.") == "wrong"


# Rui Nunes played for Vila FC from 1996 to 1997
NUNES = q(
    answers=("yes",),
    question="Yes or no: Rui Nunes joined Vila FC before 2000?",
    S_star=(Triple("Rui Nunes", "playsFor", "Vila FC", "1996", "1997"),),
    time_refs=({"which": "start", "value": "1996", "of": "answer"},),
)


def test_a_stay_to_a_year_is_its_end() -> None:
    assert verdict(NUNES, "Yes. Rui Nunes joined Vila FC in 1996 (staying to 1997).") == "right"
    # an end the data does not give is wrong
    assert verdict(NUNES, "Yes. Rui Nunes joined Vila FC in 1996 (staying to 1999).") == "wrong"
    # "to" after a move names its destination, no end: "moved to Vila FC in 1996"
    assert verdict(NUNES, "Yes. Rui Nunes moved to Vila FC in 1996.") == "right"


# Kay Strand was a member of the Unity Party from 1986 to 2006
STRAND = q(
    answers=("20 years",),
    question="How many years after Kay Strand joined the Unity Party did Kay Strand leave the Unity Party?",
    S_star=(Triple("Kay Strand", "memberOf", "Unity Party", "1986", "2006"),),
    time_refs=({"which": "start", "value": "1986", "of": "answer"}, {"which": "end", "value": "2006", "of": "answer"}),
)


def test_a_switch_to_a_side_is_its_start() -> None:
    # the side by another name than its label: the date is the subject's membership's start, not an end
    assert verdict(STRAND, "Kay Strand switched to the Unionists in 1986 and left the party in 2006.") == "right"
    assert verdict(STRAND, "Kay Strand switched to the Unionists in 1987 and left the party in 2006.") == "wrong"
