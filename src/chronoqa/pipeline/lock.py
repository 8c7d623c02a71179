"""The run lock: one ``chronoqa run`` at a time on a run folder.

:class:`RunLock` holds an OS file lock (``fcntl.flock``, exclusive) on ``<run>/.lock`` for as long as a
run works in the folder. The operating system releases the lock when the process exits, however it
exits (``kill -9`` included), so a dead run never blocks the next one; a lock file left by a dead run
is simply locked again. A second run on a locked folder fails at once with :class:`RunLockedError`
(naming the holder's process id), or waits for the lock with ``wait=True``; either way it touches
none of the first run's files. Everything that deletes files of an earlier run (the leftover
temporary folders of a killed stage) happens only while the lock is held.

On release the lock file is removed while still locked. A run that opened the file just before
(and then locks a file no longer in the folder) notices that the locked file is not the one at the
path and opens the new one: two runs can never both believe they hold the folder.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from types import TracebackType

from chronoqa.errors import ChronoqaError

__all__ = ["LOCK_FILE", "RunLock", "RunLockedError"]

LOCK_FILE = ".lock"


class RunLockedError(ChronoqaError):
    """Another chronoqa run holds the run folder's lock."""


class RunLock:
    """An exclusive lock on a run folder; a context manager (``with RunLock(run_dir): ...``)."""

    def __init__(self, run_dir: str | Path, *, wait: bool = False) -> None:
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / LOCK_FILE
        self.wait = wait
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock (waiting for it when ``wait``); raises :class:`RunLockedError` when it is held."""
        if self._fd is not None:
            raise ChronoqaError(f"{self.path}: this lock is already held by this object")
        self.run_dir.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX if self.wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_holder(fd)
                os.close(fd)
                raise RunLockedError(
                    f"run folder {self.run_dir} is in use by another chronoqa run"
                    f"{f' (process {holder})' if holder else ''}. Wait for it to finish, run with --wait to "
                    "wait for it, or give another --out"
                ) from None
            except BaseException:
                os.close(fd)
                raise
            if _same_file(fd, self.path):
                break
            os.close(fd)  # the holder removed the file we locked as it released it: lock the new one
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd

    def release(self) -> None:
        """Remove the lock file and release the lock (a no-op when not held)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            if _same_file(fd, self.path):
                self.path.unlink()
        os.close(fd)  # closing the last descriptor releases the flock

    @property
    def held(self) -> bool:
        """True while this object holds the lock."""
        return self._fd is not None

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


def _same_file(fd: int, path: Path) -> bool:
    try:
        st = path.stat()
    except FileNotFoundError:
        return False
    fst = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (fst.st_dev, fst.st_ino)


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""
