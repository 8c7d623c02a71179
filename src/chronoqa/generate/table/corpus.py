"""The corpus of a table release: every stored row verbalised once, with its canonical triple."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from chronoqa.generate.table.store import TableStore
from chronoqa.generate.table.tfd import TFD
from chronoqa.generate.table.triples import RowTriples
from chronoqa.generate.table.verbalise import PhraseBook
from chronoqa.records import Doc
from chronoqa.time import TimePoint, render_time

__all__ = ["store_docs", "table_corpus"]


def table_corpus(stores: Sequence[TableStore], phrases: PhraseBook, primary: Mapping[str, TFD | None]) -> list[Doc]:
    """Every stored row of every store, one document each (``primary``: table name → its primary TFD)."""
    return [d for store in stores for d in store_docs(store, phrases, primary.get(store.table.name))]


def store_docs(store: TableStore, phrases: PhraseBook, tfd: TFD | None) -> Iterator[Doc]:
    """Every stored row verbalised once; its s/r/o/times/ids are the row's canonical triple.

    The dates are the row's source cells, each at its own precision and never finer than the comparison
    granularity (:meth:`~chronoqa.time.TimePoint.truncate`): a bare year "2003" in a month-level store is
    written "2003", not "January 2003", and a year placeholder ``2009-01-01`` in a year-level store "2009". The
    store's unit bounds are for comparisons only: the handover reading's end (a row ending in 2009, read as
    ending in 2008) is never written. The triples come from one
    :class:`~chronoqa.generate.table.triples.RowTriples` per store (the form of
    :func:`~chronoqa.generate.table.triples.row_triple` for many rows); readable dates are memoised per
    build (many rows share them).
    """
    t = store.table
    g = store.granularity
    readable: dict[TimePoint, str] = {}

    def text_of(p: TimePoint) -> str:
        text = readable.get(p)
        if text is None:
            text = readable[p] = render_time(p.truncate(g))
        return text

    triples = RowTriples(store, tfd)
    name, columns, rows, intervals = t.name, t.columns, t.rows, t.intervals
    for i in store.rows.tolist():
        s, r, o, t_start, t_end, s_id, r_id, o_id, fact_id, did = triples.parts(i)
        iv = intervals[i]
        assert iv.start is not None  # stored rows have a start
        when = f"from {text_of(iv.start)} to {text_of(iv.end)}" if iv.end is not None else f"since {text_of(iv.start)}"
        # Doc's fields in order (positional: one build makes a document per row)
        text = f"{phrases.fact(name, columns, rows[i])} ({when})."
        yield Doc(did, text, s, r, o, t_start, t_end, s_id, r_id, o_id, fact_id)
