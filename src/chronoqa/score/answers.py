"""Answer accuracy: normalisation, aliases, set-valued answers, empty gold sets, abstention, outdated answers.

Two rules, both reported by ``evaluate``:

* ``mode="careful"`` (the default): what a careful judge accepts. The gold answer may be named inside a
  short answer sentence, with a title or role, with a parenthetical, in a common transliteration, with
  apostrophes or hyphens missing, surname first, or by a shorter form (surname, label without its
  qualifier) that no other candidate shares (:mod:`chronoqa.score.judge_names`). The answer is wrong
  when it also names another candidate (one of ``candidates``: the entities of the answer's slot in the
  release corpus) other than as context ("who succeeded Rau"), when it hedges ("maybe", "probably",
  "A or B"), when the gold is only named under a negation ("not Köhler"), when a list leaves a gold
  item out (rule ``all``) or adds a name that is no gold, and when the gold appears only inside a
  longer word ("Köhlerei"). An empty gold set is answered by a sentence that starts like "no one".
* ``mode="strict"``: the whole-string rule below, kept unchanged.

Strict rules:

* Normalisation: Unicode NFKD with accents dropped, case-folded, punctuation to spaces, the articles
  *a*, *an*, *the* dropped, whitespace collapsed. Matching is **whole-string equality of normalised
  forms**, never substring search: "legal" does not match "illegal", "5" does not match "25".
* Aliases: each gold answer matches its label and every alias given for its label or its id
  (:func:`aliases_from_corpus` collects every label the corpus uses for an entity id).
* Set-valued answers: a predicted answer that does not match a gold item as a whole is split on
  commas, semicolons, new lines, "and", "&" and "/". Rule ``"all"`` (default): every gold item must be
  named and nothing else; rule ``"3_of_many"`` (TDBench): at least ``min(3, |gold|)`` gold items and
  nothing else.
* Time answers (``answer_type == "time"``) are compared as times at the question's granularity (or the
  gold's own, when coarser): the predicted times are found with :func:`chronoqa.time.text.extract_times`
  (a range contributes both ends), or :func:`chronoqa.time.parse_time` for a bare ISO value.
* Yes/no answers (``answer_type == "yes_no"``) are read from the answer's first word (yes / true, no /
  false); durations (``"duration"``, gold id ``P4Y``) from its "<number> <unit>" mentions, each within the
  tolerance the question granularity declares (:func:`chronoqa.time.same_duration`: a whole number equal,
  a fraction within one unit).
* An empty gold set is answered by "none", "no answer", "nobody", "nothing" (and the like).
* Outcomes: ``correct``; ``outdated`` (a time-alignment question answered with an earlier holder);
  ``abstain`` (status ``abstain`` or an answer like "unsure" / "I don't know"); ``error`` (status
  ``error``: scored wrong, never dropped); ``missing`` (no answer line: scored wrong); ``wrong``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Final, Literal, NamedTuple

import pyarrow as pa
import pyarrow.compute as pc

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.artifacts.release import doc_store
from chronoqa.errors import UnknownNameError
from chronoqa.records import Doc, Question
from chronoqa.score.initials import initials_of
from chronoqa.score.judge_names import (
    LEGAL_FORMS,
    NameIndex,
    NameMention,
    Token,
    close,
    club_words,
    names_beside,
    owns_names,
    person_like,
    tokens,
)
from chronoqa.score.state_names import STATE_NAMES
from chronoqa.score.translit import (
    foreign_runs,
    hebrew_names,
    hebrew_runs,
    latin,
    same_name,
    script_of,
    state_exonym,
)
from chronoqa.time import (
    Duration,
    Granularity,
    TimeParseError,
    TimePoint,
    count_of,
    durations_in,
    parse_time,
    same_duration,
)
from chronoqa.time.text import TimeMention, english_dates, extract_times, full_years, roman_year

__all__ = [
    "ABSTAIN_ANSWERS",
    "NONE_ANSWERS",
    "OUTCOMES",
    "AnswerOutcome",
    "JudgeMode",
    "SetRule",
    "after_correction",
    "aliases_from_corpus",
    "committed_answer",
    "gold_names",
    "is_abstention",
    "normalize_answer",
    "score_answer",
    "split_answer",
    "with_own_names",
]

SetRule = Literal["all", "3_of_many"]
JudgeMode = Literal["careful", "strict"]
OUTCOMES = ("correct", "wrong", "outdated", "abstain", "error", "missing", "undecided")
_ARTICLES = frozenset({"a", "an", "the"})
_PUNCT = re.compile(r"[^\w\s]|_")
_SPLIT = re.compile(r"\s*(?:[,;/\n]|\s&\s|\band\b)\s*", re.IGNORECASE)


@lru_cache(maxsize=1 << 16)
def normalize_answer(text: str) -> str:
    """Case-, accent-, punctuation- and article-insensitive form of an answer string."""
    if text.isascii():  # no accents to strip (the same result, without a pass per character)
        t = text.casefold()
    else:
        t = unicodedata.normalize("NFKD", text)
        t = "".join(c for c in t if not unicodedata.combining(c)).casefold()
    t = _PUNCT.sub(" ", t)
    return " ".join(w for w in t.split() if w not in _ARTICLES)


NONE_ANSWERS = frozenset(
    normalize_answer(x)
    for x in ("none", "no answer", "nobody", "no one", "nothing", "n/a", "no such", "there is none", "empty set")
)
ABSTAIN_ANSWERS = frozenset(
    normalize_answer(x)
    for x in (
        "unsure",
        "not sure",
        "i'm not sure",
        "i am not sure",
        "i don't know",
        "i do not know",
        "don't know",
        "unknown",
        "cannot determine",
        "cannot be determined",
        "can't determine",
        "no idea",
        "idk",
        "i cannot answer",
        "insufficient information",
        "not enough information",
    )
)


def is_abstention(text: str | None, careful: bool = False) -> bool:
    """True for an empty answer or one like "unsure" / "I don't know".

    ``careful``: also a sentence that declines ("I'm sorry, but I don't have reliable information ...").
    """
    if text is None or not text.strip() or normalize_answer(text) in ABSTAIN_ANSWERS:
        return True
    return careful and _REFUSAL.search(text) is not None


def split_answer(text: str) -> list[str]:
    """Parts of a list answer ("A, B and C" → ["A", "B", "C"]); empty parts dropped."""
    return [p for p in (x.strip() for x in _SPLIT.split(text)) if p]


def aliases_from_corpus(corpus: Iterable[Doc]) -> dict[str, tuple[str, ...]]:
    """Every label the corpus uses for each entity id (subjects and objects), sorted.

    Read from the corpus columns (a :class:`~chronoqa.artifacts.docstore.DocStore`; other documents are gathered
    into one first): the distinct (id, label) pairs are found and sorted by Arrow, so Python touches each pair
    once, not each document.
    """
    store = doc_store(corpus)
    pairs = pa.table(
        {
            "id": pa.concat_arrays([store.column("s_id"), store.column("o_id")]),
            "label": pa.concat_arrays([store.column("s"), store.column("o")]),
        }
    )
    pairs = pairs.filter(pc.not_equal(pairs["id"], ""))
    pairs = pairs.group_by(["id", "label"]).aggregate([]).sort_by([("id", "ascending"), ("label", "ascending")])
    out: dict[str, list[str]] = {}
    for eid, label in zip(pairs["id"].to_pylist(), pairs["label"].to_pylist(), strict=True):
        out.setdefault(eid, []).append(label)
    return {k: tuple(v) for k, v in out.items()}


class AnswerOutcome(NamedTuple):
    """How one answer scored. ``correct`` is the A of TDBench; ``outcome`` one of :data:`OUTCOMES`.

    ``strict``: the whole-string rule's verdict, where the caller computed it (``evaluate`` does).
    ``intermediate``: on a join question, whether the reply names the hidden hop
    (:func:`chronoqa.score.outcomes.intermediate_hop`; ``None`` elsewhere).
    """

    qid: str
    outcome: str
    correct: bool
    n_gold: int
    n_gold_named: int
    n_extra: int
    strict: bool | None = None
    undecided: str | None = None
    intermediate: bool | None = None

    @property
    def verdict(self) -> str:
        """``right``, ``wrong`` or ``undecided`` (the careful rules could not tell; scored wrong in A)."""
        return "right" if self.correct else ("undecided" if self.undecided else "wrong")


def _time_points(text: str) -> list[TimePoint]:
    pts: list[TimePoint] = []
    text = english_dates(text)  # "el 7 de mayo de 2008", "am 1. Juli 2004"
    try:
        p = parse_time(text.strip())
    except TimeParseError:
        p = None
    if p is not None:
        return [p]
    for m in extract_times(text):
        iv = m.interval
        for end in (iv.start, iv.end):
            if end is not None and end not in pts:
                pts.append(end)
    if not pts:  # a reply in another language ("En 2007."): its one bare year; a year in Roman numerals
        years = _BARE_YEAR.findall(text)
        year = parse_time(years[0]) if len(years) == 1 else roman_year(text)
        if year is not None:
            pts.append(year)
    return pts


_BARE_YEAR: Final = re.compile(r"(?<![\d/.\-])\b(1[0-9]{3}|20[0-9]{2})\b(?![\d/.\-]\d)")


def _same_time(pred: TimePoint, gold: TimePoint, g: Granularity) -> bool:
    ge = min(g, gold.granularity)
    if pred.granularity < ge:  # too coarse to name the gold time
        return False
    return pred.lo(ge) == gold.lo(ge) and pred.hi(ge) == gold.hi(ge)


def gold_names(q: Question, aliases: Mapping[str, Sequence[str]] | None) -> list[set[str]]:
    """Per gold answer, every name it goes by: its label and the aliases of its label and of its id."""
    out = []
    for i, label in enumerate(q.answers):
        names = {label}
        if aliases:
            names.update(aliases.get(label, ()))
            if i < len(q.answer_ids):
                names.update(aliases.get(q.answer_ids[i], ()))
        out.append(names)
    return out


def _gold_names(q: Question, aliases: Mapping[str, Sequence[str]] | None) -> list[frozenset[str]]:
    return [frozenset(normalize_answer(n) for n in names) for names in gold_names(q, aliases)]


def _match_entities(text: str, gold: list[frozenset[str]]) -> tuple[set[int], int]:
    whole = normalize_answer(text)
    hit = {i for i, names in enumerate(gold) if whole in names}
    if hit:
        return hit, 0
    matched: set[int] = set()
    extra = 0
    for part in split_answer(text):
        np_ = normalize_answer(part)
        if not np_:
            continue
        idx = {i for i, names in enumerate(gold) if np_ in names}
        if idx:
            matched |= idx
        else:
            extra += 1
    return matched, extra


def _match_times(text: str, gold: list[TimePoint | None], g: Granularity) -> tuple[set[int], int]:
    matched: set[int] = set()
    extra = 0
    for p in _time_points(text):
        idx = {i for i, gt in enumerate(gold) if gt is not None and _same_time(p, gt, g)}
        if idx:
            matched |= idx
        else:
            extra += 1
    return matched, extra


# A clause that gives a time answer's background, not the answer: "..., having co-founded the SDP in 1981", "...,
# though he stayed in Berlin itself until 1933"; none that hedges ("though he may have ...", "or ...")
_CONTEXT_CLAUSE_RE: Final = re.compile(
    r",\s*(?![^.;:!?\n]*\b(?:may|might|could|possibly|probably|perhaps|maybe|or|some|sources?|likely)\b)"
    r"(?:(?:after\s+)?having\s+[a-z]+|(?:though|although)\s+(?:he|she|they|it)\s+[a-z]+)[^.;:!?\n]*",
    re.IGNORECASE,
)


def _without_context_years(text: str) -> str:
    """``text`` with its background clauses (:data:`_CONTEXT_CLAUSE_RE`) left out, where a time is still stated."""
    rest = _CONTEXT_CLAUSE_RE.sub("", text)
    return rest if rest != text and _time_points(rest) else text


def _match_kind(q: Question, text: str, g: Granularity, mode: JudgeMode) -> tuple[set[int], int, str | None]:
    """Matched gold items, extra claims and why the careful rules cannot decide, for a time, duration or yes/no."""
    if q.answer_type == "time":
        gold = [_safe_time(a) for a in q.answers]
        matched, extra = _match_times(_context_left_out(text, gold, g) if mode == "careful" else text, gold, g)
        found = bool(_time_points(text))
        what = "date"
    else:
        matched, extra = _match_value(q, text)
        found = bool(matched or extra)
        what = f"{q.answer_type.replace('_', '/')} answer"
    return matched, extra, None if found or mode != "careful" else f"no {what} the reader understands"


# Another thing's date set beside the answer's by a comparison: "in 1983, a few years before his Leibniz Prize (1987)",
# "long before the 1991 Nobel": the word, a possessive or "the", then the thing's name around the date
_BESIDE_DATE: Final = re.compile(
    r"\b(?:before|after|ahead\s+of|prior\s+to|earlier\s+than|later\s+than)\s+(?:his|her|their|its|the)\s+"
    r"(?P<name>(?:[A-Z][\w'’.-]*\s+)*)\(?$"
)


def _context_left_out(text: str, gold: Sequence[TimePoint | None], g: Granularity) -> str:
    """A time answer's ``text`` without the dates it gives as context.

    Numbers that are part of a club's name (:func:`_without_name_numbers`), background clauses
    (:func:`_without_context_years`), bracketed asides that date another fact (:func:`_without_dated_asides`), then
    other named things' dates beside a gold one (:func:`_without_dates_beside`).
    """
    text = _without_dated_asides(_without_context_years(_without_name_numbers(text)), gold, g)
    return _without_dates_beside(text, gold, g)


# A year-like number that is part of a club's name, not a date: after a move to or from the club ("joined 1860
# München", "signed for 1899 Hoffenheim") or after a German club prefix ("TSV 1860 München"), and before a capitalised
# word (the rest of the name)
_NAME_NUMBER: Final = re.compile(
    r"(?:\b(?:joined|joins|joining|rejoined|signed\s+(?:for|with)|moved\s+to|transferred\s+to|loaned\s+to|"
    r"played\s+for|plays\s+for|playing\s+for|left|leaving|leaves|against)|\b(?:TSV|TSG|SV|SC|FSV|SSV|BSC|MSV|KSV|"
    r"VfB|VfL|VfR|SpVgg))\s+(?P<num>1[89]\d\d|20[0-2]\d)(?=\s+[A-ZÀ-Þ][a-zà-ÿ])"
)


def _without_name_numbers(text: str) -> str:
    """``text`` with the numbers of clubs' names (:data:`_NAME_NUMBER`) blanked."""
    return _NAME_NUMBER.sub(lambda m: m.group(0)[: m.start("num") - m.start()] + " " * 4, text)


