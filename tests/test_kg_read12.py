"""What the twelfth blind read found, on hand-made labels and a hand-made graph whose outcome was worked by hand: an
entity whose Wikipedia disambiguator is a lower-case descriptor is named in the question text as English names it
("the geneticist Harry Harris"), since the bare name is ambiguous in the world; its answer stays bare.
"""

from __future__ import annotations

import dataclasses

from chronoqa.generate.kg.templates import descriptor
from kg_checker import defect_report
from test_kg_build import fact
from test_kg_entity_rules import _built

# Read by hand: an occupation or kind is a descriptor; a place (mixed case), a year, a birth year and a field
# ("soccer": "the soccer Will Johnson" is not English) are not; a label without a bracket has none.
DESCRIPTORS = {
    "Harry Harris (geneticist)": "geneticist",
    "Bob Marshall (wilderness activist)": "wilderness activist",
    "Stephen Maher (footballer)": "footballer",
    "Republican Party (United States)": None,
    "Liberal Party (1922)": None,
    "Tom Cole (footballer, born 1985)": None,
    "Will Johnson (soccer)": None,
    "Ann": None,
}


def test_a_lower_case_disambiguator_is_a_descriptor() -> None:
    assert {label: descriptor(label) for label in DESCRIPTORS} == DESCRIPTORS


# Worked by hand (YAGO). Harry Harris (geneticist), born 1919 in Lund, married Jane 1945-1960; Jane then married
# Tom 1962-1970. Bob Hill (singer) and Bob Hill (actor) share a short label (a namesake in the graph) and each
# played for a club. A question naming Harry Harris says "the geneticist Harry Harris" once (a second mention is
# bare); one answered by him ("Who was Jane married to in 1950?") answers "Harry Harris", no bracket, no kind.
# The namesakes read "the singer Bob Hill", "the actor Bob Hill", never bare.
FACTS = [
    fact(0, "Harry_Harris_(geneticist)", "wasBornIn", "Lund", 1919, 1919),
    fact(1, "Jane", "isMarriedTo", "Harry_Harris_(geneticist)", 1945, 1960),
    fact(2, "Jane", "isMarriedTo", "Tom", 1962, 1970),
    fact(3, "Bob_Hill_(singer)", "playsFor", "Reds", 1990, 1995),
    fact(4, "Bob_Hill_(singer)", "playsFor", "Blues", 1996, 1999),
    fact(5, "Bob_Hill_(actor)", "playsFor", "Greens", 1980, 1984),
    fact(6, "Bob_Hill_(actor)", "playsFor", "Reds", 1985, 1988),
    fact(7, "Tom", "wasBornIn", "Lund", 1930, 1930),
]
KINDS = {"<Harry_Harris_(geneticist)>": "geneticist", "<Bob_Hill_(singer)>": "singer", "<Bob_Hill_(actor)>": "actor"}


def _text_entities(q) -> set[str]:  # type: ignore[no-untyped-def]
    return {x for t in (*q.S_star, *q.S_anchor) for x in (t.s_id, t.o_id)} - set(q.answer_ids)


def test_a_descriptor_names_the_entity_once_and_the_answer_stays_bare() -> None:
    b, checker = _built(FACTS, "yago11k", n=400)
    naming, answering = [], []
    for q in b.questions:
        text = q.question.casefold()
        for e, kind in KINDS.items():
            short = e.strip("<>").split("_(")[0].replace("_", " ")
            if e in _text_entities(q) and short.casefold() in text:
                naming.append(q)
                assert text.count(f"the {kind} {short}".casefold()) == 1, q.question
                assert "(" not in q.question, q.question
            if e in q.answer_ids:
                answering.append(q)
        for a in q.answers:
            assert "(" not in a and not any(kind in a for kind in KINDS.values()), (q.question, a)
    assert naming, "a question names an entity with a descriptor"
    assert any("Harry Harris" in q.answers for q in answering), "an answer reads the bare name"
    assert defect_report(checker, b.questions)["name ambiguous in the world"] == []
    made = dataclasses.replace(naming[0], id="made", question=naming[0].question.replace("the geneticist ", ""))
    made = dataclasses.replace(made, question=made.question.replace("the singer ", "").replace("the actor ", ""))
    assert [m.split(":")[0] for m in defect_report(checker, [made])["name ambiguous in the world"]] == ["made"]
