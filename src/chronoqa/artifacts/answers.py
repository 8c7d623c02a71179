"""Answer files: one :class:`AnswerRecord` per question, their one writer and one reader.

An answer folder holds::

    answers.jsonl       one line per question of the split, in benchmark order:
                        {"qid", "answerer", "status": "ok"|"error"|"abstain", "answer", "explanation", "error", "raw"}
                        and, for a protocol that asks for JSON (``structured@1``), "reply_format": "json"|"prose"
                        and, for a reply that parsed, "structured": a :class:`StructuredAnswer`
    answers.meta.json   the answerer spec and parameters, the run file it read, the counts by status

Failed calls are lines with status ``error`` (the scorer counts them wrong), never missing lines.

:class:`StructuredAnswer` is the one declaration of the structured reply: the JSON schema the model is
asked for (sent as ``response_format`` where the server takes one), the validation of its reply, and the
``structured`` field of a line, which the scorer reads field by field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, WithJsonSchema, field_validator

from chronoqa.artifacts.schema import JsonRecord
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.io import numbered_jsonl, read_json, write_json, write_jsonl

__all__ = [
    "ANSWERS_FILE",
    "ANSWERS_META_FILE",
    "ANSWER_CAP_FLAG",
    "MAX_ANSWER_CHARS",
    "REPLY_FORMATS",
    "STATUSES",
    "AnswerClaim",
    "AnswerRecord",
    "AnswerRunRef",
    "AnswersMeta",
    "DateClaim",
    "ProtocolRef",
    "ReplyCounts",
    "StructuredAnswer",
    "answers_file",
    "capped",
    "check_cap",
    "over_cap",
    "parse_counts",
    "read_answers",
    "read_answers_meta",
    "write_answers",
]

ANSWERS_FILE = "answers.jsonl"
ANSWERS_META_FILE = "answers.meta.json"
STATUSES = ("ok", "error", "abstain")
REPLY_FORMATS = ("json", "prose")
#: The longest text stored in one field of an answer line (``answer``, ``explanation``, ``raw``), in characters.
#: A reply longer than this is stored as a line with status ``error`` naming the cap; a file holding a longer
#: value is refused when read (the judge reads every answer's words; an unbounded one would hold it).
MAX_ANSWER_CHARS = 100_000
#: The command-line flag that raises the cap (``chronoqa answer`` and ``chronoqa evaluate``).
ANSWER_CAP_FLAG = "--max-answer-chars"
_CAPPED_FIELDS = ("answer", "explanation", "raw")


def _sent_schema(schema: dict[str, Any]) -> None:
    """The schema sent to a model: the fields' words, not docstrings, and no other field asked for.

    A grammar built from it then cannot wander off; a reply's extra fields are still ignored, not refused.
    """
    schema.pop("description", None)
    schema["additionalProperties"] = False


_CLAIM_CONFIG = ConfigDict(frozen=True, extra="ignore", json_schema_extra=_sent_schema)
# Lengths asked of a model in the schema it is sent (a grammar then cannot run on inside one string);
# a longer value in a reply is still read, not refused.
_DateText = Annotated[str, WithJsonSchema({"type": "string", "maxLength": 40})]
_NameText = Annotated[str, WithJsonSchema({"type": "string", "maxLength": 120})]
_SentenceText = Annotated[str, WithJsonSchema({"type": "string", "maxLength": 300})]
_START = "when it began to hold (YYYY, YYYY-MM or YYYY-MM-DD)"
_END = "when it stopped holding; null if it still holds or is unknown"
_DATE = "the date of an event that happened once, instead of start and end"


def _date_value(value: Any) -> Any:
    """A year written as a JSON number (``2004``) is the string ``"2004"``; a blank string is no date."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and not value.strip():
        return None
    return value


class DateClaim(BaseModel):
    """Dates a model claims for a fact: when it began and ended to hold, or the date of a one-off event.

    Values are kept as the model wrote them (a number becomes its digits); :mod:`chronoqa.time` reads them
    when they are judged. Fields the model leaves out are ``None``; fields it adds are ignored.
    """

    model_config = _CLAIM_CONFIG

    start: _DateText | None = Field(None, description=_START)
    end: _DateText | None = Field(None, description=_END)
    date: _DateText | None = Field(None, description=_DATE)

    _dates = field_validator("start", "end", "date", mode="before")(_date_value)


class AnswerClaim(BaseModel):
    """One answer of a structured reply and the dates the model claims for it (the answer comes first)."""

    model_config = _CLAIM_CONFIG

    answer: _NameText = Field(description="one answer: a name, a value or a date")
    start: _DateText | None = Field(None, description=_START)
    end: _DateText | None = Field(None, description=_END)
    date: _DateText | None = Field(None, description=_DATE)

    _dates = field_validator("start", "end", "date", mode="before")(_date_value)


