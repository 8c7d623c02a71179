"""The candidate search of a KG build (:class:`~chronoqa.generate.kg.candidates.Candidates`) as SQL steps.

Inputs (built by :func:`candidate_tables` from the index, implausible facts marked and cardinality set)::

    cfacts(pos BIGINT, s INT, r INT, o INT, clo INT, chi INT, su INT, ignored BOOLEAN)  -- GraphIndex.table
    crels(r INT, one_f BOOLEAN, one_i BOOLEAN, symmetric BOOLEAN)                      -- per relation id
    adj(dir INT, key BIGINT, other INT, r INT)  -- the adjacency rows: dir 0 outgoing, 1 incoming

Parameters: ``t_max`` (the last unit a question may ask about), ``n_rel`` (the index's key stride) and ``none``
(:data:`~chronoqa.generate.kg.index.NONE`). Steps (:data:`GROUP_STEPS` first, shared with the cardinality
statistics of :mod:`~chronoqa.generate.kg.sql.cardinality`: a build that ran those hands their ``multi`` result
in as an input instead of ``adj``, and the grouping is not done twice):

* ``groups(dir, key, r, n_values)`` (intermediate): every (entity, relation) group and its distinct values;
* ``multi(dir, key)``: the groups with two or more distinct values;
* ``c_seeds(fid, side, multi)``: the seeds, ``side`` 0 for the subject (the anchor), 1 for the object;
* ``c_timed(fid)``: the facts with a start known at the granularity.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyarrow as pa

from chronoqa.generate.kg.candidates import Candidates
from chronoqa.generate.kg.index import NONE, Col, GraphIndex
from chronoqa.generate.kg.operators import SeedList
from chronoqa.generate.kg.sql.engines import Input, SqlEngine, batches_of
from chronoqa.generate.kg.sql.index import sql_engine
from chronoqa.generate.kg.sql.queries import Step

__all__ = [
    "CANDIDATE_STEPS",
    "GROUP_STEPS",
    "adjacency_table",
    "candidate_tables",
    "candidates_by_sql",
    "find_candidates",
]

# Distinct values per group: one row per group and value first (a key names its relation: ``r`` rides along).
_GROUPS = """
WITH v AS (
    SELECT dir, key, r, other FROM adj GROUP BY dir, key, r, other
)
SELECT dir, key, r, COUNT(*) AS n_values FROM v GROUP BY dir, key, r
"""

_MULTI = """
SELECT dir, key FROM groups WHERE n_values >= 2 ORDER BY dir, key
"""

#: The adjacency groups (intermediate) and those with two or more distinct values (an output), over ``adj``.
GROUP_STEPS: tuple[Step, ...] = (Step("groups", _GROUPS), Step("multi", _MULTI, ("dir", "key")))

# Each seedable fact from both ends: the subject side reads the relation forward, the object side backward
# (forward again for a symmetric relation, whose rows are all outgoing).
_SEEDS = """
WITH f AS (
    SELECT c.pos, c.s, c.r, c.o, rel.one_f, rel.one_i, rel.symmetric
    FROM cfacts AS c
    JOIN crels AS rel ON rel.r = c.r
    WHERE NOT c.ignored AND c.clo <= c.chi AND c.clo <= :t_max
), sides AS (
    SELECT pos, 0 AS side, one_f AS ok, 0 AS dir, CAST(s AS BIGINT) * :n_rel + r AS key FROM f
    UNION ALL
    SELECT pos, 1 AS side, CASE WHEN symmetric THEN one_f ELSE one_i END AS ok,
           CASE WHEN symmetric THEN 0 ELSE 1 END AS dir, CAST(o AS BIGINT) * :n_rel + r AS key
    FROM f
)
SELECT sd.pos AS fid, sd.side, (m.key IS NOT NULL) AS multi
FROM sides AS sd
LEFT JOIN multi AS m ON m.dir = sd.dir AND m.key = sd.key
WHERE sd.ok
ORDER BY fid, side
"""

_TIMED = """
SELECT pos AS fid FROM cfacts WHERE NOT ignored AND su <> :none ORDER BY fid
"""

#: The steps of the candidate search, in order.
CANDIDATE_STEPS: tuple[Step, ...] = (
    *GROUP_STEPS,
    Step("c_seeds", _SEEDS, ("fid", "side")),
    Step("c_timed", _TIMED, ("fid",)),
)


def candidate_tables(idx: GraphIndex, multi: pa.Table | None = None) -> dict[str, Input]:
    """The ``cfacts``, ``crels`` and ``adj`` input tables of the steps, from the index's arrays.

    ``cfacts`` and ``adj`` are made a batch at a time as the engine reads them. Given the ``multi`` groups (the
    output of :data:`GROUP_STEPS` run before), ``multi`` stands for ``adj``.
    """
    tab = idx.table
    picked = (("s", Col.S), ("r", Col.R), ("o", Col.O), ("clo", Col.CLO), ("chi", Col.CHI), ("su", Col.SU))

    def fact_batch(a: int, b: int) -> dict[str, np.ndarray]:
        return {
            "pos": np.arange(a, b, dtype=np.int64),
            **{name: np.ascontiguousarray(tab[a:b, c]) for name, c in picked},
            "ignored": np.asarray(idx.ignored_mask[a:b], dtype=bool),
        }

    n = len(idx.rel_names)
    crels = pa.table(
        {
            "r": pa.array(np.arange(n, dtype=np.int32)),
            "one_f": pa.array([idx.one(x, True) for x in range(n)], type=pa.bool_()),
            "one_i": pa.array([idx.one(x, False) for x in range(n)], type=pa.bool_()),
            "symmetric": pa.array([bool(idx.rel_symmetric[x]) for x in range(n)], type=pa.bool_()),
        }
    )
    given = {"adj": adjacency_table(idx, ("r", Col.R))} if multi is None else {"multi": multi}
    return {"cfacts": batches_of(len(tab), fact_batch), "crels": crels, **given}


def adjacency_table(idx: GraphIndex, *columns: tuple[str, int]) -> pa.RecordBatchReader:
    """The ``adj`` input: the index's adjacency rows, outgoing (``dir`` 0) then incoming (``dir`` 1).

    Each row has its key and other end, and each ``(name, Col)`` of ``columns`` read from its fact (the
    groups steps read ``("r", Col.R)``). Made a batch at a time as the engine reads it: the rows are gathered
    from the index's arrays, never whole beside them.
    """
    n_out = len(idx.out_keys)

    def part(forward: bool, a: int, b: int) -> dict[str, np.ndarray]:
        keys, fids = (idx.out_keys, idx.out_fids) if forward else (idx.in_keys, idx.in_fids)
        return {
            "dir": np.full(b - a, 0 if forward else 1, dtype=np.int32),
            "key": keys[a:b].astype(np.int64),
            "other": idx.other_at(forward, slice(a, b)).astype(np.int32),
            **{name: idx.table[fids[a:b], col].astype(np.int32) for name, col in columns},
        }

    def rows(a: int, b: int) -> dict[str, np.ndarray]:
        parts = [part(True, a, min(b, n_out))] if a < n_out or b == 0 else []
        if b > n_out:
            parts.append(part(False, max(a, n_out) - n_out, b - n_out))
        return parts[0] if len(parts) == 1 else {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}

    return batches_of(n_out + len(idx.in_keys), rows)


def _np(table: pa.Table, column: str, dtype: type) -> np.ndarray:
    return np.asarray(table.column(column).to_numpy(zero_copy_only=False), dtype=dtype)


def candidates_by_sql(engine: SqlEngine, idx: GraphIndex, t_max: int, multi: pa.Table | None = None) -> Candidates:
    """The :class:`Candidates` of the index (implausible facts marked, cardinality set) from the SQL steps.

    ``multi`` is the ``multi`` result of :data:`GROUP_STEPS` when a run before (the cardinality statistics) made it.
    """
    params: Mapping[str, int] = {"t_max": int(t_max), "n_rel": idx.n_rel, "none": NONE}
    steps = CANDIDATE_STEPS if multi is None else CANDIDATE_STEPS[len(GROUP_STEPS) :]
    out = engine.run(candidate_tables(idx, multi), steps, params)
    fid_type = np.int32 if len(idx.table) < 2**31 else np.int64
    multi = out["multi"] if multi is None else multi
    dirs, keys = _np(multi, "dir", np.int64), _np(multi, "key", np.int64)
    seeds = out["c_seeds"]
    fids, subject = _np(seeds, "fid", fid_type), _np(seeds, "side", np.int64) == 0
    several = _np(seeds, "multi", bool)
    return Candidates(
        SeedList(fids, subject), SeedList(fids[several], subject[several]),
        _np(out["c_timed"], "fid", fid_type), keys[dirs == 0], keys[dirs == 1], idx.n_rel,
    )  # fmt: skip


def find_candidates(engine: str | SqlEngine, idx: GraphIndex, t_max: int, multi: pa.Table | None = None) -> Candidates:
    """The build's candidates from the chosen engine (a name or a ready :class:`SqlEngine`) and ``multi`` if known.

    Raises:
        UnknownNameError: ``engine`` names no engine.

    """
    return candidates_by_sql(sql_engine(engine), idx, t_max, multi)
