"""Shared machinery of the readers: UTF-8 line reading, time cells, the fact builder, bad-row policies.

Every reader turns a file into rows and hands each row to a :class:`FactBuilder`, which parses the two
time cells (through :mod:`chronoqa.time`, the only place that parses times), applies the bad-row
policies and counts what it saw in a :class:`~chronoqa.errors.LoadReport`. Defined behaviours:

* **Reversed interval** (start after end at the coarser granularity of its two ends): policy
  ``on_reversed``: ``"raise"`` (a :class:`~chronoqa.errors.DataError`), ``"skip"`` (skipped and
  counted), ``"keep"`` (kept as is and counted; :func:`chronoqa.time.valid_at` treats it as valid
  nowhere) or ``"swap"`` (ends exchanged, counted).
* **Duplicate fact** (identical ``s, r, o, start, end`` of an earlier row): policy ``on_duplicate``:
  ``"keep"`` (default: kept and counted in the report's notes) or ``"drop"`` (skipped and counted).
* **Impossible date** (``1994-13``, ``1994-02-30``) or any unreadable time: a bad row.
* **A start after** ``as_of`` (when ``as_of`` is given): the fact is not yet true, so it is skipped and
  counted (reason ``starts after as_of=...: not yet true``) under either bad-row policy. A fact that only
  *ends* after ``as_of`` holds through ``as_of`` and is kept as stated.
* **Non-UTF-8 bytes**: a bad row whose error names the line and the byte offset in the file.
* **A line longer than the line cap** (:func:`max_line_bytes`: 1 MiB unless the setting
  ``CHRONOQA_MAX_LINE_BYTES`` says otherwise): a bad row naming the line, its length and the setting; it is
  never read into memory whole.
* **Wrong column count**, **unknown ids**: bad rows.

Bad rows follow ``on_bad_row``: ``"raise"`` (default for user files) or ``"skip"`` (skipped, counted
by reason, never silent).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, NamedTuple

from chronoqa._gc import gc_paused
from chronoqa.errors import SKIP_BAD_ROWS, BadRowPolicy, ChronoqaError, DataError, LoadReport, SkippedRow, check_policy
from chronoqa.io import arrow_bytes
from chronoqa.records import Fact, FactColumns
from chronoqa.time import Interval, TimeParseError, TimePoint, parse_time

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

__all__ = [
    "LINE_CAP_SETTING",
    "MAX_LINE_BYTES",
    "TIME_EXPECTED",
    "DuplicatePolicy",
    "FactBuilder",
    "ReversedPolicy",
    "TimeCells",
    "bulk_add",
    "check_reversed_policy",
    "gc_paused",
    "iter_text_lines",
    "longest_line",
    "max_line_bytes",
    "read_text_csv",
]

ReversedPolicy = Literal["keep", "swap", "skip", "raise"]
DuplicatePolicy = Literal["keep", "drop"]

TIME_EXPECTED = "a time: YYYY, YYYY-MM, YYYY-MM-DD, YYYY_MM_DD, -405, 1994.0, or an unknown marker (None, empty, NaN)"

NOTE_REVERSED_KEPT = "reversed intervals kept (start after end; valid nowhere)"
NOTE_REVERSED_SWAPPED = "reversed intervals swapped (start and end exchanged)"
NOTE_DUPLICATES = "duplicate facts kept (identical s, r, o, start, end of an earlier row)"
NOTE_BLANK = "blank lines ignored"
DUPLICATE_REASON = "duplicate fact (identical s, r, o, start, end)"

TimeRule = Literal["ok", "not_yet", "reversed"]


def check_reversed_policy(policy: str) -> ReversedPolicy:
    """Validate an ``on_reversed`` policy name."""
    if policy not in ("keep", "swap", "skip", "raise"):
        raise ValueError(f"Unknown on_reversed policy {policy!r}: expected 'keep', 'swap', 'skip' or 'raise'")
    return policy  # type: ignore[return-value]


#: The longest line of a CSV/TSV/text fact file read by default, in bytes (line end not counted).
MAX_LINE_BYTES = 1024 * 1024
#: The environment setting that raises (or lowers) it, read when a file is opened.
LINE_CAP_SETTING = "CHRONOQA_MAX_LINE_BYTES"
#: Bytes looked at a time when measuring lines in bulk.
_LINE_SCAN = 1 << 24


def max_line_bytes() -> int:
    """The line cap: :data:`LINE_CAP_SETTING` when set, else :data:`MAX_LINE_BYTES`.

    Raises:
        ChronoqaError: the setting is not a whole number of bytes >= 1.

    """
    text = os.environ.get(LINE_CAP_SETTING, "").strip()
    if not text:
        return MAX_LINE_BYTES
    value = int(text) if text.isdigit() and len(text) <= 18 else 0  # at most an int64 of bytes
    if value < 1:
        raise ChronoqaError(
            f"{LINE_CAP_SETTING}={text[:40]!r}: expected a number of bytes >= 1 (e.g. {LINE_CAP_SETTING}=4194304)"
        )
    return value


def longest_line(data: bytes) -> int:
    """The length in bytes of the longest newline-separated line of ``data`` (its line end not counted)."""
    import numpy as np

    arr = np.frombuffer(data, dtype=np.uint8)
    ends = [np.flatnonzero(arr[a : a + _LINE_SCAN] == 10) + a for a in range(0, len(arr), _LINE_SCAN)]
    cuts = np.concatenate([np.array([-1]), *ends, np.array([len(arr)])])
    return int(np.diff(cuts).max()) - 1


def _long_line(name: str, lineno: int, length: str, cap: int) -> DataError:
    return DataError(
        name,
        lineno,
        "(line)",
        length,
        f"a line of at most {cap:,} bytes (the line cap)",
        f"raise the cap with the setting {LINE_CAP_SETTING} (e.g. {LINE_CAP_SETTING}={4 * cap} chronoqa ...), "
        f"or {SKIP_BAD_ROWS} to skip and count such lines",
    )


def _lines(fh: IO[bytes], cap: int) -> Iterator[tuple[bytes, int, int]]:
    """``(line, bytes read, length without its line end)`` of each line of ``fh`` (``b""`` for one over ``cap``).

    At most ``cap + 2`` bytes of a line are held at once (the rest of a long line is read and let go).
    """
    while raw := fh.readline(cap + 2):
        whole = raw.endswith(b"\n") or len(raw) < cap + 2  # a shorter read without a line end: the file's end
        length = len(raw.rstrip(b"\r\n"))
        if whole and length <= cap:
            yield raw, len(raw), length
            continue
        n = len(raw)
        while not raw.endswith(b"\n") and (raw := fh.readline(cap + 2)):
            n += len(raw)
        yield b"", n, n - (len(raw) - len(raw.rstrip(b"\r\n")))


def iter_text_lines(
    path: Path | IO[bytes], report: LoadReport, policy: BadRowPolicy, *, label: str | None = None
) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, text)`` of a UTF-8 file, line ends stripped, 1-based.

    A line that is not valid UTF-8 raises :class:`DataError` naming the line and the byte offset of
    the first bad byte in the file (policy ``raise``) or is skipped and counted (``skip``); so does a line
    longer than the line cap (:func:`max_line_bytes`). A UTF-8 byte-order mark at the start of the file is
    dropped.
    """
    if isinstance(path, Path):
        with path.open("rb") as fh:
            yield from iter_text_lines(fh, report, policy, label=label or str(path))
        return
    name = label or str(getattr(path, "name", "<stream>"))
    offset = 0
    cap = max_line_bytes()
    for lineno, (raw, size, length) in enumerate(_lines(path, cap), 1):
        start = offset
        offset += size
        if not raw:
            report.rows_read += 1
            report.handle(_long_line(name, lineno, f"{length:,} bytes", cap), policy)
            continue
        if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
            start += 3
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad = raw[exc.start : exc.end]
            report.rows_read += 1
            report.handle(
                DataError(
                    name,
                    lineno,
                    "(bytes)",
                    f"{bad!r} at byte offset {start + exc.start}",
                    "UTF-8 text",
                    "re-encode the file as UTF-8 (e.g. iconv -f latin1 -t utf-8), "
                    f"or {SKIP_BAD_ROWS} to skip and count such lines",
                ),
                policy,
            )
            continue
        yield lineno, text.rstrip("\r\n")


