"""The canonical order of a graph's facts: by their content and the seed, never by their input position.

A KG build puts the facts in this order before anything else, so that interning, candidate seeds, the
seeded draws, the splits and the corpus all follow content: the same facts read in another order (a
shuffled file, Parquet parts read back by a cluster in another order) give the same release, byte for
byte, and another seed gives another draw.

The rule (:data:`ORDER_RULE`, recorded in the manifest as ``"sampling"``): every fact gets the key

    h = mix(seed); h = mix((h ^ k) + GAMMA) for k in (name(s), name(r), name(o), date(start), date(end))

in wrapping 64-bit arithmetic, where ``mix`` is splitmix64's finaliser, ``GAMMA`` its increment, ``name``
the 64-bit FNV-1a hash of a name's UTF-8 bytes passed through ``mix`` (a name's key depends on the name
alone: not on which other names the graph has, nor on the codes of a name table), and ``date`` is ``0`` for
an unknown end, else ``((year + 2**31) * 13 + month) * 32 + day + 1`` (``0`` for a month or day not
stated). Facts are sorted by ``h``; facts with equal ``h`` (the same content, or a 64-bit collision) by
their content keys, then id, then source line. Ids and lines travel with their facts, so the order is a
function of the set of facts alone. Integer numpy only: no loop per fact, no floating point, no ``rand()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace

import numpy as np
import pyarrow as pa

from chronoqa.records import FactColumns, TemporalGraph

__all__ = [
    "ORDER_RULE",
    "CanonicalFacts",
    "canonical_facts",
    "canonical_graph",
    "canonical_order",
    "fact_keys",
    "keep_input_order",
    "mix64",
    "name_keys",
]

#: The manifest's ``"sampling"`` value: what decides the order the build draws from.
ORDER_RULE = (
    "content order: facts sorted by splitmix64 of the seed and their content (FNV-1a of the s, r, o names; "
    "start; end), ties by content, id, line; never by input position"
)

GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)
_MASK = (1 << 64) - 1


def mix64(x: np.ndarray, scratch: np.ndarray | None = None) -> np.ndarray:
    """splitmix64's finaliser of a ``uint64`` array, in place (wrapping arithmetic); returns ``x``.

    ``scratch`` (a ``uint64`` array of the same length) holds the shifted values, so that a caller mixing
    many times allocates one buffer, not one per shift.
    """
    t = np.empty_like(x) if scratch is None else scratch
    for shift, mult in ((30, _M1), (27, _M2)):
        np.right_shift(x, np.uint64(shift), out=t)
        x ^= t
        x *= mult
    np.right_shift(x, np.uint64(31), out=t)
    x ^= t
    return x


def name_keys(names: Sequence[str]) -> np.ndarray:
    """The key of every name: :func:`mix64` of the 64-bit FNV-1a hash of its UTF-8 bytes (``uint64``).

    Vectorised over the names: the bytes come from one Arrow string buffer and are hashed one byte
    position at a time over the names long enough (longest first), so the work is the total length.
    """
    n = len(names)
    if not n:
        return np.zeros(0, dtype=np.uint64)
    arr = pa.array(names if isinstance(names, list) else list(names), type=pa.large_string())
    _, offs_buf, data_buf = arr.buffers()
    assert offs_buf is not None
    offs = np.frombuffer(offs_buf, dtype=np.int64)[arr.offset : arr.offset + n + 1]
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, dtype=np.uint8)
    start = offs[:-1]
    length = offs[1:] - start
    longest_first = np.argsort(-length, kind="stable")
    start = start[longest_first]
    desc = length[longest_first]
    h = np.full(n, _FNV_OFFSET, dtype=np.uint64)
    # names longer than j: a prefix of the longest-first order
    longer = np.searchsorted(-desc, -np.arange(int(desc[0]), dtype=np.int64), side="left")
    for j, k in enumerate(longer.tolist()):
        part = h[:k]
        part ^= data[start[:k] + j]
        part *= _FNV_PRIME
    out = np.empty(n, dtype=np.uint64)
    out[longest_first] = mix64(h)
    return out


def _date_key(cols: FactColumns, which: str, rows: slice | None = None) -> np.ndarray:
    """``0`` for an unknown date, else ``((year + 2**31) * 13 + month) * 32 + day + 1`` (``uint64``).

    Of every fact, or of the facts in ``rows`` (a slice).
    """
    part = slice(None) if rows is None else rows
    key = getattr(cols, f"{which}_year")[part].astype(np.int64)
    key += 2**31
    key *= 13
    key += getattr(cols, f"{which}_month")[part]
    key *= 32
    key += getattr(cols, f"{which}_day")[part]
    key += 1
    key[~getattr(cols, f"has_{which}")[part]] = 0
    return key.view(np.uint64)


def fact_keys(cols: FactColumns, positions: np.ndarray | None = None) -> list[np.ndarray]:
    """The content keys of the facts (at ``positions``, default all), ``uint64`` arrays.

    ``[name(s), name(r), name(o), date(start), date(end)]``, as :data:`ORDER_RULE` reads them.
    """
    sub = cols if positions is None else cols.take(positions)
    ent = name_keys(cols.entities)
    rel = name_keys(cols.relations)
    return [ent[sub.s], rel[sub.r], ent[sub.o], _date_key(sub, "start"), _date_key(sub, "end")]


#: Facts hashed at a time by :func:`canonical_order`: the block's key and scratch arrays stay in cache
#: through the five rounds of the mix (whole-column passes were memory-bound: several times slower).
HASH_BLOCK = 1 << 14


def _content_hashes(cols: FactColumns, seed: int) -> np.ndarray:
    """Every fact's ``h`` of :data:`ORDER_RULE` (``uint64``), computed a block of facts at a time."""
    n = len(cols)
    start = np.full(1, (seed + int(GAMMA)) & _MASK, dtype=np.uint64)
    h = np.full(n, mix64(start)[0], dtype=np.uint64)
    ent = name_keys(cols.entities)
    rel = name_keys(cols.relations)
    scratch = np.empty(min(n, HASH_BLOCK), dtype=np.uint64)
    key = np.empty_like(scratch)
    for lo in range(0, n, HASH_BLOCK):
        rows = slice(lo, min(lo + HASH_BLOCK, n))
        part = h[rows]
        k, t = key[: len(part)], scratch[: len(part)]
        for table, codes in ((ent, cols.s), (rel, cols.r), (ent, cols.o)):
            np.take(table, codes[rows], out=k)
            part ^= k
            part += GAMMA
            mix64(part, t)
        for which in ("start", "end"):
            part ^= _date_key(cols, which, rows)
            part += GAMMA
            mix64(part, t)
    return h


