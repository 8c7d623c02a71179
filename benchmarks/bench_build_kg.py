"""Build time and peak memory of the KG benchmark builder (``build_kg_benchmark`` + writing the release).

Cases, each in a fresh subprocess (peak resident memory = ``VmHWM`` of that process):

* YAGO11k and Wikidata12k through the mirror (needs CHRONOQA_MIRROR), default config (10,000 questions);
* synthetic graphs (``chronoqa.sources.synthetic``, seed 0) of 10k, 100k, 1M and 10M facts (the growth
  curve) with a fixed number of questions (``--synthetic-questions``, default 2,000), generic phrasing
  (their relations have no phrase table): cost should grow no worse than linearly in facts. The graph is
  columnar (``FactColumns``): no ``Fact`` object is made for the bulk of the facts. The shape is
  ``--shape mixed`` (default: :meth:`SyntheticConfig.mixed`, functional careers, one-per-subject events,
  inverse-functional and lifelong relations beside Zipf-random ones, so every operator x hop cell can be
  filled and the candidate search, uniqueness checks, chains and negatives do real work) or ``--shape zipf``
  (every relation Zipf-random: only 1-hop interval questions exist). Each result records the generator
  config and the questions by operator and by hop count.

Timings are split into load (reading / generating the graph), build (index + questions + negatives +
audit, the canonical fact order included: done on the graph before the build, as the CLI does, so that
the input order is dropped; ``order_s`` / ``order_cpu_s`` give its share) and write (release folder,
corpus included); ``build_peak_rss_mb`` is the peak resident memory up to the end of the build (before the
corpus is written), ``peak_rss_mb`` the whole case's. The machine is shared: each result records the load
average at its start. Run:
``python benchmarks/bench_build_kg.py [--sizes 10000,100000,1000000,10000000] [--skip-real] [--skip-write]
[--shape mixed|zipf] [--out FILE] [--before SRC [--rounds N]]``;
results go to ``benchmarks/results/build_kg.json`` unless ``--out`` names another file. ``--before SRC`` runs
each case with the code of ``SRC`` (a ``src`` folder) and this tree alternately, ``--rounds`` times (each
result then records ``code``: ``before`` or ``after``, and its ``round``).
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
from dataclasses import asdict
from pathlib import Path
from typing import Any

from _proc import peak_mb, rss_mb

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "build_kg.json"
SHAPES = ("mixed", "zipf")


def synthetic_config(n_facts: int, shape: str) -> Any:
    """The generator config of a synthetic case (seed 0)."""
    from chronoqa.sources.synthetic import SyntheticConfig

    return SyntheticConfig.mixed(n_facts) if shape == "mixed" else SyntheticConfig(n_facts=n_facts, seed=0)


def run_case(kind: str, arg: str, n_questions: int, write: bool = True, shape: str = "mixed") -> dict[str, Any]:
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
    from chronoqa.generate.kg.order import canonical_graph

    base = rss_mb()
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    if kind == "dataset":
        from chronoqa.datasets import load_graph

        graph = load_graph(arg)
        cfg = KGBuildConfig(n_questions=n_questions)
    else:
        from chronoqa.sources.synthetic import generate

        syn = synthetic_config(int(arg), shape)
        graph = generate(syn).to_graph(f"synthetic{arg}")
        cfg = KGBuildConfig(n_questions=n_questions, generic_phrases=True)
    t1 = time.perf_counter()
    load_avg = os.getloadavg()
    cpu1 = time.process_time()
    # the build's first step (content order), done here so that the input order is dropped, as the CLI does
    graph = canonical_graph(graph, cfg.seed)
    t_order, cpu_order = time.perf_counter(), time.process_time()
    build = build_kg_benchmark(graph, cfg)
    t2 = time.perf_counter()
    cpu2 = time.process_time()
    build_peak = peak_mb()
    if write:
        with tempfile.TemporaryDirectory() as tmp:
            build.write(Path(tmp) / "release")
    t3 = time.perf_counter()
    m = build.manifest
    comp = m["counts"]["composition"]
    hop_names = sorted({h for cells in comp.values() for h in cells})
    return {
        "case": arg if kind == "dataset" else f"synthetic-{int(arg):,}" + ("" if shape == "mixed" else f"-{shape}"),
        "synthetic_config": None if kind == "dataset" else asdict(syn),
        "facts": len(graph.facts),
        "questions": m["counts"]["questions"],
        "load_s": round(t1 - t0, 2),
        "build_s": round(t2 - t1, 2),
        "write_s": round(t3 - t2, 2) if write else None,
        "total_s": round(t3 - t0, 2),
        "cpu_s": round(time.process_time() - cpu0, 2),
        "load_cpu_s": round(cpu1 - cpu0, 2),
        "build_cpu_s": round(cpu2 - cpu1, 2),
        "order_s": round(t_order - t1, 2),  # of build_s: the canonical order (canonical_graph)
        "order_cpu_s": round(cpu_order - cpu1, 2),
        "build_peak_rss_mb": round(build_peak, 1),
        "peak_rss_mb": round(peak_mb(), 1),
        "rss_growth_mb": round(peak_mb() - base, 1),
        "loadavg_at_start": [round(x, 2) for x in load_avg],
        "by_operator": {op: sum(cells.values()) for op, cells in comp.items()},
        "by_hops": {h: sum(cells.get(h, 0) for cells in comp.values()) for h in hop_names},
        "composition": comp,
        "functional_rates": m["functional_rates"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="10000,100000,1000000,10000000")
    ap.add_argument("--synthetic-questions", type=int, default=2000)
    ap.add_argument("--skip-real", action="store_true")
    ap.add_argument("--skip-write", action="store_true", help="build only (the corpus writer is measured apart)")
    ap.add_argument("--shape", choices=SHAPES, default="mixed", help="synthetic graph shape (default: mixed)")
    ap.add_argument("--out", type=Path, default=RESULTS, help=f"results file (default: {RESULTS.name})")
    ap.add_argument("--child", nargs=3, metavar=("KIND", "ARG", "N"))
    ap.add_argument("--before", type=Path, help="a src folder of the code before: alternate it with this tree")
    ap.add_argument("--rounds", type=int, default=1, help="with --before: rounds of before/after per case")
    args = ap.parse_args()
    if args.child:
        res = run_case(args.child[0], args.child[1], int(args.child[2]), not args.skip_write, args.shape)
        print(json.dumps(res))
        return
    cases: list[tuple[str, str, int]] = []
    if not args.skip_real and os.environ.get("CHRONOQA_MIRROR"):
        cases += [("dataset", "yago11k", 10_000), ("dataset", "wikidata12k", 10_000)]
    cases += [("synthetic", s, args.synthetic_questions) for s in args.sizes.split(",") if s]
    previous: list[dict[str, Any]] = []
    if args.out.exists():
        previous = json.loads(args.out.read_text(encoding="utf-8")).get("results", [])
    trees = [("before", args.before.resolve()), ("after", HERE.parent / "src")] if args.before else [("", None)]
    for kind, arg, n in cases:
        for rnd in range(args.rounds if args.before else 1):
            for code, src in trees:
                res = _child(kind, arg, n, args, src)
                if code:
                    res = {**res, "case": f"{res['case']} {code}#{rnd + 1}", "code": code, "round": rnd + 1}
                shown = {k: v for k, v in res.items() if k not in ("composition", "synthetic_config")}
                print(json.dumps(shown), flush=True)
                # merge by case name and write after every case, so a long run keeps what it measured
                previous = [r for r in previous if r.get("case") != res["case"]] + [res]
                _write(args.out, previous)


def _child(kind: str, arg: str, n: int, args: argparse.Namespace, src: Path | None) -> dict[str, Any]:
    """One case in a fresh process (with ``src`` first on the path when given)."""
    child = [sys.executable, __file__, "--child", kind, arg, str(n), "--shape", args.shape]
    child += ["--skip-write"] if args.skip_write else []
    env = {**os.environ, "PYTHONPATH": str(src)} if src else None
    proc = subprocess.run(child, capture_output=True, text=True, check=False, env=env)
    if proc.returncode != 0:
        return {"case": arg, "error": proc.stderr.strip().splitlines()[-1:] or ["failed"]}
    res: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return res


def _write(path: Path, results: list[dict[str, Any]]) -> None:
    out = {
        "benchmark": "build_kg",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "loadavg": os.getloadavg()},
        "results": results,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
