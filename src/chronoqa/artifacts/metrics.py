"""The evaluate folder: one metrics file per scored run and per scored answer folder.

Layout (what the pipeline's evaluate stage writes and the report reads)::

    retrieval/<name>.json   the metrics of one run: :class:`EvaluationMetrics` (``evaluate(...).metrics``)
    answers/<name>.json     the metrics of one answer folder, plus ``"answer_meta"``: its ``answers.meta.json``
    <kind>/<name>.verdicts.jsonl   one line per scored question: how that run or answer folder scored it
                                   (what the report's question explorer shows; see :func:`write_verdicts`)

A metrics file's record is declared once, as the frozen pydantic models below: validation
(:meth:`EvaluationMetrics.from_dict`), the JSON form (:meth:`EvaluationMetrics.to_dict`) and a JSON
Schema (``EvaluationMetrics.model_json_schema()``) all derive from the declaration. One rule covers
the optional keys: a field with a default is written only when it was given (``retrieval`` only when
a run was scored, ``small_slice`` only on a small slice, ``mcnemar_p`` only for binary outcomes), so
``to_dict(from_dict(d)) == d``. A metrics file is :class:`MetricsRecord` (its name is the file stem);
the folder is :class:`MetricsFolder`. Files are written with :func:`chronoqa.io.write_json` (sorted,
stable bytes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, NamedTuple, overload

from pydantic import (
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
    model_validator,
)

from chronoqa.artifacts.answers import AnswersMeta, ReplyCounts
from chronoqa.artifacts.changes import ChangeCounts
from chronoqa.artifacts.schema import JsonRecord
from chronoqa.errors import DataError
from chronoqa.io import read_json, read_jsonl, read_text, write_json, write_jsonl

__all__ = [
    "METRICS_KINDS",
    "VERDICTS_SUFFIX",
    "AnswerComparison",
    "AnswerVerdict",
    "Estimate",
    "EvaluationMetrics",
    "MetricBlock",
    "MetricsBeside",
    "MetricsFolder",
    "MetricsKind",
    "MetricsRecord",
    "PairedBlock",
    "PairedEstimate",
    "ParaphraseCounts",
    "Phrasing",
    "RetrievalVerdict",
    "RunComparison",
    "RunRef",
    "SliceMetrics",
    "TwinRef",
    "TwinTransform",
    "TwoGold",
    "Verdict",
    "read_metrics",
    "read_verdicts",
    "write_metrics",
    "write_verdicts",
]

MetricsKind = Literal["retrieval", "answers"]
METRICS_KINDS: tuple[MetricsKind, ...] = ("retrieval", "answers")
VERDICTS_SUFFIX = ".verdicts.jsonl"
"""The per-question verdicts beside a metrics file (``<name>.verdicts.jsonl``; never matched by ``*.json``)."""


class _Record(JsonRecord):
    """A part of a metrics record (errors name a metrics record; the fix reruns the evaluate stage)."""

    _WHAT: ClassVar[str] = "a metrics"
    _FIX: ClassVar[str] = "rerun the evaluate stage (chronoqa run --force), or correct the field"


class MetricsBeside(JsonRecord):
    """A record whose ``metrics`` (by metric name) are written flat, beside the record's own keys.

    :class:`SliceMetrics` (``n_questions``, ``small_slice``) and the summary's slice cells are such records.
    """

    @model_validator(mode="before")
    @classmethod
    def _nest(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and "metrics" not in data:
            own = set(cls.model_fields) - {"metrics"}
            return {k: v for k, v in data.items() if k in own} | {
                "metrics": {k: v for k, v in data.items() if k not in own}
            }
        return data

    @model_serializer(mode="wrap")
    def _flatten(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        return out.pop("metrics") | out


class Estimate(_Record):
    """One metric on one slice: its value, its bootstrap 95% CI and ``n``, the questions it is defined on."""

    value: float | None
    ci_low: float | None
    ci_high: float | None
    n: int


class SliceMetrics(MetricsBeside, _Record):
    """Every metric of one slice. In JSON the metric names sit beside ``n_questions`` and ``small_slice``."""

    metrics: dict[str, Estimate]
    n_questions: int
    small_slice: bool = False
    """True when the slice has fewer than ``min_slice`` questions (its CIs are wide)."""

    def get(self, metric: str) -> Estimate | None:
        """One metric's estimate (``None`` when it was not computed)."""
        return self.metrics.get(metric)


