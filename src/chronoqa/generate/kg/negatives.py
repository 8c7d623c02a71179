"""Typed negatives from the graph (never invented) and TempBench's functional flags.

* ``S_dist``: real facts with the (s, r) of a gold triple and another object, not in ``S*``.
* ``S_stale``: real facts with the (s, r, o) of a gold triple that are not even possibly valid at
  ``t_query``, not in ``S*``.

Both are capped at ``max_negatives``, keeping the facts closest in time to ``t_query`` (ties by fact
id). The flags are recomputed from the definitions on the index, apart from the selection.
"""

from __future__ import annotations

from collections.abc import Sequence

from chronoqa.generate.kg.index import NEG, POS, Col, GraphIndex

__all__ = ["functional_flags", "select_negatives"]


def _distance(row: list[int], t: int) -> int:
    lo, hi = row[Col.APLO], row[Col.APHI]
    if lo <= t <= hi:
        return 0
    d = []
    if lo not in (NEG, POS):
        d.append(abs(lo - t))
    if hi not in (NEG, POS):
        d.append(abs(hi - t))
    return min(d) if d else POS


def select_negatives(idx: GraphIndex, gold: Sequence[int], t: int, cap: int) -> tuple[list[int], list[int]]:
    """``(S_dist, S_stale)`` fact ids for the gold facts ``gold`` at unit ``t``."""
    gold_set = set(gold)
    dist: dict[int, list[int]] = {}
    stale: dict[int, list[int]] = {}
    for fid in gold:
        s, r, o = idx.fact_row(fid)[:3]
        for row in idx.group(s, r, True):
            f = row[Col.FID]
            if f in gold_set:
                continue
            if row[Col.OTHER] != o:
                dist.setdefault(f, row)
            elif not row[Col.APLO] <= t <= row[Col.APHI]:
                stale.setdefault(f, row)

    def pick(rows: dict[int, list[int]]) -> list[int]:
        ranked = sorted(rows, key=lambda f: (_distance(rows[f], t), f))
        return sorted(ranked[:cap])

    return pick(dist), pick(stale)


def functional_flags(
    idx: GraphIndex, gold: Sequence[int], dist: Sequence[int], stale: Sequence[int], t: int
) -> tuple[bool, bool]:
    """TempBench's flags: each negative set is non-empty and every member satisfies its definition."""
    gold_set = set(gold)
    gold_rows = [idx.fact_row(g) for g in gold]

    def dist_ok(f: int) -> bool:
        s, r, o, plo, phi = idx.fact_row(f)[:5]
        if f in gold_set or idx.reversed_mask[f]:
            return False
        return any(g[0] == s and g[1] == r and g[2] != o for g in gold_rows)

    def stale_ok(f: int) -> bool:
        s, r, o, plo, phi = idx.fact_row(f)[:5]
        if f in gold_set or idx.reversed_mask[f] or plo <= t <= phi:
            return False
        return any(g[0] == s and g[1] == r and g[2] == o for g in gold_rows)

    return (bool(dist) and all(dist_ok(f) for f in dist), bool(stale) and all(stale_ok(f) for f in stale))