def canonical_order(cols: FactColumns, seed: int) -> np.ndarray:
    """The positions of ``cols`` in canonical order (:data:`ORDER_RULE`): an ``int64`` permutation."""
    n = len(cols)
    h = _content_hashes(cols, seed)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    # sort (h's high bits | position) in place, a SIMD value sort (an argsort is several times slower);
    # equal high bits are then put in order of the whole h, the content keys, id and line
    shift = np.uint64(max(1, (n - 1).bit_length()))
    packed = h >> shift
    packed <<= shift
    packed |= np.arange(n, dtype=np.uint64)
    packed.sort()
    order = (packed & np.uint64((1 << int(shift)) - 1)).view(np.int64)
    packed >>= shift
    same = packed[1:] == packed[:-1]
    del packed
    if bool(same.any()):
        tied = np.zeros(n, dtype=bool)
        tied[1:] |= same
        tied[:-1] |= same
        sub = order[tied]
        keys = fact_keys(cols, sub)
        ties = np.lexsort((cols.lines[sub], cols.ids[sub], *reversed(keys), h[sub]))
        order[tied] = sub[ties]
    return order


@dataclass(frozen=True, eq=False)
class CanonicalFacts(FactColumns):
    """Columns known to be in canonical order (:func:`canonical_order`) for ``seed``: ordering them again is free.

    Made by :func:`canonical_facts` only. The columns are never written to after construction (as every
    :class:`FactColumns`), so the order stays true; a ``take`` or slice gives plain :class:`FactColumns`, and
    ``dataclasses.replace`` gives a copy whose ``seed`` is ``None`` (no order claimed: it is ordered again).
    """

    seed: int | None = field(default=None, init=False)


def canonical_facts(cols: FactColumns, seed: int) -> CanonicalFacts:
    """``cols`` in canonical order (:func:`canonical_order`), sharing its name tables.

    Columns already in that order come back without a copy of their arrays; columns this function ordered
    for the same seed (a :class:`CanonicalFacts`) come back as they are, without computing the order again.
    A caller short of memory puts its graph in order once (:func:`canonical_graph`) and drops the input
    order, so a build holds one copy of the columns, not two.
    """
    if isinstance(cols, CanonicalFacts) and cols.seed == seed:
        return cols
    order = canonical_order(cols, seed)
    if not bool(np.all(order[1:] > order[:-1])):  # not the identity
        cols = cols.take(order)
    del order
    out = CanonicalFacts(**{f.name: getattr(cols, f.name) for f in fields(FactColumns)})
    object.__setattr__(out, "seed", seed)  # not an __init__ field: a replaced copy claims no order
    return out


def keep_input_order(graph: TemporalGraph, seed: int) -> TemporalGraph:
    """``graph`` with its facts' input order taken as the build's order for ``seed`` (no content order computed).

    For a counterfactual twin only (:mod:`chronoqa.generate.twin`): its facts are written in its source's
    canonical order, so that the twin build draws the same positions as the source build did and its questions
    have the source's logical forms (transformed). Every other build orders by content.
    """
    cols = FactColumns.from_facts(graph.facts)
    out = CanonicalFacts(**{f.name: getattr(cols, f.name) for f in fields(FactColumns)})
    object.__setattr__(out, "seed", seed)
    return replace(graph, facts=out)


def canonical_graph(graph: TemporalGraph, seed: int) -> TemporalGraph:
    """``graph`` with its facts in canonical order for ``seed`` (:func:`canonical_facts`), labels and report kept.

    What a KG build does first, done by its caller: ``graph = canonical_graph(graph, cfg.seed)`` drops the
    input order (once nothing else holds it), and :func:`~chronoqa.generate.kg.build_kg_benchmark` then uses
    the ordered columns as they are, so the build holds one copy of the facts. The release is the same bytes
    either way.
    """
    return replace(graph, facts=canonical_facts(FactColumns.from_facts(graph.facts), seed))
