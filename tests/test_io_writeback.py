"""``atomic_write(..., writeback=N)``: the same bytes, the background writeback started and stopped, errors kept."""

from __future__ import annotations

import itertools
import os
import threading
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chronoqa.io import atomic_write


def _writeback_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "chronoqa-writeback"]


def test_writeback_writes_the_same_bytes_and_syncs_as_it_goes(tmp_path: Path, monkeypatch: Any) -> None:
    synced: list[int] = []
    seen = threading.Event()
    real = getattr(os, "fdatasync", os.fsync)

    def counting(fd: int) -> None:
        synced.append(os.fstat(fd).st_size)
        real(fd)
        seen.set()

    monkeypatch.setattr(os, "fdatasync", counting, raising=False)
    monkeypatch.setattr(os, "fsync", counting)
    chunks = [bytes([i]) * (1000 + i) for i in range(50)]
    with atomic_write(tmp_path / "a.bin", "wb", writeback=4000) as fh:
        fh.write(b"head" * 1000)  # 4000 bytes: flushed, and the thread woken
        assert seen.wait(10), "the writeback thread did not sync within 10 s"
        assert synced == [4000]  # it synced what was written so far, while the file is open
        for chunk in chunks:
            fh.write(chunk)
        fh.write(memoryview(b"tail"))
        fh.write(pa.py_buffer(b"!"))
    data = (tmp_path / "a.bin").read_bytes()
    assert data == b"head" * 1000 + b"".join(chunks) + b"tail!"
    assert synced[-1] == len(data)  # the final fsync, after everything
    assert all(a <= b for a, b in itertools.pairwise(synced))
    assert not _writeback_threads()


def test_writeback_carries_a_parquet_writer(tmp_path: Path) -> None:
    table = pa.table({"x": list(range(20_000)), "y": [str(i) for i in range(20_000)]})
    with (
        atomic_write(tmp_path / "t.parquet", "wb", writeback=1 << 12) as fh,
        pq.ParquetWriter(fh, table.schema) as writer,
    ):
        for batch in table.to_batches(max_chunksize=1000):
            writer.write_batch(batch)
    assert pq.read_table(tmp_path / "t.parquet").equals(table)
    assert not _writeback_threads()


def test_a_failed_write_leaves_no_file_and_no_thread(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="boom"), atomic_write(tmp_path / "b.bin", "wb", writeback=1) as fh:
        fh.write(b"x" * 100)
        raise RuntimeError("boom")
    assert list(tmp_path.iterdir()) == []
    assert not _writeback_threads()


@pytest.mark.skipif(not hasattr(os, "fdatasync"), reason="the writeback thread uses fsync where fdatasync is missing")
def test_a_failed_background_sync_fails_the_write(tmp_path: Path, monkeypatch: Any) -> None:
    """The thread's fdatasync fails (the final fsync would not): the write fails with its error, no file left."""
    failed = threading.Event()

    def broken(fd: int) -> None:
        failed.set()
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fdatasync", broken)
    with pytest.raises(OSError, match="Input/output error"), atomic_write(tmp_path / "c.bin", "wb", writeback=1) as fh:
        fh.write(b"x" * 100)
        assert failed.wait(10), "the writeback thread did not sync within 10 s"
    assert list(tmp_path.iterdir()) == []
    assert not _writeback_threads()


def test_text_mode_ignores_writeback(tmp_path: Path) -> None:
    with atomic_write(tmp_path / "d.txt", "w", writeback=1) as fh:
        fh.write("é\n")
    assert (tmp_path / "d.txt").read_text(encoding="utf-8") == "é\n"
