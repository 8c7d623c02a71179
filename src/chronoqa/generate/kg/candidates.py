"""The candidate search of a KG build: which facts can seed a question, on numpy arrays (the reference).

From the :class:`~chronoqa.generate.kg.index.GraphIndex` (implausible facts marked, cardinality set):

* the *seeds*: ``(fact, anchor is the subject)`` for the kept facts whose certain span starts at or before
  ``t_max`` and whose first hop from the anchor is a ``one`` direction (a symmetric fact's object side reads
  the relation forward);
* the *multi seeds*: the seeds whose (anchor, relation, direction) group holds several values over time (where
  a 1-hop question's time can matter), from the *multi groups*: the group keys (``entity * n_rel + relation``)
  of the outgoing and incoming adjacency with two or more distinct values;
* the *timed* facts: kept facts whose start is known at the build granularity.

:func:`chronoqa.generate.kg.sql.candidates.find_candidates` is the builder's engine switch; the SQL engines
compute the same :class:`Candidates` from :data:`~chronoqa.generate.kg.sql.candidates.CANDIDATE_STEPS`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from chronoqa.generate.kg.index import NONE, Col, GraphIndex
from chronoqa.generate.kg.operators import SeedList

__all__ = ["Candidates", "candidates", "member", "multi_keys", "seed_fids"]


@dataclass(frozen=True)
class Candidates:
    """The candidate tables of a build (see the module docstring); every array in its total order."""

    seeds: SeedList  # ordered by fact, the subject side before the object side
    seeds_multi: SeedList  # the seeds whose group has several values over time, same order
    timed: np.ndarray  # fact positions, ascending
    multi_out: np.ndarray  # int64 sorted unique: outgoing group keys with two or more distinct values
    multi_in: np.ndarray  # the same for the incoming adjacency
    n_rel: int

    def several_values(self, entity: np.ndarray, relation: np.ndarray, forward: np.ndarray) -> np.ndarray:
        """Per (entity, relation, direction): True where the group has several values over time.

        The group is the one :meth:`GraphIndex.group` reads: the outgoing rows for ``forward``, else the
        incoming ones (empty for a symmetric relation).
        """
        keys = np.asarray(entity, dtype=np.int64) * self.n_rel + np.asarray(relation, dtype=np.int64)
        fw = np.asarray(forward, dtype=bool)
        return np.where(fw, member(keys, self.multi_out), member(keys, self.multi_in))


#: :func:`member` looks values up in a table of ``max(keys) - min(keys) + 1`` flags (one byte each) when that span
#: is at most this or four bytes per value and key; else it bisects (random bisection of millions of values is
#: cache-bound: about 30 times slower than a flag lookup at 10M values).
MEMBER_TABLE_MIN = 1 << 24
_MEMBER_CHUNK = 1 << 20  # values shifted at a time (bounded scratch memory)


def member(values: np.ndarray, sorted_keys: np.ndarray) -> np.ndarray:
    """``np.isin(values, sorted_keys)`` for sorted unique ``sorted_keys``, without a sort of ``values``.

    A flag table over the keys' span where it is small (:data:`MEMBER_TABLE_MIN`), else bisection.
    """
    if not len(sorted_keys):
        return np.zeros(len(values), dtype=bool)
    lo, hi = int(sorted_keys[0]), int(sorted_keys[-1])
    span = hi - lo + 1
    if span > max(MEMBER_TABLE_MIN, 4 * (len(values) + len(sorted_keys))):
        pos = np.searchsorted(sorted_keys, values)
        np.minimum(pos, len(sorted_keys) - 1, out=pos)
        return sorted_keys[pos] == values
    table = np.zeros(span + 1, dtype=bool)  # the last flag: every value outside the span
    table[sorted_keys - lo] = True
    out = np.empty(len(values), dtype=bool)
    for a in range(0, len(values), _MEMBER_CHUNK):
        v = values[a : a + _MEMBER_CHUNK].astype(np.int64)
        v -= lo
        v[v < 0] = span
        np.minimum(v, span, out=v)
        np.take(table, v, out=out[a : a + _MEMBER_CHUNK])
    return out


def multi_keys(keys: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The sorted keys of the adjacency groups (runs of equal keys) with two or more distinct values.

    ``other`` holds each adjacency row's other endpoint (:meth:`GraphIndex.other_at`).
    """
    # a group holds two values exactly when two neighbours in it differ
    return np.unique(keys[:-1][(keys[1:] == keys[:-1]) & (other[1:] != other[:-1])]).astype(np.int64)


def _fid_dtype(idx: GraphIndex) -> type:
    return np.int32 if len(idx.table) < 2**31 else np.int64


def seed_fids(idx: GraphIndex, t_max: int) -> np.ndarray:
    """Positions of the kept facts certain somewhere, starting to be certain at or before ``t_max``."""
    tab = idx.table
    return ((tab[:, Col.CLO] <= tab[:, Col.CHI]) & (tab[:, Col.CLO] <= t_max) & ~idx.ignored_mask).nonzero()[0]


def candidates(idx: GraphIndex, t_max: int) -> Candidates:
    """The build's :class:`Candidates` on numpy arrays (the reference of the SQL steps)."""
    n_rel = idx.n_rel
    fids = seed_fids(idx, t_max)
    multi_out = multi_keys(idx.out_keys, idx.other_at(True))
    multi_in = multi_keys(idx.in_keys, idx.other_at(False))
    r = idx.table[fids, Col.R]
    sym = np.array(idx.rel_symmetric, dtype=bool)[r] if len(r) else np.zeros(0, bool)
    one_f = np.array([idx.one(x, True) for x in range(len(idx.rel_names))], dtype=bool)
    one_i = np.array([idx.one(x, False) for x in range(len(idx.rel_names))], dtype=bool)
    kdt = idx.out_keys.dtype  # the index's key dtype: every key fits
    s_key = idx.table[fids, Col.S].astype(kdt) * n_rel + r
    o_key = idx.table[fids, Col.O].astype(kdt) * n_rel + r
    subj_ok = one_f[r] if len(r) else np.zeros(0, bool)
    obj_ok = np.where(sym, one_f[r], one_i[r]) if len(r) else np.zeros(0, bool)
    del r
    subj_multi = member(s_key, multi_out)
    del s_key
    obj_multi = np.where(sym, member(o_key, multi_out), member(o_key, multi_in))
    del o_key, sym
    both_fids: np.ndarray = np.repeat(fids.astype(_fid_dtype(idx)), 2)
    sides = np.tile(np.array([True, False]), len(fids))
    ok = np.stack([subj_ok, obj_ok], axis=1).reshape(-1)
    ok_multi = ok & np.stack([subj_multi, obj_multi], axis=1).reshape(-1)
    tab = idx.table
    timed = ((tab[:, Col.SU] != NONE) & ~idx.ignored_mask).nonzero()[0].astype(_fid_dtype(idx))
    return Candidates(
        SeedList(both_fids[ok], sides[ok]), SeedList(both_fids[ok_multi], sides[ok_multi]), timed, multi_out,
        multi_in, n_rel,
    )  # fmt: skip
