"""The `chronoqa` entry point: user errors are one clear line and exit status 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from retrieve_fixtures import write_bench


def _chronoqa(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    code = "import sys; from chronoqa.cli import main; sys.argv = ['chronoqa', *sys.argv[1:]]; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, env=env, check=False
    )


def test_missing_hyte_files_is_one_line(tmp_path: Path) -> None:
    res = _chronoqa("build", "kg", "--input", str(tmp_path), "--out", str(tmp_path / "out"))
    assert res.returncode == 2
    assert "Traceback" not in res.stderr
    assert "not a HyTE folder: missing entities.dict, relations.dict, temporal" in res.stderr


def test_unknown_dataset_suggests_the_name() -> None:
    res = _chronoqa("datasets", "info", "yagoo11k")
    assert res.returncode == 2
    assert "Did you mean yago11k?" in res.stderr and "Traceback" not in res.stderr


def test_bad_date_in_a_table_names_file_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("Country,Role,Name,Start,End\nItaly,President,X,1999-13-01,2000\n", encoding="utf-8")
    res = _chronoqa("build", "table", str(bad), "--out", str(tmp_path / "out"))
    assert res.returncode == 2
    assert f"{bad}:2: field 'Start' = '1999-13-01'" in res.stderr
    assert "month 13 of 1999 is impossible" in res.stderr


@pytest.mark.parametrize("args", [("--help",), ("version",)])
def test_ok_commands_exit_zero(args: tuple[str, ...]) -> None:
    assert _chronoqa(*args).returncode == 0


def test_evaluate_user_errors_exit_2_on_stderr(tmp_path: Path) -> None:
    bench = write_bench(tmp_path / "b")
    res = _chronoqa("evaluate", "--bench", str(bench), "--run", str(tmp_path / "missing.run.jsonl"))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "missing.run.jsonl" in res.stderr and "an existing run file" in res.stderr
    run = tmp_path / "x.run.jsonl"
    run.write_text('{"qid": "q1", "hits": []}\n')
    res = _chronoqa("evaluate", "--bench", str(bench), "--run", str(run), "--measure", "nDGC@10")
    assert res.returncode == 2 and "Did you mean nDCG?" in res.stderr and "Traceback" not in res.stderr
