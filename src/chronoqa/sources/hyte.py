"""HyTE / RE-Net style temporal KGs: ``temporal`` (ids + start/end) with ``entities.dict`` / ``relations.dict``.

Layout of a folder (YAGO11k, Wikidata12k)::

    temporal            s_id<TAB>r_id<TAB>o_id<TAB>start<TAB>end      (one fact per line)
    train.txt ...       the same format (a partition of ``temporal``)
    entities.dict       int_id<TAB>name                               (YAGO ``<Getafe_CF>``, Wikidata ``Q202735``)
    relations.dict      int_id<TAB>name                               (YAGO ``<playsFor>``, Wikidata ``P1376``)
    relation_labels.tsv pid<TAB>label (with that header; optional)    (English labels of Wikidata P-ids)

``Fact.s/r/o`` are the dictionary *names*; ``Fact.id`` is the 0-based index of the row over the files
read (stable whatever the policies skip, so ids need not be contiguous after skipping);
``Fact.line`` is the 1-based line in its file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NoReturn

from chronoqa.errors import SKIP_BAD_ROWS, BadRowPolicy, DataError, LoadReport
from chronoqa.records import TemporalGraph
from chronoqa.sources._common import (
    NOTE_BLANK,
    DuplicatePolicy,
    FactBuilder,
    ReversedPolicy,
    TimeCells,
    bulk_add,
    gc_paused,
    iter_text_lines,
    longest_line,
    max_line_bytes,
    read_text_csv,
)
from chronoqa.time import TimePoint

__all__ = ["entity_label", "read_dict", "read_hyte", "read_relation_labels", "relation_label", "write_hyte"]

_YAGO_NAME = re.compile(r"^<(.*)>$")
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")  # a YAGO name's escaped character


def entity_label(name: str) -> str | None:
    r"""Readable label of an entity name: ``<Getafe_CF>`` → ``Getafe CF``; ``None`` when it has none (Q-ids).

    YAGO writes some characters of a name as ``\uXXXX`` escapes (``<Guinn_\u0022Big_Boy\u0022_Williams>``): the
    label reads them as the characters (``Guinn "Big Boy" Williams``).
    """
    m = _YAGO_NAME.match(name)
    if m:
        return _ESCAPE.sub(lambda e: chr(int(e.group(1), 16)), m.group(1)).replace("_", " ")
    return None


def relation_label(name: str) -> str | None:
    """Readable label of a relation name: ``<playsFor>`` → ``playsFor``; ``None`` when it has none (P-ids)."""
    m = _YAGO_NAME.match(name)
    return m.group(1) if m else None


def read_dict(path: str | Path, *, policy: BadRowPolicy = "raise") -> dict[str, str]:
    """Read an ``int_id<TAB>name`` dictionary into ``{int_id: name}`` (ids kept as strings)."""
    path = Path(path)
    report = LoadReport(str(path))
    out: dict[str, str] = {}
    names: dict[str, int] = {}
    for lineno, text in iter_text_lines(path, report, policy):
        if not text.strip():
            continue
        parts = text.split("\t")
        if len(parts) != 2 or not parts[0].strip() or not parts[1]:
            report.handle(
                DataError(str(path), lineno, "(row)", text[:80], "2 tab-separated fields: int_id<TAB>name"), policy
            )
            continue
        key, name = parts[0].strip(), parts[1]
        if key in out:
            report.handle(
                DataError(
                    str(path), lineno, "int_id", key, "an id not used by an earlier line", "remove the duplicate"
                ),
                policy,
            )
            continue
        if name in names:
            report.handle(
                DataError(
                    str(path),
                    lineno,
                    "name",
                    name,
                    f"a name not used by an earlier line (line {names[name]} has it)",
                    "remove the duplicate",
                ),
                policy,
            )
            continue
        out[key] = name
        names[name] = lineno
    return out


def read_relation_labels(path: str | Path) -> dict[str, str]:
    """Read a ``pid<TAB>label`` file (with that header) into ``{pid: label}``."""
    path = Path(path)
    report = LoadReport(str(path))
    out: dict[str, str] = {}
    for lineno, text in iter_text_lines(path, report, "raise"):
        if not text.strip():
            continue
        parts = text.split("\t")
        if lineno == 1 and [p.strip().lower() for p in parts] == ["pid", "label"]:
            continue
        if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
            raise DataError(str(path), lineno, "(row)", text[:80], "2 tab-separated fields: pid<TAB>label")
        out[parts[0].strip()] = parts[1].strip()
    return out


def read_hyte(
    folder: str | Path,
    *,
    name: str | None = None,
    on_bad_row: BadRowPolicy = "raise",
    on_reversed: ReversedPolicy = "raise",
    on_duplicate: DuplicatePolicy = "keep",
    as_of: TimePoint | None = None,
    files: Sequence[str] = ("temporal",),
    relation_labels: str | Path | Mapping[str, str] | None = None,
    fast: bool = True,
) -> TemporalGraph:
    """Read a HyTE-style TKG folder into a :class:`TemporalGraph`.

    ``files`` names the fact files to read, in order (``("train.txt", "valid.txt", "test.txt")`` reads
    the split files). Relation labels come from ``relation_labels`` (a ``pid<TAB>label`` file or a
    mapping) or, when not given, from ``relation_labels.tsv`` in the folder when present; YAGO-style
    ``<name>`` entities and relations get readable labels; names without one (Q-ids, P-ids without a
    label file) are left out of the label maps (their label is their id). Bad rows and policies: see
    :mod:`chronoqa.sources._common`.

    ``fast=True`` reads a clean file with a vectorised path (Arrow's CSV reader, each distinct id and
    time string looked up once); at the first sign of trouble (a bad line, an unknown id or time, a
    reversed interval under a policy other than ``keep``, a start after ``as_of``) the file is read
    again line by line, so errors and reports are exactly those of ``fast=False``.
    """
    with gc_paused():
        return _read_hyte(
            Path(folder),
            name=name,
            on_bad_row=on_bad_row,
            on_reversed=on_reversed,
            on_duplicate=on_duplicate,
            as_of=as_of,
            files=files,
            relation_labels=relation_labels,
            fast=fast,
        )


def _read_hyte(
    folder: Path,
    *,
    name: str | None,
    on_bad_row: BadRowPolicy,
    on_reversed: ReversedPolicy,
    on_duplicate: DuplicatePolicy,
    as_of: TimePoint | None,
    files: Sequence[str],
    relation_labels: str | Path | Mapping[str, str] | None,
    fast: bool,
) -> TemporalGraph:
    _check_folder(folder, files)
    entities = read_dict(folder / "entities.dict")
    relations = read_dict(folder / "relations.dict")
    report = LoadReport(str(folder))
    builder = FactBuilder(
        report, on_bad_row=on_bad_row, on_reversed=on_reversed, on_duplicate=on_duplicate, as_of=as_of
    )
    row_index = 0
    for file_no, file_name in enumerate(files):
        path = folder / file_name
        label = str(path)
        cells = TimeCells(label)
        if fast:
            last = file_no == len(files) - 1  # by position: a file named twice is read twice
            n_fast = _read_fast(path, label, entities, relations, row_index, builder, cells, last_file=last)
            if n_fast is not None:
                row_index += n_fast
                continue
        row_index = _read_lines(path, (entities, relations), row_index, builder, cells)
    ent_labels, rel_labels = _labels(folder, entities, relations, relation_labels)
    return TemporalGraph(
        name=name or folder.name,
        facts=builder.result(),
        entity_labels=ent_labels,
        relation_labels=rel_labels,
        report=report,
    )


def _check_folder(folder: Path, files: Sequence[str]) -> None:
    """A HyTE folder with its two dictionaries and every fact file named."""
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: not a folder (expected a HyTE folder with temporal, entities.dict, ...)")
    missing = [name for name in ("entities.dict", "relations.dict", *files) if not (folder / name).is_file()]
    if missing:
        raise FileNotFoundError(
            f"{folder}: not a HyTE folder: missing {', '.join(missing)}. Expected 'temporal' "
            "(s_id<TAB>r_id<TAB>o_id<TAB>start<TAB>end per line), 'entities.dict' and 'relations.dict' "
            "(int_id<TAB>name); for other layouts use --format (see `chronoqa build kg --help`)"
        )


def _read_lines(
    path: Path,
    dicts: tuple[Mapping[str, str], Mapping[str, str]],
    row_index: int,
    builder: FactBuilder,
    cells: TimeCells,
) -> int:
    """Add a fact file line by line (each bad line handled by the builder's policy); the next row index."""
    entities, relations = dicts
    label = str(path)
    for lineno, text in iter_text_lines(path, builder.report, builder.on_bad_row):
        if not text.strip():
            builder.report.notes[NOTE_BLANK] += 1
            continue
        fact_id = row_index
        row_index += 1
        builder.report.rows_read += 1
        parts = text.split("\t")
        if len(parts) != 5:
            expected = f"5 tab-separated fields s_id, r_id, o_id, start, end (found {len(parts)})"
            fix = f"repair the line, or {SKIP_BAD_ROWS}"
            builder.bad(DataError(label, lineno, "(row)", text[:80], expected, fix))
            continue
        s_id, r_id, o_id, start_raw, end_raw = parts
        s, r, o = entities.get(s_id), relations.get(r_id), entities.get(o_id)
        try:
            if s is None or r is None or o is None:
                _unknown_id(s, r, s_id, r_id, o_id, label, lineno)
            start = cells.parse(start_raw, lineno, "start")
            end = cells.parse(end_raw, lineno, "end")
        except DataError as exc:
            builder.bad(exc)
            continue
        builder.add(fact_id, label, lineno, s, r, o, start, end)
    return row_index


def _labels(
    folder: Path,
    entities: Mapping[str, str],
    relations: Mapping[str, str],
    relation_labels: str | Path | Mapping[str, str] | None,
) -> tuple[dict[str, str], dict[str, str]]:
    """Entity and relation labels from their names, a ``relation_labels.tsv`` beside the files overriding."""
    ent_labels = {n: lab for n in sorted(entities.values()) if (lab := entity_label(n)) is not None}
    rel_labels = {n: lab for n in sorted(relations.values()) if (lab := relation_label(n)) is not None}
    if relation_labels is None and (folder / "relation_labels.tsv").is_file():
        relation_labels = folder / "relation_labels.tsv"
    if relation_labels is not None:
        extra = relation_labels if isinstance(relation_labels, Mapping) else read_relation_labels(relation_labels)
        for rel in sorted(relations.values()):
            if rel in extra:
                rel_labels[rel] = extra[rel]
    return ent_labels, rel_labels


def _unknown_id(s: str | None, r: str | None, s_id: str, r_id: str, o_id: str, file: str, line: int) -> NoReturn:
    """Raise the :class:`DataError` of the first id missing from its dictionary."""
    field, key, dict_name = (
        ("s_id", s_id, "entities.dict")
        if s is None
        else ("r_id", r_id, "relations.dict")
        if r is None
        else ("o_id", o_id, "entities.dict")
    )
    raise DataError(
        file,
        line,
        field,
        key,
        f"an id listed in {dict_name}",
        f"add the id to {dict_name} or remove the row, or {SKIP_BAD_ROWS}",
    )


def write_hyte(graph: TemporalGraph, folder: str | Path, *, time_style: str = "yago") -> None:
    """Write ``graph`` as a HyTE folder (``temporal``, ``entities.dict``, ``relations.dict``), atomically.

    Ids are assigned in sorted name order; times are written YAGO style (``1994_03_07``,
    ``None`` for unknown) when ``time_style="yago"``, ISO (``1994-03-07``) when ``"iso"``.
    """
    from chronoqa.io import atomic_write

    if time_style not in ("yago", "iso"):
        raise ValueError(f"Unknown time_style {time_style!r}: expected 'yago' or 'iso'")
    folder = Path(folder)
    ents = sorted({f.s for f in graph.facts} | {f.o for f in graph.facts})
    rels = sorted({f.r for f in graph.facts})
    eid = {n: i for i, n in enumerate(ents)}
    rid = {n: i for i, n in enumerate(rels)}

    def ts(t: TimePoint | None) -> str:
        if t is None:
            return "None"
        if time_style == "iso":
            return t.isoformat()
        out = str(t.year)
        if t.month is not None:
            out += f"_{t.month:02d}"
        if t.day is not None:
            out += f"_{t.day:02d}"
        return out

    with atomic_write(folder / "entities.dict") as fh:
        fh.writelines(f"{i}\t{n}\n" for n, i in eid.items())
    with atomic_write(folder / "relations.dict") as fh:
        fh.writelines(f"{i}\t{n}\n" for n, i in rid.items())
    with atomic_write(folder / "temporal") as fh:
        fh.writelines(f"{eid[f.s]}\t{rid[f.r]}\t{eid[f.o]}\t{ts(f.start)}\t{ts(f.end)}\n" for f in graph.facts)


def _read_fast(
    path: Path,
    label: str,
    entities: Mapping[str, str],
    relations: Mapping[str, str],
    first_id: int,
    builder: FactBuilder,
    cells: TimeCells,
    *,
    last_file: bool = False,
) -> int | None:
    """Vectorised read of one clean fact file; ``None`` (nothing recorded) when the slow path must run."""
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf") or b"\r" in data:
        return None
    if len(data) > (cap := max_line_bytes()) and longest_line(data) > cap:
        return None  # the row reader words the line-cap error
    n_lines = data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)
    names = ("s", "r", "o", "start", "end")
    table = read_text_csv(data, "\t", names)
    if table is None:
        return None
    n = table.num_rows
    if n != n_lines:
        return None

    ids = (entities.get, relations.get, entities.get)
    if not bulk_add(builder, cells, label, table, names, ids, first_id, 1, last_file=last_file, columnar=True):
        return None
    return n
