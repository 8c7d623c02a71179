"""The implausible-date rules of :mod:`chronoqa.generate.kg.plausible` as SQL steps, equal to ``implausible_facts``.

Inputs (built by :func:`plausible_tables`)::

    pfacts(pos BIGINT, s INT, r INT, o INT, has_start BOOLEAN, start_year INT, has_end BOOLEAN, end_year INT,
           ignored BOOLEAN)                            -- ignored: valid nowhere (reversed, non-year), not examined
    prels(code INT, is_event BOOLEAN, role INT, max_years INT)   -- role 0 none, 1 birth, 2 death

Parameters: ``as_of_year``, ``ongoing`` (1 under the ``ongoing`` open-end reading), ``gap``
(:data:`~chronoqa.generate.kg.plausible.CENTURY_GAP`) and ``early`` (:data:`~chronoqa.generate.kg.plausible.EARLY`).

Medians stay integers: a median of ``n`` years is carried doubled (``med2``, the sum of the two middle years or
twice the middle one), so ``|y - median| > gap`` reads ``|2y - med2| > 2 gap``; the middle of a sorted list is
found by comparing ``2 * position`` with ``n`` (no division). The median of an entity's *other* facts leaves out
the fact's own entry (its first copy in the sorted list, as ``bisect_left``): only the four or five middle
entries of an entity's list can be a median after one removal, so each fact joins those only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pyarrow as pa

from chronoqa.generate.kg.phrases import RelationPhrases
from chronoqa.generate.kg.plausible import CENTURY_GAP, EARLY, REASONS, implausible_codes
from chronoqa.generate.kg.sql.engines import SqlEngine
from chronoqa.generate.kg.sql.index import fact_arrays, fact_columns, sql_engine
from chronoqa.generate.kg.sql.queries import Step
from chronoqa.records import Fact, FactColumns
from chronoqa.time import TimePoint

__all__ = ["PLAUSIBLE_STEPS", "implausible_by_sql", "implausible_dates", "plausible_tables"]

_DATED = """
SELECT f.pos, f.s, f.o, f.r, f.has_start, f.start_year, f.has_end, f.end_year,
       CASE WHEN f.has_start THEN f.start_year ELSE f.end_year END AS rep,
       CASE WHEN f.has_start AND f.has_end THEN LEAST(f.start_year, f.end_year)
            WHEN f.has_start THEN f.start_year ELSE f.end_year END AS ymin,
       rel.is_event, rel.role, rel.max_years
