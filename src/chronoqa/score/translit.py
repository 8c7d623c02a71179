"""Latin spellings of names written in other scripts, for careful judging: where they decide, and where not.

:func:`latin` spells a run of Cyrillic, Greek or Japanese kana letters in Latin letters with one
fixed table per script (Cyrillic and Greek letter by letter, kana syllable by syllable in Hepburn
romanisation). The spelling is one of several in use ("Ельцин" gives "eltsin", the press writes
"Yeltsin"), so a caller compares it with a label loosely (:func:`chronoqa.score.judge_names.close`).
Scripts whose letters leave the vowels out (Hebrew, Arabic) and kanji (whose readings need a
dictionary) have no table: :func:`latin` returns ``None`` for them, and the judge says ``undecided``.
Hebrew names are compared instead by their consonants (:func:`hebrew_names`): each Hebrew letter stands
for a few Latin sounds, the letters that also write vowels (ו, י, ה) may stand for nothing, and every
other consonant of the Latin name must be there, in order.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from chronoqa.score.state_names import STATE_NAMES

__all__ = ["foreign_runs", "hebrew_names", "hebrew_runs", "latin", "same_name", "script_of", "state_exonym"]

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


# Hebrew letters: the Latin sounds each may write, and whether it may write none (a vowel letter). A geresh after
# ג, ז, צ, ת makes the sound foreign names use it for (ג' = j, צ' = ch, ת' = th).
_HEBREW: Final[dict[str, tuple[frozenset[str], bool]]] = {
    "ב": (frozenset({"b", "v"}), False), "ג": (frozenset({"g"}), False), "ד": (frozenset({"d"}), False),
    "ה": (frozenset({"h"}), True), "ו": (frozenset({"w", "v"}), True), "ז": (frozenset({"z", "s"}), False),
    "ח": (frozenset({"kh", "h", "j"}), False), "ט": (frozenset({"t"}), False), "י": (frozenset({"y", "j"}), True),
    "כ": (frozenset({"k", "kh", "h"}), False), "ך": (frozenset({"k", "kh", "h"}), False),
    "ל": (frozenset({"l"}), False), "מ": (frozenset({"m"}), False), "ם": (frozenset({"m"}), False),
    "נ": (frozenset({"n"}), False), "ן": (frozenset({"n"}), False), "ס": (frozenset({"s"}), False),
    "פ": (frozenset({"p", "f"}), False), "ף": (frozenset({"p", "f"}), False), "צ": (frozenset({"ts", "z"}), False),
    "ץ": (frozenset({"ts", "z"}), False), "ק": (frozenset({"k"}), False), "ר": (frozenset({"r"}), False),
    "ש": (frozenset({"s", "sh"}), False), "ת": (frozenset({"t"}), False),
}  # fmt: skip
_GERESH: Final = {
    "ג": frozenset({"j"}),
    "ז": frozenset({"zh", "j"}),
    "צ": frozenset({"ch"}),
    "ת": frozenset({"th", "t"}),
}
_SILENT: Final = frozenset("אע")
# Latin letters and pairs: the sounds they write; y, w, h may be vowels or silent in a name ("Hayworth")
_LATIN_PAIRS: Final = {
    "sch": frozenset({"sh"}), "sh": frozenset({"sh", "s"}), "ch": frozenset({"ch", "kh", "k", "h"}),
    "kh": frozenset({"kh", "h", "k"}), "th": frozenset({"th", "t"}), "ph": frozenset({"p", "f"}),
    "ck": frozenset({"k"}), "ts": frozenset({"ts"}), "tz": frozenset({"ts"}), "zh": frozenset({"zh"}),
}  # fmt: skip
_LATIN_ONE: Final = {
    "b": frozenset({"b"}), "v": frozenset({"v"}), "f": frozenset({"f"}), "p": frozenset({"p"}),
    "g": frozenset({"g", "j"}), "j": frozenset({"j", "y", "kh", "h"}), "k": frozenset({"k"}), "q": frozenset({"k"}),
    "c": frozenset({"k", "s", "ts"}), "d": frozenset({"d"}), "t": frozenset({"t"}), "l": frozenset({"l"}),
    "m": frozenset({"m"}), "n": frozenset({"n"}), "r": frozenset({"r"}), "s": frozenset({"s", "z"}),
    "z": frozenset({"z", "ts", "s"}), "y": frozenset({"y"}), "w": frozenset({"w", "v"}), "h": frozenset({"h"}),
}  # fmt: skip
_LATIN_SOFT: Final = frozenset("ywh")
_HEBREW_RUN: Final = re.compile(r"[\u05d0-\u05ea][\u05d0-\u05ea'׳]*(?:\s+[\u05d0-\u05ea][\u05d0-\u05ea'׳]*)*")

_Sound = tuple[frozenset[str], bool]  # the sounds a letter may write; whether it may write none


def hebrew_runs(text: str) -> list[str]:
    """The runs of Hebrew words in ``text`` (a geresh kept with its letter)."""
    return [m.group(0) for m in _HEBREW_RUN.finditer(text)]


def _hebrew_sounds(word: str) -> list[_Sound]:
    out: list[_Sound] = []
    for k, ch in enumerate(word):
        if ch in _SILENT or ch not in _HEBREW:
            continue
        sounds, soft = _HEBREW[ch]
        if k + 1 < len(word) and word[k + 1] in "'׳" and ch in _GERESH:
            sounds = _GERESH[ch]
        if out and ch in "וי" and word[k - 1] == ch:  # וו is a consonant (w, v); יי a y
            out[-1] = (sounds, ch == "י")
            continue
        out.append((sounds, soft))
    return out


def _latin_sounds(word: str) -> list[_Sound]:
    w = re.sub(r"(.)\1+", r"\1", word.lower())
    out: list[_Sound] = []
    k = 0
    while k < len(w):
        pair = next((p for p in ("sch", *_LATIN_PAIRS) if w.startswith(p, k)), None)
        if pair is not None:
            out.append((_LATIN_PAIRS[pair], False))
            k += len(pair)
            continue
        if w[k] == "x":
            out += [(frozenset({"k"}), False), (frozenset({"s"}), False)]
        elif w[k] in _LATIN_ONE:
            out.append((_LATIN_ONE[w[k]], w[k] in _LATIN_SOFT))
        k += 1
    return out


def _same_sounds(heb: list[_Sound], lat: list[_Sound]) -> bool:
    """Whether the two spell the same consonants in order, letters that may write none skipped."""
    reach = {(0, 0)}
    seen: set[tuple[int, int]] = set()
    while reach:
        i, j = reach.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if i == len(heb) and j == len(lat):
            return True
        if i < len(heb) and heb[i][1]:
            reach.add((i + 1, j))
        if j < len(lat) and lat[j][1]:
            reach.add((i, j + 1))
        if i < len(heb) and j < len(lat) and heb[i][0] & lat[j][0]:
            reach.add((i + 1, j + 1))
    return False


def hebrew_names(run: str, label_words: list[str]) -> bool:
    """Whether a run of Hebrew words writes a label (its folded words) by their consonants.

    Each Hebrew word must write a word of the label and the last words must agree (the surname); the Latin
    words must hold three consonants or more in all, so that a short word decides nothing alone.
    """
    words = run.split()
    if not words or not label_words:
        return False
    lat = {w: _latin_sounds(w) for w in label_words}
    if sum(not soft for w in words for _, soft in _hebrew_sounds(w)) < 3:
        return False
    if not _same_sounds(_hebrew_sounds(words[-1]), lat[label_words[-1]]):
        return False
    return all(any(_same_sounds(_hebrew_sounds(w), lat[x]) for x in label_words) for w in words)


def _spelled(run: str) -> str | None:
    got = latin(run)
    return None if got is None else " ".join(re.findall(r"[a-z]+", got))


# the table's names in Cyrillic or Greek letters by their Latin spelling (a name in Latin letters spells as ``None``)
_BY_SPELLING: Final = {
    spelled: label for label, names in STATE_NAMES.items() for n in names if (spelled := _spelled(n)) is not None
}


def state_exonym(run: str) -> str | None:
    """The English label of the state a run of Cyrillic or Greek names (:data:`.state_names.STATE_NAMES`), or ``None``.

    The run is compared by its Latin spelling, so case and the letters one spelling folds ("й", "і") do not matter.
    """
    spelled = _spelled(run)
    return None if spelled is None else _BY_SPELLING.get(spelled)
