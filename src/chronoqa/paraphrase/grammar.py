"""The deterministic paraphraser: a grammar of alternative templates, so CI rewords without a model.

Each :class:`Rule` rewrites a question's surface form one way, or does not apply (``None``):

* ``front_to_back`` / ``back_to_front``: move a leading time clause ("As of 1984, ...", "When X joined Y, ...")
  to the end, or a trailing one ("... in 2014?", "... when X joined Y?") to the front;
* ``year_question``: "In which year" <-> "When" <-> "In what year" (only at year granularity, where they ask
  the same thing);
* ``time_synonyms``: synonyms of the time phrase ("as of 1984" <-> "as things stood in 1984", "during" <->
  "in", "one year before" <-> "in the year before", "immediately" -> "right");
* ``term_clause``: a table question's "whose term began/ended" clause as "to take office" / "to leave
  office" (first/last) or "which ... had a term that ...";
* ``yes_no``: "Yes or no: X?" <-> "Is it true that X?", "Was it still the case" <-> "Did it still hold";
* ``voice``: the passive where it is safe ("did A receive B" -> "was B received by A") and a fronted
  preposition ("Which team did X play for" -> "For which team did X play").

:func:`candidates` lists the rewordings of a question: each rule alone, in order, then each pair of rules
applied one after the other; duplicates and the original itself left out. What is kept is decided by the
faithfulness check (:mod:`chronoqa.generate.faithful`), never by the grammar.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

from chronoqa.records import Question
from chronoqa.time import extract_times

__all__ = ["GRAMMAR_ID", "RULES", "Rule", "candidates"]

GRAMMAR_ID: Final = "grammar@1"
"""The paraphraser's name and version in a paraphrase set (a change of any rule's output is a new version)."""

Rewrite = Callable[[str, Question], str | None]


@dataclass(frozen=True)
class Rule:
    """One alternative template: a name and a rewrite (``None``: it does not apply)."""

    name: str
    rewrite: Rewrite


def _upper_first(s: str) -> str:
    return s[:1].upper() + s[1:]


def _lower_first(s: str) -> str:
    """Lower the first letter of a clause that starts with a function word (a name keeps its capital)."""
    word = s.split(" ", 1)[0]
    return s[:1].lower() + s[1:] if word.lower() in _FUNCTION_WORDS else s


_FUNCTION_WORDS: Final = frozenset(
    re.findall(
        r"\w+",
        "who which what when where in as during one at after before going most last how was is did were are the for",
    )
)
_LEADS: Final = (
    r"As of|As things stood in|Going by the situation in|In the year (?:before|after)|One year (?:before|after)"
    r"|At the time|When|After|Before|During|In|At first|Most recently"
)
_FRONT: Final = re.compile(rf"^(?P<lead>(?:{_LEADS})\b[^,?]*), (?P<rest>[^?]+)\?$")
_TRAIL_CLAUSE: Final = re.compile(
    r" (?P<lead>(?:in the year (?:before|after)|one year (?:before|after)|at the time|when) .+)\?$"
)
_TRAIL_PREP: Final = ("in", "during", "as of")
# a trailing phrase that belongs to a clause, not to the whole question: moving it would change what is asked
# ("whose term ended on 8 July 2010?" is not "On 8 July 2010, who ...?"; "from when X joined until ...")
_BOUND_CLAUSE: Final = re.compile(r"^How |\bwhose\b|\b(?:from|between|and|until)$")


def front_to_back(text: str, q: Question) -> str | None:
    """Leading to trailing: "As of 1984, which team did X play for?" -> "Which team did X play for as of 1984?"."""
    m = _FRONT.match(text)
    if m is None:
        return None
    return f"{_upper_first(m['rest'])} {_lower_first(m['lead'])}?"


def back_to_front(text: str, q: Question) -> str | None:
    """Trailing to leading: "Which team did X play for in 2014?" -> "In 2014, which team did X play for?".

    Also a trailing clause ("... when X joined Y?").
    """
    if not text.endswith("?") or _BOUND_CLAUSE.search(text):
        return None
    m = _TRAIL_CLAUSE.search(text)
    if m is not None and m.start() > 0:
        rest = text[: m.start()]
        if _BOUND_CLAUSE.search(rest):
            return None
        return f"{_upper_first(m['lead'])}, {_lower_first(rest)}?"
    times = extract_times(text)
    if not times or times[-1].end != len(text) - 1:
        return None
    head = text[: times[-1].begin].rstrip()
    for prep in _TRAIL_PREP:
        if head.endswith(" " + prep):
            rest = head[: -len(prep) - 1]
            return f"{_upper_first(prep)} {times[-1].text}, {_lower_first(rest)}?"
    return None


_YEAR_FORMS: Final = (
    ("In which year did ", "When did "),
    ("In what year did ", "In which year did "),
    ("What year did ", "In which year did "),
    ("When did ", "In which year did "),
)


def year_question(text: str, q: Question) -> str | None:
    """Year questions: "In which year did" <-> "When did" (at year granularity only)."""
    if q.granularity not in (None, "year"):
        return None
    for a, b in _YEAR_FORMS:
        if text.startswith(a):
            return b + text[len(a) :]
    return None


_Rewrites = tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...]


def _first_rewrite(table: _Rewrites, text: str) -> str | None:
    """``text`` rewritten by the first (pattern, replacement) of ``table`` that matches, else None."""
    for pattern, repl in table:
        new, n = pattern.subn(repl, text, count=1)
        if n:
            return new
    return None


_SYNONYMS: Final = (
    (re.compile(r"^As of (\d{4}),"), r"As things stood in \1,"),
    (re.compile(r"^As things stood in (\d{4}),"), r"As of \1,"),
    (re.compile(r"^Going by the situation in (\d{4}),"), r"As of \1,"),
    (re.compile(r" as of (\d{4})\?$"), r" as things stood in \1?"),
    (re.compile(r"\b([Oo])ne year (before|after)\b"), lambda m: f"{'I' if m[1] == 'O' else 'i'}n the year {m[2]}"),
    (re.compile(r"\b([Ii])n the year (before|after)\b"), lambda m: f"{'O' if m[1] == 'I' else 'o'}ne year {m[2]}"),
    (re.compile(r" during (\d{4})\b"), r" in \1"),
    (re.compile(r"^During (\d{4}),"), r"In \1,"),
    (re.compile(r"\bimmediately (before|after)\b"), r"right \1"),
    (re.compile(r"\bwhose (terms?) began\b"), r"whose \1 started"),
)


def time_synonyms(text: str, q: Question) -> str | None:
    """The first synonym of the time phrase that applies ("as of 1984" -> "as things stood in 1984", ...)."""
    return _first_rewrite(_SYNONYMS, text)


_FIRST_LAST: Final = (
    (re.compile(r"^Who was the first (.+?) whose term began (.+)\?$"), r"Who was the first \1 to take office \2?"),
    (re.compile(r"^Who was the last (.+?) whose term ended (.+)\?$"), r"Who was the last \1 to leave office \2?"),
    (re.compile(r"^Who was the (?!first |last )(.+?) whose term (.+)\?$"), r"Which \1 had a term that \2?"),
    (re.compile(r"^Who were the (?!first |last )(.+?) whose terms (.+)\?$"), r"Which \1 had terms that \2?"),
)


def term_clause(text: str, q: Question) -> str | None:
    """A table question's "whose term ..." clause reworded ("to take office after", "had a term that")."""
    return _first_rewrite(_FIRST_LAST, text)


