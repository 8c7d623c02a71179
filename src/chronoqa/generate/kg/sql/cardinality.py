"""The relation cardinality statistics of :meth:`GraphIndex.infer_one` as SQL steps, equal to the numpy ones.

Per relation and direction, over the (entity, relation) adjacency groups: the number of groups, the groups
with two or more distinct values, of which *overlapping* (spans sorted by (start, end, value), one span and
one of the next ``window - 1`` spans hold different values for more than one unit together), and the
distinct values summed: what ``_group_stats`` in :mod:`chronoqa.generate.kg.index` works out on the driver.

Input (built by :func:`cardinality_tables` from the index; the candidate search's ``adj`` with the possible
span of each row's fact)::

    adj(dir INT, key BIGINT, other INT, r INT, plo INT, phi INT)  -- dir 0 outgoing, 1 incoming

The steps (:func:`cardinality_steps`; the window is written into the SQL as ``LAG`` offsets):

* ``groups`` and ``multi``: the candidate search's :data:`~chronoqa.generate.kg.sql.candidates.GROUP_STEPS`
  (every group and its distinct values; the groups with two or more, an output the candidate search reuses);
* ``k_overlap(dir, key)``: the groups holding two or more values where a row and one of the ``window - 1``
  rows before it, in the group's (start, end, value) order, hold different values together for more than one
  unit (rows equal on all three are interchangeable, so ties in the order change no result). The rows come in
  start order, so an earlier row starts at or before this one: the two spans share ``[plo, LEAST(phi, hi)]``,
  more than one unit exactly when both ends lie past this row's start (only the other end and the value of
  the earlier rows are needed);
* ``k_stats(dir, r, n_groups, n_multi, n_overlapping, n_values)``: per direction and relation that has groups.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from chronoqa.generate.kg.index import Col, GraphIndex
from chronoqa.generate.kg.sql.candidates import GROUP_STEPS, adjacency_table
from chronoqa.generate.kg.sql.engines import Input, SqlEngine
from chronoqa.generate.kg.sql.index import sql_engine
from chronoqa.generate.kg.sql.queries import Step

__all__ = [
    "CARDINALITY_STEPS",
    "Cardinality",
    "cardinality_by_sql",
    "cardinality_steps",
    "cardinality_tables",
    "group_stats_by_sql",
]

_WINDOW = "OVER (PARTITION BY a.dir, a.key ORDER BY a.plo, a.phi, a.other)"


def _overlap_sql(window: int) -> str:
    """The ``k_overlap`` step: each row against the ``window - 1`` rows before it in its group (``LAG``)."""
    offsets = range(1, max(window, 1))
    lags = "".join(
        f",\n           LAG(a.other, {d}) {_WINDOW} AS o{d}, LAG(a.phi, {d}) {_WINDOW} AS hi{d}" for d in offsets
    )
    hits = "\n     OR ".join(f"(o{d} <> other AND hi{d} > plo)" for d in offsets)  # NULL (no row d before): no hit
    return f"""
WITH w AS (
    SELECT a.dir, a.key, a.other, a.plo, a.phi{lags}
    FROM adj AS a
    JOIN multi AS g ON g.dir = a.dir AND g.key = a.key
)
SELECT dir, key FROM w
WHERE phi > plo AND ({hits or "1 = 0"})
GROUP BY dir, key
"""


_STATS = """
SELECT g.dir, g.r, COUNT(*) AS n_groups,
       CAST(SUM(CASE WHEN g.n_values >= 2 THEN 1 ELSE 0 END) AS BIGINT) AS n_multi,
       CAST(SUM(CASE WHEN o.key IS NOT NULL THEN 1 ELSE 0 END) AS BIGINT) AS n_overlapping,
       CAST(SUM(g.n_values) AS BIGINT) AS n_values
FROM groups AS g
LEFT JOIN k_overlap AS o ON o.dir = g.dir AND o.key = g.key
GROUP BY g.dir, g.r
ORDER BY dir, r
"""


def cardinality_steps(window: int = 20) -> tuple[Step, ...]:
    """The steps of the cardinality statistics for a ``window`` (see the module docstring), in order."""
    return (
        *GROUP_STEPS,
        Step("k_overlap", _overlap_sql(window)),
        Step("k_stats", _STATS, ("dir", "r")),
    )


#: The steps of the cardinality statistics with the builder's window, in order.
CARDINALITY_STEPS: tuple[Step, ...] = cardinality_steps()


def cardinality_tables(idx: GraphIndex) -> dict[str, Input]:
    """The ``adj`` input table of the steps, from the index's arrays."""
    return {"adj": adjacency_table(idx, ("r", Col.R), ("plo", Col.PLO), ("phi", Col.PHI))}


@dataclass(frozen=True)
class Cardinality:
    """The results of the steps: the statistics by direction and the groups with two or more values."""

    #: Keyed by ``forward`` (``True``: the outgoing table), what :meth:`GraphIndex.use_group_stats` takes.
    stats: dict[bool, tuple[np.ndarray, ...]]
    #: The ``multi`` result (``dir``, ``key``), for :func:`~chronoqa.generate.kg.sql.candidates.find_candidates`.
    multi: pa.Table


def cardinality_by_sql(engine: str | SqlEngine, idx: GraphIndex, window: int = 20) -> Cardinality:
    """Both directions' statistics from the SQL steps, and the groups with two or more values.

    Each value of :attr:`Cardinality.stats` is ``(groups, groups with two or more values, of which overlapping,
    distinct values summed)``, int64 arrays indexed by relation id.

    Raises:
        UnknownNameError: ``engine`` names no SQL engine.

    """
    out = sql_engine(engine).run(cardinality_tables(idx), cardinality_steps(window), {})
    k_stats = out["k_stats"]
    cols = {
        name: np.asarray(k_stats.column(name).to_numpy(zero_copy_only=False), dtype=np.int64)
        for name in ("dir", "r", "n_groups", "n_multi", "n_overlapping", "n_values")
    }
    stats: dict[bool, tuple[np.ndarray, ...]] = {}
    for forward, d in ((True, 0), (False, 1)):
        sel = cols["dir"] == d
        arrays = tuple(np.zeros(idx.n_rel, dtype=np.int64) for _ in range(4))
        for arr, name in zip(arrays, ("n_groups", "n_multi", "n_overlapping", "n_values"), strict=True):
            arr[cols["r"][sel]] = cols[name][sel]
        stats[forward] = arrays
    return Cardinality(stats, out["multi"])


def group_stats_by_sql(
    engine: str | SqlEngine, idx: GraphIndex, window: int = 20
) -> dict[bool, tuple[np.ndarray, ...]]:
    """The statistics of :func:`cardinality_by_sql` alone (what :meth:`GraphIndex.infer_one` reads)."""
    return cardinality_by_sql(engine, idx, window).stats
