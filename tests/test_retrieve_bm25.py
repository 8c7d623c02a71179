"""bm25 agrees with an independent plain-Python BM25; its index is cached and memory-mapped."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from chronoqa.records import Doc
from chronoqa.retrieve.base import Corpus, RetrievalQuery
from chronoqa.retrieve.lexical import BM25Index, BM25Retriever, Tokenizer

TEXTS = [
    "Lionel Messi plays for FC Barcelona from 2004 to 2021.",
    "Lionel Messi plays for Paris Saint-Germain from 2021 to 2023.",
    "Cristiano Ronaldo plays for Real Madrid from 2009 to 2018, scoring goals and more goals.",
    "Real Madrid is coached by Zinedine Zidane.",
    "The cat sat on the mat.",
    "Angela Merkel was Chancellor of Germany; Merkel led Germany for sixteen years.",
    "",
    "Barcelona Barcelona Barcelona",
]
QUERIES = [
    "Which team did Lionel Messi play for in 2010?",
    "Real Madrid coach",
    "Germany chancellor Merkel",
    "barcelona",
    "goals goals",
    "nothing matches zzzz",
    "",
]


def corpus(tmp_path: Path) -> Corpus:
    docs = [Doc(f"d{i}", t, "s", "r", "o", None, None) for i, t in enumerate(TEXTS)]
    return Corpus(docs, "f" * 64, tmp_path / "cache")


def reference_bm25(texts: list[str], query: str, k1: float, b: float) -> list[float]:
    """Lucene BM25 written out by hand: idf = ln(1 + (N - df + 0.5) / (df + 0.5))."""
    tok = Tokenizer()
    docs = [tok(t) for t in texts]
    n = len(docs)
    avgdl = sum(len(d) for d in docs) / n
    df: Counter[str] = Counter()
    for d in docs:
        df.update(set(d))
    scores = []
    for d in docs:
        tf = Counter(d)
        s = 0.0
        for term in tok(query):
            if tf[term] == 0:
                continue
            idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
            s += idf * tf[term] / (tf[term] + k1 * (1 - b + b * len(d) / avgdl))
        scores.append(s)
    return scores


@pytest.mark.parametrize(("k1", "b"), [(1.5, 0.75), (0.9, 0.4), (1.2, 0.0), (2.0, 1.0)])
def test_scores_match_independent_bm25(tmp_path: Path, k1: float, b: float) -> None:
    index = BM25Index(corpus(tmp_path), k1=k1, b=b)
    for q in QUERIES:
        got = index.scores(q)
        want = reference_bm25(TEXTS, q, k1, b)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=q)


@pytest.mark.parametrize("query", [*QUERIES, "Lionel Messi plays"])
def test_search_orders_by_score_then_corpus_order(tmp_path: Path, query: str) -> None:
    index = BM25Index(corpus(tmp_path))
    want = reference_bm25(TEXTS, query, 1.5, 0.75)
    expected = sorted((i for i, s in enumerate(want) if s > 0), key=lambda i: (-want[i], i))
    for k in (1, 2, 10):
        hits = index.search(query, k)
        assert [h.pos for h in hits] == expected[:k]
        np.testing.assert_allclose([h.score for h in hits], [want[i] for i in expected[:k]], rtol=1e-5)
    assert index.search(query, 10) == index.search(query, 10)  # the shared buffer is reset after each search


def test_ties_are_broken_by_corpus_order(tmp_path: Path) -> None:
    docs = [Doc(f"d{i}", "same words here", "s", "r", "o", None, None) for i in range(6)]
    index = BM25Index(Corpus(docs, "e" * 64, tmp_path / "cache"))
    assert [h.pos for h in index.search("words", 3)] == [0, 1, 2]


def test_index_is_cached_and_memory_mapped(tmp_path: Path) -> None:
    first = BM25Index(corpus(tmp_path), k1=0.9, b=0.4)
    assert first.built
    assert (first.cache_path / "params.index.json").exists()
    second = BM25Index(corpus(tmp_path), k1=0.9, b=0.4)
    assert not second.built
    assert isinstance(second._data, np.memmap)
    np.testing.assert_array_equal(first.scores("Messi Barcelona"), second.scores("Messi Barcelona"))
    other = BM25Index(corpus(tmp_path), k1=1.2, b=0.4)  # other parameters: another index
    assert other.built and other.cache_path != first.cache_path


def test_time_tag_is_matched_lexically(tmp_path: Path) -> None:
    r = BM25Retriever(BM25Index(corpus(tmp_path)))
    no_tag, tag = r.retrieve([RetrievalQuery("a", "Messi plays"), RetrievalQuery("b", "Messi plays", "2004")], 3)
    assert tag[0].pos == 0  # only d0 mentions 2004
    d0_without = next(h.score for h in no_tag if h.pos == 0)
    assert tag[0].score > d0_without


def test_empty_corpus(tmp_path: Path) -> None:
    index = BM25Index(Corpus([], "0" * 64, tmp_path / "cache"))
    assert index.search("anything", 5) == []
