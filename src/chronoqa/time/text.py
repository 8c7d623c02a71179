"""Find time expressions in free text: questions, LLM explanations, documents.

:func:`extract_times` is deterministic and conservative: it reports a mention only when the string
is unambiguously a time. What it reads (examples, each a :class:`TimeMention`):

* ``point``: ``1994``, ``in 1994``, ``1994 AD`` → [1994, 1994] (year); ``March 1994``, ``1994-03`` →
  the month; ``the 5th of March 1994``, ``March 5, 1994``, ``5 March 1994``, ``1994-03-05``,
  ``the fifth of March, 1994``, ``March the fifth, 1994``, ``5 Mar. 1994`` → the day. Numeric day forms:
  dotted ones are day-first (``05.03.1994``, the order every locale that writes dots uses); slashed ones
  are read where the order is certain (``17/02/2012`` day-first, ``05/31/2010`` month-first,
  ``12/12/1996``); otherwise (``05/03/1994``) only the year is read, marked ``ambiguous``, never a
  guessed day. A season (``summer 2004``) is its year. Fixed feast days: ``Christmas Day 1992`` → 1992-12-25
  (also Christmas Eve, New Year's Day and Eve).
* ``decade``: ``the 1990s``, ``mid-1990s``, ``1990-something``, ``1990-odd`` → [1990, 1999] (no year stated).
* ``century``: ``the 19th century`` → [1801, 1900]; ``the 5th century BC`` → [-500, -401].
* ``range``: ``between 1994 and 1998``, ``from 1994 to 1998``, ``1994–1998``, ``1994-98``,
  ``1994/95``, ``2020-2021`` → [start of the first, end of the second]; ``24 February to 5 March 2004``
  (the year written once) → [2004-02-24, 2004-03-05]. A range written backwards after "from"/"between"
  (``between 2001 and 2000``) keeps its order, start after end: its ends are stated as written.
* ``since``: ``since March 2014`` → [2014-03, open]; ``after 2001`` → [2001, open];
  ``2009–present``, ``from 2009 to now`` → [2009, open].
* ``until``: ``until 2001``, ``before 2001`` → [unknown, 2001].

``after`` and ``before`` exclude their bound; the interval still carries the bound itself and the
mention records ``exclusive=True`` (use :meth:`TimeMention.strict_interval` for the shifted one).

Deliberately *not* dates: a month without a year (``May``), numbers that are not years in context
(``5 goals``, ``25``, ``3-hop``, ``1,500``, ``$2000``, ``2000 people``), abbreviated years (``'94``,
``the '90s``: :func:`full_years` writes a clipped year out where the text or the caller gives its
century), numbers inside names (``Blink-182``, ``Windows 2000``, ``Blade Runner 2049``: a year right after
a capitalised word that is not a month or a time preposition is read as part of a title),
the day of a slashed date whose day/month order is open (``05/03/1994``: its year only); an impossible date
(``February 30, 1994``) keeps only its year. Bare years are 4 digits in 1000..2100; other years need an era (``44 BC``,
``AD 800``). ``n BC`` is year ``-n``, the way Wikidata and YAGO write BC years, so ``405 BC``
compares equal to the data's ``-405``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from chronoqa.time._core import Granularity, Interval, TimeParseError, TimePoint

__all__ = ["MENTION_KINDS", "TimeMention", "english_dates", "extract_times", "full_years", "roman_year"]

MENTION_KINDS: Final = ("point", "range", "decade", "century", "since", "until")

_MIN_BARE_YEAR: Final = 1000
_MAX_BARE_YEAR: Final = 2100


@dataclass(frozen=True, slots=True)
class TimeMention:
    """One time expression found in a text.

    ``begin``/``end`` are character offsets (``text == source[begin:end]``); ``kind`` is one of
    :data:`MENTION_KINDS`; ``exclusive`` is true for ``before``/``after``, whose bound is not itself
    included (the ``interval`` keeps the bound as written).
    """

    text: str
    begin: int
    end: int
    interval: Interval
    kind: str
    exclusive: bool = False
    ambiguous: bool = False

    def strict_interval(self) -> Interval:
        """The interval with an exclusive bound moved one unit inward (``before 2001`` → [?, 2000])."""
        if not self.exclusive:
            return self.interval
        start, end = self.interval.start, self.interval.end
        if self.kind == "until" and end is not None:
            return Interval(start, end.shift(-1))
        if self.kind == "since" and start is not None:
            return Interval(start.shift(1), end)
        return self.interval


# --------------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------------

_MONTHS: Final = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
_ORDINAL_WORDS: Final = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "twenty-first": 21,
    "twenty first": 21,
}
# Days written as ordinal words ("the tenth of May, 2022"): the century ordinals and 22..31.
_UNITS: Final = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
_DAY_WORDS: Final = {
    **_ORDINAL_WORDS,
    **{f"twenty{sep}{unit}": 20 + n for n, unit in enumerate(_UNITS, 1) for sep in ("-", " ")},
    "thirtieth": 30,
    "thirty-first": 31,
    "thirty first": 31,
}
# Words after a number that make it a count or a measure, not a year.
_COUNT_WORDS: Final = frozenset(
    [
        "people",
        "persons",
        "person",
        "men",
        "women",
        "children",
        "goals",
        "goal",
        "points",
        "point",
        "votes",
        "vote",
        "units",
        "copies",
        "km",
        "kilometres",
        "kilometers",
        "miles",
        "mile",
        "m",
        "ft",
        "feet",
        "metres",
        "meters",
        "meter",
        "metre",
        "kg",
        "tons",
        "tonnes",
        "dollars",
        "dollar",
        "euros",
        "euro",
        "pounds",
        "words",
        "pages",
        "games",
        "matches",
        "times",
        "members",
        "employees",
        "students",
        "soldiers",
        "troops",
        "seats",
        "runs",
        "wickets",
        "yards",
        "hops",
        "hop",
        "percent",
        "per",
        "cent",
        "inhabitants",
        "residents",
        "km2",
        "sq",
        "square",
        "acres",
        "hectares",
        "calories",
        "mph",
        "kph",
        "rpm",
        "bytes",
        "mb",
        "gb",
        "episodes",
        "songs",
        "albums",
        "tracks",
        "items",
        "cars",
        "ships",
        "planes",
        "aircraft",
        "deaths",
        "casualties",
        "cases",
        "victims",
    ]
)
# Words before a number that make it an identifier or an amount, not a year.
_NUMBER_WORDS: Final = frozenset(
    [
        "number",
        "no",
        "no.",
        "num",
        "room",
        "page",
        "pages",
        "pp",
        "pp.",
        "p.",
        "flight",
        "route",
        "highway",
        "version",
        "v",
        "v.",
        "model",
        "episode",
        "chapter",
        "article",
        "section",
        "rule",
        "item",
        "code",
        "score",
        "total",
        "top",
        "rank",
        "ranked",
        "apollo",
        "boeing",
        "airbus",
    ]
)
# Capitalised words that may directly precede a year without making it part of a title.
_TITLE_OK: Final = frozenset(
    [
        "in",
        "since",
        "until",
        "till",
        "before",
        "after",
        "from",
        "between",
        "during",
        "by",
        "of",
        "on",
        "at",
        "to",
        "and",
        "or",
        "circa",
        "around",
        "about",
        "summer",
        "winter",
        "spring",
        "autumn",
        "fall",
        "early",
        "late",
        "mid",
        "year",
        "years",
        "the",
        "end",
        "beginning",
        "start",
        "middle",
        "ad",
        "ce",
        "a.d.",
        "as",
        "until,",
        "since,",
        "than",
        "through",
    ]
)

_MONTH_RE: Final = (
    r"(?P<{name}>January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?"
)
_ERA_RE: Final = r"(?:\s*(?P<era>B\.?C\.?E?\.?|BCE|A\.?D\.?|CE)(?![\w]))?"
_ORD_SUFFIX: Final = r"(?:st|nd|rd|th)?"


def _month_re(name: str) -> str:
    return _MONTH_RE.format(name=name)


_FLAGS: Final = re.IGNORECASE
_DAY_RE: Final = (
    r"(?P<{name}>\d{{1,2}}|" + "|".join(sorted((re.escape(w) for w in _DAY_WORDS), key=len, reverse=True)) + r")"
)


def _day_re(name: str) -> str:
    return _DAY_RE.format(name=name)


def _day(text: str) -> int:
    """The day number of ``12`` or ``twelfth``."""
    low = text.lower()
    return _DAY_WORDS[low] if low in _DAY_WORDS else int(low)


_ISO_DAY_RE: Final = re.compile(r"(?P<y>\d{4})(?P<sep>[-/])(?P<m>\d{2})(?P=sep)(?P<d>\d{2})(?![\d/-])")
_ISO_MONTH_RE: Final = re.compile(r"(?P<y>\d{4})-(?P<m>0[1-9]|1[0-2])(?![\d/-])")
_SHORT_RANGE_RE: Final = re.compile(r"(?P<y>\d{4})\s?(?P<sep>[-–—/])\s?(?P<e>\d{2})(?![\d/-])")
_DAY_MONTH_YEAR_RE: Final = re.compile(
    r"(?:the\s+)?"
    + _day_re("d")
    + _ORD_SUFFIX
    + r"(?:\s+of)?\s+"
    + _month_re("mon")
    + r",?\s+(?P<y>\d{1,4})"
    + _ERA_RE,
    _FLAGS,
)
_MONTH_DAY_YEAR_RE: Final = re.compile(
    _month_re("mon") + r"\s+(?:the\s+)?" + _day_re("d") + _ORD_SUFFIX + r",?\s+(?P<y>\d{1,4})" + _ERA_RE,
    _FLAGS,
)
# Numeric day forms: dotted ones are day-first (30.06.1994); slashed ones are read only where the order is
# certain (17/02/2012, 05/31/2010, 12/12/1996), never guessed (03/04/2014 is no mention).
_DOTTED_RE: Final = re.compile(r"(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})(?![\d.]\d)")
_SLASHED_RE: Final = re.compile(r"(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4})(?![\d/])")
# A day and month whose year comes with the second end: "from 24 February to 5 March 2004".
_PARTIAL_RANGE_RE: Final = re.compile(
    r"(?:the\s+)?" + _day_re("d1") + _ORD_SUFFIX + r"(?:\s+of)?\s+" + _month_re("m1")
    + r"\s*(?:[-–—]|to|until|till|through)\s*(?:the\s+)?" + _day_re("d2") + _ORD_SUFFIX + r"(?:\s+of)?\s+"
    + _month_re("m2") + r",?\s+(?P<y>\d{4})",
    _FLAGS,
)  # fmt: skip
_MONTH_YEAR_RE: Final = re.compile(_month_re("mon") + r",?\s+(?:of\s+)?(?P<y>\d{1,4})" + _ERA_RE, _FLAGS)
_CENTURY_RE: Final = re.compile(
    r"(?:the\s+)?(?P<n>\d{1,2}(?:st|nd|rd|th)|"
    + "|".join(sorted((re.escape(w) for w in _ORDINAL_WORDS), key=len, reverse=True))
    + r")[\s-]+century"
    + _ERA_RE,
    _FLAGS,
)
_DECADE_RE: Final = re.compile(r"(?:the\s+)?(?:(?:early|mid|late)[\s-]?)?(?P<y>\d{3}0)[’']?s(?!\w)", _FLAGS)
# "1890-something", "1890-odd": some year of the decade, none stated
_VAGUE_YEAR_RE: Final = re.compile(r"(?P<y>\d{3}0)-(?:something|odd)(?!\w)", _FLAGS)
_ERA_PREFIX_RE: Final = re.compile(r"(?P<era>A\.?D\.?)\s*(?P<y>\d{1,4})(?![\d\w])")
_YEAR_ERA_RE: Final = re.compile(r"(?P<y>\d{1,4})\s*(?P<era>B\.?C\.?E?\.?|BCE|A\.?D\.?|CE)(?!\w)")
# Feast days with a fixed date: "Christmas Day 1992", "on New Year's Eve, 1999".
_HOLIDAY_RE: Final = re.compile(
    r"(?P<h>Christmas\s+(?:Day|Eve)|New\s+Year[’']?s\s+(?:Day|Eve)|Halloween),?\s+(?P<y>\d{4})", _FLAGS
)
_HOLIDAYS: Final = {
    "christmas day": (12, 25),
    "christmas eve": (12, 24),
    "new years day": (1, 1),
    "new years eve": (12, 31),
    "halloween": (10, 31),
}
_BARE_YEAR_RE: Final = re.compile(r"(?P<y>\d{4})(?:\.0(?!\d))?")

_DAY_OR_MONTH_BEFORE_RE: Final = re.compile(r"(?<!\d)\d{1,2}/$")
_DAY_OR_MONTH_AFTER_RE: Final = re.compile(r"/\d{1,2}(?!\d)")
_WORD_BEFORE_RE: Final = re.compile(r"([\w.#$€£]+)\s+$")
_WORD_AFTER_RE: Final = re.compile(r"\s+([A-Za-z%][\w%]*)")
# a dash or an arrow and a year of four digits after a year: a span of years, whatever word precedes it ("Milan
# 2006–2008", "Oriental de Lisboa 1995 → 1999")
_YEAR_RANGE_AFTER_RE: Final = re.compile(r"(?:\s?[-–—]\s?|\s*(?:→|->)\s*)\d{4}(?![\d/-])")


# --------------------------------------------------------------------------------------------------
# Atomic mentions
# --------------------------------------------------------------------------------------------------


def _era_year(digits: str, era: str | None, *, bare_ok: bool) -> int | None:
    """The (data-convention) year of ``digits`` with an optional era, or None if implausible."""
    year = int(digits)
    if era is None:
        if not bare_ok or not (len(digits) == 4 and _MIN_BARE_YEAR <= year <= _MAX_BARE_YEAR):
            return None
        return year
    if year == 0:
        return None
    if era.lower().startswith("b"):
        return -year
    return year


def _point(y: int, m: int | None = None, d: int | None = None) -> TimePoint | None:
    try:
        return TimePoint(y, m, d)
    except TimeParseError:
        return None


def _number_context_ok(text: str, begin: int, end: int) -> bool:
    """False when the digits at ``text[begin:end]`` read as a count, amount, identifier or title."""
    before = text[begin - 1] if begin > 0 else ""
    after = text[end] if end < len(text) else ""
    if before and (before.isalnum() or before in "$€£#%_'’"):
        return False
    if before in ".,:" and begin > 1 and text[begin - 2].isdigit():
        return False
    if before == "/" and _DAY_OR_MONTH_BEFORE_RE.search(text, max(0, begin - 4), begin):
        return False
    if after == "/" and _DAY_OR_MONTH_AFTER_RE.match(text, end):
        return False
    if before in "-‐" and begin > 1 and text[begin - 2].isalpha():
        return text[max(0, begin - 4) : begin - 1].lower() == "mid"
    if after and (after.isalnum() or after in "%_$€£'’"):
        return False
    if after in ".,:" and end + 1 < len(text) and text[end + 1].isdigit():
        return False
    m = _WORD_AFTER_RE.match(text, end)
    if m and m.group(1).lower() in _COUNT_WORDS:
        return False
    m = _WORD_BEFORE_RE.search(text, max(0, begin - 40), begin)
    if m:
        word = m.group(1)
        low = word.lower()
        if low in _NUMBER_WORDS or word[-1:] in "$€£#":
            return False
        if word[:1].isupper() and low.rstrip(",") not in _TITLE_OK and low.rstrip(".") not in _MONTHS:
            # "Windows 2000", "FC Wil 1900" are titles; "Milan 2006–2008" is a name and the years of a spell
            return _YEAR_RANGE_AFTER_RE.match(text, end) is not None
    return True


_Handler = Callable[[re.Match[str], str], tuple[Interval, str] | None]


def _h_iso_day(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y = int(m["y"])
    if not _MIN_BARE_YEAR <= y <= _MAX_BARE_YEAR:
        return None
    p = _point(y, int(m["m"]), int(m["d"]))
    return (Interval.point(p), "point") if p else None


def _h_iso_month(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y = int(m["y"])
    if not _MIN_BARE_YEAR <= y <= _MAX_BARE_YEAR:
        return None
    p = _point(y, int(m["m"]))
    return (Interval.point(p), "point") if p else None


def _h_short_range(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y = int(m["y"])
    if not _MIN_BARE_YEAR <= y <= _MAX_BARE_YEAR:
        return None
    e = (y // 100) * 100 + int(m["e"])
    if e <= y:
        e += 100  # 1999/00 wraps into the next century, but only across a short span
        if e - y > 10:
            return None
    return Interval(TimePoint(y), TimePoint(e)), "range"


def _h_day_month_year(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y = _era_year(m["y"], m["era"], bare_ok=True)
    if y is None:
        return None
    p = _point(y, _MONTHS[m["mon"].lower()], _day(m["d"]))
    return (Interval.point(p), "point") if p else None


def _h_dotted(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y = int(m["y"])
    if not _MIN_BARE_YEAR <= y <= _MAX_BARE_YEAR:
        return None
    word = _WORD_BEFORE_RE.search(text, max(0, m.start() - 40), m.start())
    if word and word.group(1).lower() in _NUMBER_WORDS:  # version 3.10.2004
        return None
    p = _point(y, int(m["m"]), int(m["d"]))
    return (Interval.point(p), "point") if p else None


def _h_slashed(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y, a, b = int(m["y"]), int(m["a"]), int(m["b"])
    if not _MIN_BARE_YEAR <= y <= _MAX_BARE_YEAR:
        return None
    if a == b or (a > 12 and b <= 12):
        p = _point(y, b, a)
    elif b > 12 and a <= 12:
        p = _point(y, a, b)
    else:  # 03/04/2014: the day/month order is open, the year is not
        return Interval.point(TimePoint(y)), "slashed"
    return (Interval.point(p), "point") if p else None


def _h_partial_range(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y = int(m["y"])
    if not _MIN_BARE_YEAR <= y <= _MAX_BARE_YEAR:
        return None
    m1, m2 = _MONTHS[m["m1"].lower()], _MONTHS[m["m2"].lower()]
    end = _point(y, m2, _day(m["d2"]))
    start = _point(y if m1 <= m2 else y - 1, m1, _day(m["d1"]))
    if start is None or end is None or start.first_day() > end.last_day():
        return None
    return Interval(start, end), "range"


def _h_holiday(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y = int(m["y"])
    if not _MIN_BARE_YEAR <= y <= _MAX_BARE_YEAR:
        return None
    month, day = _HOLIDAYS[" ".join(re.sub(r"[’']", "", m["h"]).lower().split())]
    return Interval.point(TimePoint(y, month, day)), "point"


def _h_month_year(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y = _era_year(m["y"], m["era"], bare_ok=True)
    if y is None:
        return None
    p = _point(y, _MONTHS[m["mon"].lower()])
    return (Interval.point(p), "point") if p else None


def _h_century(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    raw = m["n"].lower()
    n = _ORDINAL_WORDS.get(raw)
    if n is None:
        n = int(raw[:-2])
    if not 1 <= n <= 21:
        return None
    era = m["era"]
    if era is not None and era.lower().startswith("b"):
        return Interval(TimePoint(-100 * n), TimePoint(-100 * (n - 1) - 1)), "century"
    return Interval(TimePoint(100 * (n - 1) + 1), TimePoint(100 * n)), "century"


def _h_decade(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y = int(m["y"])
    if not _MIN_BARE_YEAR <= y <= _MAX_BARE_YEAR:
        return None
    return Interval(TimePoint(y), TimePoint(y + 9)), "decade"


def _h_era_year(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y = _era_year(m["y"], m["era"], bare_ok=False)
    return (Interval.point(TimePoint(y)), "point") if y is not None else None


def _h_bare_year(m: re.Match[str], text: str) -> tuple[Interval, str] | None:
    y = _era_year(m["y"], None, bare_ok=True)
    if y is None or not _number_context_ok(text, m.start(), m.end()):
        return None
    return Interval.point(TimePoint(y)), "point"


# Tried in this order at each word start; the first that matches and validates wins.
_ATOMS: Final[tuple[tuple[re.Pattern[str], _Handler], ...]] = (
    (_PARTIAL_RANGE_RE, _h_partial_range),
    (_ISO_DAY_RE, _h_iso_day),
    (_DOTTED_RE, _h_dotted),
    (_SLASHED_RE, _h_slashed),
    (_ISO_MONTH_RE, _h_iso_month),
    (_SHORT_RANGE_RE, _h_short_range),
    (_DAY_MONTH_YEAR_RE, _h_day_month_year),
    (_MONTH_DAY_YEAR_RE, _h_day_month_year),
    (_MONTH_YEAR_RE, _h_month_year),
    (_HOLIDAY_RE, _h_holiday),
    (_CENTURY_RE, _h_century),
    (_DECADE_RE, _h_decade),
    (_VAGUE_YEAR_RE, _h_decade),
    (_ERA_PREFIX_RE, _h_era_year),
    (_YEAR_ERA_RE, _h_era_year),
    (_BARE_YEAR_RE, _h_bare_year),
)
_WORD_START_RE: Final = re.compile(r"(?<![\w])\w+")
# Words a time expression can start with when it does not start with a digit (a fast pre-check: every
# pattern of _ATOMS starts with a digit or one of these).
_STARTERS: Final = frozenset(
    {
        *_MONTHS,
        *(w.split()[0].split("-")[0] for w in _DAY_WORDS),
        "the",
        "early",
        "mid",
        "late",
        "ad",
        "a",
        "christmas",
        "halloween",
        "new",
    }
)


def _edges_ok(text: str, begin: int, end: int) -> bool:
    """A compound match must not be glued to letters/digits on either side."""
    if begin > 0 and (text[begin - 1].isalnum() or text[begin - 1] in "_-/$€£#"):
        return False
    return not (end < len(text) and (text[end].isalnum() or text[end] == "_"))


def _atoms(text: str) -> list[TimeMention]:
    out: list[TimeMention] = []
    pos = 0
    for start in _WORD_START_RE.finditer(text):
        i = start.start()
        if i < pos:
            continue
        word = start.group(0)
        if not word[0].isdigit() and word.lower() not in _STARTERS:
            continue
        for pattern, handler in _ATOMS:
            m = pattern.match(text, i)
            if m is None:
                continue
            if handler is not _h_bare_year and not _edges_ok(text, m.start(), m.end()):
                continue
            got = handler(m, text)
            if got is None:
                continue
            interval, kind = got
            out.append(TimeMention(m.group(0), m.start(), m.end(), interval, kind))
            pos = m.end()
            break
    return out


# --------------------------------------------------------------------------------------------------
# Ranges and open bounds
# --------------------------------------------------------------------------------------------------

# Words between a bound word and its date that change nothing at a year: "from the year 1918", "from early 1975".
_QUALIFIER: Final = r"(?:the\s+year\s+|(?:early|mid|late)(?:\s+|-))?"
_RANGE_GAP_RE: Final = re.compile(
    # "from 1990 all the way to 2004", "right up until 2004": the same range
    r"\s*(?:[-–—]|(?:(?:all\s+the\s+way|right)\s+)?(?:up\s+)?(?:to|until|till|through)|thru)\s*(?:the\s+year\s+)?$|"
    r"\s*(?P<and>and)\s+(?:the\s+year\s+)?$|"
    r"\s*(?P<arrow>→|->)\s*$|"
    r"\s*(?P<paren>\(\s*(?:to|until|till)\s+)$",  # "from 2001 (to 2004)": the end glossed in brackets
    _FLAGS,
)
_PAREN_CLOSE_RE: Final = re.compile(r"\s*\)")
_RANGE_PREFIX_RE: Final = re.compile(r"(?:^|(?<=\W))(?P<w>from|between)\s+" + _QUALIFIER + "$", _FLAGS)
_BOUND_PREFIX_RE: Final = re.compile(
    r"(?:^|(?<=\W))(?P<w>since|from|after|until|till|up\s+to|up\s+until|through|before|prior\s+to|"
    r"no\s+later\s+than|no\s+earlier\s+than)\s+" + _QUALIFIER + "$",
    _FLAGS,
)
_BOUND_KIND: Final = {
    "since": ("since", False),
    "from": ("since", False),
    "noearlierthan": ("since", False),
    "after": ("since", True),
    "until": ("until", False),
    "till": ("until", False),
    "upto": ("until", False),
    "upuntil": ("until", False),
    "through": ("until", False),
    "nolaterthan": ("until", False),
    "before": ("until", True),
    "priorto": ("until", True),
}


# arithmetic after the second year of an arrow: "1984 → 1984 − 1959" computes, it states no span
_ARITHMETIC_AFTER_RE: Final = re.compile(r"\s*[−–+*/×-]\s*\d")


def _year_arrow(text: str, start: TimePoint, end: TimePoint, after: int) -> bool:
    """Whether years joined by an arrow ("Sampdoria: 2012 → 2014") are a span: later, and not a sum's first term."""
    later = start.granularity == end.granularity == Granularity.YEAR and start.year < end.year
    return later and _ARITHMETIC_AFTER_RE.match(text, after) is None


