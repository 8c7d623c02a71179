"""The one faithfulness check of a rewording of a question, and the one report of what it rejected.

Every step that rewords a question uses it: the LLM wording of a table question from its SQL
(:mod:`chronoqa.generate.table.sql_text`), the build's rewording hook (:func:`chronoqa.generate.table.verbalise.
paraphrase_questions`), and the paraphrase sets' grammar and LLM paraphrasers (:mod:`chronoqa.paraphrase`).
A rewording is kept only if it asks about the same things at the same times as its original:

* **one question**: not empty, one line, and a question where the original is one;
* **key values**: every name of the question's facts that the original states (a subject or object label of
  S*, the anchor facts or the distractors found in its text) and every key value and date the builder recorded
  (``logical_form["must_keep"]``) that the original states is in the rewording verbatim (case-insensitively
  where the original writes it in another case);
* **entities**: every capitalised word of the original is there, and the rewording adds no capitalised word
  the original lacks (its first word may be any question opener, or a word of the original);
* **no answer**: no answer of the question is named more often than in the original (a "yes" beside a "no",
  as in "Yes or no: ...", offers both and names neither);
* **dates**: the surface dates (the times :func:`chronoqa.time.extract_times` finds, by their value) are the
  same multiset: none dropped, none added;
* **time reading**: the reader's full reading (interval, kind, exclusive bound) is the same multiset, so
  "after 2001" turned into "from 2001" (a different bound) is rejected even though the date is kept.

:func:`check_rewording` returns the reasons it rejects (empty: faithful); :class:`RewordingReport` counts
them overall, per reason, per question template and per rule.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from chronoqa.records import Question
from chronoqa.time import TimeMention, extract_times

__all__ = ["OPENERS", "RewordingReport", "check_rewording", "key_values", "reason_kind"]

OPENERS: Final = frozenset(
    re.findall(
        r"\w+",
        "who whom whose which what when where why how in on at as during for from by since after before until "
        "one is was were are did does do yes true counting going things the a an to with between "
        "could can would please tell",
    )
)
"""Words a rewording may start with (capitalised) although the original does not use them capitalised."""

_WORD: Final = re.compile(r"[^\W\d_][\w'’.\-]*")
_YES_NO: Final = frozenset({"yes", "no"})


def key_values(q: Question) -> list[str]:
    """The names and recorded key values of the question that its text states, longest first."""
    names: set[str] = set()
    for t in (*q.S_star, *q.S_anchor, *q.S_dist):
        for label in (t.s, t.o):
            if label and len(label) > 1 and label in q.question:
                names.add(label)
    low = q.question.lower()
    names.update(str(s) for s in q.logical_form.get("must_keep", ()) if str(s).strip() and str(s).lower() in low)
    return sorted(names, key=lambda s: (-len(s), s))


def _kept(key: str, original: str, text: str) -> bool:
    """``key`` is in ``text`` verbatim, or in any case where the original does not write it verbatim."""
    return key in text or (key not in original and key.lower() in text.lower())


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


def _count(word: str, text: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE))


def _answer_reasons(q: Question, text: str) -> list[str]:
    """An answer named more often than in the original ("yes" beside "no" offers both: it names neither)."""
    out = []
    for a in q.answers:
        if a.lower() in _YES_NO and all(_count(w, text) for w in _YES_NO):
            continue
        if _count(a, text) > _count(a, q.question):
            out.append(f"adds the answer {a!r}")
    return out


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


def check_rewording(
    q: Question, text: str, keys: Sequence[str] | None = None, *, same_ok: bool = False
) -> tuple[str, ...]:
    """Why ``text`` does not ask what ``q`` asks (empty: faithful); ``keys`` default to :func:`key_values`.

    ``same_ok``: the original's own text passes (a wording step may keep the draft); a paraphrase set needs a
    different text, so by default it is rejected as ``same as the original``.
    """
    text = text.strip()
    if not text:
        return ("empty",)
    if "\n" in text:
        return ("not one line",)
    if text == q.question.strip():
        return () if same_ok else ("same as the original",)
    if q.question.rstrip().endswith("?") and not text.endswith("?"):
        return ("not a question (no '?')",)
    reasons = [f"drops key value {k!r}" for k in (key_values(q) if keys is None else keys)
               if not _kept(k, q.question, text)]  # fmt: skip
    reasons += _entity_reasons(q.question, text)
    reasons += _answer_reasons(q, text)
    reasons += _time_reasons(q.question, text)
    return tuple(dict.fromkeys(reasons))


def reason_kind(reason: str) -> str:
    """A reason without its particulars ("drops date '2001'" -> "drops date"), to count reasons by kind."""
    return re.split(r" '|: | \(", reason, maxsplit=1)[0]


def _rate(c: Counter[str]) -> dict[str, Any]:
    checked = c["accepted"] + c["rejected"]
    rate = c["rejected"] / checked if checked else None
    return {"checked": checked, "rejected": c["rejected"], "rejection_rate": rate}


@dataclass
class RewordingReport:
    """What a rewording step did: tried (checked or failed), accepted, rejected with reasons, failed requests.

    Counts are kept overall, per reason kind, per question template and per rule (the grammar rule, or
    ``llm``); the rejection rate is over the checked rewordings (a failed request is not a rejection).
    """

    tried: int = 0
    accepted: int = 0
    rejected: int = 0
    failed: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    by_template: dict[str, Counter[str]] = field(default_factory=dict)
    by_rule: dict[str, Counter[str]] = field(default_factory=dict)
    examples: list[dict[str, str]] = field(default_factory=list)

    @property
    def rejection_rate(self) -> float | None:
        """Rejected over checked rewordings (None when none was checked)."""
        checked = self.accepted + self.rejected
        return self.rejected / checked if checked else None

    def count(self, q: Question, rule: str, text: str, reasons: Iterable[str]) -> None:
        """Record one checked rewording of ``q`` (made by ``rule``) and the reasons it was rejected (none: kept)."""
        why = tuple(reasons)
        verdict = "rejected" if why else "accepted"
        self.tried += 1
        setattr(self, verdict, getattr(self, verdict) + 1)
        self.by_template.setdefault(q.template_id or "", Counter())[verdict] += 1
        self.by_rule.setdefault(rule, Counter())[verdict] += 1
        self.reasons.update(dict.fromkeys(map(reason_kind, why), 1))
        if why:
            self.examples.append({"id": q.id, "text": text, "why": "; ".join(why)})

    def judge(self, q: Question, rule: str, text: str, *, same_ok: bool = False) -> tuple[str, ...]:
        """Check one rewording of ``q`` with :func:`check_rewording`, count it, and return the reasons."""
        why = check_rewording(q, text, same_ok=same_ok)
        self.count(q, rule, text, why)
        return why

    def fail(self, q: Question, error: str) -> None:
        """Record a request that gave no rewording (the question keeps its text)."""
        self.tried += 1
        self.failed += 1
        self.examples.append({"id": q.id, "error": error})

    def to_dict(self) -> dict[str, Any]:
        """JSON form (a manifest's or a paraphrase set's rates): counts, rates per template and rule, examples."""
        return {
            "tried": self.tried,
            "accepted": self.accepted,
            "rejected": self.rejected,
            "failed": self.failed,
            "rejection_rate": self.rejection_rate,
            "reasons": dict(sorted(self.reasons.items())),
            "by_template": {t: _rate(c) for t, c in sorted(self.by_template.items())},
            "by_rule": {r: _rate(c) for r, c in sorted(self.by_rule.items())},
            "rejected_examples": self.examples[:20],
        }
