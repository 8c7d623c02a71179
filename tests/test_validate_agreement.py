"""Agreement figures against hand computations (worked in the comments), and the consensus rule."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from chronoqa.validate import agreement, cohen_kappa, krippendorff_alpha
from chronoqa.validate.importer import consensus_of, wilson

A = list("yyyyyynnnn")
B = list("yyyynnnnny")


def test_cohen_kappa_by_hand() -> None:
    # agreements 4 (yy) + 3 (nn) = 7 of 10: po = 0.7; A says yes 6/10, B 5/10: pe = .6*.5 + .4*.5 = 0.5
    # kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4
    assert cohen_kappa(list(zip(A, B, strict=True))) == pytest.approx(0.4)


def test_cohen_kappa_undefined_when_chance_agreement_is_one() -> None:
    assert cohen_kappa([("y", "y")] * 5) is None
    assert cohen_kappa([]) is None


def test_krippendorff_alpha_two_annotators_by_hand() -> None:
    # coincidences: o_yy = 2*4 = 8, o_nn = 2*3 = 6, o_yn = o_ny = 3; n_y = 11, n_n = 9, n = 20
    # alpha = 1 - (n-1) * sum_{c!=k} o_ck / sum_{c!=k} n_c n_k = 1 - 19*6 / (2*11*9) = 14/33
    items = [{"A": a, "B": b} for a, b in zip(A, B, strict=True)]
    assert krippendorff_alpha(items) == pytest.approx(14 / 33)


def test_krippendorff_alpha_three_annotators_with_missing_by_hand() -> None:
    items = [
        {"a": "y", "b": "y", "c": "y"},  # o_yy += 3*2/2 = 3
        {"a": "y", "b": "y", "c": "n"},  # o_yy += 1, o_yn += 1, o_ny += 1
        {"a": "n", "b": "n", "c": None},  # o_nn += 2
        {"a": "n", "b": None, "c": None},  # unpairable: ignored
        {"a": "y", "b": "n", "c": "n"},  # o_nn += 1, o_yn += 1, o_ny += 1
    ]
    # o_yy = 4, o_nn = 3, o_yn = o_ny = 2; n_y = 6, n_n = 5, n = 11: alpha = 1 - 10*4 / (2*6*5) = 1/3
    assert krippendorff_alpha(items) == pytest.approx(1 / 3)
    res = agreement(items, ["a", "b", "c"], n_boot=200, seed=1, name="t")
    assert res.measure == "krippendorff_alpha" and res.n_items == 4
    assert res.value == pytest.approx(1 / 3)
    assert res.observed == pytest.approx(2 / 4)  # items 1 and 3 unanimous


def test_agreement_two_annotators_has_a_bootstrap_ci() -> None:
    items = [{"A": a, "B": b} for a, b in zip(A * 5, B * 5, strict=True)]
    res = agreement(items, ["A", "B"], n_boot=500, seed=0, name="gold")
    assert res.measure == "cohen_kappa" and res.value == pytest.approx(0.4) and res.n_items == 50
    assert res.ci_low is not None and res.ci_high is not None
    assert res.ci_low < 0.4 < res.ci_high and res.ci_low >= -1 and res.ci_high <= 1
    again = agreement(items, ["A", "B"], n_boot=500, seed=0, name="gold")
    assert again == res  # seeded


def _alpha_from_coincidences(items: list[dict[str, str | None]]) -> float:
    """Nominal alpha from its definition: a coincidence matrix over pairable items, 1 - (n-1) D_o / D_e."""
    o: Counter[tuple[str, str]] = Counter()
    for item in items:
        vs = [v for v in item.values() if v is not None]
        for i, c in enumerate(vs):
            for j, k in enumerate(vs):
                if i != j:
                    o[(c, k)] += 1 / (len(vs) - 1)  # items with one rating have no pairs
    n_c: Counter[str] = Counter()
    for (c, _), v in o.items():
        n_c[c] += v
    n = sum(n_c.values())
    observed = sum(v for (c, k), v in o.items() if c != k)
    expected = sum(n_c[c] * n_c[k] for c in n_c for k in n_c if c != k)
    return 1 - (n - 1) * observed / expected


def test_krippendorff_alpha_against_the_coincidence_definition() -> None:
    rng = np.random.default_rng(4)
    labels = ["yes", "no", "unsure"]
    items = [
        {a: (labels[rng.integers(0, 3)] if rng.random() < 0.75 else None) for a in ("a", "b", "c", "d")}
        for _ in range(60)
    ]
    assert krippendorff_alpha(items) == pytest.approx(_alpha_from_coincidences(items), rel=1e-12)
    assert krippendorff_alpha([{"a": "y", "b": "y"}, {"a": "y", "b": None}]) is None  # one value only
    assert krippendorff_alpha([{"a": "y", "b": None}]) is None  # nothing pairable


def test_cohen_kappa_against_scikit_learn() -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(6)
    a = [["yes", "no", "unsure"][i] for i in rng.integers(0, 3, 80)]
    b = [x if rng.random() < 0.6 else "no" for x in a]
    assert cohen_kappa(list(zip(a, b, strict=True))) == pytest.approx(metrics.cohen_kappa_score(a, b), rel=1e-12)


def test_consensus_is_a_strict_majority() -> None:
    assert consensus_of(["yes", "yes", "no"]) == "yes"
    assert consensus_of(["yes", "no"]) == "disputed"
    assert consensus_of(["no", None]) == "no"
    assert consensus_of([None, None]) is None


def test_wilson_interval_by_hand() -> None:
    # k=0, n=10: upper bound z^2/(n+z^2) = 3.8415/13.8415 = 0.2775
    rate, lo, hi = wilson(0, 10)
    assert rate == 0 and lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.2775, abs=1e-3)
    assert wilson(0, 0) == (None, None, None)