def _as_range(text: str, a: TimeMention, b: TimeMention) -> TimeMention | None:
    """``a`` and ``b`` joined as one range when the text between them (and before ``a``) says so."""
    gap = _RANGE_GAP_RE.match(text, a.end, b.begin)
    if gap is None or gap.end() != b.begin:
        return None
    prefix = _RANGE_PREFIX_RE.search(text, max(0, a.begin - 24), a.begin)
    if gap["and"] is not None and (prefix is None or prefix["w"].lower() != "between"):
        return None
    if gap["paren"] is not None and _PAREN_CLOSE_RE.match(text, b.end) is None:
        return None  # "(to 2004 he was ...)": a bracket that says more than the end
    start, end = a.interval.start, b.interval.end
    if start is None or end is None:
        return None
    g = min(start.granularity, end.granularity)
    if gap["arrow"] is not None and g < Granularity.DAY and not _year_arrow(text, start, end, b.end):
        return None  # "15 March 2003 → 14 March 2013" is a term; "sold it in 1984 → 1984 − 1959" no range
    if start.lo(g) > end.hi(g) and prefix is None:
        return None  # "1999-1995" may be no range; "between 1934 and 1919" is one, written backwards
    begin = prefix.start("w") if prefix is not None else a.begin
    amb = a.ambiguous or b.ambiguous
    return TimeMention(text[begin : b.end], begin, b.end, Interval(start, end), "range", ambiguous=amb)


