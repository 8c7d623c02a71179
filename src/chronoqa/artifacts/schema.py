"""Declared row schemas of the on-disk formats, and the one place a schema error becomes a :class:`DataError`.

Each format module declares its rows here as pydantic models (types checked strictly: a string is not
a list, a number is not a string; ``null`` only where a field is optional); :func:`check_row` validates
one parsed line and raises :class:`~chronoqa.errors.DataError` naming the file, the line, the field
(``S_star[0].s``), the value and what was expected. Times stay ``str | int | float`` here and are
parsed by :mod:`chronoqa.time` as the records are built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from chronoqa.errors import DataError

__all__ = ["DocRow", "FlagsRow", "QuestionRow", "TripleRow", "check_row"]

_Time = str | int | float | None


class _Row(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")


class TripleRow(_Row):
    """A fact inside a question (``S_star``, ``S_dist``, ``S_stale``, ``S_anchor``)."""

    s: str
    r: str
    o: str
    t_start: _Time = None
    t_end: _Time = None
    s_id: str = ""
    r_id: str = ""
    o_id: str = ""
    fact_id: int = -1
    doc_id: str = ""


class QuestionRow(_Row):
    """One line of ``benchmark.jsonl``."""

    id: str
    question: str
    split: str = "test"
    t_query: _Time = None
    S_star: list[TripleRow] | None = None
    S_dist: list[TripleRow] | None = None
    S_stale: list[TripleRow] | None = None
    S_anchor: list[TripleRow] | None = None
    source: str = "kg"
    operator: str = "point_in_time"
    allen: str | None = None
    hops: int | None = None
    complexity: str | None = None
    answers: list[str] | None = None
    answer_ids: list[str] | None = None
    answer_type: str = "entity"
    cardinality: str = "unique"
    template_id: str = ""
    render_time: bool = True
    granularity: str = "year"
    as_of: str | None = None
    time_refs: list[dict[str, Any]] | None = None
    outdated_answers: list[str] | None = None
    sql: str | None = None
    reference: dict[str, str | None] | None = None
    logical_form: dict[str, Any] | None = None
    assumes_complete: bool = False


class DocRow(_Row):
    """One line of ``corpus.jsonl``."""

    doc_id: str
    text: str
    s: str
    r: str
    o: str
    t_start: _Time = None
    t_end: _Time = None
    s_id: str = ""
    r_id: str = ""
    o_id: str = ""
    fact_id: int = -1


class FlagsRow(_Row):
    """One line of ``functional_negatives.jsonl``."""

    id: str
    dist_functional: bool
    stale_functional: bool


def check_row(model: type[BaseModel], row: Mapping[str, Any], file: str, line: int) -> None:
    """Validate one parsed line against its schema; the first problem raises :class:`DataError`."""
    try:
        model.model_validate(dict(row))
    except ValidationError as exc:
        err = exc.errors()[0]
        where = "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in err["loc"]).lstrip(".")
        value = err.get("input")
        shown = value if isinstance(value, str) and len(value) <= 80 else _short(value)
        kind = model.__name__.removesuffix("Row").lower()
        raise DataError(
            file,
            line,
            where or "(row)",
            shown,
            f"{err['msg'][0].lower()}{err['msg'][1:]} in a {kind} record",
            "regenerate the file with chronoqa, or correct the field",
        ) from None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
