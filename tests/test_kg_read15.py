"""What the fifteenth blind read found, on a hand-made graph whose expected outcome was worked by hand: a spell
nested in another spell of the same subject and relation (a loan within a spell) leaves an order over that timeline
("next after X", "two years before joining X", "last") without one reading, so it is not asked.
"""

from __future__ import annotations

import pytest

from chronoqa.generate.kg import cells
from chronoqa.records import Fact, Question
from kg_checker import defect_report, nested_order_errors
from test_kg_build import fact
from test_kg_entity_rules import _built

ORDERING = ("sequence", "relative", "before_after")
PLAYERS = 10


def _careers() -> list[Fact]:
    """Worked by hand (Wikidata, member of sports team). Each of the loaned players is at club B 2003-2008 and on loan
    at club L in 2005 (L starts strictly inside B's spell), after A 2000-2003 and before C 2008-2012, D 2012-2015:
    "next after B" fits L as well as C, "two years before joining L" reads B as the parent club. Each of the plain
    players has the same clubs without the loan: nothing is nested and every order is well defined."""
    out: list[Fact] = []
    for p in range(PLAYERS):
        name = f"Loaned_Player_{p}"
        spells = [("A", 2000, 2003), ("B", 2003, 2008), ("L", 2005, 2005), ("C", 2008, 2012), ("D", 2012, 2015)]
        out += [fact(len(out) + i, name, "P54", f"FC_{c}{p}", a, b) for i, (c, a, b) in enumerate(spells)]
    for p in range(PLAYERS):
        name = f"Plain_Player_{p}"
        spells = [("P", 2000, 2003), ("Q", 2003, 2008), ("R", 2008, 2012), ("S", 2012, 2015)]
        out += [fact(len(out) + i, name, "P54", f"FC_{c}{p}", a, b) for i, (c, a, b) in enumerate(spells)]
    return out


def _ordered(questions: list[Question], who: str) -> list[Question]:
    """The ordering questions (sequence, relative, before/after) whose answer is a spell of a subject named ``who``."""
    return [q for q in questions if q.operator in ORDERING and q.S_star and who in q.S_star[-1].s_id]


def test_a_spell_nested_in_another_is_not_ordered() -> None:
    b, checker = _built(_careers(), "wikidata12k", n=400)
    assert defect_report(checker, b.questions)["nested spell ordered"] == []
    assert _ordered(b.questions, "Plain_Player"), "the plain players' timelines are ordered"
    for q in _ordered(b.questions, "Loaned_Player"):
        ids = {t.fact_id for t in (*q.S_star[-1:], *q.S_anchor)}
        # the loaned players' spells B (id 5k+1) and L (5k+2) are nested: neither is the answer nor the reference
        assert not ids & {f for p in range(PLAYERS) for f in (5 * p + 1, 5 * p + 2)}, q.question
    assert sum(c["rejected"].get("nested spell ordered", 0) for c in b.manifest["cells"].values()) > 0


def test_the_checker_counts_a_nested_spell_ordered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cells, "nested_reason", lambda *_: None)  # the rule off
    b, checker = _built(_careers(), "wikidata12k", n=400)
    found = nested_order_errors(checker, b.questions)
    assert found, "with the rule off, a loaned player's timeline is ordered over the loan"
    assert all("Loaned_Player" in checker.by_id[int(m.split("nested with ")[1].split(":")[0])].s for m in found), found
