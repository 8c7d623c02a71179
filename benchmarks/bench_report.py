"""Size and load time of report.html in headless Chromium (target: under 5 MB and under 2 s to interactive).

Two cases: the report of a YAGO11k run (``--run`` an existing run folder, else a fresh run with the cheap
retrievers bm25, bm25_temporal and graph plus the controls), and the same report with its scored questions
tiled to 10,000 (ids suffixed; verdicts copied), which is the size of a 10,000-question test split.
"Interactive" is the explorer's ``cq-ready`` performance mark (the list drawn, every filter filled), measured
from navigation start; ``wall_s`` is navigate-to-ready as the driver sees it. The first load in a fresh
browser (``cold_*``) and the best of ``--repeat`` reloads.
Writes benchmarks/results/report.json.

    CHRONOQA_MIRROR=../shared/data python benchmarks/bench_report.py [--run /tmp/run-y] [--repeat 3]
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

from chronoqa.io import read_json, write_text
from chronoqa.pipeline.config import load_config
from chronoqa.pipeline.run import run_pipeline
from chronoqa.report import build_explorer, build_summary, render_html

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from cdp import Browser, find_chromium

READY = "document.body && document.body.getAttribute('data-explorer') === 'ready'"


def _tile(ex: dict[str, Any], n: int) -> dict[str, Any]:
    qs = ex["questions"]
    out = []
    for i in range(n):
        q = dict(qs[i % len(qs)])
        q["id"] = f"{q['id']}~{i // len(qs)}"
        out.append(q)
    return dict(ex, questions=out)


def _load(exe: str, page: Path, repeat: int) -> dict[str, float]:
    """First load in a fresh browser (cold) and the best of ``repeat`` reloads."""
    out: dict[str, float] = {}
    with Browser(exe) as b:
        for i in range(repeat + 1):
            wall = b.open(page, ready=READY, timeout=60)
            mark = float(b.js("performance.getEntriesByName('cq-ready')[0].startTime")) / 1000
            assert not b.errors, b.errors
            if i == 0:
                out = {"cold_ready_s": round(mark, 3), "cold_wall_s": round(wall, 3)}
            elif "ready_s" not in out or mark < out["ready_s"]:
                out.update(ready_s=round(mark, 3), wall_s=round(wall, 3))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", help="an existing run folder (default: a fresh YAGO11k run with cheap retrievers)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tile", type=int, default=10000)
    args = ap.parse_args()
    exe = find_chromium()
    if exe is None:
        raise SystemExit("chromium not found: apt-get install -y chromium")
    with tempfile.TemporaryDirectory(prefix="chronoqa-bench-report-") as tmp:
        run = Path(args.run) if args.run else Path(tmp) / "run"
        if not args.run:
            cfg = load_config(None, dataset="yago11k", out=str(run), retrievers="bm25,bm25_temporal,graph")
            run_pipeline(cfg)
        release, ev = run / "build", run / "evaluate"
        t0 = time.perf_counter()
        ex = build_explorer(release, ev)
        summary = build_summary(release, ev, config=read_json(run / "config.json"))
        page = render_html(summary, ex)
        render_s = time.perf_counter() - t0
        cases = []
        for name, explorer in (("run", ex), (f"tiled to {args.tile:,}", _tile(ex, args.tile))):
            html = page if explorer is ex else render_html(summary, explorer)
            path = Path(tmp) / f"report-{len(explorer['questions'])}.html"
            write_text(path, html)
            cases.append(
                {
                    "case": name,
                    "questions": len(explorer["questions"]),
                    "systems": len(explorer["systems"]),
                    "bytes": path.stat().st_size,
                    **_load(exe, path, args.repeat),
                }
            )
    out = {
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "load_average": os.getloadavg()[0],
        "render_s": round(render_s, 2),
        "targets": {"bytes": 5_000_000, "ready_s": 2.0},
        "cases": cases,
    }
    path = Path(__file__).parent / "results" / "report.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    for c in cases:
        print(
            f"{c['case']}: {c['questions']:,} questions, {c['bytes'] / 1e6:.2f} MB, ready {c['cold_ready_s']:.2f} s "
            f"cold, {c['ready_s']:.2f} s best reload"
        )


if __name__ == "__main__":
    main()
