"""Run files: what a retriever returned for each question, its one record type (:class:`Run`) and reader.

For a run named ``NAME`` three files are written, atomically (:func:`write_run`):

* ``NAME.run.jsonl``: one line per question, every question of the (split of the) benchmark, in
  benchmark order: ``{"qid": str, "hits": [{"doc_id", "rank" (1-based), "score", "s", "r", "o",
  "t_start", "t_end"}, ...]}``; ``hits`` is empty when nothing was retrieved.
* ``NAME.run.trec``: the TREC run format ``qid Q0 docid rank score tag`` (ir_measures, pytrec_eval,
  ranx and trec_eval read it). Its scores decrease strictly within a question, in chronoqa's rank order
  (:func:`trec_scores`): trec_eval and the tools built on it order by score and break exact ties by doc
  id, ranx its own way, so a tie written as a tie would be ranked differently by each tool. Scores are
  written at single precision, because trec_eval (and pytrec_eval, ir_measures' default backend) holds
  a run's scores as 32-bit floats: a difference finer than that is a tie to it. A hit's score is the
  retriever's, rounded to single precision and, where that is not below the score written before it,
  lowered to the next single-precision value below; ``rank`` and ``score`` in the JSONL file are the
  retriever's.
* ``NAME.run.meta.json``: ``spec``, ``control``, ``corpus_sha256``, ``benchmark_sha256``,
  ``toolkit_version``, ``k``, ``n_questions``, plus ``split`` and ``params``: a function of the inputs
  and the spec, so two identical runs write identical bytes.
* ``NAME.run.timing.json`` (:func:`timing_path`, :func:`read_timing`): the wall-clock timings
  ``build_s``, ``retrieve_s`` (seconds) and ``queries_per_s``, the one file of a run that differs
  between two identical runs; nothing that is scored or reported reads it.

:func:`read_run` is the one reader of every run shape a user may hold:

* a chronoqa run file (``*.jsonl``), read leniently: a hit needs ``s``, ``r`` and ``o``; ``doc_id``,
  ``rank``, ``score``, ``t_start`` and ``t_end`` may be missing; times may be any value
  :func:`chronoqa.time.parse_time` reads (TempBench's ``1994.0``); hits are ordered by ``rank``, file
  order breaking ties. ``columnar=True`` reads it with pyarrow's JSON reader instead and keeps the
  columns (:attr:`Run.columns`, what the columnar scorer uses), falling back to the line reader when
  the file needs it (that reader then names the bad line). Given ``docs`` (the release corpus), a hit's
  identity is its ``doc_id``: a hit naming one carries that document's fact whatever text it embeds, and
  a ``doc_id`` the corpus does not have is a :class:`~chronoqa.errors.DataError` naming the line (a hit
  without a ``doc_id`` is matched by its triple, as TempBench's runs are);
* a TREC run file (any other name): ``qid Q0 docid rank score [tag]``; the triples come from
  ``docs`` (the release corpus), which such a file needs;
* a mapping ``question id -> triples`` held in memory (:class:`~chronoqa.records.Triple`, dicts with
  ``s``/``r``/``o``/``t_start``/``t_end`` or 5-tuples ``(s, r, o, t_start, t_end)``), in rank order;
* a :class:`Run`, returned as it is.

The meta file of ``x.run.jsonl`` (or ``x.run.trec``) is ``x.run.meta.json`` (:func:`meta_path`), read
when present. Bad lines raise :class:`chronoqa.errors.DataError` naming the file, line and field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from chronoqa.artifacts.docstore import DocStore
from chronoqa.errors import ChronoqaError, DataError, clip
from chronoqa.io import atomic_write, dumps, numbered_jsonl, read_json, read_text, write_json
from chronoqa.records import Doc, Triple

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "Run",
    "RunHit",
    "RunLine",
    "RunSource",
    "meta_path",
    "read_run",
    "read_timing",
    "run_paths",
    "timing_path",
    "trec_scores",
    "write_run",
]

TimeValue = str | int | float | None


class RunHit(NamedTuple):
    """One hit of a run line (``doc_id`` is empty and ``score`` 0 when the source had none)."""

    doc_id: str
    rank: int | float
    score: float
    s: str
    r: str
    o: str
    t_start: TimeValue
    t_end: TimeValue

    def to_dict(self) -> dict[str, Any]:
        """JSON form (fixed key order)."""
        return self._asdict()


class RunLine(NamedTuple):
    """One question's hits, in rank order."""

    qid: str
    hits: tuple[RunHit, ...]


