"""The judgments of the annotation protocol (docs/annotation-protocol.md) and the judgments file format."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FLAGGING", "JUDGMENTS", "JUDGMENTS_FORMAT", "VALUES", "Judgment"]

JUDGMENTS_FORMAT = "chronoqa-judgments/1"
VALUES = ("yes", "no", "unsure")  # "unsure" counts as no rating (missing) in agreement and consensus


@dataclass(frozen=True, slots=True)
class Judgment:
    """One question an annotator answers about a benchmark question (yes / no / unsure)."""

    name: str
    key: str  # the keyboard shortcut that focuses it in the annotation page
    prompt: str
    error_if: str  # the answer that counts as a defect of the question


JUDGMENTS: tuple[Judgment, ...] = (
    Judgment("clear", "1", "Is the question clear (one reading)?", "no"),
    Judgment("gold_correct", "2", "Is the gold answer right in the world at the asked time?", "no"),
    Judgment("unique", "3", "Is the answer unique in the world (no other correct answer)?", "no"),
    Judgment("needs_time", "4", "Does the answer depend on the time in the question?", "no"),
    Judgment("natural", "5", "Is the question natural (as a person would ask it)?", "no"),
)
# Disagreement on these flags a question as low-confidence; naturalness is reported but does not flag
# (TempBench found it unreliable between annotators).
FLAGGING = ("clear", "gold_correct", "unique", "needs_time")
