"""What the twenty-first blind read found, on a hand-made graph whose expected outcome was worked by hand: a place the
data records as one entity while it was divided in the world (Wikidata's one Berlin) is never read as the whole city
in those years ("As of 1980, who was the head of government of Berlin?" -> West Berlin's mayor; "Which country was
Berlin part of when it became twinned with Los Angeles?" -> the GDR, the twinning West Berlin's).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
from chronoqa.generate.kg.phrases import load_phrase_table
from chronoqa.records import Fact, TemporalGraph
from kg_checker import PHRASES, defect_report
from test_kg_build import rel_labels, tp
from test_kg_entity_rules import _built, asking


def _fact(i: int, s: str, r: str, o: str, a: int | None, b: int | None) -> Fact:
    return Fact(i, s, f"<{r}>", o, tp(a), tp(b), i + 1)


# Worked by hand (Wikidata ids, as the phrase table declares Berlin by its id Q64, 1945-1990). Berlin's own facts in
# the span (its country the GDR, West Berlin's mayors Stobbe and Diepgen, the Los Angeles twinning of 1967) are never
# read at a year of it: not asked at such a time, nor their start or end asked, bounded or referred to. Its own facts
# outside the span stay (Nazi Germany in 1937, Wowereit in 2005); so do facts of another subject placed in it: Elli
# Schmidt lived in Berlin 1950-1980 in either half ("Where did Elli Schmidt live during 1967?" -> Berlin).
LABELS = {
    "Q64": "Berlin", "Q16957": "German Democratic Republic", "Q7318": "Nazi Germany", "Q183": "Germany",
    "Q68748": "Dietrich Stobbe", "Q60957": "Eberhard Diepgen", "Q8863": "Klaus Wowereit", "Q65": "Los Angeles",
    "Q90": "Paris", "Q1": "Elli Schmidt", "Q1741": "Vienna", "Q1297": "Chicago",
}  # fmt: skip
FACTS = [
    _fact(0, "Q64", "P17", "Q7318", 1933, 1945),
    _fact(1, "Q64", "P17", "Q16957", 1949, 1990),
    _fact(2, "Q64", "P17", "Q183", 1990, None),
    _fact(3, "Q64", "P6", "Q68748", 1977, 1981),
    _fact(4, "Q64", "P6", "Q60957", 1984, 1989),
    _fact(5, "Q64", "P6", "Q8863", 2001, 2014),
    _fact(6, "Q64", "P190", "Q65", 1967, None),
    _fact(7, "Q1", "P551", "Q64", 1950, 1980),
    _fact(8, "Q1", "P551", "Q1741", 1930, 1949),
    _fact(9, "Q1", "P551", "Q1297", 1981, 1990),
    _fact(10, "Q90", "P17", "Q183", 1950, None),
    _fact(11, "Q90", "P6", "Q68748", 1990, 1995),
]


def test_a_divided_city_is_not_read_as_one_in_its_years(tmp_path: Path) -> None:
    assert load_phrase_table("wikidata12k").divided["Q64"].label == "Berlin"
    b, checker = _built(FACTS, asking(tmp_path, "P551", "wikidata12k"), labels=LABELS, n=300)
    assert defect_report(checker, b.questions)["divided entity"] == []
    rejected = sum(c["rejected"].get("divided entity", 0) for c in b.manifest["cells"].values())
    assert rejected > 0, "the rule rejects the drafts reading Berlin's own facts in its divided years"
    text = {q.question: q.answers for q in b.questions}
    assert text.get("Where did Elli Schmidt live during 1967?") == ("Berlin",)  # lived in: either half
    assert any(a == ("Klaus Wowereit",) for a in text.values())  # Berlin's own fact after the span
    kept = [q for q in b.questions if q.S_star[0].fact_id == 5 and q.operator == "point_in_time"]
    made = dataclasses.replace(
        kept[0], id="made", question="As of 1980, who was the head of government of Berlin?", t_query="1980",
        answers=("Dietrich Stobbe",), answer_ids=("Q68748",),
        S_star=(dataclasses.replace(kept[0].S_star[0], fact_id=3, o="Dietrich Stobbe", o_id="Q68748"),),
    )  # fmt: skip
    assert [m.split(":")[0] for m in defect_report(checker, [made])["divided entity"]] == ["made"]


def test_a_divided_entity_is_declared_by_id_and_checked_against_the_graph(tmp_path: Path) -> None:
    text = (PHRASES / "wikidata12k.toml").read_text(encoding="utf-8")
    bad = tmp_path / "no-span.toml"
    bad.write_text(text.replace("from = 1945, to = 1990", "from = 1990, to = 1945"), encoding="utf-8")
    with pytest.raises(ChronoqaError, match=r"divided entry 'Q64'.*fix the file"):
        load_phrase_table(bad)
    # the id under another label (a typo in the id or the label): one clear error
    names = {e: LABELS.get(e, e) for f in FACTS for e in (f.s, f.o)} | {"Q64": "Bonn"}
    g = TemporalGraph("hand", FACTS, names, rel_labels(FACTS))
    with pytest.raises(ChronoqaError, match=r"divided\.Q64\.label = 'Berlin', but the graph labels Q64 'Bonn'.*file"):
        build_kg_benchmark(g, KGBuildConfig(n_questions=50, seed=3), phrases="wikidata12k")


def test_a_year_shifted_world_is_divided_as_many_years_later() -> None:
    table = load_phrase_table("wikidata12k")
    moved = table.shift_years(28).divided["Q64"]
    assert (moved.first, moved.last) == (1973, 2018)  # the twin's dates move by 28 years, its division with them
    assert (table.divided["Q64"].first, table.divided["Q64"].last) == (1945, 1990)
    assert table.shift_years(28).not_years == table.not_years  # misread numbers are no dates: they stay
