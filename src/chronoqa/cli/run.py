"""``chronoqa run``: command-line front of the library (filled in by its issue)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
