r"""Atomic, deterministic file output and streaming JSONL input.

Every file chronoqa writes goes through :func:`atomic_write` (write to a temporary file in the same
folder, fsync, rename), so a killed run never leaves a half-written file under its final name.
JSON is written with sorted-free, fixed key order (the records' own), ``ensure_ascii=False`` and
``\\n`` line ends, so the same records give byte-identical files.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import re
import tempfile
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, Protocol, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from chronoqa.errors import DataError
from chronoqa.escape import md_text

T = TypeVar("T")
R = TypeVar("R")

__all__ = [
    "TempNamer",
    "arrow_bytes",
    "atomic_write",
    "check_finite",
    "dumps",
    "iter_json_lines",
    "json_lines",
    "json_strings",
    "map_ordered",
    "md_escape",
    "not_a_file",
    "numbered_jsonl",
    "read_json",
    "read_jsonl",
    "read_text",
    "sha256_bytes",
    "sha256_file",
    "string_bytes",
    "temp_names",
    "text_lines",
    "write_json",
    "write_jsonl",
    "write_text",
]


class TempNamer(Protocol):
    """Names the temporary files written into one folder, and lists them where a later writer finds them."""

    def temp_file(self, path: Path) -> Path | None:
        """A new temporary file's path for ``path`` (listed first), or ``None`` to use an unlisted one."""

    def forget(self, *paths: Path) -> None:
        """Take temporary paths (renamed or removed since) off the list."""


#: Folders (resolved) whose temporaries are named and listed by their writer (:class:`chronoqa.outdir.OutputFolder`)
_NAMERS: dict[Path, TempNamer] = {}


@contextlib.contextmanager
def temp_names(folder: str | Path, namer: TempNamer) -> Iterator[None]:
    """For the ``with`` block, :func:`atomic_write` into ``folder`` names its temporary files with ``namer``.

    A writer killed mid-write (``kill -9``) leaves a temporary file the next writer of the folder finds on
    ``namer``'s list and removes by name; a file matching no list is never removed.
    """
    key = Path(folder).resolve()
    before = _NAMERS.get(key)  # a writer nested in another of the same folder names them while it runs
    _NAMERS[key] = namer
    try:
        yield
    finally:
        if before is None:
            _NAMERS.pop(key, None)
        else:
            _NAMERS[key] = before


def _temp_file(path: Path) -> tuple[int, str, TempNamer | None]:
    """An open temporary file beside ``path``: named by the folder's :class:`TempNamer` when it has one."""
    namer = _NAMERS.get(path.parent.resolve()) if _NAMERS else None
    named = None if namer is None else namer.temp_file(path)
    if namer is None or named is None:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        return fd, tmp, None
    try:
        return os.open(named, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), str(named), namer
    except BaseException:
        namer.forget(named)
        raise


@contextlib.contextmanager
def atomic_write(path: str | Path, mode: str = "w") -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path``; on success fsync it and rename it over ``path``, else remove it.

    Writes go through the page cache (a buffered file); the fsync before the rename makes the file whole on disk
    under its final name or not there at all. In a folder a writer holds (:func:`temp_names`), the temporary
    file is named and listed by it, so a killed writer's leftover is removed by the next one.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp, namer = _temp_file(path)
    try:
        os.fchmod(fd, 0o644)  # mkstemp creates 0600; a written file is for sharing
        kwargs: dict[str, Any] = {} if "b" in mode else {"encoding": "utf-8", "newline": "\n"}
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    finally:
        if namer is not None:
            namer.forget(Path(tmp))


def arrow_bytes(data: bytes) -> pa.Buffer:
    """A copy of ``data`` in memory Arrow owns: what Arrow's threaded readers (CSV, JSON, Parquet) are given.

    A buffer wrapping a Python ``bytes`` object takes the GIL when Arrow lets it go. When a worker of Arrow's thread
    pools does that while the interpreter shuts down (a reader's late task, more likely under CPU load), Python ends
    the thread with ``pthread_exit`` inside C++ code and the process aborts ("terminate called without an active
    exception", exit 134) after the command is done. Memory Arrow owns is let go without the GIL.
    """
    buf = pa.allocate_buffer(len(data))
    if data:
        memoryview(buf).cast("B")[:] = data
    return buf