class Run:
    """A loaded run: lines in file order (iterate for ``(qid, hits)`` pairs) and its meta data.

    A run read with ``columnar=True`` holds its hits as Arrow columns (:attr:`columns`) and builds
    :attr:`lines` only when they are asked for.
    """

    __slots__ = ("_columns", "_lines", "meta", "name")

    def __init__(
        self,
        name: str,
        lines: Iterable[RunLine] | None = None,
        meta: Mapping[str, Any] | None = None,
        *,
        columns: pa.Table | None = None,
    ) -> None:
        if (lines is None) == (columns is None):
            raise ValueError("a Run holds either lines or columns")
        self.name = name
        self.meta: Mapping[str, Any] = dict(meta or {})
        self._lines = None if lines is None else tuple(lines)
        self._columns = columns

    @classmethod
    def from_mapping(cls, name: str, hits: Mapping[str, Sequence[Any]], meta: Mapping[str, Any] | None = None) -> Run:
        """A run built in memory: question id -> triples in rank order (see the module docstring)."""
        lines = []
        for qid, items in hits.items():
            lines.append(RunLine(str(qid), tuple(_hit_of(item, j) for j, item in enumerate(items))))
        return cls(name, lines, meta)

    @property
    def lines(self) -> tuple[RunLine, ...]:
        """Every line, in file order."""
        if self._lines is None:
            assert self._columns is not None
            self._lines = _lines_of_columns(self._columns)
        return self._lines

    @property
    def columns(self) -> pa.Table | None:
        """The Arrow table ``(qid, hits)`` of a run read with ``columnar=True`` (else ``None``)."""
        return self._columns

    @property
    def qids(self) -> tuple[str, ...]:
        """The question ids of the lines, in file order."""
        if self._lines is None and self._columns is not None:
            return tuple(self._columns.column("qid").to_pylist())
        return tuple(line.qid for line in self.lines)

    def hits_without_doc_id(self) -> int:
        """How many hits name no document (matched by their triple text, not by identity)."""
        if self._lines is None and self._columns is not None:
            import pyarrow.compute as pc

            ids = pc.list_flatten(self._columns.column("hits").combine_chunks()).field("doc_id")
            return int(pc.sum(pc.fill_null(pc.equal(ids, ""), True)).as_py() or 0)
        return sum(1 for line in self.lines for h in line.hits if not h.doc_id)

    def __iter__(self) -> Iterator[RunLine]:
        return iter(self.lines)

    def __len__(self) -> int:
        if self._lines is None and self._columns is not None:
            return int(self._columns.num_rows)
        return len(self.lines)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Run):
            return NotImplemented
        return (self.name, self.lines, dict(self.meta)) == (other.name, other.lines, dict(other.meta))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Run(name={self.name!r}, {len(self)} lines)"

    def as_dict(self) -> dict[str, tuple[RunHit, ...]]:
        """Question id -> hits."""
        return {line.qid: line.hits for line in self.lines}

    @property
    def hits(self) -> dict[str, tuple[RunHit, ...]]:
        """Question id -> hits (the same as :meth:`as_dict`)."""
        return self.as_dict()

    @property
    def control(self) -> bool:
        """Whether the run comes from a control retriever."""
        return bool(self.meta.get("control", False))


RunSource = Run | str | Path | Mapping[str, Sequence[Any]]
"""Everything :func:`read_run` accepts."""


def run_paths(out_dir: str | Path, name: str) -> tuple[Path, Path, Path]:
    """``(jsonl, trec, meta)`` paths of run ``name`` in ``out_dir``."""
    d = Path(out_dir)
    return d / f"{name}.run.jsonl", d / f"{name}.run.trec", d / f"{name}.run.meta.json"


def meta_path(run_path: str | Path) -> Path:
    """``x.run.jsonl`` (or ``x.run.trec``) -> ``x.run.meta.json``; any other ``x.y`` -> ``x.y.meta.json``."""
    p = Path(run_path)
    name = p.name
    for suffix in (".jsonl", ".trec"):
        if name.endswith(".run" + suffix):
            name = name.removesuffix(suffix)
            break
    else:
        name = name.removesuffix(".jsonl")
    return p.with_name(name + ".meta.json")


def timing_path(run_path: str | Path) -> Path:
    """``x.run.jsonl`` (or ``x.run.trec``) -> ``x.run.timing.json``: the run's wall-clock timings."""
    meta = meta_path(run_path)
    return meta.with_name(meta.name.removesuffix(".meta.json") + ".timing.json")


