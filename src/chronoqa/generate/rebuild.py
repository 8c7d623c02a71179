"""Build a release again, with the configuration and seed an existing release recorded, from other input data.

:func:`rebuild_like` is the one place that reads a release's manifest back into a builder call: counterfactual
twins (:mod:`chronoqa.generate.twin`) give it a transformed copy of the release's facts. The new release is
built, checked and written by the builder itself: nothing of the old release but its manifest is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from chronoqa.errors import ChronoqaError

__all__ = ["rebuild_like", "recorded_phrases"]

_DEFAULT_PHRASES = "<default "


def _manifest(release: Path) -> dict[str, Any]:
    from chronoqa.artifacts.release import load_release

    return dict(load_release(release).manifest)


def _kg_config(config: Mapping[str, Any], as_of: str | None) -> Any:
    """The :class:`KGBuildConfig` a manifest recorded (its ``to_dict`` form read back), ``as_of`` replaced if given."""
    from chronoqa.generate.kg import KGBuildConfig

    d = dict(config)
    d["operators"] = tuple(d["operators"])
    d["split_ratios"] = tuple(d["split_ratios"])
    d["hop_weights"] = tuple(d["hop_weights"])
    d["operator_weights"] = tuple(dict(d["operator_weights"]).items())
    if as_of is not None:
        d["as_of"] = as_of
    return KGBuildConfig(**d)


def recorded_phrases(manifest: Mapping[str, Any], release: Path) -> str:
    """The phrase table the release was built with: a shipped table's name (``<default yago11k>`` → ``yago11k``)."""
    source = str((manifest.get("phrases") or {}).get("source", ""))
    if source.startswith(_DEFAULT_PHRASES) and source.endswith(">"):
        return source[len(_DEFAULT_PHRASES) : -1]
    if source and Path(source).is_file():
        return source
    raise ChronoqaError(
        f"{release / 'manifest.json'}: phrases.source {source!r} is not a shipped phrase table nor a file that "
        "exists: rebuild it with chronoqa build kg --phrases FILE instead"
    )


def rebuild_like(release: Path, source: Path, out: Path, *, as_of: str | None = None, keep_order: bool = False) -> Path:
    """Build ``source`` (a facts file or folder ``chronoqa build kg --input`` reads) as ``release`` was built.

    The release's recorded configuration, seed and phrase table are used; ``as_of`` replaces its "now" when given.
    ``keep_order`` builds the facts in ``source``'s row order instead of their content order, which only a
    counterfactual twin wants (:func:`~chronoqa.generate.kg.order.keep_input_order`). The new release is written
    to ``out`` and its folder returned; its manifest's ``sources`` name ``source`` and the release it was built
    like. Only KG releases can be rebuilt for now.
    """
    from chronoqa.generate.kg import build_kg_benchmark
    from chronoqa.generate.kg.order import canonical_graph, keep_input_order
    from chronoqa.io import sha256_file
    from chronoqa.sources import read_graph

    manifest = _manifest(release)
    if manifest.get("builder") != "kg":
        raise ChronoqaError(
            f"{release}: a {manifest.get('builder')!r} release; only KG releases (chronoqa build kg) can be "
            "rebuilt from other facts for now"
        )
    config = _kg_config(manifest["config"], as_of)
    graph = read_graph(source, as_of=config.as_of_point, on_bad_row="raise", on_reversed="keep")
    graph = (keep_input_order if keep_order else canonical_graph)(graph, config.seed)
    files = [source] if source.is_file() else sorted(p for p in source.iterdir() if p.is_file())
    sources = {
        "input": source.name,
        "sha256": {p.name: sha256_file(p) for p in files},
        "rebuilt_like": {"dataset": manifest["dataset"], "sources": manifest["sources"]},
    }
    build = build_kg_benchmark(graph, config, phrases=recorded_phrases(manifest, release), sources=sources)
    if not build.questions:
        raise ChronoqaError(f"{source}: rebuilt like {release}, the build yielded no question; nothing was written")
    build.write(out)
    return out
