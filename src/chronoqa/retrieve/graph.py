"""``graph``: TempBench's retriever family: entity linking, breadth-first expansion, BM25 + time ranking.

1. **Link**: the question's words are matched against a dictionary of the corpus' entity labels
   (subjects and objects of the facts), case-insensitively, greedily taking the longest label at each
   position (labels of stop words or digits only are not entities).
2. **Expand**: breadth-first over the corpus facts from the linked entities, up to ``hops`` (≤ 3)
   facts away; entities with more than ``max_degree`` facts are not expanded beyond the first hop, and
   expansion stops after ``max_visit`` facts (in a fixed order, so the result is deterministic).
3. **Rank** the visited facts by ``bm25 / max_bm25 + time_weight * valid + hop_weight / hop``, where
   ``valid`` says whether the fact may hold at the time the question names (time tag when shown, or
   times parsed from its text; see :func:`chronoqa.retrieve.lexical.query_intervals`).

A question in which no entity is linked falls back to plain BM25 over the whole corpus.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from chronoqa.retrieve.base import Corpus, Hit, RetrievalQuery
from chronoqa.retrieve.lexical import BM25Index, lexical_text, query_intervals, validity_mask

__all__ = ["EntityLinker", "GraphRetriever"]

_WORD_RE: Final = re.compile(r"\w+")


class EntityLinker:
    """Longest-match linking of label word sequences to entity ids."""

    def __init__(self, pairs: Iterable[tuple[str, str]], stopwords: frozenset[str], max_len: int = 12) -> None:
        table: dict[tuple[str, ...], set[str]] = {}
        for label, entity in pairs:
            key = tuple(_WORD_RE.findall(label.lower()))
            if not key or len(key) > max_len or all(w in stopwords or w.isdigit() for w in key):
                continue
            table.setdefault(key, set()).add(entity)
        self._table = {k: tuple(sorted(v)) for k, v in table.items()}
        self.max_len = max((len(k) for k in self._table), default=0)

    def __len__(self) -> int:
        return len(self._table)

    def link(self, text: str) -> list[str]:
        """Entity ids mentioned in ``text`` (longest match first at each position), sorted, unique."""
        words = _WORD_RE.findall(text.lower())
        found: set[str] = set()
        i = 0
        while i < len(words):
            for n in range(min(self.max_len, len(words) - i), 0, -1):
                hit = self._table.get(tuple(words[i : i + n]))
                if hit is not None:
                    found.update(hit)
                    i += n
                    break
            else:
                i += 1
        return sorted(found)


class GraphRetriever:
    """``graph``: link, expand by BFS, rank by BM25 and temporal validity."""

    control = False

    def __init__(
        self,
        index: BM25Index,
        *,
        hops: int = 3,
        time_weight: float = 1.0,
        hop_weight: float = 0.5,
        max_degree: int = 500,
        max_visit: int = 5000,
    ) -> None:
        if not 1 <= hops <= 3:
            raise ValueError(f"graph hops={hops}: expected 1, 2 or 3")
        self.index = index
        self.hops, self.time_weight, self.hop_weight = hops, time_weight, hop_weight
        self.max_degree, self.max_visit = max_degree, max_visit
        corpus = index.corpus
        s_ent, o_ent = _entities(corpus, "s"), _entities(corpus, "o")
        names, s_code, o_code = _codes(s_ent, o_ent)
        self._code = {e: i for i, e in enumerate(names)}  # codes in entity order: sorting codes sorts entities
        self._ptr, self._facts = _adjacency(s_code, o_code, len(names))
        self._ends_s, self._ends_o = _ints(s_code), _ints(o_code)
        self.linker = EntityLinker(_label_pairs(corpus, s_ent, o_ent), index.tokenize.stopwords)

    def retrieve(self, queries: Sequence[RetrievalQuery], k: int) -> list[list[Hit]]:
        """Top-``k`` visited facts per query."""
        return [self._one(q, k) for q in queries]

    def expand(self, seeds: Sequence[str]) -> dict[int, int]:
        """Facts reached from ``seeds``: document index → hop (1 = touches a seed)."""
        visited: dict[int, int] = {}
        seen = {self._code[e] for e in seeds if e in self._code}
        frontier = sorted(seen)
        ptr, facts, ends_s, ends_o = self._ptr, self._facts, self._ends_s, self._ends_o
        for hop in range(1, self.hops + 1):
            nxt: set[int] = set()
            for e in frontier:
                lo, hi = ptr[e], ptr[e + 1]
                if hop > 1 and hi - lo > self.max_degree:
                    continue
                for i in facts[lo:hi]:
                    if i in visited:
                        continue
                    visited[i] = hop
                    for other in (ends_s[i], ends_o[i]):
                        if other not in seen:
                            seen.add(other)
                            nxt.add(other)
                    if len(visited) >= self.max_visit:
                        return visited
            frontier = sorted(nxt)
            if not frontier:
                break
        return visited

    def _one(self, q: RetrievalQuery, k: int) -> list[Hit]:
        if k <= 0:
            return []
        text = lexical_text(q)
        seeds = self.linker.link(q.text)
        visited = self.expand(seeds) if seeds else {}
        if not visited:
            return self.index.search(text, k)
        idx = np.fromiter(visited.keys(), dtype=np.int64, count=len(visited))
        hop = np.fromiter(visited.values(), dtype=np.float64, count=len(visited))
        bm = self.index.scores(text)[idx].astype(np.float64)
        top = float(bm.max()) if bm.size else 0.0
        score = (bm / top if top > 0 else bm) + self.hop_weight / hop
        times = query_intervals(q)
        if times:
            score += self.time_weight * validity_mask(self.index.corpus, idx, times)
        order = np.lexsort((idx, -score))[:k]
        return [Hit(int(idx[j]), float(score[j])) for j in order]


def _entities(corpus: Corpus, end: str) -> pa.Array:
    """The entity at one end (``"s"`` or ``"o"``) of every fact: its id, or its label when it has no id."""
    ids = pc.fill_null(corpus.column(f"{end}_id"), "")
    return pc.if_else(pc.equal(ids, ""), corpus.column(end), ids)


def _codes(s_ent: pa.Array, o_ent: pa.Array) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The distinct entities in sorted order, and each fact's subject and object as positions in it."""
    encoded = pa.concat_arrays([s_ent, o_ent]).dictionary_encode()
    names = encoded.dictionary
    order = pc.sort_indices(names).to_numpy()  # UTF-8 byte order: Python's order of the same strings
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    codes = rank[encoded.indices.to_numpy()]
    n = len(s_ent)
    return names.take(pa.array(order)).to_pylist(), codes[:n], codes[n:]


