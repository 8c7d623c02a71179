r"""Lexical retrievers: ``bm25`` (bm25s, stemmed, memory-mapped index) and ``bm25_temporal``.

Tokenisation (one function, :class:`Tokenizer`, used for documents and queries alike): lower-case,
words of two or more word characters (``(?u)\b\w\w+\b``), English stop words removed (bm25s'
list), Snowball English stemming (PyStemmer). Scores are bm25s' ``lucene`` variant:
``idf(t) * tf / (tf + k1 * (1 - b + b * |d| / avgdl))`` with ``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))``,
summed over the query's tokens (a repeated query token counts again).

The index is built once per corpus checksum and parameters, saved under the cache folder and loaded
memory-mapped (``bm25s.BM25.load(mmap=True)``), so several processes share one copy in memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from chronoqa.retrieve.base import Corpus, Hit, RetrievalQuery
from chronoqa.time import Granularity, Interval, TimeMention, TimeParseError, extract_times, parse_time, valid_at

__all__ = [
    "BM25Index",
    "BM25Retriever",
    "TemporalBM25Retriever",
    "Tokenizer",
    "lexical_text",
    "query_intervals",
    "unsuperseded_mask",
    "valid_within",
    "validity_mask",
]

_TOKEN_RE: Final = re.compile(r"(?u)\b\w\w+\b")
_TOKENIZER_VERSION: Final = "v1-lower-w2-stopen-snowball-en"


class Tokenizer:
    """Lower-case words of 2+ characters, English stop words dropped, Snowball-stemmed."""

    def __init__(self) -> None:
        import Stemmer
        from bm25s.stopwords import STOPWORDS_EN

        self._stemmer = Stemmer.Stemmer("english")
        self._stop = frozenset(STOPWORDS_EN)

    @property
    def stopwords(self) -> frozenset[str]:
        """The words left out of every token list."""
        return self._stop

    def __call__(self, text: str) -> list[str]:
        """Tokens of ``text``, in order."""
        words = [w for w in _TOKEN_RE.findall(text.lower()) if w not in self._stop]
        return list(self._stemmer.stemWords(words))


class BM25Index:
    """A bm25s index over a corpus, cached on disk by corpus checksum and parameters, memory-mapped."""

    def __init__(self, corpus: Corpus, *, k1: float = 1.5, b: float = 0.75, method: str = "lucene") -> None:
        self.corpus = corpus
        self.k1, self.b, self.method = k1, b, method
        self.tokenize = Tokenizer()
        self.n_docs = len(corpus)
        self.built = False
        self._model: Any = None
        self._vocab: dict[str, int] = {}
        self._buf: np.ndarray | None = None
        self._slot: np.ndarray = np.zeros(0, dtype=np.int64)
        if self.n_docs:
            self._model = self._load_or_build()
            self._vocab = self._model.vocab_dict
            scores = self._model.scores
            self._data = scores["data"]
            self._indices = scores["indices"]
            self._indptr = scores["indptr"]

    @property
    def cache_path(self) -> Path:
        """Folder of this index in the cache."""
        key = json.dumps([self.k1, self.b, self.method, _TOKENIZER_VERSION], sort_keys=True)
        digest = hashlib.sha256(key.encode()).hexdigest()[:12]
        return self.corpus.cache_dir / "bm25" / f"{self.corpus.sha256[:20]}-{digest}"

    def _load_or_build(self) -> Any:
        import bm25s

        path = self.cache_path
        if (path / "params.index.json").exists():
            return bm25s.BM25.load(str(path), mmap=True, show_progress=False)
        model = bm25s.BM25(k1=self.k1, b=self.b, method=self.method)
        model.index(self._token_ids(), show_progress=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=path.parent))
        try:
            model.save(str(tmp), show_progress=False)
            try:
                os.replace(tmp, path)
            except OSError:  # another process finished first: use its copy
                shutil.rmtree(tmp, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        self.built = True
        return bm25s.BM25.load(str(path), mmap=True, show_progress=False)

    def _token_ids(self) -> Any:
        """The corpus as bm25s' token ids, with the vocabulary (ids in order of first occurrence).

        The texts are read from the corpus column a batch at a time and each document keeps only its ids (one
        shared int per vocabulary entry), never its token strings: a million documents' token lists would be
        ten million strings.
        """
        from bm25s.tokenization import Tokenized

        vocab: dict[str, int] = {}
        ids: list[list[int]] = []
        for texts in self.corpus.text_batches():
            ids.extend([vocab.setdefault(t, len(vocab)) for t in self.tokenize(text)] for text in texts)
        return Tokenized(ids, vocab)

    def token_ids(self, text: str) -> list[int]:
        """Vocabulary ids of the query's tokens (unknown tokens dropped)."""
        return [self._vocab[t] for t in self.tokenize(text) if t in self._vocab]

    def scores(self, text: str) -> np.ndarray:
        """BM25 score of every document for ``text`` (float32, corpus order)."""
        out = np.zeros(self.n_docs, dtype=np.float32)
        for tid in self.token_ids(text):
            s, e = int(self._indptr[tid]), int(self._indptr[tid + 1])
            out[self._indices[s:e]] += self._data[s:e]  # a token's postings name each document once
        return out

    def search(self, text: str, k: int) -> list[Hit]:
        """Top-``k`` documents with a positive score, best first, ties by corpus order.

        Touches only the postings of the query's tokens (never the whole corpus): scores accumulate in
        a per-index buffer that is reset afterwards, so one index must not be searched from several
        threads at once.
        """
        if k <= 0 or not self.n_docs:
            return []
        tids = self.token_ids(text)
        if not tids:
            return []
        if self._buf is None:
            self._buf = np.zeros(self.n_docs, dtype=np.float32)
            self._slot = np.zeros(self.n_docs, dtype=np.int64)
        buf, slot = self._buf, self._slot
        parts = []
        for tid in tids:
            s, e = int(self._indptr[tid]), int(self._indptr[tid + 1])
            docs = np.asarray(self._indices[s:e])
            buf[docs] += self._data[s:e]
            parts.append(docs)
        cand = parts[0] if len(parts) == 1 else np.concatenate(parts)
        if len(parts) > 1:  # keep each document once: the last write to its slot wins
            order = np.arange(cand.size)
            slot[cand] = order
            cand = cand[slot[cand] == order]
        vals = buf[cand]
        buf[cand] = 0.0
        positive = vals > 0
        return top_k_pairs(cand[positive], vals[positive], k)