class MetricBlock(_Record):
    """One block of metrics (``retrieval``, ``answers``, ``time_accuracy``): overall and per slice."""

    all: SliceMetrics | None = None
    """Every scored question (absent when the block has no metric)."""
    by_complexity: dict[str, SliceMetrics] = Field(default_factory=dict)
    by_operator: dict[str, SliceMetrics] = Field(default_factory=dict)
    by_kind: dict[str, SliceMetrics] = Field(default_factory=dict)
    """``recall`` (1-hop questions of TempBench's operators) and ``reasoning`` (the rest): chronoqa.score.kinds."""
    by_cutoff: dict[str, SliceMetrics] = Field(default_factory=dict)
    """``evaluate --cutoff``: questions whose gold became true before / after the cutoff (docs/metrics.md)."""
    n_no_refs: int | None = None
    """``time_accuracy`` only: the questions without a gold time reference (T undefined)."""

    def slices(self) -> dict[str, dict[str, SliceMetrics]]:
        """The slice groups present, by group name, in declaration order: every ``by_*`` field is a group.

        A new slice group is one more ``by_<name>`` field here (and on :class:`PairedBlock`), filled by
        ``chronoqa.score.evaluate``; the evaluate CLI's tables and the report's summary read the groups from here.
        """
        groups = ((g, getattr(self, g)) for g in type(self).model_fields if g.startswith("by_"))
        return {g: s for g, s in groups if s}


class PairedEstimate(_Record):
    """System A against system B on one metric and slice: ``diff = a - b`` with its CI and tests."""

    a: float | None
    b: float | None
    diff: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float | None
    n: int
    test: str
    q_value_bh: float | None
    """Benjamini-Hochberg q-value across the slices of the metric."""
    mcnemar_p: float | None = None
    """McNemar's p on the questions where both outcomes are defined (binary outcomes only)."""


class PairedBlock(_Record):
    """One metric's paired comparison, overall and per slice."""

    all: PairedEstimate
    by_complexity: dict[str, PairedEstimate] = Field(default_factory=dict)
    by_operator: dict[str, PairedEstimate] = Field(default_factory=dict)
    by_kind: dict[str, PairedEstimate] = Field(default_factory=dict)
    by_cutoff: dict[str, PairedEstimate] = Field(default_factory=dict)


class RunRef(_Record):
    """The scored run: its name and its meta data (the retriever's spec, whether it is a control, ...)."""

    name: str
    meta: dict[str, Any]


class RunComparison(_Record):
    """A second run (``b``) against the scored one (``a``)."""

    a: str
    b: str
    b_retrieval: MetricBlock
    paired: dict[str, PairedBlock]


class AnswerComparison(_Record):
    """A second answer file against the scored one."""

    b_answers: MetricBlock
    paired: dict[str, PairedBlock]


class ParaphraseCounts(_Record):
    """The paraphrase set of an evaluation: questions with and without a set, phrasings, phrasings answered."""

    n_questions_with_set: int
    n_questions_without_set: int
    n_phrasings: int
    n_phrasings_answered: int


class TwinTransform(_Record):
    """A twin's transform as its manifest records it (:meth:`chronoqa.generate.twin.Transform.record`).

    ``kind`` and ``seed`` always; the other keys belong to one kind each and are written only for it.
    """

    _WHAT: ClassVar[str] = "a twin manifest's transform"
    _FIX: ClassVar[str] = "make the twin again (chronoqa twin), or correct the field"

    kind: str
    seed: int
    years: int | None = None
    """``shift_years``: the years added to each date."""
    unshifted_non_years: dict[str, list[int]] | None = None
    unshifted_before_year: int | None = None
    labels_with_years_moved: int | None = None
    """``shift_years``: labels whose disambiguator's years moved too ("(footballer, born 1963)")."""
    entities_renamed: int | None = None
    """``rename_entities``: how many entities got a new name."""
    names: str | None = None
    roles: int | None = None
    """``permute_holders``: the roles whose holders were permuted, and how many holders moved."""
    holders_moved: int | None = None


class TwinRef(_Record):
    """``evaluate --twin``: the twin release, its transform, and how many scored questions have a twin or not."""

    release: str
    transform: TwinTransform | None
    paired: int
    unpaired: int


class TwoGold(_Record):
    """A refreshed release: the same answers on the carried questions, scored against the old gold and the new.

    ``drift`` counts the refresh's questions per change class; answers to retired questions are not scored,
    ``retired_answers_dropped`` counts them (``docs/refresh.md``).
    """

    n_questions: int
    """The carried questions (unchanged and gold-changed)."""
    answered: int
    drift: ChangeCounts
    old_gold: SliceMetrics
    new_gold: SliceMetrics
    retired_answers_dropped: int


