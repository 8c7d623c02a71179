"""Implausible dates, detected from the data itself (no hand lists of bad years).

A fact is *implausible* for one of these reasons (checked in this order; the first that applies is
recorded):

* ``event_over_years``: an event relation with a start and an end in different years (an award or a
  birth read as valid over a multi-year span).
* ``open_end_too_long``: under the ``ongoing`` open-end reading, a state with a start and no end that
  would still hold at ``as_of`` after more than its relation's plausible duration (phrase-table field
  ``max_years``, else the table's ``default_max_years``): Wikidata12k's "position held since AD 25".
* ``span_too_long``: a state with a start and an end more than its relation's *declared* ``max_years`` apart
  (YAGO11k's marriages spanning a spouse's lifetime: Honecker 1912-1994; a player's 60 years at one club).
* ``before_birth`` / ``after_death``: the fact starts before the birth year (plus its relation's ``min_age``:
  a marriage dated from a spouse's birth year is that person's lifetime, not a marriage) or after the death
  year of one of its entities, where the graph dates them (relations with ``role = "birth"`` / ``"death"``).
* ``youth_over_age``: a fact of a relation with no ``role`` whose other side is a youth side, its label naming
  an under-N team ("Norway U17", "U-21", "under-19", "national under-21 football team"; :func:`youth_limit`), that
  starts more than N + 2 years after the entity's birth year: the person was older than N + 1 all that year.
  One year more than "older than N" because a youth championship's cut-off is set at the start of its
  qualifying cycle (two years for the UEFA under-21: players born in 1983 played the 2006 finals at 22 or 23,
  José Fonte among them). No birth year recorded: nothing is guessed (Wikidata12k records no births, so Tore
  Reginiussen's "Norway U17 2005-2006" stays). Checked after ``after_death`` (its index in :data:`REASONS` comes
  after ``mirror_disagrees``).
* ``century_outlier``: a date of the fact lies more than :data:`CENTURY_GAP` years from the median year
  of the *other* facts of each of its entities that has at least three other dated facts ("In 427, who
  owned Green Bay Packers?"); an entity with a long history (Rome) keeps its old facts, because the
  other endpoint's facts date them. An entity with only one or two other dated facts gives a verdict only
  on a year before :data:`EARLY` (AD 1-999) that lies more than :data:`CENTURY_GAP` years from all of them;
  where no other fact dates either entity, such an early year is judged against the median year of the
  relation's facts (YAGO11k's "Sho Sakurai created Believe" in AD 100).

* ``birth_contradicted``: a fact of a relation with ``role = "birth"`` (with a start) whose subject has at least
  two facts of relations with no ``role`` starting before the birth's year, and those at least half of its facts
  with no ``role`` and a start (on either side, as ``before_birth`` reads them: a self-loop once). Read as a whole
  the data is impossible: the birth or those facts are wrong, and the fewest facts to disbelieve is then the one
  birth, not two or more facts that are at least half of the life (YAGO11k's Charles Scott Sherrington "born"
  1952-03-04, his death year, with prizes in 1893, 1905, 1927 and 1932; in reality born 1857). Such a birth is no
  birth for ``before_birth`` and ``youth_over_age``; a birth with one earlier fact, or with fewer than half of them
  earlier, stays a birth and those facts are ``before_birth``. A birth has a ``role``, so the rules on facts with
  none never apply to it; it is checked after ``century_outlier``, with ``mirror_disagrees`` (the graph
  contradicting itself), and after the type rules below (its index in :data:`REASONS` is the last).
* ``mirror_disagrees``: a fact of a ``symmetric`` relation (marriage) whose graph also holds the mirror fact
  ``(o, r, s)``, none of whose mirrors gives the same start and end years (where both state them): the graph
  contradicts itself and neither dating can be believed ("Ginger Rogers married to Lew Ayres 1929-1931",
  mirrored as 1934-1940; she married Ayres in 1934). Both directions are marked. It is checked after the type
  rules below (its index in :data:`REASONS` comes after theirs).

Two more rules read what the data shows an entity is (the declared types,
:class:`~chronoqa.generate.kg.phrases.EntityType`):

* ``not_of_type``: the relation's words presume a type of one side (``subject_type`` / ``object_type``: "X was
  part of the country Y" presumes a place), no fact of the graph shows that entity is of the type (it stands on
  no side the type's ``shown_by`` lists) and some fact shows it in another role (a side that neither shows nor
  presumes the type: an award received, a team played for, an instance of a class): "Which country was the NIN
  Prize part of?". An entity whose only facts are the presuming relation's ("Sukhumi": its countries) is taken at
  the relation's word; the data says nothing else about it.
* ``label_unfit``: an entity the data shows is of a type has a label whose last word the type's ``not_named``
  lists ("Old Main street" labels an administrative unit), or, for a type declaring ``not_articles``, the title
  of an article about a topic (:func:`topic_article`: "Political positions of Rudy Giuliani" typed as a person by
  its marriages), or, for a type declaring ``not_spouse_roles``, the title of an office of a holder's spouse
  (:data:`SPOUSE_ROLE`: "First Lady of Argentina", attached to Néstor Kirchner; no graph here records a sex to
  check it against): every fact of that entity; its label cannot name it.
* ``not_of_type`` also covers a type the relation's words *exclude* of a side (``subject_not`` /
  ``object_not``: an award is not received by a place), where the data shows the entity is of it.

Implausible facts are never gold, anchors, references or negatives; they still count against answer
uniqueness (conservative), stay in the corpus, and are counted by reason and listed in the manifest.
Facts already valid nowhere (reversed, non-year dates) are not re-examined.

The rules run as SQL (:data:`chronoqa.generate.kg.sql.plausible.PLAUSIBLE_STEPS`, on DuckDB or Spark):
:func:`chronoqa.generate.kg.sql.plausible.implausible_by_sql` gives the reason of each implausible fact.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from chronoqa.generate.kg.phrases import EntityType

__all__ = [
    "CENTURY_GAP", "EARLY", "REASONS", "SPOUSE_ROLE", "YOUTH_SIDE", "YOUTH_WORDS", "topic_article", "unfit_labels",
    "youth_limit",
]  # fmt: skip

CENTURY_GAP = 300
EARLY = 1000  # years before this are judged against one or two other facts too
REASONS = (
    "event_over_years", "open_end_too_long", "before_birth", "after_death", "century_outlier", "not_of_type",
    "label_unfit", "span_too_long", "mirror_disagrees", "youth_over_age", "birth_contradicted",
)  # fmt: skip

# An under-N side in a label: "Norway U17", "U-21", "under-19", "national under-21 football team" (N 14 to 23).
YOUTH_WORDS = ("u", "under")  # the words of a side's age mark: a renamed twin keeps them
YOUTH_SIDE = re.compile(rf"\b(?:{'|'.join(YOUTH_WORDS)})[- ]?(1[4-9]|2[0-3])\b", re.IGNORECASE)


def youth_limit(label: str) -> int | None:
    """The N of an under-N side the label names, or ``None``."""
    m = YOUTH_SIDE.search(label.replace("_", " "))
    return int(m.group(1)) if m else None


# Titles of Wikipedia articles about a topic, not an entity: lists and timelines, disambiguation pages, and a
# capitalised common-noun head of two words or more ("Political positions of X", "Electoral history of X"; a
# name's words after the first are capitalised: "Prince Aimone, Duke of Apulia", "Mary II of England").
_LIST_ARTICLE = re.compile(
    r"^(?:Lists?|Timeline|Outline|Index|Glossary|Chronology|Bibliography|Discography|Filmography) of "
    r"|\(disambiguation\)$"
)
_TOPIC_HEAD = re.compile(r"^[A-Z][a-z]+(?: [a-z]+)+ of \S")
# "Presidency of X", "Family of X", "Legacy of X": an article about an aspect of X, when X is itself of the type
# (a person is not "of" a person; "Catherine of Aragon" is of a place).
_ASPECT = re.compile(r"^[A-Z][a-z]+ of (?P<of>\S.*)$")


# The office of a holder's spouse: its title presumes the holder's sex ("First Lady" of a man is a false premise:
# Wikidata attaches "First Lady of Argentina" to Néstor Kirchner, the president's spouse 2007-2010).
SPOUSE_ROLE = re.compile(r"\b(?:first (?:lady|gentleman|spouse)|consort)\b", re.IGNORECASE)


def topic_article(label: str) -> tuple[bool, str | None]:
    """Whether ``label`` titles an article about a topic, and else the label it would be an aspect of.

    "X" of "Presidency of X": unfit where that entity is of the same type as the one so labelled.
    """
    text = label.replace("_", " ").strip()
    if _LIST_ARTICLE.search(text) or _TOPIC_HEAD.match(text):
        return True, None
    m = _ASPECT.match(text)
    return False, (m.group("of") if m else None)


def unfit_labels(
    entities: Sequence[str], label: Callable[[str], str], types: Mapping[str, EntityType]
) -> list[tuple[int, str, int]]:
    """``(entity position, type, of)`` for each label unfit to name an entity of the type.

    A label whose last word the type's ``not_named`` lists, for a type declaring ``not_articles`` a topic
    article's title (:func:`topic_article`), for one declaring ``not_spouse_roles`` a spouse's office
    (:data:`SPOUSE_ROLE`); ``of`` is -1, or the position of an entity the label is an aspect of,
    which must be of the type too. Whether the data shows the entities are of the type is the SQL's part
    (``label_unfit``); this is the label test.
    """
    named = [(t.name, frozenset(t.not_named)) for t in types.values() if t.not_named]
    articles = [t.name for t in types.values() if t.not_articles]
    spouse = [t.name for t in types.values() if t.not_spouse_roles]
    if not named and not articles and not spouse:
        return []
    labels = [label(e) for e in entities]  # each label read once
    position: dict[str, list[int]] = {}
    if articles:
        for i, text in enumerate(labels):
            position.setdefault(text.replace("_", " ").strip(), []).append(i)
    out = []
    for i, text in enumerate(labels):
        words = text.split()
        last = words[-1].casefold() if words else ""
        out += [(i, name, -1) for name, bad in named if last in bad]
        if spouse and SPOUSE_ROLE.search(text.replace("_", " ")):
            out += [(i, name, -1) for name in spouse]
        if articles:
            whole, of = topic_article(text)
            hits = [-1] if whole else [j for j in position.get(of or "", []) if j != i]
            out += [(i, name, j) for name in articles for j in hits]
    return out
