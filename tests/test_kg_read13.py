"""What the thirteenth blind read found, each rule on a hand-made graph whose expected outcome was worked by hand:
a start many facts of one subject share with no end is a batch's date, never asked or referred to.
"""

from __future__ import annotations

from kg_checker import bulk_start_errors, defect_report
from test_kg_build import fact
from test_kg_entity_rules import _built

# Worked by hand (YAGO). Radio New Zealand owns ten stations, every one from 1996 with no end: the source's batch
# date (its commercial stations were sold that year), so "In what year did Radio New Zealand acquire Station 3?" is
# never asked, nor is any question counted from it. Fairfax Media owns two stations, from 2000 and 2003, no end:
# each start is its own, and "In what year did Fairfax Media acquire Station 11?" -> 2000 is asked.
STATIONS = [fact(i, "Radio_New_Zealand", "owns", f"Station_{i}", 1996, None) for i in range(10)] + [
    fact(10, "Fairfax_Media", "owns", "Station_10", 2003, None),
    fact(11, "Fairfax_Media", "owns", "Station_11", 2000, None),
]


def test_a_batch_start_is_never_asked_or_referred_to() -> None:
    b, checker = _built(STATIONS, "yago11k", n=300)
    assert defect_report(checker, b.questions)["bulk-dated start asked"] == []
    timed = [q for q in b.questions if q.answer_type != "entity" or q.S_anchor]
    rnz = [q for q in timed if any(t.s == "Radio New Zealand" for t in (*q.S_star, *q.S_anchor))]
    assert rnz == [], [q.question for q in rnz]
    years = {(q.S_star[-1].o, q.answers) for q in b.questions if q.answer_type == "time"}
    assert ("Station 11", ("2000",)) in years or ("Station 10", ("2003",)) in years, years


def test_the_checker_counts_a_batch_start() -> None:
    b, checker = _built(STATIONS[10:], "yago11k", n=300)
    asked = [q for q in b.questions if q.answer_type == "time" and q.S_star[-1].s == "Fairfax Media"]
    assert asked and bulk_start_errors(checker, asked) == []
    assert len(bulk_start_errors(checker, asked, least=1)) == len(asked)  # each start, alone, read as a batch
