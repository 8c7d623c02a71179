"""The KG build's SQL steps on each engine: DuckDB (in process) and Spark (local mode).

Cases, each in a fresh subprocess: synthetic graphs (``chronoqa.sources.synthetic``, seed 0) of 100k and 1M facts
(``--sizes``), year granularity, every fifth relation an event, two symmetric relations. Measured per case:

* ``index_s``: the index from the facts (:class:`~chronoqa.records.FactColumns`, no ``Fact`` object), and
  ``steps_s`` (the queries only) beside it;
* ``implausible_s``: the implausible-date rules (``PLAUSIBLE_STEPS``), over the graph's phrases made generic
  (every fifth relation an event, every seventh a birth);
* ``candidates_s``: the candidate search (``CANDIDATE_STEPS``) on the index
  as the builder leaves it (implausible facts marked; cardinality declared: relation ``Ri`` reads ``one``
  forward unless ``i % 3 == 0`` and backward when ``i`` is even, since inferred from this synthetic data every
  direction reads ``many`` and no fact seeds a question);
* ``overlap_s``: the groups :meth:`~chronoqa.generate.kg.index.GraphIndex.one_at` reads (``OVERLAP_STEPS``) on
  the same index;
* ``start_s``: Spark only, building the local session (``local[2]``, 2 GB driver);
* ``peak_rss_mb``: the Python process's ``VmHWM``; ``jvm_peak_rss_mb``: the Spark driver JVM's (local mode runs
  the executors inside it), read from ``/proc`` before the session stops.

All engines of a size run in the same invocation, so their numbers compare (the machine is shared). Run:
``python benchmarks/bench_engines.py [--sizes 100000,1000000] [--engines duckdb,spark]``; results go to
``benchmarks/results/engines.json``. Every Spark run is checked equal to DuckDB's on the same graph.

Full-build mode (``--full-build``): the whole builder, ``build_kg_benchmark`` + writing the release folder, of the
1M-fact synthetic graph (``--full-facts``; seed 0, 2,000 questions, generic phrases, ids allowed) with
``engine`` duckdb and spark in one invocation, alternating (``--rounds`` rounds of duckdb, spark),
each in a fresh subprocess. Measured per build: ``load_s`` (generating the graph), ``start_s`` (Spark only: the
local session, ``local[2]``), ``build_s``, ``write_s``, ``total_s`` (their sum), ``peak_rss_mb`` (Python) and
``jvm_peak_rss_mb`` (Spark's JVM), the load average at the start; every release is compared file by file with the
first release (``release_equal``: same bytes). Results go to ``engines.json`` under ``full_build``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
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
    from chronoqa.generate.kg.sql import (
        STEPS,
        DuckDBEngine,
        SparkEngine,
        build_index,
        candidates_by_sql,
        implausible_by_sql,
        input_tables,
        overlap_keys_by_sql,
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
    t_max = kw["as_of"].lo(kw["granularity"]) - 1

    def ready(index: GraphIndex, implausible: dict[int, str]) -> GraphIndex:
        # the index as the builder hands it to the candidate search, with declared cardinality: inferred from the
        # synthetic data every direction reads 'many' (no seed at all), so a mix is declared instead
        index.rel_one = [(int(r[1:]) % 3 != 0, int(r[1:]) % 2 == 0) for r in index.rel_names]
        index.mark_implausible(sorted(implausible))
        return index

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
        ready(idx, found)
        t0 = time.perf_counter()
        cands = candidates_by_sql(DuckDBEngine(), idx, t_max)
        out["candidates_s"] = round(time.perf_counter() - t0, 2)
        t0 = time.perf_counter()
        overlap = overlap_keys_by_sql(DuckDBEngine(), idx)
        out["overlap_s"] = round(time.perf_counter() - t0, 2)
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
            ready(idx, found)
            t0 = time.perf_counter()
            cands = candidates_by_sql(spark, idx, t_max)
            out["candidates_s"] = round(time.perf_counter() - t0, 2)
            t0 = time.perf_counter()
            overlap = overlap_keys_by_sql(spark, idx)
            out["overlap_s"] = round(time.perf_counter() - t0, 2)
            from pyspark import SparkContext

            gateway = SparkContext._gateway
            proc = getattr(gateway, "proc", None)
            if proc is not None:
                out["jvm_peak_rss_mb"] = round(peak_mb(proc.pid), 1)
            out["spark_conf"] = {k: v for k, v in spark.conf.items() if "memory" in k or "partitions" in k}
    out["implausible"] = len(found)
    out["seeds"] = len(cands.seeds)
    out["overlapping"] = [len(overlap[True]), len(overlap[False])]
    out["peak_rss_mb"] = round(peak_mb(), 1)
    if engine == "duckdb":
        return out
    # Spark's results against DuckDB's on the same graph
    ref = build_index(DuckDBEngine(), cols, **kw)
    ref_found = implausible_by_sql(DuckDBEngine(), cols, phr, ref.ignored_mask.tolist(), *plaus)
    out["implausible_equal"] = found == ref_found
    ref_cands = candidates_by_sql(DuckDBEngine(), ready(ref, ref_found), t_max)
    out["candidates_equal"] = all(
        np.array_equal(x, y) and x.dtype == y.dtype
        for x, y in (
            (cands.seeds.fids, ref_cands.seeds.fids), (cands.seeds.subject, ref_cands.seeds.subject),
            (cands.seeds_multi.fids, ref_cands.seeds_multi.fids), (cands.timed, ref_cands.timed),
            (cands.seeds_multi.subject, ref_cands.seeds_multi.subject),
            (cands.multi_out, ref_cands.multi_out), (cands.multi_in, ref_cands.multi_in),
        )
    )  # fmt: skip
    out["overlap_equal"] = overlap == overlap_keys_by_sql(DuckDBEngine(), ref)
    out["equal_to_duckdb"] = all(
        np.array_equal(getattr(idx, a), getattr(ref, a))
        for a in ("table", "out_keys", "out_fids", "in_keys", "in_fids", "triple_count", "reversed_mask")
    ) and (idx.ent_names, idx.rel_names) == (ref.ent_names, ref.rel_names)
    return out


def release_digests(folder: Path) -> dict[str, str]:
    """SHA-256 of every file of a release folder, by relative path."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def run_full_build(engine: str, n: int, n_questions: int, out_dir: Path) -> dict[str, Any]:
    """One whole build (``build_kg_benchmark`` + ``write``) of the synthetic graph with ``engine``."""
    import contextlib

    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
    from chronoqa.generate.kg.sql import SparkEngine
    from chronoqa.sources.synthetic import SyntheticConfig, generate

    out: dict[str, Any] = {"case": f"full-build-{n:,}", "engine": engine, "facts": n}
    out["loadavg_at_start"] = [round(x, 2) for x in os.getloadavg()]
    with contextlib.ExitStack() as stack:
        t0 = time.perf_counter()
        if engine == "spark":  # the session the build uses (it finds it active); stopped after the JVM is read
            stack.enter_context(SparkEngine())
            out["start_s"] = round(time.perf_counter() - t0, 2)
        t0 = time.perf_counter()
        graph = generate(SyntheticConfig.mixed(n, seed=0)).to_graph(f"synthetic{n}")  # every question family
        t1 = time.perf_counter()
        cfg = KGBuildConfig(n_questions=n_questions, generic_phrases=True, allow_ids=True, engine=engine)
        build = build_kg_benchmark(graph, cfg)
        t2 = time.perf_counter()
        build.write(out_dir)
        t3 = time.perf_counter()
        if engine == "spark":
            from pyspark import SparkContext

            proc = getattr(SparkContext._gateway, "proc", None)
            if proc is not None:
                out["jvm_peak_rss_mb"] = round(peak_mb(proc.pid), 1)
    out.update(load_s=round(t1 - t0, 2), build_s=round(t2 - t1, 2), write_s=round(t3 - t2, 2))
    out["total_s"] = round(out.get("start_s", 0.0) + t3 - t0, 2)
    out["questions"] = build.manifest["counts"]["questions"]
    out["peak_rss_mb"] = round(peak_mb(), 1)
    out["release_files"] = release_digests(out_dir)
    return out


