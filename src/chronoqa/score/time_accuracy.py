"""Time accuracy (TDBench's T): whether an explanation cites the gold time references.

Gold time references of a question, in this order of preference:

1. ``Question.time_refs`` (TDBench's rule), each ``{"which": "start"|"end", "value": ISO}``, optionally
   with ``"of": "answer"|"anchor"`` (the KG builder's: the answer fact's time, or the time of the
   reference fact the question is anchored on); every entry must be cited, whatever its ``of``. A
   ``which`` ending in ``start``/``end`` (``reference_start`` in releases written before the contract)
   is read as that end, any other as either end.
2. Time answers (``operator == "interval"`` or ``answer_type == "time"``): each answer that reads as a
   time, either end.
3. When neither gives a reference, the S* facts that carry the answer (subject or object equals a
   gold answer label or id; all of S* when none does): a point fact gives its time (either end), an
   interval fact its known start (``which="start"``) and end (``which="end"``). Duplicates are dropped.

The explanation's times are found with :func:`chronoqa.time.text.extract_times` (the one
deterministic parser). A reference is cited when a mention's matching end (its start for ``start``,
its end for ``end``, either for ``any``; a point is both) names the same time at the question's
granularity (the reference's own when coarser); a mention coarser than that does not cite it. **T**
is 1 when every reference is cited. Questions without any reference have no T and are left out of the
time-accuracy block (counted as ``n_no_refs``). A, T, AT (both) and A − AT are computed over the same
questions, as TDBench does.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Final, Literal, NamedTuple

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.errors import UnknownNameError
from chronoqa.records import Question, Triple
from chronoqa.score.answers import AnswerOutcome, after_correction, score_answer
from chronoqa.score.judge_names import NameIndex
from chronoqa.score.judge_time import (
    Attribution,
    FactRef,
    attribute,
    disclaims_dates,
    judge_refs,
    may_state,
    still_outside,
    tables_as_fields,
    unread_dates,
    unsure_refs,
    weakly_contradicted,
    with_relative,
    without_conclusion,
    without_range_glosses,
    years_corrected,
)
from chronoqa.time import Granularity, TimeParseError, TimePoint, parse_time
from chronoqa.time.text import TimeMention, english_dates, extract_times, full_years, yearless_days

__all__ = [
    "Judge",
    "TimeMode",
    "TimeRef",
    "TimeRow",
    "cites",
    "gold_time_refs",
    "ref_facts",
    "reply_scores",
    "score_time",
]

TimeMode = Literal["careful", "strict"]
_WORDS_RE = re.compile(r"[\w'’-]+")

# Function words of German, Spanish, French, Portuguese and Russian against English ones: a reply with more of
# the first is in another language, and a reference it does not state is left undecided (its cue words and
# dates may be written in ways the reader does not know: "verließ den Verein 1990").
_FOREIGN_FUNCTION_RE: Final = re.compile(
    r"\b(?:und|der|die|das|den|dem|zu|wurde|ist|mit|y|el|los|las|por|del|que|fue|se|et|les|du|des|est|au|"
    r"em|do|da|os|foi|não|и|в|с|по|был|была|он|она)\b",
    re.IGNORECASE,
)
_ENGLISH_FUNCTION_RE: Final = re.compile(r"\b(?:the|and|of|was|to|in|he|she|his|her|is|for|from|with)\b", re.IGNORECASE)


def _another_language(text: str) -> bool:
    return len(_FOREIGN_FUNCTION_RE.findall(text)) > max(1, len(_ENGLISH_FUNCTION_RE.findall(text)))


Judge = Callable[[Question, AnswerRecord], "bool | None"]
"""An optional LLM judge: returns whether the explanation's times are right (``None``: no verdict)."""


class TimeRef(NamedTuple):
    """A gold time reference: which end of the fact (``start``, ``end`` or ``any``) and the time."""

    which: str
    value: TimePoint


