"""Ranking measures over a run's ranked hits, with time-valid relevance.

A measure is a hashable value that parses from and prints to the same string
(``Measure.parse("nDCG@10")`` prints as ``nDCG@10``; ir_measures' design). :data:`MEASURES` names
every measure once, with its implementation; each implementation's docstring is the measure's
definition. Relevance is *time-valid gold*: a hit is relevant when its triple identity is in the
question's time-valid S* (see :mod:`chronoqa.score.evidence`); the number of relevant items is the
number of distinct time-valid S* triples. Hits are de-duplicated by identity (first occurrence kept)
before ranking; :func:`chronoqa.score.fast.score_run` does that and hands the measures a
:class:`RankedHits`.

Every measure is computed for all questions of a run at once, as a pair of arrays (numerators,
denominators): a question whose denominator is 0 is undefined for the measure and left out of its
average (reported as ``n``). A question whose run is empty (or missing) scores 0 on R, P, nDCG, MRR
and CCR, never dropped; TRP is undefined for it (TempBench's definition). A question with no time-valid
gold has no relevant items: R, nDCG and MRR are undefined for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from chronoqa.errors import UnknownNameError
from chronoqa.spec import NameTable, Spec, SpecError

__all__ = [
    "MEASURES",
    "Measure",
    "MeasureFn",
    "RankedHits",
    "Values",
    "parse_measures",
]

Values = tuple[np.ndarray, np.ndarray]
"""A measure's per-question (numerators, denominators); a question with denominator 0 is undefined."""