# A bracketed aside; one that hedges or corrects the answer's date ("(or 1922)", "(some sources say 1922)",
# "(actually 1922)", "(1922?)") is no aside
_ASIDE: Final = re.compile(r"\((?P<inner>[^()]*)\)")
_ASIDE_HEDGE: Final = re.compile(
    r"\b(?:or|some|sources?|accounts?|records?|according|possibly|probably|perhaps|maybe|may|might|could|likely|"
    r"actually|rather|correction|other|others|otherwise|alternatively|disputed|also|elsewhere|given|cited|listed|"
    r"reported|think|believe|unsure|uncertain|sure|either|officially|strictly|technically)\b|[?/]",
    re.IGNORECASE,
)


def _without_dated_asides(text: str, gold: Sequence[TimePoint | None], g: Granularity) -> str:
    """``text`` with the dates of its bracketed asides blanked, where the text outside them states only gold dates.

    "She died in 1969 (a marriage of convenience from 1935)", "won the 1921 Nobel Prize (awarded in 1922)": the
    aside dates another fact. An aside that hedges or corrects (:data:`_ASIDE_HEDGE`) stays; so do all of them
    where the text outside hedges ("in 1983 or after his Leibniz Prize (1987)").
    """
    outside = _ASIDE.sub(" ", text)
    pts = _time_points(outside)
    gold_only = all(any(gt is not None and _same_time(p, gt, g) for gt in gold) for p in pts)
    if not pts or not gold_only or _ASIDE_HEDGE.search(outside):
        return text

    def blank(m: re.Match[str]) -> str:
        return m.group(0) if _ASIDE_HEDGE.search(m.group("inner")) else " " * len(m.group(0))

    return _ASIDE.sub(blank, text)


def _without_dates_beside(text: str, gold: Sequence[TimePoint | None], g: Granularity) -> str:
    """``text`` with the dates of other named things blanked, where the reply first states a gold date.

    Each blanked date comes after the gold one and after a comparison with a named thing (:data:`_BESIDE_DATE`,
    the name before the date or right after it: "the 1991 Nobel"). A choice ("or") blanks nothing: it hedges.
    """
    text = english_dates(text)  # "am 1. Juli 2004": offsets in the text the dates are read from
    dates = extract_times(text)
    if not dates or re.search(r"\bor\b", text) or not _gold_first(dates[0], gold, g):
        return text
    out = text
    for d in dates[1:]:
        m = _BESIDE_DATE.search(text, 0, d.begin)
        if m is not None and (m.group("name") or re.match(r"\s+[A-Z]", text[d.end :])):
            out = out[: d.begin] + " " * (d.end - d.begin) + out[d.end :]
    return out


def _gold_first(d: TimeMention, gold: Sequence[TimePoint | None], g: Granularity) -> bool:
    """Whether the date mention ``d`` states a gold time (either end of it)."""
    ends = [p for p in (d.interval.start, d.interval.end) if p is not None]
    return any(gt is not None and _same_time(p, gt, g) for gt in gold for p in ends)


_VAGUE_COUNT: Final = re.compile(
    r"\b(?:a\s+few|few|several|some|many|a\s+couple\s+of|a\s+handful\s+of)\s+(?:years?|months?|days?|decades?)\b",
    re.IGNORECASE,
)
# "yes" and "no" as a reply's first word, also in German, French, Spanish, Italian, Portuguese, Polish, Russian, Greek
_YES: Final = frozenset({"yes", "yep", "yeah", "yup", "true", "correct", "ja", "oui", "si", "sim", "tak", "да", "ναι"})
_NO: Final = frozenset({"no", "nope", "nah", "false", "incorrect", "nein", "non", "nao", "nie", "нет", "όχι", "οχι"})
# "yes" and "no" in more languages, read only as a reply's whole first sentence or clause ("Nej.", "Da, ...", "はい。"):
# several are other words elsewhere (Romanian "da" is Italian "from", Norwegian "nei" Italian "in the", Ukrainian
# "так" Russian "so"). Danish/Swedish/Norwegian, Dutch, Romanian, Czech/Slovak, Ukrainian, Finnish, Hungarian,
# Turkish, Japanese, Korean, Chinese.
_YES_ALONE: Final = frozenset(
    normalize_answer(w)
    for w in ("da", "ano", "áno", "так", "kyllä", "igen", "evet", "はい", "ええ", "네", "예", "是", "是的", "对")
)
_NO_ALONE: Final = frozenset(
    normalize_answer(w)
    for w in (
        "nej", "nei", "nee", "nu", "ne", "ні", "ei", "nem", "hayır",
        "いいえ", "아니요", "아니오", "不", "不是", "否",
    )
)  # fmt: skip
# "yes" and "no" in scripts whose words carry combining marks (Hindi, Bengali, Thai), which normalize_answer
# drops, and in Arabic, Persian and Hebrew: compared as written, read only as the reply's whole first clause
_YES_MARKED: Final = frozenset({"हाँ", "हां", "हा", "হ্যাঁ", "ใช่", "نعم", "بله", "آره", "כן"})
_NO_MARKED: Final = frozenset({"नहीं", "नही", "না", "ไม่", "ไม่ใช่", "لا", "كلا", "نه", "خیر", "לא"})
# The reply's first word standing alone: followed by a sentence or clause mark (also the Devanagari danda and the
# Arabic comma), or nothing; the word keeps the combining marks of the Indic and Thai scripts and Arabic vowel marks
_FIRST_ALONE: Final = re.compile(
    r"^\W*?(?P<word>(?:[^\W_]|[\u0900-\u0963\u0966-\u0DFF\u0E31-\u0E4E\u064B-\u065F\u0670])+)\s*(?:[.!,;:。、！，—–।॥،؛-]|$)"
)
# A yes or no the reply concludes with after its reasoning ("..., so I'd say no.", "Therefore: yes."): its last
# clause, nothing after it
_CONCLUDED: Final = re.compile(
    r"(?:^|[,;:.—–]\s*|\s)(?:so|therefore|hence|thus|which\s+means|i[’']?d\s+say|i\s+would\s+say|"
    r"so\s+i[’']?d\s+say|so\s+i\s+would\s+say|so\s+the\s+answer\s+is|the\s+answer\s+is)\s*[:,—–-]?\s*"
    r"(?P<said>yes|no)\s*[.!]*\s*$",
    re.IGNORECASE,
)
# A reply that opens by denying it for the time asked ("Not in 2014.", "Not any more by then", "Not as of 2003"): a no
_NOT_THEN: Final = re.compile(
    r"^\W*not\s+(?:in|by|as\s+of|during|at\s+that\s+(?:time|point)|then|any\s*more|anymore|any\s+longer|still)\b",
    re.IGNORECASE,
)
# A hedge word right before the yes or no it qualifies ("Probably yes", "most likely no"): the reply still commits,
# unless what follows opens the other side again (_REOPENED: "Probably yes, though he may have left by then")
_HEDGED_COMMIT: Final = re.compile(
    r"^\W*(?:(?:i\s+(?:believe|think)\s+so\s*[—–,;:-]\s*)?(?:most\s+)?(?:probably|likely|presumably)\s*,?\s*"
    r"(?P<said>yes|no)\b)",
    re.IGNORECASE,
)
# A yes/no reply that commits to neither ("hard to say; I lean neither way", "could be either"); a later "but
# yes" still commits
_NEITHER: Final = re.compile(
    r"\b(?:(?:hard|difficult|impossible|tough)\s+to\s+(?:say|tell)|(?:lean|leaning|go|going)\s+neither\s+way|"
    r"could\s+(?:be|go)\s+either(?:\s+way)?|either\s+way|(?:can[’']?t|cannot|couldn[’']?t)\s+(?:say|tell)\s+"
    r"(?:either\s+way|which)|50[-/ ](?:50|fifty)|yes\s+or\s+no)\b",
    re.IGNORECASE,
)


def _match_value(q: Question, text: str) -> tuple[set[int], int]:
    """A yes/no or duration answer: ``({0}, 0)`` when it says the gold, ``(set(), 1)`` when it says another.

    Yes/no: the answer's first word ("Yes, he was." says yes). Duration: every "<number> <unit>" mention
    (or a bare number, read in the gold's unit) must lie within the granularity's tolerance of the gold
    (:func:`chronoqa.time.same_duration`).
    """
    words = normalize_answer(text).split()
    if is_abstention(text, careful=True):  # "No idea." does not say no
        return set(), 0
    if q.answer_type == "yes_no":
        hedges = list(_NEITHER.finditer(text))
        if hedges:
            hedge = hedges[-1]  # only what follows the last hedge may commit ("hard to say, but yes")
            said = _polarity(text[hedge.end() :])
            return (set(), 1) if said is None else (({0}, 0) if said == normalize_answer(q.answers[0]) else (set(), 1))
        said = "yes" if words[:1] and words[0] in _YES else ("no" if words[:1] and words[0] in _NO else None)
        said = said or _alone_yes_no(text) or _opening_commitment(text) or _concluded_yes_no(text) or _polarity(text)
        if said is None:
            return set(), 0
        return ({0}, 0) if said == normalize_answer(q.answers[0]) else (set(), 1)
    gold = Duration.parse_iso(q.answer_ids[0]) if q.answer_ids else None
    if gold is None:
        return set(), 1
    found = durations_in(_ROUND_FIGURE.sub(" ", text)) or durations_in(text)
    count = count_of(text) if not found else None  # a reply that is one count: "7", "seven", "twenty-four"
    if count is not None:
        found = [Duration(count, gold.granularity)]
    if not found:
        return set(), 1 if _VAGUE_COUNT.search(text) else 0  # "just a few years" claims no number: wrong
    wrong = sum(1 for d in found if not same_duration(d, gold))
    return ({0}, 0) if not wrong else (set(), wrong)


# A round figure said before the count ("Almost three decades — 29 years"): the count decides where the reply
# states one; a round figure alone ("nearly five years") is read as before
_ROUND_FIGURE: Final = re.compile(
    r"\b(?:almost|nearly|roughly|about|around|approximately|close\s+to|just\s+(?:under|over))\s+"
    r"(?:[\w-]+\s+){1,2}?(?:decades?|years?|months?|days?)\b",
    re.IGNORECASE,
)
_SAYS_NO: Final = re.compile(
    r"\b(?:no|nope|false|incorrect|not\s+(?:true|correct|so|the\s+case)|(?:is|was|were|are)n[’']?t\s+(?:true|so|the\s+case)|"
    r"(?:did|does|do|was|were|is|had|has)\s*n[o’']?t\b|i\s+don[’']?t\s+(?:think|believe)\s+so)\b",
    re.IGNORECASE,
)
_SAYS_YES: Final = re.compile(
    r"\b(?:yes|yeah|yep|true|correct|indeed|i\s+(?:believe|think)\s+so|that[’']?s\s+right|(?:it|he|she|they)\s+(?:did|was|were))\b",
    re.IGNORECASE,
)


_REOPENED: Final = re.compile(r"\b(?:may|though|although|unless|or)\b", re.IGNORECASE)


def _alone_yes_no(text: str) -> str | None:
    """The yes or no of another language a reply opens with as a sentence or clause of its own ("Nej.", "Da, ...")."""
    m = _FIRST_ALONE.match(text)
    if m is None:
        return None
    written = unicodedata.normalize("NFC", m.group("word"))
    if written in _YES_MARKED or written in _NO_MARKED:
        return "yes" if written in _YES_MARKED else "no"
    word = normalize_answer(written)
    return "yes" if word in _YES_ALONE else ("no" if word in _NO_ALONE else None)


