"""The corpus lines kernel (numba, ``chronoqa[fast]``): a batch's JSON lines or text column, row by row.

:class:`~chronoqa.generate.kg.corpus._CorpusPlan` builds a :class:`Layout` once (its pools of pieces, escaped
once by :func:`~chronoqa.io.json_strings` for the JSON lines or left as they are for the text column, laid end
to end in one byte pool, and the tables that say which piece each row takes), then :func:`lines` makes each
batch, :data:`CHUNK` rows at a time: their pieces listed (and measured) from the row codes, then copied by one
tight loop into a buffer grown as needed, all without the GIL, so the ``map_ordered`` workers run side by side.
An entity's pieces (label, capitalised label, id) and a date's (as text, as ISO) sit side by side in the pool,
so a row's subject, object and dates cost a cache line or two each. Each row's pieces are those the Arrow joins of
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

#: Rows whose pieces are listed, then copied, at a time (the list and their pool entries stay in the cache).
CHUNK = 512
#: Spare bytes at the end of every pool and output buffer of the kernel (see ``_put``).
SLACK = 16
_NO_BYTES = np.zeros(SLACK, dtype=np.uint8)
_NO_OFFSETS = np.zeros(1, dtype=np.int32)


@dataclass(frozen=True)
class Layout:
    """The pieces of a corpus's rows: one byte pool and, per relation and case, where each piece starts in it.

    Pool entries are numbered by ``off`` (entry ``i`` is ``data[off[i]:off[i + 1]]``); every ``*_at`` is an entry
    number. ``json`` rows open with the doc id and close with the dictionary columns and the fact id (a JSON
    line); other rows are the text alone.
    """

    data: np.ndarray  # uint8, the pool's bytes
    off: np.ndarray  # int32 (int64 from 2 GiB), entry i = data[off[i]:off[i + 1]]
    first_at: np.ndarray  # int64 per relation: the statement's first text (with the text key in JSON)
    lit_at: np.ndarray  # int64 (k + 1) x relations: the statement's texts between the slots
    slot: np.ndarray  # int8 (k + 1) x relations: 0 none, 1 subject, 2 object (row 0 unused)
    cap: np.ndarray  # bool per relation: the statement opens with a slot (its label capitalised)
    ent_at: int  # the entities' entries, ``ent_w`` each by code: label, capitalised label, (JSON) id
    ent_w: int
    date_at: int  # the dates' entries, ``date_w`` each by position: the date as text, as ISO
    date_w: int
    last_at: np.ndarray  # int64 relation x case: the last text joined to the case's first (k == 0: the only one)
    tail_at: np.ndarray  # int64 3 x case: the first value of each of the case's three parts (a date: the text after)
    tail_kind: np.ndarray  # int8 3 x case: the part's value by 0 none, 1 start date, 2 end date, 3 listed years
    tail_col: np.ndarray  # int8 3 x case: a date part's column in the date's entries
    keys: np.ndarray  # int64 12 (JSON): the keys between the columns and the relations' columns (see ``_rows``)
    head_at: int  # ``{"doc_id":"F`` (JSON)
    dash_at: int  # ``-`` (an expanded doc id's year)
    close_at: int  # ``}\n`` (JSON)
    k: int  # the most slots of a statement
    n_cases: int
    json: bool


def pool_arrays(arrays: list[pa.Array]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The strings of ``arrays`` end to end: ``(bytes, offsets, the entry number of each array's first)``."""
    data, off = string_pool(pa.concat_arrays([a.cast(pa.string()) for a in arrays]))
    bases = np.cumsum([0, *(len(a) for a in arrays)]).tolist()[:-1]
    return data, off, [int(x) for x in bases]


