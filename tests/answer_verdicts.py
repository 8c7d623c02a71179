"""Helpers of the answer judge's unit tests: a question from keywords, the A verdict of one reply."""

from __future__ import annotations

from typing import Any

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Question
from chronoqa.score.answers import score_answer


def q(**kw: Any) -> Question:
    """A question asked as of 2000, with the fields a test does not give left empty."""
    base: dict[str, Any] = {"id": "q", "split": "test", "question": "?", "t_query": "2000", "S_star": ()}
    base.update(kw)
    return Question(**base)


def judged(question: Question, reply: str, cands: tuple[str, ...] = (), context: tuple[str, ...] | None = None) -> str:
    """The A verdict (right / wrong / undecided) of ``reply`` among the candidates ``cands``."""
    rec = AnswerRecord("q", "t", "ok", reply, None)
    return score_answer(question, rec, candidates=cands, context=context).verdict
