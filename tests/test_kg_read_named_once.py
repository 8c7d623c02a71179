"""The templates the gerund round left name an entity once too: Allen's comparisons and "still", sequence's "next",
two facts' reference. A clause sharing the main clause's grammatical subject reads as a gerund ("before being elected
Fellow of the Royal Society", "After leaving Getafe CF B, which club did X play for next?"), and a thing the first
clause names reads "it" in the second where no other thing of the first could be meant ("X joined Juventus F.C.
before it acquired Stadio delle Alpi"); a person is never "it". Each text is rendered from a hand-made draft, so the
wording is pinned, not drawn.
"""

from __future__ import annotations

import pytest

from chronoqa.generate.kg.build import STEPS, BuildState, KGBuildConfig
from chronoqa.generate.kg.operators import allen, sequence, two_facts
from chronoqa.generate.kg.operators.base import AnswerKind
from chronoqa.generate.kg.operators.chains import Draft, Hop
from chronoqa.generate.kg.steps import prepare_drafting
from chronoqa.generate.kg.templates import Renderer
from chronoqa.records import Fact, TemporalGraph
from test_kg_build import fact, labels_of, rel_labels

# Worked by hand (YAGO). Trotta plays for Juventus 1990-1993, then Monza and Getafe CF B (closed spells); Juventus
# owns Stadio delle Alpi from 1992; Zeeman won the Nobel Prize in 1902, was elected Fellow of the Royal Society in
# 1921 and won the Franklin Medal in 1925; Turin owns the stadium after Juventus; Gérard and Anne Philipe, married,
# were both born in Cannes.
FACTS = [
    fact(0, "Ivano_Trotta", "playsFor", "Juventus_F.C.", 1990, 1993),
    fact(1, "Ivano_Trotta", "playsFor", "A.C._Monza", 1994, 1997),
    fact(2, "Ivano_Trotta", "playsFor", "Getafe_CF_B", 1998, 2001),
    fact(3, "Juventus_F.C.", "owns", "Stadio_delle_Alpi", 1992, 2006),
    fact(4, "Pieter_Zeeman", "hasWonPrize", "Nobel_Prize_in_Physics", 1902, None),
    fact(5, "Pieter_Zeeman", "hasWonPrize", "Fellow_of_the_Royal_Society", 1921, None),
    fact(6, "Pieter_Zeeman", "hasWonPrize", "Franklin_Medal", 1925, None),
    fact(7, "Gérard_Philipe", "isMarriedTo", "Anne_Philipe", 1951, 1959),
    fact(8, "Gérard_Philipe", "wasBornIn", "Cannes", 1922, None),
    fact(9, "Anne_Philipe", "wasBornIn", "Cannes", 1917, None),
    fact(10, "Turin", "owns", "Stadio_delle_Alpi", 2006, 2009),
]


def _renderer(facts: list[Fact]) -> Renderer:
    """The renderer a YAGO11k build of ``facts`` words its drafts with."""
    g = TemporalGraph("hand", facts, labels_of(facts), rel_labels(facts))
    s = BuildState(g, KGBuildConfig(n_questions=10, seed=3), "yago11k", {}, {}, None)
    for step in STEPS:
        step(s)
        if step is prepare_drafting:
            return s.renderer
    raise AssertionError("no drafting step")


RD = _renderer(FACTS)


def _hop(s: str, r: str, o: str) -> Hop:
    """The forward hop over the fact (s, r, o)."""
    idx = RD.index
    want = (idx.ent_id[f"<{s}>"], [n.strip("<>") for n in idx.rel_names].index(r), idx.ent_id[f"<{o}>"])
    fid = next(i for i in range(len(FACTS)) if tuple(idx.fact_row(i)[:3]) == want)
    return Hop(fid, want[1], True, want[0], want[2])


def _allen(variant: str, a: Hop, b: Hop) -> Draft:
    return Draft("allen", variant, a.src, (a,), 0, (1,), AnswerKind.YES_NO, ref_fid=b.fid, static_prefix=True)


def _text(op: object, tid: str, d: Draft) -> str:
    return next(t.text(RD, d) for t in op.templates if t.id == tid)  # type: ignore[attr-defined]


