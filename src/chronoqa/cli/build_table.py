"""``chronoqa build table``: command-line front of the table builder (:mod:`chronoqa.generate.table`)."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from chronoqa.cli._ui import CorpusFormatOption, WaitOption, fail

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chronoqa.answer.client import ChatClient
    from chronoqa.errors import BadRowPolicy
    from chronoqa.generate.table import JoinSpec, PhraseBook
    from chronoqa.records import TemporalTable

__all__ = ["register"]


def _share(value: float) -> float:
    """A share from 0 to 1 (NaN and infinities refused: a comparison with NaN is false)."""
    if not 0 <= value <= 1:
        raise typer.BadParameter(f"{value} is not a share from 0 to 1 (e.g. 0.1)")
    return value


_Threshold = Annotated[
    float, typer.Option(callback=_share, help="Violation rate (0 to 1) allowed for a discovered (approximate) TFD.")
]


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``build`` group."""
    app.command("table")(build_table)


_Out = Annotated[
    str, typer.Option("--out", "-o", help="Release folder to write: a path or a URI (s3://, gs://, hdfs://, file://).")
]
_Tfds = Annotated[
    list[str] | None,
    typer.Option(help="Named TFD 'Country,Role->Name' (all tables with these columns) or 'table:X->Y'."),
]
_Joins = Annotated[
    list[str] | None, typer.Option(help="Temporal join 'events.csv:facts.csv' (implicit-time 2/3-hop questions).")
]
_Aliases = Annotated[
    list[str] | None, typer.Option(help="Join value alias 'Great Britain=United Kingdom' (events → facts).")
]
_Datasets = Annotated[
    list[str] | None,
    typer.Option(
        help="A named dataset: a TDBench table with chronoqa's declarations (tdbench-leaders, tdbench-legal, "
        "tdbench-olympic, ...: see `chronoqa datasets list`), or a TKG viewed as a table (subject, relation -> "
        "object): yago11k."
    ),
]
_AsOf = Annotated[
    str, typer.Option(help="Fixed 'now' (open ends close here), e.g. 2025-01-01; 'data' = the latest date in the data.")
]
_Granularity = Annotated[list[str] | None, typer.Option(help="Override the detected granularity: 'table=year'.")]
_Kinds = Annotated[
    list[str] | None, typer.Option(help="Declare a table's kind: 'table=role|status|event' (default: detected).")
]
_Complete = Annotated[
    list[str] | None,
    typer.Option(
        help="Declare a table complete (its rows are every row of its domain in the world): questions whose gold "
        "needs that ('none', 'the last ... before', event order, set questions) are then asked of it. Repeatable."
    ),
]
_Handovers = Annotated[
    str, typer.Option(help="A row ending in the year/month where the next row of its key begins: 'meets' or 'overlap'.")
]
_Delimiters = Annotated[
    list[str] | None,
    typer.Option(
        help="The delimiter of a multi-value column: 'table.column= / ' (kept as typed), or "
        "'table.column=none' (one value per cell). Default: detected (', ', ' / ', '; ')."
    ),
]
_SqlToText = Annotated[
    str | None,
    typer.Option(
        "--sql-to-text",
        help="Word each question from its SQL with a model, e.g. 'llm(model=m,base_url=http://...)' (the answerer's "
        "llm spec, through the answer client and its cache); a wording is kept only when the faithfulness check "
        "passes, and the rejection rate is written to the manifest and the data card.",
    ),
]
_SqlToTextCache = Annotated[
    Path | None,
    typer.Option("--sql-to-text-cache", help="Response cache of --sql-to-text (default: <cache>/responses)."),
]


