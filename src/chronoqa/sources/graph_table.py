"""A temporal knowledge graph viewed as a temporal table ``(subject, relation, object, start, end)``.

The TFD ``subject, relation ->T object`` then asks "what did X play for / who was X married to, whose
period ...". A fact with a start and no end is *not* ongoing in YAGO11k (the end is simply unknown),
so by default such facts are left out (``start_only="drop"``, counted); ``"point"`` reads them as
point facts and ``"open"`` as ongoing until ``as_of``. The table builder's phrases for such a table are
:func:`chronoqa.generate.table.verbalise.graph_phrases`.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Literal

from chronoqa.errors import LoadReport
from chronoqa.records import TemporalGraph, TemporalTable
from chronoqa.time import Interval

__all__ = ["GRAPH_COLUMNS", "GRAPH_TFD", "NOTE_NO_START", "NOTE_START_ONLY", "graph_as_table", "relation_words"]

GRAPH_COLUMNS = ("subject", "relation", "object")
#: The TFD a graph viewed as a table is built from.
GRAPH_TFD = "subject,relation->object"
NOTE_START_ONLY = "facts with a start and an unknown end: left out (start_only='drop')"
NOTE_NO_START = "facts without a start: left out"

StartOnly = Literal["drop", "point", "open"]


def relation_words(label: str) -> str:
    """``<playsFor>`` → ``plays for``; ``isMarriedTo`` → ``is married to``."""
    text = label.strip("<>")
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text).replace("_", " ").lower()


def _entity(graph: TemporalGraph, entity: str) -> str:
    return graph.entity_label(entity).strip("<>").replace("_", " ")


def graph_as_table(graph: TemporalGraph, *, start_only: StartOnly = "drop", name: str | None = None) -> TemporalTable:
    """The graph as a table with columns ``subject``, ``relation``, ``object`` (readable labels)."""
    notes: Counter[str] = Counter()
    rows, intervals, lines = [], [], []
    for f in graph.facts:
        if f.start is None:
            notes[NOTE_NO_START] += 1
            continue
        end = f.end
        if end is None:
            if start_only == "drop":
                notes[NOTE_START_ONLY] += 1
                continue
            if start_only == "point":
                end = f.start
        rows.append((_entity(graph, f.s), relation_words(graph.relation_label(f.r)), _entity(graph, f.o)))
        intervals.append(Interval(f.start, end))
        lines.append(f.line)
    report = LoadReport(source=graph.name, rows_read=len(graph.facts), rows_loaded=len(rows), notes=notes)
    return TemporalTable(
        name=name or graph.name,
        columns=GRAPH_COLUMNS,
        rows=rows,
        intervals=intervals,
        lines=lines,
        start_column="start",
        end_column="end",
        report=report,
    )