class TimeRow(NamedTuple):
    """Per-question time accuracy: ``T`` is ``None`` when the question has no time reference.

    ``judge``: an optional judge's verdict; ``T_strict``: the strict rule's, where the caller computed it.
    Partial credit, from the same reading of the text as ``T``: ``T_half`` (at least one reference
    stated for its fact at its end: one end right), ``T_loose`` (every reference stated and none
    contradicted when dates are compared by their year only: right at a coarser granularity; equal to
    ``T`` on year-level questions). ``outdated_T``: for an answer naming an outdated holder, whether the
    explanation states that holder's own dates (judged like ``T``; ``None`` otherwise).
    """

    qid: str
    A: bool
    T: bool | None
    n_refs: int
    n_cited: int
    judge: bool | None = None
    T_strict: bool | None = None
    undecided: str | None = None
    T_half: bool | None = None
    T_loose: bool | None = None
    outdated_T: bool | None = None


def _pt(value: object) -> TimePoint | None:
    """``value`` as a time, ``None`` when unknown or unreadable (a string's reading is cached)."""
    return _pt_str(value) if isinstance(value, str) else _read_time(value)


def _read_time(value: object) -> TimePoint | None:
    try:
        return parse_time(value)
    except TimeParseError:
        return None


_pt_str = lru_cache(maxsize=1 << 16)(_read_time)


def _which(name: str) -> str:
    """``start``/``end`` (also ``reference_start``/``reference_end`` and the like), else ``any``."""
    key = name.strip().lower()
    if key.endswith("start"):
        return "start"
    if key.endswith("end"):
        return "end"
    return "any"


def gold_time_refs(q: Question) -> tuple[TimeRef, ...]:
    """The time references an explanation of ``q`` must cite (rules in the module docstring)."""
    refs: list[TimeRef] = []
    if q.time_refs:
        for r in q.time_refs:
            p = _pt(r.get("value"))
            if p is not None:
                refs.append(TimeRef(_which(str(r.get("which", "any"))), p))
    elif q.operator == "interval" or q.answer_type == "time":
        for a in q.answers:
            p = _pt(a)
            if p is not None:
                refs.append(TimeRef("any", p))
    if not refs:
        names = set(q.answers) | set(q.answer_ids)
        facts = [t for t in q.S_star if names & {t.s, t.o, t.s_id, t.o_id}] or list(q.S_star)
        for t in facts:
            s, e = _pt(t.t_start), _pt(t.t_end)
            if s is not None and s == e:
                refs.append(TimeRef("any", s))
                continue
            if s is not None:
                refs.append(TimeRef("start", s))
            if e is not None:
                refs.append(TimeRef("end", e))
    return tuple(dict.fromkeys(refs))


def _same(pred: TimePoint, gold: TimePoint, g: Granularity) -> bool:
    ge = min(g, gold.granularity)
    return pred.granularity >= ge and pred.lo(ge) == gold.lo(ge) and pred.hi(ge) == gold.hi(ge)


def cites(
    text: str | None, refs: Sequence[TimeRef], granularity: Granularity, mentions: Sequence[TimeMention] | None = None
) -> int:
    """How many of ``refs`` the text cites (see the module docstring); ``mentions``: its times, if read already."""
    if not text or not refs:
        return 0
    mentions = extract_times(text) if mentions is None else mentions
    n = 0
    for ref in refs:
        for m in mentions:
            iv = m.interval
            ends = {"start": (iv.start,), "end": (iv.end,)}.get(ref.which, (iv.start, iv.end))
            if any(p is not None and _same(p, ref.value, granularity) for p in ends):
                n += 1
                break
    return n


def _fact_ref(t: Triple, table: bool, q: Question) -> FactRef:
    ents = (t.o,) if table else tuple(e for e in dict.fromkeys((t.s, t.o)) if e)
    event = not table and t.t_start is not None and t.t_end == t.t_start
    rows = _spells(q, [t])
    starts, ends = _data_times(rows)
    return FactRef(ents, event, open_end=t.t_end is None, starts=starts, ends=ends, spells=_data_spells(rows))


def _spells(q: Question, rows: Sequence[Triple]) -> list[Triple]:
    """``rows`` and every row of the question's records that repeats one of them at other times.

    Another spell of the same holder at the same club, another term of the same office: a date of any of them
    is no error.
    """
    keys = {(t.s, t.r, t.o) for t in rows}
    return [t for t in (*q.S_star, *q.S_anchor, *q.S_dist, *q.S_stale) if (t.s, t.r, t.o) in keys]