def _with_bound(text: str, m: TimeMention) -> TimeMention:
    """``since``/``until``/``before``/``after`` in front of a mention opens one side of it."""
    if m.kind == "range":
        return m
    prefix = _BOUND_PREFIX_RE.search(text, max(0, m.begin - 30), m.begin)
    if prefix is None:
        return m
    key = re.sub(r"\s+", "", prefix["w"].lower())
    kind, exclusive = _BOUND_KIND[key]
    interval = Interval(m.interval.start, None) if kind == "since" else Interval(None, m.interval.end)
    begin = prefix.start("w")
    return TimeMention(text[begin : m.end], begin, m.end, interval, kind, exclusive, m.ambiguous)


_PRESENT_RE: Final = re.compile(r"\s*(?:[-–—]|to|until|till|through)\s*(?:the\s+)?(?:present|now|today)(?!\w)", _FLAGS)


def _to_present(text: str, m: TimeMention) -> TimeMention | None:
    """``2009–present``, ``from 2009 to now``: open-ended from ``m`` on (kind ``since``)."""
    if m.kind == "range":
        return None
    tail = _PRESENT_RE.match(text, m.end)
    if tail is None:
        return None
    prefix = _RANGE_PREFIX_RE.search(text, max(0, m.begin - 24), m.begin)
    begin = prefix.start("w") if prefix is not None and prefix["w"].lower() == "from" else m.begin
    iv = Interval(m.interval.start, None)
    return TimeMention(text[begin : tail.end()], begin, tail.end(), iv, "since", ambiguous=m.ambiguous)


