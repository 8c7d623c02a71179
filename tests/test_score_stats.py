"""Bootstrap CIs, paired tests, McNemar and Benjamini–Hochberg on textbook examples."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from chronoqa.score.stats import benjamini_hochberg, bootstrap_ci, bootstrap_cis, mcnemar, paired_test, rng_for


def test_bootstrap_contains_point_and_is_deterministic() -> None:
    rng = np.random.default_rng(1)
    x = (rng.random(200) < 0.3).astype(float)
    a = bootstrap_ci(x, n_boot=500, seed=3, name="m")
    b = bootstrap_ci(x, n_boot=500, seed=3, name="m")
    c = bootstrap_ci(x, n_boot=500, seed=4, name="m")
    assert a == b and a != c
    assert a.value == pytest.approx(x.mean())
    assert a.lo is not None and a.hi is not None and a.lo <= a.value <= a.hi
    # The normal-approximation 95% half-width of a proportion: sqrt(p(1-p)/n) * 1.96, about 0.064 here.
    half = 1.96 * math.sqrt(x.mean() * (1 - x.mean()) / x.size)
    assert (a.hi - a.lo) / 2 == pytest.approx(half, rel=0.25)
    const = bootstrap_ci(np.full(50, 0.25), n_boot=100)
    assert (const.lo, const.value, const.hi) == (0.25, 0.25, 0.25)


def test_ratio_metric_excludes_zero_denominators() -> None:
    num = np.array([0.5, 0.0, 1.0, 0.0])
    den = np.array([1.0, 0.0, 1.0, 1.0])  # question 2 undefined (e.g. TRP of an empty retrieval)
    ci = bootstrap_ci(num, den, n_boot=200)
    assert ci.value == pytest.approx(1.5 / 3) and ci.n == 3
    empty = bootstrap_ci(np.zeros(3), np.zeros(3), n_boot=50)
    assert empty.value is None and empty.lo is None


def test_joint_bootstrap_matches_single() -> None:
    x = np.arange(10, dtype=float) / 10
    y = (np.arange(10) % 2).astype(float)
    joint = bootstrap_cis(np.stack([x, y]), np.ones((2, 10)), n_boot=300, rng=rng_for(0, "s"))
    assert joint[0].value == pytest.approx(0.45) and joint[1].value == 0.5
    assert all(c.lo is not None and c.lo <= c.value <= c.hi for c in joint)  # type: ignore[operator]


def test_mcnemar_textbook() -> None:
    # Wikipedia's McNemar example: discordant cells b = 121, c = 59.
    a = [True] * 121 + [False] * 59 + [True] * 101 + [False] * 33
    b = [False] * 121 + [True] * 59 + [True] * 101 + [False] * 33
    chi = mcnemar(a, b, exact=False)
    stat = (abs(121 - 59) - 1) ** 2 / (121 + 59)  # continuity-corrected, 20.672...
    assert chi.p_value == pytest.approx(math.erfc(math.sqrt(stat / 2)))  # chi-square(1) survival function
    # Exact test by hand: 0 vs 5 discordant pairs -> two-sided p = 2 * 0.5**5.
    ex = mcnemar([False] * 5 + [True] * 3, [True] * 5 + [True] * 3)
    assert ex.p_value == pytest.approx(2 * 0.5**5)
    assert ex.diff == pytest.approx(3 / 8 - 1.0)
    same = mcnemar([True, False], [True, False])
    assert same.p_value == 1.0


def test_benjamini_hochberg_textbook_and_scipy() -> None:
    # p = 0.01, 0.04, 0.03, 0.005 (m = 4). Sorted: 0.005, 0.01, 0.03, 0.04 -> p*m/rank = 0.02, 0.02, 0.04, 0.04;
    # running minimum from the top keeps them: q = 0.02, 0.02, 0.04, 0.04 (in sorted order).
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert benjamini_hochberg([0.01, None, 0.04]) == [pytest.approx(0.02), None, pytest.approx(0.04)]
    assert benjamini_hochberg([float("nan"), 0.5]) == [None, pytest.approx(0.5)]
    assert benjamini_hochberg([]) == [] and benjamini_hochberg([None]) == [None]


def test_benjamini_hochberg_against_the_definition() -> None:
    # The step-up definition written out: q_i = min over every p_j >= p_i of p_j * m / rank(p_j), capped at 1
    # (tied p-values share the highest rank of the tie).
    rng = np.random.default_rng(5)
    ps = [*(float(p) for p in rng.random(25) ** 2), 0.3, 0.3, 1.0]
    m = len(ps)
    rank = {p: sum(1 for x in ps if x <= p) for p in ps}
    expected = [min(1.0, min(pj * m / rank[pj] for pj in ps if pj >= p)) for p in ps]
    assert benjamini_hochberg(ps) == pytest.approx(expected, rel=1e-12)


def test_paired_permutation() -> None:
    rng = np.random.default_rng(0)
    x = (rng.random(80) < 0.5).astype(float)
    ones = np.ones(80)
    same = paired_test(x, ones, x, ones, n_resamples=200, seed=1)
    assert same.diff == 0.0 and same.p_value == 1.0
    better = paired_test(ones, ones, np.zeros(80), ones, n_resamples=999, seed=1)
    assert better.diff == 1.0 and better.p_value == pytest.approx(1 / 1000)
    assert better.lo == better.hi == 1.0
    again = paired_test(x, ones, 1 - x, ones, n_resamples=200, seed=1)
    assert again == paired_test(x, ones, 1 - x, ones, n_resamples=200, seed=1)


def _exact_permutation_p(na: np.ndarray, da: np.ndarray, nb: np.ndarray, db: np.ndarray) -> float:
    """Every one of the 2**n swaps enumerated: the share whose |ratio difference| reaches the observed one."""
    obs = abs(na.sum() / da.sum() - nb.sum() / db.sum())
    hits = 0
    for swap in itertools.product([False, True], repeat=na.size):
        s = np.array(swap)
        a_n, a_d = np.where(s, nb, na).sum(), np.where(s, db, da).sum()
        b_n, b_d = np.where(s, na, nb).sum(), np.where(s, da, db).sum()
        if a_d > 0 and b_d > 0 and abs(a_n / a_d - b_n / b_d) >= obs - 1e-12:
            hits += 1
    return hits / 2**na.size


def test_paired_permutation_by_hand() -> None:
    # A right on 3 questions B gets wrong, both wrong on a 4th: the 8 swaps of the 3 differing questions give
    # |diff| = 3/4, 1/4, 1/4, 1/4, 1/4, 1/4, 1/4, 3/4 -> p = 2/8 (few enough swaps to enumerate them all).
    res = paired_test(np.array([1.0, 1, 1, 0]), np.ones(4), np.zeros(4), np.ones(4), n_resamples=1000, seed=0)
    assert res.diff == 0.75 and res.p_value == pytest.approx(0.25)
    # One differing question: its swap gives -diff, as extreme as diff, so p = 2/2.
    one = paired_test(np.array([1.0, 0, 0]), np.ones(3), np.zeros(3), np.ones(3), n_resamples=1000, seed=0)
    assert one.diff == pytest.approx(1 / 3) and one.p_value == 1.0


def test_paired_permutation_matches_full_enumeration_on_a_ratio_metric() -> None:
    # Ten questions, three of them identical for both systems and one undefined for A (denominator 0):
    # enumerating all 2**10 swaps by hand gives the exact p-value the test must reproduce.
    na = np.array([0.5, 1.0, 0.0, 0.25, 1.0, 0.0, 0.75, 1.0, 0.5, 0.0])
    da = np.array([1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    nb = np.array([0.5, 0.0, 0.0, 0.75, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0])
    db = np.array([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    res = paired_test(na, da, nb, db, n_resamples=1000, seed=2)
    assert res.p_value == pytest.approx(_exact_permutation_p(na, da, nb, db))
    # With more swaps than resamples the p-value is a Monte Carlo estimate of the same figure.
    rng = np.random.default_rng(9)
    x = (rng.random(14) < 0.7).astype(float)
    y = (rng.random(14) < 0.4).astype(float)
    ones = np.ones(14)
    approx = paired_test(x, ones, y, ones, n_resamples=4000, seed=3)
    assert approx.p_value == pytest.approx(_exact_permutation_p(x, ones, y, ones), abs=0.03)
