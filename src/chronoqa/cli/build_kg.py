"""``chronoqa build kg``: build a TempBench-style release folder from a temporal KG (thin over the library)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

__all__ = ["register"]


def _folder_checksums(folder: Path) -> dict[str, str]:
    from chronoqa.io import sha256_file

    if folder.is_file():
        return {folder.name: sha256_file(folder)}
    return {p.name: sha256_file(p) for p in sorted(folder.iterdir()) if p.is_file()}


def build_kg_command(
    out: Annotated[
        str, typer.Option("--out", help="Release folder to write: a path or a URI (s3://, gs://, hdfs://, file://).")
    ],
    dataset: Annotated[str | None, typer.Option(help="Named dataset: yago11k or wikidata12k.")] = None,
    input_folder: Annotated[
        str | None,
        typer.Option("--input", help="A TKG folder or file to read instead: a path or a URI (s3://, gs://, ...)."),
    ] = None,
    fmt: Annotated[
        str | None, typer.Option("--format", help="Format of --input: hyte, tgb or quintuples (default: detected).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    n_questions: Annotated[int, typer.Option(help="Number of questions.")] = 10_000,
    granularity: Annotated[str, typer.Option(help="Question granularity: year, month or day.")] = "year",
    expand_years: Annotated[bool, typer.Option(help="Per-year mode: one point fact per year.")] = False,
    as_of: Annotated[str, typer.Option(help="The explicit 'now' for open-ended states.")] = "2026-01-01",
    phrases: Annotated[str | None, typer.Option(help="Phrase table TOML (default: the shipped one).")] = None,
    labels: Annotated[Path | None, typer.Option(help="Entity labels TSV (id<TAB>label).")] = None,
    keep_multi_answer: Annotated[bool, typer.Option(help="Keep multi-answer questions, labelled.")] = False,
    generic_phrases: Annotated[bool, typer.Option(help="Generic phrasing for relations without phrases.")] = False,
    max_hops: Annotated[int, typer.Option(help="Longest chain (1-4).")] = 3,
    open_end: Annotated[
        str | None,
        typer.Option(
            "--open-end",
            help="Reading of a state with a start and no end: 'ongoing' (holds until --as-of) or 'unknown' "
            "(certain only in its start unit). Default: the phrase table's (yago11k unknown, wikidata12k ongoing).",
        ),
    ] = None,
    allow_ids: Annotated[
        bool,
        typer.Option(
            "--allow-ids",
            help="Build even when entities have no readable label (their raw ids then appear in questions and the "
            "corpus); by default such a build fails naming the ids.",
        ),
    ] = False,
    on_bad_row: Annotated[
        str, typer.Option(help="Bad rows of --input: 'raise' (stop at the first) or 'skip' (skip and count).")
    ] = "raise",
    ignore_not_years: Annotated[
        bool,
        typer.Option(
            "--ignore-not-years",
            help="Disable the phrase table's [not_years] data-quality setting (numbers read as years, e.g. "
            "yago11k's 'Xbox 360' and ownership '100'): facts dated in them are then used like any other.",
        ),
    ] = False,
    corpus_format: Annotated[
        str,
        typer.Option("--corpus-format", help="Corpus file(s) of the release: 'jsonl' (default), 'parquet' or 'both'."),
    ] = "jsonl",
    engine: Annotated[
        str,
        typer.Option(
            "--engine",
            help="What runs the build's SQL steps: duckdb (in process, the default) or spark (the same SQL on "
            "Apache Spark, local[2]; needs chronoqa\\[spark] and Java 17). The release is the same bytes with "
            "either engine.",
        ),
    ] = "duckdb",
) -> None:
    """Build a multi-hop temporal QA benchmark (TempBench layout) from a temporal knowledge graph."""
    from rich.table import Table

    from chronoqa.cli._ui import fail, plain_console, task_progress
    from chronoqa.errors import check_policy
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
    from chronoqa.generate.kg.datacard import OPERATOR_NAMES
    from chronoqa.records import COMPLEXITIES
    from chronoqa.sources.labels import read_entity_labels
    from chronoqa.time import parse_time

    console = plain_console(stderr=True)
    from chronoqa.artifacts.release import CORPUS_FORMATS

    if corpus_format not in CORPUS_FORMATS:
        raise typer.BadParameter(f"expected one of {', '.join(CORPUS_FORMATS)}", param_hint="--corpus-format")
    if (dataset is None) == (input_folder is None):
        raise typer.BadParameter("give exactly one of --dataset NAME or --input FOLDER")
    from chronoqa.artifacts.remote import check_release_target, publish_release, staged_input

    check_release_target(out)  # a local file refused; a URI reached now, before the build
    config = KGBuildConfig(
        seed=seed,
        n_questions=n_questions,
        granularity=granularity,
        expand_years=expand_years,
        as_of=as_of,
        keep_multi_answer=keep_multi_answer,
        generic_phrases=generic_phrases,
        max_hops=max_hops,
        open_end=open_end,
        not_years={} if ignore_not_years else None,
        allow_ids=allow_ids,
        engine=engine,
    )
    t0 = time.perf_counter()
    as_of_point = parse_time(as_of, field="as_of")
    sources: dict[str, Any]
    if dataset is not None:
        from chronoqa import datasets

        graph = datasets.load_graph(dataset, on_bad_row="skip", as_of=as_of_point)
        try:
            sources = {"dataset": dataset, "sha256": _folder_checksums(Path(datasets.fetch(dataset)))}
        except Exception as exc:  # provenance only: never fail the build for it
            sources = {"dataset": dataset, "sha256": None, "note": f"checksums unavailable: {exc}"}
    else:
        assert input_folder is not None
        from chronoqa.sources import detect_format, read_graph

        with staged_input(input_folder) as staged:  # a URI: downloaded under its own name, named as the URI
            fmt = fmt or detect_format(staged.path)
            policy = check_policy(on_bad_row)
            graph = read_graph(staged.path, fmt, on_bad_row=policy, on_reversed="keep", as_of=as_of_point)
            staged.relabel(graph.report)
            sources = {"input": staged.path.name, "format": fmt, "sha256": _folder_checksums(staged.path)}
    extra = read_entity_labels(labels) if labels is not None else None
    if labels is not None:
        from chronoqa.io import sha256_file

        sources["labels"] = {"file": labels.name, "sha256": sha256_file(labels)}
    t_load = time.perf_counter() - t0
    from chronoqa.generate.kg.order import canonical_graph

    # the build's content order, here, so that the input order is dropped: one copy of the facts in memory
    graph = canonical_graph(graph, seed)
    with task_progress(console, label="questions") as bar:
        task = bar.add_task("build", total=n_questions)
        build = build_kg_benchmark(
            graph,
            config,
            phrases=phrases,
            entity_labels=extra,
            sources=sources,
            progress=lambda done, total: bar.update(task, completed=done),
        )
    if not build.questions:
        rep = graph.report
        why = f", {len(rep.skipped)} rows skipped {rep.skipped_by_reason()}" if rep and rep.skipped else ""
        fail(
            f"the build yielded no question ({len(graph)} facts loaded{why}): check the input, or run with "
            "--on-bad-row raise to stop at the first bad row. Nothing was written"
        )
    folder = publish_release(out, lambda local: build.write(local, corpus_format=corpus_format))
    if graph.report is not None and graph.report.skipped:
        rep = graph.report
        console.print(
            f"skipped {len(rep.skipped)} bad rows of the input (counted, not loaded): {rep.skipped_by_reason()}"
        )
    elapsed = time.perf_counter() - t0
    counts = build.manifest["counts"]
    table = Table(title=f"{graph.name}: {counts['questions']:,} questions → {folder}")
    table.add_column("Operator")
    for cx in (*COMPLEXITIES, "Total"):
        table.add_column(cx, justify="right")
    col = dict.fromkeys(COMPLEXITIES, 0)
    for op, row in counts["composition"].items():
        for cx in COMPLEXITIES:
            col[cx] += row[cx]
        table.add_row(OPERATOR_NAMES.get(op, op), *(f"{row[cx]:,}" for cx in COMPLEXITIES), f"{sum(row.values()):,}")
    table.add_row("Total", *(f"{col[cx]:,}" for cx in COMPLEXITIES), f"{sum(col.values()):,}", style="bold")
    console.print(table)
    rates = build.manifest["functional_rates"]
    console.print(
        f"splits {counts['splits']} · dist_functional {rates['dist_functional']:.1%} · "
        f"stale_functional {rates['stale_functional']:.1%} · "
        f"open end {build.manifest['open_end']['reading']} · "
        f"non-year facts {build.manifest['not_years']['facts']:,} · leaks {build.manifest['audit']['leaks']} · "
        f"index engine {build.stats.get('engine', engine)} · load {t_load:.1f}s · total {elapsed:.1f}s"
    )


def register(app: typer.Typer) -> None:
    """Add ``kg`` to the ``build`` group."""
    app.command("kg")(build_kg_command)
