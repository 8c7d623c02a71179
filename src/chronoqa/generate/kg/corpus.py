"""Corpus: every fact of the graph verbalised once, with a stable doc id (``F<fact id>``).

One way to make the documents: :func:`corpus_columns` plans the corpus from the columns of a
:class:`~chronoqa.records.FactColumns` (each distinct entity label, relation phrase and date rendered once,
through :func:`~chronoqa.generate.kg.phrases.fill`'s placeholders and :class:`~chronoqa.time.DateTable`'s
:func:`~chronoqa.time.render_time` and :meth:`TimePoint.isoformat <chronoqa.time.TimePoint.isoformat>` texts),
then assembles each batch's sentences with Arrow string joins, one row per case of the time phrase, as record
batches of :data:`~chronoqa.artifacts.release.CORPUS_SCHEMA`. The release writer
(:func:`~chronoqa.artifacts.release.write_corpus`) writes those batches; :meth:`ColumnarCorpus.docs` reads them back as
:class:`~chronoqa.records.Doc` values for callers that want objects.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from itertools import islice

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from chronoqa.artifacts.release import CORPUS_BATCH_ROWS, CORPUS_SCHEMA
from chronoqa.generate.kg.index import DocIds
from chronoqa.generate.kg.phrases import RelationPhrases, fill
from chronoqa.io import json_lines, map_ordered
from chronoqa.records import Doc, Fact, FactColumns, Triple, time_str
from chronoqa.time import TimePoint, date_table, start_after_end

__all__ = [
    "LINES_ROWS",
    "ColumnarCorpus",
    "corpus_columns",
    "fact_triple",
]


#: Documents per part of :meth:`ColumnarCorpus.parts` when only JSON lines are made (a batch of
#: :data:`~chronoqa.artifacts.release.CORPUS_BATCH_ROWS` when the batches are written too: they are
#: ``corpus.parquet``'s row groups): a few parts in flight stay small, and a 1M-document corpus is 16 parts for
#: the worker threads, not 4.
LINES_ROWS = 1 << 16

# Sources of a time phrase's variable parts (in :func:`_cases`): none, a date as text or as ISO, the listed years.
_NONE, _RT_S, _RT_E, _ISO_S, _ISO_E, _BAD = range(6)


def _cases(as_of: TimePoint, open_end: str) -> list[tuple[str, int, str, int, str, int, str]]:
    """The time phrase of each case as ``(text, part, text, part, text, part, text)``, ending with the full stop.

    The one source of the time phrase's English: each batch's pieces fill these parts. Cases are numbered as
    ``_CorpusPlan._cases_of`` decides them: listed years (one, two, a single date), reversed, a point on a day or
    in a month or year, an interval, an open start, an end only, no time.
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


