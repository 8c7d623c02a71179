"""TDBench's declarations for table files given by path: one implementation for ``build table`` and ``run``.

A table file whose sha256 is that of a registered TDBench table (:func:`chronoqa.datasets.tdbench.recognise`)
gets chronoqa's declarations for it (phrases, rows declared wrong, completeness, TFDs, delimiters), exactly as
``--dataset tdbench-<name>`` would; a file named like one of them whose content differs gets a warning naming
the dataset to use instead, and no declarations.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from chronoqa.datasets.tdbench import Declarations, recognise, same_name
from chronoqa.generate.table.verbalise import PhraseBook

if TYPE_CHECKING:
    from chronoqa.records import TemporalTable

__all__ = ["Recognised", "recognise_files"]


@dataclass
class Recognised:
    """The TDBench declarations that apply to the tables read, and what to tell the user about them."""

    declared: dict[str, Declarations] = field(default_factory=dict)  # table name → its declarations
    notes: list[str] = field(default_factory=list)  # one line per recognised file or warning

    def add(self, decl: Declarations) -> None:
        """Declarations that apply to their table (a table named by ``--dataset``)."""
        self.declared[decl.table] = decl

    def phrases(self, book: PhraseBook) -> PhraseBook:
        """``book`` (the user's phrase file) over the declarations of each TDBench table: the file wins."""
        for decl in self.declared.values():
            book = book.over(PhraseBook.from_dict(decl.phrases, f"declarations of {decl.dataset}"))
        return book

    def delimiters(self, given: Mapping[str, str]) -> dict[str, str]:
        """The declared delimiters (``table.column`` → delimiter) with ``given`` ones winning."""
        declared = {f"{t}.{c}": d for t, decl in self.declared.items() for c, d in decl.delimiters.items()}
        return {**declared, **given}


def recognise_files(
    tables: list[TemporalTable], sources: MutableMapping[str, dict[str, str]], into: Recognised | None = None
) -> Recognised:
    """Recognise the TDBench tables among ``tables`` read from files (``sources``: name → path and sha256).

    A recognised table's source gains ``"dataset"`` (so the manifest names it).
    """
    found = into if into is not None else Recognised()
    for table in tables:
        src = sources[table.name]
        decl = recognise(src["sha256"])
        if decl is not None and decl.table == table.name:
            found.add(decl)
            src["dataset"] = decl.dataset
            found.notes.append(
                f"{src['path']}: recognised by its sha256 as {decl.dataset}: chronoqa's declarations for it apply"
            )
        elif (other := same_name(table.name)) is not None:
            found.notes.append(
                f"warning: {src['path']} is named like TDBench's {other.file} but is not the registered file "
                f"(sha256 differs): chronoqa's declarations for it are NOT applied. For TDBench's table use "
                f"`--dataset {other.dataset}`; for your own, give --phrases"
            )
    return found
