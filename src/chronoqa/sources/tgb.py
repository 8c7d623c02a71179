"""TGB 2.0 ``tkgl-*`` edge lists: ``ts,head,tail,relation_type``, one edge per year.

:func:`read_tgb` reads the CSV or the zip as TGB ships it (``tkgl-smallpedia.zip`` holding
``tkgl-smallpedia_edgelist.csv``); every edge becomes a point fact at year granularity (``Fact.line``
is the CSV line, the header being line 1). :func:`write_tgb_edgelist` goes the other way the way TGB
built smallpedia from Wikidata: a fact with both ends known gives one edge per year from its start
year to its end year; a start-only fact gives one edge at its start year; a fact with no start, and a
reversed interval, give none (counted in the returned summary, never silently).
"""

from __future__ import annotations

import io
import zipfile
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO

from chronoqa.errors import BadRowPolicy, DataError, LoadReport
from chronoqa.io import atomic_write
from chronoqa.records import TemporalGraph
from chronoqa.sources._common import NOTE_BLANK, DuplicatePolicy, FactBuilder, TimeCells, gc_paused, iter_text_lines
from chronoqa.time import Granularity, TimePoint

__all__ = ["TGB_COLUMNS", "TgbWriteSummary", "expand_years", "read_tgb", "write_tgb_edgelist"]

TGB_COLUMNS = ("ts", "head", "tail", "relation_type")


def _zip_member(zf: zipfile.ZipFile, path: Path) -> str:
    names = [n for n in zf.namelist() if n.endswith("_edgelist.csv") and "static" not in Path(n).name]
    wanted = f"{path.stem}_edgelist.csv"
    exact = [n for n in names if Path(n).name == wanted]
    if exact:
        return exact[0]
    if len(names) == 1:
        return names[0]
    raise DataError(
        str(path),
        0,
        "(zip)",
        ", ".join(zf.namelist()),
        f"one edge list named {wanted} (or exactly one *_edgelist.csv)",
        "pass the CSV itself, extracted from the zip",
    )


@gc_paused()
def read_tgb(
    path: str | Path,
    *,
    name: str | None = None,
    on_bad_row: BadRowPolicy = "raise",
    on_duplicate: DuplicatePolicy = "keep",
    as_of: TimePoint | None = None,
    relation_labels: Mapping[str, str] | None = None,
) -> TemporalGraph:
    """Read a TGB ``tkgl-*`` edge list (CSV, or the zip TGB ships) into a graph of yearly point facts."""
    path = Path(path)
    report = LoadReport(str(path))
    builder = FactBuilder(report, on_bad_row=on_bad_row, on_reversed="keep", on_duplicate=on_duplicate, as_of=as_of)
    if path.suffix.lower() == ".zip":
        with zipfile.ZipFile(path) as zf:
            member = _zip_member(zf, path)
            with zf.open(member) as raw:
                _read_edges(raw, f"{path}!{member}", report, builder)
    else:
        with path.open("rb") as fh:
            _read_edges(fh, str(path), report, builder)
    stem = path.stem.removesuffix("_edgelist")
    return TemporalGraph(
        name=name or stem,
        facts=tuple(builder.facts),
        entity_labels={},
        relation_labels=dict(sorted((relation_labels or {}).items())),
        report=report,
    )


def _read_edges(fh: IO[bytes], label: str, report: LoadReport, builder: FactBuilder) -> None:
    lines: Iterator[tuple[int, str]] = iter_text_lines(fh, report, builder.on_bad_row, label=label)
    header_line = next(lines, None)
    if header_line is None:
        raise DataError(label, 1, "(header)", "", "a header ts,head,tail,relation_type", "the file is empty")
    header = [h.strip() for h in header_line[1].split(",")]
    if sorted(header) != sorted(TGB_COLUMNS):
        raise DataError(
            label,
            header_line[0],
            "(header)",
            header_line[1][:80],
            "the header ts,head,tail,relation_type (any order)",
            "use a TGB tkgl-* edge list, or read the file with read_quintuples and a column mapping",
        )
    ti, hi, ri, oi = (header.index(c) for c in ("ts", "head", "relation_type", "tail"))
    cells = TimeCells(label)
    row_index = 0
    for lineno, text in lines:
        if not text.strip():
            report.notes[NOTE_BLANK] += 1
            continue
        fact_id = row_index
        row_index += 1
        report.rows_read += 1
        parts = text.split(",")
        if len(parts) != 4:
            builder.bad(DataError(label, lineno, "(row)", text[:80], f"4 comma-separated fields (found {len(parts)})"))
            continue
        s, r, o = parts[hi].strip(), parts[ri].strip(), parts[oi].strip()
        empty = next((f for f, v in (("head", s), ("relation_type", r), ("tail", o)) if not v), None)
        if empty is not None:
            builder.bad(DataError(label, lineno, empty, "", "a non-empty id"))
            continue
        try:
            t = cells.parse(parts[ti], lineno, "ts")
        except DataError as exc:
            builder.bad(exc)
            continue
        if t is None or t.granularity is not Granularity.YEAR:
            builder.bad(DataError(label, lineno, "ts", parts[ti], "a year (TGB tkgl timestamps are years)"))
            continue
        builder.add(fact_id, label, lineno, s, r, o, t, t, "ts", "ts")


@dataclass(frozen=True)
class TgbWriteSummary:
    """What :func:`write_tgb_edgelist` wrote and which facts gave no edge (by reason)."""

    edges: int
    facts_expanded: int
    facts_without_edges: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """JSON form (the fields in their declared order)."""
        return asdict(self)


def expand_years(start: TimePoint | None, end: TimePoint | None) -> range | str:
    """Years one fact expands to (see the module docstring), or the reason it gives no edge."""
    if start is None:
        return "no start time" if end is not None else "no time"
    if end is None:
        return range(start.year, start.year + 1)
    if start.year > end.year:
        return "reversed interval"
    return range(start.year, end.year + 1)


def write_tgb_edgelist(graph: TemporalGraph, path: str | Path) -> TgbWriteSummary:
    """Write ``graph`` as a TGB edge list (sorted by year, then fact order); ``.zip`` paths get the zip form."""
    path = Path(path)
    edges: list[tuple[int, int, str, str, str]] = []
    dropped: Counter[str] = Counter()
    expanded = 0
    for i, f in enumerate(graph.facts):
        years = expand_years(f.start, f.end)
        if isinstance(years, str):
            dropped[years] += 1
            continue
        expanded += 1
        edges.extend((y, i, f.s, f.o, f.r) for y in years)
    edges.sort(key=lambda e: (e[0], e[1]))
    body = io.StringIO()
    body.write(",".join(TGB_COLUMNS) + "\n")
    for y, _, s, o, r in edges:
        body.write(f"{y},{s},{o},{r}\n")
    if path.suffix.lower() == ".zip":
        with atomic_write(path, "wb") as fh, zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            info = zipfile.ZipInfo(f"{path.stem}_edgelist.csv", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, body.getvalue())
    else:
        with atomic_write(path) as fh:
            fh.write(body.getvalue())
    return TgbWriteSummary(len(edges), expanded, dict(sorted(dropped.items())))
