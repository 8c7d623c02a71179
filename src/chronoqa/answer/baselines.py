"""Answerers that need no LLM, so every user gets numbers offline.

* :class:`ExtractiveReader` (``extractive``): answers from the retrieved facts using the question
  TEXT only (never the logical form or the gold): it finds the entities the question mentions and the
  relations it names, follows matching retrieved facts from a mentioned entity (several hops if the
  question names several relations), prefers facts valid at the time the question mentions, and
  returns the entity at the end of the chain, or a date for "when" questions.
* :class:`PriorAnswerer` (``prior``): the most frequent answer, in the TRAIN split, among questions of
  the same template asking about the same relation. It sees no entity and no time, so a good score
  on a slice means that slice is answerable by a shortcut; the report flags it.
* :class:`FakeAnswerer` (``fake``): deterministic test double: answers the gold for a hash-chosen
  fraction of questions, a wrong string for the others, and an error for another fraction.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chronoqa.answer.base import AnswerContext, AnswerRecord, Evidence
from chronoqa.answer.prompts import relation_phrase
from chronoqa.records import Question
from chronoqa.time import Interval, TimeParseError, TimePoint, parse_time, valid_at

__all__ = ["ExtractiveReader", "FakeAnswerer", "PriorAnswerer", "question_times"]

_TOKEN = re.compile(r"\w+", re.UNICODE)
_STOP = frozenset(
    {
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "by",
        "with",
        "from",
        "is",
        "was",
        "were",
        "be",
        "been",
        "did",
        "do",
        "does",
        "has",
        "had",
        "have",
        "who",
        "whom",
        "what",
        "which",
        "when",
        "where",
        "how",
        "whose",
        "that",
        "this",
        "these",
        "those",
        "and",
        "or",
        "as",
        "it",
        "its",
        "his",
        "her",
        "their",
        "he",
        "she",
        "they",
        "s",
    }
)
_WHEN = re.compile(r"^\s*(when\b|in\s+(which|what)\s+year\b|(which|what)\s+year\b|since\s+when\b)", re.IGNORECASE)
_END_WORDS = frozenset({"end", "ended", "stop", "stopped", "leave", "left", "until", "last", "finish", "finished"})


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(_TOKEN.findall(text.lower().replace("_", " ")))


def _stem(tok: str) -> str:
    """A crude, deterministic stem: strip a common suffix, keep at most 5 characters."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(tok) > len(suffix) + 2 and tok.endswith(suffix):
            tok = tok[: -len(suffix)]
            break
    return tok[:5]


def _content_stems(text: str) -> set[str]:
    return {_stem(t) for t in _norm(text).split() if t not in _STOP}


def _label_text(label: str) -> str:
    """An entity label as it would be written: ``<Getafe_CF>`` → ``getafe cf``."""
    return _norm(label.strip("<>"))


def question_times(text: str) -> list[TimePoint]:
    """Time points a question mentions (via :func:`chronoqa.time.text.extract_times`)."""
    try:
        from chronoqa.time.text import extract_times
    except ImportError:  # the time-text module is optional for this reader
        return []
    out: list[TimePoint] = []
    for found in extract_times(text):
        out.extend(_points_of(found))
    return out


def _points_of(found: Any) -> list[TimePoint]:
    if isinstance(found, TimePoint):
        return [found]
    if isinstance(found, Interval):
        return [p for p in (found.start, found.end) if p is not None]
    for attr in ("interval", "span"):
        v = getattr(found, attr, None)
        if isinstance(v, Interval):
            return _points_of(v)
    for attr in ("point", "time", "value", "start", "end"):
        v = getattr(found, attr, None)
        if isinstance(v, TimePoint):
            return [v]
    return []


@dataclass(frozen=True)
class _Hit:
    rank: int
    s: str
    r: str
    o: str
    t_start: str | None
    t_end: str | None
    s_norm: str
    o_norm: str
    interval: Interval | None


