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

The registry (ir_measures' design): :data:`MEASURES` names every measure once, with its definition;
each *provider* implements some of them and says which (:attr:`MeasureProvider.supports`):
``reference`` (this module, one question at a time, the definitions above written out) and
``columnar`` (:mod:`chronoqa.score.fast`, whole runs as arrays). :func:`provider` returns either;
the tests check that both give the same values on the same inputs.

A question whose run is empty (or missing) scores 0 on R, P, nDCG, MRR and CCR, never dropped; TRP is
undefined for it (TempBench's definition). A question with no time-valid gold has no relevant items:
R, nDCG and MRR are undefined for it and it is excluded from their averages (reported as ``n``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.score.evidence import PreparedQuestion, TripleKey
from chronoqa.spec import NameTable, Spec, SpecError

__all__ = [
    "DEFAULT_MEASURES",
    "MEASURES",
    "REFERENCE",
    "Measure",
    "MeasureFn",
    "MeasureProvider",
    "compute",
    "parse_measures",
    "provider",
    "provider_names",
]

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


MEASURES: NameTable[str] = NameTable(
    "measure",
    (
        ("R", "recall: relevant hits in the top k / relevant items"),
        ("P", "precision: relevant hits in the top k / k"),
        ("nDCG", "binary-gain nDCG over the top k"),
        ("MRR", "reciprocal rank of the first relevant hit (within k)"),
        ("TRP", "TempBench's temporal retrieval precision over the (top-k) hits"),
        ("CCR", "TempBench's complete chain retrieval over the (top-k) hits"),
    ),
)
"""Every measure by name, with a one-line definition (the module docstring has the full ones)."""

_ALIASES = {"recall": "R", "precision": "P", "rr": "MRR", "ndcg_cut": "nDCG"}


@dataclass(frozen=True)
class MeasureProvider:
    """One implementation of (some of) the measures: a name and the measure name -> function table."""

    name: str
    implementations: Mapping[str, Any]

    @property
    def supports(self) -> frozenset[str]:
        """The measure names this provider implements."""
        return frozenset(self.implementations)

    def implementation(self, measure: Measure) -> Any:
        """The function of ``measure``; an unsupported one raises :class:`ChronoqaError` naming the providers."""
        fn = self.implementations.get(measure.name)
        if fn is None:
            raise ChronoqaError(
                f"measure {measure} is not supported by the {self.name} provider (it supports "
                f"{', '.join(sorted(self.supports))})"
            )
        return fn


REFERENCE = MeasureProvider(
    "reference", {"R": _recall, "P": _precision, "nDCG": _ndcg, "MRR": _mrr, "TRP": _trp, "CCR": _ccr}
)
"""The per-question provider: the definitions written out, one question at a time."""


def _columnar() -> MeasureProvider:
    from chronoqa.score.fast import COLUMNAR

    return COLUMNAR


_PROVIDERS: NameTable[Callable[[], MeasureProvider]] = NameTable(
    "measure provider", (("reference", lambda: REFERENCE), ("columnar", _columnar))
)


def provider(name: str) -> MeasureProvider:
    """The measure provider called ``name``: ``reference`` or ``columnar`` (imported on first use)."""
    return _PROVIDERS[name]()


def provider_names() -> list[str]:
    """Every provider's name."""
    return _PROVIDERS.names()


@dataclass(frozen=True, slots=True, order=True)
class Measure:
    """A measure spec: a registered name and an optional rank cutoff (``nDCG@10``)."""

    name: str
    cutoff: int | None = None

    @classmethod
    def parse(cls, text: str | Measure) -> Measure:
        """Read ``R@10``, ``nDCG@10``, ``MRR``, ``TRP@5`` (names are case-insensitive; one spec grammar)."""
        if isinstance(text, Measure):
            return text
        spec = Spec.parse(text)
        if spec.args or spec.params:
            raise SpecError(f"measure {text!r}: expected NAME or NAME@cutoff, e.g. nDCG@10")
        lookup = {k.lower(): k for k in MEASURES} | _ALIASES
        canon = lookup.get(spec.name.lower())
        if canon is None:
            raise UnknownNameError("measure", spec.name, MEASURES)
        if spec.at is not None and spec.at < 1:
            raise ValueError(f"measure {text!r}: the cutoff after '@' must be a positive integer, e.g. nDCG@10")
        return cls(canon, spec.at)

    def __str__(self) -> str:
        return self.name if self.cutoff is None else f"{self.name}@{self.cutoff}"

    def __call__(self, pq: PreparedQuestion, keys: Sequence[TripleKey]) -> float | None:
        """This measure's value for one question (``None`` when undefined for it)."""
        fn: MeasureFn = REFERENCE.implementation(self)
        return fn(pq, keys, self.cutoff)


DEFAULT_MEASURES: tuple[Measure, ...] = tuple(Measure.parse(m) for m in ("R@10", "nDCG@10", "MRR", "TRP", "CCR"))


def parse_measures(texts: Sequence[str | Measure]) -> tuple[Measure, ...]:
    """Parse several measures, keeping order and dropping repeats."""
    return tuple(dict.fromkeys(Measure.parse(t) for t in texts))


def compute(measure: Measure | str, pq: PreparedQuestion, keys: Sequence[TripleKey]) -> float | None:
    """Value of ``measure`` for one question's ranked, de-duplicated hit identities."""
    return Measure.parse(measure)(pq, keys)
