"""``chronoqa refresh``: a release rebuilt on newer data, every old question re-grounded and classified."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from chronoqa.cli._ui import WaitOption

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add ``refresh`` to the root app."""
    app.command("refresh")(refresh_cmd)


def refresh_cmd(
    old: Annotated[Path, typer.Argument(help="The release to refresh (a folder `chronoqa build` wrote).")],
    input_data: Annotated[
        Path,
        typer.Option(
            "--input",
            help="The newer data, read as the old release's input was: a facts file or folder (KG releases), a "
            "table file or a folder of table files named like the old ones (table releases).",
        ),
    ],
    out: Annotated[Path, typer.Option("--out", help="The new release folder (not the old one).")],
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="The new release's 'now' (default: the old release's as_of).")
    ] = None,
    phrases: Annotated[
        Path | None,
        typer.Option(
            help="A phrase file (JSON) for a table release, a phrase table for a KG release (default: the one its "
            "manifest records)."
        ),
    ] = None,
    wait: WaitOption = False,
) -> None:
    """Rebuild OLD on newer data with its recorded config and seed; classify every question (CHANGES.md)."""
    from chronoqa.artifacts.remote import hold_release_target
    from chronoqa.cli._ui import fail
    from chronoqa.generate.refresh import refresh

    if out.resolve() == old.resolve():
        fail(f"--out {out} is the old release: give a new folder, e.g. --out {old.name}-refreshed")
    with hold_release_target(str(out), wait=wait):
        r = refresh(old, input_data, out, as_of=as_of, phrases=phrases)
    counts = ", ".join(f"{k} {v}" for k, v in r.counts.items())
    typer.echo(f"release {r.old_version} -> {r.version}: {counts}; wrote {out} (see {out / 'CHANGES.md'})")
