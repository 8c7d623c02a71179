"""Careful time judging: how models write a spell's ends and whose dates they are.

A possessor's name right before a club's ("Tallon's Kestrel years were 2006–2009") is two names, each its own; a
year pair joined by an arrow after a name ("Kestrel Town 1995 → 1999") is a spell; an end glossed in brackets after
a start ("from 2001 (to 2004)") closes the range; "first cap 1994, last in 1995" states a side's start and its end; a
sentence's leading word ("Before Antwerp (1973–1977)") is no part of the name after it; a bracketed year after "the
year before that" glosses the relative phrase (cite only); a person named in a comma-set "after X," is no antecedent
of a later "his"; a couple's given name names one of them where both share the surname; and a loose relative phrase
that glosses the date before it ("in 2004, a decade after ...") hides no date. Each rule reads the data's dates as
right and a wrong date, in the same shape, as wrong or undecided, never right.
"""

from __future__ import annotations

from chronoqa.records import Question, Triple
from chronoqa.time.text import extract_times
from time_verdicts import q, refs, verdict


def spell(club: str = "Kestrel Town F.C.", start: str = "2006", end: str = "2009", which: str = "end") -> Question:
    """Whether Rufus Tallon still played for the club after it; the reference is one end of the spell."""
    return q(
        answers=("no",),
        question=f"Did it still hold in 2012 that Rufus Tallon played for {club}?",
        S_star=(Triple("Rufus Tallon", "member of sports team", club, start, end),),
        time_refs=refs((which, end if which == "end" else start)),
    )


def test_a_possessor_before_the_clubs_name_is_two_names() -> None:
    # each name in a shorter form ("Tallon", "Kestrel"), which counts only where no other name stands beside it
    text = "Tallon's Kestrel years were 2006–{}. By 2012 he'd moved on."
    assert verdict(spell("Kestrel F.C."), text.format(2009)) == "right"
    assert verdict(spell("Kestrel F.C."), text.format(2010)) == "wrong"


def both_ends(club: str = "Kestrel Town F.C.", start: str = "1995", end: str = "1999") -> Question:
    """How many years Rufus Tallon stayed at the club: both ends are references."""
    return q(
        answers=("4 years",),
        question=f"How many years after Rufus Tallon joined {club} did Rufus Tallon leave {club}?",
        S_star=(Triple("Rufus Tallon", "member of sports team", club, start, end),),
        time_refs=refs(("start", start), ("end", end)),
    )


def test_years_joined_by_an_arrow_after_a_name_are_a_spell() -> None:
    found = extract_times("Rufus Tallon: Kestrel Town 1995 → 1999. 1999 − 1995 = 4 years.")
    assert (found[0].kind, str(found[0].interval.start), str(found[0].interval.end)) == ("range", "1995", "1999")
    assert [m.kind for m in extract_times("Windows 2000 shipped")] == []  # a title's number stays no year
    text = "Rufus Tallon: Kestrel Town 1995 → {}. {} − 1995 = 4 years."
    assert verdict(both_ends(), text.format(1999, 1999)) == "right"
    assert verdict(both_ends(), text.format(1998, 1998)) == "wrong"


def two_posts() -> Question:
    """Whether Rufus Tallon joined Amber College after he joined Kestrel Town (2001-2004; college from 2007)."""
    return q(
        answers=("yes",),
        question="Did Rufus Tallon join Amber College after Rufus Tallon joined Kestrel Town F.C.?",
        S_star=(Triple("Rufus Tallon", "employer", "Amber College", "2007", None),),
        S_anchor=(Triple("Rufus Tallon", "member of sports team", "Kestrel Town F.C.", "2001", "2004"),),
        time_refs=(
            {"which": "start", "value": "2007", "of": "answer"},
            {"which": "start", "value": "2001", "of": "anchor"},
        ),
    )


def test_an_end_glossed_in_brackets_closes_the_range() -> None:
    found = extract_times("at Kestrel Town from 2001 (to 2004), and")
    assert (found[0].kind, str(found[0].interval.end)) == ("range", "2004")
    # a bracket that says more than the end is no range's end; nor is an earlier year
    assert [m.kind for m in extract_times("in 1918 (until 1920 he taught)")] == ["point", "until"]
    assert [m.kind for m in extract_times("in 1918 (to 1915).")] == ["point", "point"]
    text = "Rufus Tallon was at Kestrel Town from 2001 (to {}), and only joined Amber College in 2007, so yes."
    assert verdict(two_posts(), text.format(2004)) == "right"
    assert verdict(two_posts(), text.format(2005)) == "wrong"


