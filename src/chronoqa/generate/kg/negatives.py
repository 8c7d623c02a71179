"""Typed negatives from the graph (never invented) and TempBench's functional flags.

* ``S_dist``: real facts with the (s, r) of a gold triple and another object, not in ``S*``.
* ``S_stale``: real facts with the (s, r, o) of a gold triple that are not even possibly valid at
  ``t_query``, not in ``S*``.

Both are capped at ``max_negatives``, keeping the facts closest in time to ``t_query`` (ties by fact
id). The flags are recomputed from the definitions on the index, apart from the selection.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from chronoqa.generate.kg.index import NEG, POS, Col, GraphIndex

__all__ = ["functional_flags", "select_negatives"]


def select_negatives(idx: GraphIndex, gold: Sequence[int], t: int, cap: int) -> tuple[list[int], list[int]]:
    """``(S_dist, S_stale)`` fact ids for the gold facts ``gold`` at unit ``t`` (vectorised per (s, r) group)."""
    gold_arr = np.array(sorted(set(gold)), dtype=np.int64)
    dist: dict[int, int] = {}
    stale: dict[int, int] = {}
    for fid in gold:
        s, r, o = idx.fact_row(fid)[:3]
        a, b = idx.group_bounds(s, r, True)
        rows = idx.rows_array(True, a, b)
        # stored with this subject (a symmetric relation's mirrored rows are not) and usable (not implausible)
        assert idx.implausible_mask is not None
        fid_all = rows[:, Col.FID]
        rows = rows[(idx.table[fid_all, Col.S] == s) & ~idx.implausible_mask[fid_all]]
        fids = rows[:, Col.FID].astype(np.int64)
        lo = rows[:, Col.APLO].astype(np.int64)
        hi = rows[:, Col.APHI].astype(np.int64)
        not_gold = (fids[:, None] != gold_arr).all(axis=1)  # a chain's few gold facts: no set machinery
        valid = (lo <= t) & (t <= hi)
        d_lo = np.where(lo == NEG, POS, np.abs(lo - t))
        d_hi = np.where(hi == POS, POS, np.abs(hi - t))
        dist_t = np.where(valid, 0, np.minimum(d_lo, d_hi))
        other = rows[:, Col.OTHER]
        for mask, target in ((not_gold & (other != o), dist), (not_gold & (other == o) & ~valid, stale)):
            sel = np.flatnonzero(mask)
            if len(sel) > cap:
                order = np.lexsort((fids[sel], dist_t[sel]))[:cap]
                sel = sel[order]
            for i in sel.tolist():
                target.setdefault(int(fids[i]), int(dist_t[i]))

    def pick(found: dict[int, int]) -> list[int]:
        return sorted(sorted(found, key=lambda f: (found[f], f))[:cap])

    return pick(dist), pick(stale)


def functional_flags(
    idx: GraphIndex, gold: Sequence[int], dist: Sequence[int], stale: Sequence[int], t: int
) -> tuple[bool, bool]:
    """TempBench's flags: each negative set is non-empty and every member satisfies its definition."""
    gold_set = set(gold)
    gold_rows = [idx.fact_row(g) for g in gold]

    def dist_ok(f: int) -> bool:
        s, r, o = idx.fact_row(f)[:3]
        if f in gold_set or not idx.usable(f):
            return False
        return any(g[0] == s and g[1] == r and g[2] != o for g in gold_rows)

    def stale_ok(f: int) -> bool:
        s, r, o, plo, phi = idx.fact_row(f)[:5]
        if f in gold_set or not idx.usable(f) or plo <= t <= phi:
            return False
        return any(g[0] == s and g[1] == r and g[2] == o for g in gold_rows)

    return (bool(dist) and all(dist_ok(f) for f in dist), bool(stale) and all(stale_ok(f) for f in stale))
