"""Table releases: every question triple IS its corpus document's triple.

Scoring and the retrievers identify a fact by ``(s, r, o, t_start, t_end)``; a retriever returning
exactly the gold corpus documents must be scored as having retrieved S*. The expected identities are
computed here from the raw rows (hand-written rules, not the builder's function).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from chronoqa.artifacts.release import Release, load_release
from chronoqa.generate.table import JoinSpec, TableBuild, TableBuildConfig, build_table_benchmark
from chronoqa.records import Doc, Question, TemporalTable, Triple
from chronoqa.score.tempbench import aggregate, score_question
from chronoqa.time import Interval

FIELDS = ("S_star", "S_dist", "S_stale", "S_anchor")


def table(
    name: str, columns: tuple[str, ...], rows: list[tuple[str, ...]], spans: list[tuple[str, str | None]]
) -> TemporalTable:
    return TemporalTable(
        name, columns, rows, [Interval.parse(s, e) for s, e in spans], list(range(2, len(rows) + 2)), "Start", "End"
    )


def leaders() -> TemporalTable:
    return table(
        "lead",
        ("Country", "Role", "Name", "Party"),
        [
            ("A", "President", "a1", "Red"),
            ("A", "President", "a2", "Blue"),
            ("A", "President", "a3", "Red"),
            ("B", "President", "b1", "Green"),
            ("B", "President", "b2", "Red"),
            ("B", "President", "b3", "Green"),
        ],
        [
            ("1990-03-05", "1996-07-31"),
            ("1996-08-01", "2004-02-10"),
            ("2004-02-11", None),
            ("1985-05-05", "1999-12-30"),
            ("1999-12-31", "2011-06-01"),
            ("2011-06-02", None),
        ],
    )


def events() -> TemporalTable:
    return table(
        "ev",
        ("Edition", "Country", "Season", "Game"),
        [("1", "A", "S", "A 1992"), ("2", "B", "W", "B 2002"), ("2", "A", "S", "A 2008"), ("3", "B", "S", "B 2016")],
        [
            ("1992-07-01", "1992-07-20"),
            ("2002-02-01", "2002-02-20"),
            ("2008-08-01", "2008-08-20"),
            ("2016-07-01", None),
        ],
    )


def release_of(build: TableBuild, out: Path) -> Release:
    build.write(out)
    return load_release(out)


def identity_failures(questions: Sequence[Question], corpus: Sequence[Doc]) -> Counter[str]:
    """Per field: question triples whose doc is missing or whose doc's triple differs in any field."""
    docs = {d.doc_id: d for d in corpus}
    bad: Counter[str] = Counter()
    for q in questions:
        for f in FIELDS:
            for t in getattr(q, f):
                d = docs.get(t.doc_id)
                if d is None or d.triple() != t or d.triple().key() != t.key():
                    bad[f"{q.operator}:{f}"] += 1
    return bad


def expected_triple(t: TemporalTable, i: int, lhs: Sequence[str], rhs: str) -> tuple[str, str, str, str, str, str]:
    """(s, r, o, s_id, r_id, o_id) of row ``i`` for the documented rule, written out independently."""
    row = dict(zip(t.columns, t.rows[i], strict=True))
    xs = [row[c] or "" for c in lhs]
    return (
        ", ".join(x for x in xs if x),
        rhs.replace("_", " ").lower(),
        row[rhs] or "",
        " | ".join(xs),
        rhs,
        row[rhs] or "",
    )