_YES_NO: Final = (
    (re.compile(r"^Yes or no: (.+)\?$"), lambda m: f"Is it true that {_lower_first(m[1])}?"),
    (re.compile(r"^Is it true that (.+)\?$"), lambda m: f"Yes or no: {m[1]}?"),
    (re.compile(r"^Was it still the case in (.+)\?$"), lambda m: f"Did it still hold in {m[1]}?"),
    (re.compile(r"^Did it still hold in (.+)\?$"), lambda m: f"Was it still the case in {m[1]}?"),
)


def yes_no(text: str, q: Question) -> str | None:
    """Yes/no forms: "Yes or no: X?" <-> "Is it true that X?"; "Was it still the case" <-> "Did it still hold"."""
    return _first_rewrite(_YES_NO, text)


_PASSIVE: Final = re.compile(r"^(When|In which year|In what year|What year) did (.+?) receive (?:the award )?(.+)\?$")
_STRANDED: Final = re.compile(r"^Which (\w+) did (.+?) play for\b(.*)\?$")


def voice(text: str, q: Question) -> str | None:
    """The passive where safe ("When did A receive B?" -> "When was B received by A?"), or a fronted preposition."""
    m = _PASSIVE.match(text)
    if m is not None:
        return f"{m[1]} was {m[3]} received by {m[2]}?"
    m = _STRANDED.match(text)
    if m is not None:
        return f"For which {m[1]} did {m[2]} play{m[3]}?"
    return None


RULES: Final = (
    Rule("front_to_back", front_to_back),
    Rule("back_to_front", back_to_front),
    Rule("year_question", year_question),
    Rule("time_synonyms", time_synonyms),
    Rule("term_clause", term_clause),
    Rule("yes_no", yes_no),
    Rule("voice", voice),
)
"""The grammar, in the order its rewordings are proposed."""


def candidates(q: Question) -> Iterator[tuple[str, str]]:
    """``(rule, text)`` for every distinct rewording of ``q``: single rules first, then pairs in order."""
    seen = {q.question}
    singles: list[tuple[Rule, str]] = []
    for rule in RULES:
        text = rule.rewrite(q.question, q)
        if text is not None and text not in seen:
            seen.add(text)
            singles.append((rule, text))
            yield rule.name, text
    for first, text in singles:
        for rule in RULES:
            if rule is first:
                continue
            twice = rule.rewrite(text, q)
            if twice is not None and twice not in seen:
                seen.add(twice)
                yield f"{first.name}+{rule.name}", twice
