"""Scores on a refreshed release under both golds, so that a number reported on the old release carries forward.

A release written by ``chronoqa refresh`` holds ``changes.jsonl`` (:mod:`chronoqa.artifacts.changes`): each
question it carried from the old release keeps its old id, and its record keeps the old gold. Answers made for the
OLD release are scored here on the carried questions (unchanged and gold-changed) twice: against the old gold
and against the new one, with the same answers, so the difference is the drift alone. Answers to retired
questions are counted, not scored (those questions are not in the release).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.artifacts.changes import CHANGES_FILE, ChangeCounts, ChangeRecord, read_changes
from chronoqa.artifacts.metrics import SliceMetrics, TwoGold
from chronoqa.artifacts.release import Release
from chronoqa.errors import ChronoqaError

__all__ = ["drift_counts", "for_release", "two_gold"]

_CARRIED = ("unchanged", "gold_changed")


def read_release_changes(release: Release) -> list[ChangeRecord] | None:
    """The release's change records (``None``: not a refreshed release)."""
    path = release.path / CHANGES_FILE
    return read_changes(path) if path.is_file() else None


def drift_counts(changes: list[ChangeRecord]) -> ChangeCounts:
    """Questions per change class."""
    return ChangeCounts.of(changes)


def for_release(release: Release, answers: Mapping[str, AnswerRecord]) -> tuple[dict[str, AnswerRecord], int]:
    """The answers without those to questions the refresh retired, and how many were dropped (0: not refreshed)."""
    changes = read_release_changes(release)
    if changes is None:
        return dict(answers), 0
    retired = {c.id for c in changes if c.change == "retired"}
    return {k: v for k, v in answers.items() if k not in retired}, sum(1 for k in answers if k in retired)


def two_gold(
    release: Release, answers: Mapping[str, AnswerRecord], retired_dropped: int = 0, **kw: Any
) -> TwoGold | None:
    """Answers scored on the carried questions against the old gold and the new (``None``: not a refreshed release).

    ``retired_dropped`` is how many answers to retired questions :func:`for_release` dropped (recorded as
    ``retired_answers_dropped``). ``kw`` goes to :func:`chronoqa.score.evaluate.evaluate` (seed, n_bootstrap,
    split, answer_rule ...).
    """
    from chronoqa.score.evaluate import evaluate

    changes = read_release_changes(release)
    if changes is None:
        return None
    old = {c.id: c for c in changes if c.change in _CARRIED}
    carried = [q for q in release.questions if q.id in old]
    golds = {
        "new_gold": carried,
        "old_gold": [replace(q, answers=old[q.id].old_answers, answer_ids=old[q.id].old_answer_ids) for q in carried],
    }
    scored = {k: v for k, v in answers.items() if k in old}
    blocks: dict[str, SliceMetrics] = {}
    for name, qs in golds.items():
        rel = Release(release.path, questions=qs, corpus=release.corpus, flags=release.flags, manifest=release.manifest)
        block = evaluate(rel, answers=scored, **kw).metrics.answers
        if block is None or block.all is None:
            raise ChronoqaError(f"{release.path}: no carried question was scored under the {name.replace('_', ' ')}")
        blocks[name] = block.all
    return TwoGold(
        n_questions=len(carried),
        answered=len(scored),
        drift=drift_counts(changes),
        old_gold=blocks["old_gold"],
        new_gold=blocks["new_gold"],
        retired_answers_dropped=retired_dropped,
    )