def _hits(evidence: Sequence[Evidence]) -> list[_Hit]:
    out = []
    for i, e in enumerate(evidence):
        try:
            iv: Interval | None = Interval(parse_time(e.get("t_start")), parse_time(e.get("t_end")))
        except TimeParseError:
            iv = None
        s, o = str(e.get("s", "")), str(e.get("o", ""))
        out.append(
            _Hit(i, s, str(e.get("r", "")), o, e.get("t_start"), e.get("t_end"), _label_text(s), _label_text(o), iv)
        )
    return out


def _mentioned(label_norm: str, q_norm: str) -> bool:
    return bool(label_norm) and f" {label_norm} " in f" {q_norm} "


class ExtractiveReader:
    """Answers from retrieved facts by matching the question's entity mentions and relation phrases."""

    uses_evidence = True

    def __init__(self, max_hops: int = 3) -> None:
        self.max_hops = max_hops
        self.spec = "extractive"

    def meta(self) -> dict[str, Any]:
        """Parameters."""
        return {"max_hops": self.max_hops, "reads": "question text and retrieved facts only"}

    def answer(
        self, questions: Sequence[Question], evidence: Mapping[str, Sequence[Evidence]], context: AnswerContext
    ) -> Iterator[AnswerRecord]:
        """One record per question."""
        for q in questions:
            yield self.answer_one(q.id, q.question, evidence.get(q.id, ()), q.as_of)
            if context.progress is not None:
                context.progress(1)

    def answer_one(self, qid: str, text: str, evidence: Sequence[Evidence], as_of: str | None = None) -> AnswerRecord:
        """Answer one question from its text and retrieved facts."""
        hits = _hits(evidence)
        if not hits:
            return AnswerRecord(qid, self.spec, "abstain", None, "no facts retrieved")
        reading = _Reading(text, hits, parse_time(as_of) if as_of else None)
        chain = reading.walk(self.max_hops)
        if not chain:
            # nothing mentioned: the best-ranked fact along a named relation, valid at the question time
            best = min(hits, key=lambda h: (-reading.rel_scores[h.r], -float(reading.time_ok(h)), h.rank))
            chain = [(best, best.o)]
        last, end = chain[-1]
        period = f"{last.t_start or '?'}–{last.t_end or ('ongoing' if last.t_start else '?')}"
        expl = "; ".join(f"{h.s} {relation_phrase(h.r)} {h.o} ({h.t_start or '?'}–{h.t_end or '?'})" for h, _ in chain)
        if reading.is_when:
            words = set(reading.q_norm.split())
            t = last.t_end if (words & _END_WORDS and last.t_end) else (last.t_start or last.t_end)
            if t is None:
                return AnswerRecord(qid, self.spec, "abstain", None, f"no date on {expl}")
            return AnswerRecord(qid, self.spec, "ok", t, f"{expl}; period {period}")
        return AnswerRecord(qid, self.spec, "ok", end, expl)


_Key = tuple[float, float, float, float, float, float]


