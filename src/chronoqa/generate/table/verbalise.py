"""Deterministic English questions and corpus sentences for table-built questions.

Phrases come from the column names (``Organization_name`` → "organization name"), with a few
readable defaults: when the answer column is a person (``Name``, ``Person``...) the question asks
"Who", and when a role-like column (``Role``, ``Position``, ``Title``) is on the left-hand side the
subject reads "the {Role} of {Country}". A phrase file (JSON) overrides any of it per TFD::

    {"tfds": {"Country,Role->Name": {"subject": "the {Role} of {Country}", "wh": "Who was",
                                     "wh_now": "Who is", "period": "term",
                                     "subject_plural": "the {Role:plural} of {Country}"}},
     "facts": {"dyknow_leaders": "{Name} was the {Role} of {Country}"},
     "joins": {"Game_name": "Who was the {Role} of the host country during the {Game_name} Games?",
               "Game_edition,Season": "Who was the {Role} of the host country during the
                                       {Game_edition:ordinal} {Season} Olympic Games?"}}

Status and event tables (:mod:`.families`) take their question templates from ``"tables": {"legal": {"since":
..., "set": ..., "when": ..., "in:<column>": ...}}``, filled with the row's columns (``{Law_type:lower}``) and the
family's fields (``{from}``, ``{to}``, ``{year}``).

Several answers are asked in the plural ("Who were the Prime Ministers of ... whose terms ..."): the
``*_plural`` entries, derived when not given (:func:`plural_template`, :func:`plural_verb`). Questions never
name the table or "the database". :func:`paraphrase_questions` runs an optional
paraphrase callable and :func:`reword_questions` keeps a rewording only when the one faithfulness check
(:func:`chronoqa.generate.faithful.check_rewording`) passes, counting the rejections.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from chronoqa.errors import ChronoqaError
from chronoqa.generate.articles import definite
from chronoqa.generate.faithful import RewordingReport
from chronoqa.io import read_json
from chronoqa.records import Question
from chronoqa.sources.graph_table import GRAPH_TFD
from chronoqa.time import Allen

__all__ = [
    "CLAUSES",
    "ROLE_COLUMNS",
    "ROW_NOUNS",
    "PhraseBook",
    "TFDPhrases",
    "bounded_subject",
    "column_label",
    "english_list",
    "graph_phrases",
    "ordinal",
    "paraphrase_questions",
    "person_column",
    "plural_noun",
    "plural_question",
    "plural_template",
    "plural_verb",
    "possessive",
    "render",
    "reword_questions",
    "row_noun",
]

_PERSON_COLUMNS = frozenset(
    {"name", "person", "leader", "player", "holder", "ceo", "officeholder", "director", "author", "winner"}
    | {"doctor", "physician", "surgeon", "nurse", "patient", "employee", "manager", "supervisor", "coach"}
    | {"teacher", "mentor", "member", "tenant", "captain", "chair", "chairman", "chairperson", "president"}
)
ROLE_COLUMNS = frozenset({"role", "position", "title", "office"})

#: What one row of a table is, read from the words of its column names (its start and end columns first): an
#: admission and a discharge make a *stay*, an employer a *contract*, a member a *membership*. The first word
#: found names the row; a table none of whose words is here has *periods*. Only words that say what the row is
#: whatever the key ("hospital" or "party" would not: a doctor's years at a hospital, a country's ruling party).
ROW_NOUNS: dict[str, str] = {
    **dict.fromkeys(("admission", "admitted", "discharge", "discharged", "patient", "inpatient"), "stay"),
    **dict.fromkeys(("contract", "hired", "employee", "employer", "employment"), "contract"),
    **dict.fromkeys(("membership", "member", "joined"), "membership"),
    **dict.fromkeys(("lease", "tenant", "landlord"), "lease"),
    **dict.fromkeys(("enrolled", "enrolment", "enrollment", "student"), "enrolment"),
    **dict.fromkeys(("loan", "borrower", "lender"), "loan"),
    **dict.fromkeys(("term", "elected", "mandate"), "term"),
    **dict.fromkeys(("residence", "resident", "address"), "residence"),
    **dict.fromkeys(("marriage", "married", "spouse"), "marriage"),
    **dict.fromkeys(("subscription", "subscriber"), "subscription"),
    **dict.fromkeys(("assignment", "assigned"), "assignment"),
    **dict.fromkeys(("team", "player"), "spell"),
}
DEFAULT_ROW = "period"

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


def person_column(column: str) -> bool:
    """A column whose values are people (``Name``, ``Director``): asked with "Who"."""
    return column_label(column) in _PERSON_COLUMNS


def row_noun(columns: Sequence[str], start_column: str = "", end_column: str = "") -> str:
    """What a row is (:data:`ROW_NOUNS`): the first word of the start, end, then other column names that says so.

    ``Admission``/``Discharge`` → ``stay``; ``Employee, Employer, ..., Contract_start`` → ``contract``; no known
    word → ``period``.
    """
    for column in (start_column, end_column, *columns):
        for word in re.split(r"[^a-z0-9]+", column.lower()):
            if word in ROW_NOUNS:
                return ROW_NOUNS[word]
    return DEFAULT_ROW


def possessive(name: str) -> str:
    """``Troy Simmons`` → ``Troy Simmons's``; ``World Bank`` → ``the World Bank's`` (the article rule of names)."""
    return f"{definite(name)}'s"


def ordinal(n: int | str) -> str:
    """``1`` → ``1st``, ``22`` → ``22nd``, ``13`` → ``13th``."""
    k = int(n)
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


_IRREGULAR_PLURALS = {"person": "people", "child": "children"}
_HEAD_STOPS = frozenset({"of", "that", "who", "which", "whose", "for", "in", "at"})


def plural_noun(phrase: str) -> str:
    """English plural of a noun phrase's head (its last word): ``Prime Minister`` → ``Prime Ministers``.

    A phrase with ``of`` pluralises the word before it (``head of state`` → ``heads of state``); a word
    already ending in ``s`` is left alone (``Games``).
    """
    words = phrase.split(" ")
    at = words.index("of") - 1 if "of" in words[1:] else len(words) - 1
    w = words[at]
    low = w.lower()
    if not w or not w[-1:].isalpha() or (low.endswith("s") and not low.endswith(("ss", "us"))):
        return phrase
    if "-" in w and low.endswith("-general"):  # Secretary-General → Secretaries-General
        first, rest = w.split("-", 1)
        words[at] = f"{plural_noun(first)}-{rest}"
    elif low in _IRREGULAR_PLURALS:
        p = _IRREGULAR_PLURALS[low]
        words[at] = p.capitalize() if w[:1].isupper() else p
    elif low.endswith("man") and low not in ("human", "german", "roman", "ottoman"):
        words[at] = w[:-3] + w[-3:].replace("an", "en")
    elif low.endswith(("ss", "sh", "x", "z", "us")) or (low.endswith("ch") and not low.endswith("arch")):
        words[at] = w + "es"
    elif low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        words[at] = w[:-1] + "ies"
    else:
        words[at] = w + "s"
    return " ".join(words)


def english_list(values: Sequence[str]) -> str:
    """``A``; ``A and B``; ``A, B and C``: several values of one cell as a question prints them."""
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1] if values else ""


class _Formatter(string.Formatter):
    """``str.format`` plus the format specs ``ordinal`` (``{Game_edition:ordinal}``) and ``plural``."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "ordinal":
            return ordinal(value)
        if format_spec == "plural":
            return plural_noun(str(value))
        if format_spec == "lower":
            return str(value).lower()
        if format_spec == "possessive":
            return possessive(str(value))
        return str(super().format_field(value, format_spec))


