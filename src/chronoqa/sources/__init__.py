"""Readers of temporal data, one module per format, and a registry of formats described as data.

========== ============================================== ==========================================
format     reader                                         input
========== ============================================== ==========================================
hyte       :func:`~chronoqa.sources.hyte.read_hyte`       HyTE folder: temporal + entities/relations.dict
tgb        :func:`~chronoqa.sources.tgb.read_tgb`         TGB 2.0 ``tkgl-*`` edge list (CSV or zip)
quintuples :func:`~chronoqa.sources.quintuples.read_quintuples`  CSV/TSV/Parquet with a column mapping
table      :func:`~chronoqa.sources.tables.read_table`    temporal table (TDBench style), not triples
========== ============================================== ==========================================

:func:`read_graph` is the one place that chooses a graph reader: by name, or detected from the path
(a folder is ``hyte``, a ``.zip`` or a CSV with TGB's header ``ts,head,tail,relation_type`` is ``tgb``,
any other file ``quintuples``); ``chronoqa build kg --input`` and ``chronoqa run --files`` both go
through it.

Bad rows follow one policy everywhere (see :mod:`chronoqa.sources._common`); errors name the file,
line, field, value, what was expected and the fix. :mod:`chronoqa.sources.synthetic` writes a
deterministic synthetic TKG in the graph formats.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from chronoqa.errors import DataError, UnknownNameError
from chronoqa.records import TemporalGraph, TemporalTable
from chronoqa.sources.hyte import read_hyte, write_hyte
from chronoqa.sources.quintuples import read_quintuples
from chronoqa.sources.tables import read_table
from chronoqa.sources.tgb import read_tgb, write_tgb_edgelist

__all__ = [
    "FORMATS",
    "Format",
    "detect_format",
    "get_format",
    "read",
    "read_graph",
    "read_hyte",
    "read_quintuples",
    "read_table",
    "read_tgb",
    "write_hyte",
    "write_tgb_edgelist",
]


@dataclass(frozen=True, slots=True)
class Format:
    """One input format: its name, what it reads, its reader and what the reader returns."""

    name: str
    description: str
    reader: Callable[..., TemporalGraph | TemporalTable]
    returns: str  # "graph" or "table"


FORMATS: Mapping[str, Format] = MappingProxyType(
    {
        f.name: f
        for f in (
            Format("hyte", "HyTE/RE-Net folder: temporal + entities.dict + relations.dict", read_hyte, "graph"),
            Format("tgb", "TGB 2.0 tkgl-* edge list ts,head,tail,relation_type (CSV or zip)", read_tgb, "graph"),
            Format(
                "quintuples", "s,r,o,start,end from CSV/TSV/Parquet with a column mapping", read_quintuples, "graph"
            ),
            Format(
                "table", "temporal table: attribute columns plus start/end columns (CSV/Parquet)", read_table, "table"
            ),
        )
    }
)


def get_format(name: str) -> Format:
    """The format called ``name``; a typo raises :class:`UnknownNameError` with a suggestion."""
    try:
        return FORMATS[name]
    except KeyError:
        raise UnknownNameError("format", name, FORMATS) from None


def read(path: str | Path, format: str, **options: Any) -> TemporalGraph | TemporalTable:
    """Read ``path`` with the reader of ``format`` (options go to the reader)."""
    return get_format(format).reader(path, **options)


_TGB_HEADER = ("ts", "head", "tail", "relation_type")


def detect_format(path: str | Path) -> str:
    """The graph format of ``path``: ``hyte`` (a folder), ``tgb`` (a zip or TGB's CSV header) or ``quintuples``."""
    p = Path(path)
    if p.is_dir():
        return "hyte"
    if p.suffix.lower() == ".zip":
        return "tgb"
    if p.suffix.lower() == ".csv" and p.is_file():
        with p.open("rb") as fh:
            first = fh.readline().decode("utf-8", "replace").lstrip("\ufeff").strip()
        if tuple(c.strip() for c in first.split(",")) == _TGB_HEADER:
            return "tgb"
    return "quintuples"


def read_graph(path: str | Path, format: str | None = None, **options: Any) -> TemporalGraph:
    """Read a temporal graph with the reader of ``format`` (detected from the path when ``None``).

    Options go to the reader; one that the chosen reader does not take (``on_reversed`` for ``tgb``,
    whose yearly points cannot be reversed) is left out.
    """
    if not Path(path).exists():
        raise DataError(
            str(path), 0, "(input)", str(path), "an existing TKG folder or file", "check the path given to --input"
        )
    fmt = get_format(detect_format(path) if format is None else format)
    if fmt.returns != "graph":
        raise UnknownNameError("graph format", fmt.name, [n for n, f in FORMATS.items() if f.returns == "graph"])
    accepted = inspect.signature(fmt.reader).parameters
    graph = fmt.reader(path, **{k: v for k, v in options.items() if k in accepted})
    assert isinstance(graph, TemporalGraph)
    return graph
