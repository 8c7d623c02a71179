"""Generation time of the table builder on a large synthetic temporal table.

Usage: ``python benchmarks/bench_build_table.py [--rows 1000000] [--per-cell 10] [--out FILE]``. The
table is made with ``numpy.random.default_rng(seed)``: keys (Country, Role) with consecutive terms at
day granularity (handovers, gaps, a few overlaps, open last terms). Writes
``benchmarks/results/build_table.json`` (or ``--out``; ``--out -`` writes nothing).

Each step is timed in wall seconds (``*_s``) and in CPU seconds of this process (``*_cpu_s``,
``time.process_time``): on a shared machine the wall time grows with the load (recorded as the
1-minute load average before and after), the CPU time much less. Compare two source trees in one
session, interleaved, with ``PYTHONPATH=old/src`` and ``--out -``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from pathlib import Path

import numpy as np

from chronoqa.generate.table import TableBuildConfig, TableStore, build_table_benchmark, check_tfd
from chronoqa.generate.table.tfd import TFD
from chronoqa.records import TemporalTable
from chronoqa.time import Granularity, Interval, TimePoint, parse_time


def synthetic(rows: int, seed: int) -> TemporalTable:
    rng = np.random.default_rng(seed)
    per_key = 10
    n_keys = rows // per_key
    lengths = rng.choice([30, 400, 1200, 1800, 3000], size=rows)
    gaps = rng.choice([-20, 0, 0, 1, 1, 1, 3, 90], size=rows)
    first = TimePoint(1900, 1, 1).lo(Granularity.DAY)
    starts0 = rng.integers(first, first + 20000, size=n_keys)
    out_rows, intervals = [], []
    for k in range(n_keys):
        day = int(starts0[k])
        for j in range(per_key):
            i = k * per_key + j
            start, end = day, day + int(lengths[i])
            last = j == per_key - 1
            s = TimePoint.from_unit(start, Granularity.DAY)
            e = None if last else TimePoint.from_unit(end, Granularity.DAY)
            out_rows.append((f"C{k // 4}", f"R{k % 4}", f"P{i}"))
            intervals.append(Interval(s, e))
            day = end + int(gaps[i])
    lines = list(range(2, rows + 2))
    return TemporalTable("synthetic", ("Country", "Role", "Name"), out_rows, intervals, lines, "Start", "End")


def main() -> None:
    """Time each step on the synthetic table and write the results (see the module docstring)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--per-cell", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "build_table.json"))
    args = ap.parse_args()
    res: dict[str, object] = {"rows": args.rows, "per_cell": args.per_cell, "seed": args.seed}
    res["load_avg_before"] = round(os.getloadavg()[0], 2)

    def timed(step: str, t0: float, c0: float) -> None:
        res[f"{step}_s"] = round(time.perf_counter() - t0, 2)
        res[f"{step}_cpu_s"] = round(time.process_time() - c0, 2)

    t0, c0 = time.perf_counter(), time.process_time()
    table = synthetic(args.rows, args.seed)
    timed("make_table", t0, c0)
    as_of = parse_time("2026-01-01")
    assert as_of is not None
    t0, c0 = time.perf_counter(), time.process_time()
    store = TableStore.build(table, as_of=as_of)
    timed("store_load", t0, c0)
    t0, c0 = time.perf_counter(), time.process_time()
    rep = check_tfd(store, TFD(("Country", "Role"), "Name"))
    timed("tfd_check", t0, c0)
    res["tfd"] = {k: v for k, v in rep.to_dict().items() if k != "examples"}
    t0, c0 = time.perf_counter(), time.process_time()
    build = build_table_benchmark(
        [table], TableBuildConfig(per_cell=args.per_cell, tfds={"synthetic": ["Country,Role->Name"]})
    )
    timed("build", t0, c0)
    res["questions"] = len(build.questions)
    res["corpus_docs"] = sum(1 for _ in build.corpus())
    res["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    res["load_avg_after"] = round(os.getloadavg()[0], 2)
    if args.out != "-":
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
