"""CPU seconds and peak memory of ``chronoqa run``'s evaluate stage alone, beside the code before, in one run.

The case: a ``chronoqa run`` folder of a synthetic graph (``chronoqa.sources.synthetic``, the mixed shape, seed 0;
1M facts by default; 2,000 questions) made with the cheap stages only (the controls ``oracle`` and ``random``,
the answerers ``extractive`` over both and ``prior``: three answer files, two runs), so that the evaluate stage
can be timed apart from the BM25 build. ``--run`` reuses such a folder; without it the folder is made first
(with this tree) in a temporary directory.

Each measured case is a fresh process with ``src`` first on ``PYTHONPATH``: it opens the release, reads the
corpus (not counted), then runs the pipeline's evaluate stage (``_evaluate_stage``, the same call in both
trees) over the answer files (``--answers-only``) or the answer files and the runs. It reports the stage's CPU
seconds (``process_time``), wall seconds, and the peak resident memory (``VmHWM``) before and after the stage.
With ``--before SRC`` the code before runs in the same invocation, alternating with this tree's,
``--rounds`` times each.

    python benchmarks/bench_evaluate.py [--facts 1000000] [--run RUN_DIR] [--before /path/to/old/src]

Writes benchmarks/results/evaluate.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "evaluate.json"

_CHILD = """
import json, sys, tempfile, time
from pathlib import Path
from chronoqa.artifacts.release import load_release
from chronoqa.pipeline.config import load_config
from chronoqa.pipeline.run import _evaluate_stage, _Quiet

def vm(key):
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) / 1024 for line in fh if line.startswith(key + ":"))

run_dir, answers_only = Path(sys.argv[1]), sys.argv[2] == "1"
rel = load_release(run_dir / "build")
len(rel.corpus), len(rel.questions)  # the release read before the stage: not counted
runs = {} if answers_only else {f.name.removesuffix(".run.jsonl"): f
                                for f in sorted(run_dir.glob("retrieve-*/*.run.jsonl"))}
answers = {p.name.removeprefix("answer-"): p / "answers.jsonl" for p in sorted(run_dir.glob("answer-*"))}
cfg = load_config(run_dir / "config.toml")
with tempfile.TemporaryDirectory() as tmp:
    before_mb = vm("VmHWM")
    c0, t0 = time.process_time(), time.perf_counter()
    _evaluate_stage(cfg, rel, runs, answers, _Quiet(), Path(tmp) / "cache")(Path(tmp))
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    digest = {str(p.relative_to(tmp)): p.read_text() for p in sorted(Path(tmp).rglob("*.json*"))}
print(json.dumps({"cpu_s": cpu, "wall_s": wall, "peak_before_mb": before_mb, "peak_mb": vm("VmHWM"),
                  "n_runs": len(runs), "n_answer_files": len(answers), "metrics": digest}))
"""


def make_run(facts: int, tmp: Path) -> Path:
    """A ``chronoqa run`` folder of the case, made with this tree (the cheap stages only)."""
    from chronoqa.pipeline.config import load_config
    from chronoqa.pipeline.run import run_pipeline
    from chronoqa.sources.synthetic import SyntheticConfig, generate

    graph = generate(SyntheticConfig.mixed(facts), seed=0).write_quintuples(tmp / "graph.parquet")
    cfg = load_config(
        None,
        files=str(graph),
        out=str(tmp / "run"),
        build={"n_questions": 2000},
        retrievers=[],
        controls=["oracle", "random"],
        baselines=["extractive", "prior"],
    )
    run_pipeline(cfg)
    return tmp / "run"


def measure(src: Path, run_dir: Path, answers_only: bool) -> dict[str, Any]:
    """The evaluate stage over ``run_dir`` in a fresh process with ``src`` first on ``PYTHONPATH``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    load = round(os.getloadavg()[0], 1)
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(run_dir), "1" if answers_only else "0"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"{src} failed:\n{proc.stderr[-4000:]}")
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    return {
        "cpu_s": round(res["cpu_s"], 1),
        "wall_s": round(res["wall_s"], 1),
        "peak_before_mb": round(res["peak_before_mb"]),
        "peak_mb": round(res["peak_mb"]),
        "load_avg_at_start": load,
        "n_runs": res["n_runs"],
        "n_answer_files": res["n_answer_files"],
        "metrics": res["metrics"],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--facts", type=int, default=1_000_000)
    ap.add_argument("--run", type=Path, default=None, help="a run folder made before (skips making one)")
    ap.add_argument("--before", type=Path, default=None, help="the source tree before the change (its src/)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--answers-only", action="store_true", help="evaluate the answer files only, not the runs")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    after = HERE.parent / "src"
    trees = [("before", args.before.resolve()), ("after", after)] if args.before else [("after", after)]
    rows: dict[str, list[dict[str, Any]]] = {tag: [] for tag, _ in trees}
    digests: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="chronoqa-bench-evaluate-") as tmp:
        run_dir = args.run.resolve() if args.run else make_run(args.facts, Path(tmp))
        for _ in range(args.rounds):
            for tag, src in trees:
                res = measure(src, run_dir, args.answers_only)
                digests.add(json.dumps(res.pop("metrics"), sort_keys=True))
                rows[tag].append(res)
                _write(args, rows, len(digests) == 1)  # after each case: a long comparison keeps what it measured
                print(f"{tag}: {res['cpu_s']} CPU s, {res['wall_s']} s wall, {res['peak_mb']} MB peak", flush=True)
    print(f"same metrics in every case: {len(digests) == 1}")


def _write(args: argparse.Namespace, rows: dict[str, list[dict[str, Any]]], same: bool) -> None:
    out = {
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "case": {
            "graph": f"synthetic mixed, {args.facts} facts, seed 0; 2,000 questions asked for",
            "stage": "evaluate (answer files only)" if args.answers_only else "evaluate (runs and answer files)",
            "before": str(args.before) if args.before else None,
        },
        "same_metrics": same,
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
