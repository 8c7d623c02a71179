"""Shared terminal output of the CLI: consoles that never read user text as markup, the one error printer.

Every console the commands print with comes from :func:`plain_console`: rich markup is off, so a spec, path or
message holding square brackets (``bm25[/x]``, ``[retrieve]``) prints as it is, never crashes the printer
nor loses words. Errors about the user's input go through :func:`fail` (or reach
:func:`chronoqa.cli.main`, which prints them with :func:`print_error`): one plain line on stderr, exit
status 2.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from chronoqa.errors import clip

__all__ = [
    "EXIT_USER_ERROR",
    "CorpusFormatOption",
    "WaitOption",
    "fail",
    "path_error",
    "plain_console",
    "print_error",
    "warn",
]

EXIT_USER_ERROR = 2

#: The ``--wait`` option of a command that writes a folder under the folder lock.
WaitOption = Annotated[
    bool, typer.Option(help="Wait while another chronoqa command holds the folder (default: fail at once).")
]
#: The ``--corpus-format`` option of both builders.
CorpusFormatOption = Annotated[
    str,
    typer.Option("--corpus-format", help="Corpus file(s) of the release: 'jsonl' (default), 'parquet' or 'both'."),
]


def plain_console(*, stderr: bool = False, width: int | None = None) -> Console:
    """A rich console for the CLI's tables and messages, with markup and auto-highlighting off."""
    return Console(stderr=stderr, width=width, markup=False, highlight=False)


def print_error(error: BaseException | str) -> None:
    """Print ``error: <message>`` on stderr as plain text (no markup, no wrapping)."""
    text = str(error) or type(error).__name__
    sys.stderr.write(f"error: {text}\n")
    sys.stderr.flush()


#: What an OS error on a path the user gave means, in words (the errno's own text is terse).
_PATH_TROUBLE = {
    errno.ENOENT: "no such file or folder, and none can be made there (a folder on the way is missing or read-only)",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EEXIST: "a part of the path exists as a file where a folder is needed",
    errno.EISDIR: "is a folder, where a file is expected",
    errno.ENAMETOOLONG: "a name in the path is longer than the file system allows (255 bytes a name)",
    errno.EACCES: "permission denied",
    errno.EPERM: "not permitted",
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "no space left on the device",
    errno.ELOOP: "too many symbolic links (a link loop)",
    errno.EINVAL: "not a valid path here",
}


def path_error(error: OSError | ValueError, argv: Sequence[str] = ()) -> str:
    """One line for an OS error on a path (or a path holding a NUL): the option that named it, what is wrong, a fix.

    ``argv``: the command line, to name the option (``--out``, ``--config``, an argument) whose path failed.
    Returns ``""`` for an error that is not about a path (printed as it is).
    """
    if isinstance(error, ValueError):
        if "null byte" not in str(error) and "null character" not in str(error):
            return ""
        return "a path holds a NUL character (\\0), which no file system allows. Fix: give a path without it"
    name = error.filename
    if name is None:
        return ""
    path = os.fsdecode(name)
    trouble = _PATH_TROUBLE.get(error.errno or 0, error.strerror or type(error).__name__)
    given = _given(path, argv)
    if given is None:
        return f"{clip(path)}: {trouble}. Fix: give another path"
    flag, value = given
    also = f" ({clip(path)})" if value != path else ""
    return f"{flag} {clip(value)}{also}: {trouble}. Fix: give {flag} another path"


def _given(path: str, argv: Sequence[str]) -> tuple[str, str] | None:
    """The option (``--out``) or ``argument`` of ``argv`` whose value ``path`` is, is inside, or holds.

    Else the option whose value lies under the failing path's folder, the deepest such (the lock file
    ``.x.lock`` beside ``--out x``, a ``.lock`` looked for in a folder above it); a command's name never counts.
    """
    failed = Path(os.path.abspath(path))
    best: tuple[int, str, str] | None = None
    for i, value in enumerate(argv):
        if not value or value.startswith("-") or "\0" in value:
            continue
        flag = argv[i - 1] if i and argv[i - 1].startswith("-") else "argument"
        mine = Path(os.path.abspath(value))
        if failed == mine or mine in failed.parents or failed in mine.parents:
            return flag, value
        if flag != "argument" and failed.parent in (mine, *mine.parents):
            depth = len(failed.parent.parts)
            if best is None or depth > best[0]:
                best = (depth, flag, value)
    return None if best is None else (best[1], best[2])


def fail(error: BaseException | str) -> NoReturn:
    """Print a user error with :func:`print_error` and exit with status 2."""
    print_error(error)
    raise typer.Exit(EXIT_USER_ERROR)


def warn(out: Console, message: str) -> None:
    """Print ``warning: <message>`` (plain text) on ``out``."""
    out.print(f"warning: {message}", markup=False, highlight=False)
