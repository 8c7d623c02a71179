"""Releases for the export and validation tests: a small YAGO11k KG release and a table release (real data)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TABLE_CSV = "tdbench/dyknow_leaders.csv"


def chronoqa_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the ``chronoqa`` command in a subprocess (as a user would)."""
    code = "import sys; from chronoqa.cli import main; sys.argv = ['chronoqa', *sys.argv[1:]]; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300, check=False, env=os.environ
    )


def build_release(kind: str, mirror: Path, out: Path) -> Path:
    """Build the ``kg`` (YAGO11k, 300 questions) or ``table`` (dyknow_leaders) release into ``out``."""
    if not (out / "manifest.json").exists():
        if kind == "kg":
            args = ["build", "kg", "--dataset", "yago11k", "--n-questions", "300", "--out", str(out)]
        else:
            args = ["build", "table", str(mirror / TABLE_CSV), "--out", str(out)]
        res = chronoqa_cli(*args)
        if res.returncode != 0:
            pytest.fail(f"building the {kind} release failed:\n{res.stderr[-2000:]}")
    return out