def fact_triple(fact: Fact, doc_id: str, labels: Callable[[str], str], rel_label: Callable[[str], str]) -> Triple:
    """The fact as a question triple (labels, ISO times, ids)."""
    return Triple(
        labels(fact.s), rel_label(fact.r), labels(fact.o), time_str(fact.start), time_str(fact.end),
        fact.s, fact.r, fact.o, fact.id, doc_id,
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
    ) -> None:
        self.batch_rows, self.threads = batch_rows, threads
        self.ids = doc_ids
        self.cols, self.phrases, self.as_of, self.open_end = cols, phrases, as_of, open_end
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

        Cases as :meth:`_cases_of` decides them.
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
        # the dates as ISO and as text (render_time_text's: render_time), each distinct year written once
        self.iso = iso = self.dates.isoformat()
        rendered = self.dates.render()
        none = pa.array([""], pa.string())
        values = {_NONE: none, _RT_S: rendered, _RT_E: rendered, _ISO_S: iso, _ISO_E: iso}
        self._time_pools(values | {_BAD: pa.array(bad_texts, pa.string())})

    def _time_pools(self, values: Mapping[int, pa.Array]) -> None:
        """The time phrase's pools: each relation's last text joined to each case's first, then its three parts.

        ``last`` (relation x case) and, for each part ``j``, ``tails[j]``: ``(pool, first row of each case, source
        of each case, whether each case's values are all empty)``, the pool holding each case's block of the part's
        values (none, the dates, the listed years) joined to the case's text after them; sources are numbered 0
        none, 1 start date, 2 end date, 3 listed years.
        """
        cases = self.cases = _cases(self.as_of, self.open_end)
        n_rel = len(self.lit[0])
        firsts = pa.array([case[0] for case in cases] * n_rel, pa.string())
        self.last = pc.binary_join_element_wise(self.pool.take(np.repeat(self.lit[self.k], len(cases))), firsts, "")
        source = {_NONE: 0, _RT_S: 1, _ISO_S: 1, _RT_E: 2, _ISO_E: 2, _BAD: 3}
        self.tails: list[tuple[pa.Array, np.ndarray, np.ndarray, np.ndarray]] = []
        for j in range(3):  # a case is (text, part, text, part, text, part, text)
            parts = [(int(case[2 * j + 1]), str(case[2 * j + 2])) for case in cases]
            sizes = [len(values[part]) for part, _ in parts]
            self.tails.append((
                pa.concat_arrays([pc.binary_join_element_wise(values[p], after, "") for p, after in parts]),
                np.cumsum([0, *sizes[:-1]]).astype(np.int32),
                np.array([source[p] for p, _ in parts], dtype=np.int8),
                np.array([p == _NONE and not after for p, after in parts], dtype=bool),
            ))  # fmt: skip

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
        """The rows whose statement opens with an empty label: their capital falls on the text after it."""
        if not self.k or not len(r):
            return np.zeros(len(r), dtype=bool)
        cap = self.starts_with_slot[r]
        return cap & self.ent_empty[np.where(self.slot[1, r] == 1, s, o)]

    def tail(self, a: int, b: int, r: np.ndarray, pos: tuple[np.ndarray, np.ndarray]) -> list[pa.Array]:
        """The text after the statement's last slot of rows ``a..b-1``: its last text, then the time phrase's parts.

        ``r``: the rows' relations; ``pos``: their :meth:`positions`. A part empty in every row is left out.
        """
        case, bad_idx = self.row_cases(a, b)
        present = np.flatnonzero(np.bincount(case, minlength=len(self.cases)))
        pieces = [self.last.take(r.astype(np.int32) * len(self.cases) + case)]
        sources = [np.zeros(b - a, dtype=np.int32), *pos, bad_idx]
        for pool, base, kind, blank in self.tails:
            if blank[present].all():
                continue
            kinds = np.unique(kind[present]).tolist()
            local = sources[kinds[0]] if len(kinds) == 1 else np.choose(kind[case], sources)
            pieces.append(pool.take(base[case] + local))
        return pieces

    def text_pieces(self, a: int, b: int, pos: tuple[np.ndarray, np.ndarray]) -> tuple[list[pa.Array], np.ndarray]:
        """The text's pieces of rows ``a..b-1`` (pieces empty in every row left out), and :meth:`body`'s open rows.

        ``pos``: the rows' :meth:`positions`.
        """
        r = self.cols.r[a:b]
        body, undecided = self.body(r, self.cols.s[a:b], self.cols.o[a:b])
        pieces = [self.pool.take(i) for i in body[:-1] if not (i == self.empty).all()]  # the last text: in tail
        return pieces + self.tail(a, b, r, pos), undecided

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
        pieces, undecided = self.text_pieces(a, b, pos)
        text = pc.binary_join_element_wise(*pieces, "") if pieces else pa.array([""] * (b - a), pa.string())
        if undecided.any():  # the sentence's first character, whatever piece it is in, as a capital
            opened = [t[:1].upper() + t[1:] for t in text.filter(pa.array(undecided)).to_pylist()]
            text = pc.replace_with_mask(text, pa.array(undecided), pa.array(opened, pa.string()))
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


