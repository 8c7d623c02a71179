"""``chronoqa retrieve``: run reference retrievers over a benchmark release and write run files.

A thin layer over :func:`chronoqa.retrieve.run_retrieval`: progress while it runs (on stderr: a bar per
retriever and per corpus encoding on a terminal; in a log, a line when each retriever starts and ends, with
its seconds, and a count line now and then during a long encoding), a summary table at the end (with a
quick recall@10 of S*; ``chronoqa evaluate`` computes the real metrics).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from chronoqa.artifacts.runs import read_timing
from chronoqa.cli._progress import StageBars, StageLog, one_step_result, stage_progress
from chronoqa.cli._ui import WaitOption, fail, plain_console
from chronoqa.errors import ChronoqaError
from chronoqa.outdir import OutputFolder

__all__ = ["register"]


class _Counters:
    """``run_retrieval``'s callbacks shown as stages: one per retriever, one per corpus it encodes."""

    def __init__(self, shown: StageBars | StageLog) -> None:
        self.shown = shown
        self.ticks: dict[str, tuple[list[int], Callable[[int], None], float]] = {}

    def _count(self, label: str, done: int, total: int, *, stage: bool) -> None:
        if label not in self.ticks:
            if stage:
                self.shown.begin(label)
            self.ticks[label] = ([0], self.shown.start(label, total), time.perf_counter())
        seen, tick, t0 = self.ticks[label]
        tick(done - seen[0])
        seen[0] = done
        if stage and done >= total:
            self.shown.finish(label, one_step_result(time.perf_counter() - t0))

    def retrieving(self, spec: str, done: int, total: int) -> None:
        """Questions answered by the retriever ``spec``."""
        self._count(spec, done, total, stage=True)

    def encoding(self, spec: str, done: int, total: int) -> None:
        """Corpus texts encoded while ``spec`` is built."""
        self._count(f"{spec}: encoding corpus", done, total, stage=False)


def register(app: typer.Typer) -> None:
    """Add the ``retrieve`` command to the root app."""

    @app.command("retrieve")
    def retrieve_cmd(
        bench: Annotated[Path | None, typer.Option("--bench", help="Benchmark release folder.")] = None,
        retriever: Annotated[
            list[str] | None,
            typer.Option("--retriever", "-r", help='Retriever spec, repeatable, e.g. "bm25(k1=0.9,b=0.4)".'),
        ] = None,
        out: Annotated[Path | None, typer.Option("--out", help="Folder for the run files.")] = None,
        k: Annotated[int, typer.Option("--k", help="Hits per question.")] = 100,
        split: Annotated[str | None, typer.Option("--split", help="Only this split (train/dev/test).")] = None,
        no_reuse: Annotated[
            bool, typer.Option("--no-reuse", help="Recompute even if an identical run exists.")
        ] = False,
        list_: Annotated[bool, typer.Option("--list", help="List the registered retrievers and exit.")] = False,
        wait: WaitOption = False,
    ) -> None:
        """Run retrievers (bm25, bm25_temporal, graph, dense, hybrid, controls) and write run files."""
        from chronoqa.artifacts.release import load_release
        from chronoqa.retrieve import gold_recall, run_retrieval

        console = plain_console()
        if list_:
            _print_registry(console)
            return
        if bench is None or out is None or not retriever:
            raise typer.BadParameter("give --bench, --out and at least one --retriever (or --list)")
        try:
            release = load_release(bench)
            with stage_progress(plain_console(stderr=True)) as shown:
                counters = _Counters(shown)
                with OutputFolder(out, "retrieve", wait=wait):
                    results = run_retrieval(
                        release,
                        retriever,
                        out,
                        k=k,
                        split=split,
                        reuse=not no_reuse,
                        progress=counters.retrieving,
                        encoding=counters.encoding,
                    )
        except (ChronoqaError, ValueError) as exc:
            fail(exc)
        questions = list(release.questions) if split is None else release.split(split)
        table = Table(title=f"retrieval runs → {out}", title_justify="left")
        for col in ("retriever", "control", "questions", "mean hits", "R@10 S*", "seconds", "q/s", "reused", "file"):
            table.add_column(col, justify="left" if col in ("retriever", "file") else "right")
        for r in results:
            mean_hits = sum(len(line.hits) for line in r.run) / max(1, len(r.run))
            rec = gold_recall(r.run, questions, 10)
            qps = read_timing(r.path).get("queries_per_s")
            table.add_row(
                r.spec,
                "yes" if r.control else "",
                str(r.n_questions),
                f"{mean_hits:.1f}",
                "–" if rec is None else f"{rec:.3f}",
                f"{r.seconds:.1f}",
                "–" if qps is None else f"{qps:.0f}",
                "yes" if r.reused else "",
                r.path.name,
            )
        console.print(table)

    def _print_registry(console: Console) -> None:
        from chronoqa.retrieve import REGISTRY

        table = Table(title="retrievers", title_justify="left")
        for col in ("name", "control", "parameters (defaults)", "what"):
            table.add_column(col)
        for name in REGISTRY.names():
            info = REGISTRY.info(name)
            params = ",".join(f"{k}={v}" for k, v in info.defaults.items())
            table.add_row(name, "yes" if info.control else "", params, info.summary)
        console.print(table)
