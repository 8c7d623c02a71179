"""Agreement between annotators on nominal judgments: Cohen's kappa, Krippendorff's alpha, bootstrap CIs.

Ratings are given per item as a mapping ``annotator -> value`` (missing or ``None``: not rated).
Cohen's kappa is computed over the items both annotators rated; Krippendorff's alpha (nominal metric)
over the pairable items (rated by at least two annotators) and handles missing ratings. The bootstrap
resamples items with replacement, seeded from ``(seed, name)`` (:func:`chronoqa.score.stats.rng_for`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

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


def krippendorff_alpha(ratings: Ratings) -> float | None:
    """Krippendorff's alpha (nominal) over items; ``None`` when expected disagreement is 0 (undefined)."""
    coincidence: dict[tuple[str, str], float] = {}
    for item in ratings:
        values = [v for v in item.values() if v is not None]
        m = len(values)
        if m < 2:
            continue
        counts = Counter(values)
        for c, nc in counts.items():
            for k, nk in counts.items():
                pairs = nc * (nc - 1) if c == k else nc * nk
                coincidence[(c, k)] = coincidence.get((c, k), 0.0) + pairs / (m - 1)
    n_c: dict[str, float] = {}
    for (c, _), v in coincidence.items():
        n_c[c] = n_c.get(c, 0.0) + v
    n = sum(n_c.values())
    if n <= 1:
        return None
    observed = sum(v for (c, k), v in coincidence.items() if c != k)
    expected = sum(n_c[c] * n_c[k] for c in n_c for k in n_c if c != k)
    if expected == 0:
        return None
    return 1.0 - (n - 1) * observed / expected


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
    stat: Callable[[Ratings], float | None]
    if len(annotators) == 2:
        a, b = annotators
        measure = "cohen_kappa"

        def stat(rs: Ratings) -> float | None:
            return cohen_kappa(_pairs(rs, a, b))
    else:
        measure = "krippendorff_alpha"
        stat = krippendorff_alpha
    value = stat(rows)
    observed = (
        None
        if not rows
        else sum(1 for item in rows if len({v for v in item.values() if v is not None}) == 1) / len(rows)
    )
    lo = hi = None
    if rows and value is not None and n_boot > 0:
        rng = rng_for(seed, f"agreement/{name}")
        draws = rng.integers(0, len(rows), size=(n_boot, len(rows)))
        vals = [v for v in (stat([rows[i] for i in d]) for d in draws) if v is not None]
        if vals:
            q = np.quantile(np.asarray(vals), [0.025, 0.975])
            lo, hi = float(q[0]), float(q[1])
    return Agreement(measure, value, lo, hi, len(rows), observed)
