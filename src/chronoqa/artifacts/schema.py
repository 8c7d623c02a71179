"""Reading the records of an on-disk format, and the one place a record error becomes a :class:`DataError`.

Each record is declared once, as a :class:`~chronoqa.records.Record` dataclass (:class:`~chronoqa.records.Question`,
:class:`~chronoqa.records.Doc`, :class:`~chronoqa.artifacts.release.FunctionalFlags`): its JSON form, its checks
(types strict: a string is not a list, a number is not a string; ``null`` only where a field is optional) and its
Arrow schema follow from the declaration. :func:`read_records` reads the ``(line, object)`` pairs of a file and
raises :class:`~chronoqa.errors.DataError` naming the file, the line, the field (``S_star[0].s``), the value and
what was expected.

A JSON file of one object (an evaluate metrics file, ``summary.json``) is declared once as a frozen pydantic
model on :class:`JsonRecord`: its checks (:meth:`JsonRecord.from_dict`, a bad field a :class:`DataError`), its JSON
form (:meth:`JsonRecord.to_dict`) and its JSON Schema (``model_json_schema()``) follow from the declaration.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from chronoqa.errors import DataError
from chronoqa.records import Record, RecordError

__all__ = ["JsonRecord", "read_records", "shown_value"]

R = TypeVar("R", bound=Record)


def read_records(path: Path, records: Iterable[tuple[int, dict[str, Any]]], kind: type[R], key: str) -> Iterator[R]:
    """The records of a file's ``(line, object)`` pairs, each checked against its declaration.

    A repeated ``key`` is an error, and so is a value the record rejects (a wrong type, an impossible date).
    """
    seen: dict[str, int] = {}
    for lineno, row in records:
        try:
            rec = kind.read(row)
        except RecordError as exc:
            raise DataError(
                str(path),
                lineno,
                exc.where,
                shown_value(exc.value),
                f"{exc.expected} in a {kind.__name__.lower()} record",
                "regenerate the file with chronoqa, or correct the field",
            ) from None
        except ValueError as exc:  # TimeParseError names the field and the value
            raise DataError(
                str(path), lineno, "(record)", row.get(key), f"valid values ({exc})", "correct the field"
            ) from None
        value = getattr(rec, key)
        if value in seen:
            raise DataError(
                str(path),
                lineno,
                key,
                value,
                f"an {key} no earlier line has (line {seen[value]} has it)",
                "give every record its own id, or remove the duplicate line",
            )
        seen[value] = lineno
        yield rec


def shown_value(value: object) -> object:
    """A value as an error shows it: short ones as they are, long ones cut to 80 characters."""
    if value is None or isinstance(value, bool | int | float) or (isinstance(value, str) and len(value) <= 80):
        return value
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


J = TypeVar("J", bound="JsonRecord")


class JsonRecord(BaseModel):
    """A record of a JSON file, declared once as a frozen pydantic model: no unknown keys, typed fields.

    One rule covers optional keys: a field with a default is written only when it was given, so
    ``to_dict(from_dict(d)) == d``. ``_WHAT`` names the record in an error ("in a metrics record"), ``_FIX`` says
    how to remake it.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    _WHAT: ClassVar[str] = "a record"
    _FIX: ClassVar[str] = "regenerate the file with chronoqa, or correct the field"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (optional keys that were not given are left out)."""
        return self.model_dump(exclude_unset=True)

    @classmethod
    def from_dict(cls: type[J], data: Mapping[str, Any], file: str = "") -> J:
        """Read the JSON form; a bad record raises :class:`~chronoqa.errors.DataError` naming ``file`` and the field."""
        try:
            return cls.model_validate(dict(data))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in err["loc"]).lstrip(".")
            raise DataError(
                file or f"({cls._WHAT.split(' ', 1)[-1]})",
                1,
                where or "(record)",
                shown_value(err.get("input")),
                f"{err['msg'][0].lower()}{err['msg'][1:]} in {cls._WHAT} record",
                cls._FIX,
            ) from None
