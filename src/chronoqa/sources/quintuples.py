"""Generic quintuples ``(s, r, o, start, end)`` from CSV, TSV or Parquet, with a column mapping.

One fact per row; the first line is the header. For example (``facts.tsv``)::

    subject	relation	object	start	end
    Q42	worksFor	Q95	2005	2009
    Q42	bornIn	Q350	1952-03-11	1952-03-11
    Q7	memberOf	Q1	1999-05

``start`` and ``end`` are a year, ``YYYY-MM`` or ``YYYY-MM-DD`` (an empty end: open-ended; the same
start and end: an event). Optional ``s_label``, ``r_label`` and ``o_label`` columns give readable names.

``columns`` maps each role to a column name (or its 0-based position, written as digits, when no
column has that name): required roles ``s``, ``r``, ``o``, ``start``, ``end``; optional ``s_label``,
``r_label``, ``o_label``. From the command line: ``chronoqa build kg --input facts.csv --columns
subject=head,relation=rel,object=tail,start=from,end=until`` (:func:`parse_columns`; ``subject``,
``relation``, ``object`` and ``<long name>_label`` may stand for the short roles). Roles not mapped are
looked up by common names (any case): ``s``/``subject``/``head``/``s_id``,
``r``/``relation``/``predicate``/``relation_type``/``r_id``, ``o``/``object``/``tail``/``o_id``,
``start``/``t_start``/``start_date``/``valid_from``/``begin``/``from``,
``end``/``t_end``/``end_date``/``valid_to``/``to``, and ``<role>`` for the labels. ``Fact.id`` is the
0-based data-row index; ``Fact.line`` the file line (Parquet: row index + 2, as if exported with a header).
Bad rows and policies: see :mod:`chronoqa.sources._common`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from chronoqa.errors import BadRowPolicy, DataError, LoadReport
from chronoqa.records import FactColumns, TemporalGraph
from chronoqa.sources._common import (
    NOTE_BLANK,
    DuplicatePolicy,
    FactBuilder,
    ReversedPolicy,
    TimeCells,
    bulk_add,
    gc_paused,
    longest_line,
    max_line_bytes,
    read_text_csv,
)
from chronoqa.sources.tables import cell_text, iter_records
from chronoqa.time import TimePoint

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["QUINTUPLE_ALIASES", "REQUIRED_ROLES", "parse_columns", "read_quintuples", "resolve_columns"]

REQUIRED_ROLES = ("s", "r", "o", "start", "end")
LABEL_ROLES = ("s_label", "r_label", "o_label")
QUINTUPLE_ALIASES: Mapping[str, tuple[str, ...]] = {
    "s": ("s", "subject", "head", "s_id", "subject_id"),
    "r": ("r", "relation", "predicate", "relation_type", "r_id", "rel"),
    "o": ("o", "object", "tail", "o_id", "object_id"),
    "start": ("start", "t_start", "start_date", "valid_from", "begin", "from"),
    "end": ("end", "t_end", "end_date", "valid_to", "to"),
    "s_label": ("s_label", "subject_label", "head_label"),
    "r_label": ("r_label", "relation_label", "predicate_label"),
    "o_label": ("o_label", "object_label", "tail_label"),
}
NOTE_LABEL_CONFLICT = "conflicting labels for one id (the first was kept)"
ROLE_NAMES: Mapping[str, str] = {
    "subject": "s",
    "relation": "r",
    "object": "o",
    "subject_label": "s_label",
    "relation_label": "r_label",
    "object_label": "o_label",
}
COLUMNS_EXAMPLE = "--columns subject=head,relation=rel,object=tail,start=from,end=until"


def parse_columns(text: str, flag: str = "--columns") -> dict[str, str]:
    """A column mapping typed as ``role=column,...`` (``subject=0,relation=1`` or ``s=head,end=until``).

    Roles are the short ones (``s``, ``r``, ``o``, ``start``, ``end``, ``s_label``, ``r_label``,
    ``o_label``) or their long names (``subject``, ``relation``, ``object``, ``subject_label``, ...), any
    case; a column is a header name or a 0-based position. A malformed item, an unknown role or a role
    given twice is a :class:`~chronoqa.errors.ChronoqaError` naming ``flag`` and showing an example.
    """
    from chronoqa.errors import ChronoqaError, UnknownNameError

    roles = (*REQUIRED_ROLES, *LABEL_ROLES)
    out: dict[str, str] = {}
    for item in text.split(","):
        role, eq, column = (part.strip() for part in item.partition("="))
        if not eq or not role or not column:
            raise ChronoqaError(f"{flag} {text!r}: {item.strip()!r} is not ROLE=COLUMN; for example {COLUMNS_EXAMPLE}")
        key = ROLE_NAMES.get(role.lower(), role.lower())
        if key not in roles:
            raise UnknownNameError(f"role in {flag}", role, [*roles, *ROLE_NAMES])
        if key in out:
            raise ChronoqaError(f"{flag} {text!r}: role {key!r} is mapped twice; map each role once")
        out[key] = column
    return out


def resolve_columns(header: list[str], columns: Mapping[str, str] | None, file: str) -> dict[str, int]:
    """Column index of every role (required ones must resolve; labels are optional)."""
    columns = dict(columns or {})
    unknown = sorted(set(columns) - set(REQUIRED_ROLES) - set(LABEL_ROLES))
    if unknown:
        from chronoqa.errors import UnknownNameError

        raise UnknownNameError("quintuple role", unknown[0], (*REQUIRED_ROLES, *LABEL_ROLES))
    lower = [h.strip().lower() for h in header]
    out: dict[str, int] = {}
    for role in (*REQUIRED_ROLES, *LABEL_ROLES):
        if role in columns:
            want = columns[role]
            if want in header:
                out[role] = header.index(want)
            elif want.lower() in lower:
                out[role] = lower.index(want.lower())
            elif want.isdigit() and int(want) < len(header):
                out[role] = int(want)
            else:
                raise DataError(
                    file,
                    1,
                    "(header)",
                    ",".join(header),
                    f"a column {want!r} for role {role!r}",
                    f"map {role!r} to a column of this header, by name or 0-based position "
                    f"(0 to {len(header) - 1}), e.g. --columns {role}={header[0] if header else 0}",
                )
            continue
        hit = next((lower.index(a) for a in QUINTUPLE_ALIASES[role] if a in lower), None)
        if hit is not None:
            out[role] = hit
        elif role in REQUIRED_ROLES:
            raise DataError(
                file,
                1,
                "(header)",
                ",".join(header),
                f"a column for role {role!r} (one of {', '.join(QUINTUPLE_ALIASES[role])}, any case)",
                f"map it with --columns {role}=<column name or 0-based position> (e.g. {COLUMNS_EXAMPLE}), "
                f"or rename that column in the header to {QUINTUPLE_ALIASES[role][0]!r}",
            )
    return out


@gc_paused()
def read_quintuples(
    path: str | Path,
    *,
    columns: Mapping[str, str] | None = None,
    name: str | None = None,
    on_bad_row: BadRowPolicy = "raise",
    on_reversed: ReversedPolicy = "raise",
    on_duplicate: DuplicatePolicy = "keep",
    as_of: TimePoint | None = None,
    fast: bool = True,
) -> TemporalGraph:
    """Read a quintuple file (``.csv``, ``.tsv``, ``.parquet``) into a :class:`TemporalGraph`.

    ``fast=True`` reads a clean file through Arrow in bulk (each distinct id and time resolved once)
    and falls back to the row-by-row reader at the first row that needs it (quotes in a CSV, a bad
    or unknown value, a reversed interval under a policy other than ``keep``, ...), so the result is
    always that of ``fast=False``.
    """
    path = Path(path)
    label = str(path)
    report = LoadReport(label)
    builder = FactBuilder(
        report, on_bad_row=on_bad_row, on_reversed=on_reversed, on_duplicate=on_duplicate, as_of=as_of
    )
    if fast:
        graph = _read_fast(path, label, columns, builder, name or path.stem)
        if graph is not None:
            return graph
    records = iter_records(path, report, builder.on_bad_row)
    first = next(records, None)
    if first is None:
        raise DataError(label, 1, "(header)", "", "a header row", "the file is empty")
    header = [str(h) for h in first[1]]
    rows = _QuintupleRows(builder, label, header, resolve_columns(header, columns, label))
    for lineno, values in records:
        rows.add(lineno, values)
    return TemporalGraph(
        name=name or path.stem,
        facts=builder.result(),
        entity_labels=dict(sorted(rows.ent_labels.items())),
        relation_labels=dict(sorted(rows.rel_labels.items())),
        report=report,
    )


class _QuintupleRows:
    """The row-by-row reader: each row checked, parsed and added; labels kept where the file has them."""

    def __init__(self, builder: FactBuilder, label: str, header: list[str], idx: dict[str, int]) -> None:
        self.builder, self.label, self.header, self.idx = builder, label, header, idx
        self.cells = TimeCells(label)
        self.ent_labels: dict[str, str] = {}
        self.rel_labels: dict[str, str] = {}
        self.row_index = 0

    def add(self, lineno: int, values: list[Any]) -> None:
        """Add one record (a blank one is counted; a bad one handled by the builder's policy)."""
        builder, label, header, idx = self.builder, self.label, self.header, self.idx
        if not values or (len(values) == 1 and cell_text(values[0]) is None):
            builder.report.notes[NOTE_BLANK] += 1
            return
        fact_id = self.row_index
        self.row_index += 1
        builder.report.rows_read += 1
        if len(values) != len(header):
            shown = ",".join("" if v is None else str(v) for v in values)[:80]
            builder.bad(
                DataError(label, lineno, "(row)", shown, f"{len(header)} fields as in the header (found {len(values)})")
            )
            return
        ids = self._ids(lineno, values)
        if ids is None:
            return
        try:
            start = _time(self.cells, values[idx["start"]], lineno, header[idx["start"]])
            end = _time(self.cells, values[idx["end"]], lineno, header[idx["end"]])
        except DataError as exc:
            builder.bad(exc)
            return
        n_before = len(builder.facts)
        builder.add(fact_id, label, lineno, *ids, start, end, header[idx["start"]], header[idx["end"]])
        if len(builder.facts) != n_before:
            self._labels(ids, values)

    def _ids(self, lineno: int, values: list[Any]) -> tuple[str, str, str] | None:
        """The s, r and o ids, or None (reported) where one is empty."""
        ids: list[str] = []
        for role in ("s", "r", "o"):
            v = cell_text(values[self.idx[role]])
            if v is None:
                self.builder.bad(
                    DataError(self.label, lineno, self.header[self.idx[role]], "", f"a non-empty {role} id")
                )
                return None
            ids.append(v.strip())
        return ids[0], ids[1], ids[2]

    def _labels(self, ids: tuple[str, str, str], values: list[Any]) -> None:
        """The labels of an added fact's entities and relation; a second, different label is counted."""
        for role, target, key in (
            ("s_label", self.ent_labels, ids[0]),
            ("o_label", self.ent_labels, ids[2]),
            ("r_label", self.rel_labels, ids[1]),
        ):
            if role in self.idx:
                lab = cell_text(values[self.idx[role]])
                if lab is None:
                    continue
                old = target.setdefault(key, lab)
                if old != lab:
                    self.builder.report.notes[NOTE_LABEL_CONFLICT] += 1


def _time(cells: TimeCells, value: Any, line: int, field: str) -> TimePoint | None:
    if isinstance(value, str):
        return cells.parse(value, line, field)
    return cells.parse_value(value, line, field)


def _clean_id(value: str) -> str | None:
    """An id cell as the slow path reads it (stripped), or ``None`` when it is missing."""
    return None if cell_text(value) is None else value.strip()


def _arrow_table(path: Path) -> pa.Table | None:
    """The file as an Arrow table when the bulk path can read it exactly like the row reader, else ``None``."""
    import pyarrow.parquet as pq

    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        return pq.read_table(path)
    if suffix not in (".csv", ".tsv", ".txt"):
        return None
    data = path.read_bytes()
    # quotes, CR line ends and a byte-order mark change how lines map to rows, and a line over the cap is an
    # error the row reader words: leave them to the row reader
    if not data or b'"' in data or b"\r" in data or data.startswith(b"\xef\xbb\xbf"):
        return None
    if len(data) > (cap := max_line_bytes()) and longest_line(data) > cap:
        return None
    n_lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    table = read_text_csv(data, "\t" if suffix == ".tsv" else ",")
    if table is None:
        return None
    return table if table.num_rows == n_lines - 1 else None


def _read_fast(
    path: Path, label: str, columns: Mapping[str, str] | None, builder: FactBuilder, name: str
) -> TemporalGraph | None:
    table = _arrow_table(path)
    if table is None or table.num_rows == 0:
        return None
    header = list(table.column_names)
    if len(set(header)) != len(header):
        return None
    idx = resolve_columns(header, columns, label)
    has_labels = any(role in idx for role in LABEL_ROLES)
    if has_labels and builder.on_duplicate != "keep":
        return None  # labels come from loaded rows only; with dropped duplicates leave it to the row reader
    cols = tuple(header[idx[role]] for role in REQUIRED_ROLES)
    if any(table.column(c).null_count for c in cols[:3]) or any(
        str(table.column(c).type) not in ("string", "large_string") for c in cols[:3]
    ):
        return None
    n_before = len(builder.facts)
    ok = bulk_add(
        builder,
        TimeCells(label),
        label,
        table,
        cols,
        (_clean_id, _clean_id, _clean_id),
        0,
        2,
        last_file=True,
        columnar=True,
    )
    if not ok:
        return None
    ent_labels: dict[str, str] = {}
    rel_labels: dict[str, str] = {}
    if has_labels:
        facts = builder.result()[n_before:]
        for role, target, attr in (
            ("s_label", ent_labels, "s"),
            ("o_label", ent_labels, "o"),
            ("r_label", rel_labels, "r"),
        ):
            if role not in idx:
                continue
            values = table.column(header[idx[role]]).to_pylist()
            if isinstance(facts, FactColumns):
                names = facts.relations if attr == "r" else facts.entities
                ids = np.array(names, dtype=object)[getattr(facts, attr)].tolist()
                rows = facts.ids.tolist()
            else:
                ids = [getattr(f, attr) for f in facts]
                rows = [f.id for f in facts]
            values = [values[i] for i in rows]  # a fact's id is its row: the rows loaded (not those skipped)
            for fact_id, raw in zip(ids, values, strict=True):
                lab = cell_text(raw)
                if lab is None:
                    continue
                old = target.setdefault(fact_id, lab)
                if old != lab:
                    builder.report.notes[NOTE_LABEL_CONFLICT] += 1
    return TemporalGraph(
        name=name,
        facts=builder.result(),
        entity_labels=dict(sorted(ent_labels.items())),
        relation_labels=dict(sorted(rel_labels.items())),
        report=builder.report,
    )
