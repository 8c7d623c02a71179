"""``FactColumns``: the columnar ``Sequence[Fact]`` gives back the facts a reader builds, field for field."""

from __future__ import annotations

import numpy as np
import pytest

from chronoqa.records import Fact, FactColumns
from chronoqa.sources.synthetic import generate
from chronoqa.time import TimePoint


def _facts() -> list[Fact]:
    return [
        Fact(7, "<A>", "wasBornIn", "<B>", TimePoint(-405), None, 3),
        Fact(9, "<B>", "hasCapital", "<C>", TimePoint(1994, 3), TimePoint(2001, 2, 28), 4),
        Fact(11, "<A>", "wasBornIn", "<C>", None, TimePoint(1999), 0),
    ]


def test_round_trip_and_first_appearance_codes() -> None:
    facts = _facts()
    cols = FactColumns.from_facts(facts)
    assert list(cols) == facts and len(cols) == 3
    assert cols[-1] == facts[-1] and cols[1:].take(np.array([1]))[0] == facts[2]
    assert list(cols.entities) == ["<A>", "<B>", "<C>"] and list(cols.relations) == ["wasBornIn", "hasCapital"]
    assert cols.s.tolist() == [0, 1, 0] and cols.o.tolist() == [1, 2, 2]
    assert FactColumns.from_facts(cols) is cols
    with pytest.raises(IndexError, match="fact position 3 out of range for 3 facts"):
        cols[3]


def test_synthetic_columns_equal_synthetic_graph() -> None:
    data = generate(n_facts=2000, seed=3)
    assert list(data.to_columns()) == list(data.to_graph().facts)


def test_ragged_columns_are_refused() -> None:
    cols = FactColumns.from_facts(_facts())
    with pytest.raises(ValueError, match=r"FactColumns\.lines has 2 rows, ids has 3"):
        FactColumns(cols.entities, cols.relations, cols.ids, cols.s, cols.r, cols.o, cols.has_start,
                    cols.start_year, cols.start_month, cols.start_day, cols.has_end, cols.end_year, cols.end_month,
                    cols.end_day, cols.lines[:2])  # fmt: skip
