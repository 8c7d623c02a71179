"""What a refresh changed: ``changes.jsonl`` in a refreshed release, one :class:`ChangeRecord` per question.

``chronoqa refresh OLD --input NEWER --out NEW`` (:mod:`chronoqa.generate.refresh`) classifies every question of
the old release and every question of the new build as one of :data:`CHANGE_CLASSES`:

* ``unchanged``: re-grounded on the newer data, same gold (answers and ``S*`` facts);
* ``gold_changed``: re-grounded, another gold; ``old_answers``/``new_answers`` and the ``S*`` facts added,
  removed and re-dated say what changed it;
* ``retired``: the newer data invalidates the question (``reason``); it is not in the new release;
* ``new``: a question of the new build whose key no old question has.

``key`` is the question's canonical key (its logical form and template, never its text or position): the
identity a refresh matches questions by. ``id`` is the question's id in the new release (a retired question's:
its old id); a matched question keeps its old id. ``regrounded`` is false where the gold was not recomputed
from the newer data (the reason says why).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Final

from chronoqa.artifacts.schema import JsonRecord, read_records
from chronoqa.io import numbered_jsonl, write_jsonl
from chronoqa.records import Record

__all__ = [
    "CHANGES_FILE",
    "CHANGES_MD",
    "CHANGE_CLASSES",
    "ChangeCounts",
    "ChangeRecord",
    "read_changes",
    "write_changes",
]

CHANGES_FILE: Final = "changes.jsonl"
CHANGES_MD: Final = "CHANGES.md"
#: The classes of a change, in the order reports list them.
CHANGE_CLASSES: Final = ("unchanged", "gold_changed", "retired", "new")


@dataclass(frozen=True, slots=True)
class ChangeRecord(Record):
    """One question's fate in a refresh (see the module docstring)."""

    id: str
    change: str
    key: str
    cell: str
    question: str
    reason: str = ""
    old_answers: tuple[str, ...] = ()
    old_answer_ids: tuple[str, ...] = ()
    new_answers: tuple[str, ...] = ()
    facts_added: tuple[str, ...] = ()
    facts_removed: tuple[str, ...] = ()
    facts_redated: tuple[str, ...] = ()
    regrounded: bool = True


class ChangeCounts(JsonRecord):
    """Questions per change class (a release manifest's ``refresh.changes``, an evaluation's ``two_gold.drift``)."""

    _WHAT: ClassVar[str] = "a change counts"
    _FIX: ClassVar[str] = "refresh the release again (chronoqa refresh), or correct the field"

    unchanged: int
    gold_changed: int
    retired: int
    new: int

    @classmethod
    def of(cls, records: Iterable[ChangeRecord]) -> ChangeCounts:
        """The counts of a refresh's change records."""
        changes = [r.change for r in records]
        return cls(**{k: changes.count(k) for k in CHANGE_CLASSES})

    def items(self) -> list[tuple[str, int]]:
        """``(change class, questions)`` in :data:`CHANGE_CLASSES` order."""
        return [(k, getattr(self, k)) for k in CHANGE_CLASSES]


def write_changes(path: str | Path, records: Iterable[ChangeRecord]) -> int:
    """Write ``changes.jsonl`` atomically; returns the number of lines."""
    return write_jsonl(path, (r.to_dict() for r in records))


def read_changes(path: str | Path) -> list[ChangeRecord]:
    """Read ``changes.jsonl``; a bad line raises a DataError naming the file, line and field."""
    p = Path(path)
    return list(read_records(p, numbered_jsonl(p), ChangeRecord, "id"))
