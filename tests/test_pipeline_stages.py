from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from chronoqa.io import read_json, sha256_file
from chronoqa.pipeline.stages import STAGE_MANIFEST, Stage, StageRunner


def _stage(name: str, calls: list[str], value: str, inputs: dict[str, Path] | None = None) -> Stage:
    def fn(out: Path) -> dict[str, Any]:
        calls.append(name)
        (out / "data.txt").write_text(value)
        (out / "sub").mkdir()
        (out / "sub" / "more.txt").write_text(value * 2)
        return {"n": len(value)}

    return Stage(name, fn, inputs or {}, {"value": value})


def test_unchanged_stage_is_skipped_changed_one_recomputed(tmp_path: Path) -> None:
    runner = StageRunner(tmp_path / "run")
    calls: list[str] = []
    first = runner.run(_stage("a", calls, "x"))
    assert not first.skipped and first.summary == {"n": 1}
    again = runner.run(_stage("a", calls, "x"))
    assert again.skipped and again.summary == {"n": 1} and calls == ["a"]
    runner.run(_stage("a", calls, "yy"))  # config changed
    assert calls == ["a", "a"]
    assert (tmp_path / "run" / "a" / "data.txt").read_text() == "yy"
    # downstream stage keyed on the upstream folder's content
    b1 = runner.run(_stage("b", calls, "z", {"up": runner.path("a")}))
    b2 = runner.run(_stage("b", calls, "z", {"up": runner.path("a")}))
    assert not b1.skipped and b2.skipped
    runner.run(_stage("a", calls, "www"))
    b3 = runner.run(_stage("b", calls, "z", {"up": runner.path("a")}))
    assert not b3.skipped


def test_corrupted_output_is_recomputed(tmp_path: Path) -> None:
    runner = StageRunner(tmp_path / "run")
    calls: list[str] = []
    runner.run(_stage("a", calls, "x"))
    (tmp_path / "run" / "a" / "sub" / "more.txt").write_text("tampered")
    assert not runner.run(_stage("a", calls, "x")).skipped
    assert (tmp_path / "run" / "a" / "sub" / "more.txt").read_text() == "xx"


def test_force_recomputes(tmp_path: Path) -> None:
    calls: list[str] = []
    StageRunner(tmp_path / "run").run(_stage("a", calls, "x"))
    StageRunner(tmp_path / "run", force=True).run(_stage("a", calls, "x"))
    assert calls == ["a", "a"]


def test_failing_stage_leaves_nothing_and_keeps_previous(tmp_path: Path) -> None:
    runner = StageRunner(tmp_path / "run")
    runner.run(_stage("a", [], "x"))

    def boom(out: Path) -> None:
        (out / "data.txt").write_text("half")
        raise RuntimeError("stage failed")

    with pytest.raises(RuntimeError):
        runner.run(Stage("a", boom, {}, {"value": "changed"}))
    assert (tmp_path / "run" / "a" / "data.txt").read_text() == "x"  # the old complete stage
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == [".chronoqa", "a"]


def test_bad_stage_name() -> None:
    with pytest.raises(ValueError, match="stage name"):
        Stage("a/b", lambda p: None)


_SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from chronoqa.pipeline.stages import Stage, StageRunner

    run_dir, log = Path(sys.argv[1]), Path(sys.argv[2])

    def stage(name, slow):
        def fn(out):
            with log.open("a") as fh:
                fh.write(name + "\\n")
            with (out / "big.txt").open("w") as fh:
                for i in range(2000):
                    fh.write(f"{name} line {i}\\n")
                    if slow and i == 1000:
                        fh.flush()
                        (run_dir.parent / "started").write_text("1")
                        time.sleep(120)
            return {"lines": 2000}
        return fn

    slow = os.environ.get("SLOW") == "1"
    runner = StageRunner(run_dir)
    a = runner.run(Stage("a", stage("a", False), {}, {"k": 1}))
    b = runner.run(Stage("b", stage("b", slow), {"a": a.path}, {"k": 2}))
    c = runner.run(Stage("c", stage("c", False), {"b": b.path}, {"k": 3}))
    print("done", a.skipped, b.skipped, c.skipped)
    """
)


def test_kill_midway_and_rerun(tmp_path: Path) -> None:
    script = tmp_path / "pipe.py"
    script.write_text(_SCRIPT)
    run_dir, log = tmp_path / "run", tmp_path / "calls.log"
    env = {**os.environ, "SLOW": "1"}
    proc = subprocess.Popen([sys.executable, str(script), str(run_dir), str(log)], env=env)
    deadline = time.monotonic() + 60
    while not (tmp_path / "started").exists():
        assert proc.poll() is None, "pipeline exited before stage b started"
        assert time.monotonic() < deadline, "stage b never started"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # killed inside stage b: a is complete, b has no final folder (only a hidden temporary one)
    assert (run_dir / "a" / STAGE_MANIFEST).exists()
    assert not (run_dir / "b").exists() and not (run_dir / "c").exists()
    assert any(p.name.startswith(".tmp-b") for p in run_dir.iterdir())
    a_manifest_before = (run_dir / "a" / STAGE_MANIFEST).read_bytes()

    out = subprocess.run(
        [sys.executable, str(script), str(run_dir), str(log)],
        env={**os.environ, "SLOW": "0"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert out.stdout.strip() == "done True False False"
    assert log.read_text().split() == ["a", "b", "b", "c"]  # a was not recomputed
    assert (run_dir / "a" / STAGE_MANIFEST).read_bytes() == a_manifest_before
    assert sorted(p.name for p in run_dir.iterdir()) == [".chronoqa", "a", "b", "c"]  # leftovers removed
    for name in "abc":
        m = read_json(run_dir / name / STAGE_MANIFEST)
        assert m["outputs"] == {"big.txt": sha256_file(run_dir / name / "big.txt")}
        assert len((run_dir / name / "big.txt").read_text().splitlines()) == 2000
