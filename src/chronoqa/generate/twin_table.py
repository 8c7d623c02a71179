"""Counterfactual twins of a TABLE release: the table's rows transformed, the table built again.

The table is read as a temporal functional dependency's rows (``key columns -> holder column``, the TFD the
release's questions ask about, e.g. ``Country,Role->Name``). Each row is one fact for
:class:`chronoqa.generate.twin.Transform` (the same transforms and the same pairing as a KG twin): subject the key
values joined by ``" | "``, relation the holder column, object the holder, start and end the row's dates.

* ``shift_years``: every date column moves by N whole years (day and month kept). Besides a 29 February in a
  year that is not a leap year, a shift is refused when a 28 February or a 1 March would change the leap-ness of
  its year: the days between them would change, and with them the relations "meets" and "before".
* ``rename_entities``: every holder gets a syllable-built name (the KG twin's generator), never a cell of the
  table (compared case-insensitively). Countries and roles are kept: the phrase file and chronoqa's declarations
  name them (``the {Role} of {Country}``, exclusions), and keeping them keeps every question's key.
* ``permute_holders``: within each key (the role: one office of one country), a seeded bijection among its
  holders; the terms and their dates stay.

The phrases the build reads are the release's phrase file over chronoqa's declarations for the TDBench table (a
transformed table is no longer recognised by its sha256), with the rows declared wrong transformed too, so the
same rows are left out.
"""

from __future__ import annotations

import calendar
import csv
import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from chronoqa.errors import ChronoqaError
from chronoqa.generate.twin import Key, Transform, check_years, holder_bijection, syllable_names
from chronoqa.records import Question
from chronoqa.time import parse_time

__all__ = ["TWIN_PHRASES", "TWIN_TABLE", "TableTwin"]

#: The twin's transformed table, kept in the twin release.
TWIN_TABLE: Final = "twin_table.csv"
#: The phrase file the twin was built with (the release's, transformed), kept in the twin release and recorded
#: in its manifest, so that the twin can be refreshed or rebuilt as any table release.
TWIN_PHRASES: Final = "twin_phrases.json"