def _data_times(rows: Iterable[Triple]) -> tuple[tuple[TimePoint, ...], tuple[TimePoint, ...]]:
    """The data's start and end times of ``rows`` (the ends it knows)."""
    starts = tuple(dict.fromkeys(p for t in rows if (p := _pt(t.t_start)) is not None))
    ends = tuple(dict.fromkeys(p for t in rows if (p := _pt(t.t_end)) is not None))
    return starts, ends


def _data_spells(rows: Iterable[Triple]) -> tuple[tuple[TimePoint | None, TimePoint | None], ...]:
    """The data's ``(start, end)`` of each of ``rows`` (one spell, one term)."""
    return tuple(dict.fromkeys((_pt(t.t_start), _pt(t.t_end)) for t in rows))


def ref_facts(
    q: Question, refs: Sequence[TimeRef] | None = None
) -> tuple[list[FactRef], list[tuple[str, TimePoint, int]]]:
    """The facts a question's references are about and each reference as ``(which, value, fact index)``.

    Table questions: one fact per gold answer (its term), a reference belongs to the answer it names.
    KG questions: every S* fact and the anchor fact; a reference ``of`` the anchor belongs to the
    anchor fact, any other to the answer's fact (the S* fact carrying the answer; the last hop for a
    time answer). ``facts[0]`` is the answer's fact.
    """
    table = q.source == "table" or any("answer" in r for r in q.time_refs)
    refs = gold_time_refs(q) if refs is None else refs
    if table:
        facts = [
            FactRef((a,), starts=se[0], ends=se[1], spells=_data_spells(held))
            for a in q.answers
            for held in [_held(q, a)]
            for se in [_data_times(held)]
        ]
        if not q.time_refs:
            return facts, [(ref.which, ref.value, 0) for ref in refs]
        # each answer's own references, read from the question: two holders' equal dates (one ended the
        # day the other began and ended) stay two references, one per holder
        out = []
        for r in _valid_refs(q):
            who = str(r.get("answer", q.answers[0] if q.answers else ""))
            value = _pt(r.get("value"))
            if value is not None:
                out.append((_which(str(r.get("which", "any"))), value, q.answers.index(who) if who in q.answers else 0))
        return facts, list(dict.fromkeys(out))
    names = set(q.answers) | set(q.answer_ids)
    star = list(q.S_star)
    carrying = [i for i, t in enumerate(star) if names & {t.s, t.o, t.s_id, t.o_id}]
    answer_i = carrying[0] if carrying else len(star) - 1
    order = [answer_i] + [i for i in range(len(star)) if i != answer_i] if star else []
    facts = [_fact_ref(star[i], False, q) for i in order]
    anchor_i = None
    if q.S_anchor:
        anchor_i = len(facts)
        ents = tuple(dict.fromkeys(e for t in q.S_anchor for e in (t.s, t.o) if e))
        event = all(t.t_start is not None and t.t_end == t.t_start for t in q.S_anchor)
        rows = _spells(q, q.S_anchor)
        starts, ends = _data_times(rows)
        open_end = all(t.t_end is None for t in q.S_anchor)
        facts.append(FactRef(ents, event, open_end=open_end, starts=starts, ends=ends, spells=_data_spells(rows)))
    if not facts:  # no S*: the answer itself is what the dates are about
        facts = [FactRef(tuple(q.answers))]
    out = []
    if q.time_refs:
        for r, ref in zip(_valid_refs(q), refs, strict=False):
            of = str(r.get("of", "answer"))
            out.append((ref.which, ref.value, anchor_i if of == "anchor" and anchor_i is not None else 0))
    else:
        out = [(ref.which, ref.value, 0) for ref in refs]
    return facts, out


def _held(q: Question, answer: str) -> list[Triple]:
    """A table answer's terms: the S* rows it holds and its other terms of the same office in the records."""
    return _spells(q, [t for t in q.S_star if t.o == answer])


def _valid_refs(q: Question) -> list[dict[str, str]]:
    return [dict(r) for r in q.time_refs if _pt(r.get("value")) is not None]


