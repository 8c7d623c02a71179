"""Build a release again with an existing release's recorded config and seed, from other input data.

:func:`rebuild` reads the old release's ``manifest.json`` (builder, ``config``, ``seed``, ``sources``, the KG
phrase table) and runs the same builder on ``source``: a KG facts file or folder in a format the KG builder reads
(a named dataset's folder is read by that dataset's own loader, so Wikidata12k keeps its labels), or a table file
(or a folder of table files) for a table release. ``as_of`` overrides the recorded ``as_of``; by default both
builders keep the old release's. :func:`rebuild_like` writes the result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chronoqa.artifacts.release import load_release
from chronoqa.errors import ChronoqaError
from chronoqa.generate.result import BuildResult

if TYPE_CHECKING:
    from chronoqa.generate.kg.phrases import PhraseTable

__all__ = ["rebuild", "rebuild_like", "recorded_phrases", "recorded_table_phrases", "table_phrase_record"]

#: Table file suffixes a folder given as a table source is read for.
_TABLE_SUFFIXES = (".csv", ".tsv", ".parquet")


def rebuild_like(
    release: Path,
    source: Path,
    out: Path,
    *,
    as_of: str | None = None,
    phrases: PhraseTable | Path | None = None,
    keep_order: bool = False,
) -> Path:
    """Write the release :func:`rebuild` makes into ``out``; returns ``out``."""
    return rebuild(release, source, as_of=as_of, phrases=phrases, keep_order=keep_order).write(out)


def rebuild(
    release: Path,
    source: Path,
    *,
    as_of: str | None = None,
    phrases: PhraseTable | Path | None = None,
    keep_order: bool = False,
) -> BuildResult:
    """The build of ``source`` with ``release``'s recorded builder, config and seed (``as_of`` overrides its as_of).

    ``phrases``: a phrase file (JSON) for a table release, a phrase table (a TOML path, or a loaded table: a
    counterfactual twin's, its declared years moved) for a KG release; without it, the one the manifest records
    (:func:`recorded_table_phrases`, :func:`recorded_phrases`). ``keep_order`` (KG only) builds the facts in
    ``source``'s row order instead of their content order, which only a counterfactual twin wants
    (:func:`~chronoqa.generate.kg.order.keep_input_order`): its transformed facts are written in the source's content
    order, so the builder draws the same positions.

    Raises:
        ChronoqaError: ``release`` has no manifest recording a builder and its config, or ``source`` is missing.

    """
    manifest = load_release(release).manifest
    builder, config = manifest.get("builder"), manifest.get("config")
    if builder not in ("kg", "table") or not isinstance(config, Mapping):
        raise ChronoqaError(
            f"{Path(release) / 'manifest.json'}: no recorded builder and config (field 'builder', 'config'): "
            "refresh a release chronoqa built (`chronoqa build kg|table`)"
        )
    if not Path(source).exists():
        raise ChronoqaError(f"{source}: no such file or folder (the newer data): check the path given to --input")
    if builder == "kg":
        return _rebuild_kg(manifest, Path(source), as_of, phrases, keep_order)
    if phrases is not None and not isinstance(phrases, Path):
        raise TypeError("a table release reads its phrase file from a path, not a KG phrase table")
    return _rebuild_table(manifest, Path(source), as_of, phrases, Path(release))


def _rebuild_kg(
    manifest: Mapping[str, Any], source: Path, as_of: str | None, phrases: PhraseTable | Path | None, keep_order: bool
) -> BuildResult:
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
    from chronoqa.generate.kg.order import canonical_graph, keep_input_order
    from chronoqa.time import parse_time

    cfg = dict(manifest["config"])
    cfg["operator_weights"] = tuple(dict(cfg.get("operator_weights") or {}).items())
    for key in ("operators", "split_ratios", "hop_weights"):
        if key in cfg:
            cfg[key] = tuple(cfg[key])
    if as_of is not None:
        cfg["as_of"] = as_of
    config = KGBuildConfig(**cfg)
    graph, sources = _read_graph(manifest, source, parse_time(config.as_of, field="as_of"))
    table = phrases if phrases is not None else recorded_phrases(manifest)
    graph = dataclasses.replace(graph, name=str(manifest.get("dataset") or graph.name))  # the same dataset, newer
    ordered = (keep_input_order if keep_order else canonical_graph)(graph, config.seed)
    return build_kg_benchmark(ordered, config, phrases=table, sources=sources)


def _read_graph(manifest: Mapping[str, Any], source: Path, as_of: Any) -> tuple[Any, dict[str, Any]]:
    """``source`` read as the old release's input was, and its provenance as ``chronoqa build kg`` records it.

    A named dataset's folder is read by that dataset's loader, anything else in the recorded format.
    """
    from chronoqa import datasets
    from chronoqa.io import sha256_file
    from chronoqa.sources import detect_format, read_graph

    files = sorted(source.iterdir()) if source.is_dir() else [source]
    sha = {p.name: sha256_file(p) for p in files if p.is_file()}
    recorded = manifest.get("sources") or {}
    name = recorded.get("dataset")
    if isinstance(name, str) and source.is_dir():
        graph = datasets.get_spec(name).loader(source, on_bad_row="skip", as_of=as_of)
        return graph, {"dataset": name, "input": source.name, "sha256": sha}
    fmt = recorded.get("format") or detect_format(source)
    # a named dataset's facts written to a file (a twin's) keep their reversed intervals, as its loader does
    reversed_rows = "keep" if isinstance(name, str) else "raise"
    graph = read_graph(source, fmt, as_of=as_of, on_reversed=reversed_rows)
    return graph, {"input": source.name, "format": fmt, "sha256": sha}


def recorded_phrases(manifest: Mapping[str, Any]) -> str | None:
    """The phrase table the old build used: a shipped table's name (``<default wikidata12k>``) or its path."""
    text = str((manifest.get("phrases") or {}).get("source") or "")
    if text.startswith("<default ") and text.endswith(">"):
        return text[len("<default ") : -1]
    return text or None


def table_phrase_record(path: str | Path) -> dict[str, str]:
    """A table manifest's ``phrases``: the phrase file as given and its sha256 (what a rebuild checks it by)."""
    from chronoqa.io import sha256_file

    return {"file": str(path), "sha256": sha256_file(Path(path))}


def recorded_table_phrases(manifest: Mapping[str, Any], release: Path) -> tuple[Path | None, dict[str, str] | None]:
    """The phrase file a table release was built with (its manifest's ``phrases``), and its record.

    The file is looked for as recorded and inside the release folder, and taken only when its sha256 is the
    recorded one. ``(None, None)``: the build read no phrase file.

    Raises:
        ChronoqaError: the recorded file is missing or differs from the one the build read.

    """
    from chronoqa.io import sha256_file

    record = manifest.get("phrases")
    if not isinstance(record, Mapping) or "sha256" not in record:
        return None, None
    name, sha = str(record.get("file")), str(record["sha256"])
    found = [p for p in (Path(name), release / name) if p.is_file()]
    for p in found:
        if sha256_file(p) == sha:
            return p, {"file": name, "sha256": sha}
    why = "is not there" if not found else f"is not the file the build read (sha256 {sha[:12]}...)"
    raise ChronoqaError(
        f"{release / 'manifest.json'}: its phrase file {name!r} {why}: give the phrase file it was built with, "
        "--phrases FILE"
    )


def _rebuild_table(
    manifest: Mapping[str, Any], source: Path, as_of: str | None, phrases: Path | None, release: Path
) -> BuildResult:
    from chronoqa.generate.table import PhraseBook, build_table_benchmark
    from chronoqa.generate.table.build import read_table_files
    from chronoqa.generate.table.recognise import recognise_files

    files = sorted(p for p in source.iterdir() if p.suffix in _TABLE_SUFFIXES) if source.is_dir() else [source]
    tables, sources = read_table_files(files)
    recognised = recognise_files(tables, sources)
    _carry_declarations(manifest, recognised, sources)
    config = _table_config(manifest, as_of)
    missing = sorted(set(config.build_tables or ()) - {t.name for t in tables})
    if missing:
        raise ChronoqaError(
            f"{source}: the old release was built from table {missing[0]!r}, which the newer data lacks: give a "
            f"file named {missing[0]}.csv (a table is named by its file's stem)"
        )
    read, record = (
        (phrases, table_phrase_record(phrases)) if phrases is not None else recorded_table_phrases(manifest, release)
    )
    book = recognised.phrases(PhraseBook.load(read))
    return build_table_benchmark(tables, config, phrases=book, sources=sources, phrase_file=record)


def _carry_declarations(manifest: Mapping[str, Any], recognised: Any, sources: dict[str, dict[str, str]]) -> None:
    """The TDBench declarations the old build applied, kept for a newer file of that table (not the registered one).

    A newer release of a TDBench table differs from the registered file by design; its sha256 no longer recognises
    it, but the old release recorded which declarations it was built with (phrases, rows declared wrong,
    completeness), and a refresh rebuilds with the recorded config. The source records them as ``declarations``.
    """
    from chronoqa.datasets.tdbench import declarations

    for name, src in sources.items():
        old = (manifest.get("sources") or {}).get(name) or {}
        dataset = old.get("dataset") or old.get("declarations")
        if name in recognised.declared or not isinstance(dataset, str):
            continue
        recognised.add(declarations(dataset))
        src["declarations"] = dataset


def _table_config(manifest: Mapping[str, Any], as_of: str | None) -> Any:
    """The recorded :class:`TableBuildConfig` (completeness declared by a phrase file left to that file)."""
    from chronoqa.generate.table import JoinSpec, TableBuildConfig

    cfg = dict(manifest["config"])
    by_config = [
        n for n, t in (manifest.get("tables") or {}).items() if (t.get("complete") or {}).get("by") == "config"
    ]
    cfg["complete"] = tuple(sorted(by_config))
    cfg["joins"] = tuple(
        JoinSpec(j["left"], j["right"], tuple(j["on"]) or None, dict(j["aliases"])) for j in cfg.get("joins") or ()
    )
    cfg["ratios"] = tuple(cfg["ratios"])
    if as_of is not None:
        cfg["as_of"] = as_of
    return TableBuildConfig(**cfg)