class StructuredAnswer(BaseModel):
    """A structured reply: the answers as a list (empty: the model does not know), each with its dates.

    ``reference``: the dates of the event the question is anchored on ("after X joined Y"), where the
    question names one; ``explanation``: one optional sentence, shown, never judged.
    """

    model_config = _CLAIM_CONFIG

    answers: tuple[AnswerClaim, ...] = Field(description="every correct answer; an empty list if unknown")
    reference: DateClaim | None = Field(None, description="dates of the event the question refers to, if any")
    explanation: _SentenceText | None = Field(None, description="one short sentence citing the dates")

    @field_validator("answers", mode="before")
    @classmethod
    def _bare_names(cls, value: Any) -> Any:
        """A list of bare strings (``["A", "B"]``) is read as answers without dates."""
        if isinstance(value, list):
            return [{"answer": v} if isinstance(v, str) else v for v in value]
        return value

    def to_dict(self) -> dict[str, Any]:
        """JSON form (fixed key order, unset fields as ``null``)."""
        return self.model_dump(mode="json")


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
    reply_format: str | None = None
    structured: StructuredAnswer | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"answer status {self.status!r}: expected one of {', '.join(STATUSES)}")
        if self.reply_format is not None and self.reply_format not in REPLY_FORMATS:
            raise ValueError(f"reply format {self.reply_format!r}: expected one of {', '.join(REPLY_FORMATS)}")

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
            **({} if self.reply_format is None else {"reply_format": self.reply_format}),
            **({} if self.structured is None else {"structured": self.structured.to_dict()}),
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
            reply_format=d.get("reply_format"),
            structured=None if d.get("structured") is None else StructuredAnswer.model_validate(d["structured"]),
        )


class ReplyCounts(JsonRecord):
    """How many replies of a structured protocol parsed as JSON (``replies`` of a metrics file and an answers meta)."""

    n_replies: int
    n_json: int
    parse_rate: float | None
    """``n_json / n_replies``; ``None`` when there is no reply to count."""


class ProtocolRef(JsonRecord):
    """The prompt protocol an LLM answered under (``name@version`` is its ``id``)."""

    name: str
    version: int
    id: str


class AnswerRunRef(JsonRecord):
    """The run file whose facts the answerer read: its name and sha256, and the run's spec and control flag."""

    path: str | None = None
    sha256: str | None = None
    spec: str | None = None
    control: bool | None = None


class AnswersMeta(JsonRecord):
    """``answers.meta.json``: who answered, from what, and how it went; the keys the report reads are declared.

    Every answer folder has ``answerer``, ``release``, ``split``, ``run``, ``n_questions`` and ``by_status``
    (written by :func:`chronoqa.answer.answer_release`); an LLM adds ``protocol``, ``model`` and, for a structured
    protocol, ``replies``. The answerer's other parameters (``k``, ``client``, ``max_hops``, ...) are kept as
    written. A key not in the file stays out of its JSON form.
    """

    model_config = ConfigDict(frozen=True, extra="allow")
    _WHAT: ClassVar[str] = "an answers meta"
    _FIX: ClassVar[str] = "rerun the answer stage (chronoqa run --force), or correct the field"

    answerer: str | None = None
    release: str | None = None
    split: str | None = None
    run: AnswerRunRef | None = None
    n_questions: int | None = None
    by_status: dict[str, int] = Field(default_factory=dict)
    protocol: ProtocolRef | None = None
    model: str | None = None
    replies: ReplyCounts | None = None

    @property
    def run_control(self) -> bool:
        """Whether the answers read a control run."""
        return bool(self.run is not None and self.run.control)


def parse_counts(records: Iterable[AnswerRecord]) -> ReplyCounts:
    """How many replies of a structured protocol parsed as JSON.

    Only records with a ``reply_format`` are replies of such a protocol (failed calls and free-text
    protocols have none).
    """
    formats = [r.reply_format for r in records if r.reply_format is not None]
    n_json = sum(1 for f in formats if f == "json")
    return ReplyCounts(n_replies=len(formats), n_json=n_json, parse_rate=n_json / len(formats) if formats else None)


def answers_file(path: str | Path) -> Path:
    """The ``answers.jsonl`` of ``path`` (a folder holding one, or the file itself)."""
    p = Path(path)
    return p / ANSWERS_FILE if p.is_dir() else p


def check_cap(max_chars: int) -> int:
    """``max_chars`` when it is a usable answer cap (at least 1), else a :class:`ChronoqaError` naming the flag."""
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 1:
        raise ChronoqaError(f"{ANSWER_CAP_FLAG} {max_chars!r}: expected a number of characters >= 1 (e.g. 100000)")
    return max_chars


