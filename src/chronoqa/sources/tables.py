"""Temporal tables (TDBench style): arbitrary attribute columns plus a start and an end column.

A table stays a table (it is not forced into triples): :class:`~chronoqa.records.TemporalTable` keeps
the attribute columns (every column except the start and end columns, in file order) as strings
(``None`` for an empty cell or ``nan``) and each row's validity :class:`~chronoqa.time.Interval`.

The start/end columns are found by name, case-insensitively, trying in order ``start``/``end``,
``start_date``/``end_date``, ``valid_from``/``valid_to``, ``from``/``to``, ``begin``/``end``; else the one
column whose name holds a start word (``Admission``, ``Contract_start``, ``Joined``) and the one whose name holds
an end word (``Discharge``, ``Contract_end``, ``Left``): :data:`START_WORDS`, :data:`END_WORDS`. Pass
``start_column``/``end_column`` to choose others. Formats: ``.csv``, ``.tsv`` (UTF-8, header row) and
``.parquet``. Bad rows and policies: see :mod:`chronoqa.sources._common`.
"""

from __future__ import annotations

import csv
import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from chronoqa.errors import SKIP_BAD_ROWS, BadRowPolicy, DataError, LoadReport, SkippedRow, check_policy
from chronoqa.io import not_a_file
from chronoqa.records import TemporalTable
from chronoqa.sources._common import (
    NOTE_BLANK,
    NOTE_REVERSED_KEPT,
    NOTE_REVERSED_SWAPPED,
    ReversedPolicy,
    TimeCells,
    check_reversed_policy,
    iter_text_lines,
    max_line_bytes,
)
from chronoqa.time import Interval, TimePoint

__all__ = [
    "END_WORDS",
    "START_END_NAMES",
    "START_WORDS",
    "cell_text",
    "detect_time_columns",
    "iter_records",
    "read_table",
]

START_END_NAMES: tuple[tuple[str, str], ...] = (
    ("start", "end"),
    ("start_date", "end_date"),
    ("valid_from", "valid_to"),
    ("from", "to"),
    ("begin", "end"),
)
#: Words of a column name that read as the start / the end of a row's span (a stay's admission, a member leaving).
START_WORDS = frozenset(
    {
        "start",
        "started",
        "begin",
        "began",
        "from",
        "since",
        "admission",
        "admitted",
        "joined",
        "hired",
        "signed",
        "opened",
        "entry",
        "enrolled",
        "onset",
        "commenced",
    }
)
END_WORDS = frozenset(
    {
        "end",
        "ended",
        "until",
        "to",
        "discharge",
        "discharged",
        "left",
        "expiry",
        "expired",
        "expires",
        "closed",
        "exit",
        "terminated",
        "finished",
        "resigned",
        "departed",
    }
)
NOTE_DUPLICATE_ROWS = "duplicate rows kept (identical attributes and interval of an earlier row)"
_MISSING = frozenset({"", "nan", "NaN", "NAN", "None", "null", "NULL"})


def detect_time_columns(
    header: Sequence[str], start_column: str | None = None, end_column: str | None = None, *, file: str = ""
) -> tuple[int, int]:
    """Indices of the start and end columns in ``header`` (auto-detected by name unless given)."""
    lower = [h.strip().lower() for h in header]

    def find(name: str, role: str) -> int:
        if name in header:
            return list(header).index(name)
        if name.lower() in lower:
            return lower.index(name.lower())
        raise DataError(
            file, 1, "(header)", ",".join(header), f"a {role} column named {name!r}", f"pass {role}_column= a column"
        )

    if start_column is not None or end_column is not None:
        if start_column is None or end_column is None:
            si, ei = _auto(lower, header, file)
            return (find(start_column, "start") if start_column else si, find(end_column, "end") if end_column else ei)
        return find(start_column, "start"), find(end_column, "end")
    return _auto(lower, header, file)


def _auto(lower: list[str], header: Sequence[str], file: str) -> tuple[int, int]:
    for s, e in START_END_NAMES:
        if s in lower and e in lower:
            return lower.index(s), lower.index(e)
    words = [set(re.split(r"[^a-z0-9]+", h)) for h in lower]
    starts = [i for i, w in enumerate(words) if w & START_WORDS and not w & END_WORDS]
    ends = [i for i, w in enumerate(words) if w & END_WORDS and not w & START_WORDS]
    if len(starts) == 1 and len(ends) == 1:  # one column reads as the start, one as the end
        return starts[0], ends[0]
    names = ", ".join(f"{s}/{e}" for s, e in START_END_NAMES)
    raise DataError(
        file,
        1,
        "(header)",
        ",".join(header),
        f"a start and an end column named one of {names} (any case), or one column whose name holds a start word "
        "(admission, joined, ...) and one whose name holds an end word (discharge, left, ...)",
        "rename the columns or pass start_column= and end_column=",
    )


