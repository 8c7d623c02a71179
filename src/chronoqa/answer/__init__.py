"""Answering: LLM client and cache, prompt protocols, offline baselines, and the answer stage.

Answerers are built from spec strings (:func:`make_answerer`): ``extractive``, ``prior``,
``fake(...)``, ``llm(model=...,base_url=...)``. :func:`answer_release` writes ``answers.jsonl`` and
``answers.meta.json`` for one answerer over one release (and one run file).
"""

from __future__ import annotations

from chronoqa.answer.base import STATUSES, AnswerContext, Answerer, AnswerRecord
from chronoqa.answer.registry import ANSWERERS, BASELINES, make_answerer, parse_spec
from chronoqa.answer.runner import (
    ANSWERS_FILE,
    ANSWERS_META_FILE,
    AnswerSummary,
    answer_release,
    load_hits,
    read_answers,
)

__all__ = [
    "ANSWERERS",
    "ANSWERS_FILE",
    "ANSWERS_META_FILE",
    "BASELINES",
    "STATUSES",
    "AnswerContext",
    "AnswerRecord",
    "AnswerSummary",
    "Answerer",
    "answer_release",
    "load_hits",
    "make_answerer",
    "parse_spec",
    "read_answers",
]
