"""Time `chronoqa run` end to end on YAGO11k without an LLM (target: under 10 minutes on 2 cores).

Runs the pipeline with a fresh run folder and a fresh cache (so the dense embeddings and BM25 indexes
are built, as on a first run), then reruns it to time the all-skipped resume. Writes
benchmarks/results/run.json and prints the per-stage seconds and the summary table.

    CHRONOQA_MIRROR=../shared/data python benchmarks/bench_run.py [--n-questions 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path

from chronoqa.pipeline.config import load_config
from chronoqa.pipeline.run import run_pipeline
from chronoqa.report import summary_table


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default="yago11k")
    ap.add_argument("--n-questions", type=int, default=10000, help="questions built (the builder's default)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="chronoqa-bench-run-") as tmp:
        os.environ["CHRONOQA_CACHE"] = str(Path(tmp) / "cache")  # cold caches: embeddings built as on a first run
        cfg = load_config(
            None, dataset=args.dataset, out=str(Path(tmp) / "run"), build={"n_questions": args.n_questions}
        )
        t0 = time.perf_counter()
        res = run_pipeline(cfg)
        cold = time.perf_counter() - t0
        t1 = time.perf_counter()
        res2 = run_pipeline(cfg)
        warm = time.perf_counter() - t1
    stages = [{"name": s.name, "seconds": round(s.seconds, 2)} for s in res.stages]
    rh, rr, ah, ar = summary_table(res.summary)
    out = {
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "dataset": args.dataset,
        "n_questions": args.n_questions,
        "n_scored": res.summary["composition"]["n_scored"],
        "total_s": round(cold, 1),
        "rerun_all_skipped_s": round(warm, 1),
        "rerun_all_skipped": all(s.skipped for s in res2.stages),
        "target_s": 600,
        "stages": stages,
        "retrieval": [dict(zip(rh, r, strict=True)) for r in rr],
        "answers": [dict(zip(ah, r, strict=True)) for r in ar],
        "warnings": res.summary["warnings"],
    }
    path = Path(__file__).parent / "results" / "run.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    skipped = out["rerun_all_skipped"]
    print(f"chronoqa run {args.dataset}: {cold:.1f} s cold (target 600 s), rerun {warm:.1f} s (all skipped: {skipped})")
    for s in stages:
        print(f"  {s['name']:<40} {s['seconds']:>8.2f} s")
    for header, rows in ((rh, rr), (ah, ar)):
        print(" | ".join(header))
        for r in rows:
            print(" | ".join(r))


if __name__ == "__main__":
    main()
