"""Table builder: calendar edge cases, granularity detection, TFDs, joins, phrases, paraphrase, determinism, CLI."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.generate.table import (
    RELATIONS,
    TFD,
    JoinSpec,
    PhraseBook,
    TableBuildConfig,
    TableStore,
    build_table_benchmark,
    check_tfd,
    detect_granularity,
    discover_tfds,
    paraphrase_questions,
    select_tfds,
    temporal_join,
)
from chronoqa.records import TemporalTable
from chronoqa.time import Allen, Granularity, Interval, TimePoint, parse_time

AS_OF = parse_time("2026-01-01")
assert AS_OF is not None


def table(
    name: str, columns: tuple[str, ...], rows: list[tuple[str, ...]], spans: list[tuple[str, str | None]]
) -> TemporalTable:
    return TemporalTable(
        name,
        columns,
        rows,
        [Interval.parse(s, e) for s, e in spans],
        list(range(2, len(rows) + 2)),
        "Start",
        "End",
    )


def names(store: TableStore, condition: str) -> list[str]:
    return [r[0] for r in store.query(f'SELECT "Name" FROM "{store.sql_name}" WHERE {condition} ORDER BY _row')]


# -- calendar edge cases (hand-worked) ------------------------------------------------------------


def leap_table() -> TemporalTable:
    return table(
        "cal",
        ("Country", "Role", "Name"),
        [("X", "P", "Jan"), ("X", "P", "Feb"), ("X", "P", "Rest"), ("X", "P", "Now")],
        [
            ("2020-01-01", "2020-01-31"),
            ("2020-02-01", "2020-02-29"),
            ("2020-03-01", "2020-12-31"),
            ("2021-01-01", None),
        ],
    )


def test_month_ends_leap_day_and_dec31_at_day_level() -> None:
    store = TableStore.build(leap_table(), as_of=AS_OF)
    assert store.granularity is Granularity.DAY
    u = {
        iso: TimePoint.parse(iso).lo(Granularity.DAY)
        for iso in ("2020-02-01", "2020-03-01", "2021-01-01", "2020-02-29")
    }  # type: ignore[union-attr]
    meets = RELATIONS[Allen.MEETS]
    # the row ending 31 January meets 1 February; the one ending 29 February (leap) meets 1 March; 31 Dec meets 1 Jan
    assert names(store, meets.condition(u["2020-02-01"], u["2020-02-01"])) == ["Jan"]
    assert names(store, meets.condition(u["2020-03-01"], u["2020-03-01"])) == ["Feb"]
    assert names(store, meets.condition(u["2021-01-01"], u["2021-01-01"])) == ["Rest"]
    # equals a reference spanning exactly February 2020 (29 days)
    assert names(store, RELATIONS[Allen.EQUALS].condition(u["2020-02-01"], u["2020-02-29"])) == ["Feb"]
    # the open row is closed at as_of, never ends before it
    assert names(store, "_hi = " + str(AS_OF.lo(Granularity.DAY))) == ["Now"]
    # Jan 31 + 1 month clamps to Feb 29 in a leap year (the time package's shift, used for display)
    assert TimePoint(2020, 1, 31).shift(1, Granularity.MONTH) == TimePoint(2020, 2, 29)
    assert TimePoint(2021, 1, 31).shift(1, Granularity.MONTH) == TimePoint(2021, 2, 28)


def test_month_granularity_compares_whole_months() -> None:
    t = table(
        "m",
        ("Country", "Role", "Name"),
        [("X", "P", "A"), ("X", "P", "B")],
        [("2019-11", "2020-01"), ("2020-02", "2020-12")],
    )
    store = TableStore.build(t, as_of=AS_OF)
    assert store.granularity is Granularity.MONTH
    feb = 2020 * 12 + 1
    assert names(store, RELATIONS[Allen.MEETS].condition(feb, feb)) == ["A"]
    assert names(store, RELATIONS[Allen.STARTS].condition(feb, feb + 11)) == ["B"]


def test_jan1_placeholders_are_compared_at_year_level() -> None:
    """TDBench labels 'President of Pakistan between 2013 and 2018' none; at year level it is unique."""
    t = table(
        "pk",
        ("Country", "Role", "Name"),
        [("Pakistan", "President", "A"), ("Pakistan", "President", "B"), ("Pakistan", "President", "C")],
        [("2008-01-01", "2013-01-01"), ("2013-01-01", "2018-01-01"), ("2018-01-01", None)],
    )
    rep = detect_granularity(t)
    assert rep.granularity == "year" and rep.jan1_share == 1.0
    year = TableStore.build(t, as_of=AS_OF)
    assert year.granularity is Granularity.YEAR
    assert names(year, RELATIONS[Allen.EQUALS].condition(2013, 2018)) == ["B"]
    day = TableStore.build(t, as_of=AS_OF, granularity=Granularity.DAY, sql_name="pk_day")
    d0, d1 = TimePoint(2013, 1, 1).lo(Granularity.DAY), TimePoint(2018, 12, 31).hi(Granularity.DAY)
    assert names(day, RELATIONS[Allen.EQUALS].condition(d0, d1)) == []  # the false "none" we avoid


def test_year_placeholder_handovers_read_as_meets(tmp_path: Path) -> None:
    """A term ending in the year the next begins (2003..2009, 2009..2018) meets it: worked by hand."""
    rows = [("Ronaldo", "Man Utd"), ("Ronaldo", "Real"), ("Ronaldo", "Juventus"), ("Ronaldo", "Portugal")]
    spans = [("2003-01-01", "2009-01-01"), ("2009-01-01", "2018-01-01"), ("2018-01-01", None), ("2009-01-01", None)]
    t = table("cr", ("Name", "Team"), rows, spans)
    store = TableStore.build(t, as_of=AS_OF)
    # before the reading: Man Utd and Real share 2009 (overlaps)
    assert [r[0] for r in store.query('SELECT "Team" FROM cr WHERE _hi + 1 = 2009')] == []
    # Man Utd meets Real and Portugal (2 pairs), Real meets Juventus (1); open rows are never moved
    assert store.read_handovers_as_meets(("Name",)) == (3, 2)
    assert [r[0] for r in store.query('SELECT "Team" FROM cr WHERE _hi + 1 = 2009')] == ["Man Utd"]
    assert [r[0] for r in store.query('SELECT "Team" FROM cr WHERE _hi + 1 = 2018')] == ["Real"]
    assert store.hi.tolist()[:2] == [2008, 2017]
    assert store.row_iso(0) == ("2003", "2009")  # the data's end is kept for the corpus and the triples
    day = TableStore.build(t, as_of=AS_OF, granularity=Granularity.DAY, sql_name="cr_day")
    assert day.read_handovers_as_meets(("Name",)) == (0, 0)  # a same-day handover shares the day
    cfg = {"as_of": "2026-01-01", "tfds": {"cr": ["Name->Team"]}, "threshold": 1.0}
    meets = build_table_benchmark([t], TableBuildConfig(**cfg))  # type: ignore[arg-type]
    h = meets.manifest["tables"]["cr"]["handovers"]
    assert (h["reading"], h["key"], h["pairs"], h["rows"]) == ("meets", ["Name"], 3, 2)
    for q in meets.questions:  # a moved row's end is never stated exactly ("and ended in 2008": it was 2009)
        if q.allen in ("finishes", "finished-by", "equals"):
            assert all(t.t_end in (None, q.reference["end"]) for t in q.S_star), q.question
    assert "cr: read as `meets` along Name: 3 pairs (2 rows" in meets.datacard
    kept = build_table_benchmark([t], TableBuildConfig(**cfg, handovers="overlap"))  # type: ignore[arg-type]
    assert kept.manifest["tables"]["cr"]["handovers"]["pairs"] == 0
    with pytest.raises(ChronoqaError, match="handovers: expected one of meets, overlap"):
        TableBuildConfig(handovers="meet")


def test_bad_rows_are_left_out_and_counted() -> None:
    t = table(
        "bad",
        ("Country", "Role", "Name"),
        [("X", "P", "ok"), ("X", "P", "nostart"), ("X", "P", "reversed"), ("X", "P", "future")],
        [("2000", "2001"), ("", "2003"), ("2005", "2004"), ("2030", None)],
    )
    store = TableStore.build(t, as_of=AS_OF)
    assert store.rows.tolist() == [0]
    assert sum(store.notes.values()) == 3


# -- TFDs -------------------------------------------------------------------------------------------


def tfd_table() -> TemporalTable:
    return table(
        "t",
        ("Country", "Role", "Name"),
        [
            ("A", "P", "a1"),
            ("A", "P", "a2"),  # handover on the same day as a1 ends
            ("A", "P", "a3"),  # overlaps a2 for a month: a violation
            ("A", "PM", "a1"),
            ("B", "P", "b1"),
            ("B", "P", "b2"),
        ],
        [
            ("2000-01-01", "2004-05-01"),
            ("2004-05-01", "2008-01-01"),
            ("2007-12-01", None),
            ("2010-01-01", "2012-01-01"),
            ("2000-01-01", "2010-01-01"),
            ("2010-01-02", None),
        ],
    )


def test_tfd_support_violations_and_handovers() -> None:
    # 6 of 11 dates are 1 January (a year-placeholder table); read it at day level for this hand-worked case
    store = TableStore.build(tfd_table(), as_of=AS_OF, granularity=Granularity.DAY)
    rep = check_tfd(store, TFD.parse("Country,Role->Name"))
    assert (rep.rows, rep.keys, rep.changing_keys) == (6, 3, 2)
    assert (rep.violations, rep.violating_rows, rep.violating_keys, rep.handovers) == (1, 2, 1, 1)
    assert [(v.line_a, v.line_b, v.y_a, v.y_b) for v in rep.examples] == [(3, 4, "a2", "a3")]
    reports = {str(r.tfd): r for r in discover_tfds(store)}
    assert reports["Country->Name"].violation_rate == 0.5  # a1 as PM overlaps a3 as P; a2 overlaps a3
    loose = select_tfds(list(reports.values()), threshold=0.4, min_changing_keys=1, min_changing_share=0.0)
    assert TFD(("Country", "Role"), "Name") in {r.tfd for r in loose}
    assert TFD(("Country",), "Name") not in {r.tfd for r in loose}
    strict = select_tfds(discover_tfds(store), threshold=0.0, min_changing_keys=1, min_changing_share=0.0)
    assert TFD(("Country", "Role"), "Name") not in {r.tfd for r in strict}


def test_tfd_parse_errors() -> None:
    with pytest.raises(UnknownNameError, match="Did you mean Country"):
        TFD.parse("Countyr,Role->Name", ("Country", "Role", "Name"))
    with pytest.raises(ChronoqaError, match="expected 'A,B->C'"):
        TFD.parse("Country Role Name")


# -- joins ------------------------------------------------------------------------------------------


def test_temporal_join_intersection_against_brute_force() -> None:
    events = table(
        "ev",
        ("Edition", "Country", "Season", "Game"),
        [("1", "A", "S", "A 2004"), ("1", "B", "W", "B 2010"), ("2", "A", "W", "A 2010"), ("2", "C", "S", "C 2012")],
        [
            ("2004-08-01", "2004-08-20"),
            ("2010-02-01", "2010-02-20"),
            ("2010-01-20", "2010-02-03"),
            ("2012-07-01", "2012-07-10"),
        ],
    )
    leaders = tfd_table()
    jr = temporal_join(events, leaders, granularity=Granularity.DAY, as_of=AS_OF)
    assert jr.on == ("Country",)
    got = {(r[3], r[4], r[5], str(iv)) for r, iv in zip(jr.table.rows, jr.table.intervals, strict=True)}
    # brute force: equal country, closed day spans sharing at least one day; validity = intersection
    expected = set()
    for e, ev_iv in zip(events.rows, events.intervals, strict=True):
        for lrow, l_iv in zip(leaders.rows, leaders.intervals, strict=True):
            if e[1] != lrow[0]:
                continue
            es, ee = ev_iv.start.isoformat(), ev_iv.end.isoformat()  # type: ignore[union-attr]
            ls, le = l_iv.start.isoformat(), l_iv.end.isoformat() if l_iv.end else "2026-01-01"  # type: ignore[union-attr]
            lo, hi = max(es, ls), min(ee, le)
            if lo <= hi:
                expected.add((e[3], lrow[1], lrow[2], f"[{lo}, {hi}]" if lo != hi else lo))
    assert got == expected
    assert jr.unmatched_left == (3,)
    build = build_table_benchmark(
        [events, leaders],
        TableBuildConfig(
            as_of="2026-01-01", per_cell=5, tfds={"t": ["Country,Role->Name"]}, joins=[JoinSpec("ev", "t")]
        ),
    )
    joined = [q for q in build.questions if q.operator == "temporal_join"]
    assert {q.hops for q in joined} == {2, 3}
    for q in joined:
        assert q.S_anchor and all(t.doc_id.startswith("ev:") for t in q.S_anchor)
        assert {t.o for t in q.S_star} == set(q.answers)
    q = next(q for q in joined if q.hops == 2 and q.logical_form["key"] == ["A 2010", "P"])
    # A 2010 (20 Jan - 3 Feb 2010): a2 ended 2008, a3 is open since 2007-12: only a3
    assert q.answers == ("a3",) and q.cardinality == "unique"


# -- phrases, paraphrase, determinism, CLI ----------------------------------------------------------


def test_phrases_and_no_table_name(tmp_path: Path) -> None:
    pf = tmp_path / "phrases.json"
    pf.write_text(
        '{"tfds": {"Country,Role->Name": {"subject": "the {Role} of {Country}", "wh": "Who was", "period": "tenure"}},'
        ' "facts": {"t": "{Name} was the {Role} of {Country}"}}',
        encoding="utf-8",
    )
    build = build_table_benchmark(  # complete: a3 overlapping a2 makes the TFD many-valued (asked only so)
        [tfd_table()],
        TableBuildConfig(per_cell=2, tfds={"t": ["Country,Role->Name"]}, complete=("t",)),
        phrases=PhraseBook.load(pf),
    )
    allen = [q for q in build.questions if q.operator == "allen"]
    assert allen and all(
        q.question.startswith(("Who was the P", "Who was the last P", "Who was the first P", "Who were the Ps"))
        for q in allen
    )
    assert all("tenure" in q.question for q in allen)
    assert all("database" not in q.question.lower() and " t " not in q.question for q in build.questions)
    assert any(d.text.startswith("a1 was the P of A") for d in build.corpus())


def test_paraphrase_hook_rejects_lost_values() -> None:
    build = build_table_benchmark([tfd_table()], TableBuildConfig(per_cell=2, tfds={"t": ["Country,Role->Name"]}))
    qs = list(build.questions)
    kept, rep = paraphrase_questions(qs, lambda text: "Tell me: " + text)
    assert rep.accepted == len(qs) and rep.rejected == 0
    assert all(q.question.startswith("Tell me:") for q in kept)
    dropped, rep2 = paraphrase_questions(qs, lambda text: "".join(c for c in text if not c.isdigit()))
    assert rep2.rejected == len(qs) and [q.question for q in dropped] == [q.question for q in qs]

    def broken(text: str) -> str:
        raise RuntimeError("LLM down")

    _, rep3 = paraphrase_questions(qs[:3], broken)
    assert rep3.failed == 3
    with_para = build_table_benchmark(
        [tfd_table()], TableBuildConfig(per_cell=2, tfds={"t": ["Country,Role->Name"]}), paraphrase=str.upper
    )
    assert with_para.manifest["paraphrase"]["tried"] == len(qs)


def test_release_is_byte_identical(tmp_path: Path) -> None:
    rng = random.Random(5)
    rows = [("K" + str(rng.randint(0, 5)), "R", f"n{i}") for i in range(60)]
    spans = []
    for _ in rows:
        y = rng.randint(1950, 2020)
        spans.append((f"{y}-{rng.randint(1, 12):02d}-01", f"{y + rng.randint(0, 6)}-{rng.randint(1, 12):02d}-15"))
    t = table("det", ("Country", "Role", "Name"), rows, spans)
    for out in ("a", "b"):
        b = build_table_benchmark([t], TableBuildConfig(seed=3, per_cell=3, tfds={"det": ["Country,Role->Name"]}))
        b.write(tmp_path / out)
    ids = [d.doc_id for d in b.corpus()]
    assert len(set(ids)) == len(ids)
    assert all(t.doc_id in set(ids) for q in b.questions for t in (*q.S_star, *q.S_stale, *q.S_dist))
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert "benchmark.jsonl" in files and "DATACARD.md" in files
    for f in files:
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f
    other = build_table_benchmark([t], TableBuildConfig(seed=4, per_cell=3, tfds={"det": ["Country,Role->Name"]}))
    other.write(tmp_path / "c")
    assert (tmp_path / "c" / "benchmark.jsonl").read_bytes() != (tmp_path / "a" / "benchmark.jsonl").read_bytes()


def test_both_builders_return_one_result_type_with_one_manifest_schema(tmp_path: Path) -> None:
    from chronoqa.artifacts.release import load_release
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
    from chronoqa.generate.result import MANIFEST_COUNT_KEYS, MANIFEST_KEYS, BuildResult, check_manifest
    from chronoqa.records import Fact, TemporalGraph

    facts = [
        Fact(i, f"<{s}>", "<playsFor>", f"<{o}>", TimePoint(a), TimePoint(b), i + 1)
        for i, (s, o, a, b) in enumerate([("Ann", "Reds", 2000, 2004), ("Ann", "Blues", 2005, 2008)])
    ]
    graph = TemporalGraph("g", facts, {e: e.strip("<>") for f in facts for e in (f.s, f.o)}, {"<playsFor>": "playsFor"})
    kg = build_kg_benchmark(graph, KGBuildConfig(n_questions=20, seed=1), phrases="yago11k")
    tb = build_table_benchmark([tfd_table()], TableBuildConfig(per_cell=2, tfds={"t": ["Country,Role->Name"]}))
    assert type(kg) is type(tb) is BuildResult
    for name, build in (("kg", kg), ("table", tb)):
        m = load_release(build.write(tmp_path / name)).manifest
        assert m["builder"] == name and all(k in m for k in MANIFEST_KEYS)
        assert all(k in m["counts"] for k in MANIFEST_COUNT_KEYS)
        assert m["counts"]["questions"] == len(build.questions)
        assert m["counts"]["corpus_docs"] == sum(1 for _ in build.corpus())
        assert sum(m["counts"]["splits"].values()) == len(build.questions)
    broken = dict(tb.manifest)
    del broken["seed"]
    with pytest.raises(ChronoqaError, match="lacks seed"):
        check_manifest(broken)


def test_a_build_with_no_question_says_why(tmp_path: Path) -> None:
    from chronoqa.cli import app

    # every key holds one value for ever: no TFD whose value changes, so no time-sensitive question
    still = table("still", ("Country", "Capital"), [("A", "a"), ("B", "b"), ("C", "c")], [("1990", None)] * 3)
    with pytest.raises(ChronoqaError, match=r"no question.*still.*no usable TFD"):
        build_table_benchmark([still], TableBuildConfig())
    # every row left out (start after as_of)
    late = table("late", ("Country", "Role", "Name"), [("A", "P", "x"), ("A", "P", "y")], [("2030", None)] * 2)
    with pytest.raises(ChronoqaError, match=r"no question.*late.*all 2 rows were left out"):
        build_table_benchmark([late], TableBuildConfig(as_of="2026-01-01", tfds={"late": ["Country,Role->Name"]}))
    csv = tmp_path / "still.csv"
    csv.write_text("Country,Capital,Start,End\nA,a,1990,\nB,b,1990,\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["build", "table", str(csv), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "no usable TFD" in " ".join(res.output.split())


def test_cli_build_table(tmp_path: Path) -> None:
    from chronoqa.cli import app

    csv = tmp_path / "leaders.csv"
    csv.write_text(
        "Country,Role,Name,Start,End\n"
        "A,President,x,1990-01-05,1995-03-01\nA,President,y,1995-03-01,2001-07-31\nA,President,z,2001-08-01,\n"
        "B,President,u,1980-02-02,1999-12-31\nB,President,v,2000-01-01,\n",
        encoding="utf-8",
    )
    out = tmp_path / "rel"
    res = CliRunner().invoke(
        app, ["build", "table", str(csv), "--out", str(out), "--tfd", "Country,Role->Name", "--per-cell", "2"]
    )
    assert res.exit_code == 0, res.output
    assert (out / "manifest.json").exists() and (out / "qrels").exists()
    res = CliRunner().invoke(app, ["build", "table", str(csv), "--out", str(out), "--tfd", "Contry,Role->Name"])
    assert res.exit_code == 2 and "Did you mean Country" in res.output
    res = CliRunner().invoke(app, ["build", "table", str(csv), "--out", str(out), "--tfd", "leaders:Contry,Role->Name"])
    assert res.exit_code == 2 and "Did you mean Country" in res.output
