"""The graph index's heavy steps, written once as SQL (DuckDB dialect), and the subset of SQL they may use.

Input tables (built by :func:`chronoqa.generate.kg.sql.index.input_tables`; every time is an integer unit
computed beforehand by :func:`chronoqa.time.unit_bounds` at the build granularity: no date arithmetic here)::

    facts(pos BIGINT, s INT, r INT, o INT,           -- position in the fact sequence; entity/relation codes
          has_start BOOLEAN, s_lo BIGINT, s_hi BIGINT, s_fine BOOLEAN, start_year INT,
          has_end BOOLEAN, e_lo BIGINT, e_hi BIGINT, e_fine BOOLEAN, end_year INT)
    relations(code INT, name VARCHAR, is_event BOOLEAN, symmetric BOOLEAN)
    not_years(r INT, year INT)                        -- one row per (relation code, year that is not a year)

Parameters (bound as integer literals by sqlglot before a query runs): ``as_lo`` / ``as_hi`` (the units of
``as_of``), ``unknown`` (1 under the ``unknown`` open-end reading, else 0) and the markers ``neg``, ``pos``,
``none`` of :mod:`chronoqa.generate.kg.index`.

Each step's result is a table the later steps read by its name. A step whose result comes back to Python (an
*output*) ends in a total ``ORDER BY`` (:attr:`Step.order` names its columns, so a reader can check the order of
what an engine wrote); an *intermediate* step (empty :attr:`Step.order`) stays inside the engine, unordered.

The subset (:func:`check_subset` enforces it; the tests run it over every step and over counter-examples):
``SELECT`` / ``WITH`` / ``UNION ALL`` / inner, left and cross joins / ``WHERE`` / ``GROUP BY`` / ``ORDER BY``;
integer literals and parameters; ``+ - *`` on integers, ``CAST(... AS BIGINT | INT)``; comparisons, ``AND
OR NOT``, ``IS [NOT] NULL``, ``CASE WHEN``; ``COUNT SUM MIN MAX GREATEST LEAST COALESCE`` (of integers);
``ROW_NUMBER() OVER ([PARTITION BY ...] ORDER BY ...)`` and ``LAG(column, offset)`` over such a window (rows
that tie in its order must be interchangeable). Not allowed, because the engines disagree or
sqlglot does not carry it over: division and modulo (``/``, ``//``, ``%``: rounding of negatives),
floating-point numbers (sums differ in the last digits), every date or time function (``date_diff`` counts
boundaries in DuckDB, not in Spark), ``ASOF`` joins (no Spark form), ``rand()`` and any other function.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

import sqlglot
from sqlglot import exp

from chronoqa.errors import ChronoqaError

__all__ = ["ALLOWED_FUNCTIONS", "ALLOWED_NODES", "STEPS", "Step", "check_subset", "render"]


@dataclass(frozen=True)
class Step:
    """One query: its result table's name, its SQL (DuckDB dialect) and the columns of its total order.

    An empty ``order`` makes the step intermediate: its result stays in the engine for the later steps.
    """

    name: str
    sql: str
    order: tuple[str, ...] = ()

    @property
    def output(self) -> bool:
        """True when the step's result comes back to the caller (in :attr:`order`)."""
        return bool(self.order)


_ENT_IDS = """
SELECT e AS code, ROW_NUMBER() OVER (ORDER BY k) - 1 AS id
FROM (
    SELECT e, MIN(k) AS k
    FROM (SELECT s AS e, 2 * pos AS k FROM facts UNION ALL SELECT o AS e, 2 * pos + 1 AS k FROM facts) AS ends
    GROUP BY e
) AS firsts
ORDER BY id
"""

_REL_IDS = """
SELECT r AS code, ROW_NUMBER() OVER (ORDER BY k) - 1 AS id
FROM (SELECT r, MIN(pos) AS k FROM facts GROUP BY r) AS firsts
ORDER BY id
"""

