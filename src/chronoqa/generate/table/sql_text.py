"""An optional LLM step that words a table question from its SQL, kept only when it is faithful.

The deterministic wording (:mod:`.verbalise`) is always made first and stays the question's text unless a model's
rewording passes :func:`unfaithful` (None: faithful):

* every key value and every date of the logical form (``logical_form["must_keep"]``) is in the text;
* the dates chronoqa's time reader (:func:`chronoqa.time.extract_times`) finds in the text are those it finds in
  the deterministic wording: none lost, none added;
* no other name is added: every capitalised word of the text is a word of the deterministic wording (or a
  question word), and no answer the wording does not name appears.

The model is asked through the answer client (:class:`chronoqa.answer.client.ChatClient`, with its response
cache), one request per question; a failed request keeps the wording and is counted. The report gives the
rejection rate overall and per template, and the reasons.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from chronoqa.records import Question
from chronoqa.time import extract_times

__all__ = ["SQL_TEXT_PROMPT", "SqlTextReport", "sql_to_text", "unfaithful"]

#: The instruction sent with every request (chronoqa's own wording).
SQL_TEXT_PROMPT = (
    "You turn a database query into one natural English question for a quiz. Ask exactly what the query asks. "
    "Keep every name and every date exactly as the draft writes them; add no other name, date or hint of the "
    "answer. Reply with the question only, on one line."
)
_QUESTION_WORDS = frozenset({"who", "what", "which", "when", "where", "how", "in", "on", "during", "as", "i"})


class ChatLike(Protocol):
    """What the step needs of a client: :meth:`chronoqa.answer.client.ChatClient.chat_many`."""

    def chat_many(self, batch: Sequence[Sequence[Mapping[str, str]]]) -> Sequence[Any]: ...


@dataclass
class SqlTextReport:
    """What the step did: requests, kept rewordings, rejections (with reasons) and failed requests."""

    tried: int = 0
    accepted: int = 0
    rejected: int = 0
    failed: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    by_template: dict[str, Counter[str]] = field(default_factory=dict)
    examples: list[dict[str, str]] = field(default_factory=list)

    @property
    def rejection_rate(self) -> float:
        """Rejected rewordings over answered requests (a failed request is not a rejection)."""
        answered = self.accepted + self.rejected
        return self.rejected / answered if answered else 0.0

    def to_dict(self) -> dict[str, object]:
        """JSON form for a manifest."""
        return {
            "tried": self.tried,
            "accepted": self.accepted,
            "rejected": self.rejected,
            "failed": self.failed,
            "rejection_rate": round(self.rejection_rate, 4),
            "reasons": dict(sorted(self.reasons.items())),
            "by_template": {
                t: {"accepted": c["accepted"], "rejected": c["rejected"]} for t, c in sorted(self.by_template.items())
            },
            "rejected_examples": self.examples[:20],
        }


def _dates(text: str) -> set[str]:
    """The dates the time reader finds in ``text`` (each bound of each mention, at its own precision)."""
    return {str(p) for m in extract_times(text) for p in (m.interval.start, m.interval.end) if p is not None}


def _names(text: str) -> set[str]:
    """The capitalised words of ``text`` but its first ("Could you tell me ..." adds no name)."""
    return {m.group(0).lower() for m in re.finditer(r"\b[A-Z][\w'’.-]*", text) if m.start() > 0}


def unfaithful(question: Question, text: str) -> str | None:
    """Why ``text`` does not ask what ``question`` asks (``None``: it is faithful); see the module docstring."""
    if not text.strip() or "\n" in text.strip():
        return "not one line"
    low = text.lower()
    lost = [str(s) for s in question.logical_form.get("must_keep", ()) if str(s).lower() not in low]
    if lost:
        return "lost a key value or date"
    if _dates(text) != _dates(question.question):
        return "dates differ"
    if any(a.lower() in low and a.lower() not in question.question.lower() for a in question.answers):
        return "names the answer"
    words = {w.lower().strip("?,.") for w in question.question.split()} | _QUESTION_WORDS
    if _names(text) - words:
        return "added a name"
    return None


def _messages(q: Question) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": SQL_TEXT_PROMPT},
        {"role": "user", "content": f"Query (DuckDB SQL): {q.sql}\nDraft: {q.question}\nQuestion:"},
    ]


def sql_to_text(questions: Sequence[Question], client: ChatLike) -> tuple[list[Question], SqlTextReport]:
    """Each question with a query reworded by ``client`` where :func:`unfaithful` finds nothing, else as it was.

    A kept rewording becomes the question's text; the deterministic wording stays in
    ``logical_form["template_question"]``.
    """
    report = SqlTextReport()
    asked = [i for i, q in enumerate(questions) if q.sql]
    results = client.chat_many([_messages(questions[i]) for i in asked]) if asked else []
    out = list(questions)
    for i, res in zip(asked, results, strict=True):
        q = questions[i]
        report.tried += 1
        counts = report.by_template.setdefault(q.template_id, Counter())
        if not res.ok or res.text is None:
            report.failed += 1
            continue
        text = res.text.strip()
        why = unfaithful(q, text)
        if why is not None:
            report.rejected += 1
            report.reasons[why] += 1
            counts["rejected"] += 1
            report.examples.append({"id": q.id, "text": text, "why": why})
            continue
        report.accepted += 1
        counts["accepted"] += 1
        if text != q.question:
            out[i] = replace(q, question=text, logical_form={**q.logical_form, "template_question": q.question})
    return out, report
