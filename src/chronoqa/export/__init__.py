"""Exports of a release folder into the formats other tools read: Hugging Face, Croissant, BEIR.

* :func:`export_release` writes one target (``hf``, ``croissant``, ``beir``, ``lm-eval``, ``tempbench``) or
  ``all`` under ``out`` (``out/hf/``, ``out/croissant/``, ``out/beir/``) and returns the folders written.
* :mod:`chronoqa.export.hf`: Parquet per split (questions with nested ``S_*``, negatives' flags), the
  corpus and the qrels as their own configs, and a dataset card with the Hub's YAML header.
* :mod:`chronoqa.export.croissant`: the Hugging Face folder plus ``croissant.json`` (MLCommons
  Croissant 1.0: file objects with sha256, record sets with typed fields).
* :mod:`chronoqa.export.beir`: ``corpus.jsonl``, ``queries.jsonl``, ``qrels/<split>.tsv`` (BEIR's layout;
  relevance = the time-valid gold chain ``S_star``).
* :mod:`chronoqa.export.lmeval`: an lm-evaluation-harness task folder (YAML + ``utils.py`` calling
  chronoqa's scorer).
* :mod:`chronoqa.export.tempbench`: TempBench's release layout (``benchmark/``, ``code/tempbench_eval.py``),
  on which TempBench's quickstart runs unchanged.

Licence and provenance come from the dataset registry (:func:`chronoqa.export.provenance.provenance_of`).
Every file is written deterministically: the same release gives byte-identical exports.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from chronoqa.artifacts.release import Release, load_release
from chronoqa.errors import UnknownNameError
from chronoqa.export import beir, croissant, hf, lmeval, tempbench
from chronoqa.export.checks import check_low_confidence, check_release
from chronoqa.export.provenance import LOW_CONFIDENCE_FILE, check_validation
from chronoqa.outdir import OutputFolder

__all__ = ["ALL", "TARGETS", "export_release"]

TARGETS: dict[str, Callable[[Release, Path, Path | None], Path]] = {
    "hf": hf.write_hf,
    "croissant": croissant.write_croissant,
    "beir": beir.write_beir,
    "lm-eval": lmeval.write_lm_eval,
    "tempbench": tempbench.write_tempbench,
}
#: What ``all`` writes: every target a release of either builder has (TempBench's layout needs a KG release's
#: year ``t_query``, so it is written when asked for by name).
ALL = ("hf", "croissant", "beir", "lm-eval")


def export_release(
    release: str | Path | Release,
    target: str,
    out: str | Path,
    *,
    validation: str | Path | None = None,
    wait: bool = False,
) -> list[Path]:
    """Export ``release`` to ``target`` (a name of :data:`TARGETS` or ``all``, see :data:`ALL`) under ``out/<target>/``.

    ``validation``: a folder written by ``chronoqa validate import``; its ``VALIDATION.md`` joins the
    dataset card and its ``low_confidence.jsonl`` travels with every export. ``out`` is an
    :class:`~chronoqa.outdir.OutputFolder` of kind ``export``: new, empty or an earlier export's, locked while
    written (``wait``: wait for another command that holds it, instead of failing).
    """
    names = list(ALL) if target == "all" else [target]
    for name in names:
        if name not in TARGETS:
            raise UnknownNameError("export target", name, [*TARGETS, "all"])
    checked = None if validation is None else check_validation(validation)
    rel = release if isinstance(release, Release) else load_release(release)
    check_release(rel, hf.read_qrels(rel))
    if checked is not None:
        check_low_confidence(checked / LOW_CONFIDENCE_FILE, {q.id for q in rel.questions})
    with OutputFolder(out, "export", wait=wait):
        return [TARGETS[name](rel, Path(out) / name, checked) for name in names]
