"""The initials a label may be written by ("PDS" of Party of Democratic Socialism, "QPR" of Queens Park Rangers F.C.).

One home for both judges: the answer judge (a reply that names the gold by its initials) and the time judge (an
explanation that names a fact's entity so). A label is split into words at spaces, hyphens, slashes and commas
("PSG" of Paris Saint-Germain, "RWE" of Rot-Weiss Essen); each word gives its first letter, a word written in
capitals stays whole ("BVSC" of Budapesti VSC) and a word written as one but abbreviated as two gives both
("GM" of Grandmaster, FIDE's own abbreviation). A club's type affix at either end may be left out ("QPR").

Every word counts but a linking word ("of", "the"), capitalised or not. What differs between the judges is a named
parameter, the fewest letters: two for a reply that is the name alone, three in prose, where two capitals are too
often something else (the time judge takes a two-letter title "IM" only with more checks).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final, NamedTuple

from chronoqa.score.judge_names import CLUB_AFFIXES, tokens

# Words an initialism skips ("PDS" for "Party of Democratic Socialism")
LINKING_WORDS: Final = frozenset({"of", "and", "the", "for", "in", "at", "on", "de", "des", "du", "la", "le"})
# Words written as one that are abbreviated as two ("GM" for "Grandmaster", "WGM" for "Woman Grandmaster")
_COMPOUNDS: Final = {"grandmaster": "gm"}
_WORDS: Final = re.compile(r"[^\s\-‐‑–/,]+")
_PAREN_RE: Final = re.compile(r"\([^)]*\)")
MAX_LETTERS: Final = 5


class Initials(NamedTuple):
    """A label's initials (``full``) and, where it has a club's type affix at either end, those without it."""

    full: str | None
    bare: str | None


def _letters(word: str, key: str) -> str:
    """What one word gives: its initial, the whole word where written in capitals, both initials of a compound."""
    if key in _COMPOUNDS:
        return _COMPOUNDS[key]
    letters = [c for c in word if c.isalpha()]
    if len(letters) >= 2 and all(c.isupper() for c in letters) and key.isalpha():
        return key
    return key[0]


def _join(words: list[tuple[str, str]], min_len: int) -> str | None:
    """The initials of ``(written, key)`` words: ``None`` for one plain word, or too few or too many letters."""
    if not words or not all(k[0].isascii() and k[0].isalpha() for _, k in words):
        return None
    parts = [_letters(w, k) for w, k in words]
    if len(words) == 1 and parts[0] == words[0][1]:
        return None  # a single word is no initialism of itself
    got = "".join(parts)
    return got if min_len <= len(got) <= MAX_LETTERS else None


@lru_cache(maxsize=1 << 16)  # a slot's rivals recur over its questions
def initials_of(label: str, *, min_len: int = 2) -> Initials:
    """The initials of ``label`` (lower case), with and without a club's type affix at either end.

    ``min_len``: the fewest letters. A word that starts with no ASCII letter ("1. FC Nord", a name in another
    script) leaves the label without initials.
    """
    kept = []
    for w in _WORDS.findall(_PAREN_RE.sub(" ", label)):
        key = "".join(t.key for t in tokens(w))
        if not key or key in LINKING_WORDS:
            continue
        kept.append((w, key))
    lo, hi = 0, len(kept)
    while lo < hi and kept[lo][1] in CLUB_AFFIXES:
        lo += 1
    while hi > lo and kept[hi - 1][1] in CLUB_AFFIXES:
        hi -= 1
    bare = None if (lo, hi) == (0, len(kept)) else _join(kept[lo:hi], min_len)
    return Initials(_join(kept, min_len), bare)
