"""The run lock: two ``chronoqa run`` on one folder never lose or mix results.

The survivor's files are compared byte for byte with an undisturbed run's: every file but the two
documented timing file ``timings.json``.
"""

from __future__ import annotations

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
from chronoqa.outdir import LOCK_FILE, FolderLock, FolderLockedError
from chronoqa.pipeline.run import TIMINGS_FILE
from fake_openai import FakeOpenAI, Reply

pytest.importorskip("bm25s")

_SCRIPT = """
import sys
from chronoqa.pipeline.config import load_config
from chronoqa.outdir import FolderLockedError
from chronoqa.pipeline.run import run_pipeline
rel, out, url, wait = sys.argv[1:5]
cfg = load_config(None, bench=rel, out=out, retrievers="bm25", controls="oracle", baselines="prior",
                  protocols="closed_book@1",
                  llm=f"llm(model=fake,base_url={url},concurrency=1,retries=0,timeout=60)", n_bootstrap=20)
try:
    res = run_pipeline(cfg, wait=wait == "1")
except FolderLockedError as exc:
    print("LOCKED", exc)
    sys.exit(3)
print(",".join(f"{s.name}={'skip' if s.skipped else 'run'}" for s in res.stages))
"""


_CLI = [sys.executable, "-c", "from chronoqa.cli import main; main()"]


def _run_lock(run: Path, *, wait: bool = False) -> FolderLock:
    """The exclusive lock a run holds on its folder (as ``OutputFolder(run, "run")`` takes it)."""
    return FolderLock(run, wait=wait, what="run folder")


def _ok(n: int, payload: dict[str, Any]) -> Reply:
    user = payload["messages"][-1]["content"]
    return 200, f"Answer: {'Lyon' if 'born' in user else 'Blue FC'}", {}


def _files(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder``: a file's bytes, ``None`` for a folder."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None for p in sorted(folder.rglob("*"))
    }


def _comparable(folder: Path) -> dict[str, bytes | None]:
    """Every file of a run folder but the documented wall-clock timing files."""
    return {name: data for name, data in _files(folder).items() if name != TIMINGS_FILE}


def _script(tmp_path: Path) -> Path:
    script = tmp_path / "pipe.py"
    script.write_text(_SCRIPT)
    return script


def _reference(tmp_path: Path, rel: Path, script: Path, url: str) -> dict[str, bytes | None]:
    """The files of an undisturbed run; every run of these tests works in ``<cwd>/run`` (a relative --out,
    so that even the recorded config is the same)."""
    cwd = tmp_path / "undisturbed"
    cwd.mkdir()
    subprocess.run([sys.executable, str(script), str(rel), "run", url, "0"], check=True, timeout=300, cwd=cwd)
    return _comparable(cwd / "run")


def test_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with _run_lock(run) as first:
        assert first.held and (run / LOCK_FILE).read_text().strip() == str(os.getpid())
        with pytest.raises(FolderLockedError, match=rf"in use by another chronoqa run \(process {os.getpid()}\)"):
            _run_lock(run).acquire()
    assert not (run / LOCK_FILE).exists()  # released and removed
    with _run_lock(run):  # free again
        pass
    # a lock file left by a dead holder (no process holds the flock) does not block
    (run / LOCK_FILE).write_text("999999\n")
    with _run_lock(run) as again:
        assert again.held


def test_waiting_lock_gets_the_folder_when_the_holder_leaves(tmp_path: Path) -> None:
    run = tmp_path / "run"
    got: list[float] = []
    first = _run_lock(run)
    first.acquire()

    def second() -> None:
        with _run_lock(run, wait=True):
            got.append(time.monotonic())

    t = threading.Thread(target=second)
    t.start()
    time.sleep(0.3)
    assert not got  # still waiting
    released = time.monotonic()
    first.release()
    t.join(10)
    assert got and got[0] >= released


def test_two_runs_started_together(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    script = _script(tmp_path)
    (tmp_path / "busy").mkdir()
    out = tmp_path / "busy" / "run"
    with FakeOpenAI(_ok) as srv:
        ref = _reference(tmp_path, rel, script, srv.base_url)
        procs = [
            subprocess.Popen(
                [sys.executable, str(script), str(rel), "run", srv.base_url, "0"],
                cwd=out.parent,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        results = [(p.wait(300), p.stdout.read() if p.stdout else "") for p in procs]
    codes = sorted(rc for rc, _ in results)
    assert codes in ([0, 0], [0, 3]), results  # the loser fails at once (3), or came after the winner ended
    if codes == [0, 3]:
        assert "in use by another chronoqa run" in next(o for rc, o in results if rc == 3)
    assert _comparable(out) == ref


def test_second_run_on_a_busy_folder_fails_or_waits_and_survives_a_kill(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    script = _script(tmp_path)
    (tmp_path / "busy").mkdir()
    out = tmp_path / "busy" / "run"
    hang = threading.Event()
    hang_from = [10**9]  # the n-th request and later hang (one server: the LLM spec, its base_url, is config)

    def slow_after_two(n: int, payload: dict[str, Any]) -> Reply:
        if n >= hang_from[0] and not hang.is_set():
            hang.set()
            return 0, "sleep:60", {}
        return _ok(n, payload)

    with FakeOpenAI(slow_after_two) as srv:
        ref = _reference(tmp_path, rel, script, srv.base_url)
        # the first LLM request hangs: killed there, the run leaves no cached answer, so the survivor makes the
        # same calls as the undisturbed run and even answers.meta.json's call counters agree
        hang_from[0] = len(srv.requests)
        first = subprocess.Popen([sys.executable, str(script), str(rel), "run", srv.base_url, "0"], cwd=out.parent)
        deadline = time.monotonic() + 120
        while not hang.is_set():
            assert first.poll() is None, "the first run ended before its LLM stage hung"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        busy = _files(out)
        assert any(name.startswith(".tmp-answer-llm") for name in busy)  # mid-stage
        # the case: a second run that would fail anyway (--bench /nope) deleted the first's temp folder
        cli = subprocess.run(
            [
                sys.executable,
                "-c",
                "from chronoqa.cli import main; main()",
                "run",
                "--bench",
                "/nope",
                "--out",
                str(out),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert cli.returncode == 2, cli
        # its bad input is found before it takes the lock (which creates the folder): it touches nothing
        assert "not a benchmark release folder" in cli.stderr and "Traceback" not in cli.stderr
        assert _files(out) == busy  # nothing of the first run touched
        # a waiting run starts once the first is killed mid-stage, and its outputs equal an undisturbed run's
        second = subprocess.Popen(
            [sys.executable, str(script), str(rel), "run", srv.base_url, "1"],
            cwd=out.parent,
            stdout=subprocess.PIPE,
            text=True,
        )
        time.sleep(1.0)
        assert second.poll() is None and _files(out) == busy  # waiting, touching nothing
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
        stdout, _ = second.communicate(timeout=300)
    assert second.returncode == 0, stdout
    # the dead run's temp folder and the lock are gone; the folder's marker stays
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == [".chronoqa"]
    assert _comparable(out) == ref
