"""``atomic_write(..., stream=True)``: the same bytes whatever the write sizes, past the page cache where allowed.

The buffer is made small (``STREAM_BUFFER`` monkeypatched) so that every path runs on a few kilobytes: a file
smaller than the buffer, whole buffers written directly, the tail through the page cache, a filesystem that
refuses ``O_DIRECT`` when it is set or when it is written, and a failed write. Then ``map_ordered``'s workers.
"""

from __future__ import annotations

import errno
import fcntl
import os
import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import chronoqa.io as cio
from chronoqa.io import atomic_write

BLOCK = 4096
needs_direct = pytest.mark.skipif(not hasattr(os, "O_DIRECT"), reason="O_DIRECT is Linux's")


def _pieces(total: int, seed: int) -> list[bytes]:
    """``total`` bytes cut at random (1 byte to 3 blocks a piece), each piece distinct."""
    rng = random.Random(seed)
    out, done = [], 0
    while done < total:
        k = min(total - done, rng.randint(1, 3 * BLOCK))
        out.append(bytes(rng.getrandbits(8) for _ in range(k)))
        done += k
    return out


def _direct_ok(folder: Path) -> bool:
    fd = os.open(folder / "probe", os.O_WRONLY | os.O_CREAT)
    try:
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_DIRECT)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
        os.unlink(folder / "probe")


class _Spy:
    """``os.write`` recording each call's length and whether its file had ``O_DIRECT`` on."""

    def __init__(self, monkeypatch: Any, refuse_direct_after: int | None = None) -> None:
        self.calls: list[tuple[int, bool]] = []
        self.real = os.write
        self.refuse_after = refuse_direct_after  # direct writes taken before the rest are refused
        monkeypatch.setattr(os, "write", self)

    def __call__(self, fd: int, data: Any) -> int:
        direct = bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_DIRECT)
        if direct and self.refuse_after is not None and sum(d for _, d in self.calls) >= self.refuse_after:
            raise OSError(errno.EINVAL, "Invalid argument")
        self.calls.append((len(memoryview(data)), direct))
        return int(self.real(fd, data))


