"""Shared terminal widgets of the CLI."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


def task_progress(console: Console, *, label: str = "{task.description}", transient: bool = False) -> Progress:
    """The CLI's progress bar for counted work: label, bar, done/total, elapsed time."""
    return Progress(
        TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=transient
    )
