"""Find the entities a free-text answer or explanation names: the name matching careful judging rests on.

A :class:`NameIndex` holds entities (a key and one or more labels each) and finds where a text names
them, token by token, never inside a longer word ("Köhlerei" names nobody). A label matches:

* whatever the case, accents and common transliterations (ö/oe/o, ü/ue/u, ä/ae/a, ø/oe/o, æ/ae,
  ß/ss, ł/l, ı/i): :func:`fold` maps each spelling to one key;
* with apostrophes and hyphens missing, doubled or turned into spaces ("D'Alema", "DAlema",
  "D Alema"; "Jae-in", "Jaein", "Jae in"): tokens are compared with their separators squashed out;
* in the order "Surname, Given" for a two-word person-like label;
* by a shorter form, when no other entity of the index has the same one: the label without a
  parenthetical or comma qualifier ("Henry Eyring (chemist)" → "Henry Eyring", "Burbank, California" →
  "Burbank"), and for a person-like label its surname (the last word; the first for Korean names such
  as "Moon Jae-in") and its last two words ("Tayyip Erdoğan").

A mention directly followed by a capital letter, a roman numeral or a small number ("FC Barcelona B",
"Cars 2") names some other entity and is dropped (a lower-case "a" after it is an article). A mention
within three words after a negation ("not", "never", "neither", "nor", "n't") is marked ``negated``.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from chronoqa.time.duration import NUMBER_WORDS

__all__ = [
    "CLUB_AFFIXES",
    "DEMONYMS",
    "KOREAN_SURNAMES",
    "LEGAL_FORMS",
    "TITLES",
    "NameIndex",
    "NameMention",
    "Token",
    "close",
    "club_words",
    "fold",
    "names_beside",
    "owns_names",
    "person_like",
    "tokens",
]

_TRANSLIT: Final = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "ae", "Ö": "oe", "Ü": "ue", "ø": "oe", "Ø": "oe", "æ": "ae", "Æ": "ae",
     "œ": "oe", "Œ": "oe", "ß": "ss", "ł": "l", "Ł": "l", "ı": "i", "đ": "d", "Đ": "d", "þ": "th", "Þ": "th"}
)  # fmt: skip
_DIGRAPHS: Final = (("ae", "a"), ("oe", "o"), ("ue", "u"))
_SEPARATORS: Final = re.compile(r"['’ʼ`´\-‐‑–]")
_TOKEN_RE: Final = re.compile(r"[^\W_]+(?:['’ʼ`´\-‐‑][^\W_]+)*'?|&")
_PAREN_RE: Final = re.compile(r"\s*\([^)]*\)\s*")
_PRIZE_FIELD_RE: Final = re.compile(r"(.+? (?:Prize|Award|Medal))\s+(?:in|for)\s+\S")
# Words that name the same thing in a transliteration and in English ("Moscow Guberniya" is Moscow Governorate),
# and cities the data names in English in some labels and in their own language in others ("FC Dinamo Bucharest"
# and "Dinamo București", "FC Bayern Munich" and "TSV 1860 München", "Dynamo Kyiv" and "Kiev"): one key each.
# "Barça" is how Barcelona's clubs are written in Catalan and in the press ("Barça B" for FC Barcelona B).
_SAME_WORD: Final = {
    "guberniya": "governorate", "gubernia": "governorate", "gubernija": "governorate",
    "bucuresti": "bucharest", "munchen": "munich", "koln": "cologne", "praha": "prague", "warszawa": "warsaw",
    "lisboa": "lisbon", "beograd": "belgrade", "kobenhavn": "copenhagen", "moskva": "moscow", "kiev": "kyiv",
    "wien": "vienna", "barca": "barcelona",
}  # fmt: skip
_DATE_SEP_RE: Final = re.compile(r"[./\-–]\d")
_MONTH_PREFIXES: Final = frozenset(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])
_NEGATIONS: Final = frozenset({"not", "never", "neither", "nor", "isnt", "wasnt", "werent", "arent", "no"})
_DISCRIMINATOR: Final = re.compile(r"^(?:[a-z]|ii|iii|iv|vi|vii|viii|ix|x|jr|sr|\d{1,2})$")
# Words that make a label an organisation, a place or a title rather than a person's name: such labels
# get no surname form ("Getafe CF" is not named by "CF", "Spain national ... team" not by "team").
_NOT_PERSON: Final = frozenset(
    [
        "fc",
        "cf",
        "ac",
        "sc",
        "cd",
        "ud",
        "rcd",
        "club",
        "football",
        "soccer",
        "team",
        "national",
        "united",
        "city",
        "university",
        "college",
        "school",
        "institute",
        "academy",
        "company",
        "corporation",
        "inc",
        "ltd",
        "party",
        "award",
        "prize",
        "medal",
        "order",
        "society",
        "league",
        "cup",
        "of",
        "the",
        "de",
        "del",
        "la",
        "le",
        "railway",
        "station",
        "county",
        "state",
        "republic",
        "kingdom",
        "river",
        "lake",
        "mount",
        "film",
        "album",
        "song",
        "series",
        "show",
        "game",
        "novel",
        "album",
        "band",
        "orchestra",
        "church",
        "cathedral",
        "museum",
        "hospital",
        "airport",
        "bank",
        "group",
        "records",
        "studios",
        "pictures",
        "association",
        "federation",
        "council",
        "committee",
        "ministry",
        "department",
        "army",
        "navy",
        "air",
        "force",
        "office",
        "people",
        "democratic",
        "socialist",
        "liberal",
        "communist",
        "conservative",
        "labour",
        "labor",
        "front",
        "movement",
        "union",
        "alliance",
    ]
)
# Words that mark a sports club's type, dropped for its short name ("AFC Ajax" is "Ajax").
# A club's legal form written out as one word (folded), and the letters a reply writes for it: "Lyngby BK" is
# "Lyngby Boldklub", "Malmö FF" "Malmö Fotbollförening", "IF Elfsborg" "Idrottsföreningen Elfsborg"
LEGAL_FORMS: Final = {
    "boldklub": "bk", "boldklubben": "bk", "boldspilklub": "bk", "ballklubb": "bk", "idrottsforening": "if",
    "idrottsforeningen": "if", "idratsforening": "if", "idrettsforening": "if", "idrettslag": "il",
    "idrottsklubb": "ik", "idratsklub": "ik", "fotballklubb": "fk", "fodboldklub": "fk", "fotbollsklubb": "fk",
    "fotbollforening": "ff", "fotballforening": "ff", "fodboldforening": "ff", "sportklub": "sk", "sportverein": "sv",
}  # fmt: skip
CLUB_AFFIXES: Final = frozenset(LEGAL_FORMS) | frozenset(
    ["fc", "afc", "cf", "sc", "fk", "sk", "nk", "bk", "ik", "if", "ff", "ac", "as", "cd", "ud", "rcd", "sv", "vfb",
     "vfl", "tsv", "fsv", "kv", "krc", "rsc", "cfc", "sfc", "ssc", "us", "ss", "asd", "ca", "ec", "se", "fbc",
     "sad", "calcio", "futebol", "clube", "esporte", "club", "sport", "fotboll",
     # Portuguese and Italian words for "association", "sports", "society": "Associação Portuguesa de Desportos"
     "associacao", "desportos", "desportiva", "desportivo", "esportiva", "esportivo", "sociedade", "associazione",
     "sportiva", "polisportiva", "recreativa", "recreativo"]
)  # fmt: skip
# The mark of a club's reserve side after its affix ("Sevilla FC B", "Celta CF II"): the affix may go, the mark stays.
_RESERVE_MARKS: Final = frozenset(["b", "c", "ii"])
# A linking particle left before a dropped trailing affix ("Portuguesa de [Desportos]") goes with it.
_CLUB_PARTICLES: Final = frozenset(["de", "do", "da", "dos", "das", "di", "del", "della"])
# Surnames that are also common words a text uses for something else ("Theresa May", "23 May 2024").
_COMMON_WORDS: Final = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "will",
        "long",
        "king",
        "young",
        "little",
        "brown",
        "white",
        "black",
        "green",
        "love",
        "bush",
        "rice",
        "price",
        # number words: "One year." names no "America One"
        *NUMBER_WORDS[1:11],
    ]
)
KOREAN_SURNAMES: Final = frozenset(
    [
        "kim",
        "lee",
        "park",
        "choi",
        "jung",
        "kang",
        "cho",
        "yoon",
        "jang",
        "lim",
        "han",
        "oh",
        "seo",
        "shin",
        "kwon",
        "hwang",
        "ahn",
        "song",
        "yoo",
        "hong",
        "moon",
        "roh",
        "chun",
    ]
)


@lru_cache(maxsize=1 << 18)
def fold(text: str) -> str:
    """One comparison key for the spellings of a word: case, accents, transliterations and separators folded."""
    if text.isascii():  # the same key without the Unicode passes (no accent, no transliteration in ASCII)
        t = text.lower()
        if "'" in t or "-" in t or "`" in t:
            t = t.replace("'", "").replace("-", "").replace("`", "")
        for a, b in _DIGRAPHS:
            t = t.replace(a, b)
        return t
    t = unicodedata.normalize("NFKD", text.translate(_TRANSLIT))
    t = "".join(c for c in t if not unicodedata.combining(c)).casefold().translate(_TRANSLIT)
    t = _SEPARATORS.sub("", t)
    for a, b in _DIGRAPHS:
        t = t.replace(a, b)
    return t


class Token(NamedTuple):
    """A word of a text: its folded key and character offsets."""

    key: str
    begin: int
    end: int


def tokens(text: str) -> list[Token]:
    """The words of ``text`` (apostrophes and hyphens inside a word kept with it), folded."""
    out: list[Token] = []
    add = out.append
    new = tuple.__new__  # a Token without the NamedTuple constructor's extra call (this loop is hot)
    for m in _TOKEN_RE.finditer(text):
        word = m.group(0)
        last = word[-1]
        if last == "'":  # a possessive ("Köhler's", "Jones'", "Köhler’s") is stripped
            word = word[:-1]
        elif last == "s" and len(word) > 2 and word[-2] in "'’":
            word = word[:-2]
        key = "and" if word == "&" else fold(word)
        key = _SAME_WORD.get(key, key)
        if key:
            add(new(Token, (key, *m.span())))
    return out


class NameMention(NamedTuple):
    """Where a text names entities: token and character spans, the entity keys, whether negated.

    ``short`` is true when the text used a shorter form (surname, label without qualifier).
    """

    keys: frozenset[str]
    first: int
    last: int
    begin: int
    end: int
    negated: bool
    short: bool = False


def _strip_qualifiers(label: str) -> list[str]:
    """Shorter forms of a label: without a parenthetical, a comma qualifier or an " in ..." field."""
    out = []
    base = _PAREN_RE.sub(" ", label).strip()
    if base and base != label:
        out.append(base)
    if "," in base:
        head = base.split(",", 1)[0].strip()
        if head:
            out.append(head)
    m = _PRIZE_FIELD_RE.match(base)
    if m:
        out.append(m.group(1))  # "Wolf Prize in Chemistry" -> "Wolf Prize"
    return out


@lru_cache(maxsize=1 << 16)
def person_like(label: str) -> bool:
    """Whether a label looks like a person's name (two or more words, none of an organisation or place)."""
    base = _strip_qualifiers(label)
    words = [t.key for t in tokens(base[0] if base else label)]
    return bool(_person_forms(words))