_FMT = _Formatter()


def render(template: str, values: Mapping[str, Any], *, articled: Collection[str] = ()) -> str:
    """Fill a phrase template; a missing field names the template and the known fields.

    A field of ``articled`` (a name in running text: a country, an organisation) gets "the" where English
    writes it ("the legal status ... in the Czech Republic": :func:`chronoqa.generate.articles.definite`, the
    rule both builders share), unless it has a format spec, starts the text or follows "the " already.
    """
    try:
        if not articled:
            return _FMT.vformat(template, (), dict(values))
        out: list[str] = []
        for literal, name, spec, conversion in _FMT.parse(template):
            out.append(literal)
            if name is None:
                continue
            value, _ = _FMT.get_field(name, (), dict(values))
            text = _FMT.format_field(_FMT.convert_field(value, conversion) if conversion else value, spec or "")
            before = "".join(out)
            if name in articled and not spec and before.strip() and not before.lower().endswith("the "):
                text = definite(text)
            out.append(text)
        return "".join(out)
    except (KeyError, IndexError, ValueError) as exc:
        raise ChronoqaError(
            f"phrase template {template!r} cannot be filled ({exc}): known fields are {', '.join(sorted(values))}"
        ) from None


@dataclass(frozen=True, slots=True)
class TFDPhrases:
    """How questions about one TFD read, in the singular and (``*_plural``) for several answers."""

    subject: str
    wh: str
    wh_now: str
    period: str
    subject_plural: str = ""
    wh_plural: str = ""
    wh_now_plural: str = ""
    period_plural: str = ""
    #: the row read as what it is ("stay"): questions ask "... during the stay that began ..." rather than
    #: "... whose period began ..." (empty: the ``period`` form, as a phrase file's TFD entry words it)
    row: str = ""
    row_plural: str = ""

    def number(self, plural: bool) -> TFDPhrases:
        """These phrases in the singular, or in the plural (the ``*_plural`` fields moved into place).

        The row noun keeps both numbers: it follows the number of rows, not of answers.
        """
        if not plural:
            return self
        return TFDPhrases(
            self.subject_plural or self.subject,
            self.wh_plural or self.wh,
            self.wh_now_plural or self.wh_now,
            self.period_plural or self.period,
            row=self.row,
            row_plural=self.row_plural,
        )


