"""Output folders chronoqa owns: a marker in each, one lock per folder, temporary folders named and listed.

Nothing of the user's is ever replaced or deleted. Every command that writes a folder (a run, a release, an
export, retrieval runs, answers, a validation sample) goes through :class:`OutputFolder`:

* **Marker.** A folder chronoqa writes carries :data:`MARKER` (``.chronoqa``: JSON, the folder's kind). A
  command writes only into a folder that does not exist, an empty one, or one whose marker names the same kind;
  anything else is refused with one :class:`OutputFolderError` naming a file found there, before anything is
  written (``--force`` recomputes our own files, never extends to a folder we did not mark). The marker of a
  finished folder holds nothing else, so the same inputs still give byte-identical folders.
* **Temporary and backup folders** (a stage's ``.tmp-``/``.old-`` folder) are named with the writing
  session's random :attr:`OutputFolder.id` and listed in the marker (``pending``) before they are made. A killed
  writer's leftovers are removed by name from that list, never by matching a pattern: a folder of the user's
  that happens to look like one is never touched.
* **One lock per folder** (:class:`FolderLock`: an OS ``flock`` on ``<folder>/.lock``, released by the OS
  however the process ends), for every writer. A writer also takes a shared lock on the lock file of every
  ancestor folder that has one, so ``--out RUN/build`` is refused while a ``chronoqa run`` holds ``RUN``, and
  that run cannot start while the nested writer works. ``wait=True`` (``--wait``) waits instead of failing.
  Locks this process already holds are not taken twice (a run's stages write releases inside its folder; a
  build holds its release folder while it builds, and the release writer inside it finds the lock held).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from chronoqa.errors import ChronoqaError
from chronoqa.io import read_text, temp_names, write_json

__all__ = [
    "KINDS",
    "LOCK_FILE",
    "MARKER",
    "FolderLock",
    "FolderLockedError",
    "OutputFolder",
    "OutputFolderError",
    "ancestor_locks",
    "check_output_folder",
    "file_lock",
    "is_locked",
    "read_marker",
]

MARKER = ".chronoqa"
LOCK_FILE = ".lock"
MARKER_FORMAT = 1
#: The kinds of folder chronoqa writes; a folder of one kind is never written as another.
KINDS = ("run", "release", "export", "retrieve", "answer", "validation")

#: Folders whose lock this process holds (resolved paths): nested writers of the same process pass them.
_HELD: set[Path] = set()


class OutputFolderError(ChronoqaError):
    """An output folder that chronoqa did not create (or of another kind): nothing is written there."""


class FolderLockedError(ChronoqaError):
    """Another chronoqa command holds the folder's lock, or the lock of a folder that holds it."""


def read_marker(folder: str | Path) -> dict[str, Any] | None:
    """The marker of ``folder`` (``None`` when it has none; an unreadable one is no marker of ours)."""
    path = Path(folder) / MARKER
    if not path.is_file():
        return None
    try:
        data = json.loads(read_text(path))
    except (ChronoqaError, ValueError, OSError):
        return None
    return data if isinstance(data, dict) and data.get("kind") in KINDS else None


def _a(word: str) -> str:
    """``word`` with its indefinite article ("an answer", "a run")."""
    return f"an {word}" if word[:1].lower() in "aeiou" else f"a {word}"


def check_output_folder(folder: str | Path, kind: str, *, flag: str = "--out") -> None:
    """Refuse ``folder`` unless it is missing, empty, or marked by chronoqa as a folder of ``kind``.

    Raises:
        OutputFolderError: a file, a folder of another kind, or a folder holding files chronoqa did not write.

    """
    path = Path(folder)
    try:
        path.resolve()
    except (RuntimeError, OSError) as exc:  # a symlink loop: Python raises RuntimeError
        fix = f"Fix: give a new or empty folder as {flag}"
        raise OutputFolderError(f"{flag} {path} cannot be resolved ({exc}). {fix}") from None
    if not path.exists():
        return
    if not path.is_dir():
        raise OutputFolderError(f"{flag} {path} is a file, not a folder. Fix: give a new or empty folder as {flag}")
    marker = read_marker(path)
    if marker is not None:
        if marker["kind"] != kind:
            raise OutputFolderError(
                f"{flag} {path} is a chronoqa {marker['kind']} folder, not {_a(kind)} folder: nothing was written. "
                f"Fix: give a new or empty folder as {flag}"
            )
        return
    if (path / MARKER).exists():
        raise OutputFolderError(
            f"{flag} {path} holds a {MARKER} marker chronoqa cannot read (damaged, or not written by chronoqa): "
            f"nothing was written. Fix: give a new or empty folder as {flag}"
        )
    # a writer that has locked the folder but not marked it yet (or was killed then) leaves only files of ours
    first = next((p for p in sorted(path.iterdir()) if not _in_flight(p)), None)
    if first is not None:
        raise OutputFolderError(
            f"{flag} {path} is not empty and was not written by chronoqa (it holds {first.name!r} and no {MARKER} "
            f"marker): nothing was written, so none of its files is replaced. Fix: give a new or empty folder "
            f"as {flag}, e.g. {flag} {path / f'chronoqa-{kind}'}"
        )


