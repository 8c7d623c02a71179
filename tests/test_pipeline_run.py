from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from answer_fixtures import write_fixture
from chronoqa.artifacts.summary import read_summary
from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.io import read_json, read_jsonl, sha256_file
from chronoqa.outdir import LOCK_FILE, MARKER
from chronoqa.pipeline.config import dump_toml, load_config
from chronoqa.pipeline.run import TIMINGS_FILE, run_pipeline
from fake_openai import FakeOpenAI, Reply

pytest.importorskip("bm25s")


def _answer(payload: dict[str, Any]) -> str:
    user = payload["messages"][-1]["content"]
    return "Lyon" if "born" in user else "Blue FC"


def _ok(n: int, payload: dict[str, Any]) -> Reply:
    return 200, f"Answer: {_answer(payload)}\nExplanation: held from 2005 to 2009.", {}


def test_config_file_flags_and_record(tmp_path: Path) -> None:
    toml = tmp_path / "run.toml"
    toml.write_text(
        'dataset = "yago11k"\nseed = 3\n[build]\nn_questions = 50\n[retrieve]\nretrievers = ["bm25"]\nk = 5\n'
        '[answer]\nbaselines = ["prior"]\n'
    )
    cfg = load_config(toml, k=7, controls="oracle,hybrid(bm25,random)")
    assert cfg.seed == 3 and cfg.k == 7 and cfg.retrievers == ("bm25",) and cfg.baselines == ("prior",)
    assert cfg.controls == ("oracle", "hybrid(bm25,random)")
    assert cfg.build == {"n_questions": 50}
    again = tmp_path / "again.toml"
    again.write_text(dump_toml(cfg.to_dict()))
    assert load_config(again) == cfg  # the recorded config re-runs the same
    bad = tmp_path / "bad.toml"
    bad.write_text("[retrieve]\nretreivers = ['bm25']\n")
    with pytest.raises(UnknownNameError, match="Did you mean retrievers"):
        load_config(bad)
    with pytest.raises(ChronoqaError, match="not valid TOML"):
        bad.write_text("k = [")
        load_config(bad)


