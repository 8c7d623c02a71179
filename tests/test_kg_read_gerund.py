"""A question names the same entity once where English would: a clause whose subject the main clause names reads as
a gerund ("after joining Y did X leave it"), a repeated non-person object as "it"; a clause of another subject keeps
its full wording.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from kg_checker import defect_report
from test_kg_build import fact
from test_kg_entity_rules import _built, asking

# Worked by hand (YAGO). Rafael's two spells are closed and a year or more apart: a duration question names his spell
# by its start and its end, the same subject and club in both clauses; "after joining Getafe CF B did Rafael García
# García leave it" names each once.
SPELLS = [
    fact(0, "Rafael_García_García", "playsFor", "Getafe_CF_B", 2001, 2004),
    fact(1, "Rafael_García_García", "playsFor", "CF_Badalona", 2004, 2008),
    fact(2, "Rafael_García_García", "playsFor", "Real_Oviedo", 2008, 2012),
]
RAFAEL = "Rafael García García"


def test_a_shared_subject_is_named_once() -> None:
    b, checker = _built(SPELLS, "yago11k", n=300)
    durations = [q for q in b.questions if q.operator == "duration"]
    assert durations, "Rafael's spells are asked"
    assert defect_report(checker, durations)["name repeated"] == []
    for q in durations:
        club = q.S_star[-1].o
        assert q.question.count(RAFAEL) == 1 and q.question.count(club) == 1, q.question
        assert "joining" in q.question and ("leave it" in q.question or "leaving it" in q.question), q.question
    made = dataclasses.replace(durations[0], id="made", question=f"After {RAFAEL} joined, did {RAFAEL} leave?")
    assert [m.split(":")[0] for m in defect_report(checker, [made])["name repeated"]] == ["made"]


# Worked by hand (YAGO). SNCF owns the railway 1938-1997 (owns: "acquired" / "stopped owning"). "stopped owning" has a
# gerund after its verb: "stopping owning" does not read; English says "ceasing to own" ("from SNCF acquiring the
# railway to ceasing to own it").
OWNED = [
    fact(0, "SNCF", "owns", "Somain-Halluin_Railway", 1938, 1997),
    fact(1, "SNCF", "owns", "Gare_du_Nord", 1938, 1990),
]


def test_a_verb_followed_by_a_gerund_keeps_its_clause(tmp_path: Path) -> None:
    b, _ = _built(OWNED, asking(tmp_path, "owns"), n=300)
    asked = [q.question for q in b.questions if q.operator in ("duration", "allen")]
    assert asked, "SNCF's ownership spells are asked"
    for text in asked:
        assert "stopping owning" not in text, text
    assert any("ceasing to own" in text for text in asked), asked
