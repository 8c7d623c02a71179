"""What the ninth blind read found, each rule on a hand-made graph whose expected outcome was worked by hand: no
question names or compares the end of a state whose end the data does not record; a relation declared
``end_unknown`` (Wikidata's "instance of") bears no end, length or "still in" question, its start stays usable.
"""

from __future__ import annotations

import dataclasses

from chronoqa.generate.kg.operators import AnswerKind, Draft, Hop
from chronoqa.generate.kg.tenure import OPEN_END, tenure_reason
from chronoqa.time import Granularity, TimePoint
from kg_checker import defect_report, end_read_errors
from sql_index_fixtures import index_of
from test_kg_build import fact
from test_kg_entity_rules import _built

# Worked by hand (YAGO). Ann joined the Reds in 2000 and no end is recorded (open: unknown under YAGO's reading);
# she played for the Owls 1995-1999 (closed). Bob played for the Reds 1990-2001. Whether Ann left the Reds before,
# after or in the year Bob left is unknown: any question naming Ann's Reds end (fact 0) is not asked.
OPEN = [
    fact(0, "Ann_Holm", "playsFor", "Reds", 2000, None),
    fact(1, "Ann_Holm", "playsFor", "Owls", 1995, 1999),
    fact(2, "Bob_Lind", "playsFor", "Reds", 1990, 2001),
    fact(3, "Ann_Holm", "wasBornIn", "Madison", 1975, 1975),
    fact(4, "Bob_Lind", "wasBornIn", "Madison", 1970, 1970),
    fact(5, "Cid_Moe", "playsFor", "Owls", 1996, 2004),
]
OPEN_FACTS = {0}

# Worked by hand (Wikidata; P31 declared end_unknown). Bavaria a federated state 1933-1945, a free state from 1946
# (open); Munich located in Bavaria 1900-1950. Neither P31 end (nor length, nor "still in") is asked; starts are.
STATUS = [
    fact(0, "Bavaria", "P31", "federated_state", 1933, 1945),
    fact(1, "Bavaria", "P31", "free_state", 1946, None),
    fact(2, "Munich", "P131", "Bavaria", 1900, 1950),
    fact(3, "Augsburg", "P131", "Bavaria", 1910, 1960),
]


def _reason(idx, op: str, variant: str, fid: int, ref: int = -1) -> str | None:  # type: ignore[no-untyped-def]
    r, s, o = (int(idx.table[fid, c]) for c in (1, 0, 2))
    hop = Hop(fid, r, True, s, o)
    return tenure_reason(idx, Draft(op, variant, s, (hop,), 2000, (o,), AnswerKind.YES_NO, ref_fid=ref))


def test_the_rule_rejects_every_draft_naming_an_open_end() -> None:
    idx = index_of(OPEN, {"<playsFor>": False, "<wasBornIn>": True}, Granularity.YEAR, TimePoint(2026), "unknown")
    assert not idx.end_recorded(0) and idx.end_recorded(1) and idx.end_recorded(2)
    on_a = [("allen", "end_same_start", 0, 2), ("allen", "end_before_end", 0, 2), ("allen", "still", 0, 2)]
    on_ref = [("allen", "start_after_end", 2, 0), ("relative", "after_end", 1, 0), ("sequence", "next", 1, 0)]
    assert [_reason(idx, *x) for x in on_a + on_ref] == [OPEN_END] * 6
    assert _reason(idx, "allen", "start_before_start", 0, 2) is None  # the open fact's start stays usable
    assert _reason(idx, "relative", "after_start", 1, 0) is None
    assert _reason(idx, "allen", "end_before_end", 1, 2) is None  # two recorded ends


