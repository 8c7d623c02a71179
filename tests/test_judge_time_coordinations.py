"""Careful time judging: dates the words give to their own name, and starts read from a stay's own words.

"Graduated from Vesta College in 1898 and from Halden University in 1904": in a coordination each date belongs to the
name right before it, so the gold's date given to the other name, with the gold's name given another date, is wrong
("and", "or", commas). "He was at Tarn Rovers, where he played from 2003": the where-clause's start is the named
club's. "(1952 until the district reform of 1994)" opens a range at 1952; "after arriving there in 2003" is a start.
"""

from __future__ import annotations

from chronoqa.records import Question, Triple
from time_verdicts import q, refs, verdict

OTHERS = ("Olden City", "Vesta College")


def degree() -> Question:
    """When Nils Aberg graduated from Halden University (1904); he married Mia Aberg in 1900."""
    return q(
        answers=("1904",),
        question="In which year did Nils Aberg graduate from Halden University?",
        S_star=(Triple("Nils Aberg", "educated at", "Halden University", "1904", None),),
        S_dist=(Triple("Mia Aberg", "spouse", "Nils Aberg", "1900", "1948"),),
        time_refs=refs(("start", "1904")),
    )


def test_each_coordinated_date_belongs_to_its_own_name() -> None:
    for joined in (" and from ", " and ", ", ", ", and from ", " or from "):
        right = f"Nils Aberg graduated from Vesta College in 1898{joined}Halden University in 1904."
        swapped = f"Nils Aberg graduated from Vesta College in 1904{joined}Halden University in 1898."
        assert verdict(degree(), right, OTHERS) == "right", right
        assert verdict(degree(), swapped, OTHERS) == "wrong", swapped
    # the gold's name first: its own date is held to the data the same way
    assert verdict(degree(), "Nils Aberg graduated from Halden University in 1904 and from Vesta College in 1898.") == (
        "right"
    )
    assert verdict(degree(), "Nils Aberg graduated from Halden University in 1898 and from Vesta College in 1904.") == (
        "wrong"
    )


def stay(start: str = "2003") -> Question:
    """Which club Ivo Marek played for before he joined Olden City (2007): Tarn Rovers, from 2003 to 2006."""
    olden = Triple("Ivo Marek", "member of sports team", "Olden City", "2007", "2010")
    return q(
        answers=("Tarn Rovers",),
        question="Which club did Ivo Marek play for before Ivo Marek joined Olden City?",
        S_star=(Triple("Ivo Marek", "member of sports team", "Tarn Rovers", start, "2006"),),
        S_anchor=(olden,),
        S_dist=(olden,),
        time_refs=({"which": "start", "value": "2007", "of": "anchor"},),
    )


def test_a_where_clause_start_is_the_named_clubs() -> None:
    for club in ("Tarn Rovers", "Tarn"):
        text = "Ivo Marek moved to Olden City in 2007; before that he was at {}, where he played from {}."
        assert verdict(stay(), text.format(club, 2003), OTHERS) == "right", club
        assert verdict(stay(), text.format(club, 2002), OTHERS) == "wrong", club
    # no start's cue: a state at the date, held to nothing
    state = "Ivo Marek moved to Olden City in 2007; in 2005 he was at Tarn Rovers, where he played in 2005."
    assert verdict(stay(), state, OTHERS) == "right"


def district() -> Question:
    """Vargen's district from 1952 to 1994, both ends asked."""
    return q(
        answers=("Kreis Alden",),
        question="In which district was Vargen located in 1970?",
        S_star=(Triple("Vargen", "located in", "Kreis Alden", "1952", "1994"),),
        time_refs=refs(("start", "1952"), ("end", "1994")),
    )


def test_a_bracketed_date_until_an_event_opens_the_range() -> None:
    text = "In that period Vargen was in Kreis Alden ({} until the district reform of 1994)."
    assert verdict(district(), text.format(1952)) == "right"
    assert verdict(district(), text.format(1950)) == "wrong"


def spell() -> Question:
    """Ivo Marek's spell at Tarn Rovers, 2003-2006, both ends asked."""
    return q(
        answers=("Tarn Rovers",),
        question="Which club did Ivo Marek play for from 2003 to 2006?",
        S_star=(Triple("Ivo Marek", "member of sports team", "Tarn Rovers", "2003", "2006"),),
        time_refs=refs(("start", "2003"), ("end", "2006")),
    )


def test_arriving_dates_the_stays_start() -> None:
    text = "Ivo Marek left Tarn Rovers in 2006, after arriving there in {}."
    assert verdict(spell(), text.format(2003)) == "right"
    assert verdict(spell(), text.format(2001)) != "right"
