"""Deterministic English questions and corpus sentences for table-built questions.

Phrases come from the column names (``Organization_name`` → "organization name"), with a few
readable defaults: when the answer column is a person (``Name``, ``Person``...) the question asks
"Who", and when a role-like column (``Role``, ``Position``, ``Title``) is on the left-hand side the
subject reads "the {Role} of {Country}". A phrase file (JSON) overrides any of it per TFD::

    {"tfds": {"Country,Role->Name": {"subject": "the {Role} of {Country}", "wh": "Who was",
                                     "wh_now": "Who is", "period": "term"}},
     "facts": {"dyknow_leaders": "{Name} was the {Role} of {Country}"},
     "joins": {"Game_name": "Who was the {Role} of the host country during the {Game_name} Games?",
               "Game_edition,Season": "Who was the {Role} of the host country during the
                                       {Game_edition:ordinal} {Season} Olympic Games?"}}

Questions never name the table or "the database". :func:`paraphrase_questions` runs an optional
paraphrase callable and rejects (and counts) any paraphrase that loses a key value or a date.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from chronoqa.errors import ChronoqaError
from chronoqa.io import read_json
from chronoqa.records import Question
from chronoqa.sources.graph_table import GRAPH_TFD
from chronoqa.time import Allen

__all__ = [
    "CLAUSES",
    "ROLE_COLUMNS",
    "ParaphraseReport",
    "PhraseBook",
    "TFDPhrases",
    "column_label",
    "graph_phrases",
    "ordinal",
    "paraphrase_questions",
    "render",
]

_PERSON_COLUMNS = frozenset({"name", "person", "leader", "player", "holder", "ceo", "officeholder"})
ROLE_COLUMNS = frozenset({"role", "position", "title", "office"})

#: Relation clauses; ``{p}`` is the period noun, ``{b0}``.. are readable dates, ``{at_b0}`` with "in"/"on".
CLAUSES: dict[Allen, str] = {
    Allen.BEFORE: "whose {p} ended before {b0_minus}",
    Allen.AFTER: "whose {p} began after {b1_plus}",
    Allen.MEETS: "whose {p} ended immediately before {b0}",
    Allen.MET_BY: "whose {p} began immediately after {b1}",
    Allen.OVERLAPS: "whose {p} began before {b0} and ended on or after {b0} but before {b1}",
    Allen.OVERLAPPED_BY: "whose {p} began after {b0} but no later than {b1}, and continued after {b1}",
    Allen.STARTS: "whose {p} began {at_b0} and ended before {b1}",
    Allen.STARTED_BY: "whose {p} began {at_b0} and continued after {b1}",
    Allen.DURING: "whose {p} began after {b0} and ended before {b1}",
    Allen.CONTAINS: "whose {p} began before {b0} and continued after {b1}",
    Allen.FINISHES: "whose {p} began after {b0} and ended {at_b1}",
    Allen.FINISHED_BY: "whose {p} began before {b0} and ended {at_b1}",
    Allen.EQUALS: "whose {p} began {at_b0} and ended {at_b1}",
}


@functools.lru_cache(maxsize=4096)
def column_label(column: str) -> str:
    """A column name as words: ``Organization_name`` → ``organization name``."""
    return column.replace("_", " ").strip().lower()


def ordinal(n: int | str) -> str:
    """``1`` → ``1st``, ``22`` → ``22nd``, ``13`` → ``13th``."""
    k = int(n)
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


class _Formatter(string.Formatter):
    """``str.format`` plus the ``ordinal`` format spec (``{Game_edition:ordinal}``)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "ordinal":
            return ordinal(value)
        return str(super().format_field(value, format_spec))


_FMT = _Formatter()


def render(template: str, values: Mapping[str, Any]) -> str:
    """Fill a phrase template; a missing field names the template and the known fields."""
    try:
        return _FMT.vformat(template, (), dict(values))
    except (KeyError, IndexError, ValueError) as exc:
        raise ChronoqaError(
            f"phrase template {template!r} cannot be filled ({exc}): known fields are {', '.join(sorted(values))}"
        ) from None


@dataclass(frozen=True, slots=True)
class TFDPhrases:
    """How questions about one TFD read."""

    subject: str
    wh: str
    wh_now: str
    period: str


