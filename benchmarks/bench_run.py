"""Time ``chronoqa run`` end to end without an LLM, per stage, with its peak memory, beside the code before.

The case: a synthetic graph (``chronoqa.sources.synthetic``, the mixed shape, seed 0; 1M facts by default)
written as a Parquet quintuple file, run with ``--files`` (so the build stage builds the release in the same
process), 2,000 questions, the retrievers ``bm25`` and ``graph``, the controls ``oracle`` and ``random``,
the answerers ``extractive`` (over every run) and ``prior``. Each run is a fresh process with a fresh run
folder and cache (BM25 indexes built as on a first run); its peak resident memory (``VmHWM``) is its own, and
so is each stage's (``VmHWM`` reset through ``/proc/self/clear_refs`` as each stage begins and ends).
With ``--before SRC`` (e.g. ``/work/main/src``) the same case also runs with that source tree first on
``PYTHONPATH``, alternating with this tree's, ``--repeat`` times each. Targets: 120 s and 1.5 GB.

    CHRONOQA_MIRROR=../shared/data python benchmarks/bench_run.py [--facts 1000000] [--before /path/to/src]

Writes benchmarks/results/run.json.
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
RESULTS = HERE / "results" / "run.json"
RETRIEVERS = ("bm25", "graph")
CONTROLS = ("oracle", "random")
BASELINES = ("extractive", "prior")
_LISTS = {"retrievers": RETRIEVERS, "controls": CONTROLS, "baselines": BASELINES}
TARGET_S = 120
TARGET_MB = 1536

_CHILD = """
import json, resource, sys, time
from chronoqa.pipeline.config import load_config
from chronoqa.pipeline.run import run_pipeline
files, out, n_questions, lists = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
cfg = load_config(None, files=files, out=out, build={"n_questions": n_questions}, **lists)
def summary_json(summary):  # a typed Summary, or the plain dict of a tree from before it was typed
    return summary.to_dict() if hasattr(summary, "to_dict") else summary
def hwm_mb(reset):  # the peak resident memory since the last reset; resetting starts a new one (Linux)
    with open("/proc/self/status") as fh:
        peak = next(int(line.split()[1]) / 1024 for line in fh if line.startswith("VmHWM:"))
    if reset:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
    return peak
class StagePeaks:  # a Progress: the peak of each stage, and of the work between stages (opening the release)
    def __init__(self):
        self.peaks = {}
    def note(self, key):
        self.peaks[key] = max(self.peaks.get(key, 0.0), hwm_mb(reset=True))
    def begin(self, stage):
        self.note("(before " + stage + ")")
    def start(self, stage, total):
        return lambda n: None
    def finish(self, stage, result):
        self.note(stage)
peaks = StagePeaks()
t0 = time.perf_counter()
res = run_pipeline(cfg, progress=peaks)
total = time.perf_counter() - t0
peaks.note("(after the last stage)")
use = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"total_s": total, "peak_mb": max(peaks.peaks.values()), "cpu_s": use.ru_utime + use.ru_stime,
                  "stages": {s.name: s.seconds for s in res.stages}, "peak_mb_by_stage": peaks.peaks,
                  "n_scored": summary_json(res.summary)["composition"]["n_scored"]}))
"""


def run_once(src: Path, graph: Path, tmp: Path, tag: str, n_questions: int) -> dict[str, Any]:
    """One ``chronoqa run`` of the case in a fresh process with ``src`` first on ``PYTHONPATH``."""
    work = Path(tempfile.mkdtemp(prefix=f"{tag}-", dir=tmp))
    env = {**os.environ, "PYTHONPATH": str(src), "CHRONOQA_CACHE": str(work / "cache")}
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(graph), str(work / "run"), str(n_questions), json.dumps(_LISTS)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{tag} failed:\n{proc.stderr[-4000:]}")
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    stages = {k: round(v, 2) for k, v in res["stages"].items()}
    out = {"total_s": round(res["total_s"], 1), "process_s": round(wall, 1), "cpu_s": round(res["cpu_s"], 1)}
    load = round(os.getloadavg()[0], 1)
    peaks = {k: round(v) for k, v in res["peak_mb_by_stage"].items()}
    return {
        **out,
        "peak_mb": round(res["peak_mb"]),
        "load_avg": load,
        "n_scored": res["n_scored"],
        "stages": stages,
        "peak_mb_by_stage": peaks,
    }


def _write(args: argparse.Namespace, runs: dict[str, list[dict[str, Any]]]) -> None:
    out = {
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "case": {
            "graph": f"synthetic mixed, {args.facts} facts, seed 0 (Parquet quintuples, --files)",
            "n_questions": args.n_questions,
            "retrievers": list(RETRIEVERS),
            "controls": list(CONTROLS),
            "baselines": list(BASELINES),
        },
        "targets": {"total_s": TARGET_S, "peak_mb": TARGET_MB},
        "runs": runs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--facts", type=int, default=1_000_000)
    ap.add_argument("--n-questions", type=int, default=2000)
    ap.add_argument("--before", type=Path, default=None, help="the source tree before the change (its src/)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--out", type=Path, default=RESULTS, help="results file (default results/run.json)")
    args = ap.parse_args()
    from chronoqa.sources.synthetic import SyntheticConfig, generate

    after = Path(__file__).resolve().parents[1] / "src"
    trees = [("after", after), ("before", args.before.resolve())] if args.before else [("after", after)]
    runs: dict[str, list[dict[str, Any]]] = {tag: [] for tag, _ in trees}
    with tempfile.TemporaryDirectory(prefix="chronoqa-bench-run-") as tmp_name:
        tmp = Path(tmp_name)
        graph = generate(SyntheticConfig.mixed(args.facts), seed=0).write_quintuples(tmp / "graph.parquet")
        for _ in range(args.repeat):
            for tag, src in trees:
                res = run_once(src, graph, tmp, tag, args.n_questions)
                runs[tag].append(res)
                _write(args, runs)  # after each run: a long comparison keeps what it has measured
                print(f"{tag}: {res['total_s']} s, {res['cpu_s']} s CPU, {res['peak_mb']} MB peak", flush=True)
    for tag, rs in runs.items():
        best = min(rs, key=lambda r: r["total_s"])
        print(f"{tag}: {best['total_s']} s total, {best['peak_mb']} MB peak")
        for name, s in best["stages"].items():
            print(f"  {name:<32} {s:>8.2f} s {best['peak_mb_by_stage'].get(name, 0):>6} MB")


if __name__ == "__main__":
    main()
