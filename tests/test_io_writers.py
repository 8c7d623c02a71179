"""``atomic_write``: the bytes written, under the final name only when whole; then ``map_ordered``'s workers.

A binary file is written in pieces of every kind a writer hands it (bytes, memoryview, Arrow buffer, bytearray),
a Parquet writer writes through one, a failed write leaves nothing behind and an existing file untouched.
"""

from __future__ import annotations

import os
import random
import stat
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chronoqa.io import atomic_write


def _pieces(total: int, seed: int) -> list[bytes]:
    """``total`` bytes cut at random (1 byte to 12 KiB a piece)."""
    rng = random.Random(seed)
    out, done = [], 0
    while done < total:
        k = min(total - done, rng.randint(1, 3 << 12))
        out.append(rng.randbytes(k))
        done += k
    return out


@pytest.mark.parametrize("total", [0, 1, 4096, 70_001, 1 << 20])
def test_binary_bytes_are_the_bytes_written(tmp_path: Path, total: int) -> None:
    pieces = _pieces(total, total)
    with atomic_write(tmp_path / "f.bin", "wb") as fh:
        for i, piece in enumerate(pieces):
            fh.write([piece, memoryview(piece), pa.py_buffer(piece), bytearray(piece)][i % 4])
            assert fh.tell() == sum(map(len, pieces[: i + 1]))
        assert not (tmp_path / "f.bin").exists()  # not under its name until it is whole
    assert (tmp_path / "f.bin").read_bytes() == b"".join(pieces)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.bin"]
    assert stat.S_IMODE((tmp_path / "f.bin").stat().st_mode) == 0o644


def test_a_failed_write_leaves_no_file_and_the_old_one_whole(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="boom"), atomic_write(tmp_path / "b.bin", "wb") as fh:
        fh.write(b"x" * 50_000)
        raise RuntimeError("boom")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "keep.txt").write_text("old\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match="boom"), atomic_write(tmp_path / "keep.txt") as fh:
        fh.write("new\n")
        raise RuntimeError("boom")
    assert (tmp_path / "keep.txt").read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_a_parquet_writer_writes_through_an_atomic_file(tmp_path: Path) -> None:
    table = pa.table({"x": list(range(20_000)), "y": [str(i) for i in range(20_000)]})
    with atomic_write(tmp_path / "t.parquet", "wb") as fh, pq.ParquetWriter(fh, table.schema) as writer:
        for batch in table.to_batches(max_chunksize=1000):
            writer.write_batch(batch)
    assert pq.read_table(tmp_path / "t.parquet").equals(table)


def test_text_mode_writes_utf8_with_newline_line_ends(tmp_path: Path) -> None:
    with atomic_write(tmp_path / "d.txt", "w") as fh:
        fh.write("é\nb\n")
    assert (tmp_path / "d.txt").read_bytes() == "é\nb\n".encode()


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