@dataclass(frozen=True)
class PhraseBook:
    """Phrase overrides (from a phrase file) with column-derived defaults."""

    tfds: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    facts: Mapping[str, str] = field(default_factory=dict)
    joins: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path | None) -> PhraseBook:
        """Read a phrase file (``None``: defaults only)."""
        if path is None:
            return cls()
        data = read_json(path)
        if not isinstance(data, dict) or not set(data) <= {"tfds", "facts", "joins"}:
            raise ChronoqaError(f"{path}: a phrase file is a JSON object with keys 'tfds', 'facts' and/or 'joins'")
        return cls(dict(data.get("tfds", {})), dict(data.get("facts", {})), dict(data.get("joins", {})))

    def for_tfd(self, lhs: Sequence[str], rhs: str) -> TFDPhrases:
        """Phrases for ``lhs -> rhs`` (file entries win over defaults)."""
        default = _default_phrases(lhs, rhs)
        over = self.tfds.get(f"{','.join(lhs)}->{rhs}", {})
        return TFDPhrases(
            subject=over.get("subject", default.subject),
            wh=over.get("wh", default.wh),
            wh_now=over.get("wh_now", default.wh_now),
            period=over.get("period", default.period),
        )

    def fact(self, table: str, columns: Sequence[str], values: Sequence[str | None]) -> str:
        """One corpus sentence for a row (without its dates)."""
        if table in self.facts:
            return render(self.facts[table], {c: v or "" for c, v in zip(columns, values, strict=True)})
        return "; ".join(f"{column_label(c)}: {v}" for c, v in zip(columns, values, strict=True) if v is not None)


def _default_phrases(lhs: Sequence[str], rhs: str) -> TFDPhrases:
    person = column_label(rhs) in _PERSON_COLUMNS
    roles = [c for c in lhs if column_label(c) in ROLE_COLUMNS]
    if roles:
        role = roles[0]
        others = [c for c in lhs if c != role]
        subject = "the {" + role + "}" + (" of " + ", ".join("{" + c + "}" for c in others) if others else "")
        if not person:
            subject = f"the {column_label(rhs)} of {subject}"
    elif len(lhs) == 1:
        subject = f"the {column_label(rhs)} of {{{lhs[0]}}}"
    else:
        parts = " and ".join(f"{column_label(c)} {{{c}}}" for c in lhs)
        subject = f"the {column_label(rhs)} for {parts}"
    return TFDPhrases(
        subject=subject,
        wh="Who was" if person else "What was",
        wh_now="Who is" if person else "What is",
        period="term" if person and roles else "period",
    )


@dataclass
class ParaphraseReport:
    """What the paraphrase step did."""

    tried: int = 0
    accepted: int = 0
    rejected: int = 0
    failed: int = 0
    examples: list[dict[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {
            "tried": self.tried,
            "accepted": self.accepted,
            "rejected": self.rejected,
            "failed": self.failed,
            "rejected_examples": self.examples[:20],
        }


def paraphrase_questions(
    questions: Sequence[Question], paraphrase: Callable[[str], str]
) -> tuple[list[Question], ParaphraseReport]:
    """Paraphrase each question; keep the template text when a key value or a date goes missing.

    The strings that must survive are those the builder recorded in ``logical_form["must_keep"]``
    (the key values and readable dates of the question), compared case-insensitively.
    """
    report = ParaphraseReport()
    out = []
    for q in questions:
        report.tried += 1
        keep = [str(s) for s in q.logical_form.get("must_keep", ())]
        try:
            text = paraphrase(q.question)
        except Exception as exc:  # a failing paraphraser must not lose the question
            report.failed += 1
            report.examples.append({"id": q.id, "error": f"{type(exc).__name__}: {exc}"})
            out.append(q)
            continue
        lost = [s for s in keep if s.lower() not in text.lower()]
        if lost or not text.strip():
            report.rejected += 1
            report.examples.append({"id": q.id, "paraphrase": text, "lost": ", ".join(lost) or "(empty)"})
            out.append(q)
            continue
        report.accepted += 1
        lf = dict(q.logical_form)
        lf["template_question"] = q.question
        out.append(replace(q, question=text.strip(), logical_form=lf))
    return out, report


def graph_phrases(name: str = "yago11k") -> PhraseBook:
    """Readable phrases for a graph viewed as a table named ``name``."""
    return PhraseBook(
        tfds={
            GRAPH_TFD: {
                "subject": "the one that {subject} {relation}",
                "wh": "What was",
                "wh_now": "What is",
                "period": "period",
            }
        },
        facts={name: "{subject} {relation} {object}"},
    )
