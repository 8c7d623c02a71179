"""Load time and peak memory of the readers and the fact store, with peers in the same run.

Each case runs in its own subprocess, so the peak resident memory (``VmHWM``) is the case's own;
``rss_delta_mb`` subtracts the process's resident memory after imports, before the timed work.
Cases: YAGO11k and Wikidata12k (needs CHRONOQA_MIRROR) and a 1M-fact synthetic graph written to a
temporary folder first, each read by chronoqa and by a peer (DuckDB's ``read_csv``, pyarrow's CSV
reader) that only tokenises the same file, with no time parsing or checks.

``cpu_s`` is the timed work's CPU time (the child's), ``proc_cpu_s`` the whole child process's (imports
included), read by the parent. ``--before DIR`` also runs the fact-store build cases (not the cached ones: they
share the cache file) with another checkout's ``benchmarks/bench_load.py`` and ``src`` (e.g. ``main``): rows
marked ``before``, compared by ``proc_cpu_s`` (that checkout's script may not report ``cpu_s``).

Run: ``python benchmarks/bench_load.py [--facts 1000000] [--repeat 1] [--before DIR]``; results go to
``benchmarks/results/load.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _proc import peak_mb, rss_mb

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "load.json"


def case_read_hyte(path: str) -> int:
    from chronoqa.sources.hyte import read_hyte

    return len(read_hyte(path, on_reversed="keep"))


def case_read_quintuples(path: str) -> int:
    from chronoqa.sources.quintuples import read_quintuples

    return len(read_quintuples(path))


def case_duckdb_read_csv(path: str) -> int:
    import duckdb

    target = Path(path) / "temporal" if Path(path).is_dir() else Path(path)
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE t AS SELECT * FROM read_csv(?, delim='\t', header=false, all_varchar=true)", [str(target)]
    )
    n = con.execute("SELECT count(*) FROM t").fetchone()
    con.close()
    return int(n[0]) if n else 0


def case_pyarrow_read_csv(path: str) -> int:
    import pyarrow.csv as pacsv

    target = Path(path) / "temporal" if Path(path).is_dir() else Path(path)
    opts = pacsv.ReadOptions(column_names=["s", "r", "o", "start", "end"])
    table = pacsv.read_csv(target, read_options=opts, parse_options=pacsv.ParseOptions(delimiter="\t"))
    return table.num_rows


def case_store_from_hyte(path: str) -> int:
    from chronoqa.sources.hyte import read_hyte
    from chronoqa.store import FactStore

    with FactStore.from_graph(read_hyte(path, on_reversed="keep")) as store:
        return len(store)


def case_store_from_synthetic(n: str) -> int:
    from chronoqa.sources.synthetic import generate
    from chronoqa.store import FactStore

    with FactStore.from_graph(generate(n_facts=int(n), seed=0).to_graph()) as store:
        return len(store)


def case_store_cached_open(path: str) -> int:
    from chronoqa.sources.hyte import read_hyte
    from chronoqa.store import FactStore

    with FactStore.cached("bench", "k", lambda: read_hyte(path, on_reversed="keep"), folder=Path(path) / "_store") as s:
        return len(s)


def case_generate(n: str) -> int:
    from chronoqa.sources.synthetic import generate

    return len(generate(n_facts=int(n), seed=0))


CASES = {name.removeprefix("case_"): fn for name, fn in globals().items() if name.startswith("case_") and callable(fn)}


def child(case: str, arg: str) -> None:
    import importlib

    for module in ("chronoqa.sources", "chronoqa.store", "duckdb", "pyarrow.csv"):
        importlib.import_module(module)  # imports are not part of the measurement

    base = rss_mb()
    t0, c0 = time.perf_counter(), time.process_time()
    n = CASES[case](arg)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = peak_mb()
    print(json.dumps({"rows": n, "seconds": seconds, "cpu_s": cpu, "peak_rss_mb": peak, "rss_delta_mb": peak - base}))


# -- driver ------------------------------------------------------------------------------------------


def run_case(case: str, arg: str, repeat: int, checkout: Path | None = None) -> dict[str, Any]:
    """Best of ``repeat`` child runs of ``case``; with ``checkout``, that checkout's script and ``src``."""
    script, env = __file__, dict(os.environ)
    if checkout is not None:
        script = str(checkout / "benchmarks" / "bench_load.py")
        env["PYTHONPATH"] = str(checkout / "src")
    runs = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(
            [sys.executable, script, "--child", case, arg], check=True, capture_output=True, text=True, env=env
        ).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        run = json.loads(out.strip().splitlines()[-1])
        run["proc_cpu_s"] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        runs.append(run)
    best = min(runs, key=lambda r: r["seconds"])
    return {"case": case, **best, "repeat": repeat}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--facts", type=int, default=1_000_000, help="synthetic graph size")
    parser.add_argument("--repeat", type=int, default=1, help="runs per case (best time kept)")
    parser.add_argument("--before", type=Path, help="another checkout whose fact-store cases run beside these")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return

    import duckdb
    import pyarrow

    from chronoqa.sources.synthetic import generate

    results: list[dict[str, Any]] = []

    def record(dataset: str, reader: str, case: str, arg: str, note: str = "") -> None:
        if args.before is not None and case in ("store_from_hyte", "store_from_synthetic"):  # not the cache: shared
            run(dataset, f"before: {reader}", case, arg, note, args.before)
        run(dataset, reader, case, arg, note, None)

    def run(dataset: str, reader: str, case: str, arg: str, note: str, checkout: Path | None) -> None:
        r = run_case(case, arg, args.repeat, checkout)
        r.update(dataset=dataset, reader=reader, note=note, checkout="before" if checkout else "this")
        r["facts_per_s"] = round(r["rows"] / r["seconds"]) if r["seconds"] else None
        results.append(r)
        print(
            f"{dataset:<14} {reader:<42} {r['rows']:>9,} rows {r['seconds']:>7.2f} s cpu {r['proc_cpu_s']:>6.2f} s "
            f"peak {r['peak_rss_mb']:>7.1f} MB (+{r['rss_delta_mb']:.1f})",
            flush=True,
        )

    mirror = os.environ.get("CHRONOQA_MIRROR")
    if mirror:
        for name in ("yago11k", "wikidata12k"):
            folder = str(Path(mirror) / name)
            record(name, "chronoqa read_hyte", "read_hyte", folder)
            record(name, "chronoqa read_hyte + FactStore", "store_from_hyte", folder)
            record(name, "peer: duckdb read_csv (no parsing)", "duckdb_read_csv", folder, "tokenise only")
            record(name, "peer: pyarrow read_csv (no parsing)", "pyarrow_read_csv", folder, "tokenise only")
    else:
        print("CHRONOQA_MIRROR unset: skipping YAGO11k and Wikidata12k", file=sys.stderr)

    with tempfile.TemporaryDirectory(prefix="chronoqa-bench-") as tmp:
        n = args.facts
        label = f"synthetic-{n // 1000}k" if n < 1_000_000 else f"synthetic-{n // 1_000_000}M"
        t0 = time.perf_counter()
        data = generate(n_facts=n, seed=0)
        data.write_hyte(Path(tmp) / "hyte")
        data.write_quintuples(Path(tmp) / "q.csv")
        print(f"(wrote {label} in {time.perf_counter() - t0:.1f} s)", flush=True)
        del data
        folder = str(Path(tmp) / "hyte")
        record(label, "generate (numpy)", "generate", str(n))
        record(label, "chronoqa read_hyte", "read_hyte", folder)
        record(label, "chronoqa read_quintuples (CSV)", "read_quintuples", str(Path(tmp) / "q.csv"))
        record(label, "chronoqa read_hyte + FactStore", "store_from_hyte", folder)
        record(label, "chronoqa generate + FactStore", "store_from_synthetic", str(n), "generate + load")
        record(label, "chronoqa FactStore.cached (build)", "store_cached_open", folder, "first use builds the file")
        record(label, "chronoqa FactStore.cached (reopen)", "store_cached_open", folder, "later uses open it")
        record(label, "peer: duckdb read_csv (no parsing)", "duckdb_read_csv", folder, "tokenise only")
        record(label, "peer: pyarrow read_csv (no parsing)", "pyarrow_read_csv", folder, "tokenise only")

    out = {
        "benchmark": "load",
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "load_avg_at_end": os.getloadavg(),
            "duckdb": duckdb.__version__,
            "pyarrow": pyarrow.__version__,
        },
        "results": results,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    from chronoqa.io import write_json

    write_json(RESULTS, out)
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
