"""The answerer interface shared by baselines and the LLM answerer (the record: :mod:`chronoqa.artifacts.answers`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from chronoqa.artifacts.answers import STATUSES, AnswerRecord
from chronoqa.records import Doc, Question

__all__ = ["STATUSES", "AnswerContext", "AnswerRecord", "Answerer", "Evidence"]

Evidence = Mapping[str, Any]
"""One retrieved fact as it appears in a run file hit: ``s``, ``r``, ``o``, ``t_start``, ``t_end``, ``doc_id``..."""


@dataclass(frozen=True)
class AnswerContext:
    """What an answerer may use besides the question: the training split (for priors) and a cache folder.

    ``corpus``: the release's documents, read only when called (the open-book protocol shows rows of it).
    """

    train: Sequence[Question] = ()
    cache_dir: str | None = None
    progress: Callable[[int], None] | None = None
    corpus: Callable[[], Sequence[Doc]] | None = None


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
