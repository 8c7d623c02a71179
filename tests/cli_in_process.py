"""The ``chronoqa`` script run in this process, its error handling included: exit status and all output."""

from __future__ import annotations

import contextlib
import io
import sys
from dataclasses import dataclass

from chronoqa.cli import main


@dataclass
class CliResult:
    exit_code: int
    output: str


def cli(*args: str) -> CliResult:
    """Run ``chronoqa ARGS`` as the console script does; stdout and stderr together."""
    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["chronoqa", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = argv
    return CliResult(code, out.getvalue() + err.getvalue())
