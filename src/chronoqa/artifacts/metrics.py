"""The evaluate folder: one metrics file per scored run and per scored answer folder.

Layout (what the pipeline's evaluate stage writes and the report reads)::

    retrieval/<name>.json   the metrics of one run: ``chronoqa.score.evaluate.evaluate(...).to_dict()``
    answers/<name>.json     the metrics of one answer folder, plus ``"answer_meta"``: its ``answers.meta.json``
    <kind>/<name>.verdicts.jsonl   one line per scored question: how that run or answer folder scored it
                                   (what the report's question explorer shows; see :func:`write_verdicts`)

A metrics file is :class:`MetricsRecord` (its name is the file stem); the folder is
:class:`MetricsFolder`. Files are written with :func:`chronoqa.io.write_json` (sorted, stable bytes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from chronoqa.io import read_json, read_jsonl, write_json, write_jsonl

__all__ = [
    "METRICS_KINDS",
    "VERDICTS_SUFFIX",
    "MetricsFolder",
    "MetricsKind",
    "MetricsRecord",
    "read_metrics",
    "read_verdicts",
    "write_metrics",
    "write_verdicts",
]

MetricsKind = Literal["retrieval", "answers"]
METRICS_KINDS: tuple[MetricsKind, ...] = ("retrieval", "answers")
VERDICTS_SUFFIX = ".verdicts.jsonl"
"""The per-question verdicts beside a metrics file (``<name>.verdicts.jsonl``; never matched by ``*.json``)."""


@dataclass(frozen=True)
class MetricsRecord:
    """One metrics file: evaluate's metrics (``data``) and, for answers, the answer folder's meta."""

    name: str
    data: Mapping[str, Any]
    answer_meta: Mapping[str, Any] | None = None

    @property
    def n_questions(self) -> int | None:
        """Questions scored."""
        n = self.data.get("n_questions")
        return None if n is None else int(n)

    @property
    def warnings(self) -> tuple[str, ...]:
        """The scorer's warnings."""
        return tuple(str(w) for w in self.data.get("warnings", ()))

    @property
    def run_meta(self) -> Mapping[str, Any]:
        """The scored run's meta data (empty for answers)."""
        return (self.data.get("run") or {}).get("meta") or {}

    @property
    def spec(self) -> str:
        """The scored run's spec (the name when it has none)."""
        return str(self.run_meta.get("spec", self.name))

    @property
    def control(self) -> bool:
        """Whether the scored run comes from a control retriever."""
        return bool(self.run_meta.get("control", False))

    def block(self, key: str) -> Mapping[str, Any]:
        """One block of metrics (``retrieval``, ``answers``, ``time_accuracy``), empty when absent."""
        value = self.data.get(key)
        return value if isinstance(value, Mapping) else {}

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``answer_meta`` added for answers)."""
        out = dict(self.data)
        if self.answer_meta is not None:
            out["answer_meta"] = dict(self.answer_meta)
        return out

    @classmethod
    def from_dict(cls, name: str, d: Mapping[str, Any]) -> MetricsRecord:
        """Read the JSON form."""
        data = {k: v for k, v in d.items() if k != "answer_meta"}
        meta = d.get("answer_meta")
        return cls(name, data, dict(meta) if isinstance(meta, Mapping) else None)


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
        kinds[kind] = tuple(MetricsRecord.from_dict(p.stem, read_json(p)) for p in sorted((root / kind).glob("*.json")))
    return MetricsFolder(kinds["retrieval"], kinds["answers"])


def _kind_dir(folder: str | Path, kind: MetricsKind) -> Path:
    if kind not in METRICS_KINDS:
        raise ValueError(f"metrics kind {kind!r}: expected one of {', '.join(METRICS_KINDS)}")
    return Path(folder) / kind


def write_verdicts(folder: str | Path, kind: MetricsKind, name: str, rows: Iterable[Mapping[str, Any]]) -> Path:
    """Write one run's or answer folder's per-question verdicts (``<folder>/<kind>/<name>.verdicts.jsonl``).

    Each row is a JSON object with at least ``qid``. Retrieval rows (``chronoqa.report.verdicts``) carry
    ``CCR``, ``stale_hit``, ``dist_hit``, ``n_retrieved`` and ``marks`` (the ranks at which the question's
    S*/negative facts were returned); answer rows carry ``outcome``, ``A``, ``T`` and the ``answer`` text.
    """
    path = _kind_dir(folder, kind) / f"{name}{VERDICTS_SUFFIX}"
    write_jsonl(path, rows)
    return path


def read_verdicts(folder: str | Path, kind: MetricsKind, name: str) -> list[dict[str, Any]]:
    """One metrics file's per-question verdicts, in file order (empty when the folder has none for it)."""
    path = _kind_dir(folder, kind) / f"{name}{VERDICTS_SUFFIX}"
    return list(read_jsonl(path)) if path.exists() else []
