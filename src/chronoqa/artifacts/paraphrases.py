"""The paraphrase set of a release: ``paraphrases.jsonl``, one line per candidate rewording, kept or not.

The contract (``docs/paraphrases.md``): every candidate a paraphraser proposed and the faithfulness check
judged is one :class:`ParaphraseRecord`, accepted or rejected with its reasons, so the rejection rate of any
template or rule is recomputed from the file alone and every rejection can be audited. The phrasings of
question ``qid`` are the question itself and its accepted paraphrases, whose ids are
``<qid>~p<i>`` (:func:`paraphrase_id`); answers to the set carry those ids.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chronoqa.errors import DataError
from chronoqa.io import numbered_jsonl, write_jsonl
from chronoqa.records import Question

__all__ = [
    "PARAPHRASES_FILE",
    "ParaphraseRecord",
    "accepted_by_question",
    "paraphrase_id",
    "phrased_questions",
    "read_paraphrases",
    "write_paraphrases",
]

PARAPHRASES_FILE = "paraphrases.jsonl"
"""The file name of a paraphrase set, written beside (or inside) the release it rewords."""

_SEP = "~p"


def paraphrase_id(qid: str, i: int) -> str:
    """The id of candidate ``i`` (from 1) of question ``qid``: ``"<qid>~p<i>"``."""
    return f"{qid}{_SEP}{i}"


@dataclass(frozen=True, slots=True)
class ParaphraseRecord:
    """One candidate rewording of a question and the check's verdict on it."""

    pid: str
    qid: str
    template_id: str
    paraphraser: str
    rule: str
    question: str
    accepted: bool
    reasons: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the fields in their declared order)."""
        return dataclasses.asdict(self) | {"reasons": list(self.reasons)}


_STR_FIELDS = ("pid", "qid", "template_id", "paraphraser", "rule", "question")


def _record(file: str, line: int, obj: dict[str, Any]) -> ParaphraseRecord:
    for name in _STR_FIELDS:
        if not isinstance(obj.get(name), str):
            raise DataError(
                file, line, name, obj.get(name), "a string", "rewrite the set: chronoqa paraphrase RELEASE --out DIR"
            )
    if not isinstance(obj.get("accepted"), bool):
        raise DataError(file, line, "accepted", obj.get("accepted"), "true or false", "rewrite the set")
    reasons = obj.get("reasons", [])
    if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
        raise DataError(file, line, "reasons", reasons, "a list of strings", "rewrite the set")
    if not obj["pid"].startswith(obj["qid"] + _SEP):
        raise DataError(file, line, "pid", obj["pid"], f"'{obj['qid']}{_SEP}<i>'", "rewrite the set")
    return ParaphraseRecord(**{k: obj[k] for k in _STR_FIELDS}, accepted=obj["accepted"], reasons=tuple(reasons))


def write_paraphrases(path: str | Path, records: Iterable[ParaphraseRecord]) -> int:
    """Write a paraphrase set atomically; returns the number of lines."""
    return write_jsonl(path, (r.to_dict() for r in records))


def read_paraphrases(path: str | Path) -> list[ParaphraseRecord]:
    """Read a paraphrase set; a bad line raises :class:`DataError` naming it, a repeated ``pid`` too."""
    out: list[ParaphraseRecord] = []
    seen: set[str] = set()
    for line, obj in numbered_jsonl(path):
        rec = _record(str(path), line, obj)
        if rec.pid in seen:
            raise DataError(str(path), line, "pid", rec.pid, "an id used once", "rewrite the set")
        seen.add(rec.pid)
        out.append(rec)
    return out


def accepted_by_question(records: Sequence[ParaphraseRecord]) -> dict[str, list[ParaphraseRecord]]:
    """The accepted paraphrases of each question, in file order."""
    out: dict[str, list[ParaphraseRecord]] = {}
    for r in records:
        if r.accepted:
            out.setdefault(r.qid, []).append(r)
    return out


def phrased_questions(questions: Sequence[Question], records: Sequence[ParaphraseRecord]) -> list[Question]:
    """Each accepted paraphrase as a question of its own (id ``<qid>~p<i>``, the gold of its original)."""
    kept = accepted_by_question(records)
    return [dataclasses.replace(q, id=r.pid, question=r.question) for q in questions for r in kept.get(q.id, ())]