def test_fixture_identity_primary_tfd_generic_rows_and_join(tmp_path: Path) -> None:
    lead, ev = leaders(), events()
    cfg = TableBuildConfig(
        as_of="2020-01-01",
        per_cell=3,
        tfds={"lead": ["Country,Role->Name", "Country->Party"]},
        joins=[JoinSpec("ev", "lead")],
    )
    build = build_table_benchmark([lead, ev], cfg)
    rel = release_of(build, tmp_path / "rel")
    ops = Counter(q.operator for q in rel.questions)
    assert ops["allen"] and ops["time_alignment"] and ops["temporal_join"]
    assert {q.logical_form["tfd"] for q in rel.questions if q.operator == "allen"} == {
        "Country,Role->Name",
        "Country->Party",
    }
    assert not identity_failures(rel.questions, rel.corpus)
    assert sum(len(getattr(q, f)) for q in rel.questions for f in FIELDS) > 50
    docs = {d.doc_id: d for d in rel.corpus}
    assert len(docs) == len(rel.corpus) == len(lead) + len(ev)  # one document per row
    # primary TFD = the first named one: every leaders document is (Country, Role) -> Name
    for i in range(len(lead)):
        d = docs[f"lead:{lead.lines[i]}"]
        assert (d.s, d.r, d.o, d.s_id, d.r_id, d.o_id) == expected_triple(lead, i, ("Country", "Role"), "Name")
        assert d.fact_id == i
    assert docs["lead:2"].s == "A, President" and docs["lead:4"].t_end is None
    assert docs["lead:2"].t_start == "1990-03-05" and docs["lead:2"].t_end == "1996-07-31"
    # an event-only table has no kept TFD: generic triple, every attribute but the last -> the last
    for i in range(len(ev)):
        d = docs[f"ev:{ev.lines[i]}"]
        assert (d.s, d.r, d.o, d.s_id, d.r_id, d.o_id) == expected_triple(
            ev, i, ("Edition", "Country", "Season"), "Game"
        )
    # questions of the primary TFD (and the joins over it): o is the answer
    for q in rel.questions:
        if q.logical_form["tfd"].endswith("->Name"):
            assert {t.o for t in q.S_star} == set(q.answers), q.question
        else:  # Country->Party: same rows, same identity; the answer is the Party value of each row
            assert {dict(zip(lead.columns, lead.rows[t.fact_id], strict=True))["Party"] for t in q.S_star} == set(
                q.answers
            )
        assert all(r["answer"] in q.answers for r in q.time_refs)
    # the corpus text is still the row verbalised with its dates
    assert "1990" in docs["lead:2"].text and "a1" in docs["lead:2"].text


