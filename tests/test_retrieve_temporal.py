"""bm25_temporal and graph: hand-worked fixtures, and the vectorised validity against valid_at."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronoqa.records import Doc
from chronoqa.retrieve.base import Corpus, Hit, RetrievalQuery
from chronoqa.retrieve.graph import EntityLinker, GraphRetriever
from chronoqa.retrieve.lexical import (
    BM25Index,
    TemporalBM25Retriever,
    lexical_text,
    query_intervals,
    valid_within,
    validity_mask,
)
from chronoqa.time import Interval, TimePoint, valid_at
from retrieve_fixtures import docs


def corpus(tmp_path: Path) -> Corpus:
    return Corpus(docs(), "c" * 64, tmp_path / "cache")


def ids(c: Corpus, hits: list[Hit]) -> list[str]:
    return [c.docs[h.pos].doc_id for h in hits]


def test_query_intervals_prefers_the_shown_tag() -> None:
    assert query_intervals(RetrievalQuery("q", "Who led in 1990?", "2000-03")) == [Interval.point(TimePoint(2000, 3))]
    assert query_intervals(RetrievalQuery("q", "Who led between 1994 and 1998?")) == [
        Interval(TimePoint(1994), TimePoint(1998))
    ]
    assert query_intervals(RetrievalQuery("q", "Who led before 2001?")) == [Interval(None, TimePoint(2000))]
    assert query_intervals(RetrievalQuery("q", "Who led?")) == []


def test_filter_drops_a_subjects_versions_not_valid_at_the_question_time(tmp_path: Path) -> None:
    c = corpus(tmp_path)
    r = TemporalBM25Retriever(BM25Index(c), mode="filter")
    # Messi's clubs: d00 Barcelona 2004..2021, d01 PSG 2021..2023, d02 Inter Miami 2023..open
    (h,) = r.retrieve([RetrievalQuery("q", "Which club did Lionel Messi play for in 2022?")], 10)
    got = ids(c, h)
    assert got[0] == "d01" and "d00" not in got and "d02" not in got  # superseded by d01
    # Ronaldo's (d03-d05) and Zidane's (d17) clubs: no version valid in 2022, so the time judges none of them
    assert set(got) == {"d01", "d03", "d04", "d05", "d17"}
    (h,) = r.retrieve([RetrievalQuery("q", "Which club did Lionel Messi play for", "2021")], 10)
    assert {"d00", "d01"} <= set(ids(c, h)) and "d02" not in ids(c, h)  # both held in (part of) 2021
    (h,) = r.retrieve([RetrievalQuery("q", "Which club did Lionel Messi play for", "2024")], 10)
    assert "d02" in ids(c, h) and not {"d00", "d01"} & set(ids(c, h))  # open end: still valid
    (h,) = r.retrieve([RetrievalQuery("q", "Which club did Lionel Messi play for between 2005 and 2010?")], 10)
    assert "d00" in ids(c, h) and not {"d01", "d02"} & set(ids(c, h))
    (h,) = r.retrieve([RetrievalQuery("q", "Which club did Lionel Messi play for?")], 10)  # no time: plain bm25
    assert h == BM25Index(c).search("Which club did Lionel Messi play for?", 10)
    # The chancellors are three subjects (person, position held, office): a time does not choose between
    # different subjects' facts, so none is dropped
    (h,) = r.retrieve([RetrievalQuery("q", "Who was Chancellor of Germany in March 2000?")], 10)
    assert sorted(ids(c, h)) == ["d09", "d10", "d11"]


def test_filter_keeps_a_chains_hop_that_holds_at_another_time(tmp_path: Path) -> None:
    """The time scoping a chain's bridge ("as of 1977") does not drop the chain's other hop, nor a static fact."""
    facts = [  # (doc_id, text, subject, relation, object, start, end)
        ("m1", "Anita Morris was married to Grover Dale from 1973 to 1994.", "Anita Morris", "spouse", "Grover Dale",
         "1973", "1994"),
        ("m0", "Anita Morris was married to Grover Dale from 1965 to 1970.", "Anita Morris", "spouse", "Grover Dale",
         "1965", "1970"),
        ("d1", "Anita Morris died in Los Angeles on 2 March 1994.", "Anita Morris", "died in", "Los Angeles",
         "1994-03-02", "1994-03-02"),
        ("d2", "Ray Dale died in Los Angeles on 5 May 1977.", "Ray Dale", "died in", "Los Angeles",
         "1977-05-05", "1977-05-05"),
        ("c1", "Los Angeles is in California.", "Los Angeles", "located in", "California", None, None),
    ]  # fmt: skip
    ds = [Doc(d, text, s, r, o, a, b) for d, text, s, r, o, a, b in facts]
    c = Corpus(ds, "e" * 64, tmp_path / "cache")
    q = RetrievalQuery("q", "In which year did the spouse of Grover Dale as of 1977 die in Los Angeles, California?")
    (hits,) = TemporalBM25Retriever(BM25Index(c), mode="filter").retrieve([q], 10)
    plain = BM25Index(c).search(lexical_text(q), 10)
    # m0 (an earlier marriage of the same subject) is superseded by m1, valid in 1977; the death d1 is not valid
    # in 1977 but no death of Anita Morris is, so it stays; so do another subject's death (d2) and the static c1
    assert ids(c, hits) == [d for d in ids(c, plain) if d != "m0"]
    assert {"m1", "d1", "c1"} <= set(ids(c, hits))
    assert validity_mask(c, np.arange(len(ds)), query_intervals(q)).tolist() == [True, False, False, True, True]
    (boosted,) = TemporalBM25Retriever(BM25Index(c), mode="boost").retrieve([q], 10)
    assert ids(c, boosted)[-1] == "m0" and set(ids(c, boosted)) == set(ids(c, plain))


def test_boost_ranks_valid_facts_first_but_keeps_the_rest(tmp_path: Path) -> None:
    c = corpus(tmp_path)
    r = TemporalBM25Retriever(BM25Index(c), mode="boost", weight=1.0)
    (h,) = r.retrieve([RetrievalQuery("q", "Chancellor of Germany in 2022")], 10)
    got = ids(c, h)
    assert got[0] == "d11" and set(got) >= {"d09", "d10", "d11"}
    assert all(a.score >= b.score for a, b in itertools.pairwise(h))


def test_linker_takes_the_longest_label() -> None:
    linker = EntityLinker(
        [("Paris", "P"), ("Paris Saint-Germain", "PSG"), ("the", "T"), ("1994", "Y"), ("Saint", "S")],
        frozenset({"the"}),
    )
    assert linker.link("Did Paris Saint-Germain win?") == ["PSG"]
    assert linker.link("Is Paris in France?") == ["P"]
    assert linker.link("the 1994 final") == []  # stop-word-only and digit-only labels are not entities
    assert linker.link("PARIS saint germain") == ["PSG"]  # case-insensitive


def test_graph_bfs_hops_and_ranking(tmp_path: Path) -> None:
    c = corpus(tmp_path)
    g = GraphRetriever(BM25Index(c), hops=1)
    visited = g.expand(["E5"])  # Cristiano Ronaldo
    assert {c.docs[i].doc_id for i in visited} == {"d03", "d04", "d05"}
    g2 = GraphRetriever(BM25Index(c), hops=2)
    two = g2.expand(["E5"])
    by_hop = {c.docs[i].doc_id: hop for i, hop in two.items()}
    # hop 2: facts of Real Madrid (E6), Juventus (E7), Manchester United (E8)
    assert by_hop == {
        "d03": 1,
        "d04": 1,
        "d05": 1,
        "d07": 2,
        "d13": 2,
        "d16": 2,
        "d14": 2,
        "d17": 2,
    }
    g3 = GraphRetriever(BM25Index(c), hops=3)
    three = {c.docs[i].doc_id: hop for i, hop in g3.expand(["E5"]).items()}
    assert three["d08"] == 3  # Zidane (reached at hop 2) born in Marseille
    (hits,) = g2.retrieve([RetrievalQuery("q", "Who coached the club that Cristiano Ronaldo played for in 2017?")], 10)
    got = ids(c, hits)
    assert set(got) == set(by_hop)  # only visited facts
    assert got.index("d07") < got.index("d13") and got.index("d07") < got.index("d16")  # valid in 2017 first
    assert got[0] == "d03"  # valid in 2017, one hop, names Ronaldo


def test_graph_falls_back_to_bm25_without_entities(tmp_path: Path) -> None:
    c = corpus(tmp_path)
    g = GraphRetriever(BM25Index(c))
    (hits,) = g.retrieve([RetrievalQuery("q", "coached by someone")], 3)
    assert hits == BM25Index(c).search("coached by someone", 3)


def test_graph_caps_visits(tmp_path: Path) -> None:
    c = corpus(tmp_path)
    g = GraphRetriever(BM25Index(c), hops=3, max_visit=4)
    assert len(g.expand(["E5"])) == 4


years = st.integers(min_value=1990, max_value=2000)
points = st.one_of(
    years.map(TimePoint),
    st.tuples(years, st.integers(1, 12)).map(lambda p: TimePoint(*p)),
    st.tuples(years, st.integers(1, 12), st.integers(1, 28)).map(lambda p: TimePoint(*p)),
)
maybe = st.one_of(st.none(), points)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(maybe, maybe), min_size=1, max_size=12), st.tuples(maybe, maybe), points)
def test_validity_mask_equals_brute_force(
    facts: list[tuple[TimePoint | None, TimePoint | None]], q: tuple[TimePoint | None, TimePoint | None], t: TimePoint
) -> None:
    ds = [
        Doc(f"d{i}", "x", "s", "r", "o", None if a is None else a.isoformat(), None if b is None else b.isoformat())
        for i, (a, b) in enumerate(facts)
    ]
    c = Corpus(ds, "a" * 64, Path("/nonexistent"))
    idx = np.arange(len(ds))
    # a point query: exactly chronoqa.time.valid_at
    got = validity_mask(c, idx, [Interval.point(t)])
    want = [valid_at(Interval(a, b), t) for a, b in facts]
    assert got.tolist() == want
    # a span query: overlap of the covered days, computed here by walking the days
    span = Interval(*q)
    if span.start is not None and span.end is not None and span.start.first_day() > span.end.last_day():
        return
    got = validity_mask(c, idx, [span])
    for (a, b), g in zip(facts, got.tolist(), strict=True):
        assert g == valid_within(Interval(a, b), span)
        f_lo = -(10**9) if a is None else a.first_day()
        f_hi = 10**9 if b is None else b.last_day()
        q_lo = -(10**9) if span.start is None else span.start.first_day()
        q_hi = 10**9 if span.end is None else span.end.last_day()
        if f_lo > f_hi:
            continue  # reversed facts: valid_within's own rule, checked above
        assert g == (max(f_lo, q_lo) <= min(f_hi, q_hi))


def test_unparsable_times_are_never_valid(tmp_path: Path) -> None:
    ds = [Doc("d0", "x", "s", "r", "o", "not a date", None), Doc("d1", "x", "s", "r", "o", None, None)]
    c = Corpus(ds, "b" * 64, tmp_path)
    assert validity_mask(c, np.arange(2), [Interval.point(TimePoint(2000))]).tolist() == [False, True]


@pytest.mark.parametrize("mode", ["filter", "boost"])
def test_bad_mode_is_rejected(tmp_path: Path, mode: str) -> None:
    TemporalBM25Retriever(BM25Index(corpus(tmp_path)), mode=mode)
    with pytest.raises(ValueError, match="expected 'filter' or 'boost'"):
        TemporalBM25Retriever(BM25Index(corpus(tmp_path)), mode="fliter")