def build_table(
    tables: Annotated[list[Path] | None, typer.Argument(help="Temporal table files (.csv/.tsv/.parquet).")] = None,
    out: _Out = "table-benchmark",
    tfd: _Tfds = None,
    join: _Joins = None,
    alias: _Aliases = None,
    dataset: _Datasets = None,
    as_of: _AsOf = "data",
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    per_cell: Annotated[int, typer.Option(min=1, help="Exact quota per relation × cardinality cell and TFD.")] = 10,
    threshold: _Threshold = 0.1,
    phrases: Annotated[Path | None, typer.Option(help="Phrase file (JSON) overriding the question phrases.")] = None,
    granularity: _Granularity = None,
    on_bad_row: Annotated[str, typer.Option(help="'raise' or 'skip' (skipped rows are counted).")] = "raise",
    on_reversed: Annotated[
        str | None,
        typer.Option(
            "--on-reversed",
            help="A row whose end is before its start: 'raise' (stop at the first), 'skip' (skipped and counted), "
            "'swap' (start and end exchanged, counted) or 'keep' (valid at no time, counted); default: as "
            "--on-bad-row says.",
        ),
    ] = None,
    kind: _Kinds = None,
    complete: _Complete = None,
    handovers: _Handovers = "meets",
    delimiter: _Delimiters = None,
    corpus_format: CorpusFormatOption = "jsonl",
    sql_to_text: _SqlToText = None,
    sql_to_text_cache: _SqlToTextCache = None,
    wait: WaitOption = False,
) -> None:
    """Build a TDBench-style benchmark (13 Allen relations, time alignment, temporal joins) from tables."""
    from chronoqa.artifacts.release import CORPUS_FORMATS
    from chronoqa.artifacts.remote import check_release_target, hold_release_target, publish_release
    from chronoqa.errors import ChronoqaError, check_policy
    from chronoqa.generate.table import TableBuildConfig, build_table_benchmark

    if corpus_format not in CORPUS_FORMATS:
        raise typer.BadParameter(f"expected one of {', '.join(CORPUS_FORMATS)}", param_hint="--corpus-format")
    try:
        with hold_release_target(out, wait=wait):  # a local --out: locked for the whole build
            check_release_target(out)  # a URI: reached now, before the build
            inputs = _Inputs(check_policy(on_bad_row), on_reversed)  # a bad --on-reversed is refused here
            inputs.read(tables or [], join or [], dict(_pair(a, "=", "--alias") for a in alias or []), dataset or [])
            book = inputs.phrases(phrases, dataset or [])
            if not inputs.main and not inputs.joins:
                raise ChronoqaError("give at least one table file, --join or --dataset")
            inputs.check_loaded(complete or [])
            config = TableBuildConfig(
                as_of=as_of,
                seed=seed,
                per_cell=per_cell,
                tfds=_named_tfds(tfd or [], inputs.loaded, inputs.graphs),
                threshold=threshold,
                granularity=dict(_pair(g, "=", "--granularity") for g in granularity or []),
                joins=inputs.joins,
                build_tables=inputs.main,
                kinds=dict(_pair(k, "=", "--kind") for k in kind or []),
                complete=tuple(complete or ()),
                handovers=handovers,
                delimiters=inputs.recognised.delimiters(dict(_delimiter(d) for d in delimiter or [])),
            )
            with _sql_client(sql_to_text, sql_to_text_cache) as client:
                build = build_table_benchmark(
                    list(inputs.loaded.values()),
                    config,
                    phrases=book,
                    sources=inputs.sources,
                    sql_client=client,
                    sql_client_name=sql_to_text or "",
                    phrase_file=_phrase_record(phrases),
                )
            where = publish_release(out, lambda local: build.write(local, corpus_format=corpus_format))
    except ChronoqaError as exc:
        fail(exc)
    _echo_summary(build.manifest, where, inputs.loaded)


def _phrase_record(phrases: Path | None) -> dict[str, str] | None:
    """The phrase file as the manifest records it (``None``: no phrase file given)."""
    from chronoqa.generate.rebuild import table_phrase_record

    return None if phrases is None else table_phrase_record(phrases)


def _echo_summary(manifest: dict[str, Any], where: str, loaded: dict[str, TemporalTable]) -> None:
    """What was written: questions and documents, per source its cells, the LLM wording, skipped rows."""
    counts = manifest["counts"]
    typer.echo(f"wrote {counts['questions']} questions and {counts['corpus_docs']} documents to {where}")
    for src, rows in sorted(manifest["cells"].items()):
        cells = sum(1 for r in rows.values() for v in r.values() if v)
        typer.echo(f"  {src}: {sum(sum(r.values()) for r in rows.values())} questions in {cells} non-empty cells")
    _echo_sql_to_text(manifest.get("sql_to_text"))
    for name, table in sorted(loaded.items()):  # nothing is dropped without a word
        rep = table.report
        if rep is not None and rep.skipped:
            typer.echo(
                f"  {name}: skipped {len(rep.skipped)} bad rows (counted, not loaded): {rep.skipped_by_reason()}"
            )


def _sql_client(spec: str | None, cache: Path | None) -> AbstractContextManager[ChatClient | None]:
    """The answer client of ``--sql-to-text`` (None without it), with its response cache."""
    from chronoqa.answer.cache import ResponseCache
    from chronoqa.answer.client import ChatClient
    from chronoqa.answer.registry import client_config
    from chronoqa.paths import cache_dir

    if not spec:
        return nullcontext()
    config = client_config(spec, "--sql-to-text")
    return ChatClient(config, ResponseCache(cache if cache is not None else cache_dir() / "responses"))


