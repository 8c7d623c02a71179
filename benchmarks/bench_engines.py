"""The graph index's heavy steps on each engine: numpy (``GraphIndex.build``), DuckDB and Spark (local mode).

Cases, each in a fresh subprocess: synthetic graphs (``chronoqa.sources.synthetic``, seed 0) of 100k and 1M facts
(``--sizes``), year granularity, every fifth relation an event, two symmetric relations. Measured per case:

* ``index_s``: the index from the facts (numpy: from ``Fact`` objects, as the builder holds them today;
  DuckDB and Spark: from :class:`~chronoqa.records.FactColumns`, no ``Fact`` object), and for the SQL engines
  ``steps_s`` (the queries only) beside it;
* ``implausible_s``: the implausible-date rules (numpy: ``implausible_facts`` in Python; the others: their SQL),
  over the graph's phrases made generic (every fifth relation an event, every seventh a birth);
* ``start_s``: Spark only, building the local session (``local[2]``, 2 GB driver);
* ``peak_rss_mb``: the Python process's ``VmHWM``; ``jvm_peak_rss_mb``: the Spark driver JVM's (local mode runs
  the executors inside it), read from ``/proc`` before the session stops.

All engines of a size run in the same invocation, so their numbers compare (the machine is shared). Run:
``python benchmarks/bench_engines.py [--sizes 100000,1000000] [--engines numpy,duckdb,spark]``; results go to
``benchmarks/results/engines.json``. Every SQL run is checked equal to the numpy index of the same graph.
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

from _proc import peak_mb

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "engines.json"


def run_case(engine: str, n: int) -> dict[str, Any]:
    from dataclasses import replace

    import numpy as np

    from chronoqa.generate.kg.index import GraphIndex
    from chronoqa.generate.kg.phrases import generic_phrases
    from chronoqa.generate.kg.plausible import implausible_facts
    from chronoqa.generate.kg.sql import (
        STEPS,
        DuckDBEngine,
        SparkEngine,
        build_index,
        implausible_by_sql,
        input_tables,
        sql_params,
    )
    from chronoqa.sources.synthetic import generate
    from chronoqa.time import Granularity, TimePoint

    syn = generate(n_facts=n, seed=0)
    kw: dict[str, Any] = {
        "is_event": {f"R{i}": i % 5 == 0 for i in range(syn.n_relations)},
        "granularity": Granularity.YEAR,
        "as_of": TimePoint(2026, 1, 1),
        "symmetric": ("R1", "R7"),
    }
    phr = {
        f"R{i}": replace(generic_phrases(f"R{i}", f"R{i}", "event" if i % 5 == 0 else "state"),
                         role="birth" if i % 7 == 3 else None)
        for i in range(syn.n_relations)
    }  # fmt: skip
    out: dict[str, Any] = {"case": f"synthetic-{n:,}", "engine": engine, "facts": n}
    plaus = (kw["as_of"], "ongoing", 60)
    if engine == "numpy":
        facts = syn.to_graph().facts
        t0 = time.perf_counter()
        idx = GraphIndex.build(facts, **kw)
        out["index_s"] = round(time.perf_counter() - t0, 2)
        t0 = time.perf_counter()
        found = implausible_facts(facts, phr, idx.ignored_mask.tolist(), *plaus)
        out["implausible_s"] = round(time.perf_counter() - t0, 2)
        out["implausible"] = len(found)
        out["peak_rss_mb"] = round(peak_mb(), 1)
        return out
    cols = syn.to_columns()
    params = sql_params(kw["granularity"], kw["as_of"], "ongoing")
    if engine == "duckdb":
        t0 = time.perf_counter()
        idx = build_index(DuckDBEngine(), cols, **kw)
        out["index_s"] = round(time.perf_counter() - t0, 2)
        inputs, _ = input_tables(cols, kw["is_event"], kw["granularity"], None, kw["symmetric"])
        t0 = time.perf_counter()
        DuckDBEngine().run(inputs, STEPS, params)
        out["steps_s"] = round(time.perf_counter() - t0, 2)
        t0 = time.perf_counter()
        found = implausible_by_sql(DuckDBEngine(), cols, phr, idx.ignored_mask.tolist(), *plaus)
        out["implausible_s"] = round(time.perf_counter() - t0, 2)
    else:
        t0 = time.perf_counter()
        with SparkEngine() as spark:
            out["start_s"] = round(time.perf_counter() - t0, 2)
            t0 = time.perf_counter()
            idx = build_index(spark, cols, **kw)
            out["index_s"] = round(time.perf_counter() - t0, 2)
            inputs, _ = input_tables(cols, kw["is_event"], kw["granularity"], None, kw["symmetric"])
            t0 = time.perf_counter()
            spark.run(inputs, STEPS, params)
            out["steps_s"] = round(time.perf_counter() - t0, 2)
            t0 = time.perf_counter()
            found = implausible_by_sql(spark, cols, phr, idx.ignored_mask.tolist(), *plaus)
            out["implausible_s"] = round(time.perf_counter() - t0, 2)
            from pyspark import SparkContext

            gateway = SparkContext._gateway
            proc = getattr(gateway, "proc", None)
            if proc is not None:
                out["jvm_peak_rss_mb"] = round(peak_mb(proc.pid), 1)
            out["spark_conf"] = {k: v for k, v in spark.conf.items() if "memory" in k or "partitions" in k}
    out["implausible"] = len(found)
    out["peak_rss_mb"] = round(peak_mb(), 1)
    ref = GraphIndex.build(list(cols), **kw)
    out["equal_to_numpy"] = all(
        np.array_equal(getattr(idx, a), getattr(ref, a))
        for a in ("table", "out_keys", "out_rows", "in_keys", "in_rows", "triple_count", "reversed_mask")
    ) and (idx.ent_names, idx.rel_names) == (ref.ent_names, ref.rel_names)
    out["implausible_equal"] = found == implausible_facts(list(cols), phr, ref.ignored_mask.tolist(), *plaus)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--engines", default="numpy,duckdb,spark")
    ap.add_argument("--child", nargs=2, metavar=("ENGINE", "N"))
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run_case(args.child[0], int(args.child[1]))))
        return
    previous: list[dict[str, Any]] = []
    if RESULTS.exists():
        previous = json.loads(RESULTS.read_text(encoding="utf-8")).get("results", [])
    for n in (int(s) for s in args.sizes.split(",") if s):
        for engine in args.engines.split(","):
            proc = subprocess.run(
                [sys.executable, __file__, "--child", engine, str(n)], capture_output=True, text=True, check=False
            )
            if proc.returncode != 0:
                res: dict[str, Any] = {"case": f"synthetic-{n:,}", "engine": engine,
                                       "error": proc.stderr.strip().splitlines()[-1:] or ["failed"]}  # fmt: skip
            else:
                res = json.loads(proc.stdout.strip().splitlines()[-1])
            print(json.dumps(res), flush=True)
            key = (res["case"], res["engine"])
            previous = [r for r in previous if (r.get("case"), r.get("engine")) != key] + [res]
            import duckdb

            out = {
                "benchmark": "engines",
                "machine": {
                    "python": platform.python_version(),
                    "cpus": os.cpu_count(),
                    "loadavg": os.getloadavg(),
                    "duckdb": duckdb.__version__,
                },
                "results": previous,
            }
            RESULTS.parent.mkdir(parents=True, exist_ok=True)
            RESULTS.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
