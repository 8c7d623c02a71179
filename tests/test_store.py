"""The DuckDB fact store: schema, day numbers, caching, bulk paths and SQL validity queries."""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import replace
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pytest

from chronoqa.records import Fact, FactColumns, TemporalGraph
from chronoqa.sources.hyte import read_hyte
from chronoqa.sources.synthetic import SyntheticFacts, generate
from chronoqa.store import FactStore, cache_key
from chronoqa.time import TimePoint, valid_at

EPOCH = datetime.date(1970, 1, 1).toordinal()


def day(y: int, m: int, d: int) -> int:
    return datetime.date(y, m, d).toordinal() - EPOCH


def tiny_graph() -> TemporalGraph:
    facts = (
        Fact(0, "a", "r1", "b", TimePoint(1994), TimePoint(1996, 2), 1),
        Fact(1, "a", "r1", "c", TimePoint(2000, 2, 29), None, 2),
        Fact(2, "b", "r2", "c", None, TimePoint(1999, 12, 31), 3),
        Fact(3, "b", "r2", "d", TimePoint(2012), TimePoint(2010), 4),
        Fact(4, "c", "r2", "d", None, None, 5),
    )
    return TemporalGraph("tiny", facts, entity_labels={"a": "Alice", "z": "Zed"}, relation_labels={"r1": "knows"})


def test_facts_table_with_day_numbers() -> None:
    with FactStore.from_graph(tiny_graph()) as store:
        rows = store.execute(
            "SELECT id, t_start, t_end, start_lo, start_hi, end_lo, end_hi, granularity, reversed, line "
            "FROM facts ORDER BY id"
        )
    assert rows == [
        (0, "1994", "1996-02", day(1994, 1, 1), day(1994, 12, 31), day(1996, 2, 1), day(1996, 2, 29), "year", False, 1),
        (1, "2000-02-29", None, day(2000, 2, 29), day(2000, 2, 29), None, None, "day", False, 2),
        (2, None, "1999-12-31", None, None, day(1999, 12, 31), day(1999, 12, 31), "day", False, 3),
        (3, "2012", "2010", day(2012, 1, 1), day(2012, 12, 31), day(2010, 1, 1), day(2010, 12, 31), "year", True, 4),
        (4, None, None, None, None, None, None, None, False, 5),
    ]


def test_label_tables_and_meta() -> None:
    with FactStore.from_graph(tiny_graph()) as store:
        assert store.execute("SELECT id, label FROM entities ORDER BY id") == [
            ("a", "Alice"),
            ("b", "b"),
            ("c", "c"),
            ("d", "d"),
            ("z", "Zed"),
        ]
        assert store.execute("SELECT id, label, facts FROM relations ORDER BY id") == [
            ("r1", "knows", 2),
            ("r2", "r2", 3),
        ]
        assert store.name == "tiny" and len(store) == 5
        # parameters, then another query: results are fully consumed, the connection stays usable
        assert store.execute("SELECT count(*) FROM facts WHERE s = ?", ["a"]) == [(2,)]
        table = store.arrow("SELECT id FROM facts WHERE r = $rel ORDER BY id", {"rel": "r2"})
        assert isinstance(table, pa.Table) and table.column("id").to_pylist() == [2, 3, 4]
        assert store.scalar("SELECT max(id) FROM facts") == 4


def test_store_file_and_cache(tmp_path: Path) -> None:
    calls = []

    def build() -> TemporalGraph:
        calls.append(1)
        return tiny_graph()

    key = cache_key("tiny", [("temporal", "abc")])
    with FactStore.cached("tiny", key, build, folder=tmp_path) as s1:
        assert len(s1) == 5
        assert s1.path is not None and s1.path.is_file()
    with FactStore.cached("tiny", key, build, folder=tmp_path) as s2:
        assert len(s2) == 5
        with pytest.raises(duckdb.Error):
            s2.execute("DELETE FROM facts")
    assert len(calls) == 1
    with FactStore.cached("tiny", cache_key("tiny", [("temporal", "def")]), build, folder=tmp_path):
        pass
    assert len(calls) == 2
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".duckdb", ".duckdb"]
    with pytest.raises(FileExistsError):
        FactStore.from_graph(tiny_graph(), s1.path)


