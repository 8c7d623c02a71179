"""No native thread aborts the interpreter at exit: a failing build exits 2, never 134, under CPU load.

Arrow's threaded CSV reader used to be given Python-owned bytes; a pool worker letting them go while the
interpreter shut down was ended inside C++ code ("terminate called without an active exception"). The
readers now give Arrow memory it owns (:func:`chronoqa.io.arrow_bytes`). The abort was rare (a few runs in a
hundred under load), so this test repeats the failing input under a CPU burner.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from chronoqa.io import arrow_bytes

_CLI = [sys.executable, "-c", "from chronoqa.cli import main; main()"]


def test_arrow_bytes_is_an_arrow_owned_copy() -> None:
    data = b"s\tr\to\n\x00\xff"
    buf = arrow_bytes(data)
    assert isinstance(buf, pa.Buffer) and buf.to_pybytes() == data and buf.parent is None
    assert arrow_bytes(b"").size == 0


@pytest.mark.slow
def test_a_failing_build_exits_2_without_abort_under_load(tmp_path: Path) -> None:
    tsv = tmp_path / "headerless.tsv"
    tsv.write_text("".join(f"e{i}\tr{i % 7}\te{i + 1}\t{1900 + i % 90}\t{1950 + i % 90}\n" for i in range(2_000)))
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        for i in range(50):  # the abort showed in 4 of 22 tries under load
            res = subprocess.run(
                [*_CLI, "build", "kg", "--input", str(tsv), "--out", str(tmp_path / f"o{i}")],
                capture_output=True,
                text=True,
                timeout=120,
                env={**os.environ, "PYTHONFAULTHANDLER": ""},
            )
            assert res.returncode == 2, res.stderr
            assert res.stderr.count("error:") == 1 and "terminate called" not in res.stderr
            assert not (tmp_path / f"o{i}").exists()  # nothing written
    finally:
        burner.kill()
        burner.wait()
