"""Table kinds: *role*, *status* or *event*, detected from the data (and overridable per table).

* **role**: a key whose value changes over time, one holder at a time (heads of government, a
  player's team): the TFD path (:mod:`.questions`: the 13 Allen relations, time alignment).
* **status**: the state of a key since a date (a law's legality, a carbon tax in force), mostly one
  open-ended row per key: :mod:`.status_questions` (since when, which keys changed in a window).
* **event**: things that happen at a date or over a short span (a Games edition, a film's release):
  :mod:`.event_questions` (when, which event in a year). A TFD on an event table whose rows a column names
  (``Country -> City`` holds only because a country rarely hosts twice in overlapping weeks) is never used;
  short spans no column names (:func:`span_names`: hospital stays) are spells of a key, asked by the TFD path
  where a TFD holds (:mod:`.build`).

Detection (:func:`detect_kind`), in order: at least half the rows open-ended and a *state column* (at
most 10 distinct values, each on at least 2 rows) → status; at least 80 % of the rows closed spans of
at most 366 days, or every row open-ended without a state column and at distinct dates for at least half
the rows (more than half: a release date with no end) → event;
otherwise role. The kind, the columns it uses and why are recorded in the manifest and the data card.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from chronoqa.errors import ChronoqaError
from chronoqa.records import TemporalTable
from chronoqa.time import Interval

__all__ = [
    "KINDS",
    "MULTI_VALUE_RE",
    "NO_DELIMITER",
    "TableKind",
    "column_is_multi_value",
    "delimiter_pattern",
    "detect_kind",
    "has_delimited_values",
    "is_multi_value",
    "span_names",
    "split_cell",
    "table_kind",
    "unique_columns",
]

KINDS: Final = ("role", "status", "event")
_MAX_STATE_VALUES: Final = 10
_MAX_CATEGORY_VALUES: Final = 40
_SHORT_DAYS: Final = 366
#: The delimiters of a multi-value cell ("Melissa Barrera, Dan Stevens", "Afghanistan / Azerbaijan"), unless
#: declared per column (``TableBuildConfig.delimiters``, ``--delimiter table.column=' & '``; ``none``: no split).
MULTI_VALUE_RE: Final = re.compile(r", | / |; ")
NO_DELIMITER: Final = "none"


@dataclass(frozen=True, slots=True)
class TableKind:
    """A table's kind, the columns its questions use, and why it was chosen.

    ``key``: the fewest columns that identify a row (status and event tables; on a status table whose keys
    have a history, the fewest that identify its open-ended rows, one per key); ``state``: the status
    column; ``category``: a categorical column (few values, recurring) that groups keys; ``entity``: the
    column named in set answers ("which countries").
    """

    kind: str
    why: str
    declared_by: str = "detected"
    key: tuple[str, ...] = ()
    state: str | None = None
    category: str | None = None
    entity: str | None = None

    def to_dict(self) -> dict[str, object]:
        """JSON form for the manifest (the fields in their declared order)."""
        return dataclasses.asdict(self) | {"key": list(self.key)}


def _distinct(table: TemporalTable) -> dict[str, Counter[str | None]]:
    return {c: Counter(r[i] for r in table.rows) for i, c in enumerate(table.columns)}


def unique_columns(table: TemporalTable, columns: Sequence[str], *, max_size: int = 3) -> tuple[str, ...]:
    """The combination of ``columns`` that identifies every row (``()`` when none of ``max_size`` does).

    Fewest columns first, then the most categorical (smallest product of distinct counts: edition + season
    over edition + city), then column order.
    """
    counts = _distinct(table)
    for k in range(1, min(max_size, len(columns)) + 1):
        found = []
        for combo in itertools.combinations(columns, k):
            idx = [table.columns.index(c) for c in combo]
            vals = [tuple(r[i] for i in idx) for r in table.rows]
            if all(v is not None for t in vals for v in t) and len(set(vals)) == len(vals):
                product = 1
                for c in combo:
                    product *= len(counts[c])
                found.append((product if k > 1 else 0, combo))
        if found:
            return tuple(min(found, key=lambda f: f[0])[1])
    return ()


def span_names(table: TemporalTable) -> tuple[str, ...]:
    """The columns that name a row's span: each of their values (two or more) holds one span, on every row.

    A Games edition or a film is named (``Game_name``: the event *is* the row); a hospital stay, a contract or a
    membership is not (a patient has several stays, a doctor treats many patients): such a row is a spell of its
    key, asked by the TFD path wherever a TFD holds over the spans (:func:`chronoqa.generate.table.build`).
    """
    out = []
    for i, c in enumerate(table.columns):
        spans: dict[str | None, set[Interval]] = {}
        for row, iv in zip(table.rows, table.intervals, strict=True):
            spans.setdefault(row[i], set()).add(iv)
        if None not in spans and len(spans) > 1 and all(len(v) == 1 for v in spans.values()):
            out.append(c)
    return tuple(out)


def delimiter_pattern(declared: str | None) -> re.Pattern[str]:
    """The pattern that splits a cell: a declared delimiter (as typed), else the detected ones."""
    return MULTI_VALUE_RE if declared is None else re.compile(re.escape(declared))


def has_delimited_values(values: Sequence[str | None], pattern: re.Pattern[str] = MULTI_VALUE_RE) -> bool:
    """A column some of whose cells hold several values (at least 5 % hold a delimiter: co-directors)."""
    vals = [v for v in values if v is not None]
    return bool(vals) and sum(1 for v in vals if pattern.search(v)) >= 0.05 * len(vals)


def split_cell(value: str, delimited: bool, pattern: re.Pattern[str] = MULTI_VALUE_RE) -> list[str]:
    """The values of one cell: split on the delimiters when its column is delimited, else the cell itself."""
    return [v.strip() for v in pattern.split(value) if v.strip()] if delimited else [value]


def is_multi_value(values: Sequence[str | None], pattern: re.Pattern[str] = MULTI_VALUE_RE) -> bool:
    """A multi-value column (cast lists, member states): at least 30 % of its values hold a delimiter."""
    vals = [v for v in values if v is not None]
    return bool(vals) and sum(1 for v in vals if pattern.search(v)) >= 0.3 * len(vals)


def _state_column(counts: dict[str, Counter[str | None]]) -> str | None:
    ok = [c for c, n in counts.items() if None not in n and len(n) <= _MAX_STATE_VALUES and min(n.values()) >= 2]
    return min(ok, key=lambda c: (len(counts[c]), list(counts).index(c))) if ok else None


def column_is_multi_value(table: TemporalTable, column: str, delimiters: Mapping[str, str] | None = None) -> bool:
    """:func:`is_multi_value` for one column, with its declared delimiter (``delimiters``: column -> delimiter)."""
    d = (delimiters or {}).get(column)
    if d == NO_DELIMITER:
        return False
    return is_multi_value(table.column(column), delimiter_pattern(d))


def _columns_for(
    table: TemporalTable, kind: str, why: str, declared_by: str, delimiters: Mapping[str, str] | None = None
) -> TableKind:
    counts = _distinct(table)
    n = len(table.rows)
    state = _state_column(counts) if kind == "status" else None
    rest = [c for c in table.columns if c != state]
    category_ok = [c for c in rest if 2 <= len(counts[c]) <= _MAX_CATEGORY_VALUES and None not in counts[c]]
    category = min(category_ok, key=lambda c: (len(counts[c]), rest.index(c))) if category_ok else None
    entity = next(
        (c for c in rest if c != category and len(counts[c]) < n and not column_is_multi_value(table, c, delimiters)),
        None,
    )
    key = unique_columns(table, rest)
    if not key and kind == "status":  # a key with a history (illegal, then legal): one open row per key
        current = [i for i, iv in enumerate(table.intervals) if iv.end is None]
        key = unique_columns(dataclasses.replace(table, rows=[table.rows[i] for i in current]), rest)
    if not key and kind == "status":  # one column naming all but 2 % of the open rows (a duplicated row)
        key = _nearly_unique_column(table, rest, delimiters)
    return TableKind(kind, why, declared_by, key, state, category, entity)


def _nearly_unique_column(
    table: TemporalTable, columns: Sequence[str], delimiters: Mapping[str, str] | None
) -> tuple[str, ...]:
    """The column whose values identify all but at most 2 % of the open-ended rows (none missing, not multi-value).

    Rows it does not identify are skipped by the families (a key whose current state is not unique).
    """
    current = [r for r, iv in zip(table.rows, table.intervals, strict=True) if iv.end is None]
    best: tuple[int, str] | None = None
    for c in columns:
        i = table.columns.index(c)
        vals = [r[i] for r in current]
        if not vals or any(v is None for v in vals) or column_is_multi_value(table, c, delimiters):
            continue
        counts = Counter(vals)
        clash = sum(n for n in counts.values() if n > 1)
        if clash <= 0.02 * len(vals) and (best is None or clash < best[0]):
            best = (clash, c)
    return (best[1],) if best else ()


def _days(iv: Interval) -> int:
    assert iv.start is not None and iv.end is not None
    return iv.end.last_day() - iv.start.first_day()


def detect_kind(table: TemporalTable, delimiters: Mapping[str, str] | None = None) -> TableKind:
    """The kind of ``table`` from its data (see the module docstring)."""
    n = len(table.rows)
    if n == 0:
        return TableKind("role", "empty table: role (the TFD path)")
    ivs = table.intervals
    open_share = sum(1 for iv in ivs if iv.end is None) / n
    closed = [iv for iv in ivs if iv.start is not None and iv.end is not None]
    short = sum(1 for iv in closed if _days(iv) <= _SHORT_DAYS)
    counts = _distinct(table)
    state = _state_column(counts)
    if open_share >= 0.5 and state is not None:
        why = f"{open_share:.0%} of the rows are open-ended states, held in {state!r} ({len(counts[state])} value(s))"
        return _columns_for(table, "status", why, "detected", delimiters)
    if closed and short / n >= 0.8:
        return _columns_for(
            table, "event", f"{short / n:.0%} of the rows are closed spans of at most a year", "detected", delimiters
        )
    starts = {iv.start for iv in ivs if iv.start is not None}
    if open_share == 1.0 and len(starts) > 0.5 * n:  # open rows at many distinct dates: release dates
        return _columns_for(
            table,
            "event",
            "every row is open-ended and no column reads as a state: dated events",
            "detected",
            delimiters,
        )
    return TableKind(
        "role", f"{1 - open_share:.0%} of the rows are closed terms of varying length: role (the TFD path)"
    )


def table_kind(table: TemporalTable, declared: str | None, delimiters: Mapping[str, str] | None = None) -> TableKind:
    """The declared kind (``--kind``) with its columns, or the detected one.

    ``delimiters`` maps a column to its declared delimiter (``none``: names that contain commas).
    """
    if declared is None:
        return detect_kind(table, delimiters)
    if declared not in KINDS:
        from chronoqa.errors import UnknownNameError

        raise UnknownNameError("table kind", declared, KINDS)
    if declared == "role":
        return TableKind("role", "declared role: the TFD path", "config")
    found = _columns_for(table, declared, f"declared {declared}", "config", delimiters)
    if declared == "status" and found.state is None:
        raise ChronoqaError(
            f"table {table.name!r} is declared a status table but no column reads as a state (at most "
            f"{_MAX_STATE_VALUES} distinct values, each on at least 2 rows): declare another kind"
        )
    return found