def oracle_rows(rel: Release) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Score an oracle retriever (hits = the S* documents) and a distractor one (hits = the S_dist documents)."""
    docs = {d.doc_id: d for d in rel.corpus}
    flags = rel.flags
    gold = [q for q in rel.questions if q.S_star]
    oracle = [score_question(q, [docs[t.doc_id].triple() for t in q.S_star], flags=flags.get(q.id)) for q in gold]
    with_dist = [q for q in gold if q.S_dist]
    wrong = [score_question(q, [docs[t.doc_id].triple() for t in q.S_dist], flags=flags.get(q.id)) for q in with_dist]
    return oracle, wrong


def test_oracle_retrieval_scores_ccr_1_on_a_table_release(tmp_path: Path) -> None:
    cfg = TableBuildConfig(
        as_of="2020-01-01", per_cell=3, tfds={"lead": ["Country,Role->Name"]}, joins=[JoinSpec("ev", "lead")]
    )
    rel = release_of(build_table_benchmark([leaders(), events()], cfg), tmp_path / "rel")
    oracle, wrong = oracle_rows(rel)
    assert len(oracle) > 20 and len(wrong) > 5
    agg = aggregate(oracle)
    assert agg["CCR"] == 1.0 and agg["TRP_macro"] == 1.0
    assert all(agg["by_operator"][op]["CCR"] == 1.0 for op in ("allen", "time_alignment", "temporal_join"))
    bad = aggregate(wrong)
    assert bad["CCR"] == 0.0 and bad["dist_hit_rate"] == 1.0


def test_identity_would_catch_a_relabelled_triple(tmp_path: Path) -> None:
    """The check above can fail: a question triple with the old subject phrase is not its document."""
    cfg = TableBuildConfig(as_of="2020-01-01", per_cell=2, tfds={"lead": ["Country,Role->Name"]})
    rel = release_of(build_table_benchmark([leaders()], cfg), tmp_path / "rel")
    q = next(q for q in rel.questions if q.S_star)
    t = q.S_star[0]
    moved = Triple("the President of A", "name", t.o, t.t_start, t.t_end, t.s_id, t.r_id, t.o_id, t.fact_id, t.doc_id)
    from dataclasses import replace

    broken = replace(q, S_star=(moved, *q.S_star[1:]))
    assert identity_failures([broken], rel.corpus) == Counter({"allen:S_star": 1})
    docs = {d.doc_id: d for d in rel.corpus}
    row = score_question(broken, [docs[x.doc_id].triple() for x in broken.S_star])
    assert row["CCR"] == 0.0


# -- real TDBench tables (mirror) --------------------------------------------------------------------

ALIASES = {
    "United States": "United States of America",
    "Republic of Korea": "South Korea",
    "Great Britain": "United Kingdom",
    "Russian Federation": "Russia",
    "Federal Republic of Germany": "Germany",
}


@pytest.mark.mirror
def test_real_tables_identity_and_oracle_ccr(mirror: Path, tmp_path: Path) -> None:
    from chronoqa.sources.tables import read_table

    base = mirror / "tdbench"
    names = ("dyknow_leaders", "dyknow_sports", "dyknow_organizations", "olympic")
    tables = {n: read_table(base / f"{n}.csv", name=n) for n in names}
    cfg = TableBuildConfig(
        as_of="2026-01-01",
        per_cell=2,
        tfds={"dyknow_leaders": ["Country,Role->Name"], "dyknow_sports": ["Name->Team"]},  # organizations: discovered
        joins=[JoinSpec("olympic", "dyknow_leaders", aliases=ALIASES)],
    )
    build = build_table_benchmark(list(tables.values()), cfg)
    rel = release_of(build, tmp_path / "rel")
    per_table = Counter(str(q.logical_form["table"]) for q in rel.questions)
    assert all(per_table[n] > 0 for n in ("dyknow_leaders", "dyknow_sports", "dyknow_organizations"))
    assert any(q.operator == "temporal_join" for q in rel.questions)
    assert not identity_failures(rel.questions, rel.corpus)
    assert len(rel.corpus) == len({d.doc_id for d in rel.corpus})
    docs = {d.doc_id: d for d in rel.corpus}
    kept = {n: [k["tfd"] for k in v["kept"]] for n, v in rel.manifest["tfds"].items()}
    assert kept["dyknow_organizations"][0] == "Organization_name,Role->Name"
    rules = {
        "dyknow_leaders": (("Country", "Role"), "Name"),
        "dyknow_sports": (("Name",), "Team"),
        "dyknow_organizations": (("Organization_name", "Role"), "Name"),
    }
    for n, (lhs, rhs) in rules.items():
        t = tables[n]
        for i in range(0, len(t), 97):
            d = docs.get(f"{n}:{t.lines[i]}")
            if d is not None:
                assert (d.s, d.r, d.o, d.s_id, d.r_id, d.o_id) == expected_triple(t, i, lhs, rhs)
    for q in rel.questions:
        if q.operator == "spell_start":  # sports (many-valued, not complete): when one listed spell began / ended
            assert {t.t_start for t in q.S_star} == set(q.answers), q.question
        elif q.operator == "spell_end":
            assert {t.t_end for t in q.S_star} == set(q.answers), q.question
        else:
            assert {t.o for t in q.S_star} == set(q.answers), q.question  # every question here asks a primary TFD
    oracle, wrong = oracle_rows(rel)
    agg = aggregate(oracle)
    assert agg["CCR"] == 1.0 and agg["TRP_macro"] == 1.0
    assert {op for op in agg["by_operator"]} == {
        "allen",
        "time_alignment",
        "temporal_join",
        "spell_start",
        "spell_end",
    }
    assert aggregate(wrong)["CCR"] == 0.0