def close(a: str, b: str) -> bool:
    """Equal, or at most one edit per three letters apart (a transliteration: Moustafa / Mostafa)."""
    if a == b:
        return True
    budget = min(len(a), len(b)) // 3
    if budget == 0 or abs(len(a) - len(b)) > budget:
        return False
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1] <= budget


TITLES: Final = frozenset(
    [
        "president",
        "prime",
        "minister",
        "chancellor",
        "federal",
        "king",
        "queen",
        "prince",
        "princess",
        "emperor",
        "sultan",
        "sheikh",
        "dr",
        "mr",
        "mrs",
        "ms",
        "sir",
        "dame",
        "lord",
        "general",
        "premier",
        "governor",
        "mayor",
        "senator",
        "bundesprasident",
        "it",
        "that",  # "That's Komorowski"
        "was",
        "the",
        "is",
        "answer",
        "dato",
        "seri",
        "tun",
        "tan",
        "his",
        "her",
        "excellency",
        "acting",
        "interim",
        "former",
        "late",
    ]
)
# Words that start a sentence capitalised and are no given name: "After Kasyanov, ..." names Kasyanov.
LEADING_WORDS: Final = frozenset(
    ["after", "before", "in", "on", "at", "since", "until", "when", "while", "from", "and", "but", "then", "as",
     "by", "for", "with", "under", "during", "both", "following", "unlike", "like", "between", "once", "although",
     "though", "because", "if", "so", "whereas"]
)  # fmt: skip