def _adjacency(s_code: np.ndarray, o_code: np.ndarray, n_entities: int) -> tuple[array[int], array[int]]:
    """Each entity's facts (as subject, or as object when not its own subject), ascending: offsets and fact list."""
    docs = np.arange(len(s_code), dtype=np.int64)
    other = o_code != s_code
    ent = np.concatenate([s_code, o_code[other]])
    fact = np.concatenate([docs, docs[other]])
    order = np.lexsort((fact, ent))
    ptr = np.zeros(n_entities + 1, dtype=np.int64)
    np.cumsum(np.bincount(ent, minlength=n_entities), out=ptr[1:])
    return _ints(ptr), _ints(fact[order])


def _ints(values: np.ndarray) -> array[int]:
    """Integers as a compact array whose items read back as Python ints (the expansion reads them one by one)."""
    return array("q", np.ascontiguousarray(values, dtype=np.int64).tobytes())


def _label_pairs(corpus: Corpus, s_ent: pa.Array, o_ent: pa.Array) -> Iterator[tuple[str, str]]:
    """Every distinct ``(label, entity)`` of the facts' subjects and objects, for the linker."""
    pairs = pa.table(
        {
            "label": pa.concat_arrays([corpus.column("s"), corpus.column("o")]),
            "entity": pa.concat_arrays([s_ent, o_ent]),
        }
    )
    unique = pairs.group_by(["label", "entity"], use_threads=False).aggregate([])
    return zip(unique.column("label").to_pylist(), unique.column("entity").to_pylist(), strict=True)