def plural_template(template: str) -> str:
    """A subject template in the plural: its head noun (a ``{Field}`` or a word) gets ``:plural``/``-s``.

    The head is the last word of the template's leading noun (before ``of``, ``that``, ``who``...):
    ``the {Role} of {Country}`` → ``the {Role:plural} of {Country}``; ``the team of {Name}`` → ``the teams of
    {Name}``; ``the one that {subject} {relation}`` → ``the ones that {subject} {relation}``. A template
    whose head cannot be found is returned unchanged.
    """
    words = template.split(" ")
    at = -1
    for i, w in enumerate(words):
        if w.lower() in _HEAD_STOPS and i > 0:
            break
        at = i
        if w.startswith("{"):
            break
    if at < 0 or (at == 0 and words[0].lower() == "the"):
        return template
    w = words[at]
    m = re.fullmatch(r"\{(\w+)\}(.*)", w)
    words[at] = f"{{{m.group(1)}:plural}}{m.group(2)}" if m else plural_noun(w)
    return " ".join(words)


def plural_verb(wh: str) -> str:
    """``Who was`` → ``Who were``; ``What is`` → ``What are``."""
    return re.sub(r"\b(was|is)$", lambda m: "were" if m.group(1) == "was" else "are", wh)


def plural_question(template: str) -> str:
    """A question template in the plural: ``Who was the {Role} of ...`` → ``Who were the {Role:plural} of ...``.

    Templates that do not start with ``Who was`` / ``What was`` / ``Who is`` / ``What is`` are returned unchanged.
    """
    m = re.match(r"(Who|What) (was|is) ", template)
    if m is None:
        return template
    return f"{plural_verb(m.group(0).rstrip())} {plural_template(template[m.end() :])}"


