"""KG builder: hand-worked small graphs, the independent checker, determinism, negatives, splits, phrases."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from pathlib import Path

import pytest

from chronoqa.artifacts.release import load_release
from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.generate.kg import OPERATORS, KGBuildConfig, MissingPhrasesError, build_kg_benchmark, load_phrase_table
from chronoqa.generate.kg.phrases import PhraseTable
from chronoqa.records import Fact, Question, TemporalGraph, Triple
from chronoqa.time import TimePoint
from kg_checker import (
    PHRASES,
    Checker,
    check_all,
    declarations_from_toml,
    kinds_from_toml,
    not_years_of,
    open_end_of,
    world_report,
)


def tp(y: int | None) -> TimePoint | None:
    return None if y is None else TimePoint(y)


def fact(i: int, s: str, r: str, o: str, a: int | None, b: int | None) -> Fact:
    return Fact(i, f"<{s}>", f"<{r}>", f"<{o}>", tp(a), tp(b), i + 1)


def labels_of(facts: list[Fact]) -> dict[str, str]:
    return {e: e.strip("<>").replace("_", " ") for f in facts for e in (f.s, f.o)}


def rel_labels(facts: list[Fact]) -> dict[str, str]:
    return {f.r: f.r.strip("<>") for f in facts}


# A hand-made YAGO-like graph. Worked by hand:
#   Ann playsFor Reds [2000, 2004], then Blues [2005, 2008]; Ann isMarriedTo Bob [2001, open];
#   Bob worksAt Uni [1999, 2003]; Ann and Cid both won the Prize in 2003 (an ambiguous event year);
#   Ann won the Medal in 1998 (an event: only in 1998); Dan playsFor Reds [1990, 1995].
#   Eve playsFor Reds 2010 (start only: a state, ongoing as of as_of); Fay bad fact: start after end.
HAND = [
    fact(0, "Ann", "playsFor", "Reds", 2000, 2004),
    fact(1, "Ann", "playsFor", "Blues", 2005, 2008),
    fact(2, "Ann", "isMarriedTo", "Bob", 2001, None),
    fact(3, "Bob", "worksAt", "Uni", 1999, 2003),
    fact(4, "Ann", "hasWonPrize", "Prize", 2003, None),
    fact(5, "Cid", "hasWonPrize", "Prize", 2003, None),
    fact(6, "Ann", "hasWonPrize", "Medal", 1998, None),
    fact(7, "Dan", "playsFor", "Reds", 1990, 1995),
    fact(8, "Eve", "playsFor", "Reds", 2010, None),
    fact(9, "Fay", "playsFor", "Reds", 2009, 2001),
    fact(10, "Ann", "wasBornIn", "Town", 1975, None),
]


def hand_graph() -> TemporalGraph:
    return TemporalGraph("hand", HAND, labels_of(HAND), rel_labels(HAND))


def hand_build(**kw: object) -> tuple[TemporalGraph, list[Question], dict[str, tuple[bool, bool]]]:
    g = hand_graph()
    # the hand-worked values below read open ends as ongoing (the unknown reading has its own tests)
    cfg = KGBuildConfig(**{"n_questions": 400, "seed": 3, "open_end": "ongoing", **kw})  # type: ignore[arg-type]
    b = build_kg_benchmark(g, cfg, phrases="yago11k")
    return g, b.questions, {f.id: (f.dist_functional, f.stale_functional) for f in b.flags}


def test_hand_graph_answers_match_hand_worked_values() -> None:
    _, qs, _ = hand_build()
    assert qs, "the hand graph allows questions"
    pit = [q for q in qs if q.operator == "point_in_time" and q.hops == 1]
    assert pit
    for q in pit:
        lf = q.logical_form
        t = int(q.t_query or 0)
        step = lf["path"][0]
        if lf["anchor"] == "<Ann>" and step == {"r": "<playsFor>", "dir": "fwd"}:
            assert q.answer_ids == (("<Reds>",) if 2000 <= t <= 2004 else ("<Blues>",))
            assert 2000 <= t <= 2008
        if lf["anchor"] == "<Ann>" and step == {"r": "<hasWonPrize>", "dir": "fwd"}:
            # events happen at their start only: 1998 -> Medal, 2003 -> Prize; never another year
            assert (t, q.answer_ids) in {(1998, ("<Medal>",)), (2003, ("<Prize>",))}
        if step["r"] == "<hasWonPrize>" and step["dir"] == "inv":
            assert lf["anchor"] != "<Prize>" or t != 2003, "two winners of the Prize in 2003: ambiguous"
        if lf["anchor"] == "<Reds>" and step["dir"] == "inv":
            # who played for Reds: Dan 1990-1995, Ann 2000-2004, Eve 2010-2025 (open end = ongoing)
            want = "<Dan>" if t <= 1995 else "<Ann>" if t <= 2004 else "<Eve>"
            assert q.answer_ids == (want,)
            assert 1990 <= t <= 1995 or 2000 <= t <= 2004 or 2010 <= t <= 2025
        for tr in q.S_star:
            assert tr.s_id != "<Fay>", "a reversed fact is never gold"
    # the reversed fact never appears anywhere
    for q in qs:
        for tr in (*q.S_star, *q.S_dist, *q.S_stale, *q.S_anchor):
            assert tr.fact_id != 9


def test_hand_graph_two_hop_and_interval_examples() -> None:
    _, qs, _ = hand_build()
    texts = {q.question: q for q in qs}
    # 2-hop at 2002: Ann's spouse is Bob (unique), Bob works at Uni (until 2003)
    two = [q for q in qs if q.operator == "point_in_time" and q.hops == 2 and q.answer_ids == ("<Uni>",)]
    for q in two:
        assert 2001 <= int(q.t_query or 0) <= 2003
        assert [t.fact_id for t in q.S_star] == [2, 3]
    # interval: Ann joined Blues in 2005 (the only Ann-playsFor-Blues fact)
    iv = [q for q in qs if q.operator == "interval" and q.hops == 1 and q.logical_form["final_other"] == "<Blues>"]
    for q in iv:
        assert q.answers == (("2008",) if q.logical_form["variant"] == "end" else ("2005",))
        assert not q.render_time
        assert "2005" not in q.question and "2008" not in q.question
    # sequence: Ann's first team is Reds, last is Blues
    for q in qs:
        lf = q.logical_form
        if q.operator == "sequence" and q.hops == 1 and lf["anchor"] == "<Ann>" and lf["path"][0]["r"] == "<playsFor>":
            want = {"first": "<Reds>", "last": "<Blues>", "next": "<Blues>"}[lf["variant"]]
            assert q.answer_ids == (want,)
    assert texts


def test_hand_graph_passes_independent_checker() -> None:
    g, qs, flags = hand_build()
    errs = check_all(Checker.from_table(g, PHRASES / "yago11k.toml"), qs, flags)
    assert errs == []


def test_multi_answer_is_dropped_by_default_and_kept_on_request() -> None:
    # Gus plays for Reds [2000, 2006] and Greens [2003, 2008] at once (a "one" direction the graph
    # breaks): 2003-2006 has two answers, asked only with keep_multi_answer and then in the plural
    extra = [
        fact(11, "Gus", "playsFor", "Reds", 2000, 2006),
        fact(12, "Gus", "playsFor", "Greens", 2003, 2008),
        fact(13, "Gus", "playsFor", "Blues", 2010, 2012),  # so that the time matters
    ]
    facts = [*HAND, *extra]
    g = TemporalGraph("multi", facts, labels_of(facts), rel_labels(facts))
    cfg = KGBuildConfig(n_questions=400, seed=3, open_end="ongoing")
    qs = build_kg_benchmark(g, cfg, phrases="yago11k").questions
    assert all(q.cardinality == "unique" for q in qs)
    cfg = KGBuildConfig(n_questions=400, seed=3, open_end="ongoing", keep_multi_answer=True, max_answer_share=1.0)
    b = build_kg_benchmark(g, cfg, phrases="yago11k")
    multi = [q for q in b.questions if q.cardinality == "multiple"]
    assert multi, "Gus played for two teams in 2003-2006"
    for q in multi:
        assert set(q.answer_ids) == {"<Reds>", "<Greens>"} and 2003 <= int(q.t_query or 0) <= 2006
        assert "which clubs did gus play for" in q.question.lower(), q.question
    flags = {f.id: (f.dist_functional, f.stale_functional) for f in b.flags}
    assert check_all(Checker.from_table(g, PHRASES / "yago11k.toml", open_end="ongoing"), b.questions, flags) == []


def random_graph(n: int, seed: int) -> TemporalGraph:
    rng = random.Random(seed)
    rels = ["playsFor", "isMarriedTo", "hasWonPrize", "worksAt", "owns", "created"]
    facts = []
    for i in range(n):
        r = rng.choice(rels)
        s = f"Person_{rng.randrange(n // 4)}"
        o = f"Thing_{rng.randrange(n // 6)}" if r != "isMarriedTo" else f"Person_{rng.randrange(n // 4)}"
        a = rng.randrange(1950, 2020) if rng.random() > 0.05 else None
        b = None if rng.random() < 0.3 or a is None else a + rng.randrange(0, 12)
        facts.append(fact(i, s, r, o, a, b))
    for _ in range(n // 20):  # repeated periods of the same triple: stale negatives
        f = facts[rng.randrange(n)]
        if f.start is not None:
            facts.append(fact(len(facts), f.s[1:-1], f.r[1:-1], f.o[1:-1], f.start.year + 20, f.start.year + 22))
    for j in range(n // 100):  # careers whose spells adjoin (the random ones seldom do; "next" needs it)
        a = rng.randrange(1950, 2000)
        for i in range(3):
            facts.append(fact(len(facts), f"Player_{j}", "playsFor", f"Club_{j}_{i}", a + 3 * i, a + 3 * i + 3))
    return TemporalGraph("rand", facts, labels_of(facts), rel_labels(facts))


def yago_owning() -> PhraseTable:
    """YAGO11k's phrase table with ``owns`` asked: a made-up graph's ownership facts are not YAGO's unreliable ones (the
    shipped table leaves the relation unasked for them)."""
    t = load_phrase_table("yago11k")
    return dataclasses.replace(t, relations={**t.relations, "owns": dataclasses.replace(t.relations["owns"], ask=True)})


def whole_graph_yago() -> PhraseTable:
    """YAGO11k's phrase table without ``entity_subset`` and with ``owns`` asked (:func:`yago_owning`): a random graph
    is no subset of a source, its gaps are its own (with it, "next" across the random gaps between spells is never
    asked)."""
    return dataclasses.replace(yago_owning(), entity_subset=False)


def test_random_graph_passes_checker_all_cells() -> None:
    g = random_graph(2400, 5)
    b = build_kg_benchmark(g, KGBuildConfig(n_questions=1000, seed=1), phrases=whole_graph_yago())
    flags = {f.id: (f.dist_functional, f.stale_functional) for f in b.flags}
    assert len(b.questions) >= 600  # the graph holds fewer world-valid questions than asked for
    assert b.manifest["open_end"] == {"reading": "unknown", "declared_by": "phrase table"}
    checker = Checker.from_table(g, PHRASES / "yago11k.toml", open_end=open_end_of(b.manifest))
    assert check_all(checker, b.questions, flags) == []
    assert world_report(checker, b.questions) == {}
    cells = {(q.operator, q.complexity) for q in b.questions}
    assert {op for op, _ in cells} == set(OPERATORS)
    assert any(q.S_stale for q in b.questions)


def _mutate_check(g: TemporalGraph, q: Question, flags: tuple[bool, bool]) -> list[str]:
    return Checker.from_table(g, PHRASES / "yago11k.toml").check(q, flags)


def test_checker_catches_broken_questions() -> None:
    g, qs, flags = hand_build()
    q = next(q for q in qs if q.operator == "point_in_time" and q.hops == 1)
    f = flags[q.id]
    assert _mutate_check(g, q, f) == []
    from dataclasses import replace

    wrong = "<Town>" if q.answer_ids != ("<Town>",) else "<Reds>"
    assert _mutate_check(g, replace(q, answer_ids=(wrong,)), f)
    assert _mutate_check(g, replace(q, t_query="1900"), f)
    assert _mutate_check(g, replace(q, question=q.question + " " + q.answers[0]), f)
    assert _mutate_check(g, replace(q, render_time=False), f)
    assert _mutate_check(g, q, (not f[0], f[1]))
    bogus = Triple("x", "y", "z", None, None, "<Ann>", "<playsFor>", "<Reds>", 0, "F0")
    assert _mutate_check(g, replace(q, S_stale=(bogus,)), f)
    # an ambiguous question: who won the Prize in 2003 (Ann and Cid)
    amb = replace(
        q,
        logical_form={**q.logical_form, "anchor": "<Prize>", "path": [{"r": "<hasWonPrize>", "dir": "inv"}]},
        t_query="2003",
        S_star=(Triple("Ann", "hasWonPrize", "Prize", "2003", None, "<Ann>", "<hasWonPrize>", "<Prize>", 4, "F4"),),
        answer_ids=("<Ann>",),
        answers=("Ann",),
    )
    assert any("answer set" in e for e in _mutate_check(g, amb, f))


def _hashes(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def test_byte_identical_release(tmp_path: Path) -> None:
    g = random_graph(1500, 9)
    cfg = KGBuildConfig(n_questions=600, seed=4)
    a = build_kg_benchmark(g, cfg, phrases="yago11k").write(tmp_path / "a")
    b = build_kg_benchmark(g, cfg, phrases="yago11k").write(tmp_path / "b")
    ha, hb = _hashes(a), _hashes(b)
    assert set(ha) == {
        ".chronoqa",  # the folder's marker: chronoqa wrote it
        "benchmark.jsonl",
        "functional_negatives.jsonl",
        "corpus.jsonl",
        "qrels",
        "manifest.json",
        "DATACARD.md",
        "implausible_facts.jsonl",
    }
    assert ha == hb
    c = build_kg_benchmark(g, KGBuildConfig(n_questions=600, seed=5), phrases="yago11k").write(tmp_path / "c")
    assert _hashes(c)["benchmark.jsonl"] != ha["benchmark.jsonl"]


def test_release_is_readable_by_tempbench_quickstart(tmp_path: Path) -> None:
    g = random_graph(1500, 2)
    build = build_kg_benchmark(g, KGBuildConfig(n_questions=300, seed=0), phrases="yago11k")
    out = build.write(tmp_path / "rel")
    # TempBench's quickstart, standard library only
    with open(out / "benchmark.jsonl", encoding="utf-8") as fh:
        test = [json.loads(line) for line in fh]
    all_ids = {q["id"] for q in test}
    test = [q for q in test if q["split"] == "test"]
    assert test
    q = test[0]
    assert isinstance(q["question"], str) and q["t_query"]
    for key in ("S_star", "S_dist", "S_stale"):
        for t in q[key]:
            assert {"s", "r", "o", "t_start", "t_end"} <= set(t)
    with open(out / "functional_negatives.jsonl", encoding="utf-8") as fh:
        flags = {json.loads(line)["id"]: json.loads(line) for line in fh}
    assert set(flags) == all_ids
    rel = load_release(out)
    assert len(rel.corpus) == len(g.facts)
    assert len({d.doc_id for d in rel.corpus}) == len(g.facts)
    qrels = (out / "qrels").read_text().splitlines()
    assert len(qrels) == sum(len({t.doc_id for t in q.S_star}) for q in rel.questions)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["counts"]["questions"] == len(rel.questions) > 200 and manifest["seed"] == 0
    assert "| Operator | 1-hop | 2-hop | 3+-hop | Total |" in (out / "DATACARD.md").read_text()


def test_splits_never_separate_groups_and_follow_ratios() -> None:
    g = random_graph(2400, 7)
    b = build_kg_benchmark(g, KGBuildConfig(n_questions=1000, seed=2), phrases="yago11k")
    seen: dict[tuple[str, str, str | None, str | None], str] = {}
    for q in b.questions:
        # the entity a question names besides its anchor (interval, duration, yes/no) is part of what it asks
        lf = q.logical_form
        key = (lf["anchor"], json.dumps(lf["path"]), q.t_query, lf["final_other"])
        assert seen.setdefault(key, q.split) == q.split
    n = len(b.questions)
    share = {s: sum(q.split == s for q in b.questions) / n for s in ("train", "dev", "test")}
    assert abs(share["train"] - 0.7) < 0.03 and abs(share["dev"] - 0.1) < 0.03 and abs(share["test"] - 0.2) < 0.03


def test_expand_years_builds_point_facts_and_stale_negatives() -> None:
    g = hand_graph()
    b = build_kg_benchmark(g, KGBuildConfig(n_questions=200, seed=1, expand_years=True), phrases="yago11k")
    docs = {d.doc_id: d for d in b.corpus()}
    # Ann playsFor Reds 2000-2004 -> 5 yearly facts; Ann isMarriedTo Bob 2001-open -> one fact in 2001 (TGB)
    assert [k for k in docs if k.startswith("F0-")] == [f"F0-{y}" for y in range(2000, 2005)]
    assert [k for k in docs if k.startswith("F2")] == ["F2-2001"]
    assert [k for k in docs if k.startswith("F4")] == ["F4-2003"]
    assert "F9" in docs  # a reversed fact stays whole
    assert len(docs) == 5 + 4 + 1 + 5 + 1 + 1 + 1 + 6 + 1 + 1 + 1
    for q in b.questions:
        for t in q.S_star:
            assert t.t_start == t.t_end or t.t_end is None or t.t_start is None
        for t in q.S_stale:
            assert t.t_start != q.t_query
    assert any(q.S_stale for q in b.questions)


def test_missing_phrases_is_a_clear_error(tmp_path: Path) -> None:
    facts = [*HAND, fact(11, "Ann", "likes", "Tea", 2000, None)]
    g = TemporalGraph("x", facts, labels_of(facts), rel_labels(facts))
    with pytest.raises(MissingPhrasesError, match=r"<likes> \(likes\).*--phrases"):
        build_kg_benchmark(g, KGBuildConfig(n_questions=10), phrases="yago11k")
    b = build_kg_benchmark(g, KGBuildConfig(n_questions=50, generic_phrases=True), phrases="yago11k")
    assert b.manifest["phrases"]["generic_fallback"] == ["<likes>"]
    custom = tmp_path / "p.toml"
    custom.write_text(
        (PHRASES / "yago11k.toml").read_text()
        + '\n[relations.likes]\nkind = "state"\nask_object = "what did {s} like"\nask_subject = "who liked {o}"\n'
        'object_of = "the thing {s} liked"\nsubject_of = "the fan of {o}"\nstatement = "{s} liked {o}"\n'
        'start_clause = "{s} started liking {o}"\nend_clause = "{s} stopped liking {o}"\n'
        'ask_start = "did {s} start liking {o}"\nask_end = "did {s} stop liking {o}"\n'
    )
    b2 = build_kg_benchmark(g, KGBuildConfig(n_questions=50), phrases=custom)
    assert b2.manifest["phrases"]["generic_fallback"] == []
    with pytest.raises(UnknownNameError):
        load_phrase_table("yago11")


def test_default_phrase_tables_cover_the_datasets() -> None:
    yago = load_phrase_table("yago11k")
    assert set(yago.relations) == {
        "playsFor", "wasBornIn", "hasWonPrize", "isMarriedTo", "created",
        "diedIn", "isAffiliatedTo", "owns", "graduatedFrom", "worksAt",
    }  # fmt: skip
    wd = load_phrase_table("wikidata12k")
    assert len(wd.relations) == 24
    assert yago.relations["hasWonPrize"].kind == "event" and yago.relations["playsFor"].kind == "state"


def test_bad_config_is_rejected() -> None:
    with pytest.raises(UnknownNameError):
        KGBuildConfig(operators=("point_in_tim",))
    with pytest.raises(ValueError):
        KGBuildConfig(expand_years=True, granularity="month")
    with pytest.raises(ValueError):
        KGBuildConfig(max_hops=0)


def test_cli_build_kg_from_hyte_folder(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from chronoqa.cli import app
    from chronoqa.sources.hyte import write_hyte

    g = random_graph(1200, 4)
    write_hyte(g, tmp_path / "in")
    labels = tmp_path / "labels.tsv"
    labels.write_text("id\tlabel\n<Person_1>\tPerson One\n", encoding="utf-8")
    args = ["build", "kg", "--input", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--n-questions", "150"]
    res = CliRunner().invoke(app, [*args, "--phrases", "yago11k", "--labels", str(labels), "--seed", "3"])
    assert res.exit_code == 0, res.output
    assert "Point-in-time" in res.output
    rel = load_release(tmp_path / "out")
    assert 100 <= len(rel.questions) <= 150
    assert rel.manifest["sources"]["format"] == "hyte" and rel.manifest["sources"]["labels"]["file"] == "labels.tsv"
    assert any("Person One" in d.text for d in rel.corpus)
    bad = CliRunner().invoke(app, ["build", "kg", "--out", str(tmp_path / "x")])
    assert bad.exit_code != 0


def test_corpus_verbalises_states_and_events_by_hand() -> None:
    b = build_kg_benchmark(hand_graph(), KGBuildConfig(n_questions=20, open_end="ongoing"), phrases="yago11k")
    docs = {d.doc_id: d.text for d in b.corpus()}
    assert docs["F0"] == "Ann played for Reds from 2000 to 2004."
    assert docs["F4"] == "Ann won Prize in 2003."
    assert docs["F8"] == "Eve played for Reds from 2010, ongoing as of 2026-01-01."
    unknown = build_kg_benchmark(hand_graph(), KGBuildConfig(n_questions=20), phrases="yago11k")
    assert {d.doc_id: d.text for d in unknown.corpus()}["F8"] == "Eve played for Reds from 2010 (end not recorded)."
    assert "invalid" in docs["F9"]
    assert len(docs) == len(HAND)


def test_leak_detection() -> None:
    from chronoqa.generate.kg import leaks

    assert leaks("Who played for Reds in 2003?", ["Reds"], False) == ["Reds"]
    assert leaks("Who played for Redstone?", ["Reds"], False) == []
    assert leaks("When did Ann join the 2003 squad?", ["2003"], True) == ["2003"]
    assert leaks("When did Ann join Reds?", ["2003-05"], True) == []
    assert leaks("In which year did X marry y?", ["Y"], False) == ["Y"]


def test_leak_detection_equals_a_regex_per_needle() -> None:
    import re

    from chronoqa.generate.kg import leaks

    def brute(question: str, needles: list[str]) -> list[str]:  # every needle's pattern, searched
        out = []
        for n in dict.fromkeys(needles):
            if n.strip() and re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", question, re.IGNORECASE):
                out.append(n)
        return out

    # non-ASCII letters that match an ASCII one only case-insensitively: KELVIN SIGN ~ k, LONG S ~ s
    questions = ["Who played for Reds?", "Who played for RED S?", "Who won the \u212aing prize?", "Who is Ro\u017fa?",
                 "Which city is Stra\u00dfe in?", "When did x join?", "Who is  Ann ?", ""]  # fmt: skip
    needles = ["Reds", "reds", "red s", "King", "kING", "Rosa", "ROSA", "stra\u00dfe", "STRASSE", "X", " ", "",
               "Ann ", "ann", "\u212aing", "ed"]  # fmt: skip
    for q in questions:
        for n in needles:
            assert leaks(q, [n], False) == brute(q, [n]), (q, n)
        assert leaks(q, needles, False) == brute(q, needles)
    assert leaks("the \u212aing prize", ["king"], False) == ["king"]  # found through the pattern, not the text


# -- open ends: "ongoing" vs "unknown end" -------------------------------------------------------


def _eve_graph() -> TemporalGraph:
    # the hand graph plus an earlier team of Eve's, so that her 2010 open-ended team is time-sensitive
    facts = [*HAND, fact(11, "Eve", "playsFor", "Greens", 2005, 2008)]
    return TemporalGraph("eve", facts, labels_of(facts), rel_labels(facts))


def test_unknown_open_end_is_gold_only_in_its_start_unit() -> None:
    # Worked by hand, unknown reading: Ann isMarriedTo Bob [2001, open] and Eve playsFor Reds [2010, open]
    # are certain only in 2001 / 2010, but possible until 2025 (they still block other answers there).
    g = _eve_graph()

    def build(open_end: str, seed: int = 3) -> tuple[list[Question], dict[str, tuple[bool, bool]]]:
        b = build_kg_benchmark(g, KGBuildConfig(n_questions=400, seed=seed, open_end=open_end), phrases="yago11k")
        return b.questions, {f.id: (f.dist_functional, f.stale_functional) for f in b.flags}

    qs, flags = build("unknown")
    assert qs
    for q in qs:
        lf = q.logical_form
        t = int(q.t_query or 0)
        if q.operator in ("point_in_time", "before_after"):
            for tr in q.S_star:
                if tr.t_end is None and tr.r in ("playsFor", "isMarriedTo"):
                    assert tr.t_start == q.t_query, f"{q.id}: open-ended state gold outside its start year"
        if q.operator == "point_in_time" and q.hops == 1 and lf["anchor"] == "<Eve>":
            assert (t, q.answer_ids) in {(y, ("<Greens>",)) for y in range(2005, 2009)} | {(2010, ("<Reds>",))}
    checker = Checker.from_table(g, PHRASES / "yago11k.toml", open_end="unknown")
    assert check_all(checker, qs, flags) == []
    # the ongoing build asks about Eve after 2010; the unknown-reading checker rejects those questions
    # (one question per gold chain and answer: several seeds, to meet one asked after 2010)
    strict = Checker.from_table(g, PHRASES / "yago11k.toml", open_end="unknown")
    late = 0
    for seed in range(12):
        qs2, flags2 = build("ongoing", seed)
        for q in qs2:
            if (
                q.operator == "point_in_time"
                and any(t.s_id == "<Eve>" for t in q.S_star)
                and int(q.t_query or 0) > 2010
            ):
                late += 1
                assert any("not valid at" in e for e in strict.check(q, flags2[q.id]))
    assert late


def test_open_end_is_declared_by_phrase_table_config_and_recorded(tmp_path: Path) -> None:
    assert load_phrase_table("yago11k").open_end == "unknown"
    assert load_phrase_table("wikidata12k").open_end == "unknown"
    g = hand_graph()
    b = build_kg_benchmark(g, KGBuildConfig(n_questions=30), phrases="yago11k")
    assert b.manifest["open_end"] == {"reading": "unknown", "declared_by": "phrase table"}
    assert "unknown end" in b.datacard
    b2 = build_kg_benchmark(g, KGBuildConfig(n_questions=30, open_end="ongoing"), phrases="yago11k")
    assert b2.manifest["open_end"] == {"reading": "ongoing", "declared_by": "config"}
    assert b2.manifest["config"]["open_end"] == "ongoing"
    with pytest.raises(UnknownNameError):
        KGBuildConfig(open_end="ongoin")
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'open_end = "forever"\n' + (PHRASES / "yago11k.toml").read_text().replace('open_end = "unknown"', "")
    )
    with pytest.raises(ChronoqaError, match="open_end"):
        load_phrase_table(bad)


def test_cli_open_end_flag(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from chronoqa.cli import app
    from chronoqa.sources.hyte import write_hyte

    write_hyte(random_graph(800, 6), tmp_path / "in")
    args = ["build", "kg", "--input", str(tmp_path / "in"), "--n-questions", "60", "--phrases", "yago11k"]
    res = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "a"), "--open-end", "ongoing"])
    assert res.exit_code == 0, res.output
    assert load_release(tmp_path / "a").manifest["open_end"]["reading"] == "ongoing"
    res = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "b")])
    assert res.exit_code == 0, res.output
    assert load_release(tmp_path / "b").manifest["open_end"]["reading"] == "unknown"
    assert CliRunner().invoke(app, [*args, "--out", str(tmp_path / "c"), "--open-end", "never"]).exit_code != 0


def test_time_refs_follow_the_contract() -> None:
    g = random_graph(2400, 5)
    b = build_kg_benchmark(g, KGBuildConfig(n_questions=600, seed=2), phrases="yago11k")
    by_id = {f.id: f for f in g.facts}
    n_anchor = 0
    for q in b.questions:
        for tr in q.time_refs:
            assert set(tr) == {"which", "value", "of"} and tr["which"] in ("start", "end")
            assert tr["of"] in ("answer", "anchor")
            if tr["of"] == "anchor":
                n_anchor += 1
                ref = by_id[q.S_anchor[0].fact_id]
                point = ref.start if tr["which"] == "start" else ref.end
                assert point is not None and point.isoformat() == tr["value"]
            elif q.operator == "allen" or (q.operator in ("duration", "yes_no") and tr["which"] == "end"):
                asked = by_id[q.S_star[len(q.logical_form["path"]) - 1].fact_id]  # the asked spell's start or end
                point = asked.start if tr["which"] == "start" else asked.end
                assert point is not None and tr["value"] == point.isoformat()
            else:
                assert tr["value"] == q.t_query and q.operator in ("interval", "sequence", "duration")
        if q.operator == "before_after":
            assert [tr["of"] for tr in q.time_refs] == ["anchor"] and q.time_refs[0]["which"] == "start"
    assert n_anchor


# -- readability ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "want"),
    [
        ("United States", "the United States"),
        ("Nobel Prize in Literature", "the Nobel Prize in Literature"),
        ("William Allan Award", "the William Allan Award"),
        ("Democratic Party (United States)", "the Democratic Party (United States)"),
        ("England national under-17 football team", "the England national under-17 football team"),
        ("University of Lausanne", "the University of Lausanne"),
        ("Military Order of Maria Theresa", "the Military Order of Maria Theresa"),
        ("Netherlands", "the Netherlands"),
        ("International Olympic Committee", "the International Olympic Committee"),
        ("World Bank", "the World Bank"),
        ("Czech Republic", "the Czech Republic"),
        ("Harvard University", "Harvard University"),
        ("Watford F.C.", "Watford F.C."),
        ("New York City", "New York City"),
        ("Mary Pickford", "Mary Pickford"),
        ("The Beatles", "The Beatles"),
        ("Q30", "Q30"),
    ],
)
def test_definite_article_rule(label: str, want: str) -> None:
    from chronoqa.generate.articles import definite

    assert definite(label) == want


def test_questions_use_articles_and_short_next_form() -> None:
    # Worked by hand: the hand graph's "Prize" and "Medal" take "the"; answers stay bare labels.
    _, qs, _ = hand_build()
    prize_qs = [q for q in qs if any(t.o_id in ("<Prize>", "<Medal>") for t in q.S_star) and q.hops == 1]
    assert prize_qs
    for q in qs:
        assert "won Prize" not in q.question and "win Prize" not in q.question and "won Medal" not in q.question
        assert all(not a.startswith("the ") for a in q.answers)
    nxt = [q for q in qs if q.template_id == "seq.alt" and q.logical_form["variant"] == "next"]
    for q in nxt:  # "Which team did Ann play for next after Reds?": the reference named by its endpoint only
        ref = q.S_anchor[0]
        named = ref.o if q.logical_form["path"][-1]["dir"] == "fwd" else ref.s
        assert q.question.endswith(f" next after {named}?") or q.question.endswith(f" next after the {named}?")


def test_sequences_never_rank_an_open_class() -> None:
    # "Who played for X first?" ranks an open class: every YAGO11k inverse direction is declared "many",
    # so sequences run over forward timelines only (a player's teams, a person's spouses)
    g = random_graph(2400, 5)
    b = build_kg_benchmark(g, KGBuildConfig(n_questions=800, seed=1), phrases=whole_graph_yago())
    seqs = [q for q in b.questions if q.operator == "sequence"]
    assert seqs
    for q in seqs:
        assert q.logical_form["path"][-1] in ({"r": "<playsFor>", "dir": "fwd"}, {"r": "<isMarriedTo>", "dir": "fwd"})
        assert q.assumes_complete == (q.logical_form["variant"] in ("first", "last"))


# Non-year dates, worked by hand on the HAND graph plus:
#   Gov owns Rail "100" (an ownership percentage read as a year), Gov owns Bank 1990..100 (its end is the
#   percentage; read as years it would be reversed), Gov owns Mill 1980 (a real year), Studio created
#   Game "360" (Xbox 360) and Film 2001. Only facts 11, 12 and 14 have a listed year: 3 non-year facts.
NON_YEAR = [
    *HAND,
    fact(11, "Gov", "owns", "Rail", 100, None),
    fact(12, "Gov", "owns", "Bank", 1990, 100),
    fact(13, "Gov", "owns", "Mill", 1980, None),
    fact(14, "Studio", "created", "Game", 360, None),
    fact(15, "Studio", "created", "Film", 2001, None),
]
NON_YEAR_FIDS = {11, 12, 14}


def non_year_graph() -> TemporalGraph:
    return TemporalGraph("nonyear", NON_YEAR, labels_of(NON_YEAR), rel_labels(NON_YEAR))


def _uses_fact(q: Question, fids: set[int]) -> bool:
    return any(t.fact_id in fids for part in (q.S_star, q.S_dist, q.S_stale, q.S_anchor) for t in part)


def test_phrase_table_declares_non_years_for_yago_only() -> None:
    assert dict(load_phrase_table("yago11k").not_years) == {"<created>": (360,), "<owns>": (100,)}
    assert dict(load_phrase_table("wikidata12k").not_years) == {}


def test_non_year_dates_are_valid_nowhere_but_stay_in_the_corpus() -> None:
    g = non_year_graph()
    # disabled: the data-driven plausibility rule still finds the early years (AD 100 and 360 on entities
    # whose other facts are modern) and keeps them out of the questions, counted as implausible
    off = build_kg_benchmark(g, KGBuildConfig(n_questions=400, seed=5, not_years={}), phrases="yago11k")
    assert off.manifest["not_years"] == {"years": {}, "declared_by": "config", "facts": 0}
    found = {x["fact"]: x["reason"] for x in off.implausible or ()}
    assert found == {11: "century_outlier", 14: "century_outlier"}  # fact 12 (1990 to 100) is reversed
    assert not any(q.t_query in ("0100", "0360") for q in off.questions)
    assert not any(_uses_fact(q, {11, 14}) for q in off.questions)
    b = build_kg_benchmark(g, KGBuildConfig(n_questions=400, seed=5), phrases=yago_owning())
    assert b.manifest["not_years"] == {
        "years": {"<created>": [360], "<owns>": [100]},
        "declared_by": "phrase table",
        "facts": 3,
    }
    counts = b.manifest["counts"]
    assert counts["non_year_facts_ignored"] == 3
    assert counts["reversed_facts_ignored"] == 1  # Fay's fact only; Gov owns Bank 1990..100 counts as non-year
    assert "Facts with non-year dates: 3." in b.datacard
    assert b.questions
    for q in b.questions:
        assert not _uses_fact(q, NON_YEAR_FIDS), q
        assert q.t_query not in ("0100", "0360")
        assert not {"0100", "0360"} & set(q.answers)
    # the real-year facts of the same relations are still usable
    assert any(_uses_fact(q, {13, 15}) for q in b.questions)
    docs = {d.doc_id: d.text for d in b.corpus()}
    assert len(docs) == len(NON_YEAR)
    assert docs["F11"].endswith("(date recorded as 100, not a valid year).")
    assert docs["F12"].endswith("(dates recorded as 1990 to 0100; 100 is not a valid year).")
    assert docs["F14"].endswith("(date recorded as 360, not a valid year).")
    assert "not a valid year" not in docs["F13"] + docs["F15"]
    # the independent checker applies the same rule from the manifest ...
    kinds = kinds_from_toml(PHRASES / "yago11k.toml", g)
    flags = {f.id: (f.dist_functional, f.stale_functional) for f in b.flags}
    checker = Checker(
        g,
        kinds,
        decl=declarations_from_toml(PHRASES / "yago11k.toml", g),
        open_end=open_end_of(b.manifest),
        not_years=not_years_of(b.manifest),
    )
    assert check_all(checker, b.questions, flags) == []
    # ... and rejects the questions of the disabled build that use a non-year fact
    strict = Checker(
        g,
        kinds,
        decl=declarations_from_toml(PHRASES / "yago11k.toml", g),
        open_end=open_end_of(off.manifest),
        not_years=not_years_of(b.manifest),
    )
    bad = [q for q in off.questions if _uses_fact(q, NON_YEAR_FIDS)]
    assert all(strict.check(q) for q in bad)


def test_non_years_override_by_label_and_determinism(tmp_path: Path) -> None:
    g = non_year_graph()
    cfg = KGBuildConfig(n_questions=300, seed=2, not_years={"created": [360]})
    b = build_kg_benchmark(g, cfg, phrases="yago11k")
    assert b.manifest["not_years"] == {"years": {"<created>": [360]}, "declared_by": "config", "facts": 1}
    assert b.manifest["config"]["not_years"] == {"created": [360]}
    assert not any(_uses_fact(q, {14}) for q in b.questions)
    outs = [build_kg_benchmark(g, cfg, phrases="yago11k").write(tmp_path / n) for n in ("a", "b")]
    for name in ("benchmark.jsonl", "corpus.jsonl", "manifest.json", "DATACARD.md"):
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes()
    with pytest.raises(ChronoqaError, match="not_years"):
        KGBuildConfig(not_years={"<owns>": ["100"]})  # type: ignore[list-item]
    bad = tmp_path / "p.toml"
    bad.write_text((PHRASES / "yago11k.toml").read_text().replace('"<owns>" = [100]', '"<owns>" = 100'))
    with pytest.raises(ChronoqaError, match="not_years"):
        load_phrase_table(bad)


def test_expand_years_keeps_non_year_facts_whole() -> None:
    b = build_kg_benchmark(
        non_year_graph(), KGBuildConfig(n_questions=100, seed=1, expand_years=True), phrases="yago11k"
    )
    docs = [d.doc_id for d in b.corpus()]
    # Gov owns Bank 1990..100 is neither expanded nor (read as 100) stretched over 1,891 years
    assert {"F11", "F12", "F14"} <= set(docs)
    assert not any(d.startswith(("F11-", "F12-", "F14-")) for d in docs)
    assert b.manifest["counts"]["non_year_facts_ignored"] == 3


def test_cli_ignore_not_years_flag(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from chronoqa.cli import app
    from chronoqa.sources.hyte import write_hyte

    write_hyte(non_year_graph(), tmp_path / "in")
    args = ["build", "kg", "--input", str(tmp_path / "in"), "--n-questions", "60", "--phrases", "yago11k"]
    res = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "a")])
    assert res.exit_code == 0, res.output
    assert load_release(tmp_path / "a").manifest["not_years"]["facts"] == 3
    res = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "b"), "--ignore-not-years"])
    assert res.exit_code == 0, res.output
    assert load_release(tmp_path / "b").manifest["not_years"] == {"years": {}, "declared_by": "config", "facts": 0}