def _expected_synthetic_row(data: SyntheticFacts, i: int) -> tuple[object, ...]:
    """The facts-table row of synthetic fact ``i`` worked out from the raw arrays with ``datetime`` alone."""
    ends = []
    for which in ("start", "end"):
        if not getattr(data, f"has_{which}")[i]:
            ends.append((None, None, None, None))
            continue
        y, m, d = (int(getattr(data, f"{which}_{f}")[i]) for f in ("year", "month", "day"))
        if d:  # the generator states a day with its month, or neither
            ends.append((f"{y:04d}-{m:02d}-{d:02d}", day(y, m, d), day(y, m, d), 3))
        else:
            ends.append((f"{y:04d}", day(y, 1, 1), day(y, 12, 31), 1))
    (t_start, slo, shi, sg), (t_end, elo, ehi, eg) = ends
    known = [g for g in (sg, eg) if g is not None]
    gran = {1: "year", 3: "day"}[min(known)] if known else None
    if sg is None or eg is None:
        rev = False
    elif sg == eg == 3:
        rev = slo > ehi
    else:  # compared at the coarser end: by year
        rev = int(data.start_year[i]) > int(data.end_year[i])
    return (i, f"E{data.s[i]}", f"R{data.r[i]}", f"E{data.o[i]}", t_start, t_end, slo, shi, elo, ehi, gran, rev, i + 1)


def test_synthetic_graph_loads_from_its_columns() -> None:
    made = generate(n_facts=4000, seed=2, p_day=0.4)
    # the generator states both ends at one granularity and never reverses a span: mix the granularities
    # (every third end by its year alone) and reverse every fifth fact's span (its end a year before its start)
    coarse, back = np.arange(len(made)) % 3 == 0, np.arange(len(made)) % 5 == 0
    data = replace(
        made,
        end_month=np.where(coarse, 0, made.end_month).astype(np.int8),
        end_day=np.where(coarse, 0, made.end_day).astype(np.int8),
        end_year=np.where(back & made.has_start & made.has_end, made.start_year - 1, made.end_year).astype(np.int32),
    )
    assert isinstance(data.to_graph().facts, FactColumns)  # the columnar path, no Fact per row
    with FactStore.from_graph(data.to_graph()) as store:
        assert store.execute("SELECT * FROM facts ORDER BY id") == [
            _expected_synthetic_row(data, i) for i in range(len(data))
        ]
        counts = Counter(f"R{r}" for r in data.r.tolist())
        assert store.execute("SELECT id, label, facts FROM relations ORDER BY id") == [
            (r, r, counts[r]) for r in sorted(counts)
        ]
        used = sorted({f"E{e}" for e in (*data.s.tolist(), *data.o.tolist())})
        assert store.execute("SELECT id, label FROM entities ORDER BY id") == [(e, e) for e in used]


def test_fact_objects_and_columns_give_one_store() -> None:
    g = tiny_graph()
    columns = TemporalGraph(g.name, FactColumns.from_facts(g.facts), g.entity_labels, g.relation_labels)
    with FactStore.from_graph(g) as objects, FactStore.from_graph(columns) as cols:
        for table in ("facts", "entities", "relations"):
            q = f"SELECT * FROM {table} ORDER BY ALL"
            assert objects.execute(q) == cols.execute(q)


def _sql_valid_ids(store: FactStore, t: TimePoint) -> list[int]:
    rows = store.execute(
        "SELECT id FROM facts WHERE NOT reversed AND (start_lo IS NULL OR start_lo <= ?) "
        "AND (end_hi IS NULL OR ? <= end_hi) AND (start_lo IS NOT NULL OR end_hi IS NOT NULL) ORDER BY id",
        [t.last_day(), t.first_day()],
    )
    return [r[0] for r in rows]


def test_sql_validity_matches_valid_at_on_synthetic() -> None:
    data = generate(n_facts=3000, seed=9)
    g = data.to_graph()
    with FactStore.from_graph(g) as store:
        for t in (TimePoint(1950), TimePoint(1990, 6), TimePoint(2001, 3, 4)):
            want = [f.id for f in g.facts if valid_at(f.interval, t)]
            assert _sql_valid_ids(store, t) == want


@pytest.mark.mirror
def test_sql_validity_matches_valid_at_on_yago(mirror: Path) -> None:
    g = read_hyte(mirror / "yago11k", on_reversed="keep")
    with FactStore.from_graph(g) as store:
        assert len(store) == 20_506
        assert store.scalar("SELECT count(*) FROM facts WHERE reversed") == 70
        for t in (TimePoint(1990), TimePoint(2005, 7), TimePoint(1980, 1, 1)):
            want = [f.id for f in g.facts if valid_at(f.interval, t)]
            assert _sql_valid_ids(store, t) == want
