"""Named datasets: a registry described as data, checksum-verified fetching, loading and summaries.

* :data:`DATASETS` maps a name to its :class:`DatasetSpec` (files with pinned URL and sha256,
  licence, citation, loader); one module per dataset.
* :func:`fetch` returns the folder holding a dataset's files: ``$CHRONOQA_MIRROR/<name>/`` when that
  variable names a folder holding them, else the cache folder (``$CHRONOQA_CACHE``, else the user's
  XDG cache dir), downloading what is missing with :mod:`urllib`. Every file is verified by sha256;
  downloads are written atomically; a mismatch raises :class:`~chronoqa.errors.ChecksumError` naming
  the file and both sums.
* :func:`load_graph` loads a named dataset (bad rows skipped and counted; reversed intervals kept and
  counted); :func:`info` summarises it (:class:`DatasetInfo`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from chronoqa.datasets import tdbench, tkgl_smallpedia, wikidata12k, yago11k
from chronoqa.datasets._fetch import cache_dir, dataset_folder, fetch, fetch_spec, mirror_dir, verify_file
from chronoqa.datasets._info import DatasetInfo, GraphStats, graph_stats
from chronoqa.datasets._spec import DatasetSpec, GraphLoader, RemoteFile
from chronoqa.errors import BadRowPolicy, UnknownNameError
from chronoqa.records import TemporalGraph
from chronoqa.time import TimePoint

__all__ = [
    "DATASETS",
    "DatasetInfo",
    "DatasetSpec",
    "GraphLoader",
    "GraphStats",
    "RemoteFile",
    "cache_dir",
    "dataset_folder",
    "fetch",
    "fetch_spec",
    "get_spec",
    "graph_stats",
    "info",
    "load_graph",
    "mirror_dir",
    "verify_file",
]

DATASETS: Mapping[str, DatasetSpec] = MappingProxyType(
    {spec.name: spec for spec in (yago11k.SPEC, wikidata12k.SPEC, tkgl_smallpedia.SPEC, *tdbench.SPECS)}
)


def get_spec(name: str) -> DatasetSpec:
    """The spec of a named dataset; a typo raises :class:`UnknownNameError` with a suggestion."""
    try:
        return DATASETS[name]
    except KeyError:
        raise UnknownNameError("dataset", name, DATASETS) from None


def load_graph(
    name: str,
    *,
    on_bad_row: BadRowPolicy = "skip",
    as_of: TimePoint | None = None,
    sha256: str | None = None,
    allow_unverified: bool = False,
) -> TemporalGraph:
    """Fetch (if needed) and load a named dataset; reversed intervals are kept and counted."""
    spec = get_spec(name)
    folder = fetch(name, sha256=sha256, allow_unverified=allow_unverified)
    return spec.loader(folder, on_bad_row=on_bad_row, as_of=as_of)


def info(
    name: str,
    *,
    as_of: TimePoint | None = None,
    top: int = 10,
    progress: Callable[[str], None] | None = None,
    sha256: str | None = None,
    allow_unverified: bool = False,
) -> DatasetInfo:
    """Summary of a named dataset (fetches and loads it; see :func:`fetch` for the checksum options)."""
    spec = get_spec(name)
    if progress:
        progress(f"fetching {name}")
    folder = fetch(name, sha256=sha256, allow_unverified=allow_unverified)
    if progress:
        progress(f"loading {name}")
    graph = spec.loader(folder, on_bad_row="skip", as_of=as_of)
    dict_entities: frozenset[str] = frozenset()
    if spec.format == "hyte" and (folder / "entities.dict").is_file():
        from chronoqa.sources.hyte import read_dict

        dict_entities = frozenset(read_dict(folder / "entities.dict").values())
    if progress:
        progress(f"summarising {name}")
    return DatasetInfo(spec=spec, stats=graph_stats(graph, top=top, extra_entities=dict_entities), folder=str(folder))
