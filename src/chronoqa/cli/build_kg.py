"""``chronoqa build kg``: build a TempBench-style release folder from a temporal KG (thin over the library)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from chronoqa.cli._ui import CorpusFormatOption, WaitOption

if TYPE_CHECKING:
    from rich.console import Console

    from chronoqa.generate.kg import KGBuild, KGBuildConfig
    from chronoqa.records import TemporalGraph

__all__ = ["register"]

Out = Annotated[
    str, typer.Option("--out", help="Release folder to write: a path or a URI (s3://, gs://, hdfs://, file://).")
]
Dataset = Annotated[str | None, typer.Option(help="Named dataset: yago11k or wikidata12k.")]
InputFolder = Annotated[
    str | None,
    typer.Option(
        "--input",
        help="A TKG folder or file to read instead: a path or a URI (s3://, gs://, ...). Your own facts: a "
        "CSV/TSV/Parquet file with a header and one fact per row, columns subject, relation, object, start, "
        "end (e.g. 'Q42<TAB>worksFor<TAB>Q95<TAB>2005<TAB>2009'; an empty end is open-ended), optional "
        "s_label, r_label, o_label; other column names: --columns. See docs/kg-builder.md.",
    ),
]
Columns = Annotated[
    str | None,
    typer.Option(
        "--columns",
        help="Which columns of a quintuple --input hold each role, by header name or 0-based position: "
        "'subject=head,relation=rel,object=tail,start=from,end=until' or 'subject=0,relation=1,object=2,"
        "start=3,end=4' (also s_label, r_label, o_label). Roles not given are found by common names.",
    ),
]
OnReversed = Annotated[
    str,
    typer.Option(
        "--on-reversed",
        help="A fact of --input whose end is before its start: 'keep' (valid at no time, counted), 'swap' "
        "(start and end exchanged, counted), 'skip' (skipped and counted) or 'raise' (stop at the first).",
    ),
]
Format = Annotated[
    str | None, typer.Option("--format", help="Format of --input: hyte, tgb or quintuples (default: detected).")
]
Seed = Annotated[int, typer.Option(help="Seed of every random choice.")]
NQuestions = Annotated[int, typer.Option(min=1, help="Number of questions.")]
GranularityOpt = Annotated[str, typer.Option(help="Question granularity: year, month or day.")]
ExpandYears = Annotated[bool, typer.Option(help="Per-year mode: one point fact per year.")]
AsOf = Annotated[str, typer.Option(help="The explicit 'now' for open-ended states.")]
Phrases = Annotated[str | None, typer.Option(help="Phrase table TOML (default: the shipped one).")]
Labels = Annotated[Path | None, typer.Option(help="Entity labels TSV (id<TAB>label).")]
KeepMulti = Annotated[bool, typer.Option(help="Keep multi-answer questions, labelled.")]
GenericPhrases = Annotated[bool, typer.Option(help="Generic phrasing for relations without phrases.")]
MaxHops = Annotated[int, typer.Option(help="Longest chain (1-4).")]
OpenEnd = Annotated[
    str | None,
    typer.Option(
        "--open-end",
        help="Reading of a state with a start and no end: 'ongoing' (holds until --as-of) or 'unknown' "
        "(certain only in its start unit). Default: the phrase table's (yago11k unknown, wikidata12k ongoing).",
    ),
]
AllowIds = Annotated[
    bool,
    typer.Option(
        "--allow-ids",
        help="Build even when entities have no readable label (their raw ids then appear in questions and the "
        "corpus); by default such a build fails naming the ids.",
    ),
]
OnBadRow = Annotated[
    str, typer.Option(help="Bad rows of --input: 'raise' (stop at the first) or 'skip' (skip and count).")
]
IgnoreNotYears = Annotated[
    bool,
    typer.Option(
        "--ignore-not-years",
        help="Disable the phrase table's [not_years] data-quality setting (numbers read as years, e.g. "
        "yago11k's 'Xbox 360' and ownership '100'): facts dated in them are then used like any other.",
    ),
]
Engine = Annotated[
    str,
    typer.Option(
        "--engine",
        help="What runs the build's SQL steps: duckdb (in process, the default) or spark (the same SQL on "
        "Apache Spark, local[2]; needs chronoqa\\[spark] and Java 17). The release is the same bytes with "
        "either engine.",
    ),
]


def _folder_checksums(folder: Path) -> dict[str, str]:
    from chronoqa.io import sha256_file

    if folder.is_file():
        return {folder.name: sha256_file(folder)}
    return {p.name: sha256_file(p) for p in sorted(folder.iterdir()) if p.is_file()}


def _load_dataset(dataset: str, as_of: str) -> tuple[TemporalGraph, dict[str, Any]]:
    """A named dataset's graph and its provenance (checksums of its files when they can be read)."""
    from chronoqa import datasets
    from chronoqa.time import parse_time

    graph = datasets.load_graph(dataset, on_bad_row="skip", as_of=parse_time(as_of, field="as_of"))
    try:
        sources: dict[str, Any] = {"dataset": dataset, "sha256": _folder_checksums(Path(datasets.fetch(dataset)))}
    except Exception as exc:  # provenance only: never fail the build for it
        sources = {"dataset": dataset, "sha256": None, "note": f"checksums unavailable: {exc}"}
    return graph, sources


