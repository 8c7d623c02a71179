"""Shared terminal output of the CLI: consoles that never read user text as markup, the one error printer.

Every console the commands print with comes from :func:`plain_console`: rich markup is off, so a spec, path or
message holding square brackets (``bm25[/x]``, ``[retrieve]``) prints as it is, never crashes the printer
nor loses words. Errors about the user's input go through :func:`fail` (or reach
:func:`chronoqa.cli.main`, which prints them with :func:`print_error`): one plain line on stderr, exit
status 2.
"""

from __future__ import annotations

import sys
from typing import NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

__all__ = ["EXIT_USER_ERROR", "fail", "plain_console", "print_error", "task_progress", "warn"]

EXIT_USER_ERROR = 2


def plain_console(*, stderr: bool = False, width: int | None = None) -> Console:
    """A rich console for the CLI's tables and messages, with markup and auto-highlighting off."""
    return Console(stderr=stderr, width=width, markup=False, highlight=False)


def print_error(error: BaseException | str) -> None:
    """Print ``error: <message>`` on stderr as plain text (no markup, no wrapping)."""
    text = str(error) or type(error).__name__
    sys.stderr.write(f"error: {text}\n")
    sys.stderr.flush()


def fail(error: BaseException | str) -> NoReturn:
    """Print a user error with :func:`print_error` and exit with status 2."""
    print_error(error)
    raise typer.Exit(EXIT_USER_ERROR)


def warn(out: Console, message: str) -> None:
    """Print ``warning: <message>`` (plain text) on ``out``."""
    out.print(f"warning: {message}", markup=False, highlight=False)


def task_progress(out: Console, *, label: str = "{task.description}", transient: bool = False) -> Progress:
    """The CLI's progress bar for counted work: label, bar, done/total, elapsed time (labels are plain text)."""
    return Progress(
        TextColumn(label, markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=out,
        transient=transient,
    )