def _echo_sql_to_text(report: dict[str, Any] | None) -> None:
    if report is None:
        return
    rate = "–" if report["rejection_rate"] is None else f"{report['rejection_rate']:.1%}"
    typer.echo(
        f"  sql-to-text: {report['accepted']} of {report['tried']} questions reworded by the model, "
        f"{report['rejected']} rejected by the faithfulness check (rate {rate}), {report['failed']} failed requests"
    )


class _Inputs:
    """The tables a build reads (files once each, by stem; named TKGs as tables), the joins and the sources."""

    def __init__(self, policy: BadRowPolicy, on_reversed: str | None = None) -> None:
        from chronoqa.errors import ChronoqaError
        from chronoqa.generate.table.recognise import Recognised

        if on_reversed not in (None, "raise", "skip", "swap", "keep"):
            raise ChronoqaError(f"--on-reversed {on_reversed!r}: expected raise, skip, swap or keep")
        self.policy, self.on_reversed = policy, on_reversed
        self.loaded: dict[str, TemporalTable] = {}
        self.sources: dict[str, dict[str, str]] = {}
        self.main: list[str] = []
        self.joins: list[JoinSpec] = []
        self.graphs: list[str] = []  # named TKGs viewed as tables
        self.recognised = Recognised()  # the TDBench declarations that apply, by table

    def check_loaded(self, names: Sequence[str]) -> None:
        """Fail on the first of ``names`` (``--complete``'s) that names no loaded table."""
        from chronoqa.errors import UnknownNameError

        for name in names:
            if name not in self.loaded:
                raise UnknownNameError("table", name, self.loaded)

    def load(self, path: Path) -> str:
        """Read a table file once; its name is the file's stem. A TDBench table is recognised by its sha256."""
        from chronoqa.generate.table.build import read_table_files
        from chronoqa.generate.table.recognise import recognise_files

        if path.stem not in self.loaded:
            tables, info = read_table_files([path], on_bad_row=self.policy, on_reversed=self.on_reversed)
            self.loaded[tables[0].name] = tables[0]
            self.sources.update(info)
            notes = len(self.recognised.notes)
            recognise_files(tables, self.sources, self.recognised)
            for line in self.recognised.notes[notes:]:
                _note(line)
        return path.stem

    def dataset(self, name: str) -> None:
        """A named dataset: a TDBench table (fetched, with its declarations) or a TKG viewed as a table."""
        from chronoqa.datasets import fetch, get_spec, load_graph
        from chronoqa.datasets.tdbench import declarations, read
        from chronoqa.errors import ChronoqaError
        from chronoqa.sources.graph_table import graph_as_table

        if get_spec(name).format != "table":
            self.loaded[name] = graph_as_table(load_graph(name), name=name)
            self.sources[name] = {"dataset": name}
            self.graphs.append(name)
            self.main.append(name)
            return
        decl = declarations(name)
        if decl.table in self.loaded:
            raise ChronoqaError(
                f"--dataset {name}: a table named {decl.table!r} is already read (give the file or the dataset, "
                "not both)"
            )
        table = read(name, fetch(name), on_bad_row=self.policy)
        self.loaded[table.name] = table
        self.sources[table.name] = {"dataset": name, "file": decl.file, "sha256": decl.sha256}
        self.recognised.add(decl)
        self.main.append(table.name)

    def read(self, tables: list[Path], joins: list[str], aliases: dict[str, str], datasets: list[str]) -> None:
        """The table files, each join's two files (the fact side is built too) and the named TKGs."""
        from chronoqa.generate.table import JoinSpec

        self.main = [self.load(p) for p in tables]
        for spec in joins:
            left, right = _pair(spec, ":", "--join")
            self.joins.append(JoinSpec(self.load(Path(left)), self.load(Path(right)), aliases=aliases))
            if Path(right).stem not in self.main:
                self.main.append(Path(right).stem)
        for name in datasets:
            self.dataset(name)

    def phrases(self, path: Path | None, datasets: list[str]) -> PhraseBook:
        """The phrase file, over the declarations of each TDBench table and the phrases of each named TKG.

        The file wins: entry by entry within a table, whole for a TFD's phrases, a fact or a join.
        """
        from chronoqa.generate.table import PhraseBook
        from chronoqa.generate.table.verbalise import graph_phrases

        book = PhraseBook.load(path)
        for name in self.graphs:
            book = book.over(graph_phrases(name))
        return self.recognised.phrases(book)


def _note(text: str) -> None:
    typer.echo(text, err=True)


def _named_tfds(specs: list[str], loaded: dict[str, TemporalTable], datasets: list[str]) -> dict[str, list[str]]:
    """``--tfd`` per table: 'table:X->Y' names its table, 'X->Y' every table with those columns."""
    from chronoqa.errors import UnknownNameError
    from chronoqa.sources.graph_table import GRAPH_TFD

    named: dict[str, list[str]] = {}
    for t in specs:
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
    return named


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
