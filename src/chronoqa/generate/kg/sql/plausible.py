"""The implausible-date rules of :mod:`chronoqa.generate.kg.plausible` as SQL steps, equal to ``implausible_facts``.

Inputs (built by :func:`plausible_tables`)::

    pfacts(pos BIGINT, s INT, r INT, o INT, has_start BOOLEAN, start_year INT, has_end BOOLEAN, end_year INT,
           ignored BOOLEAN)                            -- ignored: valid nowhere (reversed, non-year), not examined
    prels(code INT, is_event BOOLEAN, role INT, max_years INT, min_age INT, span_max INT, symmetric BOOLEAN)
        -- role 0 none, 1 birth, 2 death; span_max: the declared max_years (NULL: none declared)
    ptypes(code INT, side INT, type INT)   -- the relation sides that show a type (side 0 subject, 1 object)
    pneeds(code INT, side INT, type INT)   -- the relation sides whose words presume a type
    pother(code INT, side INT, type INT)   -- the relation sides that neither show nor presume a type (of the
                                           -- types some side presumes: no other is read)
    pexcl(code INT, side INT, type INT)    -- the relation sides whose words exclude a type (subject_not)
    pyouth(e INT, max_age INT)             -- entities whose label names an under-N side (max_age N)
    punfit(e INT, type INT, of_e INT)      -- entities whose label cannot name one of the type (of_e >= 0: only
                                           -- where that entity, the label's "X" of "Presidency of X", is one too)

Parameters: ``as_of_year``, ``ongoing`` (1 under the ``ongoing`` open-end reading), ``gap``
(:data:`~chronoqa.generate.kg.plausible.CENTURY_GAP`) and ``early`` (:data:`~chronoqa.generate.kg.plausible.EARLY`).

Medians stay integers: a median of ``n`` years is carried doubled (``med2``, the sum of the two middle years or
twice the middle one), so ``|y - median| > gap`` reads ``|2y - med2| > 2 gap``; the middle of a sorted list is
found by comparing ``2 * position`` with ``n`` (no division). The median of an entity's *other* facts leaves out
the fact's own entry: the first of its year in the entity's sorted list ``L(0) <= ... <= L(m - 1)``. With ``k =
(m - 1) // 2`` the median index of the ``m - 1`` others, the others' median is read from ``L(k - 1)``, ``L(k)``
and ``L(k + 1)`` by where the fact's year ``y`` falls (``y <= L(k - 1)``, ``L(k - 1) < y <= L(k)``, ``L(k) <
y``), and an entity with one or two others is judged against ``L(0..2)``: each entity's few order statistics are
gathered once (``p_ent_stats``), and each fact joins the statistics of its two entities.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from chronoqa.generate.kg.phrases import SIDES, EntityType, RelationPhrases
from chronoqa.generate.kg.plausible import CENTURY_GAP, EARLY, REASONS, unfit_labels, youth_limit
from chronoqa.generate.kg.sql.engines import Input, SqlEngine, batches_of
from chronoqa.generate.kg.sql.index import fact_arrays, fact_columns, fact_rows, sql_engine
from chronoqa.generate.kg.sql.queries import Step
from chronoqa.records import Fact, FactColumns
from chronoqa.time import TimePoint

__all__ = ["PLAUSIBLE_STEPS", "TypeRules", "implausible_by_sql", "implausible_dates", "plausible_tables"]

_DATED = """
SELECT f.pos, f.s, f.o, f.r, f.has_start, f.start_year, f.has_end, f.end_year,
       CASE WHEN f.has_start THEN f.start_year ELSE f.end_year END AS rep,
       CASE WHEN f.has_start AND f.has_end THEN LEAST(f.start_year, f.end_year)
            WHEN f.has_start THEN f.start_year ELSE f.end_year END AS ymin,
       rel.is_event, rel.role, rel.max_years, rel.min_age, rel.span_max, rel.symmetric
