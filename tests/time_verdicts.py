"""Helpers of the time judge's unit tests: a question from keywords, the T verdict of one explanation."""

from __future__ import annotations

from typing import Any

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Question
from chronoqa.score.time_accuracy import score_time


def q(**kw: Any) -> Question:
    """A question with the fields a test does not give left empty."""
    base: dict[str, Any] = {"id": "q", "split": "test", "question": "?", "t_query": None, "S_star": ()}
    base.update(kw)
    return Question(**base)


def verdict(question: Question, expl: str, entities: tuple[str, ...] = ()) -> str:
    """The T verdict (right / wrong / undecided) of ``expl`` explaining the question's first gold answer."""
    row = score_time(question, AnswerRecord("q", "t", "ok", question.answers[0], expl), True, entities=entities)
    return "undecided" if row.undecided else ("right" if row.T else "wrong")


def refs(*pairs: tuple[str, str]) -> tuple[dict[str, str], ...]:
    """The answer's time references, as (which, value) pairs."""
    return tuple({"which": which, "value": value, "of": "answer"} for which, value in pairs)
