"""Careful time judging: a date is bound to the entity its own clause names. A predicate joined by "and" with no
subject of its own ("... after his spell at X (1977–80) and stayed until 1984"), and "it" read as a thing named in an
aside, are the sentence subject's; a call-up or a step up to a side is its start. Each rule with a trap of the same
shape that must stay wrong, or a case the rule must leave alone."""

from __future__ import annotations

from chronoqa.records import Question, Triple
from time_verdicts import q, refs, verdict

# Ivo Brand played for Corvel Rovers 1981-1984; Dunmore Athletic is another club the release knows
CORVEL = q(
    answers=("Corvel Rovers",),
    question="Which team did Ivo Brand play for in 1982?",
    S_star=(Triple("Ivo Brand", "playsFor", "Corvel Rovers", "1981", "1984"),),
    time_refs=refs(("start", "1981"), ("end", "1984")),
)
CLUBS = ("Dunmore Athletic",)


def test_a_predicate_joined_by_and_is_the_subjects_not_a_club_named_before_it() -> None:
    text = "Brand joined Corvel Rovers in 1981 after his spell at Dunmore Athletic (1977–80) and stayed until {}."
    assert verdict(CORVEL, text.format(1984), CLUBS) == "right"
    # the same clause with a wrong end is the subject's wrong end, not the other club's
    assert verdict(CORVEL, text.format(1986), CLUBS) == "wrong"
    text = "Brand joined Corvel Rovers in 1981 after Dunmore Athletic's relegation and played there until {}."
    assert verdict(CORVEL, text.format(1984), CLUBS) == "right"
    assert verdict(CORVEL, text.format(1983), CLUBS) == "wrong"


def test_a_participle_joined_by_and_stays_with_the_phrase_before_it() -> None:
    # "beginning 1977 and ending 1986" is Dunmore's own range: it says nothing of the subject's Corvel spell
    text = "Brand was at Corvel Rovers from 1981 to 1984. "
    text += "Brand played for Dunmore Athletic, beginning 1977 and ending 1986."
    assert verdict(CORVEL, text, CLUBS) == "right"
    # an "and" clause that names its own subject is that subject's
    text = "Brand joined Corvel Rovers in 1981 and stayed until 1984, and Dunmore Athletic folded in 1986."
    assert verdict(CORVEL, text, CLUBS) == "right"


# Lena Ost won the Harlow Medal in 1970 (the answer fact), Piet Rune in 1988 (the anchor)
HARLOW = q(
    answers=("yes",),
    question="Did Lena Ost win the Harlow Medal before Piet Rune won the Harlow Medal?",
    S_star=(Triple("Lena Ost", "hasWonPrize", "Harlow Medal", "1970", None),),
    S_anchor=(Triple("Piet Rune", "hasWonPrize", "Harlow Medal", "1988", None),),
    time_refs=(
        {"which": "start", "value": "1970", "of": "answer"},
        {"which": "start", "value": "1988", "of": "anchor"},
    ),
)


def test_it_for_a_prize_named_in_an_aside_yields_to_the_clauses_subject() -> None:
    text = "Ost received the Harlow Medal in 1970, two years after her Corbin Prize (1968). Rune got it in {}."
    assert verdict(HARLOW, text.format(1988), ("Corbin Prize",)) == "right"
    assert verdict(HARLOW, text.format(1989), ("Corbin Prize",)) == "wrong"


# Tom Vale was in the Norland under-19 team 2001-2003
NORLAND = q(
    answers=("Norland national under-19 football team",),
    question="What year did Tom Vale join the Norland national under-19 football team?",
    S_star=(Triple("Tom Vale", "playsFor", "Norland national under-19 football team", "2001", "2003"),),
    time_refs=refs(("start", "2001")),
)


def test_a_call_up_and_a_step_up_to_a_side_are_its_start() -> None:
    assert verdict(NORLAND, "Vale was called up to the Norland U-19 side in 2001.") == "right"
    assert verdict(NORLAND, "Vale was called up to the Norland U-19 side in 2002.") == "wrong"
    assert verdict(NORLAND, "Vale played for Norland's U-17s before stepping up to the U-19s in 2001.") == "right"
    assert verdict(NORLAND, "Vale played for Norland's U-17s before stepping up to the U-19s in 2000.") == "wrong"


# Ada Voss was married to Karl Linde 1990-1996; "Years" is also a film the release knows
LINDE = q(
    answers=("Karl Linde",),
    question="As of 1993, who was Ada Voss married to?",
    S_star=(Triple("Ada Voss", "isMarriedTo", "Karl Linde", "1990", "1996"),),
    time_refs=refs(("start", "1990"), ("end", "1996")),
)
SPOUSES = (
    "| Spouse | Years |\n|---|---|\n| Tom Ruiz | 1980–1988 |\n| **Karl Linde** | {} |\n\nIn 1993 it was Karl Linde."
)


def test_a_tables_header_names_a_column_not_an_entity() -> None:
    others = ("Years", "Tom Ruiz")
    assert verdict(LINDE, SPOUSES.format("1990–1996"), others) == "right"
    assert verdict(LINDE, SPOUSES.format("1990–1998"), others) == "wrong"


# Ivo Brand played for Halesby from 1986 (the answer) after Athletic Marlow 1981-1984 (the anchor; its name reads
# like a person's, so "he" after it would stand for the club)
HALE = q(
    answers=("Halesby",),
    question="After Ivo Brand left Athletic Marlow, which team did Ivo Brand play for next?",
    S_star=(Triple("Ivo Brand", "playsFor", "Halesby", "1986", "1990"),),
    S_anchor=(Triple("Ivo Brand", "playsFor", "Athletic Marlow", "1981", "1984"),),
    time_refs=(
        {"which": "end", "value": "1984", "of": "anchor"},
        {"which": "start", "value": "1986", "of": "answer"},
    ),
)


