"""Statistics speed: the paired comparison of two systems and the agreement figure with its bootstrap CI.

Timed, per round in a fresh subprocess: ``paired_test`` (permutation p-value and paired bootstrap CI, 1000
resamples) on ``--n`` questions of two systems whose binary outcomes differ on about ``--differ`` of them,
and ``agreement`` (Krippendorff's alpha with a 1000-resample bootstrap CI) of four annotators over 300 items
with missing ratings. ``--before SRC`` (a ``src`` folder of the code before, e.g. ``/work/main/src``)
alternates this tree with that one for ``--rounds`` rounds; the best round of each is recorded with the
figures both computed (same p-value within Monte Carlo error, same alpha to float rounding). Prints the
timings and writes ``benchmarks/results/stats.json``.

Run: ``python benchmarks/bench_stats.py [--n 20000] [--differ 0.2] [--before SRC] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

from chronoqa.io import write_json

ROUND = r"""
import json, sys, time
import numpy as np
from chronoqa.score.stats import paired_test
from chronoqa.validate.agreement import agreement

n, differ = int(sys.argv[1]), float(sys.argv[2])
rng = np.random.default_rng(0)
a = (rng.random(n) < 0.6).astype(float)
b = np.where(rng.random(n) < differ, 1 - a, a)
ones = np.ones(n)
c0, t0 = time.process_time(), time.perf_counter()
res = paired_test(a, ones, b, ones, n_resamples=1000, seed=1, name="bench")
paired = (time.perf_counter() - t0, time.process_time() - c0)
labels = ["yes", "no", "unsure"]
items = [{k: (labels[rng.integers(0, 3)] if rng.random() < 0.8 else None) for k in "abcd"} for _ in range(300)]
c0, t0 = time.process_time(), time.perf_counter()
agr = agreement(items, list("abcd"), n_boot=1000, seed=0, name="bench")
agree = (time.perf_counter() - t0, time.process_time() - c0)
print(json.dumps({"paired_s": paired[0], "paired_cpu_s": paired[1], "p_value": res.p_value, "diff": res.diff,
                  "agreement_s": agree[0], "agreement_cpu_s": agree[1], "alpha": agr.value,
                  "alpha_ci": [agr.ci_low, agr.ci_high]}))
"""


def one_round(src: str, n: int, differ: float) -> dict[str, Any]:
    """One measurement in a fresh interpreter with ``src`` first on the path."""
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run(
        [sys.executable, "-c", ROUND, str(n), str(differ)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--differ", type=float, default=0.2)
    ap.add_argument("--before", default=None, help="src folder of the code before")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    here = str(Path(__file__).resolve().parents[1] / "src")
    trees = {"after": here, **({"before": args.before} if args.before else {})}
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k in trees}
    for r in range(args.rounds):
        for label in sorted(trees, reverse=r % 2 == 1):  # alternate which tree goes first
            runs[label].append(one_round(trees[label], args.n, args.differ))
            print(label, json.dumps(runs[label][-1]))
    best = {
        label: {
            "paired_s": min(x["paired_s"] for x in rows),
            "paired_cpu_s": min(x["paired_cpu_s"] for x in rows),
            "agreement_s": min(x["agreement_s"] for x in rows),
            "agreement_cpu_s": min(x["agreement_cpu_s"] for x in rows),
            "p_value": rows[0]["p_value"],
            "alpha": rows[0]["alpha"],
            "alpha_ci": rows[0]["alpha_ci"],
        }
        for label, rows in runs.items()
    }
    result = {
        "n": args.n,
        "differ": args.differ,
        "rounds": args.rounds,
        "load_avg": os.getloadavg()[0],
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "best": best,
        "all": runs,
    }
    path = Path(__file__).resolve().parent / "results" / "stats.json"
    write_json(path, result)
    print(json.dumps(best, indent=1))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
