"""Build the release folder of every TDBench table and of the synthetic benchmark table, for a byte diff.

Speed work on the table builder must not change its output. Run this script once against the tree
before the change and once after (``PYTHONPATH=old/src`` and ``PYTHONPATH=src``) into two folders and
``diff -r`` them::

    PYTHONPATH=/tmp/old/src python benchmarks/table_releases.py /tmp/releases-before
    PYTHONPATH=src python benchmarks/table_releases.py /tmp/releases-after
    diff -r /tmp/releases-before /tmp/releases-after

Each table of ``$CHRONOQA_MIRROR/tdbench/`` is built with ``chronoqa build table`` (default options and
the phrase file ``tests/fixtures/tdbench_phrases.json``; culture with
``--delimiter culture.Heritage_element=none``, as its element names hold commas), in a fresh process
each; the synthetic table of ``bench_build_table.py`` (``--rows``, default 200,000) is built with its
named TFD and written with ``BuildResult.write``. Prints one line per release with its time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PHRASES = HERE.parent / "tests" / "fixtures" / "tdbench_phrases.json"
#: Options beyond the defaults that a TDBench table needs to build (see the module docstring).
EXTRA = {"culture": ["--delimiter", "culture.Heritage_element=none"]}


def build_tdbench(out: Path) -> None:
    """Build every TDBench table of the mirror into ``out/<table>`` through the CLI."""
    mirror = Path(os.environ.get("CHRONOQA_MIRROR", "/work/shared/data")) / "tdbench"
    for path in sorted(mirror.glob("*.csv")):
        name = path.stem
        cmd = [sys.executable, "-c", "from chronoqa.cli import main; main()", "build", "table", str(path)]
        cmd += ["--out", str(out / name), "--phrases", str(PHRASES), *EXTRA.get(name, [])]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        print(f"{name}: exit {proc.returncode}, {time.perf_counter() - t0:.1f} s", flush=True)
        if proc.returncode != 0:
            (out / f"{name}.stderr").write_text(proc.stderr, encoding="utf-8")


def build_synthetic(out: Path, rows: int) -> None:
    """Build the benchmark's synthetic table (seed 0, ``Country,Role->Name``) into ``out/synthetic``."""
    sys.path.insert(0, str(HERE))
    from bench_build_table import synthetic

    from chronoqa.generate.table import TableBuildConfig, build_table_benchmark

    t0 = time.perf_counter()
    build = build_table_benchmark(
        [synthetic(rows, 0)], TableBuildConfig(per_cell=10, tfds={"synthetic": ["Country,Role->Name"]})
    )
    build.write(out / "synthetic")
    print(f"synthetic ({rows} rows): {len(build.questions)} questions, {time.perf_counter() - t0:.1f} s", flush=True)


def main() -> None:
    """Build every release into the folder given (it must not exist yet)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--rows", type=int, default=200_000)
    args = ap.parse_args()
    args.out.mkdir(parents=True)
    build_tdbench(args.out)
    build_synthetic(args.out, args.rows)


if __name__ == "__main__":
    main()