class TableTwin:
    """One table release's rows, its TFD and the transform of ``kind`` over them."""

    def __init__(self, questions: list[Question], path: Path, kind: str, seed: int):
        tfds = Counter(str(q.logical_form.get("tfd")) for q in questions if q.logical_form.get("tfd"))
        if not tfds:
            raise ChronoqaError(f"{path}: the release asks no question of a TFD, so chronoqa twin has no holders")
        lhs, self.holder = tfds.most_common(1)[0][0].split("->")
        self.keys = lhs.split(",")
        self.path = path
        with path.open(newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
        self.header, self.rows = rows[0], rows[1:]
        self.dates = [i for i, c in enumerate(self.header) if c not in (*self.keys, self.holder) and self._dated(i)]
        if len(self.dates) != 2:
            raise ChronoqaError(f"{path}: expected a start and an end date column, found {len(self.dates)}")
        self.t = Transform(kind, seed, table=True)

    def _dated(self, i: int) -> bool:
        cells = [r[i] for r in self.rows if i < len(r) and r[i].strip()]
        try:
            return bool(cells) and all(parse_time(c) is not None for c in cells)
        except ValueError:
            return False

    def key(self, row: list[str]) -> Key:
        """A row as a fact: key values, holder column, holder, start, end (as a table question's ``S*`` has it)."""
        col = self.header.index
        subject = " | ".join(row[col(k)] for k in self.keys)
        start, end = (row[i] or None for i in self.dates)
        return (subject, self.holder, row[col(self.holder)], start, end)

    def make(self, years: int) -> Transform:
        """Fill the transform: its years (checked), holder names or holder bijections."""
        t = self.t
        if t.kind == "shift_years":
            t.years = check_years(years)
            self._check_leap_days(years)
        elif t.kind == "rename_entities":
            holders = sorted({k[2] for k in map(self.key, self.rows) if k[2]})
            taken = [c for r in self.rows for c in r]
            t.entity_map = dict(zip(holders, syllable_names(len(holders), t.seed, taken), strict=True))
        elif t.kind == "permute_holders":
            roles: dict[tuple[str, str], set[str]] = {}
            for s, r, o, _, _ in map(self.key, self.rows):
                roles.setdefault((s, r), set()).add(o)
            t.holders = {role: holder_bijection(t.seed, role, names) for role, names in sorted(roles.items())}
        else:
            from chronoqa.generate.twin import KINDS

            raise ChronoqaError(f"twin transform {t.kind!r}: expected one of {', '.join(KINDS)}")
        return t

    def _check_leap_days(self, years: int) -> None:
        for n, row in enumerate(self.rows, start=2):
            for i in self.dates:
                p = parse_time(row[i] or None)
                edge = p is not None and (p.month, p.day) in ((2, 28), (2, 29), (3, 1))
                if edge and p is not None and calendar.isleap(p.year) != calendar.isleap(p.year + years):
                    raise ChronoqaError(
                        f"{self.path}:{n}: {self.header[i]} {row[i]} shifted by {years} years changes whether "
                        f"February has 29 days, so the days around it (and 'meets') change: shift by a multiple "
                        "of 4 years that keeps leap years, e.g. --shift-years 28"
                    )

    def write(self, path: Path) -> None:
        """The transformed table (same header and row order) as CSV."""
        col = self.header.index
        with path.open("w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(self.header)
            for row in self.rows:
                _, _, name, start, end = self.t.fact(self.key(row))
                new = list(row)
                new[col(self.holder)] = name
                for i, value in zip(self.dates, (start, end), strict=True):
                    new[i] = value or ""
                w.writerow(new)

    def phrases(self, given: Mapping[str, Any], declared: Mapping[str, Any]) -> dict[str, Any]:
        """The phrase file of the twin build: ``given`` over ``declared``, rows declared wrong transformed."""
        merged: dict[str, Any] = {k: dict(v) for k, v in declared.items() if isinstance(v, Mapping)}
        for section, entries in given.items():
            if isinstance(entries, Mapping):
                for name, value in entries.items():
                    base = merged.setdefault(section, {}).get(name)
                    both = {**base, **value} if isinstance(base, Mapping) and isinstance(value, Mapping) else value
                    merged[section][name] = both
            else:
                merged[section] = entries
        table = (merged.get("tables") or {}).get(self.path.stem)
        if isinstance(table, dict):
            for entry, values in list(table.items()):
                if entry.startswith("exclude:"):
                    table[entry] = self._excluded(entry.split(":", 1)[1].split(","), values)
        return merged

    def _excluded(self, columns: list[str], values: Any) -> Any:
        """Exclusion values naming a holder, renamed or permuted as the rows they name are."""
        if self.holder not in columns:
            return values
        at = columns.index(self.holder)

        def one(value: str) -> str:
            cells = value.split(" | ")
            role = " | ".join(cells[columns.index(k)] for k in self.keys) if set(self.keys) <= set(columns) else ""
            cells[at] = self.t.fact((role, self.holder, cells[at], None, None))[2]
            return " | ".join(cells)

        return [one(v) for v in values] if isinstance(values, list) else one(str(values))


def _table_source(manifest: Mapping[str, Any], release: Path, source: Path | None) -> tuple[Path, dict[str, Any]]:
    """The one table the release was built from (``source`` if given) and chronoqa's declarations for it."""
    from chronoqa.datasets.tdbench import declarations

    tables = list((manifest.get("config") or {}).get("build_tables") or ())
    if len(tables) != 1 or (manifest.get("config") or {}).get("joins"):
        raise ChronoqaError(f"{release}: built from {len(tables)} tables or joins; chronoqa twin takes one table")
    recorded = (manifest.get("sources") or {}).get(tables[0]) or {}
    path = source if source is not None else Path(str(recorded.get("path") or ""))
    if not path.is_file():
        raise ChronoqaError(f"{release}: its table {str(path)!r} is not there: give the table file with --source FILE")
    name = recorded.get("dataset")
    return path, (declarations(str(name)).phrases if name else {})


def rebuild_table_twin(
    release: Path, kind: str, out: Path, *, seed: int, years: int, source: Path | None, phrases: Path | None
) -> Transform:
    """Write the ``kind`` twin of the table release ``release`` into ``out``; returns the transform applied."""
    import tempfile

    from chronoqa.artifacts.release import load_release
    from chronoqa.generate.rebuild import rebuild, recorded_table_phrases
    from chronoqa.io import write_text

    real = load_release(release)
    path, declared = _table_source(real.manifest, release, source)
    book_path = phrases if phrases is not None else recorded_table_phrases(real.manifest, release)[0]
    given = json.loads(book_path.read_text(encoding="utf-8")) if book_path is not None else {}
    twin = TableTwin(list(real.questions), path, kind, seed)
    t = twin.make(years)
    with tempfile.TemporaryDirectory(prefix="chronoqa-twin-") as tmp:
        table, book = Path(tmp) / f"{twin.path.stem}.csv", Path(tmp) / "phrases.json"
        twin.write(table)
        write_text(book, json.dumps(twin.phrases(given, declared), indent=1, sort_keys=True))
        built = rebuild(release, table, as_of=t.date("", real.manifest["config"]["as_of"]), phrases=book)
        _name_kept_table(built.manifest, twin.path.stem)
        built.write(out)
        write_text(out / TWIN_TABLE, table.read_text(encoding="utf-8"))
        write_text(out / TWIN_PHRASES, book.read_text(encoding="utf-8"))
    return t


def _name_kept_table(manifest: dict[str, Any], table: str) -> None:
    """The twin's table and phrase file named by the copies the release keeps, not by their temporary paths."""
    manifest["sources"][table]["path"] = TWIN_TABLE
    manifest["phrases"]["file"] = TWIN_PHRASES
    report = (manifest.get("tables") or {}).get(table, {}).get("load_report")
    if isinstance(report, dict):
        report["source"] = TWIN_TABLE
