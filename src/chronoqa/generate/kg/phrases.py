"""Phrase tables: per relation, its kind (state or event) and the English used in questions and corpus docs.

A phrase table is a TOML file with one ``[relations.<key>]`` table per relation, where ``<key>`` is the
relation id (``P54``, ``<playsFor>``) or its label (``playsFor``). The fields are documented in the
shipped defaults (``chronoqa/generate/phrases/yago11k.toml``). Placeholders are ``{s}`` and ``{o}``.

Besides the English, each entry declares how the relation behaves *in the world* (not only in the graph):

* ``objects_at_once`` / ``subjects_at_once``: ``"one"`` or ``"many"``, how many objects one subject has
  at one time (forward direction) and how many subjects one object has at one time (inverse direction).
  A ``many`` direction ("the people born in X", "the players of a club") is never asked for as a single
  answer and never used as an intermediate description.
* ``symmetric``: ``true`` for a relation that reads the same both ways (marriage, twinning): a fact and
  its mirror are one fact, and the relation is only traversed forward.
* ``max_years``: the longest plausible duration of an open-ended state (top-level ``default_max_years``,
  else :data:`DEFAULT_MAX_YEARS`); a state with a start and no end, read as ongoing, that would still hold
  at ``as_of`` after longer than this is implausible.
* ``role``: ``"birth"`` or ``"death"`` for the relations that date a subject's life (facts of the subject
  before its birth or after its death are implausible).
* ``min_age``: the youngest age in years at which a person takes part in a fact of the relation (marriage: 14);
  a fact starting earlier than its person's birth year plus ``min_age`` is implausible (``before_birth``: a
  marriage dated from a spouse's birth year is a lifetime span read as a marriage). Default 0.
* ``containment``: ``"part_of"`` (the subject lies in the object: country, located in), ``"contains"``
  (the object lies in the subject) or ``"capital_of"``, read by the regime rules
  (:mod:`chronoqa.generate.kg.regime`).
* ``status``: ``true`` where the relation states what its subject is (Wikidata's "instance of": "X had the status of
  sovereign state"); a status fact that starts with its subject's whole record dates the subject's founding, not
  a change of status (:mod:`chronoqa.generate.kg.modelling`).
* ``career``: ``true`` where a subject's spells of the relation read as one working life (an employer): a gap
  between two spells is time the graph does not record, which may have been spent with either employer, so a
  duration over a spell with such a gap before or after it is not asked
  (:func:`chronoqa.generate.kg.operators.duration.career_gap`).
* ``exclusive``: ``true`` where a subject holds one value of the relation (of one role) at a time in the world
  even if the declared cardinality is ``many`` for safety (a party membership ends when one joins another party):
  a spell that contains the start of another spell of the same subject, relation and role with another object is
  interrupted, so its end, its length and "still in" are not asked (:meth:`GraphIndex.mark_interrupted
  <chronoqa.generate.kg.index.GraphIndex.mark_interrupted>`, :mod:`chronoqa.generate.kg.tenure`).
* ``end_unknown``: ``true`` where a recorded end of the relation is the source's modelling, not an event of the
  world (Wikidata's "instance of": Bavaria a federated state 1933-1945): the end is read as unknown, so no
  question names or compares it, and the spell's length and "still in" are not asked; its start stays usable
  (:meth:`GraphIndex.end_recorded <chronoqa.generate.kg.index.GraphIndex.end_recorded>`).
* ``ask``: ``false`` where the relation is not question material (YAGO11k's ``created``: actors "creating" the films
  they appear in, a birth year read as a founding year): its facts stay in the corpus and count for an answer's
  uniqueness, but none is gold, a hop, a reference fact or a negative (the index's never-gold mark,
  :meth:`GraphIndex.mark_implausible <chronoqa.generate.kg.index.GraphIndex.mark_implausible>`, without the
  implausible count).
* ``no_value``: ``{ objects = ["<label>", ...], reason = "..." }``, the object labels that record the absence
  of a value rather than a value (Wikidata's P102 party "independent politician"; an object whose label holds
  every word of one, as a role's ``object_named``): such a fact stays in the
  corpus and counts for uniqueness, but is never gold, a hop, an anchor, a reference fact or a ranked spell
  (the index's never-gold mark, as ``ask``).
* ``subject_type`` / ``object_type``: the entity type the relation's words presume of that side ("X was part
  of the country Y" presumes X is a place). A fact is asked about only where the data shows its entity is of
  that type (an award's or a team's country is not asked as "part of").
* ``subject_not`` / ``object_not``: an entity type the relation's words exclude of that side ("X received the
  award Y" is said of a person, a group or a work, not of a place). A fact whose entity the data shows is of
  that type is not asked about (Wikidata's "Denmark received the Konrad-Duden Prize").

* ``roles``: sub-tables ``[relations.<key>.roles.<name>]`` for the roles one relation mixes (Wikidata's P54
  holds clubs and national teams): ``object_named`` lists words of the object's label that mark the role
  ("national"; a marker of several words, "soviet socialist", marks a label holding all of them), and the other
  fields override the relation's English for such a fact ("which national team did X play for"), so a reader
  expecting a club is not answered with a national team. A role may instead list ``object_shown_by`` sides
  (``"<relation> subject|object"``): an object the data shows on one of them holds the role (Wikidata's P131 asks
  a country, an object of P17, as a country, not as an "administrative unit"); a label marker wins.
* ``end_again`` / ``ask_end_again``: a state's end as English says it right after the same fact's start, where
  ``end_clause`` / ``ask_end`` would write a name again ("How many years after X married Y did the marriage end?",
  "... did X leave that office?"); both or neither. The duration question reads them
  (:meth:`Renderer.end_field <chronoqa.generate.kg.templates.Renderer.end_field>`). A role that words its own
  ``end_clause`` does not inherit them.
* ``object_at`` / ``subject_at``: a bridge's description read at a stated unit ``{t}``, where "the spouse of X as
  of 1942" (``object_of`` and "as of") is stilted: "the person married to {s} in {t}", "the person who headed the
  government of {s} in {t}". Each names its slot and ``{t}``; a role that words its own ``object_of`` /
  ``subject_of`` does not inherit them (:meth:`Renderer.noun <chronoqa.generate.kg.templates.Renderer.noun>`).
* ``possessive``: the relational noun of a field that names the subject after it ("head of government" in "the
  head of government of {s}", "{o} became head of government of {s}"): where the question has just named the
  subject, a thing with one antecedent, it reads "its head of government" (:meth:`Renderer.possessive
  <chronoqa.generate.kg.templates.Renderer.possessive>`), not the name again.
* ``residence``: ``true`` where the relation says where its subject lives: a start is read as a move ("moved to")
  only where the data gives a reason (:mod:`chronoqa.generate.kg.modelling`, ``residence not a move``).
* ``from_birth``: ``true`` where a person holds the relation from birth (citizenship): a start at the subject's
  birth is no "became" (:mod:`chronoqa.generate.kg.modelling`, ``held from birth``).
* ``squads``: ``true`` where a club fields several teams (its reserve or youth team, labelled as the club plus a
  marker word): a spell whose end is a move to or from the same club's other team is no departure
  (:func:`chronoqa.generate.kg.tenure.squad_moves`).
* ``one_spell_per_object``: the reason, where the source keeps one fact per (subject, relation, object) (YAGO11k's
  ``playsFor``): a permanent spell after a loan at the same club, or a return, is lost, so the end of a loan (a
  spell lying within another of the subject's, both of the relation's own wording) is not the day the subject
  left: its end, its length and "still in" are not asked (:func:`chronoqa.generate.kg.tenure.loans`). Not for a
  source that repeats triples (Wikidata12k records a second spell).
* ``date_convention``: the reason, where the source dates the relation's facts by a convention and lists them in
  part (Wikidata's P1411 nominations, dated by the work's year): the date is never asked, nor paired with a fact of
  another relation (:func:`chronoqa.generate.kg.tenure.tenure_reason`).
* ``year_uncertain``: ``{ objects = ["<words>", ...], reason = "..." }``, the objects (an object whose label holds
  every word of one, as a role's ``object_named``) whose facts the source dates by either of two conventions a year
  apart (Wikidata's P166 award at a ceremony early in the year after the work it honours: the work's year or the
  ceremony's): such a fact's year is uncertain by one, so it is never used for its year (asked, a hop, a reference
  or anchor, compared with any fact); it stays in the corpus and counts for uniqueness
  (:func:`chronoqa.generate.kg.tenure.tenure_reason`, ``year uncertain by one``). Not a role: a role splits the
  subject's timeline ("next award after"), and these awards are no other timeline.
* ``levels_unnamed``: the reason, on a containment relation (or one of its roles) whose words name no level of the
  container ("the administrative unit X was in" fits its district, its department and its region alike): a hop
  reaching the container through such words is never described, neither asked for nor a bridge; a container the
  question names (a yes/no, a start or end year) stays (:mod:`chronoqa.generate.kg.regime`, ``level not named``).
  Not inherited by a role: a role whose label marks a level ("province") names it.
* ``union_of_states``: the reason, on a role whose containers were unions of states that were states in their own
  right (Austria-Hungary beside the Kingdom of Hungary): such a container is never described ("which country"),
  only named (:mod:`chronoqa.generate.kg.regime`, ``union asked as a country``). Not inherited by a role.

Bridges are declared in a top-level ``[bridges]`` table (:func:`parse_bridges`): ``"<relation> object"`` (a hop
from the subject to the object, "the team X played for") or ``"<relation> subject"`` (the inverse) mapped to
``{ holds = "lifelong" | "at a time", reason = "..." }``: one value over the entity's whole existence (born in),
or one value at each time point in the world (one spouse, one head of government at a time). Only a declared
direction may name an intermediate entity of a multi-hop question (:mod:`chronoqa.generate.kg.bridges`).

Divided places are declared in a top-level ``[divided]`` table (:func:`parse_divided`): an entity id (never a
label) mapped to ``{ label = "...", from = <year>, to = <year>, reason = "..." }``, a place the data records as one
entity while it was divided in the world (Wikidata's one Berlin, its country the GDR 1949-1990 and its heads of
government West Berlin's mayors). The label is checked against the graph's (:meth:`Divided.check_against`): the id
under another label is an error. Its own facts in the span are never asked
(:mod:`chronoqa.generate.kg.regime`, ``divided entity``).

Names an answer goes by are declared in a top-level ``[goes_by]`` table (:func:`parse_goes_by`): an entity label
mapped to ``{ names = ["<name>", ...], reason = "...", from = <year>, to = <year> }`` (``from`` and ``to`` optional:
the years the names hold in), the other names a careful person answers with ("Germany" for the Weimar Republic). The
builder writes, per question, the names it accepts for each gold answer (``Question.answer_names``): only where no
other entity the question names or rests on goes by the same name (:mod:`chronoqa.generate.kg.names`).

Entity types are declared in top-level ``[types.<name>]`` tables (:class:`EntityType`): ``shown_by`` lists the
relation sides that show an entity is of the type (``"P131 object"``: whatever a place is located in is a
place), ``not_named`` the last words of a label that cannot name an entity of the type ("Old Main street" is
no administrative unit), ``not_articles = true`` that the title of a Wikipedia article about a topic cannot name
one (a list, a timeline, a disambiguation page, "Political positions of X", "Presidency of X" where X is itself
of the type: :func:`chronoqa.generate.kg.plausible.topic_article`), ``not_spouse_roles = true`` that the title of
an office of a holder's spouse ("First Lady of Argentina", a "Queen consort") cannot name one, since it presumes a
sex of its holder that the graph does not record (:data:`chronoqa.generate.kg.plausible.SPOUSE_ROLE`). All are
rules over the graph's own facts and labels
(:mod:`chronoqa.generate.kg.plausible`), never lists of entity ids.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from chronoqa.errors import ChronoqaError, UnknownNameError

__all__ = [
    "CARDINALITIES",
    "DEFAULT_MAX_YEARS",
    "DEFAULT_PHRASE_TABLES",
    "OPEN_END_READINGS",
    "Divided",
    "EntityType",
    "GoesBy",
    "MissingPhrasesError",
    "PhraseTable",
    "RelationPhrases",
    "fill",
    "generic_phrases",
    "label_words",
    "load_phrase_table",
    "marks_in",
    "parse_divided",
    "parse_goes_by",
    "parse_not_years",
]

Kind = Literal["state", "event"]
OPEN_END_READINGS = ("ongoing", "unknown")
DEFAULT_PHRASE_TABLES = ("yago11k", "wikidata12k")
_REQUIRED = ("kind", "ask_object", "ask_subject", "object_of", "subject_of", "statement", "start_clause", "ask_start")
_OPTIONAL = (
    "answer_type", "end_clause", "ask_end", "end_again", "ask_end_again", "object_at", "subject_at", "possessive",
)  # fmt: skip
# world-validity declarations (strings / bool / int, see the module docstring)
_DECLARED = (
    "objects_at_once", "subjects_at_once", "symmetric", "max_years", "min_age", "role", "containment", "subject_type",
    "object_type", "status", "subject_not", "object_not", "career", "exclusive", "end_unknown", "ask", "squads",
    "one_spell_per_object", "date_convention", "no_value", "residence", "from_birth", "levels_unnamed",
    "union_of_states", "year_uncertain",
)  # fmt: skip
# reasons a role declares for itself (never inherited from its relation): the words naming, or not, the container
_UNDESCRIBED = {"levels_unnamed": "level not named", "union_of_states": "union asked as a country"}
# the declarations read as given (a string, or max_years an int), None where absent; the others have defaults
# the true / false declarations
_FLAGS = ("symmetric", "status", "career", "exclusive", "end_unknown", "ask", "squads", "residence", "from_birth")
# the declarations of objects by their labels' words: field -> what the words are, as the error message says them
_MARKED = {"no_value": "<label>", "year_uncertain": "<words of the label>"}
_DECLARED_TEXT = tuple(f for f in _DECLARED if f not in (*_FLAGS, "min_age", *_MARKED))
SIDES = ("subject", "object")
CARDINALITIES = ("one", "many")
ROLES = ("birth", "death")
CONTAINMENTS = ("part_of", "contains", "capital_of")
BRIDGE_HOLDS = ("lifelong", "at a time")
DEFAULT_MAX_YEARS = 100
_PLACEHOLDER = re.compile(r"\{([so])\}")


class MissingPhrasesError(ChronoqaError):
    """Relations of the graph that the phrase table does not cover (the message says how to add them)."""


def fill(template: str, *, s: str, o: str) -> str:
    """Replace ``{s}`` and ``{o}`` in one pass (labels containing braces stay intact)."""
    return _PLACEHOLDER.sub(lambda m: s if m.group(1) == "s" else o, template)


def label_words(label: str) -> frozenset[str]:
    """The words of an entity label, casefolded: what a role mark or a ``no_value`` label is matched against."""
    return frozenset(label.casefold().split())


def marks_in(words: AbstractSet[str], marks: Iterable[str]) -> list[str]:
    """The marks (declared, casefolded) whose every word is one of ``words``.

    A renamed twin's label, which appends a word to a real one, still holds the real label's marks.
    """
    return [m for m in marks if set(m.split()) <= words]


@dataclass(frozen=True, slots=True)
class RelationPhrases:
    """The English of one relation (see the module docstring for the fields)."""

    key: str
    kind: Kind
    ask_object: str
    ask_subject: str
    object_of: str
    subject_of: str
    statement: str
    start_clause: str
    ask_start: str
    answer_type: str = "entity"
    end_clause: str | None = None
    ask_end: str | None = None
    # the end said right after its start, of the same fact ("the marriage ended", "{o} left that office"): None,
    # the end_clause / ask_end (see the module docstring)
    end_again: str | None = None
    ask_end_again: str | None = None
    # a bridge's description read at a stated unit {t} ("the person married to {s} in {t}"): None, ``object_of`` /
    # ``subject_of`` and "as of {t}" (see the module docstring)
    object_at: str | None = None
    subject_at: str | None = None
    # the relational noun its subject owns ("head of government": "the head of government of {s}" reads "its head of
    # government" where {s} was named just before); None: never said so (see the module docstring)
    possessive: str | None = None
    generic: bool = False
    objects_at_once: str | None = None  # "one" | "many"; None: not declared (inferred from the data)
    subjects_at_once: str | None = None
    symmetric: bool = False
    max_years: int | None = None  # None: the table's default
    min_age: int = 0  # the youngest age (years after birth) at which a fact of the relation can start
    role: str | None = None  # "birth" | "death" | None
    containment: str | None = None  # "part_of" | "contains" | "capital_of" | None
    status: bool = False  # the relation states what its subject is ("instance of")
    career: bool = False  # a subject's spells read as one career: a gap between two of them is missing data
    exclusive: bool = False  # one value of a role at a time in the world: another's start interrupts a spell
    end_unknown: bool = False  # a recorded end is the source's modelling, not an event: no question rests on it
    ask: bool = True  # False: the facts stay in the corpus (and count for uniqueness) but are never gold or anchor
    squads: bool = False  # a club fields several teams: a move to its reserve or youth team is no departure
    one_spell_per_object: str | None = None  # why the source keeps one spell per object: a loan's end is no leaving
    residence: bool = False  # where the subject lives: a start reads as a move only where the data gives a reason
    from_birth: bool = False  # a person holds it from birth (citizenship): a start at the birth is no "became"
    date_convention: str | None = None  # why the dates follow a convention: never asked, nor paired across relations
    levels_unnamed: str | None = None  # why the words name no level of the container: it is never described
    union_of_states: str | None = None  # why the container is a union of states: never described ("which country")
    # object labels (case-folded) that record the absence of a value ("independent politician" for a party): never
    # an answer, an anchor or a ranked spell; the facts stay in the corpus
    no_value: frozenset[str] = frozenset()
    # words of object labels (case-folded) whose facts the source dates by either of two conventions a year apart
    # (an award's work's year or its ceremony's): never used for their year; the facts stay in the corpus
    year_uncertain: frozenset[str] = frozenset()
    subject_type: str | None = None  # the entity type the words presume of the subject (a declared type)
    object_type: str | None = None
    subject_not: str | None = None  # an entity type the words exclude of the subject (a place receives no award)
    object_not: str | None = None
    roles: tuple[tuple[frozenset[str], RelationPhrases], ...] = ()  # (object label words, the role's English)
    # (relation sides an object shows, the role's English): roles an object holds by its facts, not its label
    shown_roles: tuple[tuple[tuple[tuple[str, str], ...], RelationPhrases], ...] = ()

    def for_object(self, label: str, shows: Callable[[str, str], bool] | None = None) -> RelationPhrases:
        """The English of a fact whose object reads ``label``: its role's, else the relation's.

        A role its label marks (``roles``) wins, the most specific mark first (the most words: "national under-21"
        before "national"; ties in the roles' order); else one whose sides the object shows (``shows(relation,
        side)``).
        """
        words = label_words(label)
        fits = [(max(len(m.split()) for m in hit), -i, p) for i, (marks, p) in enumerate(self.roles)
                if (hit := marks_in(words, marks))]  # fmt: skip
        named = max(fits, key=lambda x: x[:2])[2] if fits else None
        if named is not None or shows is None:
            return named or self
        return next((p for sides, p in self.shown_roles if any(shows(r, side) for r, side in sides)), self)

    def undescribed(self) -> dict[str, str]:
        """Role key ("": the relation's own words) -> the rule that keeps a container so worded from being described.

        ``levels_unnamed`` gives ``level not named``, ``union_of_states`` ``union asked as a country`` (the latter
        first).
        """
        out = {}
        for p in (self, *(p for _, p in self.roles), *(p for _, p in self.shown_roles)):
            why = next((rule for f, rule in reversed(_UNDESCRIBED.items()) if getattr(p, f)), None)
            if why is not None:
                out["" if p is self else p.key] = why
        return out

    @property
    def is_event(self) -> bool:
        """True for an event relation."""
        return self.kind == "event"


def generic_phrases(key: str, label: str, kind: Kind = "state") -> RelationPhrases:
    """The documented generic fallback phrasing of a relation with no phrase-table entry."""
    return RelationPhrases(
        key=key,
        kind=kind,
        ask_object=f"what was the {label} of {{s}}",
        ask_subject=f"what had {{o}} as its {label}",
        object_of=f"the {label} of {{s}}",
        subject_of=f"the entity whose {label} was {{o}}",
        statement=f"the {label} of {{s}} was {{o}}",
        start_clause=f"{{o}} became the {label} of {{s}}",
        ask_start=f"did {{o}} become the {label} of {{s}}",
        end_clause=f"{{o}} ceased to be the {label} of {{s}}",
        ask_end=f"did {{o}} cease to be the {label} of {{s}}",
        generic=True,
    )


@dataclass(frozen=True)
class Divided:
    """A place the data records as one entity while it was divided in the world (``[divided]``, module docstring)."""

    entity: str  # the entity id (``Q64``)
    label: str  # its label, checked against the graph's (:meth:`check_against`)
    first: int  # the first year of the division
    last: int  # the last year of the division
    reason: str

    def check_against(self, name: str, got: str | None) -> None:
        """Fail where the graph holds the id under another label (a typo in the id or the label).

        ``got``: the graph's label of the id; ``None``, an id the graph lacks, is left alone: a hand-made graph or a
        subset lacks the place, and a label alone ("Berlin") names no one entity.

        Raises:
            ChronoqaError: Naming the file, the entry and the fix.

        """
        if got is not None and got != self.label:
            raise ChronoqaError(
                f"{name}: divided.{self.entity}.label = {self.label!r}, but the graph labels {self.entity} {got!r}; "
                "fix the id or the label in the file"
            )


@dataclass(frozen=True)
class GoesBy:
    """The other names an entity goes by as an answer (``[goes_by]``, module docstring), in the years they hold."""

    label: str  # the entity's label, as the graph gives it
    names: tuple[str, ...]
    reason: str
    first: int | None = None  # the first year the names hold (``None``: from the entity's start)
    last: int | None = None  # the last year the names hold (``None``: to the entity's end)

    def holds_in(self, year: int | None) -> bool:
        """Whether the names hold in ``year`` (a name without a span holds in every year, and without a year)."""
        if self.first is None and self.last is None:
            return True
        if year is None:
            return False
        return (self.first is None or self.first <= year) and (self.last is None or year <= self.last)


@dataclass(frozen=True)
class EntityType:
    """An entity type the data shows (see the module docstring): the relation sides that show it, unfit labels."""

    name: str
    shown_by: tuple[tuple[str, str], ...]  # (relation id or label, "subject" | "object")
    not_named: tuple[str, ...] = ()  # last words (case-folded) of a label that cannot name such an entity
    not_articles: bool = False  # a topic article's title ("Political positions of X") cannot name such an entity
    # the title of an office held by a holder's spouse ("First Lady", "First Gentleman", a "consort") cannot name
    # such an entity: it presumes a sex of its holder the graph does not record (neither graph states a sex)
    not_spouse_roles: bool = False


@dataclass(frozen=True)
class PhraseTable:
    """Relation key → phrases; look up by relation id first, then by label.

    ``open_end`` is the dataset's declared reading of a state with a start and no end (top-level TOML key
    ``open_end``): ``"ongoing"`` (the state goes on until ``as_of``; Wikidata leaves the end empty for
    current states) or ``"unknown"`` (no end was recorded; YAGO asserts nothing after the start), or
    ``None`` when the table declares none (the builder then reads ``"ongoing"``).

    ``entity_subset`` (top-level TOML key, default ``false``) declares the graph a subset of its source's entities
    (YAGO11k keeps 10,623 of YAGO3's): a club, a party or a prize missing from the graph leaves a gap in a
    timeline, so "next" is asked only across no gap (:mod:`chronoqa.generate.kg.operators.sequence`).

    ``not_years`` is the declared data-quality setting (top-level TOML table ``[not_years]``): relation id
    or label → years that the source's extraction read from numbers that are not years (YAGO11k's
    ``<created>`` facts dated 360, from "Xbox 360"; ``<owns>`` facts dated 100, an ownership percentage).
    A fact of that relation with its start or end in one of those years is valid nowhere (like a reversed
    fact) but is still a corpus document. Empty when the table declares none.
    """

    source: str
    relations: Mapping[str, RelationPhrases]
    open_end: str | None = None
    not_years: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    default_max_years: int = DEFAULT_MAX_YEARS
    types: Mapping[str, EntityType] = field(default_factory=dict)
    bridges: Mapping[tuple[str, str], tuple[str, str]] = field(default_factory=dict)  # (key, side) -> (holds, reason)
    entity_subset: bool = False  # top-level ``entity_subset``: the graph keeps a subset of its source's entities
    divided: Mapping[str, Divided] = field(default_factory=dict)  # top-level ``[divided]``: entity id -> declaration
    goes_by: Mapping[str, GoesBy] = field(default_factory=dict)  # top-level ``[goes_by]``: entity label -> names

    def shift_years(self, years: int) -> PhraseTable:
        """The table of a world whose dates moved by ``years`` (a counterfactual twin): the declared divisions move too.

        So do the years a declared name holds in. ``not_years`` stay: they are numbers the source misread as years,
        which a twin does not shift either.
        """
        moved = {k: dataclasses.replace(d, first=d.first + years, last=d.last + years) for k, d in self.divided.items()}
        names = {
            k: dataclasses.replace(
                g, first=None if g.first is None else g.first + years, last=None if g.last is None else g.last + years
            )
            for k, g in self.goes_by.items()
        }
        return dataclasses.replace(self, divided=moved, goes_by=names)

    def lookup(self, relation_id: str, label: str) -> RelationPhrases | None:
        """Phrases of a relation, or ``None`` when the table has no entry for its id or label."""
        return self.relations.get(relation_id) or self.relations.get(label)

    def resolve(
        self, relations: Iterable[tuple[str, str]], *, generic: bool = False
    ) -> tuple[dict[str, RelationPhrases], list[str]]:
        """Phrases for every ``(relation_id, label)``; returns them and the ids that used the generic fallback.

        Raises:
            MissingPhrasesError: When a relation has no entry and ``generic`` is false.

        """
        out: dict[str, RelationPhrases] = {}
        fallback: list[str] = []
        missing: list[str] = []
        for rid, label in sorted(relations):
            p = self.lookup(rid, label)
            if p is None:
                if generic:
                    out[rid] = generic_phrases(rid, label)
                    fallback.append(rid)
                else:
                    missing.append(rid if rid == label else f"{rid} ({label})")
                continue
            out[rid] = p
        if missing:
            raise MissingPhrasesError(
                f"The phrase table {self.source} has no entry for {len(missing)} relation(s) of the graph: "
                f"{', '.join(missing)}. Add a [relations.<id or label>] table for each to a copy of the file "
                f"(fields: {', '.join(_REQUIRED)}; optional {', '.join(_OPTIONAL)}) and pass it with --phrases, "
                "or pass --generic-phrases to use the generic fallback phrasing ('the <label> of X', kind state)."
            )
        return out, fallback


def _checked_kind(name: str, key: str, entry: dict[str, Any]) -> Literal["state", "event"]:
    """A relation's ``kind`` (``state`` or ``event``), checked with the clauses a state needs."""
    kind = entry["kind"]
    if kind not in ("state", "event"):
        raise ChronoqaError(f"{name}: relations.{key}.kind = {kind!r}: expected 'state' or 'event'")
    if kind == "state" and not (entry.get("end_clause") and entry.get("ask_end")):
        raise ChronoqaError(f"{name}: relations.{key} is a state: add end_clause and ask_end")
    if (entry.get("end_again") is None) != (entry.get("ask_end_again") is None) or (
        entry.get("end_again") is not None and kind != "state"
    ):
        raise ChronoqaError(
            f"{name}: relations.{key}: a state's end_again and ask_end_again come together; fix the file"
        )
    if kind == "state" and entry["start_clause"].strip() == entry["statement"].strip():
        # "at the time Kyiv was twinned with Florence" reads the whole open-ended twinning as one moment
        raise ChronoqaError(
            f"{name}: relations.{key} is a state whose start_clause repeats its statement "
            f'({entry["start_clause"]!r}); word its start as a change ("{{s}} became ..."); fix the file'
        )
    return "state" if kind == "state" else "event"


