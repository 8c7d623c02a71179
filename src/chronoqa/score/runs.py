"""Read run files (``<name>.run.jsonl`` + ``<name>.run.meta.json``) and answer files (``answers.jsonl``).

Run line: ``{"qid": str, "hits": [{"doc_id", "rank", "score", "s", "r", "o", "t_start", "t_end"}, ...]}``.
Hits are ordered by ``rank`` (ascending; file order breaks ties). A bad line raises
:class:`chronoqa.errors.DataError` naming the file, line, field and value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronoqa.answer.base import STATUSES, AnswerRecord
from chronoqa.errors import DataError
from chronoqa.io import read_json, read_jsonl

__all__ = ["Run", "load_answers", "load_run", "meta_path"]


@dataclass(frozen=True)
class Run:
    """A loaded run: hits per question id (rank order) and the run's metadata (empty when absent)."""

    name: str
    hits: Mapping[str, Sequence[Mapping[str, Any]]]
    meta: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, name: str, hits: Mapping[str, Sequence[Any]], meta: Mapping[str, Any] | None = None) -> Run:
        """A run built in memory (hits may be dicts or 5-tuples)."""
        return cls(name, {str(k): tuple(v) for k, v in hits.items()}, dict(meta or {}))


def meta_path(run_path: str | Path) -> Path:
    """``x.run.jsonl`` → ``x.run.meta.json``."""
    p = Path(run_path)
    name = p.name[: -len(".jsonl")] if p.name.endswith(".jsonl") else p.name
    return p.with_name(name + ".meta.json")


def load_run(path: str | Path) -> Run:
    """Read a run file and its meta file (when present)."""
    p = Path(path)
    if not p.exists():
        raise DataError(str(p), 0, "(file)", str(p), "an existing run file", "write one with `chronoqa retrieve`")
    hits: dict[str, tuple[Mapping[str, Any], ...]] = {}
    for lineno, obj in enumerate(read_jsonl(p), 1):
        qid = obj.get("qid")
        if not isinstance(qid, str) or not qid:
            raise DataError(str(p), lineno, "qid", qid, "a non-empty question id string", "regenerate the run")
        if qid in hits:
            raise DataError(str(p), lineno, "qid", qid, "one line per question", "remove the duplicate line")
        raw = obj.get("hits")
        if not isinstance(raw, list):
            raise DataError(str(p), lineno, "hits", raw, "a list of hits", "regenerate the run")
        for j, h in enumerate(raw):
            if not isinstance(h, dict) or not all(k in h for k in ("s", "r", "o")):
                raise DataError(str(p), lineno, f"hits[{j}]", h, "a hit with s, r, o, t_start, t_end", "regenerate")
        order = sorted(range(len(raw)), key=lambda j: (_rank(raw[j], j, p, lineno), j))
        hits[qid] = tuple(raw[j] for j in order)
    mp = meta_path(p)
    meta = read_json(mp) if mp.exists() else {}
    stem = p.name.split(".run")[0] if ".run" in p.name else p.stem
    return Run(str(meta.get("spec", stem)) if isinstance(meta, dict) else stem, hits, meta)


def _rank(h: Mapping[str, Any], j: int, p: Path, lineno: int) -> float:
    r = h.get("rank", j + 1)
    if isinstance(r, bool) or not isinstance(r, (int, float)):
        raise DataError(str(p), lineno, f"hits[{j}].rank", r, "a number", "regenerate the run")
    return float(r)


def load_answers(path: str | Path) -> dict[str, AnswerRecord]:
    """Read ``answers.jsonl`` into a mapping from question id to record (one line per question)."""
    p = Path(path)
    out: dict[str, AnswerRecord] = {}
    for lineno, obj in enumerate(read_jsonl(p), 1):
        status = obj.get("status")
        if status not in STATUSES:
            raise DataError(str(p), lineno, "status", status, f"one of {', '.join(STATUSES)}", "regenerate answers")
        if "qid" not in obj or "answerer" not in obj:
            raise DataError(str(p), lineno, "qid", obj.get("qid"), "qid and answerer fields", "regenerate answers")
        rec = AnswerRecord.from_dict(obj)
        if rec.qid in out:
            raise DataError(str(p), lineno, "qid", rec.qid, "one line per question", "remove the duplicate line")
        out[rec.qid] = rec
    return out
