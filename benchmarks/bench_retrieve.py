"""Retrieval speed, index build time and memory of the reference retrievers.

Targets: ``bm25`` ≥ 200 queries/s on a 1M-fact corpus on 2 cores; ``graph`` ≥ 100 queries/s on
Wikidata12k. Each measurement runs in its own subprocess so that its peak memory (``ru_maxrss``) is its
own; the index cache lives in a temporary folder, so "build" is a cold build and "load" a warm start.

Corpora:

* ``synthetic-1m``: 1,000,000 facts made here with a seeded RNG (Zipf-like entity popularity, 40
  relation phrases, years 1900-2023), verbalised as ``"<s> <relation> <o> from <y1> to <y2>."``;
  queries are ``"What did <s> <relation> in <year>?"`` for random facts.
* ``wikidata12k``: the 40,621 facts of the mirrored Wikidata12k (``$CHRONOQA_MIRROR/wikidata12k``),
  verbalised here with the hand-typed relation labels (entities are Q-ids: the data has no labels),
  queries ``"What <relation> did <Q-id> have in <year>?"`` from random facts. Pass
  ``--wikidata-bench DIR`` to use a release folder from the KG builder instead.

Run: ``python benchmarks/bench_retrieve.py [--n-docs 1000000] [--n-queries 2000] [--dense-docs 5000]``.
Prints a table and writes ``benchmarks/results/retrieve.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from chronoqa.records import Doc
from chronoqa.retrieve.base import Corpus, RetrievalQuery
from chronoqa.retrieve.runs import paused_gc

RESULTS = Path(__file__).parent / "results" / "retrieve.json"
RELATIONS = [
    "plays for", "is married to", "works at", "lives in", "is member of", "holds position", "owns",
    "is affiliated to", "coaches", "is citizen of", "studies at", "heads", "is located in", "is part of",
    "won award", "created", "is employed by", "leads", "represents", "is allied with", "governs",
    "sponsors", "competes in", "belongs to", "manages", "is partner of", "founded", "directs", "edits",
    "publishes", "teaches at", "performs with", "trains", "advises", "chairs", "hosts", "signs with",
    "is ambassador to", "serves in", "commands",
]  # fmt: skip


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def synthetic_corpus(n: int, seed: int) -> tuple[list[Doc], list[RetrievalQuery]]:
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = ["".join(rng.choice(letters, size=int(rng.integers(4, 9)))).capitalize() for _ in range(8000)]
    n_ent = max(1000, n // 4)
    first = rng.integers(0, len(words), n_ent)
    last = rng.integers(0, len(words), n_ent)
    names = [f"{words[a]} {words[b]}" for a, b in zip(first, last, strict=True)]
    weights = 1.0 / np.arange(1, n_ent + 1) ** 0.8
    weights /= weights.sum()
    s = rng.choice(n_ent, size=n, p=weights)
    o = rng.choice(n_ent, size=n, p=weights)
    r = rng.integers(0, len(RELATIONS), n)
    y1 = rng.integers(1900, 2020, n)
    y2 = y1 + rng.integers(0, 12, n)
    docs = [
        Doc(f"F{i}", f"{names[s[i]]} {RELATIONS[r[i]]} {names[o[i]]} from {y1[i]} to {y2[i]}.", names[s[i]],
            RELATIONS[r[i]], names[o[i]], str(y1[i]), str(y2[i]), f"E{s[i]}", f"R{r[i]}", f"E{o[i]}", i)
        for i in range(n)
    ]  # fmt: skip
    return docs, []


def synthetic_queries(docs: list[Doc], n: int, seed: int) -> list[RetrievalQuery]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        d = docs[rng.randrange(len(docs))]
        year = int(d.t_start or 2000) + rng.randint(0, 3)
        out.append(RetrievalQuery(f"q{i}", f"What did {d.s} {d.r} in {year}?"))
    return out


def wikidata_corpus(mirror: Path) -> list[Doc]:
    from chronoqa.datasets import wikidata12k

    g = wikidata12k.load(mirror / "wikidata12k")
    docs = []
    for f in g.facts:
        rel = g.relation_label(f.r)
        a = None if f.start is None else f.start.isoformat()
        b = None if f.end is None else f.end.isoformat()
        when = f" from {a} to {b}" if a and b else f" since {a}" if a else f" until {b}" if b else ""
        docs.append(Doc(f"F{f.id}", f"{f.s} {rel} {f.o}{when}.", f.s, rel, f.o, a, b, f.s, f.r, f.o, f.id))
    return docs


def wikidata_queries(docs: list[Doc], n: int, seed: int) -> list[RetrievalQuery]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        d = docs[rng.randrange(len(docs))]
        year = int(d.t_start or d.t_end or 2000)
        out.append(RetrievalQuery(f"q{i}", f"What {d.r} did {d.s} have in {year}?"))
    return out


def release_corpus(path: Path, n: int) -> tuple[list[Doc], list[RetrievalQuery]]:
    from chronoqa.artifacts.release import load_release
    from chronoqa.retrieve import query_from_question

    rel = load_release(path)
    return list(rel.corpus), [query_from_question(q) for q in rel.questions[:n]]


def phase(args: argparse.Namespace) -> dict[str, Any]:
    """One measurement (runs in a subprocess)."""
    from chronoqa.retrieve.registry import REGISTRY, BuildContext

    t0 = time.perf_counter()
    if args.corpus == "synthetic":
        docs, _ = synthetic_corpus(args.n_docs, args.seed)
        queries = synthetic_queries(docs, args.n_queries, args.seed + 1)
    elif args.wikidata_bench:
        docs, queries = release_corpus(Path(args.wikidata_bench), args.n_queries)
    else:
        docs = wikidata_corpus(Path(os.environ.get("CHRONOQA_MIRROR", "../shared/data")))
        queries = wikidata_queries(docs, args.n_queries, args.seed + 1)
    if args.limit_docs:
        docs = docs[: args.limit_docs]
        queries = queries[: max(1, min(len(queries), args.limit_docs // 10))]
    t_corpus = time.perf_counter() - t0
    rss_corpus = rss_mb()
    corpus = Corpus(docs, f"{args.corpus}-{len(docs)}-{args.seed}".ljust(64, "0"), Path(args.cache))
    ctx = BuildContext(corpus)
    with paused_gc():  # as run_retrieval does
        t1 = time.perf_counter()
        retriever = REGISTRY.build(args.spec, ctx)
        t_build = time.perf_counter() - t1
        rss_built = rss_mb()
        t2 = time.perf_counter()
        retriever = REGISTRY.build(args.spec, BuildContext(corpus))  # warm: index loaded from the cache
        t_load = time.perf_counter() - t2
        retriever.retrieve(queries[:5], args.k)  # warm-up
        t3, c3 = time.perf_counter(), time.process_time()
        hits = []
        for start in range(0, len(queries), 256):
            hits.extend(retriever.retrieve(queries[start : start + 256], args.k))
        t_query, c_query = time.perf_counter() - t3, time.process_time() - c3
    return {
        "spec": args.spec,
        "corpus": args.corpus if not args.wikidata_bench else f"release:{args.wikidata_bench}",
        "n_docs": len(docs),
        "n_queries": len(queries),
        "k": args.k,
        "corpus_make_s": round(t_corpus, 2),
        "build_s": round(t_build, 2),
        "load_cached_s": round(t_load, 2),
        "query_s": round(t_query, 3),
        "queries_per_s": round(len(queries) / t_query, 1),
        "cpu_ms_per_query": round(1000 * c_query / len(queries), 3),
        "queries_per_cpu_s": round(len(queries) / c_query, 1),
        "load_average_1m": round(os.getloadavg()[0], 2),
        "mean_hits": round(sum(len(h) for h in hits) / max(1, len(hits)), 1),
        "rss_after_corpus_mb": round(rss_corpus, 1),
        "rss_peak_mb": round(rss_mb(), 1),
        "rss_peak_build_mb": round(rss_built, 1),
        "index_mem_mb_approx": round(rss_built - rss_corpus, 1),
        "index_disk_mb": round(_du(Path(args.cache)) / 2**20, 1),
    }


def _du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


PLAN: list[tuple[str, str, dict[str, Any]]] = [
    ("bm25 on synthetic 1M", "synthetic", {"spec": "bm25"}),
    ("bm25_temporal on synthetic 1M", "synthetic", {"spec": "bm25_temporal", "n_queries_div": 2}),
    ("bm25 on wikidata12k", "wikidata", {"spec": "bm25"}),
    ("bm25_temporal on wikidata12k", "wikidata", {"spec": "bm25_temporal"}),
    ("graph on wikidata12k", "wikidata", {"spec": "graph"}),
    ("hybrid(bm25,graph) on wikidata12k", "wikidata", {"spec": "hybrid(bm25,graph)"}),
    ("dense on wikidata12k (subset)", "wikidata", {"spec": "dense", "dense": True}),
    ("dense(backend=onnx) on wikidata12k (subset)", "wikidata", {"spec": "dense(backend=onnx)", "dense": True}),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-docs", type=int, default=1_000_000)
    ap.add_argument("--n-queries", type=int, default=2000)
    ap.add_argument("--dense-docs", type=int, default=5000, help="corpus size for the dense build (0: skip)")
    ap.add_argument("--k", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--wikidata-bench", default="", help="a Wikidata12k release folder from the KG builder")
    ap.add_argument("--only", default="", help="run only plan entries whose title contains this")
    ap.add_argument("--phase", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--spec", default="bm25", help=argparse.SUPPRESS)
    ap.add_argument("--corpus", default="synthetic", help=argparse.SUPPRESS)
    ap.add_argument("--cache", default="", help=argparse.SUPPRESS)
    ap.add_argument("--limit-docs", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.phase:
        print(json.dumps(phase(args)))
        return
    rows = []
    for title, corpus, opts in PLAN:
        if args.only and args.only not in title:
            continue
        if opts.get("dense") and args.dense_docs <= 0:
            continue
        with tempfile.TemporaryDirectory(prefix="chronoqa-bench-") as cache:
            n_q = args.n_queries // opts.get("n_queries_div", 1)
            cmd = [sys.executable, __file__, "--phase", "--spec", opts["spec"], "--corpus", corpus, "--cache", cache,
                   "--n-docs", str(args.n_docs), "--n-queries", str(n_q), "--k", str(args.k),
                   "--seed", str(args.seed)]  # fmt: skip
            if args.wikidata_bench and corpus == "wikidata":
                cmd += ["--wikidata-bench", args.wikidata_bench]
            if opts.get("dense"):
                cmd += ["--limit-docs", str(args.dense_docs)]
            out = subprocess.run(
                cmd, check=True, capture_output=True, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"}
            )
            row = {"title": title, **json.loads(out.stdout.strip().splitlines()[-1])}
        rows.append(row)
        print(
            f"{title:44s} docs={row['n_docs']:>8,} build={row['build_s']:>7.1f}s load={row['load_cached_s']:>5.2f}s "
            f"q/s={row['queries_per_s']:>8.1f} (cpu {row['queries_per_cpu_s']:>7.1f}) "
            f"peak_rss={row['rss_peak_mb']:>7.0f}MB index≈{row['index_mem_mb_approx']:>6.0f}MB "
            f"disk={row['index_disk_mb']:>6.1f}MB",
            flush=True,
        )
    result = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "targets": {"bm25_1m_qps": 200, "graph_wikidata12k_qps": 100},
        "rows": rows,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    from chronoqa.io import write_json

    write_json(RESULTS, result)
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
