"""The retrieval scorer: evidence and ranking measures of whole runs, with pyarrow and numpy.

The definitions are those of :mod:`chronoqa.score.evidence` (time validity, TRP, CCR, the negative
hits) and :mod:`chronoqa.score.measures` (the ranking measures, each defined in its docstring);
``tests/test_score_fast.py`` and ``tests/test_score_measures.py`` pin them with hand-worked values
and against ``ir_measures``.

Each triple is reduced to one key string (``s``, ``r``, ``o`` and both normalised times joined by a
separator), keys are dictionary-encoded to integers, and every question/triple pair becomes one
``int64`` code ``question_index * n_keys + key_id``. De-duplication, membership in the time-valid
gold, CCR and the negative hits are then sorted-array operations, and per-question sums are
``numpy.bincount``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from chronoqa.artifacts.release import FunctionalFlags
from chronoqa.artifacts.runs import Run
from chronoqa.records import Question
from chronoqa.score.evidence import EvidenceRow, norm_time, time_valid, triple_key
from chronoqa.score.measures import Measure, RankedHits, Values
from chronoqa.time import Granularity, ValidityMode

__all__ = [
    "GoldColumns",
    "GoldSource",
    "HitColumns",
    "RunScores",
    "evidence_rows",
    "gold_columns",
    "hits_from_arrays",
    "hits_from_run",
    "hits_from_triples",
    "score_run",
]

_SEP = "\x1f"
_CCR, _TRP = Measure("CCR"), Measure("TRP")
_NULL = "\x00"


def _keys(s: pa.Array, r: pa.Array, o: pa.Array, ts: pa.Array, te: pa.Array) -> pa.Array:
    return pc.binary_join_element_wise(s, r, o, pc.fill_null(ts, _NULL), pc.fill_null(te, _NULL), _SEP)


def _key_text(item: Any) -> str:
    """A triple's identity (:func:`~chronoqa.score.evidence.triple_key`) as one key string."""
    s, r, o, ts, te = triple_key(item)
    return _SEP.join((s, r, o, _NULL if ts is None else ts, _NULL if te is None else te))


def _norm_time_array(arr: pa.Array) -> pa.Array:
    """Normalise a string column of times (each distinct value parsed once)."""
    uniq = pc.unique(arr)
    mapped = pa.array([norm_time(v) for v in uniq.to_pylist()], type=pa.string())
    return mapped.take(pc.index_in(arr, value_set=uniq))


def _isin(a: np.ndarray, b: np.ndarray, *, b_sorted: bool = False) -> np.ndarray:
    """``numpy.isin`` for int64 codes by sorting and binary search (faster than the hash-based default)."""
    if b.size == 0 or a.size == 0:
        return np.zeros(a.size, dtype=bool)
    bs = b if b_sorted else np.sort(b)
    idx = np.searchsorted(bs, a)
    np.minimum(idx, bs.size - 1, out=idx)
    return bs[idx] == a