_POSSESSIVE_END_RE: Final = re.compile(r"['’]s?$")


def names_beside(text: str, toks: Sequence[Token], k: int, step: int) -> list[str]:
    """The capitalised words of the run that starts at ``toks[k]`` and goes ``step`` (-1: back, 1: on), a space apart.

    Titles and words that start a sentence ("President", "After") are left out: what is left are names. A possessive
    ends a run: "Fox's Blackpool", "Di Gennaro's Palermo" are two names, a possessor and what it has.
    """
    run = []
    while 0 <= k < len(toks):
        a, b = (toks[k], toks[k + 1]) if step == -1 else (toks[k - 1], toks[k])
        gap = text[a.end : b.begin].strip()
        if (gap != "" and not (gap == "." and len(a.key) <= 2)) or not text[toks[k].begin].isupper():
            break  # "Charles A. Beard": the initial's period keeps the run going
        if _POSSESSIVE_END_RE.search(text, a.begin, a.end):
            break
        run.append(toks[k].key)
        k += step
    return [w for w in run if w not in TITLES and w not in LEADING_WORDS]


def owns_names(names: Sequence[str], own: set[str], form: str) -> bool:
    """Whether names next to a person's shorter form are of that person's label.

    A given name, or its initial ("V. V. Putin", "G. W. Bush"), of the label; glued initials ("JP Balkenende" for Jan
    Peter Balkenende: each letter a given name's initial).
    """
    if any(close(w, o) or (len(w) == 1 and o.startswith(w)) for w in names for o in own):
        return True
    return len(names) == 1 and _glued_initials(names[0], own, form)


