"""The corpus index of careful judging (``CorpusEntities``) and the aliases, read from the corpus columns.

Each lookup is checked against the definition computed here document by document, on a small corpus that has
the awkward cases: an empty subject and an empty object, an entity on both sides of one relation, a label
under two ids, an id with two labels, and documents without ids. The index is built both from a release's
column store (dictionary-encoded, as a release is read) and from a plain list of documents.
"""

from __future__ import annotations

import pytest

from chronoqa.artifacts.release import doc_store
from chronoqa.records import Doc, Question, Triple
from chronoqa.score.answers import aliases_from_corpus
from chronoqa.score.candidates import CorpusEntities, Judging

DOCS = [
    Doc("d1", "", "Porto", "playsFor", "Deco", None, None, s_id="C1", o_id="P1"),
    Doc("d2", "", "Porto", "playsFor", "Vitor Baia", None, None, s_id="C1", o_id="P2"),
    Doc("d3", "", "Benfica", "playsFor", "Deco", None, None, s_id="C2", o_id="P1"),
    Doc("d4", "", "Benfica", "playsFor", "Rui Costa", None, None, s_id="C2", o_id="P3"),
    Doc("d5", "", "Deco", "playsFor", "", None, None, s_id="P1", o_id=""),  # an empty object
    Doc("d6", "", "", "playsFor", "Simao", None, None, s_id="", o_id="P4"),  # an empty subject
    Doc("d7", "", "Anna", "isMarriedTo", "Ben", None, None, s_id="A", o_id="B"),
    Doc("d8", "", "Ben", "isMarriedTo", "Anna", None, None, s_id="B", o_id="A"),
    Doc("d9", "", "Anne", "isMarriedTo", "Carl", None, None, s_id="A", o_id="C"),  # a second label of A
    Doc("d10", "", "Porto", "locatedIn", "Portugal", None, None),  # no ids
]


def reference(docs: list[Doc]) -> tuple[dict, dict, set, dict]:
    """Slots, groups, labels and aliases, one document at a time (the definitions in candidates.py)."""
    slots: dict[tuple[str, str], set[str]] = {}
    groups: dict[tuple[str, str, str], set[str]] = {}
    labels: set[str] = set()
    aliases: dict[str, set[str]] = {}
    for d in docs:
        for side, label, other in (("o", d.o, d.s), ("s", d.s, d.o)):
            if label:
                labels.add(label)
                slots.setdefault((d.r, side), set()).add(label)
                groups.setdefault((d.r, side, other), set()).add(label)
        for eid, label in ((d.s_id, d.s), (d.o_id, d.o)):
            if eid:
                aliases.setdefault(eid, set()).add(label)
    return slots, groups, labels, {k: tuple(sorted(v)) for k, v in sorted(aliases.items())}


@pytest.mark.parametrize("as_store", [True, False], ids=["column store", "list of documents"])
def test_every_lookup_matches_the_per_document_definition(as_store: bool) -> None:
    ents = CorpusEntities(doc_store(DOCS) if as_store else list(DOCS))
    slots, groups, labels, aliases = reference(DOCS)
    names = sorted(labels | {"", "Nobody"})
    for r in ("playsFor", "isMarriedTo", "locatedIn", "unknown"):
        for side in ("s", "o"):
            assert ents._slot(r, side) == slots.get((r, side), set()), (r, side)
            for other in names:
                assert ents._group(r, side, other) == groups.get((r, side, other), set()), (r, side, other)
    assert ents._labels == labels
    assert ents.aliases == aliases
    assert list(ents.aliases) == sorted(aliases)  # ordered by id, as the per-document definition
    assert aliases_from_corpus(DOCS) == aliases


def test_the_hand_worked_values() -> None:
    ents = CorpusEntities(DOCS)
    assert ents._group("playsFor", "o", "Porto") == {"Deco", "Vitor Baia"}
    assert ents._group("playsFor", "s", "Deco") == {"Porto", "Benfica"}
    assert ents._group("playsFor", "o", "") == {"Simao"}  # an empty subject is still the other end
    assert "" not in ents._slot("playsFor", "o")
    assert ents.aliases["A"] == ("Anna", "Anne") and ents.aliases["P1"] == ("Deco",)
    assert ents.aliases["P4"] == ("Simao",) and "" not in ents.aliases  # a document without an id adds none
    # spouses stand on both sides: the slot of a spouse is every spouse
    assert ents._slot_labels("isMarriedTo", "o") == {"Anna", "Ben", "Carl", "Anne"}


def test_an_empty_corpus_knows_nothing() -> None:
    ents = CorpusEntities([])
    assert ents._slot("playsFor", "o") == set() and ents._group("playsFor", "o", "Porto") == set()
    assert ents.aliases == {}


def test_one_index_serves_every_judging_of_a_release() -> None:
    ents = CorpusEntities(DOCS)
    star = (Triple("Porto", "playsFor", "Deco", None, None, s_id="C1", o_id="P1"),)
    q = Question("q1", "test", "Who played for Porto?", None, star, answers=("Deco",), answer_ids=("P1",))
    first, second = Judging(entities=ents), Judging(entities=ents, rule="3_of_many")
    assert first.entities is second.entities and first.aliases is ents.aliases
    assert first.entities.answer_kwargs(q)["context"] == ["Vitor Baia"]  # the group less the gold
    with pytest.raises(TypeError):
        Judging()