def _slashed_years(atoms: list[TimeMention]) -> list[TimeMention]:
    """Slashed dates whose day/month order is open, as their year (the one part that is certain), ``ambiguous``.

    No order is guessed, not even from the text's other slashed dates: "07/01/2004" beside "05/31/2010"
    still states no day.
    """
    return [
        TimeMention(a.text, a.begin, a.end, a.interval, "point", ambiguous=True) if a.kind == "slashed" else a
        for a in atoms
    ]


def extract_times(text: str) -> list[TimeMention]:
    """All time expressions in ``text``, in order of position, non-overlapping.

    See the module docstring for what is read and what is deliberately left alone.
    """
    atoms = _slashed_years(_atoms(text))
    out: list[TimeMention] = []
    i = 0
    while i < len(atoms):
        if i + 1 < len(atoms):
            joined = _as_range(text, atoms[i], atoms[i + 1])
            if joined is not None:
                out.append(joined)
                i += 2
                continue
        out.append(_to_present(text, atoms[i]) or _with_bound(text, atoms[i]))
        i += 1
    return out


# --------------------------------------------------------------------------------------------------
# Clipped years
# --------------------------------------------------------------------------------------------------

# "'97", "’08": an apostrophe and two digits, not a decade ("the '90s") and not inside a word or a number.
_CLIPPED_RE: Final = re.compile(r"(?<![\w'‘’])['‘’](?P<yy>\d{2})(?![\w'‘’]|\.\d|,\d)")
_FULL_YEAR_RE: Final = re.compile(r"(?<![\d.,/$€£-])(?P<y>1\d{3}|20\d{2})(?![\d%])")
_RANGE_END_RE: Final = re.compile(
    r"\s*(?:[-–—]|to|and|until|till|through)\s*(?P<y>1\d{3}|20\d{2})(?!\d)", re.IGNORECASE
)