FROM pfacts AS f
JOIN prels AS rel ON rel.code = f.r
WHERE NOT f.ignored AND (f.has_start OR f.has_end)
"""

# Each entity's representative years (a fact's start, else its end; a self-loop counts once), numbered in order.
_ENT_YEARS = """
WITH m AS (
    SELECT s AS e, rep FROM p_dated
    UNION ALL
    SELECT o AS e, rep FROM p_dated WHERE o <> s
)
SELECT e, rep AS year, ROW_NUMBER() OVER (PARTITION BY e ORDER BY rep) - 1 AS idx
FROM m
"""

# Per entity: its count m, L(0..2), and twice its others' median by where a fact's year falls (hi: above L(k),
# mid: above L(k - 1), lo: at most L(k - 1)); an even m leaves an odd number of others.
_ENT_STATS = """
WITH c AS (
    SELECT e, COUNT(*) AS m FROM p_ent_years GROUP BY e
), a AS (
    SELECT y.e, c.m,
           MAX(CASE WHEN y.idx = 0 THEN y.year END) AS l0,
           MAX(CASE WHEN y.idx = 1 THEN y.year END) AS l1,
           MAX(CASE WHEN y.idx = 2 THEN y.year END) AS l2,
           MAX(CASE WHEN 2 * y.idx + 2 = c.m - 1 OR 2 * y.idx + 2 = c.m - 2 THEN y.year END) AS below,
           MAX(CASE WHEN 2 * y.idx = c.m - 1 OR 2 * y.idx = c.m - 2 THEN y.year END) AS at_k,
           MAX(CASE WHEN 2 * y.idx - 2 = c.m - 1 OR 2 * y.idx - 2 = c.m - 2 THEN y.year END) AS above,
           MAX(CASE WHEN 2 * y.idx = c.m - 2 THEN 1 ELSE 0 END) AS even
    FROM p_ent_years AS y
    JOIN c ON c.e = y.e
    WHERE y.idx <= 2 OR (2 * y.idx + 2 >= c.m - 2 AND 2 * y.idx - 2 <= c.m - 1)
    GROUP BY y.e, c.m
)
SELECT e, m, l0, l1, l2, below, at_k,
       CASE WHEN even = 1 THEN 2 * at_k ELSE below + at_k END AS med_hi,
       CASE WHEN even = 1 THEN 2 * above ELSE below + above END AS med_mid,
       CASE WHEN even = 1 THEN 2 * above ELSE at_k + above END AS med_lo
FROM a
"""


def _near(x: str) -> str:
    """SQL: a stated year of the fact lies within ``gap`` of the year ``x``."""
    return (
        f"((d.has_start AND d.start_year - {x} <= :gap AND {x} - d.start_year <= :gap) "
        f"OR (d.has_end AND d.end_year - {x} <= :gap AND {x} - d.end_year <= :gap))"
    )


def _far(med2: str) -> str:
    """SQL: a stated year of the fact lies more than ``gap`` from the median whose double is ``med2``."""
    return (
        f"((d.has_start AND (2 * d.start_year - {med2} > 2 * :gap OR {med2} - 2 * d.start_year > 2 * :gap)) "
        f"OR (d.has_end AND (2 * d.end_year - {med2} > 2 * :gap OR {med2} - 2 * d.end_year > 2 * :gap)))"
    )


def _verdict(x: str) -> str:
    """SQL: the verdict of entity statistics ``x`` on the fact: 1 far, 0 near, NULL too few others to tell."""
    med2 = f"(CASE WHEN d.rep > {x}.at_k THEN {x}.med_hi WHEN d.rep > {x}.below THEN {x}.med_mid ELSE {x}.med_lo END)"
    first = f"(CASE WHEN d.rep > {x}.l0 THEN {x}.l0 ELSE {x}.l1 END)"
    second = f"(CASE WHEN d.rep > {x}.l1 THEN {x}.l1 ELSE {x}.l2 END)"
    return (
        f"CASE WHEN {x}.m - 1 >= 3 THEN CASE WHEN {_far(med2)} THEN 1 ELSE 0 END "
        f"WHEN {x}.m - 1 >= 1 AND d.ymin < :early THEN "
        f"CASE WHEN {_near(first)} OR ({x}.m - 1 >= 2 AND {_near(second)}) THEN 0 ELSE 1 END "
        "ELSE NULL END"
    )


# Twice the median of each relation's representative years.
_REL_MEDIANS = """
WITH rr AS (
    SELECT r, rep AS year, ROW_NUMBER() OVER (PARTITION BY r ORDER BY rep) - 1 AS idx FROM p_dated
), rc AS (
    SELECT r, COUNT(*) AS m FROM p_dated GROUP BY r
)
SELECT rr.r,
       SUM(CASE WHEN 2 * rr.idx = rc.m - 1 THEN 2 * rr.year
                WHEN 2 * rr.idx = rc.m - 2 OR 2 * rr.idx = rc.m THEN rr.year ELSE 0 END) AS med2
