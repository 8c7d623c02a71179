"""Each stage's real output passed into the next through the public API: build, retrieve, answer, evaluate, report.

On the code before the artifacts floor this failed at the first hand-over: ``chronoqa.read_run``'s result,
passed to ``chronoqa.evaluate``, raised ``TypeError`` (two ``Run`` classes). Expected values are worked from
the questions themselves (the oracle control retrieves exactly S*), not by re-running the scorer.
"""

from __future__ import annotations

import random
from pathlib import Path

import chronoqa
from chronoqa.answer import answer_release, make_answerer
from chronoqa.artifacts import MetricsFolder, MetricsRecord, read_answers, read_metrics
from chronoqa.artifacts.answers import read_answers_meta
from chronoqa.report import build_summary, render_html, render_markdown


def tiny_graph() -> chronoqa.TemporalGraph:
    """About 300 facts of six YAGO relations between 60 people and 40 things, years 1950-2020."""
    rng = random.Random(11)
    rels = ["playsFor", "isMarriedTo", "hasWonPrize", "worksAt", "owns", "created"]
    facts = []
    for i in range(300):
        r = rng.choice(rels)
        s = f"<P{rng.randrange(60)}>"
        o = f"<P{rng.randrange(60)}>" if r == "isMarriedTo" else f"<O{rng.randrange(40)}>"
        a = rng.randrange(1950, 2020)
        b = None if rng.random() < 0.3 else a + rng.randrange(0, 12)
        end = None if b is None else chronoqa.TimePoint(b)
        facts.append(chronoqa.Fact(i, s, f"<{r}>", o, chronoqa.TimePoint(a), end, i + 1))
    # readable names ("Person 7", "Thing 3"): a bare "P7" reads as a raw Wikidata id and fails the build
    names = {"P": "Person", "O": "Thing"}
    labels = {e: f"{names[e[1]]} {e[2:-1]}" for f in facts for e in (f.s, f.o)}
    return chronoqa.TemporalGraph("tiny", facts, labels, {f"<{r}>": r for r in rels})


def test_every_stage_feeds_the_next_through_the_public_api(tmp_path: Path) -> None:
    build = chronoqa.build_kg_benchmark(tiny_graph(), chronoqa.KGBuildConfig(n_questions=80, seed=0), phrases="yago11k")
    release = build.write(tmp_path / "release")
    rel = chronoqa.load_release(release)
    test_qs = rel.split("test")
    assert test_qs, "the tiny graph gives test questions"

    results = chronoqa.run_retrieval(release, ["oracle", "random"], tmp_path / "runs", k=10, split="test")
    oracle_path = results[0].path
    run = chronoqa.read_run(oracle_path)
    assert isinstance(run, chronoqa.Run)
    # the oracle control returns each question's S* documents
    by_q = run.as_dict()
    for q in test_qs:
        assert {h.doc_id for h in by_q[q.id]} == {t.doc_id for t in q.S_star}

    answer_release(release, make_answerer("extractive"), tmp_path / "answers", run=oracle_path, split="test")
    records = read_answers(tmp_path / "answers")
    assert [r.qid for r in records] == [q.id for q in test_qs]

    # the run as read, the run file and the in-memory triples all score the same
    from_run = chronoqa.evaluate(release, run=run, split="test", n_bootstrap=50)
    from_path = chronoqa.evaluate(release, run=oracle_path, split="test", n_bootstrap=50)
    triples = {q.id: list(q.S_star) for q in test_qs}
    from_triples = chronoqa.evaluate(release, run=triples, split="test", n_bootstrap=50)
    assert from_run.to_dict()["retrieval"] == from_path.to_dict()["retrieval"] == from_triples.to_dict()["retrieval"]
    retrieval = from_run.to_dict()["retrieval"]["all"]
    assert retrieval["coverage"]["value"] == 1.0  # every question with S* got its S* back
    assert retrieval["R@10"]["value"] in (1.0, None)  # every time-valid gold fact is retrieved

    scored = chronoqa.evaluate(release, answers=records, split="test", n_bootstrap=50)
    assert scored.to_dict()["answers"]["all"]["n_questions"] == len(test_qs)

    folder = MetricsFolder(
        retrieval=(MetricsRecord("oracle", from_run.metrics),),
        answers=(MetricsRecord("extractive", scored.metrics, read_answers_meta(tmp_path / "answers")),),
    )
    folder.write(tmp_path / "evaluate")
    assert read_metrics(tmp_path / "evaluate") == folder
    summary = build_summary(release, tmp_path / "evaluate", config={"split": "test"})
    assert summary == build_summary(release, folder, config={"split": "test"})
    assert [r.spec for r in summary.retrieval] == ["oracle"]
    assert summary.retrieval[0].control is True
    assert summary.answers[0].answerer == "extractive"
    assert "oracle" in render_html(summary) and "extractive" in render_markdown(summary)
