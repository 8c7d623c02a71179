"""Scoring speed: TRP/CCR/coverage (+ negative-aware rates) and ranking measures for 100k synthetic questions.

Target: score 100,000 questions in under 2 s (one core). Synthetic questions (1-3 gold triples, a stale
and a distractor negative) and a k=10 run per question are generated here with a seeded RNG; times
are ISO strings as in run files. Prints the timings and writes ``benchmarks/results/score.json``.

Run: ``python benchmarks/bench_score.py [--n 100000] [--k 10]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import time
from pathlib import Path
from typing import Any

from chronoqa.io import write_json
from chronoqa.score.evidence import prepare_question, retrieved_keys, score_evidence
from chronoqa.score.measures import Measure
from chronoqa.score.stats import bootstrap_cis, rng_for
from chronoqa.score.tempbench import aggregate

OPERATORS = ("point_in_time", "before_after", "interval", "sequence")


def synth(n: int, k: int, seed: int) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
    rng = random.Random(seed)
    questions, runs = [], []
    for i in range(n):
        year = rng.randint(1950, 2020)
        hops = rng.choice((1, 1, 2, 2, 3))
        gold = [
            {"s": f"e{rng.randrange(50_000)}", "r": f"P{rng.randrange(200)}", "o": f"e{rng.randrange(50_000)}",
             "t_start": str(year), "t_end": str(year)}
            for _ in range(hops)
        ]  # fmt: skip
        stale = [{**gold[0], "t_start": str(year - 3), "t_end": str(year - 3)}]
        dist = [{**gold[0], "o": f"e{rng.randrange(50_000)}"}]
        questions.append({
            "id": f"q{i}", "t_query": float(year), "hops": hops, "operator": OPERATORS[i % 4],
            "S_star": gold, "S_stale": stale, "S_dist": dist,
        })  # fmt: skip
        pool = gold + stale + dist
        hits = []
        for rank in range(k):
            if rng.random() < 0.3:
                t = rng.choice(pool)
            else:
                y = rng.randint(1950, 2020)
                t = {"s": f"e{rng.randrange(50_000)}", "r": f"P{rng.randrange(200)}", "o": f"e{rng.randrange(50_000)}",
                     "t_start": str(y), "t_end": str(y)}  # fmt: skip
            hits.append({**t, "doc_id": f"d{rank}", "rank": rank + 1, "score": float(k - rank)})
        runs.append(hits)
    return questions, runs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bootstrap", type=int, default=1000)
    args = ap.parse_args()
    t0 = time.perf_counter()
    questions, runs = synth(args.n, args.k, args.seed)
    t_gen = time.perf_counter() - t0
    # The synthetic inputs are millions of long-lived objects; move them out of the cyclic GC's young
    # generations, as a loaded benchmark file would be, so collections do not rescan them mid-scoring.
    gc.collect()
    gc.freeze()

    t0 = time.perf_counter()
    prepared = [prepare_question(q) for q in questions]
    t_prep = time.perf_counter() - t0
    t0 = time.perf_counter()
    keys = [retrieved_keys(h) for h in runs]
    rows = [score_evidence(pq, ks) for pq, ks in zip(prepared, keys, strict=True)]
    t_score = time.perf_counter() - t0
    t0 = time.perf_counter()
    agg = aggregate(rows)
    t_agg = time.perf_counter() - t0
    measures = [Measure.parse(m) for m in ("R@10", "nDCG@10", "MRR")]
    t0 = time.perf_counter()
    for m in measures:
        [m(pq, ks) for pq, ks in zip(prepared, keys, strict=True)]
    t_rank = time.perf_counter() - t0

    import numpy as np

    ccr = np.fromiter((r.CCR for r in rows), dtype=np.float64, count=len(rows))
    t0 = time.perf_counter()
    bootstrap_cis(ccr[None, :], np.ones((1, len(rows))), n_boot=args.bootstrap, rng=rng_for(args.seed, "bench"))
    t_boot = time.perf_counter() - t0

    total = t_prep + t_score + t_agg
    result = {
        "n_questions": args.n,
        "k": args.k,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds": {
            "generate_synthetic": t_gen,
            "prepare_questions": t_prep,
            "score_evidence": t_score,
            "aggregate": t_agg,
            "evidence_total": total,
            "ranking_R10_nDCG10_MRR": t_rank,
            f"bootstrap_{args.bootstrap}_one_metric": t_boot,
        },
        "target_evidence_total_s": 2.0,
        "meets_target": total < 2.0,
        "aggregate_check": {k: agg[k] for k in ("n_questions", "coverage", "TRP_macro", "CCR")},
    }
    for name, v in result["seconds"].items():
        print(f"{name:32s} {v:8.3f} s")
    print(f"evidence scoring of {args.n} questions: {total:.3f} s (target < 2 s: {'met' if total < 2 else 'MISSED'})")
    out = Path(__file__).parent / "results" / "score.json"
    write_json(out, result)
    print(json.dumps(result["aggregate_check"]))


if __name__ == "__main__":
    main()