@dataclass(frozen=True)
class RankedHits:
    """A run's de-duplicated hits and its questions' gold, as arrays (what every measure reads).

    Per hit, grouped by question and best rank first: ``q`` (question index), ``pos`` (0-based rank
    within its question, after de-duplication), ``relevant`` (the hit is time-valid gold). Per question:
    ``n_retrieved`` (distinct hits), ``n_relevant`` (distinct time-valid S* triples), ``n_gold`` (distinct
    S* triples) and ``gold_all_valid`` (every S* triple is time-valid). Per distinct S* triple:
    ``gold_q`` (question index), ``gold_pos`` (the 0-based rank at which it was retrieved; ``inf``
    when it was not) and ``gold_valid`` (it is time-valid). Per distinct negative triple (S_stale and
    S_dist of the questions whose negatives are defined, not also gold): ``neg_q`` and ``neg_pos`` (as
    for gold); per question ``n_neg`` (how many).
    """

    n_questions: int
    q: np.ndarray
    pos: np.ndarray
    relevant: np.ndarray
    n_retrieved: np.ndarray
    n_relevant: np.ndarray
    n_gold: np.ndarray
    gold_all_valid: np.ndarray
    gold_q: np.ndarray
    gold_pos: np.ndarray
    gold_valid: np.ndarray
    neg_q: np.ndarray
    neg_pos: np.ndarray
    n_neg: np.ndarray

    def count(self, mask: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """Per-question sums of ``weights`` (1 when ``None``) over the hits where ``mask`` holds."""
        w = mask.astype(np.float64) if weights is None else np.where(mask, weights, 0.0)
        return np.bincount(self.q, weights=w, minlength=self.n_questions)[: self.n_questions]

    def top(self, k: int | None) -> np.ndarray:
        """The hits ranked within the first ``k`` (every hit when ``k`` is ``None``)."""
        return np.ones(self.pos.size, dtype=bool) if k is None else self.pos < k


def _ratio(num: np.ndarray, den: np.ndarray, defined: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros(num.size), where=defined)


def recall(h: RankedHits, k: int | None) -> Values:
    """``R@k``: relevant hits in the top k / relevant items; undefined for a question with no relevant items."""
    has_rel = h.n_relevant > 0
    return _ratio(h.count(h.relevant & h.top(k)), h.n_relevant, has_rel), has_rel.astype(np.float64)


def precision(h: RankedHits, k: int | None) -> Values:
    """``P@k``: relevant hits in the top k / k (trec_eval's convention; ``P``: / hits retrieved, 0 for none)."""
    denom = np.full(h.n_questions, float(k)) if k is not None else h.n_retrieved.astype(np.float64)
    return _ratio(h.count(h.relevant & h.top(k)), denom, denom > 0), np.ones(h.n_questions)


def ndcg(h: RankedHits, k: int | None) -> Values:
    """``nDCG@k``: binary-gain DCG ``sum rel_i / log2(i + 1)`` over ranks ``i <= k``, over the ideal DCG.

    The ideal ranking puts ``min(relevant items, k)`` relevant hits first; undefined for a question with
    no relevant items.
    """
    dcg = h.count(h.relevant & h.top(k), 1.0 / np.log2(h.pos + 2.0))
    ideal_n = h.n_relevant if k is None else np.minimum(h.n_relevant, k)
    table = np.concatenate([[0.0], np.cumsum(1.0 / np.log2(np.arange(int(ideal_n.max(initial=0))) + 2.0))])
    has_rel = h.n_relevant > 0
    return _ratio(dcg, table[ideal_n], has_rel), has_rel.astype(np.float64)


def reciprocal_rank(h: RankedHits, k: int | None) -> Values:
    """``MRR`` / ``MRR@k``: 1 / rank of the first relevant hit (within k), 0 when none.

    Undefined for a question with no relevant items.
    """
    first = np.full(h.n_questions, np.inf)
    m = h.relevant & h.top(k)
    np.minimum.at(first, h.q[m], h.pos[m].astype(np.float64))
    rr = np.where(np.isfinite(first), 1.0 / (first + 1.0), 0.0)
    has_rel = h.n_relevant > 0
    return np.where(has_rel, rr, 0.0), has_rel.astype(np.float64)


def trp(h: RankedHits, k: int | None) -> Values:
    """``TRP`` / ``TRP@k``: TempBench's temporal retrieval precision, relevant hits / hits (in the top k).

    Undefined for a question that retrieved nothing.
    """
    n_top = h.count(h.top(k))
    return _ratio(h.count(h.relevant & h.top(k)), n_top, n_top > 0), (n_top > 0).astype(np.float64)


def ccr(h: RankedHits, k: int | None) -> Values:
    """``CCR`` / ``CCR@k``: TempBench's complete chain retrieval, 1 when every S* triple is time-valid and found.

    Found means retrieved (within the top k for ``CCR@k``); 0 otherwise, and an empty S* scores 0.
    """
    cut = np.inf if k is None else k
    n_found = np.bincount(h.gold_q, weights=(h.gold_pos < cut).astype(np.float64), minlength=h.n_questions)
    ok = (h.n_gold > 0) & h.gold_all_valid & (n_found[: h.n_questions] == h.n_gold)
    return ok.astype(np.float64), np.ones(h.n_questions)


def outrank(h: RankedHits, k: int | None) -> Values:
    """``Outrank`` / ``Outrank@k``: 1 when every time-valid S* triple is retrieved (within k) above every negative.

    The negatives are the question's stale and distractor triples (where they are defined: functional,
    and neither gold nor an anchor fact of the question); a negative that was not retrieved ranks below
    everything. This is the question a
    time-aware retriever answers and a time-blind one does not: does the fact true at ``t_query`` come
    before the facts of the same subject and relation true at other times? Undefined for a question with
    no time-valid gold or no negative.
    """
    nq = h.n_questions
    cut = np.inf if k is None else float(k)
    worst_gold = np.full(nq, -1.0)
    np.maximum.at(worst_gold, h.gold_q[h.gold_valid], h.gold_pos[h.gold_valid])
    best_neg = np.full(nq, np.inf)
    np.minimum.at(best_neg, h.neg_q, h.neg_pos)
    defined = (h.n_relevant > 0) & (h.n_neg > 0)
    ok = defined & (worst_gold < cut) & (worst_gold < best_neg)
    return ok.astype(np.float64), defined.astype(np.float64)


MeasureFn = Callable[[RankedHits, "int | None"], Values]

MEASURES: NameTable[MeasureFn] = NameTable(
    "measure",
    (
        ("R", recall),
        ("P", precision),
        ("nDCG", ndcg),
        ("MRR", reciprocal_rank),
        ("TRP", trp),
        ("CCR", ccr),
        ("Outrank", outrank),
    ),
)
"""Every measure by name, with its implementation (whose docstring is the definition)."""

_ALIASES = {"recall": "R", "precision": "P", "rr": "MRR", "ndcg_cut": "nDCG"}


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

    @property
    def definition(self) -> str:
        """The measure's definition: the first paragraph of its implementation's docstring."""
        doc = MEASURES[self.name].__doc__ or ""
        return " ".join(doc.split("\n\n", 1)[0].split())

    def values(self, hits: RankedHits) -> Values:
        """This measure's per-question (numerators, denominators) over a run's ranked hits."""
        return MEASURES[self.name](hits, self.cutoff)


def parse_measures(texts: Sequence[str | Measure]) -> tuple[Measure, ...]:
    """Parse several measures, keeping order and dropping repeats."""
    return tuple(dict.fromkeys(Measure.parse(t) for t in texts))
