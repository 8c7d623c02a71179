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
from chronoqa.artifacts.changes import CHANGE_CLASSES, CHANGES_FILE, ChangeRecord, read_changes
from chronoqa.artifacts.release import Release

__all__ = ["drift_counts", "for_release", "two_gold"]

_CARRIED = ("unchanged", "gold_changed")


def read_release_changes(release: Release) -> list[ChangeRecord] | None:
    """The release's change records (``None``: not a refreshed release)."""
    path = release.path / CHANGES_FILE
    return read_changes(path) if path.is_file() else None


def drift_counts(changes: list[ChangeRecord]) -> dict[str, int]:
    """Questions per change class."""
    return {k: sum(1 for c in changes if c.change == k) for k in CHANGE_CLASSES}


def for_release(release: Release, answers: Mapping[str, AnswerRecord]) -> tuple[dict[str, AnswerRecord], int]:
    """The answers without those to questions the refresh retired, and how many were dropped (0: not refreshed)."""
    changes = read_release_changes(release)
    if changes is None:
        return dict(answers), 0
    retired = {c.id for c in changes if c.change == "retired"}
    return {k: v for k, v in answers.items() if k not in retired}, sum(1 for k in answers if k in retired)


def two_gold(release: Release, answers: Mapping[str, AnswerRecord], **kw: Any) -> dict[str, Any] | None:
    """Answers scored on the carried questions against the old gold and the new (``None``: not a refreshed release).

    ``kw`` goes to :func:`chronoqa.score.evaluate.evaluate` (seed, n_bootstrap, split, answer_rule ...).
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
    out: dict[str, Any] = {"n_questions": len(carried), "answered": len(scored), "drift": drift_counts(changes)}
    for name, qs in golds.items():
        rel = Release(release.path, questions=qs, corpus=release.corpus, flags=release.flags, manifest=release.manifest)
        out[name] = evaluate(rel, answers=scored, **kw).to_dict()["answers"]["all"]
    return out
