"""YAGO11k (HyTE, Dasgupta et al. 2018): interval-valued TKG over YAGO3 names, day/month/year times."""

from __future__ import annotations

from pathlib import Path

from chronoqa.datasets._spec import DatasetSpec, RemoteFile
from chronoqa.errors import BadRowPolicy
from chronoqa.records import TemporalGraph
from chronoqa.sources.hyte import read_hyte
from chronoqa.time import TimePoint

__all__ = ["SPEC", "load"]

_BASE = (
    "https://raw.githubusercontent.com/Tan-Hexiang/Temporal_KGC/419ee05fed2b31ec799769f6b2d77a1c41bb72f6/data/yago11k/"
)
_SUMS = (
    ("temporal", "c343b3e13a79e3b2023bc67d66c6da0916c6de7c763ca88896f833383839365e"),
    ("entities.dict", "1eb703d1cb42c14151ca570d4e0a3bef0b2b94a8e70d6a339b079acd7340a700"),
    ("relations.dict", "312b11dc8ccf389e2310a19474d40193353b3133b695a225221859c007a9e102"),
    ("train.txt", "ac6702dfede3e6812c263982e39207b6577dec2b1e2d773e2a257cc2631bea5f"),
    ("valid.txt", "341efb8df198f20cadf4d5baa3f977763e6f7f86789cbb81ff580a61970b1b01"),
    ("test.txt", "dcaa9306f019e0dbb7a4336b358cc898f14e9af4a285ed1a9b6de5c685046dfb"),
)


def load(folder: Path, *, on_bad_row: BadRowPolicy = "skip", as_of: TimePoint | None = None) -> TemporalGraph:
    """Read the fetched folder (all of ``temporal``; reversed intervals kept and counted)."""
    return read_hyte(folder, name="yago11k", on_bad_row=on_bad_row, on_reversed="keep", as_of=as_of)


SPEC = DatasetSpec(
    name="yago11k",
    description="YAGO11k (HyTE): 20,506 facts over 10,623 YAGO3 entities and 10 relations; year/month/day times",
    files=tuple(RemoteFile(n, _BASE + n, h) for n, h in _SUMS),
    licence="CC BY 3.0 (YAGO3; attribute YAGO, Max Planck Institute for Informatics)",
    citation=(
        "Dasgupta, Ray, Talukdar. HyTE: Hyperplane-based Temporally aware Knowledge Graph Embedding. EMNLP 2018. "
        "Files: Tan-Hexiang/Temporal_KGC @ 419ee05."
    ),
    loader=load,
    homepage="https://github.com/Tan-Hexiang/Temporal_KGC",
)