def _concluded_yes_no(text: str) -> str | None:
    """The yes or no a reply ends on after reasoning ("They were the same year, so I'd say no."); else ``None``."""
    m = _CONCLUDED.search(text.strip())
    return m.group("said").lower() if m else None


def _hedged_commitment(text: str) -> re.Match[str] | None:
    """A reply opening "Probably yes" (or no) whose rest raises no doubt again; else ``None``."""
    m = _HEDGED_COMMIT.match(text)
    if m is None or _hedged(text[m.end() :]) or _REOPENED.search(text, m.end()):
        return None
    return m


def _opening_commitment(text: str) -> str | None:
    """The yes or no a reply opens with after a hedge word ("Probably yes"), or "no" for "Not in 2014."."""
    m = _hedged_commitment(text)
    if m is not None:
        return m.group("said").lower()
    return "no" if _NOT_THEN.match(text) else None


def _polarity(text: str) -> str | None:
    """Yes or no said somewhere in a reply that does not start with it ("I believe so, yes.", "Not true.").

    A "not true" is a no, not a yes; a reply that says both ("yes and no") says neither.
    """
    no = _SAYS_NO.search(text) is not None
    yes = _SAYS_YES.search(_SAYS_NO.sub(" ", text)) is not None
    return None if yes == no else ("yes" if yes else "no")


def _set_ok(n_gold: int, matched: int, extra: int, rule: SetRule) -> bool:
    if extra or n_gold == 0:
        return False
    if rule == "all":
        return matched == n_gold
    if rule == "3_of_many":
        return matched >= min(3, n_gold)
    raise UnknownNameError("set rule", str(rule), ("all", "3_of_many"))


def score_answer(
    q: Question,
    record: AnswerRecord | None,
    *,
    aliases: Mapping[str, Sequence[str]] | None = None,
    rule: SetRule = "all",
    mode: JudgeMode = "careful",
    candidates: Iterable[str] | NameIndex | None = None,
    context: Iterable[str] | None = None,
    known: Iterable[str] | NameIndex | None = None,
) -> AnswerOutcome:
    """Score one answer record against a question's gold answers (``record=None``: no answer given).

    ``mode`` is ``careful`` (default) or ``strict`` (rules in the module docstring; arguments as
    :func:`_score_once`). In careful mode the names the question accepts for its gold answers
    (``Question.answer_names``: "Germany" for the Weimar Republic in 1920) are read as more names of the gold: a
    reply that names a gold item only so is right. They are read after the reply is judged without them, and decide
    only where it named more gold items so: "Germany, then the Weimar Republic" names the gold by its own name and
    another entity of the slot by its label (a second answer, as without the names).
    """
    o = _score_once(q, record, aliases, rule, mode, candidates, context, known)
    if mode != "careful" or o.correct or not q.answer_names:
        return o
    named = _score_once(q, record, with_own_names(q, aliases), rule, mode, candidates, context, known)
    return named if named.correct and named.n_gold_named > o.n_gold_named else o


def with_own_names(q: Question, aliases: Mapping[str, Sequence[str]] | None) -> dict[str, tuple[str, ...]]:
    """``aliases`` with the names ``q`` accepts for its gold answers added to their ids (``Question.answer_names``)."""
    given = aliases or {}
    out = {k: tuple(given[k]) for k in (*q.answers, *q.answer_ids) if k in given}  # only the gold's are read
    for item in q.answer_names:
        eid, name = str(item.get("answer_id", "")), str(item.get("name", ""))
        if eid and name and name not in out.get(eid, ()):
            out[eid] = (*out.get(eid, ()), name)
    return out


def _own_names(q: Question, i: int) -> tuple[str, ...]:
    """The names ``q`` accepts for its ``i``-th gold answer (``Question.answer_names``)."""
    eid = q.answer_ids[i] if i < len(q.answer_ids) else q.answers[i]
    return tuple(str(x.get("name", "")) for x in q.answer_names if x.get("answer_id") == eid)


def _score_once(q: Question, record: AnswerRecord | None, aliases: Mapping[str, Sequence[str]] | None, rule: SetRule,
                mode: JudgeMode, candidates: Iterable[str] | NameIndex | None, context: Iterable[str] | None,
                known: Iterable[str] | NameIndex | None) -> AnswerOutcome:  # fmt: skip
    """One reading of an answer record against a question's gold answers (``record=None``: no answer given).

    ``mode`` is ``careful`` (default) or ``strict`` (rules in the module docstring). ``candidates`` are
    the other entities an answer may wrongly name (labels, or a prebuilt :class:`NameIndex` whose keys
    are labels or ids); without them, only gold names and list shape decide. ``context`` are the labels
    of the question's own context (the other holders of the same role, the other players of the same
    club): a gold answer is named by its surname only where none of them shares it (default: none of
    the candidates). ``known`` are the other entities the corpus knows: a longer name of one of them
    ("CNN Center" for the gold "CNN") names that entity, not the gold, and is no rival answer either.
    """
    if rule not in ("all", "3_of_many"):
        raise UnknownNameError("set rule", str(rule), ("all", "3_of_many"))
    if mode not in ("careful", "strict"):
        raise UnknownNameError("judging mode", str(mode), ("careful", "strict"))
    n_gold = len(q.answers)
    if record is None:
        return AnswerOutcome(q.id, "missing", False, n_gold, 0, 0)
    if record.status == "error":
        return AnswerOutcome(q.id, "error", False, n_gold, 0, 0)
    text = record.answer
    if record.status == "abstain" or text is None or not text.strip():
        return AnswerOutcome(q.id, "abstain", False, n_gold, 0, 0)
    if mode == "careful":
        kw = {"aliases": aliases, "rule": rule, "candidates": candidates, "context": context, "known": known}
        first, text = _careful_reading(q, record, text, kw)
        if first is not None:
            return first
    if n_gold == 0:
        ok = normalize_answer(text) in NONE_ANSWERS or (mode == "careful" and _says_none(text, candidates))
        if ok:
            return AnswerOutcome(q.id, "correct", True, 0, 0, 0)
        return AnswerOutcome(q.id, "abstain" if is_abstention(text) else "wrong", False, 0, 0, 1)
    g = Granularity.parse(q.granularity or "year")
    if mode == "careful" and q.answer_type == "time":  # "'85" for a year the question's century settles
        text = full_years(text, [p.year for p in map(_safe_time, q.answers) if p is not None])
    if q.answer_type in ("duration", "yes_no", "time"):
        matched, extra, unknown = _match_kind(q, text, g, mode)
    elif mode == "careful":
        matched, extra, unknown = _careful_entities(q, text, aliases, candidates, context, known)
    else:
        matched, extra = _match_entities(text, _gold_names(q, aliases))
        unknown = None  # the strict rule always decides
    if mode == "careful" and _hedged(text) and not (q.answer_type == "yes_no" and _hedged_commitment(text)):
        extra = max(extra, 1)  # a hedge, unless it qualifies the one yes or no the reply commits to
    if _set_ok(n_gold, len(matched), extra, rule):
        return AnswerOutcome(q.id, "correct", True, n_gold, len(matched), extra)
    if is_abstention(text, careful=mode == "careful" and not matched):
        return AnswerOutcome(q.id, "abstain", False, n_gold, 0, 0)
    if q.operator == "time_alignment" and q.outdated_answers:
        old = [frozenset({normalize_answer(a)}) for a in q.outdated_answers]
        if q.answer_type == "time":
            hit_old, _ = _match_times(text, [_safe_time(a) for a in q.outdated_answers], g)
        elif mode == "careful":
            idx = NameIndex({str(i): (a,) for i, a in enumerate(q.outdated_answers)})
            toks = tokens(text)  # "took over from X" names X as context, not as the answer
            named = [m for m in idx.find(text, toks) if not m.negated and not _after_context(toks, m)]
            hit_old = {int(k) for m in named for k in m.keys}
        else:
            hit_old, _ = _match_entities(text, old)
        if hit_old:
            return AnswerOutcome(q.id, "outdated", False, n_gold, len(matched), extra)
    says_none = normalize_answer(text) in NONE_ANSWERS or _says_none(text, None)  # "nobody": a claim, wrong
    if unknown and not extra and not matched and candidates is not None and not says_none:
        return AnswerOutcome(q.id, "undecided", False, n_gold, 0, 0, undecided=unknown)
    return AnswerOutcome(q.id, "wrong", False, n_gold, len(matched), extra)


def _careful_reading(
    q: Question, record: AnswerRecord, text: str, kw: Mapping[str, object]
) -> tuple[AnswerOutcome | None, str]:
    """What decides a reply before the whole of it: its headline or its committed sentences; and its text to read.

    The text is what follows an explicit commitment ("Final answer: X"), then what follows a self-correction, or the
    item a list marks. A short first paragraph before an
    explanation is the answer ("Cagliari", a blank line, "He joined Reggiana in 1997 ..."); in a longer paragraph
    that names other candidates on the way, the sentences that commit to an answer (:func:`_committed_sentences`)
    decide when each of them, read alone, names the gold and nothing else.
    """
    n_gold = len(q.answers)
    final = committed_answer(_json_answer(text))  # "..., Ternana? ... Final answer: Reggiana.": Reggiana
    fixed = _marked_item(after_correction(final), n_gold)  # "- A\n- B ✓": B
    head = _headline(fixed) if fixed == final else None

    def alone(part: str) -> AnswerOutcome:
        return score_answer(q, AnswerRecord(record.qid, record.answerer, "ok", part), **kw)  # type: ignore[arg-type]

    if head is not None:
        o = alone(head)
        if o.outcome in ("correct", "outdated") or (o.outcome == "wrong" and o.n_extra):
            return o, fixed
    bold = _sole_bold(fixed) if head is None else None
    if bold is not None:
        o = alone(bold)
        if o.outcome == "correct":
            return o, fixed
    if n_gold == 1 and q.answer_type not in ("duration", "yes_no", "time"):
        committed = _committed_sentences(q, fixed)
        got = [alone(c) for c in committed]
        if got and all(o.outcome == "correct" for o in got):
            return got[-1], fixed
    return None, fixed


_SENTENCE_END: Final = re.compile(r"(?<=[.!?])\s+(?=[\"'“*(]?[A-Z])|\n+")
# A sentence that states the conclusion: "So the answer is X.", "Therefore X.", "In short, X."
_CONCLUDES: Final = re.compile(
    r"^\W*(?:so|therefore|thus|hence|in\s+short|in\s+sum|all\s+in\s+all)\b|\bthe\s+answer\s+is\b", re.IGNORECASE
)
_SUBJECT: Final = re.compile(r"\b(?:he|she|they)\b", re.IGNORECASE)


def _committed_sentences(q: Question, text: str) -> list[str]:
    """The sentences of a paragraph reply (three sentences or more) that commit to its answer.

    Its conclusions ("So the answer is X."), or where it draws none, the sentences that put the subject ("he",
    "she", "they") at the question's own time ("As of 2010 he was playing for X", "By 1999 he was at X").
    """
    sentences = [p.strip() for p in _SENTENCE_END.split(text) if p.strip()]
    if len(sentences) < 3:
        return []
    out = [s for s in sentences if _CONCLUDES.search(s)]
    if out or not q.t_query:
        return out
    year = q.t_query[:4]
    when = re.compile(rf"\b(?:as\s+of|by|in|during)\s+{year}\b", re.IGNORECASE)
    return [s for s in sentences if when.search(s) and _SUBJECT.search(s)]


def _safe_time(value: str) -> TimePoint | None:
    try:
        return parse_time(value)
    except TimeParseError:
        pts = _time_points(value)
        return pts[0] if len(pts) == 1 else None


# --------------------------------------------------------------------------------------------------
# Careful judging of entity answers
# --------------------------------------------------------------------------------------------------

