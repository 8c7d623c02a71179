"""``chronoqa export --to tempbench``: TempBench's README quickstart runs on the export unchanged.

The quickstart below is transcribed from TempBench's README (steps 1-3 and "The one trap"); only
``my_retriever``, which the README leaves to the reader, is defined by the test. It runs in a fresh
interpreter in the export folder, as a reader would run it. Expected values come from the release's own
files read as plain JSON, never from the exporter or the scorer under test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from publish_fixtures import chronoqa_cli

pytestmark = pytest.mark.mirror

QUICKSTART = """
import json

test = [json.loads(l) for l in open('benchmark/benchmark_labelled.jsonl',
                                    encoding='utf-8')]
test = [q for q in test if q['split'] == 'test']          # 1,743 questions

q = test[0]
q['question']    # 'In 1994, what was ... ?'
q['t_query']     # 1994.0  -- the time the question is asked about
q['S_star']      # [{'s':..., 'r':..., 'o':..., 't_start':..., 't_end':...}, ...]
q['S_dist']      # same (s,r), wrong object
q['S_stale']     # same (s,r,o), wrong time

#RETRIEVER

from tempbench_eval import score_question, aggregate

rows = [score_question(q, my_retriever(q['question'], q['t_query']))
        for q in test]
print(aggregate(rows))

flags = {json.loads(l)['id']: json.loads(l)
         for l in open('benchmark/functional_negatives.jsonl', encoding='utf-8')}
sub = [q for q in test if flags[q['id']]['stale_functional']]

#CHECKS
"""

# The reader's retriever: the gold chain and the distractors of the question asked (looked up by its text).
RETRIEVER = """
_by_text = {(x['question'], x['t_query']): x for x in test}
def my_retriever(question, t_query):
    x = _by_text[(question, t_query)]
    return x['S_star'] + [tuple(t[k] for k in ('s', 'r', 'o', 't_start', 't_end')) for t in x['S_dist']]
"""

# The README's trap: the stale subgraph scored on the 1-hop test slice, restricted to functional negatives.
CHECKS = """
stale = aggregate([score_question(q, q['S_stale']) for q in sub if q['complexity'] == '1-hop'])
print(json.dumps({'quickstart': aggregate(rows), 'stale': stale, 't_query': [q['t_query'] for q in test]}))
"""


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module", params=["wikidata12k", "yago11k-expand-years"])
def exported(
    request: pytest.FixtureRequest, mirror: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp(request.param)
    dataset, *extra = request.param.split("-", 1)
    args = ["--expand-years"] if extra else []
    res = chronoqa_cli("build", "kg", "--dataset", dataset, *args, "--n-questions", "300", "--out", str(base / "rel"))
    assert res.returncode == 0, res.stderr[-2000:]
    res = chronoqa_cli("export", str(base / "rel"), "--to", "tempbench", "--out", str(base / "out"))
    assert res.returncode == 0, res.stderr[-2000:]
    return base / "rel", base / "out" / "tempbench"


def _run(folder: Path, code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder / "code"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def _exported(questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The questions TempBench's layout keeps: evidence that holds at t_query (not an empty S*, not a "no")."""
    return [q for q in questions if q["S_star"] and not (q.get("answer_type") == "yes_no" and q["answers"] == ["no"])]


def test_layout(exported: tuple[Path, Path]) -> None:
    _, out = exported
    names = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert names == [
        "DATACARD.md",
        "benchmark/benchmark.jsonl",
        "benchmark/benchmark_labelled.jsonl",
        "benchmark/functional_negatives.jsonl",
        "benchmark/ids.txt",
        "benchmark/labels.tsv",
        "code/tempbench_eval.py",
    ]


