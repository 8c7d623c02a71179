"""Alias of :mod:`chronoqa.score.tempbench` under TempBench's module name (``tempbench_eval``)."""

from __future__ import annotations

from chronoqa.score.tempbench import aggregate, score_question

__all__ = ["aggregate", "score_question"]
