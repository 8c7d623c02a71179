"""The corpus lines kernel (numba, ``chronoqa[fast]``): a batch's JSON lines or text column, row by row.

:class:`~chronoqa.generate.kg.corpus._CorpusPlan` builds a :class:`Layout` once (its pools of pieces, escaped
once by :func:`~chronoqa.io.json_strings` for the JSON lines or left as they are for the text column, laid end
to end in one byte pool, and the tables that say which piece each row takes), then :func:`lines` makes each
batch: a first pass measures every row, a second copies its pieces into one buffer allocated for them, both
without the GIL, so the ``map_ordered`` workers run side by side. Each row's pieces are those the Arrow joins of
the plan take (the reference): the doc id, the statement's texts and labels, the time phrase's three parts,
the dictionary columns and the fact id, so the bytes are the same.

This module imports numba: import it only where numba is installed (``corpus.kernel_available``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba as nb
import numpy as np
import pyarrow as pa

__all__ = ["Layout", "lines", "pool_arrays", "string_pool"]

_NO_BYTES = np.zeros(0, dtype=np.uint8)
_NO_OFFSETS = np.zeros(1, dtype=np.int64)


@dataclass(frozen=True)
class Layout:
    """The pieces of a corpus's rows: one byte pool and, per relation and case, where each piece starts in it.

    Pool entries are numbered by ``off`` (entry ``i`` is ``data[off[i]:off[i + 1]]``); every ``*_at`` is an entry
    number. ``json`` rows open with the doc id and close with the dictionary columns and the fact id (a JSON
    line); other rows are the text alone.
    """

    data: np.ndarray  # uint8, the pool's bytes
    off: np.ndarray  # int64, entry i = data[off[i]:off[i + 1]]
    first_at: np.ndarray  # int64 per relation: the statement's first text (with the text key in JSON)
    lit_at: np.ndarray  # int64 (k + 1) x relations: the statement's texts between the slots
    slot: np.ndarray  # int8 (k + 1) x relations: 0 none, 1 subject, 2 object (row 0 unused)
    cap: np.ndarray  # bool per relation: the statement opens with a slot (its label capitalised)
    ent_at: int  # the labels of the entities, by code
    capital_at: int  # the capitalised labels, by code
    last_at: np.ndarray  # int64 relation x case: the last text joined to the case's first (k == 0: the only one)
    tail_at: np.ndarray  # int64 3 x case: the first value of each of the case's three parts
    tail_kind: np.ndarray  # int8 3 x case: the part's value by 0 none, 1 start date, 2 end date, 3 listed years
    field_at: np.ndarray  # int64 8: the dictionary columns' values (key before each; ``null`` last)
    field_null: np.ndarray  # int64 8: the number of each column's ``null`` entry among its values
    head_at: int  # ``{"doc_id":"F`` (JSON)
    dash_at: int  # ``-`` (an expanded doc id's year)
    close_at: int  # ``}\n`` (JSON)
    k: int  # the most slots of a statement
    n_cases: int
    json: bool


def pool_arrays(arrays: list[pa.Array]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The strings of ``arrays`` end to end: ``(bytes, int64 offsets, the entry number of each array's first)``."""
    data, off = string_pool(pa.concat_arrays([a.cast(pa.string()) for a in arrays]))
    bases = np.cumsum([0, *(len(a) for a in arrays)]).tolist()[:-1]
    return data, off, [int(x) for x in bases]


