"""Columnar evidence scoring over whole runs with pyarrow and numpy.

The definitions are those of :mod:`chronoqa.score.evidence` and :mod:`chronoqa.score.measures`.

Each triple is reduced to one key string (``s``, ``r``, ``o`` and both normalised times joined by a
separator), keys are dictionary-encoded to integers, and every question/triple pair becomes one
``int64`` code ``question_index * n_keys + key_id``. De-duplication, membership in the time-valid
gold, CCR and the negative hits are then sorted-array operations, and per-question sums are
``numpy.bincount``. The per-question scorer (:func:`chronoqa.score.evidence.score_evidence`) is the
reference implementation; tests check that both give the same numbers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from chronoqa.artifacts.release import FunctionalFlags
from chronoqa.artifacts.runs import Run
from chronoqa.records import Question
from chronoqa.score.evidence import norm_time, time_valid, triple_key
from chronoqa.score.measures import Measure, MeasureProvider
from chronoqa.time import Granularity, ValidityMode

__all__ = [
    "COLUMNAR",
    "GoldColumns",
    "HitColumns",
    "RunScores",
    "gold_columns",
    "hits_from_arrays",
    "hits_from_run",
    "score_run",
]

_SEP = "\x1f"
_NULL = "\x00"


def _keys(s: pa.Array, r: pa.Array, o: pa.Array, ts: pa.Array, te: pa.Array) -> pa.Array:
    return pc.binary_join_element_wise(s, r, o, pc.fill_null(ts, _NULL), pc.fill_null(te, _NULL), _SEP)


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


def gold_columns(
    questions: Sequence[Question],
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
        g = grans.get(q.granularity) or Granularity.parse(q.granularity or "year")
        as_of = norm_time(q.as_of)
        for t in q.S_star:
            s, r, o, ts, te = triple_key(t)
            gq.append(qi)
            gk.append(_SEP.join((s, r, o, _NULL if ts is None else ts, _NULL if te is None else te)))
            valid.append(True if tq is None else time_valid(ts, te, tq, g, as_of, mode))
        if q.S_stale or q.S_dist:
            f = flags.get(q.id) if flags else None
            stale_def[qi] = bool(q.S_stale) and (f is None or f.stale_functional)
            dist_def[qi] = bool(q.S_dist) and (f is None or f.dist_functional)
            for name, items in (("S_stale", q.S_stale), ("S_dist", q.S_dist)):
                nq_, nk = negs[name]
                for t in items:
                    s, r, o, ts, te = triple_key(t)
                    nq_.append(qi)
                    nk.append(_SEP.join((s, r, o, _NULL if ts is None else ts, _NULL if te is None else te)))

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
        qq: list[int] = []
        kk: list[str] = []
        for line in run.lines:
            qi = qi_of.get(line.qid)
            if qi is None:
                continue
            for h in line.hits:
                s, r, o, ts, te = triple_key(h)
                qq.append(qi)
                kk.append(_SEP.join((s, r, o, _NULL if ts is None else ts, _NULL if te is None else te)))
        # lines are in rank order already: keep each question's hits in that order
        order = np.argsort(np.asarray(qq, dtype=np.int64), kind="stable")
        keys = pa.array(kk, type=pa.string()).take(pa.array(order, type=pa.int64()))
        return HitColumns(np.asarray(qq, dtype=np.int64)[order], keys, run.qids)
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
    """Per-question evidence arrays (length = number of questions) and the measures' (num, den)."""

    n_retrieved: np.ndarray
    n_gold: np.ndarray
    gold_all_valid: np.ndarray
    n_valid_hits: np.ndarray
    ccr: np.ndarray
    stale_hit: np.ndarray
    stale_defined: np.ndarray
    dist_hit: np.ndarray
    dist_defined: np.ndarray
    measures: Mapping[str, tuple[np.ndarray, np.ndarray]]

    @property
    def covered(self) -> np.ndarray:
        """1.0 where the question retrieved anything."""
        return (self.n_retrieved > 0).astype(np.float64)

    @property
    def trp(self) -> tuple[np.ndarray, np.ndarray]:
        """TRP as (numerator, denominator): undefined (den 0) for empty retrievals."""
        den = self.covered
        num = np.divide(self.n_valid_hits, self.n_retrieved, out=np.zeros(den.size), where=self.n_retrieved > 0)
        return num, den

    @property
    def wrong_reason(self) -> tuple[np.ndarray, np.ndarray]:
        """Stale or distractor hit while CCR is 0, over questions where a hit is defined."""
        den = self.stale_defined | self.dist_defined
        hit = (self.stale_hit & self.stale_defined) | (self.dist_hit & self.dist_defined)
        return (hit & (self.ccr == 0) & den).astype(np.float64), den.astype(np.float64)