def test_pipeline_on_fixture_then_skips_everything(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    with FakeOpenAI(_ok) as srv:
        cfg = load_config(
            None,
            bench=str(rel),
            out=str(tmp_path / "run"),
            retrievers="bm25",
            controls="oracle,empty",
            llm=f"llm(model=fake,base_url={srv.base_url},concurrency=2)",
            n_bootstrap=50,
        )
        res = run_pipeline(cfg)
        names = [s.name for s in res.stages]
        assert names == [
            "retrieve-bm25",
            "retrieve-oracle",
            "retrieve-empty",
            "answer-extractive@bm25",
            "answer-extractive@oracle",
            "answer-extractive@empty",
            "answer-prior",
            "answer-llm-closed_book@1",
            "answer-llm-rag@1@bm25",
            "evaluate",
            "report",
        ]
        assert not any(s.skipped for s in res.stages)
        n_calls = len(srv.requests)
        assert n_calls == 8  # 4 test questions x 2 protocols
        res2 = run_pipeline(cfg)
        assert all(s.skipped for s in res2.stages)
        assert len(srv.requests) == n_calls
    run = tmp_path / "run"
    assert read_json(run / "config.json")["retrieve"]["retrievers"] == ["bm25"]
    assert (run / "config.toml").read_text().startswith('dataset = "wikidata12k"')  # the default dataset
    html = res.report_html.read_text()
    # inline scripts only (the explorer's JSON and code): nothing fetched
    assert html.count("<script") == 2 and "<script src" not in html
    assert "http://" not in html.replace(srv.base_url, "") and "https://" not in html
    summ = res.summary
    specs = {r.spec: r.to_dict() for r in summ.retrieval}
    assert set(specs) == {"bm25", "oracle", "empty"}
    assert specs["oracle"]["control"] and not specs["bm25"]["control"]
    # the oracle control returns the gold chain: CCR 1 on every question (independent: construction)
    assert specs["oracle"]["metrics"]["CCR"]["value"] == 1.0
    assert specs["empty"]["metrics"]["CCR"]["value"] == 0.0
    ans = {r.name: r.to_dict() for r in summ.answers}
    # the extractive reader over the oracle facts: hand-worked answers of the fixture are all right
    assert ans["extractive@oracle"]["metrics"]["A"]["value"] == 1.0
    assert ans["extractive@empty"]["metrics"]["A"]["value"] == 0.0
    # the fake LLM says Blue FC / Lyon: right on q1 and q4 only
    assert ans["llm-closed_book@1"]["metrics"]["A"]["value"] == 0.5
    assert all(r["metrics"]["A"]["lo"] is not None for r in ans.values())
    assert summ == read_summary(res.report_html.parent)  # summary.json holds the summary the run returned


def test_llm_failures_scored_wrong_in_pipeline(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    with FakeOpenAI(lambda n, p: (500, "down", {})) as srv:
        cfg = load_config(
            None,
            bench=str(rel),
            out=str(tmp_path / "run"),
            retrievers="bm25",
            controls="",
            baselines="prior",
            protocols="closed_book@1",
            llm=f"llm(model=fake,base_url={srv.base_url},retries=0)",
            n_bootstrap=20,
        )
        res = run_pipeline(cfg)
    recs = list(read_jsonl(tmp_path / "run" / "answer-llm-closed_book@1" / "answers.jsonl"))
    assert len(recs) == 4 and {r["status"] for r in recs} == {"error"}
    row = next(r.to_dict() for r in res.summary.answers if r.name == "llm-closed_book@1")
    assert row["metrics"]["A"]["value"] == 0.0 and row["metrics"]["error_rate"]["value"] == 1.0


_SCRIPT = """
import sys
from chronoqa.pipeline.config import load_config
from chronoqa.pipeline.run import TIMINGS_FILE, run_pipeline
rel, out, url = sys.argv[1:4]
cfg = load_config(None, bench=rel, out=out, retrievers="bm25", controls="oracle", protocols="closed_book@1",
                  llm=f"llm(model=fake,base_url={url},concurrency=1,retries=0,timeout=60)", n_bootstrap=20)
res = run_pipeline(cfg)
print(",".join(f"{s.name}={'skip' if s.skipped else 'run'}" for s in res.stages))
"""


def test_kill_pipeline_midway_and_rerun(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    script = tmp_path / "pipe.py"
    script.write_text(_SCRIPT)
    out = tmp_path / "run"
    hang = threading.Event()

    def slow_after_two(n: int, payload: dict[str, Any]) -> Reply:
        if n >= 2:
            hang.set()
            return 0, "sleep:60", {}
        return _ok(n, payload)

    env = {**os.environ}
    with FakeOpenAI(slow_after_two) as srv:
        proc = subprocess.Popen([sys.executable, str(script), str(rel), str(out), srv.base_url], env=env)
        deadline = time.monotonic() + 120
        while not hang.is_set():
            assert proc.poll() is None, "pipeline ended before the LLM stage hung"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert not (out / "answer-llm-closed_book@1").exists()  # never half-written under its final name
    assert len(list((out / "cache" / "llm").glob("*/*.json"))) == 2  # two finished responses cached
    before = {p.name: (p / "stage.json").read_bytes() for p in out.iterdir() if (p / "stage.json").exists()}
    assert "retrieve-bm25" in before and "answer-prior" in before

    with FakeOpenAI(_ok) as srv2:
        # same base_url is not needed for the cache key (model + messages + parameters)
        done = subprocess.run(
            [sys.executable, str(script), str(rel), str(out), srv2.base_url],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        assert len(srv2.requests) == 2  # only the two unanswered questions are asked again
    status = dict(item.split("=") for item in done.stdout.strip().splitlines()[-1].split(","))
    for name in before:
        assert status[name] == "skip", name
        assert (out / name / "stage.json").read_bytes() == before[name]
    assert status["answer-llm-closed_book@1"] == "run" and status["report"] == "run"
    # no temporary or backup folder is left behind: only the folder's marker and lock file start with a dot
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == sorted(
        {MARKER, LOCK_FILE} & {p.name for p in out.iterdir()}
    )
    assert json.loads((out / MARKER).read_text(encoding="utf-8"))["pending"] == []
    for m in out.glob("*/stage.json"):
        man = json.loads(m.read_text())
        for rel_path, digest in man["outputs"].items():
            assert sha256_file(m.parent / rel_path) == digest
    recs = list(read_jsonl(out / "answer-llm-closed_book@1" / "answers.jsonl"))
    assert [r["status"] for r in recs] == ["ok"] * 4


def test_pipeline_is_deterministic(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    outs = []
    for name in ("a", "b"):
        cfg = load_config(None, bench=str(rel), out=str(tmp_path / name), retrievers="bm25",
                          controls="oracle,random", n_bootstrap=50)  # fmt: skip
        run_pipeline(cfg)
        outs.append(tmp_path / name)
    files = sorted(p.relative_to(outs[0]) for p in outs[0].rglob("*") if p.is_file())
    assert sorted(p.relative_to(outs[1]) for p in outs[1].rglob("*") if p.is_file()) == files
    assert any(f.name == "report.html" for f in files) and any(f.name == "answers.jsonl" for f in files)
    for f in files:
        if f.name == TIMINGS_FILE:
            continue  # wall-clock timings: the one file documented to differ
        # byte-identical, manifests included; the recorded config names the run folder (--out) and nothing else
        a, b = ((out / f).read_bytes().replace(str(out).encode(), b"<out>") for out in outs)
        assert a == b, f


@pytest.mark.mirror
@pytest.mark.slow
def test_pipeline_build_equals_cli_build_on_yago11k(tmp_path: Path, mirror: Path) -> None:
    """The main job builds exactly what `chronoqa build kg` builds (same reading of the data, same as_of)."""
    from typer.testing import CliRunner

    from chronoqa.cli import app

    cli_out = tmp_path / "cli"
    result = CliRunner().invoke(
        app, ["build", "kg", "--dataset", "yago11k", "--n-questions", "300", "--out", str(cli_out)]
    )
    assert result.exit_code == 0, result.output
    cfg = load_config(
        None,
        dataset="yago11k",
        out=str(tmp_path / "run"),
        build={"n_questions": 300},
        retrievers="bm25",
        controls="oracle",
        baselines="prior",
        n_bootstrap=20,
    )
    run_pipeline(cfg)
    for name in ("benchmark.jsonl", "corpus.jsonl", "functional_negatives.jsonl", "qrels"):
        assert sha256_file(tmp_path / "run" / "build" / name) == sha256_file(cli_out / name), name
    manifest = read_json(tmp_path / "run" / "build" / "manifest.json")
    assert manifest["load_report"]["rows_skipped"] == 5  # the five YAGO11k years after as_of (2029 .. 2844)


def test_pipeline_with_paraphrase_sets(tmp_path: Path) -> None:
    """[paraphrase] paraphraser = "grammar": every answerer answers the set; A all-k and flips beside A."""
    from chronoqa.artifacts.answers import read_answers
    from chronoqa.artifacts.metrics import read_verdicts
    from chronoqa.artifacts.paraphrases import read_paraphrases
    from chronoqa.artifacts.release import load_release

    def model(text: str) -> str:  # the fake model: a fronted preposition throws it off
        return "Lyon" if "born" in text else "Green FC" if "For which" in text else "Blue FC"

    def reply(n: int, payload: dict[str, Any]) -> Reply:
        return 200, f"Answer: {model(payload['messages'][-1]['content'])}\nExplanation: from 2005 to 2009.", {}

    rel, _ = write_fixture(tmp_path)
    toml = tmp_path / "run.toml"
    toml.write_text('[paraphrase]\nparaphraser = "grammar"\nparaphrase_k = 2\n')
    with FakeOpenAI(reply) as srv:
        llm = f"llm(model=fake,base_url={srv.base_url})"
        cfg = load_config(toml, bench=str(rel), out=str(tmp_path / "run"), retrievers="bm25", controls="oracle",
                          llm=llm, protocols="closed_book@1", n_bootstrap=50)  # fmt: skip
        res = run_pipeline(cfg)
        assert res.stages[0].name == "paraphrase"
        assert all(s.skipped for s in run_pipeline(cfg).stages)
    records = read_paraphrases(tmp_path / "run" / "paraphrase" / "paraphrases.jsonl")
    kept = [r for r in records if r.accepted]
    gold = {q.id: set(q.answers) for q in load_release(rel).questions if q.split == "test"}
    assert kept and {r.qid for r in records} <= set(gold)
    answers = {a.qid: a for a in read_answers(tmp_path / "run" / "answer-llm-closed_book@1" / "answers.jsonl")}
    assert {r.pid for r in kept} <= set(answers)  # every accepted paraphrase answered, by every answerer
    # each phrasing's verdict from its text and the fake model
    texts = {q: [next(q_.question for q_ in load_release(rel).questions if q_.id == q)] for q in gold}
    for r in kept:
        texts[r.qid].append(r.question)
    with_set = [q for q in gold if len(texts[q]) > 1]
    right = {q: [model(t) in gold[q] for t in texts[q]] for q in with_set}
    assert any(len(set(v)) > 1 for v in right.values())  # a flip to count
    row = next(r for r in res.summary.answers if r.name == "llm-closed_book@1")
    a_all_k, flip, a = (row.metrics[m] for m in ("A_all_k", "flip_rate", "A"))
    assert a_all_k is not None and flip is not None and a is not None
    assert a_all_k.value == pytest.approx(sum(all(v) for v in right.values()) / len(with_set))
    assert flip.value == pytest.approx(sum(len(set(v)) > 1 for v in right.values()) / len(with_set))
    assert a_all_k.lo is not None
    assert a.value == pytest.approx(
        sum(("Blue FC" in gold[q]) or ("Lyon" in gold[q] and "born" in texts[q][0]) for q in gold) / len(gold)
    )
    assert "A all-k" in res.report_html.read_text() and "A all-k" in res.report_md.read_text()
    verdicts = {v.qid: v for v in read_verdicts(tmp_path / "run" / "evaluate", "answers", "llm-closed_book@1")}
    for q in with_set:
        assert [p.text for p in verdicts[q].phrasings or []] == texts[q][1:]
        assert [bool(p.A) for p in verdicts[q].phrasings or []] == right[q][1:]