def read_timing(run_path: str | Path) -> dict[str, Any]:
    """The timings recorded beside a run file (empty when there are none)."""
    p = timing_path(run_path)
    data = read_json(p) if p.is_file() else {}
    return dict(data) if isinstance(data, Mapping) else {}


def trec_scores(hits: Sequence[RunHit]) -> list[str]:
    """The TREC file's scores of ``hits`` (in rank order), as text: strictly decreasing as 64- and 32-bit floats.

    Each is the hit's own score rounded to single precision (clamped to its finite range), or the next
    single-precision value below the score written before it when the own score is not below that (a tie, a
    score that rank order contradicts, NaN). The text is the shortest that reads back as that value.
    """
    import numpy as np

    top = float(np.finfo(np.float32).max)
    raw = np.array([h.score for h in hits], dtype=np.float64)
    out = np.clip(np.nan_to_num(raw, nan=top), -top, top).astype(np.float32)
    for j in range(1, len(out)):
        if not out[j] < out[j - 1]:
            out[j] = np.nextafter(out[j - 1], np.float32(-np.inf))
    return [str(s) for s in out]


#: An id a TREC run line can carry: one or more characters, none of them whitespace (its field separator).
_TREC_ID = re.compile(r"\S+")


def _trec_id(kind: str, value: str, run: str) -> None:
    """Refuse a question or document id a TREC run line cannot carry (empty, or holding whitespace)."""
    if not _TREC_ID.fullmatch(value):
        raise ChronoqaError(
            f"run {clip(run)!r}: the {kind} id {clip(value)!r} is empty or holds whitespace, which a TREC run "
            "(qid Q0 docid rank score tag) cannot carry; nothing was written. Fix: give the release's "
            f"{kind}s ids without spaces or line breaks (e.g. replace them with _)"
        )


def write_run(
    out_dir: str | Path,
    name: str,
    lines: Sequence[RunLine],
    meta: Mapping[str, Any],
    timing: Mapping[str, Any] | None = None,
) -> Path:
    """Write a run's files; returns the JSONL path.

    ``NAME.run.jsonl``, ``NAME.run.trec``, ``NAME.run.meta.json`` and, when ``timing`` is given,
    ``NAME.run.timing.json``.
    """
    jsonl, trec, meta_file = run_paths(out_dir, name)
    tag = re.sub(r"\s+", "_", name) or "run"
    with atomic_write(trec) as fh:  # first: an id it cannot carry is refused before any file is in place
        for line in lines:
            _trec_id("question", line.qid, name)
            for h, score in zip(line.hits, trec_scores(line.hits), strict=True):
                if not _TREC_ID.fullmatch(h.doc_id):
                    _trec_id("document", h.doc_id, name)
                fh.write(f"{line.qid} Q0 {h.doc_id} {h.rank} {score} {tag}\n")
    with atomic_write(jsonl) as fh:
        for line in lines:
            fh.write(dumps({"qid": line.qid, "hits": [h.to_dict() for h in line.hits]}))
            fh.write("\n")
    if timing is not None:
        write_json(timing_path(jsonl), dict(timing))
    write_json(meta_file, dict(meta))  # last: a meta file marks a complete run
    return jsonl


def read_run(
    source: RunSource,
    *,
    docs: Iterable[Doc] | None = None,
    columnar: bool = False,
    name: str | None = None,
) -> Run:
    """Read a run of any shape (see the module docstring); ``name`` overrides the recorded one."""
    if isinstance(source, Run):
        return source
    if isinstance(source, Mapping):
        return Run.from_mapping(name or "run", source)
    p = Path(source)
    if not p.is_file():
        raise DataError(str(p), 0, "(file)", str(p), "an existing run file", "write one with `chronoqa retrieve`")
    mp = meta_path(p)
    meta_raw = read_json(mp) if mp.exists() else {}
    meta: dict[str, Any] = dict(meta_raw) if isinstance(meta_raw, dict) else {}
    stem = p.name.split(".run")[0] if ".run" in p.name else p.stem
    run_name = name or str(meta.get("spec", stem))
    if not _is_jsonl(p):
        return Run(run_name, _read_trec(p, docs), meta)
    by_id = None if docs is None else _store(docs)
    if columnar:
        table = _read_columns(p)
        if table is not None and by_id is not None:
            table = _resolve_columns(table, by_id)
        if table is not None:
            return Run(run_name, meta=meta, columns=table)
    return Run(run_name, _read_jsonl(p, by_id), meta)