# Words before the question's own entity that keep it as the answer ("still a Tenerife player", "stayed at X")
_STILL: Final = frozenset({"still", "stayed", "remained"})
_HEDGES: Final = frozenset(
    {"maybe", "perhaps", "possibly", "probably", "likely", "unsure", "uncertain", "either", "guess", "might"}
)
# Words right before another candidate that make it context, not a second answer ("who succeeded Rau").
_CONTEXT: Final = frozenset(
    {"succeeded", "succeeding", "successor", "predecessor", "preceded", "replacing", "replaced", "following",
     "after", "than", "instead", "rather", "later", "before", "until", "from", "divorcing", "divorced", "widow",
     "widower"}
    # "after"/"before" as conjunctions in German, Spanish, French ("nachdem er X verlassen hatte"), as tokens fold them
    | {t.key for t in tokens("nachdem bevor después après")}
)  # fmt: skip
_NONE_START: Final = tuple(
    tuple(normalize_answer(x).split())
    for x in ("none", "no one", "nobody", "nothing", "no answer", "no such", "there is no", "there was no",
              "there were no", "there is none", "not a single", "there isn't one", "there wasn't one",
              "there isn't any", "there wasn't any", "there was none", "there were none", "not one", "no president",
              "no prime minister", "no leader", "no one fits", "nobody fits",
              # "nobody" in French, Spanish, German, Italian, Portuguese, Polish, Russian
              "personne", "aucun", "aucune", "nadie", "ninguno", "ninguna", "niemand", "keiner", "nessuno", "ninguem",
              "nikt", "никто")
)  # fmt: skip
# "No Chilean president began a term then": "no", with no comma after it, and one or two words before an office
# or a holder ("No, Boric took office" says something else and stays unmatched)
_NO_HOLDER: Final = re.compile(
    r"^\s*no\s+(?:[^\W\d_][\w'’-]*\s+){0,2}?(?:presidents?|prime\s+ministers?|premiers?|chancellors?|kings?|"
    r"queens?|monarchs?|rulers?|leaders?|heads?\s+of\s+(?:state|government)|governors?|mayors?|holders?|pms?|"
    r"office-?holders?|players?|teams?|clubs?|spouses?)\b",
    re.IGNORECASE,
)
# Opening words before a reply's claim that claim nothing ("Trick question? As far as I can tell, no one ...").
_PREAMBLE: Final = re.compile(
    r"^(?:\s*(?:(?:this\s+is\s+)?(?:a\s+)?trick\s+question|as\s+far\s+as\s+i\s+(?:can\s+tell|know)|"
    r"to\s+(?:the\s+best\s+of\s+)?my\s+knowledge|in\s+fact|honestly)\s*[?!.:,;—–-]*)+",
    re.IGNORECASE,
)
# Words that introduce an answer and name nothing ("The answer is X.", "### Answer\nX").
_ANSWER_LEAD: Final = re.compile(
    r"^\s*(?:#+\s*answer\s*\n|(?:so\s+|therefore\s*,?\s*)?(?:the\s+)?(?:final\s+)?answer\s*(?:is\b|:)|"
    r"(?:that|it)\s*(?:would\s+be|must\s+be|[’']s|is|was)\b)\s*",
    re.IGNORECASE,
)
# A club's founding year closing a name of two words or more ("FC Wil 1900", "U.S. Salernitana 1919").
_FOUNDED: Final = re.compile(r"(?P<name>\S+(?:\s+\S+)+?)\s+(?:(?:1[89]|20)?\d\d)")
# Linking particles a name is written without as often as with ("Recreativo Huelva" for "Recreativo de Huelva").
_PARTICLES: Final = re.compile(r"\s+(?:de|del|da|do|dos|das|di|des|du|la|le|el)(?=\s)", re.IGNORECASE)
# A reply that corrects itself: only what follows the last marker is the answer ("B... no, actually A").
_CORRECTION: Final = re.compile(
    r"(?:\bno,?\s+(?:wait|actually|sorry)\b|\bactually,?\s+(?:no|it\s+(?:is|was)|i\s+mean)\b|\blet\s+me\s+correct"
    r"(?:\s+(?:that|myself))?|\blet\s+me\s+re-?check\b|\bcorrection\s*:|\bi\s+mean\b|\bscratch\s+that\b|\b(?:wait|hold\s+on|hang\s+on),|\bcorrecting\s+myself\b|"
    r"\bon\s+(?:second\s+thought|(?:further\s+)?reflection)\b|\?\s*no\s*[—–,:-]|"
    # a trailing-off first figure set aside: "2008... actually I believe it was 2007"
    r"(?:\.\.\.|…)\s*actually\b|\bactually,?\s+i\s+(?:believe|think)\b|"
    # a first figure trailing off into a "no" ("in 2003... no, 2004"); "no, wait" in Dutch and German ("nee, wacht:")
    r"(?:\.\.\.|…)\s*no\s*[,—–:]|\b(?:nee|nein),?\s+(?:wacht|warte)\b|"
    # a first answer set up to be set aside: "you might say X, but ...", "I was going to say X, but ..."
    r"\b(?:was\s+going\s+to|(?:you|one|i|some|many|people)\s+(?:might|may|could|would)(?:\s+be\s+tempted\s+to)?)\s+"
    r"say\b[^.;\n]{0,80}?\bbut\b)",
    re.IGNORECASE,
)
# A clause that excludes what it names ("so he doesn't qualify", "past the cutoff", "not yet sworn in").
_EXCLUDES: Final = re.compile(
    r"(?:\b(?:does|did|do|would|could|is|was|were)\s*n[o']?t|\bnot)\s+(?:qualify|fit|count|match|apply|meet|"
    r"satisfy|included|eligible)|\btoo\s+(?:early|late|soon)\b|"
    # a holder not yet in office: "X had won the election but wouldn't be inaugurated until January"
    r"\b(?:(?:would|will|did|was|were|had)\s*n[o'’]?t|won[’']?t)\s+(?:yet\s+)?(?:be\s+|have\s+)?(?:inaugurated|"
    r"sworn\s+in|take\s+office|taken\s+office|assume\s+office|in\s+office)\b|\bnot\s+yet\s+(?:in\s+office|"
    r"inaugurated|sworn\s+in)\b|\b(?:past|after|before|outside)\s+the\s+"
    r"(?:cut-?off|window|range|period)\b|\bruled\s+out\b|\bexcluded\b",
    re.IGNORECASE,
)
_CLAUSE_END: Final = re.compile(r"[.!?;\n]\s|\n|$")
_CHAIN: Final = re.compile(r"→|->|⟶|=>")
_QUALIFIER: Final = re.compile(r",\s*")
_LIST_GAP: Final = re.compile(r"\s*(?:,|;|/|&|\band\b|\bor\b)\s*(?:and\s+)?", re.IGNORECASE)
_REFUSAL: Final = re.compile(
    r"\b(?:i\s+(?:do\s+not|don't|cannot|can't|could\s+not|couldn't|am\s+unable\s+to|was\s+unable\s+to|"
    r"am\s+not\s+able\s+to)\s+(?:have|find|know|determine|say|answer|verify|recall|confirm|locate|help)|"
    r"i'm\s+(?:not\s+sure|unable|not\s+aware)|i\s+have\s+no\s+(?:reliable\s+)?(?:information|record)|"
    r"no\s+reliable\s+information|no\s+idea|can(?:no|[’']?)t\s+say|beyond\s+what\s+i\s+(?:can|could|know)|"
    r"(?:my\s+)?(?:data|knowledge|records?|information)\s+(?:doesn[’']?t|does\s+not|don[’']?t|do\s+not)\s+cover|"
    r"outside\s+(?:of\s+)?what\s+i\s+can\s+(?:reliably\s+)?(?:recall|answer|say|know)|"
    r"(?:isn[’']?t|is\s+not|not)\s+something\s+i\s+(?:have\s+(?:data|information|anything)|know\s+(?:anything\s+)?)\s*"
    r"(?:on|about)|drawing\s+a\s+blank|(?:isn[’']?t|is\s+not|not)\s+enough\s+(?:context|information|detail)|"
    # "I don't know" in Spanish, French, German, Italian, Portuguese, Polish, Russian
    r"no\s+lo\s+s[ée]|no\s+s[ée](?=\s*(?:[.,;:!]|$))|je\s+ne\s+sais\s+pas|ich\s+wei(?:ß|ss)\s+(?:es\s+)?nicht|wei(?:ß|ss)\s+ich\s+nicht|"
    r"non\s+lo\s+so|n[ãa]o\s+sei|nie\s+wiem)\b|не\s+знаю",
    re.IGNORECASE,
)
_FILLER: Final = frozenset(
    {"both", "respectively", "etc", "and", "all", "them", "others", "hm", "hmm", "well", "ok", "okay", "yes", "yeah",
     "sure", "ah", "oh", "so", "right", "no"}
)  # fmt: skip
_LIST_SPLIT: Final = re.compile(r"\s*(?:[,;/\n]|\s&\s|\band\b|\bor\b)\s*", re.IGNORECASE)
_PAREN_RE: Final = re.compile(r"\([^)]*\)")


_COULD_BE: Final = re.compile(r"\bcould\s+(?:also\s+)?be\b", re.IGNORECASE)


def _hedged(text: str) -> bool:
    words = normalize_answer(text).split()
    return any(w in _HEDGES for w in words) or _COULD_BE.search(text) is not None


_HEAD_RE: Final = re.compile(r"\s*\n\s*\n|\n(?=\s*(?:#|\*\*|[-*•]\s|\d+[.)]\s|\|))")


# A reply that opens with its answer in bold, then a dash, a colon or a line break and an explanation
_BOLD_LEAD: Final = re.compile(r"\s*\*\*(?P<head>[^*\n]{1,120}?)\*\*\s*(?:[—–:]|-\s|\n)\s*(?=\S)")


_DENIALS: Final = frozenset({"not", "never", "no", "nor", "neither", "isnt", "wasnt"})
# What may follow a bold answer: the reply's end, a dash, a full stop, a bracket, a comma before a lower-case word
_BOLD_ENDS: Final = re.compile(r"\s*(?:$|[—–.;:!?(\n]|-\s|,\s*(?![A-Z*]))")
_BOLD_LISTED: Final = re.compile(r"(?:[,&/]|\band)\s*$", re.IGNORECASE)
_BOLD: Final = re.compile(r"\*\*(?P<span>[^*\n]{1,120}?)\*\*")
# Words right before a bold name that keep it from being the reply's answer ("not **X**", "after **X**", "or **X**")
_BOLD_SET_ASIDE: Final = _CONTEXT | _DENIALS | {"or", "nor", "neither", "either", "than"}


def _sole_bold(text: str) -> str | None:
    """The one name a reply sets in bold inside its sentence, as its answer: "In 1997 he was at **Ituano** — ...".

    The rest of the reply is context. ``None`` where it bolds no span or several, hedges ("maybe", "or"), lists the
    span with another name ("**A** and B", "A, **B**"), or writes a negation or a context word ("after", "not") in
    the three words before it.
    """
    spans = list(_BOLD.finditer(text))
    if len(spans) != 1 or _hedged(text) or re.search(r"\bor\b", text, re.IGNORECASE):
        return None
    b = spans[0]
    if not _BOLD_ENDS.match(text, b.end()) or _BOLD_LISTED.search(text, 0, b.start()):
        return None  # "**A** and B", "A, **B**": a list, not one answer
    before = [t.key for t in tokens(text[: b.start()])][-3:]
    return None if set(before) & _BOLD_SET_ASIDE else b.group("span").strip()


def _headline(text: str) -> str | None:
    """The first paragraph of a reply that goes on with an explanation, when it is short; else ``None``.

    An answer in bold at the very start ("**X** — it was in ... between 1871 and 1920") is a headline too.
    """
    bold = _BOLD_LEAD.match(text)
    if bold is not None:
        return bold.group("head").strip()
    m = _HEAD_RE.search(text.strip())
    if m is None:
        return None
    head = text.strip()[: m.start()].strip()
    return head if 0 < len(head) <= 120 and text.strip()[m.end() :].strip() else None


_MARK_RE: Final = re.compile(r"[✓✔✅☑]|←|<-+|\((?:this\s+one|answer|the\s+answer|correct)\)", re.IGNORECASE)
_ITEM_RE: Final = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(?P<item>.+?)\s*$", re.MULTILINE)


def _marked_item(text: str, n_gold: int) -> str:
    """The one item of a list of candidates that the reply marks (✓, ←, "(this one)"), else ``text``.

    Only for a question with one gold answer; a list of fewer than two items, or one that marks none or
    several, is left as it is.
    """
    items = [m.group("item") for m in _ITEM_RE.finditer(text)] if n_gold == 1 else []
    marked = [it for it in items if _MARK_RE.search(it)]
    if len(items) < 2 or len(marked) != 1:
        return text
    return _MARK_RE.sub(" ", marked[0]).replace("**", " ").strip(" :-—–")


def _json_answer(text: str) -> str:
    """The ``answer`` field of a reply that is a JSON object (``null``: "none"); else the text itself."""
    t = text.strip()
    if not t.startswith("{"):
        return text
    try:
        obj, _ = json.JSONDecoder().raw_decode(t)
    except ValueError:
        return text
    if not isinstance(obj, dict) or "answer" not in obj:
        return text
    value = obj["answer"]
    if value is None or value == []:
        return "none"
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return str(value)


# An explicit commitment after deliberating: "Final answer: X", "So my answer is X", "**Answer:** X", a line
# "Answer: X". What a reply names before it (the candidates it weighed) is no answer.
_COMMITS: Final = re.compile(
    r"\bfinal\s+answer\b(?:\s*(?:is|would\s+be)\b)?\s*[:—–-]?|\bmy\s+answer\s+(?:is|would\s+be)\b\s*:?|"
    r"\bmy\s+answer\s*:|\*\*\s*answer\s*:?\s*\*\*\s*:?|^[ \t]*answer\s*:",
    re.IGNORECASE | re.MULTILINE,
)


