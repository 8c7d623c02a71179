"""Does the benchmark separate systems? The main job's releases, the reference retrievers, the extractive reader.

For each dataset (Wikidata12k, YAGO11k, through the mirror ``$CHRONOQA_MIRROR``) this runs the main job
(:func:`chronoqa.pipeline.run_pipeline`: the default build, the test split, k = 10) with the time-blind ``bm25``,
the time-aware ``bm25_temporal``, ``graph`` retrieval (``dense`` too with ``--dense``: slow on a shared CPU) and
the ``oracle`` / ``random`` controls, and the offline ``extractive`` answerer over every run. It then reads what
``evaluate`` wrote and compares pairs of runs with :func:`chronoqa.score.evaluate.evaluate` (``compare=``: paired
bootstrap CI of the difference, permutation p, McNemar for 0/1 outcomes). Nothing here scores by itself.

Reported per retriever: CCR, Outrank@10 and MRR with their 95% bootstrap CIs, overall, on the ``reasoning`` kind
(multi-hop and new-family questions, :mod:`chronoqa.score.kinds`) and per complexity; per pair (bm25_temporal -
bm25, graph - bm25_temporal, graph - bm25): the paired differences; per extractive run: A per operator (family).
The issue's criteria are checked and recorded as booleans: disjoint 95% CIs on CCR or Outrank@10 for
bm25 / bm25_temporal and for single-fact (bm25, bm25_temporal) / graph retrieval, and the best non-control
retriever's CCR on the reasoning questions at most 0.8.

Run: ``python benchmarks/bench_separation.py [--datasets wikidata12k,yago11k] [--n-bootstrap 1000] [--dense]
[--keep DIR]``. Prints a table and writes ``benchmarks/results/separation.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results" / "separation.json"
METRICS = ("CCR", "Outrank@10", "MRR")
CRITERION_METRICS = ("CCR", "Outrank@10")  # the issue's: CCR or a rank of the time-valid fact against negatives
PAIRS = (("bm25_temporal", "bm25"), ("graph", "bm25_temporal"), ("graph", "bm25"))
SINGLE_FACT = ("bm25", "bm25_temporal")
REASONING_CCR_MAX = 0.8


def _est(sl: Any, metric: str) -> dict[str, Any] | None:
    e = None if sl is None else sl.metrics.get(metric)
    if e is None or e.value is None:
        return None
    return {"value": round(e.value, 4), "ci": [_r(e.ci_low), _r(e.ci_high)], "n": e.n}


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _retriever_row(block: Any) -> dict[str, Any]:
    """CCR, Outrank@10, MRR overall, per kind, per complexity and per operator (with CIs)."""
    row: dict[str, Any] = {"n_questions": block.all.n_questions, "all": {m: _est(block.all, m) for m in METRICS}}
    for group in ("by_kind", "by_complexity", "by_operator"):
        row[group] = {
            name: {"n_questions": sl.n_questions, **{m: _est(sl, m) for m in METRICS}}
            for name, sl in getattr(block, group).items()
        }
    return row


def _paired_row(paired: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for m in METRICS:
        for slice_name, p in (("all", paired[m].all), ("reasoning", paired[m].by_kind.get("reasoning"))):
            if p is None:
                continue
            out.setdefault(m, {})[slice_name] = {
                "diff": _r(p.diff),
                "ci": [_r(p.ci_low), _r(p.ci_high)],
                "p_value": _r(p.p_value),
                "mcnemar_p": _r(p.mcnemar_p),
                "ci_excludes_0": p.ci_low is not None and p.ci_high is not None and (p.ci_low > 0 or p.ci_high < 0),
            }
    return out


def _disjoint(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    if a is None or b is None or None in a["ci"] or None in b["ci"]:
        return False
    return bool(a["ci"][1] < b["ci"][0] or b["ci"][1] < a["ci"][0])


def _separated(rows: dict[str, Any], x: str, y: str) -> list[str]:
    """The criterion metrics on which ``x`` and ``y`` have disjoint 95% CIs over all scored questions."""
    return [m for m in CRITERION_METRICS if _disjoint(rows[x]["all"][m], rows[y]["all"][m])]


def _criteria(rows: dict[str, Any], controls: set[str]) -> dict[str, Any]:
    graph_vs = {s: _separated(rows, "graph", s) for s in SINGLE_FACT if s in rows}
    systems = {n: r for n, r in rows.items() if n not in controls}
    reasoning = {n: (r["by_kind"].get("reasoning") or {}).get("CCR") for n, r in systems.items()}
    best = max((n for n in reasoning if reasoning[n]), key=lambda n: reasoning[n]["value"], default=None)
    return {
        "bm25_vs_bm25_temporal_disjoint_on": _separated(rows, "bm25", "bm25_temporal"),
        "graph_vs_single_fact_disjoint_on": graph_vs,
        "best_reasoning_ccr": {"retriever": best, **(reasoning[best] or {})} if best else None,
        "best_reasoning_ccr_at_most_0.8": bool(best and reasoning[best]["value"] <= REASONING_CCR_MAX),
    }


def _answers(metrics_folder: Any) -> dict[str, Any]:
    """The extractive reader's A per operator (family), per run it read."""
    out: dict[str, Any] = {}
    for rec in metrics_folder.answers:
        block = rec.metrics.answers
        out[rec.name] = {
            "all": _est(block.all, "A"),
            "by_operator": {
                op: {"n_questions": sl.n_questions, "A": _est(sl, "A")} for op, sl in block.by_operator.items()
            },
            "by_kind": {k: {"n_questions": sl.n_questions, "A": _est(sl, "A")} for k, sl in block.by_kind.items()},
        }
    return out


