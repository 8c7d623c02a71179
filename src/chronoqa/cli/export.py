"""``chronoqa export``: write a release in the formats other tools read (Hugging Face, Croissant, BEIR)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from chronoqa.cli._ui import WaitOption

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""

    @app.command("export")
    def export_cmd(
        release: Annotated[Path, typer.Argument(help="Benchmark release folder.")],
        to: Annotated[
            str,
            typer.Option(
                "--to",
                help="Target: hf, croissant, beir, lm-eval, tempbench (KG releases), or all (all but tempbench).",
            ),
        ] = "all",
        out: Annotated[Path, typer.Option("--out", help="Folder to write <target>/ folders into.")] = Path("export"),
        validation: Annotated[
            Path | None, typer.Option("--validation", help="A `chronoqa validate import` folder to include.")
        ] = None,
        wait: WaitOption = False,
    ) -> None:
        """Export a release: Hugging Face Parquet + card, Croissant, BEIR, lm-eval, TempBench's layout."""
        from chronoqa.export import export_release

        for folder in export_release(release, to, out, validation=validation, wait=wait):
            typer.echo(f"wrote {folder}")