def over_cap(rec: AnswerRecord, max_chars: int) -> tuple[str, int] | None:
    """The first stored text field of ``rec`` longer than ``max_chars`` and its length, else ``None``."""
    for name in _CAPPED_FIELDS:
        value = getattr(rec, name)
        if isinstance(value, str) and len(value) > max_chars:
            return name, len(value)
    return None


def capped(rec: AnswerRecord, max_chars: int = MAX_ANSWER_CHARS) -> AnswerRecord:
    """``rec`` itself when every stored field is within the cap, else an ``error`` line saying which one was not.

    The error line keeps the first ``max_chars`` characters of the raw reply (for a look at what came back) and
    names the cap and the flag that raises it; the scorer counts it wrong, as every failed call.
    """
    over = over_cap(rec, max_chars)
    if over is None:
        return rec
    name, n = over
    return AnswerRecord(
        qid=rec.qid,
        answerer=rec.answerer,
        status="error",
        answer=None,
        error=(
            f"the reply's {name} is {n:,} characters, over the {max_chars:,}-character answer cap: "
            f"raise it with {ANSWER_CAP_FLAG}"
        ),
        raw=None if rec.raw is None else rec.raw[:max_chars],
        reply_format=rec.reply_format,
    )


def write_answers(
    out_dir: str | Path,
    records: Iterable[AnswerRecord],
    meta: Mapping[str, Any],
    *,
    max_chars: int = MAX_ANSWER_CHARS,
) -> Path:
    """Write ``answers.jsonl`` then ``answers.meta.json`` (last: it marks a complete folder); returns the folder.

    A record with a text field over ``max_chars`` characters is stored as an ``error`` line (:func:`capped`).
    """
    out = Path(out_dir)
    write_jsonl(out / ANSWERS_FILE, (capped(r, max_chars).to_dict() for r in records))
    write_json(out / ANSWERS_META_FILE, dict(meta))
    return out


def read_answers(path: str | Path, *, max_chars: int = MAX_ANSWER_CHARS) -> list[AnswerRecord]:
    """Read an answers file (or the folder holding one), in file order, one line per question.

    A bad line raises :class:`~chronoqa.errors.DataError` naming the file, line, field and value; so does a text
    field longer than ``max_chars`` characters (the error names the cap and the flag that raises it).
    """
    check_cap(max_chars)
    p = answers_file(path)
    if not p.is_file():
        raise DataError(str(p), 0, "(file)", str(p), "an existing answers file", "write one with `chronoqa answer`")
    out: list[AnswerRecord] = []
    seen: set[str] = set()
    for lineno, obj in numbered_jsonl(p):
        status = obj.get("status")
        if status not in STATUSES:
            raise DataError(str(p), lineno, "status", status, f"one of {', '.join(STATUSES)}", "regenerate answers")
        if "qid" not in obj or "answerer" not in obj:
            raise DataError(str(p), lineno, "qid", obj.get("qid"), "qid and answerer fields", "regenerate answers")
        for name in ("qid", "answerer", "answer", "explanation", "error", "raw"):
            if obj.get(name) is not None and not isinstance(obj[name], str):
                raise DataError(str(p), lineno, name, obj[name], "a string or null", "regenerate answers")
        fmt = obj.get("reply_format")
        if fmt is not None and fmt not in REPLY_FORMATS:
            raise DataError(str(p), lineno, "reply_format", fmt, "json, prose or no field", "regenerate answers")
        try:
            rec = AnswerRecord.from_dict(obj)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in ("structured", *err["loc"]))
            raise DataError(
                str(p), lineno, where, err.get("input"), f"a structured answer ({err['msg']})", "regenerate answers"
            ) from None
        over = over_cap(rec, max_chars)
        if over is not None:
            raise DataError(
                str(p),
                lineno,
                over[0],
                f"{over[1]:,} characters",
                f"at most {max_chars:,} characters (the answer cap)",
                f"raise the cap with {ANSWER_CAP_FLAG} {max(over[1], 2 * max_chars)}, or shorten the answer",
            )
        if rec.qid in seen:
            raise DataError(str(p), lineno, "qid", rec.qid, "one line per question", "remove the duplicate line")
        seen.add(rec.qid)
        out.append(rec)
    return out


def read_answers_meta(path: str | Path) -> AnswersMeta:
    """The ``answers.meta.json`` beside an answers file (or in its folder); empty when there is none.

    A field of the wrong type raises :class:`~chronoqa.errors.DataError` naming the file and the field.
    """
    meta = answers_file(path).with_name(ANSWERS_META_FILE)
    data = read_json(meta) if meta.is_file() else {}
    return AnswersMeta.from_dict(data if isinstance(data, dict) else {}, str(meta))
