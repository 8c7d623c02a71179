"""A benchmark release folder: the one output format of both builders (KG and table).

Layout::

    benchmark.jsonl              one Question per line (TempBench field names + chronoqa's)
    functional_negatives.jsonl   {"id", "dist_functional", "stale_functional"} per question
    corpus.jsonl                 one Doc per line: every fact verbalised once, stable doc ids
    corpus.parquet               the same documents as Parquet (only when asked for: corpus_format)
    qrels                        TREC qrels: "qid 0 doc_id 1" for each S* fact (relevance = time-valid gold)
    manifest.json                config, seed, toolkit version, source checksums, counts
    DATACARD.md                  composition tables, splits, functional rates, known limitations
    implausible_facts.jsonl      KG releases: {"fact", "doc", "reason"} for each fact whose date is implausible
                                 (never gold, anchor or negative; still counted against uniqueness)

The corpus is written as ``corpus.jsonl`` (``corpus_format="jsonl"``, the default: release folders as they have
always been), ``corpus.parquet`` (``"parquet"``) or both (``"both"``). The documents come as
:class:`~chronoqa.records.Doc` values (gathered into batches) or as Arrow record batches of :data:`CORPUS_SCHEMA`
(a ``pyarrow.Table`` or ``RecordBatchReader``, e.g. :func:`chronoqa.generate.kg.corpus.corpus_batches`), written
from the columns by :func:`chronoqa.io.json_lines`: the same bytes either way. The Parquet file has one row group
per batch (:data:`CORPUS_BATCH_ROWS` documents), zstd-compressed, the columns of :data:`CORPUS_SCHEMA` (the
repeated ones dictionary-encoded and with min/max statistics, as is ``fact_id``; ``doc_id`` and ``text`` plain,
without statistics); the same documents give the same bytes. :func:`load_release` reads
``corpus.jsonl`` when present, else ``corpus.parquet``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeAlias, TypeVar, runtime_checkable

import pyarrow as pa

from chronoqa.artifacts.docstore import DocStore
from chronoqa.artifacts.schema import read_records
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.io import (
    arrow_bytes,
    atomic_write,
    iter_json_lines,
    numbered_jsonl,
    read_json,
    sha256_bytes,
    sha256_file,
    write_json,
    write_jsonl,
    write_text,
)
from chronoqa.outdir import OutputFolder, read_marker
from chronoqa.records import Doc, Question, Record

__all__ = [
    "BENCHMARK_FILE",
    "CORPUS_BATCH_ROWS",
    "CORPUS_FILE",
    "CORPUS_FORMATS",
    "CORPUS_PARQUET_FILE",
    "CORPUS_SCHEMA",
    "DATACARD_FILE",
    "FLAGS_FILE",
    "IMPLAUSIBLE_FILE",
    "MANIFEST_FILE",
    "QRELS_FILE",
    "CorpusParts",
    "FunctionalFlags",
    "Release",
    "doc_store",
    "docs_batches",
    "load_release",
    "qrels_rows",
    "write_corpus",
    "write_qrels",
    "write_release",
]

T = TypeVar("T")

BENCHMARK_FILE = "benchmark.jsonl"
FLAGS_FILE = "functional_negatives.jsonl"
CORPUS_FILE = "corpus.jsonl"
CORPUS_PARQUET_FILE = "corpus.parquet"
#: ``corpus_format`` values of :func:`write_release`.
CORPUS_FORMATS = ("jsonl", "parquet", "both")
#: Documents per record batch of a columnar corpus (and per row group of ``corpus.parquet``).
CORPUS_BATCH_ROWS = 1 << 18
#: The columns of a columnar corpus: :class:`~chronoqa.records.Doc`'s fields, in its order (its Arrow schema).
CORPUS_SCHEMA = Doc.arrow_schema()
#: The columns ``corpus.parquet`` dictionary-encodes: the repeated ones. ``doc_id`` and ``text`` are unique per
#: document: hashing them into a dictionary that Parquet then abandons cost a third of the encoding for nothing.
_PARQUET_DICTIONARY = [f.name for f in CORPUS_SCHEMA if pa.types.is_dictionary(f.type)]
#: The one column whose min/max statistics ``corpus.parquet`` keeps: the documents are in fact order, so only
#: ``fact_id``'s ranges tell row groups apart (a reader looking up fact ids skips the others). A label, date or
#: id column's range spans nearly every row group of a large corpus, prunes nothing, and pyarrow computes it row
#: by row through the dictionary: about 45 ns a row each, 40 % of the encoding with all eight.
_PARQUET_STATISTICS = ["fact_id"]
QRELS_FILE = "qrels"
MANIFEST_FILE = "manifest.json"
DATACARD_FILE = "DATACARD.md"
IMPLAUSIBLE_FILE = "implausible_facts.jsonl"


@dataclass(frozen=True, slots=True)
class FunctionalFlags(Record):
    """Whether a question's negatives genuinely differ from its gold (TempBench's flags)."""

    id: str
    dist_functional: bool
    stale_functional: bool


class Release:
    """A release folder, opened lazily: each file is read at most once, when a stage first needs it.

    ``questions`` (:class:`~chronoqa.records.Question` values, few), ``corpus`` (a
    :class:`~chronoqa.artifacts.docstore.DocStore`: Arrow columns, a :class:`~chronoqa.records.Doc` made on
    demand), ``flags`` and ``manifest`` are read on first access and kept; :meth:`sha256` gives the checksum of
    the bytes a file was read from, so a stage keying a cache by a release file does not read it again. Values
    given to the constructor are used as they are (a release held in memory).
    """

    def __init__(
        self,
        path: str | Path,
        questions: Sequence[Question] | None = None,
        corpus: Sequence[Doc] | None = None,
        flags: Mapping[str, FunctionalFlags] | None = None,
        manifest: Mapping[str, Any] | None = None,
    ) -> None:
        self.path = Path(path)
        self._questions = questions
        self._corpus = corpus
        self._flags = flags
        self._manifest = manifest
        self._sha: dict[str, str] = {}

    def __repr__(self) -> str:
        return f"Release({str(self.path)!r})"

    @property
    def questions(self) -> Sequence[Question]:
        """Every question, in file order (``benchmark.jsonl``, read and checked on first access)."""
        if self._questions is None:
            bench = self.path / BENCHMARK_FILE
            data = self._read(BENCHMARK_FILE)
            if data is None:
                raise ChronoqaError(f"{self.path} is not a benchmark release: {BENCHMARK_FILE} is missing")
            rows = numbered_jsonl(bench, data)
            questions = list(read_records(bench, rows, Question, "id"))
            self._questions = self._counted(BENCHMARK_FILE, questions, "questions")
        return self._questions

    @property
    def corpus(self) -> Sequence[Doc]:
        """The documents (a :class:`DocStore` over the corpus file's columns; empty when the folder has none)."""
        if self._corpus is None:
            name = self.corpus_file
            data = None if name is None else self._read(name)
            if name is None or data is None:
                self._corpus = DocStore(CORPUS_SCHEMA.empty_table())
            else:
                self._corpus = self._counted(name, DocStore(_corpus_table(self.path / name, data)), "corpus_docs")
        return self._corpus

    @property
    def flags(self) -> Mapping[str, FunctionalFlags]:
        """The functional flags by question id (empty when the folder has no :data:`FLAGS_FILE`)."""
        if self._flags is None:
            data = self._read(FLAGS_FILE)
            rows = () if data is None else numbered_jsonl(self.path / FLAGS_FILE, data)
            flags = list(read_records(self.path / FLAGS_FILE, rows, FunctionalFlags, "id"))
            if data is not None:
                self._counted(FLAGS_FILE, flags, "questions")
            self._flags = {f.id: f for f in flags}
        return self._flags

    @property
    def manifest(self) -> Mapping[str, Any]:
        """The manifest (empty for foreign data without one).

        A folder chronoqa marked as a release (``.chronoqa``) but without a manifest is a build that did not
        finish (the manifest is written last): refused, never read as foreign data.
        """
        if self._manifest is None:
            p = self.path / MANIFEST_FILE
            if not p.is_file() and (read_marker(self.path) or {}).get("kind") == "release":
                raise ChronoqaError(
                    f"{self.path}: chronoqa's build of this release did not finish ({MANIFEST_FILE}, written last, is "
                    "missing; or a build is writing it now): its files may be partial. Fix: build it again (`chronoqa "
                    f"build ... --out {self.path}`), or give --bench a complete release"
                )
            self._manifest = read_json(p) if p.is_file() else {}
        return self._manifest

    @property
    def corpus_file(self) -> str | None:
        """The file the corpus is read from: :data:`CORPUS_FILE` when present, else :data:`CORPUS_PARQUET_FILE`."""
        for name in (CORPUS_FILE, CORPUS_PARQUET_FILE):
            if (self.path / name).is_file():
                return name
        return None

    def sha256(self, name: str) -> str | None:
        """sha256 of release file ``name`` as this handle reads it, reading it now if not yet (``None``: no file)."""
        if name not in self._sha:
            if name == BENCHMARK_FILE:
                self.questions  # noqa: B018 (reads the file)
            elif name == FLAGS_FILE:
                self.flags  # noqa: B018
            elif name == self.corpus_file:
                self.corpus  # noqa: B018
        if name not in self._sha:  # a file this handle does not parse, or one given to the constructor
            if not (self.path / name).is_file():
                return None
            self._sha[name] = sha256_file(self.path / name)
        return self._sha[name]

    def load(self) -> Release:
        """Read every file now (each once); returns the handle. A bad file raises its DataError here."""
        self.questions, self.corpus, self.flags, self.manifest  # noqa: B018
        return self

    def split(self, name: str) -> list[Question]:
        """Questions of one split (``train``, ``dev``, ``test``)."""
        return [q for q in self.questions if q.split == name]

    def _counted(self, name: str, records: _Sized, key: str) -> _Sized:
        """``records`` read from release file ``name``, checked against the manifest's ``counts[key]``.

        Checked as each file is first read (never a second read): a file emptied, cut short or grown after the
        build is an error naming the file, both counts and the rebuild; foreign data without a manifest is not.
        """
        counts = self.manifest.get("counts")
        expected = counts.get(key) if isinstance(counts, Mapping) else None
        if isinstance(expected, int) and not isinstance(expected, bool) and len(records) != expected:
            builder = self.manifest.get("builder") or "kg|table"
            raise ChronoqaError(
                f"{self.path / name}: {len(records)} records, but {self.path / MANIFEST_FILE} says the build wrote "
                f"{expected} (counts.{key}): the file was emptied, cut short or changed after the build. Fix: "
                f"rebuild the release (`chronoqa build {builder} ... --out {self.path}` with the config in its "
                "manifest), or restore the file"
            )
        return records

    def _read(self, name: str) -> bytes | None:
        p = self.path / name
        if not p.is_file():
            return None
        data = p.read_bytes()
        self._sha[name] = sha256_bytes(data)
        return data


_Sized = TypeVar("_Sized", list[Question], list[FunctionalFlags], DocStore)


def qrels_rows(questions: Iterable[Question]) -> Iterator[tuple[str, str, int]]:
    """The judgments of a release: every S* doc of every question is relevant (grade 1), as ``(qid, doc, grade)``."""
    for q in questions:
        seen: set[str] = set()
        for t in q.S_star:
            if t.doc_id and t.doc_id not in seen:
                seen.add(t.doc_id)
                yield q.id, t.doc_id, 1


def write_qrels(path: str | Path, questions: Iterable[Question]) -> None:
    """TREC qrels of :func:`qrels_rows`."""
    with atomic_write(path) as fh:
        for qid, doc, grade in qrels_rows(questions):
            fh.write(f"{qid} 0 {doc} {grade}\n")


@runtime_checkable
class CorpusParts(Protocol):
    """A columnar corpus that makes its own JSON lines (the KG builder's ``ColumnarCorpus``)."""

    def parts(
        self, batches: bool = True, lines: bool = False, *, caller_cores: int = 0
    ) -> Iterator[tuple[int, pa.RecordBatch | None, pa.Buffer | None]]:
        """``(rows, batch of CORPUS_SCHEMA or None, its JSON lines or None)`` per batch, in order.

        ``caller_cores``: the cores the caller's own work on each part keeps busy (encoding Parquet: 1).
        """
        ...


#: What :func:`write_corpus` writes: documents, Arrow batches of :data:`CORPUS_SCHEMA`, or :class:`CorpusParts`.
Corpus: TypeAlias = Iterable[Doc] | pa.Table | pa.RecordBatchReader | CorpusParts


def docs_batches(docs: Iterable[Doc], batch_rows: int = CORPUS_BATCH_ROWS) -> Iterator[pa.RecordBatch]:
    """Documents as record batches of :data:`CORPUS_SCHEMA` (``batch_rows`` each), for the columnar writers."""
    names = CORPUS_SCHEMA.names
    rows: list[Doc] = []

    def batch() -> pa.RecordBatch:
        cols = [pa.array([getattr(d, f) for d in rows], CORPUS_SCHEMA.field(f).type) for f in names]
        return pa.RecordBatch.from_arrays(cols, schema=CORPUS_SCHEMA)

    for d in docs:
        rows.append(d)
        if len(rows) == batch_rows:
            yield batch()
            rows = []
    if rows:
        yield batch()


def doc_store(docs: Iterable[Doc]) -> DocStore:
    """Documents as a :class:`DocStore` (one already a store is returned as it is)."""
    if isinstance(docs, DocStore):
        return docs
    return DocStore(pa.Table.from_batches(list(docs_batches(docs)), CORPUS_SCHEMA))


def _batches(corpus: Iterable[Doc] | pa.Table | pa.RecordBatchReader) -> Iterator[pa.RecordBatch]:
    if isinstance(corpus, pa.Table):
        corpus = pa.RecordBatchReader.from_batches(corpus.schema, corpus.to_batches(max_chunksize=CORPUS_BATCH_ROWS))
    if isinstance(corpus, pa.RecordBatchReader):
        if not corpus.schema.equals(CORPUS_SCHEMA):
            raise ChronoqaError(
                f"internal check failed: a columnar corpus has the schema {corpus.schema}, expected CORPUS_SCHEMA "
                "(chronoqa.artifacts.release): build it with corpus_batches() or docs_batches()"
            )
        return iter(corpus)
    return docs_batches(corpus)


def write_corpus(out_dir: str | Path, corpus: Corpus, corpus_format: str = "jsonl") -> int:
    """Write the corpus of a release folder in ``corpus_format`` (see the module docstring); returns the doc count.

    Raises:
        ChronoqaError: ``corpus_format`` is not one of :data:`CORPUS_FORMATS`.

    """
    if corpus_format not in CORPUS_FORMATS:
        raise ChronoqaError(f"corpus format {corpus_format!r} is unknown: expected one of {', '.join(CORPUS_FORMATS)}")
    out = Path(out_dir)
    import pyarrow.parquet as pq

    n = 0
    with contextlib.ExitStack() as stack:

        def open_(name: str) -> Any:
            return stack.enter_context(atomic_write(out / name, "wb"))

        jsonl = open_(CORPUS_FILE) if corpus_format != "parquet" else None
        parquet = None
        if corpus_format != "jsonl":
            fh = open_(CORPUS_PARQUET_FILE)
            parquet = stack.enter_context(
                pq.ParquetWriter(
                    fh,
                    CORPUS_SCHEMA,
                    compression="zstd",
                    use_dictionary=_PARQUET_DICTIONARY,
                    write_statistics=_PARQUET_STATISTICS,
                )
            )
        if isinstance(corpus, CorpusParts):
            # pyarrow encodes Parquet on this thread: the workers making the batches leave it a core
            parts = corpus.parts(batches=parquet is not None, lines=jsonl is not None, caller_cores=int(bool(parquet)))
        else:
            batches = _batches(corpus)
            pairs = iter_json_lines(batches) if jsonl is not None else ((b, None) for b in batches)
            parts = ((b.num_rows, b, lines) for b, lines in pairs)
        for rows, batch, lines in parts:
            if jsonl is not None and lines is not None:
                jsonl.write(lines)
            if parquet is not None and batch is not None:
                parquet.write_batch(batch, row_group_size=max(1, rows))
            n += rows
    return n


def write_release(
    out_dir: str | Path,
    questions: Sequence[Question],
    corpus: Corpus,
    flags: Iterable[FunctionalFlags],
    manifest: Mapping[str, Any],
    datacard: str,
    implausible: Iterable[Mapping[str, Any]] | None = None,
    *,
    corpus_format: str = "jsonl",
) -> Path:
    """Write a whole release folder atomically file by file; returns its path.

    ``corpus`` is :class:`~chronoqa.records.Doc` values or Arrow batches of :data:`CORPUS_SCHEMA`, written as
    ``corpus_format`` (:func:`write_corpus`). ``implausible`` (the KG builder's facts with implausible dates, with
    their reasons) is written to :data:`IMPLAUSIBLE_FILE` when given.

    The folder is an :class:`~chronoqa.outdir.OutputFolder` of kind ``release``: new, empty or a release chronoqa
    wrote (its ``.chronoqa`` marker), locked while it is written.

    Raises:
        ChronoqaError: ``corpus_format`` is not one of :data:`CORPUS_FORMATS` (nothing is written).
        OutputFolderError: ``out_dir`` holds files chronoqa did not write (nothing is written).

    """
    if corpus_format not in CORPUS_FORMATS:
        raise ChronoqaError(f"corpus format {corpus_format!r} is unknown: expected one of {', '.join(CORPUS_FORMATS)}")
    out = Path(out_dir)
    try:  # a manifest JSON cannot hold fails now, before any file is written, not after the data files
        json.dumps(manifest, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ChronoqaError(f"the release's manifest cannot be written as JSON ({e}): nothing was written") from e
    with OutputFolder(out, "release"):
        write_jsonl(out / BENCHMARK_FILE, (q.to_dict() for q in questions))
        write_jsonl(out / FLAGS_FILE, (f.to_dict() for f in flags))
        write_corpus(out, corpus, corpus_format)
        write_qrels(out / QRELS_FILE, questions)
        write_text(out / DATACARD_FILE, datacard)
        if implausible is not None:
            write_jsonl(out / IMPLAUSIBLE_FILE, (dict(x) for x in implausible))
        write_json(out / MANIFEST_FILE, dict(manifest))  # last: its presence marks a complete release
    return out


def load_release(path: str | Path) -> Release:
    """Open a release folder written by :func:`write_release` (manifest optional for foreign data).

    Nothing but the folder is checked now: each file is read, checked and kept when first used
    (:class:`Release`; :meth:`Release.load` reads them all). The corpus comes from :data:`CORPUS_FILE` when the
    folder has it, else from :data:`CORPUS_PARQUET_FILE` (every row checked as a ``corpus.jsonl`` line is; a
    DataError names the row), else it is empty.
    """
    p = Path(path)
    if not (p / BENCHMARK_FILE).is_file():
        raise ChronoqaError(
            f"{p} is not a benchmark release: {BENCHMARK_FILE} is missing (build one with `chronoqa build`)"
        )
    return Release(p)


#: The corpus columns as JSON holds them (plain strings), in :data:`CORPUS_SCHEMA`'s order.
_CORPUS_PLAIN = pa.schema(
    [(f.name, f.type.value_type if pa.types.is_dictionary(f.type) else f.type) for f in CORPUS_SCHEMA]
)
#: Fields every document has (the rest, the times, may be null).
_CORPUS_REQUIRED = [n for n in CORPUS_SCHEMA.names if n not in ("t_start", "t_end")]


def _corpus_table(path: Path, data: bytes) -> pa.Table:
    """The corpus file's documents as columns.

    Arrow reads the file; when it cannot read it as plain documents (a type it does not expect, a missing field,
    a repeated doc id), the row reader reads it row by row, naming the bad row or reading what is still valid
    (times as numbers, fields left to their defaults).
    """
    parquet = path.name == CORPUS_PARQUET_FILE
    table = _arrow_corpus(data, parquet)
    if table is not None and _plain(table):
        return table
    records = _parquet_rows(path, data) if parquet else numbered_jsonl(path, data)
    docs = list(read_records(path, records, Doc, "doc_id"))
    return pa.Table.from_batches(list(docs_batches(docs)), CORPUS_SCHEMA)


def _arrow_corpus(data: bytes, parquet: bool) -> pa.Table | None:
    import pyarrow.json as pj
    import pyarrow.parquet as pq

    try:
        if parquet:
            table = pq.read_table(pa.BufferReader(arrow_bytes(data)))
            return table.select(CORPUS_SCHEMA.names).cast(_CORPUS_PLAIN)
        if not data.strip():
            return _CORPUS_PLAIN.empty_table()
        opts = pj.ParseOptions(explicit_schema=_CORPUS_PLAIN, unexpected_field_behavior="ignore")
        return pj.read_json(pa.BufferReader(arrow_bytes(data)), parse_options=opts)
    except (pa.ArrowException, KeyError, ValueError):
        return None


def _plain(table: pa.Table) -> bool:
    """No null in a field with a default and no repeated doc id: the table is the one the row reader would make."""
    import pyarrow.compute as pc

    if any(table.column(n).null_count for n in _CORPUS_REQUIRED):
        return False
    return table.num_rows == 0 or pc.count_distinct(table.column("doc_id")).as_py() == table.num_rows


def _parquet_rows(path: Path, data: bytes) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(row number, record)`` of a Parquet file's bytes (1-based), streamed by row group."""
    import pyarrow.parquet as pq

    try:
        reader = pq.ParquetFile(pa.BufferReader(arrow_bytes(data)))
    except (OSError, pa.ArrowException) as exc:
        raise DataError(str(path), 0, "(parquet)", str(exc)[:80], "a Parquet file", "regenerate the file") from None
    n = 0
    for batch in reader.iter_batches():
        for row in batch.to_pylist():
            n += 1
            yield n, row
