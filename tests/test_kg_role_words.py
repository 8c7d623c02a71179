"""A relation's clause fits the object it is written with: a body named as a "position held" reads as membership, a
title or an honorary citizenship as what it is, an office title after "the position of" without an article, and the
place a head of government heads as the place whose government the person headed.
"""

from __future__ import annotations

import pytest

from chronoqa.generate.articles import definite
from chronoqa.generate.kg import load_phrase_table
from chronoqa.generate.kg.phrases import fill
from chronoqa.records import Fact
from chronoqa.time import TimePoint
from kg_checker import defect_report
from test_kg_entity_rules import _built

# Read by hand from Wikidata12k's P39 and P166 objects: the marks catch the body and the titles, never an office of
# the same body ("President of the European Parliament") or an award whose label holds a title's words.
ROLES = {
    ("P39", "Parliamentary Assembly of the Council of Europe"): "P39/body",
    ("P39", "Member of the 54th Parliament of the United Kingdom"): "P39",
    ("P39", "member of the French National Assembly"): "P39",
    ("P39", "President of the European Parliament"): "P39",
    ("P39", "United States senator"): "P39",
    ("P166", "Pilot-Cosmonaut of the Russian Federation"): "P166/title",
    ("P166", "Hero of the Soviet Union"): "P166/title",
    ("P166", "People's Artist of the USSR"): "P166/title",
    ("P166", "People's Choice Award for Favorite Female Artist"): "P166",
    ("P166", "MTV Movie Award for Best Hero"): "P166",
    ("P166", "honorary citizen of Munich"): "P166/honorary citizen or doctor",
    ("P166", "honorary citizenship"): "P166",
    ("P166", "Footballer of the Year"): "P166/of the year",
    ("P166", "NBA Coach of the Year Award"): "P166",
    ("P166", "NBA All-Rookie Team"): "P166/team selection",
}


@pytest.mark.parametrize(("key", "role"), sorted(ROLES.items()))
def test_the_role_marks_catch_bodies_and_titles_only(key: tuple[str, str], role: str) -> None:
    relation, label = key
    assert load_phrase_table("wikidata12k").relations[relation].for_object(label).key == role


# Worked by hand: each object's start read with its role's words and the article rule ("the" before a body, none
# before an office title, "the United States" still for the country).
CLAUSES = {
    ("P39", "Parliamentary Assembly of the Council of Europe"): (
        "Tiny Kox became a member of the Parliamentary Assembly of the Council of Europe"
    ),
    ("P39", "United States senator"): "George J. Mitchell took office as United States senator",
    ("P166", "Pilot-Cosmonaut of the Russian Federation"): (
        "Pavel Vinogradov received the title Pilot-Cosmonaut of the Russian Federation"
    ),
    ("P166", "honorary citizen of Berlin"): "Wolf Biermann became an honorary citizen of Berlin",
    ("P166", "NBA All-Rookie Team"): "LeBron James was named to the NBA All-Rookie Team",
}
SUBJECTS = {"P39": ("Tiny Kox", "George J. Mitchell"), "P166": ("Pavel Vinogradov", "Wolf Biermann", "LeBron James")}


@pytest.mark.parametrize(("key", "clause"), sorted(CLAUSES.items()))
def test_a_start_reads_with_its_roles_words(key: tuple[str, str], clause: str) -> None:
    relation, label = key
    p = load_phrase_table("wikidata12k").relations[relation].for_object(label)
    subject = next(s for s in SUBJECTS[relation] if clause.startswith(s))
    assert fill(p.start_clause, s=subject, o=definite(label)) == clause


def test_an_office_title_takes_no_article_but_the_country_does() -> None:
    assert fill("{s} held the position of {o}", s="X", o=definite("United States senator")) == (
        "X held the position of United States senator"
    )
    assert definite("United States Secretary of War") == "United States Secretary of War"
    assert definite("United States") == "the United States"
    assert definite("United States Senate") == "the United States Senate"
    assert definite("United States House of Representatives") == "the United States House of Representatives"


# Worked by hand (Wikidata relations). Tiny Kox (Q1) sat in PACE (Q2) 2005-2012 and held the office of a senator of
# the Netherlands (Q3) 2003-2011; George J. Mitchell (Q4) was a United States senator (Q5) 1980-1995; Pavel
# Vinogradov (Q6) was made Pilot-Cosmonaut (Q7) in 1998 and received the Order of Courage (Q8) in 2006; Wolf
# Biermann (Q9) was made an honorary citizen of Berlin (Q10) in 2007; Bavaria (Q11) was headed by Alfons Goppel (Q12)
# 1962-1978, then Franz Josef Strauß (Q13) 1978-1988.
def _graph() -> tuple[list[Fact], dict[str, str]]:
    spans = [
        ("Q1", "P39", "Q2", 2005, 2012), ("Q1", "P39", "Q3", 2003, 2011), ("Q4", "P39", "Q5", 1980, 1995),
        ("Q6", "P166", "Q7", 1998, 1998), ("Q6", "P166", "Q8", 2006, 2006), ("Q9", "P166", "Q10", 2007, 2007),
        ("Q11", "P6", "Q12", 1962, 1978), ("Q11", "P6", "Q13", 1978, 1988),
    ]  # fmt: skip
    facts = [Fact(i, s, r, o, TimePoint(a), TimePoint(b), i + 1) for i, (s, r, o, a, b) in enumerate(spans)]
    names = [
        "Tiny Kox", "Parliamentary Assembly of the Council of Europe", "member of the Senate of the Netherlands",
        "George J. Mitchell", "United States senator", "Pavel Vinogradov", "Pilot-Cosmonaut of the Russian Federation",
        "Order of Courage", "Wolf Biermann", "honorary citizen of Berlin", "Bavaria", "Alfons Goppel",
        "Franz Josef Strauß",
    ]  # fmt: skip
    return facts, {f"Q{i + 1}": n for i, n in enumerate(names)}


MISFITS = (
    "office as Parliamentary Assembly", "position of Parliamentary Assembly", "receive Pilot-Cosmonaut",
    "received Pilot-Cosmonaut", "receiving Pilot-Cosmonaut", "receive honorary citizen", "received honorary citizen",
    "receiving honorary citizen", "position of the United States senator", "office as the United States senator",
    "governed",
)  # fmt: skip


def test_built_questions_word_each_object_as_what_it_is() -> None:
    facts, labels = _graph()
    b, checker = _built(facts, "wikidata12k", labels)
    texts = [q.question for q in b.questions]
    assert texts, "the facts are asked"
    for text in texts:
        assert not any(m in text for m in MISFITS), text
    fitted = ("a member of the Parliamentary Assembly", "the title Pilot-Cosmonaut", "United States senator")
    for words in fitted:
        assert any(words in text for text in texts), words
    report = defect_report(checker, b.questions)
    assert report["role asked as the relation"] == [] and report["hop missing from text"] == []