def test_the_last_of_a_run_after_the_first_is_its_end() -> None:
    side = "Valeria national under-21 football team"
    text = "Tallon's U-21 career: first cap 1994, last in {}. That's one year."
    assert verdict(both_ends(side, "1994", "1995"), text.format(1995)) == "right"
    assert verdict(both_ends(side, "1994", "1995"), text.format(1996)) == "wrong"


def year_before() -> Question:
    """Which club Rufus Tallon played for the year before he joined Kestrel Town (1973); Amber Rovers 1972-1973."""
    return q(
        answers=("Amber Rovers F.C.",),
        question="In the year before Rufus Tallon joined Kestrel Town F.C., which team did Rufus Tallon play for?",
        S_star=(Triple("Rufus Tallon", "member of sports team", "Amber Rovers F.C.", "1972", "1973"),),
        S_anchor=(Triple("Rufus Tallon", "member of sports team", "Kestrel Town F.C.", "1973", "1977"),),
        time_refs=({"which": "start", "value": "1973", "of": "anchor"},),
    )


def test_a_sentences_leading_word_is_no_part_of_the_name_after_it() -> None:
    text = "Before Kestrel ({}–1977), Tallon was on Amber's books in 1972–73. So in 1972 he was at Amber."
    assert verdict(year_before(), text.format(1973)) == "right"
    assert verdict(year_before(), text.format(1974)) == "wrong"


def test_a_bracketed_year_glossing_the_year_before_that_cites_only() -> None:
    text = "Tallon was at Amber 1972–1973 and joined Kestrel in {}, so the year before that (1972) he was with Amber."
    assert verdict(year_before(), text.format(1973)) == "right"
    assert verdict(year_before(), text.format(1974)) == "wrong"


def term() -> Question:
    """Who was President of Nubia from 29 May 2007 to 5 May 2010 (Ade Kolawe)."""
    return q(
        answers=("Ade Kolawe",),
        question="Who was the President of Nubia whose term began after 15 March 2005 and ended on 5 May 2010?",
        granularity="day",
        S_star=(Triple("Ade Kolawe", "position held", "President of Nubia", "2007-05-29", "2010-05-05"),),
        time_refs=refs(("start", "2007-05-29"), ("end", "2010-05-05")),
    )


def test_a_predecessor_named_in_a_comma_set_after_is_no_antecedent() -> None:
    text = "Ade Kolawe took office on 29 May 2007, after Olu Banjoko, and his presidency ended with his death on {}."
    others = ("Olu Banjoko",)
    assert verdict(term(), text.format("5 May 2010"), others) == "right"
    assert verdict(term(), text.format("5 May 2011"), others) != "right"


def spouse_death() -> Question:
    """When Darla Venn's husband (Gaspar Venn, married 1911) died: 24 August 1954."""
    return q(
        answers=("1954",),
        question="When did the spouse of Darla Venn as of 1913 die in Nubia?",
        S_star=(
            Triple("Darla Venn", "spouse", "Gaspar Venn", "1911", "1954"),
            Triple("Gaspar Venn", "place of death", "Nubia", "1954-08-24", "1954-08-24"),
        ),
        time_refs=refs(("start", "1954")),
    )


def test_a_couples_given_name_names_one_of_them() -> None:
    text = "Darla Venn married Gaspar Venn in 1911. Gaspar died (in the capital) on 24 August {}."
    assert verdict(spouse_death(), text.format(1954)) == "right"
    assert verdict(spouse_death(), text.format(1953)) != "right"
    # named as the other's spouse, the given name is no subject of its own: the date stays untied
    aside = "Darla Venn married Gaspar Venn in 1911; Darla's husband Gaspar died on 24 August 1954."
    assert verdict(spouse_death(), aside) != "wrong"


def award() -> Question:
    """When Rufus Tallon received the Amber Medal (an event, 2003)."""
    return q(
        answers=("2003",),
        question="When did Rufus Tallon receive the Amber Medal?",
        S_star=(Triple("Rufus Tallon", "award received", "Amber Medal", "2003", "2003"),),
        time_refs=refs(("start", "2003")),
    )


def test_a_loose_relative_phrase_glossing_the_date_before_it_hides_no_date() -> None:
    text = "Tallon held the Amber Medal in {}, a decade after his first prize (1993)."
    assert verdict(award(), text.format(2004)) == "wrong"
    assert verdict(award(), text.format(2003)) == "right"
    # with no date before it, the loose phrase may hide one: undecided
    assert verdict(award(), "A decade after his first prize (1993), Tallon held the Amber Medal.") == "undecided"