FROM rr
JOIN rc ON rc.r = rr.r
GROUP BY rr.r
"""

# The first rule that applies, as an index into REASONS; facts no rule flags are left out. A fact's verdicts:
# its subject's other facts (vs) and, when the object differs, its object's (vo). A fact of a symmetric relation
# with mirror facts (o, r, s) agrees with one whose start and end years each equal its own where both state them;
# mirrors of which none agrees are the graph contradicting itself (mirror_disagrees). A birth is contradicted
# (birth_contradicted) where at least two, and at least half, of its subject's role-0 facts with a start (on either
# side, as before_birth reads them: a self-loop once) start before its year; it is then no birth for before_birth
# and youth_over_age. The role-0 rules never apply to a birth (role 1): it is recorded after the rules on its own
# dates, with mirror_disagrees, so that the type rules (earlier in REASONS) come first as they do for that one.
_REASONS = f"""
WITH mirrors AS (
    SELECT d.pos,
           MAX(CASE WHEN (NOT d.has_start OR NOT m.has_start OR d.start_year = m.start_year)
                         AND (NOT d.has_end OR NOT m.has_end OR d.end_year = m.end_year) THEN 1 ELSE 0 END) AS agrees
    FROM p_dated AS d
    JOIN p_dated AS m ON m.r = d.r AND m.s = d.o AND m.o = d.s AND m.pos <> d.pos
    WHERE d.symmetric AND d.s <> d.o
    GROUP BY d.pos
), lived AS (
    SELECT s AS e, start_year AS y FROM p_dated WHERE role = 0 AND has_start
    UNION ALL
    SELECT o AS e, start_year AS y FROM p_dated WHERE role = 0 AND has_start AND o <> s
), birth_life AS (
    SELECT b.pos, SUM(CASE WHEN l.y < b.start_year THEN 1 ELSE 0 END) AS n_before, COUNT(*) AS n_life
    FROM p_dated AS b
    JOIN lived AS l ON l.e = b.s
    WHERE b.role = 1 AND b.has_start
    GROUP BY b.pos
), contradicted AS (
    SELECT pos FROM birth_life WHERE n_before >= 2 AND 2 * n_before >= n_life
), births AS (
    SELECT d.s AS e, MIN(d.start_year) AS y
    FROM p_dated AS d
    LEFT JOIN contradicted AS c ON c.pos = d.pos
    WHERE d.role = 1 AND d.has_start AND c.pos IS NULL
    GROUP BY d.s
), deaths AS (
    SELECT s AS e, MAX(start_year) AS y FROM p_dated WHERE role = 2 AND has_start GROUP BY s
), v AS (
    SELECT d.pos, {_verdict("xs")} AS vs, CASE WHEN d.o = d.s THEN NULL ELSE {_verdict("xo")} END AS vo
    FROM p_dated AS d
    JOIN p_ent_stats AS xs ON xs.e = d.s
    LEFT JOIN p_ent_stats AS xo ON xo.e = d.o
), why AS (
    SELECT d.pos,
           CASE WHEN d.is_event AND d.has_start AND d.has_end AND d.end_year > d.start_year THEN 0
                WHEN NOT d.is_event AND :ongoing = 1 AND d.has_start AND NOT d.has_end
                     AND :as_of_year - d.start_year > d.max_years THEN 1
                WHEN NOT d.is_event AND d.has_start AND d.has_end AND d.span_max IS NOT NULL
                     AND d.end_year - d.start_year > d.span_max THEN {REASONS.index("span_too_long")}
                WHEN d.role = 0 AND d.has_start
                     AND ((bs.y IS NOT NULL AND d.start_year < bs.y + d.min_age)
                          OR (bo.y IS NOT NULL AND d.start_year < bo.y + d.min_age))
                     THEN 2
                WHEN d.role = 0 AND d.has_start
                     AND ((ds.y IS NOT NULL AND d.start_year > ds.y) OR (dd.y IS NOT NULL AND d.start_year > dd.y))
                     THEN 3
                WHEN d.role = 0 AND d.has_start
                     AND ((yo.max_age IS NOT NULL AND bs.y IS NOT NULL AND d.start_year - bs.y > yo.max_age + 2)
                          OR (ys.max_age IS NOT NULL AND bo.y IS NOT NULL AND d.start_year - bo.y > ys.max_age + 2))
                     THEN {REASONS.index("youth_over_age")}
                WHEN (v.vs IS NOT NULL OR v.vo IS NOT NULL) AND COALESCE(v.vs, 1) = 1 AND COALESCE(v.vo, 1) = 1
                     THEN 4
                WHEN v.vs IS NULL AND v.vo IS NULL AND d.ymin < :early
                     AND (2 * d.ymin - rm.med2 > 2 * :gap OR rm.med2 - 2 * d.ymin > 2 * :gap) THEN 4
                WHEN bc.pos IS NOT NULL THEN {REASONS.index("birth_contradicted")}
                WHEN mi.agrees = 0 THEN {REASONS.index("mirror_disagrees")}
                ELSE -1 END AS reason
    FROM p_dated AS d
    JOIN v ON v.pos = d.pos
    JOIN p_rel_medians AS rm ON rm.r = d.r
    LEFT JOIN contradicted AS bc ON bc.pos = d.pos
    LEFT JOIN births AS bs ON bs.e = d.s
    LEFT JOIN births AS bo ON bo.e = d.o
    LEFT JOIN deaths AS ds ON ds.e = d.s
    LEFT JOIN deaths AS dd ON dd.e = d.o
    LEFT JOIN mirrors AS mi ON mi.pos = d.pos
    LEFT JOIN pyouth AS yo ON yo.e = d.o
    LEFT JOIN pyouth AS ys ON ys.e = d.s
)
SELECT pos, reason FROM why WHERE reason >= 0
"""


def _on_sides(sides: str) -> str:
    """The (entity, type) pairs of the facts, not ignored, whose relation and side the table ``sides`` lists."""
    return f"""
