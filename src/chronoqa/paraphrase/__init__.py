"""Paraphrase sets: k rewordings of each question, each kept only if an independent check passes.

The steps (:func:`paraphrase_release`): a paraphraser proposes candidates for every question (the grammar of
:mod:`~chronoqa.paraphrase.grammar`, or a model through :class:`~chronoqa.paraphrase.llm.LLMParaphraser`);
the check of :mod:`~chronoqa.paraphrase.check` judges each, in order, until ``n`` are kept; every judged
candidate becomes a line of the set (:mod:`chronoqa.artifacts.paraphrases`), and the rejection rates per
template and per rule are computed from those lines (:func:`rejection_rates`).
:func:`phrased_questions` turns the set into questions any answerer can answer (ids ``<qid>~p<i>``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from chronoqa.artifacts.paraphrases import ParaphraseRecord, accepted_by_question, paraphrase_id
from chronoqa.artifacts.release import Release, write_release
from chronoqa.paraphrase.check import check_paraphrase, key_values
from chronoqa.paraphrase.grammar import GRAMMAR_ID, candidates
from chronoqa.records import Question

__all__ = [
    "GrammarParaphraser",
    "ParaphraseResult",
    "Paraphraser",
    "paraphrase_questions",
    "phrased_questions",
    "rejection_rates",
    "write_phrased_release",
]


class Paraphraser(Protocol):
    """Proposes candidate rewordings: per question, ``(rule, text)`` pairs in the order to try them."""

    name: str

    def propose(self, questions: Sequence[Question], n: int) -> list[list[tuple[str, str]]]:
        """Per question, its candidates in the order to check them."""
        ...


class GrammarParaphraser:
    """The deterministic paraphraser (every candidate of the grammar; the check picks the first ``n`` kept)."""

    name = GRAMMAR_ID

    def propose(self, questions: Sequence[Question], n: int) -> list[list[tuple[str, str]]]:
        """Every rewording the grammar makes of each question."""
        return [list(candidates(q)) for q in questions]


@dataclass(frozen=True)
class ParaphraseResult:
    """The judged candidates (the set's lines) and the rejection rates computed from them."""

    records: tuple[ParaphraseRecord, ...]
    rates: dict[str, Any]


def _judge(q: Question, proposed: Iterable[tuple[str, str]], n: int, name: str) -> list[ParaphraseRecord]:
    keys = key_values(q)
    out: list[ParaphraseRecord] = []
    kept = 0
    for rule, text in proposed:
        if kept == n:
            break
        reasons = check_paraphrase(q, text, keys)
        kept += not reasons
        pid = paraphrase_id(q.id, len(out) + 1)
        out.append(ParaphraseRecord(pid, q.id, q.template_id or "", name, rule, text, not reasons, reasons))
    return out


def paraphrase_questions(questions: Sequence[Question], paraphraser: Paraphraser, n: int = 3) -> ParaphraseResult:
    """Judge the paraphraser's candidates for every question until ``n`` are kept per question."""
    if n < 1:
        raise ValueError(f"n = {n}: expected at least 1 rewording per question")
    proposed = paraphraser.propose(questions, n)
    records = [r for q, cands in zip(questions, proposed, strict=True) for r in _judge(q, cands, n, paraphraser.name)]
    return ParaphraseResult(tuple(records), rejection_rates(records, questions, n))


def _rate(rows: Sequence[ParaphraseRecord]) -> dict[str, Any]:
    rejected = sum(1 for r in rows if not r.accepted)
    return {"n_checked": len(rows), "n_rejected": rejected, "rejection_rate": rejected / len(rows) if rows else None}


def rejection_rates(records: Sequence[ParaphraseRecord], questions: Sequence[Question], n: int) -> dict[str, Any]:
    """Rejected / checked candidates overall, per question template and per rule; questions with ``n`` kept."""
    by_template: dict[str, list[ParaphraseRecord]] = {}
    by_rule: dict[str, list[ParaphraseRecord]] = {}
    for r in records:
        by_template.setdefault(r.template_id, []).append(r)
        by_rule.setdefault(r.rule, []).append(r)
    kept = accepted_by_question(records)
    return {
        "n": n,
        "n_questions": len(questions),
        "n_with_all_n": sum(1 for q in questions if len(kept.get(q.id, ())) >= n),
        "n_with_none": sum(1 for q in questions if not kept.get(q.id)),
        "all": _rate(records),
        "by_template": {k: _rate(v) for k, v in sorted(by_template.items())},
        "by_rule": {k: _rate(v) for k, v in sorted(by_rule.items())},
    }


def write_phrased_release(release: Release, records: Sequence[ParaphraseRecord], out: str | Path) -> Path:
    """A copy of ``release`` whose questions are the originals and their accepted paraphrases (to answer the set).

    Retrieve and answer on it as on any release; score the answers against the original release with the set
    (``chronoqa evaluate --bench ORIGINAL --answers ... --paraphrases ...``).
    """
    qs = list(release.questions)
    manifest = {"paraphrases_of": str(release.path), "n_original": len(qs)}
    flags = list(release.flags.values())
    return write_release(out, qs + phrased_questions(qs, records), list(release.corpus), flags, manifest, "")


def phrased_questions(questions: Sequence[Question], records: Sequence[ParaphraseRecord]) -> list[Question]:
    """Each accepted paraphrase as a question of its own (id ``<qid>~p<i>``, the gold of its original)."""
    kept = accepted_by_question(records)
    return [dataclasses.replace(q, id=r.pid, question=r.question) for q in questions for r in kept.get(q.id, ())]
