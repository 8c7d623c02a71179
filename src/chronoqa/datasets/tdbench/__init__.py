"""TDBench's temporal tables (Kim et al., ICLR 2026) as named datasets, with chronoqa's declarations.

Each table is one dataset (``tdbench-leaders``, ``tdbench-legal``, ...): one CSV file downloaded from
TDBench's repository at a pinned commit and verified by sha256 (the repository states no licence, so the
files are never shipped or redistributed; ``$CHRONOQA_MIRROR/tdbench/`` serves them offline).

What chronoqa knows about each table ships in this package as data, one JSON file per dataset
(``leaders.json``, ``legal.json``, ...): the file and its sha256, the phrase-file entries (question wording,
completeness, rows declared wrong, declared cell corrections, TFDs) and the delimiters of its columns. The
same declarations apply to a table built by name (``chronoqa build table --dataset tdbench-legal``) and to
the same file given by path, recognised by its sha256 (:func:`recognise`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from chronoqa.datasets._spec import DatasetSpec, RemoteFile
from chronoqa.errors import BadRowPolicy, ChronoqaError
from chronoqa.records import TemporalGraph, TemporalTable
from chronoqa.time import TimePoint

__all__ = ["NAMES", "SPECS", "Declarations", "declarations", "read", "recognise", "same_name"]

_BASE = "https://raw.githubusercontent.com/ssoy0701/tdbench/6241ab837ef192d748725a2aea30da3d2c2d726e/dataset/crafted/"
_CITATION = (
    "Kim et al. Harnessing Temporal Databases for Systematic Evaluation of Factual Time-Sensitive "
    "Question-Answering in LLMs (TDBench). ICLR 2026. Files: ssoy0701/tdbench @ 6241ab8, dataset/crafted/."
)
_LICENCE = "none stated by TDBench's repository: downloaded for your own use, never redistributed"

#: The declaration files of this package, one per dataset (``tdbench-<name>``).
NAMES = ("leaders", "organizations", "sports", "olympic", "olympic-leaders", "culture", "legal", "environ", "movie")


@dataclass(frozen=True, slots=True)
class Declarations:
    """What chronoqa declares about one TDBench table.

    ``phrases``: a phrase file's content (``tfds``, ``facts``, ``joins``, ``tables``) for this table;
    ``delimiters``: column → the delimiter of its values (``"none"``: one value per cell).
    """

    dataset: str
    file: str
    sha256: str
    rows: int
    description: str
    phrases: dict[str, Any]
    delimiters: dict[str, str]

    @property
    def table(self) -> str:
        """The table's name: its file's stem, as when the file is given by path."""
        return Path(self.file).stem


def declarations(dataset: str) -> Declarations:
    """The declarations of ``tdbench-<name>`` (read from the package's ``<name>.json``)."""
    short = dataset.removeprefix("tdbench-")
    if short not in NAMES:
        raise ChronoqaError(f"{dataset}: not a TDBench table (known: {', '.join('tdbench-' + n for n in NAMES)})")
    text = resources.files(__name__).joinpath(f"{short}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return Declarations(
        dataset=data["dataset"],
        file=data["file"],
        sha256=data["sha256"],
        rows=int(data["rows"]),
        description=data["description"],
        phrases=data["phrases"],
        delimiters=dict(data["delimiters"]),
    )


def recognise(sha256: str) -> Declarations | None:
    """The declarations of the TDBench table whose file has this sha256, else ``None``."""
    for name in NAMES:
        decl = declarations(name)
        if decl.sha256 == sha256.lower():
            return decl
    return None


def same_name(table: str) -> Declarations | None:
    """The declarations of the TDBench table named ``table`` (its file's stem), whatever the file's content."""
    return next((d for d in map(declarations, NAMES) if d.table == table), None)


def _not_a_graph(name: str) -> Any:
    def load(folder: Path, *, on_bad_row: BadRowPolicy = "skip", as_of: TimePoint | None = None) -> TemporalGraph:
        raise ChronoqaError(
            f"{name} is a temporal table, not a graph: build it with `chronoqa build table --dataset {name}`"
        )

    return load


def _spec(short: str) -> DatasetSpec:
    decl = declarations(short)
    return DatasetSpec(
        name=decl.dataset,
        description=decl.description,
        files=(RemoteFile(decl.file, _BASE + decl.file, decl.sha256),),
        licence=_LICENCE,
        citation=_CITATION,
        loader=_not_a_graph(decl.dataset),
        homepage="https://github.com/ssoy0701/tdbench",
        format="table",
        folder="tdbench",
    )


#: One registration per TDBench table (all in the folder ``tdbench/`` of the mirror and the cache).
SPECS = tuple(_spec(n) for n in NAMES)


def read(dataset: str, folder: Path, *, on_bad_row: BadRowPolicy = "raise") -> TemporalTable:
    """Read the fetched table of ``dataset`` from ``folder``, named by its file's stem (``legal``)."""
    from chronoqa.sources.tables import read_table

    decl = declarations(dataset)
    return read_table(folder / decl.file, name=decl.table, on_bad_row=on_bad_row)