def committed_answer(text: str) -> str:
    """What follows a reply's last explicit commitment (:data:`_COMMITS`), when something follows it; else ``text``.

    A hedge after the marker ("Final answer: probably X") stays in what is read, and so still fails the reply.
    """
    last = None
    for m in _COMMITS.finditer(text):
        last = m
    if last is None:
        return text
    rest = text[last.end() :].strip(" *:—–-")
    return rest if any(c.isalnum() for c in rest) else text


def after_correction(text: str) -> str:
    """What follows the last self-correction marker, when something follows it; else the whole text."""
    last = None
    for m in _CORRECTION.finditer(text):
        last = m
    if last is None or (last.start() == 0 and not last.group(0).lower().endswith("but")):
        return text  # a leading "Actually, it was X" sets nothing aside; "You might say X, but Y" does
    rest = text[last.end() :].strip(" ,:;.-—–")
    return rest if any(c.isalnum() for c in rest) else text


def _says_none(text: str, candidates: Iterable[str] | NameIndex | None) -> bool:
    """A reply whose first words say nobody fits ("None.", "There isn't one: ...", "No one — ...").

    What follows is read as its reason, so the holders it names are context; a hedge still fails it.
    """
    body = _PREAMBLE.sub("", text)
    if not _opens_none(body) and not _NO_HOLDER.match(body) and not _concludes_none(text):
        return False
    return not _hedged(text)


def _opens_none(text: str) -> bool:
    words = tuple(normalize_answer(text).split())
    return any(words[: len(p)] == p for p in _NONE_START)


# The lead of a reply's last clause that draws its conclusion: "..., so no one.", "Answer: none.", "Therefore none"
_LAST_LEAD: Final = re.compile(r"(?:\b(?:so|therefore|hence|thus)\b|\banswer\s*:)\s*[:,—–-]?\s*", re.IGNORECASE)


def _concludes_none(text: str) -> bool:
    """A reply that reasons first and ends saying nobody fits: "..., neither spans both dates, so there isn't one."."""
    leads = list(_LAST_LEAD.finditer(text))
    if not leads:
        return False
    rest = text[leads[-1].end() :]
    return len(normalize_answer(rest).split()) <= 6 and _opens_none(rest)


def _named_otherwise(form: str, label: str, rival_names: set[str], base: NameIndex | None) -> bool:
    """Whether ``form`` (a shorter form of the gold ``label``) is the full name of another candidate or entity."""
    if normalize_answer(form) in rival_names:
        return True
    squashed = "".join(t.key for t in tokens(form))
    return base is not None and not base.is_short(squashed) and bool(base.owners(squashed) - {label})


def _without_founding_year(label: str) -> str:
    """``label`` without a founding year closing it: "FC Wil" for "FC Wil 1900", "KFC Krefeld" for "KFC Krefeld 05"."""
    m = _FOUNDED.fullmatch(label)
    return m.group("name") if m else label


def _without_particles(label: str) -> str:
    """``label`` without its linking particles, where three words or more remain: "Clube Regatas Flamengo"."""
    bare = _PARTICLES.sub("", label)
    return bare if len(bare.split()) >= 3 or (bare != label and len(bare.split()) >= 2) else label


def _gold_index(
    q: Question,
    aliases: Mapping[str, Sequence[str]] | None,
    candidates: Iterable[str] | NameIndex | None,
    context: Iterable[str] | None,
    known: Iterable[str] | NameIndex | None = None,
) -> tuple[NameIndex, list[frozenset[str]], frozenset[str]]:
    """An index of the gold answers over the candidates, each gold item's keys, and the candidates' keys.

    Built per answer and dropped after it, never kept: a memo of these indexes (module-level, or one
    per evaluation) hit 19% of the questions of a Wikidata12k release and none of the synthetic
    benchmark's, and the objects it kept alive cost the garbage collector more than the rebuilds
    (``benchmarks/README.md``, judging).
    """
    base = candidates if isinstance(candidates, NameIndex) or candidates is None else None
    cand_labels = () if candidates is None or isinstance(candidates, NameIndex) else tuple(candidates)
    if context is not None and base is None:  # a prebuilt candidate index already holds the context
        cand_labels = tuple(dict.fromkeys((*cand_labels, *context)))
    if base is None and known is not None:
        base = known if isinstance(known, NameIndex) else NameIndex({k: (k,) for k in known})
    gold: dict[str, tuple[str, ...]] = {}
    keys: list[frozenset[str]] = []
    rival_names = {normalize_answer(c) for c in cand_labels} - {normalize_answer(a) for a in q.answers}
    for i, label in enumerate(q.answers):
        # a shorter form of the gold that is another entity's name ("Nordic Saga" of "Nordic Saga 2049") is that one's
        derived = {_without_founding_year(label), _without_particles(label)} - {label}
        names = {label} | {d for d in derived if not _named_otherwise(d, label, rival_names, base)}
        own = {label}
        if aliases:
            names.update(aliases.get(label, ()))
            if i < len(q.answer_ids):
                names.update(aliases.get(q.answer_ids[i], ()))
        if i < len(q.answer_ids) and q.answer_ids[i]:
            own.add(q.answer_ids[i])
        gold[f"\0gold:{i}"] = tuple(sorted(names))
        keys.append(frozenset({f"\0gold:{i}", *own, *names}))
    gold_labels = {normalize_answer(n) for names in gold.values() for n in names}
    entities: dict[str, tuple[str, ...]] = dict(gold)
    for c in cand_labels:
        if normalize_answer(c) not in gold_labels:
            entities[c] = (c,)
    rivals = None if context is None else [c for c in context if normalize_answer(c) not in gold_labels]
    cand_keys = frozenset(cand_labels)
    return NameIndex(entities, base=base, rivals=rivals), keys, cand_keys


def _careful_entities(
    q: Question,
    text: str,
    aliases: Mapping[str, Sequence[str]] | None,
    candidates: Iterable[str] | NameIndex | None,
    context: Iterable[str] | None,
    known: Iterable[str] | NameIndex | None = None,
) -> tuple[set[int], int, str | None]:
    """Gold items named, rival answers named, and why nothing decides (``None`` where something does)."""
    text = _ELISION.sub(r"\g<0> ", text)  # "nell'Empoli": the article is no part of the name
    index, gold_keys, cand_keys = _gold_index(q, aliases, candidates, context, known)
    toks = tokens(text)
    mentions = index.find(text, toks)
    asked = _question_entities(q)
    slot = candidates.keys() if isinstance(candidates, NameIndex) else frozenset()
    matched: set[int] = set()
    extra = 0
    n_named = 0
    seen = False  # an entity of the question's slot is named: the rules can decide
    asked_span = 0  # characters of the text that name the question's own entities
    first_gold = next((m.begin for m in mentions if any(m.keys & ks for ks in gold_keys) and not m.negated), None)
    rivals = _rival_labels(q, candidates, context)
    states, shared = _short_states(q, rivals), False
    kept = False  # "he was still a Tenerife player": the reply keeps the question's own entity as its answer
    for m in mentions:
        gi = {i for i, ks in enumerate(gold_keys) if m.keys & ks} or _gold_after_article(text, m, gold_keys)
        if gi:
            n_named += 1
            if not m.negated:
                matched |= gi
            continue
        if m.keys & asked and not _listed_with(text, m, mentions, gold_keys):
            asked_span += m.end - m.begin
            kept = kept or any(toks[k].key in _STILL for k in range(max(0, m.first - 3), m.first))
            continue  # the question's own entities (its subject, the hop in between) are context
        state = next((states[k] for k in map(_folded, m.keys) if k in states), None)
        if state is not None:  # "Romania" for the gold "Kingdom of Romania"
            n_named += 1
            shared = shared or state < 0
            matched |= {state} if state >= 0 and not m.negated else set()
            continue
        if not (m.keys & cand_keys or m.keys & slot):
            continue  # another entity the corpus knows ("CNN Center" is not CNN), not a rival answer
        n_named += 1
        seen = True
        extra += not _rival_as_context(q, text, toks, m, first_gold)
    other_forms, foreign_rivals = _other_forms(q, text, toks, rivals, [*rivals, *(slot - set(q.answers)), *asked])
    matched |= other_forms
    extra, seen = extra + foreign_rivals, seen or foreign_rivals > 0
    if n_named >= 2 or len(q.answers) > 1:
        extra += _unknown_list_items(text, index)
    if n_named >= 2 and any(t.key == "or" for t in toks):
        extra = max(extra, 1)  # "A or B": a hedge
    unknown = None
    near = _near_gold(q, toks, candidates, context)  # "Köhlerei", a surname a rival shares: decided
    near = near or (not matched and _someone_else(q, text, toks, aliases))  # another person, another side: decided
    seen = seen or n_named > 0 or near or kept
    if asked_span and len(normalize_answer(_ANSWER_LEAD.sub("", text))) <= asked_span + 4:
        seen = True  # the reply is only a name of the question's own ("Stoke City" for the club he joined after)
    elif asked_span and _concludes_with(text, mentions, asked):
        seen = True  # "Before that he was with Stoke City, so: Stoke City": its conclusion names only the question's
    if not matched and not seen:
        matched = _club_by_word(q, text, toks, candidates, context, aliases) or _senior_side(q, text, toks)
    if not matched and not seen and _rival_club_by_word(q, text, toks, candidates, context):
        extra, seen = extra + 1, True  # "Tottenham" for the rival "Tottenham Hotspur F.C.": a committed rival
    if not matched and not seen:
        unknown = (
            "a name in another script that no table decides"
            if foreign_runs(text)
            else "names no entity of the question's slot that the rules know"
        )
    elif not (near or matched or extra or any(m.keys & ks for m in mentions for ks in gold_keys)) and _part_of_gold(
        q, text, toks, candidates, context
    ):  # no gold name found, not even under a negation ("not Köhler" decides)
        unknown = "names a part of a gold name (a given name, a short form) that the rules cannot confirm"
    if shared and not matched and not extra:
        unknown = "a state's short name that the gold and a rival of the question share"
    return matched, extra, unknown


_LOWER_ARTICLE: Final = re.compile(r"(?:the|a|an)\s+")
_NAME_GOES_ON: Final = re.compile(r"\s*(?:[-–]\s*)?[A-Z]")  # a capitalised word right after: the name goes on


def _gold_after_article(text: str, m: NameMention, gold_keys: Sequence[frozenset[str]]) -> set[int]:
    """Gold items a mention names once its lower-case article is left out: "earned the Grandmaster title".

    The corpus knows a work called "The Grandmaster"; written with a lower-case "the" inside a sentence the
    article is the reply's own and what follows is the gold's name. A capitalised "The" leaves the mention as found.
    """
    lead = _LOWER_ARTICLE.match(text, m.begin)
    if lead is None or lead.end() >= m.end or _NAME_GOES_ON.match(text, m.end):
        return set()  # "the Grandmaster Flash crew": a longer name, not the gold
    rest = normalize_answer(text[lead.end() : m.end])
    return {i for i, ks in enumerate(gold_keys) if any(normalize_answer(k) == rest for k in ks if k[:1] != "\0")}


def _rival_as_context(q: Question, text: str, toks: Sequence[Token], m: NameMention, first_gold: int | None) -> bool:
    """Whether a rival's mention is context, not a second answer.

    Negated, after "succeeded", an aside after the gold, an earlier holder or one whose time ended ("X died"), a place
    that holds the gold, where it is or a sub-unit of it, a possessive, who appointed the gold, the holder after it.
    """
    if m.negated or _after_context(toks, m) or _aside(q, text, m, first_gold) or _earlier_holder(toks, m):
        return True
    if _container(q, text, m, first_gold) or _sub_unit(q, text, m, first_gold):
        return True
    if _place_after_gold(text, toks, m, first_gold):
        return True
    if _possessive(text, m) or _appointer(text, m, first_gold):
        return True
    return len(q.answers) == 1 and _succession_after(text, toks, m, first_gold)


def _other_forms(
    q: Question, text: str, toks: Sequence[Token], rivals: Sequence[str], others: Sequence[str]
) -> tuple[set[int], int]:
    """Gold items named in another script, by initials, in translation or by a native name; rivals named so.

    Rivals count where a state's name in another script or a native name names them. ``others`` are every rival of the
    slot and the question's own entities.
    """
    foreign, n_rivals = _foreign_state(q, text, rivals)
    matched = _foreign_gold(q, text, rivals) | foreign | _initials_gold(q, text, toks, others)
    matched |= _translated_gold(q, text, others) | _native_named(q.answers, text, toks, others)
    gold = set(q.answers)
    n_rivals += len(_native_named(rivals, text, toks, [o for o in others if o in gold]))
    return matched, n_rivals


# An elided article or preposition glued to a capitalised name (Italian, French): "nell'Empoli", "all'Inter", "l'OM"
_ELISION: Final = re.compile(r"(?<![\w'’])(?:l|d|dell|nell|all|dall|sull|coll|j|qu)['’](?=[A-Z])")
# The lead of a reply's conclusion ("..., so: X", "..., so X.", "Therefore X.", "→ X"): the last one is where its
# answer is.
_CONCLUSION_LEAD: Final = re.compile(
    r"(?:\b(?:so|therefore|hence|thus|answer)\s*[:—–-]|,\s*so\s+(?=\w)|→|=>)\s*", re.IGNORECASE
)


