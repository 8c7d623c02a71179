"""Generation time of the table builder on a large synthetic temporal table.

Usage: ``python benchmarks/bench_build_table.py [--rows 1000000] [--per-cell 10]``. The table is made
with ``numpy.random.default_rng(seed)``: keys (Country, Role) with consecutive terms at day
granularity (handovers, gaps, a few overlaps, open last terms). Writes
``benchmarks/results/build_table.json``.
"""

from __future__ import annotations

import argparse
import json
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
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--per-cell", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    res: dict[str, object] = {"rows": args.rows, "per_cell": args.per_cell, "seed": args.seed}
    t0 = time.perf_counter()
    table = synthetic(args.rows, args.seed)
    res["make_table_s"] = round(time.perf_counter() - t0, 2)
    as_of = parse_time("2026-01-01")
    assert as_of is not None
    t0 = time.perf_counter()
    store = TableStore.build(table, as_of=as_of)
    res["store_load_s"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter()
    rep = check_tfd(store, TFD(("Country", "Role"), "Name"))
    res["tfd_check_s"] = round(time.perf_counter() - t0, 2)
    res["tfd"] = {k: v for k, v in rep.to_dict().items() if k != "examples"}
    t0 = time.perf_counter()
    build = build_table_benchmark(
        [table], TableBuildConfig(per_cell=args.per_cell, tfds={"synthetic": ["Country,Role->Name"]})
    )
    res["build_s"] = round(time.perf_counter() - t0, 2)
    res["questions"] = len(build.questions)
    res["corpus_docs"] = sum(1 for _ in build.corpus())
    res["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    out = Path(__file__).parent / "results" / "build_table.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
