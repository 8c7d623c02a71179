"""``chronoqa retrieve``: run reference retrievers over a benchmark release and write run files.

A thin layer over :func:`chronoqa.retrieve.run_retrieval`: progress bars while it runs, a summary
table at the end (with a quick recall@10 of S*; ``chronoqa evaluate`` computes the real metrics).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import TaskID
from rich.table import Table

from chronoqa.artifacts.runs import read_timing
from chronoqa.cli._ui import fail, plain_console, task_progress
from chronoqa.errors import ChronoqaError
from chronoqa.outdir import OutputFolder

__all__ = ["register"]

_WAIT_HELP = "Wait while another chronoqa command holds the folder (default: fail at once)."


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
        wait: Annotated[bool, typer.Option(help=_WAIT_HELP)] = False,
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
            with task_progress(console, transient=True) as bar:
                tasks: dict[str, TaskID] = {}

                def progress(spec: str, done: int, total: int) -> None:
                    if spec not in tasks:
                        tasks[spec] = bar.add_task(spec, total=total)
                    bar.update(tasks[spec], completed=done)

                with OutputFolder(out, "retrieve", wait=wait):
                    results = run_retrieval(
                        release, retriever, out, k=k, split=split, reuse=not no_reuse, progress=progress
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