class TimeCells:
    """Parses time cells with a per-reader cache (few distinct strings repeat over many rows)."""

    def __init__(self, file: str) -> None:
        self.file = file
        self._cache: dict[str, TimePoint | None] = {}

    def parse(self, value: str, line: int, field: str) -> TimePoint | None:
        """Parse one cell; a bad value raises :class:`DataError` naming file, line and field."""
        try:
            return self._cache[value]
        except KeyError:
            pass
        point = self._convert(
            value, line, field, f"correct the date (months 1..12, days within the month), or {SKIP_BAD_ROWS}"
        )
        self._cache[value] = point
        return point

    def parse_value(self, value: object, line: int, field: str) -> TimePoint | None:
        """Parse a non-string cell (a Parquet number or ``None``); errors as :meth:`parse`."""
        return self._convert(value, line, field, f"correct the value, or {SKIP_BAD_ROWS}")

    def _convert(self, value: object, line: int, field: str, fix: str) -> TimePoint | None:
        try:
            return parse_time(value)
        except TimeParseError as exc:
            raise DataError(self.file, line, field, value, f"{TIME_EXPECTED} ({exc})", fix) from None


class FactBuilder:
    """Turns parsed rows into :class:`Fact` records, applying every policy and counting in ``report``."""

    def __init__(
        self,
        report: LoadReport,
        *,
        on_bad_row: BadRowPolicy = "raise",
        on_reversed: ReversedPolicy = "raise",
        on_duplicate: DuplicatePolicy = "keep",
        as_of: TimePoint | None = None,
    ) -> None:
        self.report = report
        self.on_bad_row = check_policy(on_bad_row)
        self.on_reversed = check_reversed_policy(on_reversed)
        if on_duplicate not in ("keep", "drop"):
            raise ValueError(f"Unknown on_duplicate policy {on_duplicate!r}: expected 'keep' or 'drop'")
        self.on_duplicate = on_duplicate
        self.as_of = as_of
        self.facts: list[Fact] = []
        self.columns: FactColumns | None = None  # a bulk-read file kept as columns (see bulk_add)
        self._seen: set[tuple[str, str, str, str | None, str | None]] = set()
        self._infos: dict[int, _PointInfo] = {}
        self._as_of_last = None if as_of is None else as_of.last_day()

    def result(self) -> Sequence[Fact]:
        """The facts added: the bulk path's columns when that is all there is, else a tuple of :class:`Fact`."""
        if self.columns is not None:
            assert not self.facts, "a columnar bulk file is the only source of its builder"
            return self.columns
        return tuple(self.facts)

    def bad(self, error: DataError) -> None:
        """Handle a bad row under ``on_bad_row``."""
        self.report.handle(error, self.on_bad_row)

    def _info(self, t: TimePoint) -> _PointInfo:
        # keyed by id(): the entry holds the point itself, so the id cannot be reused while the
        # builder lives; this avoids hashing a frozen dataclass for every cell of every row
        info = self._infos.get(id(t))
        if info is None:
            info = _PointInfo(t, t.isoformat(), t.first_day())
            self._infos[id(t)] = info
        return info

    def add(
        self,
        fact_id: int,
        file: str,
        line: int,
        s: str,
        r: str,
        o: str,
        start: TimePoint | None,
        end: TimePoint | None,
        start_field: str = "start",
        end_field: str = "end",
    ) -> None:
        """Check one row's times and add its fact (or raise / skip as the policies say)."""
        si = None if start is None else self._info(start)
        ei = None if end is None else self._info(end)
        verdict = self.time_rule(si, ei)
        if verdict == "not_yet":
            assert si is not None
            self.skip_not_yet(file, line, start_field, si.iso)
            return
        if verdict == "reversed":
            assert si is not None and ei is not None
            shown = f"{si.iso} .. {ei.iso}"
            if self.on_reversed == "raise":
                raise DataError(
                    file,
                    line,
                    end_field,
                    shown,
                    "an end no earlier than the start",
                    "correct the interval, or read it with --on-reversed keep (valid nowhere), swap or skip "
                    "(from Python: on_reversed='keep', 'swap' or 'skip')",
                )
            if self.on_reversed == "skip":
                self.report.skip(SkippedRow(file, line, end_field, shown, "reversed interval"))
                return
            if self.on_reversed == "swap":
                start, end, si, ei = end, start, ei, si
                self.report.notes[NOTE_REVERSED_SWAPPED] += 1
            else:
                self.report.notes[NOTE_REVERSED_KEPT] += 1
        key = (s, r, o, None if si is None else si.iso, None if ei is None else ei.iso)
        if self.admit(key, file, line):
            self.facts.append(Fact(fact_id, s, r, o, start, end, line))
            self.report.rows_loaded += 1

    def time_rule(self, si: _PointInfo | None, ei: _PointInfo | None) -> TimeRule:
        """The time rule of one row, the one implementation both paths use.

        ``"not_yet"``: the fact starts after ``as_of`` (its start's first day is after as_of's last day),
        so it is not yet true; a fact that only *ends* after ``as_of`` holds through it and is ``"ok"``.
        ``"reversed"``: :meth:`chronoqa.time.Interval.is_reversed` (at the coarser granularity of its two
        ends, the start's unit begins after the end's unit ends).
        """
        if si is not None and self._as_of_last is not None and si.first_day > self._as_of_last:
            return "not_yet"
        if si is not None and ei is not None and Interval(si.point, ei.point).is_reversed():
            return "reversed"
        return "ok"

    def skip_not_yet(self, file: str, line: int, field: str, shown: str) -> None:
        """Skip and count a fact that starts after ``as_of`` (under either bad-row policy: it is not bad data)."""
        assert self.as_of is not None
        reason = f"starts after as_of={self.as_of.isoformat()}: not yet true"
        self.report.skip(SkippedRow(file, line, field, shown, reason))

    def admit(self, key: tuple[str, str, str, str | None, str | None], file: str, line: int) -> bool:
        """The duplicate rule: whether a row with identity ``key`` is added (a drop is skipped and counted)."""
        if key in self._seen:
            if self.on_duplicate == "drop":
                self.report.skip(SkippedRow(file, line, "(row)", " ".join(key[:3]), DUPLICATE_REASON))
                return False
            self.report.notes[NOTE_DUPLICATES] += 1
        else:
            self._seen.add(key)
        return True