def score_time(
    q: Question,
    record: AnswerRecord | None,
    answer_correct: bool,
    *,
    judge: Judge | None = None,
    mode: TimeMode = "careful",
    entities: NameIndex | Iterable[str] | None = None,
) -> TimeRow:
    """Time accuracy of one answer's explanation (``record=None``: nothing cited).

    ``mode="careful"`` (default) attributes each date to a fact and an end
    (:mod:`chronoqa.score.judge_time`): T is 1 when every reference is stated for its fact at its end
    and nothing stated for that fact at that end contradicts it. ``entities`` are the other entities
    the release knows (labels or a :class:`NameIndex`), whose dates do not count. ``mode="strict"`` is
    the earlier rule: every reference appears somewhere in the text.
    """
    if mode not in ("careful", "strict"):
        raise UnknownNameError("time judging mode", str(mode), ("careful", "strict"))
    foreign = False
    refs = gold_time_refs(q)
    verdict = judge(q, record) if (judge is not None and record is not None) else None
    if not refs:
        return TimeRow(q.id, answer_correct, None, 0, 0, verdict)
    g = Granularity.parse(q.granularity or "year")
    text = None if record is None or record.status == "error" else record.explanation
    asked = question_times(q) if mode == "careful" else ()
    if mode == "careful" and text:
        # Markdown bold and tables; "wait, let me correct"
        text = years_corrected(text.replace("**", "").replace("__", ""))  # "in 2000 — correction, 2001"
        text = tables_as_fields(after_correction(text))
        text = without_conclusion(text)  # "Therefore: 1895" restates the answer, it dates no fact
        text = without_range_glosses(text)  # "From 1871 (Treaty of Frankfurt) to 1920": one range
        text = full_years(text, [p.year for p in (*asked, *(ref.value for ref in refs))])  # "'97" near 1995 is 1997
        text = yearless_days(text)  # "on 10 December 2023, ... began on 11 December": the same year
        english = english_dates(text)  # "vom 10. Juli 1992 bis ...", "hasta el 31 de agosto de 2016", "jusqu'en 1996"
        foreign, text = english != text, english
    if mode == "strict":
        mentions = extract_times(text) if text else []
        n = cites(text, refs, g, mentions)
        loose = n == len(refs) or cites(text, refs, Granularity.YEAR, mentions) == len(refs)
        return TimeRow(q.id, answer_correct, n == len(refs), len(refs), n, verdict, T_half=n > 0, T_loose=loose)
    facts, fact_refs = ref_facts(q, refs)
    words = _WORDS_RE.findall(q.question)
    v = _careful(text or "", facts, fact_refs, g, entities, words, foreign, asked)
    row = TimeRow(
        q.id, answer_correct, v.ok, len(fact_refs), v.n, verdict, undecided=v.why, T_half=v.n > 0, T_loose=v.loose
    )
    return _resolved(row)


def reply_scores(q: Question, record: AnswerRecord) -> tuple[AnswerOutcome, dict[str, float]]:
    """One reply's outcome and its ``A``, ``T`` and ``AT`` as numbers (``T``, ``AT``: NaN without a time reference).

    What a harness that scores reply by reply records (``chronoqa export --to lm-eval``, the inspect scorer).
    """
    outcome = score_answer(q, record)
    t = score_time(q, record, outcome.correct).T
    at = math.nan if t is None else float(outcome.correct and t)
    return outcome, {"A": float(outcome.correct), "T": math.nan if t is None else float(t), "AT": at}


def question_times(q: Question) -> tuple[TimePoint, ...]:
    """The times ``q``'s question names (either end of each mention).

    With the gold times, their years settle the century of a clipped year ("'08") in a reply that writes no year in
    full; a reply's conclusion that restates one of them dates no fact (:func:`_asked_restated`).
    """
    return tuple(p for m in extract_times(q.question) for p in (m.interval.start, m.interval.end) if p is not None)


class _Verdict(NamedTuple):
    """The careful verdict on one text: T, how many references are stated, why undecided, T at year level."""

    ok: bool
    n: int
    why: str | None
    loose: bool


