"""Careful judging keeps nothing at module level, and its per-question indexes die with their last reference.

A name index used to list itself in its own base chain (a reference cycle, freed only by the cyclic
garbage collector), and module-level memos kept gold and fact indexes, and through them a whole
corpus index, alive after the evaluation that built them. Both are checked here with the cyclic
collector switched off, so only reference counting can free anything.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Doc, Question, Triple
from chronoqa.score.answers import score_answer
from chronoqa.score.candidates import CorpusEntities
from chronoqa.score.judge_names import NameIndex
from chronoqa.score.time_accuracy import score_time

ROLE = "Germany, president"
TERMS = (("Roman Herzog", "1994-07-01", "1999-06-30"), ("Johannes Rau", "1999-07-01", "2004-06-30"),
         ("Horst Köhler", "2004-07-01", "2010-05-31"), ("Christian Wulff", "2010-06-30", "2012-02-17"))  # fmt: skip


@pytest.fixture
def no_cyclic_gc() -> Iterator[None]:
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def test_an_index_over_a_base_is_freed_by_reference_counting(no_cyclic_gc: None) -> None:
    base = NameIndex({"Johannes Rau": ("Johannes Rau",), "Horst Köhler": ("Horst Köhler",)})
    top = NameIndex({"gold": ("Horst Köhler",)}, base=base, rivals=["Johannes Rau"])
    assert [sorted(m.keys) for m in top.find("It was Köhler.")] == [["Horst Köhler", "gold"]]
    ref = weakref.ref(top)
    del top
    assert ref() is None  # no cycle through the base chain
    assert base.find("Rau")  # the base is untouched and still usable


def test_scoring_keeps_no_index_alive_after_the_evaluation(no_cyclic_gc: None) -> None:
    docs = [Doc(f"d{i}", "", ROLE, "name", name, s, e, fact_id=i) for i, (name, s, e) in enumerate(TERMS)]
    star = (Triple(ROLE, "name", "Horst Köhler", "2004-07-01", "2010-05-31"),)
    refs = ({"which": "start", "value": "2004-07-01", "answer": "Horst Köhler"},
            {"which": "end", "value": "2010-05-31", "answer": "Horst Köhler"})  # fmt: skip
    q = Question("q1", "test", "Who was president of Germany on 1 May 2008?", None, star, source="table",
                 operator="allen", allen="during", answers=("Horst Köhler",), answer_ids=("Horst Köhler",),
                 granularity="day", time_refs=refs)  # fmt: skip
    rec = AnswerRecord("q1", "x", "ok", "President Köhler (CDU)",
                       "Köhler took office on 1 July 2004 and resigned on 31 May 2010.")  # fmt: skip
    ents = CorpusEntities(docs)
    kwargs = ents.answer_kwargs(q)
    outcome = score_answer(q, rec, **kwargs)
    row = score_time(q, rec, outcome.correct, entities=ents.time_entities())
    assert outcome.correct and row.T is True
    corpus_index, slot_index = weakref.ref(ents.time_entities()), weakref.ref(kwargs["candidates"])
    del ents, kwargs
    assert corpus_index() is None and slot_index() is None  # nothing at module level holds them
