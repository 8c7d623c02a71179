"""Controls (sanity checks of the metrics) and reciprocal-rank fusion.

Controls are marked ``control=True`` in the registry, in run meta files and in summaries:

* ``oracle`` returns the question's gold ``S_star``; ``stale_only`` its ``S_stale``; ``dist_only`` its
  ``S_dist``. These read the gold on purpose (they are built with the questions).
* ``random(seed=0)`` returns ``k`` documents drawn uniformly, seeded per question; ``empty`` returns
  nothing. Neither reads anything but the question id.

``hybrid(a,b,...,k=60)`` fuses any retrievers by reciprocal rank: ``score(d) = sum 1 / (k + rank_i(d))``
over the members that retrieved ``d`` within their top ``depth``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from chronoqa.records import Question, Triple
from chronoqa.retrieve.base import Corpus, Hit, RetrievalQuery, Retriever

__all__ = ["EmptyRetriever", "GoldControl", "HybridRetriever", "RandomRetriever"]


class GoldControl:
    """Returns one of a question's gold triple sets (``S_star``, ``S_stale`` or ``S_dist``) as hits."""

    control = True

    def __init__(
        self, corpus: Corpus, questions: Mapping[str, Question], pick: Callable[[Question], Sequence[Triple]]
    ) -> None:
        self.corpus, self.questions, self.pick = corpus, questions, pick
        self._by_key: dict[tuple[str, str, str, str | None, str | None], int] = {}

    def _index(self, t: Triple) -> int | None:
        if t.doc_id:
            i = self.corpus.index_of(t.doc_id)
            if i is not None:
                return i
        if not self._by_key:
            for i, d in enumerate(self.corpus.docs):
                self._by_key.setdefault((d.s, d.r, d.o, d.t_start, d.t_end), i)
        return self._by_key.get(t.key())

    def retrieve(self, queries: Sequence[RetrievalQuery], k: int) -> list[list[Hit]]:
        """The picked gold set of each question, in its stored order (strictly decreasing scores)."""
        out: list[list[Hit]] = []
        for q in queries:
            question = self.questions.get(q.qid)
            seen: list[int] = []
            for t in self.pick(question) if question is not None else ():
                i = self._index(t)
                if i is not None and i not in seen:
                    seen.append(i)
            seen = seen[:k]
            out.append([Hit(i, float(len(seen) - r)) for r, i in enumerate(seen)])
        return out


class RandomRetriever:
    """``random``: ``k`` documents drawn without replacement, seeded by ``seed`` and the question id."""

    control = True

    def __init__(self, corpus: Corpus, seed: int = 0) -> None:
        self.corpus, self.seed = corpus, seed

    def retrieve(self, queries: Sequence[RetrievalQuery], k: int) -> list[list[Hit]]:
        """Random documents per query."""
        n = len(self.corpus)
        out: list[list[Hit]] = []
        for q in queries:
            rng = random.Random(f"{self.seed}|{q.qid}")
            picks = rng.sample(range(n), min(k, n)) if k > 0 else []
            out.append([Hit(i, float(len(picks) - r)) for r, i in enumerate(picks)])
        return out


class EmptyRetriever:
    """``empty``: retrieves nothing (every question still gets a run line)."""

    control = True

    def retrieve(self, queries: Sequence[RetrievalQuery], k: int) -> list[list[Hit]]:
        """No hits."""
        return [[] for _ in queries]


class HybridRetriever:
    """``hybrid``: reciprocal-rank fusion of member retrievers."""

    def __init__(self, members: Sequence[Retriever], *, k: float = 60.0, depth: int = 100) -> None:
        if len(members) < 1:
            raise ValueError("hybrid needs at least one member retriever, e.g. hybrid(bm25,dense)")
        self.members, self.rrf_k, self.depth = list(members), k, depth
        self.control = any(m.control for m in members)

    def retrieve(self, queries: Sequence[RetrievalQuery], k: int) -> list[list[Hit]]:
        """Fused top-``k`` per query; ties by corpus order."""
        depth = max(k, self.depth)
        runs = [m.retrieve(queries, depth) for m in self.members]
        out: list[list[Hit]] = []
        for qi in range(len(queries)):
            fused: dict[int, float] = {}
            for run in runs:
                for rank, h in enumerate(run[qi], 1):
                    fused[h.pos] = fused.get(h.pos, 0.0) + 1.0 / (self.rrf_k + rank)
            ranked = sorted(fused.items(), key=lambda p: (-p[1], p[0]))[:k]
            out.append([Hit(i, s) for i, s in ranked])
        return out
