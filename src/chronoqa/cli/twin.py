"""``chronoqa twin``: a counterfactual twin of a KG or table release."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["register"]


def twin_command(
    release: Annotated[Path, typer.Argument(help="The KG or table release folder to make a twin of.")],
    out: Annotated[Path, typer.Option("--out", help="Twin release folder to write (new or empty).")],
    shift_years: Annotated[
        int | None, typer.Option("--shift-years", help="Move every date by N whole years (e.g. 28).")
    ] = None,
    rename_entities: Annotated[
        bool, typer.Option("--rename-entities", help="Give every entity a new syllable-built name and id.")
    ] = False,
    permute_holders: Annotated[
        bool, typer.Option("--permute-holders", help="Permute the holders of each role (relation, object).")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the names or the permutation.")] = 0,
    source: Annotated[
        Path | None, typer.Option("--source", help="The release's --input file (or table file), if not found.")
    ] = None,
    phrases: Annotated[
        Path | None,
        typer.Option("--phrases", help="A table release's phrase file (JSON; default: the one its manifest records)."),
    ] = None,
    wait: Annotated[bool, typer.Option(help="Wait while another chronoqa command holds --out.")] = False,
) -> None:
    """Write a counterfactual twin: the release's facts transformed and built again, questions paired by id."""
    from chronoqa.artifacts.remote import check_release_target, hold_release_target
    from chronoqa.cli._ui import plain_console
    from chronoqa.generate.twin import make_twin

    chosen = [k for k, on in (("shift_years", shift_years is not None), ("rename_entities", rename_entities),
                              ("permute_holders", permute_holders)) if on]  # fmt: skip
    if len(chosen) != 1:
        raise typer.BadParameter("give exactly one of --shift-years N, --rename-entities or --permute-holders")
    with hold_release_target(str(out), wait=wait):
        check_release_target(str(out))
        rec = make_twin(release, chosen[0], out, seed=seed, years=shift_years or 0, source=source, phrases=phrases)
    plain_console(stderr=True).print(
        f"twin ({chosen[0]}) of {release} → {out}: {rec['questions']:,} questions, {rec['pairs']:,} paired to the "
        f"source's {rec['source_questions']:,} (twin_of.jsonl)"
    )


def register(app: typer.Typer) -> None:
    """Add ``twin`` to the root app."""
    app.command("twin")(twin_command)
