"""TGB 2.0 ``tkgl-smallpedia``: Wikidata edges, one per year (``ts,head,tail,relation_type``), as a zip.

No sha256 of the zip is known to chronoqa: fetching it needs an explicit checksum or
``allow_unverified=True`` (``--sha256`` / ``--allow-unverified`` on the command line).
"""

from __future__ import annotations

from pathlib import Path

from chronoqa.datasets._spec import DatasetSpec, RemoteFile
from chronoqa.errors import BadRowPolicy
from chronoqa.records import TemporalGraph
from chronoqa.sources.tgb import read_tgb
from chronoqa.time import TimePoint

__all__ = ["SPEC", "load"]

_ZIP = "tkgl-smallpedia.zip"


def load(folder: Path, *, on_bad_row: BadRowPolicy = "skip", as_of: TimePoint | None = None) -> TemporalGraph:
    """Read the edge list inside the fetched zip (one point fact per edge, year granularity)."""
    return read_tgb(folder / _ZIP, name="tkgl-smallpedia", on_bad_row=on_bad_row, as_of=as_of)


SPEC = DatasetSpec(
    name="tkgl-smallpedia",
    description="TGB 2.0 tkgl-smallpedia: 550,376 yearly Wikidata edges (1900-2024), 47,433 nodes; year points",
    files=(
        RemoteFile(
            _ZIP,
            "https://object-arbutus.alliancecan.ca/swift/v1/14c95234f6cd4a21a47deafe20cce2a7/tgb/tkgl-smallpedia.zip",
            None,
        ),
    ),
    licence="CC0 1.0 (Wikidata content; see TGB's dataset card)",
    citation=(
        "Gastinger et al. TGB 2.0: A Benchmark for Learning on Temporal Knowledge Graphs and Heterogeneous "
        "Graphs. NeurIPS 2024 Datasets and Benchmarks."
    ),
    loader=load,
    homepage="https://tgb.complexdatalab.com/",
    format="tgb",
)
