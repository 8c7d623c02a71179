"""Paraphrase sets scored together: a question counts only if every phrasing of it is answered right.

The phrasings of a question are the question itself and its accepted paraphrases
(:mod:`chronoqa.artifacts.paraphrases`; answer ids ``<qid>~p<i>``). Each phrasing is judged as any answer
is (:class:`~chronoqa.score.candidates.Judging`, the gold of the original), then per question:

* ``A_all_k``: 1 when every phrasing is right (a missing answer is wrong), else 0;
* ``flip_rate``: 1 when the verdicts differ across phrasings (some right, some wrong), else 0;
* ``A_original``: the original phrasing's verdict, over the same questions, for comparison.

Only questions with at least one accepted paraphrase are in these denominators; evaluate attaches the
bootstrap CIs (:mod:`chronoqa.score.stats`) like every other block.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from chronoqa.artifacts.answers import AnswerRecord, read_answers
from chronoqa.artifacts.metrics import ParaphraseCounts
from chronoqa.artifacts.paraphrases import ParaphraseRecord, accepted_by_question, read_paraphrases
from chronoqa.errors import ChronoqaError
from chronoqa.records import Question
from chronoqa.score.candidates import Judging

__all__ = ["ParaphraseSource", "Phrasings", "phrasing_verdicts", "set_metrics", "split_answers"]

Phrasings = dict[str, tuple[tuple[str, str, bool], ...]]
"""Per question with a set: ``(paraphrase id, text, right)`` for each accepted paraphrase, in set order."""

ParaphraseSource = str | Path | Sequence[ParaphraseRecord]
"""A paraphrase set: its file, or its records."""


def _records(source: ParaphraseSource) -> list[ParaphraseRecord]:
    return read_paraphrases(source) if isinstance(source, (str, Path)) else list(source)


def split_answers(
    answers: Mapping[str, AnswerRecord] | Sequence[AnswerRecord] | str | Path, source: ParaphraseSource
) -> tuple[dict[str, AnswerRecord], dict[str, AnswerRecord], list[ParaphraseRecord]]:
    """The answers to original questions, the answers to accepted paraphrases (by id), and the set's records.

    An answer to a paraphrase the set rejected, or does not have, is an error naming its id.
    """
    if isinstance(answers, Mapping):
        recs = list(answers.values())
    elif isinstance(answers, (str, Path)):
        recs = list(read_answers(answers))
    else:
        recs = list(answers)
    records = _records(source)
    kept = {r.pid for r in records if r.accepted}
    every = {r.pid for r in records}
    originals, phrased = {}, {}
    for rec in recs:
        if rec.qid in kept:
            phrased[rec.qid] = rec
        elif rec.qid in every:
            raise ChronoqaError(
                f"an answer to paraphrase {rec.qid!r}, which the set rejected: answer the accepted paraphrases only"
            )
        else:
            originals[rec.qid] = rec
    return originals, phrased, records


def phrasing_verdicts(
    q: Question, paraphrases: Sequence[ParaphraseRecord], answers: Mapping[str, AnswerRecord], judging: Judging
) -> list[bool]:
    """The verdict on each phrasing of ``q`` (the original first, then its paraphrases in set order)."""
    phrasings = [q, *(dataclasses.replace(q, id=p.pid, question=p.question) for p in paraphrases)]
    return [judging.answer(p, answers.get(p.id)).correct for p in phrasings]


def set_metrics(
    qs: Sequence[Question],
    records: Sequence[ParaphraseRecord],
    answers: Mapping[str, AnswerRecord],
    judging: Judging,
) -> tuple[list[Question], dict[str, tuple[np.ndarray, np.ndarray]], ParaphraseCounts, Phrasings]:
    """The questions with a set, their per-question metrics and counts, and each paraphrase's verdict.

    The metrics: ``A_all_k``, ``flip_rate`` and ``A_original``; the verdicts: :data:`Phrasings`.
    """
    kept = accepted_by_question(records)
    with_set = [q for q in qs if kept.get(q.id)]
    rows = [phrasing_verdicts(q, kept[q.id], answers, judging) for q in with_set]
    n = len(rows)
    ones = np.ones(n)
    metrics = {
        "A_all_k": (np.array([float(all(v)) for v in rows]), ones),
        "flip_rate": (np.array([float(len(set(v)) > 1) for v in rows]), ones),
        "A_original": (np.array([float(v[0]) for v in rows]), ones),
    }
    info = ParaphraseCounts(
        n_questions_with_set=n,
        n_questions_without_set=len(qs) - n,
        n_phrasings=sum(len(v) for v in rows),
        n_phrasings_answered=sum(1 for q in with_set for p in kept[q.id] if p.pid in answers),
    )
    phrasings = {
        q.id: tuple((p.pid, p.question, v) for p, v in zip(kept[q.id], row[1:], strict=True))
        for q, row in zip(with_set, rows, strict=True)
    }
    return with_set, metrics, info, phrasings