class FolderLock:
    """An exclusive lock on a folder's :data:`LOCK_FILE`; a context manager.

    The OS releases the lock when the process exits, however it exits (``kill -9`` included), so a dead
    writer never blocks the next one. On release the lock file is removed while still locked; a writer that
    opened it just before notices that the file it locked is gone and locks the new one.
    """

    def __init__(self, folder: str | Path, *, wait: bool = False, what: str = "folder", file: str = "") -> None:
        self.folder = Path(folder)
        #: ``file``: lock one file of the folder (``.<file>.lock``), not the whole folder (see :func:`file_lock`)
        self.path = self.folder / (f".{file}.lock" if file else LOCK_FILE)
        self.target = self.folder / file if file else self.folder
        self.wait = wait
        self.what = what
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock (waiting for it when ``wait``); raises :class:`FolderLockedError` when it is held."""
        if self._fd is not None:
            raise ChronoqaError(f"{self.path}: this lock is already held by this object")
        self.folder.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX if self.wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_holder(fd)
                os.close(fd)
                raise FolderLockedError(_busy(self.what, self.target, holder)) from None
            except BaseException:
                os.close(fd)
                raise
            if _same_file(fd, self.path):
                break
            os.close(fd)  # the holder removed the file we locked as it released it: lock the new one
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd
        if self.target == self.folder:
            _HELD.add(self.folder.resolve())

    def release(self) -> None:
        """Remove the lock file and release the lock (a no-op when not held)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if self.target == self.folder:
            _HELD.discard(self.folder.resolve())
        with contextlib.suppress(OSError):
            if _same_file(fd, self.path):
                self.path.unlink()
        os.close(fd)  # closing the last descriptor releases the flock

    @property
    def held(self) -> bool:
        """True while this object holds the lock."""
        return self._fd is not None

    def __enter__(self) -> FolderLock:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


def file_lock(path: str | Path, *, wait: bool = False, what: str = "output file") -> FolderLock:
    """The lock of one output file ``path`` (a metrics file): ``.<name>.lock`` beside it, held as a folder's is.

    Two commands writing the same file: the second fails in one line (or waits, ``wait``); commands writing
    other files of the same folder do not wait for each other.
    """
    path = Path(path)
    return FolderLock(path.parent, wait=wait, what=what, file=path.name)


def _busy(what: str, folder: Path, holder: str) -> str:
    by = f" (process {holder})" if holder else ""
    return (
        f"{what} {folder} is in use by another chronoqa run{by}. Wait for it to finish, run with --wait to "
        "wait for it, or give another --out"
    )