def top_k_array(scores: np.ndarray, k: int) -> list[Hit]:
    """Top-``k`` positive entries of a score array: score descending, then index ascending."""
    nz = np.flatnonzero(scores > 0)
    return top_k_pairs(nz, scores[nz], k)


def top_k_pairs(nz: np.ndarray, vals: np.ndarray, k: int) -> list[Hit]:
    """Top-``k`` of (document index, score) arrays: score descending, then index ascending."""
    if nz.size == 0 or k <= 0:
        return []
    if nz.size > k:
        # keep everything tied with the k-th best so that ties are broken by index, not by partition order
        kth = -np.partition(-vals, k - 1)[k - 1]  # (partitioning near the front is fast with many ties)
        keep = vals >= kth
        nz, vals = nz[keep], vals[keep]
    order = np.lexsort((nz, -vals))[:k]
    return [Hit(i, s) for i, s in zip(nz[order].tolist(), vals[order].astype(np.float64).tolist(), strict=True)]


def lexical_text(q: RetrievalQuery) -> str:
    """What lexical retrievers match: the question text plus the time tag when it may be shown."""
    return q.text if q.time_tag is None else f"{q.text} {q.time_tag}"


class BM25Retriever:
    """``bm25``: plain BM25 over the verbalised facts."""

    control = False

    def __init__(self, index: BM25Index) -> None:
        self.index = index

    def retrieve(self, queries: Sequence[RetrievalQuery], k: int) -> list[list[Hit]]:
        """Top-``k`` documents per query."""
        return [self.index.search(lexical_text(q), k) for q in queries]


# --------------------------------------------------------------------------------------------------
# Times of a query, and validity of a fact within them
# --------------------------------------------------------------------------------------------------


def query_intervals(q: RetrievalQuery) -> list[Interval]:
    """The times a query asks about: its time tag (when shown) or the times written in its text.

    ``before``/``after`` bounds are made strict (``before 2001`` → up to 2000).
    """
    if q.time_tag is not None:
        try:
            t = parse_time(q.time_tag)
        except TimeParseError:
            t = None
        if t is not None:
            return [Interval.point(t)]
    mentions: list[TimeMention] = extract_times(q.text)
    return [m.strict_interval() for m in mentions]


