"""Where a synthetic KG build's peak memory goes: the peak resident memory during each build step and SQL step.

A thread samples the process's resident memory every 50 ms and files it under the step running: the build's
steps (``chronoqa.generate.kg.build.STEPS``) and, within ``run_engine``, the SQL step DuckDB runs (named when it
is rendered, so a step's figure includes fetching the one before it, and ``run_engine`` alone loading the first
run's inputs). DuckDB's own memory is in the figure (``tracemalloc`` would miss it). The synthetic graph is put
in canonical order and its input order dropped before the build, as the CLI and ``bench_build_kg.py`` do. Run:
``python benchmarks/profile_build_memory.py 3000000 [--memory-limit 1GB]`` (before/after: run it with
``PYTHONPATH`` naming each ``src``); it prints JSON (build CPU seconds, the peak, the peak per step in build
order).
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from _proc import peak_mb, rss_mb


def _profile(n_facts: int, memory_limit: str | None) -> dict[str, Any]:
    import chronoqa.generate.kg.build as build_module
    import chronoqa.generate.kg.sql.engines as engines
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
    from chronoqa.generate.kg.order import canonical_graph
    from chronoqa.sources.synthetic import SyntheticConfig, generate

    label = ["load"]
    peaks: dict[str, float] = {}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            key = " / ".join(label)
            peaks[key] = max(peaks.get(key, 0.0), rss_mb())
            time.sleep(0.05)

    def named(step: Callable[[Any], None]) -> Callable[[Any], None]:
        def run(state: Any) -> None:
            label[:] = [step.__name__]
            step(state)

        return run

    render = engines.render

    def render_named(step: Any, dialect: str, params: Any) -> str:
        label[1:] = [step.name]
        return render(step, dialect, params)

    build_module.STEPS = tuple(named(s) for s in build_module.STEPS)
    engines.render = render_named
    threading.Thread(target=sample, daemon=True).start()
    graph = generate(SyntheticConfig.mixed(n_facts)).to_graph(f"synthetic{n_facts}")
    limit = {"engine_memory": memory_limit} if memory_limit else {}
    cfg = KGBuildConfig(n_questions=2000, generic_phrases=True, **limit)
    label[:] = ["canonical_graph"]
    cpu0 = time.process_time()
    graph = canonical_graph(graph, cfg.seed)  # the input order dropped, as the CLI and bench_build_kg.py do
    build = build_kg_benchmark(graph, cfg)
    cpu = time.process_time() - cpu0
    done.set()
    return {
        "facts": n_facts,
        "memory_limit": getattr(cfg, "engine_memory", None) or engines.MEMORY_LIMIT,
        "questions": build.manifest["counts"]["questions"],
        "build_cpu_s": round(cpu, 1),
        "peak_mb": round(peak_mb(), 1),
        "peak_mb_by_step": {k: round(v, 1) for k, v in peaks.items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("facts", type=int)
    ap.add_argument("--memory-limit", help="DuckDB's (KGBuildConfig.engine_memory; default: engines.MEMORY_LIMIT)")
    args = ap.parse_args()
    print(json.dumps(_profile(args.facts, args.memory_limit), indent=1))


if __name__ == "__main__":
    main()
