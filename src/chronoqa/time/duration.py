"""Durations at a granularity: a count of units (years, months, days), written, read back and compared.

A duration answer ("How many years did X play for Y?") is the difference of two times known at the question
granularity: ``end unit - start unit``. At year or month granularity the true span is uncertain by up to one
unit either way (joined in December 1995 and left in January 1999 is three years and a month, 1995 to 1999
reads four), so a duration is compared with the tolerance :data:`TOLERANCE` declares per granularity, an open
bound: a stated whole number of units must equal the gold, a fraction may lie within one unit of it ("three and
a half years" for 3); at day granularity the difference is exact.

Forms: the English text (``4 years``, ``1 month``), the ISO 8601 duration (``P4Y``, ``P18M``, ``P400D``), and
in free text a number (digits or a small number word) followed by a unit word (``four years``, ``4 yrs``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from chronoqa.time._core import Granularity

__all__ = ["NUMBER_WORDS", "TOLERANCE", "Duration", "count_of", "durations_in", "same_duration"]

#: Units either way, an open bound, within which a duration read from a text matches the gold, per granularity.
TOLERANCE: Final = {Granularity.YEAR: 1, Granularity.MONTH: 1, Granularity.DAY: 0}

_ISO_LETTER: Final = {Granularity.YEAR: "Y", Granularity.MONTH: "M", Granularity.DAY: "D"}
#: English number words, "zero" to "twenty" (a word's index is its value).
NUMBER_WORDS: Final = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)
# English, then German, French, Spanish, Italian, Portuguese, Polish and Russian ("31 Jahre", "4 años", "3 лет"),
# then Dutch, Turkish and Hungarian years ("3 jaar", "3 yıl", "3 év"), then Ukrainian and Greek ("один рік",
# "εννέα χρόνια")
_UNIT_WORDS: Final = {
    Granularity.YEAR: ("years", "year", "yrs", "yr", "decades", "decade", "jahre", "jahren", "jahr", "ans", "années",
                       "année", "annees", "años", "anos", "año", "anni", "anno", "lata", "lat", "года", "год", "лет",
                       "jaar", "yıl", "yil", "év", "рік", "роки", "років", "року", "χρόνια", "χρόνο", "χρόνος",
                       "χρόνων", "έτη", "έτος", "ετών"),
    Granularity.MONTH: ("months", "month", "mos", "mo", "monate", "monaten", "monat", "mois", "meses", "mes", "mesi",
                        "mese", "miesięcy", "месяцев", "месяца", "месяц", "місяців", "місяці", "місяць", "μήνες",
                        "μήνα", "μηνών"),
    Granularity.DAY: ("days", "day", "tage", "tagen", "tag", "jours", "jour", "días", "dias", "día", "giorni",
                      "giorno", "dni", "дней", "дня", "день", "днів", "дні", "ημέρες", "ημέρα", "μέρες", "μέρα"),
}  # fmt: skip
# Counts written in German, French, Spanish, Italian and Portuguese ("zwei Jahre", "un anno", "tres años"),
# read only before a unit word of :data:`_UNIT_WORDS`.
_FOREIGN_WORDS: Final = {
    "ein": 1, "eine": 1, "einen": 1, "einem": 1, "un": 1, "une": 1, "uno": 1, "una": 1, "um": 1, "uma": 1,
    "zwei": 2, "deux": 2, "dos": 2, "due": 2, "dois": 2, "duas": 2,
    "drei": 3, "trois": 3, "tres": 3, "tre": 3, "três": 3,
    "vier": 4, "quatre": 4, "cuatro": 4, "quattro": 4, "quatro": 4,
    "fünf": 5, "fuenf": 5, "cinq": 5, "cinco": 5, "cinque": 5,
    "sechs": 6, "six": 6, "seis": 6, "sei": 6,
    "sieben": 7, "sept": 7, "siete": 7, "sette": 7, "sete": 7,
    "acht": 8, "huit": 8, "ocho": 8, "otto": 8, "oito": 8,
    "neun": 9, "neuf": 9, "nueve": 9, "nove": 9,
    "zehn": 10, "dix": 10, "diez": 10, "dieci": 10, "dez": 10,
    "elf": 11, "onze": 11, "once": 11, "undici": 11, "zwölf": 12, "douze": 12, "doce": 12, "dodici": 12, "doze": 12,
    # Russian ("два года", "пять лет")
    "один": 1, "одна": 1, "одного": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7,
    "восемь": 8, "девять": 9, "десять": 10, "одиннадцать": 11, "двенадцать": 12,
    # Ukrainian where it differs from Russian ("два роки", "п'ять років")
    "дві": 2, "чотири": 4, "п'ять": 5, "п’ять": 5, "шість": 6, "сім": 7, "вісім": 8, "дев'ять": 9, "дев’ять": 9,
    "одинадцять": 11, "дванадцять": 12,
    # Greek ("δύο χρόνια", "εννέα έτη")
    "ένα": 1, "έναν": 1, "ένας": 1, "μία": 1, "μια": 1, "δύο": 2, "δυο": 2, "τρία": 3, "τρεις": 3, "τέσσερα": 4,
    "τέσσερις": 4, "πέντε": 5, "έξι": 6, "επτά": 7, "εφτά": 7, "οκτώ": 8, "οχτώ": 8, "εννέα": 9, "εννιά": 9,
    "δέκα": 10, "έντεκα": 11, "δώδεκα": 12,
}  # fmt: skip
# The tens from thirty on ("twenty" is a number word already); a ten with a unit after it ("twenty-four") is one count
_TENS: Final = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
                "ninety": 90}  # fmt: skip
_COMPOUND: Final = re.compile(
    r"(?P<tens>" + "|".join(_TENS) + r")(?:[\s-]+(?P<unit>" + "|".join(NUMBER_WORDS[1:10]) + r"))?", re.IGNORECASE
)
_NUMBER: Final = (
    r"(\d+(?:\.\d+)?|"
    + _COMPOUND.pattern.replace("?P<tens>", "?:").replace("?P<unit>", "?:")
    + "|"
    + "|".join(sorted({*NUMBER_WORDS, *_FOREIGN_WORDS}, key=len, reverse=True))
    + r"|a|an|one and a half|half an?|a couple of)"
)
_UNIT: Final = "|".join(w for ws in _UNIT_WORDS.values() for w in ws)
_MENTION: Final = re.compile(r"(?<![\w.])" + _NUMBER + r"[\s-]+(" + _UNIT + r")\b", re.IGNORECASE)
# A count in Chinese or Japanese ("1年", "3年間", "18ヶ月", "10日間"): one or two digits, never the digits of
# a date ("2012年", "5日") or an era's year ("平成24年": a CJK character before the digits)
_CJK_MENTION: Final = re.compile(
    r"(?<![\d\u3040-\u30ff\u4e00-\u9fff])(\d{1,2})\s*(年間?|か月|ヶ月|カ月|个月|個月|日間)"
)
# French "one year", whose unit word "an" is English's article elsewhere: read only after "un" or "1" ("Un an.")
_ONE_AN: Final = re.compile(r"(?<![\w.])(?:un|1)\s+an\b(?!\s+et\s+demi)", re.IGNORECASE)
_CJK_UNITS: Final = {"年": Granularity.YEAR, "年間": Granularity.YEAR, "日間": Granularity.DAY}
_ISO: Final = re.compile(r"^P(\d+)([YMD])$")
# A bound before a mention ("less than a year"), and the first number of a range or choice before it
# ("two or three years", "3-4 years": the mention is the second number).
_BOUND: Final = re.compile(
    r"\b(?:less|fewer|more)\s+than\s+$|\b(?:under|over|at\s+(?:least|most)|upwards\s+of)\s+$", re.IGNORECASE
)
# "between two and three years" names two counts as well (a hedge between them), "and" only after "between"
_FIRST: Final = re.compile(
    r"(?<![\w.])" + _NUMBER + r"\s*(?:or|to|[-–])\s*$|\bbetween\s+" + _NUMBER + r"\s+and\s+$", re.IGNORECASE
)
# The second number of a choice written after the unit ("a year or two", "a month or three"): a count in the same
# unit; not a number with a unit of its own (then it is a mention) nor a year ("a year, to 2005")
_SECOND: Final = re.compile(r"\s*(?:or|to)\s+" + _NUMBER + r"(?!\w|\.\d|[\s-]+(?:" + _UNIT + r")\b)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Duration:
    """``units`` whole units of ``granularity`` (a fraction where a text says "2.5 years")."""

    units: float
    granularity: Granularity
    #: ``False`` for a count a text only bounds ("less than a year", "over 3 years"): it states no count
    exact: bool = True

    def text(self) -> str:
        """English: ``4 years``, ``1 month``."""
        n = int(self.units) if float(self.units).is_integer() else self.units
        word = str(self.granularity)
        return f"{n} {word}" if n == 1 else f"{n} {word}s"

    def iso(self) -> str:
        """ISO 8601: ``P4Y``, ``P18M``, ``P400D`` (whole units only)."""
        return f"P{int(self.units)}{_ISO_LETTER[self.granularity]}"

    def in_units(self, g: Granularity) -> float | None:
        """This duration counted in units of ``g`` (years to months and back; days only as days)."""
        if g is self.granularity:
            return self.units
        if {g, self.granularity} == {Granularity.YEAR, Granularity.MONTH}:
            return self.units * 12 if g is Granularity.MONTH else self.units / 12
        return None

    @classmethod
    def parse_iso(cls, value: str) -> Duration | None:
        """A ``P<n>Y`` / ``P<n>M`` / ``P<n>D`` value, or ``None``."""
        m = _ISO.match(value.strip())
        if m is None:
            return None
        g = next(k for k, v in _ISO_LETTER.items() if v == m.group(2))
        return cls(int(m.group(1)), g)


def _number(word: str) -> float:
    w = word.lower()
    if w in ("a", "an"):
        return 1.0
    if w == "one and a half":
        return 1.5
    if w.startswith("half"):  # "half a decade": five years
        return 0.5
    if w.startswith("a couple"):  # "a couple of years": two
        return 2.0
    tens = _COMPOUND.fullmatch(w)
    if tens is not None:  # "twenty-four", "thirty one", "forty"
        unit = tens.group("unit")
        return float(_TENS[tens.group("tens")] + (NUMBER_WORDS.index(unit) if unit else 0))
    if w in NUMBER_WORDS:
        return float(NUMBER_WORDS.index(w))
    if w in _FOREIGN_WORDS:
        return float(_FOREIGN_WORDS[w])
    return float(w)


def count_of(text: str) -> float | None:
    """The number a reply of one count says ("7", "seven", "twenty-four", "Εννέα", "три"), or ``None``."""
    t = text.strip().rstrip(".!").strip()
    if t.isdigit():
        return float(t)
    low = t.lower()
    if _COMPOUND.fullmatch(low) or low in NUMBER_WORDS:
        return _number(low)
    if low in _FOREIGN_WORDS and not low.isascii():  # "Εννέα.", "Три": a Latin word alone may be anything ("sei")
        return _number(low)
    return None


def durations_in(text: str) -> list[Duration]:
    """Every "<number> <unit>" mention of a text, in order (``four years``, ``18 months``, ``2.5 yrs``).

    A decade is ten years ("six decades": 60 years). A range or a choice of two numbers ("two or three
    years", "3-4 years", "a year or two") gives both; a bounded count ("less than a year", "over 3 years") is not exact.
    """
    out = []
    for m in _MENTION.finditer(text):
        unit = m.group(2).lower()
        g = next(k for k, ws in _UNIT_WORDS.items() if unit in ws)
        scale = 10 if unit.startswith("decade") else 1  # "six decades": 60 years
        before = text[: m.start()]
        first = _FIRST.search(before)
        count = None if first is None else first.group(1) or first.group(2)
        # not a year ("in 1999 or so, 2 years later"); a number word of any length is a count ("seventeen or")
        if count is not None and not (count.isdigit() and len(count) >= 4):
            out.append(Duration(_number(count) * scale, g))
        exact = _BOUND.search(before if first is None else before[: first.start()]) is None
        out.append(Duration(_number(m.group(1)) * scale, g, exact))
        second = _SECOND.match(text, m.end())
        if second is not None and not (second.group(1).isdigit() and len(second.group(1)) >= 4):
            out.append(Duration(_number(second.group(1)) * scale, g))
    if not out:
        for m in _CJK_MENTION.finditer(text):
            out.append(Duration(float(m.group(1)), _CJK_UNITS.get(m.group(2), Granularity.MONTH)))
        out += [Duration(1, Granularity.YEAR) for _ in _ONE_AN.finditer(text)]
    return out


def same_duration(pred: Duration, gold: Duration) -> bool:
    """``pred`` is strictly within the gold granularity's :data:`TOLERANCE` of ``gold``, or equal to it.

    A bounded count ("less than a year") states none. Counted in the gold's units. At year granularity a gold
    of 3 years (1995 to 1998) is a true span strictly between 2 and 4 years: "3 years" and "three and a half
    years" state it, "4 years" (1995 to 1999) does not.
    """
    n = pred.in_units(gold.granularity)
    return pred.exact and n is not None and (n == gold.units or abs(n - gold.units) < TOLERANCE[gold.granularity])