def _resolved(hit: RunHit, doc: Doc) -> RunHit:
    """A hit whose fact is its document's: a hit's identity is its doc id, never its text."""
    return hit._replace(s=doc.s, r=doc.r, o=doc.o, t_start=doc.t_start, t_end=doc.t_end)


def _store(docs: Iterable[Doc]) -> DocStore:
    """The documents as a :class:`DocStore` (a release's corpus already is one)."""
    from chronoqa.artifacts.release import doc_store

    return doc_store(docs)


def _resolve_columns(table: pa.Table, by_id: DocStore) -> pa.Table | None:
    """The columns with every hit that names a doc id carrying that document's fact.

    ``None`` when a doc id is not in the corpus (the line reader then names the line).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    hits = table.column("hits").combine_chunks()
    flat = pc.list_flatten(hits)
    doc_ids = flat.field("doc_id")
    idx = pc.index_in(doc_ids, value_set=by_id.column("doc_id"))
    named = pc.and_(pc.is_valid(doc_ids), pc.not_equal(doc_ids, ""))
    named = pc.fill_null(named, False)
    if pc.any(pc.and_(named, pc.is_null(idx))).as_py():
        return None
    take = pc.fill_null(idx, 0)
    fields = []
    for name in [flat.type.field(i).name for i in range(flat.type.num_fields)]:
        col = flat.field(name)
        if name in ("s", "r", "o", "t_start", "t_end") and len(by_id):
            corpus = by_id.column(name).cast(col.type)
            col = pc.if_else(named, pc.take(corpus, take), col)
        fields.append((name, col))
    struct = pa.StructArray.from_arrays([c for _, c in fields], names=[n for n, _ in fields])
    new_hits = pa.ListArray.from_arrays(hits.offsets, struct)
    return table.set_column(table.schema.get_field_index("hits"), "hits", new_hits)


def _is_jsonl(p: Path) -> bool:
    if p.name.endswith(".jsonl"):
        return True
    with p.open("rb") as fh:
        for raw in fh:
            if raw.strip():
                return raw.lstrip().startswith(b"{")
    return False


def _hit_of(item: Any, j: int) -> RunHit:
    """A hit from a triple-like item at position ``j`` (0-based) of its question's list."""
    if isinstance(item, RunHit):
        return item
    if isinstance(item, Triple):
        return RunHit(item.doc_id, j + 1, 0.0, item.s, item.r, item.o, item.t_start, item.t_end)
    if isinstance(item, Mapping):
        g = item.get
        return RunHit(
            str(g("doc_id") or ""),
            _rank_of(g("rank", j + 1)),
            _finite("score", g("score") or 0.0),
            str(item["s"]),
            str(item["r"]),
            str(item["o"]),
            g("t_start"),
            g("t_end"),
        )
    if isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 5:
        s, r, o, ts, te = item
        return RunHit("", j + 1, 0.0, str(s), str(r), str(o), ts, te)
    raise ChronoqaError(
        f"retrieved item {item!r} is not a triple: expected a Triple, a dict with s/r/o/t_start/t_end or a "
        "5-tuple (s, r, o, t_start, t_end)"
    )


def _rank_of(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"rank {value!r} is not a number")
    return _finite("rank", value) if isinstance(value, float) else value


def _finite(field: str, value: Any) -> float:
    """``value`` as a float; NaN and infinity are refused (a ranking or mean over them means nothing)."""
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{field} {value!r} is not a finite number")
    return number


def _read_jsonl(p: Path, by_id: DocStore | None = None) -> list[RunLine]:
    lines: list[RunLine] = []
    seen: set[str] = set()
    for lineno, obj in numbered_jsonl(p):
        qid = obj.get("qid")
        if not isinstance(qid, str) or not qid:
            raise DataError(str(p), lineno, "qid", qid, "a non-empty question id string", "regenerate the run")
        if qid in seen:
            raise DataError(str(p), lineno, "qid", qid, "one line per question", "remove the duplicate line")
        seen.add(qid)
        raw = obj.get("hits")
        if not isinstance(raw, list):
            raise DataError(str(p), lineno, "hits", raw, "a list of hits", "regenerate the run")
        hits = []
        for j, h in enumerate(raw):
            if not isinstance(h, dict) or not all(k in h for k in ("s", "r", "o")):
                raise DataError(str(p), lineno, f"hits[{j}]", h, "a hit with s, r, o, t_start, t_end", "regenerate")
            try:
                hit = _hit_of(h, j)
            except (TypeError, ValueError) as exc:
                raise DataError(
                    str(p), lineno, f"hits[{j}]", str(h)[:80], "a hit with a numeric rank and score", f"{exc}"
                ) from None
            if by_id is not None and hit.doc_id:
                doc = by_id.get(hit.doc_id)
                if doc is None:
                    raise DataError(
                        str(p),
                        lineno,
                        f"hits[{j}].doc_id",
                        hit.doc_id,
                        "a doc_id of the release corpus (a hit is its document: its text is not matched)",
                        "re-run retrieval against this release's corpus",
                    )
                hit = _resolved(hit, doc)
            hits.append(hit)
        lines.append(_ranked(qid, hits))
    return lines


