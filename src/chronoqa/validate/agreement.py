"""Agreement between annotators on nominal judgments: Cohen's kappa, Krippendorff's alpha, bootstrap CIs.

Ratings are given per item as a mapping ``annotator -> value`` (missing or ``None``: not rated).
Cohen's kappa is computed over the items both annotators rated; Krippendorff's alpha (nominal metric)
over the pairable items (rated by at least two annotators) and handles missing ratings. The bootstrap
resamples items with replacement, seeded from ``(seed, name)`` (:func:`chronoqa.score.stats.rng_for`).

Krippendorff's alpha is the ``krippendorff`` package's. Cohen's kappa is written here: its two lines
(observed and chance agreement) do not justify a dependency on statsmodels or scikit-learn, neither of
which chronoqa otherwise needs; the tests check it against scikit-learn's ``cohen_kappa_score`` where
that is installed, and against a hand-worked value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import krippendorff
import numpy as np

from chronoqa.score.stats import rng_for

__all__ = ["Agreement", "agreement", "cohen_kappa", "krippendorff_alpha"]

Ratings = Sequence[Mapping[str, str | None]]


def _pairs(ratings: Ratings, a: str, b: str) -> list[tuple[str, str]]:
    out = []
    for item in ratings:
        va, vb = item.get(a), item.get(b)
        if va is not None and vb is not None:
            out.append((va, vb))
    return out


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Cohen's kappa of two annotators' paired ratings; ``None`` when chance agreement is 1 (undefined)."""
    n = len(pairs)
    if n == 0:
        return None
    po = sum(1 for x, y in pairs if x == y) / n
    ca, cb = Counter(x for x, _ in pairs), Counter(y for _, y in pairs)
    pe = sum(ca[c] * cb[c] for c in set(ca) | set(cb)) / (n * n)
    if pe >= 1.0:
        return None
    return (po - pe) / (1.0 - pe)


def _value_counts(ratings: Ratings) -> np.ndarray:
    """Items × values matrix: how many annotators gave item ``i`` value ``j`` (values sorted)."""
    values = sorted({v for item in ratings for v in item.values() if v is not None})
    column = {v: j for j, v in enumerate(values)}
    counts = np.zeros((len(ratings), len(values)), dtype=np.float64)
    for i, item in enumerate(ratings):
        for v in item.values():
            if v is not None:
                counts[i, column[v]] += 1.0
    return counts


def _alpha_of_counts(counts: np.ndarray) -> float | None:
    """Nominal Krippendorff's alpha of a value-count matrix (``krippendorff.alpha``).

    ``None`` when fewer than two values occur in the pairable items (expected disagreement 0) or no item
    is pairable.
    """
    pairable = counts[counts.sum(axis=1) >= 2]
    used = pairable[:, pairable.sum(axis=0) > 0]
    if used.shape[0] == 0 or used.shape[1] < 2:
        return None
    return float(krippendorff.alpha(value_counts=used, level_of_measurement="nominal"))


def krippendorff_alpha(ratings: Ratings) -> float | None:
    """Krippendorff's alpha (nominal) over items; ``None`` when expected disagreement is 0 (undefined)."""
    return _alpha_of_counts(_value_counts(ratings))


@dataclass(frozen=True, slots=True)
class Agreement:
    """An agreement figure with its bootstrap CI."""

    measure: str  # "cohen_kappa" (two annotators) or "krippendorff_alpha" (more)
    value: float | None
    ci_low: float | None
    ci_high: float | None
    n_items: int  # items rated by at least two annotators
    observed: float | None  # share of those items on which all annotators agree

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {
            "measure": self.measure,
            "value": self.value,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "n_items": self.n_items,
            "observed_agreement": self.observed,
        }


def agreement(
    ratings: Ratings, annotators: Sequence[str], *, n_boot: int = 1000, seed: int = 0, name: str = ""
) -> Agreement:
    """Cohen's kappa for two annotators, Krippendorff's alpha for more, with a 95% item bootstrap CI."""
    if len(annotators) < 2:
        return Agreement("none", None, None, None, 0, None)
    rows = [item for item in ratings if sum(1 for a in annotators if item.get(a) is not None) >= 2]
    stat: Callable[[np.ndarray], float | None]
    if len(annotators) == 2:
        measure = "cohen_kappa"
        pairs = _pairs(rows, *annotators)

        def stat(idx: np.ndarray) -> float | None:
            return cohen_kappa([pairs[i] for i in idx])
    else:
        measure = "krippendorff_alpha"
        counts = _value_counts(rows)

        def stat(idx: np.ndarray) -> float | None:
            return _alpha_of_counts(counts[idx])

    value = stat(np.arange(len(rows)))
    observed = (
        None
        if not rows
        else sum(1 for item in rows if len({v for v in item.values() if v is not None}) == 1) / len(rows)
    )
    lo = hi = None
    if rows and value is not None and n_boot > 0:
        rng = rng_for(seed, f"agreement/{name}")
        draws = rng.integers(0, len(rows), size=(n_boot, len(rows)))
        vals = [v for v in (stat(d) for d in draws) if v is not None]
        if vals:
            q = np.quantile(np.asarray(vals), [0.025, 0.975])
            lo, hi = float(q[0]), float(q[1])
    return Agreement(measure, value, lo, hi, len(rows), observed)