def _person_forms(words: Sequence[str], compound_last: bool = False) -> list[tuple[str, ...]]:
    """Surname and last-two-word forms of a person-like label (folded words).

    ``compound_last``: the last word is a hyphenated maternal surname (Spanish "Eduardo Frei Ruiz-Tagle"),
    so the paternal surname before it is a surname form too ("Frei", "Eduardo Frei").
    """
    if len(words) < 2 or any(w in _NOT_PERSON or w in CLUB_AFFIXES or w.isdigit() for w in words):
        return []
    if _club_form(words):  # "S.C. Corinthians Paulista", "Botafogo F.R.": a club, not a person
        return []
    forms: list[tuple[str, ...]] = []
    korean = words[0] in KOREAN_SURNAMES and (len(words) == 3 or len(words) == 2)
    forms.append((words[0],) if korean else (words[-1],))
    if len(words) >= 3 and not korean:
        forms.append(tuple(words[-2:]))
        if compound_last:
            forms += [(words[-2],), (words[0], words[-2])]
    return [f for f in forms if len("".join(f)) >= 3]


def _forms_of(labels: Iterable[str]) -> tuple[set[str], set[str]]:
    """The full (strong) and shorter (weak) squashed forms of an entity's labels."""
    strong: set[str] = set()
    weak: set[str] = set()
    for label in labels:
        s, w, _ = _label_forms(label)
        strong |= s
        weak |= w
    return strong, weak - strong