def _load_input(
    input_folder: str, fmt: str | None, on_bad_row: str, as_of: str, columns: str | None, on_reversed: str
) -> tuple[TemporalGraph, dict[str, Any]]:
    """The graph of ``--input`` (a path or a URI, staged under its own name) and its provenance."""
    from chronoqa.artifacts.remote import staged_input
    from chronoqa.errors import ChronoqaError, check_policy
    from chronoqa.sources import detect_format, read_graph
    from chronoqa.sources._common import check_reversed_policy
    from chronoqa.sources.quintuples import parse_columns
    from chronoqa.time import parse_time

    if on_reversed not in ("keep", "swap", "skip", "raise"):
        raise ChronoqaError(f"--on-reversed {on_reversed!r}: expected keep, swap, skip or raise")
    mapping = None if columns is None else parse_columns(columns)
    with staged_input(input_folder) as staged:  # a URI: downloaded under its own name, named as the URI
        fmt = fmt or detect_format(staged.path)
        if mapping is not None and fmt != "quintuples":
            raise ChronoqaError(
                f"--columns maps the columns of a quintuple file, but --input {input_folder} is read as {fmt}: "
                "drop --columns, or give --format quintuples if the file holds one fact per row"
            )
        policy = check_policy(on_bad_row)
        as_of_point = parse_time(as_of, field="as_of")
        options: dict[str, Any] = {"on_bad_row": policy, "on_reversed": check_reversed_policy(on_reversed)}
        if mapping is not None:
            options["columns"] = mapping
        graph = read_graph(staged.path, fmt, as_of=as_of_point, **options)
        staged.relabel(graph.report)
        sources = {"input": staged.path.name, "format": fmt, "sha256": _folder_checksums(staged.path)}
    return graph, sources


def _build(
    console: Console,
    graph: TemporalGraph,
    config: KGBuildConfig,
    phrases: str | None,
    labels: Path | None,
    sources: dict[str, Any],
) -> KGBuild:
    """The build with a progress bar; extra labels read from ``labels`` (recorded in ``sources``)."""
    from chronoqa.cli._progress import one_step
    from chronoqa.generate.kg import build_kg_benchmark
    from chronoqa.sources.labels import read_entity_labels

    extra = read_entity_labels(labels) if labels is not None else None
    if labels is not None:
        from chronoqa.io import sha256_file

        sources["labels"] = {"file": labels.name, "sha256": sha256_file(labels)}
    shown = [0]
    with one_step(console, "questions", config.n_questions) as tick:

        def advance(done: int, total: int) -> None:
            tick(max(0, done - shown[0]))
            shown[0] = max(shown[0], done)

        return build_kg_benchmark(
            graph, config, phrases=phrases, entity_labels=extra, sources=sources, progress=advance
        )


def _print_summary(console: Console, build: KGBuild, graph: TemporalGraph, folder: Any, times: str) -> None:
    """The composition table and one line of rates, readings and times."""
    from rich.table import Table

    from chronoqa.generate.kg.datacard import SPLIT_ORDER, operator_title
    from chronoqa.records import COMPLEXITIES

    counts = build.manifest["counts"]
    table = Table(title=f"{graph.name}: {counts['questions']:,} questions → {folder}")
    table.add_column("Operator")
    for cx in (*COMPLEXITIES, "Total"):
        table.add_column(cx, justify="right")
    col = dict.fromkeys(COMPLEXITIES, 0)
    for op, row in counts["composition"].items():
        for cx in COMPLEXITIES:
            col[cx] += row[cx]
        table.add_row(operator_title(op), *(f"{row[cx]:,}" for cx in COMPLEXITIES), f"{sum(row.values()):,}")
    table.add_row("Total", *(f"{col[cx]:,}" for cx in COMPLEXITIES), f"{sum(col.values()):,}", style="bold")
    console.print(table)
    m = build.manifest
    rates = m["functional_rates"]
    splits = {k: counts["splits"].get(k, 0) for k in SPLIT_ORDER}
    console.print(
        f"splits {splits} · dist_functional {rates['dist_functional']:.1%} · "
        f"stale_functional {rates['stale_functional']:.1%} · open end {m['open_end']['reading']} · "
        f"non-year facts {m['not_years']['facts']:,} · leaks {m['audit']['leaks']} · "
        f"index engine {build.stats.get('engine')} · {times}"
    )