def _concludes_with(text: str, mentions: Sequence[NameMention], asked: frozenset[str]) -> bool:
    """Whether the reply's conclusion names nothing but one of the question's own entities."""
    leads = list(_CONCLUSION_LEAD.finditer(text))
    if not leads:
        return False
    lead = leads[-1]
    tail = [m for m in mentions if m.begin >= lead.end()]
    if not tail or any(not (m.keys & asked) for m in tail):
        return False
    span = sum(m.end - m.begin for m in tail)
    return len(normalize_answer(text[lead.end() :])) <= span + 4


def _listed_with(text: str, m: NameMention, mentions: Sequence[NameMention], gold_keys: list[frozenset[str]]) -> bool:
    """Whether ``m`` is listed next to a gold mention ("Kontsevich and Christodoulou"): a second answer."""
    for g in mentions:
        if g is m or not any(g.keys & ks for ks in gold_keys):
            continue
        a, b = (g.end, m.begin) if g.end <= m.begin else (m.end, g.begin)
        if _LIST_GAP.fullmatch(text, a, b):
            return True
    return False


def _gold_end(text: str, begin: int) -> int:
    """Where the name that starts at ``begin`` ends: the next comma, bracket or line end."""
    m = re.compile(r"[,(\n]").search(text, begin)
    return m.start() if m else len(text)


def _near_gold(
    q: Question, toks: Sequence[Token], candidates: Iterable[str] | NameIndex | None, context: Iterable[str] | None
) -> bool:
    """Whether a word of the reply decides against a gold name it resembles.

    "Köhlerei" holds "Köhler" inside a longer word; "Herzog" is a surname a rival shares. Both are
    ``wrong``, not ``undecided``.
    """
    gold_words = {t.key for a in q.answers for t in tokens(a) if len(t.key) >= 4}
    if any(t.key != w and t.key.startswith(w) for t in toks for w in gold_words):
        return True
    labels = list(context or ()) + ([] if candidates is None or isinstance(candidates, NameIndex) else list(candidates))
    person_words = {t.key for a in q.answers if person_like(a) for t in tokens(a)}
    shared = {t.key for c in labels for t in tokens(c)} & gold_words & person_words
    return any(t.key in shared for t in toks)


def _question_entities(q: Question) -> frozenset[str]:
    """Labels of the question's own facts (S*, anchor) that are no gold answer."""
    gold = set(q.answers) | set(q.answer_ids)
    out = {e for t in (*q.S_star, *q.S_anchor) for e in (t.s, t.o) if e}
    return frozenset(out - gold)


# The ranks of administrative units by the kind word that ends their labels: a district lies in an oblast
_UNIT_RANKS: Final = {
    "district": 1, "raion": 1, "rayon": 1, "uyezd": 1, "municipality": 1, "county": 1, "oblast": 2, "governorate": 2,
    "guberniya": 2, "province": 2, "region": 2, "krai": 2, "okrug": 2, "voivodeship": 2, "state": 2,
}  # fmt: skip


def _unit_rank(label: str) -> int:
    """The rank of an administrative unit's label by its last word (:data:`_UNIT_RANKS`); 0 for any other label.

    A label's own qualifier is no part of it: "Pushkinsky Urban District, Moscow Oblast" is a district.
    """
    toks = tokens(_PAREN_RE.sub(" ", label.split(",")[0]))
    return _UNIT_RANKS.get(toks[-1].key, 0) if toks else 0


def _place_qualifier(q: Question, label: str) -> bool:
    """Whether ``label``, named right after the gold and a comma, says where the gold lies.

    A label that is no person's ("Westminster, London"), or a unit of a higher rank than every gold unit
    ("Mytishchinsky District, Moscow Oblast"); a unit of the gold's own rank is a second answer.
    """
    if not person_like(label):
        return True
    ranks = [_unit_rank(a) for a in q.answers]
    return all(ranks) and _unit_rank(label) > max(ranks, default=0)


def _aside(q: Question, text: str, m: NameMention, first_gold: int | None) -> bool:
    """A rival named as an aside after the gold: in brackets, in a clause that rules it out, before an arrow."""
    if _CHAIN.search(text, m.end):
        return True  # "Cuxhaven → Lower Saxony": only the chain's last link is the answer
    if first_gold is None or m.begin < first_gold:
        return False
    if text[first_gold : m.begin].count(",") == 1 and _QUALIFIER.fullmatch(text, _gold_end(text, first_gold), m.begin):
        return _place_qualifier(q, next(iter(m.keys)))  # "Westminster, London": where the gold lies
    opened = text.rfind("(", 0, m.begin)
    if opened > first_gold and text.find(")", opened, m.begin) < 0:
        return True
    if _dash_gloss(q, text[first_gold : m.begin], next(iter(m.keys))):
        return True
    end = _CLAUSE_END.search(text, m.end)
    return _EXCLUDES.search(text, m.end, end.start() if end else len(text)) is not None


# The gold's name, then a dash and the rival: "Poland — the Second Polish Republic at that point"
_DASH_GLOSS: Final = re.compile(r"(?P<gold>[^—–\n.;,()]+?)\s+[—–]\s+(?:the\s+)?")


def _stem_shared(a: str, b: str) -> bool:
    """Whether two words share a stem: a common start of three letters or more, half the shorter one at least."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n >= 3 and 2 * n >= min(len(a), len(b))


def _dash_gloss(q: Question, between: str, rival: str) -> bool:
    """A rival set after the gold with a dash as a gloss on it, the same polity's fuller name, not a second answer.

    ``between`` runs from the gold's name to the rival's: the gold's whole name, a dash, at most "the". The rival's
    name shares a word stem with the gold's ("Polish" of "Poland"); a rival with no word of the gold's stays a
    second answer ("Poland — Lithuania").
    """
    m = _DASH_GLOSS.fullmatch(between)
    if m is None or normalize_answer(m.group("gold")) not in {normalize_answer(a) for a in q.answers}:
        return False
    gold_words = _label_words(m.group("gold"))
    return any(_stem_shared(g, r) for g in gold_words for r in _label_words(rival))


# The relations whose answer is a place inside other places: a larger place named after it is where it lies.
_PLACE_RELATIONS: Final = frozenset(
    {"located in the administrative territorial entity", "country", "P131", "P17", "isLocatedIn", "<isLocatedIn>"}
)
# "Rostock District of East Germany", "the Kazakh SSR within the Soviet Union", "..., part of the USSR"
_CONTAINED_IN: Final = re.compile(
    r"(?:\bof|\bwithin|\binside|\bpart\s+of|,\s*in)\s+(?:the\s+)?(?:[A-Z][\w'’-]*\s+)?$", re.IGNORECASE
)


def _container(q: Question, text: str, m: NameMention, first_gold: int | None) -> bool:
    """A larger place named right after the gold place, as where it lies ("... within the Soviet Union"): context.

    Only for a question that asks where a place lies, in the gold's own sentence, at most eight words on.
    """
    if first_gold is None or m.begin < first_gold or not any(t.r in _PLACE_RELATIONS for t in q.S_star):
        return False
    between = text[first_gold : m.begin]
    if re.search(r"[.;!?\n]", between) or len(between.split()) > 8:
        return False
    return _CONTAINED_IN.search(between) is not None


# "the Ukrainian SSR, part of the USSR", "Bavaria, then within the German Empire": a sub-unit, then its parent
_PARENT_AFTER: Final = re.compile(
    r"\s*,?\s*(?:(?:which|that)\s+(?:was|is)\s+|then\s+|itself\s+)?(?:a\s+|an\s+)?(?:part\s+of|within|inside|"
    r"(?:constituent\s+)?(?:republic|province|region|state|land|kingdom|unit)\s+of)\s+(?:the\s+)?(?:\*\*)?",
    re.IGNORECASE,
)


def _sub_unit(q: Question, text: str, m: NameMention, first_gold: int | None) -> bool:
    """A smaller place named right before the gold place as lying in it ("the Ukrainian SSR, part of the USSR").

    Only for a question that asks where a place lies: the gold after "part of", "within" is the answer, the
    sub-unit before it context. "the Ukrainian SSR, not the USSR" or "... or the USSR" keeps both.
    """
    if first_gold is None or m.begin > first_gold or not any(t.r in _PLACE_RELATIONS for t in q.S_star):
        return False
    return _PARENT_AFTER.fullmatch(text, m.end, first_gold) is not None


# A state's formal name and its short name ("Kingdom of Romania", "Socialist Republic of Romania": "Romania")
_FORMAL_STATE: Final = re.compile(
    r"^(?:the\s+)?(?:kingdom|principality|grand\s+duchy|duchy|empire|tsardom|"
    r"(?:(?:socialist|people'?s|democratic|federal|federative|soviet)\s+)*republic)\s+of\s+(?:the\s+)?(?P<x>.+)$",
    re.IGNORECASE,
)


def _folded(label: str) -> str:
    return "".join(t.key for t in tokens(label))


def _short_states(q: Question, rivals: Sequence[str]) -> dict[str, int]:
    """The folded short names of gold states with a formal name ("romania" for "Kingdom of Romania").

    Each maps to its gold item; to ``-1`` where a rival of the question is that state or has the same short name
    ("Socialist Republic of Romania"): there the short name decides nothing.
    """
    out: dict[str, int] = {}
    for i, label in enumerate(q.answers):
        m = _FORMAL_STATE.match(label.strip())
        if m:
            out[_folded(m.group("x"))] = i
    for r in rivals:
        m = _FORMAL_STATE.match(r.strip())
        for k in {_folded(r), _folded(m.group("x")) if m else ""} & set(out):
            out[k] = -1
    return out


def _place_after_gold(text: str, toks: Sequence[Token], m: NameMention, first_gold: int | None) -> bool:
    """A rival named by a short form right after "in", after the gold in its sentence: where the gold is.

    "He was with Associação Portuguesa de Desportos in São Paulo": the city, not São Paulo FC.
    """
    if first_gold is None or m.begin < first_gold or not m.short or m.first == 0 or toks[m.first - 1].key != "in":
        return False
    return re.search(r"[.;!?\n]", text[first_gold : m.begin]) is None


def _rival_labels(
    q: Question, candidates: Iterable[str] | NameIndex | None, context: Iterable[str] | None
) -> list[str]:
    """The labels of the question's context and candidates that are no gold answer."""
    labels = list(context or ()) + ([] if candidates is None or isinstance(candidates, NameIndex) else list(candidates))
    gold = {normalize_answer(a) for a in q.answers}
    return [c for c in labels if normalize_answer(c) not in gold]


def _label_words(label: str) -> list[str]:
    return [t.key for t in tokens(_PAREN_RE.sub(" ", label))]


def _foreign_gold(q: Question, text: str, rivals: Sequence[str] = ()) -> set[int]:
    """Gold items named in Cyrillic, Greek or kana (:mod:`chronoqa.score.translit`).

    A person's given names are spelled too many ways across scripts ("Джузеппе" for "Giuseppe", "ヤン" for "Jan")
    to be compared: a spelled surname that matches the gold person's and no rival person's names the gold, as a
    surname alone does in Latin letters.
    """
    out: set[int] = set()
    rival_surnames = [w[-1] for w in map(_label_words, rivals) if w and person_like(" ".join(w))]
    for run in foreign_runs(text):
        spelled = latin(run)
        if spelled is None:
            continue
        kana = all(script_of(c) == "kana" for c in run if c.isalpha())
        if not kana:  # a city's own name the data writes in English: "Москва" is "moskva", which is Moscow
            spelled = _surname_last(" ".join(t.key for t in tokens(spelled)))
        for i, label in enumerate(q.answers):
            words = _label_words(label)
            if same_name(spelled, words, kana):
                out.add(i)
            elif words and spelled.split() and person_like(label):
                surname = spelled.split()[-1:]
                if same_name(" ".join(surname), words[-1:], kana) and not any(
                    same_name(surname[0], [r], kana) for r in rival_surnames
                ):
                    out.add(i)
    rival_words = [w for w in map(_label_words, rivals) if w]
    for run in hebrew_runs(text):  # by consonants, where no rival of the question has the same ones
        hits = {i for i, label in enumerate(q.answers) if hebrew_names(run, _label_words(label))}
        if hits and not any(hebrew_names(run, w) for w in rival_words):
            out |= hits
    return out


# A Russian patronymic, spelled in Latin letters: "vladimirovich", "sergeyevich", "petrovna"
_PATRONYMIC: Final = re.compile(r"^[a-z]{3,}(?:ovich|evich|ovna|evna|ichna|inichna)$")


def _surname_last(spelled: str) -> str:
    """A Russian name written surname first with a patronymic ("Мишустин Михаил Владимирович"), given name first.

    "mishustin mikhail vladimirovich" is "mikhail mishustin": three words, the last a patronymic, are the surname,
    the given name and the patronymic, as official Russian usage orders them. Any other spelling is left as it is.
    """
    words = spelled.split()
    if len(words) != 3 or not _PATRONYMIC.match(words[2]) or _PATRONYMIC.match(words[1]):
        return spelled
    return f"{words[1]} {words[0]}"


