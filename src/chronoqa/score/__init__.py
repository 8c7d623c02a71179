"""Scoring: retrieval evidence, ranking measures, answer and time accuracy, statistics.

TRP, CCR, coverage and negative-aware rates; every number is reported with its bootstrap CI.

* :mod:`chronoqa.score.tempbench` — TempBench's drop-in ``score_question`` / ``aggregate``.
* :mod:`chronoqa.score.evidence` — the definitions behind them (identity, validity, TRP, CCR).
* :mod:`chronoqa.score.measures` — R@k, P@k, nDCG@k, MRR, TRP, CCR as parseable measure specs.
* :mod:`chronoqa.score.answers`, :mod:`chronoqa.score.time_accuracy` — A, T, AT, A − AT, outdated
  (careful by default, strict beside it); :mod:`chronoqa.score.judge_names` and
  :mod:`chronoqa.score.judge_time` — the name matching and date attribution careful judging rests on;
  :mod:`chronoqa.score.candidates` — the candidates a corpus knows (the LLM judge: :mod:`chronoqa.judge`);
  :mod:`chronoqa.score.structured` — time accuracy read from a structured reply's fields (``structured@1``).
* :mod:`chronoqa.score.stats` — bootstrap CIs, paired tests, McNemar, Benjamini–Hochberg.
* :mod:`chronoqa.score.evaluate` — ``evaluate``, the library entry of ``chronoqa evaluate`` (import it
  from there: ``from chronoqa.score.evaluate import evaluate``).
"""

from __future__ import annotations

from chronoqa.score.measures import Measure
from chronoqa.score.tempbench import aggregate, score_question

__all__ = ["Measure", "aggregate", "score_question"]