def build_kg_command(
    out: Out,
    dataset: Dataset = None,
    input_folder: InputFolder = None,
    fmt: Format = None,
    columns: Columns = None,
    on_reversed: OnReversed = "keep",
    seed: Seed = 0,
    n_questions: NQuestions = 10_000,
    granularity: GranularityOpt = "year",
    expand_years: ExpandYears = False,
    as_of: AsOf = "2026-01-01",
    phrases: Phrases = None,
    labels: Labels = None,
    keep_multi_answer: KeepMulti = False,
    generic_phrases: GenericPhrases = False,
    max_hops: MaxHops = 3,
    open_end: OpenEnd = None,
    allow_ids: AllowIds = False,
    on_bad_row: OnBadRow = "raise",
    ignore_not_years: IgnoreNotYears = False,
    corpus_format: CorpusFormatOption = "jsonl",
    engine: Engine = "duckdb",
    wait: WaitOption = False,
) -> None:
    """Build a multi-hop temporal QA benchmark (TempBench layout) from a temporal knowledge graph."""
    from chronoqa._gc import freeze_survivors
    from chronoqa.artifacts.release import CORPUS_FORMATS
    from chronoqa.artifacts.remote import check_release_target, hold_release_target, publish_release
    from chronoqa.cli._ui import fail, plain_console
    from chronoqa.generate.kg import KGBuildConfig
    from chronoqa.generate.kg.order import canonical_graph

    console = plain_console(stderr=True)
    if corpus_format not in CORPUS_FORMATS:
        raise typer.BadParameter(f"expected one of {', '.join(CORPUS_FORMATS)}", param_hint="--corpus-format")
    if (dataset is None) == (input_folder is None):
        raise typer.BadParameter("give exactly one of --dataset NAME or --input FOLDER")
    if dataset is not None and columns is not None:
        raise typer.BadParameter("--columns maps the columns of your own --input file, not of a --dataset")
    with hold_release_target(out, wait=wait):  # a local --out: locked for the whole build
        check_release_target(out)  # a local file refused; a URI reached now, before the build
        config = KGBuildConfig(
            seed=seed, n_questions=n_questions, granularity=granularity, expand_years=expand_years, as_of=as_of,
            keep_multi_answer=keep_multi_answer, generic_phrases=generic_phrases, max_hops=max_hops, open_end=open_end,
            not_years={} if ignore_not_years else None, allow_ids=allow_ids, engine=engine,
        )  # fmt: skip
        t0 = time.perf_counter()
        if dataset is not None:
            graph, sources = _load_dataset(dataset, as_of)
        else:
            assert input_folder is not None
            graph, sources = _load_input(input_folder, fmt, on_bad_row, as_of, columns, on_reversed)
        t_load = time.perf_counter() - t0
        # the build's content order, here, so that the input order is dropped: one copy of the facts in memory
        graph = canonical_graph(graph, seed)
        freeze_survivors()  # the modules and the graph outlive the build: its full collections need not walk them
        build = _build(console, graph, config, phrases, labels, sources)
        rep = graph.report
        if not build.questions:
            why = f", {len(rep.skipped)} rows skipped {rep.skipped_by_reason()}" if rep and rep.skipped else ""
            fail(
                f"the build yielded no question ({len(graph)} facts loaded{why}): check the input, or run with "
                "--on-bad-row raise to stop at the first bad row. Nothing was written"
            )
        folder = publish_release(out, lambda local: build.write(local, corpus_format=corpus_format))
    if rep is not None and rep.skipped:
        console.print(
            f"skipped {len(rep.skipped)} bad rows of the input (counted, not loaded): {rep.skipped_by_reason()}"
        )
    _print_summary(console, build, graph, folder, f"load {t_load:.1f}s · total {time.perf_counter() - t0:.1f}s")


def register(app: typer.Typer) -> None:
    """Add ``kg`` to the ``build`` group."""
    app.command("kg")(build_kg_command)