def _foreign_state(q: Question, text: str, rivals: Sequence[str]) -> tuple[set[int], int]:
    """Gold items, and rivals, a reply names by a state's name in another language (:func:`state_exonym`).

    Cyrillic or Greek, or another language's Latin letters (:func:`_latin_exonyms`): "Российская империя" is the
    Russian Empire, "СССР" the Soviet Union, "Königreich Preußen" the Kingdom of Prussia. The English label the table
    gives is compared with each gold label and each rival's; a label that is neither decides nothing.
    """
    gold = {normalize_answer(a): i for i, a in enumerate(q.answers)}
    rival = {normalize_answer(r) for r in rivals} - set(gold)
    out: set[int] = set()
    n_rivals = 0
    for label in [state_exonym(run) for run in foreign_runs(text)] + _latin_exonyms(text):
        key = None if label is None else normalize_answer(label)
        if key in gold:
            out.add(gold[key])
        elif key in rival:
            n_rivals += 1
    return out, n_rivals


# the table's names in Latin letters (German, Polish, French, Spanish, Italian) by their words
_LATIN_STATE_WORDS: Final = {
    tuple(_label_words(n)): label
    for label, ns in STATE_NAMES.items()
    for n in ns
    if all(script_of(c) == "latin" for c in n if c.isalpha())
}


def _latin_exonyms(text: str) -> list[str]:
    """The English labels of the states a reply names in another language (:data:`.state_names.STATE_NAMES`).

    "Königreich Preußen" is the Kingdom of Prussia. Each name's words stand in the reply in order, its first one
    capitalised, not within three words after a negation.
    """
    toks = tokens(text)
    keys = [t.key for t in toks]
    out: list[str] = []
    for words, label in _LATIN_STATE_WORDS.items():
        for k in range(len(toks) - len(words) + 1):
            if tuple(keys[k : k + len(words)]) != words or not text[toks[k].begin].isupper():
                continue
            if not any(keys[j] in _DENIALS for j in range(max(0, k - 3), k)):
                out.append(label)
    return out


# The generic word of an institution's name as other languages write it (folded), and the English word
_TRANSLATED_WORDS: Final = {
    w: "university"
    for w in ("universitat", "universita", "universite", "universidad", "universidade", "uniwersytet", "universiteit",
              "univerzita", "universitet", "universitatea", "universitaet")
}  # fmt: skip
# Words that link a name's parts in one language and not in another ("University of Bonn", "Universität Bonn")
_LINK_WORDS: Final = frozenset({"of", "the", "de", "di", "der", "des", "du", "la", "le", "del", "degli", "do", "da"})


def _content_words(label: str) -> list[str]:
    return sorted(_TRANSLATED_WORDS.get(w, w) for w in _label_words(label) if w not in _LINK_WORDS)


def _translated_gold(q: Question, text: str, rivals: Sequence[str]) -> set[int]:
    """Gold items a short reply names in the language of the place: "Universität Bonn" for "University of Bonn".

    The reply is nothing but the name (two to six words), with an institution's generic word in another language
    (:data:`_TRANSLATED_WORDS`); its other words, linking words aside and in any order, are the gold's, and no
    rival's.
    """
    body = _ANSWER_LEAD.sub("", text).strip().rstrip(".!")
    words = _label_words(body)
    if not 2 <= len(words) <= 6 or not any(w in _TRANSLATED_WORDS for w in words):
        return set()
    said = _content_words(body)
    if any(_content_words(r) == said for r in rivals):
        return set()
    return {i for i, a in enumerate(q.answers) if _content_words(a) == said}


# Parties' names in their own language (the data labels them in English), for the initials a reply writes ("SPD")
# and the native name itself ("Die Grünen")
NATIVE_NAMES: Final = {
    "Social Democratic Party of Germany": ("Sozialdemokratische Partei Deutschlands",),
    "Alliance '90/The Greens": ("Bündnis 90/Die Grünen", "Die Grünen"),
    "Christian Democratic Union": ("Christlich Demokratische Union", "Christlich Demokratische Union Deutschlands"),
    "Christian Democratic Union of Germany": ("Christlich Demokratische Union",),
    "Christian Social Union in Bavaria": ("Christlich-Soziale Union in Bayern", "Christlich-Soziale Union"),
    "Free Democratic Party": ("Freie Demokratische Partei",),
    "Communist Party of Germany": ("Kommunistische Partei Deutschlands",),
    "German Communist Party": ("Deutsche Kommunistische Partei",),
    "Liberal Democratic Party of Germany": ("Liberal-Demokratische Partei Deutschlands",),
    "Party of Democratic Socialism": ("Partei des Demokratischen Sozialismus",),
    "Party of Democratic Socialism (Germany)": ("Partei des Demokratischen Sozialismus",),
    "Socialist Unity Party of Germany": ("Sozialistische Einheitspartei Deutschlands",),
    "Independent Social Democratic Party of Germany": ("Unabhängige Sozialdemokratische Partei Deutschlands",),
    "The Left": ("Die Linke",),
    "The Left (Germany)": ("Die Linke",),
    "Alternative for Germany": ("Alternative für Deutschland",),
    "Italian Socialist Party": ("Partito Socialista Italiano",),
    "Italian Communist Party": ("Partito Comunista Italiano",),
    "Christian Democracy (Italy)": ("Democrazia Cristiana",),
    "Spanish Socialist Workers' Party": ("Partido Socialista Obrero Español",),
    # The divided German states' own names; "Bundesrepublik Deutschland" is left out: it is also unified Germany's,
    # and a reply naming it where the gold is Germany must not read as naming West Germany
    "West Germany": ("Westdeutschland",),
    "East Germany": ("Deutsche Demokratische Republik", "Ostdeutschland"),
}


@lru_cache(maxsize=1 << 16)
def _strong_initials(label: str) -> frozenset[str | None]:
    """The initials of ``label`` and of its native names (:data:`NATIVE_NAMES`): "spd" for the SPD."""
    return frozenset(initials_of(n).full for n in (label, *NATIVE_NAMES.get(label, ())))


def _all_capitals(written: str) -> bool:
    """Whether a token is written as initials are: ASCII letters, all in capitals ("IM", "RWE")."""
    return written.isascii() and written.isalpha() and written.isupper()


def _initials_gold(q: Question, text: str, toks: Sequence[Token], rivals: Iterable[str]) -> set[int]:
    """Gold items a reply names by their initials: "IM" for International Master, "RWE" for Rot-Weiss Essen.

    The initials (of the label, or of its native name: "SPD") are written in capitals as a word of their own, not
    after a negation, with no capitalised word next to them ("AC Milan" names no "Athletic Club"); no rival (the
    question's context, the other entities of its slot, its own entities) has the same initials. A club's
    initials without its type affix ("QPR", :attr:`Initials.bare`) are the weaker form: they decide only where no
    rival has them with or without its own.
    """
    capitals = {k: w.lower() for k, t in enumerate(toks) if _all_capitals(w := text[t.begin : t.end])}
    if not capitals:
        return set()
    written_forms = set(capitals.values())  # a rival's initials matter only where the reply writes them
    rivals = list(rivals)
    taken = {f for r in rivals for f in _strong_initials(r) if f in written_forms}
    taken_bare = taken | {f for r in rivals if (f := initials_of(r).bare) in written_forms}
    out: set[int] = set()
    for i, label in enumerate(q.answers):
        forms = ((_strong_initials(label) - taken) | ({initials_of(label).bare} - taken_bare)) - {None}
        for k, written in capitals.items():
            if written not in forms:
                continue
            if any(toks[j].key in _DENIALS for j in range(max(0, k - 3), k)) or not _stands_alone(text, toks, k, set()):
                continue
            out.add(i)
    return out


def _native_named(labels: Sequence[str], text: str, toks: Sequence[Token], others: Iterable[str]) -> set[int]:
    """The items of ``labels`` a reply names by their native name (:data:`NATIVE_NAMES`).

    "Die Grünen" names "Alliance '90/The Greens". The name's words stand in the reply in order, its last one
    capitalised, not after a negation; none of ``others`` has it.
    """
    if not any(label in NATIVE_NAMES for label in labels):
        return set()
    taken = {tuple(_label_words(n)) for r in others for n in NATIVE_NAMES.get(r, ())}
    keys = [t.key for t in toks]
    out: set[int] = set()
    for i, label in enumerate(labels):
        for name in NATIVE_NAMES.get(label, ()):
            words = tuple(_label_words(name))
            if words in taken:
                continue
            for k in range(len(toks) - len(words) + 1):
                last = toks[k + len(words) - 1]
                if tuple(keys[k : k + len(words)]) != words or not text[last.begin].isupper():
                    continue
                if not any(keys[j] in _DENIALS for j in range(max(0, k - 3), k)):
                    out.add(i)
    return out


def _club_word_at(text: str, toks: Sequence[Token], k: int, words: Iterable[str], own_words: set[str]) -> bool:
    """Whether ``toks[k]`` names a club by one of its ``words``.

    The word is capitalised (three letters in capitals: "AIK"), not after a negation, with no capitalised word
    beside it but the club's own (``own_words``).
    """
    t = toks[k]
    written = text[t.begin : t.end]
    if t.key not in words or not written[:1].isupper() or (len(t.key) < 4 and not written.isupper()):
        return False
    if any(toks[j].key in _DENIALS for j in range(max(0, k - 3), k)):
        return False
    return _stands_alone(text, toks, k, own_words)


def _club_by_word(
    q: Question,
    text: str,
    toks: Sequence[Token],
    candidates: Iterable[str] | NameIndex | None,
    context: Iterable[str] | None,
    aliases: Mapping[str, Sequence[str]] | None,
) -> set[int]:
    """Gold clubs a reply names by one distinctive word of their name ("Banfield" for "Club Atlético Banfield").

    The word (:func:`~chronoqa.score.judge_names.club_words`) is written as :func:`_club_word_at` reads it; and no
    other entity of the question's slot, nor of its context, has it in a label (the gold's own aliases may). The
    letters of the gold's written-out legal form may stand beside it ("Lyngby BK" for "Lyngby Boldklub").
    """
    out: set[int] = set()
    rival_words = {w for r in _rival_labels(q, candidates, context) for w in _label_words(r)}
    slot = candidates if isinstance(candidates, NameIndex) else None
    for i, label in enumerate(q.answers):
        own = {label, *(aliases or {}).get(label, ())}
        if i < len(q.answer_ids) and q.answer_ids[i]:
            own |= {q.answer_ids[i], *(aliases or {}).get(q.answer_ids[i], ())}
        label_words = set(_label_words(label))
        label_words |= {LEGAL_FORMS[w] for w in label_words if w in LEGAL_FORMS}  # "Lyngby BK"
        words = {
            w for w in club_words(label) if w not in rival_words and not (slot is not None and slot.with_word(w) - own)
        }
        if any(_club_word_at(text, toks, k, words, label_words) for k in range(len(toks))):
            out.add(i)
    return out


def _rival_club_by_word(
    q: Question,
    text: str,
    toks: Sequence[Token],
    candidates: Iterable[str] | NameIndex | None,
    context: Iterable[str] | None,
) -> bool:
    """Whether a reply that names no gold names a rival club of the question's context by a distinctive word.

    "Tottenham" for "Tottenham Hotspur F.C.": ``wrong``, not undecided. The word is no word of a gold label nor of
    the question's own entities, and no other rival's; it is written as :func:`_club_word_at` reads it, at least
    once not right after a word that makes it context ("moved from X").
    """
    rivals = _rival_labels(q, candidates, context)
    taken = {w for a in (*q.answers, *_question_entities(q)) for w in _label_words(a)}
    for r in rivals:
        others = {w for o in rivals if o != r for w in _label_words(o)}
        words = set(club_words(r)) - taken - others
        own = set(_label_words(r))
        for k in range(len(toks)):
            if _club_word_at(text, toks, k, words, own) and not any(
                toks[j].key in _CONTEXT for j in range(max(0, k - 3), k)
            ):
                return True
    return False


# A senior national team's label: the country, then "national", then only its sport ("Norway national association
# football team", "Canada men's national soccer team")
_SENIOR_SIDE: Final = re.compile(
    r"^(?P<country>.+?)(?:\s+men[’']?s)?\s+national\s+(?:(?:association|football|soccer)\s+)*team$", re.IGNORECASE
)
# Words before a country that make it a place, not a side ("he was at a club in Mexico")
_PLACE_LEAD: Final = frozenset({"in", "from", "at", "to", "of", "across", "near", "around", "within", "inside", "en"})
# Words near a country that make the side another one than the senior team ("Norway's under-21s", "a youth
# international for Norway", "Norway women")
_OTHER_SIDE: Final = re.compile(
    r"^(?:(?:u|under|sub)\d+s?|youth|junior|juniors|olympic|women|womens|ladies|girls|amateur|reserves?|b|futsal|"
    r"beach|u|under|sub)$"
)