def cell_text(value: Any) -> str | None:
    """An attribute cell as text: ``None`` for a missing value (empty, ``nan``, ``None``, ``null``)."""
    if value is None:
        return None
    if isinstance(value, float):
        if math.isnan(value):
            return None
        return repr(value)
    text = str(value)
    return None if text.strip() in _MISSING else text


def iter_records(path: Path, report: LoadReport, policy: BadRowPolicy) -> Iterator[tuple[int, list[Any]]]:
    """Yield ``(line, values)`` of a CSV/TSV/Parquet file; the header is the first record (line 1).

    CSV lines are 1-based physical lines (a record spanning lines reports its first line); Parquet
    rows report ``row index + 2`` so that numbering matches a CSV export with a header.
    """
    if why := not_a_file(path):
        raise DataError(str(path), 0, "(file)", str(path), "an existing .csv, .tsv or .parquet file", f"it {why}")
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pq.read_table(path)
        cols = []
        for col in table.columns:
            if pa.types.is_date(col.type):
                col = col.cast(pa.string())
            cols.append(col.to_pylist())
        yield 1, list(table.column_names)
        for i in range(table.num_rows):
            yield i + 2, [c[i] for c in cols]
        return
    if suffix not in (".csv", ".tsv", ".txt"):
        raise ValueError(f"{path}: unknown table format {suffix!r}: expected .csv, .tsv or .parquet")
    delimiter = "\t" if suffix == ".tsv" else ","
    state = {"first": 0}

    def lines() -> Iterator[str]:
        for lineno, text in iter_text_lines(path, report, policy):
            if not state["first"]:
                state["first"] = lineno
            yield text + "\n"

    # a field may be as long as the line cap allows (csv's own limit, 128 KiB, would be a second, unnamed cap)
    csv.field_size_limit(max(max_line_bytes(), 1 << 17))
    reader = csv.reader(lines(), delimiter=delimiter)
    while True:
        state["first"] = 0
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            report.rows_read += 1
            report.handle(DataError(str(path), state["first"], "(row)", "", f"valid CSV ({exc})"), policy)
            continue
        yield state["first"], row


def read_table(
    path: str | Path,
    *,
    name: str | None = None,
    start_column: str | None = None,
    end_column: str | None = None,
    on_bad_row: BadRowPolicy = "raise",
    on_reversed: ReversedPolicy | None = None,
    as_of: TimePoint | None = None,
) -> TemporalTable:
    """Read a temporal table (CSV/TSV/Parquet) into a :class:`TemporalTable` (see the module docstring).

    ``on_reversed`` (a row whose start lies after its end) defaults to ``on_bad_row``: such a row stops the read
    under ``"raise"``, and under ``"skip"`` is left out and counted with the other skipped rows.
    """
    path = Path(path)
    policy = check_policy(on_bad_row)
    on_reversed = check_reversed_policy(policy if on_reversed is None else on_reversed)
    label = str(path)
    report = LoadReport(label)
    records = iter_records(path, report, policy)
    header = _header(records, label)
    si, ei = detect_time_columns(header, start_column, end_column, file=label)
    attr_idx = [i for i in range(len(header)) if i not in (si, ei)]
    reader = _RowReader(label, header, (si, ei), report, policy, on_reversed, as_of)
    rows: list[tuple[str | None, ...]] = []
    intervals: list[Interval] = []
    lines: list[int] = []
    seen: set[tuple[tuple[str | None, ...], Interval]] = set()
    dups: Counter[str] = Counter()
    for lineno, values in records:
        interval = reader.interval(lineno, values)
        if interval is None:
            continue
        row = tuple(cell_text(values[i]) for i in attr_idx)
        if (row, interval) in seen:
            dups[NOTE_DUPLICATE_ROWS] += 1
        seen.add((row, interval))
        rows.append(row)
        intervals.append(interval)
        lines.append(lineno)
        report.rows_loaded += 1
    report.notes.update(dups)
    return TemporalTable(
        name=name or path.stem,
        columns=tuple(header[i] for i in attr_idx),
        rows=tuple(rows),
        intervals=tuple(intervals),
        lines=tuple(lines),
        start_column=header[si],
        end_column=header[ei],
        report=report,
    )


