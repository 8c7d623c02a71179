"""What the eleventh blind read found, each rule on a hand-made graph whose expected outcome was worked by hand: a
relative clause ending in its verb ("the administrative unit X was in") is never nested before another verb; the
absence of a party ("independent politician") is never an answer, an anchor or a ranked spell; a confederation is
asked as a confederation, not as a country.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg.phrases import load_phrase_table
from kg_checker import PHRASES, confederation_errors, defect_report, nested_clause_errors, no_value_errors
from test_kg_build import fact
from test_kg_entity_rules import _built

# Worked by hand (Wikidata). Mannheim lay in Baden 1803-1945, Baden in the German Confederation 1815-1866 and in
# the German Empire 1871-1918; Haisyn in Podolia Governorate 1797-1922, Podolia in the Ukrainian SSR 1919-1922.
# Every 2-hop chain through the first hop reads "the administrative unit Mannheim was in", a clause ending in its
# verb: before another verb ("Which country was the administrative unit Mannheim was in part of?") it is not
# asked. Neither is "In which administrative unit was Mannheim located in 1850?" (Baden, 1 hop): the words name no
# level (level not named); a question naming Baden may be.
PLACES = [
    fact(0, "Mannheim", "P131", "Baden", 1803, 1945),
    fact(1, "Baden", "P17", "German_Confederation", 1815, 1866),
    fact(2, "Baden", "P17", "German_Empire", 1871, 1918),
    fact(3, "Haisyn", "P131", "Podolia_Governorate", 1797, 1922),
    fact(4, "Podolia_Governorate", "P17", "Ukrainian_Soviet_Socialist_Republic", 1919, 1922),
    fact(5, "Brunswick", "P17", "German_Confederation", 1815, 1866),
    fact(6, "Brunswick", "P17", "German_Empire", 1871, 1918),
    fact(7, "Kharkiv", "P131", "Ukrainian_Soviet_Socialist_Republic", 1922, 1991),
    fact(8, "Podolia_Governorate", "P1376", "Kamianets-Podilskyi", 1797, 1914),
    fact(9, "Mannheim", "P131", "Württemberg-Baden", 1945, 1952),
]


def test_no_clause_ending_in_its_verb_is_nested_before_another() -> None:
    b, _checker = _built(PLACES, "wikidata12k", n=400)
    assert nested_clause_errors(b.questions) == []
    assert not [q.question for q in b.questions if re.search(r" was in (was|located|part|in)\b", q.question)]
    one_hop = [q for q in b.questions if q.logical_form["path"] and q.S_star[0].fact_id == 0]
    assert not [q.question for q in one_hop if q.answer_type == "entity"]  # Mannheim's unit is not described
    made = dataclasses.replace(
        b.questions[0], id="made", question="Which country was the administrative unit Mannheim was in part of in 1850?"
    )
    assert [m.split(":")[0] for m in nested_clause_errors([made])] == ["made"]


def test_a_confederation_is_asked_as_one() -> None:
    p17 = load_phrase_table("wikidata12k").relations["P17"]
    assert p17.for_object("German Confederation").ask_object == "which confederation did {s} belong to"
    assert p17.for_object("German Empire").ask_object == "which country was {s} part of"
    b, checker = _built(PLACES, "wikidata12k", n=400)
    assert defect_report(checker, b.questions)["confederation asked as a country"] == []
    confed = [q for q in b.questions if q.answer_ids == ("<German_Confederation>",)]
    assert confed, "Brunswick's confederation (1815-1866) is asked"
    for q in confed:
        assert "confederation" in q.question and "country" not in q.question, q.question
        assert q.S_star[-1].fact_id in (1, 5)  # gold: Baden's or Brunswick's membership, by hand
    made = dataclasses.replace(confed[0], id="made", question="Which country was Brunswick part of in 1823?")
    assert [m.split(":")[0] for m in confederation_errors(checker, [made])] == ["made"]


# Worked by hand (Wikidata). Donald Trump: Republican Party 1987-1999, Reform Party 1999-2001, Democratic Party
# 2001-2009, Republican Party 2009-2011, independent politician 2011-2012, Republican Party 2012-. Wikidata records
# having no party as membership of "independent politician": it is never an answer, never a reference ("next after
# independent politician") and never a ranked spell; after the Democratic Party, the next party is the Republican
# Party (2009).
PARTY = [
    fact(0, "Donald_Trump", "P102", "Republican_Party", 1987, 1999),
    fact(1, "Donald_Trump", "P102", "Reform_Party", 1999, 2001),
    fact(2, "Donald_Trump", "P102", "Democratic_Party", 2001, 2009),
    fact(3, "Donald_Trump", "P102", "Republican_Party", 2009, 2011),
    fact(4, "Donald_Trump", "P102", "independent_politician", 2011, 2012),
    fact(5, "Donald_Trump", "P102", "Republican_Party", 2012, None),
    fact(6, "Ann_Lee", "P102", "Reform_Party", 1995, 2005),
    fact(7, "Ann_Lee", "P102", "independent_politician", 2005, 2010),
    fact(8, "Ann_Lee", "P102", "Democratic_Party", 2010, 2015),
    fact(9, "Donald_Trump", "P26", "Ivana_Zelnickova", 1977, 1990),
]


def test_the_absence_of_a_party_is_no_party() -> None:
    p102 = load_phrase_table("wikidata12k").relations["P102"]
    assert p102.no_value == frozenset({"independent politician"})
    b, checker = _built(PARTY, "wikidata12k", n=400)
    assert no_value_errors(checker, b.questions) == []
    used = {t.fact_id for q in b.questions for t in (*q.S_star, *q.S_anchor)}
    assert used and not used & {4, 7}
    assert any(q.logical_form["path"] and q.S_star[-1].r_id == "<P102>" for q in b.questions)
    made = dataclasses.replace(
        b.questions[0],
        id="made",
        question="Which political party was Donald Trump a member of next after independent politician?",
    )
    assert [m.split(":")[0] for m in no_value_errors(checker, [made])] == ["made"]


def test_a_malformed_no_value_is_refused(tmp_path: Path) -> None:
    text = (PHRASES / "wikidata12k.toml").read_text(encoding="utf-8")
    old = 'no_value = { objects = ["independent politician"], reason = "the absence of a party, not a party" }'
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, 'no_value = { objects = ["independent politician"] }'), encoding="utf-8")
    with pytest.raises(ChronoqaError, match=r"P102\.no_value: expected"):
        load_phrase_table(bad)
