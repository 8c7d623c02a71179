"""Orders a life fixes, on hand-made graphs whose expected outcome was worked by hand: a before / after comparison
of one's birth or death with a fact one is a party of ("Is it true that Betty Hutton married Alan W. Livingston after
Alan W. Livingston died?": no, always) is not asked (rule ``order fixed by a life``).
"""

from __future__ import annotations

from chronoqa.records import Fact
from kg_checker import defect_report
from test_kg_build import tp
from test_kg_entity_rules import _built


def _fact(i: int, s: str, r: str, o: str, a: int | None, b: int | None) -> Fact:
    return Fact(i, s, f"<{r}>", o, tp(a), tp(b), i + 1)


def _rejected(b, why: str) -> int:  # type: ignore[no-untyped-def]
    return sum(c["rejected"].get(why, 0) for c in b.manifest["cells"].values())


# Worked by hand (YAGO11k's table: wasBornIn role birth, diedIn role death, isMarriedTo symmetric): each marriage is
# stored under one spouse, so the other spouse's birth or death against it pairs two subjects the draft's own-life
# skip lets through. Every such before / after pair reads its answer off a life; the prizes and the marriages of two
# people compare on the data and stay.
PEOPLE = ("Betty_Hutton", "Alan_Livingston", "Ann_Sheridan", "Edward_Norris", "Nancy_Olson", "Alan_Lerner")
LIFE = [
    ("Betty_Hutton", "isMarriedTo", "Alan_Livingston", 1955, 1960),
    ("Edward_Norris", "isMarriedTo", "Ann_Sheridan", 1936, 1939),
    ("Nancy_Olson", "isMarriedTo", "Alan_Lerner", 1950, 1957),
    ("Betty_Hutton", "isMarriedTo", "Pete_Candoli", 1960, 1967),
    ("Alan_Livingston", "isMarriedTo", "Nancy_Olson", 1962, 1990),
    ("Ann_Sheridan", "isMarriedTo", "George_Brent", 1942, 1943),
    ("Alan_Livingston", "diedIn", "Beverly_Hills", 2009, 2009),
    ("Ann_Sheridan", "diedIn", "Los_Angeles", 1967, 1967),
    ("Alan_Lerner", "wasBornIn", "New_York_City", 1918, 1918),
    ("Betty_Hutton", "wasBornIn", "Battle_Creek", 1921, 1921),
    ("Edward_Norris", "wasBornIn", "Philadelphia", 1911, 1911),
    ("Nancy_Olson", "wasBornIn", "Milwaukee", 1928, 1928),
    ("Betty_Hutton", "hasWonPrize", "Golden_Apple_Award", 1950, 1950),
    ("Ann_Sheridan", "hasWonPrize", "Golden_Apple_Award", 1945, 1945),
    ("Alan_Lerner", "hasWonPrize", "Tony_Award", 1957, 1957),
    ("Nancy_Olson", "hasWonPrize", "Golden_Globe_Award", 1951, 1951),
]
LIFE_FACTS = [_fact(i, f"<{s}>", r, f"<{o}>", a, b) for i, (s, r, o, a, b) in enumerate(LIFE)]


def test_an_order_a_life_fixes_is_not_asked() -> None:
    b, checker = _built(LIFE_FACTS, "yago11k", n=400)
    assert defect_report(checker, b.questions)["order fixed by a life"] == []
    assert _rejected(b, "order fixed by a life") > 0, "the rule rejects a spouse's death against the marriage"
    assert any(q.operator == "allen" for q in b.questions)  # the pairs a life does not fix stay