def test_no_question_reads_an_open_end() -> None:
    b, checker = _built(OPEN, "yago11k", n=400)
    assert defect_report(checker, b.questions)["end of an open fact asked"] == []
    q = next(q for q in b.questions if len(q.logical_form["path"]) == 1 and q.S_star)
    lf = {**q.logical_form, "variant": "end"}  # made by hand: "When did Ann leave the Reds?" over fact 0
    made = dataclasses.replace(q, id="made", operator="interval", logical_form=lf,
                               S_star=(dataclasses.replace(q.S_star[-1], fact_id=0),))  # fmt: skip
    assert [m.split(":")[0] for m in end_read_errors(checker, [made], declared=False)] == ["made"]
    closed = dataclasses.replace(made, S_star=(dataclasses.replace(q.S_star[-1], fact_id=1),))
    assert end_read_errors(checker, [closed], declared=False) == []


def test_a_declared_unknown_end_is_never_asked_its_start_is() -> None:
    idx = index_of(STATUS, {"<P31>": False, "<P131>": False}, Granularity.YEAR, TimePoint(2026), "unknown")
    idx.unknown_end_rels = frozenset({idx.rel_id["<P31>"]})
    assert not idx.end_recorded(0) and idx.end_recorded(2)
    rejected = [("interval", "end", 0), ("duration", "closed", 0), ("yes_no", "no", 0), ("yes_no", "yes", 0)]
    assert [_reason(idx, *x) for x in rejected] == [OPEN_END] * 4
    assert _reason(idx, "allen", "end_before_start", 0, 2) == OPEN_END
    assert _reason(idx, "interval", "start", 0) is None  # "In which year did Bavaria gain the status ...?"
    assert _reason(idx, "allen", "start_before_start", 0, 2) is None
    assert _reason(idx, "duration", "closed", 2) is None  # Munich in Bavaria: a recorded end of the world


def test_no_question_reads_a_declared_unknown_end() -> None:
    b, checker = _built(STATUS, "wikidata12k", n=300)
    assert defect_report(checker, b.questions)["end declared unknown asked"] == []
    p31 = {0, 1}
    asked = [q for q in b.questions if q.S_star and q.S_star[-1].fact_id in p31]
    assert not [q for q in asked if q.operator in ("duration", "yes_no")]
    assert not [q for q in asked if q.operator == "interval" and q.logical_form["variant"] == "end"]


# Worked by hand (YAGO; `created` declared ask = false). Eva created two works (1990, 1995) and played for the Reds
# 1992-1999; Max created one work (2001) and was born in Madison (1970). Every question rests on a playsFor or a
# wasBornIn fact: none on facts 0-2, which the corpus still holds.
CREATED = [
    fact(0, "Eva_Berg", "created", "First_Work", 1990, 1990),
    fact(1, "Eva_Berg", "created", "Second_Work", 1995, 1995),
    fact(2, "Max_Lorn", "created", "Third_Work", 2001, 2001),
    fact(3, "Eva_Berg", "playsFor", "Reds", 1992, 1999),
    fact(4, "Max_Lorn", "wasBornIn", "Madison", 1970, 1970),
    fact(5, "Eva_Berg", "wasBornIn", "Madison", 1972, 1972),
    fact(6, "Ann_Holm", "playsFor", "Reds", 1990, 2001),
]


def test_an_unasked_relation_stays_in_the_corpus_and_is_never_asked() -> None:
    b, checker = _built(CREATED, "yago11k", n=300)
    assert b.questions and defect_report(checker, b.questions)["relation declared unasked"] == []
    used = {t.fact_id for q in b.questions for t in (*q.S_star, *q.S_anchor)}
    assert used and not used & {0, 1, 2}
    assert {0, 1, 2} <= {d.fact_id for d in b.corpus()}  # the corpus still holds them
    q = b.questions[0]  # made by hand: the same question resting on Eva's first work
    made = dataclasses.replace(q, id="made", S_star=(dataclasses.replace(q.S_star[-1], fact_id=0),))
    assert [m.split(":")[0] for m in defect_report(checker, [made])["relation declared unasked"]] == ["made"]