@lru_cache(maxsize=1 << 17)
def _label_forms(label: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Strong forms, weak forms and words of one label (cached: labels repeat across questions)."""
    toks = tokens(label)
    words = [t.key for t in toks]
    if not words:
        return frozenset(), frozenset(), frozenset()
    strong = {"".join(words)}
    if len(words) == 2 and _person_forms(words):  # "Köhler, Horst"; not "Prize Rumford"
        strong.add(words[1] + words[0])
    weak: set[str] = set()
    shorts = _strip_qualifiers(label)
    for short in shorts:
        sw = [t.key for t in tokens(short)]
        if sw:
            weak.add("".join(sw))
    base_text = shorts[0] if shorts else label
    base_toks = tokens(base_text) if shorts else toks
    base = [t.key for t in base_toks]
    compound = bool(base_toks) and "-" in base_text[base_toks[-1].begin : base_toks[-1].end]
    weak.update("".join(f) for f in _person_forms(base, compound) if "".join(f) not in _COMMON_WORDS)
    club = _club_form(base)
    if club:
        weak.add(club)
    if len(base) >= 3 and base[-1] in _RESERVE_MARKS and base[-2] in CLUB_AFFIXES:  # "Villarreal [CF] B"
        weak.add("".join(base[:-2]) + base[-1])
    weak.update(_numbered_club_forms(base))
    weak.update(_spelled_affix_forms(base))
    if club and len(base) >= 3 and base[-1].isdigit() and len(base[-1]) in (2, 4):  # "Calcio Lecco" (…1912)
        weak.add("".join(base[:-1]))
    weak.update(_team_forms(base))
    weak.update(state_forms(label))
    # a shorter form of digits only ("2012 (1982 album)" -> "2012") would read years as names
    weak = {f for f in weak if not f.isdigit()}
    return frozenset(strong), frozenset(weak - strong), frozenset(words)


_STATE_TITLE_RE: Final = re.compile(
    r"^(?:the\s+)?(?:kingdom|principality|grand\s+duchy|duchy)\s+of\s+(?P<x>.+)$", re.IGNORECASE
)


@lru_cache(maxsize=1 << 16)
def state_forms(label: str) -> frozenset[str]:
    """Short forms of a state's name, kept only where no other entity of the release has them.

    "Hungary" for "Kingdom of Hungary" (also principality, duchy, grand duchy); "Kirghiz SSR" for "Kirghiz Soviet
    Socialist Republic", "Russian SFSR" and "RSFSR" for "Russian Soviet Federative Socialist Republic", "USSR" for
    "Soviet Union".
    """
    words = [t.key for t in tokens(label)]
    out: set[str] = set()
    m = _STATE_TITLE_RE.match(label.strip())
    if m:
        out.add("".join(t.key for t in tokens(m.group("x"))))
    if words == ["soviet", "union"]:
        out.add("ussr")
    for tail, short in (
        (["soviet", "socialist", "republic"], "ssr"),
        (["soviet", "federative", "socialist", "republic"], "sfsr"),
    ):
        head = words[: -len(tail)]
        if words[-len(tail) :] == tail and head:
            out.add("".join(head) + short)
            if short == "sfsr":
                out.add("".join(w[0] for w in head) + short)  # "RSFSR"
    return frozenset(f for f in out if len(f) >= 3)


def _numbered_club_forms(words: Sequence[str]) -> list[str]:
    """A club with a two-digit number inside its name ("Bayer 04 Leverkusen"): without it, and its town after it."""
    inner = [i for i, w in enumerate(words[1:-1], 1) if w.isdigit() and len(w) == 2]
    if len(inner) != 1 or any(w in CLUB_AFFIXES for w in words):
        return []
    k = inner[0]
    return ["".join([*words[:k], *words[k + 1 :]]), "".join(words[k + 1 :])]


# A club's closing abbreviated affix spelled out, in the languages clubs are named in: "Fortaleza E.C." is
# "Fortaleza Esporte Clube", "Wrexham A.F.C." "Wrexham Association Football Club"
_SPELLED_AFFIXES: Final = {
    "fc": ("footballclub", "futebolclube", "futbolclub", "fussballclub"),
    "afc": ("associationfootballclub",),
    "ec": ("esporteclube", "esporteclub"),
    "sc": ("sportclub", "sportclube", "sportingclube", "sportingclub"),
    "ac": ("associazionecalcio", "atleticoclube"),
    "cf": ("clubdefutbol", "clubedefutebol"),
    "sk": ("sportklub",),
    "fk": ("fudbalskiklub",),
}


def _spelled_affix_forms(words: Sequence[str]) -> list[str]:
    """A club's name with its closing affix ("FC", "E.C.", "A.F.C.") spelled out (:data:`_SPELLED_AFFIXES`)."""
    k = len(words) - 1
    while k > 0 and len(words[k]) == 1 and words[k].isalpha() and len(words) - k <= 3:
        k -= 1  # the letters of a dotted affix: "e", "c" of "E.C."
    dotted = len(words) - k - 1
    affix = "".join(words[k + 1 :]) if dotted >= 2 else words[-1]
    head = words[: k + 1] if dotted >= 2 else words[:-1]
    if len("".join(head)) < 3 or affix not in _SPELLED_AFFIXES:
        return []
    return ["".join(head) + spelled for spelled in _SPELLED_AFFIXES[affix]]


def _club_form(words: Sequence[str]) -> str | None:
    """A club's name without its club-type affix ("Swindon Town F.C." -> "Swindon Town", "AFC Ajax" -> "Ajax").

    Leading and trailing affix words (``FC``, ``AFC``, ``F.R.``'s and ``A.F.C.``'s letters, a leading "1.", "Esporte
    Clube", "Sport Club") and a closing founding year ("U.S. Salernitana 1919") are dropped; at least
    one word must be dropped and one left, and what is left must not be a single letter or number.
    """
    lo, hi = 0, len(words)
    if hi >= 3 and words[-1].isdigit() and len(words[-1]) in (2, 4):  # a founding year: "U.S. Salernitana 1919"
        hi -= 1
    named = hi  # a year alone makes no club ("Blade Runner 2049" is another title): an affix must go too
    while lo < hi:
        if words[lo] in CLUB_AFFIXES or (lo == 0 and words[lo] == "1"):  # "1. FC Köln"
            lo += 1
        elif lo + 3 < hi and _dotted(words[lo : lo + 2]) and _dotted(words[lo + 1 : lo + 3]):
            lo += 3  # "S.S.C. Napoli"
        elif lo > 0 and words[lo] in ("e", "y") and lo + 1 < hi and words[lo + 1] in CLUB_AFFIXES:
            lo += 2  # "Sociedade Esportiva e Recreativa Caxias do Sul"
        elif _dotted(words[lo : lo + 2]):
            lo += 2
        else:
            break
    while hi > lo:
        if words[hi - 1] in CLUB_AFFIXES:
            hi -= 1
            if hi - 1 > lo and words[hi - 1] in _CLUB_PARTICLES:
                hi -= 1
        elif hi < named and words[hi] == "club" and words[hi - 1] in _CLUB_SPORTS and hi - 1 > lo:
            hi -= 1  # "Adelaide United Football Club": the sport before a dropped trailing "Club" goes with it
        elif hi - 3 > lo and _dotted(words[hi - 3 : hi - 1]) and _dotted(words[hi - 2 : hi]):
            hi -= 3  # "Wrexham A.F.C."
        elif hi - 2 >= lo and _dotted(words[hi - 2 : hi]):
            hi -= 2
        else:
            break
    if (lo == 0 and hi == named) or hi <= lo:
        return None
    core = "".join(words[lo:hi])
    return core if len(core) >= 3 and not core.isdigit() else None


# A sport written before a club's closing "Club" ("Football Club", "Soccer Club"), dropped with it.
_CLUB_SPORTS: Final = frozenset(["football", "soccer"])
# Words of a club's name too common among clubs to name one alone ("Atlético", "Sporting", "United").
_CLUB_COMMON: Final = frozenset(
    ["atletico", "athletic", "athletico", "sporting", "real", "racing", "union", "united", "city", "town", "rovers",
     "dynamo", "dinamo", "olympique", "olimpia", "deportivo", "deportiva", "internacional", "national", "nacional",
     "youth", "reserves", "women", "ladies", "and", "the", "of"]
)  # fmt: skip


@lru_cache(maxsize=1 << 14)
def club_words(label: str) -> tuple[str, ...]:
    """The words of a club's name that may name it alone: "Banfield" of "Club Atlético Banfield".

    They are the words left once its club-type affixes go ("AIK" of "AIK Fotboll"), less those common to many clubs.
    Empty for a label that is no club's (no affix to drop). Whether one of them names the club in a reply is
    for the caller to check against the other clubs of the question's slot.
    """
    words = [t.key for t in tokens(_PAREN_RE.sub(" ", label))]
    if _club_form(words) is None:
        return ()
    keep = [w for w in words if w not in CLUB_AFFIXES and w not in _CLUB_PARTICLES and w not in _CLUB_COMMON]
    return tuple(w for w in keep if len(w) >= 3 and not w.isdigit() and w not in _COMMON_WORDS)


# The adjective of a country (folded key of the country's name in the data's team labels: "turkey"), for the teams a
# reply names by it ("the Turkish under-21s"). Only adjectives that name one country: no "Korean", no "Congolese".
DEMONYMS: Final = {
    "england": ("english",), "scotland": ("scottish",), "wales": ("welsh",), "northernireland": ("northernirish",),
    "republicofireland": ("irish",), "france": ("french",), "germany": ("german",), "spain": ("spanish",),
    "italy": ("italian",), "portugal": ("portuguese",), "netherlands": ("dutch",), "belgium": ("belgian",),
    "turkey": ("turkish",), "greece": ("greek",), "poland": ("polish",), "russia": ("russian",),
    "ukraine": ("ukrainian",), "sweden": ("swedish",), "norway": ("norwegian",), "denmark": ("danish",),
    "finland": ("finnish",), "iceland": ("icelandic",), "switzerland": ("swiss",), "austria": ("austrian",),
    "czechrepublic": ("czech",), "slovakia": ("slovak", "slovakian"), "hungary": ("hungarian",),
    "romania": ("romanian",), "bulgaria": ("bulgarian",), "serbia": ("serbian",), "croatia": ("croatian",),
    "slovenia": ("slovenian", "slovene"), "brazil": ("brazilian",), "argentina": ("argentine", "argentinian"),
    "uruguay": ("uruguayan",), "chile": ("chilean",), "colombia": ("colombian",), "mexico": ("mexican",),
    "peru": ("peruvian",), "paraguay": ("paraguayan",), "ecuador": ("ecuadorian",), "japan": ("japanese",),
    "australia": ("australian",), "nigeria": ("nigerian",), "ghana": ("ghanaian",), "cameroon": ("cameroonian",),
    "senegal": ("senegalese",), "egypt": ("egyptian",), "morocco": ("moroccan",), "tunisia": ("tunisian",),
    "algeria": ("algerian",), "iran": ("iranian",), "israel": ("israeli",), "canada": ("canadian",),
}  # fmt: skip


def _team_forms(words: Sequence[str]) -> list[str]:
    """Short names of a national team ("Spain U-19" for "Spain national under-19 football team").

    Also "Spain U19", "the Spain U-19s", "Spain under-19 team" and "the Spain under-19s"; "Ethiopia national team"
    for "Ethiopia national football team". A men's side ("Canada men's national under-20 soccer team") is named as
    "Canada U-20"; a women's side keeps the word ("Canada women U-20"). The country's adjective
    (:data:`DEMONYMS`) names it too ("the Turkish under-21s", "the Spanish national team"), and a youth side is
    named by the idiom "England at under-17 level".
    """
    if "national" not in words or words[-1] != "team":
        return []
    k = words.index("national")
    head = list(words[:k])
    if head[-1:] in (["men"], ["mens"]):
        head = head[:-1]
    country = "".join(head)
    if not country:
        return []
    names = [country, *DEMONYMS.get(country, ())]
    rest = [w for w in words[k + 1 : -1] if w not in ("football", "soccer", "association", "men", "mens")]
    if not rest:
        return [c + "nationalteam" for c in names]
    if len(rest) == 1 and rest[0].startswith("under") and rest[0][5:].isdigit():
        n = rest[0][5:]
        out = [country + "atunder" + n + "level", country + "atu" + n + "level"]
        for c in names:
            under = c + "under" + n
            out += [c + "u" + n, c + "u" + n + "s", under + "team", under, under + "s"]
        return out
    return []


def _glued_initials(word: str, own: set[str], form: str) -> bool:
    """Whether ``word`` ("jp") is two or three initials, each of a different given name of the label."""
    given = [o for o in own if o != form]
    if not 2 <= len(word) <= 3 or not word.isalpha() or len(given) < len(word):
        return False
    left = list(given)
    for c in word:
        hit = next((o for o in left if o.startswith(c)), None)
        if hit is None:
            return False
        left.remove(hit)
    return True


def _dotted(letters: Sequence[str]) -> bool:
    """Whether two single letters spell a dotted club affix ("F", "C" of "F.C."; "S", "C"; "F", "R")."""
    return len(letters) == 2 and all(len(w) == 1 and w.isalpha() for w in letters)


@lru_cache(maxsize=1 << 17)
def _all_forms(label: str) -> frozenset[str]:
    """Every form (strong or weak) of one label."""
    strong, weak, _ = _label_forms(label)
    return strong | weak


def _taken(form: str, keys: frozenset[str] | set[str], rivals: Sequence[str]) -> bool:
    """Whether a rival label other than ``keys`` has ``form`` (checked per form: contexts vary per question)."""
    return any(form in _all_forms(r) and r not in keys for r in rivals)


def _splits_a_word(text: str, toks: Sequence[Token], i: int, last: int, words: set[str]) -> bool:
    """Whether words ``i..last`` of ``text`` join to a form only by a short lower-case word after it that no label has.

    "Villa in" joins to "villain", the surname of François-Xavier Villain, whose label has no word "in"; "van
    Nistelrooy" and "England at under-17 level" keep their words.
    """
    end = toks[last]
    return (
        last > i
        and end.end - end.begin <= 3
        and text[end.begin].islower()
        and text[toks[last - 1].end : end.begin].isspace()
        and end.key not in words
    )


class NameIndex:
    """Entities (key → labels) and the forms a text may name them by; see the module docstring.

    A shorter form is kept only when no other entity of the index (nor of ``rivals``, labels of the
    question's context, when given; else of ``base``) has the same form. ``base`` is a larger index
    searched as well (the candidates of a release), so that a small per-question index of the gold
    answers can sit on top of it.
    """

    def __init__(
        self,
        entities: Mapping[str, Iterable[str]],
        *,
        base: NameIndex | None = None,
        rivals: Iterable[str] | None = None,
    ) -> None:
        self.base = base
        self._keys = frozenset(entities)
        strong: dict[str, set[str]] = {}
        weak: dict[str, set[str]] = {}
        self._words: dict[str, set[str]] = {}
        labels_of: dict[str, tuple[str, ...]] = {}  # a state's short form: no other entity of the base may have it
        self._labels: dict[str, tuple[str, ...]] = {}
        self._by_word: dict[str, frozenset[str]] | None = None
        for key, labels in entities.items():
            labels = tuple(labels)
            self._labels[key] = labels
            if base is not None:
                labels_of[key] = labels
            s_forms: Iterable[str]
            w_forms: Iterable[str]
            words: Iterable[str]
            if len(labels) == 1:  # the usual case: one label's forms and words, cached per label
                s_forms, w_forms, words = _label_forms(labels[0])
            else:
                s_forms, w_forms = _forms_of(labels)
                words = [w for label in labels for w in _label_forms(label)[2]] if w_forms else ()
            for f in w_forms:
                self._words.setdefault(f, set()).update(words)
                weak.setdefault(f, set()).add(key)
            for f in s_forms:
                strong.setdefault(f, set()).add(key)
        rival_labels = None if rivals is None else tuple(dict.fromkeys(rivals))
        self._forms: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in strong.items()}
        self._short: set[str] = set()
        for form, keys in weak.items():
            if form in self._forms:
                continue
            if base is not None:
                own = {label for k in keys for label in labels_of[k]}
                if any(form in state_forms(label) for label in own) and base.owners(form) - own:
                    continue  # "Hungary" names the release's Hungary, not the Kingdom of Hungary
            if rival_labels is not None:
                if _taken(form, keys, rival_labels):  # a rival of the question's context has it too
                    continue
            elif len(keys) != 1 or (base is not None and base.owners(form)):
                continue
            self._forms[form] = frozenset(keys)  # a shorter form no other entity shares
            self._short.add(form)
        self._sorted = sorted(self._forms)
        # every prefix of up to three letters of a form: a quick reject before the sorted search
        self._starts = {f[:k] for f in self._forms for k in (1, 2, 3)}
        # this index, then its bases, flat (no reference back to ``self``: a cycle would leave every
        # per-question index to the cyclic garbage collector instead of freeing it at once)
        level = (self._starts, self._sorted, self._forms, self._short)
        self._levels: list[tuple[set[str], list[str], dict[str, frozenset[str]], set[str]]] = [
            level,
            *(base._levels if base is not None else ()),
        ]

    def is_short(self, form: str) -> bool:
        """Whether ``form`` is a shorter form (here or in the base index)."""
        return form in self._short or (self.base is not None and form not in self._forms and self.base.is_short(form))

    def keys(self) -> frozenset[str]:
        """The entity keys of this index (not of its base)."""
        return self._keys

    def with_word(self, word: str) -> frozenset[str]:
        """The keys of this index's entities (not its base's) with ``word`` (folded) among their labels' words."""
        if self._by_word is None:  # built when first asked: most indexes are never asked
            by: dict[str, set[str]] = {}
            for key, labels in self._labels.items():
                for label in labels:
                    for w in _label_forms(label)[2]:
                        by.setdefault(w, set()).add(key)
            self._by_word = {w: frozenset(ks) for w, ks in by.items()}
        return self._by_word.get(word, frozenset())

    def label_words(self, form: str) -> set[str]:
        """The words of the labels a shorter form stands for."""
        here = self._words.get(form, set())
        return here | self.base.label_words(form) if self.base is not None else here

    def _short_ok(self, text: str, toks: Sequence[Token], i: int, last: int, form: str) -> bool:
        """A shorter form counts only capitalised and not next to a capitalised word of another name.

        "born" is not Max Born; "Ted Hughes" is not Helen Hughes; "Park Chung-hee" is not Park Geun-hye; "Villa in"
        is not Villain; "Javier Gerardo Milei" and "President Köhler" are fine.
        """
        first = text[toks[i].begin]
        if first.islower() and any(c.isupper() for c in text):
            return False
        if _splits_a_word(text, toks, i, last, self.label_words(form)):
            return False  # "Villa in" is not the surname Villain
        own: set[str] | None = None
        for k, step in ((i - 1, -1), (last + 1, 1)):
            names = names_beside(text, toks, k, step)
            if names:
                own = self.label_words(form) if own is None else own
                if not owns_names(names, own, form):
                    return False
        return True

    @staticmethod
    def _discriminated(text: str, toks: Sequence[Token], last: int) -> bool:
        """Whether the word right after a mention makes it another entity (a letter, numeral, number)."""
        nxt = toks[last + 1]
        if not _DISCRIMINATOR.match(nxt.key) or text[toks[last].end : nxt.begin].strip() != "":
            return False
        if not nxt.key.isdigit() and not text[nxt.begin].isupper():
            return False  # "played for Chemnitzer FC a year later": the article, not a reserve side's letter
        if nxt.key.isdigit():  # "Köhler 30.06.2004", "Rau 1 July 2004" are dates, not "Cars 2"
            if _DATE_SEP_RE.match(text, nxt.end):
                return False
            if last + 2 < len(toks) and toks[last + 2].key[:3] in _MONTH_PREFIXES:
                return False
        return True

    def owners(self, form: str) -> frozenset[str]:
        """The entity keys a squashed, folded form names (empty when none)."""
        here = self._forms.get(form, frozenset())
        if self.base is None:
            return here
        return here | self.base.owners(form)

    def find(self, text: str, toks: Sequence[Token] | None = None) -> list[NameMention]:
        """Every mention in ``text``, left to right, longest first at each word, non-overlapping."""
        toks = tokens(text) if toks is None else toks
        out: list[NameMention] = []
        i, n = 0, len(toks)
        levels = self._levels  # this index, then its bases: the first that has a form says if it is short
        while i < n:
            head = toks[i].key[:3]
            for lv in levels:
                if head in lv[0]:
                    break
            else:  # no form starts like this word
                i += 1
                continue
            best: tuple[int, frozenset[str], bool] | None = None
            s = ""
            j = i
            while j < n:
                s += toks[j].key
                head = s[:3]
                prefix = False
                keys: frozenset[str] | None = None
                short = False
                for starts, ordered, forms, shorts in levels:
                    if head not in starts:  # no form of this level starts like ``s``
                        continue
                    k = bisect_left(ordered, s)
                    if k < len(ordered) and ordered[k].startswith(s):
                        prefix = True
                        got = forms.get(s)
                        if got:
                            if keys is None:
                                keys, short = got, s in shorts
                            else:
                                keys = keys | got
                if not prefix:
                    break
                if keys is not None and (not short or self._short_ok(text, toks, i, j, s)):
                    best = (j, keys, short)
                j += 1
            if best is None:
                i += 1
                continue
            last, keys, short = best
            if last + 1 < n and self._discriminated(text, toks, last):  # "FC Barcelona B", "Cars 2"
                i = last + 2
                continue
            neg = any(toks[k].key in _NEGATIONS for k in range(max(0, i - 3), i))
            out.append(NameMention(keys, i, last, toks[i].begin, toks[last].end, neg, short))
            i = last + 1
        return out
