"""Answer files: one :class:`AnswerRecord` per question, their one writer and one reader.

An answer folder holds::

    answers.jsonl       one line per question of the split, in benchmark order:
                        {"qid", "answerer", "status": "ok"|"error"|"abstain", "answer", "explanation", "error", "raw"}
    answers.meta.json   the answerer spec and parameters, the run file it read, the counts by status

Failed calls are lines with status ``error`` (the scorer counts them wrong), never missing lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chronoqa.errors import DataError
from chronoqa.io import read_json, read_jsonl, write_json, write_jsonl

__all__ = [
    "ANSWERS_FILE",
    "ANSWERS_META_FILE",
    "STATUSES",
    "AnswerRecord",
    "answers_file",
    "read_answers",
    "read_answers_meta",
    "write_answers",
]

ANSWERS_FILE = "answers.jsonl"
ANSWERS_META_FILE = "answers.meta.json"
STATUSES = ("ok", "error", "abstain")


@dataclass(frozen=True, slots=True)
class AnswerRecord:
    """One line of ``answers.jsonl``: exactly one per question, failures included (status ``error``)."""

    qid: str
    answerer: str
    status: str
    answer: str | None
    explanation: str | None = None
    error: str | None = None
    raw: str | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"answer status {self.status!r}: expected one of {', '.join(STATUSES)}")

    def to_dict(self) -> dict[str, Any]:
        """JSON form (fixed key order)."""
        return {
            "qid": self.qid,
            "answerer": self.answerer,
            "status": self.status,
            "answer": self.answer,
            "explanation": self.explanation,
            "error": self.error,
            "raw": self.raw,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> AnswerRecord:
        """Read the JSON form."""
        return cls(
            qid=str(d["qid"]),
            answerer=str(d["answerer"]),
            status=str(d["status"]),
            answer=d.get("answer"),
            explanation=d.get("explanation"),
            error=d.get("error"),
            raw=d.get("raw"),
        )


def answers_file(path: str | Path) -> Path:
    """The ``answers.jsonl`` of ``path`` (a folder holding one, or the file itself)."""
    p = Path(path)
    return p / ANSWERS_FILE if p.is_dir() else p


def write_answers(out_dir: str | Path, records: Iterable[AnswerRecord], meta: Mapping[str, Any]) -> Path:
    """Write ``answers.jsonl`` then ``answers.meta.json`` (last: it marks a complete folder); returns the folder."""
    out = Path(out_dir)
    write_jsonl(out / ANSWERS_FILE, (r.to_dict() for r in records))
    write_json(out / ANSWERS_META_FILE, dict(meta))
    return out


def read_answers(path: str | Path) -> list[AnswerRecord]:
    """Read an answers file (or the folder holding one), in file order, one line per question.

    A bad line raises :class:`~chronoqa.errors.DataError` naming the file, line, field and value.
    """
    p = answers_file(path)
    if not p.is_file():
        raise DataError(str(p), 0, "(file)", str(p), "an existing answers file", "write one with `chronoqa answer`")
    out: list[AnswerRecord] = []
    seen: set[str] = set()
    for lineno, obj in enumerate(read_jsonl(p), 1):
        status = obj.get("status")
        if status not in STATUSES:
            raise DataError(str(p), lineno, "status", status, f"one of {', '.join(STATUSES)}", "regenerate answers")
        if "qid" not in obj or "answerer" not in obj:
            raise DataError(str(p), lineno, "qid", obj.get("qid"), "qid and answerer fields", "regenerate answers")
        rec = AnswerRecord.from_dict(obj)
        if rec.qid in seen:
            raise DataError(str(p), lineno, "qid", rec.qid, "one line per question", "remove the duplicate line")
        seen.add(rec.qid)
        out.append(rec)
    return out


def read_answers_meta(path: str | Path) -> dict[str, Any]:
    """The ``answers.meta.json`` beside an answers file (or in its folder); empty when there is none."""
    meta = answers_file(path).with_name(ANSWERS_META_FILE)
    data = read_json(meta) if meta.is_file() else {}
    return dict(data) if isinstance(data, dict) else {}
