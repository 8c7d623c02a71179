"""Named, versioned prompt protocols, and the parser of their answers.

A protocol turns a :class:`~chronoqa.records.Question` (and, for RAG, the retrieved facts) into chat
messages. Each is registered as ``name@version``; a protocol's text never changes under the same
version, so cached responses and published numbers stay comparable.

* ``closed_book@1``: the question alone.
* ``rag@1``: the question plus the retrieved facts as a list, each with its validity period:
  ``(2003–2009)``, ``(2003)`` for a point fact, ``(since 2014, ongoing as of 2024-01-01)`` for an open
  end, ``(until 2009)`` for an unknown start.

Both ask for ``Answer: ...`` and ``Explanation: ...`` (a short justification citing dates, which
time accuracy scores): free text, for models that cannot write JSON.

* ``tdbench_closed@1`` / ``tdbench_open@1``: TDBench's closed- and open-book settings
  (:mod:`chronoqa.answer.tdbench`): an instruction to answer and explain with dates, and for the open
  book the release's own rows (gold, other periods, random) as a Markdown table in a seeded order.

* ``structured@1``: the facts and the question as ``rag@1`` shows them, and a reply asked for as one JSON
  object (:class:`~chronoqa.artifacts.answers.StructuredAnswer`): the answers as a list, each with the
  start and end dates the model claims for it (or the date of a one-off event), the dates of the event the
  question refers to, and a sentence. ``structured_closed_book@1``: the same without the facts. Their
  replies are read by :mod:`chronoqa.answer.structured` (prose when a reply is not valid JSON).

The question time is shown as a tag only where ``question.render_time`` is
true: interval questions' ``t_query`` IS their answer (TempBench's documented leak), so it is never
shown for them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chronoqa.answer.tdbench import closed_messages, open_messages
from chronoqa.errors import UnknownNameError
from chronoqa.records import Question
from chronoqa.spec import NameTable, Spec, SpecError

__all__ = [
    "PROTOCOLS",
    "ParsedAnswer",
    "PromptProtocol",
    "abstains",
    "get_protocol",
    "parse_response",
    "relation_phrase",
    "render_fact",
    "validity_period",
]

Evidence = Mapping[str, Any]

_SYSTEM = (
    "You answer questions about facts that are true at specific times. "
    "Reply in exactly this format, with nothing else:\n"
    "Answer: <the answer only: a name, a value or a date>\n"
    "Explanation: <one short sentence that cites the dates supporting the answer>\n"
    "If several answers are correct, separate them with '; '. "
    "If you do not know, write 'Answer: unknown'."
)


_SYSTEM_JSON = (
    "You answer questions about facts that are true at specific times. "
    "Reply with one JSON object and nothing else, in this form:\n"
    '{"answers": [{"answer": "<a name, a value or a date>", "start": "<when it began to hold: YYYY or '
    'YYYY-MM-DD>", "end": "<when it stopped holding, or null if it still holds>", "date": "<the date of an '
    'event that happened once, or null>"}], "reference": {"start": null, "end": null, "date": null}, '
    '"explanation": "<one short sentence that cites the dates>"}\n'
    'List every correct answer in "answers", each with its own dates. "reference" holds the dates of the '
    "event the question refers to (for example when someone joined a team), or null. "
    'If you do not know, reply {"answers": []}.'
)


def relation_phrase(label: str) -> str:
    """A relation label as words: ``playsFor`` → ``plays for``, ``member_of`` → ``member of``."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", label.replace("_", " "))
    return " ".join(words.split()).lower() if words != words.upper() else " ".join(words.split())


def validity_period(t_start: str | None, t_end: str | None, as_of: str | None) -> str:
    """The validity of a fact in words, in parentheses (en dash between years)."""
    if t_start is not None and t_end is not None:
        return f"({t_start})" if t_start == t_end else f"({t_start}–{t_end})"
    if t_start is not None:
        return f"(since {t_start}, ongoing as of {as_of})" if as_of else f"(since {t_start}, no end recorded)"
    if t_end is not None:
        return f"(until {t_end}, start unknown)"
    return "(dates unknown)"


def render_fact(fact: Evidence, as_of: str | None) -> str:
    """One retrieved fact as a list item: ``Ronaldo plays for Real Madrid (2009–2018)``."""
    s, r, o = str(fact.get("s", "")), relation_phrase(str(fact.get("r", ""))), str(fact.get("o", ""))
    return f"{s} {r} {o} {validity_period(fact.get('t_start'), fact.get('t_end'), as_of)}"


def _time_line(q: Question) -> list[str]:
    return [f"Question time: {q.t_query}"] if q.render_time and q.t_query else []


def _closed_book_user(q: Question) -> str:
    return "\n".join([*_time_line(q), f"Question: {q.question}"])


def _rag_user(q: Question, evidence: Sequence[Evidence], k: int) -> str:
    facts = [f"- {render_fact(f, q.as_of)}" for f in evidence[:k]] or ["- (no facts retrieved)"]
    return "\n".join(
        [
            "Facts (each with the period in which it holds):",
            *facts,
            "",
            "Use the facts that hold at the time the question asks about.",
            *_time_line(q),
            f"Question: {q.question}",
        ]
    )


def _closed_book_v1(q: Question, evidence: Sequence[Evidence], k: int) -> list[dict[str, str]]:
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": _closed_book_user(q)}]