def _senior_side(q: Question, text: str, toks: Sequence[Token]) -> set[int]:
    """Gold senior national teams a reply names by their country alone ("playing for Argentina", "Norway").

    Called only where the reply names no entity of the question's slot. The country's words are written
    capitalised, with no capitalised word of another name or a side's mark next to them ("Norway U21"), not after a
    negation nor after a word that makes the country a place ("a club in Mexico").
    """
    out: set[int] = set()
    sides = [(i, name) for i, label in enumerate(q.answers) for name in (label, *_own_names(q, i))]
    for i, label in sides:  # the gold's label, and the names the question accepts for it ("FR Yugoslavia ...")
        m = _SENIOR_SIDE.match(label.strip())
        if m is None:
            continue
        country = [t.key for t in tokens(m.group("country"))]
        n = len(country)
        for k in range(len(toks) - n + 1):
            if [t.key for t in toks[k : k + n]] != country or not text[toks[k].begin].isupper():
                continue
            before = {toks[j].key for j in range(max(0, k - 3), k)}
            if before & _DENIALS or (k > 0 and toks[k - 1].key in _PLACE_LEAD):
                continue
            near = [t.key for t in toks[max(0, k - 4) : k + n + 3]]
            if any(_OTHER_SIDE.match(w) for w in near):
                continue
            if _stands_alone(text, toks, k, set(country)) and _stands_alone(text, toks, k + n - 1, set(country)):
                out.add(i)
    return out


_SIDE_MARK: Final = re.compile(r"[A-Z]|II|III|IV|[1-9]")


def _stands_alone(text: str, toks: Sequence[Token], k: int, own: set[str]) -> bool:
    """Whether the capitalised words right next to ``toks[k]`` (a space apart) are all words of its own label.

    A side's mark closing the run ("Varela B", "Varela FC II") makes it another team.
    """
    j = k - 1
    while j >= 0 and _joined(text, toks[j], toks[j + 1]) and text[toks[j].begin].isupper():
        if toks[j].key not in own:
            return False
        j -= 1
    j = k + 1
    while j < len(toks) and _joined(text, toks[j - 1], toks[j]) and text[toks[j].begin].isupper():
        if _SIDE_MARK.fullmatch(text, toks[j].begin, toks[j].end) or toks[j].key not in own:
            return False
        j += 1
    return True


def _joined(text: str, a: Token, b: Token) -> bool:
    return text[a.end : b.begin].strip() == ""


# A name's particles and initials, written lower case or short in full names ("van", "de", "J.")
_NAME_PARTICLE: Final = re.compile(r"(?:van|von|der|den|de|del|da|di|du|la|le|bin|ibn|al|[A-Z]\.?)")


def _stranger(q: Question, text: str, aliases: Mapping[str, Sequence[str]] | None) -> bool:
    """Whether the reply is nothing but another person's full name: no word of it is a word of any gold name.

    Where the question asks for a person, "Ada Lovelace" for the gold "Grace Hopper" is wrong, not undecided:
    a full name (two words or more; in another script, its Latin spelling) that shares no word with the gold,
    its aliases or their Latin spellings is someone else. A single word ("Hopper", a nickname) stays undecided.
    """
    if not q.answers or not all(person_like(a) for a in q.answers):
        return False
    names = [*q.answers, *(n for a in (*q.answers, *q.answer_ids) for n in (aliases or {}).get(a, ()))]
    gold = {w for n in names for w in _label_words(n)}
    body = _ANSWER_LEAD.sub("", text).strip().rstrip(".!")
    runs = foreign_runs(body)
    if runs:
        if len(runs) != 1 or runs[0].strip() != body:
            return False
        spelled = latin(runs[0])
        kana = all(script_of(c) == "kana" for c in runs[0] if c.isalpha())
        words = spelled.split() if spelled else []
        return len(words) >= 2 and not any(same_name(w, [g], kana) for w in words for g in gold)
    parts = body.split()
    if not 2 <= len(parts) <= 4 or not all(p[:1].isupper() or _NAME_PARTICLE.fullmatch(p) for p in parts):
        return False
    if not person_like(body):  # "Blue FC", "Oersted Medal": no person's name, perhaps a misread slot
        return False
    words = _label_words(body)
    return len(words) == len(parts) and not any(close(w, g) for w in words for g in gold)


def _someone_else(q: Question, text: str, toks: Sequence[Token], aliases: Mapping[str, Sequence[str]] | None) -> bool:
    """Whether the reply, naming no gold item, names another entity of the gold's kind: then it is wrong, decided.

    Another person's full name (:func:`_stranger`), another person who shares the gold's surname
    (:func:`_namesake`), or a youth side of another age (:func:`_other_age_side`).
    """
    return _stranger(q, text, aliases) or _namesake(q, text, toks, aliases) or _other_age_side(q, text)


def _namesake(q: Question, text: str, toks: Sequence[Token], aliases: Mapping[str, Sequence[str]] | None) -> bool:
    """Whether the reply names someone else by the gold person's surname: two given names before it, none the gold's.

    "Anna Maria Berg" for the gold "Karin Berg" is another person; "K. Berg", "Karin Berg", "President Berg" are not.
    One given name alone decides nothing: it may be a short form or a nickname ("Arik Sharon" is Ariel Sharon).
    """
    for i, label in enumerate(q.answers):
        words = _label_words(label)
        if not person_like(label) or len(words) < 2:
            continue
        names = [label, *(aliases or {}).get(label, ())]
        if i < len(q.answer_ids):
            names += (aliases or {}).get(q.answer_ids[i], ())
        own = {w for n in names for w in _label_words(n)}
        for k, t in enumerate(toks):
            if t.key != words[-1] or not text[t.begin].isupper():
                continue
            given = names_beside(text, toks, k - 1, -1)
            if len(given) >= 2 and not owns_names(given, own, words[-1]):
                return True
    return False


# A youth side's age mark: "U-23", "U21", "under-19", "Under 20s" (not "under 20 years")
_AGE_MARK: Final = re.compile(
    r"\b(?:u|under)\s?[-‐‑–]?\s?(?P<age>1[4-9]|2[0-3])s?\b(?!\s*(?:years|yrs))", re.IGNORECASE
)


def _other_age_side(q: Question, text: str) -> bool:
    """Whether the gold is a youth side ("... under-17 soccer team") and the reply names only sides of other ages.

    "the U-23s" for an under-17 gold is another team; a reply that also writes the gold's age is left to the names.
    """
    gold = {m.group("age") for a in q.answers for m in _AGE_MARK.finditer(a)}
    said = {m.group("age") for m in _AGE_MARK.finditer(text)}
    return bool(gold and said) and not gold & said


_POSSESSED_RE: Final = re.compile(r"\s+(?!(?:the|a|an|not|been|going|my|your|our|no)\b)[a-z]")
_SUCCESSION_NEAR: Final = frozenset(
    {"succeeded", "followed", "replaced", "preceded", "after", "before", "from", "successor", "predecessor"}
)
_BACK: Final = frozenset({"him", "her", "them", "his", "hers", "their"})
_CLAUSE_GOES_ON: Final = re.compile(r"\s+(?!(?:and|or|as|nor)\b)[a-z]")
_THEN_BEFORE: Final = re.compile(r"[,;]\s*(?:and\s+)?then\s+$", re.IGNORECASE)
_GENERIC_WORDS: Final = frozenset(
    {"the", "of", "and", "de", "fc", "f", "c", "afc", "sc", "club", "united", "city", "university", "college", "party",
     "national", "team", "school", "state", "republic", "kingdom", "prize", "award", "county", "football", "sport"}
)  # fmt: skip


def _possessive(text: str, m: NameMention) -> bool:
    """A rival in the possessive before a noun ("between Putin's second and third terms"): context, no answer."""
    return text[m.end - 2 : m.end] in ("'s", "’s") and _POSSESSED_RE.match(text, m.end) is not None


def _succession_after(text: str, toks: Sequence[Token], m: NameMention, first_gold: int | None) -> bool:
    """A rival named after the gold as its successor or predecessor with a plain verb.

    "A; B came after him in 2004", "A, then B took over", "A. B was his successor", "A, until B took over",
    "A — B was sworn in on D", "A; before him it was B": the gold stays the one answer.
    """
    if first_gold is None or m.begin < first_gold:
        return False
    prev = [t.key for t in toks[max(0, m.first - 4) : m.first]]
    if any(a in _SUCCESSION_NEAR and b in _BACK for a, b in pairwise(prev)):
        return True  # "A; before him it was B", "A — after her came B"
    if _THEN_BEFORE.search(text, first_gold, m.begin) and _CLAUSE_GOES_ON.match(text, m.end):
        return True  # "A, then B took over in 2004"; a bare "A, then B" lists two answers
    nxt = [t.key for t in toks[m.last + 1 : m.last + 6]]
    if tuple(nxt[:2]) in _TOOK_OVER:
        return True
    return any(w in _SUCCESSION_NEAR for w in nxt[:4]) and any(w in _BACK for w in nxt)


# The verb of one who put the gold in office, between the two names: "Macron appointed **Bayrou**"
_APPOINTED: Final = re.compile(r"\s+(?:appointed|named|nominated|chose|picked)\s+(?:\*\*)?", re.IGNORECASE)


def _appointer(text: str, m: NameMention, first_gold: int | None) -> bool:
    """A rival right before the gold as the one who appointed it ("Macron appointed **Bayrou**"): context."""
    return first_gold is not None and m.end <= first_gold and _APPOINTED.fullmatch(text, m.end, first_gold) is not None


# A successor's verb right after its name: "B took over", "B was sworn in", "B took office"
_TOOK_OVER: Final = frozenset(
    {("took", "over"), ("took", "office"), ("was", "sworn"), ("were", "sworn"), ("was", "inaugurated")}
)


def _part_of_gold(
    q: Question,
    text: str,
    toks: Sequence[Token],
    candidates: Iterable[str] | NameIndex | None,
    context: Iterable[str] | None,
) -> bool:
    """Whether the reply writes a distinctive word of a gold name, capitalised ("Anwar", "Dilma"), that no rival shares.

    A given name or a short form the data does not list may name the gold: the rules leave it undecided.
    """
    labels = list(context or ()) + ([] if candidates is None or isinstance(candidates, NameIndex) else list(candidates))
    rival_words = {t.key for c in labels if normalize_answer(c) not in {normalize_answer(a) for a in q.answers}
                   for t in tokens(c)}  # fmt: skip
    gold_words = {t.key for a in q.answers for t in tokens(a)} - _GENERIC_WORDS - rival_words
    return any(t.key in gold_words and len(t.key) >= 3 and text[t.begin : t.begin + 1].isupper() for t in toks)


# A perfect participle clause of an earlier spell before the name: "having earlier been at Ajax", "had previously
# played for Ajax" (a bare "previously Ajax" may still be a second answer).
_EARLIER_SPELL: Final = (frozenset({"having", "had"}), frozenset({"earlier", "previously", "formerly", "once"}))


def _after_context(toks: Sequence[Token], m: NameMention) -> bool:
    if any(toks[k].key in _CONTEXT for k in range(max(0, m.first - 3), m.first)):
        return True
    keys = [toks[k].key for k in range(max(0, m.first - 5), m.first)]
    aux, adverb = _EARLIER_SPELL
    return any(a in aux and b in adverb for a, b in pairwise(keys))


def _earlier_holder(toks: Sequence[Token], m: NameMention) -> bool:
    """A rival said in the pluperfect to have held it earlier ("X, although Y had been mayor earlier"): context.

    So is a rival whose time in it the reply ends: "Raisi died in May 2024; the president is now Pezeshkian".
    """
    nxt = [toks[k].key for k in range(m.last + 1, min(len(toks), m.last + 9))]
    if tuple(nxt[:2]) in _LEFT_OFFICE or nxt[:1] in (["died"], ["resigned"]):
        return True
    return nxt[:1] == ["had"] and any(w in _EARLIER_SPELL[1] or w == "before" for w in nxt[1:])


# A holder's time in office ended right after the name: "X stepped down", "X was killed", "X left office"
_LEFT_OFFICE: Final = frozenset(
    {("stepped", "down"), ("left", "office"), ("was", "killed"), ("was", "assassinated"), ("was", "ousted"),
     ("was", "deposed"), ("was", "removed"), ("had", "died"), ("had", "resigned"), ("was", "overthrown")}
)  # fmt: skip


def _unknown_list_items(text: str, index: NameIndex) -> int:
    """Items of a list answer that name no known entity but look like a name ("Ibrahim Mahlab")."""
    body = _PAREN_RE.sub(" ", text)
    parts = [p.strip(" .:!\"'*") for p in _LIST_SPLIT.split(body)]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return 0
    n = 0
    for part in parts:
        if index.find(part):
            continue
        words = part.split()
        if not 1 <= len(words) <= 4 or any(w.lower() in _FILLER for w in words):
            continue
        if all(w[:1].isupper() for w in words):
            n += 1
    return n