def dumps(obj: Any) -> str:
    """Compact, deterministic JSON for one record."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def md_escape(text: Any) -> str:
    """Data text made inert in Markdown (reports, data cards): :func:`chronoqa.escape.md_text`."""
    return md_text(text)


def write_text(path: str | Path, text: str) -> None:
    """Write a text file atomically."""
    with atomic_write(path) as fh:
        fh.write(text)


def write_json(path: str | Path, obj: Any) -> None:
    """Write pretty, deterministic JSON atomically (keys sorted, 2-space indent, final newline)."""
    with atomic_write(path) as fh:
        fh.write(json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=True, allow_nan=False))
        fh.write("\n")


def write_jsonl(path: str | Path, records: Iterable[Mapping[str, Any]]) -> int:
    """Write one JSON object per line atomically; returns the number of lines."""
    n = 0
    with atomic_write(path) as fh:
        for rec in records:
            fh.write(dumps(rec))
            fh.write("\n")
            n += 1
    return n


#: Bytes compared at a time when looking for the bytes JSON escapes (the temporaries stay in cache).
_SCAN_BYTES = 1 << 18


def _escaped_at(data: np.ndarray) -> np.ndarray:
    """Where ``data`` (UTF-8 bytes) holds a byte JSON escapes inside a string: a quote, a backslash, a control.

    No byte of a multi-byte UTF-8 character is one. A chunk of bytes at a time, three comparisons each.
    """
    hits = []
    is_hit, other = np.empty(_SCAN_BYTES, dtype=bool), np.empty(_SCAN_BYTES, dtype=bool)
    for a in range(0, len(data), _SCAN_BYTES):
        chunk = data[a : a + _SCAN_BYTES]
        hit, tmp = is_hit[: len(chunk)], other[: len(chunk)]
        np.less(chunk, 0x20, out=hit)
        hit |= np.equal(chunk, 0x22, out=tmp)
        hit |= np.equal(chunk, 0x5C, out=tmp)
        if hit.any():
            hits.append(np.flatnonzero(hit) + a)
    return np.concatenate(hits) if hits else np.zeros(0, dtype=np.int64)


def _offsets(arr: pa.Array) -> np.ndarray:
    """The value offsets of a (non-large) string array, as numpy, for its rows."""
    return np.frombuffer(arr.buffers()[1], dtype=np.int32)[arr.offset : arr.offset + len(arr) + 1]


def json_strings(arr: pa.Array, prefix: str = "", suffix: str = "", *, quoted: bool = True) -> pa.Array:
    """``prefix + dumps(value) + suffix`` for each string of ``arr`` (``null`` for a missing one), in bulk.

    ``quoted=False`` leaves out the quotes of :func:`dumps`: the escaped text alone, which concatenates (JSON
    escapes character by character, so the escaped pieces of a text joined are the escaped text). A string with
    no byte that JSON escapes is written as it is (one Arrow join for all of them); the few others go through
    :func:`dumps` one by one.
    """
    if pa.types.is_large_string(arr.type):
        arr = arr.cast(pa.string())
    quote = '"' if quoted else ""
    before, after = prefix + quote, quote + suffix
    out = pc.binary_join_element_wise(before, arr, after, "") if before or after else arr
    data = arr.buffers()[2]
    if data is not None and len(arr):
        offsets = _offsets(arr)
        hits = _escaped_at(np.frombuffer(data, dtype=np.uint8)[offsets[0] : offsets[-1]])
        if len(hits):
            rows = np.unique(np.searchsorted(offsets, hits + offsets[0], side="right") - 1)
            mask = np.zeros(len(arr), dtype=bool)
            mask[rows] = True
            cut = slice(None) if quoted else slice(1, -1)
            escaped = [prefix + dumps(arr[int(i)].as_py())[cut] + suffix for i in rows.tolist()]
            out = pc.replace_with_mask(out, pa.array(mask), pa.array(escaped, pa.string()))
    return pc.fill_null(out, prefix + "null" + suffix) if arr.null_count else out


def _json_pieces(col: pa.Array, prefix: str, suffix: str) -> list[pa.Array | str]:
    """``prefix + JSON + suffix`` of each value of a column, as pieces of one row-wise join.

    Columns are strings (plain or dictionary), integers or booleans. Text the same in every row (the key, a
    string's quotes) stays a scalar piece, so a column without nulls is not copied before the join.
    """
    t = col.type
    null = prefix + "null" + suffix
    if pa.types.is_dictionary(t) and (pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type)):
        return [pc.fill_null(json_strings(col.dictionary, prefix, suffix).take(col.indices), null)]
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        if col.null_count:
            return [json_strings(col, prefix, suffix)]
        return [prefix + '"', json_strings(col, quoted=False), '"' + suffix]
    if pa.types.is_integer(t):
        text = pc.cast(col, pa.string())
    elif pa.types.is_boolean(t):
        text = pc.if_else(col, "true", "false")
    elif pa.types.is_null(t):
        return [pa.array([null] * len(col), pa.string())]
    else:
        raise TypeError(f"json_lines: column type {t} is not written (strings, integers and booleans are)")
    if col.null_count:
        return [pc.fill_null(pc.binary_join_element_wise(prefix, text, suffix, ""), null)]
    return [prefix, text, suffix]


def json_lines(batch: pa.RecordBatch) -> pa.Buffer:
    """The rows of ``batch`` as JSON lines, the bytes :func:`write_jsonl` writes for the same records.

    Each row is one object with the batch's columns as keys, in column order (:func:`dumps`: compact,
    ``ensure_ascii=False``, ``null`` for a missing value). Columns are strings (plain or dictionary-encoded, each
    distinct dictionary value escaped once), integers or booleans. Each column becomes its ``"key":value``
    pieces and the pieces are joined row by row in one Arrow join (no Python per row).
    """
    names = batch.schema.names
    if not names:
        return pa.py_buffer(b"{}\n" * batch.num_rows)
    last = len(names) - 1
    pieces: list[pa.Array | str] = []
    for i, (name, col) in enumerate(zip(names, batch.columns, strict=True)):
        for piece in _json_pieces(col, ("{" if i == 0 else ",") + dumps(name) + ":", "}\n" if i == last else ""):
            if isinstance(piece, str) and pieces and isinstance(pieces[-1], str):
                pieces[-1] += piece  # one scalar between two columns' values
            elif not isinstance(piece, str) or piece:
                pieces.append(piece)
    if len(pieces) == 1 and not isinstance(pieces[0], str):
        return string_bytes(pieces[0])
    return string_bytes(pc.binary_join_element_wise(*pieces, ""))


def string_bytes(arr: pa.Array) -> pa.Buffer:
    """The strings of a (non-large) string array without nulls, one after the other, as one buffer (no copy)."""
    if not len(arr) or arr.buffers()[2] is None:
        return pa.py_buffer(b"")
    offsets = _offsets(arr)
    return arr.buffers()[2][int(offsets[0]) : int(offsets[-1])]


def map_ordered(
    fn: Callable[[T], R], items: Iterable[T], threads: int | None = None, *, spare: int = 0
) -> Iterator[tuple[T, R]]:
    """``(item, fn(item))`` for each item, in order, ``fn`` run on ``threads`` worker threads.

    For work that releases the GIL (Arrow kernels, large numpy operations, file writes): the workers compute the
    next items while the caller consumes this one. The results and their order do not depend on the number of
    threads (``None``: up to 4, at most the machine's CPUs less ``spare``, the cores the caller's own work on
    each result keeps busy, and at least 1; ``0``: in the calling thread). At most ``threads + 1`` items are in
    flight, so memory stays that of a few items.
    """
    workers = max(1, min(4, (os.cpu_count() or 1) - spare)) if threads is None else threads
    if workers <= 0:
        for item in items:
            yield item, fn(item)
        return
    pending: deque[tuple[T, Future[R]]] = deque()
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="chronoqa-map") as pool:
        for item in items:
            pending.append((item, pool.submit(fn, item)))
            if len(pending) > workers:
                done, fut = pending.popleft()
                yield done, fut.result()
        while pending:
            done, fut = pending.popleft()
            yield done, fut.result()


def iter_json_lines(
    batches: Iterable[pa.RecordBatch], threads: int | None = None
) -> Iterator[tuple[pa.RecordBatch, pa.Buffer]]:
    """``(batch, json_lines(batch))`` for each batch, in order, converted on ``threads`` worker threads.

    The Arrow kernels release the GIL, so a batch is converted while the caller makes or writes the next ones;
    the output is the same whatever the number of threads (:func:`map_ordered`).
    """
    return map_ordered(json_lines, batches, threads)


def _not_utf8(path: Path, line: int, bad: bytes, offset: int) -> DataError:
    return DataError(
        str(path),
        line,
        "(bytes)",
        f"{bad!r} at byte offset {offset}",
        "UTF-8 text",
        "re-encode the file as UTF-8 (e.g. iconv -f latin1 -t utf-8 FILE)",
    )


def not_a_file(path: str | Path) -> str | None:
    """Why ``path`` is not a regular file to read (``None``: it is one): missing, a folder, or a pipe/device/socket.

    A named pipe would block a reader forever and a device never ends; neither is data a user meant to give.
    """
    p = Path(path)
    if p.is_file():
        return None
    if p.is_dir():
        return "is a folder, not a file"
    if p.exists():
        return "is not a regular file (a named pipe, device or socket): give the path of a file on disk"
    return "does not exist: check the path"


def read_text(path: str | Path) -> str:
    """Read a UTF-8 text file; bytes that are not UTF-8 raise :class:`DataError` naming the file and line.

    A path that exists but is not a regular file or folder (a named pipe, a device) is refused unread.
    """
    path = Path(path)
    if path.exists() and not path.is_dir() and (why := not_a_file(path)):
        raise DataError(str(path), 0, "(file)", str(path), "a regular file", f"it {why}")
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _not_utf8(path, line, data[exc.start : exc.end], exc.start) from None


def text_lines(path: str | Path, data: bytes | None = None) -> Generator[tuple[int, str], None, None]:
    """Stream ``(line number, line)`` of a UTF-8 file (1-based, line end kept); ``data``: its bytes, already read.

    Bytes that are not UTF-8 raise :class:`DataError` naming the file and line.
    """
    path = Path(path)
    offset = 0
    with path.open("rb") if data is None else io.BytesIO(data) as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                yield lineno, raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise _not_utf8(path, lineno, raw[exc.start : exc.end], offset + exc.start) from None
            offset += len(raw)


def read_json(path: str | Path) -> Any:
    """Read a JSON file; a syntax error names the file, line and column."""
    path = Path(path)
    text = read_text(path)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(
            str(path),
            exc.lineno,
            "(json)",
            exc.doc[exc.pos : exc.pos + 40],
            f"valid JSON ({exc.msg})",
            "repair or regenerate the file",
        ) from None
    check_finite(path, 0, text, obj)
    return obj


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """Stream the objects of a JSONL file; a bad line raises :class:`DataError` naming it."""
    for _, obj in numbered_jsonl(path):
        yield obj


def numbered_jsonl(path: str | Path, data: bytes | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Stream ``(line number, object)`` of a JSONL file (blank lines skipped but counted); ``data``: its bytes."""
    path = Path(path)
    for lineno, line in text_lines(path, data):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(
                str(path),
                lineno,
                "(json)",
                line[:80].rstrip(),
                f"one JSON object per line ({exc.msg})",
                "repair or regenerate the file",
            ) from None
        check_finite(path, lineno, line, obj)
        if not isinstance(obj, dict):
            raise DataError(
                str(path),
                lineno,
                "(json)",
                line[:80].rstrip(),
                "a JSON object",
                "each line must be one {...} record",
            )
        yield lineno, obj


