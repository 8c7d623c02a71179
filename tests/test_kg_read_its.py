"""A name the question clause wrote is said again as English does: "it", "there", "its", or not at all.

The reference clause beside the question clause names the entity the latter named: after it, a thing with one
antecedent reads "it" or, by the phrase table's ``possessive`` noun, "its head of government"; before it, the question
clause says "its". Where another entity of the question could be "its" antecedent, the name is written again and the
draft is not asked (``name repeated``). Each text is rendered from a hand-made draft, so the wording is pinned.
"""

from __future__ import annotations

from chronoqa.generate.kg.operators import relative, two_facts
from chronoqa.generate.kg.operators.base import AnswerKind
from chronoqa.generate.kg.operators.chains import Draft
from chronoqa.generate.kg.templates import name_repeated
from chronoqa.records import Fact, TemporalGraph
from chronoqa.time import TimePoint
from test_kg_read_end_again import _hop, _renderer, _text

# Worked by hand (Wikidata). Alfons Goppel (Q2) headed Bavaria's (Q1) government 1962-1978, then Franz Josef Strauß
# (Q3) 1978-1988; Bavaria joined a body (Q5) in 1980. Munich (Q4), twinned with Bavaria from 1980 (a fiction for the
# test), has its own head of government (Q6), so after Munich is named "its" could be either place.
FACTS = [
    Fact(0, "Q1", "P6", "Q2", TimePoint(1962), TimePoint(1978), 1),
    Fact(1, "Q1", "P6", "Q3", TimePoint(1978), TimePoint(1988), 2),
    Fact(2, "Q1", "P463", "Q5", TimePoint(1980), None, 3),
    Fact(3, "Q1", "P190", "Q4", TimePoint(1980), None, 4),
    Fact(4, "Q4", "P6", "Q6", TimePoint(1970), TimePoint(1990), 5),
]
LABELS = {"Q1": "Bavaria", "Q2": "Alfons Goppel", "Q3": "Franz Josef Strauß", "Q4": "Munich", "Q5": "the Body",
          "Q6": "Hans-Jochen Vogel"}  # fmt: skip
RELS = {"P6": "head of government", "P463": "member of", "P190": "twinned administrative body"}
RD = _renderer(TemporalGraph("hand", FACTS, LABELS, RELS), "wikidata12k")


def _fid(i: int) -> int:
    return _hop(RD, FACTS, i).fid


def _relative(ref: int, offset: int) -> Draft:
    h = _hop(RD, FACTS, 0)
    return Draft("relative", "before_start", h.src, (h,), 0, (h.dst,), AnswerKind.ENTITY, ref_fid=_fid(ref),
                 offset=offset)  # fmt: skip


def _two_facts(ref: int) -> Draft:
    h = _hop(RD, FACTS, 1)
    return Draft("two_facts", "when", h.src, (h,), 0, (h.dst,), AnswerKind.ENTITY, ref_fid=_fid(ref))


def test_a_trailing_reference_says_its_office() -> None:
    """The holder's start after the question clause: "its head of government", not "... of Bavaria" again."""
    text = _text(RD, relative.OPERATOR, "rt.trailing", _relative(1, -2))
    assert text == "Who was the head of government of Bavaria two years before Franz Josef Strauß became its head of " \
        "government?"  # fmt: skip


def test_a_trailing_reference_says_it() -> None:
    """The place the question clause named is the reference's subject: "when it became a member of"."""
    text = _text(RD, two_facts.OPERATOR, "tf.trailing", _two_facts(2))
    assert text == "Who was the head of government of Bavaria when it became a member of the Body?"


def test_a_leading_reference_leaves_its_to_the_question_clause() -> None:
    """The reference first, in full; the question clause says "its head of government"."""
    text = _text(RD, two_facts.OPERATOR, "tf.lead", _two_facts(2))
    assert text == "When Bavaria became a member of the Body, who was its head of government?"


def test_its_with_two_antecedents_is_not_written_and_the_repeat_is_not_asked() -> None:
    """Munich has a head of government too: "its" could be Munich's, so the name stays and the draft is dropped."""
    d = _two_facts(3)
    text = _text(RD, two_facts.OPERATOR, "tf.lead", d)
    assert text == "When Bavaria became twinned with Munich, who was the head of government of Bavaria?"
    assert name_repeated(RD, d, text)
    assert not name_repeated(RD, _two_facts(2), _text(RD, two_facts.OPERATOR, "tf.lead", _two_facts(2)))
