"""The ``chronoqa`` command line: a thin layer over the library (one module per command group).

Each module below defines ``register(app)``, which adds its commands or sub-apps to the root app.
"""

from __future__ import annotations

import os
import sys

import typer
from typer.exceptions import TyperException

from chronoqa.cli import build, datasets, evaluate, export, paraphrase, refresh, retrieve, run, twin, validate
from chronoqa.cli._ui import EXIT_USER_ERROR, path_error, print_error
from chronoqa.errors import ChronoqaError
from chronoqa.paths import check_mirror

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


for _module in (datasets, build, retrieve, evaluate, run, export, validate, paraphrase, refresh, twin):
    _module.register(app)


def main() -> None:
    """Entry point of the ``chronoqa`` script.

    Errors about the user's input (bad data, a missing file, an invalid setting) print one clear line and
    exit with status 2 instead of a traceback; ``CHRONOQA_DEBUG=1`` shows the traceback.
    """
    try:
        check_mirror()
        code = app(standalone_mode=False)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("Aborted.", err=True)
        sys.exit(1)
    except TyperException as exc:  # usage errors: bad option, bad parameter
        show = getattr(exc, "show", None)
        if show is None:
            raise
        show()
        sys.exit(getattr(exc, "exit_code", 2))
    except (ChronoqaError, OSError, ValueError) as exc:  # OSError: a path that is missing, a folder, unreadable
        if os.environ.get("CHRONOQA_DEBUG"):
            raise
        message = ""
        if isinstance(exc, OSError | ValueError) and not isinstance(exc, ChronoqaError):
            message = path_error(exc, sys.argv[1:])  # a path the OS refused: name the option, say what is wrong
        print_error(message or exc)
        sys.exit(EXIT_USER_ERROR)
    sys.exit(code if isinstance(code, int) else 0)
