"""The corpus of a table release: every stored row verbalised once, with its canonical triple."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from chronoqa.generate.table.store import TableStore, format_unit
from chronoqa.generate.table.tfd import TFD
from chronoqa.generate.table.triples import RowTriples
from chronoqa.generate.table.verbalise import PhraseBook
from chronoqa.records import Doc

__all__ = ["store_docs", "table_corpus"]


def table_corpus(stores: Sequence[TableStore], phrases: PhraseBook, primary: Mapping[str, TFD | None]) -> list[Doc]:
    """Every stored row of every store, one document each (``primary``: table name → its primary TFD)."""
    return [d for store in stores for d in store_docs(store, phrases, primary.get(store.table.name))]


def store_docs(store: TableStore, phrases: PhraseBook, tfd: TFD | None) -> Iterator[Doc]:
    """Every stored row verbalised once; its s/r/o/times/ids are the row's canonical triple.

    The triples come from one :class:`~chronoqa.generate.table.triples.RowTriples` per store (the form of
    :func:`~chronoqa.generate.table.triples.row_triple` for many rows); readable dates are memoised per
    build (many rows share them).
    """
    t = store.table
    g = store.granularity
    readable: dict[int, str] = {}

    def text_of(u: int) -> str:
        text = readable.get(u)
        if text is None:
            text = readable[u] = format_unit(u, g)
        return text

    triples = RowTriples(store, tfd)
    name, columns, rows = t.name, t.columns, t.rows
    for lo, hi, i in zip(store.lo.tolist(), store.hi.tolist(), store.rows.tolist(), strict=True):
        s, r, o, t_start, t_end, s_id, r_id, o_id, fact_id, did = triples.parts(i)
        when = f"from {text_of(lo)} to {text_of(hi)}" if t_end is not None else f"since {text_of(lo)}"
        # Doc's fields in order (positional: one build makes a document per row)
        text = f"{phrases.fact(name, columns, rows[i])} ({when})."
        yield Doc(did, text, s, r, o, t_start, t_end, s_id, r_id, o_id, fact_id)
