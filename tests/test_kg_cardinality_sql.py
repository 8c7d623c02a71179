"""The relation cardinality statistics as SQL (DuckDB; Spark on the fixture).

Oracles: a hand fixture whose four arrays per direction are worked out on paper below (an overlap exactly one
unit long, a pair at window distance 19 and one at 20, open bounds whose difference overflows 32 bits, a
symmetric relation, an ignored fact), then the statistics worked out group by group in Python
(``reference_infer_one``) on a mixed synthetic graph and YAGO11k.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from chronoqa.generate.kg.index import GraphIndex
from chronoqa.generate.kg.sql import CARDINALITY_STEPS, SparkEngine, check_subset, group_stats_by_sql, render
from chronoqa.records import Fact
from chronoqa.sources.synthetic import SyntheticConfig, generate
from chronoqa.time import Granularity, TimePoint
from sql_index_fixtures import index_of, yago11k_index
from test_kg_columnar import reference_infer_one

AS_OF = TimePoint(2026, 1, 1)

#: (s, r, o, start, end) at year granularity; a span holds its start and end years.
FACTS: list[tuple[str, str, str, str | None, str | None]] = [
    ("ann", "p1", "a", "2000", "2005"),  # ann/p1 shares only 2005 between a and b: one unit, not overlapping
    ("ann", "p1", "b", "2005", "2010"),
    ("bob", "p1", "a", "2000", "2005"),  # bob/p1 shares 2004-2005: two units, overlapping
    ("bob", "p1", "b", "2004", "2010"),
    ("x", "w19", "A", "1000", "1100"),  # x/w19: B is 19 rows after the long A span: overlapping
    *(("x", "w19", "A", str(1000 + i), str(1000 + i)) for i in range(1, 19)),
    ("x", "w19", "B", "1019", "1030"),
    ("y", "w20", "A", "1000", "1100"),  # y/w20: B is 20 rows after it: outside the window
    *(("y", "w20", "A", str(1000 + i), str(1000 + i)) for i in range(1, 20)),
    ("y", "w20", "B", "1020", "1030"),
    ("z", "p2", "c", None, "1999"),  # no start: from the earliest unit; with d: 1998-1999 together
    ("z", "p2", "d", "1998", None),  # open end: up to as_of
    ("q", "p3", "e", None, None),  # no bounds at all: the span's length overflows 32 bits
    ("q", "p3", "f", None, None),
    ("q", "p3", "g", "2012", "2008"),  # reversed: ignored, in no group
    ("cat", "wed", "dan", "1990", "2000"),  # symmetric: all rows outgoing; cat holds dan and eve in 1995-2000
    ("cat", "wed", "eve", "1995", "2010"),
]

#: relation -> (outgoing, incoming) (groups, multi, overlapping, distinct values), worked out by hand.
EXPECTED = {
    "p1": ((2, 2, 1, 4), (2, 2, 2, 4)),  # in: a holds ann and bob 2000-2005, b holds them 2005/2004-2010
    "w19": ((1, 1, 1, 2), (2, 0, 0, 2)),
    "w20": ((1, 1, 0, 2), (2, 0, 0, 2)),
    "p2": ((1, 1, 1, 2), (2, 0, 0, 2)),
    "p3": ((1, 1, 1, 2), (2, 0, 0, 2)),  # g's reversed fact leaves no group
    "wed": ((3, 1, 1, 4), (0, 0, 0, 0)),  # cat {dan, eve}, dan {cat}, eve {cat}
}

HAVE_SPARK = importlib.util.find_spec("pyspark") is not None


def fixture_index() -> GraphIndex:
    """The index of :data:`FACTS` (``wed`` symmetric)."""
    facts = [
        Fact(i, s, r, o, TimePoint.parse(a) if a else None, TimePoint.parse(b) if b else None, i + 1)
        for i, (s, r, o, a, b) in enumerate(FACTS)
    ]
    return index_of(facts, {}, Granularity.YEAR, AS_OF, "ongoing", symmetric=("wed",))


def python_stats(idx: GraphIndex, window: int = 20) -> dict[bool, tuple[np.ndarray, ...]]:
    """Per direction, :func:`reference_infer_one`'s counts of every relation read from that direction's table."""
    out: dict[bool, tuple[np.ndarray, ...]] = {}
    for forward in (True, False):
        arrays = tuple(np.zeros(idx.n_rel, dtype=np.int64) for _ in range(4))
        for r in range(len(idx.rel_names)):
            if forward or not idx.rel_symmetric[r]:  # a symmetric relation is read from the outgoing table only
                counts = reference_infer_one(idx, r, forward, window)[1]
                for arr, c in zip(arrays, counts, strict=True):
                    arr[r] = c
        out[forward] = arrays
    return out


def differences(a: dict[bool, tuple[np.ndarray, ...]], b: dict[bool, tuple[np.ndarray, ...]]) -> list[str]:
    """The (direction, array) pairs on which two results differ (dtype, shape or a value)."""
    names = ("groups", "multi", "overlapping", "n_values")
    return [
        f"{'out' if forward else 'in'}.{name}: {x.dtype}{x.shape} {x.tolist()[:8]} vs {y.dtype} {y.tolist()[:8]}"
        for forward in (True, False)
        for name, x, y in zip(names, a[forward], b[forward], strict=True)
        if x.dtype != y.dtype or x.shape != y.shape or not np.array_equal(x, y)
    ]


def test_every_step_is_in_the_subset_and_keeps_its_partition() -> None:
    for step in CARDINALITY_STEPS:
        check_subset(step.sql)
    overlap = next(s for s in CARDINALITY_STEPS if s.name == "k_overlap")
    for dialect in ("duckdb", "spark"):
        assert render(overlap, dialect, {}).upper().count("PARTITION BY") == 2 * 19  # every LAG within its group


def test_hand_fixture_worked_by_hand() -> None:
    idx = fixture_index()
    expected = {
        forward: tuple(np.array([EXPECTED[name][side][k] for name in idx.rel_names], dtype=np.int64) for k in range(4))
        for side, forward in enumerate((True, False))
    }
    assert sorted(idx.rel_names) == sorted(EXPECTED)
    assert differences(python_stats(idx), expected) == []
    assert differences(group_stats_by_sql("duckdb", idx), expected) == []


def test_window_is_a_parameter() -> None:
    idx = fixture_index()
    for window in (2, 19, 21):
        sql = group_stats_by_sql("duckdb", idx, window)
        ref = python_stats(idx, window)
        assert differences(sql, ref) == []
    w20 = idx.rel_id["w20"]
    assert int(group_stats_by_sql("duckdb", idx, 21)[True][2][w20]) == 1  # distance 20 is inside a window of 21


def test_empty_graph() -> None:
    idx = index_of([], {}, Granularity.YEAR, AS_OF)
    assert differences(group_stats_by_sql("duckdb", idx), python_stats(idx)) == []


def test_mixed_synthetic_equals_python() -> None:
    facts = generate(SyntheticConfig.mixed(20_000, seed=3)).to_graph().facts
    idx = index_of(facts, {"R5": True, "R6": True}, Granularity.YEAR, AS_OF, symmetric=("R1", "R7"))
    ref = python_stats(idx)
    assert differences(group_stats_by_sql("duckdb", idx), ref) == []
    assert 0 < int(ref[True][2].sum()) < int(ref[True][1].sum())  # some multi groups overlap, not all


@pytest.mark.mirror
def test_yago11k_equals_python(mirror: Path) -> None:
    idx, _ = yago11k_index(AS_OF)
    ref = python_stats(idx)
    assert differences(group_stats_by_sql("duckdb", idx), ref) == []
    assert int(ref[True][2].sum()) > 0


@pytest.mark.spark
@pytest.mark.slow
def test_spark_equals_python_on_the_hand_fixture(spark: SparkEngine) -> None:
    idx = fixture_index()
    assert differences(group_stats_by_sql(spark, idx), python_stats(idx)) == []
    empty = index_of([], {}, Granularity.YEAR, AS_OF)
    assert differences(group_stats_by_sql(spark, empty), python_stats(empty)) == []
