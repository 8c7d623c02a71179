"""``chronoqa build table``: command-line front of the table builder (:mod:`chronoqa.generate.table`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from chronoqa.cli._ui import fail

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``build`` group."""
    app.command("table")(build_table)


def build_table(
    tables: Annotated[list[Path] | None, typer.Argument(help="Temporal table files (.csv/.tsv/.parquet).")] = None,
    out: Annotated[
        str,
        typer.Option("--out", "-o", help="Release folder to write: a path or a URI (s3://, gs://, hdfs://, file://)."),
    ] = "table-benchmark",
    tfd: Annotated[
        list[str] | None,
        typer.Option(help="Named TFD 'Country,Role->Name' (all tables with these columns) or 'table:X->Y'."),
    ] = None,
    join: Annotated[
        list[str] | None, typer.Option(help="Temporal join 'events.csv:facts.csv' (implicit-time 2/3-hop questions).")
    ] = None,
    alias: Annotated[
        list[str] | None, typer.Option(help="Join value alias 'Great Britain=United Kingdom' (events → facts).")
    ] = None,
    dataset: Annotated[
        list[str] | None, typer.Option(help="A named TKG viewed as a table (subject, relation -> object): yago11k.")
    ] = None,
    as_of: Annotated[
        str,
        typer.Option(help="Fixed 'now' (open ends close here), e.g. 2025-01-01; 'data' = the latest date in the data."),
    ] = "data",
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    per_cell: Annotated[int, typer.Option(help="Exact quota per relation × cardinality cell and TFD.")] = 10,
    threshold: Annotated[float, typer.Option(help="Violation rate allowed for a discovered (approximate) TFD.")] = 0.1,
    phrases: Annotated[Path | None, typer.Option(help="Phrase file (JSON) overriding the question phrases.")] = None,
    granularity: Annotated[
        list[str] | None, typer.Option(help="Override the detected granularity: 'table=year'.")
    ] = None,
    on_bad_row: Annotated[str, typer.Option(help="'raise' or 'skip' (skipped rows are counted).")] = "raise",
    kind: Annotated[
        list[str] | None, typer.Option(help="Declare a table's kind: 'table=role|status|event' (default: detected).")
    ] = None,
    complete: Annotated[
        list[str] | None,
        typer.Option(
            help="Declare a table complete (its rows are every row of its domain in the world): questions whose gold "
            "needs that ('none', 'the last ... before', event order, set questions) are then asked of it. Repeatable."
        ),
    ] = None,
    handovers: Annotated[
        str,
        typer.Option(help="A row ending in the year/month where the next row of its key begins: 'meets' or 'overlap'."),
    ] = "meets",
    delimiter: Annotated[
        list[str] | None,
        typer.Option(
            help="The delimiter of a multi-value column: 'table.column= / ' (kept as typed), or "
            "'table.column=none' (one value per cell). Default: detected (', ', ' / ', '; ')."
        ),
    ] = None,
    corpus_format: Annotated[
        str,
        typer.Option("--corpus-format", help="Corpus file(s) of the release: 'jsonl' (default), 'parquet' or 'both'."),
    ] = "jsonl",
) -> None:
    """Build a TDBench-style benchmark (13 Allen relations, time alignment, temporal joins) from tables."""
    from chronoqa.artifacts.release import CORPUS_FORMATS
    from chronoqa.errors import ChronoqaError, UnknownNameError, check_policy

    if corpus_format not in CORPUS_FORMATS:
        raise typer.BadParameter(f"expected one of {', '.join(CORPUS_FORMATS)}", param_hint="--corpus-format")
    from chronoqa.artifacts.remote import check_release_target, publish_release
    from chronoqa.generate.table import JoinSpec, PhraseBook, TableBuildConfig, build_table_benchmark
    from chronoqa.generate.table.build import read_table_files
    from chronoqa.generate.table.verbalise import graph_phrases
    from chronoqa.records import TemporalTable
    from chronoqa.sources.graph_table import GRAPH_TFD, graph_as_table

    try:
        check_release_target(out)  # a URI: reached now, before the build
        policy = check_policy(on_bad_row)
        loaded: dict[str, TemporalTable] = {}
        sources: dict[str, dict[str, str]] = {}

        def load(path: Path) -> str:
            if path.stem not in loaded:
                (table,), info = read_table_files([path], on_bad_row=policy)
                loaded[table.name] = table
                sources.update(info)
            return path.stem

        main = [load(p) for p in tables or []]
        joins = []
        aliases = dict(_pair(a, "=", "--alias") for a in alias or [])
        for spec in join or []:
            left, right = _pair(spec, ":", "--join")
            joins.append(JoinSpec(load(Path(left)), load(Path(right)), aliases=aliases))
            if Path(right).stem not in main:
                main.append(Path(right).stem)
        book = PhraseBook.load(phrases)
        for name in dataset or []:
            from chronoqa.datasets import load_graph

            loaded[name] = graph_as_table(load_graph(name), name=name)
            sources[name] = {"dataset": name}
            main.append(name)
            gp = graph_phrases(name)
            book = PhraseBook(
                {**gp.tfds, **book.tfds}, {**gp.facts, **book.facts}, dict(book.joins), {**gp.tables, **book.tables}
            )
        datasets = list(dataset or [])
        if not main and not joins:
            raise ChronoqaError("give at least one table file, --join or --dataset")
        named: dict[str, list[str]] = {}
        for t in tfd or []:
            target, text = t.split(":", 1) if ":" in t.split("->")[0] else ("", t)
            cols = [c.strip() for c in text.replace("->", ",").split(",")]
            hits = [
                name
                for name, table in loaded.items()
                if (target and target == name) or (not target and all(c in table.columns for c in cols))
            ]
            if not hits and target:
                raise UnknownNameError("table", target, loaded)
            if not hits:
                known = sorted({c for table in loaded.values() for c in table.columns})
                raise UnknownNameError("column", next((c for c in cols if c not in known), cols[0]), known)
            for name in hits:
                named.setdefault(name, []).append(text)
        for name in datasets:
            named.setdefault(name, [GRAPH_TFD])
        for name in complete or []:
            if name not in loaded:
                raise UnknownNameError("table", name, loaded)
        config = TableBuildConfig(
            as_of=as_of,
            seed=seed,
            per_cell=per_cell,
            tfds=named,
            threshold=threshold,
            granularity=dict(_pair(g, "=", "--granularity") for g in granularity or []),
            joins=joins,
            build_tables=main,
            kinds=dict(_pair(k, "=", "--kind") for k in kind or []),
            complete=tuple(complete or ()),
            handovers=handovers,
            delimiters=dict(_delimiter(d) for d in delimiter or []),
        )
        build = build_table_benchmark(list(loaded.values()), config, phrases=book, sources=sources)
        where = publish_release(out, lambda local: build.write(local, corpus_format=corpus_format))
    except ChronoqaError as exc:
        fail(exc)
    counts = build.manifest["counts"]
    typer.echo(f"wrote {counts['questions']} questions and {counts['corpus_docs']} documents to {where}")
    for src, rows in sorted(build.manifest["cells"].items()):
        cells = sum(1 for r in rows.values() for v in r.values() if v)
        typer.echo(f"  {src}: {sum(sum(r.values()) for r in rows.values())} questions in {cells} non-empty cells")


def _pair(text: str, sep: str, option: str) -> tuple[str, str]:
    from chronoqa.errors import ChronoqaError

    if sep not in text:
        raise ChronoqaError(f"{option} {text!r}: expected 'A{sep}B'")
    a, b = text.rsplit(sep, 1) if sep == ":" else text.split(sep, 1)
    return a.strip(), b.strip()


def _delimiter(text: str) -> tuple[str, str]:
    """``--delimiter 'movie.cast=, '``: the column (``table.column``) and its delimiter, kept as typed."""
    from chronoqa.errors import ChronoqaError

    col, sep, value = text.partition("=")
    if not sep or "." not in col or not value:
        raise ChronoqaError(
            f"--delimiter {text!r}: expected 'table.column=DELIMITER' (e.g. 'movie.cast=, ' or 'movie.cast=none')"
        )
    return col.strip(), value
