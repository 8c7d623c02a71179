"""Ranking measures over run files, with time-valid relevance.

A measure is a hashable value that parses from and prints to the same string
(``Measure.parse("nDCG@10")`` prints as ``nDCG@10``); its implementation lives apart, in a registry
from name to function. Relevance is *time-valid gold*: a hit is relevant when its triple identity
is in the question's time-valid S* (see :mod:`chronoqa.score.evidence`); the number of relevant
items is the number of distinct time-valid S* triples. Hits are de-duplicated by identity (first
occurrence kept) before ranking.

* ``R@k`` recall: relevant hits in the top k / relevant items.
* ``P@k`` precision: relevant hits in the top k / k (trec_eval's convention).
* ``nDCG@k``: binary-gain DCG ``sum rel_i / log2(i + 1)`` over ranks ``i <= k``, over the ideal DCG.
* ``MRR`` / ``MRR@k``: reciprocal rank of the first relevant hit (within k), 0 when none.
* ``TRP`` / ``TRP@k`` and ``CCR`` / ``CCR@k``: TempBench's measures over the (top-k) hits.

A question whose run is empty (or missing) scores 0 on R, P, nDCG, MRR and CCR, never dropped; TRP is
undefined for it (TempBench's definition). A question with no time-valid gold has no relevant items:
R, nDCG and MRR are undefined for it and it is excluded from their averages (reported as ``n``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chronoqa.errors import UnknownNameError
from chronoqa.score.evidence import PreparedQuestion, TripleKey

__all__ = ["DEFAULT_MEASURES", "MEASURES", "Measure", "MeasureFn", "compute", "parse_measures"]

MeasureFn = Callable[[PreparedQuestion, Sequence[TripleKey], "int | None"], "float | None"]


def _cut(keys: Sequence[TripleKey], k: int | None) -> Sequence[TripleKey]:
    return keys if k is None else keys[:k]


def _recall(pq: PreparedQuestion, keys: Sequence[TripleKey], k: int | None) -> float | None:
    n_rel = len(pq.valid_gold)
    if n_rel == 0:
        return None
    return sum(1 for x in _cut(keys, k) if x in pq.valid_gold) / n_rel


def _precision(pq: PreparedQuestion, keys: Sequence[TripleKey], k: int | None) -> float | None:
    top = _cut(keys, k)
    denom = k if k is not None else len(top)
    if denom == 0:
        return 0.0
    return sum(1 for x in top if x in pq.valid_gold) / denom


def _ndcg(pq: PreparedQuestion, keys: Sequence[TripleKey], k: int | None) -> float | None:
    n_rel = len(pq.valid_gold)
    if n_rel == 0:
        return None
    dcg = sum(1.0 / math.log2(i + 2) for i, x in enumerate(_cut(keys, k)) if x in pq.valid_gold)
    ideal_n = n_rel if k is None else min(n_rel, k)
    idcg = sum(1.0 / math.log2(i + 2) for i in range(ideal_n))
    return dcg / idcg


def _mrr(pq: PreparedQuestion, keys: Sequence[TripleKey], k: int | None) -> float | None:
    if not pq.valid_gold:
        return None
    for i, x in enumerate(_cut(keys, k)):
        if x in pq.valid_gold:
            return 1.0 / (i + 1)
    return 0.0


def _trp(pq: PreparedQuestion, keys: Sequence[TripleKey], k: int | None) -> float | None:
    top = _cut(keys, k)
    if not top:
        return None
    return sum(1 for x in top if x in pq.valid_gold) / len(top)


def _ccr(pq: PreparedQuestion, keys: Sequence[TripleKey], k: int | None) -> float | None:
    return 1.0 if pq.gold_all_valid and pq.gold.issubset(_cut(keys, k)) else 0.0


MEASURES: dict[str, MeasureFn] = {
    "R": _recall,
    "P": _precision,
    "nDCG": _ndcg,
    "MRR": _mrr,
    "TRP": _trp,
    "CCR": _ccr,
}
_ALIASES = {"recall": "R", "precision": "P", "rr": "MRR", "ndcg_cut": "nDCG"}


@dataclass(frozen=True, slots=True, order=True)
class Measure:
    """A measure spec: a registered name and an optional rank cutoff (``nDCG@10``)."""

    name: str
    cutoff: int | None = None

    @classmethod
    def parse(cls, text: str | Measure) -> Measure:
        """Read ``R@10``, ``nDCG@10``, ``MRR``, ``TRP@5`` (names are case-insensitive)."""
        if isinstance(text, Measure):
            return text
        raw = text.strip()
        name, _, cut = raw.partition("@")
        lookup = {k.lower(): k for k in MEASURES} | _ALIASES
        canon = lookup.get(name.strip().lower())
        if canon is None:
            raise UnknownNameError("measure", name.strip(), MEASURES)
        cutoff: int | None = None
        if cut:
            if not cut.strip().isdigit() or int(cut) < 1:
                raise ValueError(f"measure {raw!r}: the cutoff after '@' must be a positive integer, e.g. nDCG@10")
            cutoff = int(cut)
        return cls(canon, cutoff)

    def __str__(self) -> str:
        return self.name if self.cutoff is None else f"{self.name}@{self.cutoff}"

    def __call__(self, pq: PreparedQuestion, keys: Sequence[TripleKey]) -> float | None:
        """This measure's value for one question (``None`` when undefined for it)."""
        return MEASURES[self.name](pq, keys, self.cutoff)


DEFAULT_MEASURES: tuple[Measure, ...] = tuple(Measure.parse(m) for m in ("R@10", "nDCG@10", "MRR", "TRP", "CCR"))


def parse_measures(texts: Sequence[str | Measure]) -> tuple[Measure, ...]:
    """Parse several measures, keeping order and dropping repeats."""
    return tuple(dict.fromkeys(Measure.parse(t) for t in texts))


def compute(measure: Measure | str, pq: PreparedQuestion, keys: Sequence[TripleKey]) -> float | None:
    """Value of ``measure`` for one question's ranked, de-duplicated hit identities."""
    return Measure.parse(measure)(pq, keys)
