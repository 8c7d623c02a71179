"""``chronoqa run`` (the whole pipeline in one command) and ``chronoqa answer`` (one answer stage).

Thin layers over :func:`chronoqa.pipeline.run.run_pipeline` and :func:`chronoqa.answer.answer_release`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from chronoqa.cli._progress import one_step, stage_progress
from chronoqa.cli._ui import WaitOption, fail, plain_console, warn
from chronoqa.errors import ChronoqaError

if TYPE_CHECKING:
    from chronoqa.artifacts.summary import Summary

__all__ = ["register"]


def _print_summary(console: Console, summary: Summary) -> None:
    from chronoqa.report import summary_table

    rh, rr, ah, ar = summary_table(summary)
    for title, header, rows in (
        ("Retrieval (value [95% CI]; controls marked)", rh, rr),
        ("Answers (A: a careful judge; A strict: the whole answer must equal a gold one; T: dates; AT: both)", ah, ar),
    ):
        table = Table(title=title, title_justify="left")
        for i, h in enumerate(header):
            table.add_column(h, justify="left" if i == 0 else "right")
        for row in rows:
            table.add_row(*row, style="dim" if "(control" in row[0] else None)
        console.print(table)
    for w in summary.warnings:
        warn(console, w)


def register(app: typer.Typer) -> None:
    """Add ``run`` and ``answer`` to the root app."""
    app.command("run")(run_cmd)
    app.command("answer")(answer_cmd)


def run_cmd(
    dataset: Annotated[str | None, typer.Argument(help="Dataset name (default wikidata12k).")] = None,
    config: Annotated[Path | None, typer.Option("--config", "-c", help="TOML config file.")] = None,
    files: Annotated[str | None, typer.Option(help="Your facts: a HyTE folder or a CSV/TSV/Parquet file.")] = None,
    bench: Annotated[str | None, typer.Option(help="A ready release folder or URI (skips build).")] = None,
    tables: Annotated[
        list[str] | None, typer.Option("--tables", help="Temporal table files: builds a table benchmark.")
    ] = None,
    out: Annotated[str | None, typer.Option("--out", "-o", help="Run folder (default runs/<name>).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of every random choice.")] = None,
    n_questions: Annotated[int | None, typer.Option(help="Questions to build (default: the builder's 10,000).")] = None,
    split: Annotated[str | None, typer.Option(help="Split answered and scored (default test).")] = None,
    retrievers: Annotated[str | None, typer.Option(help="Comma-separated retriever specs.")] = None,
    controls: Annotated[str | None, typer.Option(help="Comma-separated controls ('' for none).")] = None,
    k: Annotated[int | None, typer.Option(help="Facts retrieved per question (default 10).")] = None,
    baselines: Annotated[str | None, typer.Option(help="Offline answerers (default extractive,prior).")] = None,
    llm: Annotated[
        str | None, typer.Option(help="LLM answerer, e.g. 'llm(model=m,base_url=http://127.0.0.1:8080/v1)'.")
    ] = None,
    protocols: Annotated[
        str | None,
        typer.Option(help="Prompt protocols the LLM answers under (default closed_book@1,rag@1; also tdbench_open@1)."),
    ] = None,
    llm_run: Annotated[str | None, typer.Option(help="Run whose facts the rag@1 prompt shows.")] = None,
    limit: Annotated[int | None, typer.Option(min=0, help="Answer only the first N questions (0: all).")] = None,
    n_bootstrap: Annotated[int | None, typer.Option(help="Bootstrap resamples for CIs.")] = None,
    force: Annotated[bool, typer.Option(help="Recompute every stage.")] = False,
    wait: Annotated[
        bool, typer.Option(help="Wait while another run holds the run folder (default: fail at once).")
    ] = False,
) -> None:
    """Fetch → build → retrieve (every reference retriever) → answer → evaluate → report, resumably."""
    from chronoqa.pipeline.config import load_config
    from chronoqa.pipeline.run import run_pipeline

    console = plain_console(stderr=True)
    try:
        cfg = load_config(
            config,
            dataset=dataset,
            files=files,
            bench=bench,
            tables=tables,
            out=out,
            seed=seed,
            split=split,
            retrievers=retrievers,
            controls=controls,
            k=k,
            baselines=baselines,
            llm=llm,
            protocols=protocols,
            llm_run=llm_run,
            limit=limit,
            n_bootstrap=n_bootstrap,
            build=None if n_questions is None else {"n_questions": n_questions},
        )
        with stage_progress(console) as stages:
            result = run_pipeline(cfg, progress=stages, force=force, wait=wait)
    except ChronoqaError as exc:
        fail(exc)
    out_console = plain_console()
    _print_summary(plain_console(width=max(out_console.width, 150)), result.summary)
    console.print(f"run folder: {result.run_dir}\nreport: {result.report_html}\nsummary: {result.report_md}")


def answer_cmd(
    bench: Annotated[Path, typer.Option(help="Benchmark release folder.")],
    out: Annotated[Path, typer.Option(help="Output folder for answers.jsonl + answers.meta.json.")],
    answerer: Annotated[str, typer.Option(help="extractive, prior, fake(...) or llm(model=...,base_url=...).")],
    run: Annotated[Path | None, typer.Option(help="Run file (*.run.jsonl) for answerers that read facts.")] = None,
    split: Annotated[str, typer.Option(help="Split to answer ('all' for every question).")] = "test",
    cache: Annotated[Path | None, typer.Option(help="LLM response cache folder (default <out>/cache).")] = None,
    limit: Annotated[int | None, typer.Option(min=0, help="Answer only the first N questions (0: all).")] = None,
    wait: WaitOption = False,
    max_answer_chars: Annotated[
        int, typer.Option(min=1, help="Longest reply text stored; a longer reply is an error line naming the cap.")
    ] = 100_000,
) -> None:
    """Answer a benchmark's questions with one answerer; writes answers.jsonl and answers.meta.json."""
    from chronoqa.answer import answer_release, make_answerer
    from chronoqa.artifacts.release import load_release
    from chronoqa.outdir import OutputFolder

    console = plain_console(stderr=True)
    try:
        a = make_answerer(answerer)
        rel = load_release(bench)
        n = sum(1 for q in rel.questions if split in ("all", q.split))
        with OutputFolder(out, "answer", wait=wait), one_step(console, "answer", min(n, limit) if limit else n) as tick:
            s = answer_release(
                rel,
                a,
                out,
                run=run,
                split=split,
                cache_dir=cache or (out / "cache"),
                progress=tick,
                limit=limit or None,  # 0: all, as in `chronoqa run`
                max_answer_chars=max_answer_chars,
            )
    except ChronoqaError as exc:
        fail(exc)
    typer.echo(f"{s.n} answers ({', '.join(f'{k} {v}' for k, v in s.by_status.items())}) → {out / 'answers.jsonl'}")
