"""The run lock: one writer at a time on a run folder (:class:`chronoqa.outdir.FolderLock`).

A run holds an OS file lock (``fcntl.flock``, exclusive) on ``<run>/.lock`` for as long as it works in the
folder; the OS releases it however the process exits (``kill -9`` included). A second run on a locked folder
fails at once with :class:`RunLockedError`, or waits for the lock with ``wait=True``; either way it touches none
of the first run's files. Every other writer (build, retrieve, answer, export, validate, evaluate) takes the same
lock on its own folder and a shared lock on the folders above it (:mod:`chronoqa.outdir`).
"""

from __future__ import annotations

from pathlib import Path

from chronoqa.outdir import LOCK_FILE, FolderLock, FolderLockedError

__all__ = ["LOCK_FILE", "RunLock", "RunLockedError"]

#: Another chronoqa command holds the run folder's lock (or the lock of a folder above it).
RunLockedError = FolderLockedError


class RunLock(FolderLock):
    """An exclusive lock on a run folder; a context manager (``with RunLock(run_dir): ...``)."""

    def __init__(self, run_dir: str | Path, *, wait: bool = False) -> None:
        super().__init__(run_dir, wait=wait, what="run folder")
        self.run_dir = self.folder