def bounded_subject(subject: str, form: str) -> str:
    """``the Prime Minister of Sweden`` → ``the last Prime Minister of Sweden`` (``form``: last / first)."""
    if subject.startswith("the "):
        return f"the {form} {subject[4:]}"
    return f"the {form} of {subject}"


@dataclass(frozen=True)
class PhraseBook:
    """Phrase overrides (from a phrase file) with column-derived defaults."""

    tfds: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    facts: Mapping[str, str] = field(default_factory=dict)
    joins: Mapping[str, str] = field(default_factory=dict)
    tables: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path | None) -> PhraseBook:
        """Read a phrase file (``None``: defaults only)."""
        if path is None:
            return cls()
        return cls.from_dict(read_json(path), str(path))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "phrase file") -> PhraseBook:
        """A phrase book from a phrase file's content (``where`` names it in an error)."""
        if not isinstance(data, dict) or not set(data) <= {"tfds", "facts", "joins", "tables"}:
            raise ChronoqaError(
                f"{where}: a phrase file is a JSON object with keys 'tfds', 'facts', 'joins' and/or 'tables'"
            )
        return cls(
            dict(data.get("tfds", {})),
            dict(data.get("facts", {})),
            dict(data.get("joins", {})),
            dict(data.get("tables", {})),
        )

    def over(self, base: PhraseBook) -> PhraseBook:
        """This book's entries over ``base``'s: a table's entry by entry; a TFD's phrases, a fact, a join whole."""
        return PhraseBook(
            {**base.tfds, **self.tfds},
            {**base.facts, **self.facts},
            {**base.joins, **self.joins},
            {k: {**base.tables.get(k, {}), **self.tables.get(k, {})} for k in {**base.tables, **self.tables}},
        )

    def complete_tables(self) -> frozenset[str]:
        """The tables this phrase file declares complete (``"tables": {"olympic": {"complete": "true"}}``)."""
        out = set()
        for name, entry in self.tables.items():
            value = entry.get("complete", "false")
            if str(value).lower() not in ("true", "false"):
                raise ChronoqaError(
                    f"phrase file: table {name!r} entry 'complete' is {value!r}: expected \"true\" (the table lists "
                    'every row of its domain in the world) or "false"'
                )
            if str(value).lower() == "true":
                out.add(name)
        return frozenset(out)

    def for_tfd(self, lhs: Sequence[str], rhs: str, row: str = "") -> TFDPhrases:
        """Phrases for ``lhs -> rhs`` (file entries win over defaults).

        ``row``: what a row of the table is ("stay": :func:`row_noun`). Given, a TFD the phrase file does not word
        and whose key names no role ("the President of Germany" stays the role's wording) reads its rows as such:
        "Troy Simmons's doctor during the stay that began ...".
        """
        key = f"{','.join(lhs)}->{rhs}"
        if row and key not in self.tfds and not any(column_label(c) in ROLE_COLUMNS for c in lhs):
            return _row_phrases(lhs, rhs, row)
        default = _default_phrases(lhs, rhs)
        over = self.tfds.get(key, {})
        subject = over.get("subject", default.subject)
        wh, wh_now, period = (over.get(k, getattr(default, k)) for k in ("wh", "wh_now", "period"))
        return TFDPhrases(
            subject=subject,
            wh=wh,
            wh_now=wh_now,
            period=period,
            subject_plural=over.get("subject_plural", plural_template(subject)),
            wh_plural=over.get("wh_plural", plural_verb(wh)),
            wh_now_plural=over.get("wh_now_plural", plural_verb(wh_now)),
            period_plural=over.get("period_plural", plural_noun(period)),
        )

    def fact(self, table: str, columns: Sequence[str], values: Sequence[str | None]) -> str:
        """One corpus sentence for a row (without its dates)."""
        if table in self.facts:
            return render(self.facts[table], {c: v or "" for c, v in zip(columns, values, strict=True)})
        return "; ".join(f"{column_label(c)}: {v}" for c, v in zip(columns, values, strict=True) if v is not None)


