"""Scoring speed: TRP/CCR/coverage, negative-aware rates and ranking measures for 100k synthetic questions.

Target: score 100,000 questions in under 2 s. Synthetic questions (1-3 gold triples, a stale and a
distractor negative) and a k=10 run per question are generated with a seeded RNG; the run is held as
columns (untimed). Timed: flattening the questions' gold (``gold_columns``), building the hit columns
(``hits_from_arrays``: time normalisation, identity keys) and ``score_run`` (TRP, CCR, coverage,
stale/distractor hits, R@10, nDCG@10, MRR) with the overall sums; reported separately: reading the same
run from a ``.run.jsonl`` file (``read_run(path, columnar=True)`` then ``hits_from_run``).

Each measurement runs in a fresh subprocess. ``--before SRC`` (a ``src`` folder of the code before, e.g.
``/work/main/src``) alternates this tree's scorer with that one for ``--rounds`` rounds and checks that
both give the same sums; the best round of each is recorded. Prints the timings and writes
``benchmarks/results/score.json``.

Run: ``python benchmarks/bench_score.py [--n 100000] [--k 10] [--before SRC] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from chronoqa.artifacts.runs import read_run
from chronoqa.io import write_json
from chronoqa.records import Question, Triple
from chronoqa.score.fast import gold_columns, hits_from_arrays, hits_from_run, score_run
from chronoqa.score.measures import Measure

OPERATORS = ("point_in_time", "before_after", "interval", "sequence")
N_ENT, N_REL = 50_000, 200


def synth(n: int, k: int, seed: int) -> tuple[list[Question], dict[str, Any]]:
    """Questions as records (as a loaded release holds them) and a k-hit run as columns."""
    rng = np.random.default_rng(seed)
    year = rng.integers(1950, 2021, n)
    hops = rng.choice([1, 1, 2, 2, 3], n)
    gs, gr, go = rng.integers(0, N_ENT, (n, 3)), rng.integers(0, N_REL, (n, 3)), rng.integers(0, N_ENT, (n, 3))
    dist_o = rng.integers(0, N_ENT, n)
    questions = []
    for i in range(n):
        y = str(year[i])
        gold = tuple(Triple(f"e{gs[i, j]}", f"P{gr[i, j]}", f"e{go[i, j]}", y, y) for j in range(hops[i]))
        g0 = gold[0]
        ys = str(year[i] - 3)
        questions.append(Question(
            f"q{i}", "test", "?", y, gold, S_stale=(Triple(g0.s, g0.r, g0.o, ys, ys),),
            S_dist=(Triple(g0.s, g0.r, f"e{dist_o[i]}", y, y),), hops=int(hops[i]), operator=OPERATORS[i % 4],
        ))  # fmt: skip
    # hits: 30% from the question's pool (gold chain, stale, distractor), the rest random facts
    q = np.repeat(np.arange(n), k)
    from_pool = rng.random(q.size) < 0.3
    pick = (rng.random(q.size) * (hops[q] + 2)).astype(np.int64)  # 0..hops-1 gold, hops stale, hops+1 dist
    j = np.minimum(pick, 2)
    is_gold = from_pool & (pick < hops[q])
    is_stale = from_pool & (pick == hops[q])
    is_dist = from_pool & (pick == hops[q] + 1)
    s_ = np.where(is_gold, gs[q, j], np.where(is_stale | is_dist, gs[q, 0], rng.integers(0, N_ENT, q.size)))
    r_ = np.where(is_gold, gr[q, j], np.where(is_stale | is_dist, gr[q, 0], rng.integers(0, N_REL, q.size)))
    o_ = np.where(
        is_gold, go[q, j], np.where(is_stale, go[q, 0], np.where(is_dist, dist_o[q], rng.integers(0, N_ENT, q.size)))
    )
    y_ = np.where(from_pool, np.where(is_stale, year[q] - 3, year[q]), rng.integers(1950, 2021, q.size))
    ys_ = pa.array(y_.astype(str))
    run = {
        "q": q,
        "s": pa.array(np.char.add("e", s_.astype(str))),
        "r": pa.array(np.char.add("P", r_.astype(str))),
        "o": pa.array(np.char.add("e", o_.astype(str))),
        "t_start": ys_,
        "t_end": ys_,
        "rank": np.tile(np.arange(1, k + 1), n).astype(np.float64),
    }
    return questions, run


def write_run_file(path: Path, questions: list[Question], run: dict[str, Any], k: int) -> None:
    cols = {name: run[name].to_pylist() for name in ("s", "r", "o", "t_start", "t_end")}
    with path.open("w", encoding="utf-8") as fh:
        for i, q in enumerate(questions):
            hits = [
                {"doc_id": f"d{h}", "rank": h - i * k + 1, "score": 1.0, **{c: cols[c][h] for c in cols}}
                for h in range(i * k, (i + 1) * k)
            ]
            fh.write(json.dumps({"qid": q.id, "hits": hits}) + "\n")


def measure(args: argparse.Namespace, run_file: Path) -> dict[str, Any]:
    """One child's timings (seconds) and the overall sums, with the scorer this process imports."""
    questions, run = synth(args.n, args.k, args.seed)
    # The synthetic inputs are millions of long-lived objects; move them out of the cyclic GC's young
    # generations, as a loaded release would be, so collections do not rescan them mid-scoring.
    gc.collect()
    gc.freeze()
    measures = [Measure.parse(m) for m in ("R@10", "nDCG@10", "MRR")]
    c0 = time.process_time()
    t0 = time.perf_counter()
    gold = gold_columns(questions)
    t_gold = time.perf_counter() - t0
    t0 = time.perf_counter()
    hits_cols = hits_from_arrays(run["q"], run["s"], run["r"], run["o"], run["t_start"], run["t_end"], rank=run["rank"])
    t_hits = time.perf_counter() - t0
    t0 = time.perf_counter()
    sc = score_run(gold, hits_cols, measures)
    num, den = sc.trp
    summary = {
        "coverage": float(sc.covered.mean()),
        "TRP_macro": float(num.sum() / den.sum()),
        "CCR": float(sc.ccr.mean()),
        **{str(m): float(sc.measures[str(m)][0].sum() / sc.measures[str(m)][1].sum()) for m in measures},
    }
    t_score = time.perf_counter() - t0
    cpu_total = time.process_time() - c0
    t0 = time.perf_counter()
    from_file = hits_from_run(read_run(run_file, columnar=True), questions)
    t_read = time.perf_counter() - t0
    assert np.array_equal(score_run(gold, from_file).ccr, sc.ccr)
    seconds = {
        "gold_columns": t_gold,
        "hit_columns": t_hits,
        "score_run_and_sums": t_score,
        "total_scoring": t_gold + t_hits + t_score,
        "total_scoring_cpu": cpu_total,
        "read_run_file_jsonl_separately": t_read,
    }
    return {"seconds": seconds, "summary": summary}


