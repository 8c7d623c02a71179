"""``chronoqa validate sample|import``: the human-validation kit on the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from chronoqa.cli._ui import WaitOption
from chronoqa.outdir import OutputFolder

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    sub = typer.Typer(help="Human validation: sample a release for annotators, import their judgments.")
    app.add_typer(sub, name="validate")

    @sub.command("sample")
    def sample_cmd(
        release: Annotated[Path, typer.Argument(help="Benchmark release folder.")],
        out: Annotated[Path, typer.Option("--out", help="Folder for sheet.html, sheet.csv, sample.json.")],
        n: Annotated[int, typer.Option("--n", help="Questions to sample (stratified by cell).")] = 300,
        seed: Annotated[int, typer.Option("--seed", help="Seed of the sample and its order.")] = 0,
        split: Annotated[str | None, typer.Option("--split", help="Sample one split only (e.g. test).")] = None,
        wait: WaitOption = False,
    ) -> None:
        """Write a stratified sample as a self-contained annotation page (sheet.html) and a CSV."""
        from chronoqa.artifacts.release import load_release
        from chronoqa.validate import write_sheet

        with OutputFolder(out, "validation", wait=wait):
            folder = write_sheet(load_release(release), out, n, seed=seed, split=split)
        typer.echo(f"wrote {folder / 'sheet.html'} (open it in a browser; key s saves the judgments)")

    @sub.command("import")
    def import_cmd(
        release: Annotated[Path, typer.Argument(help="Benchmark release folder.")],
        sheets: Annotated[list[Path], typer.Argument(help="Judgment files saved by sheet.html, one per annotator.")],
        out: Annotated[Path, typer.Option("--out", help="Folder for the validation results.")] = Path("validation"),
        seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap.")] = 0,
        bootstrap: Annotated[int, typer.Option("--bootstrap", min=1, help="Bootstrap resamples.")] = 1000,
        max_sheet_mb: Annotated[
            float, typer.Option("--max-sheet-mb", min=0.001, max=1e6, help="Largest judgments file read (MB).")
        ] = 16.0,
        wait: WaitOption = False,
    ) -> None:
        """Agreement (kappa / alpha with CIs), consensus, low-confidence flags and error rates per cell."""
        from chronoqa.artifacts.release import load_release
        from chronoqa.validate import import_judgments

        cap = max(1, int(max_sheet_mb * 1024 * 1024))
        with OutputFolder(out, "validation", wait=wait):
            res = import_judgments(load_release(release), sheets, out, n_boot=bootstrap, seed=seed, max_sheet_bytes=cap)
        flagged = sum(1 for r in res.low_confidence if r["status"] == "flagged")
        typer.echo(
            f"{len(res.consensus)} questions, {len(res.annotators)} annotators, {flagged} flagged; "
            f"wrote {out / 'VALIDATION.md'}"
        )
