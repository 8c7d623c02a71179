"""Corpus writing: the per-document writer vs the columnar one, documents per second, in the same run.

The corpus of a synthetic graph (``chronoqa.sources.synthetic``, seed 0, generic phrasing as the KG
benchmark gives its relations, every third relation an event; open ends read as ongoing) written as a release
folder writes it, each case in a fresh subprocess (peak resident memory = ``VmHWM`` of that process):

* ``per-doc jsonl``: ``iter_corpus`` over the graph's ``Fact`` objects, one ``Doc.to_dict`` and ``json.dumps``
  per document (``write_release``'s writer until issue 16): the baseline;
* ``columnar jsonl``: ``write_corpus`` on ``corpus_columns`` over the graph's ``FactColumns`` (what a KG build
  writes), end to end: the plan (labels, phrases, dates and time-phrase cases, each rendered once), the escaped
  pools, then each batch's JSON lines (one Arrow join of pieces taken from the pools) made on worker threads
  while the main thread writes the previous batch past the page cache (``atomic_write(stream=True)``), one
  fsync at the end; ``columnar parquet`` and ``columnar both`` the same into ``corpus.parquet`` / both files
  (Arrow batches of ``CORPUS_SCHEMA`` for Parquet, encoded by pyarrow on the main thread, one worker fewer);
* ``columnar stages`` splits the JSONL path, each stage alone in one thread: the plan (``plan_s``), the escaped pools
  (``pools_s``), the JSON lines of every batch (``lines_s``, no file), writing them to ``corpus.jsonl`` with its fsync
  (``write_s``, streamed past the page cache as the writer does; ``write_cached_s``, its peer: the same bytes through
  the page cache, as until this change); beside them the Arrow batches (``batches_s``) and ``corpus.parquet`` from
  them (``parquet_s``). Its ``s`` is plan + pools + lines + write: the JSONL path without threads. Since the cases of
  a graph with no year listed as not a year (this one) are decided per batch, they count in ``lines_s``, not in
  ``plan_s`` (records before that change have them in the plan). Where numba is installed (``chronoqa[fast]``), the
  stages add the numba kernel's (``chronoqa.generate.kg.kernel``): its layouts (``layouts_s``: the pools end to end,
  an entity's and a date's pieces side by side, numba's cached code loaded), its JSON lines (``kernel_lines_s``: each
  batch's pieces listed from the row codes, then copied by one loop, without the GIL) and its Arrow batches
  (``kernel_batches_s``: the text column made by the kernel), with ``kernel_lines_equal_arrow`` (the sha256 of its
  lines against the Arrow joins'). Each stage also gives its CPU microseconds a row (``*_us_per_row``). The end-to-end
  columnar cases use the kernel from ``KERNEL_MIN_ROWS`` (2M) facts, so the 10M cases' files are the kernel's
  (``kernel_lines_equal_arrow`` and the 1M sha256 tie them to the per-document writer's);
* ``kernel compile``: the kernel's first use in a process (``load_s``), once with an empty numba cache
  (``NUMBA_CACHE_DIR`` a fresh folder: ``cold_*``, the compile) and once more reading that cache (``cached_*``).

Columnar cases keep the best of ``--repeat`` runs (default 3) in their process; the per-document one runs once.
Every case records the sha256 of what it wrote, so one run shows the writers' outputs are the same bytes.
Times are wall clock and CPU (``process_time``, all threads: on a shared machine, CPU seconds are the steadier
number; the threaded cases' wall time is below their CPU time only when the machine has a core to spare).
Run: ``python benchmarks/bench_corpus.py [--facts 1000000] [--big 10000000]``; ``--big`` adds the columnar
cases on a larger graph (the per-document writer is left out there: about 6 minutes per 10M documents);
``--facts 0 --big 10000000`` runs only those. A run replaces the cases it measures in the results file.
Results go to ``benchmarks/results/corpus.json``.

Recorded (``benchmarks/results/corpus.json``, quiet machine, load average about 1, ``--repeat 1``; the table and
its reading, with the spread of four 10M runs, are in ``benchmarks/README.md``). 1M documents: per-document
writer 29.3 s; columnar JSONL 1.19 s (0.84M documents/s), Parquet 1.18 s, both 2.90 s. 10M documents (the
kernel's): JSONL 6.17 s wall / 9.6 s CPU (1.62M/s; 4.4 to 6.2 s over four runs), Parquet 9.93 s / 15.7 s
(1.01M/s; 7.3 to 9.9 s); stages in CPU us a row: kernel lines 0.63 (Arrow's 1.68), file write 0.055 past the
page cache (0.56 through it), Parquet encode 0.70, plan + pools + layouts 0.18. Same sha256 as the
per-document writer's file at both sizes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _proc import peak_mb

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "corpus.json"
CASES = ("per-doc jsonl", "columnar jsonl", "columnar parquet", "columnar both", "columnar stages", "kernel compile")


def run_case(case: str, n_facts: int, repeat: int) -> dict[str, Any]:
    import pyarrow as pa

    from chronoqa.artifacts.release import CORPUS_BATCH_ROWS, CORPUS_FILE, CORPUS_PARQUET_FILE, write_corpus
    from chronoqa.generate.kg.corpus import _CorpusPlan, corpus_columns, iter_corpus, kernel_available
    from chronoqa.generate.kg.phrases import generic_phrases
    from chronoqa.io import atomic_write, sha256_file
    from chronoqa.sources.synthetic import generate
    from chronoqa.time import TimePoint

    syn = generate(n_facts=n_facts, seed=0)
    cols = syn.to_columns()
    phrases = {r: generic_phrases(r, r, "event" if i % 3 == 0 else "state") for i, r in enumerate(cols.relations)}
    as_of = TimePoint(2026, 1, 1)

    def same(x: str) -> str:
        return x

    def corpus() -> Any:
        return corpus_columns(cols, None, phrases, same, same, as_of)

    res: dict[str, Any] = {"case": case, "facts": n_facts, "repeat": 1 if case == "per-doc jsonl" else repeat}

    def best(fn: Callable[[], Any]) -> tuple[float, float, Any]:
        """Best wall time of ``repeat`` runs (its CPU seconds beside it) and the last result."""
        runs = []
        for _ in range(res["repeat"]):
            t0, c0 = time.perf_counter(), time.process_time()
            value = fn()
            runs.append((time.perf_counter() - t0, time.process_time() - c0))
        wall, cpu = min(runs)
        return wall, cpu, value

    def rate(prefix: str, wall: float, cpu: float) -> None:
        res.update({f"{prefix}s": round(wall, 2), f"{prefix}cpu_s": round(cpu, 2)})
        res.update({f"{prefix}docs_per_s": round(n_facts / wall), f"{prefix}docs_per_cpu_s": round(n_facts / cpu)})

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        if case == "per-doc jsonl":
            facts = list(syn.to_graph().facts)
            ids = [f"F{f.id}" for f in facts]
            wall, cpu, _ = best(lambda: write_corpus(out, iter_corpus(facts, ids, phrases, same, same, as_of), "jsonl"))
            rate("", wall, cpu)
        elif case == "kernel compile":  # the kernel's first use in a process (main runs it cold, then cached)
            plan = _CorpusPlan(cols[: min(n_facts, 1000)], phrases, same, same, as_of, "ongoing", {},
                               CORPUS_BATCH_ROWS, kernel_rows=0)  # fmt: skip
            t0, c0 = time.perf_counter(), time.process_time()
            plan.layout(True)
            plan.layout(False)
            res.update({"load_s": round(time.perf_counter() - t0, 2), "load_cpu_s": round(time.process_time() - c0, 2)})
        elif case == "columnar stages":
            args = (cols, phrases, same, same, as_of, "ongoing", {}, CORPUS_BATCH_ROWS)
            w1, c1, plan = best(lambda: _CorpusPlan(*args, kernel_rows=sys.maxsize))

            def pools() -> Any:
                plan._pools = plan._text_pools = None  # made again each run
                return plan.json_pools()

            w2, c2, _ = best(pools)
            spans = [(a, min(a + CORPUS_BATCH_ROWS, n_facts)) for a in range(0, n_facts, CORPUS_BATCH_ROWS)]
            w3, c3, lines = best(lambda: [plan.json_lines(a, b) for a, b in spans])
            w4, c4, batches = best(lambda: [plan.batch(a, b) for a, b in spans])

            def write_lines(stream: bool) -> None:
                with atomic_write(out / CORPUS_FILE, "wb", stream=stream) as fh:
                    for buf in lines:
                        fh.write(buf)

            w5, c5, _ = best(lambda: write_lines(True))
            w5c, c5c, _ = best(lambda: write_lines(False))
            w6, c6, _ = best(lambda: write_corpus(out, pa.Table.from_batches(batches), "parquet"))
            del batches
            arrow_sha = _sha(lines)
            del lines
            stages = [("plan_", w1, c1), ("pools_", w2, c2), ("lines_", w3, c3), ("batches_", w4, c4),
                      ("write_", w5, c5), ("write_cached_", w5c, c5c), ("parquet_", w6, c6)]  # fmt: skip
            if kernel_available():  # the kernel's stages: its layouts (numba's cached code loaded), lines, batches

                def layouts() -> None:
                    plan._layouts = {}
                    plan.layout(True)
                    plan.layout(False)

                w7, c7, _ = best(layouts)
                plan.kernel = True
                w8, c8, k_lines = best(lambda: [plan.json_lines(a, b) for a, b in spans])
                w9, c9, _ = best(lambda: [plan.batch(a, b) for a, b in spans])
                res["kernel_lines_equal_arrow"] = _sha(k_lines) == arrow_sha
                del k_lines
                stages += [("layouts_", w7, c7), ("kernel_lines_", w8, c8), ("kernel_batches_", w9, c9)]
            for prefix, w, c in stages:
                rate(prefix, w, c)
                res[f"{prefix}us_per_row"] = round(c / n_facts * 1e6, 3)
            rate("", w1 + w2 + w3 + w5, c1 + c2 + c3 + c5)
        else:
            wall, cpu, _ = best(lambda: write_corpus(out, corpus(), case.split()[1]))
            rate("", wall, cpu)
        for name in (CORPUS_FILE, CORPUS_PARQUET_FILE):
            if (out / name).exists():
                res[name] = {"bytes": (out / name).stat().st_size, "sha256": sha256_file(out / name)}
    res["peak_rss_mb"] = round(peak_mb(), 1)
    return res


def _sha(buffers: list[Any]) -> str:
    """The sha256 of buffers one after the other."""
    import hashlib

    h = hashlib.sha256()
    for buf in buffers:
        h.update(buf)
    return h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--facts", type=int, default=1_000_000, help="graph size of every case (0: none)")
    ap.add_argument("--big", type=int, default=0, help="also run the columnar cases on a graph of this size")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs of each columnar case")
    ap.add_argument("--child", nargs=3, metavar=("CASE", "N", "REPEAT"))
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run_case(args.child[0], int(args.child[1]), int(args.child[2]))))
        return
    runs = [(c, args.facts) for c in CASES if args.facts] + [(c, args.big) for c in CASES[1:-1] if args.big]
    results: list[dict[str, Any]] = []
    if RESULTS.exists():  # a run replaces the cases it measures and keeps the others
        results = [r for r in json.loads(RESULTS.read_text(encoding="utf-8")).get("results", []) if r["case"] in CASES]
    for case, n in runs:
        if case == "kernel compile":  # numba's cache in a fresh folder: compiled, then read back
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "NUMBA_CACHE_DIR": cache}
                cold, cached = (child(case, n, args.repeat, env) for _ in range(2))
            res = {"case": case, "facts": n, **{f"cold_{k}": v for k, v in cold.items() if k != "case"}}
            res.update({f"cached_{k}": v for k, v in cached.items() if k != "case"})
        else:
            res = child(case, n, args.repeat, None)
        res["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps(res), flush=True)
        results = [r for r in results if (r["case"], r["facts"]) != (case, n)] + [res]
    record(results)


def child(case: str, n: int, repeat: int, env: dict[str, str] | None) -> dict[str, Any]:
    """One case in a fresh process: its results, or the error it ended with."""
    proc = subprocess.run(
        [sys.executable, __file__, "--child", case, str(n), str(repeat)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if proc.returncode != 0:
        return {"case": case, "facts": n, "error": proc.stderr.strip().splitlines()[-1:]}
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def record(results: list[dict[str, Any]]) -> None:
    """Write the results file: the cases, their speedups over the per-document writer, whether the bytes agree."""
    for r in results:
        base = next((b for b in results if b["case"] == "per-doc jsonl" and b["facts"] == r["facts"]), None)
        if base is not None and "docs_per_s" in r and "docs_per_s" in base:
            r["speedup_vs_per_doc"] = round(r["docs_per_s"] / base["docs_per_s"], 1)
    same = {}
    for r in results:
        if "corpus.jsonl" in r:
            same.setdefault(r["facts"], set()).add(r["corpus.jsonl"]["sha256"])
    out = {
        "benchmark": "corpus",
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "loadavg": os.getloadavg(),
            "pyarrow": __import__("pyarrow").__version__,
        },
        "same_jsonl_bytes": {str(n): len(hashes) == 1 for n, hashes in sorted(same.items())},
        "results": sorted(results, key=lambda r: (r["facts"], CASES.index(r["case"]))),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(f"one corpus.jsonl per graph size, whatever the writer: {out['same_jsonl_bytes']}")


if __name__ == "__main__":
    main()