class EvaluationMetrics(_Record):
    """The metrics file of one evaluation (``chronoqa evaluate --out``, ``evaluate/<kind>/<name>.json``)."""

    n_questions: int
    functional_only: bool | str | None
    split: str | None
    seed: int
    n_bootstrap: int
    confidence: float
    min_slice: int
    validity_mode: str
    warnings: list[str]
    n_evidence_questions: int | None = None
    """Run scored: the questions with evidence (a non-empty S*), the retrieval denominators."""
    n_no_gold_evidence: int | None = None
    run: RunRef | None = None
    retrieval: MetricBlock | None = None
    compare: RunComparison | None = None
    answer_rule: str | None = None
    answers: MetricBlock | None = None
    time_accuracy: MetricBlock | None = None
    judge: dict[str, Any] | None = None
    """The LLM judge's meta data, when one judged time accuracy."""
    replies: ReplyCounts | None = None
    """A structured protocol's replies: how many parsed as JSON."""
    compare_answers: AnswerComparison | None = None
    paraphrase_sets: MetricBlock | None = None
    """Answers to a paraphrase set: ``A_all_k`` (every phrasing right), ``flip_rate``, ``A_original``."""
    paraphrases: ParaphraseCounts | None = None
    """The paraphrase set's counts."""
    cutoff: str | None = None
    """``evaluate --cutoff``: the knowledge cutoff of the ``by_cutoff`` slices."""
    memory_gap: AnswerComparison | None = None
    """``evaluate --twin``: these answers (A) against the answers to a counterfactual twin (B), paired by
    ``twin_of.jsonl``; ``A - B`` is the memory gap."""
    twin: TwinRef | None = None
    """``evaluate --twin``: the twin release, its transform and how many scored questions have a twin."""
    two_gold: TwoGold | None = None
    """``evaluate`` on a refreshed release: the same answers under the old gold and the new."""


@dataclass(frozen=True)
class MetricsRecord:
    """One metrics file: evaluate's metrics and, for answers, the answer folder's meta.

    ``metrics`` and ``answer_meta`` may be given as their JSON forms (mappings), which are validated.
    """

    name: str
    metrics: EvaluationMetrics
    answer_meta: AnswersMeta | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.metrics, EvaluationMetrics):
            object.__setattr__(self, "metrics", EvaluationMetrics.from_dict(self.metrics, self.name))
        if self.answer_meta is not None and not isinstance(self.answer_meta, AnswersMeta):
            object.__setattr__(self, "answer_meta", AnswersMeta.from_dict(self.answer_meta, self.name))

    @property
    def n_questions(self) -> int:
        """Questions scored."""
        return self.metrics.n_questions

    @property
    def warnings(self) -> tuple[str, ...]:
        """The scorer's warnings."""
        return tuple(self.metrics.warnings)

    @property
    def run_meta(self) -> Mapping[str, Any]:
        """The scored run's meta data (empty for answers)."""
        return self.metrics.run.meta if self.metrics.run is not None else {}

    @property
    def spec(self) -> str:
        """The scored run's spec (the name when it has none)."""
        return str(self.run_meta.get("spec", self.name))

    @property
    def control(self) -> bool:
        """Whether the scored run comes from a control retriever."""
        return bool(self.run_meta.get("control", False))

    def block(self, key: Literal["retrieval", "answers", "time_accuracy", "paraphrase_sets"]) -> MetricBlock:
        """One block of metrics (``retrieval``, ``answers``, ``time_accuracy``, ``paraphrase_sets``); empty: absent."""
        value = getattr(self.metrics, key)
        return value if isinstance(value, MetricBlock) else MetricBlock()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``answer_meta`` added for answers)."""
        out = self.metrics.to_dict()
        if self.answer_meta is not None:
            out["answer_meta"] = self.answer_meta.to_dict()
        return out

    @classmethod
    def from_dict(cls, name: str, d: Mapping[str, Any], file: str | None = None) -> MetricsRecord:
        """Read the JSON form (``file`` names the file in a validation error)."""
        data = {k: v for k, v in d.items() if k != "answer_meta"}
        meta = d.get("answer_meta")
        metrics = EvaluationMetrics.from_dict(data, file or name)
        return cls(name, metrics, None if meta is None else AnswersMeta.from_dict(meta, file or name))


@dataclass(frozen=True)
class MetricsFolder:
    """Every metrics file of an evaluate folder, sorted by name within each kind."""

    retrieval: tuple[MetricsRecord, ...] = ()
    answers: tuple[MetricsRecord, ...] = field(default_factory=tuple)

    def write(self, folder: str | Path) -> Path:
        """Write every record under ``folder``; returns it."""
        for kind in METRICS_KINDS:
            for record in getattr(self, kind):
                write_metrics(folder, kind, record)
        return Path(folder)


def write_metrics(folder: str | Path, kind: MetricsKind, record: MetricsRecord) -> Path:
    """Write one metrics file (``<folder>/<kind>/<name>.json``); returns its path."""
    path = _kind_dir(folder, kind) / f"{record.name}.json"
    write_json(path, record.to_dict())
    return path


def read_metrics(folder: str | Path) -> MetricsFolder:
    """Read an evaluate folder (missing kinds are empty)."""
    root = Path(folder)
    kinds: dict[str, tuple[MetricsRecord, ...]] = {}
    for kind in METRICS_KINDS:
        kinds[kind] = tuple(
            MetricsRecord.from_dict(p.stem, read_json(p), str(p)) for p in sorted((root / kind).glob("*.json"))
        )
    return MetricsFolder(kinds["retrieval"], kinds["answers"])


def _kind_dir(folder: str | Path, kind: MetricsKind) -> Path:
    if kind not in METRICS_KINDS:
        raise ValueError(f"metrics kind {kind!r}: expected one of {', '.join(METRICS_KINDS)}")
    return Path(folder) / kind


class RetrievalVerdict(_Record):
    """How one run scored one question (a line of ``retrieval/<name>.verdicts.jsonl``)."""

    qid: str
    CCR: int
    stale_hit: bool | None
    """``None``: undefined (no functional stale negative)."""
    dist_hit: bool | None
    n_retrieved: int
    marks: list[list[int]]
    """``[fact index, rank]`` for every returned hit that is one of the question's facts."""
    Outrank: int | None = None
    """Outrank@10: 1 when every time-valid gold fact comes above every negative; ``None``: undefined or not scored."""