def test_quickstart_runs_unchanged(exported: tuple[Path, Path]) -> None:
    release, out = exported
    res = _run(out, QUICKSTART.replace("#RETRIEVER", RETRIEVER).replace("#CHECKS", CHECKS))
    assert res.returncode == 0, res.stderr[-3000:]
    got = json.loads(res.stdout.splitlines()[-1])
    # the export leaves out questions with no evidence holding at t_query: an empty S*, a yes/no answered "no"
    questions = [q for q in _exported(_lines(release / "benchmark.jsonl")) if q["split"] == "test"]
    assert got["t_query"] == [float(q["t_query"]) for q in questions]
    assert all(isinstance(t, float) for t in got["t_query"])
    # Independently: the retriever returns S* plus the distractors not in S*; every S* fact is valid at t_query.
    trps = []
    for q in questions:
        gold = {tuple(t[k] for k in ("s", "r", "o", "t_start", "t_end")) for t in q["S_star"]}
        dist = {tuple(t[k] for k in ("s", "r", "o", "t_start", "t_end")) for t in q["S_dist"]} - gold
        trps.append(len(gold) / (len(gold) + len(dist)))
    agg = got["quickstart"]
    assert agg["n_questions"] == len(questions) > 0
    assert agg["coverage"] == 1.0 and agg["CCR"] == 1.0
    assert agg["TRP_macro"] == pytest.approx(sum(trps) / len(trps), abs=1e-12)
    # The trap's last check: on functional stale negatives the stale subgraph scores TRP 0 / CCR 0.
    flags = {f["id"]: f for f in _lines(release / "functional_negatives.jsonl")}
    n_sub = sum(1 for q in questions if flags[q["id"]]["stale_functional"] and q["hops"] == 1)
    assert got["stale"]["n_questions"] == n_sub > 0
    assert (got["stale"]["TRP_macro"], got["stale"]["CCR"]) == (0.0, 0.0)


def test_eval_script_self_check(exported: tuple[Path, Path]) -> None:
    _, out = exported
    res = subprocess.run(
        [sys.executable, "code/tempbench_eval.py"], cwd=out, capture_output=True, text=True, timeout=120, check=False
    )
    assert res.returncode == 0, res.stderr
    assert "self-check passed" in res.stdout


def test_raw_file_holds_ids_that_labels_tsv_resolves(exported: tuple[Path, Path]) -> None:
    release, out = exported
    labels = dict(
        line.split("\t") for line in (out / "benchmark" / "labels.tsv").read_text(encoding="utf-8").splitlines()
    )
    assert (out / "benchmark" / "ids.txt").read_text(encoding="utf-8").splitlines() == sorted(labels)
    raw = _lines(out / "benchmark" / "benchmark.jsonl")
    labelled = _lines(out / "benchmark" / "benchmark_labelled.jsonl")
    source = _exported(_lines(release / "benchmark.jsonl"))
    assert [q["id"] for q in raw] == [q["id"] for q in labelled] == [q["id"] for q in source]
    for r, lab, src in zip(raw, labelled, source, strict=True):
        for name in ("S_star", "S_dist", "S_stale"):
            assert [(t["s"], t["r"], t["o"]) for t in r[name]] == [(t["s_id"], t["r_id"], t["o_id"]) for t in src[name]]
            assert [(labels[t["s"]], labels[t["r"]], labels[t["o"]]) for t in r[name]] == [
                (t["s"], t["r"], t["o"]) for t in lab[name]
            ]
        assert r["question"] == lab["question"] == src["question"]
        assert lab["answers"] == src["answers"]


def test_functional_flags_copied(exported: tuple[Path, Path]) -> None:
    release, out = exported
    kept = {q["id"] for q in _exported(_lines(release / "benchmark.jsonl"))}
    flags = [f for f in _lines(release / "functional_negatives.jsonl") if f["id"] in kept]
    assert _lines(out / "benchmark" / "functional_negatives.jsonl") == flags


def test_datacards_say_when_stale_is_empty(exported: tuple[Path, Path]) -> None:
    release, out = exported
    questions = _lines(release / "benchmark.jsonl")
    with_stale = sum(1 for q in questions if q["S_stale"])
    for card in (release / "DATACARD.md", out / "DATACARD.md"):
        text = card.read_text(encoding="utf-8")
        assert f"{with_stale:,} of {len(questions):,} questions carry a stale negative" in text
        assert "--expand-years" in text and "empty whenever no gold fact's (s, r, o) occurs" in text


def test_release_without_year_t_query_is_refused(exported: tuple[Path, Path], tmp_path: Path) -> None:
    release, _ = exported
    copy = tmp_path / "rel"
    shutil.copytree(release, copy)
    rows = _lines(copy / "benchmark.jsonl")
    rows[0]["t_query"] = "1994-03"
    (copy / "benchmark.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    res = chronoqa_cli("export", str(copy), "--to", "tempbench", "--out", str(tmp_path / "out"))
    assert res.returncode == 2
    assert rows[0]["id"] in res.stderr and "Fix:" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "out").exists()
