"""Latin spellings of names written in other scripts, for careful judging: where they decide, and where not.

:func:`latin` spells a run of Cyrillic, Greek or Japanese kana letters in Latin letters with one
fixed table per script (Cyrillic and Greek letter by letter, kana syllable by syllable in Hepburn
romanisation). The spelling is one of several in use ("Ельцин" gives "eltsin", the press writes
"Yeltsin"), so a caller compares it with a label loosely (:func:`chronoqa.score.judge_names.close`).
Scripts whose letters leave the vowels out (Hebrew, Arabic) and kanji (whose readings need a
dictionary) have no table: :func:`latin` returns ``None`` for them, and the judge says ``undecided``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

__all__ = ["foreign_runs", "latin", "same_name", "script_of"]

_CYRILLIC: Final = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюяієїґў",
        ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r", "s", "t",
         "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya", "i", "ye", "yi", "g", "u"],
        strict=True,
    )
)  # fmt: skip
_GREEK: Final = dict(
    zip(
        "αβγδεζηθικλμνξοπρσςτυφχψω",
        ["a", "v", "g", "d", "e", "z", "i", "th", "i", "k", "l", "m", "n", "x", "o", "p", "r", "s", "s", "t",
         "y", "f", "ch", "ps", "o"],
        strict=True,
    )
)  # fmt: skip
_KANA_ROWS: Final = [
    "a",
    "i",
    "u",
    "e",
    "o",
    "ka",
    "ki",
    "ku",
    "ke",
    "ko",
    "sa",
    "shi",
    "su",
    "se",
    "so",
    "ta",
    "chi",
    "tsu",
    "te",
    "to",
    "na",
    "ni",
    "nu",
    "ne",
    "no",
    "ha",
    "hi",
    "fu",
    "he",
    "ho",
    "ma",
    "mi",
    "mu",
    "me",
    "mo",
    "ya",
    "yu",
    "yo",
    "ra",
    "ri",
    "ru",
    "re",
    "ro",
    "wa",
    "wo",
    "n",
    "ga",
    "gi",
    "gu",
    "ge",
    "go",
    "za",
    "ji",
    "zu",
    "ze",
    "zo",
    "da",
    "ji",
    "zu",
    "de",
    "do",
    "ba",
    "bi",
    "bu",
    "be",
    "bo",
    "pa",
    "pi",
    "pu",
    "pe",
    "po",
]
_HIRAGANA: Final = (
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん"
    "がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽ"
)
_KANA: Final = {
    **dict(zip(_HIRAGANA, _KANA_ROWS, strict=True)),
    **{chr(ord(c) + 0x60): r for c, r in zip(_HIRAGANA, _KANA_ROWS, strict=True)},  # katakana
    "ヴ": "vu",
}
_SMALL_Y: Final = {"ゃ": "ya", "ゅ": "yu", "ょ": "yo", "ャ": "ya", "ュ": "yu", "ョ": "yo"}
_SMALL_V: Final = {
    "ァ": "a",
    "ィ": "i",
    "ゥ": "u",
    "ェ": "e",
    "ォ": "o",
    "ぁ": "a",
    "ぃ": "i",
    "ぅ": "u",
    "ぇ": "e",
    "ぉ": "o",
}
_SOKUON: Final = frozenset("っッ")
_LONG: Final = "ー"
_RUN: Final = re.compile(r"[^\W\d_A-Za-z\u00c0-\u024f]+(?:[\s\-・·][^\W\d_A-Za-z\u00c0-\u024f]+)*")


def script_of(ch: str) -> str:
    """The script of a letter: ``cyrillic``, ``greek``, ``kana``, ``latin`` or ``other``."""
    name = unicodedata.name(ch, "")
    for script in ("CYRILLIC", "GREEK", "LATIN"):
        if name.startswith(script):
            return script.lower()
    if name.startswith(("HIRAGANA", "KATAKANA")) or ch == _LONG:
        return "kana"
    return "other"


def foreign_runs(text: str) -> list[str]:
    """The runs of letters (with spaces, hyphens, middle dots inside) in a script other than Latin."""
    return [m.group(0) for m in _RUN.finditer(text)]


def _kana(text: str) -> str:
    out: list[str] = []
    double = False
    for ch in text:
        if ch in _SOKUON:
            double = True
            continue
        if ch in _SMALL_Y and out and out[-1].endswith("i"):  # き + ゃ = kya; し + ゃ = sha
            head = out[-1][:-1]
            out[-1] = head + (_SMALL_Y[ch][1:] if head.endswith(("sh", "ch", "j")) else _SMALL_Y[ch])
            continue
        if ch in _SMALL_V and out:  # フ + ァ = fa; ヴ + ィ = vi
            out[-1] = out[-1][:-1] + _SMALL_V[ch]
            continue
        if ch == _LONG:
            if out:
                out[-1] += out[-1][-1]
            continue
        syl = _KANA.get(ch, " " if not ch.strip() or ch in "・-" else None)
        if syl is None:
            return ""
        if double and syl.strip():
            syl = syl[0] + syl
        double = False
        out.append(syl)
    return "".join(out)


def latin(run: str) -> str | None:
    """A Latin spelling of ``run`` (lower case), or ``None`` where no table decides it safely."""
    scripts = {script_of(c) for c in run if c.isalpha() or c == _LONG}
    if scripts == {"kana"}:
        out = _kana(run)
        return out or None
    if len(scripts) != 1 or not scripts <= {"cyrillic", "greek"}:
        return None
    table = _CYRILLIC if scripts == {"cyrillic"} else _GREEK
    low = "".join(c for c in unicodedata.normalize("NFD", run.lower()) if not unicodedata.combining(c))
    if scripts == {"cyrillic"}:
        low = unicodedata.normalize("NFC", run.lower())
    return "".join(table.get(c, c if not c.isalpha() else "") for c in low)


_SKELETON_SUBS: Final = (("ch", "t"), ("sh", "s"), ("ts", "t"), ("th", "t"), ("ph", "f"), ("ck", "k"), ("l", "r"),
                         ("v", "b"), ("w", "b"), ("j", "z"), ("c", "k"), ("q", "k"))  # fmt: skip
_VOWELS: Final = re.compile(r"[aeiouy]+")


def _skeleton(word: str) -> str:
    """Consonants as kana keep them: l = r, v = b, ch = t, doubled letters once, n before b/p = m."""
    w = word.lower()
    for a, b in _SKELETON_SUBS:
        w = w.replace(a, b)
    w = _VOWELS.sub("", w)
    w = re.sub(r"(.)\1+", r"\1", w)
    return re.sub(r"n(?=[bp])", "m", w)


def same_name(spelled: str, label_words: list[str], kana: bool) -> bool:
    """Whether a Latin spelling (words) names a label (its folded words), loosely.

    Cyrillic and Greek: every word of the spelling is within one edit per three letters of a label word,
    in order, and the last words agree (the surname). Kana: the same, comparing consonant skeletons.
    """
    from chronoqa.score.judge_names import close  # the loose comparison of judge_names, one definition

    words = spelled.split()
    if not words or not label_words:
        return False
    if kana:
        ok = [_skeleton(w) for w in words]
        lab = [_skeleton(w) for w in label_words]
        return bool(ok[-1]) and ok[-1] == lab[-1] and all(w in lab for w in ok)
    if not close(words[-1], label_words[-1]):
        return False
    return all(any(close(w, x) for x in label_words) for w in words)
