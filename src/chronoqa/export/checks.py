"""What every export checks before it writes.

A release whose gold documents are in its corpus, a sound validation folder, and no split file of an earlier
export left beside the new ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from chronoqa.artifacts.release import CORPUS_FILE, CORPUS_PARQUET_FILE, MANIFEST_FILE, QRELS_FILE, Release, qrels_rows
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.io import numbered_jsonl

__all__ = ["check_low_confidence", "check_release", "check_stale_splits"]

_STATUSES = ("flagged", "consensus", "single_annotator")


def check_release(release: Release, qrels: Iterable[tuple[str, str, int]]) -> None:
    """Refuse a release without a corpus, and one whose gold documents (qrels, ``S_star``) are not in it.

    The qrels of a release chronoqa built (one with a manifest) must be the judgments its questions give
    (:func:`~chronoqa.artifacts.release.qrels_rows`): a qrels file emptied, cut short or edited after the build is
    refused, as a changed benchmark or corpus file is on first read. Foreign data without a manifest is not checked.
    """
    p = release.path
    qrels = list(qrels)
    if release.manifest:
        _check_qrels(release, qrels)
    if not release.corpus:
        where = "missing" if not ((p / CORPUS_FILE).exists() or (p / CORPUS_PARQUET_FILE).exists()) else "empty"
        raise ChronoqaError(
            f"{p}: the release's corpus ({CORPUS_FILE} or {CORPUS_PARQUET_FILE}) is {where}: an export needs the "
            "documents its qrels name. Fix: export the complete release folder `chronoqa build` wrote"
        )
    docs = {d.doc_id for d in release.corpus}
    for qid, doc, _ in qrels:
        if doc not in docs:
            raise ChronoqaError(
                f"{p / QRELS_FILE}: question {qid!r} names gold document {doc!r}, which is not in the corpus. "
                "Fix: rebuild the release (`chronoqa build`), or restore its corpus file"
            )
    for q in release.questions:
        for t in q.S_star:
            if t.doc_id and t.doc_id not in docs:
                raise ChronoqaError(
                    f"{p}: question {q.id!r}: S_star document {t.doc_id!r} is not in the corpus. "
                    "Fix: rebuild the release (`chronoqa build`), or restore its corpus file"
                )


def _check_qrels(release: Release, qrels: list[tuple[str, str, int]]) -> None:
    expected = list(qrels_rows(release.questions))
    if qrels != expected:
        first = next((i for i, (a, b) in enumerate(zip(qrels, expected, strict=False)) if a != b), None)
        where = f"line {first + 1} differs" if first is not None else "lines are missing or extra"
        raise ChronoqaError(
            f"{release.path / QRELS_FILE}: {len(qrels)} judgments, but the questions of {release.path} give "
            f"{len(expected)} (one per S* document of each question; {where}): the file was emptied, cut short or "
            f"changed after the build ({release.path / MANIFEST_FILE} marks a chronoqa release). Fix: rebuild the "
            f"release (`chronoqa build ... --out {release.path}` with the config in its manifest), or restore the file"
        )


def check_low_confidence(path: Path, known_ids: set[str]) -> None:
    """Every line of a ``low_confidence.jsonl`` an object with a known question ``id`` and a known ``status``."""
    fix = "write the folder again with `chronoqa validate import RELEASE sheets/*.json --out DIR`"
    for line, row in numbered_jsonl(path):
        qid, status = row.get("id"), row.get("status")
        if not isinstance(qid, str) or qid not in known_ids:
            raise DataError(str(path), line, "id", qid, "the id of a question of this release", fix)
        if status not in _STATUSES:
            raise DataError(str(path), line, "status", status, f"one of {', '.join(_STATUSES)}", fix)


def check_stale_splits(folder: Path, pattern: str, keep: Iterable[str]) -> None:
    """Refuse when ``folder`` holds a split file (``pattern``) of an earlier export that this one would not replace.

    Nothing is deleted: the user removes the file, or exports into a new folder.
    """
    wanted = set(keep)
    stale = sorted(f.name for f in folder.glob(pattern) if f.name not in wanted) if folder.is_dir() else []
    if stale:
        raise ChronoqaError(
            f"{folder / stale[0]} is a split file of an earlier export that this export does not write: it "
            f"would be read beside the new splits. Fix: export into a new --out folder, or remove {folder}"
        )
