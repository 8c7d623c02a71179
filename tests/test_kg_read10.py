"""What the tenth blind read found, each rule on a hand-made graph whose expected outcome was worked by hand: a
question ranking a player's spells names the timeline it ranks in (club or national team); the end of a spell
followed at once by the same club's reserve or youth team is no departure; a nomination's date, a convention of
the source, is neither asked nor paired with another relation's fact; a country is asked as a country.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest

from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg.operators import AnswerKind, Draft, Hop
from chronoqa.generate.kg.operators.duration import BRIDGE_NAMED_TWICE
from chronoqa.generate.kg.phrases import load_phrase_table
from chronoqa.generate.kg.tenure import CONVENTION, SQUAD_MOVE, squad_moves, tenure_reason
from chronoqa.time import Granularity, TimePoint
from kg_checker import PHRASES, country_unit_errors, defect_report, role_unnamed_errors
from kg_checker import squad_moves as checker_squad_moves
from sql_index_fixtures import index_of
from test_kg_build import fact, labels_of
from test_kg_entity_rules import _built


def _reason(idx, op: str, variant: str, fid: int, ref: int = -1) -> str | None:  # type: ignore[no-untyped-def]
    r, s, o = (int(idx.table[fid, c]) for c in (1, 0, 2))
    hop = Hop(fid, r, True, s, o)
    return tenure_reason(idx, Draft(op, variant, s, (hop,), 2000, (o,), AnswerKind.YES_NO, ref_fid=ref))


# Worked by hand (YAGO). Craig Dobson: Crystal Palace 2000-2003, Cheltenham 2003-2004, then Barnet (a club) and
# Jamaica (a national team) both from 2004. "After Cheltenham, which team ... next?" has two answers; "which club"
# has one, Barnet.
TWO_ROLES = [
    fact(0, "Craig_Dobson", "playsFor", "Crystal_Palace_F.C.", 2000, 2003),
    fact(1, "Craig_Dobson", "playsFor", "Cheltenham_Town_F.C.", 2003, 2004),
    fact(2, "Craig_Dobson", "playsFor", "Barnet_F.C.", 2004, 2006),
    fact(3, "Craig_Dobson", "playsFor", "Jamaica_national_football_team", 2004, 2008),
    fact(4, "Lee_Moss", "playsFor", "Barnet_F.C.", 2001, 2005),
    fact(5, "Lee_Moss", "playsFor", "Crystal_Palace_F.C.", 2005, 2009),
    fact(6, "Craig_Dobson", "wasBornIn", "Chingford", 1984, 1984),
]


def test_the_phrase_tables_name_the_club_timeline() -> None:
    for table, key in (("yago11k", "playsFor"), ("wikidata12k", "P54")):
        p = load_phrase_table(table).relations[key]
        assert p.for_object("Barnet F.C.").ask_object == "which club did {s} play for"
        assert p.for_object("Jamaica national football team").ask_object == "which national team did {s} play for"
    p54 = load_phrase_table("wikidata12k").relations["P54"]
    # an Olympic team is a national side asked with its level (an under-23 side), not as "which national team"
    assert p54.for_object("Brazil Olympic football team").key == "P54/Olympic football team"
    assert p54.for_object("Sydney Olympic FC").key == "P54"  # a club that holds the word "Olympic"


def test_no_ranking_question_leaves_its_role_unnamed() -> None:
    b, checker = _built(TWO_ROLES, "yago11k", n=400)
    assert defect_report(checker, b.questions)["role not named in a two-role timeline"] == []
    asked = [q for q in b.questions if q.S_star and q.answer_ids and q.answer_ids[0].endswith("F.C.>")]
    assert asked and all("club" in q.question for q in asked if q.S_star[-1].s_id == "<Craig_Dobson>")
    q = next(q for q in b.questions if q.S_star and q.S_star[-1].fact_id in (0, 1, 2, 3))
    made = dataclasses.replace(  # made by hand: the read's wording, answered by Barnet after Cheltenham
        q, id="made", operator="sequence",
        question="After Cheltenham Town F.C., which team did Craig Dobson play for next?",
        logical_form={**q.logical_form, "variant": "next", "path": [{"r": "<playsFor>", "dir": "fwd"}]},
        S_star=(dataclasses.replace(q.S_star[-1], fact_id=2, s_id="<Craig_Dobson>", o_id="<Barnet_F.C.>"),),
        answer_ids=("<Barnet_F.C.>",),
    )  # fmt: skip
    assert [m.split(":")[0] for m in role_unnamed_errors(checker, [made])] == ["made"]
    named = dataclasses.replace(made, question=made.question.replace("which team", "which club"))
    assert role_unnamed_errors(checker, [named]) == []
    lone = dataclasses.replace(  # Lee Moss holds clubs only: "which team" ranks one timeline
        named, question="After Barnet F.C., which team did Lee Moss play for next?",
        S_star=(dataclasses.replace(named.S_star[0], fact_id=5, s_id="<Lee_Moss>", o_id="<Crystal_Palace_F.C.>"),),
        answer_ids=("<Crystal_Palace_F.C.>",),
    )  # fmt: skip
    assert role_unnamed_errors(checker, [lone]) == []


# Worked by hand (YAGO). Fonte: Sporting CP 1994-2002 (youth), Sporting CP B 2002-2004, Vitória 2004-2006: the end of
# fact 0 is a move within Sporting (its B team starts in 2002); fact 1's end is a departure. Pepe: FC Porto B
# 2001-2003, then FC Porto from 2004 (the next unit): fact 3's end is a promotion. Rui: FC Porto 1990-1995, FC Porto B
# from 1998: a gap, no move. Ana: Córdoba 2000-2003, Córdoba CF 2003-2005: "CF" extends one label and is no single
# letter, so no marker: two clubs.
SQUADS = [
    fact(0, "Jose_Fonte", "playsFor", "Sporting_Clube_de_Portugal", 1994, 2002),
    fact(1, "Jose_Fonte", "playsFor", "Sporting_Clube_de_Portugal_B", 2002, 2004),
    fact(2, "Jose_Fonte", "playsFor", "Vitoria_Setubal", 2004, 2006),
    fact(3, "Pepe_Lima", "playsFor", "FC_Porto_B", 2001, 2003),
    fact(4, "Pepe_Lima", "playsFor", "FC_Porto", 2004, 2008),
    fact(5, "Rui_Sa", "playsFor", "FC_Porto", 1990, 1995),
    fact(6, "Rui_Sa", "playsFor", "FC_Porto_B", 1998, 2000),
    fact(7, "Ana_Ruiz", "playsFor", "Cordoba", 2000, 2003),
    fact(8, "Ana_Ruiz", "playsFor", "Cordoba_CF", 2003, 2005),
]
MOVES = {0, 3}


def test_a_move_to_the_clubs_other_team_is_no_departure() -> None:
    idx = index_of(SQUADS, {"<playsFor>": False}, Granularity.YEAR, TimePoint(2026), "unknown")
    labels = labels_of(SQUADS)
    rel = idx.rel_id["<playsFor>"]
    assert squad_moves(idx, [labels[e] for e in idx.ent_names], [rel]) == MOVES
    idx.squad_moves = frozenset(MOVES)
    rejected = [("interval", "end", 0), ("duration", "closed", 0), ("yes_no", "yes", 3), ("yes_no", "no", 0)]
    assert [_reason(idx, *x) for x in rejected] == [SQUAD_MOVE] * 4
    assert _reason(idx, "sequence", "next", 2, 0) == SQUAD_MOVE  # "after Fonte left Sporting CP" reads its end
    assert _reason(idx, "interval", "end", 1) is None  # Fonte left Sporting CP B for Vitória in 2004
    assert _reason(idx, "interval", "start", 0) is None  # his start stays usable
    assert _reason(idx, "interval", "end", 5) is None and _reason(idx, "interval", "end", 7) is None


def test_no_question_reads_a_move_within_a_club() -> None:
    b, checker = _built(SQUADS, "yago11k", n=400)
    assert checker_squad_moves(checker) == MOVES  # the checker's own reading agrees
    assert defect_report(checker, b.questions)["end of a move within a club"] == []
    ends = [q for q in b.questions if q.operator in ("interval", "duration") and q.S_star[-1].fact_id in MOVES]
    assert not [q for q in ends if q.operator == "duration" or q.logical_form["variant"] == "end"]


# Worked by hand (Wikidata; P1411 declares date_convention). Guess Who's Coming to Dinner: nominated for Best Picture
# (dated 1967, the film's year) and for a Golden Globe (1968); received the Silver Nugget 1968. Norma Shearer
# nominated for Best Actress (1934), married to Irving Thalberg 1927-1936.
NOMINATIONS = [
    fact(0, "Guess_Who", "P1411", "Academy_Award_for_Best_Picture", 1967, None),
    fact(1, "Guess_Who", "P166", "Silver_Nugget", 1968, None),
    fact(2, "Guess_Who", "P1411", "Golden_Globe_Award_for_Best_Film", 1968, None),
    fact(3, "Norma_Shearer", "P1411", "Academy_Award_for_Best_Actress", 1934, None),
    fact(4, "Norma_Shearer", "P26", "Irving_Thalberg", 1927, 1936),
    fact(5, "Ann_Roe", "P1411", "Academy_Award_for_Best_Actress", 1950, None),
    fact(6, "Ann_Roe", "P166", "Silver_Nugget", 1952, None),
]


def test_a_conventional_date_is_neither_asked_nor_paired_across_relations() -> None:
    assert load_phrase_table("wikidata12k").relations["P1411"].date_convention
    events = {"<P1411>": True, "<P166>": True, "<P26>": False}
    idx = index_of(NOMINATIONS, events, Granularity.YEAR, TimePoint(2026), "unknown")
    idx.convention_rels = frozenset({idx.rel_id["<P1411>"]})
    assert _reason(idx, "interval", "start", 3) == CONVENTION  # "In which year was Shearer nominated ...?"
    assert _reason(idx, "allen", "start_same_start", 1, 0) == CONVENTION  # the Silver Nugget beside a nomination
    assert _reason(idx, "two_facts", "when", 4, 3) == CONVENTION  # "married to when nominated"
    assert _reason(idx, "allen", "start_before_start", 0, 2) is None  # two nominations: one convention
    assert _reason(idx, "allen", "start_before_start", 1, 6) is None  # no nomination in the pair
    assert _reason(idx, "interval", "start", 1) is None


def test_no_question_rests_on_a_conventional_date() -> None:
    b, checker = _built(NOMINATIONS, "wikidata12k", n=300)
    assert defect_report(checker, b.questions)["date by convention compared"] == []
    for q in b.questions:
        rels = {t.r_id for t in (q.S_star[-1:] if q.S_star else ()) + q.S_anchor}
        assert "<P1411>" not in rels or (q.S_anchor and rels == {"<P1411>"}), q.question


# Worked by hand (Wikidata). Latvia is a country in the data (Riga's P17); Jelgava in Latvia 1918-1940, earlier in
# Courland Governorate (a governorate: its label names the level); Kharkiv in the Ukrainian SSR 1922-1991 (a Soviet
# republic by its label, though the data places Kharkiv in it by P17 too: the label marker wins).
PLACES = [
    fact(0, "Riga", "P17", "Latvia", 1918, 1940),
    fact(1, "Jelgava", "P131", "Latvia", 1918, 1940),
    fact(2, "Jelgava", "P131", "Courland_Governorate", 1800, 1917),
    fact(3, "Kharkiv", "P131", "Ukrainian_Soviet_Socialist_Republic", 1922, 1991),
    fact(4, "Kharkiv", "P17", "Ukrainian_Soviet_Socialist_Republic", 1922, 1991),
    fact(5, "Kharkiv", "P131", "Kharkov_Governorate", 1835, 1921),
    fact(6, "Courland_Governorate", "P17", "Russian_Empire", 1795, 1917),
]


def test_a_country_is_asked_as_a_country() -> None:
    p131 = load_phrase_table("wikidata12k").relations["P131"]
    country = p131.for_object("Latvia", lambda key, side: (key, side) == ("P17", "object"))
    assert country.ask_object == "in which country was {s} located"
    assert (
        p131.for_object("Latvia", lambda key, side: False).ask_object == "in which administrative unit was {s} located"
    )
    soviet = p131.for_object("Ukrainian Soviet Socialist Republic", lambda key, side: True)
    assert soviet.ask_object == "in which Soviet republic was {s} located"
    b, checker = _built(PLACES, "wikidata12k", n=300)
    assert defect_report(checker, b.questions)["country asked as administrative unit"] == []
    words = {"<Latvia>": "country", "<Courland_Governorate>": "governorate"}
    asked = [q for q in b.questions if q.S_star and q.S_star[-1].r_id == "<P131>" and q.answer_ids]
    for q in asked:
        want = words.get(q.answer_ids[0])
        assert want is None or want in q.question, q.question
    q = next(q for q in asked if q.answer_ids == ("<Latvia>",))
    made = dataclasses.replace(q, id="made", question="In 1930, in which administrative unit was Jelgava located?")
    assert [m.split(":")[0] for m in country_unit_errors(checker, [made])] == ["made"]


# Worked by hand (YAGO). Ann married Bob 1990-2000 and was affiliated with the Greens 1992-1998; Bob with the Reds
# 1980-2004. A 2-hop duration ("How long ... the spouse of Ann as of 1995 ... that spouse ...") names the bridge
# twice: not drafted; "How many years did Bob's affiliation with the Reds last?" (1-hop, 24) is.
MARRIED = [
    fact(0, "Ann_Holm", "isMarriedTo", "Bob_Lind", 1990, 2000),
    fact(1, "Ann_Holm", "isAffiliatedTo", "Greens", 1992, 1998),
    fact(2, "Bob_Lind", "isAffiliatedTo", "Reds", 1980, 2004),
    fact(3, "Cid_Moe", "isAffiliatedTo", "Reds", 1985, 1999),
    fact(4, "Cid_Moe", "isMarriedTo", "Dee_Ray", 1986, 1996),
]


def test_a_duration_is_asked_over_one_hop() -> None:
    b, checker = _built(MARRIED, "yago11k", n=400)
    assert defect_report(checker, b.questions)["bridge named twice in a duration"] == []
    durations = [q for q in b.questions if q.operator == "duration"]
    assert durations and all(len(q.logical_form["path"]) == 1 for q in durations)
    bob = [q for q in durations if q.S_star[-1].fact_id == 2]  # Bob with the Reds 1980-2004: 24 years
    assert all(q.answer_ids == ("P24Y",) for q in bob)
    cell = b.manifest["cells"]["duration/2"]
    assert cell["attempts"] > 0 and cell["made"] == 0, cell


def test_the_duration_draft_refuses_a_bridge() -> None:
    from chronoqa.generate.kg.operators.duration import draft

    class Ctx:  # the draft refuses before it reads the graph
        miss = ""

    ctx = Ctx()
    assert draft(ctx, random.Random(0), 2) is None and ctx.miss == BRIDGE_NAMED_TWICE  # type: ignore[arg-type]


CONVENTION_ENTRY = re.compile(r'date_convention = """.*?"""', re.S)


def test_the_new_declarations_are_checked(tmp_path: Path) -> None:
    text = (PHRASES / "wikidata12k.toml").read_text(encoding="utf-8")
    for old, new, field in (
        ('object_shown_by = ["P17 object"]', 'object_shown_by = ["P17 beside"]', r"roles\.country: expected"),
        ("squads = true  # a club's", 'squads = "yes"  # a club\'s', r"P54\.squads must be true or false"),
        (CONVENTION_ENTRY.search(text), 'date_convention = ""', r"P1411\.date_convention must be the reason"),
    ):
        old = old if isinstance(old, str) else old.group(0) if old else "missing"
        assert old in text
        bad = tmp_path / "bad.toml"
        bad.write_text(text.replace(old, new), encoding="utf-8")
        with pytest.raises(ChronoqaError, match=field):
            load_phrase_table(bad)
