"""A benchmark release folder: the one output format of both builders (KG and table).

Layout::

    benchmark.jsonl              one Question per line (TempBench field names + chronoqa's)
    functional_negatives.jsonl   {"id", "dist_functional", "stale_functional"} per question
    corpus.jsonl                 one Doc per line: every fact verbalised once, stable doc ids
    qrels                        TREC qrels: "qid 0 doc_id 1" for each S* fact (relevance = time-valid gold)
    manifest.json                config, seed, toolkit version, source checksums, counts
    DATACARD.md                  composition tables, splits, functional rates, known limitations
    implausible_facts.jsonl      KG releases: {"fact", "doc", "reason"} for each fact whose date is implausible
                                 (never gold, anchor or negative; still counted against uniqueness)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from chronoqa.artifacts.schema import DocRow, FlagsRow, QuestionRow, check_row
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.io import atomic_write, numbered_jsonl, read_json, write_json, write_jsonl, write_text
from chronoqa.records import Doc, Question

__all__ = [
    "BENCHMARK_FILE",
    "CORPUS_FILE",
    "DATACARD_FILE",
    "FLAGS_FILE",
    "IMPLAUSIBLE_FILE",
    "MANIFEST_FILE",
    "QRELS_FILE",
    "FunctionalFlags",
    "Release",
    "load_release",
    "write_qrels",
    "write_release",
]

T = TypeVar("T")

BENCHMARK_FILE = "benchmark.jsonl"
FLAGS_FILE = "functional_negatives.jsonl"
CORPUS_FILE = "corpus.jsonl"
QRELS_FILE = "qrels"
MANIFEST_FILE = "manifest.json"
DATACARD_FILE = "DATACARD.md"
IMPLAUSIBLE_FILE = "implausible_facts.jsonl"


@dataclass(frozen=True, slots=True)
class FunctionalFlags:
    """Whether a question's negatives genuinely differ from its gold (TempBench's flags)."""

    id: str
    dist_functional: bool
    stale_functional: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"id": self.id, "dist_functional": self.dist_functional, "stale_functional": self.stale_functional}


@dataclass(frozen=True)
class Release:
    """A loaded release folder."""

    path: Path
    questions: Sequence[Question]
    corpus: Sequence[Doc]
    flags: Mapping[str, FunctionalFlags]
    manifest: Mapping[str, Any] = field(default_factory=dict)

    def split(self, name: str) -> list[Question]:
        """Questions of one split (``train``, ``dev``, ``test``)."""
        return [q for q in self.questions if q.split == name]


def write_qrels(path: str | Path, questions: Iterable[Question]) -> None:
    """TREC qrels: every S* doc of every question is relevant (grade 1)."""
    with atomic_write(path) as fh:
        for q in questions:
            seen: set[str] = set()
            for t in q.S_star:
                if t.doc_id and t.doc_id not in seen:
                    seen.add(t.doc_id)
                    fh.write(f"{q.id} 0 {t.doc_id} 1\n")


def write_release(
    out_dir: str | Path,
    questions: Sequence[Question],
    corpus: Iterable[Doc],
    flags: Iterable[FunctionalFlags],
    manifest: Mapping[str, Any],
    datacard: str,
    implausible: Iterable[Mapping[str, Any]] | None = None,
) -> Path:
    """Write a whole release folder atomically file by file; returns its path.

    ``implausible`` (the KG builder's facts with implausible dates, with their reasons) is written to
    :data:`IMPLAUSIBLE_FILE` when given.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl(out / BENCHMARK_FILE, (q.to_dict() for q in questions))
    write_jsonl(out / FLAGS_FILE, (f.to_dict() for f in flags))
    write_jsonl(out / CORPUS_FILE, (d.to_dict() for d in corpus))
    write_qrels(out / QRELS_FILE, questions)
    write_text(out / DATACARD_FILE, datacard)
    if implausible is not None:
        write_jsonl(out / IMPLAUSIBLE_FILE, (dict(x) for x in implausible))
    write_json(out / MANIFEST_FILE, dict(manifest))  # last: its presence marks a complete release
    return out


def load_release(path: str | Path) -> Release:
    """Load a release folder written by :func:`write_release` (manifest optional for foreign data)."""
    p = Path(path)
    bench = p / BENCHMARK_FILE
    if not bench.exists():
        raise ChronoqaError(
            f"{p} is not a benchmark release: {BENCHMARK_FILE} is missing (build one with `chronoqa build`)"
        )
    questions = list(_rows(bench, QuestionRow, "id", Question.from_dict))
    corpus = list(_rows(p / CORPUS_FILE, DocRow, "doc_id", Doc.from_dict)) if (p / CORPUS_FILE).exists() else []
    flags: dict[str, FunctionalFlags] = {}
    if (p / FLAGS_FILE).exists():
        for f in _rows(p / FLAGS_FILE, FlagsRow, "id", _flags):
            flags[f.id] = f
    manifest = read_json(p / MANIFEST_FILE) if (p / MANIFEST_FILE).exists() else {}
    return Release(p, questions, corpus, flags, manifest)


def _flags(d: Mapping[str, Any]) -> FunctionalFlags:
    return FunctionalFlags(d["id"], d["dist_functional"], d["stale_functional"])


def _rows(path: Path, schema: type[BaseModel], key: str, make: Callable[[Mapping[str, Any]], T]) -> Iterator[T]:
    """The records of a release file, each line checked against its schema.

    A repeated ``key`` is an error, and so is a value the record rejects (an impossible date).
    """
    seen: dict[str, int] = {}
    for lineno, row in numbered_jsonl(path):
        check_row(schema, row, str(path), lineno)
        value = row[key]
        if value in seen:
            raise DataError(
                str(path),
                lineno,
                key,
                value,
                f"an {key} no earlier line has (line {seen[value]} has it)",
                "give every record its own id, or remove the duplicate line",
            )
        seen[value] = lineno
        try:
            yield make(row)
        except ValueError as exc:  # TimeParseError names the field and the value
            raise DataError(
                str(path), lineno, "(record)", value, f"valid values ({exc})", "correct the field"
            ) from None
