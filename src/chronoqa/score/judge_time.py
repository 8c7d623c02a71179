"""Attribute the dates of an explanation to facts and ends: the reading careful time accuracy rests on.

An explanation's dates (:func:`chronoqa.time.text.extract_times`) are each given an **owner** and a
**role** from the sentence around them:

* Owner: the entity named nearest before the date in its clause (the text back to the previous date
  or the start of the sentence), else the first one named after it; a pronoun (he, she, his, her,
  they...) stands for the entity named last (the answer when none was); "his successor", "his
  predecessor" stand for someone else. Where the clause names an entity of one fact only, that fact
  owns the date; where it names only entities several facts share (the subject of both the answer
  fact and the anchor fact), the date may cite either but contradicts neither. A date in a clause
  that names nobody belongs to the owner of the previous date of the same sentence; a list of dates
  with no owner at all ("Relevant dates: ...") is attributed to nothing. A fact's entity is named by its full
  label's forms and by a head word of its label no other fact shares ("Sparta" for Sparta Rotterdam); an age-group
  team by its country and age or its age alone ("Paraguay's U-20s", "at U-21 level"). A date in a relative clause
  about an owner named outside it (", who had led the opposition since 2004,") cites only.
  A shared subject's sentence whose date, at its own end, is one fact's time alone in the data is that fact's
  (:func:`_pinned`): "he was still in the party, which he had joined in 1965 and left in 1975".
  A predicate joined by "and" with no subject of its own ("after his spell at X (1970–72) and stayed until 1974") is the
  sentence subject's, not the entity named in the phrase before it (:func:`_bound_to_subject`).
* Role: a range gives its first date the start and its second the end; ``since`` / ``from`` mark a
  start, ``until`` / ``through`` an end; otherwise the nearest cue word decides ("took office",
  "joined", "became" → start; "resigned", "left", "ended", "stepped down" → end; "born", "died", "won",
  "created" → the point of an event). A clause with no cue keeps the role of the previous date of the
  same sentence; a cue inside a bracket that glosses the next date is that date's. "in 2010 and 2011" is a range.
  "X was succeeded by Y on D" (and "handed over to", "replaced") makes D Y's start and,
  as a citation only, X's end; "X succeeded Y on D" the reverse. ``before`` / ``after`` bound a time
  without stating it; "as of", "first served", "previously" mark a date that is not the fact's.
* Binding: a date firmly its fact's whose owner rests on weak evidence (a time preposition's object, the nearest
  name past a connector, another agent's subordinate clause; :func:`_weakly_bound`) is ``weak``: where it differs
  from the data, the verdict is undecided (:func:`weakly_contradicted`), not wrong.
* Decades and centuries are too coarse to cite anything; a season is its year.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise
from typing import Final

from chronoqa.score.initials import initials_of
from chronoqa.score.judge_names import CLUB_AFFIXES as _CLUB_WORDS
from chronoqa.score.judge_names import LEADING_WORDS as _LEADING_WORDS
from chronoqa.score.judge_names import TITLES as _TITLE_WORDS
from chronoqa.score.judge_names import NameIndex, NameMention, Token, person_like, tokens
from chronoqa.time import Granularity, Interval, TimePoint
from chronoqa.time.text import TimeMention, extract_times

__all__ = [
    "OTHER",
    "Attribution",
    "FactRef",
    "attribute",
    "disclaims_dates",
    "judge_refs",
    "may_state",
    "tables_as_fields",
    "unread_dates",
    "unsure_refs",
    "weakly_contradicted",
    "with_relative",
    "without_conclusion",
    "without_range_glosses",
]

# Start and end cues of replies written in German, Spanish, French, Portuguese, Italian or Russian, read as the English
# ones ("kam 1989 zu X", "fichó por X en 2002", "a rejoint X en 1999", "ingressou em 2002", "перешёл в 2005"; "verließ
# den Verein 1990", "se marchó en 2004", "l'a quitté en 2000", "deixou o clube em 2004", "покинул в 2008"). A word
# that is a start in one phrase and an end in another ("trat bei" / "trat zurück") is none of them.
_FOREIGN_START: Final = (
    "kam", "wechselte", "debütierte", "begann", "übernahm", "heiratete", "fichó", "llegó", "ingresó", "comenzó",
    "empezó", "asumió", "debutó", "unió", "rejoint", "rejoignit", "arrivé", "arrivée", "entré", "entrée", "entra",
    "commencé", "débuté", "épousé", "signé", "ingressou", "chegou", "começou", "assumiu", "estreou", "assinou",
    "juntou", "перешёл", "перешел", "пришёл", "пришел", "вступил", "начал", "стал", "дебютировал", "iniziato",
    "iniziò", "cominciato", "cominciò", "assunse", "arrivò", "sposò", "esordì", "entrò",
)  # fmt: skip
_FOREIGN_END: Final = (
    "verließ", "verliess", "endete", "marchó", "dejó", "abandonó", "salió", "terminó", "acabó", "quitté", "quitta",
    "quitte", "sorti", "sortie", "sortit", "terminé", "deixou", "saiu", "terminou", "abandonou", "покинул", "ушёл",
    "ушел", "завершил", "оставил", "concluso", "concluse", "terminato", "terminò", "lasciò", "lasciato",
)  # fmt: skip
# Turkish and Hungarian verbs close their clause ("2002'de katıldı", "2011-ben igazolt"): each is the cue of the date
# before it, never of the next one.
_VERB_FINAL_START: Final = ("katıldı", "başladı", "imzaladı", "evlendi", "geldi", "igazolt", "csatlakozott", "kezdett")
_VERB_FINAL_END: Final = ("ayrıldı", "bıraktı", "boşandı", "távozott", "elhagyta", "befejezte")
_START: Final = frozenset(
    [
        "took_office",
        "went_up_to",
        "sworn",
        "inaugurated",
        "inauguration",
        "investiture",
        "became",
        "become",
        "assumed",
        "appointed",
        "began",
        "begun",
        "begin",
        "started",
        "start",
        "starting",
        "joined",
        "join",
        "rejoined",  # another spell's start: "rejoined X in 1994" (held to that spell's data like any start)
        "rejoin",
        "rejoining",
        "rejoins",
        "signed",
        "entered",
        "acceded",
        "beginning",
        "married",
        "marry",
        "marrying",
        "wed",
        "debut",
        "debuted",
        "moved",
        "transferred",
        "named",
        "nominated",
        "commenced",
        "took_over",
        "came_to_power",
        "became_a_member",
        "joining",
        "signing",
        "commissioned",
        "returned",
        "m_",
        "nomination",
        "included",
        "incorporated",
        "kicked_off",
        "got_going",
        "got_under_way",
        "got_underway",
        "got_started",
        "dates_from",
        "dating_from",
        "came_to",
        "took_his_seat",
        "took_her_seat",
        "took_their_seat",
        "took_a_seat",
        "arrived",
        "arriving",  # "left X in 2012, after arriving there in 2010": the stay's start
        "broke_through",
        "bought",
        "purchased",
        "acquired",
        "acquire",
        "acquiring",
        "twinned",  # "X was twinned with Y in D": the partnership's start
        "came_under",
        "fell_under",
        "passed_to",
        "handed_over_to",
        "passed_from",
        "stepped_up",
        "stepping_up",
        "steps_up",
        "called_up",
        "switched_to",
        "switching_to",
        "defected_to",
        "defecting_to",
        "crossed_over_to",
        "went_over_to",  # "went over to the Nationalists in 1917": the side joined, as "switched to"
        "first_cap",  # "won his first England cap in 1999": the side's start, as a first call-up
        "calls_up",
        "call_up",
        "call_ups",
        "enrolled",  # a study's start: "enrolled at X in 1931"
        "enroled",
        "enrolling",
        "matriculated",
        # the historic present of timelines ("1922: Orenburg joins the USSR")
        "joins",
        "becomes",
        "marries",
        "signs",
        "starts",
        "begins",
        *_FOREIGN_START,
        *_VERB_FINAL_START,
    ]
)
_END: Final = frozenset(
    [
        "left",
        "leave",
        "leaving",
        "resigned",
        "resign",
        "resignation",
        "stepped",
        "ended",
        "ends",
        "end",
        "removed",
        "deposed",
        "dismissed",
        "retired",
        "departed",
        "quit",
        "expired",
        "until",
        "till",
        "stayed_into",
        "stayed_to",
        "staying_to",
        "remained_to",
        "remaining_to",
        "stayed_on_to",
        "staying_on_to",
        "remained_on_to",
        "remaining_on_to",
        "stayed_there_to",
        "staying_there_to",
        "remained_there_to",
        "remaining_there_to",
        "remained_into",
        "stayed_on_into",
        "remained_on_into",
        "through",
        "ending",
        "finished",
        "lost",
        "ousted",
        "out_of_office",
        "divorced",
        "divorce",
        "divorcing",
        "separated",
        "abolished",
        "dissolved",
        "ceased",
        "split",
        "div_",
        "parted",
        "wrapped_up",
        "came_to_an_end",
        "drew_to_a_close",
        "was_over",
        "were_over",
        "concluded",
        "moved_on",
        "last_season",
        "final_season",
        "last_year",
        "final_year",
        "sold",
        "let_go",
        # "stopped owning it in 1994", "expelled from Odesa in 1889", "the marriage was annulled in 2003"
        "stopped",
        "stopping",
        "stops",
        "expelled",
        "annulled",
        "last_cap",
        "last_in",
        "final_in",
        "sell",
        "selling",
        "leaves",
        "resigns",
        "retires",
        "quits",
        "divorces",
        *_FOREIGN_END,
        *_VERB_FINAL_END,
    ]
)
# An end that is an event ("died in office on D", "was ousted on D", "the coup of D"): the end of a term or
# a marriage, the point of a death; it may cite an end but never contradicts one (a divorce may come first).
_DEATH: Final = frozenset(
    ["died", "dies", "death", "d_", "killed", "died_in_office", "death_in_office", "assassinated", "assassination",
     "overthrown", "toppled", "coup", "executed", "murdered"]
)  # fmt: skip
_EVENT: Final = frozenset(
    [
        "born",
        "b_",
        "won",
        "win",
        "wins",
        "received",
        "receive",
        "awarded",
        "award",
        "created",
        "create",
        "wrote",
        "written",
        "published",
        "released",
        "performed",
        "founded",
        "passed",
        "graduated",
        "took_place",
        "happened",
        "occurred",
        "birth",
    ]
)
_HAPPENED: Final = frozenset({"took_place", "happened", "occurred"})
_NONE: Final = frozenset({"during", "served", "serving", "in_office"})
# An election comes before the term it opens: it may cite a start (at a year), never contradicts one.
_ELECTED: Final = frozenset({"elected", "reelected", "nominated"})
_OTHER_TERM: Final = ("first served", "previously", "earlier", "first term", "having first", "former", "returned",
               "second term", "re-elected", "again", "throughout", "window", "cutoff", "cut-off",
               # "he served two terms, the second beginning in 2018"
               "the second beginning", "the second starting", "the second from", "the second one",
               # another instance of the fact's kind: "and later a second Tony, for a musical, in 1957"
               "a second ",
               # the question's window restated: "so his term covers 22–24 November 2024", "straddles D", "the whole
               # term sits between D1 and D2"
               "covers", "covered", "covering", "straddle", "sits between", "sits within", "lies between",
               "lie between", "lies within", "lie within", "falls between", "fall between", "falls within",
               "fall within", "overlapped", "overlaps", "overlapping")  # fmt: skip
# A field's key that says which end its date is: "from: D", "start: D", "to: D", "end: D"
_FIELD_KEY_RE: Final = re.compile(
    r"\s*(?:(?P<start>from|start|started|began|since)|(?P<end>to|until|end|ended))\s*:\s*", re.IGNORECASE
)
_PASSIVE_SUCCESSION: Final = re.compile(
    r"\b(?:succeeded\s+by|replaced\s+by|followed\s+by|handed\s+(?:(?:over|back)\s+)?(?:(?:the|his|her|their)\s+\w+\s+)?"
    r"(?:(?:over|back)\s+)?to|gave\s+way\s+to)\b",
    re.IGNORECASE,
)
_ACTIVE_SUCCESSION: Final = re.compile(
    r"\b(?:succeeded|succeeding|replaced|replacing|took\s+over\s+from)\b", re.IGNORECASE
)
_SUCCESSION_WORDS: Final = ("succeed", "replac", "followed", "handed", "gave", "took")
_PRONOUNS: Final = frozenset(
    {"he", "she", "his", "her", "him", "hers", "they", "their", "them", "it", "its", "couple", "marriage"}
)
_THING_PRONOUNS: Final = frozenset({"it", "its"})
_PLURAL: Final = frozenset({"they", "their", "couple", "marriage"})  # "the couple", "the marriage": a fact's pair
_OTHERS: Final = frozenset({"successor", "predecessor", "successors", "predecessors"})
_BOTH: Final = frozenset({"both"})
_PRONOUNS_OR_OTHERS: Final = _PRONOUNS | _OTHERS | _BOTH
# A sentence ends at . ! ? after two lower-case letters or digits or a closing bracket (not after
# "F.C.", "Jr.", "St.", "U.D."), at a semicolon, or at a line break.
# An arrow before words ("in 1922 → the year before is 1921") starts a step of its own; one between two dates
# joins a range ("15 March 2003 → 14 March 2013", read by the date reader). A year after a year's full stop starts
# one too ("abolished in 2004. 1973 falls in that period"), not one after an abbreviation ("div. 1970").
_SENTENCE: Final = re.compile(
    r"(?:(?<=[a-z0-9\u00df-\u00ff]{2}[.!?])|(?<=[)\]\"'][.!?]))\s+(?=[A-Z\"'])|(?<=\d{4}[.!?])\s+(?=\d{4}\b)|"
    r";\s*|\n+|\s*(?:→|=>)\s*(?=[^\W\d_])"
)
_MONTH_WORDS: Final = frozenset(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
     "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"]
)  # fmt: skip
_OTHER: Final = -1
OTHER: Final = _OTHER
"""The fact index of a reading stated for an entity none of the question's facts has (someone else's date)."""


@dataclass(frozen=True)
class FactRef:
    """One fact a question's time references are about.

    ``entities``: its labels; ``event``: one point in time (born, died, won); ``open_end``: its end is
    unknown (a start-only fact: "plays for ... from 1995"). ``starts`` / ``ends``: the data's times of the
    fact at each end (several where the same holder has several terms); a firm date stated for the fact at
    an end that equals none of them is wrong, whether or not a reference asks for that end. ``spells``: the
    data's ``(start, end)`` of each spell or term, where a stated range must not join two spells across a gap.
    """

    entities: tuple[str, ...]
    event: bool = False
    open_end: bool = False
    starts: tuple[TimePoint, ...] = ()
    ends: tuple[TimePoint, ...] = ()
    spells: tuple[tuple[TimePoint | None, TimePoint | None], ...] = ()


@dataclass(frozen=True, slots=True)
class Attribution:
    """One date of the text read as ``role`` (``start``/``end``/``point``/``none``) of facts ``facts``.

    ``firm`` is false where the reading may cite but must not contradict (a shared subject, a
    succession's inferred end). ``carried``: the clause has no cue of its own and kept the previous date's
    role ("married since 1946, so in 1978 she was his wife"): it is judged against a reference's end, never
    against the data's other ends. ``weak``: the date would be firm, but its binding to the fact rests on weak
    evidence (:func:`_weakly_bound`): a mismatch makes the verdict undecided, never wrong. ``held``: a cite-only
    end of a spell that a move out of it dates (:func:`_left_for`), checked against the data's end all the same
    (:func:`_other_end_of_range`). ``tied``: the words right before the date plainly state it as its fact's end or
    point (:func:`_tied`), so it is held to the data even where it only cites (:func:`_tied_off`).
    """

    value: TimePoint
    role: str
    facts: frozenset[int]
    firm: bool
    begin: int
    carried: bool = False
    weak: bool = False
    held: bool = False
    tied: bool = False


@dataclass(slots=True)
class _Pos:
    begin: int
    end: int
    facts: frozenset[int]  # fact indices; {_OTHER} for someone else; empty for a pronoun
    distinctive: bool
    pronoun: bool
    person: bool = True


_PHRASES: Final = re.compile(
    r"took\s+over|took\s+office|out\s+of\s+office|came\s+to\s+power|died\s+in\s+office|death\s+in\s+office|in\s+office|"
    r"became\s+a\s+member|took\s+place|"
    # colloquial starts and ends, as models write them ("kicked off in 1998", "wrapped up in 2014")
    r"kicked\s+off|got\s+going|got\s+under\s*way|got\s+started|dates\s+from|dating\s+from|"
    r"wrapped\s+up|came\s+to\s+an\s+end|drew\s+to\s+a\s+close|was\s+over|were\s+over|"
    # a move: "came to X" (after the longer "came to power/an end" above), "took his seat", "broke through"
    # (no "through" end); "moved on" leaves
    r"\bcame\s+to\b|\btook\s+(?:his|her|their|a)\s+(?:[\w-]+\s+)?seat\b|\bmoved\s+on\b|\bbroke\s+through\b|"
    # "having come through at X" (a youth academy): no "through" end, no cue at all
    r"\b(?:came|come|coming)\s+through\b|"
    # a territory's change of state: "came under Poland in 1919", "fell under X", "passed to X"
    r"\b(?:came|fell)\s+under\b|\bpassed\s+to\b|"
    # an owner or a club parting with what it held: "let it go in 2002", "let him go"
    r"\blet\s+(?:(?:it|him|her|them)\s+)?go\b|"
    # a handover names the new holder: "X handed over to Y on D" is Y's start (X's end: :func:`_succession`)
    r"\bhanded\s+over\s+to\b|"
    # "passed from Ottoman rule to X in 1878": the change to the new holder, as "passed to"
    r"\bpassed\s+from\b|"
    # a step to the next side or post ("stepped up to the U-18s"; "stepped" alone is "stepped down"), and a stay that
    # reached the date ("stayed into 1993": still there in 1993, its last year)
    r"\bstepped\s+up\b|\b(?:stayed|remained)\s+(?:on\s+)?into\b|"
    # the same with the side named between ("stayed with the U19s into 2012"): that stay's last year
    r"\b(?:stayed|remained)\s+(?:on\s+)?(?:with|at)\s+(?:the\s+)?[\w'’.-]+(?:\s+[\w'’.-]+){0,3}?\s+into\b|"
    # a stay's end said with "to" ("(staying to 1997)", "remained there to 1920"); "to" alone says nothing
    r"\b(?:stayed|staying|remained|remaining)\s+(?:on\s+|there\s+)?to\b|"
    # a switch names the side joined ("switched to the Republicans in 1986"): its start
    r"\b(?:switched|switching|defected|defecting|crossed\s+over|went\s+over)\s+to\b|"
    # a national side's first and last caps ("won his first England cap in 1999") or appearances: its start and end
    r"\b(?:first|last|final)\s+(?:[A-Z\w-]+\s+){0,2}?(?:cap|appearances?)\b|"
    # the last of a run, its noun left out after the first ("first cap 1994, last in 1995"): its end; not a place
    # ("finished last in 1995") nor one of several events ("three titles, the last in 2001")
    r"(?<!the\s)(?<!finished\s)(?<!came\s)(?<!placed\s)\b(?:last|final)\s+in\b(?=\s*$|\s+\d{4}\b)|"
    # the same step said as a participle or in the present ("before stepping up to the U-17s in 1992"), and a call-up
    # to a side, its start ("was called up to the France U-17 side in 2004", "won his first call-up in 2006")
    r"\b(?:stepping|steps)\s+up\b|\b(?:called|calls)\s+up\b|\bcall-ups?\b|"
    # a spell's last season or year named as such ("its last season in that category was 2004"): its end
    r"\b(?:last|final)\s+(?:season|year)\b|"
    # a state at the date, no change: "in 1959 she was still married to X"
    r"\b(?:still|already)\s+[a-z]+|"
    # a study's start in the British idiom: "went up to Oxford in 1911"
    r"\bwent\s+up\s+to\b|"
    # a study's close: "took his degree", "completed her doctorate" (read as "graduated")
    r"\btook\s+(?:his|her|their|a)\s+degree\b|"
    r"\b(?:completed|finished|earned|obtained|received)\s+(?:his|her|their|a)\s+(?:[\w-]+\s+)?(?:degree|doctorate|phd)\b"
)
_ABBREVIATED_RE: Final = re.compile(r"\b(m|div|b|d)\.(?=\s*(?:\d|c\.|$))")  # the date follows
# "the death of X" names X's death, not the date's owner's: no cue ("became king on the death of X on D")
_DEATH_OF_RE: Final = re.compile(r"\bdeath\s+of\b")
_WORD: Final = re.compile(r"[a-z_\u00df-\u024f\u0400-\u04ff]+")  # Latin and Cyrillic letters ("verließ", "покинул")
_SPACES_RE: Final = re.compile(r"\s+")
_LIST_GAP_RE: Final = re.compile(r"\s*(?:,|and|&|;)?\s*(?:and\s+)?")
_AND_GAP_RE: Final = re.compile(r"\s*(?:,|and|&)\s*")
# "in D, when B took office", "in D and joined B", "in 1953, the year she married C": a clause after the date it dates
_WHEN_RE: Final = re.compile(r"\s*,?\s*(?:when|as|after|and|the\s+(?:same\s+)?year(?:\s+(?:that|when|in\s+which))?)\s+")
_WHEN_BEFORE_RE: Final = re.compile(r"\bwhen\s+(?:the\s+)?$", re.IGNORECASE)
_AS_OF_RE: Final = re.compile(r"\bas\s+of\s*$")
# "by 2007 he had moved on": a bound the change came before, not its date
_BY_RE: Final = re.compile(r"\bby\s*$", re.IGNORECASE)
# "1984 − 1959 = 25": years in a sum are arithmetic, no date stated for a fact
# "1922 − 3 = 1919", "minus 3 = 1919": a year computed from another, the question's arithmetic, no fact's date
_COMPUTED_RE: Final = re.compile(r"(?:[−–+-]|\bminus|\bplus)\s*\d{1,3}\s*=\s*$", re.IGNORECASE)
# A year of another calendar given beside the Gregorian one ("1394 in the Iranian calendar"): no fact's date
_CALENDAR_RE: Final = re.compile(r"\s+(?:in|of)\s+the\s+(?:[A-Z][\w-]*\s+){1,2}calendar\b")
_COUNTED_RE: Final = re.compile(
    r"\b(?:later|earlier|before|after|afterwards|(?:following|next|previous|prior|preceding)\s+(?:year|month|day))"
    r"\s+(?:is|was|would\s+be|gives|makes)\s+$",
    re.IGNORECASE,
)
_SUM_RE: Final = re.compile(r"(?<!\d)\d{4}\s*[−–-]\s*\d{4}\s*=\s*\d")
# "1994 ≠ 2001", "2001 > 1994": two years compared are the reply's reasoning, no date stated for a fact
_COMPARED_RE: Final = re.compile(r"(?<!\d)\d{4}\s*(?:≠|!=|=|<|>|≤|≥|<=|>=)\s*\d{4}(?!\d)")


_SEAT_RE: Final = re.compile(r"took\s+(?:his|her|their|a)\s+(?:[\w-]+\s+)?seat")
# a study's close said in other words than "graduated": "took his degree", "completed her doctorate there"
_DEGREE_RE: Final = re.compile(
    r"graduated|took\s+(?:his|her|their|a)\s+degree|"
    r"(?:completed|finished|earned|obtained|received)\s+(?:his|her|their|a)\s+(?:[\w-]+\s+)?(?:degree|doctorate|phd)"
)


def _phrase_word(m: re.Match[str]) -> str:
    """A phrase of :data:`_PHRASES` as one word: "took_office"; "took his Senate seat" is "took_a_seat"."""
    if _SEAT_RE.fullmatch(m.group(0)):
        return "took_a_seat".ljust(len(m.group(0)))
    if _DEGREE_RE.fullmatch(m.group(0)):
        return "graduated".ljust(len(m.group(0)))
    if m.group(0).startswith("let"):  # "let it go", "let him go": one end cue
        return "let_go".ljust(len(m.group(0)))
    if m.group(0).endswith("into") and m.group(0).startswith(("stayed", "remained")):  # a side named between
        return "stayed_into".ljust(len(m.group(0)))
    if m.group(0).endswith(("cap", "appearance", "appearances")):  # "first England cap": one cue word, wherever the
        # side's name sits; "last appearances for X" is its end the same way
        return ("first_cap" if m.group(0).startswith("first") else "last_cap").ljust(len(m.group(0)))
    return _SPACES_RE.sub("_", m.group(0)).replace("-", "_")  # "call-up" is one word


@lru_cache(maxsize=1 << 16)
def _role_words(text: str) -> tuple[tuple[int, str], ...]:
    """(offset, role) of every cue word in ``text`` (cached: the same clauses recur)."""
    low = _PHRASES.sub(_phrase_word, text.lower())
    low = _DEATH_OF_RE.sub(lambda m: " " * len(m.group(0)), low)
    low = _ABBREVIATED_RE.sub(lambda m: m.group(1) + "_", low)  # "(m. 1952; div. 1959)", "(b. 1902)"
    out: list[tuple[int, str]] = []
    prev_end = -1
    for m in _WORD.finditer(low):
        w = m.group(0)
        if w in _HAPPENED and out and out[-1][1] in ("start", "end") and not low[prev_end : m.start()].strip():
            continue  # "his inauguration took place on D": the change happened, the noun before says which
        n_before = len(out)
        if w.startswith(("still_", "already_")):
            out.append((m.start(), "none"))
        elif w in _START:
            out.append((m.start(), "start"))
        elif w in _END:
            out.append((m.start(), "end"))
        elif w in _EVENT:
            out.append((m.start(), "point"))
        elif w in _DEATH:
            out.append((m.start(), "death"))
        elif w in _ELECTED:
            out.append((m.start(), "elected"))
        elif w in _NONE:
            out.append((m.start(), "none"))
        if len(out) > n_before:
            prev_end = m.end()
    return tuple(out)


def _sentences(text: str, names: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """Sentence spans; never a break inside a name ("Aiiieeeee! An Anthology ...")."""
    last = len(text) - 1
    if (
        ";" not in text
        and "\n" not in text
        and text.find(".", 0, last) < 0
        and text.find("!", 0, last) < 0
        and text.find("?", 0, last) < 0
        and "→" not in text
        and "=>" not in text
    ):  # a quick accept: every break needs one of these before the last character
        return [(0, len(text))]
    out = []
    pos = 0
    for m in _SENTENCE.finditer(text):
        if any(b < m.start() < e for b, e in names):
            continue
        out.append((pos, m.start()))
        pos = m.end()
    out.append((pos, len(text)))
    return out


def _positions(
    text: str,
    toks: Sequence[Token],
    mentions: Sequence[NameMention],
    owner_of: Mapping[str, frozenset[int]],
    starts: Sequence[int],
    n_facts: int = 1,
) -> list[_Pos]:
    out: list[_Pos] = []
    for m in mentions:
        facts: set[int] = set()
        for k in m.keys:
            facts |= owner_of.get(k, frozenset({_OTHER}))
        if len(facts) > 1 and _OTHER in facts:
            facts.discard(_OTHER)
        person = False
        for k in m.keys:
            if person_like(k):
                person = True
                break
        out.append(_Pos(m.begin, m.end, frozenset(facts), len(facts) == 1, False, person))
    taken = {(p.begin, p.end) for p in out}
    for t in toks:
        if t.key not in _PRONOUNS_OR_OTHERS or (t.begin, t.end) in taken:
            continue
        if t.key in _PRONOUNS:
            out.append(_Pos(t.begin, t.end, frozenset(), True, True))
        elif t.key in _BOTH:  # "both (of them)": every fact of the question, cite only
            out.append(_Pos(t.begin, t.end, frozenset(range(n_facts)), n_facts == 1, False))
        elif t.key in _OTHERS:
            out.append(_Pos(t.begin, t.end, frozenset({_OTHER}), True, False))
    out.sort(key=lambda p: p.begin)
    return _resolve_pronouns(text, out, starts)


# A person named as the object of a succession, a death or a kin noun ("after succeeding Obasanjo", "after the death of
# his first wife Ruth Gordon"), or a move's source ("moved from Amsterdam to Utrecht"): no antecedent of a later "he" or
# "his" ("until his death in 1999" is the subject's)
_OBLIQUE_RE: Final = re.compile(
    r"\b(?:succeeding|replacing|death\s+of|(?:wife|husband|spouse|predecessor|successor)\s*,?|"
    r"(?:moved|came|transferred|switched|went|returned)\s+(?:back\s+|over\s+)?from)\s+$",
    re.IGNORECASE,
)


# A person named alone in a comma-set "after" or "before" ("took office on D, after Obasanjo, and his term ..."): the
# predecessor or successor the clause places its subject by, no antecedent of a later "he" or "his"
_PLACED_BY_RE: Final = re.compile(r",\s*(?:after|before|following)\s+$", re.IGNORECASE)
_PLACED_BY_END_RE: Final = re.compile(r"\s*,")


def _oblique(text: str, p: _Pos) -> bool:
    """Whether the person at ``p`` is named obliquely (:data:`_OBLIQUE_RE`, :data:`_PLACED_BY_RE`): no antecedent."""
    if _OBLIQUE_RE.search(text, max(0, p.begin - 40), p.begin):
        return True
    return bool(_PLACED_BY_RE.search(text, max(0, p.begin - 20), p.begin) and _PLACED_BY_END_RE.match(text, p.end))


def _resolve_pronouns(text: str, out: Sequence[_Pos], starts: Sequence[int]) -> list[_Pos]:
    """Each pronoun as the entity it stands for (see :func:`attribute`); "it" with no thing named is dropped."""
    last: frozenset[int] = frozenset({0})  # before anything is named, a pronoun is the answer
    last_fact: frozenset[int] = last  # they, their: the last person of the question's facts (a couple)
    last_thing: frozenset[int] = frozenset()
    before_sentence = last
    resolved = []
    sentence = -1
    for p in out:
        while sentence + 1 < len(starts) and starts[sentence + 1] <= p.begin:
            sentence += 1
            before_sentence = last
        if p.pronoun:
            # he, she: the person named last; they, their: the last person of a fact; him, them: not the
            # subject of their own sentence; it, its: the thing named last
            word = text[p.begin : p.end].lower()
            if word in _THING_PRONOUNS:
                ref = last_thing
            elif word in ("him", "them"):
                ref = before_sentence
            else:
                ref = last_fact if word in _PLURAL else last
            if ref:
                resolved.append(_Pos(p.begin, p.end, ref, len(ref) == 1, True))
        else:
            resolved.append(p)
            if p.facts and p.person and not (p.facts == {_OTHER} and _oblique(text, p)):
                last = p.facts
                if _OTHER not in p.facts:
                    last_fact = p.facts
            elif p.facts:
                last_thing = p.facts
    return resolved


def _pick(cands: Sequence[_Pos]) -> _Pos | None:
    """The nearest distinctive position, else the nearest shared one."""
    for p in cands:
        if p.distinctive:
            return p
    return cands[0] if cands else None


def _stated_dates(text: str, dates: Sequence[TimeMention] | None) -> list[TimeMention]:
    """The dates ``text`` states: relative ones resolved, counts and sums apart, year pairs read as one range."""
    found = with_relative(text, list(extract_times(text) if dates is None else dates))
    found = _without_sums(text, _counts_not_ranges(text, found))
    return _year_pairs(text, [d for d in found if not _CALENDAR_RE.match(text, d.end)])  # "(1394 in the ...)"


def attribute(
    text: str,
    facts: Sequence[FactRef],
    others: NameIndex | Iterable[str] | None = None,
    dates: Sequence[TimeMention] | None = None,
    known_words: Iterable[str] = (),
) -> list[Attribution]:
    """Every date of ``text`` with the facts and the end it is stated for (see the module docstring).

    ``facts[0]``: the fact a pronoun refers to when nothing was named before it (the answer's). ``others``: the
    other entities the release knows (a :class:`NameIndex` or labels). ``dates``: ``extract_times(text)`` where the
    caller has read it already. ``known_words``: words that name no entity here ("President", "Prime Minister").
    """
    if not text:
        return []
    sentences, positions = _named(text, facts, others, known_words)
    out: list[Attribution] = []
    all_dates = _stated_dates(text, dates)
    if not positions and len(all_dates) == 1:
        # A terse explanation that names nobody and states one time ("in 2000", "from 1994 to 1998")
        # is about the answer; it may cite, never contradict. A list of dates stays unattributed.
        d = all_dates[0]
        role, other_term, _ = _role(d, text[: d.begin], text[d.end :], "none")
        return [] if other_term else _readings(d, role, frozenset({0}), False, d.begin)
    named_spans = [(p.begin, p.end) for p in positions if not p.pronoun and not text[p.begin : p.end].isdigit()]
    # cue words are read with the names blanked out ("Preston North End F.C." says nothing about an end)
    masked = "".join(" " if any(b <= i < e for b, e in named_spans) else c for i, c in enumerate(text))
    all_dates = [d for d in all_dates if not any(b <= d.begin < e for b, e in named_spans)]  # "(born 1972)"
    derived = _derived(text, all_dates)  # computed or restated dates: cite, never contradict
    asides = _asides(text)
    unknown_all = _unknown_names(masked, sentences, all_dates, known_words)
    shared: list[tuple[int, int, int, int]] = []  # (first, last + 1) reading of a shared subject's date, its sentence
    for s_begin, s_end in sentences:
        dates = [m for m in all_dates if s_begin <= m.begin < s_end]
        listed = _listed(text, dates)
        prev_owner, colon = _field_line(text, s_begin, s_end, positions)  # "Married: 1959"
        dates = [m for m in dates if m.begin >= colon]  # "Status in 1970: married": an as-of date in a key
        prev_role, prev_end, firm_at, weak = "none", s_begin, -1, False
        for di, d in enumerate(dates):
            d_begin, d_end = d.begin, d.end
            nxt = dates[di + 1].begin if di + 1 < len(dates) else max(s_end, d_end)
            before = _outside_asides([p for p in positions if prev_end <= p.begin <= p.end <= d_begin], asides, d_begin)
            after = [p for p in positions if d_end <= p.begin and p.end <= nxt]
            span_before, span_after = masked[prev_end:d_begin], masked[d_end:nxt]
            unknown = _unknown_for(unknown_all, asides, d_begin)
            owner = _owner(masked, before, after, prev_owner, span_before, d, _subject(masked, positions, s_begin))
            owner = _team_of_country(text, owner, before, facts) if owner is not None else None
            if owner is None or di in listed:
                prev_end, firm_at = d_end, -1
                continue  # nobody named, or a bare list of dates: attributes nothing
            role, other_term, carried = _role(d, span_before, _own_after(span_after, di + 1 < len(dates)), prev_role)
            carried = carried and not _gapped(masked, (prev_end, d_begin), owner, prev_owner)
            own_cue = d.kind != "point" or bool(_role_words(span_before))  # not a cue of the clause after it
            # another term of the fact ("first term", "returned"): its dates cite, never contradict
            cite_only = other_term and _NOT_THE_FACT_RE.search(span_before) is None
            other_term = other_term and not cite_only
            if d.kind == "point" and owner in before:
                role = _move_role(masked, owner, prev_end) or role
            facts_of = frozenset() if other_term else owner.facts - {_OTHER}
            firm = not cite_only and d_begin not in derived
            firm = firm and not _aside_of_another(text, asides, positions, owner, d_begin, before)
            firm = firm and not _unknown_near(
                unknown, owner, (prev_end, d_begin, d_end, nxt), masked, before, own_cue, firm_at
            )
            facts_of = owner.facts if owner.facts == {_OTHER} and not other_term else facts_of  # someone else's: kept
            if firm and not owner.distinctive and len(facts_of) > 1:  # a shared subject's: firm once pinned
                shared.append((len(out), len(out) + len(_readings(d, role, facts_of, False, d_begin)), s_begin, s_end))
            weak = firm and _weakly_bound(text, masked, d, owner, (before, after, unknown, prev_owner, prev_end, weak))
            out.extend(_readings(d, role, facts_of, firm and owner.distinctive and not weak, d_begin, carried, weak))
            if not other_term and d.kind == "point":
                out.extend(_clause_cites(masked, d, owner, before, prev_end))
            out.extend(_succession(text, d, d_begin, before, positions, (s_begin, prev_end)))
            out.extend(_left_for(masked, d, owner, before, prev_owner, prev_end, positions))
            if not other_term:
                for also_facts, also_role in _also(text, owner, before, after, (span_after, d_end)):
                    out.extend(_readings(d, also_role or role, also_facts, False, d_begin))
            prev_owner, prev_role, prev_end, firm_at = owner, role, d_end, (owner.begin if firm else -1)
    out = _resumed_ranges(text, out + _counted_stays(text, out, all_dates, facts), all_dates)
    return _finished(text, out, shared, facts, positions, all_dates)


def _finished(
    text: str,
    out: list[Attribution],
    shared: Sequence[tuple[int, int, int, int]],
    facts: Sequence[FactRef],
    positions: Sequence[_Pos],
    dates: Sequence[TimeMention],
) -> list[Attribution]:
    """:func:`attribute`'s last passes over every reading.

    A pair's deaths, pinned shared subjects, hedges and refinements, dates given to their own names
    (:func:`_own_names`), then plainly tied ends (:func:`_tied`).
    """
    out = _settled(text, _pinned(out + _deaths_of_a_pair(out, facts), shared, facts), dates)
    return _tied(text, _own_names(text, out, facts, positions, dates), facts)


def _settled(text: str, readings: list[Attribution], dates: Sequence[TimeMention]) -> list[Attribution]:
    """``readings`` with hedged dates read as such (:func:`_unhedged`), then refined dates (:func:`_refined`)."""
    return _refined(text, _unhedged(text, readings, dates), dates)


def _pinned(
    out: list[Attribution], shared: Sequence[tuple[int, int, int, int]], facts: Sequence[FactRef]
) -> list[Attribution]:
    """``out`` with a shared subject's dates made firm for one fact where their sentence pins that fact.

    A subject several facts share ("he") leaves its dates to any of them, citing only. Where one of those dates,
    stated at its own end, is that end's time in the data of exactly one of the facts, and no date of the sentence
    is another one's only, the sentence is about that fact: "he was still in the party, which he had joined in 1965
    and left in 1975" (joined 1965: the party's start, not the university's 1969) makes 1975 the party's end, held to
    its data like a named fact's date. So does a later move of the sentence to one of two facts: "played from 1998 to
    2000, then moved to Y in 2000" makes the range the other fact's (:func:`_moved_on`).
    """
    by_sentence: dict[tuple[int, int], list[int]] = {}
    for first, last, s_begin, s_end in shared:
        by_sentence.setdefault((s_begin, s_end), []).extend(range(first, last))
    for (_, s_end), rows in by_sentence.items():
        pins = {fi for i in rows for fi in [_only_fact(out[i], facts)] if fi is not None}
        pins = pins or _moved_on(out, rows, s_end)
        if len(pins) == 1 and len({out[i].facts for i in rows}) == 1:
            (fi,) = pins
            for i in rows:
                out[i] = Attribution(out[i].value, out[i].role, frozenset({fi}), True, out[i].begin, out[i].carried)
    return out


# "became a GM in 2009 and IM in 2008": the verb before the first date left out before the second (gapping)
_GAPPED_RE: Final = re.compile(r"\s*(?:,\s*)?(?:and\s+|,\s*)(?:an?\s+|the\s+|then\s+)?\s*(?:in|on)\s*", re.IGNORECASE)


def _gapped(masked: str, gap: tuple[int, int], owner: _Pos, prev_owner: _Pos | None) -> bool:
    """Whether a date with no cue of its own shares the verb of the date before it, said of another fact.

    "X became a GM in 2009 and IM in 2008": 2008 is the IM title's start as firmly as 2009 is the GM's (not a state
    restated at a later date, "married since 1946, so in 1978 she was his wife", whose role is only carried over).
    ``gap``: from the end of the date before to this date; the other fact is named there and nothing else but
    "and ... in" is ("and in 1999 he was playing for X" has a verb of its own).
    """
    if prev_owner is None or not owner.facts or owner.facts == prev_owner.facts or owner.pronoun:
        return False
    if not gap[0] <= owner.begin < owner.end <= gap[1]:
        return False
    return _GAPPED_RE.fullmatch(masked, gap[0], gap[1]) is not None


def _moved_on(out: Sequence[Attribution], rows: Sequence[int], s_end: int) -> set[int]:
    """The one other fact of two a shared subject's dates may be, where the sentence later firmly starts the first.

    "He played from 1998 to 2000, then moved to FC Haka in 2000": the move starts FC Haka's spell, so the range
    before it is the other fact's (the spell he left).
    """
    sets = {out[i].facts for i in rows}
    facts_of = next(iter(sets)) if len(sets) == 1 else frozenset()
    if len(facts_of) != 2:
        return set()
    last = max(out[i].begin for i in rows)
    later = {
        fi
        for r in out
        if last < r.begin < s_end and r.firm and r.role == "start" and len(r.facts) == 1
        for fi in r.facts & facts_of
    }
    return set(facts_of - later) if len(later) == 1 else set()


def _only_fact(r: Attribution, facts: Sequence[FactRef]) -> int | None:
    """The one fact of ``r`` whose data has ``r``'s time at ``r``'s own end (``None``: none or several)."""
    if r.carried or r.role not in ("start", "end"):
        return None
    hits = [
        fi
        for fi in r.facts
        if 0 <= fi < len(facts) and any(_same(r.value, v, r.value.granularity) for v in _known_at(facts[fi], r.role))
    ]
    return hits[0] if len(hits) == 1 else None


# the office word after the place, past an ordinal ("Malaysia's 10th Prime Minister")
_OFFICE_AFTER_RE: Final = re.compile(r"(?:['’]s?)?\s+(?:the\s+)?(?:\d+(?:st|nd|rd|th)\s+)?([^\W\d_][\w-]*)")
_OFFICE_INSIDE_RE: Final = re.compile(r"\w['’]s?\s+[^\W\d_]|\s(?:of|for)\s")
_OFFICE_BEFORE_RE: Final = re.compile(r"([^\W\d_][\w-]*)\s+(?:of|for)\s+(?:the\s+)?$")


def _named(
    text: str, facts: Sequence[FactRef], others: NameIndex | Iterable[str] | None, known_words: Iterable[str]
) -> tuple[list[tuple[int, int]], list[_Pos]]:
    """The sentences of ``text`` and the positions of the entities and pronouns it names."""
    toks = tokens(text)
    base = others if others is None or isinstance(others, NameIndex) else _labels_index(tuple(others))
    heads = _head_words(facts, toks, text, base)
    index, owners = _fact_index(tuple(facts), base, heads)
    known = _known_keys(known_words)
    found = [m for m in index.find(text, toks) if not _head_word_of_another(text, toks, m, heads)]
    mentions = [
        m
        for m in found
        if not _qualifies_office(text, m, owners, known)
        and not _question_noun(text, m, owners, known)
        and not _office_of_fact(text, m, found, owners)
    ]
    mentions = [h for m in mentions for h in [_head_of_fact(text, m, owners)] if not _bare_title(text, h, owners)]
    mentions = [
        _youth_team(text, _without_article(text, m, owners), owners) for m in mentions if not _column_key(text, m)
    ]
    mentions += _bare_ages(text, mentions, owners)
    sentences = _sentences(text, [(m.begin, m.end) for m in mentions])
    return sentences, _positions(text, toks, mentions, owners, [b for b, _ in sentences], len(facts))


_KEY_END_RE: Final = re.compile(r"[ \t]*:")


def _column_key(text: str, m: NameMention) -> bool:
    """Whether ``m`` is the whole lower-case key of a "key: value" line: a column's or a field's name, no entity.

    :func:`tables_as_fields` writes a table's headers so ("years: 2000–2006"; "Years" is also a film); a model writes
    an entity's own key capitalised ("Ellen Barkin: 2000–2006").
    """
    if not text[m.begin : m.begin + 1].islower() or _KEY_END_RE.match(text, m.end) is None:
        return False
    line_start = text.rfind("\n", 0, m.begin) + 1
    return not text[line_start : m.begin].strip(" \t>*#-")


def _without_article(text: str, m: NameMention, owners: Mapping[str, frozenset[int]]) -> NameMention:
    """``m`` as a fact's entity where a lower-case "the" made it another's ("the Grandmaster title": no film)."""
    named = text[m.begin : m.end]
    if not named.startswith("the ") or any(k in owners for k in m.keys):
        return m
    rest = named[4:].strip().casefold()
    own = [e for e in owners if e.casefold() == rest]
    return m._replace(keys=frozenset(own), begin=m.end - len(named[4:].strip())) if len(own) == 1 else m


# A country's age-group side written after the country: "Paraguay's U-20s", "England U-18", "Spain's under-16 side"
_YOUTH_AFTER_RE: Final = re.compile(r"(?:['’]s)?\s+(?:u-?|under-?\s?)(\d{2})s?\b", re.IGNORECASE)
_POSSESSIVE_RE: Final = re.compile(r"['’]s$")


def _youth_team(text: str, m: NameMention, owners: Mapping[str, frozenset[int]]) -> NameMention:
    """``m`` as a fact's national age-group team where the text names the team by its country and age.

    "Paraguay's U-20s" names the fact's "Paraguay national under-20 football team", not the country: the mention
    grows over the age so that no part of it reads as a name the release does not know.
    """
    if any(k in owners for k in m.keys):
        return m
    after = _YOUTH_AFTER_RE.match(text, m.end)
    if after is None:
        return m
    country = _POSSESSIVE_RE.sub("", text[m.begin : m.end]).casefold() + " "
    age = re.compile(rf"\bunder-{after.group(1)}\b")
    teams = [e for e in owners if e.casefold().startswith(country) and age.search(e.casefold())]
    return m._replace(keys=frozenset(teams), end=after.end()) if len(teams) == 1 else m


_AGE_RE: Final = re.compile(r"\b(?:U-?|[Uu]nder-)(\d{2})s?\b")


def _bare_ages(text: str, mentions: Sequence[NameMention], owners: Mapping[str, frozenset[int]]) -> list[NameMention]:
    """Mentions of the one age-group team of the question's facts named by its age alone ("capped at U-21 level")."""
    out = []
    for m in _AGE_RE.finditer(text):
        if any(n.begin <= m.start() < n.end for n in mentions):
            continue
        age = re.compile(rf"\bunder-{m.group(1)}\b")
        teams = [e for e in owners if age.search(e.casefold())]
        if len(teams) == 1:
            out.append(NameMention(frozenset(teams), 0, 0, m.start(), m.end(), False))
    return out


def _bare_title(text: str, m: NameMention, owners: Mapping[str, frozenset[int]]) -> bool:
    """Whether ``m`` is an office's title alone ("became Prime Minister in 1950"): it says what, never whose."""
    return not any(k in owners for k in m.keys) and all(t.key in _TITLE_WORDS for t in tokens(text[m.begin : m.end]))


def _known_keys(words: Iterable[str]) -> frozenset[str]:
    """The token keys of the question's words, with singulars ("Prime Ministers" of a list question)."""
    keys = {t.key for w in words for t in tokens(w)}
    return frozenset(keys | {k[:-1] for k in keys if len(k) > 3 and k.endswith("s")})


def _qualifies_office(text: str, m: NameMention, owners: Mapping[str, frozenset[int]], known: frozenset[str]) -> bool:
    """Whether ``m`` names the question's own place or body as part of the office it asks about.

    "Pakistan's Prime Minister", "Malaysia's 10th Prime Minister", "President of Brazil": the country the question
    names (every word of it is a word of the question) qualifies the office, it owns no date. A fact's own entity, a
    name the question does not hold ("Sharif's premiership") or one that qualifies no word of the question still owns
    its dates.
    """
    if any(k in owners or person_like(k) for k in m.keys):
        return False
    named = text[m.begin : m.end]
    if not all(t.key in known for t in tokens(named)):
        return False
    if _OFFICE_INSIDE_RE.search(named):  # the corpus's office entity itself: "Pakistan's Prime Minister"
        return True
    after = _OFFICE_AFTER_RE.match(text, m.end)
    before = _OFFICE_BEFORE_RE.search(text, max(0, m.begin - 40), m.begin)
    return any(
        w is not None and w.group(1)[:1].isupper() and all(t.key in known for t in tokens(w.group(1)))
        for w in (after, before)
    )


def _question_noun(text: str, m: NameMention, owners: Mapping[str, frozenset[int]], known: frozenset[str]) -> bool:
    """Whether ``m`` is a common noun of the question written in lower case, not an entity the corpus labels so.

    "He was a member from 2000", the question asking when he ceased to be a "member".
    """
    named = text[m.begin : m.end]
    if not named.islower() or any(k in owners for k in m.keys):
        return False
    return all(t.key in known for t in tokens(named))


def _head_of_fact(text: str, m: NameMention, owners: Mapping[str, frozenset[int]]) -> NameMention:
    """``m`` as the fact's own entity where another entity's name is the first word(s) of one fact label only.

    "joined Bolton in 1998" for the fact's "Bolton Wanderers F.C.", "signed for the Chicago Fire" for "Chicago
    Fire Soccer Club": the release's town of that name is not what an explanation of the fact dates.
    """
    if any(k in owners for k in m.keys):
        return m
    head = text[m.begin : m.end].lower() + " "
    labels = [label for label in owners if label.lower().startswith(head)]
    return m._replace(keys=frozenset(labels)) if len(labels) == 1 else m


_OF_RE: Final = re.compile(r"\s+of\s+(?:the\s+)?")


def _office_of_fact(
    text: str, m: NameMention, found: Sequence[NameMention], owners: Mapping[str, frozenset[int]]
) -> bool:
    """Whether ``m`` (another entity) is an office the fact's own entity holds or the head of a fact's own label.

    "Toucas was mayor of Puget-Ville from 1952": an office in lower case before "of" and a name of the fact
    qualifies that fact, it owns no date. "Healey was a Member of the 52nd Parliament from 1997" for the fact's
    "Member of the 52nd Parliament of the United Kingdom": the label's words up to one of its "of"s name it.
    """
    if any(k in owners for k in m.keys):
        return False
    of = _OF_RE.match(text, m.end)
    if of is None:
        return False
    if text[m.begin : m.end].islower() and any(n.begin == of.end() and n.keys & owners.keys() for n in found):
        return True
    low = text[m.begin :].lower()
    for label in owners:
        parts = label.lower().split(" of ")
        for k in range(2, len(parts)):
            head = " of ".join(parts[:k])
            if low.startswith(head) and not low[len(head) : len(head) + 1].isalnum():
                return True
    return False


_ASIDE_RE: Final = re.compile(
    r"\([^()\n]*\)|,\s*(?:who|which|where|whose|when|like|succeeding|replacing)\b[^,;.()\n]*,"
)
_NOT_THE_FACT_RE: Final = re.compile(r"\bas\s+of\b|throughout|window|cut-?off|\bcover(?:s|ed|ing)\b", re.IGNORECASE)
_AND_RE: Final = re.compile(r"\band\b")


_SPELL_AT_RE: Final = re.compile(
    r"\s+(?:on\s+)?(?:spell|stint|season|loan)s?\s+(?:at|with|to)\s+(?:the\s+)?", re.IGNORECASE
)


# the noun of a stay after the name that owns it ("his 2008–2011 Watford spell", "the 2001–07 Auxerre years")
_SPELL_NOUN_RE: Final = re.compile(r"\s*(?:spell|stint|tenure|years|career)s?\b", re.IGNORECASE)


def _named_spell(masked: str, d: TimeMention, name: _Pos) -> bool:
    """Whether ``d`` qualifies a stay named right after it: "DATE NAME spell" (nothing else between)."""
    return not masked[d.end : name.begin].strip() and _SPELL_NOUN_RE.match(masked, name.end) is not None


def _owner(
    masked: str,
    before: list[_Pos],
    after: list[_Pos],
    prev_owner: _Pos | None,
    span_before: str,
    d: TimeMention,
    subject: _Pos | None = None,
) -> _Pos | None:
    """Whose date ``d`` is.

    The nearest name before it (a move's source last); else the previous date's owner
    when the clause's verb precedes the date ("... and resigned on D, when B took office"); else the next
    name ("in D he was ..."). "A divorced B and in 1935 married C": a new clause whose verb and name follow.
    A predicate joined by "and" with no subject of its own, or "it" standing for another's thing, is the sentence's
    ``subject``'s (:func:`_bound_to_subject`).
    """
    # "from 1928 — when the old X was abolished — until 1933": the when-clause glosses the date before it, its names
    # own neither date
    glosses = [m.span() for m in _DASH_WHEN_RE.finditer(masked, max(0, d.begin - len(span_before)), d.begin)]
    before = [p for p in before if not _inside(p.begin, glosses)]
    place = _where_stayed(masked, before, d.begin)
    if place is not None:
        return _pair(place, before)
    if after and _lead_event(span_before, masked[d.end : d.end + 3], before):
        return _pick(_object_first(masked, after)) or after[0]  # "After the Treaty of X in 1871, A was in B"
    if prev_owner is not None and _RESUMED_RANGE_RE.fullmatch(span_before):
        return prev_owner  # "from D1, succeeding X, to D2": the range goes on past the phrase put in it
    # "from 1932 until he fled Germany in 1933": an event with no cue of its own ends the previous date's stay, whoever
    # else its clause names ("until X took over on D", "until his death on D" keep their own reading)
    if prev_owner is not None and _until_event(span_before, before, d.begin):
        return prev_owner
    spell = _SPELL_AT_RE.match(masked, d.end)  # "a 2008 spell at X", "2012–13 on loan at X": X's, whoever had it
    if spell is not None and after and not masked[min(spell.end(), after[0].begin) : after[0].begin].strip():
        return _pair(after[0], before)
    if after and _named_spell(masked, d, after[0]):  # "his 2008–2011 Watford spell": Watford's
        return _pair(after[0], before)
    # "and stayed until D", "and again in D": the same subject
    cue_before = bool(_role_words(span_before)) or d.kind == "until" or _AGAIN_RE.search(span_before) is not None
    cands = _antecedent_first(masked, _not_a_source(masked, _without_possessors(masked, before, d.begin)), d.begin)
    if prev_owner is not None and cands and _sources_only(masked, cands, d):
        cands = []  # "joined X in 2002 from Y and stayed until 2004": Y is the earlier move's source, not the owner
    # "left X in 1994 after two seasons (1992–94) and joined Y": a bracketed date with no name before it glosses
    # the previous date's clause
    bracketed = not cands and masked[max(0, d.begin - 2) : d.begin].strip() == "("
    owner = _pick(cands) or (prev_owner if cue_before or bracketed else None)
    owner = _bound_to_subject(masked, owner, subject, before, d.begin - len(span_before), d.begin)
    owner = owner or _pick(_object_first(masked, _named_over_it(masked, after))) or prev_owner
    new_clause = owner is not None and owner in before and _new_clause(masked, owner, before, d.begin)
    if owner is not None and new_clause and _cue_next(masked, d.end, after):
        return _pick(after) or owner
    if owner is None:
        return None
    # "Florence Harding's husband, Warren G. Harding, entered the Senate in D": the possessor narrows no fact
    return _pair(owner, [p for p in before if p.end > owner.begin or not _KIN_RE.fullmatch(masked, p.end, owner.begin)])


# ", succeeding X, to D": a range's second date after a phrase put between its two (names blanked)
_RESUMED_RANGE_RE: Final = re.compile(r"\s*,\s*[^\W\d][^,;()\d]{0,60},\s*(?:to|until|till|through)\s+", re.IGNORECASE)

# "..., where he stayed until 2011": a where-clause about the place named right before it, its subject a pronoun
_WHERE_STAYED_RE: Final = re.compile(
    r",\s*(?:where\s+(?:he|she|they|it)\s+(?:[a-z]+\s+){1,2}?(?:(?:until|till|through|from|since|in|on)\s+)?|"
    # "moved into Y, and it stayed there until 1920": the stay at the place the clause before moved to
    r"(?:and\s+)?(?:he|she|they|it)\s+(?:stayed|remained)\s+there\s+(?:(?:until|till|through)\s+"
    # "... until the Austrian Empire was proclaimed in 1804": an event in the passive, no cue of its own, ends the stay
    r"(?:(?![\d(])[^,;:()\d]{1,60}?\s+(?:was|were)\s+[a-z]+\s+(?:in|on)\s+)?)?)$",
    re.IGNORECASE,
)
# a bracketed gloss of the place between it and the where-clause ("into Upper Alsace (Bezirk Oberelsass), where")
_PLACE_GLOSS_RE: Final = re.compile(r"\s*\([^()\n]{0,60}\)\s*")


# a sentence that opens on an event and its date: "After the Treaty of Frankfurt in 1871, ...", "With the Acts of
# Union taking effect in 1801, ...", "When the departements were created in 1790, ..."
_LEAD_EVENT_RE: Final = re.compile(
    r"\s*(?:after|following|with|when)\s+(?:the\s+)?[^\W\d][^,;:.()\d]{0,60}?\s+(?:in|of)\s+", re.IGNORECASE
)


def _lead_event(span_before: str, after: str, before: Sequence[_Pos]) -> bool:
    """Whether the date closes a sentence's opening event phrase: the main clause's state begins with it.

    "After the Treaty of Frankfurt in 1871, Les Etangs was in Bezirk Lothringen": 1871 is the start of the state
    the main clause after the comma states, whose names own it. The phrase names no entity of the question's facts
    and says no change of its own ("After leaving X in 2005, ..." is X's end).
    """
    if _LEAD_EVENT_RE.fullmatch(span_before) is None or not after.lstrip(" *").startswith(","):
        return False
    if any(r != "point" for _, r in _role_words(span_before)):
        return False
    return all(p.facts == {_OTHER} for p in before)


def _where_stayed(masked: str, before: Sequence[_Pos], d_begin: int) -> _Pos | None:
    """The place a where-clause right before ``d`` is about: "went to APOEL, where he stayed until 2011" is APOEL's.

    The clause's pronoun is the person who stayed there; the date is the stay's at that place, not the place named
    before it ("left X in 2009 and went to Y, where he stayed until 2011": Y's end, not X's).
    """
    m = _WHERE_STAYED_RE.search(masked, max(0, d_begin - 120), d_begin)
    if m is None:
        return None
    places = [
        p
        for p in before
        if not p.pronoun and p.end <= m.start() and not _PLACE_GLOSS_RE.sub("", masked[p.end : m.start()]).strip()
    ]
    return places[-1] if places else None


# "Grover Dale's wife Anita Morris": a possessor and a kin word before the name they qualify
_KIN_RE: Final = re.compile(
    r"\s*(?:wife|husband|spouse|partner|widow|widower|son|daughter|father|mother|brother|sister)\s*,?\s+"
    r"(?:(?:was|is)\s+)?",  # "X's husband was Y, who became ...": Y is the subject, as in "X's husband, Y,"
    re.IGNORECASE,
)


def _without_possessors(masked: str, before: Sequence[_Pos], d_begin: int) -> list[_Pos]:
    """``before`` nearest first, without a possessor that only qualifies the next name, or an event's place.

    "X's wife Y died in D": the possessor is no subject of the clause, Y is. "Founded X in New York in 1885": the
    place the event happened in (:func:`_place_of_event`) says where, not whose.
    """
    out = []
    for i, p in enumerate(before):
        nxt = before[i + 1] if i + 1 < len(before) else None
        # names are blanked in ``masked``: only a kin word stands between the two ("X's wife Y")
        if nxt is not None and not p.pronoun and not nxt.pronoun and _KIN_RE.fullmatch(masked, p.end, nxt.begin):
            continue
        if nxt is None and _place_of_event(masked, p, before, d_begin):
            continue
        if _adjunct_possessor(masked, p, d_begin):
            continue
        out.append(p)
    return list(reversed(out))


# "after Kasyanov's dismissal", "following Lech Kaczyński's death": a possessor in an adjunct the clause is timed by
_ADJUNCT_BEFORE_RE: Final = re.compile(r"\b(?:after|following|upon|on)\s+(?:the\s+)?$", re.IGNORECASE)
# the event noun after the possessor (names and their "'s" are blanked)
_POSSESSIVE_NOUN_RE: Final = re.compile(
    r"\s*(?:dismissal|death|resignation|removal|ouster|impeachment|assassination|defeat|fall|departure|retirement|"
    r"disqualification|suspension|sacking)\b"
)
_EVENT_DATE_GAP_RE: Final = re.compile(r"\s*(?:on|in)?\s*")  # "after Y's dismissal on D": the event's own date


def _adjunct_possessor(masked: str, p: _Pos, d_begin: int) -> bool:
    """Whether ``p`` is someone else's name as the possessor in an adjunct ("after Kasyanov's dismissal"): no owner.

    The clause's subject named before it owns the clause's dates ("X was acting PM after Y's dismissal, from D"); a
    date right after the adjunct's event is the event's ("after Y's dismissal on D").
    """
    if p.facts != {_OTHER} or p.pronoun or _ADJUNCT_BEFORE_RE.search(masked, max(0, p.begin - 12), p.begin) is None:
        return False
    noun = _POSSESSIVE_NOUN_RE.match(masked, p.end)
    return noun is not None and _EVENT_DATE_GAP_RE.fullmatch(masked, noun.end(), d_begin) is None


# "... in New York in 1885", "at the Mannheim congress in November 1995": a place between "in"/"at" and its date
_PLACE_OF_EVENT_RE: Final = re.compile(r"\s*(?:[a-z]+\s*)?,?\s*in\s+")
_EVENT_IN_RE: Final = re.compile(r",?\s+(?:in|at)\s+(?:the\s+)?$")


def _place_of_event(masked: str, p: _Pos, before: Sequence[_Pos], d_begin: int) -> bool:
    """Whether ``p``, named last before the date, is only where its clause's event happened ("in New York in 1885").

    Someone else's name (no fact of the question holds it) between "in"/"at" and "in D", where a fact's entity is named
    earlier in the clause and a change or an event is told between the two ("founded", "was elected"): the date is
    that entity's. A state ("Marek, a Kessel player, was at Fenerbahçe in 2005") keeps the place's.
    """
    if p.facts != {_OTHER} or _PLACE_OF_EVENT_RE.fullmatch(masked, p.end, d_begin) is None:
        return False
    if _EVENT_IN_RE.search(masked, max(0, p.begin - 12), p.begin) is None:
        return False
    first = next((q for q in before if q.facts - {_OTHER} and q.end <= p.begin), None)
    return first is not None and any(role != "none" for _, role in _role_words(masked[first.end : p.begin]))


_AGAIN_RE: Final = re.compile(r"\bagain\b", re.IGNORECASE)
# A word that opens a phrase of place, time or company: the name after it is not the sentence's subject
_PREPOSITION_RE: Final = re.compile(
    r"\b(?:after|before|with|without|of|at|from|to|for|in|under|since|by|on|following|during|until|till|like|than|as|"
    r"when|while|between|into|over|within|via|about|against|behind|beside|besides|near|through|upon|where|which|who|"
    r"whose|that)\b",
    re.IGNORECASE,
)
# The words that open a subordinate clause of time
_SUBORDINATORS: Final = r"when|after|before|while|once|until|till"
_SUBORDINATE_RE: Final = re.compile(rf"\b(?:{_SUBORDINATORS})\b", re.IGNORECASE)
# "and stayed until 1974", "and then served until D": a predicate joined by "and", its verb with no subject of its own
_ELIDED_RE: Final = re.compile(r"\band\s+(?:then\s+|later\s+|also\s+|finally\s+|eventually\s+)?([a-z]+)\b")
_IRREGULAR_VERBS: Final = frozenset(
    {
        "was",
        "were",
        "ran",
        "held",
        "kept",
        "went",
        "got",
        "won",
        "spent",
        "left",
        "became",
        "took",
        "made",
        "had",
        "lost",
        "quit",
    }
)


def _subject(masked: str, positions: Sequence[_Pos], s_begin: int) -> _Pos | None:
    """The subject of the sentence at ``s_begin``: its first name or pronoun before any verb, outside a phrase.

    "Hateley joined Oldham ...", "After X's death, Sejm Marshal Y was acting president ...": a leading phrase
    closed by a comma is skipped; a name after a preposition ("after X's death") or after a cue word (an object)
    is no subject. ``None`` where the sentence opens otherwise ("In 1973 Oldham signed him").
    """
    for p in positions:
        if p.begin < s_begin:
            continue
        lead = masked[s_begin : p.begin]
        if _role_words(lead) or any(c in lead for c in ".;!?\n"):
            return None
        if not _PREPOSITION_RE.search(lead.rsplit(",", 1)[-1]):
            return p
    return None


def _bound_to_subject(
    masked: str, owner: _Pos | None, subject: _Pos | None, before: Sequence[_Pos], lo: int, d_begin: int
) -> _Pos | None:
    """The sentence's ``subject`` for a date the nearest name would give to another fact's or another's entity.

    A date is bound to the entity its own clause names. "Hateley joined Oldham in 1973 after his spell at Notts
    County (1970–72) and stayed until 1974", "Abbasi took office on D after Sharif's disqualification and served until
    D2": the clause "and stayed until 1974" names nobody; its verb's subject is the sentence's, not the county named in
    a phrase of the clause before. "W. Jason Morgan got it in 1994", "it" read as a prize named in an aside: the
    subject named in the clause is the fact's. A subject that shares a fact with ``owner`` changes nothing
    ("married B in 1950 and divorced in 1960") unless ``owner`` stands in a clause put under the subject's ("became
    First Lady when he took office in 2003, and held the role until 2007": the role is hers, not his).
    """
    if owner is None or subject is None or subject is owner or subject.begin >= owner.begin:
        return owner
    another = _OTHER in owner.facts and not owner.facts & subject.facts
    # "Y succeeded him and stayed until D": an object pronoun is no subject of the predicate "and" joins
    another = another or (owner.pronoun and masked[owner.begin : owner.end].lower() in ("him", "them"))
    # a name or pronoun in a phrase or clause put under the subject's ("when he took office in D"): not the subject
    under = owner.facts != subject.facts and _SUBORDINATE_RE.search(masked, subject.end, owner.begin) is not None
    if not (another or under):
        return owner
    if owner.pronoun and masked[owner.begin : owner.end].lower() in _THING_PRONOUNS:
        if not another:
            return owner
        named = [p for p in before if not p.pronoun and p.end <= owner.begin]
        return subject if named and named[-1] is subject else owner
    start = max(lo, owner.end)
    for m in _ELIDED_RE.finditer(masked, start, d_begin):
        verb = m.group(1)
        # a finite verb; a participle ("beginning 1922 and ending 1991") goes on with the phrase before
        if (verb in _IRREGULAR_VERBS or verb.endswith("ed")) and not any(
            m.start() <= p.begin < d_begin for p in before
        ):
            return subject
    return owner


# "until he fled Germany in 1933", "until reunification in 1990": an event right after a date, said with "until"
# "until his 2015 move to X": the date of an event of his put before its noun
_UNTIL_EVENT_RE: Final = re.compile(
    # "until it turned into the Democrats (DEM) in": a bracketed gloss of a name inside the event
    r"[\s,]*(?:until|till)\s+(?:(?![\d(])(?:[^,;:()]|\([^\d()]{1,20}\)){1,60}?\s+(?:in|on)|(?:his|her|their))\s+$",
    re.IGNORECASE,
)
_LAST_UNTIL_RE: Final = re.compile(r"[\s,]*\b(?:until|till)\b(?!.*\b(?:until|till)\b)", re.IGNORECASE | re.DOTALL)


def _until_event(span_before: str, before: Sequence[_Pos], d_begin: int) -> bool:
    """Whether the date closes an "until <event>" clause that ends the clause before it.

    "from 1932 until he fled Germany in 1933", "..., and remained so until Novgorod Oblast was carved out in 1944": the
    span from the last "until" holds no cue but it, and no name stands between the previous date and that "until".
    """
    last = _LAST_UNTIL_RE.search(span_before)
    if last is None:
        return False
    tail = span_before[last.start() :]
    at = d_begin - len(tail)
    event = _UNTIL_EVENT_RE.match(tail) is not None and len(_role_words(tail)) == 1
    return (event or _until_next_start(tail)) and all(p.begin >= at for p in before if not p.pronoun)


# "from 1928 — when the old X was abolished — until 1933": a when-clause between dashes glosses the date before it
_DASH_WHEN_RE: Final = re.compile(r"\s*[—–]\s*(?:when|as|after)\b[^—–\d\n]{1,80}[—–]")


# "until she became Justice Secretary in": the subject's next post, its start the end of the stay before
_UNTIL_SUBJECT_RE: Final = re.compile(r"[\s,]*(?:until|till)\s+(?:he|she|they)\s+", re.IGNORECASE)
_IN_ON_END_RE: Final = re.compile(r"\s(?:in|on)\s+$", re.IGNORECASE)


def _until_next_start(tail: str) -> bool:
    """Whether ``tail`` (from the last "until" to a date) says the subject started something next, the one cue after.

    "from July 2014 until she became Justice Secretary in 2016": the start of the next post ends the stay before
    it, whatever that post is; the date is the stay's end (its owner the previous date's, :func:`_until_event`).
    """
    m = _UNTIL_SUBJECT_RE.match(tail)
    if m is None or _IN_ON_END_RE.search(tail) is None:
        return False
    cues = _role_words(tail)
    return len(cues) == 2 and cues[1] == (m.end(), "start")


# "Numancia, which he joined in": a relative pronoun right after a name, then the clause's subject
_WHICH_RE: Final = re.compile(r"\s*,?\s*(?:which|that)\s+$", re.IGNORECASE)


def _antecedent_first(masked: str, cands: list[_Pos], d_begin: int) -> list[_Pos]:
    """``cands`` (nearest first) with the name a relative clause is about first, where its pronoun is the object.

    "the next club on record is Numancia, which he joined in 2010": "which" is what he joined, so the date is
    Numancia's whoever "he" reads as. Only where the clause's verb is a start or an end ("which he joined/left").
    """
    if len(cands) < 2 or not cands[0].pronoun or cands[1].pronoun:
        return cands
    if _WHICH_RE.search(masked, cands[1].end, cands[0].begin) is None:
        return cands
    cues = _role_words(masked[cands[0].end : d_begin])
    return [cands[1], *cands] if any(r in ("start", "end") for _, r in cues) else cands


def _named_over_it(masked: str, after: list[_Pos]) -> list[_Pos]:
    """``after`` with "it" that stands for someone else's thing behind a name of a fact the clause names.

    "from 1797 to 1802 it belonged to the Cisalpine Republic": "it" read as the duchy named last is a guess, the
    republic is the fact's.
    """
    if not after or not after[0].pronoun or after[0].facts != {_OTHER}:
        return after
    if masked[after[0].begin : after[0].end].lower() not in _THING_PRONOUNS:
        return after
    named = [p for p in after[1:] if not p.pronoun and p.distinctive and _OTHER not in p.facts]
    return named + after if named else after


def _object_first(masked: str, after: list[_Pos]) -> list[_Pos]:
    """``after`` with the object of a move or a change first where a pronoun subject comes before its verb.

    "and in 1934 he married C": the date is the wedding to C, whoever "he" is; "in 2005 he joined X": X's start.
    """
    if len(after) < 2 or not after[0].pronoun or after[1].pronoun:
        return after
    cues = _role_words(masked[after[0].end : after[1].begin])
    return [after[1], *after] if any(r in ("start", "end") for _, r in cues) else after


def _new_clause(masked: str, owner: _Pos, before: Sequence[_Pos], d_begin: int) -> bool:
    """Whether an "and" between the owner and the date starts a clause of its own.

    "A divorced B and in 1935 married C" does; one that joins two names ("A and B were married from D") does not.
    """
    for m in _AND_RE.finditer(masked, owner.end, d_begin):
        if not any(p.begin >= m.end() and not masked[m.end() : p.begin].strip() for p in before if not p.pronoun):
            return True
    return False


_TEAM_SUFFIX_RE: Final = re.compile(r"\s+(?:national|men's|women's|under-\d+|u-?\d+)\b", re.IGNORECASE)


def _team_of_country(text: str, owner: _Pos, before: Sequence[_Pos], facts: Sequence[FactRef]) -> _Pos:
    """A country named for its national team by a player of that team's fact.

    "Šerić was capped by Croatia between 1998 and 2006", "Rost made his Germany debut in 2002". Only where the
    clause names the player (a fact's own entity) before the country, and the question's fact is the country's
    team: "Yugoslavia broke up in 1992" names no player and stays the country's.
    """
    if owner.facts != {_OTHER} or owner.pronoun:
        return owner
    name = text[owner.begin : owner.end].casefold()
    for fi, f in enumerate(facts):
        teams = [e for e in f.entities if e.casefold().startswith(name) and _TEAM_SUFFIX_RE.match(e, len(name))]
        if teams and any(p.end <= owner.begin and fi in p.facts and not p.pronoun for p in before):
            return _Pos(owner.begin, owner.end, frozenset({fi}), True, False, False)
    return owner


def _pair(owner: _Pos, before: Sequence[_Pos]) -> _Pos:
    """A shared owner narrowed to the one fact it has with another name of its clause.

    "Moscow, capital of the Soviet Union since 1918": the Soviet Union is in two facts, Moscow in one of them;
    the date is that fact's. Pronouns and other people's names narrow nothing.
    """
    if owner.distinctive or owner.pronoun or owner not in before:
        return owner
    facts = owner.facts - {_OTHER}
    pairs = {frozenset(facts & p.facts) for p in before if p is not owner and not p.pronoun and p.facts & facts}
    pairs.discard(frozenset(facts))
    if len(pairs) == 1:
        (one,) = pairs
        if len(one) == 1:
            return _Pos(owner.begin, owner.end, one, True, False, owner.person)
    return owner


# A name that is the object of a time preposition ("two spells at X before Aarau — 2002–2005"): it times, owns nothing
_TIME_OBJECT_RE: Final = re.compile(r"\b(?:before|after|following|prior\s+to|since|until|till)\s+(?:the\s+)?$")
_PAST_CONNECTOR_RE: Final = re.compile(r"[;—–]|\b(?:and|then|before|after|until|till|but)\b", re.IGNORECASE)
_NEXT_TO_DATE_RE: Final = re.compile(r"[\s,:(—–-]*(?:in|on)?\s*")
_CLAUSE_END_RE: Final = re.compile(r"[,;(]|\band\b")
# A clause under the date's sentence that opens with a connector ("before VfB Stuttgart signed him in 1995")
_SUBCLAUSE_RE: Final = re.compile(rf"\b(?:{_SUBORDINATORS}|as)\s+(?:the\s+)?(?=[A-Z])")


def _weakly_bound(
    text: str,
    masked: str,
    d: TimeMention,
    owner: _Pos,
    near: tuple[Sequence[_Pos], Sequence[_Pos], Sequence[int], _Pos | None, int, bool],
) -> bool:
    """Whether a date that would be firmly its owner's fact's rests on weak evidence only.

    A ``wrong`` verdict needs the date bound firmly to the fact: its clause's subject is the fact's and its
    predicate or object names the fact. A date is weakly bound where its owner is only the object of a time
    preposition ("two spells at FC Vaduz before Aarau — 2002–2005"), only the nearest name after it past a connector
    ("— 2006–2009 — and moved to Aarau"), or a subject after it whose object is another entity ("in 2002, he
    received the Mark Twain Prize"); where it lies in a subordinate clause whose subject is another name ("before
    VfB Stuttgart signed him in 1995"); or where it opens a bracket after a pronoun clause that names nothing of the
    fact ("; he was already a senior international by then (1995–2001)"). A mismatch of such a date may be another
    fact's: the verdict is undecided, never wrong.
    ``near``: the names before the date in its clause and after it, the unknown names, and the previous date's owner,
    end and weakness in the sentence.
    """
    before, after, unknown, prev_owner, clause_begin, prev_weak = near
    if not owner.distinctive:
        return False  # a shared subject's date is firm for no one fact anyway
    if prev_weak and owner == prev_owner and owner not in before:
        return True  # a date that goes on from a weak one with its owner: "before Aarau — 2002–2005 and 2006–2009"
    if (
        owner in before
        and not owner.pronoun
        and _TIME_OBJECT_RE.search(masked, max(clause_begin, owner.begin - 20), owner.begin)
        and _NEXT_TO_DATE_RE.fullmatch(masked, owner.end, d.begin)
    ):
        return True
    if owner.begin >= d.end and _PAST_CONNECTOR_RE.search(masked, d.end, owner.begin):
        return True  # the nearest name is past a connector, in the next clause: "— 2006–2009 — and moved to Aarau"
    # a subject after the date whose object is another entity: "in 2002, he received the Mark Twain Prize"
    if owner.begin >= d.end and any(p.begin > owner.end and not p.pronoun and p.facts == {_OTHER} for p in after):
        return True
    return _another_agent(text, owner, before, unknown, (clause_begin, d.begin)) or _bare_bracket(
        masked, owner, before, (clause_begin, d.begin)
    )


def _another_agent(
    text: str, owner: _Pos, before: Sequence[_Pos], unknown: Sequence[int], span: tuple[int, int]
) -> bool:
    """Whether the date closes a subordinate clause whose subject is a name other than its owner's fact's.

    "came to St. Gallen in 1993 and spent two seasons there before VfB Stuttgart signed him in 1995": the
    clause after "before" tells what Stuttgart did; its date may be that move's, not the stay's end.
    """
    lo, at = span
    for m in _SUBCLAUSE_RE.finditer(text, lo, at):
        subject = m.end()
        if owner.begin >= subject and not owner.pronoun:
            continue  # the fact's own name is in the clause: "when he joined Milan in 1990"
        if _CLAUSE_END_RE.search(text, subject, at):
            continue  # "after X's disqualification and served until D": the clause ended before the date
        if subject in unknown or any(p.begin == subject and owner.facts.isdisjoint(p.facts) for p in before):
            return True
    return False


def _bare_bracket(masked: str, owner: _Pos, before: Sequence[_Pos], span: tuple[int, int]) -> bool:
    """Whether the date opens a bracket after a clause with a pronoun subject, no name of the fact and no cue.

    "left it that same year; he was already a senior international by then (1995–2001)": the bracket dates the
    clause, which may be about another of his spells; a bracket after the fact's name ("at Porto (1995–2001)")
    or a cue ("he joined them (1995)", "(serving until 1921)") binds it.
    """
    lo, at = span
    if masked[max(lo, at - 2) : at].strip() != "(" or not (owner.pronoun and owner in before):
        return False
    named = [p for p in before if not p.pronoun and p.facts & owner.facts]
    return not named and all(role == "none" for _, role in _role_words(masked[lo:at]))  # "was already a ..."


def _unknown_near(
    unknown: Sequence[int],
    owner: _Pos,
    span: tuple[int, int, int, int],
    masked: str,
    before: Sequence[_Pos],
    own_cue: bool = False,
    firm_at: int = -1,
) -> bool:
    """Whether a name the release does not know stands near the date.

    Between the owner and the date, or after it in the clause ("Alves joined Granada in 2013", "became a GM
    in 1992"): the date may be that name's, so it cites only. ``span``: the clause's start, the date's start
    and end, and where the next date starts. A date with a cue of its own ("since 1986 before moving to
    Swindon") keeps a name past a connector out: that name is the next clause's; so does a comma before "with"
    ("from 2010 to 2015, with loans at Troyes"). ``firm_at``: the owner of the sentence's date before, where that date
    was firm. A clause that goes on from it with "and" ("became Minister-President in 1962 and led the state until
    1974") does not weigh again a name before that date: it was weighed for it.
    """
    clause_begin, d_begin, d_end, nxt = span
    lo = owner.end if owner.end <= d_begin else clause_begin
    if firm_at == owner.begin and _GOES_ON_RE.match(masked, clause_begin):
        lo = max(lo, clause_begin)
    return any(
        lo <= b < nxt
        and not owner.begin <= b < owner.end
        and not _named_after(b, owner, before, d_begin)
        and not (own_cue and b >= d_end and _CONNECTOR_RE.match(masked, d_end, b))
        and not (b >= d_end and _source_or_purpose(masked, d_end, b))
        and not (b < d_begin and _source_of_move(masked, owner, b, (clause_begin, d_begin)))
        for b in unknown
    )


# a move's source named right after its target and right before the move's date ("signed for PSG from Fenerbahçe in")
_SOURCE_THEN_DATE_RE: Final = re.compile(r"(?:\s+[A-ZÀ-ÖØ-Þ\u0100-\u017d][\w'’.-]*)*\s+(?:in|on)\s+$")


def _source_of_move(masked: str, owner: _Pos, b: int, span: tuple[int, int]) -> bool:
    """Whether the unknown name at ``b`` is the source of a move to the owner whose date follows it.

    "signed for PSG from Fenerbahçe in 2007": the date is the move's, so the target's start (and the source's
    end); the source's name does not unbind it from the target. A clause between ("from Fenerbahçe, where he had
    played since 2005") keeps the date the source's.
    """
    clause_begin, d_begin = span
    if not clause_begin <= owner.end <= b or _move_role(masked, owner, clause_begin) != "start":
        return False
    if re.fullmatch(r"\s*from\s+(?:the\s+)?", masked[owner.end : b]) is None:
        return False
    return _SOURCE_THEN_DATE_RE.match(" " + masked[b:d_begin]) is not None


# "in 1986 before moving to Swindon": a name after the date past a connector is another clause's
_CONNECTOR_RE: Final = re.compile(r"[\s,]*(?:before|after|when|while|until|then|and)\b|,\s*with\b", re.IGNORECASE)
# after a move's date, its source ("had arrived in 2012 from Vålerenga") or the move's purpose ("moved back in 1990 to
# work for Sobchak"): that name is no owner of the date
_SOURCE_OR_PURPOSE_RE: Final = re.compile(
    r"[\s,]*(?:from|to\s+(?:work|serve|study|train|play|teach)\s+(?:for|with|under|at))\s+(?:the\s+)?", re.IGNORECASE
)


def _source_or_purpose(masked: str, d_end: int, b: int) -> bool:
    """Whether the word at ``b`` is of the name a move's source or purpose names right after the date."""
    m = _SOURCE_OR_PURPOSE_RE.match(masked, d_end)
    if m is None or m.end() > b:
        return False
    words = masked[m.end() : b].split()  # the name's words before ``b`` ("Anatoly" of "Anatoly Sobchak")
    return len(words) <= 3 and all(w[:1].isupper() for w in words)


# a clause that goes on from the date before it: "in 1962 and led the state until 1974"
_GOES_ON_RE: Final = re.compile(r"[\s,]*and\b", re.IGNORECASE)


def _named_after(b: int, owner: _Pos, before: Sequence[_Pos], d_begin: int) -> bool:
    """Whether a name of the owner's fact stands between the unknown word at ``b`` and the date.

    "married the Harvard scholar Richard Neustadt in 1978": "Harvard" qualifies the spouse named after it.
    """
    facts = owner.facts - {_OTHER}
    return any(b < p.begin and p.end <= d_begin and not p.pronoun and p.facts & facts for p in before)


def _cue_next(masked: str, d_end: int, after: Sequence[_Pos]) -> bool:
    """Whether a cue word follows the date before the next name, in the date's own clause.

    "and in 1935 married C": the cue is the date's; "and played there from 1984 to 1988 before joining C": a
    connector opens the next clause, whose cue says nothing of the date.
    """
    if not after or _CONNECTOR_RE.match(masked, d_end):
        return False
    return bool(_role_words(masked[d_end : after[0].begin]))


_GLOSS_START_RE: Final = re.compile(r"\(\s*(?:like|unlike|as|with)\b", re.IGNORECASE)
# a capital of Latin Extended-A too ("ČSSD", "Łódź"); the range holds small letters as well, told apart by isupper
_CAPITAL_RE: Final = re.compile(r"(?<![\w'’-])[A-ZÀ-ÖØ-Þ\u0100-\u017d][\w'’-]*")
_NOT_NAMES: Final = frozenset(
    ["i", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "ad", "bc", "bce", "ce",
     "christmas", "easter", "answer", "note", "yes", "no"]
)  # fmt: skip


def _asides(text: str) -> list[tuple[int, int]]:
    """Spans of asides with a clause of their own.

    A relative clause between commas (", where Jons is,", ", when he took office,") or a parenthetical that starts
    with "like"/"unlike" or holds a cue word or a date ("(married to X since 1982)").
    A parenthetical gloss of a name ("(Feltscher)", "(today Wrocław, Poland)") is none.
    """
    out = []
    for m in _ASIDE_RE.finditer(text):
        inner = m.group(0)
        if inner.startswith("(") and not (
            _GLOSS_START_RE.match(inner) or _role_words(inner) or any(c.isdigit() for c in inner)
        ):
            continue
        out.append((m.start(), m.end()))
    return out


_FIELD_RE: Final = re.compile(r"[ \t>*#-]*[^\W\d][^:\n]{0,40}:\s")
_UNTIL_RE: Final = re.compile(r"\b(?:until|till)\s+(?=\S)", re.IGNORECASE)


def _field_line(text: str, begin: int, end: int, positions: Sequence[_Pos]) -> tuple[_Pos | None, int]:
    """The owner of a "Key: value" line that names nobody, and where its value starts.

    The owner is the entity named last before it, cite only (the line may be about another fact of it).
    """
    m = _FIELD_RE.match(text, begin, end)
    if m is None or any(begin <= p.begin < end and not p.pronoun for p in positions):
        return None, begin
    row = _row_name(text, begin, positions)
    if row is not None:
        return row, m.end()
    named = [p for p in positions if p.end <= begin and not p.pronoun and _OTHER not in p.facts]
    if not named:
        return None, m.end()
    last = named[-1]
    return _Pos(last.begin, last.end, last.facts, False, False, last.person), m.end()


_ROW_GLOSS_RE: Final = re.compile(r"\s*\([^()\n]*\)$")


def _row_name(text: str, begin: int, positions: Sequence[_Pos]) -> _Pos | None:
    """The name a table row's field line at ``begin`` belongs to: the row's first cell, its line alone ("FC X.").

    :func:`tables_as_fields` writes a row as its first cell, then one "header: cell" line per column; the field
    lines after that name hold the row's own dates, stated for it as plainly as "at FC X from 2002 to 2004" (a
    row of someone else's holds someone else's). None where the lines before are not such a row.
    """
    at = begin
    while at > 0:
        line_begin = text.rfind("\n", 0, at - 1) + 1
        line = text[line_begin : at - 1] if text[at - 1] == "\n" else text[line_begin:at]
        if _FIELD_RE.match(line):
            at = line_begin
            continue
        cell = _ROW_GLOSS_RE.sub("", line.rstrip(" ."))  # "Landon Donovan (Kajlich's husband 2006–2010)": the name
        named = [p for p in positions if p.begin == line_begin and p.end == line_begin + len(cell) and not p.pronoun]
        return named[0] if cell and named else None
    return None


def _until_handover(
    masked: str, d: TimeMention, positions: Sequence[_Pos], clause_begin: int, prev_owner: _Pos | None
) -> list[Attribution]:
    """D is A's end as well in "A served until B took office on D" (cite only: a handover may fall a day apart).

    Where the until-clause's subject is a pronoun, its own move ends its own spell: "Marsden was at Wigan from 2004
    until he joined Celtic in 2009" states Wigan's end as 2009, held to the data.
    """
    if d.kind != "point" or d.interval.start is None:
        return []
    untils = list(_UNTIL_RE.finditer(masked, clause_begin, d.begin))
    if not untils:
        return []
    at = untils[-1].start()
    if not any(at < p.begin and p.end <= d.begin and not p.pronoun for p in positions):
        return []
    if not any(r == "start" for _, r in _role_words(masked[at : d.begin])):
        return []
    subject = [p for p in positions if clause_begin <= p.begin and p.end <= at]
    who = _pick(list(reversed(subject))) or prev_owner
    facts = who.facts - {_OTHER} if who is not None else frozenset()
    mover = next((p for p in positions if at < p.begin < d.begin), None)
    own = mover is not None and mover.pronoun and masked[mover.begin : mover.end].lower() in ("he", "she")
    return [Attribution(d.interval.start, "end", facts, own and len(facts) == 1, d.begin)] if facts else []


_TABLE_RULE_RE: Final = re.compile(r"\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


# a cell that holds only a date or a span of years ("1873–1917", "2001 - present")
_DATE_CELL_RE: Final = re.compile(r"[\d\s–—/.,-]*\d[\d\s–—/.,-]*(?:present|now|today)?", re.IGNORECASE)


def _key_column(rows: Sequence[list[str]]) -> int:
    """The column that names each row: the first, unless it holds only dates ("| Period | Unit |").

    Then it is the first column with no digit in any row (0 where there is none).
    """
    if not rows or not all(r and _DATE_CELL_RE.fullmatch(r[0]) for r in rows):
        return 0
    width = min(len(r) for r in rows)
    return next((j for j in range(1, width) if not any(c.isdigit() for r in rows for c in r[j])), 0)


def tables_as_fields(text: str) -> str:
    """``text`` with each Markdown table written as field lines: a row's first cell, then "header: cell".

    "| PM | Took office |" over "| Oleksy | 7 March 1995 |" reads "Oleksy" then "took office: 7 March 1995",
    so the row's dates belong to the row's name at the end its column names. A header is written in lower case: it
    names a column, never an entity ("| Spouse | Years |": "Years" is also a film the release knows).
    """
    if "|" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if i + 1 < len(lines) and "|" in lines[i] and _TABLE_RULE_RE.fullmatch(lines[i + 1]):
            header = _cells(lines[i])
            i += 2
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            k = _key_column(rows)
            for row in rows:
                out.append(row[k] + ".")
                out += [f"{h.lower()}: {c}." for j, (h, c) in enumerate(zip(header, row, strict=False)) if c and j != k]
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


# A dash after a year that opens a count or a sum ("until 2015 — 29 years", "until 2008 — 2008 − 1956 = 52"): the
# year alone, no range to a clipped year
_DASH_RE: Final = re.compile(r"\s*[—–-]\s*")
_COUNT_AFTER_RE: Final = re.compile(r"\s*(?:years?\b|[−–+-]\s*\d{4}\s*=)", re.IGNORECASE)


def _counts_not_ranges(text: str, dates: list[TimeMention]) -> list[TimeMention]:
    """``dates`` with a range "D — N" that a count or a sum follows read as the point D (the dash's gloss is no end)."""
    out = []
    for d in dates:
        dash = _DASH_RE.search(d.text) if d.kind == "range" and d.interval.start is not None else None
        if dash is not None and dash.start() > 0 and _COUNT_AFTER_RE.match(text, d.end):
            start = d.interval.start
            d = TimeMention(d.text[: dash.start()], d.begin, d.begin + dash.start(), Interval(start, start), "point")
        out.append(d)
    return out


def _without_sums(text: str, dates: list[TimeMention]) -> list[TimeMention]:
    """``dates`` without the years of a sum or a comparison and the year a sum or a relative phrase computes.

    "1984 − 1959 = 25", "minus 3 = 1919", "so two years later is 1926", "1994 ≠ 2001": the question's arithmetic,
    no fact's date.
    """
    dates = [d for d in dates if not _COUNTED_RE.search(text, max(0, d.begin - 40), d.begin)]
    compared = [(m.start(), m.end()) for m in _COMPARED_RE.finditer(text)]
    dates = [d for d in dates if not _inside(d.begin, compared)]
    if "=" not in text:
        return dates
    sums = [(m.start(), m.end()) for m in _SUM_RE.finditer(text)]
    return [d for d in dates if not _inside(d.begin, sums) and not _COMPUTED_RE.search(text, 0, d.begin)]


def _unknown_for(unknown: Sequence[int], asides: Sequence[tuple[int, int]], at: int) -> list[int]:
    """The unknown names that may own the date at ``at``: those outside every aside, and those of its own aside.

    "in Taiwan (National Taiwan Normal, from 1983)": the aside's date may be the name's it holds; a name in another
    aside owns no date outside it.
    """
    if not asides:
        return list(unknown)
    own = [(b, e) for b, e in asides if b <= at < e]
    return [u for u in unknown if not _inside(u, asides) or _inside(u, own)]


def _inside(at: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(b <= at < e for b, e in spans)


# An aside whose subject is a thing named by a common noun ("(the province having ended in 2016)"): not the fact's
_THING_ASIDE_RE: Final = re.compile(r"\(\s*the\s+[a-z]+\b")


def _thing_aside(text: str, asides: Sequence[tuple[int, int]], positions: Sequence[_Pos], at: int) -> bool:
    """Whether the date at ``at`` lies in a parenthetical aside about "the <thing>" that names no entity before it.

    Such a date may be the fact's ("the club"), or another thing's (the province the fact's place left): it
    may cite, never contradict.
    """
    for b, e in asides:
        m = _THING_ASIDE_RE.match(text, b) if b <= at < e else None
        if m is not None and m.end() < at and not any(b <= p.begin < at for p in positions):
            return True
    return False


def _aside_of_another(
    text: str,
    asides: Sequence[tuple[int, int]],
    positions: Sequence[_Pos],
    owner: _Pos,
    at: int,
    before: Sequence[_Pos] = (),
) -> bool:
    """Whether the date at ``at`` lies in an aside that may tell of another thing than its owner's fact.

    A bracket right after it that names another entity is one (:func:`_glossed_by_another`); so is a when-clause that
    times the change before it ("became First Lady when he took office in D": his office, not his marriage).
    """
    return (
        _thing_aside(text, asides, positions, at)
        or _relative_aside(text, asides, owner, at)
        or _glossed_by_another(text, positions, at)
        or _when_change(text, owner, before) is not None
    )


_GLOSS_AFTER_RE: Final = re.compile(r"[\w ]{1,20}?\s*\(\s*")


def _glossed_by_another(text: str, positions: Sequence[_Pos], at: int) -> bool:
    """Whether the date at ``at`` is followed by a bracket that holds nothing but another entity's name.

    "came under Russian rule in 1654 (Tsardom of Russia)": the bracket says whose rule began then, not the fact's
    Russian Empire; the date may cite the fact, never contradict it. "in 1654 (Kyiv)", a fact's own name, keeps it.
    """
    m = _GLOSS_AFTER_RE.match(text, at)
    if m is None:
        return False
    inside = [p for p in positions if p.begin == m.end()]
    return bool(inside) and inside[0].facts == {_OTHER} and text[inside[0].end :].lstrip().startswith(")")


_RELATIVE_ASIDE_RE: Final = re.compile(r",\s*(?:who|which|whose|where|when)\b", re.IGNORECASE)


def _relative_aside(text: str, asides: Sequence[tuple[int, int]], owner: _Pos, at: int) -> bool:
    """Whether the date at ``at`` lies in a relative clause about an owner named outside it.

    "Rajoy, who had led the opposition since 2004, won ...": the clause tells another thing its subject did; its
    date may cite, never contradict. A clause that names the owner ("..., who joined Lavra in 1994,") states it; so
    does a where-clause right after the owner's place whose subject is a pronoun and whose date is a range ("at
    Tübingen, where he studied from 1860 to 1862,"): the person's own stay there.
    """
    return any(
        b <= at < e
        and _RELATIVE_ASIDE_RE.match(text, b)
        and not b <= owner.begin < e
        and not _stay_there(text, owner, b, at)
        for b, e in asides
    )


_STAY_RE: Final = re.compile(r",\s*where\s+(?:he|she|they)\s+[a-z]+\s+(?=from\b|between\b)", re.IGNORECASE)


def _stay_there(text: str, owner: _Pos, b: int, at: int) -> bool:
    """Whether the aside at ``b`` is ", where he <verb> from D1 to D2" right after the owner, its range at ``at``."""
    m = _STAY_RE.match(text, b)
    return m is not None and m.end() == at and not text[owner.end : b].strip()


def _outside_asides(before: list[_Pos], asides: Sequence[tuple[int, int]], at: int) -> list[_Pos]:
    """``before`` without the names inside an aside closed before ``at`` (an aside's names own no later date)."""
    if not asides:
        return before
    return [p for p in before if not any(b <= p.begin and e <= at for b, e in asides if p.end <= e)]


def _unknown_names(
    masked: str, sentences: Sequence[tuple[int, int]], dates: Sequence[TimeMention], known: Iterable[str]
) -> list[int]:
    """Offsets of capitalised words no known name covers (``masked`` blanks the known ones).

    Another team, title or place the release does not list. A sentence's first word, months, weekdays and
    ``known`` are none.
    """
    skip = {w.lower() for w in known} | _NOT_NAMES | _initials(list(known))
    agents = _agents(masked)
    firsts = set()
    for b, e in sentences:
        m = re.search(r"[A-Za-z]", masked[b:e])
        if m:
            firsts.add(b + m.start())
    out = []
    for m in _CAPITAL_RE.finditer(masked):
        w = m.group(0).lower().rstrip("'’s").rstrip("'’")
        if (
            not m.group(0)[0].isupper()
            or m.start() in firsts
            or w in skip
            or w.rstrip(".") in _MONTH_WORDS
            or masked[m.start() - 1 : m.start()] == ":"
            or m.start() in agents
        ):
            continue
        if any(d.begin <= m.start() < d.end for d in dates):
            continue
        out.append(m.start())
    return out


def _initials(words: Sequence[str]) -> set[str]:
    """The initials of two or three capitalised words in a row of the question ("pm" of "Prime Minister")."""
    out = set()
    for i in range(len(words)):
        for k in (2, 3):
            run = words[i : i + k]
            if len(run) == k and all(w[:1].isupper() for w in run) and (got := initials_of(" ".join(run)).full):
                out.add(got)
    return out


# The agent of an election or appointment ("elected PM by the National Assembly", "appointed by the Senate"):
# the body that chose, no owner of the date.
_AGENT_RE: Final = re.compile(
    r"\b(?:elected|re-elected|appointed|nominated|chosen|named|confirmed|approved)\b[^.;,\n]{0,30}?\bby\s+(?:the\s+)?"
    r"((?:[A-Z][\w'’-]*\s*)+)"
)


def _agents(masked: str) -> set[int]:
    """Offsets of the capitalised words that name the agent of an election or appointment."""
    return {m.start(1) + w.start() for m in _AGENT_RE.finditer(masked) for w in _CAPITAL_RE.finditer(m.group(1))}


# "on loan from Y", "on the death of Y": not the date's owner; "part of Y" names the fact's other end
# a move's source or a giver: "on loan from Liverpool", "received the prize from the Royal Society in 2009"
_SOURCE_RE: Final = re.compile(r"\bfrom\s+(?:the\s+)?$|\b(?<!part\s)of\s*$", re.IGNORECASE)
_TARGET_RE: Final = re.compile(r"\b(?:for|to|into|joining|joined|signing\s+for|signed\s+for|at)\s*(?:the\s*)?$")
_MOVE_RE: Final = re.compile(r"\b(?:left|leaving|moved|moving|transferred|went|switched|swapped|crossed|joined|joining|"
                             r"signed|signing|loaned|returned|move|transfer|came|arrived)\b")  # fmt: skip
_NUMBER: Final = (
    r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty|\d{1,2})"
)
_UNIT: Final = r"(?:year|month|week|day)s?"
_OPEN: Final = r"(?=\s+(?:the|his|her|their|its|he|she|they|it|[a-z]+ing)\b)"
_RELATIVE_RE: Final = re.compile(
    # counted from the date before ("two years later", "the following year", "that same month"), or from the
    # date closing the clause that follows ("two years after taking office in 2004")
    rf"\b(?:(?:the|that)\s+(?:very\s+)?same\s+(?P<u1>{_UNIT})|that\s+(?P<u2>{_UNIT})|"
    rf"(?:(?P<exact>exactly|precisely)\s+)?(?P<n>{_NUMBER})\s+(?P<u3>{_UNIT})\s+(?:(?P<dir>later|afterwards|earlier)|(?P<dirb>after|before)(?P<open>{_OPEN})?)|"
    rf"the\s+(?:very\s+)?(?P<next>following|next|subsequent|previous|preceding|prior)\s+(?P<u4>{_UNIT})|"
    rf"the\s+(?P<u5>{_UNIT})\s+(?P<dir2>after|before)(?P<open2>{_OPEN})?)\b",
    re.IGNORECASE,
)
_COUNTS: Final = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                  "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                  "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
                  "twenty": 20}  # fmt: skip
_UNITS: Final = {"year": Granularity.YEAR, "month": Granularity.MONTH, "week": Granularity.DAY,
                 "day": Granularity.DAY}  # fmt: skip
# The explicit date that a relative one is a gloss of ("four years later, on 7 May 2012"): the explicit wins.
_APPOSITION_RE: Final = re.compile(r"\s*[,(—–-]?\s*(?:on|in)?\s*")
_ROUGHLY_RE: Final = re.compile(r"\b(?:about|around|roughly|nearly|almost|some|over|under|approximately)\s*$", re.I)
_BASE_GAP: Final = 80  # how far a counted-from clause may run ("two years after taking office in 2004")


def _relative_base(text: str, m: re.Match[str], dates: Sequence[TimeMention]) -> tuple[TimeMention | None, bool]:
    """The date a relative mention counts from, and whether it follows it ("the year after he took office in D").

    "N units after <clause>" counts from the date that closes the clause when one follows in the same
    sentence; every other form from the date stated right before it.
    """
    if m.start("open") >= 0 or m.start("open2") >= 0:
        nxt = [d for d in dates if d.begin >= m.end() and d.begin - m.end() <= _BASE_GAP]
        if nxt and _SENTENCE.search(text, m.end(), nxt[0].begin) is None:
            return nxt[0], True
        return None, False
    prior = [d for d in dates if d.end <= m.start()]
    # a date in an aside closed before the relative ("left X in 2014 (there since 2012) and joined Y that year")
    # is not what it counts from: the main clause's date is
    outside = [d for d in prior if not _closed_before(text, d.end, m.start())]
    prior = outside or prior
    return (prior[-1], False) if prior else (None, False)


def _closed_before(text: str, begin: int, end: int) -> bool:
    """Whether a bracket open at ``begin`` closes before ``end`` (more ")" than "(" in between)."""
    between = text[begin:end]
    return between.count(")") > between.count("(")


def _relative_value(m: re.Match[str], base: TimePoint) -> TimePoint | None:
    """``base`` moved as ``m`` says, at the relative's unit (``None`` where the base is coarser than it).

    "Exactly five years later" keeps the base's own day or month (the anniversary), not only its year.
    """
    word = next(u for u in m.group("u1", "u2", "u3", "u4", "u5") if u).lower().rstrip("s")
    unit = _UNITS[word]
    if base.granularity < unit:
        return None  # "two days after" a year: no day is pinned
    n_word = m.group("n")
    way = (m.group("dir") or m.group("dirb") or m.group("dir2") or m.group("next") or "").lower()
    n = (int(n_word) if n_word.isdigit() else _COUNTS[n_word.lower()]) if n_word else (1 if way else 0)
    if word == "week":
        n *= 7
    if way in ("earlier", "before", "previous", "preceding", "prior"):
        n = -n
    return (base if m.group("exact") else base.truncate(unit)).shift(n, unit)


def _roughly(text: str, m: re.Match[str]) -> bool:
    """Whether the relative date ``m`` is approximate ("about two years later", "over a year after").

    "Over" and "under" only qualify a number of units: "took over the same day" is that day.
    """
    rough = _ROUGHLY_RE.search(text, 0, m.start())
    return rough is not None and (m.group("n") is not None or rough.group(0).strip().lower() not in ("over", "under"))


def with_relative(text: str, dates: list[TimeMention]) -> list[TimeMention]:
    """``dates`` with the relative dates that pin one ("the same year", "two days later") read as dates.

    A relative date counts from the date stated right before it (a range's end), or in "N units after
    <clause> D" from the D that closes the clause; it is read at its unit (a year, a month, a day), so it
    cites a reference only where that unit is as fine as the question's granularity. One glossed by an
    explicit date ("four years later, on 7 May 2012") is left to the explicit date.
    """
    if not dates or _RELATIVE_RE.search(text) is None:
        return dates
    out = list(dates)
    for m in _RELATIVE_RE.finditer(text):
        if any(d.begin < m.end() and m.start() < d.end for d in dates) or _roughly(text, m):
            continue  # already read, or approximate ("about two years later" pins no year)
        following = [d for d in dates if d.begin >= m.end()]
        if following and _APPOSITION_RE.fullmatch(text, m.end(), following[0].begin):
            continue
        base_mention, _ = _relative_base(text, m, dates)
        if base_mention is None:
            continue
        base = base_mention.interval.end or base_mention.interval.start
        value = None if base is None else _relative_value(m, base)
        if value is not None:
            out.append(TimeMention(m.group(0), m.start(), m.end(), Interval(value, value), "point"))
    return sorted(out, key=lambda d: d.begin)


def _derived(text: str, dates: Sequence[TimeMention]) -> set[int]:
    """Offsets of the dates that cite, never contradict: computed or restated, not stated for a fact.

    A relative date and the date a following clause counts it from (:func:`relative_bases`), a bracketed year that
    glosses a relative date (:func:`_glosses`), and a conclusion's restated year ("so in 1999 she was ...").
    """
    out = (
        {d.begin for d in dates if _RELATIVE_RE.fullmatch(d.text)} | relative_bases(text, dates) | _glosses(text, dates)
    )
    out |= {d.begin for d in dates if _opens_on_event(text, d)}
    return out | {d.begin for d in dates if _so_in(text, d.begin)}


def _opens_on_event(text: str, d: TimeMention) -> bool:
    """Whether ``d`` closes its sentence's opening event phrase ("After the Treaty of X in 1871, A was in B").

    The state the main clause states begins with the event: its date cites that start, never contradicts it (the
    main clause may date its own change: "After the collapse of X in 1918, A came under B in 1919").
    """
    opening = max(text.rfind(c, 0, d.begin) for c in ".!?\n") + 1
    return _lead_event(text[opening : d.begin], text[d.end : d.end + 3], ())


def _so_in(text: str, at: int) -> bool:
    """Whether the date at ``at`` is a conclusion's ("so in 1999 ...", "so he was a Hertha player in 2000")."""
    return bool(_SO_IN_RE.search(text, max(0, at - 30), at) or _SO_STATE_RE.search(text, max(0, at - 80), at))


# "one year before (2008)", "the year before that (2004)": a bracket that glosses the relative phrase
_GLOSS_RE: Final = re.compile(r"\s*(?:that\s*|then\s*)?\(\s*")
# "..., so in 1999 she was married to him", "so yes in 2016": the conclusion's date is the question's (cite only)
_SO_IN_RE: Final = re.compile(
    r"\b(?:so|thus|hence|therefore)\s*,?\s*(?:(?:yes|no)\s*,?\s*)?(?:in|by|as\s+of|during)\s+$", re.IGNORECASE
)

# "..., so he was a Hertha player in 2000": a state the conclusion draws at the question's date, restated (cite only)
_SO_STATE_RE: Final = re.compile(
    r"\b(?:[Ss]o|[Tt]hus|[Hh]ence|[Tt]herefore)\s*,?\s+(?:he|she|they|it|[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)\s+"
    r"(?:was|were|is|are|remained|had\s+been|would\s+have\s+been)\s+(?:still\s+|already\s+)?[^\d.;:!?]{0,50}?"
    r"\b(?:in|by|as\s+of|during)\s+$"
)


def _glosses(text: str, dates: Sequence[TimeMention]) -> set[int]:
    """Offsets of the bracketed dates right after a relative phrase ("one year before (2008)"): computed, cite only."""
    if _RELATIVE_RE.search(text) is None:
        return set()
    out = set()
    for m in _RELATIVE_RE.finditer(text):
        nxt = [d for d in dates if d.begin >= m.end()]
        if nxt and _GLOSS_RE.fullmatch(text, m.end(), nxt[0].begin):
            out.add(nxt[0].begin)
    return out


def relative_bases(text: str, dates: Sequence[TimeMention]) -> set[int]:
    """Offsets of the dates a following-clause relative counts from ("the year after he took office in D").

    Such a date is the clause's event, not the fact's: it cites, never contradicts.
    """
    if _RELATIVE_RE.search(text) is None:
        return set()
    out = set()
    for m in _RELATIVE_RE.finditer(text):
        base, follows = _relative_base(text, m, dates)
        if base is not None and follows:
            out.add(base.begin)
    return out


def _not_a_source(masked: str, cands: list[_Pos]) -> list[_Pos]:
    """Positions nearest first, a move's source ("on loan from Liverpool") after the others."""
    src = [p for p in cands if _SOURCE_RE.search(masked, max(0, p.begin - 12), p.begin)]
    return [p for p in cands if p not in src] + src if len(src) < len(cands) else cands


def _sources_only(masked: str, cands: Sequence[_Pos], d: TimeMention) -> bool:
    """Whether every name before ``d`` is a move's source with a verb of its own between it and ``d``."""
    return all(_SOURCE_RE.search(masked, max(0, p.begin - 12), p.begin) for p in cands) and (
        d.kind == "until" or bool(_role_words(masked[cands[0].end : d.begin]))
    )


def _move_role(masked: str, p: _Pos, clause_begin: int) -> str | None:
    """The end a move gives the entity at ``p``: ``to``/``for`` X is X's start, ``from`` X its end."""
    head = masked[max(clause_begin, p.begin - 16) : p.begin]
    if _SOURCE_RE.search(head) and _MOVE_RE.search(masked, clause_begin, p.begin):
        return "end"
    if _TARGET_RE.search(head.lower()) and _MOVE_RE.search(masked, clause_begin, p.begin):
        return "start"
    return None


# The cue that opens the next date's clause ("in 2015 he was at X, having joined in 2014"): the next date's own
_NEXT_CUE_RE: Final = re.compile(r"[^\W\d]+(?:\s+[^\W\d]+)?\s+(?:in|on)\s+(?:the\s+)?", re.IGNORECASE)
# "and left for Y in D", "leaving for Y in D", "before joining Y in D": D is also the end of the spell the subject left
_LEFT_FOR_RE: Final = re.compile(
    r"\b(?:(?:left|leaving|departed)\s+(?:for|to)|before\s+(?:joining|moving\s+to|signing\s+for|switching\s+to))"
    r"\s+(?:the\s+)?$"
)

# A stay's length right after the date it starts from ("and stayed one season", "remained there for two years")
_STAY: Final = (
    rf"\s*,?\s*(?:and\s+)?(?:stayed|remained|spent|played)\s+(?:there\s+)?(?:for\s+)?(?:only\s+|just\s+)?"
    rf"(?P<n>{_NUMBER})\s+(?:more\s+)?"
)
# ... counted in seasons, years or months and closing its span: the stay's own length, up to the move that follows it
# A return to a club left before, dated right after its name ("returning to Stuttgart in 2011")
_RETURN_RE: Final = re.compile(r"\b(?:returning|returned|went\s+back|came\s+back)\s+to\s+(?:the\s+)?$")
_RIGHT_AFTER_RE: Final = re.compile(r"\s*,?\s*(?:in|on)\s+")
_COUNTED_STAY_RE: Final = re.compile(_STAY + r"(?:seasons?|years?|months?)(?:\s+there)?\s*,?\s*$", re.IGNORECASE)
# ... counted in seasons or years: its end, counted from the start
_STAY_LENGTH_RE: Final = re.compile(_STAY + r"(?:seasons?|years?)\b", re.IGNORECASE)


def _counted_stays(
    text: str, readings: Sequence[Attribution], dates: Sequence[TimeMention], facts: Sequence[FactRef]
) -> list[Attribution]:
    """The end a stay counted in seasons or years gives a start firmly stated for one fact.

    "Joined X in 2007 and stayed two seasons": X's end is 2009. A season may close in the year it began or the next,
    and a count of years rounds, so the end is held to the data with a year's slack: where it is more than a year
    from every end the data gives, it is firm (wrong); otherwise it only cites.
    """
    if _STAY_LENGTH_RE.search(text) is None:
        return []
    ends = {d.begin: d.end for d in dates}
    out = []
    for r in readings:
        m = _STAY_LENGTH_RE.match(text, ends.get(r.begin, r.begin)) if r.role == "start" and r.firm else None
        if m is None or len(r.facts) != 1:
            continue
        (fi,) = r.facts
        n_word = m.group("n")
        end = r.value.truncate(Granularity.YEAR).shift(int(n_word) if n_word.isdigit() else _COUNTS[n_word.lower()])
        known = facts[fi].ends if 0 <= fi < len(facts) and not facts[fi].event else ()
        firm = bool(known) and all(abs(end.year - k.year) > 1 for k in known)
        out.append(Attribution(end, "end", r.facts, firm, m.start("n")))
    return out


# a finer date put in brackets or dashes right after the date it refines ("in May 2010 — on 5 May 2010 —",
# "until Halloween 1997 (31 October 1997)")
_REFINED_GAP_RE: Final = re.compile(r"\s*[(—–-]\s*(?:on\s+|in\s+)?")


# a decade ("the 1980s", "the late 1990s"): read as its first year
_DECADE_RE: Final = re.compile(r"\d0s$")


def _within(q: TimePoint, p: TimePoint, mention: TimeMention) -> bool:
    """Whether ``q`` is ``p`` or a finer date inside it; a decade's mention holds each of its ten years."""
    if q.granularity >= p.granularity and q.truncate(p.granularity) == p:
        return True
    decade = _DECADE_RE.search(mention.text) is not None and p.granularity == Granularity.YEAR and p.year % 10 == 0
    return decade and q.granularity == Granularity.YEAR and p.year <= q.year < p.year + 10


def _refined(text: str, readings: list[Attribution], dates: Sequence[TimeMention]) -> list[Attribution]:
    """``readings`` with a date that restates or refines the one before it read as that one is (its fact, its end).

    "died in office in May 2010 — on 5 May 2010 — after which X became president": the day is the month's, the
    death's, not the start of the clause after it.
    """
    by_begin: dict[int, list[Attribution]] = {}
    for r in readings:
        by_begin.setdefault(r.begin, []).append(r)
    new: dict[int, list[Attribution]] = {}
    decades: set[int] = set()
    for a, b in pairwise(dates):
        q = b.interval.start
        if b.kind != "point" or q is None or a.begin not in by_begin:
            continue
        # the same date or a finer one inside it ("until Halloween 1997 (31 October 1997)", "the late 1980s (1987)")
        if not all(_within(q, r.value, a) for r in by_begin[a.begin]):
            continue
        if _REFINED_GAP_RE.fullmatch(text, a.end, b.begin) is not None:
            new[b.begin] = [replace(r, value=q, begin=b.begin) for r in by_begin[a.begin]]
            if _DECADE_RE.search(a.text):  # the decade's first year is no date it states
                decades.add(a.begin)
    if not new:
        return readings
    out = [r for r in readings if r.begin not in new and r.begin not in decades]
    return sorted(out + [r for rs in new.values() for r in rs], key=lambda r: r.begin)


# "from 1807 until he resigned in 1816": a range opened by "from" and closed, past a clause of its own subject's that
# names nobody (lower-case words only), by "until ... in D"
_RESUMED_UNTIL_RE: Final = re.compile(r"\s*,?\s*(?:until|till)\s+(?:he|she|they|it)\s+(?:[a-z]+\s+){1,3}?(?:in|on)\s+")


def _resumed_ranges(text: str, readings: list[Attribution], dates: Sequence[TimeMention]) -> list[Attribution]:
    """``readings`` with the start of a range resumed past a clause read for its end's fact, as firmly as that end.

    "James Turner, former governor of North Carolina, sat in the US Senate from 1807 until he resigned in 1816": one
    span of one fact, whose end the pronoun's clause states; the name before "from" does not own its start.
    """
    by_begin: dict[int, list[Attribution]] = {}
    for r in readings:
        by_begin.setdefault(r.begin, []).append(r)
    new: dict[int, Attribution] = {}
    for a, b in pairwise(dates):
        start = a.interval.start
        if a.kind != "since" or start is None or a.interval.end is not None or b.kind != "point":
            continue
        ends = [r for r in by_begin.get(b.begin, ()) if r.role == "end" and not r.carried]
        if not text[a.begin : a.end].lower().startswith("from") or len(ends) != 1:
            continue
        if _RESUMED_UNTIL_RE.fullmatch(text, a.end, b.begin) is not None:
            e = ends[0]
            new[a.begin] = Attribution(start, "start", e.facts, e.firm, a.begin, weak=e.weak)
    # in place: later steps keep readings by their index (:func:`_pinned`)
    return [new[r.begin] if r.begin in new and r.role == "start" else r for r in readings]


# A choice of dates ("in 1983 or 1984", "in 1983, or maybe 1984") or a date left open ("in 1983, or maybe earlier");
# "1983 or so" is an approximate date, still stated
_OR_DATE_RE: Final = re.compile(r"\s*,?\s*(?:[—–-]\s*)?or\s+(?:maybe\s+|perhaps\s+|possibly\s+)?(?:in\s+)?", re.I)
_OR_OPEN_RE: Final = re.compile(
    r"\s*,?\s*(?:[—–-]\s*)?or\s+(?:maybe\s+|perhaps\s+|possibly\s+|even\s+)?(?:earlier|later|before|after)\b", re.I
)


def _unhedged(text: str, readings: list[Attribution], dates: Sequence[TimeMention]) -> list[Attribution]:
    """``readings`` with the dates a hedge leaves open read as ``hedged``: they state nothing, and cite nothing.

    A choice of two dates states neither; a date "or later" is not stated. A choice whose first date is bound by weak
    evidence (:func:`_weakly_bound`) is dropped instead: its dates may be another fact's, so the verdict stays open.
    """
    choices = [(a, b) for a, b in pairwise(dates) if _OR_DATE_RE.fullmatch(text, a.end, b.begin)]
    hedged = {a.begin for a in dates if _OR_OPEN_RE.match(text, a.end)} | {d.begin for pair in choices for d in pair}
    if not hedged:
        return readings
    weak = {a.begin for a in dates if a.begin in hedged and any(r.begin == a.begin and r.weak for r in readings)}
    for a, b in choices:  # in order: "1983 or 1984 or 1985" is bound as its first date is
        if a.begin in weak:
            weak.add(b.begin)
    kept = [r for r in readings if r.begin not in weak]
    for a, b in pairwise(dates):  # the second date of a choice is the first one's, where nothing else read it
        if b.begin in hedged and a.begin in hedged and b.interval.start and all(r.begin != b.begin for r in kept):
            kept += [replace(r, value=b.interval.start, begin=b.begin) for r in kept if r.begin == a.begin]
    return [replace(r, role="hedged", firm=False) if r.begin in hedged else r for r in kept]


def _deaths_of_a_pair(readings: Sequence[Attribution], facts: Sequence[FactRef]) -> list[Attribution]:
    """A death read for a fact of two (a marriage) also cites the event facts of either of the two.

    "Mutsuko Miki's husband, Takeo Miki, died in Tokyo on 14 November 1988": the names pair the date with the
    marriage, but the death is Takeo Miki's own event (his death in Tokyo). Which of the two died the rules do not
    tell, so the date only cites: an event of the other one (a birth) is cited only by a date equal to its own.
    """
    out = []
    for r in readings:
        if r.role != "death" or len(r.facts) != 1:
            continue
        (fi,) = r.facts
        if not 0 <= fi < len(facts) or facts[fi].event or len(facts[fi].entities) < 2:
            continue
        pair = set(facts[fi].entities)
        for j, f in enumerate(facts):
            if j != fi and f.event and pair & set(f.entities):
                out.append(Attribution(r.value, "death", frozenset({j}), False, r.begin))
    return out


def _open_paren(text: str) -> int:
    """Where the last "(" of ``text`` opens, if no ")" closes it within ``text``; else -1."""
    opened = text.rfind("(")
    return opened if opened > text.rfind(")") else -1


def _own_after(span_after: str, next_date: bool) -> str:
    """``span_after`` without a last cue that the next date closes ("having joined in"), where a date follows.

    A verb that closes its own clause ("2002'de katıldı ve 2005'te") stays the date's before it. A bracket opened
    before the next date glosses that date ("wife in 1987 was X (married 1980–1990)"): its cue is not this date's.
    """
    opened = _open_paren(span_after) if next_date else -1
    if opened >= 0:
        span_after = span_after[:opened]
    cues = _role_words(span_after) if next_date else ()
    if cues and _NEXT_CUE_RE.fullmatch(span_after, cues[-1][0]) and not _verb_final(span_after, cues[-1][0]):
        return span_after[: cues[-1][0]]
    return span_after


def _left_for(
    masked: str,
    d: TimeMention,
    owner: _Pos,
    before: Sequence[_Pos],
    prev_owner: _Pos | None,
    clause_begin: int,
    positions: Sequence[_Pos],
) -> list[Attribution]:
    """Cite-only ends of the previous owner's spell: a move that leaves it, and a handover (:func:`_until_handover`).

    "Arrived at X in 2010 and left for Y in 2012": 2012 is X's end as well.
    """
    out = _until_handover(masked, d, positions, clause_begin, prev_owner)
    if d.kind != "point" or d.interval.start is None or prev_owner is None or prev_owner is owner:
        return out
    # every other name of the clause is a move's source ("joined X in 2012 from Y and left for Z in 2014")
    others = [p for p in before if not p.pronoun and p is not owner]
    if owner not in before or any(not _SOURCE_RE.search(masked, max(0, p.begin - 12), p.begin) for p in others):
        return out
    move = _LEFT_FOR_RE.search(masked, clause_begin, owner.begin)
    facts = prev_owner.facts - {_OTHER}
    if move is None:
        # the return dates the end of the spell before it: checked against the data, stating nothing
        back = _RETURN_RE.search(masked, clause_begin, owner.begin) and _RIGHT_AFTER_RE.fullmatch(
            masked, owner.end, d.begin
        )
        return [*out, Attribution(d.interval.start, "end", facts, False, d.begin, held=True)] if back and facts else out
    # "moved to X in 2007 and stayed one season before joining Y in 2009": the stay ran up to the move, so D is
    # stated as X's end, held to the data; a bare move ("left for Y in D") may leave a gap, and only cites
    firm = (
        len(facts) == 1
        and prev_owner.distinctive
        and _COUNTED_STAY_RE.fullmatch(masked, clause_begin, move.start()) is not None
    )
    return [*out, Attribution(d.interval.start, "end", facts, firm, d.begin)] if facts else out


def _clause_cites(
    masked: str, d: TimeMention, owner: _Pos, before: Sequence[_Pos], clause_begin: int
) -> list[Attribution]:
    """Cite-only readings for the other facts a move names ("joined X on loan from Y in D": X's start)."""
    out: list[Attribution] = []
    for p in before:
        facts = p.facts - {_OTHER}
        if p is owner or p.pronoun or not facts or not p.distinctive:
            continue  # a shared entity ("Colchester United" of two players) says whose move it is not
        role = _move_role(masked, p, clause_begin)
        if role is None:
            cues = _role_words(masked[clause_begin : p.begin])
            role = cues[-1][1] if cues and cues[-1][1] in ("start", "end") else None
        if role is not None:
            out.extend(_readings(d, role, facts, False, d.begin))
    return out


_PAIR_GAP_RE: Final = re.compile(r"\s*(?:and|&)\s*")
# "in 2005 and 2006", "during ...", and a stay's years as its object ("where he spent 2013 and 2014")
_IN_BEFORE_RE: Final = re.compile(r"\b(?:in|during|spent|spending|spends)\s+$", re.IGNORECASE)


def _year_pairs(text: str, dates: list[TimeMention]) -> list[TimeMention]:
    """``dates`` with "in 2005 and 2006", "spent 2005 and 2006" (two years that follow on, no more) as 2005–2006.

    A spell of two seasons written as its years; a longer list ("1992, 2000 and 2002") stays a bare list.
    """
    out: list[TimeMention] = []
    i = 0
    while i < len(dates):
        a = dates[i]
        b = dates[i + 1] if i + 1 < len(dates) else None
        after = dates[i + 2] if i + 2 < len(dates) else None
        if (
            b is not None
            and a.kind == b.kind == "point"
            and a.interval.start is not None
            and b.interval.start is not None
            and a.interval.start.granularity == b.interval.start.granularity == Granularity.YEAR
            and b.interval.start.year == a.interval.start.year + 1
            and _PAIR_GAP_RE.fullmatch(text, a.end, b.begin)
            and _IN_BEFORE_RE.search(text, max(0, a.begin - 10), a.begin)
            and not (after is not None and _LIST_GAP_RE.fullmatch(text, b.end, after.begin))
        ):
            iv = Interval(a.interval.start, b.interval.start)
            out.append(TimeMention(text[a.begin : b.end], a.begin, b.end, iv, "range"))
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def _listed(sentence: str, dates: Sequence[TimeMention]) -> set[int]:
    """Indices of dates in a bare list ("1992, 2000, 2002", "in 2010 and 2011"): no clause of their own."""
    out: set[int] = set()
    for i in range(len(dates) - 1):
        if dates[i].kind != "point" or dates[i + 1].kind != "point":
            continue
        if _RELATIVE_RE.fullmatch(dates[i + 1].text):
            continue  # "in 2000, the same year ...": a date and its restatement, no list
        gap = sentence[dates[i].end : dates[i + 1].begin]
        if _LIST_GAP_RE.fullmatch(gap):
            out |= {i, i + 1}
    return out


_CLAUSE_MARK_RE: Final = re.compile(r"[,;.!?\n]")


# "in 1932 for a house in Y", "in 2004 for Y": the destination of a move whose date is its source's end
_FOR_PLACE_RE: Final = re.compile(r"\s+for\s+(?:(?:a|an|the|his|her|their)\s+(?:[a-z-]+\s+){0,2}(?:in|at|near)\s+)?")


def _when_change(text: str, owner: _Pos, before: Sequence[_Pos]) -> tuple[_Pos, str] | None:
    """The entity and the end a when-clause's date times, where ``owner`` opens the when-clause after a change.

    "A became part of B when C collapsed in D", "she became First Lady when he took office in D": D dates A's (her)
    change; it is told as the when-clause's event, so it binds ``owner``'s own facts loosely (cite only).
    """
    rev = list(reversed(before))
    if owner not in rev:
        return None
    k = rev.index(owner)
    if k + 1 >= len(rev) or not _WHEN_BEFORE_RE.search(text, rev[k + 1].end, owner.begin):
        return None
    changed = _pick(rev[k + 1 :])
    # the change's verb may stand before the changed entity's clause opens ("since 1975, became First Lady when")
    cut = [m.end() for m in _CLAUSE_MARK_RE.finditer(text, 0, rev[k + 1].begin)]
    cues = _role_words(text[min(rev[-1].begin, cut[-1]) if cut else rev[-1].begin : owner.begin])
    if changed is None or not cues or cues[-1][1] not in ("start", "end"):
        return None
    return changed, cues[-1][1]


def _also(
    text: str, owner: _Pos, before: Sequence[_Pos], after: Sequence[_Pos], tail: tuple[str, int]
) -> list[tuple[frozenset[int], str]]:
    """Cite-only readings for a second entity: "A and B in D"; "on D, when B took office"; "A ... when C D".

    "A joined B when C collapsed in D": D dates A's change too; "in 1953, the year she married C": C's start.
    ``tail``: the text after the date (cue words read with names blanked) and where it begins.
    """
    span_after, after_begin = tail
    out: list[tuple[frozenset[int], str]] = []
    rev = list(reversed(before))
    if owner in rev:
        k = rev.index(owner)
        if k + 1 < len(rev) and _AND_GAP_RE.fullmatch(text, rev[k + 1].end, owner.begin):
            out.append((rev[k + 1].facts - {_OTHER}, ""))
        elif (change := _when_change(text, owner, before)) is not None:
            out.append((change[0].facts - {_OTHER}, change[1]))  # "A became part of B when C collapsed in D" (cite)
    m = _WHEN_RE.match(span_after)
    if m and after:
        p = _object_first(text, list(after))[0]  # "the year she married C": C's start, whoever "she" is
        # the verb before the name ("left A in D and joined B": B's start), else the one after it ("when B took office")
        cues = _role_words(span_after[m.end() : p.begin - after_begin]) or _role_words(text[p.end : p.end + 40])
        # "left A in D and went straight to B": a move to B is B's start, whatever the clause after B says
        moved = _move_role(text, p, after_begin + m.end())
        if moved is not None or (cues and cues[0][1] in ("start", "end")):
            out.append((p.facts - {_OTHER}, moved or cues[0][1]))
    elif after and _FOR_PLACE_RE.fullmatch(span_after, 0, after[0].begin - after_begin) and before:
        # "left Berlin in 1932 for a house in Kleinmachnow": the move's destination starts when the source ends
        cues = _role_words(text[before[0].begin : after_begin])
        if cues and cues[-1][1] == "end":
            out.append((after[0].facts - {_OTHER}, "start"))
    if after and _SAME_PERIOD_RE.search(span_after):  # "until 1866, and B was a member over the same period"
        out.append((after[0].facts - {_OTHER}, ""))
    return [(f, r) for f, r in out if f]


# a second entity said to hold over the span just dated: its dates cite that entity's too
_SAME_PERIOD_RE: Final = re.compile(
    r"\b(?:over|for|during|in|throughout)\s+(?:the\s+|that\s+)?same\s+(?:period|years|time|span)\b", re.IGNORECASE
)


# Words of a label that name no one thing on their own: a particle, and a club's, a team's, a body's or a unit's kind.
_PARTICLES: Final = frozenset(
    ["de", "del", "della", "di", "da", "do", "dos", "das", "la", "le", "les", "los", "las", "el", "il", "of", "the",
     "and", "for", "in", "at", "on", "von", "van", "der", "den", "und", "et", "y", "e"]
)  # fmt: skip
_KINDS: Final = frozenset(
    ["national", "team", "football",
     "soccer", "association", "under", "men", "women", "youth", "olympic", "reserves", "city", "town", "united",
     "athletic", "atletico", "athletico", "sporting", "real", "racing", "university", "college", "school", "institute",
     "academy", "party", "republic", "kingdom", "empire", "county", "district", "region", "province", "state",
     "oblast", "governorate", "okrug", "uyezd", "bezirk", "government", "award", "prize", "medal", "order", "best",
     "actor", "actress", "festival", "jury", "member", "parliament", "house", "council", "assembly", "church",
     "north", "south", "east", "west", "northern", "southern", "eastern", "western", "new", "old", "great", "saint",
     "san", "santa", "st", "fort", "lower", "upper", "central", "democratic", "socialist", "people", "peoples",
     "soviet", "federal", "autonomous", "free", "royal", "imperial", "grand", "duchy", "principality",
     # Danish, Norwegian and Swedish words for a ball or sports club ("Vejle Boldklub" names no person)
     "boldklub", "boldspilklub", "fodboldklub", "idrætsforening", "idrætsklub", "fotballklubb", "ballklubb",
     "idrettslag", "idrettsforening", "idrottsförening", "fotbollsförening", "bollklubb",
     # a company's legal form ("Warner Bros." names no person: "Warner's 1989 acquisition" is the company's)
     "bros", "brothers", "inc", "ltd", "corp", "plc", "llc", "gmbh"]
)  # fmt: skip
_GENERIC_WORDS: Final = _PARTICLES | _KINDS


def _head_words(
    facts: Sequence[FactRef], toks: Sequence[Token], text: str, base: NameIndex | None = None
) -> dict[str, tuple[str, ...]]:
    """Each fact entity's words the text names it by alone: "Sparta" for Sparta Rotterdam, "Estudiantes".

    A word of one entity's label, capitalised there and in the text, that is no kind of thing (:data:`_GENERIC_WORDS`,
    a club's affix, a title) and no word of another fact's entity: within the question's facts it names that one,
    whatever else of the release shares it ("Cannes" of the Cannes jury); so do the initials of three or more such
    words written in capitals ("NPC"). A label that looks like a person's name but ends in the name of a place the
    release knows (``base``: "Red Star Belgrade") is named by its words before the place (:func:`_leading_words`).
    """
    said = {t.key for t in toks if text[t.begin].isupper()}
    if not said:
        return {}
    acronyms = {t.key for t in toks if t.end - t.begin >= 2 and text[t.begin : t.end].isupper()}
    words_of: dict[str, set[str]] = {}
    owner_of: dict[str, set[int]] = {}
    for i, f in enumerate(facts):
        for e in f.entities:
            owner_of.setdefault(e, set()).add(i)
            words_of[e] = {t.key for t in tokens(e) if e[t.begin].isupper() and len(t.key) >= 2 and not t.key.isdigit()}
    out: dict[str, tuple[str, ...]] = {}
    for e, words in words_of.items():
        pair = _pair_initials(e, words_of, owner_of, acronyms)  # "IM" of International Master
        if _person(e):
            # a person's given name is no name of theirs alone ("Dorothy" of Dorothy Ayer Gardner Ford); a label that
            # only looks like one ("Red Star Belgrade") is named by its words before the last ("Red Star")
            lead = _leading_words(e, text, [o for o in words_of if owner_of[o] != owner_of[e]], base)
            given = _given_name(e, words_of, toks, text)
            if lead or pair or given:
                out[e] = (*([lead] if lead else []), *pair, *given)
            continue
        rivals = set().union(*(w for o, w in words_of.items() if owner_of[o] != owner_of[e]))
        own = {w for w in words if w not in rivals and w not in _GENERIC_WORDS and not _affix(w)}
        # its members by the plural of a word ("the Nationalists" of the Nationalist Party of Australia)
        mine = sorted((own & said) | {w + "s" for w in own if w + "s" in said and not w.endswith("s")})
        mine += _label_prefix(e, text, [o for o in words_of if owner_of[o] != owner_of[e]], base)
        mine += [a for a in initials_of(e, min_len=3) if a in acronyms]  # "NPC", "QPR"
        mine += pair
        mine += _place_adjective(e, said, rivals)  # "Diósgyőr" of Diósgyőri VTK
        mine += _club_lead(e, said, rivals)  # "Sporting" of Sporting Clube de Portugal
        mine += _ordinal_phrases(e, text, [o for o in words_of if owner_of[o] != owner_of[e]])  # "52nd Parliament"
        if mine and len(words) > 1:
            out[e] = tuple(mine)
    return out


# an ordinal and the capitalised word it numbers ("52nd Parliament", "3rd Dáil")
_ORDINAL_PHRASE_RE: Final = re.compile(r"\b\d{1,3}(?:st|nd|rd|th)\s+[A-ZÀ-ÖØ-Þ][\w-]*")


def _ordinal_phrases(label: str, text: str, rivals: Sequence[str]) -> list[str]:
    """A label's ordinal phrases the text writes, which no other fact's entity has ("52nd Parliament").

    Member of the 52nd Parliament of the United Kingdom: its capitalised words are all kinds of thing, so it has no
    head word of its own; "entered the 52nd Parliament in 1997" still names it.
    """
    low = text.lower()
    return [
        p
        for p in _ORDINAL_PHRASE_RE.findall(label)
        if p.lower() in low and not any(p.lower() in r.lower() for r in rivals)
    ]


def _place_adjective(label: str, said: set[str], rivals: set[str]) -> list[str]:
    """A club label's opening place adjective without its "-i" ("diósgyőr" of Diósgyőri VTK, "győr" of Győri ETO FC).

    Hungarian clubs are named "<place>i <initials>"; a reply names them by the place ("joined Diósgyőr in 2010").
    Only where every word after the first is written in capitals or is a club's affix, the text writes the place
    capitalised, and no other fact's entity has that word.
    """
    toks = tokens(label)
    if len(toks) < 2 or not toks[0].key.endswith("i") or len(toks[0].key) < 5 or not label[0].isupper():
        return []
    if not all(label[t.begin : t.end].isupper() or _affix(t.key) for t in toks[1:]):
        return []
    stem = toks[0].key[:-1]
    return [stem] if stem in said and stem not in rivals else []


def _club_lead(label: str, said: set[str], rivals: set[str]) -> list[str]:
    """A club's opening word, a word common to many clubs (:data:`_KINDS`), that a text names it by alone.

    "Sporting" of Sporting Clube de Portugal ("joined Sporting in 2010"). Only for a label with a club's affix after
    that word, written capitalised in the text, and where no other fact's entity has the word (two Sporting clubs:
    neither).
    """
    toks = tokens(label)
    if len(toks) < 2 or not label[0].isupper() or not any(t.key in _CLUB_WORDS for t in toks[1:]):
        return []
    lead = toks[0].key
    return [lead] if lead in _KINDS and lead in said and lead not in rivals and not _affix(lead) else []


def _label_prefix(label: str, text: str, rivals: Sequence[str], base: NameIndex | None) -> list[str]:
    """The longest opening of two or more capitalised words of a longer label that the text writes as a name.

    "Hero City" of Hero City of the Soviet Union ("was awarded the title Hero City in 1974"), where no rival label of
    the question opens so and the opening is no whole name the release knows ("Real Madrid" of Real Madrid Castilla,
    "United States" of United States Senate are other entities); the text's next word is not capitalised.
    """
    toks = tokens(label)
    for k in range(len(toks) - 1, 1, -1):
        lead = label[: toks[k - 1].end]
        if not all(label[t.begin].isupper() for t in toks[:k]) or any(r.startswith(lead) for r in rivals):
            continue
        if base is not None and any(m.begin == 0 and m.end == len(lead) for m in base.find(lead)):
            return []
        if re.search(rf"(?<![\w-]){re.escape(lead)}(?![\w-])(?!\s+[A-Z])", text):
            return [lead]
    return []


def _given_name(label: str, words_of: Mapping[str, set[str]], toks: Sequence[Token], text: str) -> tuple[str, ...]:
    """A person's given name, where another person of the question's facts has the same surname (a couple, kin).

    "Darci Vargas married Getúlio Vargas in 1911. Getúlio died on 24 August 1954": the surname names neither, so the
    text tells them apart by the given name, which names that person where it is no word of any other entity and the
    text writes it alone only as a sentence's subject ("Joan's husband", "married to Ferdinand" name the spouse).
    """
    own = tokens(label)
    if len(own) < 2 or len(own[0].key) < 3:
        return ()
    surname, given = own[-1].key, own[0].key
    kin = [o for o in words_of if o != label and _person(o) and tokens(o)[-1].key == surname]
    if not kin or any(given in w for o, w in words_of.items() if o != label):
        return ()
    alone = [
        (i, t) for i, t in enumerate(toks) if t.key == given and not (i + 1 < len(toks) and toks[i + 1].key == surname)
    ]
    if not alone or any(_POSSESSIVE_RE.search(text, t.begin, t.end) or not _sentence_first(text, t) for _, t in alone):
        return ()
    return (label[own[0].begin : own[0].end],)


def _sentence_first(text: str, tok: Token) -> bool:
    """Whether ``tok`` starts the text or a sentence (after . ! ? or a line break)."""
    return text[: tok.begin].rstrip(" \t>*#-")[-1:] in ("", ".", "!", "?", "\n", ";")


def _leading_words(label: str, text: str, rivals: Sequence[str], base: NameIndex | None) -> str:
    """A label of three or more words without its last, where that last word is a place's whole label in ``base``.

    "Red Star" of Red Star Belgrade (the release knows "Belgrade"), where the text writes it and no rival label of
    the question starts so. A person's surname is no place's label ("Eduardo Frei" of Eduardo Frei Ruiz-Tagle is not
    taken: "Eduardo Frei Montalva" is his father).
    """
    toks = tokens(label)
    if len(toks) < 3 or base is None:
        return ""
    lead = label[: toks[-1].begin].strip()
    if lead not in text or any(r.startswith(lead) for r in rivals):
        return ""
    last = label[toks[-1].begin : toks[-1].end].casefold()
    return lead if any(k.casefold() == last for k in base.owners(toks[-1].key)) else ""


def _pair_initials(
    label: str, words_of: Mapping[str, set[str]], owner_of: Mapping[str, set[int]], acronyms: set[str]
) -> list[str]:
    """The initials of a two-word label ("im" of International Master) where the text writes them in capitals.

    A title named by its initials ("became an IM in 2008") is named as plainly as by its words. Initials another
    fact's entity shares name neither; a body's, a side's or a place's two letters ("BP" of Blue Party, a word of
    :data:`_KINDS`) are too common to name one (an oil company's too).
    """
    toks = tokens(label)
    initials = initials_of(label).full
    if len(toks) != 2 or initials not in acronyms or any(t.key in _KINDS for t in toks):
        return []
    rivals = {initials_of(o).full for o in words_of if owner_of[o] != owner_of[label]}
    return [] if initials in rivals else [initials]


def _person(label: str) -> bool:
    """A person's name: :func:`person_like`, with no acronym ("AZ Alkmaar") and no word of a kind of thing."""
    if not person_like(label):
        return False
    toks = tokens(label)
    return not any(
        (len(t.key) >= 2 and label[t.begin : t.end].isupper()) or t.key in _KINDS or _affix(t.key) for t in toks
    )


def _affix(word: str) -> bool:
    return word in _CLUB_WORDS or word in _TITLE_WORDS


def _head_word_of_another(
    text: str, toks: Sequence[Token], m: NameMention, heads: Mapping[str, tuple[str, ...]]
) -> bool:
    """Whether a one-word mention that only a head word names is part of another name ("Sparta Prague").

    A sentence's first word that only leads into it ("Before Antwerp (1973–1977), ...") is no part of a name.
    """
    if not heads or not any(m.keys & heads.keys()):
        return False
    i = next((k for k, t in enumerate(toks) if t.begin == m.begin), None)
    if i is None or toks[i].end != m.end:
        return False
    if not any(toks[i].key in heads.get(k, ()) for k in m.keys):
        return False
    own = {t.key for k in m.keys for t in tokens(k)}
    for j in (i - 1, i + 1):
        if 0 <= j < len(toks):
            a, b = (toks[j], toks[i]) if j < i else (toks[i], toks[j])
            if not text[a.end : b.begin].strip() and text[toks[j].begin].isupper() and toks[j].key not in own:
                if j < i and _sentence_lead(text, toks[j]):
                    continue
                return True
    return False


def _sentence_lead(text: str, tok: Token) -> bool:
    """Whether ``tok`` is a connector or preposition written capitalised as a sentence's first word ("Before")."""
    return tok.key in _LEADING_WORDS and text[tok.begin : tok.end].istitle() and _sentence_first(text, tok)


def _labels_index(labels: tuple[str, ...]) -> NameIndex:
    return NameIndex({o: (o,) for o in labels})


def _fact_index(
    facts: tuple[FactRef, ...], base: NameIndex | None, heads: Mapping[str, tuple[str, ...]] | None = None
) -> tuple[NameIndex, dict[str, frozenset[int]]]:
    """The facts' entities over ``base`` (a surname names them where none of them shares it), and owners.

    ``heads``: each entity's head words the text names it by (:func:`_head_words`), labels of it as well.
    Built per explanation, never kept (a kept index would hold ``base``, a whole corpus, alive too).
    """
    owner_of: dict[str, set[int]] = {}
    ents: dict[str, tuple[str, ...]] = {}
    for i, f in enumerate(facts):
        for e in f.entities:
            owner_of.setdefault(e, set()).add(i)
            ents[e] = (e, *(heads or {}).get(e, ()))
    index = NameIndex(ents, base=base, rivals=())
    return index, {k: frozenset(v) for k, v in owner_of.items()}


# A term that lasted less than the day it is dated by ("for a few hours on 8 July 2010", "for a few hours that
# same day"), or began and ended on it ("his stint began and ended on 8 July 2010").
_WITHIN_DAY_RE: Final = re.compile(
    r"\bfor\s+(?:only\s+|just\s+)?(?:a\s+few|several|some|a\s+couple\s+of|a\s+single|a|one)\s+(?:hours?|day)\s+(?:on\s+)?$|"
    r"\b(?:began|begun|started|opened)\s+and\s+(?:ended|finished|closed)\s+(?:on\s+)?(?:the\s+same\s+day\s*,?\s*)?$",
    re.IGNORECASE,
)


# A state that holds at the date written after it ("in 1958, she was married to X", "by then they were married"):
# no change, so no start.
_STATE_AFTER_RE: Final = re.compile(
    r"[\s,]*(?:(?:he|she|they|it|[^\W\d_]+)\s+)?(?:was|were|is|are|had\s+been|has\s+been)\s+"
    r"(?:(?:already|still|therefore|thus|then|indeed)\s+)?married\b",
    re.IGNORECASE,
)
# A term that lasted the one day it is dated by, said after the date ("on 8 July 2010 (a single day)", "on D, for
# one day")
_ONE_DAY_AFTER_RE: Final = re.compile(
    r"\s*[,(]\s*(?:for\s+)?(?:only\s+|just\s+)?(?:a\s+single|a|one|that)\s+(?:single\s+)?day\b", re.IGNORECASE
)


_FROM_RE: Final = re.compile(r"\bfrom\b")
# a cue after the date that its clause negates ("came in 1976 ..., and the NHL status was never lost"): no change
_NEGATED_RE: Final = re.compile(r"\b(?:never|not)\s+(?:been\s+|yet\s+)?$|n[’']t\s+(?:been\s+)?$", re.IGNORECASE)
# a state the subject left that is none of the question's facts (its complement names nothing the rules know, lower-case
# words only): "stopped being an ordinary commune at the end of 2015" is not the end of its status as a delegated one
_FORMER_STATE_RE: Final = re.compile(
    r"\b(?:stopped|ceased)\s+(?:being|to\s+be)\s+(?:an?|the)\s(?:[a-z-]+ ){1,4}"
    r"(?:at|in|on|by)\s(?:the\s)?(?:end\s+of\s)?$"
)
# "since the death of Elizabeth II on 8 September 2022", "since the founding of the republic in 1949": the date of the
# event the state holds since (its start); no other date or clause break between "since" and the date
_SINCE_EVENT_RE: Final = re.compile(
    r"\bsince\s+(?:the\s+|his\s+|her\s+|its\s+|their\s+)?[a-z]+\s+of\b[^\d,;:.()]{0,60}?\s(?:on|in)\s+$", re.IGNORECASE
)
# "ran past 1999", "went on beyond 2004": a time the fact outlasted, not its end
_PAST_RE: Final = re.compile(r"\b(?:past|beyond)\s+(?:(?:the\s+)?(?:end|start)\s+of\s+)?$", re.IGNORECASE)
# "became a citizen when the state was founded in 1949": the event of a when-clause dates the change before it
_WHEN_CLAUSE_RE: Final = re.compile(r"\bwhen\b")

# "the 2004–2012 window": the question's window restated after its dates, no fact's; so is its date tested against
# a span, said after it ("1859 falls inside both", "1977 lies within it")
_WINDOW_AFTER_RE: Final = re.compile(
    r"\s*(?:(?:time\s+)?window\b|(?:falls?|lies?|sits?)\s+(?:inside|within|between)\b)", re.IGNORECASE
)


def _role(d: TimeMention, before: str, after: str, prev: str) -> tuple[str, bool, bool]:
    """The end ``d`` is stated as, whether the clause marks another term, and whether the role is carried.

    A carried role is the previous date's, the clause having no cue of its own.
    """
    low = before.lower()
    head = low + d.text[:8].lower()  # a range's own "between" ("sits between D1 and D2")
    other_term = any(w in head for w in _OTHER_TERM) or ("of" in low and _AS_OF_RE.search(low) is not None)
    other_term = other_term or _WINDOW_AFTER_RE.match(after) is not None  # "within the 2004–2012 window"
    other_term = other_term or _FORMER_STATE_RE.search(low) is not None  # "stopped being an ordinary commune in"
    if d.kind == "range":
        return "range", other_term, False
    if d.kind == "since":
        return ("none" if d.exclusive else "start"), other_term, False
    if d.kind == "until":
        clause = before + d.text[: max(0, d.text.lower().find("until"))]  # "call-up until D" is read "up until D"
        negated = _NOT_UNTIL_RE.search(clause)
        if negated is not None:  # "didn't join Pompey until 2012": he joined in 2012; no end is stated
            return _not_until_role(clause[negated.end() :], after), other_term, False
        return ("none" if d.exclusive else "end"), other_term, False
    if d.kind == "point" and _lead_event(before, after[:3], ()):  # "After the Treaty of X in 1871, A was in B"
        return "start", other_term, False
    if d.kind == "point" and _RESUMED_RANGE_RE.fullmatch(before):  # "from D1, succeeding X, to D2": the range's end
        return "end", other_term, False
    if d.kind == "point" and _SINCE_EVENT_RE.search(before):  # "has been king since the death of X on D"
        return "start", other_term, False
    if d.kind == "point" and low.rstrip().endswith("by") and _BY_RE.search(before):  # "by 2007 he had left"
        return "none", other_term, False
    if d.kind == "point" and _PAST_RE.search(before):  # "ran past 1999": a bound, no end stated
        return "none", other_term, False
    if d.kind == "point" and (_WITHIN_DAY_RE.search(before) or _ONE_DAY_AFTER_RE.match(after)):
        return "range", other_term, False  # "acted for a few hours on D", "on D (a single day)": began and ended on D
    key = _FIELD_KEY_RE.fullmatch(before)  # "from: 6 June 2019" / "to: 10 December 2019" (a table's columns)
    if key is not None:
        return ("start" if key.group("start") else "end"), other_term, False
    after_cues = tuple(c for c in _role_words(after) if _NEGATED_RE.search(after, 0, c[0]) is None)
    if _STATE_AFTER_RE.match(after):  # "in 1958, she was married to X": a state at the date, no wedding
        after_cues = ()
    if after_cues and _verb_final(after, after_cues[0][0]):  # "2002'de katıldı": the verb after the date is its own
        return after_cues[0][1], other_term, False
    last_until = _LAST_UNTIL_RE.search(before)
    if d.kind == "point" and last_until is not None and _until_next_start(before[last_until.start() :]):
        return "end", other_term, False  # "until she became Justice Secretary in 2016": the stay's end
    cues = [c for c in _role_words(before) if not _verb_final(before, c[0])]
    if cues and prev == "start" and _DEGREE_RE.match(low, cues[-1][0]):
        return "end", other_term, False  # "studied there from 1982 ... and graduated in 1989": the study's end
    if cues:
        return _main_clause_role(low, cues), other_term, False
    if after_cues:
        opens = _FROM_RE.search(low) or low.rstrip().endswith("(")  # "(1952 until the reform of 1994)": its start
        if opens and after[after_cues[0][0] :].lower().startswith(("until", "till")):
            return "start", other_term, False  # "from the creation of X in 1790 until 1968": a range in words
        return after_cues[0][1], other_term, False
    return prev if prev != "range" else "none", other_term, True


# A negation in the clause before "until D" ("didn't join X until 2012", "it was not until 2006 that he joined"): D is
# when the clause's event happened, not the end of a stay
_NOT_UNTIL_RE: Final = re.compile(r"(?:\bnot|\bnever|n[’']t)\b(?=[^.;:!?()\n]*$)", re.IGNORECASE)


def _not_until_role(clause: str, after: str) -> str:
    """The role of the date a negated "until" gives: the last cue of its clause after the negation.

    With no cue there, the first of the that-clause after the date ("not until 2006 that he joined"); a start, an
    end or an event's point, else none (no end is stated).
    """
    own = _role_words(clause)
    cues = own[-1:] or _role_words(after)[:1]
    role = cues[0][1] if cues else "none"
    return role if role in ("start", "end", "point", "death") else "none"


def _main_clause_role(low: str, cues: Sequence[tuple[int, str]]) -> str:
    """The role of the last cue, or of the change before "when" where the last is an event in the when-clause.

    "became a citizen when the state was founded in 1949": the founding dates the citizenship's start. "was born
    when ...", "left when it was dissolved" keep the last cue.
    """
    at, role = cues[-1]
    if role != "point":
        return role
    whens = [m.start() for m in _WHEN_CLAUSE_RE.finditer(low, 0, at)]
    main = [r for c, r in cues if whens and c < whens[-1]]
    return main[-1] if main and main[-1] in ("start", "end") else role


def _verb_final(span: str, at: int) -> bool:
    """Whether the cue at ``at`` of ``span`` is a verb that closes its clause (:data:`_VERB_FINAL_START`)."""
    return span[at:].lower().startswith((*_VERB_FINAL_START, *_VERB_FINAL_END))


def _readings(
    d: TimeMention, role: str, facts: frozenset[int], firm: bool, begin: int, carried: bool = False, weak: bool = False
) -> list[Attribution]:
    if d.kind in ("decade", "century") or not facts:
        return []
    iv = d.interval
    if role == "range":
        out = []
        if iv.start is not None:
            out.append(Attribution(iv.start, "start", facts, firm, begin, weak=weak))
        if iv.end is not None:
            out.append(Attribution(iv.end, "end", facts, firm, begin, weak=weak))
        return out
    p = iv.start if iv.start is not None else iv.end
    return [] if p is None else [Attribution(p, role, facts, firm, begin, carried, weak)]


def _succession(
    text: str,
    d: TimeMention,
    d_begin: int,
    before: Sequence[_Pos],
    positions: Sequence[_Pos],
    bounds: tuple[int, int],
) -> list[Attribution]:
    """The inferred other end of a handover ("X was succeeded by Y on D": D is X's end too).

    ``bounds``: where the sentence and the date's clause begin. A clause that opens with "and" and names nobody
    before its cue has the sentence's subject ("X took office on D1 and handed over to Y on D2").
    """
    if d.kind != "point" or d.interval.start is None:
        return []
    sentence_begin, clause_begin = bounds
    span = text[clause_begin:d_begin]
    folded = span.casefold()  # a quick reject: every cue holds one of these words (casefold covers re's case rules)
    if not any(w in folded for w in _SUCCESSION_WORDS):
        return []
    passive = list(_PASSIVE_SUCCESSION.finditer(span))
    active = list(_ACTIVE_SUCCESSION.finditer(span))
    cue = passive[-1] if passive else (active[-1] if active else None)
    if cue is None:
        return []
    at = clause_begin + cue.start()
    # ", succeeding Jiang Zemin, and handed over to Y on D": the aside's name is not the one who handed over
    asides = [(b, e) for b, e in _asides(text) if clause_begin <= b and e <= at]
    lead = clause_begin
    for b, e in asides:
        lead = e if not text[lead:b].strip() else lead
    earlier = [p for p in positions if p.end <= at and not _inside(p.begin, asides)]
    # the clause's own subject first: "Goppel succeeded him in 1962" is Goppel's start, however many facts he has
    own = [p for p in earlier if p.begin >= clause_begin]
    prior = _pick(list(reversed(own or earlier))) if earlier else None
    if passive and _AND_OPENS_RE.match(text, lead) and not any(p.begin >= clause_begin for p in earlier):
        prior = next((p for p in earlier if p.begin >= sentence_begin and not p.pronoun), prior)
    after_cue = [p for p in before if p.begin >= clause_begin + cue.end()]
    # "X succeeded Gerhard Schröder as Ministerpräsident in 1998": X's start, whoever the rules know the other for
    if prior is None or not (after_cue or (active and not passive)):
        return []
    out = []
    facts = prior.facts - {_OTHER}
    if facts:
        out.append(Attribution(d.interval.start, "end" if passive else "start", facts, False, d_begin))
    if not passive and after_cue:  # "X succeeded Y on D", "X replaced him on D": the date is Y's end as well
        later = after_cue[-1].facts - {_OTHER}
        if later:
            out.append(Attribution(d.interval.start, "end", later, False, d_begin))
    return out


_AND_OPENS_RE: Final = re.compile(r"\s*,?\s*and\b", re.IGNORECASE)


def _same(pred: TimePoint, gold: TimePoint, g: Granularity) -> bool:
    # Both at least as fine as ``ge``: they cover the same units of ``ge`` exactly when they are the same
    # point once truncated to it (``TimePoint.lo``/``hi`` agree then; truncating is cheaper).
    gg = gold.granularity
    ge = g if g < gg else gg
    return pred.granularity >= ge and pred.truncate(ge) == gold.truncate(ge)


def _differs(pred: TimePoint, gold: TimePoint, g: Granularity) -> bool:
    c = min(g, gold.granularity, pred.granularity)
    return pred.truncate(c) != gold.truncate(c)


def may_state(
    dates: Sequence[TimeMention], refs: Sequence[tuple[str, TimePoint, int]], granularity: Granularity
) -> bool:
    """Whether any reference's value is an end of some date of the text.

    Every reading :func:`attribute` makes has an end of one of the text's dates as its value, so
    where this is false no reference is stated (:func:`judge_refs` would count none): a quick reject.
    """
    # a decade or a century names no year ("the late 1930s" is not 1939), whatever its ends are
    spans = [d for d in dates if d.kind not in ("decade", "century")]
    ends = [(p, p.granularity) for d in spans for p in (d.interval.start, d.interval.end) if p is not None]
    for _, value, _ in refs:
        gg = value.granularity
        ge = granularity if granularity < gg else gg
        gold = value.truncate(ge)
        for p, pg in ends:  # as _same, with the reference's side computed once
            if pg >= ge and (p if pg == ge else p.truncate(ge)) == gold:
                return True
    return False


def judge_refs(
    readings: Sequence[Attribution],
    refs: Sequence[tuple[str, TimePoint, int]],
    facts: Sequence[FactRef],
    granularity: Granularity,
    years_only: bool = False,
    loose: bool = False,
) -> tuple[int, bool]:
    """How many ``(which, value, fact)`` references are stated, and whether the text contradicts the data.

    A reference is stated by a reading of its fact at its end (``any``: any end; an event fact: its
    point, start or an unmarked date); a firm reading of its fact at that end that equals neither a reference
    nor another spell's time at that end contradicts it, and so does a firm reading of any fact at an end whose
    data it differs from (:func:`_against_data`: a supporting or anchor fact's wrong date). The active-succession
    swap ("X succeeded Y on D") is handled by ``attribute``. ``years_only``: every date compared by its year
    (``T_loose``), also one stated finer than the question. A weakly bound reading (``Attribution.weak``)
    contradicts nothing; ``loose``: it does (what :func:`weakly_contradicted` asks).
    """
    if loose:
        readings = [replace(r, firm=True) if r.weak else r for r in readings]
    n = 0
    # one answer may hold several terms (two spells as acting president): a date equal to any of its fact's
    # references at that end, or to another spell's time at that end, contradicts none of them
    gold: dict[tuple[int, str], list[TimePoint]] = {}
    for which, value, fi in refs:
        gold.setdefault((fi, which), []).append(value)
    for (fi, which), values in gold.items():
        if 0 <= fi < len(facts):
            values.extend(_known_at(facts[fi], which))
    contradicted = _against_data(readings, facts, granularity, years_only)
    contradicted = (
        contradicted
        or _joins_spells(readings, facts, granularity)
        or _swapped_end(readings, facts, granularity)
        or _one_year_off(readings, facts, granularity)
        or _tied_off(readings, facts, granularity, years_only)
    )
    for which, value, fi in refs:
        fact = facts[fi] if 0 <= fi < len(facts) else FactRef(())
        if which == "any" or fact.event:
            ok_roles, strict_roles = {"start", "end", "point", "none", "death"}, {"start", "end", "point"}
        elif which == "start" and fact.open_end:  # "won in 1990", "(1995–?)": the start of a start-only fact
            ok_roles, strict_roles = {"start", "point", "none", "elected"}, {"start"}
        elif which == "start":
            ok_roles, strict_roles = {"start", "elected"}, {"start"}
        elif which == "end":  # "died in office on D", "was ousted on D": an end (cited, never contradicting)
            ok_roles, strict_roles = {"end", "death"}, {"end"}
        else:
            ok_roles, strict_roles = {which}, {which}
        if _one_day(fact):  # a term begun and ended the same day: a date stated for it with no end is either end
            ok_roles = ok_roles | {"point", "none"}
        mine = [r for r in readings if fi in r.facts and not r.held]
        if any(r.role in ok_roles and _same(r.value, value, granularity) for r in mine):
            n += 1
        if any(
            r.firm
            and r.role in strict_roles
            and len(r.facts) == 1
            and all(_differs(r.value, v, granularity) for v in gold[(fi, which)])
            for r in mine
        ):
            contradicted = True
    return n, contradicted


def weakly_contradicted(
    readings: Sequence[Attribution],
    refs: Sequence[tuple[str, TimePoint, int]],
    facts: Sequence[FactRef],
    granularity: Granularity,
) -> TimePoint | None:
    """The first date that contradicts the data only through a weak binding (``None``: none does).

    :func:`judge_refs` found no contradiction among the firmly bound dates; a date weakly bound to a fact
    (:func:`_weakly_bound`) may still differ from that fact's data. It may belong to another fact: the verdict is
    undecided, not wrong.
    """
    for i, r in enumerate(readings):
        if not r.weak:
            continue
        rest = [x for j, x in enumerate(readings) if j == i or not x.weak]
        if judge_refs(rest, refs, facts, granularity, loose=True)[1]:
            return r.value
    return _other_end_of_range(readings, refs, facts, granularity)


def _other_end_of_range(
    readings: Sequence[Attribution],
    refs: Sequence[tuple[str, TimePoint, int]],
    facts: Sequence[FactRef],
    granularity: Granularity,
) -> TimePoint | None:
    """A check-only end: the other end of the range that states a reference, where it differs from the data.

    For a reference at one end of its fact (the end 2012 of "on MIT's faculty from 1995 until 2012"), the range that
    states it also states the fact's other end (1995), which no reference asks for: where the data knows that end
    (1993) and every time it gives differs, the text is wrong about the reference's own fact. A firm reading is held
    to the data already (:func:`_against_data`); one that only cites (an unknown name near it, a shared subject) is
    bound too loosely to be wrong, so it makes the verdict undecided. An end the data leaves open or unknown, or one
    a reference asks for, decides nothing; a date the text states elsewhere is not this rule's.
    """
    asked = {(fi, which) for which, _, fi in refs}
    for which, value, fi in refs:
        if which not in ("start", "end") or not 0 <= fi < len(facts) or facts[fi].event:
            continue
        other = "end" if which == "start" else "start"
        known = _known_at(facts[fi], other)
        if (fi, other) in asked or not known:
            continue
        for r in _range_ends(readings, fi, which, value, granularity):
            if all(_differs(r.value, v, granularity) for v in known):
                return r.value
    # "on loan at X in 2010, returning to Y in 2011": the move out dates X's end, though it only cites; where the
    # text states X's end itself ("from 2011 to 2013 before returning to Y in 2014"), the move is a later one
    stated = {fi for r in readings if r.role == "end" and r.firm and not r.held for fi in r.facts}
    for r in readings:
        known = _known_at(facts[min(r.facts)], "end") if r.held and len(r.facts) == 1 and not r.facts & stated else ()
        if known and all(_differs(r.value, v, granularity) for v in known):
            return r.value
    return None


def _range_ends(
    readings: Sequence[Attribution], fi: int, which: str, value: TimePoint, granularity: Granularity
) -> list[Attribution]:
    """The other ends, for fact ``fi``, of the ranges whose end ``which`` states ``value``.

    A range is one date of the text read at both ends (the readings share its place), its start before its end: a
    point date read at two ends (a start that also cites another fact's end) is no range.
    """
    ranges = {
        r.begin: r.value
        for r in readings
        if fi in r.facts and r.role == which and not r.carried and _same(r.value, value, granularity)
    }
    out = []
    for r in readings:
        if r.begin not in ranges or fi not in r.facts or r.carried or r.role not in ("start", "end") or r.role == which:
            continue
        start, end = (r.value, ranges[r.begin]) if r.role == "start" else (ranges[r.begin], r.value)
        if start.first_day() < end.first_day():
            out.append(r)
    return out


def _one_day(fact: FactRef) -> bool:
    """Whether every spell of ``fact`` began and ended on the same day (an acting term of hours)."""
    return bool(fact.spells) and all(
        a is not None and a == b and a.granularity >= Granularity.DAY for a, b in fact.spells
    )


def _known_at(fact: FactRef, which: str) -> tuple[TimePoint, ...]:
    """The data's times of ``fact`` at end ``which`` (every spell's; an event's point at any end)."""
    if fact.event:
        return fact.starts
    return {"start": fact.starts, "end": fact.ends}.get(which, fact.starts + fact.ends)


def _against_data(
    readings: Sequence[Attribution], facts: Sequence[FactRef], granularity: Granularity, years_only: bool = False
) -> bool:
    """Whether a date firmly stated for one fact at one end differs from every time the data gives that end.

    Every fact of the question's evidence counts (the answer's, a supporting hop's, the anchor's), not only the
    ends a reference asks for: "A was part of B from 1923" is wrong where the data says 1922. An event fact's
    point is compared with any firm start, end or point; an end the data leaves open, or a reading shared by
    several facts or one whose role is only carried over from the date before, decides nothing.
    """
    for r in readings:
        if not r.firm or r.carried or len(r.facts) != 1:
            continue
        (fi,) = r.facts
        if not 0 <= fi < len(facts):
            continue
        fact = facts[fi]
        if fact.event:  # its point; another spell of it the records give as a range ("1994-95"): that range's ends
            known = (
                (fact.starts + (() if r.role == "start" else fact.ends)) if r.role in ("start", "end", "point") else ()
            )
        else:
            known = {"start": fact.starts, "end": fact.ends}.get(r.role, ())
        # a date stated finer than the question is held to the data at the finer unit it states ("10 March 1961"
        # for a birth on 10 February 1961 is wrong, though its year is right); T_loose compares years only
        fine = granularity if years_only else max(granularity, r.value.granularity)
        if known and all(_differs(r.value, v, fine) for v in known):
            return True
        if r.role == "end" and not fact.event and _before_every(r.value, fact.starts):
            return True  # left before it began: wrong even where the data leaves the end open
    return False


# a state claimed to go on at the date ("was still there in 2008", "still playing for X in 1999")
_STILL_AT_RE: Final = re.compile(r"\bstill\b[^.;:!?()\d]{0,60}?\b(?:in|during|by)\s*$", re.IGNORECASE)


def still_outside(text: str, readings: Sequence[Attribution], facts: Sequence[FactRef]) -> bool:
    """Whether a stay is said to go on ("still there in D") in a year outside every spell the data gives it.

    Only a firm reading of one fact's state (role ``none``) right after "still ... in" counts, and only where every
    spell of the fact has both ends: "joined X in 2007 and was still there in 2008" is wrong where X's only spell
    is 2007 (a spell begun and ended in one year, which the data gives as an event). A year inside some spell, or a
    fact whose end the data leaves open, decides nothing.
    """
    for r in readings:
        if r.role != "none" or not r.firm or r.weak or len(r.facts) != 1:
            continue
        (fi,) = r.facts
        if not 0 <= fi < len(facts) or facts[fi].open_end or not facts[fi].spells:
            continue
        if _STILL_AT_RE.search(text, max(0, r.begin - 80), r.begin) is None:
            continue
        spells = facts[fi].spells
        if all(s is not None and e is not None for s, e in spells) and all(
            r.value.year < s.year or r.value.year > e.year  # type: ignore[union-attr]
            for s, e in spells
        ):
            return True
    return False


def _one_year_off(readings: Sequence[Attribution], facts: Sequence[FactRef], granularity: Granularity) -> bool:
    """Whether a bare year stated firmly for the answer's fact, whose every spell lies in one year, names another.

    "Rensing's U-20 spell was in 2003" where the data has that spell in 2004 alone: the year, with no start or end
    cue of its own, states both ends of a one-year spell, so it is held to the data like an end no reference asks
    for (check-only). Only the answer's fact (``facts[0]``) and only a firm reading: a weakly bound one, a date with
    a cue ("by 1914 she had left"), a spell across years, an open or unknown end, or a date of several facts
    decides nothing.
    """
    spells = facts[0].spells if facts else ()
    if not spells or any(a is None or a != b or a.granularity != Granularity.YEAR for a, b in spells):
        return False
    for r in readings:
        if not r.firm or r.weak or not r.carried or r.role != "none" or r.facts != {0}:
            continue
        if r.value.granularity == Granularity.YEAR and all(_differs(r.value, a, granularity) for a, _ in spells if a):
            return True
    return False


# An end plainly stated in the words right before the date, in its own clause: "which ran until 2005", "stayed
# until his move to Preston in 2009", "the marriage lasted until he died in a climbing accident in 1987".
_TIED_END_RE: Final = re.compile(
    r"(?<!\bwho\s)\b(?:ran|lasted|stayed|remained|continued|served|sat)\s+(?:on\s+|there\s+)?(?:until|till)\s+"
    r"(?:(?:his|her|its|their)\s+(?:move|transfer|departure|death|retirement)\b[^,;:.()\n]{0,40}?\s+in\s+"
    r"|(?:he|she)\s+(?:died|left|retired)\b[^,;:.()\n]{0,40}?\s+in\s+)?$",
    re.IGNORECASE,
)
# a capitalised word in the clause before the verb, past its last boundary: someone the clause names may be the
# subject ("..., and Dijk stayed until 2009"); a pronoun or an article opening a sentence is none
_NAME_IN_CLAUSE_RE: Final = re.compile(
    r"\b(?!(?:He|She|It|They|His|Her|Its|Their|The|This|That)\b)[A-Z][\w'’-]*(?=[^,;:.!?()—–\n]*$)"
    r"(?![^,;:.!?()—–\n]*\band\b)"
)
_LEAD_CUE_RE: Final = re.compile(r"(?:until|till|in|on)\s+", re.IGNORECASE)
# An event's point stated right after its own verb and place: "died in Hampstead, London, on 23 June 2013".
_TIED_EVENT_RE: Final = re.compile(
    r"\bdied\s+(?:in|at)\s+(?P<place>[^,;:.()\n]{1,40}?)(?:,\s*[^,;:.()\n]{1,30}?)?,?\s+(?:on|in)\s+$",
    re.IGNORECASE,
)


def _tied(text: str, readings: list[Attribution], facts: Sequence[FactRef]) -> list[Attribution]:
    """``readings`` with the dates their clause plainly states as their one fact's end or point marked ``tied``.

    An end: a fact with a span (not an event) and an "until" right after a verb of staying (:data:`_TIED_END_RE`),
    no name in the clause before that verb; a death's day: an event fact whose place the words between "died" and the
    date name (:data:`_TIED_EVENT_RE`). A carried or weakly bound reading, a reading of several facts or of someone
    else, a range ("from 2003 until 2007": its own rules), a date inside a parenthesis or after "who ... until"
    (someone the clause names may be its subject) is not tied.
    """
    out = []
    for r in readings:
        fi = min(r.facts) if len(r.facts) == 1 else -1
        if r.carried or r.weak or not 0 <= fi < len(facts) or r.role not in ("end", "death"):
            out.append(r)
            continue
        lead = _LEAD_CUE_RE.match(text, r.begin)  # a date read with its cue ("until 2005")
        before = text[max(0, r.begin - 120) : lead.end() if lead else r.begin]
        if _open_paren(before) >= 0:  # said inside a parenthesis: maybe of someone named there
            tied = False
        elif facts[fi].event:
            m = _TIED_EVENT_RE.search(before)
            place = m.group("place").casefold() if m else ""
            tied = any(e.casefold() in place for e in facts[fi].entities[1:] if e) and r.role == "death"
        else:
            m = _TIED_END_RE.search(before)
            tied = m is not None and not _NAME_IN_CLAUSE_RE.search(before[: m.start()])
        out.append(replace(r, tied=True) if tied else r)
    return out


# A name the words right before a date give it to: "graduated from DePauw in 1898 and from Columbia in 1904" (each
# date its own name's), "played for Ajax in 1990, PSV in 1993"; a name followed by its own clause of a stay
# ("was at RW Oberhausen, where he played from 1991").
_NAME: Final = r"[A-Z][\w.'’&-]*(?:\s+(?:of\s+|de\s+|the\s+)?[A-Z0-9][\w.'’&-]*){0,5}"
_COORD_PREP: Final = r"(?:from|at|for|with|to|in|by|of)\s+"
_FIRST_OF_PAIR_RE: Final = re.compile(rf"\b{_COORD_PREP}(?:the\s+)?(?P<name>{_NAME})\s+(?:in|on)\s+$")
_NEXT_OF_PAIR_RE: Final = re.compile(
    rf"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(?:then\s+)?(?:{_COORD_PREP})?(?:the\s+)?(?P<name>{_NAME})"
    r"\s+(?:in|on)\s+",
)
_WHERE_STAY_RE: Final = re.compile(
    rf"(?P<name>{_NAME}),\s*where\s+(?:he|she)\s+(?:had\s+)?(?:played|worked|lived|served|studied|taught|stayed"
    r"|coached|remained)\s+(?P<cue>(?:from|since)\s+)?$"
)

_START_CUE_RE: Final = re.compile(r"(?:from|since)\b", re.IGNORECASE)  # a start's cue read as part of its date


def _name_facts(positions: Sequence[_Pos], begin: int, end: int) -> frozenset[int]:
    """The facts of the names :func:`_named` found within ``[begin, end)``; ``{_OTHER}`` where it found none."""
    facts = frozenset(fi for p in positions if begin <= p.begin < end and not p.pronoun for fi in p.facts)
    return facts or frozenset({_OTHER})


def _word_facts(name: str, facts: Sequence[FactRef]) -> frozenset[int]:
    """The facts one of whose entities holds a long word of ``name`` ("RW Oberhausen": "Rot-Weiß Oberhausen")."""
    words = {w.casefold() for w in re.findall(r"\w{4,}", name)} - {w.casefold() for w in _CLUB_WORDS}
    return frozenset(
        fi
        for fi, f in enumerate(facts)
        if words & {w.casefold() for e in f.entities[1:] for w in re.findall(r"\w+", e)}
    )


def _dates_named(text: str, positions: Sequence[_Pos], dates: Sequence[TimeMention]) -> dict[int, frozenset[int]]:
    """The facts each date of a coordination of names ("from X in D1 and from Y in D2") is stated for, by begin.

    Two dates in a row, each right after its own name and "in"/"on", joined by "and", "or" or a comma: each date is
    its own name's. Kept only where the names' facts differ and one of them is a fact of the question.
    """
    out: dict[int, frozenset[int]] = {}
    for d1, d2 in pairwise(dates):
        m2 = _NEXT_OF_PAIR_RE.fullmatch(text, d1.end, d2.begin)
        if m2 is None or d1.kind != "point" or d2.kind != "point":
            continue
        f1 = out.get(d1.begin)  # a list of three or more: the first date of this pair was the last one's second
        if f1 is None:
            m1 = _FIRST_OF_PAIR_RE.search(text, max(0, d1.begin - 120), d1.begin)
            if m1 is None:
                continue
            f1 = _name_facts(positions, m1.start("name"), m1.end("name"))
        f2 = _name_facts(positions, m2.start("name"), m2.end("name"))
        if f1 != f2 and (f1 | f2) - {_OTHER}:
            out[d1.begin], out[d2.begin] = f1, f2
    return out


def _own_names(
    text: str,
    readings: list[Attribution],
    facts: Sequence[FactRef],
    positions: Sequence[_Pos],
    dates: Sequence[TimeMention],
) -> list[Attribution]:
    """``readings`` with each date the words give to a name of its own read for that name's fact.

    The names: a coordination's (:func:`_dates_named`), a where-clause's (:data:`_WHERE_STAY_RE`).

    A date given to one fact of the question is firmly that fact's (a point of a start-only fact its start: "graduated
    from Columbia in 1898"); a date given to a name of no fact of the question ("from DePauw in 1904") is someone
    else's, citing no fact. A where-clause's date is the named fact's only where the reading already holds that fact.
    """
    named = _dates_named(text, positions, dates)
    for d in dates:
        m = _WHERE_STAY_RE.search(text, max(0, d.begin - 160), d.begin)
        cue = m is not None and (m.group("cue") or _START_CUE_RE.match(text, d.begin) or d.kind == "range")
        if m is not None and cue and d.begin not in named:
            owned = _name_facts(positions, m.start("name"), m.end("name")) - {_OTHER} or _word_facts(m["name"], facts)
            if len(owned) == 1 and all(owned <= r.facts for r in readings if r.begin == d.begin):
                named[d.begin] = owned
    out = []
    for r in readings:
        own = named.get(r.begin)
        if own is None:
            out.append(r)
        elif len(own - {_OTHER}) == 1:
            (fi,) = own - {_OTHER}
            fact = facts[fi] if fi < len(facts) else FactRef(())
            role = "start" if r.role == "point" and fact.open_end and not fact.event else r.role
            out.append(replace(r, facts=frozenset({fi}), role=role, firm=True, carried=False, weak=False))
        elif not own - {_OTHER}:
            out.append(replace(r, facts=frozenset({_OTHER}), firm=False))
        else:
            out.append(r)
    return out


def _tied_off(
    readings: Sequence[Attribution], facts: Sequence[FactRef], granularity: Granularity, years_only: bool = False
) -> bool:
    """Whether a ``tied`` date (:func:`_tied`) differs from every time the data gives its fact there (check-only).

    The end of a span no reference asks for ("sat in the 52nd Parliament, which ran until 2005", data 2001), or an
    event's day where the question asks its year ("died ... on 23 June 2013", data 23 July): held to the data at
    the finer unit it states where the data has it (``years_only``: by year). An event's date is checked here only
    below the question's unit (its year right); an end the data leaves open or unknown decides nothing; a time of
    any spell of the fact agrees.
    """
    for r in readings:
        if not r.tied:
            continue
        fact = facts[min(r.facts)]
        known = fact.starts if fact.event else fact.ends
        if fact.event and (years_only or all(_differs(r.value, v, granularity) for v in known)):
            continue  # an event's date wrong at the question's own unit: the reference's rules judge it
        fine = granularity if years_only else max(granularity, r.value.granularity)
        if known and all(_differs(r.value, v, fine) for v in known):
            return True
    return False


def _swapped_end(readings: Sequence[Attribution], facts: Sequence[FactRef], granularity: Granularity) -> bool:
    """Whether a firm end stated for a fact the data leaves open is that fact's start, its start stated nowhere.

    "Hay's ownership ended in 1920" where the data has Hay's ownership from 1920 and no end: the start read as
    an end (a swapped end). A text that also states the start ("bought it in 1920 and sold it in 1920") may be
    right about a one-year spell the data does not close: not this rule's.
    """
    for r in readings:
        if not r.firm or r.carried or r.role != "end" or len(r.facts) != 1:
            continue
        (fi,) = r.facts
        if not 0 <= fi < len(facts) or facts[fi].event or facts[fi].ends or not facts[fi].starts:
            continue
        if any(fi in x.facts and x.role == "start" for x in readings):
            continue
        if all(_same(r.value, s, granularity) for s in facts[fi].starts):
            return True
    return False


def _before_every(pred: TimePoint, starts: Sequence[TimePoint]) -> bool:
    """Whether ``pred`` ends before every one of ``starts`` begins (compared by year: no boundary case)."""
    return bool(starts) and all(pred.year < s.year for s in starts)


def _joins_spells(readings: Sequence[Attribution], facts: Sequence[FactRef], granularity: Granularity) -> bool:
    """Whether one range stated firmly for a fact runs from one spell's start to another spell's end across a gap.

    "played for Cerro from 2004 to 2007" where the data has him there in 2004 and again from 2006 to 2007:
    each end is some spell's, the range is none. Spells that follow on (the next starts at most a year after
    the last ended) join into one range.
    """
    by_range: dict[tuple[int, int], dict[str, TimePoint]] = {}
    for r in readings:
        if r.firm and not r.carried and len(r.facts) == 1 and r.role in ("start", "end"):
            (fi,) = r.facts
            by_range.setdefault((r.begin, fi), {})[r.role] = r.value
    for (_, fi), ends in by_range.items():
        if "start" not in ends or "end" not in ends or not 0 <= fi < len(facts) or len(facts[fi].spells) < 2:
            continue
        spells = facts[fi].spells
        if any(a is None or b is None for a, b in spells):
            continue  # an open or unknown end: the spells' gaps are not known
        chain = sorted(((a, b) for a, b in spells if a is not None and b is not None), key=lambda s: s[0].first_day())
        # a range stated coarser than the question ("(2010–2015)" for day-level terms) is held to spells at its own unit
        coarse = min(granularity, ends["start"].granularity, ends["end"].granularity)
        if not _chain_covers(chain, ends["start"], ends["end"], coarse):
            return True
    return False


# the most days between one spell's end and the next one's start that still read as one term stated to the day
_HANDOVER_DAYS: Final = 7


def _chain_covers(
    chain: Sequence[tuple[TimePoint, TimePoint]], start: TimePoint, end: TimePoint, granularity: Granularity
) -> bool:
    """Whether spells (sorted by start) that follow on from one starting at ``start`` reach one ending at ``end``.

    Spells follow on where the next starts at most a year after the last ended; a range stated to the day is held
    to the day: a spell that starts more than :data:`_HANDOVER_DAYS` after the last ended ("acting President from
    10 April to 8 July", the term from 6 August) is another, so "from 10 April 2010 until 6 August 2015" joins two.
    """
    for i, (a, b) in enumerate(chain):
        if not _same(start, a, granularity):
            continue
        last = b
        for a2, b2 in chain[i:]:
            if a2.year > last.year + 1:
                break  # a gap of more than a year: the range would join two spells
            if granularity >= Granularity.DAY and a2.first_day() - last.last_day() > _HANDOVER_DAYS:
                break  # a gap of weeks in a range stated to the day: another holder between the spells
            last = b2 if b2.last_day() > last.last_day() else last
            if _same(end, b2, granularity):
                return True
    return False


# A reply that says it does not know the dates ("1862 — I don't remember the dates", "not sure of the exact
# dates involved"), in English, French, Spanish, German or Italian ("je n'ai pas les dates exactes", "no recuerdo
# las fechas", "ich weiß die Daten nicht genau"); a "but" after it goes on to state one ("..., but he joined in 2005").
_DISCLAIMER_RE: Final = re.compile(
    r"(?:\b(?:(?:i\s*(?:'m|’m|am)\s+)?(?:not|un)\s*(?:sure|certain)\s+(?:of|about)|i\s+(?:don[’']?t|do\s+not|can[’']?t|"
    r"cannot|could\s+not|couldn[’']?t)\s+(?:remember|recall|know|give|say))\s+(?:any\s+|the\s+|exact\s+|precise\s+|"
    r"specific\s+)*dates?\b"
    r"|\bje\s+(?:n[’']\s*ai|ne\s+(?:connais|sais|me\s+souviens))\s+pas\s+(?:des?\s+|les\s+)?(?:dates?|années?)\b"
    r"|\bno\s+(?:recuerdo|s[ée]|tengo|conozco)\s+(?:las\s+|los\s+)?(?:fechas?|años?)\b"
    r"|\bich\s+(?:wei(?:ß|ss)|kenne|habe)\s+(?:die\s+)?(?:genauen\s+)?(?:daten|jahre|jahreszahlen)\s+nicht\b"
    r"|\bnon\s+(?:ricordo|conosco|so)\s+(?:le\s+)?date\b)"
    r"(?![^.;\n]*\b(?:but|though|although|however|mais|pero|aber|ma)\b)",
    re.IGNORECASE,
)


# A closing line that only restates a time answer ("Therefore: 1895", "So the answer is 1895.", "→ 1895"): the
# answer, not a date stated for a fact ("in the 1890s ... Therefore: 1895" states no year).
_CONCLUSION_RE: Final = re.compile(
    r"^[ \t>*#-]*(?:(?:so|therefore|thus|hence|conclusion|answer|final\s+answer|that\s+gives|which\s+means)\b[^\w\n]*"
    r"(?:(?:the\s+)?answer\s+is\b)?|→|=>)[^\w\n]*(?P<rest>[^\n]*?)[\s.!*]*$",
    re.IGNORECASE | re.MULTILINE,
)


def without_conclusion(text: str) -> str:
    """``text`` with its closing lines that hold nothing but a lead-in and one date made blank."""
    if "\n" not in text.strip():
        return text
    out = text
    for m in _CONCLUSION_RE.finditer(text):
        rest = m.group("rest")
        found = extract_times(rest) if rest else []
        if m.start() > 0 and len(found) == 1 and found[0].begin == 0 and found[0].end == len(rest):
            out = out[: m.start()] + " " * (m.end() - m.start()) + out[m.end() :]
    return out


# A bracket between a range's two dates ("From 1871 (Treaty of Frankfurt) to 1920"), or a when-clause between commas
# ("from 10 April 2010, when he stepped in, until 6 August 2015"): a gloss of the first date
_RANGE_GLOSS_RE: Final = re.compile(
    r"\s*(?P<gloss>\([^()\n]{1,60}\)|,\s*(?:when|after|as|following)\b[^,;()\n]{1,80},)"
    r"\s*(?:to|until|till|through|[-–])\s*"
    r"(?=\d|(?:January|February|March|April|May|June|July|August|September|October|November|December)\b)",
    re.IGNORECASE,
)


# A year corrected where it stands: "in 2000 — correction, 2001 —", "in 2000 (sorry, 2001)", "in 2000, or rather 2001"
_YEAR_CORRECTED_RE: Final = re.compile(
    r"(?<![\d/.-])(?:1\d{3}|20\d{2})\s*(?P<open>[—–(]|,|--?)\s*(?:correction|sorry|or\s+rather|rather|make\s+that)"
    r"\s*[,:]?\s*(?P<year>1\d{3}|20\d{2})(?![\d/])(?:\s*[—–)](?!\s*\d))?",
    re.IGNORECASE,
)


def years_corrected(text: str) -> str:
    """``text`` with each year corrected in place replaced by its correction.

    "in 2000 — correction, 2001 — and moved" reads "in 2001 and moved": the first year is set aside, the clause
    keeps its subject and its cue (a marker that sets aside the whole text is :func:`after_correction`'s).
    """
    return _YEAR_CORRECTED_RE.sub(lambda m: m.group("year"), text)


def without_range_glosses(text: str) -> str:
    """``text`` with a bracket between a "from" date and the date that closes its range blanked (same length).

    "From 1871 (Treaty of Frankfurt) to 1920" is the range 1871–1920, the bracket saying why it began; a bracket
    after a date that no "to D" follows ("from 1871 (Treaty of Frankfurt), then ...") stays. So does a when-clause
    between commas: "from 10 April 2010, when he stepped in, until 6 August 2015" is one range, held to the spells.
    """
    out = text
    for d in extract_times(text):
        m = _RANGE_GLOSS_RE.match(text, d.end) if d.kind == "since" else None
        if m is not None:
            out = out[: m.start("gloss")] + " " * len(m.group("gloss")) + out[m.end("gloss") :]
    return out


def disclaims_dates(text: str) -> bool:
    """Whether ``text`` says it does not know the dates and states none after saying so: no date is stated."""
    return _DISCLAIMER_RE.search(text) is not None


# Date-like text the reader leaves alone: slashed dates (day/month order unknown), years in other scripts'
# date forms ("2008年", "7 мая 2012"), clipped years ("'93"), feast days.
_UNREAD_RE: Final = re.compile(
    r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|\d{4}\s*[年년]|(?<!\d)\d{1,2}\.?\s+(?:de\s+)?[^\W\d_]+\s+(?:de\s+)?\d{4}|[‘'’]\d{2}\b|"
    r"\b(?:christmas|new\s+year's|easter|halloween)\s*(?:day|eve)?\s*\d{4}|"
    # a relative date that pins nothing exactly ("a decade later", "a few years after", "some months earlier")
    r"\b(?:(?:a|one|several|a\s+few|few|some|many)\s+decades?|(?:several|a\s+few|few|some|many)\s+(?:years?|months?|weeks?|"
    r"days?)|(?:about|around|roughly|nearly|almost|some|over|under)\s+\w+\s+(?:years?|months?|weeks?|days?|decades?))\s+"
    r"(?:later|after|earlier|before|afterwards)\b",
    re.IGNORECASE,
)


def unread_dates(text: str, dates: Sequence[TimeMention]) -> bool:
    """Whether ``text`` holds a date the reader did not read (outside every mention it found)."""
    return any(
        not any(d.begin <= m.start() < d.end for d in dates) and not _apposition_of_date(text, m, dates)
        for m in _UNREAD_RE.finditer(text)
    )


_RELATIVE_END_RE: Final = re.compile(r"(?:later|after|earlier|before|afterwards)$", re.IGNORECASE)
_COMMA_GAP_RE: Final = re.compile(r"\s*,\s*")


def _apposition_of_date(text: str, m: re.Match[str], dates: Sequence[TimeMention]) -> bool:
    """Whether the loose relative phrase ``m`` glosses the date right before it ("in 2004, a decade after his prize").

    It says how that date stands to another event; it hides no date of its own.
    """
    if _RELATIVE_END_RE.search(m.group(0)) is None:
        return False
    return any(_COMMA_GAP_RE.fullmatch(text, d.end, m.start()) for d in dates if d.end <= m.start())


def unsure_refs(
    readings: Sequence[Attribution],
    refs: Sequence[tuple[str, TimePoint, int]],
    dates: Sequence[TimeMention],
    granularity: Granularity,
) -> bool:
    """Whether every reference not stated has its value in the text, attributed to nothing else.

    Such a text states the date but the rules cannot tell for what: ``undecided``, not ``wrong``. A value
    read firmly for another entity or another fact of the question, or absent, decides (``wrong``).
    """
    found = False
    for which, value, fi in refs:
        if any(fi in r.facts and _same(r.value, value, granularity) for r in readings):
            continue
        if not may_state(dates, [(which, value, fi)], granularity):
            return False
        if any(fi not in r.facts and _same(r.value, value, granularity) for r in readings):
            return False  # read for someone else, or for another fact of the question: decided
        found = True
    return found
