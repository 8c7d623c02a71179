"""``chronoqa datasets list|info|fetch``: the named-dataset registry on the command line."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn
from rich.table import Table

from chronoqa import datasets as ds
from chronoqa.cli._ui import plain_console
from chronoqa.errors import ChronoqaError
from chronoqa.time import parse_time

__all__ = ["register"]


_Json = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def _status(spec: ds.DatasetSpec) -> str:
    mirror = ds.mirror_dir()
    if mirror is not None and all((mirror / spec.folder_name / f.name).is_file() for f in spec.files):
        return "mirror"
    folder = ds.dataset_folder(spec.folder_name)
    if all((folder / f.name).is_file() for f in spec.files):
        return "cached"
    return "not fetched"


def list_datasets(
    as_json: _Json = False,
) -> None:
    """List the named datasets chronoqa knows."""
    rows = [
        {
            "name": spec.name,
            "description": spec.description,
            "format": spec.format,
            "files": len(spec.files),
            "verified": all(f.sha256 is not None for f in spec.files),
            "licence": spec.licence,
            "status": _status(spec),
        }
        for spec in ds.DATASETS.values()
    ]
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    table = Table(title="chronoqa datasets")
    table.add_column("name", no_wrap=True)
    for col in ("format", "status", "sha256 known", "description"):
        table.add_column(col)
    for r in rows:
        table.add_row(
            str(r["name"]), str(r["format"]), str(r["status"]), "yes" if r["verified"] else "no", str(r["description"])
        )
    plain_console().print(table)


_Name = Annotated[str, typer.Argument(help="Dataset name (see `chronoqa datasets list`).")]
_Sha256 = Annotated[str | None, typer.Option("--sha256", help="Checksum to require of a file registered without one.")]
_AllowUnverified = Annotated[
    bool, typer.Option("--allow-unverified", help="Accept a file registered without a checksum, unverified.")
]


def info(
    name: _Name,
    as_json: _Json = False,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="Treat times after this date as bad rows (skipped, counted).")
    ] = None,
    top: Annotated[int, typer.Option(help="How many relations to list.")] = 10,
    sha256: _Sha256 = None,
    allow_unverified: _AllowUnverified = False,
) -> None:
    """Summarise a dataset: counts, time range, granularity mix, interval shapes, top relations."""
    console = plain_console(stderr=True)
    try:
        with console.status(f"loading {name} ...") as status:
            result = ds.info(
                name,
                as_of=parse_time(as_of, field="--as-of"),
                top=top,
                progress=lambda m: status.update(m + " ..."),
                sha256=sha256,
                allow_unverified=allow_unverified,
            )
    except ChronoqaError as exc:
        raise typer.BadParameter(str(exc), param_hint="NAME") from None
    d = result.to_dict()
    if as_json:
        typer.echo(json.dumps(d, indent=2, ensure_ascii=False))
        return
    out = plain_console()
    head = Table(title=f"{result.spec.name}: {result.spec.description}", show_header=False)
    head.add_column("field", style="bold")
    head.add_column("value")
    s = result.stats
    head.add_row("facts", f"{s.facts:,}")
    head.add_row("entities", f"{s.entities:,} ({s.entities_in_facts:,} in facts)")
    head.add_row("relations", f"{s.relations:,}")
    head.add_row("time range", f"{s.time_min} .. {s.time_max}")
    head.add_row("granularity", ", ".join(f"{k} {v:,}" for k, v in s.granularity.items()))
    head.add_row("shapes", ", ".join(f"{k.replace('_', '-')} {v:,}" for k, v in s.shapes.items()))
    head.add_row("duplicate facts", f"{s.duplicates:,}")
    head.add_row("triples in several periods", f"{s.multi_period_triples:,}")
    report = s.report or {}
    skipped = report.get("rows_skipped", 0)
    head.add_row("rows skipped", f"{skipped:,} {report.get('skipped_by_reason') or ''}".strip())
    head.add_row("licence", result.spec.licence)
    head.add_row("citation", result.spec.citation)
    head.add_row("folder", result.folder)
    out.print(head)
    rel = Table(title="top relations")
    rel.add_column("relation")
    rel.add_column("label")
    rel.add_column("facts", justify="right")
    for r, label, n in s.top_relations:
        rel.add_row(r, label, f"{n:,}")
    out.print(rel)


def fetch(
    name: _Name,
    sha256: _Sha256 = None,
    allow_unverified: _AllowUnverified = False,
    as_json: _Json = False,
) -> None:
    """Download a dataset into the cache (or verify the mirror copy) and print its folder."""
    with Progress(
        TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn(), transient=True
    ) as progress:
        tasks: dict[str, int] = {}

        def report(file: str, done: int, total: int | None) -> None:
            if file not in tasks:
                tasks[file] = progress.add_task(file, total=total)
            progress.update(tasks[file], completed=done)  # type: ignore[arg-type]

        try:
            folder = ds.fetch(name, sha256=sha256, allow_unverified=allow_unverified, progress=report)
        except ChronoqaError as exc:
            raise typer.BadParameter(str(exc), param_hint="NAME") from None
    if as_json:
        typer.echo(json.dumps({"name": name, "folder": str(folder)}))
    else:
        typer.echo(str(folder))


def register(app: typer.Typer) -> None:
    """Add the ``datasets`` group to the root app."""
    group = typer.Typer(help="Named real datasets: list, summarise, fetch.", no_args_is_help=True)
    group.command("list")(list_datasets)
    group.command("info")(info)
    group.command("fetch")(fetch)
    app.add_typer(group, name="datasets")