def string_pool(arr: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """A string array (no nulls) as ``(bytes, int64 offsets)`` of its rows, no copy of the bytes."""
    if not len(arr):
        return _NO_BYTES, _NO_OFFSETS
    off = np.frombuffer(arr.buffers()[1], dtype=np.int32)[arr.offset : arr.offset + len(arr) + 1]
    data = arr.buffers()[2]
    return (np.frombuffer(data, dtype=np.uint8) if data is not None else _NO_BYTES), off.astype(np.int64)


@nb.njit(nogil=True, cache=True, inline="always")
def _put(data: Any, off: Any, i: Any, out: Any, at: Any, write: Any) -> Any:
    """Entry ``i`` of the pool at ``out[at:]`` (if ``write``); the position after it."""
    a = off[i]
    n = off[i + 1] - a
    if write:
        for t in range(n):
            out[at + t] = data[a + t]
    return at + n


@nb.njit(nogil=True, cache=True, inline="always")
def _put_int(v: Any, out: Any, at: Any, write: Any) -> Any:
    """The decimal digits of ``v`` (a minus sign first if negative) at ``out[at:]``; the position after them."""
    if v < 0:
        if write:
            out[at] = 45
        at += 1
        v = -v
    n = 1
    x = v
    while x >= 10:
        x //= 10
        n += 1
    if write:
        x = v
        for t in range(n - 1, -1, -1):
            out[at + t] = 48 + x % 10
            x //= 10
    return at + n


@nb.njit(nogil=True, cache=True)
def _rows(
    write: Any, out: Any, ends: Any,
    data: Any, off: Any, first_at: Any, lit_at: Any, slot: Any, cap: Any, ent_at: Any, capital_at: Any,
    last_at: Any, tail_at: Any, tail_kind: Any, field_at: Any, field_null: Any, head_at: Any, dash_at: Any,
    close_at: Any, k: Any, n_cases: Any, json: Any,
    r: Any, s: Any, o: Any, case: Any, pos_s: Any, pos_e: Any, hs: Any, he: Any, bad: Any, fid: Any,
    head_mode: Any, id_data: Any, id_off: Any, id_facts: Any, id_years: Any, id_expanded: Any,
    undecided: Any, ov_data: Any, ov_off: Any,
) -> Any:  # fmt: skip
    """Measure (``write`` false: each row's end in ``ends``) or copy (into ``out``) the rows; the bytes in all."""
    at = 0
    j_ov = 0
    for i in range(len(r)):
        if json:
            if head_mode == 0:  # F<fact id>
                at = _put(data, off, head_at, out, at, write)
                at = _put_int(fid[i], out, at, write)
            elif head_mode == 1:  # given, escaped with the key before
                at = _put(id_data, id_off, i, out, at, write)
            else:  # F<original fact id>, -<year> if expanded
                at = _put(data, off, head_at, out, at, write)
                at = _put_int(id_facts[i], out, at, write)
                if id_expanded[i]:
                    at = _put(data, off, dash_at, out, at, write)
                    at = _put_int(id_years[i], out, at, write)
        rr = r[i]
        cc = case[i]
        if undecided[i]:
            at = _put(ov_data, ov_off, j_ov, out, at, write)
            j_ov += 1
        else:
            if k > 0:
                at = _put(data, off, first_at[rr], out, at, write)
                for j in range(1, k + 1):
                    kind = slot[j, rr]
                    if kind != 0:
                        e = s[i] if kind == 1 else o[i]
                        base = capital_at if j == 1 and cap[rr] else ent_at
                        at = _put(data, off, base + e, out, at, write)
                    if j < k:
                        at = _put(data, off, lit_at[j, rr], out, at, write)
            at = _put(data, off, last_at[rr * n_cases + cc], out, at, write)
            for j in range(3):
                kd = tail_kind[j, cc]
                loc = 0
                if kd == 1:
                    loc = pos_s[i]
                elif kd == 2:
                    loc = pos_e[i]
                elif kd == 3:
                    loc = bad[i]
                at = _put(data, off, tail_at[j, cc] + loc, out, at, write)
        if json:
            ss = s[i]
            oo = o[i]
            at = _put(data, off, field_at[0] + ss, out, at, write)
            at = _put(data, off, field_at[1] + rr, out, at, write)
            at = _put(data, off, field_at[2] + oo, out, at, write)
            at = _put(data, off, field_at[3] + (pos_s[i] if hs[i] else field_null[3]), out, at, write)
            at = _put(data, off, field_at[4] + (pos_e[i] if he[i] else field_null[4]), out, at, write)
            at = _put(data, off, field_at[5] + ss, out, at, write)
            at = _put(data, off, field_at[6] + rr, out, at, write)
            at = _put(data, off, field_at[7] + oo, out, at, write)
            at = _put_int(fid[i], out, at, write)
            at = _put(data, off, close_at, out, at, write)
        if not write:
            ends[i] = at
    return at


def lines(
    lay: Layout,
    rows: tuple[np.ndarray, ...],
    head: tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    undecided: np.ndarray,
    overrides: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """The rows' bytes one after the other, and each row's end in them (int64).

    ``rows``: ``(r, s, o, case, pos_s, pos_e, has_start, has_end, listed-year index, fact id)`` of each row, as
    int32 (codes, positions), int8 (case), bool and int64 (fact id) arrays. ``head`` (JSON): ``(0, ...)`` for
    ``F<fact id>``; ``(1, bytes, offsets, ...)``: each row's doc id escaped, the key before it; ``(2, _, _,
    facts, years, expanded)``: ``F<facts>``, ``-<years>`` where ``expanded``. Rows where ``undecided`` take
    their text from ``overrides`` (``(bytes, offsets)``, in row order) instead of the pieces.
    """
    mode, id_data, id_off, id_facts, id_years, id_expanded = head
    ov_data, ov_off = overrides
    tables = (
        lay.data, lay.off, lay.first_at, lay.lit_at, lay.slot, lay.cap, lay.ent_at, lay.capital_at, lay.last_at,
        lay.tail_at, lay.tail_kind, lay.field_at, lay.field_null, lay.head_at, lay.dash_at, lay.close_at, lay.k,
        lay.n_cases, lay.json,
    )  # fmt: skip
    args = (*tables, *rows, mode, id_data, id_off, id_facts, id_years, id_expanded, undecided, ov_data, ov_off)
    ends = np.empty(len(rows[0]), dtype=np.int64)
    total = _rows(False, _NO_BYTES, ends, *args)
    out = np.empty(total, dtype=np.uint8)
    _rows(True, out, ends, *args)
    return out, ends
