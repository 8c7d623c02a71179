"""A tiny hand-written benchmark (a football world) shared by the answer and pipeline tests."""

from __future__ import annotations

from pathlib import Path

from chronoqa.artifacts.release import FunctionalFlags, write_release
from chronoqa.io import write_jsonl
from chronoqa.records import Doc, Question, Triple

FACTS = [
    # doc_id, s, r, o, start, end
    ("d1", "Ann Lee", "playsFor", "Red FC", "2001", "2004"),
    ("d2", "Ann Lee", "playsFor", "Blue FC", "2005", "2009"),
    ("d3", "Ann Lee", "playsFor", "Green FC", "2010", None),
    ("d4", "Red FC", "owns", "Red Arena", "1990", None),
    ("d5", "Blue FC", "owns", "Blue Park", "1950", None),
    ("d6", "Bob Ray", "playsFor", "Red FC", "2003", "2006"),
    ("d7", "Bob Ray", "wasBornIn", "Lyon", "1980", "1980"),
    ("d8", "Cy Dee", "wasBornIn", "Lyon", "1975", "1975"),
]


def doc(i: int) -> Doc:
    d, s, r, o, a, b = FACTS[i]
    return Doc(d, f"{s} {r} {o}", s, r, o, a, b, fact_id=i)


def triple(i: int) -> Triple:
    return doc(i).triple()


def hit(i: int, rank: int) -> dict[str, object]:
    d = doc(i)
    return {
        "doc_id": d.doc_id,
        "rank": rank,
        "score": 1.0 / rank,
        "s": d.s,
        "r": d.r,
        "o": d.o,
        "t_start": d.t_start,
        "t_end": d.t_end,
    }


def questions() -> list[Question]:
    q = []
    q.append(
        Question(
            "q1",
            "test",
            "In 2006, which team did Ann Lee play for?",
            "2006",
            (triple(1),),
            S_dist=(triple(0),),
            answers=("Blue FC",),
            template_id="pit_1",
            operator="point_in_time",
        )
    )
    q.append(
        Question(
            "q2",
            "test",
            "In 2002, what arena did the team Ann Lee played for own?",
            "2002",
            (triple(0), triple(3)),
            hops=2,
            answers=("Red Arena",),
            template_id="pit_2",
        )
    )
    q.append(
        Question(
            "q3",
            "test",
            "When did Ann Lee start playing for Blue FC?",
            "2005",
            (triple(1),),
            answers=("2005",),
            answer_type="time",
            operator="interval",
            render_time=False,
            template_id="int_1",
        )
    )
    q.append(
        Question("q4", "test", "Where was Bob Ray born?", "1980", (triple(6),), answers=("Lyon",), template_id="born_1")
    )
    # training questions for the prior
    q.append(
        Question("t1", "train", "Where was Cy Dee born?", "1975", (triple(7),), answers=("Lyon",), template_id="born_1")
    )
    q.append(
        Question(
            "t2",
            "train",
            "In 2004, which team did Bob Ray play for?",
            "2004",
            (triple(5),),
            answers=("Red FC",),
            template_id="pit_1",
        )
    )
    q.append(
        Question(
            "t3",
            "train",
            "In 2003, which team did Ann Lee play for?",
            "2003",
            (triple(0),),
            answers=("Red FC",),
            template_id="pit_1",
        )
    )
    return q


RUN = {
    "q1": [hit(0, 1), hit(1, 2), hit(2, 3)],
    "q2": [hit(3, 1), hit(0, 2), hit(4, 3), hit(1, 4)],
    "q3": [hit(0, 1), hit(1, 2)],
    "q4": [hit(5, 1), hit(6, 2)],
}


def write_fixture(root: Path) -> tuple[Path, Path]:
    """Write the release and a run file; returns (release dir, run file)."""
    rel = root / "release"
    qs = questions()
    write_release(
        rel,
        qs,
        [doc(i) for i in range(len(FACTS))],
        [FunctionalFlags(q.id, True, True) for q in qs],
        {"name": "football"},
        "# tiny\n",
    )
    run = root / "runs" / "bm25.run.jsonl"
    write_jsonl(run, ({"qid": q.id, "hits": RUN.get(q.id, [])} for q in qs if q.split == "test"))
    return rel, run
