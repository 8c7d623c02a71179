"""The canonical row triple (``row_triple`` / ``RowTriples``) and the corpus built from it, on hand-worked rows.

The expected triples are written out by hand: times at the store's comparison granularity, never finer
than printed (a year-only date in a month-level store stays ``2003``), shared dates rendered the same
for every row that holds them (the ISO text is memoised per distinct date), missing cells skipped in
``s`` and empty in ``s_id``.
"""

from __future__ import annotations

from chronoqa.generate.table import TableStore
from chronoqa.generate.table.corpus import store_docs
from chronoqa.generate.table.tfd import TFD
from chronoqa.generate.table.triples import RowTriples, row_triple
from chronoqa.generate.table.verbalise import PhraseBook
from chronoqa.records import TemporalTable, Triple
from chronoqa.time import Granularity, Interval, parse_time


def _store(granularity: Granularity = Granularity.MONTH) -> TableStore:
    spans = [("2003", "2004-05-06"), ("2004-05-09", "2009-12-31"), ("2009-12-31", None)]
    table = TemporalTable(
        "lead",
        ("Country", "Role", "Name"),
        [("A", "Mayor", "x"), (None, "Mayor", "y"), ("A", "Mayor", None)],
        [Interval.parse(s, e) for s, e in spans],
        [2, 3, 4],
        "Start",
        "End",
    )
    as_of = parse_time("2020-01-01")
    assert as_of is not None
    return TableStore.build(table, as_of=as_of, granularity=granularity)


EXPECTED = [
    Triple("A, Mayor", "name", "x", "2003", "2004-05", "A | Mayor", "Name", "x", 0, "lead:2"),
    Triple("Mayor", "name", "y", "2004-05", "2009-12", " | Mayor", "Name", "y", 1, "lead:3"),
    Triple("A, Mayor", "name", "", "2009-12", None, "A | Mayor", "Name", "", 2, "lead:4"),
]


def test_row_triples_are_the_hand_worked_triples() -> None:
    store = _store()
    tfd = TFD(("Country", "Role"), "Name")
    many = RowTriples(store, tfd)
    assert [many.triple(i) for i in range(3)] == EXPECTED
    assert [row_triple(store, i, tfd) for i in range(3)] == EXPECTED
    # the same rows again (ISO texts now memoised) give the same triples
    assert [many.triple(i) for i in (2, 1, 0)] == EXPECTED[::-1]


def test_day_level_store_keeps_days_and_a_year_only_date() -> None:
    store = _store(Granularity.DAY)
    many = RowTriples(store, TFD(("Country", "Role"), "Name"))
    spans = [(t.t_start, t.t_end) for t in (many.triple(i) for i in (0, 1, 2, 0))]
    assert spans == [("2003", "2004-05-06"), ("2004-05-09", "2009-12-31"), ("2009-12-31", None), ("2003", "2004-05-06")]


def test_generic_triple_without_a_tfd() -> None:
    store = _store()
    # no TFD: X = every attribute column but the last (Country, Role), Y = the last (Name): as above
    assert [row_triple(store, i, None) for i in range(3)] == EXPECTED


def test_corpus_documents_carry_the_row_triples() -> None:
    store = _store()
    docs = list(store_docs(store, PhraseBook(), TFD(("Country", "Role"), "Name")))
    assert [d.triple() for d in docs] == EXPECTED
    # (row 0's text is left out: its year-only start is written at the store's unit, "January 2003")
    assert [d.text for d in docs[1:]] == [
        "role: Mayor; name: y (from May 2004 to December 2009).",
        "country: A; role: Mayor (since December 2009).",
    ]