def is_locked(folder: str | Path) -> bool:
    """True when another process holds ``folder``'s lock (this process's own locks excepted); creates nothing."""
    path = Path(folder)
    if path.resolve() in _HELD or not (path / LOCK_FILE).is_file():
        return False
    try:
        fd = os.open(path / LOCK_FILE, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing releases the shared lock taken to test it
    return False


@contextlib.contextmanager
def ancestor_locks(path: str | Path, *, wait: bool = False) -> Iterator[None]:
    """Hold a shared lock on the lock file of every folder above ``path`` that has one, for the ``with`` block.

    A folder locked by another chronoqa command (a run holding ``RUN`` while ``--out RUN/build`` is asked)
    raises :class:`FolderLockedError`, or is waited for with ``wait``; while the block runs, no writer can take
    those folders. Lock files are only read, never created, above ``path``.
    """
    fds: list[int] = []
    try:
        for parent in Path(path).absolute().parents:
            fd = _shared(parent, wait)
            if fd is not None:
                fds.append(fd)
        yield
    finally:
        for fd in fds:
            os.close(fd)


def _shared(folder: Path, wait: bool) -> int | None:
    """A shared lock on ``folder``'s lock file when it has one not held by this process, else ``None``."""
    lock = folder / LOCK_FILE
    if folder.resolve() in _HELD or not lock.is_file():
        return None
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH if wait else fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _read_holder(fd)
        os.close(fd)
        raise FolderLockedError(
            _busy("the folder", folder, holder).replace("give another --out", "give an --out outside it")
        ) from None
    if not _same_file(fd, lock):  # released (and removed) meanwhile: nothing holds it
        os.close(fd)
        return None
    return fd


class OutputFolder:
    """A folder a command writes: checked, locked (with its ancestors) and marked; a context manager.

    ``kind``: one of :data:`KINDS`. ``flag``: how the user named the folder (for the errors). ``lock=False``
    only claims the folder (marker and leftovers, no lock): for code that runs under a lock taken above it.
    """

    def __init__(
        self, folder: str | Path, kind: str, *, wait: bool = False, flag: str = "--out", lock: bool = True
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"output folder kind {kind!r}: expected one of {', '.join(KINDS)}")
        self.path = Path(folder)
        self.kind = kind
        self.flag = flag
        #: Names this session's temporary and backup folders: random, so never one a user could have made.
        self.id = secrets.token_hex(6)
        self._lock = FolderLock(self.path, wait=wait, what=f"{kind} folder") if lock else None
        self._stack = contextlib.ExitStack()
        self._wait = wait
        self._created = False
        self._marker_lock = threading.Lock()  # the marker's list is read, changed and written as one step
        self._files = 0

    def __enter__(self) -> OutputFolder:
        check_output_folder(self.path, self.kind, flag=self.flag)  # before the lock creates anything there
        self._created = not self.path.exists()
        with contextlib.ExitStack() as stack:
            if self._lock is not None and self.path.resolve() not in _HELD:  # this process may hold it already
                stack.enter_context(ancestor_locks(self.path, wait=self._wait))
                stack.enter_context(self._lock)
            self.claim()
            stack.enter_context(temp_names(self.path, self))  # atomic writes here name their temporaries
            self._stack = stack.pop_all()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stack.close()
        if exc_type is not None and self._created:  # a failed command leaves no folder it made and left empty
            with contextlib.suppress(OSError):
                if [p.name for p in self.path.iterdir()] == [MARKER]:
                    (self.path / MARKER).unlink()
                    self.path.rmdir()

    def claim(self) -> None:
        """Check the folder (:func:`check_output_folder`), make it, mark it, and remove a killed writer's leftovers."""
        check_output_folder(self.path, self.kind, flag=self.flag)
        self.path.mkdir(parents=True, exist_ok=True)
        marker = read_marker(self.path)
        if marker is None:
            self._write_marker([])
            return
        pending = [p for p in marker.get("pending", []) if isinstance(p, str)]
        for name in pending:
            leftover = self.path / name
            if not _own_name(name) or leftover.is_symlink():
                continue
            if leftover.is_dir():
                shutil.rmtree(leftover, ignore_errors=True)
            elif leftover.is_file():
                with contextlib.suppress(OSError):
                    leftover.unlink()
        if pending:
            self._write_marker([])

    def temp(self, role: str, label: str) -> Path:
        """A new temporary (``role="tmp"``) or backup (``"old"``) folder's path, listed in the marker first."""
        path = self.path / f".{role}-{label}-{self.id}"
        with self._marker_lock:
            self._write_marker([*self._pending(), path.name])
        return path

    def temp_file(self, path: Path) -> Path | None:
        """The temporary file :func:`chronoqa.io.atomic_write` writes ``path`` through, listed in the marker first.

        Named with this session's :attr:`id` (and a count), never a name a user could have made; the marker's
        own temporary is not listed (it is what holds the list).
        """
        if path.name == MARKER:
            return None
        with self._marker_lock:
            self._files += 1
            temp = self.path / f".tmp-{path.name[:64]}-{self._files}-{self.id}"
            self._write_marker([*self._pending(), temp.name])
        return temp

    def forget(self, *paths: Path) -> None:
        """Take temporaries made with :meth:`temp` or :meth:`temp_file` (removed or renamed since) off the list."""
        names = {p.name for p in paths}
        with self._marker_lock:
            self._write_marker([n for n in self._pending() if n not in names])

    def _pending(self) -> list[str]:
        marker = read_marker(self.path) or {}
        return [p for p in marker.get("pending", []) if isinstance(p, str)]

    def _write_marker(self, pending: list[str]) -> None:
        write_json(self.path / MARKER, {"format": MARKER_FORMAT, "kind": self.kind, "pending": pending})


def _in_flight(path: Path) -> bool:
    """A file a chronoqa writer makes before the marker: its lock file (empty or a process id), the marker's temp."""
    name = path.name
    if name.startswith(f".{MARKER}.") and name.endswith(".tmp"):
        return path.is_file() and not path.is_symlink()
    if name != LOCK_FILE or not path.is_file() or path.is_symlink():
        return False
    try:
        text = path.read_bytes()[:64].strip()
    except OSError:
        return False
    return text.isdigit() or not text


def _own_name(name: str) -> bool:
    """A name :meth:`OutputFolder.temp` gives (no path separator, not the folder itself)."""
    return name.startswith((".tmp-", ".old-")) and "/" not in name and name not in (".", "..")


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
