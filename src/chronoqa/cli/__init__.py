"""The ``chronoqa`` command line: a thin layer over the library (one module per command group).

Each module below defines ``register(app)``, which adds its commands or sub-apps to the root app.
"""

from __future__ import annotations

import typer

from chronoqa.cli import build, datasets, evaluate, retrieve, run

__all__ = ["app", "main"]

app = typer.Typer(
    name="chronoqa",
    help="Turn temporal data into time-sensitive QA benchmarks and score the systems that answer them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


@app.command()
def version() -> None:
    """Print the toolkit version."""
    from chronoqa import __version__

    typer.echo(__version__)


for _module in (datasets, build, retrieve, evaluate, run):
    _module.register(app)


def main() -> None:
    """Entry point of the ``chronoqa`` script."""
    app()
