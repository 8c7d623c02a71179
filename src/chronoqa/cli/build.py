"""``chronoqa build kg|table``: build a benchmark release folder."""

from __future__ import annotations

import typer

from chronoqa.cli import build_kg, build_table


def register(app: typer.Typer) -> None:
    """Add the ``build`` group to the root app."""
    build_app = typer.Typer(
        help="Build a benchmark release folder from a TKG or temporal tables.", no_args_is_help=True
    )
    build_kg.register(build_app)
    build_table.register(build_app)
    app.add_typer(build_app, name="build")
