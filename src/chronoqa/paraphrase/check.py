"""The faithfulness check of a paraphrase: independent of the paraphraser that wrote it.

A paraphrase is kept only if it asks about the same things at the same times as its original (and is a
question where the original is one):

* **key values**: every name of the question's facts that the original states (a subject or object label
  of S*, the anchor facts or the distractors found in its text) is in the paraphrase verbatim;
* **entities**: every capitalised word of the original is there, and the paraphrase adds no capitalised
  word the original lacks (its first word may be any question opener, or a word of the original);
* **dates**: the surface dates (the times :func:`chronoqa.time.extract_times` finds, by their value) are
  the same multiset: none dropped, none added;
* **time reading**: the reader's full reading (interval, kind, exclusive bound) is the same multiset, so
  "after 2001" turned into "from 2001" (a different bound) is rejected even though the date is kept.

:func:`check_paraphrase` returns the reasons it rejects (empty: accepted).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from chronoqa.records import Question
from chronoqa.time import TimeMention, extract_times

__all__ = ["OPENERS", "check_paraphrase", "key_values"]

OPENERS: Final = frozenset(
    re.findall(
        r"\w+",
        "who whom whose which what when where why how in on at as during for from by since after before until "
        "one is was were are did does do yes true counting going things the a an to with between",
    )
)
"""Words a paraphrase may start with (capitalised) although the original does not use them capitalised."""

_WORD: Final = re.compile(r"[^\W\d_][\w'’.\-]*")


def key_values(q: Question) -> list[str]:
    """The names of the question's facts that its text states, longest first (each checked verbatim)."""
    names: set[str] = set()
    for t in (*q.S_star, *q.S_anchor, *q.S_dist):
        for label in (t.s, t.o):
            if label and len(label) > 1 and label in q.question:
                names.add(label)
    return sorted(names, key=lambda s: (-len(s), s))


def _capitalised(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group().rstrip(".")) for m in _WORD.finditer(text) if m.group()[0].isupper()]


def _first_word_kept(original: str, word: str, paraphrase: str) -> bool:
    """The original's first word, capitalised only because it starts the sentence, kept in lower case."""
    first = _WORD.search(original)
    return (
        first is not None
        and first.group() == word
        and re.search(rf"\b{re.escape(word.lower())}\b", paraphrase) is not None
    )


def _without_times(text: str) -> str:
    """``text`` with its time expressions blanked (a month name is a date's, not an entity word)."""
    for m in reversed(extract_times(text)):
        text = text[: m.begin] + " " * (m.end - m.begin) + text[m.end :]
    return text


def _entity_reasons(original: str, paraphrase: str) -> list[str]:
    original, paraphrase = _without_times(original), _without_times(paraphrase)
    orig_caps = Counter(w for _, w in _capitalised(original))
    orig_words = {w.lower() for w in _WORD.findall(original)}
    para = _capitalised(paraphrase)
    reasons = []
    para_caps = Counter(w for _, w in para)
    for w in sorted(orig_caps):
        if para_caps[w] < orig_caps[w] and w.lower() not in OPENERS and not _first_word_kept(original, w, paraphrase):
            reasons.append(f"drops entity word {w!r}")
    first = min((p for p, _ in para), default=None)
    for pos, w in para:
        if w in orig_caps:
            continue
        at_start = first is not None and pos == first and not paraphrase[:pos].strip(" \"'“‘")
        if at_start and (w.lower() in OPENERS or w.lower() in orig_words):
            continue
        reasons.append(f"adds entity word {w!r}")
    return reasons


def _dates(m: TimeMention) -> str:
    """The dates a mention states, whatever bound it puts on them ("after 15 February 2001": that day)."""
    return " ".join(str(p) for p in dict.fromkeys((m.interval.start, m.interval.end)) if p is not None)


def _time_reasons(original: str, paraphrase: str) -> list[str]:
    a, b = extract_times(original), extract_times(paraphrase)
    va, vb = Counter(_dates(m) for m in a), Counter(_dates(m) for m in b)
    reasons = [f"drops date {m.text!r}" for m in a if va[_dates(m)] > vb[_dates(m)]]
    reasons += [f"adds date {m.text!r}" for m in b if vb[_dates(m)] > va[_dates(m)]]
    if not reasons:
        ra = Counter((str(m.interval), m.kind, m.exclusive) for m in a)
        rb = Counter((str(m.interval), m.kind, m.exclusive) for m in b)
        if ra != rb:
            read = ", ".join(f"{m.text!r} as {m.kind}" for m in b)
            reasons.append(f"the time reader reads its times differently: {read}")
    return reasons


def check_paraphrase(q: Question, paraphrase: str, keys: Sequence[str] | None = None) -> tuple[str, ...]:
    """Why ``paraphrase`` does not ask what ``q`` asks (empty: faithful); ``keys`` default to :func:`key_values`."""
    text = paraphrase.strip()
    if not text:
        return ("empty",)
    if text == q.question.strip():
        return ("same as the original",)
    if q.question.rstrip().endswith("?") and not text.endswith("?"):
        return ("not a question (no '?')",)
    reasons: list[str] = [
        f"drops key value {k!r}" for k in (keys if keys is not None else key_values(q)) if k not in text
    ]
    reasons += _entity_reasons(q.question, text)
    reasons += _time_reasons(q.question, text)
    return tuple(_unique(reasons))


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
