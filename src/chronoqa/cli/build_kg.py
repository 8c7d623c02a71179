"""``chronoqa build kg``: command-line front of the builder (filled in by its issue)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``build`` group."""