def measure(dataset: str, folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    """One dataset: the main job, then the paired comparisons through ``evaluate``."""
    from chronoqa.artifacts.metrics import read_metrics
    from chronoqa.artifacts.release import load_release
    from chronoqa.pipeline import RunConfig, run_pipeline
    from chronoqa.score.evaluate import evaluate

    retrievers = ("bm25", "bm25_temporal", "graph", *(("dense",) if args.dense else ()))
    controls = ("oracle", "random")
    cfg = RunConfig(
        dataset=dataset, out=str(folder), retrievers=retrievers, controls=controls, baselines=("extractive",),
        n_bootstrap=args.n_bootstrap, seed=args.seed,
    )  # fmt: skip
    t0, c0 = time.perf_counter(), time.process_time()
    res = run_pipeline(cfg)
    t_run, c_run = time.perf_counter() - t0, time.process_time() - c0
    rel = load_release(folder / "build")
    mf = read_metrics(folder / "evaluate")
    rows = {rec.name: _retriever_row(rec.metrics.retrieval) for rec in mf.retrieval}
    runs = {n: folder / f"retrieve-{n}" / f"{n}.run.jsonl" for n in rows}
    paired = {}
    for a, b in PAIRS:
        ev = evaluate(rel, run=runs[a], compare=runs[b], split=cfg.split, seed=args.seed, n_bootstrap=args.n_bootstrap)
        assert ev.metrics.compare is not None
        paired[f"{a} - {b}"] = _paired_row(ev.metrics.compare.paired)
    scored = [q for q in rel.questions if q.split == cfg.split]
    return {
        "dataset": dataset,
        "split": cfg.split,
        "n_questions_release": len(rel.questions),
        "n_scored": len(scored),
        "n_evidence_questions": mf.retrieval[0].metrics.n_evidence_questions,
        "retrievers": rows,
        "paired": paired,
        "criteria": _criteria(rows, set(controls)),
        "extractive_A": _answers(mf),
        "run_wall_s": round(t_run, 1),
        "run_cpu_s_this_process": round(c_run, 1),
        "stages_skipped": sum(1 for st in res.stages if st.skipped),  # a resumed run (--keep) times only the rest
        "stages_run": sum(1 for st in res.stages if not st.skipped),
        "n_warnings": len(res.warnings),
    }


def _fmt(e: dict[str, Any] | None) -> str:
    return "–" if e is None else f"{e['value']:.3f} [{e['ci'][0]:.3f}, {e['ci'][1]:.3f}]"


def _print(case: dict[str, Any]) -> None:
    print(f"\n{case['dataset']}: {case['n_scored']} test questions, {case['n_evidence_questions']} with evidence")
    for name, r in case["retrievers"].items():
        rs = r["by_kind"].get("reasoning", {})
        print(
            f"  {name:14} "
            + "  ".join(f"{m} {_fmt(r['all'][m])}" for m in METRICS)
            + f"  reasoning CCR {_fmt(rs.get('CCR'))}"
        )
    for pair, p in case["paired"].items():
        print(
            f"  {pair:24} "
            + "  ".join(
                f"{m} {v['all']['diff']:+.3f} [{v['all']['ci'][0]:+.3f}, {v['all']['ci'][1]:+.3f}]"
                for m, v in p.items()
            )
        )
    print("  criteria:", json.dumps(case["criteria"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default="wikidata12k,yago11k")
    ap.add_argument("--n-bootstrap", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dense", action="store_true", help="also the dense retriever (slow on a shared CPU)")
    ap.add_argument("--keep", default="", help="run folders here (kept; a rerun resumes), else a temporary folder")
    ap.add_argument("--out", default=str(RESULTS))
    args = ap.parse_args()
    if not os.environ.get("CHRONOQA_MIRROR"):
        sys.exit("set CHRONOQA_MIRROR to the mirrored data (e.g. ../shared/data): this measures the real releases")
    with tempfile.TemporaryDirectory(prefix="chronoqa-sep-") as tmp:
        root = Path(args.keep or tmp)
        cases = []
        for ds in args.datasets.split(","):
            cases.append(measure(ds, root / ds, args))
            _print(cases[-1])
    import chronoqa

    out = {
        "benchmark": "separation",
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "loadavg_at_end": [round(x, 2) for x in os.getloadavg()],
        },
        "chronoqa": chronoqa.__version__,
        "n_bootstrap": args.n_bootstrap,
        "seed": args.seed,
        "results": cases,
    }
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
