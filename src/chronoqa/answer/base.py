"""The answer record and the answerer interface shared by baselines and the LLM answerer."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from chronoqa.records import Question

__all__ = ["STATUSES", "AnswerContext", "AnswerRecord", "Answerer", "Evidence"]

Evidence = Mapping[str, Any]
"""One retrieved fact as it appears in a run file hit: ``s``, ``r``, ``o``, ``t_start``, ``t_end``, ``doc_id``..."""

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


@dataclass(frozen=True)
class AnswerContext:
    """What an answerer may use besides the question: the training split (for priors) and a cache folder."""

    train: Sequence[Question] = ()
    cache_dir: str | None = None
    progress: Callable[[int], None] | None = None


class Answerer(Protocol):
    """Answers questions, optionally from retrieved facts; yields one record per question, in order."""

    spec: str
    uses_evidence: bool

    def meta(self) -> dict[str, Any]:
        """Parameters for ``answers.meta.json`` (protocol, model, ...)."""
        ...

    def answer(
        self, questions: Sequence[Question], evidence: Mapping[str, Sequence[Evidence]], context: AnswerContext
    ) -> Iterator[AnswerRecord]:
        """One :class:`AnswerRecord` per question, in the order given."""
        ...
