"""Shared helpers of the SQL index tests: the index under test, a per-fact reference, equality, the hand fixture."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np

from chronoqa.generate.kg.index import GraphIndex, key_dtype
from chronoqa.generate.kg.sql import build_index
from chronoqa.records import Fact
from chronoqa.time import Granularity, TimePoint


def index_of(facts: Sequence[Fact], *args: Any, **kw: Any) -> GraphIndex:
    """The index under test: :func:`build_index` on DuckDB (arguments after ``facts`` as it takes them)."""
    return build_index("duckdb", facts, *args, **kw)


def reference_index(
    facts: Sequence[Fact],
    is_event: Mapping[str, bool],
    granularity: Granularity,
    as_of: TimePoint,
    open_end: str = "ongoing",
    not_years: Mapping[str, Collection[int]] | None = None,
    *,
    cardinality: Mapping[str, tuple[bool, bool]] | None = None,
    symmetric: Collection[str] = (),
) -> GraphIndex:
    """The index worked out fact by fact in Python (the per-fact table, adjacency by sorting tuples, triples)."""
    from test_kg_columnar import reference_table

    facts = list(facts)
    ents, rels, table, rev, nyr = reference_table(facts, is_event, granularity, as_of, open_end, not_years)
    sym = [r in set(symmetric) for r in rels]
    n_rel = max(len(rels), 1)
    out: list[tuple[int, int]] = []
    inn: list[tuple[int, int]] = []
    triples: Counter[tuple[int, int, int]] = Counter()
    kept = [i for i in range(len(facts)) if not (rev[i] or nyr[i])]
    for i in kept:
        s, r, o = (int(x) for x in table[i, :3])
        out.append((s * n_rel + r, i))
        (out if sym[r] else inn).append((o * n_rel + r, i))
        triples[(min(s, o), r, max(s, o)) if sym[r] else (s, r, o)] += 1
    count = np.zeros(len(facts), dtype=np.int32)
    for i in kept:
        s, r, o = (int(x) for x in table[i, :3])
        count[i] = triples[(min(s, o), r, max(s, o)) if sym[r] else (s, r, o)]
    kdt = key_dtype(len(ents), n_rel)
    out.sort()
    inn.sort()
    card = cardinality or {}
    return GraphIndex(
        granularity, as_of, facts, ents, rels, {r: i for i, r in enumerate(rels)},
        [bool(is_event.get(r, False)) for r in rels], table, rev,
        np.array([k for k, _ in out], dtype=kdt), np.array([f for _, f in out], dtype=np.int32),
        np.array([k for k, _ in inn], dtype=kdt), np.array([f for _, f in inn], dtype=np.int32), count, open_end,
        nyr, np.zeros(len(facts), dtype=bool), [card.get(r, (True, True)) for r in rels], sym,
    )  # fmt: skip


ARRAYS = ("table", "reversed_mask", "out_keys", "out_rows", "in_keys", "in_rows", "triple_count",
          "not_year_mask", "implausible_mask", "ignored_mask")  # fmt: skip
LISTS = ("ent_names", "ent_id", "rel_names", "rel_id", "rel_event", "rel_one", "rel_symmetric", "open_end",
         "granularity", "as_of")  # fmt: skip


def index_differences(a: GraphIndex, b: GraphIndex) -> list[str]:
    """The fields on which two indexes differ (dtype, shape or a value), one line each."""
    out = []
    for name in ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        if x.dtype != y.dtype or x.shape != y.shape or not np.array_equal(x, y):
            out.append(f"{name}: {x.dtype}{x.shape} vs {y.dtype}{y.shape}")
    for name in LISTS:
        if getattr(a, name) != getattr(b, name):
            out.append(f"{name} differs")
    return out


def tp(text: str | None) -> TimePoint | None:
    """A time point from ``YYYY[-MM[-DD]]`` (None for None)."""
    return TimePoint.parse(text) if text is not None else None


#: Hand facts: (s, r, o, start, end). 'wed' is symmetric, 'won' an event, 'owns' lists 100 as a non-year.
HAND: tuple[tuple[str, str, str, str | None, str | None], ...] = (
    ("ann", "wed", "bob", "1990", "2000"),  # 0 symmetric
    ("bob", "wed", "ann", "1995", None),  # 1 symmetric mirror triple, open end
    ("cat", "won", "prize", "1999-05-03", None),  # 2 event, no end: holds at its start (day precision)
    ("ann", "plays", "club", "2005", "2001"),  # 3 reversed
    ("dan", "owns", "club", "100", "1990"),  # 4 non-year start
    ("dan", "plays", "club", None, "1980"),  # 5 end only
    ("ann", "plays", "club", "2010-03", None),  # 6 open end, month precision
    ("ann", "plays", "club", "2011", "2012"),  # 7 same triple as 6
    ("eve", "wed", "eve", "1970", "1971"),  # 8 symmetric self-loop
    ("cat", "won", "prize", None, None),  # 9 event without any date
    ("dan", "plays", "cat", "2001-12-30", "2002-01-02"),  # 10 day precision across years
)
IS_EVENT = {"won": True, "wed": False, "plays": False, "owns": False}
SYMMETRIC = ("wed",)
NOT_YEARS = {"owns": frozenset({100})}


def hand_facts() -> list[Fact]:
    """The :data:`HAND` facts as :class:`Fact` values (ids 0.., lines 1..)."""
    return [Fact(i, s, r, o, tp(a), tp(b), i + 1) for i, (s, r, o, a, b) in enumerate(HAND)]


def build_args(facts: Any, granularity: str = "year", open_end: str = "ongoing") -> dict[str, Any]:
    """Keyword arguments of ``index_of`` / ``reference_index`` for the hand fixture's settings."""
    from chronoqa.time import Granularity

    return {
        "facts": facts,
        "is_event": IS_EVENT,
        "granularity": Granularity.parse(granularity),
        "as_of": TimePoint(2026, 1, 1),
        "open_end": open_end,
        "not_years": NOT_YEARS,
        "symmetric": SYMMETRIC,
    }


def yago11k_index(as_of: TimePoint) -> tuple[GraphIndex, dict[str, Any]]:
    """YAGO11k's index (the shipped phrases' events and symmetric relations) and those phrases; needs the mirror."""
    from chronoqa import datasets
    from chronoqa.generate.kg.build import resolve_phrases
    from chronoqa.time import Granularity

    graph = datasets.load_graph("yago11k", on_bad_row="skip", as_of=as_of)
    phr, _, _ = resolve_phrases(graph, None, generic=False)
    idx = index_of(
        graph.facts, {r: p.is_event for r, p in phr.items()}, Granularity.YEAR, as_of,
        symmetric=sorted(r for r, p in phr.items() if p.symmetric),
    )  # fmt: skip
    return idx, phr
