"""Errors and the bad-row policy shared by every reader.

A bad input never passes silently: a reader either raises :class:`DataError` (policy ``"raise"``,
the default for user files) or records a :class:`SkippedRow` in a :class:`LoadReport` (policy
``"skip"``), which every caller can print and which manifests carry.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "MAX_ECHO",
    "SKIP_BAD_ROWS",
    "BadRowPolicy",
    "ChecksumError",
    "ChronoqaError",
    "DataError",
    "LoadReport",
    "SkippedRow",
    "StorageError",
    "UnknownNameError",
    "check_policy",
    "clip",
    "did_you_mean",
]

BadRowPolicy = Literal["raise", "skip"]


class ChronoqaError(Exception):
    """Base class of every error chronoqa raises on purpose."""


@dataclass(frozen=True, slots=True)
class SkippedRow:
    """One input row that was not loaded, and why."""

    file: str
    line: int
    field: str
    value: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: field {self.field!r} = {self.value!r}: {self.reason}"


#: The fix that skips bad input rows, as the CLI user and the library user each type it (error texts end with it).
SKIP_BAD_ROWS = "build with --on-bad-row skip (from Python: on_bad_row='skip')"


class DataError(ChronoqaError, ValueError):
    """A bad value in an input file: names the file, line, field, value, what was expected and the fix."""

    def __init__(
        self,
        file: str,
        line: int,
        field: str,
        value: object,
        expected: str,
        fix: str = f"fix the row, or {SKIP_BAD_ROWS} to skip and count such rows",
    ) -> None:
        self.file, self.line, self.field, self.value = file, line, field, value
        self.expected, self.fix = clip(expected, 2 * MAX_ECHO), fix  # an expectation may quote the value
        expected = self.expected
        shown = clip(value if isinstance(value, str) else repr(value))
        super().__init__(f"{file}:{line}: field {field!r} = {shown!r}: expected {expected}. Fix: {fix}")

    def as_skipped(self) -> SkippedRow:
        """The same problem as a skipped-row record (the value clipped, as manifests echo it)."""
        return SkippedRow(self.file, self.line, self.field, clip(str(self.value)), self.expected)


MAX_ECHO = 200
"""The most characters of a bad value an error message or a manifest repeats."""


def clip(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was when cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


class ChecksumError(ChronoqaError):
    """A downloaded or mirrored file does not have the sha256 it is registered with."""


class StorageError(ChronoqaError):
    """A file or folder at a URI (object storage, HDFS, ``file://``) could not be read or written.

    The message names the URI, what went wrong (pyarrow's own words, clipped), what was expected and the fix.
    """

    def __init__(self, uri: str, problem: str, expected: str, fix: str) -> None:
        self.uri, self.problem, self.expected, self.fix = uri, problem, expected, fix
        super().__init__(f"{problem}; expected {expected}. Fix: {fix}")


class UnknownNameError(ChronoqaError, KeyError):
    """A registry lookup failed; the message suggests the closest known name."""

    def __init__(self, kind: str, name: str, known: Iterable[str]) -> None:
        known = sorted(known)
        hint = did_you_mean(name, known)
        msg = f"Unknown {kind} {name!r}."
        if hint:
            msg += f" Did you mean {hint}?"
        shown = ", ".join(known[:30]) + (f", ... ({len(known)} in all)" if len(known) > 30 else "")
        msg += f" Known: {shown}." if known else " None is known."
        self.kind, self.name, self.known = kind, name, tuple(known)
        super().__init__(msg)

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def did_you_mean(name: str, known: Iterable[str]) -> str | None:
    """The closest name in ``known`` to ``name``, or ``None`` when nothing is close."""
    hits = difflib.get_close_matches(name, list(known), n=1, cutoff=0.5)
    return hits[0] if hits else None


def check_policy(policy: str) -> BadRowPolicy:
    """Validate a bad-row policy name."""
    if policy not in ("raise", "skip"):
        raise ValueError(f"Unknown bad-row policy {policy!r}: expected 'raise' or 'skip'")
    return policy  # type: ignore[return-value]


@dataclass
class LoadReport:
    """What a reader saw: rows read, rows loaded, and every skipped row with its reason.

    ``notes`` holds counted, non-fatal observations (e.g. reversed intervals kept, duplicates merged).
    """

    source: str
    rows_read: int = 0
    rows_loaded: int = 0
    skipped: list[SkippedRow] = field(default_factory=list)
    notes: Counter[str] = field(default_factory=Counter)

    def skip(self, row: SkippedRow) -> None:
        """Record a skipped row."""
        self.skipped.append(row)

    def skipped_by_reason(self) -> dict[str, int]:
        """Counts of skipped rows per reason, sorted by reason."""
        return dict(sorted(Counter(r.reason for r in self.skipped).items()))

    def to_dict(self) -> dict[str, object]:
        """JSON-ready summary (every skipped row is listed, first 1,000 in full)."""
        return {
            "source": self.source,
            "rows_read": self.rows_read,
            "rows_loaded": self.rows_loaded,
            "rows_skipped": len(self.skipped),
            "skipped_by_reason": self.skipped_by_reason(),
            "skipped_rows": [str(r) for r in self.skipped[:1000]],
            "notes": dict(sorted(self.notes.items())),
        }

    def handle(self, error: DataError, policy: BadRowPolicy) -> None:
        """Raise ``error`` under policy ``raise``; record it under ``skip``."""
        if policy == "raise":
            raise error
        self.skip(error.as_skipped())
