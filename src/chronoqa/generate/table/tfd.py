"""Temporal functional dependencies ``X ->T Y``: discovery, support, violations.

``X ->T Y`` holds when every two rows with equal ``X`` whose validity intervals overlap have equal
``Y`` (TDBench's definition). Overlap is tested on closed unit spans at the store's granularity. Two
rows that share only a *boundary unit* (one ends in the unit the other starts: a handover on the
same day, or in the same year at year granularity) are counted as handovers, not violations: at the
data's granularity the change happened inside that unit.

Discovery runs as DuckDB self-joins, so it scales to large tables; candidates are every left-hand
side of up to ``max_lhs`` attribute columns and every other column as right-hand side.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.generate.table.store import TableStore, quote_ident

__all__ = ["TFD", "TFDReport", "Violation", "check_tfd", "discover_tfds", "select_tfds"]


@dataclass(frozen=True, slots=True, order=True)
class TFD:
    """A temporal functional dependency ``lhs ->T rhs``."""

    lhs: tuple[str, ...]
    rhs: str

    @classmethod
    def parse(cls, text: str, columns: Sequence[str] | None = None) -> TFD:
        """Read ``"Country,Role->Name"``; column names are checked against ``columns`` when given."""
        if "->" not in text:
            raise ChronoqaError(f"TFD {text!r}: expected 'A,B->C' (left-hand columns, '->', one right-hand column)")
        left, right = text.split("->", 1)
        lhs = tuple(c.strip() for c in left.split(",") if c.strip())
        rhs = right.strip()
        if not lhs or not rhs:
            raise ChronoqaError(f"TFD {text!r}: expected 'A,B->C' with at least one column on each side")
        if rhs in lhs:
            raise ChronoqaError(f"TFD {text!r}: the right-hand column {rhs!r} is also on the left")
        if columns is not None:
            for c in (*lhs, rhs):
                if c not in columns:
                    raise UnknownNameError("column", c, columns)
        return cls(lhs, rhs)

    def __str__(self) -> str:
        return f"{','.join(self.lhs)}->{self.rhs}"


@dataclass(frozen=True, slots=True)
class Violation:
    """Two overlapping rows with equal X and different Y (source lines and values)."""

    line_a: int
    line_b: int
    key: tuple[str | None, ...]
    y_a: str | None
    y_b: str | None
    span_a: tuple[str, str | None]
    span_b: tuple[str, str | None]

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {
            "lines": [self.line_a, self.line_b],
            "key": list(self.key),
            "values": [self.y_a, self.y_b],
            "spans": [list(self.span_a), list(self.span_b)],
        }


@dataclass(frozen=True, slots=True)
class TFDReport:
    """Support and violations of one candidate TFD."""

    tfd: TFD
    rows: int
    keys: int
    changing_keys: int
    violations: int
    violating_rows: int
    violating_keys: int
    handovers: int
    examples: tuple[Violation, ...]

    @property
    def violation_rate(self) -> float:
        """Share of rows involved in at least one violation."""
        return self.violating_rows / self.rows if self.rows else 0.0

    @property
    def changing_share(self) -> float:
        """Share of keys whose Y changes over time."""
        return self.changing_keys / self.keys if self.keys else 0.0

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {
            "tfd": str(self.tfd),
            "rows": self.rows,
            "keys": self.keys,
            "changing_keys": self.changing_keys,
            "violations": self.violations,
            "violating_rows": self.violating_rows,
            "violating_keys": self.violating_keys,
            "handovers": self.handovers,
            "violation_rate": round(self.violation_rate, 4),
            "examples": [v.to_dict() for v in self.examples],
        }


def check_tfd(store: TableStore, tfd: TFD, *, max_examples: int = 20) -> TFDReport:
    """Support and violations of ``tfd`` on ``store`` (rows with a missing X or Y value are not counted)."""
    t = quote_ident(store.sql_name)
    x = [quote_ident(c) for c in tfd.lhs]
    y = quote_ident(tfd.rhs)
    not_null = " AND ".join(f"{c} IS NOT NULL" for c in (*x, y))
    rows, keys, changing = store.con.execute(
        f"SELECT count(*), count(DISTINCT ({', '.join(x)})), "
        f"(SELECT count(*) FROM (SELECT 1 FROM {t} WHERE {not_null} GROUP BY {', '.join(x)} "
        f"HAVING count(DISTINCT {y}) > 1)) FROM {t} WHERE {not_null}"
    ).fetchone() or (0, 0, 0)
    join_key = " AND ".join(f"a.{c} = b.{c}" for c in x)
    pairs = (
        f"FROM {t} a JOIN {t} b ON {join_key} AND a._row < b._row AND a._lo <= b._hi AND b._lo <= a._hi "
        f"AND a.{y} IS NOT NULL AND b.{y} IS NOT NULL AND a.{y} <> b.{y}"
    )
    handover = "(a._hi = b._lo OR b._hi = a._lo) AND greatest(a._lo, b._lo) = least(a._hi, b._hi)"
    viol = f"{pairs} WHERE NOT ({handover})"
    n_handover = store.con.execute(f"SELECT count(*) {pairs} WHERE {handover}").fetchone()
    n_viol = store.con.execute(f"SELECT count(*) {viol}").fetchone()
    n_rows = store.con.execute(
        f"SELECT count(*) FROM (SELECT a._row AS r {viol} UNION SELECT b._row AS r {viol})"
    ).fetchone()
    n_keys = store.con.execute(
        f"SELECT count(*) FROM (SELECT DISTINCT {', '.join(f'a.{c}' for c in x)} {viol})"
    ).fetchone()
    ex = store.con.execute(f"SELECT a._row, b._row {viol} ORDER BY a._row, b._row LIMIT {int(max_examples)}").fetchall()
    examples = []
    for ra, rb in ex:
        ra, rb = int(ra), int(rb)
        ta, tb = store.table.rows[ra], store.table.rows[rb]
        cols = store.table.columns
        examples.append(
            Violation(
                store.table.lines[ra],
                store.table.lines[rb],
                tuple(ta[cols.index(c)] for c in tfd.lhs),
                ta[cols.index(tfd.rhs)],
                tb[cols.index(tfd.rhs)],
                store.row_iso(ra),
                store.row_iso(rb),
            )
        )
    return TFDReport(
        tfd,
        int(rows),
        int(keys),
        int(changing),
        int(n_viol[0]) if n_viol else 0,
        int(n_rows[0]) if n_rows else 0,
        int(n_keys[0]) if n_keys else 0,
        int(n_handover[0]) if n_handover else 0,
        tuple(examples),
    )


def discover_tfds(store: TableStore, *, max_lhs: int = 3, columns: Sequence[str] | None = None) -> list[TFDReport]:
    """Reports of every candidate ``X -> Y`` with ``|X| <= max_lhs`` over ``columns`` (default: all)."""
    cols = list(columns if columns is not None else store.table.columns)
    out = []
    for k in range(1, min(max_lhs, len(cols) - 1) + 1):
        for lhs in itertools.combinations(cols, k):
            for rhs in cols:
                if rhs not in lhs:
                    out.append(check_tfd(store, TFD(tuple(lhs), rhs)))
    return out


def select_tfds(
    reports: Sequence[TFDReport],
    *,
    threshold: float = 0.05,
    min_changing_keys: int = 2,
    min_changing_share: float = 0.3,
) -> list[TFDReport]:
    """The TFDs that make questions.

    Kept: violation rate at most ``threshold`` (an approximate TFD), Y changing over time for at least
    ``min_changing_keys`` keys and ``min_changing_share`` of the keys, and minimal (no kept TFD with
    the same right-hand side and a smaller left-hand side). Sorted by left-hand side size, then name.
    """
    ok = [
        r
        for r in reports
        if r.violation_rate <= threshold
        and r.changing_keys >= min_changing_keys
        and r.changing_share >= min_changing_share
    ]
    ok.sort(key=lambda r: (len(r.tfd.lhs), str(r.tfd)))
    kept: list[TFDReport] = []
    for r in ok:
        if any(k.tfd.rhs == r.tfd.rhs and set(k.tfd.lhs) < set(r.tfd.lhs) for k in kept):
            continue
        kept.append(r)
    return kept