class _PointInfo(NamedTuple):
    point: TimePoint
    iso: str
    first_day: int


def bulk_add(
    builder: FactBuilder,
    cells: TimeCells,
    label: str,
    table: pa.Table,
    columns: tuple[str, str, str, str, str],
    ids: tuple[Callable[[str], str | None], Callable[[str], str | None], Callable[[str], str | None]],
    first_id: int,
    line_offset: int,
    *,
    last_file: bool = False,
    columnar: bool = False,
) -> bool:
    """Add every row of ``table`` to ``builder`` at once, or nothing (``False``) when a row needs the slow path.

    ``columns`` names the s, r, o, start and end columns; ``ids[k]`` maps a raw id of column ``k`` to the
    fact's name (``None``: unknown, so the slow path must report it). Each distinct id and time value
    is resolved once. Row ``i`` gets fact id ``first_id + i`` and line ``i + line_offset``. The result
    (facts, counts, notes, skipped duplicates) equals adding the rows one by one with
    :meth:`FactBuilder.add`; any row that would raise or be skipped for another reason (unknown id,
    bad time, time after ``as_of``, reversed interval under a policy other than ``keep``) makes this
    return ``False`` before anything is recorded.

    With ``columnar=True``, a file that nothing before or after can duplicate (``last_file``, nothing added
    yet, duplicates kept) is stored as :class:`~chronoqa.records.FactColumns` in ``builder.columns`` instead of
    :class:`Fact` objects (read them with :meth:`FactBuilder.result`).
    """
    import numpy as np

    enc = _encode_ids(table, columns[:3], ids)
    if enc is None or not _encode_times(enc, builder, cells, table, columns[3:]):
        return False
    # the time rule, judged once per distinct (start, end) pair by the builder's own rule
    n = table.num_rows
    n_end = len(enc.infos[1])
    pairs, inverse = np.unique(enc.time_codes[0] * n_end + enc.time_codes[1], return_inverse=True)
    verdicts = np.array([builder.time_rule(enc.infos[0][p // n_end], enc.infos[1][p % n_end]) for p in pairs.tolist()])
    row_verdict = verdicts[inverse.reshape(-1)] if n else np.array([], dtype=str)
    n_reversed = int(np.sum(row_verdict == "reversed"))
    if n_reversed and builder.on_reversed != "keep":
        return False
    report = builder.report
    report.rows_read += n
    if n_reversed:
        report.notes[NOTE_REVERSED_KEPT] += n_reversed
    _skip_not_yet(builder, enc, label, columns[3], row_verdict == "not_yet", line_offset)
    if last_file and not builder._seen and builder.on_duplicate != "drop" and builder.columns is None:
        dups = _add_unchecked(builder, enc, first_id, line_offset, n, columnar)
    else:
        dups = 0
        _add_admitted(builder, enc, label, first_id, line_offset)
    if dups:
        report.notes[NOTE_DUPLICATES] += dups
    return True


@dataclass
class _Encoded:
    """A file's columns dictionary-encoded: each distinct value resolved once, each row a code into them."""

    id_values: list[tuple[list[str | None], np.ndarray]]  # per id column: names of the distinct values, codes
    key_codes: list[np.ndarray]  # per column: codes that identify (s, r, o, start, end) by value
    parsed_values: list[list[TimePoint | None]] = field(default_factory=list)  # per time column: distinct points
    iso_parts: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)  # (distinct ISO strings, row codes)
    infos: list[list[_PointInfo | None]] = field(default_factory=list)  # per time column: info of each distinct value
    time_codes: list[np.ndarray] = field(default_factory=list)
    rows: np.ndarray | None = None  # the positions in the file of the rows kept (None: every row)

    def keep(self, rows: np.ndarray) -> None:
        """Keep only the rows at positions ``rows`` (sorted) in every per-row array."""
        self.id_values = [(names, codes[rows]) for names, codes in self.id_values]
        self.key_codes = [codes[rows] for codes in self.key_codes]
        self.iso_parts = [(uniq, codes[rows]) for uniq, codes in self.iso_parts]
        self.time_codes = [codes[rows] for codes in self.time_codes]
        self.rows = rows

    def positions(self, n: int) -> np.ndarray:
        """The positions in the file (of ``n`` rows) of the rows kept."""
        import numpy as np

        return np.arange(n, dtype=np.int64) if self.rows is None else self.rows


def _encode(table: pa.Table, column: str) -> tuple[list[Any], np.ndarray]:
    """The distinct values of a column (nulls last, as None) and each row's index into them."""
    import pyarrow.compute as pc

    enc = pc.dictionary_encode(table.column(column)).combine_chunks()
    uniques = enc.dictionary.to_pylist()
    codes = enc.indices.fill_null(len(uniques)).to_numpy(zero_copy_only=False)
    return [*uniques, None], codes


def _encode_ids(
    table: pa.Table, columns: tuple[str, ...], ids: tuple[Callable[[str], str | None], ...]
) -> _Encoded | None:
    """The s, r and o columns encoded and mapped to names; None when a value maps to no name."""
    import numpy as np

    enc = _Encoded([], [])
    for column, id_of in zip(columns, ids, strict=True):
        uniques, codes = _encode(table, column)
        mapped = [None if u is None else id_of(u) for u in uniques[:-1]]
        if any(m is None for m in mapped):
            return None
        mapped.append(None)
        enc.id_values.append((mapped, codes))
        canon: dict[str | None, int] = {}
        enc.key_codes.append(np.array([canon.setdefault(m, len(canon)) for m in mapped], dtype=np.int64)[codes])
    return enc


def _encode_times(
    enc: _Encoded, builder: FactBuilder, cells: TimeCells, table: pa.Table, columns: tuple[str, ...]
) -> bool:
    """The start and end columns encoded and each distinct value parsed once; False when a value is no time."""
    import numpy as np

    for column in columns:
        uniques, codes = _encode(table, column)
        try:
            parsed = [
                cells.parse(u, 0, column) if isinstance(u, str) else cells.parse_value(u, 0, column) for u in uniques
            ]
        except DataError:
            return False
        col_infos = [None if p is None else builder._info(p) for p in parsed]
        canon_t: dict[str | None, int] = {}
        iso_codes = [canon_t.setdefault(None if i is None else i.iso, len(canon_t)) for i in col_infos]
        enc.key_codes.append(np.array(iso_codes, dtype=np.int64)[codes])
        enc.parsed_values.append(parsed)
        enc.iso_parts.append((np.array([None if i is None else i.iso for i in col_infos], dtype=object), codes))
        enc.infos.append(col_infos)
        enc.time_codes.append(codes.astype(np.int64))
    return True


def _skip_not_yet(
    builder: FactBuilder, enc: _Encoded, label: str, field: str, not_yet: np.ndarray, line_offset: int
) -> None:
    """Skip and count the rows that start after ``as_of``, in line order, as :meth:`FactBuilder.add` does."""
    import numpy as np

    skipped = np.flatnonzero(not_yet)
    if not len(skipped):
        return
    infos = enc.infos[0]
    for i, code in zip(skipped.tolist(), enc.time_codes[0][skipped].tolist(), strict=True):
        info = infos[code]
        assert info is not None  # a row without a start is never "not yet"
        builder.skip_not_yet(label, i + line_offset, field, info.iso)
    enc.keep(np.flatnonzero(~not_yet))


def _add_unchecked(builder: FactBuilder, enc: _Encoded, first_id: int, line_offset: int, n: int, columnar: bool) -> int:
    """Nothing to compare with before or after this file: duplicates counted in Arrow, the rows added in bulk."""
    import numpy as np
    import pyarrow as pa

    rows = enc.positions(n)
    keys = pa.table({f"k{j}": pa.array(k) for j, k in enumerate(enc.key_codes)})
    dups = len(rows) - keys.group_by(keys.column_names).aggregate([]).num_rows
    if columnar and not builder.facts:
        builder.columns = _columns(enc.id_values, enc.parsed_values, enc.time_codes, first_id, line_offset, rows)
    else:
        id_cols = [np.array(names, dtype=object)[codes].tolist() for names, codes in enc.id_values]
        points = [np.array(p, dtype=object)[c].tolist() for p, c in zip(enc.parsed_values, enc.time_codes, strict=True)]
        lines = (rows + line_offset).tolist()
        builder.facts.extend(map(Fact, (rows + first_id).tolist(), *id_cols, *points, lines))
    builder.report.rows_loaded += len(rows)
    return dups


def _add_admitted(builder: FactBuilder, enc: _Encoded, label: str, first_id: int, line_offset: int) -> None:
    """Each row added as :meth:`FactBuilder.admit` decides (duplicates against what came before)."""
    import numpy as np

    id_cols = [np.array(names, dtype=object)[codes].tolist() for names, codes in enc.id_values]
    points = [np.array(p, dtype=object)[c].tolist() for p, c in zip(enc.parsed_values, enc.time_codes, strict=True)]
    isos = [uniq[codes].tolist() for uniq, codes in enc.iso_parts]
    rows = enc.positions(len(enc.key_codes[0])).tolist()
    for i, s, r, o, sp, ep, si, ei in zip(rows, *id_cols, *points, *isos, strict=True):
        if builder.admit((s, r, o, si, ei), label, i + line_offset):
            builder.facts.append(Fact(first_id + i, s, r, o, sp, ep, i + line_offset))
            builder.report.rows_loaded += 1


def _columns(
    id_values: list[tuple[list[str | None], Any]],
    parsed_values: list[list[TimePoint | None]],
    time_codes: list[Any],
    first_id: int,
    line_offset: int,
    rows: np.ndarray,
) -> FactColumns:
    """:class:`FactColumns` of a bulk-read file from its distinct values and row codes (no :class:`Fact` made).

    ``rows`` are the positions in the file of the rows kept: a name only a skipped row holds gets no code.
    """
    import numpy as np

    entities: dict[str, int] = {}
    relations: dict[str, int] = {}
    codes = []
    for (names, row_codes), table in zip(id_values, (entities, relations, entities), strict=True):
        used = np.zeros(len(names), dtype=bool)
        used[row_codes] = True
        pairs = zip(names, used.tolist(), strict=True)
        value = [table.setdefault(m, len(table)) if m is not None and u else -1 for m, u in pairs]
        value_code = np.array(value, dtype=np.int32)
        codes.append(value_code[row_codes])
    dates = []
    for parsed, row_codes in zip(parsed_values, time_codes, strict=True):
        has = np.array([p is not None for p in parsed], dtype=bool)
        year = np.array([0 if p is None else p.year for p in parsed], dtype=np.int32)
        month = np.array([0 if p is None else p.month or 0 for p in parsed], dtype=np.int8)
        day = np.array([0 if p is None else p.day or 0 for p in parsed], dtype=np.int8)
        dates += [has[row_codes], year[row_codes], month[row_codes], day[row_codes]]
    hs, sy, sm, sd, he, ey, em, ed = dates
    end = int(rows[-1]) + 1 if len(rows) else 0  # one past the last row kept
    index = np.int32 if first_id + end < 2**31 - 1 and line_offset + end < 2**31 - 1 else np.int64  # where they fit
    return FactColumns(
        list(entities), list(relations), (rows + first_id).astype(index), codes[0], codes[1],
        codes[2], hs, sy, sm, sd, he, ey, em, ed, (rows + line_offset).astype(index),
    )  # fmt: skip


def read_text_csv(data: bytes, delimiter: str, names: Sequence[str] | None = None) -> pa.Table | None:
    """``data`` read by pyarrow, every column as text, or ``None`` where pyarrow cannot read it (the row reader runs).

    The one reading of a clean delimited file by the bulk readers: no quoting or escapes, empty lines kept (a
    row per line), no value read as null. ``names`` name the columns of a file without a header; without
    them the first line is the header.
    """
    import pyarrow as pa
    import pyarrow.csv as pacsv

    parse = pacsv.ParseOptions(delimiter=delimiter, quote_char=False, escape_char=False, ignore_empty_lines=False)
    try:
        if names is None:
            first = pa.BufferReader(arrow_bytes(data.split(b"\n", 1)[0] + b"\n"))
            names = pacsv.read_csv(first, parse_options=parse).column_names
            read = pacsv.ReadOptions()
        else:
            read = pacsv.ReadOptions(column_names=list(names))
        return pacsv.read_csv(
            pa.BufferReader(arrow_bytes(data)),
            read_options=read,
            parse_options=parse,
            convert_options=pacsv.ConvertOptions(
                column_types=dict.fromkeys(names, pa.string()),
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError):
        return None
