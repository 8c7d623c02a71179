"""What every builder returns (:class:`BuildResult`) and the one manifest schema of a release.

Both builders (``chronoqa.generate.kg`` and ``chronoqa.generate.table``) return a :class:`BuildResult`;
``result.write(out_dir)`` writes the release folder through :func:`chronoqa.artifacts.release.write_release`,
from the builder's columnar corpus (``corpus_batches``, Arrow record batches) when it gives one, else from the
documents it streams (``corpus_factory``); ``result.write(out_dir, corpus_format="both")`` adds
``corpus.parquet``.

Manifest schema (``manifest.json``; :func:`check_manifest` enforces it before anything is written). Every
release's manifest holds these keys; a builder adds its own sections beside them:

========================= =====================================================================
key                       meaning
========================= =====================================================================
``toolkit``               ``"chronoqa"``
``version``               the toolkit version that built the release
``builder``               ``"kg"`` or ``"table"`` (:data:`BUILDERS`)
``dataset``               the input's name (a graph's name; the table names joined by ``+``)
``seed``                  the seed of every random choice
``config``                the builder's whole configuration (its ``to_dict()``)
``sources``               where the input came from (paths, sha256), as given by the caller
``counts.questions``      number of questions in ``benchmark.jsonl``
``counts.corpus_docs``    number of documents in the corpus (``corpus.jsonl`` / ``corpus.parquet``)
``counts.splits``         split name → number of questions
``load_report``           the reader's load report (rows read, loaded, skipped by reason), or null
========================= =====================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pyarrow as pa

from chronoqa.artifacts.release import CorpusParts, FunctionalFlags, write_release
from chronoqa.errors import ChronoqaError
from chronoqa.records import Doc, Question

__all__ = ["BUILDERS", "MANIFEST_COUNT_KEYS", "MANIFEST_KEYS", "BuildResult", "check_manifest", "manifest_header"]

BUILDERS: Final = ("kg", "table")
#: Top-level keys every release manifest holds (see the module docstring).
MANIFEST_KEYS: Final = (
    "toolkit", "version", "builder", "dataset", "seed", "config", "sources", "counts", "load_report",
)  # fmt: skip
#: Keys every manifest's ``counts`` section holds.
MANIFEST_COUNT_KEYS: Final = ("questions", "corpus_docs", "splits")


def manifest_header(
    *,
    builder: str,
    dataset: str,
    seed: int,
    config: Mapping[str, Any],
    sources: Mapping[str, Any],
    questions: Sequence[Question],
    corpus_docs: int,
    load_report: Any = None,
) -> dict[str, Any]:
    """The schema's common keys of a manifest (a builder adds its own sections and ``counts`` entries)."""
    from chronoqa import __version__

    splits: dict[str, int] = {}
    for q in questions:
        splits[q.split] = splits.get(q.split, 0) + 1
    return {
        "toolkit": "chronoqa",
        "version": __version__,
        "builder": builder,
        "dataset": dataset,
        "seed": seed,
        "config": dict(config),
        "sources": dict(sources),
        "counts": {"questions": len(questions), "corpus_docs": corpus_docs, "splits": dict(sorted(splits.items()))},
        "load_report": load_report,
    }


def check_manifest(manifest: Mapping[str, Any]) -> None:
    """Raise :class:`~chronoqa.errors.ChronoqaError` naming the first key of the schema a manifest lacks."""
    missing = [k for k in MANIFEST_KEYS if k not in manifest]
    counts = manifest.get("counts")
    if not isinstance(counts, Mapping):
        missing.append("counts")
    else:
        missing += [f"counts.{k}" for k in MANIFEST_COUNT_KEYS if k not in counts]
    if missing:
        raise ChronoqaError(
            f"internal check failed: the release manifest lacks {', '.join(dict.fromkeys(missing))} "
            "(schema: chronoqa.generate.result.MANIFEST_KEYS); build it with manifest_header()"
        )
    if manifest["builder"] not in BUILDERS:
        raise ChronoqaError(f"internal check failed: manifest builder {manifest['builder']!r} is not one of {BUILDERS}")


@dataclass
class BuildResult:
    """The result of a build: questions, flags, the corpus (streamed on demand), manifest and data card.

    ``corpus_factory`` streams the corpus as :class:`~chronoqa.records.Doc` values; ``corpus_batches``, when
    given, makes the same documents as Arrow record batches (:data:`~chronoqa.artifacts.release.CORPUS_SCHEMA`)
    or as :class:`~chronoqa.artifacts.release.CorpusParts` (batches and their JSON lines), which :meth:`write`
    then uses: the columnar writer, same bytes, much faster.

    ``stats`` holds builder-specific details that are not written (the KG builder's cell statistics, the
    table builder's TFD reports and joins). ``implausible`` (KG builds) lists the facts whose dates are
    implausible, with their reasons; it is written to ``implausible_facts.jsonl``.
    """

    questions: list[Question]
    flags: list[FunctionalFlags]
    corpus_factory: Callable[[], Iterator[Doc]]
    manifest: dict[str, Any]
    datacard: str
    stats: dict[str, Any] = field(default_factory=dict)
    implausible: list[dict[str, Any]] | None = None
    corpus_batches: Callable[[], pa.RecordBatchReader | CorpusParts] | None = None

    def corpus(self) -> Iterator[Doc]:
        """Stream the corpus documents (every fact or row once)."""
        return self.corpus_factory()

    def write(self, out_dir: str | Path, *, corpus_format: str = "jsonl") -> Path:
        """Write the release through :func:`chronoqa.artifacts.release.write_release`; the manifest is checked first.

        ``corpus_format``: ``"jsonl"`` (default), ``"parquet"`` or ``"both"``
        (:data:`~chronoqa.artifacts.release.CORPUS_FORMATS`).
        """
        check_manifest(self.manifest)
        corpus = self.corpus_batches() if self.corpus_batches is not None else self.corpus()
        return write_release(
            out_dir,
            self.questions,
            corpus,
            self.flags,
            self.manifest,
            self.datacard,
            self.implausible,
            corpus_format=corpus_format,
        )
