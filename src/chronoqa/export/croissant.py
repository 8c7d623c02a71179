"""Croissant metadata (MLCommons, ``croissant.json``) over the Hugging Face Parquet layout.

The folder holds the Parquet files of :func:`chronoqa.export.hf.write_hf` and ``croissant.json``:
one ``FileSet`` per config (``questions``, ``corpus``, ``qrels``), one ``FileObject`` per Parquet file
(with its sha256), and one record set per config whose fields carry the Croissant data types of the
Arrow columns (``sc:Text``, ``sc:Integer``, ``sc:Boolean``; lists of strings are ``repeated``). The
nested triple lists (``S_star`` and the negatives) are described as ``repeated`` fields with typed
sub-fields. Licence, citation and source come from the dataset registry; ``datePublished`` is the release's
``as_of`` (its manifest's), never the day of the export, so the same release gives the same file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa

from chronoqa.artifacts.release import Release
from chronoqa.export.hf import CORPUS_SCHEMA, QRELS_SCHEMA, QUESTION_SCHEMA, write_hf
from chronoqa.export.provenance import provenance_of
from chronoqa.io import sha256_file, write_json
from chronoqa.time import parse_time

__all__ = ["CONTEXT", "CROISSANT_FILE", "croissant_metadata", "date_published", "write_croissant"]

CROISSANT_FILE = "croissant.json"

CONTEXT: dict[str, Any] = {
    "@language": "en",
    "@vocab": "https://schema.org/",
    "citeAs": "cr:citeAs",
    "column": "cr:column",
    "conformsTo": "dct:conformsTo",
    "cr": "http://mlcommons.org/croissant/",
    "rai": "http://mlcommons.org/croissant/RAI/",
    "samplingRate": "cr:samplingRate",
    "equivalentProperty": "cr:equivalentProperty",
    "data": {"@id": "cr:data", "@type": "@json"},
    "dataType": {"@id": "cr:dataType", "@type": "@vocab"},
    "dct": "http://purl.org/dc/terms/",
    "examples": {"@id": "cr:examples", "@type": "@json"},
    "extract": "cr:extract",
    "field": "cr:field",
    "fileProperty": "cr:fileProperty",
    "fileObject": "cr:fileObject",
    "fileSet": "cr:fileSet",
    "format": "cr:format",
    "includes": "cr:includes",
    "isLiveDataset": "cr:isLiveDataset",
    "jsonPath": "cr:jsonPath",
    "key": "cr:key",
    "md5": "cr:md5",
    "parentField": "cr:parentField",
    "path": "cr:path",
    "recordSet": "cr:recordSet",
    "references": "cr:references",
    "regex": "cr:regex",
    "repeated": "cr:repeated",
    "replace": "cr:replace",
    "sc": "https://schema.org/",
    "separator": "cr:separator",
    "source": "cr:source",
    "subField": "cr:subField",
    "transform": "cr:transform",
}

_TYPES = {"string": "sc:Text", "int64": "sc:Integer", "bool": "sc:Boolean"}
_CONFIGS = (("questions", QUESTION_SCHEMA), ("corpus", CORPUS_SCHEMA), ("qrels", QRELS_SCHEMA))


def _field(config: str, name: str, t: pa.DataType, parent: str | None = None) -> dict[str, Any]:
    fid = f"{config}/{name}" if parent is None else f"{parent}/{name}"
    source: dict[str, Any] = {"fileSet": {"@id": f"{config}-parquet"}, "extract": {"column": name}}
    f: dict[str, Any] = {"@type": "cr:Field", "@id": fid, "name": name}
    if pa.types.is_list(t) and pa.types.is_struct(t.value_type):
        f["repeated"] = True
        f["subField"] = [_field(config, sub.name, sub.type, fid) for sub in t.value_type]
        f["source"] = source
        for sub in f["subField"]:
            sub["source"] = {"fileSet": {"@id": f"{config}-parquet"}, "extract": {"column": name}}
            sub["source"]["transform"] = {"jsonPath": sub["name"]}
        return f
    if pa.types.is_list(t):
        f["repeated"] = True
        t = t.value_type
    f["dataType"] = _TYPES[str(t)]
    if parent is None:
        f["source"] = source
    return f


def date_published(release: Release) -> str | None:
    """The release's ``as_of`` (manifest ``as_of`` or ``config.as_of``) as an ISO date; ``None`` without one."""
    m = release.manifest
    config = m.get("config")
    value = m.get("as_of") or (config.get("as_of") if isinstance(config, dict) else None)
    point = parse_time(value, field="as_of")
    return None if point is None else point.isoformat()


def croissant_metadata(release: Release, folder: Path) -> dict[str, Any]:
    """The Croissant JSON-LD of an exported Parquet folder (paths relative to ``folder``)."""
    prov = provenance_of(release)
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.parquet"))
    distribution: list[dict[str, Any]] = []
    for path in files:
        distribution.append(
            {
                "@type": "cr:FileObject",
                "@id": path,
                "name": path,
                "contentUrl": path,
                "encodingFormat": "application/x-parquet",
                "sha256": sha256_file(folder / path),
            }
        )
    for config, _ in _CONFIGS:
        distribution.append(
            {
                "@type": "cr:FileSet",
                "@id": f"{config}-parquet",
                "name": f"{config}-parquet",
                "encodingFormat": "application/x-parquet",
                "includes": f"{config}/*.parquet",
            }
        )
    record_sets = [
        {
            "@type": "cr:RecordSet",
            "@id": config,
            "name": config,
            "field": [_field(config, f.name, f.type) for f in schema],
        }
        for config, schema in _CONFIGS
    ]
    meta: dict[str, Any] = {
        "@context": CONTEXT,
        "@type": "sc:Dataset",
        "conformsTo": "http://mlcommons.org/croissant/1.0",
        "name": f"chronoqa-{prov.dataset}",
        "description": (
            f"Time-sensitive QA benchmark generated by chronoqa ({prov.builder} builder) from {prov.dataset}: "
            "questions with their time-valid gold chains and typed negatives, a corpus of verbalised facts, "
            "and qrels. Source licence: " + prov.licence
        ),
        "license": prov.licence_url or prov.licence,
        "url": prov.homepage or "https://example.invalid/chronoqa-release",
        "version": str(release.manifest.get("version", "0.0.0")),
        **({"datePublished": published} if (published := date_published(release)) else {}),
        "citeAs": prov.citation or f"chronoqa release of {prov.dataset} (source licence unknown)",
        "distribution": distribution,
        "recordSet": record_sets,
    }
    return meta


def write_croissant(release: Release, out: Path, validation: Path | None = None) -> Path:
    """Write the Parquet layout and ``croissant.json`` into ``out``; returns ``out``."""
    write_hf(release, out, validation)
    write_json(out / CROISSANT_FILE, croissant_metadata(release, out))
    return out
