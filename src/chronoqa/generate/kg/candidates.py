"""The candidates of a KG build: which facts can seed a question (found by the SQL steps), and lookups on them.

From the :class:`~chronoqa.generate.kg.index.GraphIndex` (implausible facts marked, cardinality set):

* the *seeds*: ``(fact, anchor is the subject)`` for the kept facts whose certain span starts at or before
  ``t_max`` and whose first hop from the anchor is a ``one`` direction (a symmetric fact's object side reads
  the relation forward);
* the *multi seeds*: the seeds whose (anchor, relation, direction) group holds several values over time (where
  a 1-hop question's time can matter), from the *multi groups*: the group keys (``entity * n_rel + relation``)
  of the outgoing and incoming adjacency with two or more distinct values;
* the *timed* facts: kept facts whose start is known at the build granularity.

:func:`chronoqa.generate.kg.sql.candidates.find_candidates` computes the :class:`Candidates` of a build with the
SQL of :data:`~chronoqa.generate.kg.sql.candidates.CANDIDATE_STEPS`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from chronoqa.generate.kg.operators import SeedList

__all__ = ["Candidates", "member"]


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