def _year_key(relation: np.ndarray, year: np.ndarray) -> np.ndarray:
    """One int64 per (relation code, year) pair."""
    return (relation << 32) + (year + (1 << 31))


class ColumnarCorpus:
    """The columnar corpus of a graph (:func:`corpus_columns`), made batch by batch as it is read.

    :meth:`reader` gives the Arrow batches of :data:`CORPUS_SCHEMA`; :meth:`parts` gives, batch by batch, the
    batch, its JSON lines (:func:`~chronoqa.io.json_lines` of the batch: the release writer's ``corpus.jsonl``) or
    both. Batches are made on ``threads`` worker threads (``map_ordered``: the output does not depend on it) while
    the caller writes the previous ones; a few batches are in memory at a time.
    """

    def __init__(self, plan: _CorpusPlan, threads: int | None) -> None:
        self._plan, self.threads = plan, threads

    def __len__(self) -> int:
        """The number of documents."""
        return len(self._plan.cols)

    def parts(
        self, batches: bool = True, lines: bool = False, *, caller_cores: int = 0
    ) -> Iterator[tuple[int, pa.RecordBatch | None, pa.Buffer | None]]:
        """``(rows, batch or None, JSON lines or None)`` of each batch in order.

        The batch is given if ``batches``, its JSON lines if ``lines`` (made on the worker with the batch). With
        lines alone, the parts are of :data:`LINES_ROWS` documents (the file's bytes are the same).
        ``caller_cores``: the cores the caller's own work on each part keeps busy (its Parquet encoding), left to
        it when ``threads`` is ``None`` (``map_ordered``'s ``spare``).
        """
        plan = self._plan
        n = len(plan.cols)
        step = plan.batch_rows if batches else min(plan.batch_rows, LINES_ROWS)

        def make(a: int) -> tuple[int, pa.RecordBatch | None, pa.Buffer | None]:
            b = min(a + step, n)
            batch = plan.batch(a, b)
            return b - a, batch if batches else None, json_lines(batch) if lines else None

        for _, part in map_ordered(make, range(0, n, step), self.threads, spare=caller_cores):
            yield part

    def reader(self) -> pa.RecordBatchReader:
        """The corpus as Arrow batches of :data:`CORPUS_SCHEMA`, in fact order (made as they are read)."""
        return pa.RecordBatchReader.from_batches(CORPUS_SCHEMA, (b for _, b, _ in self.parts() if b is not None))

    def docs(self) -> Iterator[Doc]:
        """The documents as :class:`~chronoqa.records.Doc` values, in fact order (made a batch at a time)."""
        for batch in self.reader():
            for row in batch.to_pylist():
                yield Doc(**row)


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
) -> ColumnarCorpus:
    """The corpus of a graph's facts as a :class:`ColumnarCorpus`, in fact order.

    ``facts`` is best a :class:`~chronoqa.records.FactColumns` (other sequences are converted); ``doc_ids``
    ``None`` means ``F<fact id>`` (a :class:`~chronoqa.generate.kg.index.DocIds` is read as arrays). Labels and
    phrases are looked up once per entity and relation of the facts, each distinct label, phrase and date
    rendered once; ``not_years``: relation id -> years listed as not being years (a fact dated in one says so).
    Open ends read as ``open_end`` (``"ongoing"`` as of ``as_of``, or ``"unknown"``). Batches hold
    ``batch_rows`` facts; ``threads``: see :class:`ColumnarCorpus`.

    Raises:
        KeyError: A relation of the facts has no phrases.
        ValueError: ``doc_ids`` does not have one id per fact.

    """
    cols = FactColumns.from_facts(facts)
    if doc_ids is not None and len(doc_ids) != len(cols):
        raise ValueError(f"corpus_columns: {len(doc_ids)} doc ids for {len(cols)} facts")
    bad = not_years or {}
    plan = _CorpusPlan(cols, phrases, labels, rel_label, as_of, open_end, bad, batch_rows, doc_ids, threads)
    return ColumnarCorpus(plan, threads)
