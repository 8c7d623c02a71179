"""How a named dataset is described: as data (files with URL and sha256, licence, citation, loader)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from chronoqa.errors import BadRowPolicy
from chronoqa.records import TemporalGraph
from chronoqa.time import TimePoint

__all__ = ["DatasetSpec", "GraphLoader", "RemoteFile"]


class GraphLoader(Protocol):
    """Reads a fetched dataset folder into a graph (reversed intervals kept and counted)."""

    def __call__(self, folder: Path, *, on_bad_row: BadRowPolicy, as_of: TimePoint | None) -> TemporalGraph:
        """Load the dataset from ``folder``."""
        ...


@dataclass(frozen=True, slots=True)
class RemoteFile:
    """One file of a dataset: its name in the dataset folder, where to download it, and its sha256.

    ``sha256=None`` means no checksum is known: :func:`chronoqa.datasets.fetch` then refuses the file
    unless the caller passes a checksum or allows unverified files explicitly.
    """

    name: str
    url: str
    sha256: str | None


@dataclass(frozen=True, slots=True)
class DatasetSpec:
    """A named dataset: what it is, its files, licence and citation, and how to load it."""

    name: str
    description: str
    files: tuple[RemoteFile, ...]
    licence: str
    citation: str
    loader: GraphLoader | Callable[..., TemporalGraph]
    homepage: str = ""
    #: ``hyte`` (a graph) or ``table`` (a temporal table: ``chronoqa build table --dataset NAME``)
    format: str = "hyte"
    #: the folder of its files under the mirror and the cache (default: ``name``); several datasets may share one
    folder: str = ""

    @property
    def folder_name(self) -> str:
        """The folder of this dataset's files under ``$CHRONOQA_MIRROR`` and the cache."""
        return self.folder or self.name
