"""The groups read by :meth:`GraphIndex.one_at` as SQL steps, equal to the numpy ``GraphIndex._overlap_keys``.

A group (an (entity, relation) key of one adjacency direction) is *overlapping* when two different values are
certain together for two units or more. Two certain spans ``[clo, chi]`` share two units or more exactly when
the spans shortened by their last unit, ``[clo, chi - 1]``, intersect; the steps work on those.

Inputs (built by :func:`overlap_tables` from the index, implausible facts already marked: their certain span is
empty)::

    vadj(dir INT, key BIGINT, other INT, clo INT, chi INT)  -- the adjacency rows; dir 0 outgoing, 1 incoming

Steps:

* ``v_merged(dir, key, other, lo, hi)`` (intermediate): per group and value, its shortened spans merged into
  disjoint runs of units (two spans whose units touch but do not intersect stay apart), for the groups with two
  or more values certain for two units or more (no other group can overlap);
* ``v_keys(dir, key)``: the overlapping groups (the output, in its total order).

No window frame is needed (the subset of :mod:`~chronoqa.generate.kg.sql.queries` has ``ROW_NUMBER()`` only):

*Merging* counts spans with row numbers. Each span is a start event at ``lo`` and an end event at ``hi + 1``
(the unit after its last); a (group, value)'s events are numbered ``rn`` in (unit, end before start) order,
and ``rk`` among the events of their kind (in ``rn`` order, so the two numberings agree on ties). Before a start
event lie ``rk - 1`` starts and ``rn - rk`` ends, and every span's end comes after its own start
(``hi + 1 > lo``), so ``2 * rk - rn - 1`` spans are open there: the start opens a merged run when that is 0,
``rn = 2 * rk - 1``. After an end event, ``rn - rk`` starts and ``rk`` ends have passed: the end closes a run
when ``rn = 2 * rk``. Runs open and close in turn, so the k-th opening start and the k-th closing end are one
run ``[start, end - 1]``: the union of the value's spans, cut where no span covers a unit. Rows equal on every
column are interchangeable, so ties in the order change no result.

*Testing* needs neighbours only. Number a group's merged spans by (start, value) (total: one value's runs are
disjoint, so start apart). If spans ``i < j`` intersect, then ``lo_i <= lo_j <= hi_i``, so
``lo_i <= lo_(i+1) <= lo_j <= hi_i``: span ``i + 1`` intersects span ``i`` too. So a group overlaps exactly when
some span starts at or before the end of the span just before it; the two then hold different values (one
value's runs are disjoint), and two values' merged runs intersect exactly when two of their spans do.
"""

from __future__ import annotations

import numpy as np

from chronoqa.generate.kg.index import Col, GraphIndex
from chronoqa.generate.kg.sql.candidates import adjacency_table
from chronoqa.generate.kg.sql.engines import Input, SqlEngine
from chronoqa.generate.kg.sql.index import sql_engine
from chronoqa.generate.kg.sql.queries import Step

__all__ = ["OVERLAP_STEPS", "overlap_keys_by_sql", "overlap_tables"]

# Only the values with two or more spans go through the event counts (at 1M mixed facts 5% of the (group,
# value) pairs of the groups with two or more values, 17% of their spans): a value's one span is its one run.
_MERGED = """
WITH spans AS (
    SELECT dir, key, other, CAST(clo AS BIGINT) AS lo, CAST(chi AS BIGINT) - 1 AS hi
    FROM vadj
    WHERE CAST(clo AS BIGINT) <= CAST(chi AS BIGINT) - 1
), v AS (
    SELECT dir, key, other, COUNT(*) AS n FROM spans GROUP BY dir, key, other
), g AS (
    SELECT dir, key, COUNT(*) AS n_values FROM v GROUP BY dir, key
), kept AS (
    SELECT s.dir, s.key, s.other, s.lo, s.hi, v.n
    FROM spans AS s
    JOIN v ON v.dir = s.dir AND v.key = s.key AND v.other = s.other
    JOIN g ON g.dir = s.dir AND g.key = s.key
    WHERE g.n_values >= 2
), events AS (
    SELECT dir, key, other, lo AS at, 1 AS kind FROM kept WHERE n >= 2
    UNION ALL
    SELECT dir, key, other, hi + 1 AS at, 0 AS kind FROM kept WHERE n >= 2
), numbered AS (
    SELECT dir, key, other, at, kind,
           ROW_NUMBER() OVER (PARTITION BY dir, key, other ORDER BY at, kind) AS rn
    FROM events
), counted AS (
    SELECT dir, key, other, at, kind, rn,
           ROW_NUMBER() OVER (PARTITION BY dir, key, other, kind ORDER BY rn) AS rk
    FROM numbered
), bounds AS (
    SELECT dir, key, other, at, kind,
           ROW_NUMBER() OVER (PARTITION BY dir, key, other, kind ORDER BY rn) AS run
    FROM counted
    WHERE (kind = 1 AND rn = 2 * rk - 1) OR (kind = 0 AND rn = 2 * rk)
)
SELECT a.dir, a.key, a.other, a.at AS lo, b.at - 1 AS hi
FROM bounds AS a
JOIN bounds AS b ON b.dir = a.dir AND b.key = a.key AND b.other = a.other AND b.run = a.run
WHERE a.kind = 1 AND b.kind = 0
UNION ALL
SELECT dir, key, other, lo, hi FROM kept WHERE n = 1
"""

# Each merged span against the one just before it in its group's (start, value) order: the earlier one shifted
# one row on, then one equi-join on (dir, key, rn).
_KEYS = """
WITH m AS (
    SELECT dir, key, lo, hi, ROW_NUMBER() OVER (PARTITION BY dir, key ORDER BY lo, other) AS rn
    FROM v_merged
)
SELECT a.dir, a.key
FROM (SELECT dir, key, rn + 1 AS rn, hi FROM m) AS a
JOIN m AS b ON b.dir = a.dir AND b.key = a.key AND b.rn = a.rn
WHERE b.lo <= a.hi
GROUP BY a.dir, a.key
ORDER BY dir, key
"""

#: The steps of the overlapping groups, in order.
OVERLAP_STEPS: tuple[Step, ...] = (
    Step("v_merged", _MERGED),
    Step("v_keys", _KEYS, ("dir", "key")),
)


def overlap_tables(idx: GraphIndex) -> dict[str, Input]:
    """The ``vadj`` input table of the steps, from the index's arrays (as they stand: mark implausible facts first)."""
    return {"vadj": adjacency_table(idx, ("clo", Col.CLO), ("chi", Col.CHI))}


def overlap_keys_by_sql(engine: str | SqlEngine, idx: GraphIndex) -> dict[bool, frozenset[int]]:
    """Both directions' overlapping group keys from the SQL steps, keyed by ``forward`` (``True``: outgoing).

    Each value is what ``idx._overlap_keys(forward)`` returns; give the result to
    :meth:`GraphIndex.use_overlap_keys`.

    Raises:
        UnknownNameError: ``engine`` names no SQL engine.

    """
    out = sql_engine(engine).run(overlap_tables(idx), OVERLAP_STEPS, {})["v_keys"]
    dirs = np.asarray(out.column("dir").to_numpy(zero_copy_only=False), dtype=np.int64)
    keys = np.asarray(out.column("key").to_numpy(zero_copy_only=False), dtype=np.int64)
    return {forward: frozenset(keys[dirs == d].tolist()) for forward, d in ((True, 0), (False, 1))}