def _unique_first(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct values of ``a`` and the index of each one's first occurrence."""
    order = np.argsort(a, kind="stable")
    xs = a[order]
    first = np.ones(xs.size, dtype=bool)
    if xs.size > 1:
        np.not_equal(xs[1:], xs[:-1], out=first[1:])
    return xs[first], order[first]


class GoldSource(Protocol):
    """What the scorer reads of a question: a :class:`~chronoqa.records.Question`, or a TempBench dict's view."""

    @property
    def id(self) -> str:
        """The question id."""

    @property
    def t_query(self) -> Any:
        """The time asked about (any form :func:`norm_time` reads), or ``None``."""

    @property
    def granularity(self) -> str | None:
        """The question's granularity (year when ``None``)."""

    @property
    def as_of(self) -> Any:
        """The date open ends close at, or ``None``."""

    @property
    def S_star(self) -> Sequence[Any]:
        """The gold triples."""

    @property
    def S_stale(self) -> Sequence[Any]:
        """The outdated triples (negatives)."""

    @property
    def S_dist(self) -> Sequence[Any]:
        """The distractor triples (negatives)."""


@dataclass(frozen=True)
class GoldColumns:
    """S*, S_stale and S_dist of a question list as columns (question index, key, validity)."""

    n_questions: int
    gold_q: np.ndarray
    gold_keys: pa.Array
    gold_valid: np.ndarray
    stale_q: np.ndarray
    stale_keys: pa.Array
    dist_q: np.ndarray
    dist_keys: pa.Array
    stale_defined: np.ndarray
    dist_defined: np.ndarray


def _negatives_of(q: GoldSource) -> tuple[list[str], list[str]]:
    """The keys of ``q``'s stale and distractor triples, its anchor facts left out.

    A fact in ``S_anchor`` is evidence the question needs to resolve its time (the event of "the year before X
    joined Y", which is also one of X's other spells in ``S_dist``): retrieving it is no wrong-time hit, and
    ranking it above the gold is no error (Outrank).
    """
    anchors = {_key_text(t) for t in getattr(q, "S_anchor", ())}
    return (
        [k for t in q.S_stale if (k := _key_text(t)) not in anchors],
        [k for t in q.S_dist if (k := _key_text(t)) not in anchors],
    )


def gold_columns(
    questions: Sequence[GoldSource],
    flags: Mapping[str, FunctionalFlags] | None = None,
    *,
    mode: ValidityMode = "certain",
) -> GoldColumns:
    """Flatten the questions' S* (with time validity) and negatives (defined only when functional)."""
    n = len(questions)
    gq: list[int] = []
    gk: list[str] = []
    valid: list[bool] = []
    negs: dict[str, tuple[list[int], list[str]]] = {"S_stale": ([], []), "S_dist": ([], [])}
    stale_def = np.zeros(n, dtype=bool)
    dist_def = np.zeros(n, dtype=bool)
    grans = {str(g): g for g in Granularity}
    for qi, q in enumerate(questions):
        tq = norm_time(q.t_query)
        g = grans.get(q.granularity or "year") or Granularity.parse(q.granularity or "year")
        as_of = norm_time(q.as_of)
        for t in q.S_star:
            _, _, _, ts, te = key = triple_key(t)
            gq.append(qi)
            gk.append(_key_text(key))
            valid.append(True if tq is None else time_valid(ts, te, tq, g, as_of, mode))
        stale, dist = _negatives_of(q)
        if stale or dist:
            f = flags.get(q.id) if flags else None
            stale_def[qi] = bool(stale) and (f is None or f.stale_functional)
            dist_def[qi] = bool(dist) and (f is None or f.dist_functional)
            for name, keys in (("S_stale", stale), ("S_dist", dist)):
                nq_, nk = negs[name]
                nq_.extend([qi] * len(keys))
                nk.extend(keys)

    def cols(qq: list[int], kk: list[str]) -> tuple[np.ndarray, pa.Array]:
        return np.asarray(qq, dtype=np.int64), pa.array(kk, type=pa.string())

    sq, sk = cols(*negs["S_stale"])
    dq, dk = cols(*negs["S_dist"])
    return GoldColumns(n, *cols(gq, gk), np.asarray(valid, dtype=bool), sq, sk, dq, dk, stale_def, dist_def)


@dataclass(frozen=True)
class HitColumns:
    """A run's hits as columns, ordered by question index then rank."""

    q: np.ndarray
    keys: pa.Array
    line_qids: tuple[str, ...] = ()


def _order(q: np.ndarray, rank: np.ndarray) -> np.ndarray:
    return np.lexsort((np.arange(q.size), rank, q))


def hits_from_run(run: Run, questions: Sequence[Question]) -> HitColumns:
    """Columns of a run's hits for ``questions`` (hits of other question ids are left out).

    A run read with ``read_run(..., columnar=True)`` is flattened in Arrow without building a Python
    object per hit; any other run is walked line by line.
    """
    table = run.columns
    if table is None:
        qi_of = {q.id: qi for qi, q in enumerate(questions)}
        per_question: list[list[Any]] = [[] for _ in questions]
        for line in run.lines:  # lines are in rank order already: each question's hits keep that order
            qi = qi_of.get(line.qid)
            if qi is not None:
                per_question[qi].extend(line.hits)
        return hits_from_triples(per_question, line_qids=run.qids)
    qids = table.column("qid").combine_chunks()
    hits = table.column("hits").combine_chunks()
    line_qi = pc.index_in(qids, value_set=pa.array([q.id for q in questions], type=pa.string()))
    parent = pc.list_parent_indices(hits).to_numpy()
    flat = pc.list_flatten(hits)
    qi = pc.take(line_qi, pa.array(parent, type=pa.int64()))
    keep = pc.is_valid(qi)
    # a missing rank is the hit's position in its list (as the line reader reads it)
    offsets = hits.offsets.to_numpy()
    position = np.arange(len(flat), dtype=np.float64) - offsets[parent] + 1
    rank = pc.fill_null(flat.field("rank"), pa.array(position)).to_numpy(zero_copy_only=False)
    flat = pc.filter(flat, keep)
    keep_np = keep.to_numpy(zero_copy_only=False)
    qarr = pc.filter(qi, keep).to_numpy(zero_copy_only=False).astype(np.int64)
    cols = [flat.field(k) for k in ("s", "r", "o", "t_start", "t_end")]
    return hits_from_arrays(qarr, *cols, rank=rank[keep_np], line_qids=run.qids)


def hits_from_triples(retrieved: Sequence[Iterable[Any]], *, line_qids: tuple[str, ...] = ()) -> HitColumns:
    """Hit columns from each question's retrieved triples, in rank order (any shape :func:`triple_key` reads)."""
    qq: list[int] = []
    kk: list[str] = []
    for qi, items in enumerate(retrieved):
        for h in items:
            qq.append(qi)
            kk.append(_key_text(h))
    return HitColumns(np.asarray(qq, dtype=np.int64), pa.array(kk, type=pa.string()), line_qids)


def hits_from_arrays(
    q: np.ndarray,
    s: pa.Array,
    r: pa.Array,
    o: pa.Array,
    t_start: pa.Array,
    t_end: pa.Array,
    *,
    rank: np.ndarray | None = None,
    line_qids: tuple[str, ...] = (),
) -> HitColumns:
    """Hit columns from arrays: question index per hit, s/r/o strings, raw time strings, optional rank.

    Times are normalised (each distinct value parsed once); hits are ordered by question, then rank
    (array order when ``rank`` is ``None``, ties kept in array order).
    """
    qarr = np.asarray(q, dtype=np.int64)
    rk = np.zeros(qarr.size) if rank is None else np.asarray(rank, dtype=np.float64)
    order = _order(qarr, rk)
    idx = pa.array(order, type=pa.int64())
    keys = _keys(
        s.take(idx), r.take(idx), o.take(idx), _norm_time_array(t_start).take(idx), _norm_time_array(t_end).take(idx)
    )
    return HitColumns(qarr[order], keys, line_qids)


@dataclass(frozen=True)
class RunScores:
    """One run's evidence per question (arrays as long as the question list) and its ranking measures.

    ``hits`` holds the ranked, de-duplicated hits the measures read; ``measures`` maps each requested
    measure's string (``nDCG@10``) to its per-question (numerators, denominators).
    """

    hits: RankedHits
    stale_hit: np.ndarray
    stale_defined: np.ndarray
    dist_hit: np.ndarray
    dist_defined: np.ndarray
    measures: Mapping[str, Values]

    @property
    def n_retrieved(self) -> np.ndarray:
        """Distinct hits per question."""
        return self.hits.n_retrieved

    @property
    def n_gold(self) -> np.ndarray:
        """Distinct S* triples per question."""
        return self.hits.n_gold

    @property
    def n_valid_hits(self) -> np.ndarray:
        """Hits that are time-valid gold, per question."""
        return self.hits.count(self.hits.relevant).astype(np.int64)

    @property
    def covered(self) -> np.ndarray:
        """1.0 where the question retrieved anything."""
        return (self.n_retrieved > 0).astype(np.float64)

    @property
    def ccr(self) -> np.ndarray:
        """CCR per question (0 or 1; defined for every question)."""
        return _CCR.values(self.hits)[0]

    @property
    def trp(self) -> Values:
        """TRP as (numerator, denominator): undefined (den 0) for empty retrievals."""
        return _TRP.values(self.hits)

    @property
    def wrong_reason(self) -> Values:
        """Stale or distractor hit while CCR is 0, over questions where a hit is defined."""
        den = self.stale_defined | self.dist_defined
        hit = (self.stale_hit & self.stale_defined) | (self.dist_hit & self.dist_defined)
        return (hit & (self.ccr == 0) & den).astype(np.float64), den.astype(np.float64)


@dataclass(frozen=True)
class _Pairs:
    """A run and its gold as ``int64`` codes ``question_index * n_keys + key_id`` (one key id per identity)."""

    n_keys: int
    gold: np.ndarray
    stale: np.ndarray
    dist: np.ndarray
    hits: np.ndarray


def _encode(gold: GoldColumns, hits: HitColumns) -> _Pairs:
    """Dictionary-encode every identity key once and turn each (question, key) into one integer."""
    enc = pc.dictionary_encode(pa.concat_arrays([gold.gold_keys, gold.stale_keys, gold.dist_keys, hits.keys]))
    ids = enc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    n_keys = max(len(enc.dictionary), 1)
    a, b, c = len(gold.gold_keys), len(gold.stale_keys), len(gold.dist_keys)
    return _Pairs(
        n_keys,
        gold.gold_q * n_keys + ids[:a],
        gold.stale_q * n_keys + ids[a : a + b],
        gold.dist_q * n_keys + ids[a + b : a + b + c],
        hits.q * n_keys + ids[a + b + c :],
    )


def _positions(pairs_sorted: np.ndarray, hits_sorted: np.ndarray, pos_sorted: np.ndarray) -> np.ndarray:
    """The 0-based rank of each of ``pairs_sorted`` among the kept hits (``inf``: not retrieved)."""
    found = _isin(pairs_sorted, hits_sorted, b_sorted=True)
    at = np.minimum(np.searchsorted(hits_sorted, pairs_sorted), max(hits_sorted.size - 1, 0))
    return np.where(found, pos_sorted[at] if pos_sorted.size else 0, np.inf)


def _negatives(gold: GoldColumns, pairs: _Pairs, gold_sorted: np.ndarray) -> np.ndarray:
    """The sorted distinct negative pairs of the questions whose negatives are defined, gold left out."""
    neg = np.concatenate([pairs.stale[gold.stale_defined[gold.stale_q]], pairs.dist[gold.dist_defined[gold.dist_q]]])
    neg = np.unique(neg)
    return neg[~_isin(neg, gold_sorted, b_sorted=True)]


def _rank(gold: GoldColumns, hits: HitColumns, pairs: _Pairs) -> tuple[RankedHits, np.ndarray, np.ndarray]:
    """The ranked hits (de-duplicated, first occurrence kept), the sorted distinct gold and hit pairs."""
    nq, n_keys = gold.n_questions, pairs.n_keys
    gp_u, g_first = _unique_first(pairs.gold)
    g_valid = gold.gold_valid[g_first]
    gq = gp_u // n_keys
    n_gold = np.bincount(gq, minlength=nq)[:nq]
    n_valid_gold = np.bincount(gq, weights=g_valid.astype(np.float64), minlength=nq)[:nq].astype(np.int64)

    hp_sorted, h_first = _unique_first(pairs.hits)
    keep = np.zeros(pairs.hits.size, dtype=bool)
    keep[h_first] = True
    hq = hits.q[keep]
    pos = np.arange(hq.size) - np.searchsorted(hq, hq, side="left")
    relevant = _isin(pairs.hits[keep], gp_u[g_valid], b_sorted=True)
    pos_sorted = pos[(np.cumsum(keep) - 1)[h_first]]  # the rank of each distinct hit pair, in pair order
    neg = _negatives(gold, pairs, gp_u)
    neg_q = neg // n_keys
    ranked = RankedHits(
        nq, hq, pos, relevant, np.bincount(hq, minlength=nq)[:nq], n_valid_gold, n_gold,
        n_valid_gold == n_gold, gq, _positions(gp_u, hp_sorted, pos_sorted), g_valid,
        neg_q, _positions(neg, hp_sorted, pos_sorted), np.bincount(neg_q, minlength=nq)[:nq],
    )  # fmt: skip
    return ranked, gp_u, hp_sorted


def _negative_hits(
    pairs: np.ndarray, gold_sorted: np.ndarray, hits_sorted: np.ndarray, n_keys: int, nq: int
) -> np.ndarray:
    """Per question: whether a hit is one of ``pairs`` (a negative set) that is not also gold."""
    pairs = pairs[~_isin(pairs, gold_sorted, b_sorted=True)]
    hit_pairs = pairs[_isin(pairs, hits_sorted, b_sorted=True)]
    return np.bincount(hit_pairs // n_keys, minlength=nq)[:nq] > 0


def evidence_rows(sc: RunScores, question_ids: Sequence[str]) -> list[EvidenceRow]:
    """The per-question evidence rows of a scored run (complexity and operator left empty for the caller)."""
    trp_num, trp_den = sc.trp
    wr_num, wr_den = sc.wrong_reason
    cols = zip(
        question_ids,
        sc.n_retrieved.tolist(),
        sc.n_gold.tolist(),
        sc.n_valid_hits.tolist(),
        trp_num.tolist(),
        trp_den.tolist(),
        sc.ccr.tolist(),
        sc.stale_hit.tolist(),
        sc.stale_defined.tolist(),
        sc.dist_hit.tolist(),
        sc.dist_defined.tolist(),
        wr_num.tolist(),
        wr_den.tolist(),
        strict=True,
    )
    return [
        EvidenceRow(qid, "", "", nr, ng, nh, t if td else None, c, sh if sd else None, dh if dd else None,
                    bool(w) if wd else None)
        for qid, nr, ng, nh, t, td, c, sh, sd, dh, dd, w, wd in cols
    ]  # fmt: skip


def score_run(gold: GoldColumns, hits: HitColumns, measures: Sequence[Measure] = ()) -> RunScores:
    """Evidence scores and ranking measures of one run for every question of ``gold``.

    Identity keys are dictionary-encoded to integers and every question/triple pair becomes one
    ``int64`` code; de-duplication, gold membership and the negative hits are then sorted-array
    operations, and per-question sums are ``numpy.bincount``.
    """
    pairs = _encode(gold, hits)
    ranked, gold_sorted, hits_sorted = _rank(gold, hits, pairs)
    nq = gold.n_questions
    stale = _negative_hits(pairs.stale, gold_sorted, hits_sorted, pairs.n_keys, nq)
    dist = _negative_hits(pairs.dist, gold_sorted, hits_sorted, pairs.n_keys, nq)
    values = {str(m): m.values(ranked) for m in measures}
    return RunScores(ranked, stale, gold.stale_defined, dist, gold.dist_defined, values)
