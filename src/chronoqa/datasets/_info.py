"""Summaries of a temporal graph: counts, time range, granularity mix, interval shapes, top relations."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chronoqa.records import TemporalGraph
from chronoqa.time import TimePoint

if TYPE_CHECKING:
    from chronoqa.datasets._spec import DatasetSpec

__all__ = ["SHAPES", "DatasetInfo", "GraphStats", "graph_stats", "shape_of"]

SHAPES = ("point", "interval", "start_only", "end_only", "no_time", "inverted")


def shape_of(start: TimePoint | None, end: TimePoint | None, *, reversed_: bool = False) -> str:
    """Shape of a fact's interval: one of :data:`SHAPES`.

    ``point`` (start == end), ``interval``, ``inverted`` (start after end), ``start_only``,
    ``end_only`` or ``no_time``.
    """
    if start is not None and end is not None:
        if reversed_:
            return "inverted"
        return "point" if start == end else "interval"
    if start is not None:
        return "start_only"
    if end is not None:
        return "end_only"
    return "no_time"


@dataclass(frozen=True)
class GraphStats:
    """Counts that describe a temporal graph."""

    name: str
    facts: int
    entities: int
    entities_in_facts: int
    relations: int
    time_min: str | None
    time_max: str | None
    granularity: dict[str, int]
    shapes: dict[str, int]
    duplicates: int
    multi_period_triples: int
    top_relations: tuple[tuple[str, str, int], ...]
    report: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "name": self.name,
            "facts": self.facts,
            "entities": self.entities,
            "entities_in_facts": self.entities_in_facts,
            "relations": self.relations,
            "time_range": [self.time_min, self.time_max],
            "granularity": dict(self.granularity),
            "shapes": dict(self.shapes),
            "duplicates": self.duplicates,
            "multi_period_triples": self.multi_period_triples,
            "top_relations": [{"id": r, "label": lab, "facts": n} for r, lab, n in self.top_relations],
            "load_report": self.report,
        }


def graph_stats(graph: TemporalGraph, *, top: int = 10, extra_entities: Iterable[str] = ()) -> GraphStats:
    """Summarise ``graph``.

    ``entities`` counts the entities of the facts, the labelled entities and ``extra_entities``
    (e.g. a dataset's whole entity dictionary); ``entities_in_facts`` only the first.

    ``granularity`` counts facts by their coarsest known endpoint (``none`` without a time);
    ``multi_period_triples`` counts (s, r, o) triples stated with more than one distinct interval.
    """
    in_facts: set[str] = set()
    rels: Counter[str] = Counter()
    gran: Counter[str] = Counter()
    shapes: Counter[str] = Counter({s: 0 for s in SHAPES})
    keys: Counter[tuple[str, str, str, TimePoint | None, TimePoint | None]] = Counter()
    periods: dict[tuple[str, str, str], set[tuple[TimePoint | None, TimePoint | None]]] = {}
    lo: TimePoint | None = None
    hi: TimePoint | None = None
    for f in graph.facts:
        in_facts.add(f.s)
        in_facts.add(f.o)
        rels[f.r] += 1
        iv = f.interval
        gran[str(iv.granularity) if (f.start or f.end) else "none"] += 1
        shapes[shape_of(f.start, f.end, reversed_=iv.is_reversed())] += 1
        keys[(f.s, f.r, f.o, f.start, f.end)] += 1
        periods.setdefault((f.s, f.r, f.o), set()).add((f.start, f.end))
        for t in (f.start, f.end):
            if t is None:
                continue
            if lo is None or t.sort_key() < lo.sort_key():
                lo = t
            if hi is None or t.sort_key() > hi.sort_key():
                hi = t
    entities = in_facts | set(graph.entity_labels) | set(extra_entities)
    ranked = sorted(rels.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return GraphStats(
        name=graph.name,
        facts=len(graph.facts),
        entities=len(entities),
        entities_in_facts=len(in_facts),
        relations=len(rels),
        time_min=None if lo is None else lo.isoformat(),
        time_max=None if hi is None else hi.isoformat(),
        granularity=dict(sorted(gran.items())),
        shapes=dict(shapes),
        duplicates=sum(n - 1 for n in keys.values() if n > 1),
        multi_period_triples=sum(1 for p in periods.values() if len(p) > 1),
        top_relations=tuple((r, graph.relation_label(r), n) for r, n in ranked),
        report=None if graph.report is None else graph.report.to_dict(),
    )


@dataclass(frozen=True)
class DatasetInfo:
    """A named dataset's registry entry plus its :class:`GraphStats`."""

    spec: DatasetSpec
    stats: GraphStats
    folder: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "name": self.spec.name,
            "description": self.spec.description,
            "licence": self.spec.licence,
            "citation": self.spec.citation,
            "homepage": self.spec.homepage,
            "format": self.spec.format,
            "folder": self.folder,
            "files": [{"name": f.name, "url": f.url, "sha256": f.sha256} for f in self.spec.files],
            **{k: v for k, v in self.stats.to_dict().items() if k != "name"},
        }
