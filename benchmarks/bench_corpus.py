"""Corpus writing: the per-document writer vs the columnar one, documents per second, in the same run.

The corpus of a synthetic graph (``chronoqa.sources.synthetic``, seed 0, generic phrasing as the KG
benchmark gives its relations, every third relation an event; open ends read as ongoing) written as a release
folder writes it, each case in a fresh subprocess (peak resident memory = ``VmHWM`` of that process):

* ``per-doc jsonl``: ``iter_corpus`` over the graph's ``Fact`` objects, one ``Doc.to_dict`` and ``json.dumps``
  per document (``write_release``'s writer until issue 16): the baseline;
* ``columnar jsonl``: ``corpus_batches`` over the graph's ``FactColumns``, streamed into ``corpus.jsonl``
  (``json_lines``), end to end; ``columnar parquet`` and ``columnar both`` the same into ``corpus.parquet`` /
  both files;
* ``columnar table`` splits the columnar path: building the whole corpus table (``build_s``), then writing
  ``corpus.jsonl`` from the table (``jsonl_s``, the writer alone) and ``corpus.parquet`` (``parquet_s``).

Every case records the sha256 of what it wrote, so one run shows the writers' outputs are the same bytes.
Times are wall clock and CPU (``process_time``: on a shared machine, CPU seconds are the steadier number).
Run: ``python benchmarks/bench_corpus.py [--facts 1000000] [--big 10000000]``; ``--big`` adds the columnar
cases on a larger graph (the per-document writer is left out there: about 6 minutes per 10M documents).
Results go to ``benchmarks/results/corpus.json``.
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
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "corpus.json"
CASES = ("per-doc jsonl", "columnar jsonl", "columnar parquet", "columnar both", "columnar table")


def _peak_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run_case(case: str, n_facts: int) -> dict[str, Any]:
    import pyarrow as pa

    from chronoqa.artifacts.release import CORPUS_FILE, CORPUS_PARQUET_FILE, write_corpus
    from chronoqa.generate.kg.corpus import corpus_batches, iter_corpus
    from chronoqa.generate.kg.phrases import generic_phrases
    from chronoqa.io import sha256_file
    from chronoqa.sources.synthetic import generate
    from chronoqa.time import TimePoint

    syn = generate(n_facts=n_facts, seed=0)
    cols = syn.to_columns()
    phrases = {r: generic_phrases(r, r, "event" if i % 3 == 0 else "state") for i, r in enumerate(cols.relations)}
    as_of = TimePoint(2026, 1, 1)

    def same(x: str) -> str:
        return x

    def reader() -> pa.RecordBatchReader:
        return corpus_batches(cols, None, phrases, same, same, as_of)

    res: dict[str, Any] = {"case": case, "facts": n_facts}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        facts = list(syn.to_graph().facts) if case == "per-doc jsonl" else None
        t0, c0 = time.perf_counter(), time.process_time()
        if facts is not None:
            ids = [f"F{f.id}" for f in facts]
            write_corpus(out, iter_corpus(facts, ids, phrases, same, same, as_of), "jsonl")
        elif case == "columnar table":
            table = reader().read_all()
            t1, c1 = time.perf_counter(), time.process_time()
            write_corpus(out, table, "jsonl")
            t2, c2 = time.perf_counter(), time.process_time()
            write_corpus(out, table, "parquet")
            t3, c3 = time.perf_counter(), time.process_time()
            res.update(build_s=round(t1 - t0, 2), build_cpu_s=round(c1 - c0, 2))
            res.update(jsonl_s=round(t2 - t1, 2), jsonl_cpu_s=round(c2 - c1, 2))
            res.update(parquet_s=round(t3 - t2, 2), parquet_cpu_s=round(c3 - c2, 2))
            res.update(jsonl_docs_per_s=round(n_facts / (t2 - t1)), jsonl_docs_per_cpu_s=round(n_facts / (c2 - c1)))
        else:
            write_corpus(out, reader(), case.split()[1])
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        res.update(seconds=round(wall, 2), cpu_s=round(cpu, 2))
        res.update(docs_per_s=round(n_facts / wall), docs_per_cpu_s=round(n_facts / cpu))
        for name in (CORPUS_FILE, CORPUS_PARQUET_FILE):
            if (out / name).exists():
                res[name] = {"bytes": (out / name).stat().st_size, "sha256": sha256_file(out / name)}
    res["peak_rss_mb"] = round(_peak_mb(), 1)
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--facts", type=int, default=1_000_000)
    ap.add_argument("--big", type=int, default=0, help="also run the columnar cases on a graph of this size")
    ap.add_argument("--child", nargs=2, metavar=("CASE", "N"))
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run_case(args.child[0], int(args.child[1]))))
        return
    runs = [(c, args.facts) for c in CASES] + [(c, args.big) for c in CASES[1:] if args.big]
    results = []
    for case, n in runs:
        proc = subprocess.run(
            [sys.executable, __file__, "--child", case, str(n)], capture_output=True, text=True, check=False
        )
        if proc.returncode != 0:
            res: dict[str, Any] = {"case": case, "facts": n, "error": proc.stderr.strip().splitlines()[-1:]}
        else:
            res = json.loads(proc.stdout.strip().splitlines()[-1])
        print(json.dumps(res), flush=True)
        results.append(res)
    base = next((r for r in results if r["case"] == "per-doc jsonl" and "docs_per_s" in r), None)
    if base is not None:
        for r in results:
            if "docs_per_s" in r and r["facts"] == base["facts"]:
                r["speedup_vs_per_doc"] = round(r["docs_per_s"] / base["docs_per_s"], 1)
    jsonl = {r["corpus.jsonl"]["sha256"] for r in results if "corpus.jsonl" in r and r["facts"] == args.facts}
    out = {
        "benchmark": "corpus",
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "loadavg": os.getloadavg(),
            "pyarrow": __import__("pyarrow").__version__,
        },
        "same_jsonl_bytes": len(jsonl) == 1,
        "results": results,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(f"same corpus.jsonl bytes from every writer: {len(jsonl) == 1}")


if __name__ == "__main__":
    main()