@needs_direct
@pytest.mark.parametrize("total", [0, 1, 3 * BLOCK, 4 * BLOCK, 4 * BLOCK + 1, 17 * BLOCK + 123, 40 * BLOCK])
def test_streamed_bytes_are_the_bytes_written(tmp_path: Path, monkeypatch: Any, total: int) -> None:
    monkeypatch.setattr(cio, "STREAM_BUFFER", 4 * BLOCK)
    spy = _Spy(monkeypatch)
    pieces = _pieces(total, total)
    with atomic_write(tmp_path / "f.bin", "wb", stream=True) as fh:
        for i, piece in enumerate(pieces):  # bytes, memoryview, Arrow buffer, bytearray
            fh.write([piece, memoryview(piece), pa.py_buffer(piece), bytearray(piece)][i % 4])
            assert fh.tell() == sum(map(len, pieces[: i + 1]))
    assert (tmp_path / "f.bin").read_bytes() == b"".join(pieces)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.bin"]
    direct = [n for n, d in spy.calls if d]
    cached = [n for n, d in spy.calls if not d]
    if not _direct_ok(tmp_path):
        assert not direct
        return
    # once a buffer filled, every whole block went past the page cache; the last partial block through it, last
    assert sum(direct) == (total // BLOCK * BLOCK if total >= 4 * BLOCK else 0)
    assert all(n % BLOCK == 0 for n in direct)
    assert sum(cached) == total - sum(direct) and len(cached) <= 1
    assert [d for _, d in spy.calls] == sorted((d for _, d in spy.calls), reverse=True)


@needs_direct
def test_a_file_smaller_than_the_buffer_never_goes_direct(tmp_path: Path, monkeypatch: Any) -> None:
    spy = _Spy(monkeypatch)
    with atomic_write(tmp_path / "small.jsonl", "wb", stream=True) as fh:
        fh.write(b'{"a":1}\n' * 1000)
    assert spy.calls == [(8000, False)]


@needs_direct
def test_a_filesystem_that_refuses_o_direct_gets_the_same_bytes(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(cio, "STREAM_BUFFER", 2 * BLOCK)
    real_fcntl = fcntl.fcntl

    def refusing(fd: int, cmd: int, arg: int = 0) -> int:
        if cmd == fcntl.F_SETFL and arg & os.O_DIRECT:
            raise OSError(errno.EINVAL, "Invalid argument")  # tmpfs
        return int(real_fcntl(fd, cmd, arg))

    monkeypatch.setattr(fcntl, "fcntl", refusing)
    spy = _Spy(monkeypatch)
    pieces = _pieces(9 * BLOCK + 7, 1)
    with atomic_write(tmp_path / "f.bin", "wb", stream=True) as fh:
        for piece in pieces:
            fh.write(piece)
    assert (tmp_path / "f.bin").read_bytes() == b"".join(pieces)
    assert spy.calls and not any(d for _, d in spy.calls)


@needs_direct
@pytest.mark.parametrize("taken", [0, 2])
def test_direct_writes_refused_when_written_fall_back_to_the_page_cache(
    tmp_path: Path, monkeypatch: Any, taken: int
) -> None:
    """The filesystem takes ``O_DIRECT`` but refuses its writes, at once or after ``taken`` of them."""
    if not _direct_ok(tmp_path):
        pytest.skip("this filesystem refuses O_DIRECT already when it is set")
    monkeypatch.setattr(cio, "STREAM_BUFFER", 2 * BLOCK)
    spy = _Spy(monkeypatch, refuse_direct_after=taken)
    pieces = _pieces(9 * BLOCK + 7, 2)
    with atomic_write(tmp_path / "f.bin", "wb", stream=True) as fh:
        for piece in pieces:
            fh.write(piece)
    assert (tmp_path / "f.bin").read_bytes() == b"".join(pieces)
    assert sum(n for n, _ in spy.calls) == 9 * BLOCK + 7
    assert [d for _, d in spy.calls] == [True] * taken + [False] * (len(spy.calls) - taken)


def test_a_failed_streamed_write_leaves_no_file(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(cio, "STREAM_BUFFER", 2 * BLOCK)
    with pytest.raises(RuntimeError, match="boom"), atomic_write(tmp_path / "b.bin", "wb", stream=True) as fh:
        fh.write(b"x" * (5 * BLOCK))
        raise RuntimeError("boom")
    assert list(tmp_path.iterdir()) == []


def test_a_parquet_writer_writes_through_a_streamed_file(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(cio, "STREAM_BUFFER", 4 * BLOCK)
    table = pa.table({"x": list(range(20_000)), "y": [str(i) for i in range(20_000)]})
    with (
        atomic_write(tmp_path / "t.parquet", "wb", stream=True) as fh,
        pq.ParquetWriter(fh, table.schema) as writer,
    ):
        for batch in table.to_batches(max_chunksize=1000):
            writer.write_batch(batch)
    assert pq.read_table(tmp_path / "t.parquet").equals(table)


def test_text_mode_ignores_stream(tmp_path: Path) -> None:
    with atomic_write(tmp_path / "d.txt", "w", stream=True) as fh:
        fh.write("é\n")
    assert (tmp_path / "d.txt").read_text(encoding="utf-8") == "é\n"


@pytest.mark.parametrize(
    ("cpus", "spare", "workers"), [(2, 0, 2), (2, 1, 1), (1, 1, 1), (8, 0, 4), (8, 1, 4), (4, 1, 3)]
)
def test_map_ordered_leaves_the_callers_cores(monkeypatch: Any, cpus: int, spare: int, workers: int) -> None:
    """``threads=None``: up to 4 workers, the machine's CPUs less ``spare``, at least 1; the results in order."""
    import threading
    import time

    from chronoqa.io import map_ordered

    monkeypatch.setattr(os, "cpu_count", lambda: cpus)
    names: set[str] = set()

    def work(i: int) -> int:
        names.add(threading.current_thread().name)
        time.sleep(0.01)  # long enough that every worker takes some of the 40 items
        return i * i

    assert list(map_ordered(work, range(40), spare=spare)) == [(i, i * i) for i in range(40)]
    assert len(names) == workers
    assert all(name.startswith("chronoqa-map") for name in names)
