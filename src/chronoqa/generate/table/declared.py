"""What a phrase file declares about a table's rows: rows declared wrong, and cells declared corrected.

A phrase file's ``tables`` entry may hold:

* ``"exclude:<columns>"``: a value (or a list) of the columns, several joined by ``" | "``
  (``"exclude:Country,Role,Name": ["Bangladesh | Prime Minister | Fakhruddin Ahmed"]``: a caretaker Chief
  Adviser filed as Prime Minister). Such rows are wrong in the world: they are left out of the table before it is
  stored or joined, so no question asks about them, no gold counts them and no corpus document states them
  (counted in the manifest's ``left_out``).
* ``"map:<columns>-><column>"``: a mapping from values of the columns (joined by ``" | "``) to the value the
  target column should hold (``"map:Game_name->City": {"St. Louis 1904": "St. Louis"}``: TDBench's
  ``olympic.csv`` cuts city names to their first word). Each row is mapped from its values as read, so maps do
  not chain; the number of cells changed is in the manifest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from chronoqa.errors import ChronoqaError
from chronoqa.records import TemporalTable

__all__ = ["DeclaredRows", "declared_rows"]


@dataclass(frozen=True, slots=True)
class DeclaredRows:
    """A table with its declared cell corrections applied and the rows it declares wrong left out."""

    table: TemporalTable
    #: row index (in the table as read) → the entry that declares it wrong (``exclude:Law_type``)
    excluded: dict[int, str] = field(default_factory=dict)
    #: entry → cells changed (``map:Game_name->City``: 12)
    mapped: dict[str, int] = field(default_factory=dict)
    #: entry → a sentence for the data card
    notes: dict[str, str] = field(default_factory=dict)


def _columns(table: TemporalTable, entry: str, cols: Sequence[str]) -> list[int]:
    for c in cols:
        if c not in table.columns:
            raise ChronoqaError(
                f"phrase file: table {table.name!r} entry {entry!r} names column {c!r}, which the table does not "
                f"have (columns: {', '.join(table.columns)})"
            )
    return [table.columns.index(c) for c in cols]


def _key(row: tuple[str | None, ...], idx: Sequence[int]) -> str:
    return " | ".join(row[i] or "" for i in idx)


def declared_rows(table: TemporalTable, entry: Mapping[str, object]) -> DeclaredRows:
    """Apply one table's ``map:`` entries, and find the rows its ``exclude:`` entries declare wrong."""
    rows = list(table.rows)
    mapped: dict[str, int] = {}
    notes: dict[str, str] = {}
    for name, value in sorted(entry.items()):
        if not name.startswith("map:"):
            continue
        lhs, arrow, target = name[4:].partition("->")
        if not arrow or not isinstance(value, dict):
            raise ChronoqaError(
                f"phrase file: table {table.name!r} entry {name!r}: expected 'map:COLUMNS->COLUMN' with an object "
                'of values, e.g. "map:Game_name->City": {"St. Louis 1904": "St. Louis"}'
            )
        idx = _columns(table, name, lhs.split(","))
        (t,) = _columns(table, name, [target])
        changed = 0
        for i, row in enumerate(table.rows):  # from the values as read: maps never chain
            new = value.get(_key(row, idx))
            if new is not None and rows[i][t] != str(new):
                rows[i] = (*rows[i][:t], str(new), *rows[i][t + 1 :])
                changed += 1
        mapped[name] = changed
        notes[name] = f"{changed} cells of {target} set as declared by the phrase file"
    excluded: dict[int, str] = {}
    for name, value in sorted(entry.items()):
        if not name.startswith("exclude:"):
            continue
        cols = name.split(":", 1)[1]
        idx = _columns(table, name, cols.split(","))
        wrong = {str(v) for v in value} if isinstance(value, list) else {str(value)}
        hits = [i for i, row in enumerate(rows) if _key(row, idx) in wrong and i not in excluded]
        excluded |= dict.fromkeys(hits, name)
        notes[f"excluded:{cols}"] = (
            f"{len(hits)} rows with {cols} in {sorted(wrong)} left out (declared wrong by the phrase file)"
        )
    if not mapped and not excluded:
        return DeclaredRows(table, {}, {}, notes)
    keep = [i for i in range(len(rows)) if i not in excluded]
    out = replace(
        table,
        rows=tuple(rows[i] for i in keep),
        intervals=tuple(table.intervals[i] for i in keep),
        lines=tuple(table.lines[i] for i in keep),  # a row keeps its source line (its document id)
    )
    return DeclaredRows(out, excluded, mapped, notes)