def full_years(text: str, pivots: Sequence[int] = ()) -> str:
    """``text`` with each clipped year (``'97``) written out in full (``1997``).

    A clipped year takes the century that puts it nearest the text's own four-digit years ("from 1995
    to '97"); with none, nearest one of ``pivots`` (the years the caller knows the text is about, such
    as the question's). With neither, the text is returned as it is: the century is not guessed.
    """
    anchors = [int(m.group("y")) for m in _FULL_YEAR_RE.finditer(text)] or list(pivots)
    if not anchors or _CLIPPED_RE.search(text) is None:
        return text

    def full(m: re.Match[str]) -> str:
        yy = int(m.group("yy"))
        options = {(a // 100 + k) * 100 + yy for a in anchors for k in (-1, 0, 1)}
        end = _RANGE_END_RE.match(text, m.end())
        if end is not None:  # "between '22 and 1991": a range's start is no later than its end
            return str(max((y for y in options if y <= int(end.group("y"))), default=yy))
        return str(min(sorted(options), key=lambda y: min(abs(y - a) for a in anchors)))

    return _CLIPPED_RE.sub(full, text)


# "on 11 December", "December 11th": a day of a month with no year after it (nor a day's range: "11-12 December")
_YEARLESS_DAY_RE: Final = re.compile(
    rf"(?<![\d–-])\b(?:{_day_re('d')}{_ORD_SUFFIX}\s+(?:of\s+)?{_month_re('m')}(?!\w)|{_month_re('m2')}\s+{_day_re('d2')}{_ORD_SUFFIX}\b)"
    r"(?![\s,]*(?:\d|[–-]))",
    _FLAGS,
)
_SENTENCE_END_RE: Final = re.compile(r"[.!?;]\s|\n")
_NO_DAY: Final = TimePoint(1)


def yearless_days(text: str) -> str:
    """``text`` with a day stated without its year ("began on 11 December") given the year of the date before it.

    Only where a day-level date ("handed over on 10 December 2023") comes before it in the same sentence and the
    day falls on or after that date within a month of it: the sentence goes on in that year. Elsewhere the year is
    not guessed (the day stays unread, as before).
    """
    if _YEARLESS_DAY_RE.search(text) is None:
        return text
    read = extract_times(text)
    dated = [d for d in read if (d.interval.end or d.interval.start or _NO_DAY).day is not None]
    out, last = [], 0
    for m in _YEARLESS_DAY_RE.finditer(text):
        if any(d.begin <= m.start() < d.end for d in read):
            continue
        prior = [d for d in dated if d.end <= m.start() and _SENTENCE_END_RE.search(text, d.end, m.start()) is None]
        base = prior[-1].interval.end or prior[-1].interval.start if prior else None
        if base is None or base.month is None:
            continue
        day = _day(m.group("d") or m.group("d2"))
        month = _MONTHS[(m.group("m") or m.group("m2")).lower().rstrip(".")]
        point = _point(base.year, month, day)
        if point is None or not 0 <= point.first_day() - base.first_day() <= 31:
            continue
        end = m.end() - 1 if text[m.end() - 1] == "." else m.end()  # "11 Dec." / "on 11 December."
        out.append(text[last:end] + (", " if m.group("m2") else " ") + str(base.year))
        last = end
    return "".join(out) + text[last:]


# --------------------------------------------------------------------------------------------------
# Dates written in German, Spanish, French, Portuguese, Italian or Russian
# --------------------------------------------------------------------------------------------------

_FOREIGN_MONTHS: Final = {
    # German
    "januar": "January", "jänner": "January", "februar": "February", "märz": "March", "maerz": "March",
    "mai": "May", "juni": "June", "juli": "July", "oktober": "October", "dezember": "December", "april": "April",
    "august": "August", "september": "September", "november": "November",
    # Spanish
    "enero": "January", "febrero": "February", "marzo": "March", "abril": "April", "mayo": "May", "junio": "June",
    "julio": "July", "agosto": "August", "septiembre": "September", "setiembre": "September", "octubre": "October",
    "noviembre": "November", "diciembre": "December",
    # French
    "janvier": "January", "février": "February", "fevrier": "February", "mars": "March", "avril": "April",
    "juin": "June", "juillet": "July", "août": "August", "aout": "August", "septembre": "September",
    "octobre": "October", "novembre": "November", "décembre": "December", "decembre": "December",
    # Portuguese (abril, agosto: as Spanish)
    "janeiro": "January", "fevereiro": "February", "março": "March", "marco": "March", "maio": "May",
    "junho": "June", "julho": "July", "setembro": "September", "outubro": "October", "novembro": "November",
    "dezembro": "December",
    # Italian (marzo, agosto: as Spanish)
    "gennaio": "January", "febbraio": "February", "aprile": "April", "maggio": "May", "giugno": "June",
    "luglio": "July", "settembre": "September", "ottobre": "October", "dicembre": "December",
    # Russian (the genitive a date takes: "7 мая 2008 года")
    "января": "January", "февраля": "February", "марта": "March", "апреля": "April", "мая": "May",
    "июня": "June", "июля": "July", "августа": "August", "сентября": "September", "октября": "October",
    "ноября": "November", "декабря": "December",
}  # fmt: skip
_FOREIGN_MONTH: Final = "|".join(sorted(_FOREIGN_MONTHS, key=len, reverse=True))
# "10. Juli 1992", "10 de julio de 1992", "1er janvier 2011", "julio de 1992", "März 1990"
_FOREIGN_DATE_RE: Final = re.compile(
    rf"\b(?:(?P<d>\d{{1,2}})(?:\.|er|º|°)?\s+(?:de\s+)?)?(?P<m>{_FOREIGN_MONTH})\s+(?:de\s+|del\s+)?(?P<y>\d{{4}})\b",
    re.IGNORECASE,
)
# bound words before a date: "von/vom/du/de/desde/с D" → "from D"; "bis/hasta/jusqu'en/até/по D" → "until D";
# "seit/depuis D" → "since D"
_NEXT_DATE: Final = (
    r"(?=\d|(?:January|February|March|April|May|June|July|August|September|October|November|December)\b)"
)
_FOREIGN_FROM_RE: Final = re.compile(rf"\b(?:vom|von|desde(?:\s+el)?|du|de|с|со)\s+{_NEXT_DATE}", re.IGNORECASE)
_FOREIGN_SINCE_RE: Final = re.compile(rf"\b(?:seit(?:\s+dem)?|depuis(?:\s+le)?)\s+{_NEXT_DATE}", re.IGNORECASE)
_FOREIGN_UNTIL_RE: Final = re.compile(
    rf"(?:\b(?:bis(?:\s+(?:zum|zur|am|ins\s+jahr))?|hasta(?:\s+(?:el\s+año|el))?|até|по)|\bjusqu[’']\s*(?:en|au|à|a)(?:\s+le)?)\s+"
    rf"{_NEXT_DATE}",
    re.IGNORECASE,
)
# "1992 à 1995", "2001 a 2004", "15 May 1991 au 2 April 1992": the second date of a range
_FOREIGN_TO_RE: Final = re.compile(rf"(?<=\d)\s+(?:a|à|au|al)\s+{_NEXT_DATE}", re.IGNORECASE)
# "entre 1993 y 1996", "entre 1883 et 1886", "zwischen 1990 und 1994": a range between two dates
_FOREIGN_BETWEEN_RE: Final = re.compile(
    rf"\b(?:entre|zwischen|tra|fra)\s+(?P<a>(?:\d{{1,2}}\s+[^\W\d_]+\s+)?\d{{4}})\s+(?:y|e|et|und)\s+{_NEXT_DATE}",
    re.IGNORECASE,
)


# "2008 года", "1918 году": the Russian word "year" after a year, left out ("с 1893 по 1928 год" is a range)
_RU_YEAR_WORD_RE: Final = re.compile(r"(?<=\d{4})\s+(?:год(?:а|у)?|г\.)(?!\w)", re.IGNORECASE)
# "2013年", "2013年3月5日", "2013년 3월 5일": Chinese, Japanese and Korean dates, year first
_CJK_DATE_RE: Final = re.compile(
    r"(?P<y>\d{4})\s*[年년](?:\s*(?P<m>\d{1,2})\s*[月월](?:\s*(?P<d>\d{1,2})\s*[日일])?)?"
    r"(?:\s*(?P<from>から)|\s*(?P<until>まで|為止|为止))?"  # Japanese "from" and "until", Chinese "until" after
)
_MONTH_NAMES: Final = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                       "October", "November", "December")  # fmt: skip


def _cjk_date(m: re.Match[str]) -> str:
    month = int(m.group("m")) if m.group("m") else 0
    bound = "from " if m.group("from") else ("until " if m.group("until") else "")
    if not 1 <= month <= 12:
        return f" {bound}{m.group('y')} "
    day = f"{int(m.group('d'))} " if m.group("d") else ""
    return f" {bound}{day}{_MONTH_NAMES[month - 1]} {m.group('y')} "


# Years with a case ending or a postposition (Turkish, Hungarian): "2002'de", "2011-ben" (in); "2013-ig", "2005'e
# kadar" (until); "2011-től", "2002'den" (from). Chinese bound words before a year: "直至2001年" (until), "從1994年"
# (from); the Japanese ones after a date ("1982年から", "1994年まで") are read with the date (:data:`_CJK_DATE_RE`).
_SUFFIX_IN_RE: Final = re.compile(r"(?<!\d)(\d{4})(?:['’](?:de|da|te|ta)|-(?:ben|ban))(?!\w)")
_SUFFIX_UNTIL_RE: Final = re.compile(r"(?<!\d)(\d{4})(?:['’](?:e|a|ye|ya)\s+kadar|-ig)(?!\w)")
_SUFFIX_FROM_RE: Final = re.compile(r"(?<!\d)(\d{4})(?:['’](?:den|dan|ten|tan)|-(?:től|tól))(?!\w)")
_CJK_BOUND_RE: Final = re.compile(r"(?:(?P<until>直至|直到|至|到)|(?P<from>從|从|自))\s*(?=\d{4})")


def _suffixed_years(text: str) -> str:
    """``text`` with the years of :data:`_SUFFIX_IN_RE` and its kin written with English bound words."""
    out = _SUFFIX_IN_RE.sub(r"in \1", text)
    out = _SUFFIX_UNTIL_RE.sub(r"until \1 ", out)
    out = _SUFFIX_FROM_RE.sub(r"from \1 ", out)
    return _CJK_BOUND_RE.sub(lambda m: " until " if m.group("until") else " from ", out)


def english_dates(text: str) -> str:
    """``text`` with dates in German, Spanish, French, Portuguese, Italian, Russian, CJK scripts in English.

    A month name is rewritten only next to a year ("10. Juli 1992" → "10 July 1992", "10 de julio de 1992",
    "1er janvier 2011" → "1 January 2011"; "2013年3月5日" → "5 March 2013"), and a bound word only before a number
    ("bis", "hasta", "jusqu'en" → "until"; "seit", "depuis" → "since"; "von", "desde", "du" → "from"), so no other
    word of the text changes.
    """

    def date(m: re.Match[str]) -> str:
        month = _FOREIGN_MONTHS[m.group("m").lower()]
        return f"{m.group('d')} {month} {m.group('y')}" if m.group("d") else f"{month} {m.group('y')}"

    out = _FOREIGN_DATE_RE.sub(date, _RU_YEAR_WORD_RE.sub("", text) if "г" in text else text)
    if "年" in out or "년" in out:
        out = _CJK_DATE_RE.sub(_cjk_date, out)
    out = _suffixed_years(out)
    out = _FOREIGN_SINCE_RE.sub("since ", out)
    out = _FOREIGN_FROM_RE.sub("from ", out)
    out = _FOREIGN_TO_RE.sub(" until ", out)
    out = _FOREIGN_BETWEEN_RE.sub(lambda m: f"between {m.group('a')} and ", out)
    return _FOREIGN_UNTIL_RE.sub("until ", out)


# A year in Roman numerals, in the canonical subtractive form ("MCMLXXXVI", "MMXII"), the whole of a reply
_ROMAN_RE: Final = re.compile(r"M{1,2}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_ROMAN: Final = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}


def roman_year(text: str) -> TimePoint | None:
    """The year a reply writes in Roman numerals and nothing else ("MCMLXXXVI." is 1986), else ``None``.

    Only upper-case numerals in the canonical form between 1000 and 2100: "MIX" is no year of a sentence.
    """
    word = text.strip().rstrip(".!")
    if not _ROMAN_RE.fullmatch(word):
        return None
    values = [_ROMAN[c] for c in word]
    n = sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return TimePoint(n) if _MIN_BARE_YEAR <= n <= _MAX_BARE_YEAR else None