SELECT e, type FROM (
    SELECT f.s AS e, t.type FROM pfacts AS f JOIN {sides} AS t ON t.code = f.r AND t.side = 0 WHERE NOT f.ignored
    UNION ALL
    SELECT f.o AS e, t.type FROM pfacts AS f JOIN {sides} AS t ON t.code = f.r AND t.side = 1 WHERE NOT f.ignored
) AS on_side
GROUP BY e, type
"""


# The entities each type is shown for: they stand on a side the type's shown_by lists, in a fact valid somewhere.
_SHOWN = _on_sides("ptypes")
# The entities a fact shows in another role than a type's (a side that neither shows nor presumes it).
_OTHER = _on_sides("pother")

# not_of_type: a presumed type the data does not show, of an entity it shows in another role, or an excluded
# type the data shows; label_unfit: every fact of an entity shown to be of a type its label cannot name.
_TYPE_REASONS = f"""
WITH unshown AS (
    SELECT f.pos FROM pfacts AS f
    JOIN pneeds AS n ON n.code = f.r
    JOIN p_other AS y ON y.e = (CASE WHEN n.side = 0 THEN f.s ELSE f.o END) AND y.type = n.type
    LEFT JOIN p_shown AS x ON x.e = y.e AND x.type = n.type
    WHERE NOT f.ignored AND x.e IS NULL
), excluded AS (
    SELECT f.pos FROM pfacts AS f
    JOIN pexcl AS n ON n.code = f.r
    JOIN p_shown AS x ON x.e = (CASE WHEN n.side = 0 THEN f.s ELSE f.o END) AND x.type = n.type
    WHERE NOT f.ignored
), unfit AS (
    SELECT u.e FROM punfit AS u
    JOIN p_shown AS x ON x.e = u.e AND x.type = u.type
    LEFT JOIN p_shown AS y ON y.e = u.of_e AND y.type = u.type
    WHERE u.of_e < 0 OR y.e IS NOT NULL
    GROUP BY u.e
), mislabelled AS (
    SELECT pos FROM (
        SELECT f.pos FROM pfacts AS f JOIN unfit AS u ON u.e = f.s WHERE NOT f.ignored
        UNION ALL
        SELECT f.pos FROM pfacts AS f JOIN unfit AS u ON u.e = f.o WHERE NOT f.ignored
    ) AS m
    GROUP BY pos
)
SELECT pos, {REASONS.index("not_of_type")} AS reason FROM unshown
UNION ALL
SELECT pos, {REASONS.index("not_of_type")} AS reason FROM excluded
UNION ALL
SELECT pos, {REASONS.index("label_unfit")} AS reason FROM mislabelled
"""

# The first rule that applies: the date rules in order, then the type rules.
_ALL_REASONS = """
SELECT pos, MIN(reason) AS reason
FROM (SELECT pos, reason FROM p_date_reasons UNION ALL SELECT pos, reason FROM p_type_reasons) AS u
GROUP BY pos
ORDER BY pos
"""

#: The steps of the implausible-date rules, in order.
PLAUSIBLE_STEPS: tuple[Step, ...] = (
    Step("p_dated", _DATED),
    Step("p_ent_years", _ENT_YEARS),
    Step("p_ent_stats", _ENT_STATS),
    Step("p_rel_medians", _REL_MEDIANS),
    Step("p_date_reasons", _REASONS),
    Step("p_shown", _SHOWN),
    Step("p_other", _OTHER),
    Step("p_type_reasons", _TYPE_REASONS),
    Step("p_reasons", _ALL_REASONS, ("pos",)),
)
_ROLES = {None: 0, "birth": 1, "death": 2}


def plausible_tables(
    cols: FactColumns,
    phrases: Mapping[str, RelationPhrases],
    ignored: Sequence[bool] | np.ndarray,
    default_max_years: int,
    types: TypeRules | None = None,
) -> dict[str, Input]:
    """The input tables (relations and entities by their codes in ``cols``; ``pfacts`` made a batch at a time)."""
    flags = np.asarray(ignored, dtype=bool)
    pfacts = batches_of(len(cols), lambda a, b: {**fact_arrays(fact_rows(cols, a, b), a), "ignored": flags[a:b]})
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
            "min_age": pa.array([p.min_age if p is not None else 0 for p in rels], type=pa.int32()),
            "span_max": pa.array([p.max_years if p is not None else None for p in rels], type=pa.int32()),
            "symmetric": pa.array([bool(p and p.symmetric) for p in rels], type=pa.bool_()),
        }
    )
    rules = types or TypeRules()
    youth = [(i, n) for i, e in enumerate(cols.entities) if (n := youth_limit(rules.label(e))) is not None]
    pyouth = pa.table(
        {
            "e": pa.array([i for i, _ in youth], type=pa.int32()),
            "max_age": pa.array([n for _, n in youth], type=pa.int32()),
        }
    )
    return {"pfacts": pfacts, "prels": prels, "pyouth": pyouth, **_type_tables(cols, phrases, rules)}


@dataclass(frozen=True)
class TypeRules:
    """The declared entity types (:attr:`PhraseTable.types`) and the labels the ``label_unfit`` rule reads."""

    types: Mapping[str, EntityType] = field(default_factory=dict)
    label: Callable[[str], str] = str


def _side_table(rows: list[tuple[int, int, int]]) -> pa.Table:
    cols = list(zip(*rows, strict=True)) if rows else [(), (), ()]
    return pa.table(
        {n: pa.array(list(c), type=pa.int32()) for n, c in zip(("code", "side", "type"), cols, strict=True)}
    )


def _type_tables(cols: FactColumns, phrases: Mapping[str, RelationPhrases], rules: TypeRules) -> dict[str, pa.Table]:
    """``ptypes``, ``pneeds``, ``pexcl``, ``pother`` and ``punfit`` (types by their position in ``rules.types``)."""
    code_of = {name: i for i, name in enumerate(rules.types)}
    rels = [phrases.get(x) for x in cols.relations]
    shows, needs, excl = [], [], []
    for c, p in enumerate(rels):
        if p is None:
            continue
        keys = (p.key, cols.relations[c])
        for t in rules.types.values():
            shows += [(c, SIDES.index(side), code_of[t.name]) for key, side in t.shown_by if key in keys]
        for side, t_name in ((0, p.subject_type), (1, p.object_type)):
            if t_name in code_of:  # a type the rules were not given is no rule
                needs.append((c, side, code_of[t_name]))
        for side, t_name in ((0, p.subject_not), (1, p.object_not)):
            if t_name in code_of:
                excl.append((c, side, code_of[t_name]))
    known = set(shows) | set(needs)
    # only a type some side presumes is ever looked up in p_other (not_of_type): the others would be rows unread
    needed = sorted({k for _, _, k in needs})
    other = [(c, side, k) for c in range(len(rels)) for side in (0, 1) for k in needed]
    unfit = unfit_labels(cols.entities, rules.label, rules.types)
    punfit = pa.table(
        {
            "e": pa.array([e for e, _, _ in unfit], type=pa.int32()),
            "type": pa.array([code_of[t] for _, t, _ in unfit], type=pa.int32()),
            "of_e": pa.array([j for _, _, j in unfit], type=pa.int32()),
        }
    )
    tables = {"ptypes": _side_table(shows), "pneeds": _side_table(needs), "pexcl": _side_table(excl)}
    return {**tables, "pother": _side_table([x for x in other if x not in known]), "punfit": punfit}


def implausible_by_sql(
    engine: SqlEngine,
    facts: Sequence[Fact],
    phrases: Mapping[str, RelationPhrases],
    ignored: Sequence[bool] | np.ndarray,
    as_of: TimePoint,
    open_end: str,
    default_max_years: int,
    types: TypeRules | None = None,
) -> dict[int, str]:
    """Fact position → reason (:data:`~chronoqa.generate.kg.plausible.REASONS`) of each implausible fact."""
    cols = fact_columns(facts)
    params = {"as_of_year": as_of.year, "ongoing": int(open_end == "ongoing"), "gap": CENTURY_GAP, "early": EARLY}
    out = engine.run(plausible_tables(cols, phrases, ignored, default_max_years, types), PLAUSIBLE_STEPS, params)
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
    types: TypeRules | None = None,
) -> np.ndarray:
    """The build's implausible facts from the chosen engine (the SQL of :data:`PLAUSIBLE_STEPS`).

    Per fact position the index in :data:`REASONS` of its reason, or ``-1`` (int8).
    """
    found = implausible_by_sql(
        sql_engine(engine), facts, phrases, np.asarray(ignored, dtype=bool), as_of, open_end,
        default_max_years, types,
    )  # fmt: skip
    codes = np.full(len(facts), -1, dtype=np.int8)
    if found:
        code_of = {r: i for i, r in enumerate(REASONS)}
        codes[np.fromiter(found, dtype=np.int64)] = [code_of[r] for r in found.values()]
    return codes