FROM pfacts AS f
JOIN prels AS rel ON rel.code = f.r
WHERE NOT f.ignored AND (f.has_start OR f.has_end)
ORDER BY pos
"""

# Each entity's representative years (a fact's start, else its end), sorted: position idx 0.. in the list.
_ENT_YEARS = """
WITH m AS (
    SELECT s AS e, rep FROM p_dated
    UNION ALL
    SELECT o AS e, rep FROM p_dated WHERE o <> s
)
SELECT e, rep AS year, ROW_NUMBER() OVER (PARTITION BY e ORDER BY rep) - 1 AS idx
FROM m
ORDER BY e, idx
"""

# Per fact and entity (the subject; the object too when it differs): the verdict of that entity's other facts,
# 1 far, 0 near, NULL too few to tell.
_VERDICTS = """
WITH sides AS (
    SELECT pos, s AS e, rep, ymin, has_start, start_year, has_end, end_year FROM p_dated
    UNION ALL
    SELECT pos, o AS e, rep, ymin, has_start, start_year, has_end, end_year FROM p_dated WHERE o <> s
), cnt AS (
    SELECT e, COUNT(*) AS m FROM p_ent_years GROUP BY e
), own AS (
    SELECT e, year, MIN(idx) AS i FROM p_ent_years GROUP BY e, year
), mid AS (
    SELECT y.e, y.idx, y.year, c.m
    FROM p_ent_years AS y
    JOIN cnt AS c ON c.e = y.e
    WHERE 2 * y.idx >= c.m - 3 AND 2 * y.idx <= c.m + 1
), pairs AS (
    SELECT sd.pos, sd.e, sd.ymin, sd.has_start, sd.start_year, sd.has_end, sd.end_year, mid.m - 1 AS n, mid.year,
           CASE WHEN mid.idx < own.i THEN mid.idx ELSE mid.idx - 1 END AS t
    FROM sides AS sd
    JOIN own ON own.e = sd.e AND own.year = sd.rep
    JOIN mid ON mid.e = sd.e
    WHERE mid.idx <> own.i
), agg AS (
    SELECT pos, e, n, ymin, has_start, start_year, has_end, end_year,
           SUM(CASE WHEN 2 * t = n - 1 THEN 2 * year WHEN 2 * t = n - 2 OR 2 * t = n THEN year ELSE 0 END) AS med2,
           SUM(CASE WHEN (has_start AND year - start_year <= :gap AND start_year - year <= :gap)
                      OR (has_end AND year - end_year <= :gap AND end_year - year <= :gap) THEN 1 ELSE 0 END) AS near
    FROM pairs
    GROUP BY pos, e, n, ymin, has_start, start_year, has_end, end_year
)
SELECT pos, e,
       CASE WHEN n >= 3 THEN
                CASE WHEN (has_start AND (2 * start_year - med2 > 2 * :gap OR med2 - 2 * start_year > 2 * :gap))
                       OR (has_end AND (2 * end_year - med2 > 2 * :gap OR med2 - 2 * end_year > 2 * :gap))
                     THEN 1 ELSE 0 END
            WHEN ymin >= :early THEN NULL
            WHEN near = 0 THEN 1
            ELSE 0 END AS v
