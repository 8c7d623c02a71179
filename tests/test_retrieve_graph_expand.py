"""The graph retriever's breadth-first expansion agrees with a plain walk over the documents."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from chronoqa.records import Doc
from chronoqa.retrieve.base import Corpus
from chronoqa.retrieve.graph import GraphRetriever
from chronoqa.retrieve.lexical import BM25Index

NAMES = ["Zoë", "zeta", "Émile", "Ángel", "alpha", "Beta", "Ωmega", "ß", "b", "B"]


def _docs(seed: int) -> list[Doc]:
    rng = random.Random(seed)
    docs = []
    for i in range(120):
        s, o = rng.choice(NAMES), rng.choice(NAMES)  # some facts join an entity to itself
        s_id = rng.choice(["", f"Q{NAMES.index(s)}"])  # with or without an id: the label names it then
        docs.append(Doc(f"d{i}", f"{s} knows {o}", s, "knows", o, "2000", None, s_id=s_id))
    return docs


def _plain_expand(docs: list[Doc], seeds: list[str], hops: int, max_degree: int, max_visit: int) -> dict[int, int]:
    """The expansion written over the documents directly (the definition in graph.py's docstring)."""
    ends = [(d.s_id or d.s, d.o_id or d.o) for d in docs]
    adj: dict[str, list[int]] = {}
    for i, (s, o) in enumerate(ends):
        adj.setdefault(s, []).append(i)
        if o != s:
            adj.setdefault(o, []).append(i)
    visited: dict[int, int] = {}
    seen = set(seeds)
    frontier = sorted(seen)
    for hop in range(1, hops + 1):
        nxt: set[str] = set()
        for e in frontier:
            facts = adj.get(e, [])
            if hop > 1 and len(facts) > max_degree:
                continue
            for i in facts:
                if i in visited:
                    continue
                visited[i] = hop
                for other in ends[i]:
                    if other not in seen:
                        seen.add(other)
                        nxt.add(other)
                if len(visited) >= max_visit:
                    return visited
        frontier = sorted(nxt)
        if not frontier:
            break
    return visited


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("max_degree", "max_visit"), [(500, 5000), (12, 5000), (500, 17)])
def test_expansion_matches_a_plain_walk_in_order(tmp_path: Path, seed: int, max_degree: int, max_visit: int) -> None:
    docs = _docs(seed)
    g = GraphRetriever(
        BM25Index(Corpus(docs, "e" * 64, tmp_path / "cache")), hops=2, max_degree=max_degree, max_visit=max_visit
    )
    for seeds in (["Zoë"], ["Q1", "alpha"], ["B", "b", "ß"], ["nobody"]):
        got = g.expand(seeds)
        want = _plain_expand(docs, seeds, 2, max_degree, max_visit)
        assert list(got.items()) == list(want.items())
    assert max_visit > 100 or len(g.expand(["alpha"])) == max_visit  # the visit cap cuts mid-entity