def _careful(
    text: str,
    facts: Sequence[FactRef],
    fact_refs: Sequence[tuple[str, TimePoint, int]],
    g: Granularity,
    entities: NameIndex | Iterable[str] | None,
    words: Sequence[str],
    foreign: bool = False,
    asked: Sequence[TimePoint] = (),
) -> _Verdict:
    """The careful verdict on ``text``: one attribution of its dates, judged at ``g`` and at year level.

    Whether every reference is stated and none contradicted, how many are stated, why it is undecided
    (or None), and whether every reference is stated and none contradicted comparing years only.
    ``foreign``: the text wrote its dates in another language (its cue words are not read); a text mostly in another
    language (:func:`_another_language`) is read the same way. ``asked``: the times the question names.
    """
    if disclaims_dates(text):  # "1862 — I don't remember the dates": the reply states no date of its own
        return _Verdict(False, 0, None, False)
    dates = with_relative(text, extract_times(text)) if text else []  # "two years later"
    year = Granularity.YEAR
    coarser = g > year and bool(fact_refs) and may_state(dates, fact_refs, year)
    if fact_refs and not may_state(dates, fact_refs, g):  # no reference's date in the text at all: none is stated
        why = "a date the reader cannot read" if text and _unread(text, dates, g) else None
        if not coarser:
            return _Verdict(False, 0, why, False)
        readings = _asked_restated(attribute(text, facts, entities, dates, words), asked)
        n_y, contra_y = judge_refs(readings, fact_refs, facts, year, True)
        return _Verdict(False, 0, why, n_y == len(fact_refs) and not contra_y)
    readings = _asked_restated(attribute(text, facts, entities, dates, words), asked)
    n, contradicted = judge_refs(readings, fact_refs, facts, g)
    contradicted = contradicted or still_outside(text, readings, facts)  # "was still there in 2008": it had ended
    ok = n == len(fact_refs) and not contradicted
    loose = ok
    if coarser and not ok:
        n_y, contra_y = judge_refs(readings, fact_refs, facts, year, True)
        loose = n_y == len(fact_refs) and not contra_y
    why = None
    weak = None if contradicted else weakly_contradicted(readings, fact_refs, facts, g)
    if weak is not None:  # a mismatch bound to the fact by weak evidence only: it may be another fact's
        ok = loose = False
        why = f"date {weak} may belong to another fact"
    elif not ok and not contradicted:
        if unsure_refs(readings, fact_refs, dates, g):
            why = "the date is stated, but not for what the rules can tell"
        elif text and _unread(text, dates, g):
            why = "a date the reader cannot read"
        elif foreign or _another_language(text):
            why = "a reply in another language: its dates are read, its cue words are not"
        elif n and _all_written(text, fact_refs, g, dates):
            why = "the date is written, but the rules could not tie it to its fact and end"
    return _Verdict(ok, n, why, loose)


def _asked_restated(readings: list[Attribution], asked: Sequence[TimePoint]) -> list[Attribution]:
    """``readings`` with a date that only restates the question's own time, its role carried over, citing only.

    "..., so on 13 December 2024 the president was still Biden", "so in 2011 he was a Parma player": the reply's
    conclusion about the question's date, with no cue of its own, states no date of a fact.
    """
    if not asked:
        return readings
    return [replace(r, firm=False) if r.carried and r.firm and r.value in asked else r for r in readings]


def _all_written(
    text: str, fact_refs: Sequence[tuple[str, TimePoint, int]], g: Granularity, dates: Sequence[TimeMention]
) -> bool:
    """Whether every reference's value is written in ``text`` at its end and at ``g`` (what :func:`cites` reads).

    Where the rules tie some references to their facts and ends and contradict nothing, a reference they could not
    tie whose date is still written may be stated in a way they do not read ("joined Labor in 1903 and went over to
    the Nationalists in 1917"), or be a shifted end ("joined in 2008" for 2009): they cannot tell which.
    """
    refs = [TimeRef(which, value) for which, value, _ in fact_refs]
    return cites(text, refs, g, dates) == len(refs)


def _unread(text: str, dates: Sequence[TimeMention], g: Granularity) -> bool:
    """A date the reader leaves alone, or (finer than a year) a slashed date whose day it cannot tell."""
    return unread_dates(text, dates) or (g > Granularity.YEAR and any(d.ambiguous for d in dates))


def _resolved(row: TimeRow) -> TimeRow:
    """An undecided row that an LLM judge decided takes the judge's verdict (and keeps the reason)."""
    if row.undecided and row.judge is not None:
        return row._replace(T=row.judge)
    return row
