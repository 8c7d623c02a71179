"""``summary.json``: the summary of a run folder, what the Markdown and HTML reports and the CLI's tables render.

Written by the report stage (:func:`chronoqa.report.build_summary` makes it from an evaluate folder,
:mod:`chronoqa.artifacts.metrics`), read by the renderers, ``chronoqa run``'s tables and
:class:`~chronoqa.pipeline.PipelineResult`. It holds the release's composition, one :class:`RetrievalRow` per
scored run, one :class:`AnswerRow` per scored answer folder, the warnings and the run's manifest.

The record is declared once, as the frozen pydantic models below (on :class:`~chronoqa.artifacts.schema.JsonRecord`):
validation (:meth:`Summary.from_dict`), the JSON form (:meth:`Summary.to_dict`) and a JSON Schema
(``Summary.model_json_schema()``) derive from the declaration. Every field is written (``null`` where a
metric was not computed), so the bytes of ``summary.json`` do not depend on how the summary was made.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from pydantic import ConfigDict, Field

from chronoqa.artifacts.answers import ReplyCounts
from chronoqa.artifacts.changes import ChangeCounts
from chronoqa.artifacts.metrics import Estimate, MetricsBeside, PairedEstimate, ParaphraseCounts, TwinRef, TwoGold
from chronoqa.artifacts.schema import JsonRecord
from chronoqa.io import read_json, write_json

__all__ = [
    "SUMMARY_FILE",
    "AnswerRow",
    "Composition",
    "Drift",
    "FunctionalCounts",
    "MemoryGap",
    "RetrievalRow",
    "RunManifest",
    "ShownCI",
    "SliceCell",
    "Slices",
    "StageLine",
    "Summary",
    "read_summary",
    "write_summary",
]

SUMMARY_FILE = "summary.json"


class _Part(JsonRecord):
    """A part of ``summary.json`` (errors name a summary record; the fix reruns the report stage)."""

    _WHAT: ClassVar[str] = "a summary"
    _FIX: ClassVar[str] = "rerun the report stage (chronoqa run --force), or correct the field"


class ShownCI(_Part):
    """One metric as the report shows it: the value and its 95% CI (``lo``, ``hi``), over ``n`` questions."""

    value: float | None
    lo: float | None
    hi: float | None
    n: int

    @classmethod
    def of(cls, estimate: Estimate | None) -> ShownCI | None:
        """The estimate of a metrics file as shown (``None`` when the metric was not computed)."""
        if estimate is None:
            return None
        return cls(value=estimate.value, lo=estimate.ci_low, hi=estimate.ci_high, n=estimate.n)


class SliceCell(MetricsBeside, _Part):
    """One slice of a row: its size, whether it is small, and the row's slice metrics (written beside them)."""

    metrics: dict[str, ShownCI | None]
    n_questions: int
    small: bool

    def get(self, metric: str) -> ShownCI | None:
        """One metric of the slice (``None`` when not computed)."""
        return self.metrics.get(metric)


class MemoryGap(_Part):
    """One answer folder's memory gap (``evaluate --twin``): its accuracy on the real release minus on the twin.

    ``all`` is the paired estimate (``a`` real, ``b`` twin, ``diff`` with its paired 95% CI) over every question
    that has a twin. ``by_operator`` holds a question family's (operator's) estimate only where the family has at
    least ``min_slice`` paired questions; ``n_small_families`` counts the families left out (too few questions for
    their interval to say anything).
    """

    twin: TwinRef
    metric: str
    all: PairedEstimate
    by_operator: dict[str, PairedEstimate]
    min_slice: int
    n_small_families: int


Slices = dict[str, dict[str, SliceCell]]
"""A row's slices: by group (``by_operator``, ``by_complexity``; a group without a slice is absent), by name."""


class RetrievalRow(_Part):
    """One scored run."""

    name: str
    spec: str
    control: bool
    n_questions: int
    metrics: dict[str, ShownCI | None]
    slices: Slices
    warnings: list[str]


class AnswerRow(_Part):
    """One scored answer folder."""

    name: str
    answerer: str
    run: str | None
    """The spec of the run whose facts the answerer read (``None``: none)."""
    run_control: bool
    protocol: str | None
    replies: ReplyCounts | None
    """A structured protocol's parse rate."""
    model: str | None
    by_status: dict[str, int]
    metrics: dict[str, ShownCI | None]
    judge: dict[str, ShownCI]
    """An LLM judge's figures against the rules (empty without a judge)."""
    n_time_refs_missing: int | None
    slices: Slices
    warnings: list[str]
    paraphrases: ParaphraseCounts | None = None
    """Answers to a paraphrase set: the set's counts (the key is absent for other answers)."""
    memory_gap: MemoryGap | None = None
    """Answers scored against answers to a counterfactual twin (the key is absent for other answers)."""
    two_gold: TwoGold | None = None
    """Answers on a refreshed release: the carried questions under the old gold and the new (absent otherwise)."""


class FunctionalCounts(_Part):
    """Questions whose distractor / stale negatives are functional, of ``n`` flagged."""

    dist: int
    stale: int
    n: int


class Drift(_Part):
    """A refreshed release (``chronoqa refresh``): the version it was refreshed from and to, and its change counts."""

    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)

    from_: str | None = Field(alias="from")
    """The previous release's version (the JSON key is ``from``)."""
    to: str | None
    changes: ChangeCounts


class Composition(_Part):
    """The release: its size, splits, operator x complexity cells and counts by answer type and cardinality."""

    name: str
    n_questions: int
    n_scored: int
    split: str
    n_docs: int
    by_split: dict[str, int]
    operators: list[str]
    complexities: list[str]
    cells: dict[str, dict[str, int]]
    by_answer_type: dict[str, int]
    by_cardinality: dict[str, int]
    time_tag_hidden: int
    functional: FunctionalCounts
    as_of: str | None
    drift: Drift | None
    """A refreshed release's drift (``None``: not a refreshed release)."""


class StageLine(_Part):
    """One stage of the run folder: its name, how many files it wrote, its fingerprint (never its timing)."""

    name: str | None
    files: int
    fingerprint: str | None


class RunManifest(_Part):
    """The effective configuration (without the run folder's path) and the stages."""

    config: dict[str, Any]
    stages: list[StageLine]


class Summary(_Part):
    """``summary.json``: the whole summary of a run.

    Adding a figure to the report: a metric of a block is already in the metrics file (add its name to the
    tuple of metrics :mod:`chronoqa.report.summary` shows); a new field is declared here, on its row, and set
    where :func:`chronoqa.report.build_summary` makes the row.
    """

    format: int
    composition: Composition
    retrieval: list[RetrievalRow]
    answers: list[AnswerRow]
    warnings: list[str]
    manifest: RunManifest


def write_summary(folder: str | Path, summary: Summary) -> Path:
    """Write ``<folder>/summary.json`` (sorted keys, stable bytes); returns its path."""
    path = Path(folder) / SUMMARY_FILE
    write_json(path, summary.to_dict())
    return path


def read_summary(folder: str | Path) -> Summary:
    """Read ``<folder>/summary.json``; a bad field raises :class:`~chronoqa.errors.DataError` naming it."""
    path = Path(folder) / SUMMARY_FILE
    return Summary.from_dict(read_json(path), str(path))