class Phrasing(NamedTuple):
    """One accepted paraphrase of a question and how the answers to it scored (a JSON array in the verdicts)."""

    pid: str
    """The paraphrase id (``<qid>~p<i>``)."""
    text: str
    A: int
    answer: str | None
    """The answer's text (``None``: not answered)."""


class AnswerVerdict(_Record):
    """How one answer folder scored one question (a line of ``answers/<name>.verdicts.jsonl``)."""

    qid: str
    outcome: str
    A: int
    T: int | None
    """``None``: the question has no gold time reference."""
    answer: str | None
    explanation: str | None = None
    outcome_class: str | None = None
    """TDBench's outcome class (:data:`chronoqa.score.outcomes.OUTCOME_CLASSES`); ``None``: no time reference."""
    intermediate: bool | None = None
    """On a join question, whether the reply names the hidden hop; ``None`` elsewhere."""
    phrasings: list[Phrasing] | None = None
    """With a paraphrase set: one :class:`Phrasing` per accepted paraphrase; ``None`` without."""


Verdict = RetrievalVerdict | AnswerVerdict
_VERDICTS: dict[str, TypeAdapter[Any]] = {
    "retrieval": TypeAdapter(list[RetrievalVerdict]),
    "answers": TypeAdapter(list[AnswerVerdict]),
}


def write_verdicts(folder: str | Path, kind: MetricsKind, name: str, rows: Iterable[Verdict]) -> Path:
    """Write one run's or answer folder's per-question verdicts (``<folder>/<kind>/<name>.verdicts.jsonl``).

    Retrieval rows are :class:`RetrievalVerdict` (made by ``chronoqa.report.verdicts``), answer rows
    :class:`AnswerVerdict`.
    """
    path = _kind_dir(folder, kind) / f"{name}{VERDICTS_SUFFIX}"
    write_jsonl(path, (r.to_dict() for r in rows))
    return path


@overload
def read_verdicts(folder: str | Path, kind: Literal["retrieval"], name: str) -> list[RetrievalVerdict]: ...
@overload
def read_verdicts(folder: str | Path, kind: Literal["answers"], name: str) -> list[AnswerVerdict]: ...
def read_verdicts(folder: str | Path, kind: MetricsKind, name: str) -> list[RetrievalVerdict] | list[AnswerVerdict]:
    """One metrics file's per-question verdicts, in file order (empty when the folder has none for it).

    A retrieval folder's are :class:`RetrievalVerdict`, an answer folder's :class:`AnswerVerdict`; a bad
    line raises :class:`~chronoqa.errors.DataError` naming the file, line and field.
    """
    path = _kind_dir(folder, kind) / f"{name}{VERDICTS_SUFFIX}"
    if not path.exists():
        return []
    lines = [line for line in read_text(path).splitlines() if line.strip()]
    try:
        rows: list[RetrievalVerdict] | list[AnswerVerdict] = _VERDICTS[kind].validate_json("[" + ",".join(lines) + "]")
    except ValidationError as exc:
        err = exc.errors()[0]
        if err["type"] == "json_invalid":
            list(read_jsonl(path))  # names the line that is not JSON
        loc = err["loc"]
        line = int(loc[0]) + 1 if loc and isinstance(loc[0], int) else 0
        field = ".".join(str(x) for x in loc[1:]) or "(row)"
        raise DataError(
            str(path), line, field, err.get("input"), err["msg"], "rerun the evaluate stage (chronoqa run --force)"
        ) from None
    return rows
