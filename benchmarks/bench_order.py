"""Cost of the canonical fact order (``chronoqa.generate.kg.order``) a KG build applies before anything else.

Cases, each in a fresh subprocess: synthetic graphs (``chronoqa.sources.synthetic``, seed 0, columnar) of
1M and 10M facts. Measured (wall and CPU seconds): :func:`canonical_order` (name keys, the 64-bit mix, the
sort, ties) and :func:`canonical_facts` (the order plus the reordered copy of the columns), and the growth of peak
resident memory over the graph alone (``VmHWM`` after generating the graph vs after the step). For scale, the
same run times ``FactColumns.take`` of a random permutation (the copy alone). The machine is shared: each
result records the load average at its start. Run: ``python benchmarks/bench_order.py [--sizes
1000000,10000000]``; results go to ``benchmarks/results/order.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from _proc import peak_mb

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "order.json"


def run_case(n: int) -> dict[str, Any]:
    from chronoqa.generate.kg.order import canonical_facts, canonical_order
    from chronoqa.sources.synthetic import generate

    cols = generate(n_facts=n, seed=0).to_columns()
    load_avg = os.getloadavg()
    graph_peak = peak_mb()
    t0, c0 = time.perf_counter(), time.process_time()
    order = canonical_order(cols, 0)
    t1, c1 = time.perf_counter(), time.process_time()
    order_peak = peak_mb()
    del order
    t2, c2 = time.perf_counter(), time.process_time()
    ordered = canonical_facts(cols, 0)
    t3, c3 = time.perf_counter(), time.process_time()
    facts_peak = peak_mb()
    del ordered
    perm = np.random.default_rng(0).permutation(n)
    t4 = time.perf_counter()
    copy = cols.take(perm)
    t5 = time.perf_counter()
    del copy
    return {
        "case": f"synthetic-{n:,}",
        "facts": n,
        "entities": len(cols.entities),
        "order_s": round(t1 - t0, 2),
        "order_cpu_s": round(c1 - c0, 2),
        "order_peak_growth_mb": round(order_peak - graph_peak, 1),
        "canonical_facts_s": round(t3 - t2, 2),
        "canonical_facts_cpu_s": round(c3 - c2, 2),
        "canonical_facts_peak_growth_mb": round(facts_peak - graph_peak, 1),
        "take_random_permutation_s": round(t5 - t4, 2),
        "graph_peak_rss_mb": round(graph_peak, 1),
        "loadavg_at_start": [round(x, 2) for x in load_avg],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="1000000,10000000")
    ap.add_argument("--child", type=int)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run_case(args.child)))
        return
    results = []
    for s in args.sizes.split(","):
        proc = subprocess.run([sys.executable, __file__, "--child", s], capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            res = {"case": s, "error": proc.stderr.strip().splitlines()[-1:] or ["failed"]}
        else:
            res = json.loads(proc.stdout.strip().splitlines()[-1])
        print(json.dumps(res), flush=True)
        results.append(res)
    out = {
        "benchmark": "order",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "numpy": np.__version__},
        "results": results,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
