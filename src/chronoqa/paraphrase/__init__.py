"""Paraphrase sets: k rewordings of each question, each kept only if an independent check passes.

The steps (:func:`paraphrase_release`): a paraphraser proposes candidates for every question (the grammar of
:mod:`~chronoqa.paraphrase.grammar`, or a model through :class:`~chronoqa.paraphrase.llm.LLMParaphraser`);
the one faithfulness check of every rewording step (:mod:`chronoqa.generate.faithful`) judges each, in order,
until ``n`` are kept; every judged candidate becomes a line of the set (:mod:`chronoqa.artifacts.paraphrases`),
and the rejection counts per reason, template and rule are kept in one
:class:`~chronoqa.generate.faithful.RewordingReport` (:func:`rejection_rates`).
:func:`phrased_questions` turns the set into questions any answerer can answer (ids ``<qid>~p<i>``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from chronoqa.artifacts.paraphrases import ParaphraseRecord, accepted_by_question, paraphrase_id, phrased_questions
from chronoqa.artifacts.release import Release, write_release
from chronoqa.generate.faithful import RewordingReport, check_rewording, key_values
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


def _judge(
    q: Question, proposed: Iterable[tuple[str, str]], n: int, name: str, report: RewordingReport
) -> list[ParaphraseRecord]:
    keys = key_values(q)
    out: list[ParaphraseRecord] = []
    kept = 0
    for rule, text in proposed:
        if kept == n:
            break
        reasons = check_rewording(q, text, keys)
        report.count(q, rule, text, reasons)
        kept += not reasons
        pid = paraphrase_id(q.id, len(out) + 1)
        out.append(ParaphraseRecord(pid, q.id, q.template_id or "", name, rule, text, not reasons, reasons))
    return out


def paraphrase_questions(questions: Sequence[Question], paraphraser: Paraphraser, n: int = 3) -> ParaphraseResult:
    """Judge the paraphraser's candidates for every question until ``n`` are kept per question."""
    if n < 1:
        raise ValueError(f"n = {n}: expected at least 1 rewording per question")
    proposed = paraphraser.propose(questions, n)
    report = RewordingReport()
    records = [
        r for q, cands in zip(questions, proposed, strict=True) for r in _judge(q, cands, n, paraphraser.name, report)
    ]
    return ParaphraseResult(tuple(records), rejection_rates(report, records, questions, n))


def rejection_rates(
    report: RewordingReport, records: Sequence[ParaphraseRecord], questions: Sequence[Question], n: int
) -> dict[str, Any]:
    """The report's counts (overall, per reason, template and rule) and the questions with ``n`` or no kept."""
    kept = accepted_by_question(records)
    return {
        "n": n,
        "n_questions": len(questions),
        "n_with_all_n": sum(1 for q in questions if len(kept.get(q.id, ())) >= n),
        "n_with_none": sum(1 for q in questions if not kept.get(q.id)),
        **report.to_dict(),
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