# (variant, fact A, fact B, template, the text): what each pins is said beside it
CASES = [
    # "was elected" is a clause of the same subject: "before being elected", not the name again
    ("start_before_start", ("Pieter_Zeeman", "hasWonPrize", "Nobel_Prize_in_Physics"),
     ("Pieter_Zeeman", "hasWonPrize", "Fellow_of_the_Royal_Society"), "al.yes_or_no",
     "Yes or no: Pieter Zeeman won the Nobel Prize in Physics before being elected Fellow of the Royal Society?"),
    # "still": the gerund follows the asked state ("... when joining Y"), never before the name it refers to
    ("still", ("Ivano_Trotta", "playsFor", "Juventus_F.C."), ("Ivano_Trotta", "playsFor", "A.C._Monza"), "al.still",
     "Was it still the case that Ivano Trotta played for Juventus F.C. when joining A.C. Monza?"),
    ("still", ("Ivano_Trotta", "playsFor", "Juventus_F.C."), ("Ivano_Trotta", "playsFor", "A.C._Monza"),
     "al.at_the_time",
     "Is it true that Ivano Trotta played for Juventus F.C. at the time of joining A.C. Monza?"),
    # Juventus is the only thing the first clause names (Trotta is a person): the second clause's subject is "it"
    ("start_before_start", ("Ivano_Trotta", "playsFor", "Juventus_F.C."),
     ("Juventus_F.C.", "owns", "Stadio_delle_Alpi"), "al.true_that",
     "Is it true that Ivano Trotta joined Juventus F.C. before it acquired Stadio delle Alpi?"),
    # Cannes, the only thing of the first clause, is the second clause's object: "it", after "in" a place: "there"
    ("start_after_start", ("Gérard_Philipe", "wasBornIn", "Cannes"), ("Anne_Philipe", "wasBornIn", "Cannes"),
     "al.true_that", "Is it true that Gérard Philipe was born in Cannes after Anne Philipe was born there?"),
    # Juventus and the stadium, neither a person, but Juventus is owned by nothing in the data: "it", the thing
    # acquired, can only be the stadium
    ("end_before_start", ("Juventus_F.C.", "owns", "Stadio_delle_Alpi"), ("Turin", "owns", "Stadio_delle_Alpi"),
     "al.true_that", "Is it true that Juventus F.C. stopped owning Stadio delle Alpi before Turin acquired it?"),
    # a person (Anne Philipe, a spouse) is never "it"
    ("start_before_start", ("Gérard_Philipe", "isMarriedTo", "Anne_Philipe"), ("Anne_Philipe", "wasBornIn", "Cannes"),
     "al.true_that", "Is it true that Gérard Philipe married Anne Philipe before Anne Philipe was born in Cannes?"),
]  # fmt: skip


@pytest.mark.parametrize(("variant", "a", "b", "tid", "text"), CASES)
def test_allen_names_a_shared_entity_once(
    variant: str, a: tuple[str, str, str], b: tuple[str, str, str], tid: str, text: str
) -> None:
    """Allen's two clauses: a gerund for a shared subject, "it" for the one thing named before, else the name."""
    assert _text(allen.OPERATOR, tid, _allen(variant, _hop(*a), _hop(*b))) == text


def test_next_and_two_facts_name_their_subject_once() -> None:
    """Sequence's "next" and two facts' reference share the question clause's subject: a gerund."""
    left, nxt = _hop("Ivano_Trotta", "playsFor", "A.C._Monza"), _hop("Ivano_Trotta", "playsFor", "Getafe_CF_B")
    seq = Draft("sequence", "next", nxt.src, (nxt,), 0, (nxt.dst,), AnswerKind.ENTITY, ref_fid=left.fid)
    assert _text(sequence.OPERATOR, "seq.plain", seq) == (
        "After leaving A.C. Monza, which club did Ivano Trotta play for next?"
    )
    assert _text(sequence.OPERATOR, "seq.lead", seq) == (
        "Which club did Ivano Trotta play for immediately after leaving A.C. Monza?"
    )
    tf = Draft("two_facts", "plain", nxt.src, (nxt,), 0, (nxt.dst,), AnswerKind.ENTITY, ref_fid=left.fid)
    assert _text(two_facts.OPERATOR, "tf.trailing", tf) == (
        "Which club did Ivano Trotta play for when joining A.C. Monza?"
    )
    assert _text(two_facts.OPERATOR, "tf.trailing_time", tf) == (
        "Which club did Ivano Trotta play for at the time of joining A.C. Monza?"
    )
