"""A fact's end said right after its start, and a symmetric fact read from the question's side, name no one twice.

A duration names one spell twice: its end reads as the phrase table's ``end_again`` / ``ask_end_again`` ("did the
marriage end", "did X leave that office"), and where both clauses open with the office holder (Wikidata's head of
government, the fact's object) the start is a gerund. A symmetric relation (marriage) reads from either side, so
the reference clause is a gerund of the question clause's subject ("three years before marrying X"). Each text is
rendered from a hand-made draft, so the wording is pinned, not drawn.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg.build import STEPS, BuildState, KGBuildConfig
from chronoqa.generate.kg.operators import allen, duration, relative
from chronoqa.generate.kg.operators.base import AnswerKind
from chronoqa.generate.kg.operators.chains import Draft, Hop
from chronoqa.generate.kg.phrases import load_phrase_table
from chronoqa.generate.kg.steps import prepare_drafting
from chronoqa.generate.kg.templates import Renderer
from chronoqa.records import Fact, TemporalGraph
from chronoqa.time import TimePoint
from test_kg_build import fact, labels_of, rel_labels

# Worked by hand (YAGO). Anne Philipe married Jacques Fauvet 1940-1948, then Gérard Philipe 1951-1959; she was born
# in Cannes in 1917.
YAGO = [
    fact(0, "Anne_Philipe", "isMarriedTo", "Jacques_Fauvet", 1940, 1948),
    fact(1, "Gérard_Philipe", "isMarriedTo", "Anne_Philipe", 1951, 1959),
    fact(2, "Anne_Philipe", "wasBornIn", "Cannes", 1917, None),
]
# Worked by hand (Wikidata). Alfons Goppel (Q2) headed Bavaria's (Q1) government 1962-1978, then Franz Josef Strauß
# (Q3) 1978-1988.
WIKIDATA = [
    Fact(0, "Q1", "P6", "Q2", TimePoint(1962), TimePoint(1978), 1),
    Fact(1, "Q1", "P6", "Q3", TimePoint(1978), TimePoint(1988), 2),
]
WD_LABELS = {"Q1": "Bavaria", "Q2": "Alfons Goppel", "Q3": "Franz Josef Strauß"}


def _renderer(g: TemporalGraph, phrases: str) -> Renderer:
    """The renderer a build of ``g`` words its drafts with."""
    s = BuildState(g, KGBuildConfig(n_questions=10, seed=3), phrases, {}, {}, None)
    for step in STEPS:
        step(s)
        if step is prepare_drafting:
            return s.renderer
    raise AssertionError("no drafting step")


YAGO_RD = _renderer(TemporalGraph("hand", YAGO, labels_of(YAGO), rel_labels(YAGO)), "yago11k")
WD_RD = _renderer(TemporalGraph("hand", WIKIDATA, WD_LABELS, {"P6": "head of government"}), "wikidata12k")


def _hop(rd: Renderer, facts: list[Fact], i: int) -> Hop:
    """The forward hop over ``facts[i]``, as the index holds it."""
    idx, f = rd.index, facts[i]
    want = (idx.ent_id[f.s], idx.rel_names.index(f.r), idx.ent_id[f.o])
    fid = next(j for j in range(len(facts)) if tuple(idx.fact_row(j)[:3]) == want)
    return Hop(fid, want[1], True, want[0], want[2])


def _text(rd: Renderer, op: object, tid: str, d: Draft) -> str:
    return next(t.text(rd, d) for t in op.templates if t.id == tid)  # type: ignore[attr-defined]


def _spell(rd: Renderer, facts: list[Fact], i: int) -> Draft:
    h = _hop(rd, facts, i)
    return Draft("duration", "closed", h.src, (h,), 0, (8,), AnswerKind.DURATION, static_prefix=True)


# (renderer, fact, template, the text)
DURATIONS = [
    # the marriage just named: "the marriage ended", not both spouses again
    ("yago", 1, "du.after", "How many years after Gérard Philipe married Anne Philipe did the marriage end?"),
    ("yago", 1, "du.between",
     "How many years passed between when Gérard Philipe married Anne Philipe and when the marriage ended?"),
    # the holder opens both clauses (the fact's object): the start a gerund, the end "that office"
    ("wd", 0, "du.after", "How many years after becoming head of government of Bavaria did Alfons Goppel leave that "
     "office?"),
    ("wd", 0, "du.between",
     "How many years passed between Alfons Goppel becoming head of government of Bavaria and leaving that office?"),
    ("wd", 0, "du.from_until",
     "How long, in years, was it from Alfons Goppel becoming head of government of Bavaria to leaving that office?"),
]  # fmt: skip


@pytest.mark.parametrize(("graph", "fid", "tid", "text"), DURATIONS)
def test_a_spell_s_end_after_its_start_names_no_one_again(graph: str, fid: int, tid: str, text: str) -> None:
    """A duration's end clause: the table's ``end_again`` wording, and a gerund for the holder's start."""
    rd, facts = (YAGO_RD, YAGO) if graph == "yago" else (WD_RD, WIKIDATA)
    assert _text(rd, duration.OPERATOR, tid, _spell(rd, facts, fid)) == text


_TABLE = """
[relations.P1]
kind = "state"
ask_object = "which club did {s} play for"
ask_subject = "who played for {o}"
object_of = "the club {s} played for"
subject_of = "the player of {o}"
statement = "{s} played for {o}"
start_clause = "{s} joined {o}"
ask_start = "did {s} join {o}"
end_clause = "{s} left {o}"
ask_end = "did {s} leave {o}"
"""


def test_end_again_is_declared_in_pairs_and_not_inherited_by_a_role(tmp_path: Path) -> None:
    """The table gives the second end with its question form; a role that words its own end does not inherit it."""
    path = tmp_path / "t.toml"
    path.write_text(_TABLE + 'end_again = "{s} left"\n', encoding="utf-8")
    with pytest.raises(ChronoqaError, match="end_again and ask_end_again"):
        load_phrase_table(path)
    role = '[relations.P1.roles.national]\nobject_named = ["national"]\nend_clause = "{s} left the national team {o}"\n'
    path.write_text(_TABLE + 'end_again = "{s} left"\nask_end_again = "did {s} leave"\n' + role, encoding="utf-8")
    p = load_phrase_table(path).relations["P1"]
    assert (p.end_again, p.ask_end_again) == ("{s} left", "did {s} leave")
    assert p.roles[0][1].end_again is None and p.roles[0][1].ask_end_again is None


def test_a_symmetric_reference_reads_from_the_question_s_side() -> None:
    """Gérard married Anne: asked of Anne, the reference reads "marrying Gérard Philipe" (relative and Allen)."""
    before, ref = _hop(YAGO_RD, YAGO, 0), _hop(YAGO_RD, YAGO, 1).fid
    rt = Draft("relative", "before_start", before.src, (before,), 0, (before.dst,), AnswerKind.ENTITY, ref_fid=ref,
               offset=-3)  # fmt: skip
    assert _text(YAGO_RD, relative.OPERATOR, "rt.trailing", rt) == (
        "Who was Anne Philipe married to three years before marrying Gérard Philipe?"
    )
    born = _hop(YAGO_RD, YAGO, 2)
    al = Draft("allen", "start_before_start", born.src, (born,), 0, (1,), AnswerKind.YES_NO, ref_fid=ref,
               static_prefix=True)  # fmt: skip
    assert _text(YAGO_RD, allen.OPERATOR, "al.true_that", al) == (
        "Is it true that Anne Philipe was born in Cannes before marrying Gérard Philipe?"
    )