def load_phrase_table(source: str | Path) -> PhraseTable:
    """Load a phrase table: a shipped default by name (``yago11k``, ``wikidata12k``) or a TOML file path."""
    if isinstance(source, str) and source in DEFAULT_PHRASE_TABLES:
        text = resources.files("chronoqa.generate.phrases").joinpath(f"{source}.toml").read_text(encoding="utf-8")
        name = f"<default {source}>"
    else:
        path = Path(source)
        if not path.is_file():
            if isinstance(source, str) and "/" not in source and not source.endswith(".toml"):
                raise UnknownNameError("phrase table", source, DEFAULT_PHRASE_TABLES)
            raise FileNotFoundError(
                f"{path}: phrase table not found (give a TOML file or one of {DEFAULT_PHRASE_TABLES})"
            )
        text = path.read_text(encoding="utf-8")
        name = str(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ChronoqaError(f"{name}: not valid TOML ({exc}); fix the file") from None
    open_end = data.get("open_end")
    if open_end is not None and open_end not in OPEN_END_READINGS:
        raise ChronoqaError(
            f"{name}: open_end = {open_end!r}: expected one of {', '.join(map(repr, OPEN_END_READINGS))}; fix the file"
        )
    not_years = parse_not_years(data.get("not_years", {}), f"{name}: not_years")
    rels = data.get("relations")
    if not isinstance(rels, dict) or not rels:
        raise ChronoqaError(f"{name}: expected [relations.<id>] tables, found none")
    out: dict[str, RelationPhrases] = {}
    for key in sorted(rels):
        entry = rels[key]
        if not isinstance(entry, dict):
            raise ChronoqaError(f"{name}: relations.{key} must be a table")
        missing = [f for f in _REQUIRED if not isinstance(entry.get(f), str) or not entry[f].strip()]
        if missing:
            raise ChronoqaError(f"{name}: relations.{key} lacks the field(s) {', '.join(missing)}; add them")
        unknown = sorted(set(entry) - set(_REQUIRED) - set(_OPTIONAL) - set(_DECLARED) - {"roles"})
        if unknown:
            raise ChronoqaError(
                f"{name}: relations.{key} has unknown field(s) {', '.join(unknown)}; "
                f"known: {', '.join(_REQUIRED + _OPTIONAL + _DECLARED)}"
            )
        _check_declared(name, key, entry)
        kind = _checked_kind(name, key, entry)
        declared: dict[str, Any] = {f: entry.get(f) for f in _DECLARED_TEXT}
        declared |= {f: bool(entry.get(f, f == "ask")) for f in _FLAGS}  # every flag false by default, but ask
        out[key] = RelationPhrases(
            key=key,
            kind=kind,
            ask_object=entry["ask_object"],
            ask_subject=entry["ask_subject"],
            object_of=entry["object_of"],
            subject_of=entry["subject_of"],
            statement=entry["statement"],
            start_clause=entry["start_clause"],
            ask_start=entry["ask_start"],
            answer_type=entry.get("answer_type", "entity"),
            end_clause=entry.get("end_clause"),
            ask_end=entry.get("ask_end"),
            end_again=entry.get("end_again"),
            ask_end_again=entry.get("ask_end_again"),
            object_at=entry.get("object_at"),
            subject_at=entry.get("subject_at"),
            possessive=entry.get("possessive"),
            min_age=entry.get("min_age", 0),
            no_value=frozenset(v.casefold() for v in entry.get("no_value", {}).get("objects", [])),
            year_uncertain=frozenset(v.casefold() for v in entry.get("year_uncertain", {}).get("objects", [])),
            **declared,
        )
        named, shown = _parse_roles(name, key, entry.get("roles", {}), out[key])
        out[key] = dataclasses.replace(out[key], roles=named, shown_roles=shown)
    types = parse_types(name, data.get("types", {}), out)
    default_max = data.get("default_max_years", DEFAULT_MAX_YEARS)
    if not isinstance(default_max, int) or isinstance(default_max, bool) or default_max < 1:
        raise ChronoqaError(f"{name}: default_max_years = {default_max!r}: expected a positive integer; fix the file")
    bridges = parse_bridges(name, data.get("bridges", {}), out)
    subset = _entity_subset(name, data)
    divided, goes_by = parse_divided(name, data.get("divided", {})), parse_goes_by(name, data.get("goes_by", {}))
    return PhraseTable(name, out, open_end, not_years, default_max, types, bridges, subset, divided, goes_by)


def _entity_subset(name: str, data: Mapping[str, Any]) -> bool:
    """The top-level ``entity_subset`` declaration (default false), checked."""
    subset = data.get("entity_subset", False)
    if not isinstance(subset, bool):
        raise ChronoqaError(f"{name}: entity_subset = {subset!r}: expected true or false; fix the file")
    return subset


def _check_declared(name: str, key: str, entry: Mapping[str, object]) -> None:
    """Validate the world-validity fields of one entry (see the module docstring)."""
    for f in ("objects_at_once", "subjects_at_once"):
        v = entry.get(f)
        if v is not None and v not in CARDINALITIES:
            raise ChronoqaError(f"{name}: relations.{key}.{f} = {v!r}: expected 'one' or 'many'; fix the file")
    for flag in _FLAGS:
        if not isinstance(entry.get(flag, False), bool):
            raise ChronoqaError(f"{name}: relations.{key}.{flag} must be true or false; fix the file")
    m = entry.get("max_years")
    if m is not None and (not isinstance(m, int) or isinstance(m, bool) or m < 1):
        raise ChronoqaError(f"{name}: relations.{key}.max_years = {m!r}: expected a positive integer of years")
    a = entry.get("min_age", 0)
    if not isinstance(a, int) or isinstance(a, bool) or a < 0:
        raise ChronoqaError(f"{name}: relations.{key}.min_age = {a!r}: expected a whole number of years (0 or more)")
    for f, what in _MARKED.items():
        nv = entry.get(f)
        if nv is not None and not (
            isinstance(nv, Mapping)
            and set(nv) == {"objects", "reason"}
            and isinstance(nv["reason"], str)
            and nv["reason"].strip()
            and isinstance(nv["objects"], list)
            and nv["objects"]
            and all(isinstance(v, str) and v.strip() for v in nv["objects"])
        ):
            raise ChronoqaError(
                f'{name}: relations.{key}.{f}: expected {{ objects = ["{what}", ...], reason = "..." }}; fix the file'
            )
    for f in ("date_convention", "one_spell_per_object", *_UNDESCRIBED):
        why = entry.get(f)
        if why is not None and (not isinstance(why, str) or not why.strip()):
            raise ChronoqaError(f'{name}: relations.{key}.{f} must be the reason, as text: write {f} = "<why>"')
    for f, slot in (("object_at", "{s}"), ("subject_at", "{o}")):
        at = entry.get(f)
        if at is not None and (not isinstance(at, str) or "{t}" not in at or slot not in at):
            raise ChronoqaError(
                f'{name}: relations.{key}.{f} must name {slot} and the unit {{t}}: write, e.g., {f} = "the person '
                f'married to {slot} in {{t}}"'
            )
    role = entry.get("role")
    if role is not None and role not in ROLES:
        raise ChronoqaError(f"{name}: relations.{key}.role = {role!r}: expected 'birth' or 'death'")
    cont = entry.get("containment")
    if cont is not None and cont not in CONTAINMENTS:
        raise ChronoqaError(
            f"{name}: relations.{key}.containment = {cont!r}: expected 'part_of', 'contains' or 'capital_of'; "
            "fix the file"
        )


def _parse_roles(
    name: str, key: str, value: object, base: RelationPhrases
) -> tuple[
    tuple[tuple[frozenset[str], RelationPhrases], ...], tuple[tuple[tuple[tuple[str, str], ...], RelationPhrases], ...]
]:
    """The ``[relations.<key>.roles.<role>]`` tables: a role's marks and the English overriding ``base``'s.

    The marks: ``object_named`` words of the object's label (the first tuple), or ``object_shown_by`` sides the
    object shows (the second).
    """
    if not isinstance(value, Mapping):
        raise ChronoqaError(
            f"{name}: relations.{key}.roles must be [relations.{key}.roles.<name>] tables; fix the file"
        )
    out = []
    for role in sorted(value):
        entry = value[role]
        marks = ("object_named", "object_shown_by")
        fields = {k: v for k, v in entry.items() if k not in marks} if isinstance(entry, Mapping) else {}
        lists = [entry.get(m, []) if isinstance(entry, Mapping) else None for m in marks]
        own = (*_REQUIRED[1:], *_OPTIONAL[1:], *_UNDESCRIBED)
        bad = sorted(k for k, v in fields.items() if k not in own or not isinstance(v, str) or not v.strip())
        words, shown = (x if isinstance(x, list) and all(isinstance(w, str) for w in x) else None for x in lists)
        sides = [tuple(x.rsplit(" ", 1)) for x in shown or ()]
        if words is None or shown is None or not (words or shown) or bad or any(s[-1] not in SIDES for s in sides):
            raise ChronoqaError(
                f'{name}: relations.{key}.roles.{role}: expected object_named = ["<word>", ...] or object_shown_by = '
                '["<relation> subject|object", ...] and phrase fields '
                f"({', '.join(own)}) as strings{'; not ' + ', '.join(bad) if bad else ''}; fix the file"
            )
        if "end_clause" in fields and "end_again" not in fields:  # a role's own end: the relation's second end unfit
            fields |= {"end_again": None, "ask_end_again": None}
        for of, at in (("object_of", "object_at"), ("subject_of", "subject_at")):
            if of in fields and at not in fields:  # a role's own description: the relation's dated one unfit
                fields[at] = None
        phrases = dataclasses.replace(base, key=f"{key}/{role}", **({f: None for f in _UNDESCRIBED} | fields))
        out.append((frozenset(w.casefold() for w in words), tuple((a, b) for a, b in sides), phrases))
    return tuple((w, p) for w, _, p in out if w), tuple((sides, p) for _, sides, p in out if sides)


def parse_types(name: str, value: object, relations: Mapping[str, RelationPhrases]) -> dict[str, EntityType]:
    """Validate the ``[types.<name>]`` tables and the relations' ``subject_type`` / ``object_type`` against them.

    Raises:
        ChronoqaError: Naming the file, the entry and the fix, for a malformed table, an unknown relation or
            side in ``shown_by``, or a relation presuming an undeclared type.

    """
    if not isinstance(value, Mapping):
        raise ChronoqaError(f"{name}: types must be [types.<name>] tables; fix the file")
    out: dict[str, EntityType] = {}
    for tname in sorted(value):
        entry = value[tname]
        shown = entry.get("shown_by") if isinstance(entry, Mapping) else None
        words = entry.get("not_named", []) if isinstance(entry, Mapping) else None
        articles = entry.get("not_articles", False) if isinstance(entry, Mapping) else None
        spouse = entry.get("not_spouse_roles", False) if isinstance(entry, Mapping) else None
        if (
            not isinstance(shown, list)
            or not isinstance(words, list)
            or not all(isinstance(w, str) for w in words)
            or not isinstance(articles, bool)
            or not isinstance(spouse, bool)
        ):
            raise ChronoqaError(
                f'{name}: types.{tname}: expected shown_by = ["<relation> subject|object", ...] and optionally '
                'not_named = ["<word>", ...], not_articles = true|false and not_spouse_roles = true|false; fix the file'
            )
        sides = []
        for item in shown:
            parts = item.rsplit(" ", 1) if isinstance(item, str) else []
            if len(parts) != 2 or parts[1] not in SIDES or parts[0] not in relations:
                raise ChronoqaError(
                    f"{name}: types.{tname}.shown_by entry {item!r}: expected '<relation key of this table> "
                    "subject' or '... object'; fix the file"
                )
            sides.append((parts[0], parts[1]))
        out[tname] = EntityType(tname, tuple(sides), tuple(sorted({w.casefold() for w in words})), articles, spouse)
    for key, p in relations.items():
        declared = (
            ("subject_type", p.subject_type), ("object_type", p.object_type), ("subject_not", p.subject_not),
            ("object_not", p.object_not),
        )  # fmt: skip
        for side, t in declared:
            if t is not None and t not in out:
                raise ChronoqaError(
                    f"{name}: relations.{key}.{side} = {t!r}: declare a [types.{t}] table; fix the file"
                )
    return out


def parse_bridges(
    name: str, value: object, relations: Mapping[str, RelationPhrases]
) -> dict[tuple[str, str], tuple[str, str]]:
    """Validate the ``[bridges]`` table: ``(relation key, side) -> (holds, reason)`` (see the module docstring).

    Raises:
        ChronoqaError: Naming the file, the entry and the fix, for an unknown relation or side, a ``holds``
            other than ``lifelong`` / ``at a time``, or a missing reason.

    """
    if not isinstance(value, Mapping):
        raise ChronoqaError(f'{name}: bridges must be a table of "<relation> subject|object" = {{...}}; fix the file')
    out: dict[tuple[str, str], tuple[str, str]] = {}
    for item in sorted(value):
        parts = item.rsplit(" ", 1)
        entry = value[item]
        holds = entry.get("holds") if isinstance(entry, Mapping) else None
        reason = entry.get("reason") if isinstance(entry, Mapping) else None
        if len(parts) != 2 or parts[1] not in SIDES or parts[0] not in relations:
            raise ChronoqaError(
                f"{name}: bridges entry {item!r}: expected '<relation key of this table> subject' or '... object'; "
                "fix the file"
            )
        if holds not in BRIDGE_HOLDS or not isinstance(reason, str) or not reason.strip():
            raise ChronoqaError(
                f'{name}: bridges entry {item!r}: expected {{ holds = "lifelong" | "at a time", reason = "..." }}; '
                "fix the file"
            )
        out[(parts[0], parts[1])] = (str(holds), reason)
    return out


def parse_divided(name: str, value: object) -> dict[str, Divided]:
    """Validate the ``[divided]`` table: entity id -> ``{ label, from, to, reason }`` (see the module docstring).

    Raises:
        ChronoqaError: Naming the file, the entry and the fix, for a malformed entry or a span that ends before it
            starts.

    """
    if not isinstance(value, Mapping):
        raise ChronoqaError(f'{name}: divided must be a table of "<entity id>" = {{...}}; fix the file')
    out: dict[str, Divided] = {}
    for key in sorted(value):
        entry = value[key]
        fields = dict(entry) if isinstance(entry, Mapping) else {}
        years = [fields.get("from"), fields.get("to")]
        texts = [fields.get("label"), fields.get("reason")]
        if (
            set(fields) != {"label", "from", "to", "reason"}
            or not all(isinstance(y, int) and not isinstance(y, bool) for y in years)
            or not all(isinstance(x, str) and x.strip() for x in texts)
            or not key.strip()
            or years[0] > years[1]  # type: ignore[operator]
        ):
            raise ChronoqaError(
                f'{name}: divided entry {key!r}: expected {{ label = "<its label>", from = <year>, to = '
                '<year, not before from>, reason = "..." }; fix the file'
            )
        out[key] = Divided(key, str(texts[0]), int(years[0]), int(years[1]), str(texts[1]))  # type: ignore[arg-type]
    return out


def parse_goes_by(name: str, value: object) -> dict[str, GoesBy]:
    """Validate the ``[goes_by]`` table: entity label -> ``{ names, reason, from?, to? }`` (see the module docstring).

    Raises:
        ChronoqaError: Naming the file, the entry and what to write, for a malformed entry or a span that ends
            before it starts.

    """
    if not isinstance(value, Mapping):
        raise ChronoqaError(f'{name}: goes_by must be a table of "<entity label>" = {{...}}; fix the file')
    out: dict[str, GoesBy] = {}
    for key in sorted(value):
        entry = value[key]
        fields = dict(entry) if isinstance(entry, Mapping) else {}
        names, reason = fields.get("names"), fields.get("reason")
        years = [fields.get("from"), fields.get("to")]
        if (
            not {"names", "reason"} <= set(fields) <= {"names", "reason", "from", "to"}
            or not isinstance(names, list)
            or not names
            or not all(isinstance(n, str) and n.strip() and n.strip() != key for n in names)
            or not isinstance(reason, str)
            or not reason.strip()
            or not all(y is None or (isinstance(y, int) and not isinstance(y, bool)) for y in years)
            or (years[0] is not None and years[1] is not None and years[0] > years[1])
        ):
            raise ChronoqaError(
                f'{name}: goes_by entry {key!r}: expected {{ names = ["<another name>", ...], reason = "...", '
                "from = <year>, to = <year, not before from> } (from and to optional); fix the file"
            )
        out[key] = GoesBy(key, tuple(n.strip() for n in names), reason, years[0], years[1])
    return out


def parse_not_years(value: object, where: str) -> dict[str, tuple[int, ...]]:
    """Validate a ``not_years`` setting (relation id or label → list of integer years); sorted, deduplicated.

    Raises:
        ChronoqaError: When it is not a mapping from a relation key to a list of integers (``where`` names it).

    """
    if not isinstance(value, Mapping):
        raise ChronoqaError(f"{where} must be a table of relation id or label = [years], got {value!r}; fix it")
    out: dict[str, tuple[int, ...]] = {}
    for key in sorted(value):
        years = value[key]
        if (
            not isinstance(key, str)
            or not key.strip()
            or not isinstance(years, list | tuple)
            or not all(isinstance(y, int) and not isinstance(y, bool) for y in years)
        ):
            raise ChronoqaError(
                f"{where}: entry {key!r} = {years!r}: expected a relation id or label mapped to a list of integer "
                'years (e.g. "<owns>" = [100]); fix it'
            )
        out[key] = tuple(sorted(set(years)))
    return out
