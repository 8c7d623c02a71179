"""A tiny hand-made benchmark release for the retrieval tests (written into tmp_path by each test)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from chronoqa.artifacts.release import FunctionalFlags, write_release
from chronoqa.records import Doc, Question, Triple

# (doc_id, s, s_id, r, o, o_id, start, end)
FACTS: list[tuple[str, str, str, str, str, str, str | None, str | None]] = [
    ("d00", "Lionel Messi", "E1", "plays for", "FC Barcelona", "E2", "2004", "2021"),
    ("d01", "Lionel Messi", "E1", "plays for", "Paris Saint-Germain", "E3", "2021", "2023"),
    ("d02", "Lionel Messi", "E1", "plays for", "Inter Miami", "E4", "2023", None),
    ("d03", "Cristiano Ronaldo", "E5", "plays for", "Real Madrid", "E6", "2009", "2018"),
    ("d04", "Cristiano Ronaldo", "E5", "plays for", "Juventus", "E7", "2018", "2021"),
    ("d05", "Cristiano Ronaldo", "E5", "plays for", "Manchester United", "E8", "2003", "2009"),
    ("d06", "FC Barcelona", "E2", "located in", "Barcelona", "E9", None, None),
    ("d07", "Real Madrid", "E6", "coached by", "Zinedine Zidane", "E10", "2016", "2018"),
    ("d08", "Zinedine Zidane", "E10", "born in", "Marseille", "E11", "1972-06-23", "1972-06-23"),
    ("d09", "Angela Merkel", "E12", "position held", "Chancellor of Germany", "E13", "2005-11", "2021-12"),
    ("d10", "Gerhard Schröder", "E14", "position held", "Chancellor of Germany", "E13", "1998-10", "2005-11"),
    ("d11", "Olaf Scholz", "E15", "position held", "Chancellor of Germany", "E13", "2021-12", None),
    ("d12", "Paris Saint-Germain", "E3", "located in", "Paris", "E16", None, None),
    ("d13", "Real Madrid", "E6", "coached by", "Carlo Ancelotti", "E17", "2013", "2015"),
    ("d14", "Juventus", "E7", "coached by", "Massimiliano Allegri", "E18", "2014", "2019"),
    ("d15", "Marseille", "E11", "country", "France", "E19", None, None),
    ("d16", "Real Madrid", "E6", "coached by", "Zinedine Zidane", "E10", "2019", "2021"),
    ("d17", "Zinedine Zidane", "E10", "plays for", "Juventus", "E7", "1996", "2001"),
]


def _time_text(start: str | None, end: str | None) -> str:
    if start is None and end is None:
        return ""
    if start == end:
        return f" on {start}"
    if end is None:
        return f" since {start}"
    if start is None:
        return f" until {end}"
    return f" from {start} to {end}"


def docs() -> list[Doc]:
    return [
        Doc(did, f"{s} {r} {o}{_time_text(a, b)}.", s, r, o, a, b, sid, r.replace(" ", "_"), oid, i)
        for i, (did, s, sid, r, o, oid, a, b) in enumerate(FACTS)
    ]


def triple(doc_id: str) -> Triple:
    d = {x.doc_id: x for x in docs()}[doc_id]
    return d.triple()


def questions() -> list[Question]:
    t = triple
    return [
        Question(
            "q1",
            "test",
            "Which team did Lionel Messi play for in 2010?",
            "2010",
            (t("d00"),),
            S_dist=(t("d03"),),
            S_stale=(t("d01"),),
            answers=("FC Barcelona",),
            answer_ids=("E2",),
            logical_form={"anchor": "E1"},
        ),
        Question(
            "q2",
            "test",
            "Who was Chancellor of Germany in March 2000?",
            "2000-03",
            (t("d10"),),
            S_stale=(t("d09"),),
            answers=("Gerhard Schröder",),
            granularity="month",
        ),
        Question(
            "q3",
            "test",
            "Who coached the club that Cristiano Ronaldo played for in 2017?",
            "2017",
            (t("d03"), t("d07")),
            S_dist=(t("d14"),),
            S_stale=(t("d13"),),
            hops=2,
            answers=("Zinedine Zidane",),
        ),
        Question(
            "q4",
            "test",
            "When did Cristiano Ronaldo start playing for Juventus?",
            "2018",
            (t("d04"),),
            operator="interval",
            render_time=False,
            answers=("2018",),
            answer_type="time",
            time_refs=({"which": "start", "value": "2018"},),
        ),
        Question(
            "q5",
            "dev",
            "Where was Zinedine Zidane born?",
            None,
            (t("d08"),),
            render_time=False,
            answers=("Marseille",),
        ),
        Question("q6", "dev", "Tell me something about the 1990s.", None, (), render_time=False),
    ]


def write_bench(path: Path, qs: list[Question] | None = None) -> Path:
    qs = questions() if qs is None else qs
    flags = [FunctionalFlags(q.id, True, True) for q in qs]
    return write_release(path, qs, docs(), flags, {"name": "tiny", "seed": 0}, "# tiny\n")


def poisoned(qs: list[Question]) -> list[Question]:
    """Every field a retriever must not read, changed (t_query only where render_time is false)."""
    junk = (triple("d15"), triple("d12"))
    out = []
    for q in qs:
        out.append(
            replace(
                q,
                t_query=q.t_query if q.render_time else "1066",
                S_star=junk,
                S_dist=junk[::-1],
                S_stale=(triple("d06"),),
                S_anchor=junk,
                answers=("poison",),
                answer_ids=("P0",),
                logical_form={"poison": True},
                sql="SELECT 'poison'",
                time_refs=({"which": "start", "value": "1066"},),
                outdated_answers=("poison",),
            )
        )
    return out
