"""Statistics by default: bootstrap CIs, paired comparisons, McNemar, Benjamini–Hochberg.

Every metric chronoqa reports is a *ratio metric* over questions: question ``i`` contributes a
numerator ``num[i]`` and a denominator weight ``den[i]`` (1 when it counts, 0 when the metric's
definition excludes it, e.g. TRP for an empty retrieval), and the value is ``sum(num) / sum(den)``.
This covers means (CCR, coverage, accuracy) and macro averages over a defined subset (TRP_macro).

* :func:`bootstrap_ci` resamples questions with replacement (question-level, seeded) and returns the
  percentile interval of the ratio; draws whose denominator is 0 are dropped.
* :func:`paired_test` compares two systems on the same questions: a paired permutation test (swap the
  two systems' contributions per question) for the p-value and a paired bootstrap CI of the
  difference.
* :func:`mcnemar` is the test for binary per-question outcomes (exact binomial by default, or the
  continuity-corrected chi-square).
* :func:`benjamini_hochberg` adjusts a family of p-values (e.g. one per slice).

Randomness comes only from ``numpy.random.default_rng`` instances seeded from ``(seed, name)``, so a
slice's interval does not change when other slices are added.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from scipy import stats as _sps

__all__ = [
    "CI",
    "PairedResult",
    "benjamini_hochberg",
    "bootstrap_ci",
    "bootstrap_cis",
    "mcnemar",
    "paired_test",
    "ratio",
    "rng_for",
]

_CHUNK_CELLS = 4_000_000  # index cells drawn at once (bounds memory)


class CI(NamedTuple):
    """A point estimate with its confidence interval (``None`` where undefined) and its denominator."""

    value: float | None
    lo: float | None
    hi: float | None
    n: int


class PairedResult(NamedTuple):
    """Paired comparison of system A and system B on one metric: ``diff = A - B``."""

    a: float | None
    b: float | None
    diff: float | None
    lo: float | None
    hi: float | None
    p_value: float | None
    n: int
    test: str


def rng_for(seed: int, name: str) -> np.random.Generator:
    """A generator seeded from ``seed`` and a stable hash of ``name`` (independent of other names)."""
    return np.random.default_rng([int(seed) & 0xFFFFFFFF, zlib.crc32(name.encode("utf-8"))])


def ratio(num: np.ndarray, den: np.ndarray) -> float | None:
    """``sum(num) / sum(den)``, or ``None`` when the denominator is 0."""
    d = float(np.sum(den))
    return float(np.sum(num)) / d if d > 0 else None


def _draws(n: int, n_boot: int, rng: np.random.Generator) -> list[np.ndarray]:
    per = max(1, _CHUNK_CELLS // max(n, 1))
    out = []
    for start in range(0, n_boot, per):
        out.append(rng.integers(0, n, size=(min(per, n_boot - start), n)))
    return out


def _resampled_sums(w: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """Column sums of ``w`` (n × c) over ``n_boot`` question resamples, as an (n_boot × c) array.

    Each resample's multiplicities are counted with one ``bincount`` and multiplied in with a fixed-order
    ``einsum`` (no BLAS), so results do not depend on the thread count.
    """
    n = w.shape[0]
    out = []
    for idx in _draws(n, n_boot, rng):
        b = idx.shape[0]
        flat = (np.arange(b, dtype=np.int64)[:, None] * n + idx).ravel()
        counts = np.bincount(flat, minlength=b * n).reshape(b, n).astype(np.float64)
        out.append(np.einsum("bn,nc->bc", counts, w, optimize=False))
    return np.concatenate(out, axis=0)


def bootstrap_cis(
    nums: np.ndarray,
    dens: np.ndarray,
    *,
    n_boot: int,
    rng: np.random.Generator,
    level: float = 0.95,
) -> list[CI]:
    """Bootstrap CIs of several ratio metrics over the same questions (rows of ``nums``/``dens``).

    One set of resampled question indices is shared by all metrics (so metrics of a slice are
    resampled jointly). ``nums`` and ``dens`` have shape ``(m, n)``; returns ``m`` :class:`CI`.
    """
    nums = np.asarray(nums, dtype=np.float64)
    dens = np.asarray(dens, dtype=np.float64)
    if nums.ndim != 2 or nums.shape != dens.shape:
        raise ValueError(f"nums and dens must both have shape (m, n); got {nums.shape} and {dens.shape}")
    m, n = nums.shape
    points = [ratio(nums[j], dens[j]) for j in range(m)]
    ns = [int(np.sum(dens[j] > 0)) for j in range(m)]
    if n == 0 or n_boot <= 0:
        return [CI(points[j], None, None, ns[j]) for j in range(m)]
    sums = _resampled_sums(np.vstack([nums, dens]).T, n_boot, rng)  # (n_boot, 2m)
    sn, sd = sums[:, :m].T, sums[:, m:].T
    alpha = (1.0 - level) / 2.0
    out = []
    for j in range(m):
        ok = sd[j] > 0
        if points[j] is None or not ok.any():
            out.append(CI(points[j], None, None, ns[j]))
            continue
        vals = sn[j][ok] / sd[j][ok]
        lo, hi = np.quantile(vals, [alpha, 1.0 - alpha])
        out.append(CI(points[j], float(lo), float(hi), ns[j]))
    return out


def bootstrap_ci(
    num: Sequence[float] | np.ndarray,
    den: Sequence[float] | np.ndarray | None = None,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    name: str = "",
    level: float = 0.95,
) -> CI:
    """Question-level bootstrap CI of ``sum(num) / sum(den)`` (``den`` all ones: a plain mean)."""
    a = np.asarray(num, dtype=np.float64)
    d = np.ones_like(a) if den is None else np.asarray(den, dtype=np.float64)
    return bootstrap_cis(a[None, :], d[None, :], n_boot=n_boot, rng=rng_for(seed, name), level=level)[0]


def _permutation_p(
    na: np.ndarray, da: np.ndarray, nb: np.ndarray, db: np.ndarray, n_resamples: int, rng: np.random.Generator
) -> float:
    """Two-sided p-value of the paired permutation test of ``ratio(A) - ratio(B)``.

    :func:`scipy.stats.permutation_test` (``permutation_type="samples"``) swaps the two systems'
    ``(num, den)`` per question at random; the statistic is ``|ratio(A) - ratio(B)|`` and the p-value
    ``(1 + #{resampled >= observed}) / (1 + resamples)`` (scipy enumerates all ``2**n`` swaps instead when
    there are no more of them than resamples). A resample whose denominator is 0 on either side has an
    undefined (NaN) statistic and never counts as at least as extreme. Only the questions where the two
    systems differ are handed to scipy (swapping the others changes nothing; their sums are added as
    constants), as positions (``i`` for A, ``n + i`` for B) so one swap moves a question's numerator and
    denominator together.
    """
    differ = np.flatnonzero((na != nb) | (da != db))
    n = differ.size
    if n < 2:  # no difference, or one question whose swap only mirrors it: every arrangement is as extreme
        return 1.0
    same = np.ones(na.shape[0], dtype=bool)
    same[differ] = False
    base_n, base_d = float(na[same].sum()), float(da[same].sum())
    num, den = np.concatenate([na[differ], nb[differ]]), np.concatenate([da[differ], db[differ]])

    def abs_diff(ia: np.ndarray, ib: np.ndarray, axis: int) -> np.ndarray:
        ia, ib = ia.astype(np.intp), ib.astype(np.intp)
        a_n, a_d = base_n + num[ia].sum(axis=axis), base_d + den[ia].sum(axis=axis)
        b_n, b_d = base_n + num[ib].sum(axis=axis), base_d + den[ib].sum(axis=axis)
        ok = (a_d > 0) & (b_d > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(ok, np.abs(a_n / a_d - b_n / b_d), np.nan)

    res = _sps.permutation_test(
        (np.arange(n), np.arange(n, 2 * n)),
        abs_diff,
        permutation_type="samples",
        vectorized=True,
        n_resamples=n_resamples,
        batch=max(1, _CHUNK_CELLS // max(n, 1)),
        alternative="greater",
        rng=rng,
    )
    return float(min(1.0, res.pvalue))


def paired_test(
    num_a: np.ndarray,
    den_a: np.ndarray,
    num_b: np.ndarray,
    den_b: np.ndarray,
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    name: str = "",
    level: float = 0.95,
) -> PairedResult:
    """Paired permutation test and paired bootstrap CI for ``ratio(A) - ratio(B)`` on aligned questions.

    The p-value is :func:`_permutation_p`'s; the CI is the percentile interval of the difference over
    question resamples (both systems resampled together).
    """
    na, da, nb, db = (np.asarray(x, dtype=np.float64) for x in (num_a, den_a, num_b, den_b))
    n = na.shape[0]
    a, b = ratio(na, da), ratio(nb, db)
    if a is None or b is None or n == 0:
        return PairedResult(a, b, None, None, None, None, n, "permutation")
    obs = a - b
    p = _permutation_p(na, da, nb, db, n_resamples, rng_for(seed, "perm:" + name))
    brng = rng_for(seed, "pboot:" + name)
    sums = _resampled_sums(np.stack([na, da, nb, db], axis=1), n_resamples, brng)
    ok = (sums[:, 1] > 0) & (sums[:, 3] > 0)
    d = sums[ok, 0] / sums[ok, 1] - sums[ok, 2] / sums[ok, 3]
    alpha = (1.0 - level) / 2.0
    lo, hi = (float(x) for x in np.quantile(d, [alpha, 1.0 - alpha])) if d.size else (None, None)
    return PairedResult(a, b, obs, lo, hi, p, n, "paired permutation + paired bootstrap CI")


def mcnemar(a: Sequence[bool] | np.ndarray, b: Sequence[bool] | np.ndarray, *, exact: bool = True) -> PairedResult:
    """McNemar's test for paired binary outcomes (``a[i]``, ``b[i]``: did system A / B get question ``i``).

    Discordant counts: ``n01`` = A right and B wrong, ``n10`` = A wrong and B right. ``exact=True``:
    two-sided exact binomial test of ``n01`` out of ``n01 + n10`` at 1/2; else the chi-square statistic
    ``(|n01 - n10| - 1)^2 / (n01 + n10)`` with 1 degree of freedom. ``diff`` is ``mean(a) - mean(b)``.
    """
    x = np.asarray(a, dtype=bool)
    y = np.asarray(b, dtype=bool)
    if x.shape != y.shape:
        raise ValueError(f"mcnemar needs paired outcomes of equal length, got {x.shape} and {y.shape}")
    n = int(x.size)
    if n == 0:
        return PairedResult(None, None, None, None, None, None, 0, "mcnemar")
    n01 = int(np.sum(x & ~y))
    n10 = int(np.sum(~x & y))
    ma, mb = float(x.mean()), float(y.mean())
    if n01 + n10 == 0:
        p = 1.0
    elif exact:
        p = float(_sps.binomtest(n01, n01 + n10, 0.5).pvalue)
    else:
        chi2 = (abs(n01 - n10) - 1.0) ** 2 / (n01 + n10)
        p = float(_sps.chi2.sf(chi2, 1))
    return PairedResult(ma, mb, ma - mb, None, None, p, n, "mcnemar-exact" if exact else "mcnemar-chi2-cc")


def benjamini_hochberg(pvalues: Sequence[float | None]) -> list[float | None]:
    """Benjamini–Hochberg adjusted p-values (q-values), in input order; ``None`` (or NaN) entries stay ``None``.

    ``q_(i) = min_{j >= i} (m / j) * p_(j)`` over the ``m`` non-missing p-values sorted ascending, capped at
    1: :func:`scipy.stats.false_discovery_control` (``method="bh"``) on the non-missing ones.
    """
    idx = [i for i, p in enumerate(pvalues) if p is not None and not math.isnan(p)]
    out: list[float | None] = [None] * len(pvalues)
    if not idx:
        return out
    qs = _sps.false_discovery_control(np.asarray([pvalues[i] for i in idx], dtype=np.float64), method="bh")
    for i, q in zip(idx, qs, strict=True):
        out[i] = float(q)
    return out
