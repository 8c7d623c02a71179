"""``build kg --on-bad-row raise|skip`` (raise by default) and builds that yield no question."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _chronoqa(*args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from chronoqa.cli import main; sys.argv = ['chronoqa', *sys.argv[1:]]; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)


def _hyte(folder: Path, temporal: bytes, *, entities: str = "0\tA\n1\tB\n", relations: str = "0\tr\n") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "entities.dict").write_text(entities, encoding="utf-8")
    (folder / "relations.dict").write_text(relations, encoding="utf-8")
    (folder / "temporal").write_bytes(temporal)
    return folder


def _fails(res: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert res.returncode == 2, (res.returncode, res.stdout, res.stderr)
    assert "Traceback" not in res.stderr
    for needle in needles:
        assert needle in res.stderr, (needle, res.stderr)


def test_a_bad_row_raises_by_default_and_is_counted_with_skip(tmp_path: Path) -> None:
    # A held B, C and D one after the other (a question whose year matters), and line 2 is bad
    rows = b"0\t0\t1\t2001\t2004\n0\t0\tX\t2001\t2004\n0\t0\t2\t2005\t2008\n0\t0\t3\t2009\t2012\n"
    kg = _hyte(tmp_path / "kg", rows, entities="0\tA\n1\tB\n2\tC\n3\tD\n")
    out = tmp_path / "out"
    _fails(_chronoqa("build", "kg", "--input", str(kg), "--out", str(out), "--n-questions", "5"), "temporal:2")
    assert not out.exists()
    res = _chronoqa(
        "build", "kg", "--input", str(kg), "--out", str(out), "--n-questions", "5", "--on-bad-row", "skip",
        "--generic-phrases",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "skipped 1 bad rows of the input" in res.stderr and (out / "benchmark.jsonl").exists()
    # nothing usable: the build fails and says why, counting the skipped rows
    bad = _hyte(tmp_path / "bad", b"0\t0\tX\t2001\t2004\nzz\n")
    res = _chronoqa(
        "build", "kg", "--input", str(bad), "--out", str(tmp_path / "o2"), "--on-bad-row", "skip",
        "--generic-phrases",
    )  # fmt: skip
    _fails(res, "yielded no question", "0 facts loaded", "2 rows skipped")
    assert not (tmp_path / "o2" / "benchmark.jsonl").exists()


@pytest.mark.parametrize(
    ("name", "temporal", "dicts"),
    [
        ("empty temporal", b"", {}),
        ("empty dictionaries", b"0\t0\t1\t2001\t2004\n", {"entities": "", "relations": ""}),
        ("all rows malformed", b"x\ty\n\n\t\t\n", {}),
        ("random bytes", bytes(range(256)) * 4, {}),
    ],
)
def test_unusable_input_never_exits_zero(tmp_path: Path, name: str, temporal: bytes, dicts: dict[str, str]) -> None:
    kg = _hyte(tmp_path / "kg", temporal, **dicts)
    for policy in ("raise", "skip"):
        res = _chronoqa(
            "build", "kg", "--input", str(kg), "--out", str(tmp_path / policy), "--n-questions", "5",
            "--on-bad-row", policy, "--generic-phrases",
        )  # fmt: skip
        assert res.returncode == 2, (name, policy, res.stderr)
        assert "Traceback" not in res.stderr and "error: " in res.stderr
        assert not (tmp_path / policy / "benchmark.jsonl").exists()


def test_bad_policy_name(tmp_path: Path) -> None:
    kg = _hyte(tmp_path / "kg", b"0\t0\t1\t2001\t2004\n")
    _fails(_chronoqa("build", "kg", "--input", str(kg), "--out", str(tmp_path / "o"), "--on-bad-row", "ignore"),
           "'raise' or 'skip'")  # fmt: skip