#: What a JSON text holding a number that is not finite shows: Python's NaN/Infinity tokens, or an exponent
#: too large for a float (``1e999`` parses as infinity); only a text that shows one is walked.
_NON_FINITE_HINT = re.compile(r"NaN|Infinity|[eE][+-]?\d{3}")


def check_finite(path: str | Path, line: int, text: str, obj: Any) -> None:
    """Raise :class:`DataError` when the JSON value ``obj`` (parsed from ``text``) holds a NaN or infinite number.

    ``line`` 0: ``text`` is a whole file, and the error names the line of the first NaN/Infinity token.
    """
    hint = _NON_FINITE_HINT.search(text)
    if hint is None:
        return
    found = _non_finite(obj, "")
    if found is None:
        return
    where, value = found
    if line == 0:
        line = text.count("\n", 0, hint.start()) + 1
    raise DataError(
        str(path), line, where or "(value)", value, "a finite number (not NaN or infinity)", "fix the value"
    )


def _non_finite(obj: Any, where: str) -> tuple[str, float] | None:
    """The first NaN or infinite float in ``obj`` with its field path (``hits[2].score``), else ``None``."""
    if isinstance(obj, float):
        return None if math.isfinite(obj) else (where, obj)
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    for key, value in items:
        found = _non_finite(value, f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}" if where else key)
        if found is not None:
            return found
    return None


def sha256_bytes(data: bytes) -> str:
    """Hex sha256 of bytes."""
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path, chunk: int = 1 << 20) -> str:
    """Hex sha256 of a file, streamed."""
    h = hashlib.sha256()
    with Path(path).open("rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()