def _ranked(qid: str, hits: Sequence[RunHit]) -> RunLine:
    """A line with its hits in rank order (file order breaks ties)."""
    order = sorted(range(len(hits)), key=lambda j: (hits[j].rank, j))
    return RunLine(qid, tuple(hits[j] for j in order))


def _read_trec(p: Path, docs: Iterable[Doc] | None) -> list[RunLine]:
    if docs is None:
        raise ChronoqaError(
            f"{p} is a TREC run (qid Q0 docid rank score tag): it names documents only, so reading it needs the "
            "release corpus (pass docs=release.corpus; `chronoqa evaluate` does)"
        )
    by_id = _store(docs)
    per_q: dict[str, list[RunHit]] = {}
    for lineno, text in enumerate(read_text(p).splitlines(), 1):
        parts = text.split()
        if not parts:
            continue
        if len(parts) not in (5, 6):
            raise DataError(str(p), lineno, "(row)", text[:80], "qid Q0 docid rank score [tag]", "fix the TREC line")
        qid, _, doc_id, rank_text, score_text = parts[:5]
        d = by_id.get(doc_id)
        if d is None:
            raise DataError(
                str(p), lineno, "docid", doc_id, "a doc id of the release corpus", "score the run on its own release"
            )
        try:
            rank, score = _finite("rank", rank_text), _finite("score", score_text)
        except ValueError:
            raise DataError(str(p), lineno, "rank/score", text[:80], "finite numbers", "fix the TREC line") from None
        per_q.setdefault(qid, []).append(
            RunHit(doc_id, int(rank) if rank.is_integer() else rank, score, d.s, d.r, d.o, d.t_start, d.t_end)
        )
    return [_ranked(qid, hits) for qid, hits in per_q.items()]


def _run_schema() -> pa.Schema:
    import pyarrow as pa

    hit = pa.struct(
        [
            ("doc_id", pa.string()),
            ("rank", pa.float64()),
            ("score", pa.float64()),
            ("s", pa.string()),
            ("r", pa.string()),
            ("o", pa.string()),
            ("t_start", pa.string()),
            ("t_end", pa.string()),
        ]
    )
    return pa.schema([("qid", pa.string()), ("hits", pa.list_(hit))])


def _read_columns(p: Path) -> pa.Table | None:
    """The run as Arrow columns, or ``None`` when the line reader must read it (and name the bad line)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.json as pj

    try:
        table = pj.read_json(
            p, parse_options=pj.ParseOptions(explicit_schema=_run_schema(), unexpected_field_behavior="ignore")
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None  # e.g. times that are not all strings (TempBench's float years)
    try:
        table.validate(full=True)  # pyarrow's JSON reader keeps invalid UTF-8 inside strings as it is
    except pa.ArrowInvalid:
        return None
    qids = table.column("qid").combine_chunks()
    if qids.null_count or len(pc.unique(qids)) != len(qids) or table.column("hits").null_count:
        return None
    flat = pc.list_flatten(table.column("hits").combine_chunks())
    if any(flat.field(k).null_count for k in ("s", "r", "o")):
        return None
    if not all(pc.all(pc.is_finite(flat.field(k))).as_py() in (True, None) for k in ("rank", "score")):
        return None  # NaN or infinity: the line reader names the line
    return table.combine_chunks()


def _lines_of_columns(table: pa.Table) -> tuple[RunLine, ...]:
    lines = []
    for row in table.to_pylist():
        hits = [
            RunHit(
                h["doc_id"] or "",
                j + 1 if h["rank"] is None else (int(h["rank"]) if float(h["rank"]).is_integer() else h["rank"]),
                h["score"] or 0.0,
                h["s"],
                h["r"],
                h["o"],
                h["t_start"],
                h["t_end"],
            )
            for j, h in enumerate(row["hits"])
        ]
        lines.append(_ranked(row["qid"], hits))
    return tuple(lines)
