"""Corpus: every fact of the graph verbalised once, with a stable doc id (``F<fact id>``).

Two writers of the same documents: :func:`iter_corpus` (one :class:`~chronoqa.records.Doc` per fact, through
:func:`verbalise`: the reference) and :func:`corpus_batches` (Arrow record batches built from the columns of a
:class:`~chronoqa.records.FactColumns`, for millions of facts). They give the same documents, byte for byte once
written. The columnar one renders each distinct entity label, relation phrase and date once (through
:func:`~chronoqa.generate.kg.phrases.fill`'s placeholders, and :class:`~chronoqa.time.DateTable`'s
:func:`~chronoqa.time.render_time` and :meth:`TimePoint.isoformat <chronoqa.time.TimePoint.isoformat>` texts) and
assembles the sentences with Arrow string joins, one row per case of the time phrase; a row whose capitalisation
the columns cannot decide (a sentence that opens with an empty label) goes through :func:`verbalise`.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import islice
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from chronoqa.artifacts.release import CORPUS_BATCH_ROWS, CORPUS_SCHEMA
from chronoqa.generate.kg.index import DocIds
from chronoqa.generate.kg.phrases import RelationPhrases, fill, generic_phrases
from chronoqa.generate.kg.templates import render_time_text
from chronoqa.io import dumps, json_strings, map_ordered, string_bytes
from chronoqa.records import Doc, Fact, FactColumns, Triple, time_str
from chronoqa.time import TimePoint, date_table, start_after_end

__all__ = [
    "KERNEL_MIN_ROWS",
    "LINES_ROWS",
    "ColumnarCorpus",
    "corpus_batches",
    "corpus_columns",
    "corpus_table",
    "fact_triple",
    "iter_corpus",
    "kernel_available",
    "verbalise",
]


#: The fewest facts whose corpus lines (and Parquet text column) the numba kernel makes by default, where numba is
#: installed (``chronoqa[fast]``; else Arrow's joins make them, the same bytes). The kernel saves about 0.5 CPU
#: µs a row (lines) and 0.2 (text column) but costs about 0.9 CPU s a process to load (numba's import and its
#: cached code) and a fresh machine first compiles it (about 13 CPU s, then cached in ``__pycache__`` beside the
#: module): measured at 1M facts it about breaks even, so it starts at 2M; a YAGO11k or Wikidata12k build never
#: waits for numba.
KERNEL_MIN_ROWS = 2_000_000
#: Documents per part of :meth:`ColumnarCorpus.parts` when only JSON lines are made (a batch of
#: :data:`~chronoqa.artifacts.release.CORPUS_BATCH_ROWS` when the batches are made too, since they are
#: ``corpus.parquet``'s row groups): each part's lines (about 14 MB) stay in the processor's cache until they are
#: written, and a 1M-document corpus is 16 parts for the worker threads, not 4. About a tenth less CPU at 10M.
LINES_ROWS = 1 << 16


def kernel_available() -> bool:
    """Whether numba is installed, so that the corpus lines kernel can run (``pip install chronoqa[fast]``)."""
    return importlib.util.find_spec("numba") is not None


#: How every JSON line of the corpus opens: the doc id's key and its opening quote.
_DOC_ID_OPEN = "{" + dumps(CORPUS_SCHEMA.names[0]) + ':"'

# Sources of a time phrase's variable parts (in :func:`_cases`): none, a date as text or as ISO, the listed years.
_NONE, _RT_S, _RT_E, _ISO_S, _ISO_E, _BAD = range(6)


def _cases(as_of: TimePoint, open_end: str) -> list[tuple[str, int, str, int, str, int, str]]:
    """The time phrase of each case as ``(text, part, text, part, text, part, text)``, ending with the full stop.

    The one source of the time phrase's English: :func:`_time_phrase` (one fact) and the columnar corpus (the
    pieces of a batch) both fill these parts. Cases are numbered as ``_time_phrase`` and ``_CorpusPlan._cases_of``
    decide them: listed years (one, two, a single date), reversed, a point on a day or in a month or year, an
    interval, an open start, an end only, no time.
    """
    open_tail = " (end not recorded)" if open_end == "unknown" else f", ongoing as of {as_of.isoformat()}"
    return [
        (" (dates recorded as ", _ISO_S, " to ", _ISO_E, "; ", _BAD, " is not a valid year)."),
        (" (dates recorded as ", _ISO_S, " to ", _ISO_E, "; ", _BAD, " are not a valid year)."),
        (" (date recorded as ", _BAD, ", not a valid year).", _NONE, "", _NONE, ""),
        (" (recorded from ", _RT_S, " to ", _RT_E, ": start after end, invalid).", _NONE, ""),
        (" on ", _RT_S, ".", _NONE, "", _NONE, ""),
        (" in ", _RT_S, ".", _NONE, "", _NONE, ""),
        (" from ", _RT_S, " to ", _RT_E, ".", _NONE, ""),
        (" from ", _RT_S, open_tail + ".", _NONE, "", _NONE, ""),
        (" until ", _RT_E, " (start unknown).", _NONE, "", _NONE, ""),
        (" (time unknown).", _NONE, "", _NONE, "", _NONE, ""),
    ]


def _time_phrase(
    fact: Fact, is_event: bool, as_of: TimePoint, open_end: str = "ongoing", bad: Collection[int] = ()
) -> str:
    """The time phrase of one fact with its full stop: its case of :func:`_cases`, the parts filled in."""
    s, e = fact.start, fact.end
    listed = sorted({p.year for p in (s, e) if p is not None and p.year in bad})
    point = s is not None and ((e is None and is_event) or e == s)
    if listed:
        case = (0 if len(listed) == 1 else 1) if s is not None and e is not None and s != e else 2
    elif s is not None and e is not None and s.lo(s.granularity) > e.hi(s.granularity):
        case = 3
    elif s is not None and point:
        case = 4 if s.day is not None else 5
    else:
        case = 6 if s is not None and e is not None else 7 if s is not None else 8 if e is not None else 9

    def part(source: int) -> str:
        p = s if source in (_RT_S, _ISO_S) else e
        if source == _BAD:
            return " and ".join(str(y) for y in listed)
        if source == _NONE or p is None:
            return ""
        return render_time_text(p) if source in (_RT_S, _RT_E) else p.isoformat()

    t = _cases(as_of, open_end)[case]
    return t[0] + part(t[1]) + t[2] + part(t[3]) + t[4] + part(t[5]) + t[6]


def verbalise(
    fact: Fact,
    phrases: RelationPhrases,
    labels: Callable[[str], str],
    as_of: TimePoint,
    open_end: str = "ongoing",
    not_years: Collection[int] = (),
) -> str:
    """One sentence stating the fact and its validity (an open-ended state per the ``open_end`` reading).

    ``not_years`` are the years listed as not being years for this fact's relation: a fact dated in one
    says so ("(date recorded as 360, not a valid year)").
    """
    body = fill(phrases.statement, s=labels(fact.s), o=labels(fact.o))
    text = body + _time_phrase(fact, phrases.is_event, as_of, open_end, not_years)
    return text[:1].upper() + text[1:]


def fact_triple(fact: Fact, doc_id: str, labels: Callable[[str], str], rel_label: Callable[[str], str]) -> Triple:
    """The fact as a question triple (labels, ISO times, ids)."""
    return Triple(
        labels(fact.s), rel_label(fact.r), labels(fact.o), time_str(fact.start), time_str(fact.end),
        fact.s, fact.r, fact.o, fact.id, doc_id,
    )  # fmt: skip


def iter_corpus(
    facts: Sequence[Fact],
    doc_ids: Sequence[str],
    phrases: Mapping[str, RelationPhrases],
    labels: Callable[[str], str],
    rel_label: Callable[[str], str],
    as_of: TimePoint,
    open_end: str = "ongoing",
    not_years: Mapping[str, Collection[int]] | None = None,
) -> Iterator[Doc]:
    """Stream the corpus documents in fact order (``not_years``: relation id → years that are not years)."""
    bad = not_years or {}
    for fact, doc_id in zip(facts, doc_ids, strict=True):
        t = fact_triple(fact, doc_id, labels, rel_label)
        yield Doc(
            doc_id, verbalise(fact, phrases[fact.r], labels, as_of, open_end, bad.get(fact.r, ())),
            t.s, t.r, t.o, t.t_start, t.t_end, fact.s, fact.r, fact.o, fact.id,
        )  # fmt: skip


# -- the columnar corpus -----------------------------------------------------------------------------------


def _template_parts(template: str) -> list[str]:
    """``template`` cut where :func:`fill` puts the labels: ``[text, "s" | "o", text, ..., text]``.

    :func:`fill` itself finds the placeholders: it fills them with two characters the template does not hold.
    """
    s_mark, o_mark = islice((m for m in map(chr, range(0xE000, 0xF900)) if m not in template), 2)
    parts = re.split(f"([{s_mark}{o_mark}])", fill(template, s=s_mark, o=o_mark))
    return [("s" if p == s_mark else "o") if i % 2 else p for i, p in enumerate(parts)]


def _dictionaries(fields: list[tuple[pa.Array, np.ndarray, np.ndarray | None]]) -> list[pa.DictionaryArray]:
    """Each ``(values, indices, valid or None)`` as a dictionary column holding only the values used.

    A column is ``values[indices]``, null where not ``valid``; its dictionary keeps the values' order. Fields with
    the same ``indices`` array (a row's subject as label and as id) share the work of finding the values used and
    renumbering the rows: half of it, with a million entities.
    """
    found: dict[tuple[int, int], tuple[pa.Array, np.ndarray]] = {}
    out = []
    for values, indices, valid in fields:
        key = (id(indices), len(values))
        if key not in found:
            used = np.zeros(len(values), dtype=bool)
            used[indices if valid is None else indices[valid]] = True
            remap = np.cumsum(used, dtype=np.int32) - 1
            idx = remap[indices if valid is None else np.where(valid, indices, 0)]
            mask = None if valid is None else ~valid
            found[key] = (pa.array(idx, pa.int32(), mask=mask), np.flatnonzero(used))
        codes, taken = found[key]
        out.append(pa.DictionaryArray.from_arrays(codes, values.take(taken)))
    return out


class _CorpusPlan:
    """What the batches share: the label, phrase and time pools, the distinct dates, and the listed years' cases.

    Each batch finds its rows' date positions (:meth:`positions`) and, with no year listed, cases itself.
    """

    def __init__(
        self,
        cols: FactColumns,
        phrases: Mapping[str, RelationPhrases],
        labels: Callable[[str], str],
        rel_label: Callable[[str], str],
        as_of: TimePoint,
        open_end: str,
        not_years: Mapping[str, Collection[int]],
        batch_rows: int,
        doc_ids: Sequence[str] | pa.Array | None = None,
        threads: int | None = None,
        kernel_rows: int | None = None,
    ) -> None:
        self.batch_rows, self.threads = batch_rows, threads
        self.ids = doc_ids
        self._pools: dict[str, Any] | None = None
        self._text_pools: dict[str, Any] | None = None
        self._field_pools: list[pa.Array] | None = None
        #: whether the lines and the text column are made by the numba kernel (:mod:`.kernel`)
        least = KERNEL_MIN_ROWS if kernel_rows is None else kernel_rows
        self.kernel = len(cols) >= least and kernel_available()
        self._layouts: dict[bool, Any] = {}
        # the kernel loaded (numba imported, its cached code read; compiled on a fresh machine) on a thread of its
        # own while this plan's numpy and Arrow work runs: :meth:`layout` waits for it
        self._kernel_loaded: Future[None] | None = None
        if self.kernel:
            pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chronoqa-kernel")
            self._kernel_loaded = pool.submit(_load_kernel, as_of, batch_rows)
            pool.shutdown(wait=False)  # the thread ends when the kernel is loaded
        self.cols, self.phrases, self.labels, self.as_of, self.open_end = cols, phrases, labels, as_of, open_end
        self.not_years = not_years
        n_ent, n_rel = len(cols.entities), len(cols.relations)
        used_e = np.zeros(n_ent, dtype=bool)
        used_e[cols.s] = True
        used_e[cols.o] = True
        used_r = np.bincount(cols.r, minlength=n_rel) > 0
        ent_labels = [labels(e) if u else "" for e, u in zip(cols.entities, used_e.tolist(), strict=True)]
        rel_used = np.flatnonzero(used_r).tolist()
        self.ent_labels = pa.array(ent_labels, pa.string())
        self.ent_ids = pa.array(list(cols.entities), pa.string())
        self.rel_ids = pa.array(list(cols.relations), pa.string())
        rel_labels = [rel_label(cols.relations[i]) if used_r[i] else "" for i in range(n_rel)]
        self.rel_labels = pa.array(rel_labels, pa.string())
        self.ent_empty = pc.equal(pc.binary_length(self.ent_labels), 0).to_numpy(zero_copy_only=False)
        self._statements(n_ent, n_rel, rel_used, ent_labels)
        self._times(rel_used)

    def _statements(self, n_ent: int, n_rel: int, rel_used: list[int], ent_labels: list[str]) -> None:
        """The body pool (labels, capitalised labels, statement texts) and each relation's template as indices."""
        rels = self.cols.relations
        # statement templates split at their placeholders: text, slot, text, slot, ..., text
        split = {i: _template_parts(self.phrases[rels[i]].statement) for i in rel_used}
        self.k = k = max((len(p) // 2 for p in split.values()), default=0)
        self.starts_with_slot = np.zeros(n_rel, dtype=bool)
        self.is_event = np.zeros(n_rel, dtype=bool)
        for i in rel_used:
            self.is_event[i] = self.phrases[rels[i]].is_event
            self.starts_with_slot[i] = split[i][0] == "" and len(split[i]) > 1
        # the labels, the capitalised labels at n_ent + e, "", then the statements' texts
        if self.starts_with_slot.any():
            caps = pa.array([x[:1].upper() + x[1:] for x in ent_labels], pa.string())
        else:
            caps = pa.repeat("", n_ent)
        self.n_ent = n_ent
        self.empty = 2 * n_ent
        pool = [""]
        self.lit = np.full((k + 1, n_rel), self.empty, dtype=np.int32)  # int32 indices: cheaper Arrow takes
        self.slot = np.zeros((k + 1, n_rel), dtype=np.int8)  # 0 none, 1 subject, 2 object
        for i, parts in split.items():
            for j in range(0, len(parts), 2):
                text = parts[j]
                if j == 0:
                    text = text[:1].upper() + text[1:]
                if text:
                    self.lit[j // 2, i] = self.empty + len(pool)
                    pool.append(text)
                if j + 1 < len(parts):
                    self.slot[j // 2 + 1, i] = 1 if parts[j + 1] == "s" else 2
        self.pool = pa.concat_arrays([self.ent_labels, caps, pa.array(pool, pa.string())])

    def _times(self, rel_used: list[int]) -> None:
        """The distinct dates, the time pool the time phrase's parts come from, and (listed years) each fact's case.

        Cases as :func:`_time_phrase` decides them.
        """
        c = self.cols
        n = len(c)
        # the distinct dates; each batch finds its rows' positions among them (:meth:`positions`, on the workers)
        self.dates = date_table(
            (c.start_year, c.start_month, c.start_day, c.has_start), (c.end_year, c.end_month, c.end_day, c.has_end)
        )
        # the years listed as not being years, as (relation code, year) keys
        code = {c.relations[i]: i for i in rel_used}
        pairs = [(code[r], y) for r, ys in self.not_years.items() if r in code for y in ys]
        bad = np.array(pairs, dtype=np.int64).reshape(-1, 2)
        bad_keys = np.sort(_year_key(bad[:, 0], bad[:, 1]))
        self._bad_keys = bad_keys
        # with no year listed, each batch decides its rows' cases itself (on the workers, see :meth:`row_cases`)
        self.case: np.ndarray | None = None
        self.bad_idx: np.ndarray | None = None
        bad_texts: list[str] = []
        if len(bad_keys):  # the listed years' texts are shared: every row's case first, a batch at a time
            self.case = np.empty(n, dtype=np.int8)
            listed_rows: list[np.ndarray] = []
            listed_years: list[np.ndarray] = []
            starts = range(0, n, self.batch_rows)  # a batch of rows at a time (small temporaries), on the workers

            def cases_of(a: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
                return self._cases_of(slice(a, a + self.batch_rows), bad_keys)

            for a, (rows_listed, years, case) in map_ordered(cases_of, starts, self.threads):
                self.case[a : a + self.batch_rows] = case
                listed_rows.append(rows_listed + a)
                listed_years.append(years)
            self.bad_idx = np.zeros(n, dtype=np.int32)
            listed = np.concatenate([np.zeros(0, dtype=np.int64), *listed_rows])
            if len(listed):
                years, inv = np.unique(np.concatenate(listed_years, axis=1), axis=1, return_inverse=True)
                bad_texts = [str(x) if x == y else f"{x} and {y}" for x, y in years.T.tolist()]
                self.bad_idx[listed] = inv.reshape(-1)
        # the time pool: the cases' texts, the dates as text, the dates as ISO, the listed years, ""
        cases = _cases(self.as_of, self.open_end)
        texts = sorted({case[j] for case in cases for j in (0, 2, 4, 6)})
        at = {t: i for i, t in enumerate(texts)}
        self.case_text = np.array([[at[case[j]] for case in cases] for j in (0, 2, 4, 6)], dtype=np.int64)
        self.case_part = np.array([[case[j] for case in cases] for j in (1, 3, 5)], dtype=np.int64)
        self.case_empty = at[""]
        # the dates as ISO and as text (render_time_text's: render_time), each distinct year written once
        self.iso = iso = self.dates.isoformat()
        rendered = self.dates.render()
        self.rt0 = len(texts)
        self.iso0 = self.rt0 + len(iso)
        self.bad0 = self.iso0 + len(iso)
        self.none = self.bad0 + len(bad_texts)
        listed_texts = pa.array(bad_texts, pa.string())
        self.tpool = pa.concat_arrays(
            [pa.array(texts, pa.string()), rendered, iso, listed_texts, pa.array([""], pa.string())]
        )
        self.cases = cases
        none = pa.array([""], pa.string())
        self.part_values: dict[int, pa.Array] = {
            _NONE: none, _RT_S: rendered, _RT_E: rendered, _ISO_S: iso, _ISO_E: iso, _BAD: listed_texts
        }  # fmt: skip

    def positions(self, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        """The positions of rows ``a..b-1``'s start and end dates among the plan's dates (int32; 0 where unknown)."""
        c, rows = self.cols, slice(a, b)
        return (
            self.dates.positions(c.start_year[rows], c.start_month[rows], c.start_day[rows], c.has_start[rows]),
            self.dates.positions(c.end_year[rows], c.end_month[rows], c.end_day[rows], c.has_end[rows]),
        )

    def row_cases(self, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        """The time-phrase case of rows ``a..b-1`` and their listed years' positions among the listed texts."""
        if self.case is None or self.bad_idx is None:
            return self._cases_of(slice(a, b), self._bad_keys)[2], np.zeros(b - a, dtype=np.int32)
        return self.case[a:b], self.bad_idx[a:b]

    def _cases_of(self, rows: slice, bad_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The time-phrase case of each row of ``rows``, and its listed rows (positions) with their years (2 x k)."""
        c = self.cols
        hs, he, r = c.has_start[rows], c.has_end[rows], c.r[rows]
        sy, sm, sd = c.start_year[rows], c.start_month[rows], c.start_day[rows]
        ey, em, ed = c.end_year[rows], c.end_month[rows], c.end_day[rows]
        both = hs & he
        same = both & (sy == ey) & (sm == em) & (sd == ed)
        if len(bad_keys):
            r64 = r.astype(np.int64)
            s_bad = hs & np.isin(_year_key(r64, sy.astype(np.int64)), bad_keys)
            e_bad = he & np.isin(_year_key(r64, ey.astype(np.int64)), bad_keys)
        else:  # no year is listed as not a year
            s_bad = e_bad = np.zeros(len(r), dtype=bool)
        two = s_bad & e_bad & (sy != ey)
        listed = s_bad | e_bad
        one = np.where(s_bad, sy, ey)
        years = np.stack(
            [np.where(two, np.minimum(sy, ey), one)[listed], np.where(two, np.maximum(sy, ey), one)[listed]]
        )
        rev = both & start_after_end((sy, sm, sd), (ey, em, ed))
        point = hs & ((~he & self.is_event[r]) | same)
        case = np.select(
            [listed & both & ~same & ~two, listed & both & ~same, listed, rev, point & (sd != 0), point, both, hs, he],
            np.arange(9, dtype=np.int8),
            np.int8(9),
        ).astype(np.int8)
        return np.flatnonzero(listed), years.astype(np.int64), case

    def body(self, r: np.ndarray, s: np.ndarray, o: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        """The statement's pieces of each row (body-pool indices, capitalised), and the rows whose capital is open."""
        pieces = [self.lit[0, r]]
        cap = self.starts_with_slot[r]
        for j in range(1, self.k + 1):
            kind = self.slot[j, r]
            ent = np.where(kind == 1, s, o).astype(np.int32)
            if j == 1:
                idx = np.where(kind == 0, self.empty, np.where(cap, ent + self.n_ent, ent))
            else:
                idx = np.where(kind == 0, self.empty, ent)
            pieces += [idx, self.lit[j, r]]
        return pieces, self.undecided(r, s, o)

    def undecided(self, r: np.ndarray, s: np.ndarray, o: np.ndarray) -> np.ndarray:
        """The rows whose statement opens with an empty label: their capital is open (:func:`verbalise` decides)."""
        if not self.k or not len(r):
            return np.zeros(len(r), dtype=bool)
        cap = self.starts_with_slot[r]
        return cap & self.ent_empty[np.where(self.slot[1, r] == 1, s, o)]

    def by_rule(self, a: int, undecided: np.ndarray) -> pa.Array:
        """The texts of the ``undecided`` rows of the batch from ``a``, by :func:`verbalise`, in row order."""
        return pa.array([self._verbalise(a + int(i)) for i in np.flatnonzero(undecided).tolist()], pa.string())

    def tail(self, a: int, b: int, pos: tuple[np.ndarray, np.ndarray]) -> list[np.ndarray]:
        """The time phrase's pieces of rows ``a..b-1``, with the full stop (indices into the time pool).

        ``pos``: the rows' :meth:`positions`.
        """
        case, bad_idx = self.row_cases(a, b)
        present = np.flatnonzero(np.bincount(case, minlength=len(self.case_text[0])))
        pos_s, pos_e = pos[0].astype(np.int64), pos[1].astype(np.int64)
        sources: list[Callable[[], np.ndarray]] = [
            lambda: np.full(b - a, self.none, dtype=np.int64),
            lambda: self.rt0 + pos_s,
            lambda: self.rt0 + pos_e,
            lambda: self.iso0 + pos_s,
            lambda: self.iso0 + pos_e,
            lambda: self.bad0 + bad_idx.astype(np.int64),
        ]
        pieces = [self.case_text[0, case]]
        for j in range(3):
            kinds = np.unique(self.case_part[j, present]).tolist()
            if len(kinds) == 1:  # the same source in every row of the batch
                part = sources[kinds[0]]()
            else:
                part = np.choose(self.case_part[j, case], [sources[k]() for k in range(len(sources))])
            pieces += [part, self.case_text[j + 1, case]]
        return pieces

    def text_pieces(self, a: int, b: int, pos: tuple[np.ndarray, np.ndarray]) -> tuple[list[pa.Array], np.ndarray]:
        """The text's pieces of rows ``a..b-1`` (pieces empty in every row left out), and :meth:`body`'s open rows.

        ``pos``: the rows' :meth:`positions`.
        """
        c = self.cols
        body, undecided = self.body(c.r[a:b], c.s[a:b], c.o[a:b])
        pieces = [self.pool.take(i) for i in body if not (i == self.empty).all()]
        tail = self.tail(a, b, pos)
        pieces += [self.tpool.take(i) for i in tail if not ((i == self.none) | (i == self.case_empty)).all()]
        return pieces, undecided

    def fields(
        self, a: int, b: int, pos: tuple[np.ndarray, np.ndarray] | None = None
    ) -> list[tuple[pa.Array, np.ndarray, np.ndarray | None]]:
        """The dictionary columns of rows ``a..b-1`` as ``(values, indices, valid or None)``.

        They are the columns after ``text``, in :data:`CORPUS_SCHEMA` order. ``pos``: the rows' :meth:`positions`
        (``None``: found here).
        """
        c = self.cols
        pos_s, pos_e = self.positions(a, b) if pos is None else pos
        s, r, o, hs, he = c.s[a:b], c.r[a:b], c.o[a:b], c.has_start[a:b], c.has_end[a:b]
        return [
            (self.ent_labels, s, None),
            (self.rel_labels, r, None),
            (self.ent_labels, o, None),
            (self.iso, pos_s, hs),
            (self.iso, pos_e, he),
            (self.ent_ids, s, None),
            (self.rel_ids, r, None),
            (self.ent_ids, o, None),
        ]

    def batch(self, a: int, b: int, pos: tuple[np.ndarray, np.ndarray] | None = None) -> pa.RecordBatch:
        """The documents of facts ``a..b-1`` (``pos``: the rows' :meth:`positions`, ``None``: found here)."""
        pos = self.positions(a, b) if pos is None else pos
        if self.kernel:
            data, ends = self._kernel_rows(a, b, json=False, pos=pos)
            offsets = np.concatenate([np.zeros(1, dtype=np.int32), ends.astype(np.int32)])
            text = pa.StringArray.from_buffers(b - a, pa.py_buffer(offsets), pa.py_buffer(data))
        else:
            pieces, undecided = self.text_pieces(a, b, pos)
            text = pc.binary_join_element_wise(*pieces, "") if pieces else pa.array([""] * (b - a), pa.string())
            if undecided.any():
                text = pc.replace_with_mask(text, pa.array(undecided), self.by_rule(a, undecided))
        columns = [
            self.doc_ids(a, b),
            text,
            *_dictionaries(self.fields(a, b, pos)),
            pa.array(self.cols.ids[a:b], pa.int64()),
        ]
        return pa.RecordBatch.from_arrays(columns, schema=CORPUS_SCHEMA)

    def doc_ids(self, a: int, b: int) -> pa.Array:
        """The doc ids of facts ``a..b-1``."""
        ids = self.ids
        if ids is None:
            return pc.binary_join_element_wise("F", pc.cast(pa.array(self.cols.ids[a:b]), pa.string()), "")
        if isinstance(ids, pa.Array):
            return pc.cast(ids[a:b], pa.string())
        if isinstance(ids, DocIds):
            whole = pc.binary_join_element_wise("F", pc.cast(pa.array(ids.facts[a:b]), pa.string()), "")
            if ids.expanded is None or ids.years is None or not ids.expanded[a:b].any():
                return whole
            year = pc.cast(pa.array(ids.years[a:b]), pa.string())
            return pc.if_else(pa.array(ids.expanded[a:b]), pc.binary_join_element_wise(whole, year, "-"), whole)
        return pa.array(ids[a:b], pa.string())

    def json_lines(self, a: int, b: int, pos: tuple[np.ndarray, np.ndarray] | None = None) -> pa.Buffer:
        """The documents of facts ``a..b-1`` as JSON lines, the bytes ``json_lines(self.batch(a, b))`` gives.

        One Arrow join per batch of pieces taken from pools escaped once (:meth:`json_pools`): no text column, no
        dictionary columns, no per-column pass over the rows. With :attr:`kernel`, the numba kernel copies the same
        pieces row by row instead (:meth:`_kernel_rows`). ``pos``: the rows' :meth:`positions` (``None``: found
        here).
        """
        if self.kernel:
            return pa.py_buffer(self._kernel_rows(a, b, json=True, pos=pos)[0])
        pools = self.json_pools()
        c = self.cols
        fact_ids = pc.cast(pa.array(c.ids[a:b]), pa.string())  # the doc id's digits and the last field
        head: list[pa.Array | str]
        if self.ids is None:
            head = [_DOC_ID_OPEN + "F", fact_ids]
        else:
            head = [json_strings(self.doc_ids(a, b), _DOC_ID_OPEN, quoted=False)]
        case8, bad_idx = self.row_cases(a, b)
        pos = self.positions(a, b) if pos is None else pos
        r, case = c.r[a:b].astype(np.int32), case8.astype(np.int32)
        body, undecided = self.body(r, c.s[a:b], c.o[a:b])
        n_cases = len(self.cases)
        if self.k == 0:  # the template's one text is the first and the last piece
            text = [pools["last"].take(r * n_cases + case)]
        else:
            text = [pools["first"].take(r)]
            text += [pools["body"].take(i) for i in body[1:-1] if not (i == self.empty).all()]
            text.append(pools["last"].take(r * n_cases + case))
        sources: list[np.ndarray] = [
            np.zeros(b - a, dtype=np.int32),
            *pos,
            bad_idx,
        ]
        present = np.flatnonzero(np.bincount(case8, minlength=n_cases))  # the cases of the batch's rows
        for values, base, kind, blank in pools["tail"]:
            if blank[present].all():  # an empty piece in every row
                continue
            kinds = np.unique(kind[present]).tolist()
            local = sources[kinds[0]] if len(kinds) == 1 else np.choose(kind[case], sources)
            text.append(values.take(base[case] + local))
        rest: list[pa.Array | str] = []
        for values, (_, idx, valid) in zip(self.field_pools(), self.fields(a, b, pos), strict=True):
            rest.append(values.take(idx if valid is None else np.where(valid, idx, len(values) - 1)))
        rest += [fact_ids, "}\n"]
        lines = pc.binary_join_element_wise(*head, *text, *rest, "")
        if undecided.any():
            rows = np.flatnonzero(undecided)
            texts = self.by_rule(a, undecided)
            pick = pa.array(rows)
            sub = [p if isinstance(p, str) else p.take(pick) for p in head]
            sub += [json_strings(texts, pools["text_key"], quoted=False)]
            sub += [p if isinstance(p, str) else p.take(pick) for p in rest]
            lines = pc.replace_with_mask(lines, pa.array(undecided), pc.binary_join_element_wise(*sub, ""))
        return string_bytes(lines)

    def text_pools(self) -> dict[str, Any]:
        """The pools of :meth:`json_pools` before escaping, without the keys: the pieces of the text column.

        ``first`` (per relation), ``body``, ``last`` (relation x case) and ``tail``: for each of the case's three
        parts ``(values, first row of each case, source of each case)``, sources numbered 0 none, 1 start date,
        2 end date, 3 listed years. Made once.
        """
        if self._text_pools is not None:
            return self._text_pools
        cases = self.cases
        # relation x case: the relation's last text, then the case's first
        last = self.pool.take(np.repeat(self.lit[self.k], len(cases)))
        heads = pa.array([case[0] for case in cases] * len(self.lit[0]), pa.string())
        joined = pc.binary_join_element_wise(last, heads, "")
        source = {_NONE: 0, _RT_S: 1, _ISO_S: 1, _RT_E: 2, _ISO_E: 2, _BAD: 3}
        tail = []
        parts = [((p1, t1), (p2, t2), (p3, t3)) for _, p1, t1, p2, t2, p3, t3 in cases]
        for j in range(3):
            blocks, base, kind = [], [], []
            at = 0
            for part, after in (case_parts[j] for case_parts in parts):
                values = self.part_values[part]
                blocks.append(pc.binary_join_element_wise(values, after, ""))
                base.append(at)
                kind.append(source[part])
                at += len(values)
            tail.append((pa.concat_arrays(blocks), np.array(base, dtype=np.int32), np.array(kind, dtype=np.int32)))
        self._text_pools = {"first": self.pool.take(self.lit[0]), "body": self.pool, "last": joined, "tail": tail}
        return self._text_pools

    def json_pools(self) -> dict[str, Any]:
        """The pools of the JSON lines' text (:meth:`json_lines` and the kernel's), escaped once, keys folded in.

        Escaped by :func:`~chronoqa.io.json_strings`. The text: its key and first text per relation (``first``), the
        body's labels and texts (``body``), the last text of each relation joined to the first text of each case
        (``last``: relation x case; for a template without slots, its one text, which is also the first, after the
        key), and for each of the case's three parts the part's values joined to the case's text after it
        (``tail``: ``(values, first row of each case, source of each case, whether each case's values are all
        empty)``). Made once (call it before the workers share it); :meth:`field_pools` has the other fields.
        """
        if self._pools is not None:
            return self._pools
        text_key = "," + dumps(CORPUS_SCHEMA.names[1]) + ':"'
        raw = self.text_pools()
        key = '"' + text_key
        pools: dict[str, Any] = {
            "text_key": key,
            "first": json_strings(raw["first"], key, quoted=False),
            "body": json_strings(raw["body"], quoted=False),
            # k == 0: the last text is the first
            "last": json_strings(raw["last"], key if self.k == 0 else "", quoted=False),
        }
        tail = []
        for values, base, kind in raw["tail"]:
            values_j = json_strings(values, quoted=False)
            empty = pc.equal(pc.binary_length(values_j), 0).to_numpy(zero_copy_only=False)
            ends = [*base[1:].tolist(), len(values_j)]
            blank = np.array([empty[i:j].all() for i, j in zip(base.tolist(), ends, strict=True)], dtype=bool)
            tail.append((values_j, base, kind, blank))
        pools["tail"] = tail
        self._pools = pools
        return pools

    def field_pools(self) -> list[pa.Array]:
        """The JSON lines' fields after the text (:meth:`json_lines`): each dictionary column's values, escaped once.

        Each value has its key before it (``"null"`` last, for a missing value; the first key also closes the
        text's quote, the last one is followed by the key of ``fact_id``). Made once (call it before the workers
        share it); the kernel does not use them.
        """
        if self._field_pools is not None:
            return self._field_pools
        keys = ["," + dumps(name) + ":" for name in CORPUS_SCHEMA.names[2:]]
        keys[0] = '"' + keys[0]
        self._field_pools = [
            json_strings(pa.concat_arrays([values, pa.nulls(1, pa.string())]), key, keys[k + 1] if k == 7 else "")
            for k, ((values, _, _), key) in enumerate(zip(self.fields(0, 0), keys, strict=False))
        ]
        return self._field_pools

    def layout(self, json: bool) -> Any:
        """The kernel's :class:`~chronoqa.generate.kg.kernel.Layout` of the JSON lines or of the text column.

        Made once (call it before the workers share it): the pools of :meth:`json_pools` or :meth:`text_pools`
        end to end, and where each relation's and case's pieces are among them. Its first use loads (or, on a
        fresh machine, compiles) the kernel.
        """
        if json in self._layouts:
            return self._layouts[json]
        if self._kernel_loaded is not None:
            self._kernel_loaded.result()  # raises what loading it raised
        from chronoqa.generate.kg import kernel as lines_kernel

        raw = self.text_pools()
        n_cases, n_rel = len(self.cases), len(self.lit[0])
        if json:
            p = self.json_pools()
            first, body, last = p["first"], p["body"], p["last"]
            tails = [t[0] for t in p["tail"]]
            head = _DOC_ID_OPEN + "F"
        else:
            first, body, last = raw["first"], raw["body"], raw["last"]
            tails = [t[0] for t in raw["tail"]]
            head = ""
        esc = (lambda a: json_strings(a, quoted=False)) if json else (lambda a: a)
        names = CORPUS_SCHEMA.names
        key = {name: "," + dumps(name) + ":" for name in names}
        # the keys between the dictionary columns' values (their quotes folded in; t_* with or without a value)
        texts = ['"' + key["s"] + '"', "", '"' + key["t_start"] + '"', '"' + key["t_start"] + "null"]
        texts += ['"' + key["t_end"] + '"', '"' + key["t_end"] + "null", key["t_end"] + '"', key["t_end"] + "null"]
        texts += ['"' + key["s_id"] + '"', key["s_id"] + '"', "", '"' + key["fact_id"]]
        consts = pa.array([head, "-", "}\n" if json else "", *texts], pa.string())
        n_ent, n_dates = self.n_ent, len(self.iso)
        # an entity's pieces side by side (a row's subject or object: a cache line or two), a date's likewise
        ent = [body.slice(0, n_ent), body.slice(n_ent, n_ent)]
        ent += [esc(self.ent_ids)] if json else []
        rendered = self.part_values[_RT_S]
        dates = [esc(rendered), esc(self.iso)]
        # r and r_id, each with the text before the next value: "r":R,"o":"  "r_id":R,"o_id":"
        rel = [
            pc.binary_join_element_wise(f'"{key[name]}"', json_strings(values, quoted=False), f'"{key[nxt]}"', "")
            for name, nxt, values in (("r", "o", self.rel_labels), ("r_id", "o_id", self.rel_ids))
        ] if json else []  # fmt: skip
        afters = esc(pa.array([case[j] for j in (2, 4, 6) for case in self.cases], pa.string()))
        # the parts other than dates (none, the listed years), each case's block; the statements' texts alone
        sizes = {0: 1, 1: n_dates, 2: n_dates, 3: len(self.part_values[_BAD])}
        kinds = np.array([t[2] for t in raw["tail"]], dtype=np.int8).reshape(3, n_cases)
        bases = np.zeros((3, n_cases), dtype=np.int64)
        for j in range(3):
            blocks, at_j = [], 0
            for c, base in enumerate(raw["tail"][j][1].tolist()):
                if kinds[j, c] in (0, 3):
                    bases[j, c] = at_j
                    blocks.append(tails[j].slice(base, sizes[int(kinds[j, c])]))
                    at_j += sizes[int(kinds[j, c])]
            tails[j] = pa.concat_arrays([pa.array([], pa.string()), *blocks])
        texts_at = 2 * n_ent  # the body pool: labels, capitalised labels, then the texts
        data, off, at = lines_kernel.pool_arrays(
            [
                consts, first, body.slice(texts_at), last, *tails, afters, *rel,
                _interleave(ent, n_ent), _interleave(dates, n_dates),
            ]
        )  # fmt: skip
        c_at, first_at, body_at, last_at = at[:4]
        tail_base, after_at, ent_at, date_at = at[4:7], at[7], at[-2], at[-1]
        date_kind = (kinds == 1) | (kinds == 2)
        after = after_at + np.arange(3 * n_cases, dtype=np.int64).reshape(3, n_cases)
        tail_at = np.where(date_kind, after, bases + np.array(tail_base, dtype=np.int64)[:, None])
        parts = np.array([[case[j] for case in self.cases] for j in (1, 3, 5)], dtype=np.int64)
        keys = c_at + 3 + np.arange(12, dtype=np.int64)
        if json:
            keys[1], keys[10] = at[8], at[9]
        lay = lines_kernel.Layout(
            data=data,
            off=off,
            first_at=first_at + np.arange(n_rel, dtype=np.int64),
            lit_at=body_at - texts_at + self.lit.astype(np.int64),
            slot=np.ascontiguousarray(self.slot),
            cap=self.starts_with_slot,
            ent_at=ent_at,
            ent_w=len(ent),
            date_at=date_at,
            date_w=len(dates),
            last_at=last_at + np.arange(n_rel * n_cases, dtype=np.int64),
            tail_at=np.ascontiguousarray(tail_at, dtype=np.int64),
            tail_kind=kinds,
            tail_col=np.isin(parts, (_ISO_S, _ISO_E)).astype(np.int8),
            keys=keys,
            head_at=c_at,
            dash_at=c_at + 1,
            close_at=c_at + 2,
            k=self.k,
            n_cases=n_cases,
            json=json,
        )
        self._kernel_rows(0, 0, json, lay)  # loads or compiles the kernel here, not on a worker
        self._layouts[json] = lay
        return lay

    def _kernel_rows(
        self, a: int, b: int, json: bool, lay: Any = None, pos: tuple[np.ndarray, np.ndarray] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Rows ``a..b-1`` by the kernel: their JSON lines or texts end to end, and each row's end (int64).

        ``pos``: the rows' :meth:`positions` (``None``: found here).
        """
        from chronoqa.generate.kg import kernel as lines_kernel

        lay = self.layout(json) if lay is None else lay
        c = self.cols
        r, s, o = c.r[a:b], c.s[a:b], c.o[a:b]
        case, bad_idx = self.row_cases(a, b)
        pos_s, pos_e = self.positions(a, b) if pos is None else pos
        rows = tuple(
            x.astype(t, copy=False)
            for x, t in (
                (r, np.int32), (s, np.int32), (o, np.int32), (case, np.int8), (pos_s, np.int32),
                (pos_e, np.int32), (c.has_start[a:b], bool), (c.has_end[a:b], bool), (bad_idx, np.int32),
                (c.ids[a:b], np.int64),
            )
        )  # fmt: skip
        none_i64, none_i32 = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32)
        no_head = (np.zeros(0, dtype=np.uint8), np.zeros(1, dtype=np.int32))
        head: tuple[Any, ...] = (0, *no_head, none_i64, none_i32, np.zeros(0, dtype=bool))
        ids = self.ids
        if json and isinstance(ids, DocIds):
            expanded = ids.expanded[a:b] if ids.expanded is not None and ids.years is not None else None
            years = ids.years[a:b] if expanded is not None and ids.years is not None else np.zeros(b - a, np.int32)
            exp = expanded if expanded is not None else np.zeros(b - a, dtype=bool)
            head = (2, *no_head, ids.facts[a:b].astype(np.int64, copy=False), years.astype(np.int32), exp)
        elif json and ids is not None:
            given = json_strings(self.doc_ids(a, b), _DOC_ID_OPEN, quoted=False)
            head = (1, *lines_kernel.string_pool(given), none_i64, none_i32, np.zeros(0, dtype=bool))
        undecided = self.undecided(r, s, o)
        overrides = no_head
        if undecided.any():
            texts = self.by_rule(a, undecided)
            if json:
                texts = json_strings(texts, self.json_pools()["text_key"], quoted=False)
            overrides = lines_kernel.string_pool(texts)
        return lines_kernel.lines(lay, rows, head, undecided, overrides)

    def _verbalise(self, i: int) -> str:
        fact = self.cols[i]
        bad = self.not_years.get(fact.r, ())
        return verbalise(fact, self.phrases[fact.r], self.labels, self.as_of, self.open_end, bad)


def _load_kernel(as_of: TimePoint, batch_rows: int) -> None:
    """Load the numba kernel for the lines and the text column: run once on a plan of one fact.

    Its first use in a process imports numba and reads the kernel's cached code (or compiles it, on a fresh
    machine); the one fact's plan calls it with the argument types of every plan's.
    """
    fact = Fact(0, "e", "r", "e", TimePoint(2000), None)
    phrases = {"r": generic_phrases("r", "r", "state")}
    one = _CorpusPlan(FactColumns.from_facts([fact]), phrases, str, str, as_of, "ongoing", {}, batch_rows, threads=0,
                      kernel_rows=sys.maxsize)  # fmt: skip
    one.layout(True)  # its layout, whether or not it uses the kernel


def _interleave(columns: list[pa.Array], n: int) -> pa.Array:
    """The strings of ``columns`` (``n`` each) row by row: row 0 of each column, then row 1 of each, ..."""
    if not columns or not n:
        return pa.array([], pa.string())
    w = len(columns)
    order = (np.arange(w, dtype=np.int64)[None, :] * n + np.arange(n, dtype=np.int64)[:, None]).reshape(-1)
    return pa.concat_arrays([c.cast(pa.string()) for c in columns]).take(order)


def _year_key(relation: np.ndarray, year: np.ndarray) -> np.ndarray:
    """One int64 per (relation code, year) pair."""
    return (relation << 32) + (year + (1 << 31))


class ColumnarCorpus:
    """The columnar corpus of a graph (:func:`corpus_columns`), made batch by batch as it is read.

    :meth:`reader` gives the Arrow batches of :data:`CORPUS_SCHEMA`; :meth:`parts` gives, batch by batch, the
    batch, its JSON lines (``json_lines(batch)``'s bytes, made straight from the pools: the release writer's
    ``corpus.jsonl``) or both. Batches are made on ``threads`` worker threads (``map_ordered``: the output does not
    depend on it) while the caller writes the previous ones; a few batches are in memory at a time.
    """

    def __init__(self, plan: _CorpusPlan, threads: int | None) -> None:
        self._plan, self.threads = plan, threads

    def _spans(self, step: int) -> list[tuple[int, int]]:
        n = len(self._plan.cols)
        return [(a, min(a + step, n)) for a in range(0, n, step)]

    def __len__(self) -> int:
        """The number of documents."""
        return len(self._plan.cols)

    @property
    def kernel(self) -> bool:
        """Whether the numba kernel makes the JSON lines and the text column (else Arrow's joins: same bytes)."""
        return bool(self._plan.kernel)

    def parts(
        self, batches: bool = True, lines: bool = False, *, caller_cores: int = 0
    ) -> Iterator[tuple[int, pa.RecordBatch | None, pa.Buffer | None]]:
        """``(rows, batch or None, JSON lines or None)`` of each batch in order.

        The batch is made if ``batches``, its JSON lines if ``lines``. With lines alone, the parts are of
        :data:`LINES_ROWS` documents (smaller than a batch: the file's bytes are the same). ``caller_cores``: the
        cores the caller's own work on each part keeps busy (its Parquet encoding), left to it when ``threads``
        is ``None`` (``map_ordered``'s ``spare``).
        """
        plan = self._plan
        if lines:
            plan.json_pools()  # made once, before the workers share them
            if not plan.kernel:
                plan.field_pools()
        if plan.kernel:
            for json in (True,) * lines + (False,) * batches:
                plan.layout(json)

        def make(span: tuple[int, int]) -> tuple[int, pa.RecordBatch | None, pa.Buffer | None]:
            a, b = span
            pos = plan.positions(a, b)  # once for the batch and its lines
            return b - a, plan.batch(a, b, pos) if batches else None, plan.json_lines(a, b, pos) if lines else None

        step = plan.batch_rows if batches else min(plan.batch_rows, LINES_ROWS)
        for _, part in map_ordered(make, self._spans(step), self.threads, spare=caller_cores):
            yield part

    def reader(self) -> pa.RecordBatchReader:
        """The corpus as Arrow batches of :data:`CORPUS_SCHEMA`, in fact order."""
        return pa.RecordBatchReader.from_batches(CORPUS_SCHEMA, (b for _, b, _ in self.parts() if b is not None))


def corpus_columns(
    facts: Sequence[Fact],
    doc_ids: Sequence[str] | pa.Array | None,
    phrases: Mapping[str, RelationPhrases],
    labels: Callable[[str], str],
    rel_label: Callable[[str], str],
    as_of: TimePoint,
    open_end: str = "ongoing",
    not_years: Mapping[str, Collection[int]] | None = None,
    *,
    batch_rows: int = CORPUS_BATCH_ROWS,
    threads: int | None = None,
    kernel_rows: int | None = None,
) -> ColumnarCorpus:
    """The corpus of :func:`iter_corpus` (same arguments) as a :class:`ColumnarCorpus`, in fact order.

    ``facts`` is best a :class:`~chronoqa.records.FactColumns` (other sequences are converted); ``doc_ids``
    ``None`` means ``F<fact id>`` (a :class:`~chronoqa.generate.kg.index.DocIds` is read as arrays). Labels and
    phrases are looked up once per entity and relation of the facts, each distinct label, phrase and date
    rendered once. Batches hold ``batch_rows`` facts; ``threads``: see :class:`ColumnarCorpus`. With at least
    ``kernel_rows`` facts (``None``: :data:`KERNEL_MIN_ROWS`) and numba installed, the numba kernel makes the JSON
    lines and the text column (:attr:`ColumnarCorpus.kernel`); the bytes do not depend on it.

    Raises:
        KeyError: A relation of the facts has no phrases (as :func:`iter_corpus`).
        ValueError: ``doc_ids`` does not have one id per fact.

    """
    cols = FactColumns.from_facts(facts)
    if doc_ids is not None and len(doc_ids) != len(cols):
        raise ValueError(f"corpus_batches: {len(doc_ids)} doc ids for {len(cols)} facts")
    bad = not_years or {}
    plan = _CorpusPlan(
        cols, phrases, labels, rel_label, as_of, open_end, bad, batch_rows, doc_ids, threads, kernel_rows
    )
    return ColumnarCorpus(plan, threads)


def corpus_batches(
    facts: Sequence[Fact],
    doc_ids: Sequence[str] | pa.Array | None,
    phrases: Mapping[str, RelationPhrases],
    labels: Callable[[str], str],
    rel_label: Callable[[str], str],
    as_of: TimePoint,
    open_end: str = "ongoing",
    not_years: Mapping[str, Collection[int]] | None = None,
    *,
    batch_rows: int = CORPUS_BATCH_ROWS,
) -> pa.RecordBatchReader:
    """The corpus of :func:`iter_corpus` (same arguments) as Arrow batches of :data:`CORPUS_SCHEMA`, in fact order.

    :func:`corpus_columns`'s :meth:`~ColumnarCorpus.reader`: the batches are made as they are read, ``batch_rows``
    facts each, and memory stays that of a few batches.

    Raises:
        KeyError: A relation of the facts has no phrases (as :func:`iter_corpus`).
        ValueError: ``doc_ids`` does not have one id per fact.

    """
    args = (facts, doc_ids, phrases, labels, rel_label, as_of, open_end, not_years)
    return corpus_columns(*args, batch_rows=batch_rows).reader()


def corpus_table(
    facts: Sequence[Fact],
    doc_ids: Sequence[str] | pa.Array | None,
    phrases: Mapping[str, RelationPhrases],
    labels: Callable[[str], str],
    rel_label: Callable[[str], str],
    as_of: TimePoint,
    open_end: str = "ongoing",
    not_years: Mapping[str, Collection[int]] | None = None,
) -> pa.Table:
    """The whole columnar corpus as one table (:func:`corpus_batches`, read to the end)."""
    return corpus_batches(facts, doc_ids, phrases, labels, rel_label, as_of, open_end, not_years).read_all()