# The per-fact table (GraphIndex.table columns S..EU) with the reversed and non-year flags. An event without
# an end holds at its start; an open end reaches as_of (certainly only in the start unit under 'unknown').
_FACT_ROWS = """
WITH f AS (
    SELECT facts.pos, CAST(es.id AS INT) AS s, CAST(rr.id AS INT) AS r, CAST(eo.id AS INT) AS o,
           facts.has_start, facts.s_lo, facts.s_hi, facts.s_fine,
           facts.has_end, facts.e_lo, facts.e_hi, facts.e_fine,
           rel.is_event, rel.symmetric,
           (facts.has_start AND facts.has_end AND facts.s_lo > facts.e_hi) AS is_reversed,
           (ny_s.r IS NOT NULL OR ny_e.r IS NOT NULL) AS non_year
    FROM facts
    JOIN ent_ids AS es ON es.code = facts.s
    JOIN ent_ids AS eo ON eo.code = facts.o
    JOIN rel_ids AS rr ON rr.code = facts.r
    JOIN relations AS rel ON rel.code = facts.r
    LEFT JOIN not_years AS ny_s ON ny_s.r = facts.r AND ny_s.year = facts.start_year AND facts.has_start
    LEFT JOIN not_years AS ny_e ON ny_e.r = facts.r AND ny_e.year = facts.end_year AND facts.has_end
), b AS (
    SELECT pos, s, r, o, symmetric, is_reversed, non_year, (is_reversed OR non_year) AS ignored,
           CASE WHEN has_start THEN s_lo ELSE :neg END AS plo,
           CASE WHEN has_end THEN e_hi WHEN is_event AND has_start THEN s_hi ELSE :as_hi END AS phi,
           CASE WHEN has_start THEN s_hi ELSE :pos END AS clo,
           CASE WHEN has_end THEN e_lo
                WHEN is_event AND has_start THEN s_lo
                WHEN :unknown = 1 AND has_start THEN s_lo
                ELSE :as_lo END AS chi,
           CASE WHEN has_start AND s_fine THEN s_lo ELSE :none END AS su,
           CASE WHEN has_end AND e_fine THEN e_lo ELSE :none END AS eu
    FROM f
), c AS (
    SELECT pos, s, r, o, symmetric, is_reversed, non_year, ignored, su, eu,
           CASE WHEN ignored THEN :pos ELSE plo END AS plo,
           CASE WHEN ignored THEN :neg ELSE phi END AS phi,
           CASE WHEN ignored THEN :pos ELSE clo END AS clo,
           CASE WHEN ignored THEN :neg ELSE chi END AS chi
    FROM b
)
SELECT pos, s, r, o, CAST(plo AS INT) AS plo, CAST(phi AS INT) AS phi,
       CAST(clo AS INT) AS clo, CAST(CASE WHEN clo = :pos THEN :neg ELSE chi END AS INT) AS chi,
       CAST(su AS INT) AS su, CAST(eu AS INT) AS eu, symmetric, is_reversed, non_year, ignored,
       CASE WHEN symmetric AND o < s THEN o ELSE s END AS t_lo,
       CASE WHEN symmetric AND o < s THEN s ELSE o END AS t_hi
FROM c
"""

# Kept facts per (s, r, o) triple, a symmetric fact's ends in ascending order (a fact and its mirror share one).
_TRIPLES = """
SELECT t_lo, r, t_hi, COUNT(*) AS n FROM fact_rows WHERE NOT ignored GROUP BY t_lo, r, t_hi
"""

# The per-fact table with each kept fact's triple count (0 if ignored).
_FACT_TABLE = """
SELECT t.pos, t.s, t.r, t.o, t.plo, t.phi, t.clo, t.chi, t.su, t.eu, t.is_reversed, t.non_year,
       CAST(CASE WHEN t.ignored THEN 0 ELSE k.n END AS INT) AS n
FROM fact_rows AS t
LEFT JOIN triples AS k ON k.t_lo = t.t_lo AND k.r = t.r AND k.t_hi = t.t_hi
ORDER BY pos
"""

_N_REL = "CROSS JOIN (SELECT GREATEST(COUNT(*), 1) AS n_rel FROM rel_ids) AS nr"

# Outgoing rows: every kept fact from its subject, and a symmetric fact from its object too (its mirror). A row
# is (key, fact): the index reads the relation, the other endpoint and the bounds from the fact table.
_OUT_ADJ = f"""
SELECT CAST(t.s AS BIGINT) * nr.n_rel + t.r AS key, t.pos AS fid
FROM fact_rows AS t {_N_REL}
WHERE NOT t.ignored
UNION ALL
SELECT CAST(t.o AS BIGINT) * nr.n_rel + t.r AS key, t.pos AS fid
FROM fact_rows AS t {_N_REL}
WHERE NOT t.ignored AND t.symmetric
ORDER BY key, fid
"""

# Incoming rows: kept facts of relations that are not symmetric, from their object.
_IN_ADJ = f"""
SELECT CAST(t.o AS BIGINT) * nr.n_rel + t.r AS key, t.pos AS fid
FROM fact_rows AS t {_N_REL}
WHERE NOT t.ignored AND NOT t.symmetric
ORDER BY key, fid
"""