class _Ctx:
    """Shared intermediate arrays of one run for the measure implementations."""

    def __init__(
        self, nq: int, hq: np.ndarray, hp: np.ndarray, pos: np.ndarray, rel: np.ndarray, gp_u: np.ndarray, n_keys: int
    ) -> None:
        self.nq, self.hq, self.hp, self.pos, self.rel = nq, hq, hp, pos, rel
        self.gp_u, self.n_keys = gp_u, n_keys

    def count(self, mask: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        w = mask.astype(np.float64) if weights is None else np.where(mask, weights, 0.0)
        return np.bincount(self.hq, weights=w, minlength=self.nq)[: self.nq]


def _cut(ctx: _Ctx, k: int | None) -> np.ndarray:
    return np.ones(ctx.pos.size, dtype=bool) if k is None else ctx.pos < k


FastMeasure = Callable[[_Ctx, "RunScores", np.ndarray, "int | None"], tuple[np.ndarray, np.ndarray]]


def _f_recall(ctx: _Ctx, sc: RunScores, n_rel: np.ndarray, k: int | None) -> tuple[np.ndarray, np.ndarray]:
    den = (n_rel > 0).astype(np.float64)
    got = ctx.count(ctx.rel & _cut(ctx, k))
    return np.divide(got, n_rel, out=np.zeros(ctx.nq), where=n_rel > 0), den


def _f_precision(ctx: _Ctx, sc: RunScores, n_rel: np.ndarray, k: int | None) -> tuple[np.ndarray, np.ndarray]:
    got = ctx.count(ctx.rel & _cut(ctx, k))
    denom = np.full(ctx.nq, float(k)) if k is not None else sc.n_retrieved.astype(np.float64)
    return np.divide(got, denom, out=np.zeros(ctx.nq), where=denom > 0), np.ones(ctx.nq)


def _f_ndcg(ctx: _Ctx, sc: RunScores, n_rel: np.ndarray, k: int | None) -> tuple[np.ndarray, np.ndarray]:
    gains = 1.0 / np.log2(ctx.pos + 2.0)
    dcg = ctx.count(ctx.rel & _cut(ctx, k), gains)
    ideal_n = n_rel if k is None else np.minimum(n_rel, k)
    table = np.concatenate([[0.0], np.cumsum(1.0 / np.log2(np.arange(int(ideal_n.max(initial=0))) + 2.0))])
    idcg = table[ideal_n]
    return np.divide(dcg, idcg, out=np.zeros(ctx.nq), where=n_rel > 0), (n_rel > 0).astype(np.float64)


def _f_mrr(ctx: _Ctx, sc: RunScores, n_rel: np.ndarray, k: int | None) -> tuple[np.ndarray, np.ndarray]:
    first = np.full(ctx.nq, np.inf)
    m = ctx.rel & _cut(ctx, k)
    np.minimum.at(first, ctx.hq[m], ctx.pos[m].astype(np.float64))
    rr = np.where(np.isfinite(first), 1.0 / (first + 1.0), 0.0)
    return np.where(n_rel > 0, rr, 0.0), (n_rel > 0).astype(np.float64)


def _f_trp(ctx: _Ctx, sc: RunScores, n_rel: np.ndarray, k: int | None) -> tuple[np.ndarray, np.ndarray]:
    n_top = ctx.count(_cut(ctx, k))
    got = ctx.count(ctx.rel & _cut(ctx, k))
    return np.divide(got, n_top, out=np.zeros(ctx.nq), where=n_top > 0), (n_top > 0).astype(np.float64)


def _f_ccr(ctx: _Ctx, sc: RunScores, n_rel: np.ndarray, k: int | None) -> tuple[np.ndarray, np.ndarray]:
    if k is None:
        return sc.ccr.astype(np.float64), np.ones(ctx.nq)
    found = _isin(ctx.gp_u, ctx.hp[ctx.pos < k])
    n_found = np.bincount(ctx.gp_u // ctx.n_keys, weights=found.astype(np.float64), minlength=ctx.nq)[: ctx.nq]
    ok = (sc.n_gold > 0) & sc.gold_all_valid & (n_found == sc.n_gold)
    return ok.astype(np.float64), np.ones(ctx.nq)


COLUMNAR = MeasureProvider(
    "columnar", {"R": _f_recall, "P": _f_precision, "nDCG": _f_ndcg, "MRR": _f_mrr, "TRP": _f_trp, "CCR": _f_ccr}
)
"""The columnar measure provider (see :mod:`chronoqa.score.measures`): whole runs as arrays."""


def score_run(gold: GoldColumns, hits: HitColumns, measures: Sequence[Measure] = ()) -> RunScores:
    """Evidence scores and ranking measures of one run for every question of ``gold``."""
    nq = gold.n_questions
    enc = pc.dictionary_encode(pa.concat_arrays([gold.gold_keys, gold.stale_keys, gold.dist_keys, hits.keys]))
    ids = enc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    n_keys = max(len(enc.dictionary), 1)
    a, b, c = len(gold.gold_keys), len(gold.stale_keys), len(gold.dist_keys)
    gp = gold.gold_q * n_keys + ids[:a]
    sp = gold.stale_q * n_keys + ids[a : a + b]
    dp = gold.dist_q * n_keys + ids[a + b : a + b + c]
    hp_all = hits.q * n_keys + ids[a + b + c :]

    gp_u, g_first = _unique_first(gp)
    g_valid_u = gold.gold_valid[g_first]
    gq_u = gp_u // n_keys
    n_gold = np.bincount(gq_u, minlength=nq)[:nq]
    n_valid_gold = np.bincount(gq_u, weights=g_valid_u.astype(np.float64), minlength=nq)[:nq].astype(np.int64)
    valid_pairs = gp_u[g_valid_u]

    # de-duplicate hits by identity within a question, keeping the first (best-ranked) occurrence
    hp_sorted, h_first = _unique_first(hp_all)
    keep = np.zeros(hp_all.size, dtype=bool)
    keep[h_first] = True
    hp = hp_all[keep]
    hq = hits.q[keep]
    starts = np.searchsorted(hq, hq, side="left")
    pos = np.arange(hq.size) - starts
    rel = _isin(hp, valid_pairs, b_sorted=True)
    n_ret = np.bincount(hq, minlength=nq)[:nq]
    n_hits = np.bincount(hq, weights=rel.astype(np.float64), minlength=nq)[:nq].astype(np.int64)
    found = _isin(gp_u, hp_sorted, b_sorted=True)
    n_found = np.bincount(gq_u, weights=found.astype(np.float64), minlength=nq)[:nq].astype(np.int64)
    ccr = ((n_gold > 0) & (n_valid_gold == n_gold) & (n_found == n_gold)).astype(np.float64)

    def neg_hits(pairs: np.ndarray) -> np.ndarray:
        pairs = pairs[~_isin(pairs, gp_u, b_sorted=True)]
        hit_pairs = pairs[_isin(pairs, hp_sorted, b_sorted=True)]
        return np.bincount(hit_pairs // n_keys, minlength=nq)[:nq] > 0

    sc = RunScores(
        n_ret, n_gold, n_valid_gold == n_gold, n_hits, ccr, neg_hits(sp), gold.stale_defined, neg_hits(dp),
        gold.dist_defined, {},
    )  # fmt: skip
    ctx = _Ctx(nq, hq, hp, pos, rel, gp_u, n_keys)
    impls: list[FastMeasure] = [COLUMNAR.implementation(m) for m in measures]
    values = {str(m): fn(ctx, sc, n_valid_gold, m.cutoff) for m, fn in zip(measures, impls, strict=True)}
    return dataclasses.replace(sc, measures=values)