class _Reading:
    """What the extractive answerer reads in one question: its names, relations, times and cues."""

    def __init__(self, text: str, hits: list[_Hit], as_of: TimePoint | None) -> None:
        self.hits, self.as_of = hits, as_of
        self.q_norm = q_norm = _norm(text)
        q_stems = _content_stems(text)
        self.times = question_times(text)
        self.is_when = bool(_WHEN.match(text))
        self.cue = _order_cue(q_norm)
        self.is_who = bool(re.match(r"^(who|whom)\b", q_norm))
        self.mentioned = {h.s_norm for h in hits if _mentioned(h.s_norm, q_norm)}
        self.mentioned |= {h.o_norm for h in hits if _mentioned(h.o_norm, q_norm)}

        def rel_score(r: str) -> float:
            stems = _content_stems(relation_phrase(r))
            return len(stems & q_stems) / len(stems) if stems else 0.0

        # relations the question names (among those retrieved), strongest first
        self.rel_scores = {h.r: rel_score(h.r) for h in hits}
        self.named = {r for r, sc in self.rel_scores.items() if sc >= 0.5}
        q_tokens = [_stem(t) for t in q_norm.split() if t not in _STOP]
        # how often the question names each relation (twice: a chain through the same relation)
        self.mentions = {
            r: max(1, sum(1 for t in q_tokens if t in _content_stems(relation_phrase(r)))) for r in self.named
        }
        self.used_rel: Counter[str] = Counter()

    def time_ok(self, h: _Hit) -> bool:
        """The fact is valid at a time the question names (or the question names none)."""
        if not self.times or h.interval is None:
            return True
        try:
            return any(valid_at(h.interval, t, as_of=self.as_of) for t in self.times)
        except (ValueError, TypeError):
            return True

    def fresh(self, r: str) -> bool:
        """A relation the question names, not yet followed as often as it is named."""
        return r in self.named and self.used_rel[r] < self.mentions[r]

    def options(self, frontier: set[str], chain: list[tuple[_Hit, str]]) -> list[tuple[_Key, _Hit, str]]:
        """Each fact with an end on the frontier, ranked by how well following it answers the question."""
        out: list[tuple[_Key, _Hit, str]] = []
        for h in self.hits:
            for here, there, there_norm in ((h.s_norm, h.o, h.o_norm), (h.o_norm, h.s, h.s_norm)):
                if here not in frontier or not here or (chain and h is chain[-1][0]):
                    continue
                key = (
                    # entity questions: lead to something the question does not name; "when" questions:
                    # the fact linking two names the question mentions
                    float((there_norm in self.mentioned) == self.is_when),
                    float(self.fresh(h.r)),
                    self.rel_scores[h.r],
                    float(self.time_ok(h)),
                    # "who" asks for a subject (people are subjects); other questions for an object
                    float((here == h.o_norm) if self.is_who else (here == h.s_norm)),
                    -float(h.rank),
                )
                out.append((key, h, there))
        return out

    def walk(self, max_hops: int) -> list[tuple[_Hit, str]]:
        """The chain of facts from the names the question mentions: (fact, end reached) per hop."""
        frontier = set(self.mentioned)
        chain: list[tuple[_Hit, str]] = []
        for _ in range(max_hops):
            options = self.options(frontier, chain)
            if not options:
                break
            options.sort(key=lambda x: x[0], reverse=True)
            key, best, there = options[0]
            if self.cue is not None:
                same = [(h, t) for k, h, t in options if k[:5] == key[:5]]
                best, there = _order_by_cue(self.cue, same, self.hits, self.mentioned)
            if chain and not (key[1] > 0 and key[0] > 0):
                break  # further hops only along another relation the question names
            chain.append((best, there))
            self.used_rel[best.r] += 1
            frontier = {_label_text(there)}
            if not any(self.fresh(r) for r in self.named):
                break
        return chain


_LAST = re.compile(r"\b(last|most recent(ly)?|latest)\b")
_FIRST = re.compile(r"\b(first|before any other|earliest)\b")
_NEXT = re.compile(r"\b(next|after)\b")
_PREV = re.compile(r"\b(previous(ly)?|before)\b")


def _order_cue(q_norm: str) -> str | None:
    """Which end of a timeline the question asks for: ``last``, ``first``, ``next`` or ``prev`` (or none)."""
    for name, pat in (("last", _LAST), ("first", _FIRST), ("next", _NEXT), ("prev", _PREV)):
        if pat.search(q_norm):
            return name
    return None


def _start_key(h: _Hit) -> int:
    iv = h.interval
    if iv is None or iv.start is None:
        return -(10**9)
    return iv.start.first_day()


def _order_by_cue(
    cue: str, cands: list[tuple[_Hit, str]], hits: Sequence[_Hit], mentioned: set[str]
) -> tuple[_Hit, str]:
    """Among equally relevant candidate facts, pick by the question's order cue (by start date)."""
    if len(cands) == 1:
        return cands[0]
    if cue == "last":
        return max(cands, key=lambda c: (_start_key(c[0]), -c[0].rank))
    if cue == "first":
        return min(cands, key=lambda c: (_start_key(c[0]), c[0].rank))
    # next/prev: relative to a reference fact the question names (both of its ends mentioned)
    refs = [h for h in hits if h.s_norm in mentioned and h.o_norm in mentioned and h.s_norm != h.o_norm]
    if not refs:
        return cands[0]
    ref = _start_key(min(refs, key=lambda h: h.rank))
    if cue == "next":
        later = [c for c in cands if _start_key(c[0]) > ref]
        return min(later, key=lambda c: (_start_key(c[0]), c[0].rank)) if later else cands[0]
    earlier = [c for c in cands if _start_key(c[0]) < ref]
    return max(earlier, key=lambda c: (_start_key(c[0]), -c[0].rank)) if earlier else cands[0]