def child(args: argparse.Namespace, run_file: Path, src: Path | None) -> dict[str, Any]:
    """Run :func:`measure` in a fresh interpreter importing chronoqa from ``src`` (this tree when ``None``)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    cmd = [sys.executable, __file__, "--child", str(run_file), "--n", str(args.n), "--k", str(args.k)]
    proc = subprocess.run([*cmd, "--seed", str(args.seed)], env=env, capture_output=True, text=True, check=True)
    out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--before", type=Path, default=None, help="src folder of the code before, run alternately")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        print(json.dumps(measure(args, args.child)))
        return
    sides: dict[str, Path | None] = {"after": None, **({"before": args.before} if args.before else {})}
    rounds: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    with tempfile.TemporaryDirectory() as tmp:
        run_file = Path(tmp) / "synthetic.run.jsonl"
        questions, run = synth(args.n, args.k, args.seed)
        write_run_file(run_file, questions, run, args.k)
        del questions, run
        for i in range(args.rounds):
            for side in sides if i % 2 == 0 else reversed(list(sides)):
                res = child(args, run_file, sides[side])
                rounds[side].append(res)
                print(side, json.dumps(res["seconds"]), flush=True)
    summaries = {json.dumps(r["summary"], sort_keys=True) for rs in rounds.values() for r in rs}
    assert len(summaries) == 1, f"the scorers disagree: {summaries}"
    best = {side: min(rs, key=lambda r: r["seconds"]["total_scoring"])["seconds"] for side, rs in rounds.items()}
    result = {
        "n_questions": args.n,
        "k": args.k,
        "n_hits": int(args.n * args.k),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rounds": args.rounds,
        "seconds": best["after"],
        **({"seconds_before": best["before"], "before_src": str(args.before)} if args.before else {}),
        "all_rounds": {side: [r["seconds"] for r in rs] for side, rs in rounds.items()},
        "load_average_1_5_15": list(os.getloadavg()),
        "target_total_s": 2.0,
        "meets_target": best["after"]["total_scoring"] < 2.0,
        "summary": rounds["after"][0]["summary"],
    }
    for side, secs in best.items():
        for name, v in secs.items():
            print(f"{side:7s} {name:35s} {v:8.3f} s")
    print(f"load average at the end: {os.getloadavg()}")
    write_json(Path(__file__).parent / "results" / "score.json", result)


if __name__ == "__main__":
    main()