def full_build(n: int, n_questions: int, engines: list[str], rounds: int) -> None:
    """Alternate whole builds of the engines, each in a fresh subprocess; diff the releases; record them."""
    import tempfile

    runs: list[dict[str, Any]] = []
    load_start = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as tmp:
        for k in range(rounds):
            for engine in engines:
                folder = Path(tmp) / f"{engine}-{k}"
                proc = subprocess.run(
                    [sys.executable, __file__, "--full-child", engine, str(n), str(n_questions), str(folder)],
                    capture_output=True, text=True, check=False,
                )  # fmt: skip
                if proc.returncode != 0:
                    res: dict[str, Any] = {"case": f"full-build-{n:,}", "engine": engine,
                                           "error": proc.stderr.strip().splitlines()[-1:] or ["failed"]}  # fmt: skip
                else:
                    res = json.loads(proc.stdout.strip().splitlines()[-1])
                res["round"] = k
                runs.append(res)
                shutil.rmtree(folder, ignore_errors=True)
                print(json.dumps({x: v for x, v in res.items() if x != "release_files"}), flush=True)
    reference = next((r["release_files"] for r in runs if "release_files" in r), None)
    for r in runs:
        files = r.pop("release_files", None)
        r["release_equal"] = files is not None and files == reference
    import duckdb

    summary: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "duckdb": duckdb.__version__},
        "facts": n,
        "questions": n_questions,
        "rounds": rounds,
        "engines": engines,
        "releases_equal": all(r["release_equal"] for r in runs),
        "loadavg_at_start": load_start,
        "loadavg_at_end": [round(x, 2) for x in os.getloadavg()],
        "runs": runs,
    }
    print(json.dumps({k: v for k, v in summary.items() if k != "runs"}), flush=True)
    data = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {"benchmark": "engines"}
    data["full_build"] = summary
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--engines", default="duckdb,spark")
    ap.add_argument("--child", nargs=2, metavar=("ENGINE", "N"))
    ap.add_argument("--full-build", action="store_true", help="whole builds of --full-facts facts (see above)")
    ap.add_argument("--full-facts", type=int, default=1_000_000)
    ap.add_argument("--full-questions", type=int, default=2_000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--full-child", nargs=4, metavar=("ENGINE", "N", "QUESTIONS", "OUT"))
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run_case(args.child[0], int(args.child[1]))))
        return
    if args.full_child:
        engine, n, nq, folder = args.full_child
        print(json.dumps(run_full_build(engine, int(n), int(nq), Path(folder))))
        return
    if args.full_build:
        full_build(args.full_facts, args.full_questions, args.engines.split(","), args.rounds)
        return
    previous: list[dict[str, Any]] = []
    kept: dict[str, Any] = {}  # the full-build record, kept as it was
    if RESULTS.exists():
        data = json.loads(RESULTS.read_text(encoding="utf-8"))
        previous = data.get("results", [])
        kept = {k: v for k, v in data.items() if k == "full_build"}
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
                **kept,
            }
            RESULTS.parent.mkdir(parents=True, exist_ok=True)
            RESULTS.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
