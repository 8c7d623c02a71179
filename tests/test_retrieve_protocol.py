"""Retrievers see only what a user poses: poisoning every hidden field changes no output."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

from chronoqa.artifacts.release import load_release
from chronoqa.retrieve import REGISTRY, query_from_question, read_run, run_retrieval
from retrieve_fixtures import docs, poisoned, questions, write_bench

GOLD_READERS = {"oracle", "stale_only", "dist_only"}
HAS_DENSE = importlib.util.find_spec("sentence_transformers") is not None


def spec_for(name: str) -> str:
    return "hybrid(bm25,bm25_temporal(mode=boost),graph,random)" if name == "hybrid" else name


def non_gold_specs() -> list[object]:
    out: list[object] = []
    for name in REGISTRY.names():
        if name in GOLD_READERS:
            continue
        marks = [pytest.mark.dense, pytest.mark.skipif(not HAS_DENSE, reason="no sentence-transformers")]
        out.append(pytest.param(spec_for(name), marks=marks if name == "dense" else []))
    return out


def test_every_registered_retriever_is_covered() -> None:
    covered = {str(p.values[0]).split("(")[0] for p in non_gold_specs()} | GOLD_READERS  # type: ignore[attr-defined]
    assert covered == set(REGISTRY.names())


def test_query_hides_the_time_of_interval_questions() -> None:
    qs = {q.id: q for q in questions()}
    assert query_from_question(qs["q1"]).time_tag == "2010"
    q4 = query_from_question(qs["q4"])
    assert q4.time_tag is None and q4.text == qs["q4"].question
    assert [f.name for f in dataclasses.fields(q4)] == ["qid", "text", "time_tag"]


@pytest.mark.parametrize("spec", non_gold_specs())
def test_poisoning_hidden_fields_changes_nothing(tmp_path: Path, spec: str) -> None:
    clean = write_bench(tmp_path / "clean")
    dirty = write_bench(tmp_path / "dirty", poisoned(questions()))
    (a,) = run_retrieval(clean, [spec], tmp_path / "runs_clean", k=5)
    (b,) = run_retrieval(dirty, [spec], tmp_path / "runs_dirty", k=5)
    assert a.run.lines == b.run.lines
    assert a.path.read_bytes() == b.path.read_bytes()
    if spec not in ("empty",):
        assert any(line.hits for line in a.run.lines), "a retriever that returns nothing proves nothing"


@pytest.mark.parametrize(("spec", "field"), [("oracle", "S_star"), ("stale_only", "S_stale"), ("dist_only", "S_dist")])
def test_gold_controls_return_their_set_and_are_marked(tmp_path: Path, spec: str, field: str) -> None:
    bench = write_bench(tmp_path / "b")
    (res,) = run_retrieval(bench, [spec], tmp_path / "runs", k=10)
    assert res.control and res.run.meta["control"] is True
    for q in load_release(bench).questions:
        want = [t.doc_id for t in getattr(q, field)]
        got = [h.doc_id for h in res.run.as_dict()[q.id]]
        assert got == want
    dirty = write_bench(tmp_path / "d", poisoned(questions()))
    (res2,) = run_retrieval(dirty, [spec], tmp_path / "runs2", k=10)
    assert res2.run.lines != res.run.lines  # they do read the gold, on purpose


def test_controls_random_and_empty(tmp_path: Path) -> None:
    bench = write_bench(tmp_path / "b")
    r1, e = run_retrieval(bench, ["random(seed=1)", "empty"], tmp_path / "runs", k=4)
    assert r1.control and e.control
    assert all(len(line.hits) == 4 for line in r1.run)
    assert all(len({h.doc_id for h in line.hits}) == 4 for line in r1.run)
    assert [line.qid for line in e.run] == [q.id for q in questions()]
    assert all(line.hits == () for line in e.run)
    (r2,) = run_retrieval(bench, ["random(seed=2)"], tmp_path / "runs", k=4)
    assert r2.run.lines != r1.run.lines
    meta = read_run(r1.path).meta
    assert meta["control"] is True


def test_every_question_gets_a_line_even_when_nothing_matches(tmp_path: Path) -> None:
    bench = write_bench(tmp_path / "b")
    (res,) = run_retrieval(bench, ["bm25"], tmp_path / "runs", k=3)
    lines = res.path.read_text().splitlines()
    assert len(lines) == len(questions())
    assert len(docs()) > 3