def validity_mask(corpus: Corpus, indices: np.ndarray, times: Sequence[Interval]) -> np.ndarray:
    """For each document index, whether the fact may hold at some time of any of ``times``.

    Vectorised over day bounds (a point covers its whole span, so this equals :func:`valid_within`,
    i.e. :func:`chronoqa.time.valid_at` for a point query); documents with unparsable or reversed
    times fall back to :func:`valid_within` one by one.
    """
    lo_all, hi_all, odd_all = corpus.day_bounds()
    lo, hi, odd = lo_all[indices], hi_all[indices], odd_all[indices]
    out = np.zeros(len(indices), dtype=bool)
    for t in times:
        q_lo = -np.inf if t.start is None else t.start.first_day()
        q_hi = np.inf if t.end is None else t.end.last_day()
        out |= (lo <= q_hi) & (hi >= q_lo)
    for j in np.flatnonzero(odd):
        iv = corpus.interval(int(indices[j]))
        out[j] = any(valid_within(iv, t) for t in times)
    return out


def unsuperseded_mask(corpus: Corpus, indices: np.ndarray, times: Sequence[Interval]) -> np.ndarray:
    """For each candidate, whether it is valid at the ``times`` or no candidate of its subject and relation is.

    Subject and relation are :meth:`Corpus.slots`; the other candidates are the ``indices`` given.

    A time the question names chooses between versions of one fact (a player's clubs, a city's mayors): a
    candidate is superseded when another version of its slot holds then. A fact whose slot has no version valid
    then is not judged by that time: in "In which year did the spouse of X as of 1977 die?" the death is the
    chain's other hop, true at the time asked for, and no other death of the spouse competes with it. A time
    does not choose between different subjects' facts (an office's holders stored as "X position held P").
    """
    valid = validity_mask(corpus, indices, times)
    slots = corpus.slots()[indices]
    return valid | ~np.isin(slots, slots[valid])


def valid_within(fact: Interval | None, q: Interval) -> bool:
    """Whether ``fact`` may hold at some time of ``q``.

    A point ``q`` is :func:`chronoqa.time.valid_at` (``"possible"`` mode, at the point's granularity);
    a span (range, ``since``, ``until``) asks for overlap of the days both cover.
    """
    if fact is None:
        return False
    if q.start is not None and q.start == q.end:
        return valid_at(fact, q.start)
    g = Granularity.DAY
    if fact.is_reversed(g):
        return False
    f_lo, f_hi = fact.bounds(g)
    q_lo, q_hi = q.bounds(g)
    if f_lo is not None and q_hi is not None and f_lo > q_hi:
        return False
    return not (f_hi is not None and q_lo is not None and f_hi < q_lo)


class TemporalBM25Retriever:
    """``bm25_temporal``: BM25 candidates, then a filter or boost by the time the question names.

    The time judges versions of one fact (:func:`unsuperseded_mask`): a candidate is *superseded* when it is
    not valid at (some) time the question names while another candidate of the same subject and relation is.
    ``mode="filter"`` drops superseded candidates and keeps the rest in BM25 order; ``mode="boost"`` re-ranks
    by ``bm25 / max_bm25 + weight * (not superseded)``. A candidate whose subject and relation have no version
    valid then stays: a chain's other hop holds at another time than the one that scopes its bridge ("the
    spouse of X as of 1977"), and a filter by validity alone drops it. Questions without a readable time get
    plain BM25. ``depth`` BM25 candidates are considered.
    """

    control = False

    def __init__(self, index: BM25Index, *, mode: str = "filter", weight: float = 1.0, depth: int = 1000) -> None:
        if mode not in ("filter", "boost"):
            raise ValueError(f"bm25_temporal mode {mode!r}: expected 'filter' or 'boost'")
        self.index, self.mode, self.weight, self.depth = index, mode, weight, depth

    def retrieve(self, queries: Sequence[RetrievalQuery], k: int) -> list[list[Hit]]:
        """Top-``k`` documents per query."""
        return [self._one(q, k) for q in queries]

    def _one(self, q: RetrievalQuery, k: int) -> list[Hit]:
        times = query_intervals(q)
        cands = self.index.search(lexical_text(q), max(k, self.depth) if times else k)
        if not times or not cands:
            return cands[:k]
        idx = np.fromiter((h.pos for h in cands), dtype=np.int64, count=len(cands))
        valid = unsuperseded_mask(self.index.corpus, idx, times).tolist()
        if self.mode == "filter":
            return [h for h, ok in zip(cands, valid, strict=True) if ok][:k]
        top = cands[0].score or 1.0
        rescored = [(h.pos, h.score / top + self.weight * ok) for h, ok in zip(cands, valid, strict=True)]
        rescored.sort(key=lambda p: (-p[1], p[0]))
        return [Hit(i, float(s)) for i, s in rescored[:k]]
