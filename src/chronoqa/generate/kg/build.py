"""``build_kg_benchmark``: a TempBench-style release from any temporal knowledge graph.

The build is the list of steps :data:`STEPS`, each a function of one
:class:`~chronoqa.generate.kg.steps.BuildState` (in :mod:`chronoqa.generate.kg.steps`), run in order. Nothing
reads the wall clock; the same graph, config and seed give byte-identical release folders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from chronoqa.generate.kg.cells import MAX_NESTING
from chronoqa.generate.kg.config import KGBuildConfig
from chronoqa.generate.kg.corpus import ColumnarCorpus, corpus_columns
from chronoqa.generate.kg.datacard import render_datacard
from chronoqa.generate.kg.operators.base import GoldFacts
from chronoqa.generate.kg.phrases import PhraseTable
from chronoqa.generate.kg.plausible import REASONS
from chronoqa.generate.kg.steps import (
    BuildState,
    ProgressFn,
    assemble_questions,
    audit,
    check_labels,
    fill_cells,
    graph_relations,
    leaks,
    make_manifest,
    prepare_drafting,
    resolve_cardinality,
    resolve_inputs,
    resolve_not_years,
    resolve_open_end,
    resolve_phrases,
    run_engine,
)
from chronoqa.generate.result import BuildResult
from chronoqa.records import Doc, TemporalGraph

__all__ = [
    "MAX_NESTING",
    "STEPS",
    "KGBuild",
    "build_kg_benchmark",
    "graph_relations",
    "leaks",
    "resolve_cardinality",
    "resolve_not_years",
    "resolve_open_end",
    "resolve_phrases",
]

#: The KG builder's name for the result every builder returns.
KGBuild = BuildResult

#: The steps of a build, in order (each sets fields of the build state that the later ones read).
STEPS: tuple[Callable[[BuildState], None], ...] = (
    resolve_inputs,  # phrases, open-end and non-year readings, facts in content order (per-year expansion)
    run_engine,  # index, implausible dates, cardinality, overlap groups, chain candidates (SQL on DuckDB or Spark)
    check_labels,  # every entity has a readable label (or allow_ids)
    prepare_drafting,  # seeds, static hops, the exhaustive chain pool on small graphs, the renderer
    fill_cells,  # the operator x hop cells filled with verified, deduplicated, leak-checked drafts
    assemble_questions,  # splits, negatives and flags, the Question records
    audit,  # no answer in its text; each operator's gold rule re-checked
    make_manifest,  # the shared manifest header and the KG sections
)


def build_kg_benchmark(
    graph: TemporalGraph,
    config: KGBuildConfig | None = None,
    *,
    phrases: PhraseTable | str | Path | None = None,
    entity_labels: Mapping[str, str] | None = None,
    sources: Mapping[str, Any] | None = None,
    progress: ProgressFn | None = None,
) -> KGBuild:
    """Build a KG benchmark from ``graph``: run :data:`STEPS`, then make the data card and the corpus.

    Args:
        graph: The temporal KG (any loader). Its facts are put in canonical order first
            (:func:`~chronoqa.generate.kg.order.canonical_facts`): a copy of the columns, unless the caller
            passed ``canonical_graph(graph, config.seed)`` (then used as they are; a caller that drops its
            own graph holds one copy of the facts, not two; same release bytes).
        config: Build configuration (defaults: 10,000 questions, year granularity, seed 0).
        phrases: A phrase table, a TOML path or a shipped table name; ``None`` picks the shipped one.
        entity_labels: Extra entity labels (id → label), overriding the graph's (e.g. Wikidata Q-id labels).
        sources: Provenance for the manifest (e.g. file checksums of the input).
        progress: Called as ``progress(done, total)`` while questions are generated.

    Returns:
        The :class:`KGBuild`; call ``.write(out_dir)`` to write the release folder.

    Raises:
        MissingPhrasesError: A relation of the graph has no phrases (and ``generic_phrases`` is off).
        ChronoqaError: The build-time audit found a leaking or invalid question.

    """
    s = BuildState(graph, config or KGBuildConfig(), phrases, dict(entity_labels or {}), dict(sources or {}), progress)
    for step in STEPS:
        step(s)
    return _result(s)


def _result(s: BuildState) -> KGBuild:
    """The build's result: questions, flags, the corpus (made on demand), manifest, data card, implausible facts."""
    args = (s.facts, s.doc_ids, s.phr, s.label, s.graph.relation_label, s.cfg.as_of_point, s.open_end, s.bad_years)

    def corpus() -> Iterator[Doc]:
        return corpus_columns(*args).docs()

    def batches() -> ColumnarCorpus:
        return corpus_columns(*args)

    pos = s.implausible_pos
    listed = [
        {"fact": fact, "doc": s.doc_ids[i], "reason": REASONS[c]}
        for i, fact, c in zip(pos.tolist(), s.facts.ids[pos].tolist(), s.implausible_code[pos].tolist(), strict=True)
    ]
    # the engine is not in the manifest: same bytes; "gold" is what a refresh re-checks an older question against
    gold = GoldFacts(s.facts, s.is_event, s.cfg.as_of_point, s.open_end)
    stats = {"cells": s.manifest["cells"], "engine": s.cfg.engine, "gold": gold}
    return KGBuild(
        s.questions, s.flags, corpus, s.manifest, render_datacard(s.manifest, s.questions), stats,
        implausible=listed, corpus_batches=batches,
    )  # fmt: skip
