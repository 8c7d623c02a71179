"""A loan's end is not a leaving where the source keeps one spell per club (blind read 23: "What year did Richard
Keogh leave Carlisle United F.C.?" -> 2008, the end of his loan; he signed for Carlisle that year and left in 2010).

YAGO11k keeps one fact per (subject, relation, object), so a permanent spell after a loan at the same club is lost:
a spell lying within another spell of the subject of the same role is a loan, and no question reads its end, its
length or its holding on; its start stays usable (``one_spell_per_object``, :func:`chronoqa.generate.kg.tenure.loans`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg.phrases import load_phrase_table
from chronoqa.generate.kg.tenure import LOAN_END, loans
from chronoqa.time import Granularity, TimePoint
from kg_checker import PHRASES, defect_report
from kg_checker import loans as checker_loans
from sql_index_fixtures import index_of
from test_kg_build import fact, labels_of
from test_kg_entity_rules import _built
from test_kg_read10 import _reason

# Worked by hand (YAGO). Keogh: Bristol City 2005-2008 and, inside it, Carlisle United 2007-2008 (fact 1: starts
# later, ends in the same year: a loan; in the world he signed for Carlisle in 2008 and left in 2010, a spell the
# source cannot keep beside the loan), then Coventry 2010-2012 (nested in nothing); the Republic of Ireland under-21
# side 2006-2007 lies inside Bristol City but is of another role (no loan). Mark: the Ireland national team
# 2000-2010 and, inside it, Stoke City 2004-2005: a club nested only in a national-team spell is no loan. Dan: Reds
# 2000-2004, Blues 2003-2006: they overlap, neither lies within the other. Sam: Reds 1990-None, Blues 1992-1993: the
# outer spell's end is not recorded, so nothing is known to contain Blues. Loans: {1}.
LOANED = [
    fact(0, "Richard_Keogh", "playsFor", "Bristol_City_F.C.", 2005, 2008),
    fact(1, "Richard_Keogh", "playsFor", "Carlisle_United_F.C.", 2007, 2008),
    fact(2, "Richard_Keogh", "playsFor", "Coventry_City_F.C.", 2010, 2012),
    fact(3, "Richard_Keogh", "playsFor", "Republic_of_Ireland_national_under-21_football_team", 2006, 2007),
    fact(4, "Mark_Roe", "playsFor", "Republic_of_Ireland_national_football_team", 2000, 2010),
    fact(5, "Mark_Roe", "playsFor", "Stoke_City_F.C.", 2004, 2005),
    fact(6, "Dan_Ash", "playsFor", "Reds_F.C.", 2000, 2004),
    fact(7, "Dan_Ash", "playsFor", "Blues_F.C.", 2003, 2006),
    fact(8, "Sam_Fry", "playsFor", "Reds_F.C.", 1990, None),
    fact(9, "Sam_Fry", "playsFor", "Blues_F.C.", 1992, 1993),
    fact(10, "Lee_Hart", "playsFor", "Carlisle_United_F.C.", 2001, 2009),
    fact(11, "Lee_Hart", "playsFor", "Coventry_City_F.C.", 2009, 2011),
]
LOANS = {1}


def _index():  # type: ignore[no-untyped-def]
    idx = index_of(LOANED, {"<playsFor>": False}, Granularity.YEAR, TimePoint(2026), "unknown")
    rel, labels = idx.rel_id["<playsFor>"], labels_of(LOANED)
    p = load_phrase_table("yago11k").relations["playsFor"]
    roles = {rel: {e: k for e, x in enumerate(idx.ent_names) if (k := p.for_object(labels[x]).key) != p.key}}
    return idx, rel, roles


def test_the_yago_table_declares_one_spell_per_club_and_wikidata_none() -> None:
    assert load_phrase_table("yago11k").relations["playsFor"].one_spell_per_object
    assert not any(p.one_spell_per_object for p in load_phrase_table("wikidata12k").relations.values())


def test_a_wrong_type_is_one_error_naming_the_file_and_field(tmp_path: Path) -> None:
    text = (PHRASES / "yago11k.toml").read_text(encoding="utf-8")
    start = text.index("one_spell_per_object = ")
    end = text.index('"""', text.index('"""', start) + 3) + 3
    bad = tmp_path / "bad.toml"
    bad.write_text(text[:start] + "one_spell_per_object = true" + text[end:], encoding="utf-8")
    with pytest.raises(ChronoqaError, match=r"bad\.toml: relations\.playsFor\.one_spell_per_object must be the reason"):
        load_phrase_table(bad)


def test_a_loan_is_a_spell_within_another_of_its_role() -> None:
    idx, rel, roles = _index()
    assert loans(idx, [rel], roles) == LOANS
    assert loans(idx, [], roles) == frozenset()


def test_no_question_reads_a_loans_end() -> None:
    idx, _, _ = _index()
    assert _reason(idx, "interval", "end", 1) is None  # the rule off: "What year did Keogh leave Carlisle?" passes
    idx.loans = frozenset(LOANS)
    rejected = [("interval", "end", 1), ("duration", "closed", 1), ("yes_no", "yes", 1), ("yes_no", "no", 1)]
    assert [_reason(idx, *x) for x in rejected] == [LOAN_END] * 4
    assert _reason(idx, "sequence", "next", 2, 1) == LOAN_END  # "after Keogh left Carlisle" reads the loan's end
    assert _reason(idx, "interval", "start", 1) is None  # "When did Keogh join Carlisle?": the loan's start
    kept = [0, 2, 3, 5, 6, 7, 9]  # the outer spell, the spells nested in nothing or only in another role's
    assert [_reason(idx, "interval", "end", f) for f in kept] == [None] * len(kept)


def test_the_built_benchmark_keeps_no_loans_end() -> None:
    b, checker = _built(LOANED, "yago11k", n=400)
    assert checker_loans(checker) == LOANS  # the checker's own reading agrees
    assert defect_report(checker, b.questions)["end of a loan"] == []
    read = [q for q in b.questions if q.S_star and q.S_star[-1].fact_id in LOANS]
    assert not [q for q in read if q.operator in ("duration", "yes_no") or q.logical_form.get("variant") == "end"]
    ends = {
        q.S_star[-1].fact_id for q in b.questions if q.operator == "interval" and q.logical_form["variant"] == "end"
    }
    assert {5, 10} <= ends  # a club spell nested only in a national-team spell, and one nested in nothing