def _prior_key(q: Question) -> tuple[str, str]:
    """Template and asked-about relation (the last hop's relation, which the question text names)."""
    rel = ""
    if q.S_star:
        last = q.S_star[-1]
        rel = last.r_id or last.r
    return (q.template_id or q.operator, rel)


class PriorAnswerer:
    """Most frequent training answer for the question's template and relation (a shortcut audit)."""

    uses_evidence = False

    def __init__(self) -> None:
        self.spec = "prior"

    def meta(self) -> dict[str, Any]:
        """Parameters."""
        return {"key": "template_id + last-hop relation; fallback template_id, then answer_type", "split": "train"}

    @staticmethod
    def _table(train: Sequence[Question]) -> dict[tuple[str, ...], str]:
        counts: dict[tuple[str, ...], Counter[str]] = defaultdict(Counter)
        for q in train:
            tpl, rel = _prior_key(q)
            for key in ((tpl, rel), (tpl,), (q.answer_type,)):
                counts[key].update(q.answers)
        # most frequent, ties broken by the label (deterministic)
        return {k: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for k, c in counts.items() if c}

    def answer(
        self, questions: Sequence[Question], evidence: Mapping[str, Sequence[Evidence]], context: AnswerContext
    ) -> Iterator[AnswerRecord]:
        """One record per question; abstains when the training split has nothing for its key."""
        table = self._table(context.train)
        for q in questions:
            tpl, rel = _prior_key(q)
            for key, how in (((tpl, rel), "template+relation"), ((tpl,), "template"), ((q.answer_type,), "type")):
                if key in table:
                    rec = AnswerRecord(q.id, self.spec, "ok", table[key], f"most frequent train answer by {how}")
                    break
            else:
                rec = AnswerRecord(q.id, self.spec, "abstain", None, "no training question of this kind")
            yield rec
            if context.progress is not None:
                context.progress(1)


class FakeAnswerer:
    """Deterministic test double: gold for a hash-chosen share, wrong otherwise, errors for another share."""

    uses_evidence = False

    def __init__(self, correct: float = 0.5, error: float = 0.0, seed: int = 0) -> None:
        if not (0 <= correct <= 1 and 0 <= error <= 1):
            raise ValueError("fake answerer: correct and error must lie in [0, 1]")
        self.correct, self.error, self.seed = correct, error, seed
        self.spec = f"fake(correct={correct},error={error},seed={seed})"

    def meta(self) -> dict[str, Any]:
        """Parameters."""
        return {"correct": self.correct, "error": self.error, "seed": self.seed}

    def _u(self, qid: str, salt: str) -> float:
        d = hashlib.sha256(f"{self.seed}:{salt}:{qid}".encode()).digest()
        return int.from_bytes(d[:8], "big") / 2**64

    def answer(
        self, questions: Sequence[Question], evidence: Mapping[str, Sequence[Evidence]], context: AnswerContext
    ) -> Iterator[AnswerRecord]:
        """One record per question."""
        for q in questions:
            if self._u(q.id, "error") < self.error:
                yield AnswerRecord(q.id, self.spec, "error", None, None, "fake failure", None)
            elif q.answers and self._u(q.id, "correct") < self.correct:
                gold = "; ".join(q.answers)
                yield AnswerRecord(q.id, self.spec, "ok", gold, f"fake: gold answer {gold}", None, f"Answer: {gold}")
            else:
                yield AnswerRecord(q.id, self.spec, "ok", "zzz-wrong", "fake: wrong answer", None, "Answer: zzz-wrong")
            if context.progress is not None:
                context.progress(1)