def _wh(person: bool) -> tuple[str, str]:
    """The question words of a past and of a present holder: "Who" for people, else "What"."""
    return ("Who was", "Who is") if person else ("What was", "What is")


def _key_parts(lhs: Sequence[str]) -> str:
    """The key columns with their values: "country {Country} and role {Role}"."""
    return " and ".join(f"{column_label(c)} {{{c}}}" for c in lhs)


def _default_phrases(lhs: Sequence[str], rhs: str) -> TFDPhrases:
    person = person_column(rhs)
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
        subject = f"the {column_label(rhs)} for {_key_parts(lhs)}"
    wh, wh_now = _wh(person)
    return TFDPhrases(
        subject=subject,
        wh=wh,
        wh_now=wh_now,
        period="term" if person and roles else "period",
    )


def _row_phrases(lhs: Sequence[str], rhs: str, row: str) -> TFDPhrases:
    """The row form: "{Patient:possessive} doctor" (one key column) or "the doctor for patient {Patient} and ..."."""
    label = column_label(rhs)
    if len(lhs) == 1:
        subject = f"{{{lhs[0]}:possessive}} {label}"
        subject_plural = f"{{{lhs[0]}:possessive}} {plural_noun(label)}"
    else:
        parts = _key_parts(lhs)
        subject, subject_plural = f"the {label} for {parts}", f"the {plural_noun(label)} for {parts}"
    wh, wh_now = _wh(person_column(rhs))
    return TFDPhrases(
        subject=subject,
        wh=wh,
        wh_now=wh_now,
        period=row,
        subject_plural=subject_plural,
        wh_plural=plural_verb(wh),
        wh_now_plural=plural_verb(wh_now),
        period_plural=plural_noun(row),
        row=row,
        row_plural=plural_noun(row),
    )


def reword_questions(
    questions: Sequence[Question], texts: Sequence[str | None], errors: Mapping[int, str], rule: str
) -> tuple[list[Question], RewordingReport]:
    """Each question reworded as ``texts[i]`` where the faithfulness check passes, else as it was.

    ``texts[i]`` None: not reworded (a failed request when ``errors`` has ``i``, counted; else not asked). A
    kept rewording becomes the question's text, the template's wording staying in
    ``logical_form["template_question"]``; the check is :func:`chronoqa.generate.faithful.check_rewording`.
    """
    report = RewordingReport()
    out = list(questions)
    for i, (q, text) in enumerate(zip(questions, texts, strict=True)):
        if text is None:
            if i in errors:
                report.fail(q, errors[i])
            continue
        if report.judge(q, rule, text, same_ok=True) or text.strip() == q.question.strip():
            continue
        out[i] = replace(q, question=text.strip(), logical_form={**q.logical_form, "template_question": q.question})
    return out, report


def paraphrase_questions(
    questions: Sequence[Question], paraphrase: Callable[[str], str]
) -> tuple[list[Question], RewordingReport]:
    """Reword each question with ``paraphrase``; keep the template text unless the faithfulness check passes."""
    texts: list[str | None] = []
    errors: dict[int, str] = {}
    for i, q in enumerate(questions):
        try:
            texts.append(paraphrase(q.question))
        except Exception as exc:  # a failing paraphraser must not lose the question
            texts.append(None)
            errors[i] = f"{type(exc).__name__}: {exc}"
    return reword_questions(questions, texts, errors, "paraphrase")


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
        # (subject, relation) -> object mixes one- and many-valued relations (a person's prizes): on a graph not
        # declared complete only one fact's own start and end are asked (build: spell_start / spell_end)
        tables={
            name: {
                "spell_start": "In which year did “{subject} {relation} {object}” become true?",
                "spell_end": "In which year did “{subject} {relation} {object}” stop being true?",
            }
        },
    )