def _rag_v1(q: Question, evidence: Sequence[Evidence], k: int) -> list[dict[str, str]]:
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": _rag_user(q, evidence, k)}]


def _structured_closed_book_v1(q: Question, evidence: Sequence[Evidence], k: int) -> list[dict[str, str]]:
    return [{"role": "system", "content": _SYSTEM_JSON}, {"role": "user", "content": _closed_book_user(q)}]


def _structured_v1(q: Question, evidence: Sequence[Evidence], k: int) -> list[dict[str, str]]:
    return [{"role": "system", "content": _SYSTEM_JSON}, {"role": "user", "content": _rag_user(q, evidence, k)}]


@dataclass(frozen=True)
class PromptProtocol:
    """A named, versioned prompt template; ``uses_evidence`` says whether it shows retrieved facts.

    ``structured``: the reply is asked for as JSON (:class:`~chronoqa.artifacts.answers.StructuredAnswer`)
    and read by :mod:`chronoqa.answer.structured`; otherwise it is free text read by :func:`parse_response`.
    ``table``: it shows rows of the release itself (:func:`chronoqa.answer.tdbench.open_book_rows`), chosen by
    the answerer, in place of a run's facts (so it needs no run).
    """

    name: str
    version: int
    uses_evidence: bool
    builder: Callable[[Question, Sequence[Evidence], int], list[dict[str, str]]]
    structured: bool = False
    table: bool = False

    @property
    def id(self) -> str:
        """``name@version``."""
        return f"{self.name}@{self.version}"

    def messages(self, question: Question, evidence: Sequence[Evidence] = (), k: int = 10) -> list[dict[str, str]]:
        """Chat messages for one question; ``k`` caps the facts shown."""
        return self.builder(question, evidence if (self.uses_evidence or self.table) else (), k)


PROTOCOLS: NameTable[PromptProtocol] = NameTable(
    "prompt protocol",
    (
        (p.id, p)
        for p in (
            PromptProtocol("closed_book", 1, False, _closed_book_v1),
            PromptProtocol("rag", 1, True, _rag_v1),
            PromptProtocol("structured", 1, True, _structured_v1, structured=True),
            PromptProtocol("structured_closed_book", 1, False, _structured_closed_book_v1, structured=True),
            PromptProtocol("tdbench_closed", 1, False, closed_messages),
            PromptProtocol("tdbench_open", 1, False, open_messages, table=True),
        )
    ),
)


def get_protocol(spec: str) -> PromptProtocol:
    """Look up ``name@version`` (a bare name means its latest version); typos get a suggestion."""
    parsed = Spec.parse(spec)
    if parsed.args or parsed.params:
        raise SpecError(f"prompt protocol {spec!r}: expected name@version, e.g. rag@1")
    if parsed.at is not None and str(parsed) in PROTOCOLS:
        return PROTOCOLS[str(parsed)]
    versions = sorted((p for p in PROTOCOLS.values() if p.name == parsed.name), key=lambda p: p.version)
    if parsed.at is None and versions:
        return versions[-1]
    raise UnknownNameError("prompt protocol", spec, list(PROTOCOLS) + sorted({p.name for p in PROTOCOLS.values()}))


_ABSTAIN = re.compile(
    r"^\s*(unknown|i\s+do\s*n[o']?t\s+know|not\s+sure|cannot\s+(be\s+)?determined?|n/?a)\s*\.?\s*$", re.IGNORECASE
)
_ANSWER = re.compile(r"^\s*\**\s*answer\s*\**\s*[:：]\s*\**\s*(.*)$", re.IGNORECASE)
_EXPL = re.compile(r"^\s*\**\s*explanation\s*\**\s*[:：]\s*\**\s*(.*)$", re.IGNORECASE)


def abstains(answer: str) -> bool:
    """True for an answer that says the model does not know (``unknown``, ``I don't know``, ``n/a``)."""
    return not answer.strip() or _ABSTAIN.match(answer) is not None


@dataclass(frozen=True)
class ParsedAnswer:
    """An answer pulled out of free text; ``status`` is ``ok`` or ``abstain``."""

    status: str
    answer: str | None
    explanation: str | None


def parse_response(text: str) -> ParsedAnswer:
    """Read ``Answer: ...`` / ``Explanation: ...`` from a model's reply.

    Lenient with real free text: markdown bold, any case, the explanation running over several
    lines. Without an ``Answer:`` line the first non-empty line is the answer and the rest the
    explanation. ``unknown``/``I don't know`` is an abstention.
    """
    lines = text.strip().splitlines()
    answer: str | None = None
    expl: list[str] = []
    in_expl = False
    for line in lines:
        m_a, m_e = _ANSWER.match(line), _EXPL.match(line)
        if m_a and answer is None:
            answer, in_expl = m_a.group(1).strip(), False
        elif m_e:
            in_expl = True
            expl.append(m_e.group(1).strip())
        elif in_expl and line.strip():
            expl.append(line.strip())
    if answer is None:
        rest = [ln.strip() for ln in lines if ln.strip()]
        if not rest:
            return ParsedAnswer("abstain", None, None)
        answer = rest[0]
        if not expl:
            expl = rest[1:]
    answer = answer.strip().strip("*").strip()
    explanation = " ".join(e for e in expl if e) or None
    if abstains(answer):
        return ParsedAnswer("abstain", None, explanation)
    return ParsedAnswer("ok", answer, explanation)