#: The steps in the order they run; each reads the input tables and the results of the steps before it.
STEPS: tuple[Step, ...] = (
    Step("ent_ids", _ENT_IDS, ("id",)),
    Step("rel_ids", _REL_IDS, ("id",)),
    Step("fact_rows", _FACT_ROWS),
    Step("triples", _TRIPLES),
    Step("fact_table", _FACT_TABLE, ("pos",)),
    Step("out_adj", _OUT_ADJ, ("key", "fid")),
    Step("in_adj", _IN_ADJ, ("key", "fid")),
)

#: sqlglot node types a step may contain (see the module docstring).
ALLOWED_NODES: frozenset[type[exp.Expression]] = frozenset(
    {
        exp.Select, exp.With, exp.CTE, exp.Union, exp.Subquery, exp.From, exp.Join, exp.Where, exp.Group,
        exp.Order, exp.Ordered, exp.Table, exp.TableAlias, exp.Column, exp.Identifier, exp.Alias, exp.Star,
        exp.Literal, exp.Placeholder, exp.Boolean, exp.Null, exp.Paren, exp.Neg, exp.Add, exp.Sub, exp.Mul,
        exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.And, exp.Or, exp.Not, exp.Is, exp.Case, exp.If,
        exp.Cast, exp.DataType, exp.Window, exp.RowNumber, exp.Lag,
    }
)  # fmt: skip
#: Function nodes a step may call.
ALLOWED_FUNCTIONS: frozenset[type[exp.Expression]] = frozenset(
    {exp.Count, exp.Sum, exp.Min, exp.Max, exp.Greatest, exp.Least, exp.Coalesce}
)
_INT_TYPES = frozenset({exp.DataType.Type.BIGINT, exp.DataType.Type.INT})


class _Where:
    """A node's SQL text for an error message, rendered only when a message needs it."""

    def __init__(self, node: exp.Expr) -> None:
        self.node = node

    def __repr__(self) -> str:
        return repr(self.node.sql(dialect="duckdb")[:80])


def check_subset(sql: str) -> exp.Expression:
    """Parse ``sql`` (DuckDB dialect) and return its tree.

    Raises:
        ChronoqaError: A construct outside the subset, named with the fix.

    """
    tree = cast("exp.Expression", sqlglot.parse_one(sql, read="duckdb"))
    for node in tree.walk():
        kind = type(node)
        where = _Where(node)
        if kind not in ALLOWED_NODES and kind not in ALLOWED_FUNCTIONS:
            raise ChronoqaError(
                f"SQL construct {kind.__name__} ({where!r}) is outside the tested subset shared by DuckDB and Spark "
                "(see chronoqa.generate.kg.sql.queries): rewrite it with integer arithmetic, comparisons and CASE"
            )
        if isinstance(node, exp.Literal) and not (node.is_string or node.this.isdigit()):
            raise ChronoqaError(f"SQL literal {where!r} is not an integer: keep integer units (no floating point)")
        if isinstance(node, exp.DataType) and node.this not in _INT_TYPES:
            raise ChronoqaError(f"SQL type {where!r} is outside the subset: cast to BIGINT or INT only")
        if isinstance(node, exp.Join):
            kind_name = " ".join(str(node.args.get(a) or "").upper() for a in ("method", "side", "kind")).split()
            if kind_name not in ([], ["LEFT"], ["CROSS"], ["INNER"]):
                raise ChronoqaError(
                    f"SQL join {where!r} ({' '.join(kind_name)}) is outside the subset: inner, left or cross only"
                )
        if isinstance(node, exp.Window) and not node.args.get("order"):
            raise ChronoqaError(f"SQL window {where!r} has no ORDER BY: its rows' order differs between engines")
        if isinstance(node, exp.Lag) and not isinstance(node.parent, exp.Window):
            raise ChronoqaError(f"SQL {where!r}: LAG is allowed only over a window with an ORDER BY")
        if isinstance(node, exp.Union) and node.args.get("distinct"):
            raise ChronoqaError(f"SQL {where!r}: use UNION ALL (UNION's duplicate removal is not needed here)")
    return tree


def render(step: Step, dialect: str, params: Mapping[str, int]) -> str:
    """The step's SQL for ``dialect`` (``duckdb`` or ``spark``), its parameters bound as integer literals."""
    tree = check_subset(step.sql)
    bound = exp.replace_placeholders(tree, **{k: int(v) for k, v in params.items()})
    left = [n.name for n in bound.find_all(exp.Placeholder)]
    if left:
        raise ValueError(f"step {step.name}: parameters {sorted(set(left))} were not given")
    return bound.sql(dialect=dialect)
