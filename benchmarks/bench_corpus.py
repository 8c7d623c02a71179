"""Corpus writing: the release's corpus writer against the code before a change, alternated in the same run.

The corpus of a synthetic graph (``chronoqa.sources.synthetic``, seed 0, generic phrasing as the KG benchmark
gives its relations, every third relation an event; open ends read as ongoing) written as a KG build writes it:
``write_corpus`` on ``corpus_columns`` over the graph's ``FactColumns``, into ``corpus.jsonl``, ``corpus.parquet``
or both (``--formats``). Each run is a fresh subprocess (peak resident memory = ``VmHWM`` of that process) and
uses only that public pair, so any chronoqa source tree can run it.

With ``--before SRC`` (a chronoqa ``src`` folder, e.g. a checkout of the code before a change) every format runs
``--rounds`` times with that tree and with this one, alternately (before, after, before, after, ...): on a
shared machine both see the same load. Each result keeps every run's wall and CPU seconds (``process_time``,
all threads: the steadier number on a shared machine), their best and median, the peak memory, and the sha256 of
each file written; ``same_bytes`` says whether every run of a graph size wrote the same files.

``--stages`` adds one run of this tree's steps, each alone in one thread, in CPU microseconds a row: the plan
(labels, phrases, dates, each rendered once), the Arrow batches (the text joined from the pools, the dictionary
columns), their JSON lines (``chronoqa.io.json_lines``), writing those lines through the page cache with the
final fsync, and ``corpus.parquet`` from the batches.

Run: ``python benchmarks/bench_corpus.py [--facts 1000000] [--before /path/to/src] [--rounds 3]
[--formats jsonl,parquet,both] [--stages]``. A run replaces the results of the sizes it measures in
``benchmarks/results/corpus.json``; the current table is in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _proc import peak_mb

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
RESULTS = HERE / "results" / "corpus.json"
FORMATS = ("jsonl", "parquet", "both")


def _graph(n_facts: int) -> tuple[Any, Any, Any]:
    """The synthetic graph's columns, its relations' phrases and the as-of date."""
    from chronoqa.generate.kg.phrases import generic_phrases
    from chronoqa.sources.synthetic import generate
    from chronoqa.time import TimePoint

    cols = generate(n_facts=n_facts, seed=0).to_columns()
    phrases = {r: generic_phrases(r, r, "event" if i % 3 == 0 else "state") for i, r in enumerate(cols.relations)}
    return cols, phrases, TimePoint(2026, 1, 1)


def _same(x: str) -> str:
    return x


def run_write(fmt: str, n_facts: int) -> dict[str, Any]:
    """One end-to-end write of the corpus as ``fmt``: its wall and CPU seconds, its files' sha256."""
    from chronoqa.artifacts.release import write_corpus
    from chronoqa.generate.kg.corpus import corpus_columns
    from chronoqa.io import sha256_file

    cols, phrases, as_of = _graph(n_facts)
    res: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), time.process_time()
        write_corpus(tmp, corpus_columns(cols, None, phrases, _same, _same, as_of), fmt)
        res.update(wall_s=round(time.perf_counter() - t0, 3), cpu_s=round(time.process_time() - c0, 3))
        for path in sorted(Path(tmp).iterdir()):
            res[path.name] = sha256_file(path)
    res["peak_rss_mb"] = round(peak_mb(), 1)
    return res


def run_stages(n_facts: int) -> dict[str, Any]:
    """This tree's steps one after the other in one thread: CPU seconds and microseconds a row of each."""
    import pyarrow as pa

    from chronoqa.artifacts.release import CORPUS_FILE, write_corpus
    from chronoqa.generate.kg.corpus import corpus_columns
    from chronoqa.io import atomic_write, json_lines

    cols, phrases, as_of = _graph(n_facts)
    res: dict[str, Any] = {}

    def stage(name: str, fn: Callable[[], Any]) -> Any:
        t0, c0 = time.perf_counter(), time.process_time()
        value = fn()
        cpu = time.process_time() - c0
        res[name] = {"wall_s": round(time.perf_counter() - t0, 3), "cpu_s": round(cpu, 3)}
        res[name]["cpu_us_per_row"] = round(cpu / n_facts * 1e6, 3)
        return value

    cc = stage("plan", lambda: corpus_columns(cols, None, phrases, _same, _same, as_of, threads=0))
    batches = stage("batches", lambda: list(cc.reader()))
    lines = stage("json_lines", lambda: [json_lines(b) for b in batches])
    with tempfile.TemporaryDirectory() as tmp:

        def write() -> None:
            with atomic_write(Path(tmp) / CORPUS_FILE, "wb") as fh:
                for buf in lines:
                    fh.write(buf)

        stage("write", write)
        stage("parquet", lambda: write_corpus(Path(tmp) / "pq", pa.Table.from_batches(batches), "parquet"))
    res["peak_rss_mb"] = round(peak_mb(), 1)
    return res


