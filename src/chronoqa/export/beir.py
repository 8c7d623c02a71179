"""The BEIR layout of a release, so that any BEIR-style retriever runs on it unchanged.

Layout (BEIR's ``GenericDataLoader``)::

    corpus.jsonl        {"_id", "title", "text", "metadata"} per document
    queries.jsonl       {"_id", "text", "metadata"} per question (metadata: split, t_query, operator, hops)
    qrels/<split>.tsv   "query-id<TAB>corpus-id<TAB>score" with a header line; split in train/dev/test

Relevance is time-valid: a document is relevant to a question when its fact is in the question's gold
chain ``S_star`` (the release's qrels), never merely because it mentions the entity. The time of a
question lives in its text (and in ``metadata.t_query``), as the retriever sees it.
"""

from __future__ import annotations

from pathlib import Path

from chronoqa.artifacts.release import Release
from chronoqa.export.checks import check_stale_splits
from chronoqa.export.hf import SPLITS, read_qrels
from chronoqa.export.provenance import LOW_CONFIDENCE_FILE
from chronoqa.io import atomic_write, write_jsonl, write_text

__all__ = ["write_beir"]


def write_beir(release: Release, out: Path, validation: Path | None = None) -> Path:
    """Write the BEIR layout of ``release`` into ``out`` (with ``low_confidence.jsonl`` of ``validation``)."""
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl(
        out / "corpus.jsonl",
        (
            {
                "_id": d.doc_id,
                "title": d.s,
                "text": d.text,
                "metadata": {"s": d.s, "r": d.r, "o": d.o, "t_start": d.t_start, "t_end": d.t_end},
            }
            for d in release.corpus
        ),
    )
    write_jsonl(
        out / "queries.jsonl",
        (
            {
                "_id": q.id,
                "text": q.question,
                "metadata": {"split": q.split, "t_query": q.t_query, "operator": q.operator, "hops": q.hops},
            }
            for q in release.questions
        ),
    )
    split_of = {q.id: q.split for q in release.questions}
    rows: dict[str, list[str]] = {}
    for qid, doc, grade in read_qrels(release):
        rows.setdefault(split_of.get(qid, "test"), []).append(f"{qid}\t{doc}\t{grade}\n")
    splits = [s for s in SPLITS if s in rows] + sorted(s for s in rows if s not in SPLITS)
    check_stale_splits(out / "qrels", "*.tsv", [f"{s}.tsv" for s in splits])
    (out / "qrels").mkdir(exist_ok=True)
    for split in splits:
        with atomic_write(out / "qrels" / f"{split}.tsv") as fh:
            fh.write("query-id\tcorpus-id\tscore\n")
            fh.writelines(rows[split])
    if validation is not None:
        text = (validation / LOW_CONFIDENCE_FILE).read_text(encoding="utf-8")
        write_text(out / LOW_CONFIDENCE_FILE, text)
    return out
