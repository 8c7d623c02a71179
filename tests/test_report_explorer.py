"""The explorer's data, plots and escaping, checked against hand-worked values on the football fixture."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest

from answer_fixtures import FACTS, RUN, doc, questions, write_fixture
from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.artifacts.metrics import read_metrics, read_verdicts, write_verdicts
from chronoqa.artifacts.release import FunctionalFlags, load_release, write_release
from chronoqa.errors import DataError
from chronoqa.io import read_json
from chronoqa.report import build_explorer, build_summary, render_html, render_markdown
from chronoqa.report.sections import embed_json, md_escape
from chronoqa.report.verdicts import answer_verdicts, retrieval_verdicts
from chronoqa.score.evaluate import evaluate
from report_fixtures import EVIL, evil_release, write_eval_folder


def test_retrieval_verdicts_mark_the_rank_of_each_own_fact(tmp_path: Path) -> None:
    rel_dir, run = write_fixture(tmp_path)
    rel = load_release(rel_dir)
    rows = {r.qid: r for r in retrieval_verdicts(evaluate(rel, run=run, split="test", n_bootstrap=10), run, rel)}
    # worked from RUN by hand; fact order S*, S_dist: q1 = (d2 | d1), q2 = (d1, d4), q3 = (d2), q4 = (d7)
    assert rows["q1"].marks == [[1, 1], [0, 2]]  # d1 (S_dist) at rank 1, d2 (S*) at 2; d3 is not its fact
    assert rows["q2"].marks == [[1, 1], [0, 2]]
    assert rows["q3"].marks == [[0, 2]]
    assert rows["q4"].marks == [[0, 2]]
    assert {q: r.n_retrieved for q, r in rows.items()} == {q: len(h) for q, h in RUN.items()}
    assert all(r.CCR == 1 for r in rows.values())  # every S* fact valid at t_query is returned
    assert rows["q1"].dist_hit is True
    # Outrank@10: q1's distractor d1 comes before its gold d2; the other questions have no negative (undefined)
    assert rows["q1"].Outrank == 0
    assert rows["q3"].Outrank is None and rows["q4"].Outrank is None


def test_outrank_significance_between_runs(tmp_path: Path) -> None:
    """Runs are also compared on Outrank@10 (McNemar on the questions where both have it), beside CCR."""
    rel, ev = write_eval_folder(tmp_path)
    outrank = {"bm25": (1, 1, 0, None), "graph": (0, 0, 0, None), "dense": (0, 1, 0, None)}
    for name, values in outrank.items():
        old = read_verdicts(ev, "retrieval", name)
        rows = [r.model_copy(update={"Outrank": v}) for r, v in zip(old, values, strict=True)]
        write_verdicts(ev, "retrieval", name, rows)
    ex = build_explorer(rel, ev)
    blocks = [b for b in ex["significance"] if b["kind"] == "ret"]
    assert [b["metric"] for b in blocks] == ["CCR", "Outrank@10"]
    sig = blocks[1]
    assert sig["systems"] == ["bm25", "dense", "graph"]
    got = {(sig["systems"][p["a"]], sig["systems"][p["b"]]): (p["p"], p["n"]) for p in sig["pairs"]}
    # q4 undefined everywhere: 3 questions paired; bm25/graph discordant 2:0 -> p = 2 * 0.5^2; the others 1:0 -> 1
    assert got[("bm25", "graph")] == pytest.approx((0.5, 3))
    assert got[("bm25", "dense")] == pytest.approx((1.0, 3))
    assert got[("dense", "graph")] == pytest.approx((1.0, 3))
    assert "Significance (Outrank@10" in render_markdown(build_summary(rel, ev), ex)


def test_answer_verdicts_carry_a_t_and_the_answer(tmp_path: Path) -> None:
    rel_dir, _ = write_fixture(tmp_path)
    recs = [
        AnswerRecord("q1", "x", "ok", "Blue FC", "held from 2005 to 2009"),
        AnswerRecord("q2", "x", "ok", "Blue Park"),
        AnswerRecord("q3", "x", "ok", "2005"),
        AnswerRecord("q4", "x", "error", None, error="timeout"),
    ]
    res = evaluate(rel_dir, answers=recs, split="test", n_bootstrap=10)
    rows = {r.qid: r for r in answer_verdicts(res, recs)}
    assert [rows[q].A for q in ("q1", "q2", "q3", "q4")] == [1, 0, 1, 0]
    assert rows["q1"].answer == "Blue FC" and rows["q4"].answer is None and rows["q4"].outcome != "correct"
    assert rows["q1"].T == 1  # cites 2005, q1's S* start
    # the outcome class follows from A, T and the outcome alone: right and dated right; an error is other_wrong
    assert rows["q1"].outcome_class == "right_holder_right_date"
    assert rows["q4"].outcome_class == ("other_wrong" if rows["q4"].T is not None else None)
    assert all((r.outcome_class is None) == (r.T is None) for r in rows.values())
    assert all(r.intermediate is None for r in rows.values())  # no join question in the football fixture


def test_verdicts_live_beside_metrics_and_are_not_metrics_files(tmp_path: Path) -> None:
    _, ev = write_eval_folder(tmp_path)
    folder = read_metrics(ev)
    assert [r.name for r in folder.retrieval] == ["bm25", "dense", "graph", "oracle"]  # no *.verdicts.jsonl
    assert [r.CCR for r in read_verdicts(ev, "retrieval", "graph")] == [1, 1, 0, 0]
    assert read_verdicts(ev, "retrieval", "missing") == []
    with pytest.raises(ValueError, match="metrics kind"):
        write_verdicts(ev, "bogus", "x", [])  # type: ignore[arg-type]
    path = ev / "retrieval" / "graph.verdicts.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0], lines[1].replace('"CCR":1', '"CCR":"yes"'), *lines[2:]]) + "\n")
    with pytest.raises(DataError, match=r"graph\.verdicts\.jsonl:2: field 'CCR'"):
        read_verdicts(ev, "retrieval", "graph")


def test_explorer_fails_heatmap_and_significance_are_the_hand_worked_ones(tmp_path: Path) -> None:
    rel, ev = write_eval_folder(tmp_path)
    ex = build_explorer(rel, ev)
    assert [q["id"] for q in ex["questions"]] == ["q1", "q2", "q3", "q4"]
    assert [s["name"] for s in ex["systems"]] == ["bm25", "dense", "graph", "oracle", "extractive@bm25"]
    # q4 is wrong for bm25, graph, dense and the answers; oracle is a control and does not count
    assert ex["fails"]["n"] == 1
    assert ex["fails"]["groups"] == [{"template": "born_1", "relation": "wasBornIn", "n": 1, "of": 1, "ids": ["q4"]}]
    heat = next(h for h in ex["heat"] if h["system"] == "bm25")
    assert heat["rows"] == ["interval", "point_in_time"] and heat["cols"] == ["1-hop", "2-hop"]
    assert heat["value"] == [[1.0, None], [0.5, 0.0]] and heat["n"] == [[1, 0], [2, 1]]
    assert not any(h["system"] == "oracle" for h in ex["heat"])
    (sig,) = [b for b in ex["significance"] if b["kind"] == "ret"]
    assert sig["systems"] == ["bm25", "dense", "graph"]
    got = {(sig["systems"][p["a"]], sig["systems"][p["b"]]): (p["p"], p["q"]) for p in sig["pairs"]}
    # exact McNemar by hand: bm25/graph discordant 1:1 -> p 1; bm25/dense and graph/dense 2:0 -> p = 2 * 0.5^2
    p_two = 2 * math.comb(2, 0) * 0.5**2
    assert got[("bm25", "graph")] == pytest.approx((1.0, 1.0))
    assert got[("bm25", "dense")] == pytest.approx((p_two, p_two * 3 / 2))  # BH: rank 2 of 3 -> p * 3/2
    assert got[("dense", "graph")] == pytest.approx((p_two, p_two * 3 / 2))
    # the facts are on a day axis: q1's S* d2 is 2005-2009, its S_dist d1 2001-2004 (1970-01-01 = day 0)
    q1 = ex["questions"][0]
    assert q1["facts"][0][:1] == [0] and q1["facts"][1][:1] == [1]
    assert q1["facts"][0][1:4] == ["Ann Lee", "playsFor", "Blue FC"]
    assert q1["facts"][0][4] == 12784 and q1["facts"][0][5] == 14609  # 2005-01-01, 2009-12-31
    assert q1["facts"][0][6:] == ["2005", "2009"]
    q4 = ex["questions"][3]
    assert q4["ret"][0] == [0, None, False, 3, [], None] and q4["ans"][0][0] == 0  # Outrank undefined: None


def test_open_ends_and_unknown_starts_are_kept_as_null(tmp_path: Path) -> None:
    rel_dir = tmp_path / "release"
    t = doc(2).triple()  # Ann Lee playsFor Green FC, 2010 - open
    q = replace(questions()[0], id="qo", S_star=(t, replace(t, t_start=None, doc_id="dx")), S_dist=())
    write_release(rel_dir, [q], [doc(i) for i in range(len(FACTS))], [FunctionalFlags("qo", True, True)], {}, "")
    ex = build_explorer(rel_dir, tmp_path / "no-evaluate")
    (f0, f1) = ex["questions"][0]["facts"]
    assert f0[5] is None and f0[7] is None and f0[6] == "2010"
    assert f1[4] is None and f1[6] is None


def test_embedded_json_cannot_break_out_of_its_script(tmp_path: Path) -> None:
    s = embed_json({"x": EVIL, "y": "a\u2028b & c"})
    assert "<" not in s and ">" not in s and "&" not in s and "\u2028" not in s
    assert json.loads(s) == {"x": EVIL, "y": "a\u2028b & c"}
    assert md_escape("a|b <i>`x`</i>") == "a\\|b &lt;i&gt;\\`x\\`&lt;/i&gt;"


def test_labels_with_markup_are_escaped_in_html_and_markdown(tmp_path: Path) -> None:
    rel, ev = write_eval_folder(tmp_path, release=evil_release(tmp_path))
    ex = build_explorer(rel, ev)
    assert ex["fails"]["groups"][0]["relation"] == "wasBornIn" + EVIL  # the data keeps its text
    summary = build_summary(rel, ev)
    page = render_html(summary, ex)
    assert "<img" not in page and "window.__pwned=2</script>" not in page
    # exactly the two script elements the report writes: the JSON blob and the explorer's code
    assert len(re.findall(r"<script\b", page)) == 2 and page.count("</script>") == 2
    assert "&lt;img src=x onerror=window.__pwned=1&gt;" in page  # shown, as text, in the fails view
    assert "http" not in page and "src=" not in page.replace("src=x", "") and "<link" not in page
    md = render_markdown(summary, ex)
    assert "<img" not in md and "<script" not in md and "</script" not in md
    assert r"born\_1&lt;/script&gt;&lt;img src=x onerror=window.\_\_pwned=1&gt;" in md


def test_pipeline_writes_verdicts_and_an_explorer_report(tmp_path: Path) -> None:
    pytest.importorskip("bm25s")
    from chronoqa.pipeline.config import load_config
    from chronoqa.pipeline.run import run_pipeline

    rel, _ = write_fixture(tmp_path)
    cfg = load_config(
        None, bench=str(rel), out=str(tmp_path / "run"), retrievers="bm25", controls="oracle", baselines="prior",
        n_bootstrap=20,
    )  # fmt: skip
    res = run_pipeline(cfg)
    ev = res.run_dir / "evaluate"
    oracle = {r.qid: r for r in read_verdicts(ev, "retrieval", "oracle")}
    # the oracle returns exactly S*: one mark per S* fact, ranks 1..n (from the questions, not the scorer)
    for q in questions():
        if q.split == "test":
            assert sorted(i for i, _ in oracle[q.id].marks) == list(range(len(q.S_star)))
            assert oracle[q.id].CCR == 1
    assert len(read_verdicts(ev, "answers", "prior")) == 4
    page = res.report_html.read_text(encoding="utf-8")
    blob = re.search(r'<script type="application/json" id="cq-data">(.*?)</script>', page, re.S)
    assert blob is not None
    packed = json.loads(blob.group(1))
    assert packed["q"]["id"] == ["q1", "q2", "q3", "q4"]
    assert [packed["strs"][i] for i in packed["q"]["gold"][1]] == ["Red Arena"]  # q2's gold, through the table
    assert "Fails everywhere" in res.report_md.read_text(encoding="utf-8")
    assert read_json(res.run_dir / "report" / "summary.json")["composition"]["n_scored"] == 4


def test_kg_datacard_escapes_labels(tmp_path: Path) -> None:
    import random

    import chronoqa

    rng = random.Random(5)
    facts = []
    for i in range(300):
        s, o = f"<P{rng.randrange(40)}>", f"<O{rng.randrange(30)}>"
        a = rng.randrange(1960, 2015)
        facts.append(chronoqa.Fact(i, s, "<playsFor>", o, chronoqa.TimePoint(a), chronoqa.TimePoint(a + 3), i + 1))
    labels = {e: e.strip("<>") + EVIL for f in facts for e in (f.s, f.o)}
    graph = chronoqa.TemporalGraph("evil", facts, labels, {"<playsFor>": "playsFor"})
    build = chronoqa.build_kg_benchmark(graph, chronoqa.KGBuildConfig(n_questions=20, seed=0), phrases="yago11k")
    card = (build.write(tmp_path / "release") / "DATACARD.md").read_text(encoding="utf-8")
    assert "Example questions" in card and r"onerror=window.\_\_pwned=1" in card  # the labels are shown ...
    assert "<img" not in card and "<script" not in card  # ... as text


def test_table_benchmark_gets_its_composition(tmp_path: Path) -> None:
    import random
    from collections import Counter

    from chronoqa.generate.table import TableBuildConfig, build_table_benchmark
    from chronoqa.records import TemporalTable
    from chronoqa.time import Interval

    rng = random.Random(5)
    rows = [("K" + str(rng.randint(0, 5)), "R", f"n{i}") for i in range(60)]
    spans = []
    for _ in rows:
        y = rng.randint(1950, 2020)
        spans.append(Interval.parse(f"{y}-{rng.randint(1, 12):02d}-01", f"{y + rng.randint(0, 6)}-06-15"))
    t = TemporalTable("det", ("Country", "Role", "Name"), rows, spans, list(range(2, 62)), "Start", "End")
    # complete: the random terms overlap (a many-valued TFD), whose Allen questions only a complete table asks
    cfg = TableBuildConfig(seed=3, per_cell=3, tfds={"det": ["Country,Role->Name"]}, complete=("det",))
    b = build_table_benchmark([t], cfg)
    b.write(tmp_path / "rel")
    test_qs = list(b.questions)
    assert len({q.allen for q in test_qs}) > 3
    ex = build_explorer(tmp_path / "rel", tmp_path / "no-evaluate", split="all")  # no verdicts: unscored
    tbl = ex["table"]
    assert tbl is not None and tbl["n"] == len(test_qs)
    want = Counter((q.allen or q.logical_form["relation"], q.cardinality) for q in test_qs)
    got = {
        (r, c): tbl["counts"]["count"][i][j]
        for i, r in enumerate(tbl["counts"]["rows"])
        for j, c in enumerate(tbl["counts"]["cols"])
        if tbl["counts"]["count"][i][j]
    }
    assert got == dict(want)
    assert tbl["tfds"] == {"Country,Role->Name": sum(1 for q in test_qs if q.logical_form.get("tfd"))}
    assert tbl["time_alignment"] == sum(1 for q in test_qs if q.operator == "time_alignment")
    page = render_html(build_summary(tmp_path / "rel", tmp_path / "no-evaluate"), ex)
    assert "Table benchmark composition" in page and "questions: relation x cardinality" in page


def test_report_is_byte_identical_for_the_same_inputs(tmp_path: Path) -> None:
    rel, ev = write_eval_folder(tmp_path)
    pages = [render_html(build_summary(rel, ev), build_explorer(rel, ev)) for _ in range(2)]
    assert pages[0] == pages[1]
    mds = [render_markdown(build_summary(rel, ev), build_explorer(rel, ev)) for _ in range(2)]
    assert mds[0] == mds[1]
    assert "| bm25 | dense | +0.500 | 0.5 | 0.75 | 4 |" in mds[0]  # hand-worked above: 2:0 discordant, BH x 3/2


def test_every_metric_and_list_column_carries_its_explanation(tmp_path: Path) -> None:
    rel, ev = write_eval_folder(tmp_path)
    summary, ex = build_summary(rel, ev), build_explorer(rel, ev)
    page = render_html(summary, ex)
    tables = dict(re.findall(r'<table(?: id="([\w-]+)")?><thead><tr>(.*?)</tr></thead>', page))
    heads = {tid: re.findall(r"<th([^>]*)>(.*?)</th>", row) for tid, row in tables.items()}
    # the explorer list and the fails table: every head, the systems' narrow ones included, has a tooltip
    for tid in ("cq-list", "fails"):
        assert heads[tid] and all('title="' in attrs for attrs, _ in heads[tid]), tid
    systems = [label for attrs, label in heads["cq-list"] if 'class="sys' in attrs]
    assert systems == ["<span>bm25</span>", "<span>dense</span>", "<span>graph</span>", "<span>extractive@bm25</span>"]
    # the metric tables: every metric column, written once in the legend under the table too
    metric_heads = re.findall(r"<thead><tr><th>(?:retriever|answerer)</th>(.*?)</tr></thead>", page)
    assert len(metric_heads) == 3  # retrieval, answers, the answers' outcome classes
    for row in metric_heads:
        for attrs, label in re.findall(r"<th([^>]*)>(.*?)</th>", row):
            assert 'title="' in attrs, label
            assert f"<dt>{label}</dt>" in page, label
    assert "<dt>A strict</dt><dd>answer accuracy by the older whole-string rule" in page
    md = render_markdown(summary, ex)
    labels = ("R@10", "nDCG@10", "MRR", "TRP", "CCR", "A", "A strict", "T", "T half", "T loose", "AT", "abstain")
    for label in (*labels, "error", "right, dates wrong", "outdated, dates wrong", "join: hop right"):
        assert f"- **{label}** — " in md, label


def test_markdown_labels_neither_split_cells_nor_become_markup(tmp_path: Path) -> None:
    hostile = "<!--<script> </script> \"q\" 'q' **bold** [link](javascript:x) | cell # _x_ `code`"
    rel, ev = write_eval_folder(tmp_path, release=evil_release(tmp_path, hostile))
    md = render_markdown(build_summary(rel, ev), build_explorer(rel, ev))
    for block in re.findall(r"((?:^\|.*\|\n)+)", md, flags=re.M):  # every Markdown table
        widths = {len(re.findall(r"(?<!\\)\|", line)) for line in block.splitlines()}
        assert len(widths) == 1, block  # an escaped "|" in a label never adds a cell
    row = next(line for line in md.splitlines() if line.startswith("| born"))
    assert r"born\_1&lt;!--&lt;script&gt; &lt;/script&gt;" in row
    assert r"\*\*bold\*\* \[link\](javascript:x) \| cell \# \_x\_ \`code\`" in row
    assert "<!--" not in md and "<script" not in md and "**bold**" not in md