def _header(records: Iterator[tuple[int, list[Any]]], label: str) -> list[str]:
    """The header row: present, each column name once."""
    try:
        _, header_values = next(records)
    except StopIteration:
        raise DataError(label, 1, "(header)", "", "a header row", "the file is empty") from None
    header = [str(h) for h in header_values]
    repeated = sorted({h for h in header if header.count(h) > 1})
    if repeated:
        raise DataError(
            label,
            1,
            "(header)",
            repeated[0],
            "column names that each appear once",
            "rename or drop the repeated column",
        )
    return header


class _RowReader:
    """The validity window of each row of one table: its width checked, its times parsed, the row rules applied."""

    def __init__(
        self,
        label: str,
        header: list[str],
        time_columns: tuple[int, int],
        report: LoadReport,
        policy: BadRowPolicy,
        on_reversed: ReversedPolicy,
        as_of: TimePoint | None,
    ) -> None:
        self.label, self.header, self.report, self.policy = label, header, report, policy
        self.si, self.ei = time_columns
        self.on_reversed, self.as_of = on_reversed, as_of
        self.cells = TimeCells(label)

    def interval(self, lineno: int, values: list[Any]) -> Interval | None:
        """The row's interval, or None for a blank row or one the policy skips (counted in the report)."""
        if not values or (len(values) == 1 and cell_text(values[0]) is None):
            self.report.notes[NOTE_BLANK] += 1
            return None
        self.report.rows_read += 1
        if len(values) != len(self.header):
            shown = ",".join("" if v is None else str(v) for v in values)[:80]
            fix = f"repair the row (quote values that contain the delimiter), or {SKIP_BAD_ROWS}"
            expected = f"{len(self.header)} fields as in the header (found {len(values)})"
            self.report.handle(DataError(self.label, lineno, "(row)", shown, expected, fix), self.policy)
            return None
        try:
            start = _parse_cell(self.cells, values[self.si], lineno, self.header[self.si])
            end = _parse_cell(self.cells, values[self.ei], lineno, self.header[self.ei])
        except DataError as exc:
            self.report.handle(exc, self.policy)
            return None
        if self._late(lineno, start, end):
            return None
        return self._ordered(lineno, start, end)

    def _late(self, lineno: int, start: TimePoint | None, end: TimePoint | None) -> bool:
        """A time after ``as_of`` is a bad row (handled by the policy)."""
        if self.as_of is None:
            return False
        as_of = self.as_of
        times = ((self.si, start), (self.ei, end))
        late = next(((i, t) for i, t in times if t is not None and t.first_day() > as_of.last_day()), None)
        if late is None:
            return False
        fix = f"correct the date, build with a later --as-of, or {SKIP_BAD_ROWS}"
        expected = f"a time no later than as_of={as_of.isoformat()}"
        error = DataError(self.label, lineno, self.header[late[0]], late[1].isoformat(), expected, fix)
        self.report.handle(error, self.policy)
        return True

    def _ordered(self, lineno: int, start: TimePoint | None, end: TimePoint | None) -> Interval | None:
        """The interval, a reversed one raised, skipped, swapped or kept as ``on_reversed`` says."""
        interval = Interval(start, end)
        if not interval.is_reversed():
            return interval
        shown, column = f"{start} .. {end}", self.header[self.ei]
        if self.on_reversed == "raise":
            fix = (
                "correct the row's dates in the file, or build with --on-reversed skip, swap or keep "
                "(from Python: read_table(..., on_reversed='skip'), 'swap' or 'keep')"
            )
            raise DataError(self.label, lineno, column, shown, "an end no earlier than the start", fix)
        if self.on_reversed == "skip":
            self.report.skip(SkippedRow(self.label, lineno, column, shown, "reversed interval"))
            return None
        if self.on_reversed == "swap":
            self.report.notes[NOTE_REVERSED_SWAPPED] += 1
            return Interval(end, start)
        self.report.notes[NOTE_REVERSED_KEPT] += 1
        return interval


def _parse_cell(cells: TimeCells, value: Any, line: int, field: str) -> TimePoint | None:
    """Parse a time cell: strings through the cache, Parquet numbers (``1994``, ``1994.0``, NaN) as they are."""
    if isinstance(value, str):
        return cells.parse(value, line, field)
    return cells.parse_value(value, line, field)
