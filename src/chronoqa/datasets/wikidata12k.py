"""Wikidata12k (HyTE; Leblay & Chekol 2018): Wikidata Q-ids and P-ids, year granularity.

The English labels of its 24 relations are not upstream: they are Wikidata's property labels (CC0),
stated below as data, and the loader uses them.

English entity labels are a named resource of the dataset: ``entity2name.txt`` (and
``relation2name.txt``), Wikidata's labels (CC0) from ``Hong0126/kg-TKGC-Project`` @ ``8f1ad32``, fetched
and checksum-verified with the graph, and read by :func:`load` by default. The file's quirks are
handled by :func:`chronoqa.sources.labels.read_entity_labels` (``&amp;``, U+200E format characters,
Q4440472 listed twice, once with its id as its label). Its one blank label, ``Q29051963``, is the
spouse Erich Maria Remarque married twice (1925-1930 and 1938-1957), Ilse Jutta Zambona; that label is
stated below as data (:data:`LABEL_FIXES`), taken from the record of Remarque's marriages, not from
the file.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from chronoqa.datasets._spec import DatasetSpec, RemoteFile
from chronoqa.errors import BadRowPolicy
from chronoqa.records import TemporalGraph
from chronoqa.sources.hyte import read_hyte
from chronoqa.sources.labels import read_entity_labels
from chronoqa.time import TimePoint

__all__ = ["ENTITY_LABELS_FILE", "LABEL_FIXES", "SPEC", "load", "relation_labels"]

_BASE = "https://raw.githubusercontent.com/Tan-Hexiang/Temporal_KGC/419ee05fed2b31ec799769f6b2d77a1c41bb72f6/data/wikidata12k/"
_SUMS = (
    ("temporal", "d4b31e9c46cb503f6f976c43ee796264e41835d6d7f6293d12d3a0eacdef78db"),
    ("entities.dict", "8d64f52770c99a4c5b07ef70306af861f2786ac30400581c6aec53556e8bf7ca"),
    ("relations.dict", "30132991199853e14646ec17a378efe3f160ba0d5d8af3114d6abdf35e879138"),
    ("train.txt", "5b4c3b709c3ef22f6356c7ae061c28b354be2d58b282c8a78eab90972d5c92f2"),
    ("valid.txt", "5049fa0046f4eef45f73e775d082ff735edff7284f26887b6cb4facbf6381ed7"),
    ("test.txt", "312caa11abd4d8b3a7d9daae4d1560efd4fcfe426c8e667fa1b591cf218a3878"),
)
_LABELS_BASE = (
    "https://raw.githubusercontent.com/Hong0126/kg-TKGC-Project/8f1ad320b5bc6955b0abdd70db87857dd508201e/data/"
)
ENTITY_LABELS_FILE = "entity2name.txt"
_LABEL_FILES = (
    (
        ENTITY_LABELS_FILE,
        "ind-WIKIDATA12k/entity2name.txt",
        "2eb2b2eac0bb169a03789dce04649fc3b1853d25fee1f16a569ebe561a3d81ba",
    ),
    (
        "relation2name.txt",
        "WIKIDATA12k/relation2name.txt",
        "427be5be156b3629c18c3b5ead298f433bc8bfb1334e62b61178bd107a06dec2",
    ),
)
# labels the label file leaves blank (see the module docstring)
LABEL_FIXES = {"Q29051963": "Ilse Jutta Zambona"}


# Wikidata's English labels of the 24 properties Wikidata12k uses.
_RELATION_LABELS = {
    "P17": "country",
    "P26": "spouse",
    "P27": "country of citizenship",
    "P31": "instance of",
    "P39": "position held",
    "P54": "member of sports team",
    "P6": "head of government",
    "P69": "educated at",
    "P102": "member of political party",
    "P108": "employer",
    "P131": "located in the administrative territorial entity",
    "P150": "contains the administrative territorial entity",
    "P166": "award received",
    "P190": "twinned administrative body",
    "P463": "member of",
    "P512": "academic degree",
    "P551": "residence",
    "P579": "IMA status and/or rank",
    "P793": "significant event",
    "P1346": "winner",
    "P1376": "capital of",
    "P1411": "nominated for",
    "P1435": "heritage designation",
    "P2962": "title of chess person",
}


def relation_labels() -> dict[str, str]:
    """The English labels of Wikidata12k's 24 P-ids."""
    return dict(_RELATION_LABELS)


def load(folder: Path, *, on_bad_row: BadRowPolicy = "skip", as_of: TimePoint | None = None) -> TemporalGraph:
    """Read the fetched folder (all of ``temporal``; reversed intervals kept and counted), with English labels.

    Entity labels come from ``entity2name.txt`` in the folder when it is there (plus :data:`LABEL_FIXES`);
    without it the Q-ids are their own labels (and a KG build then names them as missing).
    """
    graph = read_hyte(
        folder,
        name="wikidata12k",
        on_bad_row=on_bad_row,
        on_reversed="keep",
        as_of=as_of,
        relation_labels=relation_labels(),
    )
    path = Path(folder) / ENTITY_LABELS_FILE
    if not path.is_file():
        return graph
    labels = {**LABEL_FIXES, **read_entity_labels(path)}
    return dataclasses.replace(graph, entity_labels={**graph.entity_labels, **labels})


SPEC = DatasetSpec(
    name="wikidata12k",
    description="Wikidata12k (HyTE): 40,621 facts over 12,554 Q-ids and 24 P-ids; year granularity",
    files=(
        *(RemoteFile(n, _BASE + n, h) for n, h in _SUMS),
        *(RemoteFile(n, _LABELS_BASE + up, h) for n, up, h in _LABEL_FILES),
    ),
    licence="CC0 1.0 (Wikidata content)",
    citation=(
        "Leblay, Chekol. Deriving Validity Time in Knowledge Graph. WWW 2018 Companion; "
        "Dasgupta, Ray, Talukdar. HyTE. EMNLP 2018. Files: Tan-Hexiang/Temporal_KGC @ 419ee05; "
        "English labels (Wikidata, CC0): Hong0126/kg-TKGC-Project @ 8f1ad32."
    ),
    loader=load,
    homepage="https://github.com/Tan-Hexiang/Temporal_KGC",
)
