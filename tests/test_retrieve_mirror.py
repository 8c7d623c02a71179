"""Retrievers on the real Wikidata12k facts (mirror): known-item search and the temporal filter."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from chronoqa.records import Doc
from chronoqa.retrieve.base import Corpus, RetrievalQuery
from chronoqa.retrieve.registry import REGISTRY, BuildContext
from chronoqa.time import Interval, TimePoint, parse_time, valid_at

pytestmark = [pytest.mark.mirror, pytest.mark.slow]


def wikidata_docs(mirror: Path) -> list[Doc]:
    from chronoqa.datasets import wikidata12k

    g = wikidata12k.load(mirror / "wikidata12k")
    out = []
    for f in g.facts:
        a = None if f.start is None else f.start.isoformat()
        b = None if f.end is None else f.end.isoformat()
        rel = g.relation_label(f.r)
        out.append(Doc(f"F{f.id}", f"{f.s} {rel} {f.o} from {a} to {b}.", f.s, rel, f.o, a, b, f.s, f.r, f.o, f.id))
    return out


@pytest.fixture(scope="module")
def setup(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Corpus, list[tuple[RetrievalQuery, int]]]:
    docs = wikidata_docs(mirror)
    assert len(docs) == 40621
    corpus = Corpus(docs, "w" * 64, tmp_path_factory.mktemp("cache"))
    rng = random.Random(7)
    probes: list[tuple[RetrievalQuery, int]] = []
    while len(probes) < 200:
        i = rng.randrange(len(docs))
        d = docs[i]
        if d.t_start is None or d.t_start != d.t_end:
            continue
        probes.append((RetrievalQuery(f"q{len(probes)}", f"What {d.r} did {d.s} have in {d.t_start}?"), i))
    return corpus, probes


@pytest.mark.parametrize("spec", ["bm25", "bm25_temporal", "graph", "hybrid(bm25,graph)"])
def test_known_item_in_top_10(setup: tuple[Corpus, list[tuple[RetrievalQuery, int]]], spec: str) -> None:
    corpus, probes = setup
    r = REGISTRY.build(spec, BuildContext(corpus))
    hits = r.retrieve([q for q, _ in probes], 10)
    found = sum(i in {h.pos for h in row} for (_, i), row in zip(probes, hits, strict=True))
    assert found / len(probes) >= 0.9  # measured: 0.985 for each (a few facts share their exact wording)


def test_temporal_filter_drops_exactly_the_superseded_versions(
    setup: tuple[Corpus, list[tuple[RetrievalQuery, int]]],
) -> None:
    """The filter's output, recomputed fact by fact with valid_at over the BM25 candidates."""
    corpus, probes = setup
    r = REGISTRY.build("bm25_temporal(mode=filter)", BuildContext(corpus))
    index = REGISTRY.build("bm25", BuildContext(corpus))
    queries = [q for q, _ in probes]
    hits = r.retrieve(queries, 50)
    cands = index.retrieve(queries, 1000)
    dropped = 0
    for q, row, cand in zip(queries, hits, cands, strict=True):
        year = TimePoint(int(q.text.rsplit(" ", 1)[1].rstrip("?")))
        docs = [corpus.docs[h.pos] for h in cand]
        ok = [valid_at(Interval(parse_time(d.t_start), parse_time(d.t_end)), year) for d in docs]
        held = {(d.s_id, d.r_id) for d, v in zip(docs, ok, strict=True) if v}
        want = [h.pos for h, d, v in zip(cand, docs, ok, strict=True) if v or (d.s_id, d.r_id) not in held]
        assert [h.pos for h in row] == want[:50], q.text
        dropped += len(cand) - len(want)
    assert dropped > 1000  # the filter does drop versions on this data