FROM agg
ORDER BY pos, e
"""

# The first rule that applies, as an index into REASONS; facts no rule flags are left out.
_REASONS = """
WITH births AS (
    SELECT s AS e, MIN(start_year) AS y FROM p_dated WHERE role = 1 AND has_start GROUP BY s
), deaths AS (
    SELECT s AS e, MAX(start_year) AS y FROM p_dated WHERE role = 2 AND has_start GROUP BY s
), v AS (
    SELECT pos, COUNT(*) AS n_v, SUM(v) AS n_far FROM p_verdicts WHERE v IS NOT NULL GROUP BY pos
), rr AS (
    SELECT r, rep AS year, ROW_NUMBER() OVER (PARTITION BY r ORDER BY rep) - 1 AS idx FROM p_dated
), rc AS (
    SELECT r, COUNT(*) AS m FROM p_dated GROUP BY r
), rm AS (
    SELECT rr.r,
           SUM(CASE WHEN 2 * rr.idx = rc.m - 1 THEN 2 * rr.year
                    WHEN 2 * rr.idx = rc.m - 2 OR 2 * rr.idx = rc.m THEN rr.year ELSE 0 END) AS med2
    FROM rr
    JOIN rc ON rc.r = rr.r
    GROUP BY rr.r
), why AS (
    SELECT d.pos,
           CASE WHEN d.is_event AND d.has_start AND d.has_end AND d.end_year > d.start_year THEN 0
                WHEN NOT d.is_event AND :ongoing = 1 AND d.has_start AND NOT d.has_end
                     AND :as_of_year - d.start_year > d.max_years THEN 1
                WHEN d.role = 0 AND d.has_start
                     AND ((bs.y IS NOT NULL AND d.start_year < bs.y) OR (bo.y IS NOT NULL AND d.start_year < bo.y))
                     THEN 2
                WHEN d.role = 0 AND d.has_start
                     AND ((ds.y IS NOT NULL AND d.start_year > ds.y) OR (dd.y IS NOT NULL AND d.start_year > dd.y))
                     THEN 3
                WHEN v.n_v IS NOT NULL AND v.n_far = v.n_v THEN 4
                WHEN v.n_v IS NULL AND d.ymin < :early
                     AND (2 * d.ymin - rm.med2 > 2 * :gap OR rm.med2 - 2 * d.ymin > 2 * :gap) THEN 4
                ELSE -1 END AS reason
    FROM p_dated AS d
    JOIN rm ON rm.r = d.r
    LEFT JOIN births AS bs ON bs.e = d.s
    LEFT JOIN births AS bo ON bo.e = d.o
    LEFT JOIN deaths AS ds ON ds.e = d.s
    LEFT JOIN deaths AS dd ON dd.e = d.o
    LEFT JOIN v ON v.pos = d.pos
)
SELECT pos, reason FROM why WHERE reason >= 0 ORDER BY pos
"""

#: The steps of the implausible-date rules, in order.
PLAUSIBLE_STEPS: tuple[Step, ...] = (
    Step("p_dated", _DATED, ("pos",)),
    Step("p_ent_years", _ENT_YEARS, ("e", "idx")),
    Step("p_verdicts", _VERDICTS, ("pos", "e")),
    Step("p_reasons", _REASONS, ("pos",)),
)
_ROLES = {None: 0, "birth": 1, "death": 2}


def plausible_tables(
    cols: FactColumns, phrases: Mapping[str, RelationPhrases], ignored: Sequence[bool], default_max_years: int
) -> dict[str, pa.Table]:
    """The ``pfacts`` and ``prels`` input tables (relations by their codes in ``cols``)."""
    pfacts = pa.table({**fact_arrays(cols), "ignored": pa.array(np.asarray(ignored, dtype=bool))})
    rels = [phrases.get(x) for x in cols.relations]
    prels = pa.table(
        {
            "code": pa.array(np.arange(len(rels), dtype=np.int32)),
            "is_event": pa.array([bool(p and p.is_event) for p in rels], type=pa.bool_()),
            "role": pa.array([_ROLES.get(p.role if p else None, 0) for p in rels], type=pa.int32()),
            "max_years": pa.array(
                [p.max_years if p is not None and p.max_years is not None else default_max_years for p in rels],
                type=pa.int32(),
            ),
        }
    )
    return {"pfacts": pfacts, "prels": prels}


def implausible_by_sql(
    engine: SqlEngine,
    facts: Sequence[Fact],
    phrases: Mapping[str, RelationPhrases],
    ignored: Sequence[bool],
    as_of: TimePoint,
    open_end: str,
    default_max_years: int,
) -> dict[int, str]:
    """Fact position → reason, as :func:`chronoqa.generate.kg.plausible.implausible_facts` (same arguments)."""
    cols = fact_columns(facts)
    params = {"as_of_year": as_of.year, "ongoing": int(open_end == "ongoing"), "gap": CENTURY_GAP, "early": EARLY}
    out = engine.run(plausible_tables(cols, phrases, ignored, default_max_years), PLAUSIBLE_STEPS, params)
    res = out["p_reasons"]
    pos = res.column("pos").to_numpy(zero_copy_only=False).tolist()
    why = res.column("reason").to_numpy(zero_copy_only=False).tolist()
    return {int(p): REASONS[int(w)] for p, w in zip(pos, why, strict=True)}


def implausible_dates(
    engine: str | SqlEngine,
    facts: Sequence[Fact],
    phrases: Mapping[str, RelationPhrases],
    ignored: Sequence[bool] | np.ndarray,
    as_of: TimePoint,
    open_end: str,
    default_max_years: int,
) -> np.ndarray:
    """The build's implausible facts from the chosen engine, as ``plausible.implausible_codes`` gives them.

    Per fact position the index in :data:`REASONS` of its reason, or ``-1`` (int8). ``numpy`` runs
    ``implausible_codes``; the other engines run the SQL of :data:`PLAUSIBLE_STEPS`.
    """
    if engine == "numpy":
        return implausible_codes(facts, phrases, ignored, as_of, open_end, default_max_years)
    found = implausible_by_sql(
        sql_engine(engine), facts, phrases, np.asarray(ignored, dtype=bool).tolist(), as_of, open_end, default_max_years
    )
    codes = np.full(len(facts), -1, dtype=np.int8)
    if found:
        code_of = {r: i for i, r in enumerate(REASONS)}
        codes[np.fromiter(found, dtype=np.int64)] = [code_of[r] for r in found.values()]
    return codes
