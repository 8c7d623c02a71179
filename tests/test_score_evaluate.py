"""``evaluate`` and ``chronoqa evaluate`` end to end on a tiny release written here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.artifacts.metrics import EvaluationMetrics, MetricsRecord, read_metrics, write_metrics
from chronoqa.artifacts.release import FunctionalFlags, load_release, write_release
from chronoqa.cli import app
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.records import Doc, Question, Triple
from chronoqa.score.evaluate import evaluate


def T(s: str, r: str, o: str, ts: str | None, te: str | None) -> Triple:
    return Triple(s, r, o, ts, te, doc_id=f"{s}-{r}-{o}-{ts}")


QUESTIONS = [
    Question(
        "q1",
        "test",
        "In 1994 ...?",
        "1994",
        (T("A", "r1", "B", "1994", "1994"), T("B", "r2", "C", "1994", "1994")),
        S_dist=(T("A", "r1", "D", "1994", "1994"),),
        S_stale=(T("A", "r1", "B", "1990", "1990"),),
        hops=2,
        answers=("C",),
    ),
    Question("q2", "test", "?", "2000", (T("E", "r3", "F", "1999", "2001"),), operator="interval", answers=("F",)),
    Question(
        "q3",
        "test",
        "?",
        "2005",
        (T("G", "r4", "H", "2005", "2005"),),
        S_stale=(T("G", "r4", "H", "2003", "2003"),),
        answers=("H",),
    ),
    Question("q4", "test", "?", "2010", (T("I", "r5", "J", "2010", "2010"),), operator="before_after", answers=("J",)),
]
FLAGS = [
    FunctionalFlags("q1", True, True),
    FunctionalFlags("q2", True, True),
    FunctionalFlags("q3", True, False),  # q3's stale negative is not functional
    FunctionalFlags("q4", True, True),
]


def hit(t: Triple, rank: int) -> dict[str, Any]:
    return {
        "doc_id": t.doc_id,
        "rank": rank,
        "score": 10.0 - rank,
        "s": t.s,
        "r": t.r,
        "o": t.o,
        "t_start": t.t_start,
        "t_end": t.t_end,
    }


@pytest.fixture
def bench(tmp_path: Path) -> Path:
    corpus = [
        Doc(t.doc_id, f"{t.s} {t.r} {t.o}", t.s, t.r, t.o, t.t_start, t.t_end)
        for q in QUESTIONS
        for t in (*q.S_star, *q.S_dist, *q.S_stale)
    ]
    return write_release(tmp_path / "bench", QUESTIONS, corpus, FLAGS, {"name": "tiny"}, "# tiny\n")


def write_run(path: Path, hits: dict[str, list[Triple]], meta: dict[str, Any] | None = None) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for qid, ts in hits.items():
            fh.write(json.dumps({"qid": qid, "hits": [hit(t, i + 1) for i, t in enumerate(ts)]}) + "\n")
    if meta is not None:
        path.with_name(path.name.replace(".jsonl", ".meta.json")).write_text(json.dumps(meta))
    return path


def main_run(tmp_path: Path) -> Path:
    q1, q2, q3, _ = QUESTIONS
    return write_run(
        tmp_path / "sys.run.jsonl",
        {"q1": [*q1.S_star, *q1.S_dist], "q2": list(q2.S_star), "q3": list(q3.S_stale)},  # q4: no line
        {"spec": "sys", "control": False},
    )


def test_evaluate_hand_worked(bench: Path, tmp_path: Path) -> None:
    res = evaluate(bench, run=main_run(tmp_path), n_bootstrap=200, min_slice=2)
    d = res.to_dict()
    allr = d["retrieval"]["all"]
    assert d["n_questions"] == 4 and allr["n_questions"] == 4
    assert allr["coverage"]["value"] == 0.75
    assert allr["TRP_macro"]["value"] == pytest.approx((2 / 3 + 1 + 0) / 3)
    assert allr["TRP_macro"]["n"] == 3  # q4 retrieved nothing: TRP undefined, excluded
    assert allr["CCR"]["value"] == 0.5
    # R@10: q1 2/2, q2 1/1, q3 0/1, q4 0 (no results -> 0, not dropped) = 2/4.
    assert allr["R@10"]["value"] == 0.5 and allr["R@10"]["n"] == 4
    assert allr["MRR"]["value"] == 0.5
    # stale hit: q1 (functional, not hit); q3 is non-functional so undefined -> 0/1
    assert allr["stale_hit_rate"]["value"] == 0.0 and allr["stale_hit_rate"]["n"] == 1
    assert allr["dist_hit_rate"]["value"] == 1.0  # q1 retrieved its distractor
    for m in allr.values():
        if isinstance(m, dict) and m["value"] is not None and m["ci_low"] is not None:
            assert m["ci_low"] <= m["value"] <= m["ci_high"]
    assert d["retrieval"]["by_complexity"]["2-hop"]["CCR"]["value"] == 1.0
    assert set(d["retrieval"]["by_operator"]) == {"before_after", "interval", "point_in_time"}
    assert any("no line for 1 questions" in w for w in d["warnings"])
    assert any("(< 2)" in w for w in d["warnings"])  # 1-question slices are flagged
    assert [r.id for r in res.evidence_rows] == ["q1", "q2", "q3", "q4"]


def test_functional_only_and_trap(bench: Path, tmp_path: Path) -> None:
    stale_run = write_run(tmp_path / "stale.run.jsonl", {q.id: list(q.S_stale) for q in QUESTIONS if q.S_stale})
    res = evaluate(bench, run=stale_run, functional_only=True, n_bootstrap=50)
    d = res.to_dict()
    assert d["n_questions"] == 3  # q3 dropped: stale not functional
    assert d["retrieval"]["all"]["TRP_macro"]["value"] == 0.0 and d["retrieval"]["all"]["CCR"]["value"] == 0.0


def test_compare_oracle_and_empty(bench: Path, tmp_path: Path) -> None:
    oracle = write_run(tmp_path / "oracle.run.jsonl", {q.id: list(q.S_star) for q in QUESTIONS}, {"spec": "oracle"})
    empty = write_run(tmp_path / "empty.run.jsonl", {q.id: [] for q in QUESTIONS}, {"spec": "empty"})
    d = evaluate(bench, run=oracle, compare=empty, n_bootstrap=200).to_dict()
    assert d["retrieval"]["all"]["CCR"]["value"] == 1.0
    b = d["compare"]["b_retrieval"]["all"]
    assert b["coverage"]["value"] == 0.0 and b["CCR"]["value"] == 0.0 and b["TRP_macro"]["value"] is None
    ccr = d["compare"]["paired"]["CCR"]["all"]
    assert ccr["diff"] == 1.0 and ccr["mcnemar_p"] == pytest.approx(2 * 0.5**4)
    assert ccr["q_value_bh"] is not None and ccr["q_value_bh"] >= ccr["p_value"]
    assert d["compare"]["paired"]["TRP_macro"]["all"]["p_value"] is None  # undefined for the empty run


def test_kind_slices_and_outrank_paired(bench: Path, tmp_path: Path) -> None:
    """Recall (1-hop, TempBench's operators) and reasoning slices; Outrank's paired test carries McNemar's p."""
    q1 = QUESTIONS[0]
    # q1 (2-hop: reasoning) gets its stale fact ranked above its gold chain: the chain is complete (CCR 1) but the
    # fact true at t_query does not come first (Outrank 0); q2 to q4 (1-hop recall) as in the main run
    stale_first = write_run(
        tmp_path / "stale_first.run.jsonl",
        {"q1": [*q1.S_stale, *q1.S_star], "q2": list(QUESTIONS[1].S_star), "q3": list(QUESTIONS[2].S_stale)},
    )
    d = evaluate(bench, run=main_run(tmp_path), compare=stale_first, n_bootstrap=200, min_slice=1).to_dict()
    kinds = d["retrieval"]["by_kind"]
    assert list(kinds) == ["recall", "reasoning"]
    assert kinds["recall"]["n_questions"] == 3 and kinds["reasoning"]["n_questions"] == 1
    assert kinds["recall"]["CCR"]["value"] == pytest.approx(1 / 3)  # q2 complete; q3 stale only; q4 no line
    assert kinds["reasoning"]["CCR"]["value"] == 1.0
    # Outrank is defined for q1 only (q2, q4: no negative; q3: its stale negative is not functional)
    assert d["retrieval"]["all"]["Outrank@10"]["n"] == 1
    assert kinds["recall"]["Outrank@10"]["value"] is None
    paired = d["compare"]["paired"]
    assert paired["CCR"]["by_kind"]["reasoning"]["diff"] == 0.0
    out = paired["Outrank@10"]["all"]
    assert (out["a"], out["b"], out["diff"]) == (1.0, 0.0, 1.0)
    assert out["mcnemar_p"] == pytest.approx(1.0)  # one discordant question: exact two-sided p = 1
    assert paired["Outrank@10"]["by_kind"]["reasoning"]["diff"] == 1.0
    assert "mcnemar_p" not in paired["MRR"]["all"] or paired["MRR"]["all"]["mcnemar_p"] is None


def test_question_kind() -> None:
    from chronoqa.score.kinds import question_kind

    def q(operator: str, hops: int = 1, source: str = "kg") -> Question:
        return Question("x", "test", "?", "2000", (), operator=operator, hops=hops, source=source)

    assert [question_kind(q(o)) for o in ("point_in_time", "before_after", "interval", "sequence")] == ["recall"] * 4
    assert question_kind(q("interval", hops=2)) == "reasoning"
    assert question_kind(q("point_in_time", hops=3)) == "reasoning"
    for o in ("two_facts", "allen", "duration", "yes_no", "present_state", "relative"):
        assert question_kind(q(o)) == "reasoning"
    assert question_kind(q("time_alignment", source="table")) == "reasoning"


def test_answers_and_time(bench: Path, tmp_path: Path) -> None:
    path = tmp_path / "answers.jsonl"
    lines = [
        {"qid": "q1", "answerer": "x", "status": "ok", "answer": "C", "explanation": "A r1 B in 1994; B r2 C in 1994."},
        {"qid": "q2", "answerer": "x", "status": "ok", "answer": "F", "explanation": "no dates"},
        {"qid": "q3", "answerer": "x", "status": "error", "answer": None, "error": "timeout"},
        # q4: no line -> missing, scored wrong
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    d = evaluate(bench, answers=path, n_bootstrap=100).to_dict()
    a = d["answers"]["all"]
    assert a["A"]["value"] == 0.5 and a["A"]["n"] == 4
    assert a["error_rate"]["value"] == 0.25 and a["missing_rate"]["value"] == 0.25
    t = d["time_accuracy"]["all"]
    # refs: q1 {1994}, q2 {1999 start, 2001 end}, q3 {2005}, q4 {2010}; only q1 cites its ref.
    assert t["T"]["value"] == 0.25 and t["AT"]["value"] == 0.25 and t["A_minus_AT"]["value"] == 0.25


def test_bad_run_is_rejected(bench: Path, tmp_path: Path) -> None:
    bad = write_run(tmp_path / "bad.run.jsonl", {"nope": []})
    with pytest.raises(ChronoqaError, match="another benchmark"):
        evaluate(bench, run=bad)
    broken = tmp_path / "broken.run.jsonl"
    broken.write_text('{"qid": "q1", "hits": [{"s": "A"}]}\n')
    with pytest.raises(ChronoqaError, match=r"broken.run.jsonl:1: field 'hits\[0\]'"):
        evaluate(bench, run=broken)


def test_inputs_not_mutated(bench: Path, tmp_path: Path) -> None:
    rel = load_release(bench)
    before = [q.to_dict() for q in rel.questions]
    evaluate(rel, run=main_run(tmp_path), n_bootstrap=20)
    assert [q.to_dict() for q in rel.questions] == before


def test_cli_writes_deterministic_metrics(bench: Path, tmp_path: Path) -> None:
    run = main_run(tmp_path)
    runner = CliRunner()
    outs = []
    for i in range(2):
        out = tmp_path / f"m{i}.json"
        res = runner.invoke(
            app, ["evaluate", "--bench", str(bench), "--run", str(run), "--out", str(out), "--bootstrap", "100"]
        )
        assert res.exit_code == 0, res.output
        assert "TRP_macro" in res.output and "95% CI" in res.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert json.loads(outs[0])["retrieval"]["all"]["CCR"]["value"] == 0.5
    bad = runner.invoke(app, ["evaluate", "--bench", str(tmp_path / "missing"), "--run", str(run)])
    # the error reaches chronoqa.cli.main, which prints one stderr line and exits 2 (tests/test_cli.py)
    assert isinstance(bad.exception, ChronoqaError) and "not a benchmark release" in str(bad.exception)


def test_judge_agreement_reported(bench: Path) -> None:
    answers = {q.id: AnswerRecord(q.id, "x", "ok", q.answers[0], f"It held in {q.t_query}.") for q in QUESTIONS}
    # The deterministic check: q1, q3, q4 cite their single year; q2 (1999-2001 interval) does not.
    d = evaluate(bench, answers=answers, judge=lambda q, r: True, n_bootstrap=50).to_dict()
    t = d["time_accuracy"]["all"]
    assert t["T"]["value"] == 0.75
    assert t["judge_T"]["value"] == 1.0 and t["judge_agreement"]["value"] == 0.75


def test_cli_compare_and_functional_only(bench: Path, tmp_path: Path) -> None:
    oracle = write_run(tmp_path / "oracle.run.jsonl", {q.id: list(q.S_star) for q in QUESTIONS}, {"spec": "oracle"})
    out = tmp_path / "cmp.json"
    res = CliRunner().invoke(
        app,
        [
            "evaluate",
            "--bench",
            str(bench),
            "--run",
            str(oracle),
            "--compare",
            str(main_run(tmp_path)),
            "--functional-only",
            "--out",
            str(out),
            "--bootstrap",
            "50",
            "--seed",
            "3",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "paired comparison" in res.output
    d = json.loads(out.read_text())
    assert d["n_questions"] == 3 and d["compare"]["a"] == "oracle" and d["compare"]["b"] == "sys"
    # functional subset q1, q2, q4: the system completes q1 and q2 (CCR 2/3), the oracle all three
    assert d["compare"]["paired"]["CCR"]["all"]["diff"] == pytest.approx(1.0 - 2 / 3)


def test_compare_answers(bench: Path, tmp_path: Path) -> None:
    good = [AnswerRecord(q.id, "good", "ok", q.answers[0], f"in {q.t_query}") for q in QUESTIONS]
    bad = [AnswerRecord(q.id, "bad", "ok", "nobody", None) for q in QUESTIONS]
    d = evaluate(bench, answers=good, compare_answers=bad, n_bootstrap=100).to_dict()
    a = d["compare_answers"]["paired"]["A"]["all"]
    # 4 discordant pairs, all in favour of A: exact McNemar p = 2 * 0.5**4
    assert (a["a"], a["b"], a["diff"]) == (1.0, 0.0, 1.0) and a["mcnemar_p"] == pytest.approx(2 * 0.5**4)
    t = d["compare_answers"]["paired"]["T"]["all"]
    assert (t["a"], t["b"]) == (0.75, 0.0)  # q2's 1999-2001 interval is not cited by "in 2000"
    assert d["compare_answers"]["b_answers"]["all"]["wrong_rate"]["value"] == 1.0
    path_a, path_b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    path_a.write_text("".join(json.dumps(r.to_dict()) + "\n" for r in good))
    path_b.write_text("".join(json.dumps(r.to_dict()) + "\n" for r in bad))
    res = CliRunner().invoke(
        app,
        ["evaluate", "--bench", str(bench), "--answers", str(path_a), "--compare-answers", str(path_b), "--out",
         str(tmp_path / "m.json"), "--bootstrap", "50"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "paired comparison of answers" in res.output


def test_questions_without_evidence_leave_retrieval_denominators(tmp_path: Path) -> None:
    # A table question of cardinality "none" has an empty S*: nothing to retrieve. The oracle still
    # scores CCR 1 over the questions with evidence, the "none" question is counted, and answers keep it.
    none_q = Question("q5", "test", "Who was X during 1990?", "1990", (), answers=(), cardinality="none")
    qs = [*QUESTIONS, none_q]
    corpus = [
        Doc(t.doc_id, f"{t.s} {t.r} {t.o}", t.s, t.r, t.o, t.t_start, t.t_end)
        for q in QUESTIONS
        for t in (*q.S_star, *q.S_dist, *q.S_stale)
    ]
    rel = write_release(tmp_path / "bench5", qs, corpus, [*FLAGS, FunctionalFlags("q5", False, False)], {}, "#\n")
    oracle = write_run(tmp_path / "oracle.run.jsonl", {q.id: list(q.S_star) for q in qs})
    answers = [AnswerRecord(q.id, "t", "ok", q.answers[0] if q.answers else "none", None, None, None) for q in qs]
    d = evaluate(rel, run=oracle, answers=answers, n_bootstrap=50).to_dict()
    assert d["n_questions"] == 5 and d["n_evidence_questions"] == 4 and d["n_no_gold_evidence"] == 1
    assert d["retrieval"]["all"]["n_questions"] == 4
    assert d["retrieval"]["all"]["CCR"]["value"] == 1.0 and d["retrieval"]["all"]["R@10"]["value"] == 1.0
    assert any("empty S*" in w for w in d["warnings"])
    assert d["answers"]["all"]["A"]["value"] == 1.0 and d["answers"]["all"]["A"]["n"] == 5


def test_metrics_record_round_trips_and_writes_only_the_keys_given(bench: Path, tmp_path: Path) -> None:
    q1, _, _, q4 = QUESTIONS
    other = write_run(tmp_path / "b.run.jsonl", {"q1": list(q1.S_star), "q4": list(q4.S_star)})
    good = [AnswerRecord(q.id, "good", "ok", q.answers[0], f"in {q.t_query}") for q in QUESTIONS]
    res = evaluate(bench, run=main_run(tmp_path), compare=other, answers=good, n_bootstrap=20, min_slice=2)
    d = res.to_dict()
    back = EvaluationMetrics.from_dict(json.loads(json.dumps(d)))
    assert back == res.metrics and back.to_dict() == d
    # optional keys appear only when given: no judge, no second answer file; small_slice only on small slices
    assert "judge" not in d and "compare_answers" not in d and "compare" in d
    assert "small_slice" not in d["retrieval"]["all"] and d["retrieval"]["by_operator"]["interval"]["small_slice"]
    assert d["compare"]["paired"]["CCR"]["all"]["mcnemar_p"] is not None  # a binary outcome: McNemar
    assert "mcnemar_p" not in d["compare"]["paired"]["TRP_macro"]["all"]
    assert d["time_accuracy"]["n_no_refs"] == 0 and d["split"] is None
    assert res.metrics.retrieval is not None and res.metrics.retrieval.all is not None
    assert res.metrics.retrieval.all.metrics["CCR"].value == 0.5  # the typed view of the same number


def test_a_bad_metrics_file_names_the_file_and_field(bench: Path, tmp_path: Path) -> None:
    res = evaluate(bench, run=main_run(tmp_path), n_bootstrap=0)
    ev = tmp_path / "evaluate"
    write_metrics(ev, "retrieval", MetricsRecord("sys", res.metrics))
    assert read_metrics(ev).retrieval == (MetricsRecord("sys", res.metrics),)
    bad = res.to_dict()
    bad["retrieval"]["all"]["CCR"]["n"] = "four"
    (ev / "retrieval" / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(DataError, match=r"bad\.json.*retrieval\.all"):
        read_metrics(ev)


def test_judge_agreement_is_over_the_items_the_rules_decide(bench: Path) -> None:
    answers = {q.id: AnswerRecord(q.id, "x", "ok", q.answers[0], f"It held in {q.t_query}.") for q in QUESTIONS}
    # q2's only date sits in a Greek date the reader leaves alone: undecided, so the judge decides it
    answers["q2"] = AnswerRecord("q2", "x", "ok", "F", "Ήταν στις 7 Μαΐου 2000.")
    d = evaluate(bench, answers=answers, judge=lambda q, r: False, n_bootstrap=50).to_dict()
    t = d["time_accuracy"]["all"]
    assert t["T"]["value"] == 0.75  # q1, q3, q4 cited; q2 takes the judge's No
    # the judge says No to the three the rules call right: it agrees on none of the decided items (q2,
    # where its verdict became T, is no agreement)
    assert t["judge_agreement"]["value"] == 0.0 and t["judge_false_rejects"]["value"] == 1.0
