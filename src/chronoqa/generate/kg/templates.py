"""Surface forms: put a :class:`~chronoqa.generate.kg.operators.Draft` into English.

Each operator declares its templates (:class:`Template`: id, text, what it suits) in its own module
(:mod:`chronoqa.generate.kg.operators`); :func:`render` draws one, and each question records its id.
Relation phrasing comes from the phrase table; the chain is read from the anchor: a forward hop over ``r``
turns the entity phrase ``X`` into ``object_of(X)`` ("the team X played for"), an inverse hop into
``subject_of(X)`` ("the owner of X").

Every operator has at least four templates; a template that does not suit a relation (``During 1994``
for an event) is not drawn for it. Entity labels lose their Wikipedia disambiguator ("Stephen Maher
(footballer)" reads "Stephen Maher") unless two entities of the same question or answer set would then
read the same; one kept for a namesake is written at the first mention only (:func:`named_once`). A
question whose answer set has several members is phrased in the plural ("Who were ... ?"). :func:`garbled`
rejects compositions such as "in in" or "the the".
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from chronoqa.generate.articles import definite
from chronoqa.generate.kg.index import GraphIndex
from chronoqa.generate.kg.phrases import RelationPhrases, fill
from chronoqa.time import Granularity, TimePoint, render_time

if TYPE_CHECKING:
    from chronoqa.generate.kg.operators.chains import Draft, Hop

__all__ = [
    "Renderer",
    "Template",
    "answer_label",
    "cap",
    "descriptor",
    "drop_appositive",
    "event_time",
    "garbled",
    "graph_walk",
    "label_clashes",
    "label_twins",
    "name_repeated",
    "namesake_labels",
    "namesakes",
    "nested_clause",
    "plain_label",
    "relational_heads",
    "render",
    "render_time_text",
    "shared_short_labels",
    "short_label",
    "state_only",
]

_PREPOSITIONS = "(?:of|by|for|to|at|in|on|with|from|into|over|under)"
_DISAMBIGUATOR = re.compile(r"\s+\([^()]*\)$")
_BRACKET = re.compile(r"\s+\([^()]*\)")  # a disambiguator anywhere: "Mill Hill (Isle of Wight) railway station"
_NUMBER = re.compile(r"\d")
# a disambiguator that is a lower-case noun phrase of kind or occupation ("geneticist", "wilderness activist")
_DESCRIPTOR = re.compile(r"[a-z][a-z' -]*[a-z]")
# a field, not a kind: "Will Johnson (soccer)", "Galatasaray S.K. (football)" would read "the soccer Will Johnson"
_FIELDS = frozenset(
    {"football", "soccer", "basketball", "baseball", "cricket", "rugby", "rugby union", "rugby league", "hockey",
     "ice hockey", "tennis", "golf", "boxing", "cycling", "athletics", "music", "television", "radio", "politics"}
)  # fmt: skip
_REPEAT = re.compile(r"\b(in|the|of|a|an|to|for|by|with|at|from|was|did|on)\s+\1\b", re.IGNORECASE)
# a relational noun whose slot ends it: "the capital of {o}", "the place governed by {o}"
_REL_NOUN = re.compile(r"\bthe\s+[^{}]*?\b(?:of|by|containing|within|contained|with)\s*$")
_SLOT_END = re.compile(r"\{([so])\}\s*$")

# The noun of a life event's gerund after "at the time of": "at the time of death in Zürich". "when dying in Zürich"
# and "at the time of dying in Zürich" read the event as going on, a dangling participle; the data has no gender, so
# no "her death".
_EVENT_NOUNS = (("dying ", "death "), ("being born ", "birth "))


def drop_appositive(template: str, slot: str) -> str:
    """The template with the type word before a final ``{slot}`` removed ("left the party {o}" → "left {o}").

    Used when the slot receives a noun phrase: "left the party the political party of X" is garbled. Only a
    type word is dropped: a relational noun ending in a preposition ("the capital of {o}", "the head of
    government of {s}") carries a hop of the chain and stays.
    """
    return re.sub(r"\bthe (?:(?!" + _PREPOSITIONS + r"\b)[a-zA-Z]+ )+\{" + slot + r"\}$", "{" + slot + "}", template)


def short_label(label: str) -> str:
    """``label`` without a trailing Wikipedia disambiguator: ``Stephen Maher (footballer)`` → ``Stephen Maher``."""
    if not label.endswith(")"):  # no disambiguator: most labels, read without the pattern
        return label
    short = _DISAMBIGUATOR.sub("", label)
    return short if short.strip() else label


def plain_label(label: str) -> str:
    """``label`` without any bracketed disambiguator: ``Mill Hill (Isle of Wight) railway station`` → ``Mill Hill ...``.

    :func:`short_label` where the bracket ends the label.
    """
    plain = _BRACKET.sub("", label)
    return plain if plain.strip() else label


def descriptor(label: str) -> str | None:
    """The lower-case descriptor of ``label``'s disambiguator: "Harry Harris (geneticist)" → "geneticist".

    None where it has none or it is no such noun phrase: a place or a party's country ("(United States)",
    mixed case), a year or a birth year ("(born 1985)", "(footballer, born 1985)"), a field ("(soccer)").
    """
    m = _DISAMBIGUATOR.search(label)
    if m is None or not short_label(label).strip() or short_label(label) == label:
        return None
    inner = " ".join(m.group(0).strip()[1:-1].split())
    return inner if _DESCRIPTOR.fullmatch(inner) and inner not in _FIELDS else None


def garbled(text: str) -> bool:
    """True for a composition that no one would write: a doubled function word ("located in in 1990")."""
    return bool(_REPEAT.search(text))


def relational_heads(templates: Sequence[str]) -> frozenset[str]:
    """The relational nouns that end in their slot ("the capital of", "the place governed by"), lower-cased."""
    heads = set()
    for t in templates:
        m = _SLOT_END.search(t)
        if m is None:
            continue
        head = _REL_NOUN.search(t[: m.start()])
        if head is not None:
            heads.add(" ".join(head.group(0).split()).lower())
    return frozenset(heads)


def event_time(gerund: str) -> str:
    """A gerund of an event fact after "at the time of", its noun where it has one ("at the time of death in Y").

    An event happens at a moment, so a question does not read it as going on ("when dying in Y").
    """
    for verb, noun in _EVENT_NOUNS:
        if gerund.startswith(verb):
            gerund = noun + gerund[len(verb) :]
    return f"at the time of {gerund}"


def render_time_text(t: TimePoint) -> str:
    """English form of a time point (``1994``, ``7 March 1994``, ``405 BC``): :func:`chronoqa.time.render_time`."""
    return render_time(t)


def cap(text: str) -> str:
    """``text`` with its first letter upper-cased."""
    return text[:1].upper() + text[1:]


# The gerund of each past-tense verb that opens a clause field of the phrase tables ("{s} joined {o}"): a clause
# whose subject the main clause names already reads "joining {o}". A verb not listed keeps its clause as it is.
_GERUNDS = {
    "acquired": "acquiring", "became": "becoming", "belonged": "belonging", "ceased": "ceasing",
    "contained": "containing", "created": "creating", "died": "dying", "enrolled": "enrolling",
    "gained": "gaining", "graduated": "graduating", "had": "having", "held": "holding", "joined": "joining",
    "left": "leaving", "lived": "living", "lost": "losing", "married": "marrying", "moved": "moving",
    "obtained": "obtaining", "owned": "owning", "played": "playing", "received": "receiving",
    "started": "starting", "stopped": "stopping", "took": "taking", "was": "being", "won": "winning",
    "worked": "working",
}  # fmt: skip
# a verb that takes a gerund after it, as it reads before an infinitive, and the infinitives of those gerunds
_BEFORE_INFINITIVE = {"started": "starting to", "stopped": "ceasing to"}
_BASE_FORMS = {"being": "be", "owning": "own", "working": "work"}
# a clause field's opening slot, its grammatical subject: "{s} joined {o}", "{o} won {s}" (Wikidata's winner)
_LEAD_VERB = re.compile(r"\{([so])\} ([a-z]+)\b")
_LEAD_SLOT = re.compile(r"(?:(?:did|was) )?\{([so])\} ")
# a question clause whose grammatical subject is {s}: "which club did {s} play for", "where was {s} born"
_ASK_SUBJECT = re.compile(r"\b(?:did|was) \{s\} ")
# answer types named by "it" in a second mention; a person (a spouse, a winner) is not
_NOT_IT = frozenset({"person", "winner"})
# the answer type of a relation that declares none: its object may be a person
_UNTYPED = "entity"
# what may stand before "it": not a role or a class ("left office as it", "ceased to be it", "the status of it")
_NO_IT_BEFORE = re.compile(r"(?:\bas|\bbe|\bstatus of|\bbecome|\bbecame|\belected)\s*$")

# a preposition of place before a final "it": the clause reads "there" ("moved there", "died there", "worked there");
# "to" only after a move ("was named to it", a team selection, is no place)
_TO_A_PLACE = re.compile(r"(?: in| at|(?<=moved) to|(?<=move) to) \{o\}$")

# Cut from a relational noun for its second mention (:meth:`Renderer.named_again`).
_CLAUSE = re.compile(r" (?:whose|where|who|which|that|with) ")
_TRAILING = frozenset({"of", "by", "within", "in", "for", "involving", "held", "to"})


def side_test(idx: GraphIndex, phrases: Mapping[str, RelationPhrases], e: int) -> Callable[[str, str], bool]:
    """``shows(relation, side)`` for entity ``e``: a role an object holds by its facts.

    Whether ``e`` stands on that side ("subject" | "object") of a kept fact of the relation (named by its
    phrase-table key or its id).
    """

    def shows(key: str, side: str) -> bool:
        return any(
            key in (name, phrases[name].key) and idx.group_size(e, r, side == "subject") > 0
            for r, name in enumerate(idx.rel_names)
        )

    return shows


@dataclass(frozen=True)
class Renderer:
    """Phrases, labels and granularity: everything needed to word a draft."""

    index: GraphIndex
    phrases: Mapping[str, RelationPhrases]  # relation id -> phrases
    labels: Callable[[str], str]  # entity id -> label
    granularity: Granularity
    keep_full: frozenset[int] = field(default_factory=frozenset)  # entities that keep their disambiguator
    # short labels (case-folded) that two entities of the graph share: an answer keeps its disambiguator
    shared_short: frozenset[str] = field(default_factory=frozenset)
    # full labels (case-folded) whose disambiguator names a namesake (:func:`namesake_labels`): always kept
    keep_labels: frozenset[str] = field(default_factory=frozenset)
    generic: frozenset[str] = field(default_factory=frozenset)  # relation ids worded by the generic fallback
    # entity -> the other entities of the graph whose case-folded full label is its own (:func:`namesakes`);
    # an entity that shares its label with none is not a key
    namesakes: Mapping[int, frozenset[int]] = field(default_factory=dict, repr=False, compare=False)
    # the relation sides that show a person (the phrase table's ``[types.person]``: "isMarriedTo subject"): who is
    # never named "it" and cannot be taken for an "it"
    people: tuple[tuple[str, str], ...] = ()
    # the relation sides that show a thing, no person (the phrase table's ``[types.thing]``: "P6 subject", a place
    # that has a government): where no typed answer shows an entity, these may name it "it" (:meth:`thing`)
    things: tuple[tuple[str, str], ...] = ()

    def ent(self, e: int) -> str:
        """Label of an interned entity as it reads in a question ("the United States": generate.articles).

        A Wikipedia disambiguator exists because another article bears the name, so the bare name is ambiguous in
        the world: a lower-case descriptor (:func:`descriptor`) is named as English does, "the geneticist Harry
        Harris"; any other is kept where a namesake needs it (:attr:`keep_full`, :attr:`keep_labels`) and
        dropped otherwise. Answers are worded by :func:`answer_label`, without either.
        """
        label = self.labels(self.index.ent_names[e])
        kind = descriptor(label)
        if kind is not None:
            return f"the {kind} {short_label(label)}"
        keep = e in self.keep_full or label.casefold() in self.keep_labels
        return definite(label if keep else short_label(label))

    def rel(self, r: int) -> RelationPhrases:
        """Phrases of an interned relation."""
        return self.phrases[self.index.rel_names[r]]

    def rel_of(self, r: int, o: int) -> RelationPhrases:
        """Phrases of relation ``r`` for a fact whose object is ``o``: the role it holds, if any.

        The role its label marks (``roles``), else one its facts show (``shown_roles``).
        """
        p = self.rel(r)
        if not (p.roles or p.shown_roles):
            return p
        shows = side_test(self.index, self.phrases, o) if p.shown_roles else None
        return p.for_object(self.labels(self.index.ent_names[o]), shows)

    def unit_word(self) -> str:
        """``year``, ``month`` or ``day``."""
        return str(self.granularity)

    @cached_property
    def heads(self) -> frozenset[str]:
        """The relational nouns of the phrase table that end in their slot (:func:`relational_heads`)."""
        return relational_heads(
            [
                getattr(p, f)
                for p in self.phrases.values()
                for f in ("object_of", "subject_of", "ask_object", "ask_subject")
            ]
        )

    def when(self, t: int) -> str:
        """English form of unit ``t``."""
        return render_time_text(TimePoint.from_unit(t, self.granularity))

    def noun(self, hops: tuple[Hop, ...], anchor: int, pins: Sequence[int | None] = ()) -> str:
        """Noun phrase of the entity reached by ``hops`` from ``anchor``.

        A hop pinned to a unit (``pins[i]``, :func:`chronoqa.generate.kg.bridges.pin_bridges`) states it in the
        relation's dated description where the phrase table gives one (``object_at`` / ``subject_at``: "the person
        married to X in 1995"), else after its description: "the spouse of X as of 1995".
        """
        cur = self.ent(anchor)
        for i, h in enumerate(hops):
            p = self.rel_of(h.rel, h.dst if h.forward else h.src)
            pin = pins[i] if i < len(pins) else None
            at = (p.object_at if h.forward else p.subject_at) if pin is not None else None
            if at is not None and pin is not None:  # the relation's own dated words: "the person married to X in 1995"
                at = at.replace("{t}", self.when(pin))
                cur = fill(at, s=cur, o="") if h.forward else fill(at, s="", o=cur)
                continue
            cur = fill(p.object_of, s=cur, o="") if h.forward else fill(p.subject_of, s="", o=cur)
            if pin is not None:  # "as of": "in 1995" could read as the verb's time
                cur = f"{cur} as of {self.when(pin)}"
        return cur

    def ask(self, d: Draft, named: Set[int] = frozenset()) -> str:
        """The question clause asking for the last hop's endpoint ("which team did X play for").

        ``named``: the entities a clause before it named; a one-hop question's subject among them reads "its" where
        the relation states its possessive and "its" has one antecedent ("When Denmark joined the Asian Development
        Bank, who was its head of government?", :meth:`possessive`).
        """
        last = d.hops[-1]
        cur = self.noun(d.hops[:-1], d.anchor, d.pins)
        p = self.rel_of(last.rel, last.dst if last.forward else last.src)
        if len(d.hops) == 1 and last.forward and self.sole(last.src, last.rel, True, named):
            its = self.possessive(p, p.ask_object)
            if its is not None:
                return fill(its, s="", o="")
        phrase = cur.startswith("the ")  # a noun phrase or a label read with "the"
        if last.forward:
            return fill(drop_appositive(p.ask_object, "s") if phrase else p.ask_object, s=cur, o="")
        return fill(drop_appositive(p.ask_subject, "o") if phrase else p.ask_subject, s="", o=cur)

    def final_clause(self, d: Draft, which: str, *, again: bool = False, it: bool = False) -> str:
        """A clause field of the chain's final fact, the entity the chain reaches named by the prefix's noun phrase.

        How a question with a static prefix names its asked fact ("when the spouse of X as of 1971 died in Y"):
        interval, duration, yes/no and Allen questions. ``again``: the question has named that entity already, so
        a noun phrase reads as a back reference (:meth:`named_again`), not repeated.
        """
        last = d.hops[-1]
        subject = self.named_again(d) if again else self.noun(d.hops[:-1], d.anchor, d.pins)
        return self.fact_clause(last.fid, which, subject_text=subject, side_entity=last.src, it=it)

    def named_again(self, d: Draft) -> str:
        """The second mention of the entity the prefix names: "that spouse" for "the spouse of X as of 1971".

        The last bridge's relational noun with its slot, relative clause and trailing preposition cut ("the
        country {s} was part of": "that country"; "the head of government of {s}": "that head of government");
        an entity named by its label (no bridge) keeps its label.
        """
        if len(d.hops) < 2:
            return self.noun((), d.anchor)
        h = d.hops[-2]
        p = self.rel_of(h.rel, h.dst if h.forward else h.src)
        head = (p.object_of if h.forward else p.subject_of).split("{", 1)[0]
        words = _CLAUSE.split(head)[0].split()
        while len(words) > 2 and words[-1] in _TRAILING:
            words.pop()
        if len(words) < 2 or words[0] != "the":
            return self.noun(d.hops[:-1], d.anchor, d.pins)
        return " ".join(["that", *words[1:]])

    def lead_entity(self, fid: int, which: str) -> int | None:
        """The entity whose slot opens the fact's clause field, its grammatical subject.

        "{s} joined {o}": the subject; "{o} won {s}" (an award's winner): the object; None where another word opens
        it ("the marriage of {s} and {o} ended").
        """
        m = _LEAD_SLOT.match(self._field(fid, which))
        if m is None:
            return None
        row = self.index.fact_row(fid)
        return int(row[0] if m.group(1) == "s" else row[2])

    def asks_subject(self, d: Draft) -> bool:
        """The question clause (:meth:`ask`) has the entity before the last hop as its grammatical subject."""
        last = d.hops[-1]
        return last.forward and bool(_ASK_SUBJECT.search(self.rel_of(last.rel, last.dst).ask_object))

    def end_field(self, fid: int, which: str) -> str:
        """The field naming the fact's end (``end_clause`` | ``ask_end``) right after its start: its ``..._again``.

        "How many years after X married Y did the marriage end?", "... did X leave that office?" (the phrase table's
        ``end_again`` / ``ask_end_again``): the end of the fact just named, without naming its entities again.
        ``which`` itself where the relation declares none.
        """
        again = "end_again" if which == "end_clause" else "ask_end_again"
        row = self.index.fact_row(fid)
        return again if getattr(self.rel_of(row[1], row[2]), again) else which

    def _field(self, fid: int, which: str) -> str:
        """The clause field ``which`` of the fact's relation phrases, its ``start_clause`` where it has none."""
        row = self.index.fact_row(fid)
        p = self.rel_of(row[1], row[2])
        return getattr(p, which) or p.start_clause

    def gerund(self, fid: int, which: str, subject: int, *, it: bool = False) -> str | None:
        """A clause field of a fact as a gerund ("joining Getafe CF B"), where its grammatical subject is ``subject``.

        ``subject`` is the one the main clause names: "How many years after joining Y did X leave it?"; the fact's
        subject or, where the field opens with its object ("{o} won {s}"), its object; either, for a symmetric
        relation (marriage, twinning: "X married Y" is "Y married X", so "marrying X"). None where
        the clause does not open with ``subject`` or its verb is not in the table of forms (the caller keeps the
        full clause). A verb followed by a gerund reads with an infinitive ("stopped owning Y": "ceasing to own Y",
        not "stopping owning Y"), where both are in their tables. ``it``: as for :meth:`fact_clause`.
        """
        row, field = self.index.fact_row(fid), self._field(fid, which)
        m = _LEAD_VERB.match(field)
        if m is not None and row[0 if m.group(1) == "s" else 2] != subject and self.rel_of(row[1], row[2]).symmetric:
            field = fill(field, s="{o}", o="{s}")  # a symmetric fact reads from either side: "Y married X"
            m = _LEAD_VERB.match(field)
        if m is None or m.group(2) not in _GERUNDS or row[0 if m.group(1) == "s" else 2] != subject:
            return None
        lead, rest = _GERUNDS[m.group(2)], field[m.end() :].strip().split(" ", 1)
        if rest[0].endswith("ing"):
            if rest[0] not in _BASE_FORMS or m.group(2) not in _BEFORE_INFINITIVE:
                return None
            lead, rest = _BEFORE_INFINITIVE[m.group(2)], [_BASE_FORMS[rest[0]], *rest[1:]]
        tail = f"{{{m.group(1)}}} " + " ".join(rest)
        clause = self.fact_clause(fid, which, subject_text="", side_entity=subject, it=it, template=tail)
        return (lead + clause).rstrip()

    def ref_clause(
        self, d: Draft, which: str, *, when: bool = False, subject_text: str | None = None, trailing: bool = False
    ) -> str:
        """The reference fact's clause beside the question clause.

        A gerund where both share their subject ("which club did X play for one year before joining Y"), else the
        full clause (``when``: "when X joined Y"; ``subject_text``: how the full clause names the question
        clause's subject, the entity before the last hop, as in :meth:`fact_clause`). ``trailing``: the clause
        follows the question clause, so an entity that one named reads "it", "there" or "its" where it has one
        antecedent (:meth:`it_clause`: "Who was the head of government of Denmark when it became a member of ...").
        """
        shared = self.shared_gerund(d, which)
        if shared is not None:
            return shared
        it = self.it_clause(d.ref_fid, which, self.asked_names(d)) if trailing else None
        full = it or self.fact_clause(d.ref_fid, which, subject_text=subject_text, side_entity=d.hops[-1].src)
        return ("when " if when else "") + full

    @staticmethod
    def asked_names(d: Draft) -> frozenset[int]:
        """The entities the question clause names: the anchor and the bridges, never the answer."""
        return frozenset({d.anchor, *(h.dst for h in d.hops[:-1])})

    def ref_names(self, d: Draft, which: str) -> frozenset[int]:
        """The entities the reference clause ``which`` names before the question clause.

        The reference fact's; none for a gerund, which leaves the question clause to name its subject
        (:meth:`shared_gerund`).
        """
        if d.ref_fid < 0 or self.shared_gerund(d, which) is not None:
            return frozenset()
        row = self.index.fact_row(d.ref_fid)
        return frozenset({int(row[0]), int(row[2])})

    def shared_gerund(self, d: Draft, which: str) -> str | None:
        """The reference fact's clause as a gerund where it shares the question clause's subject, else None."""
        return self.gerund(d.ref_fid, which, d.hops[-1].src) if self.asks_subject(d) else None

    def is_event(self, fid: int) -> bool:
        """The fact's relation is an event (the phrase table's ``kind = "event"``: a birth, a death, an award)."""
        return self.rel(self.index.fact_row(fid)[1]).is_event

    def person(self, e: int) -> bool:
        """Whether the data shows ``e`` is a person: it stands on a side of :attr:`people` (married, born, played)."""
        shows = side_test(self.index, self.phrases, e)
        return any(shows(key, side) for key, side in self.people)

    def thing(self, e: int) -> bool:
        """Whether ``e`` may be named "it": what the data shows of it says it is no person.

        The object of a fact whose relation declares a non-person answer type (a club, a place, an award), and
        neither a person (:meth:`person`) nor the object of a relation whose objects are people (a spouse, a
        winner). The data gives no other entity types, so an entity it shows on no such side is not named "it".
        """
        idx, typed = self.index, False
        for r in range(len(idx.rel_names)):
            if idx.group_size(e, r, False) > 0:
                answer = self.rel(r).answer_type
                if answer in _NOT_IT:
                    return False
                typed = typed or answer != _UNTYPED
        if not typed and self.things:
            typed = any(side_test(idx, self.phrases, e)(key, side) for key, side in self.things)
        return typed and not self.person(e)

    def sole(self, e: int, r: int, side: bool, named: Set[int]) -> bool:
        """``e`` is among ``named``, a thing, and the one antecedent of "it" on the ``side`` of relation ``r``.

        Every other entity of ``named`` is a person or stands on no fact of ``r`` on that side (subject: True).
        """
        if e not in named or not self.thing(e):
            return False
        return all(self.person(x) or self.index.group_size(x, r, side) == 0 for x in named - {e})

    @staticmethod
    def possessive(p: RelationPhrases, template: str) -> str | None:
        """``template`` with its subject said "its", by the relation's ``possessive`` noun.

        "{o} became head of government of {s}" → "{o} became its head of government"; None where the relation
        declares none or the noun and its subject do not close the template.
        """
        if p.possessive is None:
            return None
        for owned in (f"the {p.possessive} of {{s}}", f"{p.possessive} of {{s}}"):
            if template.endswith(owned):
                return template[: -len(owned)] + f"its {p.possessive}"
        return None

    def it_clause(self, fid: int, which: str, named: Set[int]) -> str | None:
        """A clause field of a fact that follows a clause naming ``named``, the entity both name written "it".

        "X joined Juventus F.C. before it acquired Stadio delle Alpi", "Y received De Gyldne Laurbær before Z won
        it"; "its" where the relation states a possessive noun of its subject ("Z became its head of government",
        :meth:`possessive`). Only where "it" has one antecedent: the fact shares one entity with ``named``, a thing
        (:meth:`thing`), and every other entity of ``named`` is a person (:meth:`person`) or stands on no fact of
        the relation on the side "it" takes ("Dorrit Willumsen received De Gyldne Laurbær before Jussi Adler-Olsen
        won it": nothing else the question names is ever won; "ABS-CBN stopped owning Studio 23 before AMCARA
        acquired it" is not written where ABS-CBN is itself owned in the data: "it" could be ABS-CBN). As a
        subject, only where the clause opens with it; as an object, only at the clause's end (:meth:`fact_clause`;
        "there" after a preposition of place). None otherwise: the caller keeps the full clause.
        """
        row = self.index.fact_row(fid)
        shared = [e for e in (row[0], row[2]) if e in named]
        # "it" stands as the fact's subject (True) or its object
        if len(shared) != 1 or not self.sole(shared[0], row[1], shared[0] == row[0], named):
            return None
        its = self.possessive(self.rel_of(row[1], row[2]), self._field(fid, which)) if shared[0] == row[0] else None
        if its is not None:  # "X became its head of government", not "... head of government of it"
            return fill(its, s="", o=self.ent(row[2]))
        if self.lead_entity(fid, which) == shared[0]:
            return self.fact_clause(fid, which, subject_text="it", side_entity=shared[0])
        if shared[0] == row[2]:
            clause = self.fact_clause(fid, which, it=True)
        else:  # the subject closes the clause: "{o} won {s}" (Wikidata's winner), "Ron Jones won it"
            bare = drop_appositive(self._field(fid, which), "s")
            ok = bare.endswith("{s}") and not _NO_IT_BEFORE.search(bare[:-3])
            clause = fill(bare, s="it", o=self.ent(row[2])) if ok else ""
        return clause if clause.endswith((" it", " there")) else None

    def fact_clause(
        self,
        fid: int,
        which: str,
        *,
        subject_text: str | None = None,
        side_entity: int = -1,
        it: bool = False,
        template: str | None = None,
    ) -> str:
        """A clause field (``start_clause``, ``ask_end``...) of a fact; ``side_entity`` reads as ``subject_text``.

        ``it``: the clause just before named the object, so a non-person object at the clause's end reads "it"
        ("... did X leave it"). ``template``: the field's text as the caller cut it (:meth:`gerund`).
        """
        row = self.index.fact_row(fid)
        s, r, o = row[0], row[1], row[2]
        p = self.rel_of(r, o)
        tmpl = template or self._field(fid, which)
        s_txt = subject_text if side_entity == s and subject_text is not None else self.ent(s)
        o_txt = subject_text if side_entity == o and subject_text is not None and side_entity != s else self.ent(o)
        bare = drop_appositive(tmpl, "o")  # "left the party {o}" -> "left it"
        if it and p.answer_type not in _NOT_IT and bare.endswith("{o}") and not _NO_IT_BEFORE.search(bare[:-3]):
            there = _TO_A_PLACE.search(bare)  # "moved to it", "was born in it": "moved there", "was born there"
            return fill(bare[: there.start()] + " there" if there else bare, s=s_txt, o="it")
        for slot, text in (("s", s_txt), ("o", o_txt)):
            if text.startswith("the "):  # "part of the country the Soviet Union" reads "part of the Soviet Union"
                tmpl = drop_appositive(tmpl, slot)
        return fill(tmpl, s=s_txt, o=o_txt)


def graph_walk(rd: Renderer, d: Draft, text: str) -> bool:
    """The text reads as a walk over the graph rather than as English, so the question is not asked.

    Either a relational noun that ends in its slot takes another such description as its argument ("the capital
    of the country of Riga", "the administrative unit containing the administrative unit that contained
    Celle"; a description read as a clause, "the capital of the country Riga was part of", is English), or the
    type word of one hop's answer recurs in a chain of two or more hops ("In which administrative unit was the
    administrative unit Celle was in located?"). Entity labels are left out of the count. A chain worded only
    by the generic fallback ("the R12 of the R9 of X": synthetic graphs, ``--generic-phrases``) is not English
    by design and is left to the other rules.
    """
    if len(d.hops) < 2 or all(rd.index.rel_names[h.rel] in rd.generic for h in d.hops):
        return False
    clash = label_clashes(rd, d)
    if clash:
        rd = dataclasses.replace(rd, keep_full=clash)
    low = " ".join(text.split()).lower()
    descs = [rd.noun(d.hops[:i], d.anchor, d.pins).lower() for i in range(1, len(d.hops))]
    if any(f"{h} {x}" in low for h in rd.heads for x in descs if any(x.startswith(g) for g in rd.heads)):
        return True
    for e in sorted(_draft_entities(rd, d), key=lambda e: -len(rd.ent(e))):
        low = low.replace(rd.ent(e).lower(), " ")
    types = {rd.rel(h.rel).answer_type.lower() for h in d.hops} - {"entity"}
    return any(len(re.findall(r"(?<!\w)" + re.escape(t) + r"(?!\w)", low)) >= 2 for t in types)


# What may follow a relative clause that ends in its verb: the end of the question, a comma or a time adjunct;
# anything else is the next clause's verb ("... was in part of", "... was in belong to", "... was in located")
_CLAUSE_END = re.compile(
    r"\s*(?:[?,]|$)|\s+(?:as of|in \d|during|before|after|when|at the time|until|up to|since|counting|one|two|three)\b"
)


def nested_clause(rd: Renderer, d: Draft, text: str) -> bool:
    """A description that is a relative clause ending in its verb or preposition sits before another verb.

    "the administrative unit Mannheim was in" reads as a noun phrase at the end of a question, but nested before
    the next clause's verb ("Which country was the administrative unit Mannheim was in part of?", "the capital
    of the Soviet republic the administrative unit Haisyn was in was in") the two verbs run together and the
    sentence reads broken, so the question is not asked. A description that ends in its slot ("the capital of
    X"), or one followed by the question's end, a comma or a time adjunct ("... Dnipro was in?"), is left alone.
    """
    if len(d.hops) < 2:
        return False
    low = " ".join(text.split()).lower()
    for i in range(1, len(d.hops)):
        h = d.hops[i - 1]
        p = rd.rel_of(h.rel, h.dst if h.forward else h.src)
        if _SLOT_END.search(p.object_of if h.forward else p.subject_of):
            continue  # the description ends in its slot: "the capital of X"
        desc = rd.noun(d.hops[:i], d.anchor, d.pins).lower()
        at = low.find(desc)
        if at >= 0 and not _CLAUSE_END.match(low, at + len(desc)):
            return True
    return False


def name_repeated(rd: Renderer, d: Draft, text: str) -> bool:
    """The text writes one entity's name twice where no wording says it once, so the question is not asked.

    English names an entity once and then says "it", "there", "its" or a gerund (:meth:`Renderer.it_clause`,
    :meth:`Renderer.gerund`); where none has one antecedent or fits (a person, whom the graph gives no sex for "he"
    or "she": "Yes or no: the marriage of X and Y ended before X graduated from Z?"; a thing the data shows no type
    of), the repeat stays unwritten. A name that another entity of the question shares (without its brackets) is
    left alone: each mention names a different one. Longer names first ("FC Porto B" before "FC Porto"). A draft
    worded only by the generic fallback ("What was the R2 of E6 one year after E6 became the R5 of E298?": synthetic
    graphs, ``--generic-phrases``) is not English by design and is left to the other rules.
    """
    rels = [h.rel for h in d.hops] + ([rd.index.fact_row(d.ref_fid)[1]] if d.ref_fid >= 0 else [])
    if all(rd.index.rel_names[r] in rd.generic for r in rels):
        return False
    names: dict[int, str] = {e: plain_label(rd.labels(rd.index.ent_names[e])) for e in _draft_entities(rd, d)}
    shared = Counter(n.casefold() for n in names.values())
    for e in sorted(names, key=lambda x: (-len(names[x]), x)):
        pat = re.compile(r"(?<!\w)" + re.escape(names[e]) + r"(?!\w)")
        n = len(pat.findall(text))
        text = pat.sub(" ", text)
        if n > 1 and shared[names[e].casefold()] == 1:
            return True
    return False


def state_only(rd: Renderer, d: Draft) -> bool:
    """The draft's last hop is a state ("As of 1994, where was X born?" reads wrong for an event)."""
    return not rd.rel(d.hops[-1].rel).is_event


@dataclass(frozen=True)
class Template:
    """One surface form of an operator: its id (recorded per question), its text and what it suits."""

    id: str
    text: Callable[[Renderer, Draft], str]
    suits: Callable[[Renderer, Draft], bool] | None = None  # None: every draft of the operator


_PLURAL = (
    (re.compile(r"^who was "), "who were "),
    (re.compile(r"^what was "), "what were "),
    (re.compile(r"^which ([a-z]+) (did|was) "), None),
)


def _plural_ask(text: str) -> str:
    """The question clause for several answers: "who were", "which teams did"."""
    for pat, sub in _PLURAL:
        m = pat.match(text)
        if m is None:
            continue
        if sub is not None:
            return sub + text[m.end() :]
        noun, verb = m.group(1), m.group(2)
        plural = noun if noun.endswith("s") else (noun[:-1] + "ies" if noun.endswith("y") else noun + "s")
        return f"which {plural} {'were' if verb == 'was' else verb} " + text[m.end() :]
    return text


def _draft_entities(rd: Renderer, d: Draft) -> set[int]:
    ents = {d.anchor} | {h.dst for h in d.hops} | {h.src for h in d.hops}
    if d.ref_fid >= 0:
        row = rd.index.fact_row(d.ref_fid)
        ents |= {row[0], row[2]}
    if d.kind.is_entity:
        ents |= set(d.answers)
    return ents


def label_clashes(rd: Renderer, d: Draft) -> frozenset[int]:
    """Entities of a draft (question and answers) whose labels read the same without their disambiguators."""
    by_short: dict[str, set[int]] = {}
    for e in _draft_entities(rd, d):
        by_short.setdefault(plain_label(rd.labels(rd.index.ent_names[e])).casefold(), set()).add(e)
    return frozenset(e for group in by_short.values() if len(group) > 1 for e in group)


def label_twins(rd: Renderer, d: Draft) -> bool:
    """An entity the question names or answers shares its full label with another entity of the graph.

    Nothing the data gives names the two apart (a Wikidata label bears no disambiguator; a YAGO label keeps its
    bracket where another label shares the short one, :func:`namesake_labels`), so the bare label reads two ways to
    a reader of the corpus: "One year before Daniel Andersson joined AIK Fotboll, which team did Daniel Andersson
    play for?" where the graph holds two "Daniel Andersson" (one of Trelleborgs and AIK, one of SSC Bari), "next
    after the Kingdom of Hungary" (1000-1526 and 1940-1944), an answer "Legia Warsaw" (two entities). Not asked.
    The graph's namesakes (:attr:`Renderer.namesakes`, made once) decide it.
    """
    twins = rd.namesakes
    return any(e in twins for e in _draft_entities(rd, d))


def namesakes(labels: Sequence[str]) -> dict[int, frozenset[int]]:
    """Entity position -> the other positions of ``labels`` with the same case-folded label (only those with one)."""
    by_label: dict[str, list[int]] = {}
    for e, label in enumerate(labels):
        by_label.setdefault(label.casefold(), []).append(e)
    out: dict[int, frozenset[int]] = {}
    for group in by_label.values():
        if len(group) > 1:
            for e in group:
                out[e] = frozenset(group) - {e}
    return out


def namesake_labels(labels: Sequence[str], shared: frozenset[str] | None = None) -> frozenset[str]:
    """The labels (case-folded) whose disambiguator names a namesake, so a question keeps it.

    A disambiguator may be dropped only where nothing hints at another bearer of the short name: it stays where
    two labels of the graph share the short label (:func:`shared_short_labels`), where it holds a number (a year:
    ``Liberal Party (1922)``, a short-lived party beside later Liberal parties) or where it is itself the short
    label of an entity of the graph (a place: ``Liberal Party (Australia)``). "the Liberal Party (1922)" then
    reads unambiguously; a question whose answer would need it is not asked (``answer needs its disambiguator``).
    ``shared``: :func:`shared_short_labels` of ``labels`` where the caller has it.
    """
    shorts = {short_label(label).casefold() for label in labels}
    shared = shared_short_labels(labels) if shared is None else shared
    out = set()
    for label in labels:
        m = _DISAMBIGUATOR.search(label)
        if m is None:
            continue
        inner = m.group(0).strip()[1:-1].strip().casefold()
        if short_label(label).casefold() in shared or _NUMBER.search(inner) or inner in shorts:
            out.add(label.casefold())
    return frozenset(out)


def shared_short_labels(labels: Sequence[str]) -> frozenset[str]:
    """The short labels (case-folded, :func:`short_label`) that two or more of ``labels`` share."""
    seen: dict[str, int] = {}
    for label in labels:
        key = short_label(label).casefold()
        seen[key] = seen.get(key, 0) + 1
    return frozenset(k for k, n in seen.items() if n > 1)


def answer_label(rd: Renderer, d: Draft, e: int) -> str:
    """An entity answer as a question states it: its label without the disambiguator, unless that clashes.

    "John Heard (actor)" reads "John Heard" (the answer id keeps it), unless another entity of the draft or of
    the graph then reads the same, or its disambiguator names a namesake (:func:`namesake_labels`).
    """
    label = rd.labels(rd.index.ent_names[e])
    short = short_label(label)
    keep = short.casefold() in rd.shared_short or label.casefold() in rd.namesakes or e in label_clashes(rd, d)
    return label if keep else short


def render(rd: Renderer, d: Draft, templates: Sequence[Template], rng: random.Random) -> tuple[str, str]:
    """Pick one of the operator's ``templates`` that suits the draft with ``rng``; returns ``(id, text)``."""
    clash = label_clashes(rd, d)
    if clash:
        rd = dataclasses.replace(rd, keep_full=clash)
    if len(d.answers) > 1 and d.kind.is_entity:
        rd = _PluralRenderer(**{f.name: getattr(rd, f.name) for f in dataclasses.fields(rd)})
    fits = [t for t in templates if t.suits is None or t.suits(rd, d)]
    chosen = fits[rng.randrange(len(fits))]
    return chosen.id, named_once(rd, d, chosen.text(rd, d))


def named_once(rd: Renderer, d: Draft, text: str) -> str:
    """``text`` with an entity whose label keeps a disambiguator named in full only at its first mention.

    English names a person once in full and then by the name: "how long after the footballer Carlos Martins joined
    Granada CF did Carlos Martins leave it" (a descriptor, :meth:`Renderer.ent`), "how many years after Gary Roberts
    (footballer, born 1987) joined Mansfield Town F.C. did Gary Roberts leave" (a kept disambiguator). Not where
    two entities of the question share the short label (:attr:`Renderer.keep_full`): only the full label tells
    them apart, at every mention.
    """
    for e in sorted(_draft_entities(rd, d) - rd.keep_full):
        label = rd.labels(rd.index.ent_names[e])
        kind = descriptor(label)
        short = plain_label(label) if kind is None else short_label(label)
        full = label if kind is None else f"the {kind} {short}"
        if short == label:
            continue
        at = text.lower().find(full.lower())
        if at >= 0:
            end = at + len(full)
            text = text[:end] + text[end:].replace(full, short)
    return text


@dataclass(frozen=True)
class _PluralRenderer(Renderer):
    """A renderer whose question clause asks for several answers."""

    def ask(self, d: Draft, named: Set[int] = frozenset()) -> str:
        """The plural question clause."""
        return _plural_ask(super().ask(d, named))