def child(src: Path, args: list[str]) -> dict[str, Any]:
    """One run in a fresh process with ``src`` first on the path: its results, or the error it ended with."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.run(
        [sys.executable, __file__, "--child", *args], capture_output=True, text=True, check=False, env=env
    )
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1:]}
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def summarise(fmt: str, n: int, tree: str, src: Path, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """A format's runs with one tree: every run, the best and median wall and CPU seconds, the files' sha256."""
    ok = [r for r in runs if "error" not in r]
    out: dict[str, Any] = {"format": fmt, "facts": n, "tree": tree, "src": str(src), "runs": runs}
    if ok:
        for key in ("wall_s", "cpu_s"):
            values = [r[key] for r in ok]
            out[f"best_{key}"], out[f"median_{key}"] = min(values), round(statistics.median(values), 3)
        out["docs_per_s"] = round(n / out["best_wall_s"])
        out["peak_rss_mb"] = max(r["peak_rss_mb"] for r in ok)
        out["sha256"] = {k: v for k, v in ok[0].items() if k.startswith("corpus.")}
        out["same_bytes_every_run"] = all(
            {k: v for k, v in r.items() if k.startswith("corpus.")} == out["sha256"] for r in ok
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--facts", type=int, default=1_000_000, help="graph size")
    ap.add_argument("--before", type=Path, help="a chronoqa src folder to alternate with this tree's")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each format with each tree")
    ap.add_argument("--formats", default=",".join(FORMATS), help="comma-separated: jsonl, parquet, both")
    ap.add_argument("--stages", action="store_true", help="also time this tree's steps one by one")
    ap.add_argument("--child", nargs="+")
    args = ap.parse_args()
    if args.child:
        kind, n = args.child[0], int(args.child[1])
        print(json.dumps(run_stages(n) if kind == "stages" else run_write(kind, n)))
        return
    trees = [("before", args.before.resolve())] if args.before else []
    trees.append(("after", SRC))
    results: list[dict[str, Any]] = []
    for fmt in args.formats.split(","):
        runs: dict[str, list[dict[str, Any]]] = {tree: [] for tree, _ in trees}
        for _ in range(args.rounds):
            for tree, src in trees:  # alternately: each round runs every tree once
                runs[tree].append(child(src, [fmt, str(args.facts)]))
                print(fmt, tree, json.dumps(runs[tree][-1]), flush=True)
        results += [summarise(fmt, args.facts, tree, src, runs[tree]) for tree, src in trees]
    if args.stages:
        stages = child(SRC, ["stages", str(args.facts)])
        results.append({"format": "stages", "facts": args.facts, "tree": "after", **stages})
    record(args.facts, results)


def record(n: int, results: list[dict[str, Any]]) -> None:
    """Write the results file: this size's results replace the ones recorded before, other sizes stay."""
    old = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
    kept = [r for r in old.get("results", []) if r.get("facts") != n and "tree" in r]
    hashes: dict[str, set[str]] = {}
    for r in [*kept, *results]:
        if "sha256" in r:
            for name, sha in r["sha256"].items():
                hashes.setdefault(f"{r['facts']} {name}", set()).add(sha)
    out = {
        "benchmark": "corpus",
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "loadavg_at_end": [round(x, 2) for x in os.getloadavg()],
            "pyarrow": __import__("pyarrow").__version__,
        },
        "same_bytes": {key: len(v) == 1 for key, v in sorted(hashes.items())},
        "results": sorted([*kept, *results], key=lambda r: (r["facts"], r["format"], r["tree"])),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(f"the same files before and after: {out['same_bytes']}")


if __name__ == "__main__":
    main()