def test_a_relative_clause_whose_pronoun_is_the_object_is_its_antecedents() -> None:
    text = "Brand left Athletic Marlow in 1984; the next club on record is Halesby, which he joined in {}."
    assert verdict(HALE, text.format(1986)) == "right"
    assert verdict(HALE, text.format(1985)) == "wrong"


# Ada Voss was First Lady of Norland 2003-2007 (the answer) and married to Karl Linde 1980-2010 (the anchor)
LADY = q(
    answers=("Ada Voss",),
    question="Who did Karl Linde's spouse as of 1990 become in 2003?",
    S_star=(Triple("Ada Voss", "positionHeld", "First Lady of Norland", "2003", "2007"),),
    S_anchor=(Triple("Ada Voss", "isMarriedTo", "Karl Linde", "1980", "2010"),),
    time_refs=refs(("start", "2003")),
)


def test_a_when_clause_times_the_change_before_it_not_its_own_subjects_fact() -> None:
    text = "Ada Voss, married to Karl Linde since 1980, became First Lady when he took office in May {}, and held the "
    text += "role until 2007, when she succeeded him as president."
    # "he took office in 2003" is no wedding of his: it times her start as First Lady
    assert verdict(LADY, text.format(2003)) == "right"
    assert verdict(LADY, text.format(2004)) == "wrong"
    # no clause put under the subject's: the pair's own dates are still held to the data
    assert verdict(
        LADY, "Ada Voss became First Lady in 2003. She married Karl Linde in 1980 and divorced in 2012."
    ) == ("wrong")


def test_a_year_glossed_as_the_year_of_another_change_states_that_change() -> None:
    def wed(linde_start: str) -> Question:
        return q(
            answers=("Tom Ruiz",),
            question="Who was Ada Voss married to two years before Ada Voss married Karl Linde?",
            S_star=(Triple("Ada Voss", "isMarriedTo", "Tom Ruiz", "1970", "1975"),),
            S_anchor=(Triple("Ada Voss", "isMarriedTo", "Karl Linde", linde_start, "1990"),),
            time_refs=({"which": "start", "value": linde_start, "of": "anchor"},),
        )

    text = "Voss married Tom Ruiz in 1970; they divorced in 1975, the year she married Karl Linde."
    assert verdict(wed("1975"), text) == "right"
    # the glossed year is the wedding's: where the data's wedding is a year later, it is not stated
    assert verdict(wed("1976"), text) == "wrong"


# Team Orla held the Pro Tier status 1999-2004
ORLA = q(
    answers=("5 years",),
    question="How long after Team Orla gained the Pro Tier status did Team Orla lose it?",
    S_star=(Triple("Team Orla", "status", "Pro Tier", "1999", "2004"),),
    time_refs=refs(("start", "1999"), ("end", "2004")),
)


def test_a_last_season_named_as_such_is_the_end() -> None:
    text = "Team Orla held the Pro Tier status from 1999; its last season in that tier was {}, after which it became "
    text += "a top team (2005)."
    assert verdict(ORLA, text.format(2004), ("Top Team",)) == "right"
    assert verdict(ORLA, text.format(2003), ("Top Team",)) == "wrong"


def test_until_his_own_move_ends_his_spell_there() -> None:
    def before_halesby(corvel_end: str, halesby_start: str) -> Question:
        return q(
            answers=("Corvel Rovers",),
            question="Which team did Ivo Brand play for in the year before Ivo Brand joined Halesby?",
            S_star=(Triple("Ivo Brand", "playsFor", "Corvel Rovers", "1981", corvel_end),),
            S_anchor=(Triple("Ivo Brand", "playsFor", "Halesby", halesby_start, "1990"),),
            time_refs=({"which": "start", "value": halesby_start, "of": "anchor"},),
        )

    text = "Brand was at Corvel Rovers from 1981 until he joined Halesby in 1985, so in 1984 he was still there."
    assert verdict(before_halesby("1985", "1985"), text) == "right"
    # the move ends the Corvel spell in 1985; the data ends it in 1984
    assert verdict(before_halesby("1984", "1985"), text) == "wrong"
    # another person's move is a handover: a citation of the end, never a contradiction
    text = "Brand was at Corvel Rovers from 1981 until Tom Ruiz joined Halesby in 1985."
    assert verdict(before_halesby("1984", "1985"), text, ("Tom Ruiz",)) == "right"


# Ben Kort lived in Orsk until 1932 (the anchor), then in Tarn 1932-1935 (the answer)
def test_a_moves_destination_after_its_date_starts_when_the_source_ends() -> None:
    def tarn(start: str) -> Question:
        return q(
            answers=("Tarn",),
            question="Where did Ben Kort live immediately after Ben Kort moved away from Orsk?",
            S_star=(Triple("Ben Kort", "livesIn", "Tarn", start, "1935"),),
            S_anchor=(Triple("Ben Kort", "livesIn", "Orsk", "1920", "1932"),),
            time_refs=(
                {"which": "end", "value": "1932", "of": "anchor"},
                {"which": "start", "value": start, "of": "answer"},
            ),
        )

    text = "Kort left Orsk in 1932 for a flat in Tarn, where he lived until 1935."
    assert verdict(tarn("1932"), text) == "right"
    # the move dates Tarn's start as 1932: a data start of 1933 is not stated
    assert verdict(tarn("1933"), text) == "wrong"
    # a reason after "for" names no destination
    # (Tarn's start year is written, untied: undecided, never right)
    reason = "Kort left Orsk in 1932 for health reasons; he lived in Tarn until 1935."
    assert verdict(tarn("1932"), reason) == "undecided"