def string_pool(arr: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """A string array (no nulls) as ``(bytes, offsets)`` of its rows, the bytes copied with :data:`SLACK`.

    The offsets are int32 (half the cache lines of int64), int64 from 2 GiB of bytes.
    """
    if not len(arr):
        return _NO_BYTES, _NO_OFFSETS
    off = np.frombuffer(arr.buffers()[1], dtype=np.int32)[arr.offset : arr.offset + len(arr) + 1].astype(np.int64)
    data = arr.buffers()[2]
    raw = np.frombuffer(data, dtype=np.uint8)[off[0] : off[-1]] if data is not None else _NO_BYTES[:0]
    padded = np.zeros(len(raw) + SLACK, dtype=np.uint8)
    padded[: len(raw)] = raw
    off = off - off[0]
    return padded, off.astype(np.int32) if off[-1] < 2**31 else off


@nb.njit(nogil=True, cache=True, inline="always")
def _put(data: Any, off: Any, i: Any, out: Any, at: Any, write: Any) -> Any:
    """Entry ``i`` of the pool at ``out[at:]`` (if ``write``); the position after it.

    It copies 16 bytes at a time (:func:`_copy16`), unsigned indices (no wraparound test): up to 15 bytes past the
    entry are read and written, so ``data`` and ``out`` end with :data:`SLACK` spare bytes (the next entry
    overwrites what is written past this one).
    """
    n = off[i + 1] - off[i]
    if write:
        a = np.uint64(off[i])
        o = np.uint64(at)
        t = np.uint64(0)
        m = np.uint64(n)
        while t < m:
            _copy16(data, a + t, out, o + t)
            t += _U[16]
    return at + n


#: The offsets of :func:`_copy16` as uint64 (an int64 added to a uint64 index would make it a float).
_U = tuple(np.uint64(u) for u in range(17))


@nb.njit(nogil=True, cache=True, inline="always")
def _copy16(data: Any, x: Any, out: Any, y: Any) -> None:
    """``out[y:y + 16] = data[x:x + 16]``, all 16 bytes loaded before any is stored.

    LLVM then makes it one vector load and one vector store; a byte-by-byte loop stays 32 byte moves, because
    each store might change a later load (``data`` and ``out`` could be the same array). The lines took about a
    quarter less time (an isolated harness, 3M rows).
    """
    u = _U
    b0, b1, b2, b3 = data[x], data[x + u[1]], data[x + u[2]], data[x + u[3]]
    b4, b5, b6, b7 = data[x + u[4]], data[x + u[5]], data[x + u[6]], data[x + u[7]]
    b8, b9, b10, b11 = data[x + u[8]], data[x + u[9]], data[x + u[10]], data[x + u[11]]
    b12, b13, b14, b15 = data[x + u[12]], data[x + u[13]], data[x + u[14]], data[x + u[15]]
    out[y], out[y + u[1]], out[y + u[2]], out[y + u[3]] = b0, b1, b2, b3
    out[y + u[4]], out[y + u[5]], out[y + u[6]], out[y + u[7]] = b4, b5, b6, b7
    out[y + u[8]], out[y + u[9]], out[y + u[10]], out[y + u[11]] = b8, b9, b10, b11
    out[y + u[12]], out[y + u[13]], out[y + u[14]], out[y + u[15]] = b12, b13, b14, b15


@nb.njit(nogil=True, cache=True, inline="always")
def _digits(v: Any) -> Any:
    """The number of characters of ``v`` in decimal (a minus sign included)."""
    n = 1 if v >= 0 else 2
    x = v if v >= 0 else -v
    while x >= 10:
        x //= 10
        n += 1
    return n


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


@nb.njit(nogil=True, cache=True, inline="always")
def _add(buf: Any, p: Any, off: Any, e: Any, at: Any) -> Any:
    """Entry ``e`` of the pool as the next piece: ``(p + 1, at + its length)``."""
    buf[p] = e
    return p + 1, at + off[e + 1] - off[e]


@nb.njit(nogil=True, cache=True, inline="always")
def _add_ext(buf: Any, p: Any, mark: Any, off: Any, e: Any, at: Any) -> Any:
    """Entry ``e`` of the doc ids (``mark`` -2) or of the overrides (-3) as the next piece."""
    buf[p] = mark
    buf[p + 1] = e
    return p + 2, at + off[e + 1] - off[e]


@nb.njit(nogil=True, cache=True, inline="always")
def _add_int(buf: Any, p: Any, v: Any, at: Any) -> Any:
    """The decimal digits of ``v`` as the next piece."""
    buf[p] = -1
    buf[p + 1] = v
    return p + 2, at + _digits(v)


@nb.njit(nogil=True, cache=True)
def _copy(
    buf: Any, m: Any, data: Any, off: Any, id_data: Any, id_off: Any, ov_data: Any, ov_off: Any, out: Any, at: Any
) -> Any:
    """Copy the ``m`` entries of ``buf`` into ``out`` from ``at``: pool entries (``>= 0``), then marked pairs.

    A mark ``-1`` is followed by an integer to write in decimal, ``-2`` by a doc id entry, ``-3`` by an override
    entry. Returns the position after the last.
    """
    q = 0
    while q < m:
        e = buf[q]
        if e >= 0:
            at = _put(data, off, e, out, at, True)
            q += 1
        else:
            v = buf[q + 1]
            if e == -1:
                at = _put_int(v, out, at, True)
            elif e == -2:
                at = _put(id_data, id_off, v, out, at, True)
            else:
                at = _put(ov_data, ov_off, v, out, at, True)
            q += 2
    return at


@nb.njit(nogil=True, cache=True)
def _rows(
    buf: Any, ends: Any, lo: Any, hi: Any, at: Any, j_ov: Any,
    data: Any, off: Any, first_at: Any, lit_at: Any, slot: Any, cap: Any, ent_at: Any, ent_w: Any, date_at: Any,
    date_w: Any, last_at: Any, tail_at: Any, tail_kind: Any, tail_col: Any, keys: Any, head_at: Any, dash_at: Any,
    close_at: Any, k: Any, n_cases: Any, json: Any,
    r: Any, s: Any, o: Any, case: Any, pos_s: Any, pos_e: Any, hs: Any, he: Any, bad: Any, fid: Any,
    head_mode: Any, id_data: Any, id_off: Any, id_facts: Any, id_years: Any, id_expanded: Any,
    undecided: Any, ov_data: Any, ov_off: Any,
) -> Any:  # fmt: skip
    """The pieces of rows ``lo..hi-1`` into ``buf`` (see :func:`_copy`), each row's end in ``ends``.

    The first row goes at ``at``; the rows before ``lo`` took ``j_ov`` overrides. Returns the number of entries of
    ``buf``, the position after the last row and the overrides taken.
    """
    p = 0
    for i in range(lo, hi):
        if json:
            if head_mode == 0:  # F<fact id>
                p, at = _add(buf, p, off, head_at, at)
                p, at = _add_int(buf, p, fid[i], at)
            elif head_mode == 1:  # given, escaped with the key before
                p, at = _add_ext(buf, p, -2, id_off, i, at)
            else:  # F<original fact id>, -<year> if expanded
                p, at = _add(buf, p, off, head_at, at)
                p, at = _add_int(buf, p, id_facts[i], at)
                if id_expanded[i]:
                    p, at = _add(buf, p, off, dash_at, at)
                    p, at = _add_int(buf, p, id_years[i], at)
        rr = r[i]
        cc = case[i]
        if undecided[i]:
            p, at = _add_ext(buf, p, -3, ov_off, j_ov, at)
            j_ov += 1
        else:
            if k > 0:
                p, at = _add(buf, p, off, first_at[rr], at)
                for j in range(1, k + 1):
                    kind = slot[j, rr]
                    if kind != 0:
                        e = s[i] if kind == 1 else o[i]
                        col = 1 if j == 1 and cap[rr] else 0
                        p, at = _add(buf, p, off, ent_at + e * ent_w + col, at)
                    if j < k:
                        p, at = _add(buf, p, off, lit_at[j, rr], at)
            p, at = _add(buf, p, off, last_at[rr * n_cases + cc], at)
            for j in range(3):
                kd = tail_kind[j, cc]
                if kd == 1 or kd == 2:  # the date, then the case's text after it
                    d = pos_s[i] if kd == 1 else pos_e[i]
                    p, at = _add(buf, p, off, date_at + d * date_w + tail_col[j, cc], at)
                    p, at = _add(buf, p, off, tail_at[j, cc], at)
                else:
                    p, at = _add(buf, p, off, tail_at[j, cc] + (bad[i] if kd == 3 else 0), at)
        if json:  # "s":S "r":R,"o":O "t_start":.. "t_end":.. "s_id":S "r_id":R,"o_id":O "fact_id":..}
            s_at = ent_at + s[i] * ent_w
            o_at = ent_at + o[i] * ent_w
            p, at = _add(buf, p, off, keys[0], at)
            p, at = _add(buf, p, off, s_at, at)
            p, at = _add(buf, p, off, keys[1] + rr, at)
            p, at = _add(buf, p, off, o_at, at)
            a_s = hs[i]
            a_e = he[i]
            p, at = _add(buf, p, off, keys[2] if a_s else keys[3], at)
            if a_s:
                p, at = _add(buf, p, off, date_at + pos_s[i] * date_w + 1, at)
            p, at = _add(buf, p, off, keys[4 + (0 if a_s else 2) + (0 if a_e else 1)], at)
            if a_e:
                p, at = _add(buf, p, off, date_at + pos_e[i] * date_w + 1, at)
            p, at = _add(buf, p, off, keys[8] if a_e else keys[9], at)
            p, at = _add(buf, p, off, s_at + 2, at)
            p, at = _add(buf, p, off, keys[10] + rr, at)
            p, at = _add(buf, p, off, o_at + 2, at)
            p, at = _add(buf, p, off, keys[11], at)
            p, at = _add_int(buf, p, fid[i], at)
            p, at = _add(buf, p, off, close_at, at)
        ends[i] = at
    return p, at, j_ov


@nb.njit(nogil=True, cache=True)
def _chunks(
    data: Any, off: Any, first_at: Any, lit_at: Any, slot: Any, cap: Any, ent_at: Any, ent_w: Any, date_at: Any,
    date_w: Any, last_at: Any, tail_at: Any, tail_kind: Any, tail_col: Any, keys: Any, head_at: Any,
    dash_at: Any, close_at: Any, k: Any, n_cases: Any, json: Any,
    r: Any, s: Any, o: Any, case: Any, pos_s: Any, pos_e: Any, hs: Any, he: Any, bad: Any, fid: Any,
    head_mode: Any, id_data: Any, id_off: Any, id_facts: Any, id_years: Any, id_expanded: Any,
    undecided: Any, ov_data: Any, ov_off: Any,
) -> Any:  # fmt: skip
    """All the rows, :data:`CHUNK` at a time: measured, then copied while their pieces are still in the cache.

    The buffer grows (doubling; first sized from the first chunk) as the rows need. ``(buffer, bytes, ends)``.
    """
    n = len(r)
    ends = np.empty(n, dtype=np.int64)
    out = np.empty(SLACK, dtype=np.uint8)
    buf = np.empty(CHUNK * (2 * k + 32), dtype=np.int64)  # a row's pieces: at most 2k + 29 entries
    at = 0
    lo = 0
    j_ov = 0
    while lo < n:
        hi = min(n, lo + CHUNK)
        m, end, j_ov = _rows(
            buf, ends, lo, hi, at, j_ov,
            data, off, first_at, lit_at, slot, cap, ent_at, ent_w, date_at, date_w, last_at, tail_at, tail_kind,
            tail_col, keys, head_at, dash_at, close_at, k, n_cases, json,
            r, s, o, case, pos_s, pos_e, hs, he, bad, fid,
            head_mode, id_data, id_off, id_facts, id_years, id_expanded, undecided, ov_data, ov_off,
        )  # fmt: skip
        if end + SLACK > len(out):
            want = max(end + SLACK, 2 * len(out))
            if lo == 0:  # the first chunk's bytes a row, for every row, and a little more
                want = max(want, (end * n) // hi + (end * n) // (hi * 16) + SLACK)
            grown = np.empty(want, dtype=np.uint8)
            grown[:at] = out[:at]
            out = grown
        _copy(buf, m, data, off, id_data, id_off, ov_data, ov_off, out, at)
        at = end
        lo = hi
    return out, at, ends


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
        lay.data, lay.off, lay.first_at, lay.lit_at, lay.slot, lay.cap, lay.ent_at, lay.ent_w, lay.date_at,
        lay.date_w, lay.last_at,
        lay.tail_at, lay.tail_kind, lay.tail_col, lay.keys, lay.head_at, lay.dash_at, lay.close_at, lay.k,
        lay.n_cases, lay.json,
    )  # fmt: skip
    args = (*tables, *rows, mode, id_data, id_off, id_facts, id_years, id_expanded, undecided, ov_data, ov_off)
    out, total, ends = _chunks(*args)
    return out[:total], ends
