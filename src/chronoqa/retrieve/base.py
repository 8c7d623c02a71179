"""The retrieval protocol: what a retriever sees (a query as a user poses it) and what it returns.

A retriever never receives a :class:`~chronoqa.records.Question`: only a :class:`RetrievalQuery`
with the question's text and, where ``render_time`` allows, its time tag. The gold (``S_star``), the
negatives, the answers and an interval question's ``t_query`` are out of its reach by construction.
Controls (``oracle``, ``stale_only``, ``dist_only``) are the exception on purpose: they are built
with the questions and are marked ``control=True`` everywhere they appear.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from chronoqa.artifacts.docstore import DocStore
from chronoqa.paths import cache_dir
from chronoqa.records import Doc, Question
from chronoqa.time import Interval, TimeParseError, parse_time

__all__ = [
    "Corpus",
    "Hit",
    "RetrievalQuery",
    "Retriever",
    "query_from_question",
]


@dataclass(frozen=True, slots=True)
class RetrievalQuery:
    """A question as a user would pose it: id, text, and the time tag only when it may be shown."""

    qid: str
    text: str
    time_tag: str | None = None


def query_from_question(q: Question) -> RetrievalQuery:
    """The query a retriever may see: ``time_tag`` is ``q.t_query`` only when ``q.render_time`` is true."""
    return RetrievalQuery(q.id, q.question, q.t_query if q.render_time else None)


class Hit(NamedTuple):
    """One retrieved corpus document: its position in the corpus and its score (higher is better)."""

    pos: int
    score: float


class Retriever(Protocol):
    """Anything that ranks corpus documents for queries."""

    control: bool

    def retrieve(self, queries: Sequence[RetrievalQuery], k: int) -> list[list[Hit]]:
        """Top-``k`` hits per query, best first (ties broken by corpus order)."""
        ...


@dataclass(frozen=True)
class Corpus:
    """The documents a benchmark's retrievers search, with the checksum that keys every cache."""

    docs: Sequence[Doc]
    sha256: str
    cache_dir: Path = field(default_factory=cache_dir)
    _intervals: dict[int, Interval | None] = field(default_factory=dict, repr=False, compare=False)
    _by_id: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    _days: list[np.ndarray] = field(default_factory=list, repr=False, compare=False)
    _slots: list[np.ndarray] = field(default_factory=list, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.docs)

    def interval(self, i: int) -> Interval | None:
        """Validity interval of document ``i`` (``None`` when its times do not parse); parsed when first asked for."""
        if i not in self._intervals:
            self._intervals[i] = _parse_interval(self.docs[i])
        return self._intervals[i]

    def index_of(self, doc_id: str) -> int | None:
        """Corpus position of a document id."""
        if isinstance(self.docs, DocStore):
            return self.docs.index_of(doc_id)
        if not self._by_id:
            self._by_id.update((d.doc_id, i) for i, d in enumerate(self.docs))
        return self._by_id.get(doc_id)

    def day_bounds(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per document: first day, last day, and an "odd" flag.

        The first day is ``-inf`` for an unknown start, the last day ``+inf`` for an open end; odd
        documents have times that do not parse or are reversed (check those with
        :func:`chronoqa.time.valid_at` one by one). Each distinct time text is parsed once.
        """
        if not self._days:
            lo, bad_lo = _days(self._times("t_start"), last=False)
            hi, bad_hi = _days(self._times("t_end"), last=True)
            odd = bad_lo | bad_hi
            lo[odd], hi[odd] = -np.inf, np.inf
            self._days.extend((lo, hi, odd | (lo > hi)))
        return self._days[0], self._days[1], self._days[2]

    def slots(self) -> np.ndarray:
        """Per document, a code of its (subject, relation): equal codes are versions of one slot of the graph.

        A subject or relation is its id, or its label where it has none; codes follow first occurrence.
        """
        if not self._slots:
            subject, relation = self._entity("s"), self._entity("r")
            key = pc.binary_join_element_wise(subject, relation, "\x1f")
            self._slots.append(key.dictionary_encode().indices.to_numpy().astype(np.int64))
        return self._slots[0]

    def _entity(self, name: str) -> pa.Array:
        """The ``name`` column's id (``s_id``, ``r_id``, ...) where it has one, else its label, as strings."""
        ids = pc.fill_null(pc.cast(self.column(f"{name}_id"), pa.string()), "")
        return pc.if_else(pc.equal(ids, ""), pc.cast(self.column(name), pa.string()), ids)

    def _times(self, name: str) -> list[str | None]:
        return self.column(name).to_pylist()

    def column(self, name: str) -> pa.Array:
        """One :class:`~chronoqa.records.Doc` field of every document, in corpus order, as an Arrow array."""
        if isinstance(self.docs, DocStore):
            return self.docs.column(name)
        return pa.array([getattr(d, name) for d in self.docs], pa.string())

    def text_batches(self, rows: int = 1 << 16) -> Iterator[list[str]]:
        """The document texts in corpus order, ``rows`` at a time: a scan never holds every text as a string."""
        texts = self.column("text")
        for start in range(0, len(texts), rows):
            yield texts.slice(start, rows).to_pylist()

    def texts(self) -> list[str]:
        """The document texts, in corpus order."""
        return self.column("text").to_pylist()


def _days(texts: list[str | None], *, last: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per text: its first (or ``last``) day (``-inf``/``+inf`` for ``None``) and whether it fails to parse."""
    unknown = np.inf if last else -np.inf
    memo: dict[str | None, tuple[float, bool]] = {None: (unknown, False)}
    for text in set(texts):
        if text in memo:
            continue
        try:
            p = parse_time(text)
        except TimeParseError:
            memo[text] = (unknown, True)
            continue
        memo[text] = (unknown, False) if p is None else (float(p.last_day() if last else p.first_day()), False)
    pairs = [memo[t] for t in texts]
    days = np.fromiter((d for d, _ in pairs), dtype=float, count=len(pairs))
    bad = np.fromiter((b for _, b in pairs), dtype=bool, count=len(pairs))
    return days, bad


def _parse_interval(d: Doc) -> Interval | None:
    try:
        return Interval(parse_time(d.t_start), parse_time(d.t_end))
    except TimeParseError:
        return None
