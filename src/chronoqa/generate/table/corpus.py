"""The corpus of a table release: every stored row verbalised once, with its canonical triple."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from chronoqa.generate.table.store import TableStore, format_unit
from chronoqa.generate.table.tfd import TFD
from chronoqa.generate.table.triples import row_triple
from chronoqa.generate.table.verbalise import PhraseBook
from chronoqa.records import Doc

__all__ = ["store_docs", "table_corpus"]


def table_corpus(stores: Sequence[TableStore], phrases: PhraseBook, primary: Mapping[str, TFD | None]) -> list[Doc]:
    """Every stored row of every store, one document each (``primary``: table name → its primary TFD)."""
    return [d for store in stores for d in store_docs(store, phrases, primary.get(store.table.name))]


def store_docs(store: TableStore, phrases: PhraseBook, tfd: TFD | None) -> Iterator[Doc]:
    """Every stored row verbalised once; its s/r/o/times/ids are the row's canonical triple (:func:`row_triple`).

    Readable dates are memoised per build (many rows share them).
    """
    t = store.table
    g = store.granularity
    readable: dict[int, str] = {}

    def text_of(u: int) -> str:
        if u not in readable:
            readable[u] = format_unit(u, g)
        return readable[u]

    for lo, hi, i in zip(store.lo.tolist(), store.hi.tolist(), store.rows.tolist(), strict=True):
        tr = row_triple(store, i, tfd)
        when = f"from {text_of(lo)} to {text_of(hi)}" if tr.t_end is not None else f"since {text_of(lo)}"
        yield Doc(
            doc_id=tr.doc_id,
            text=f"{phrases.fact(t.name, t.columns, t.rows[i])} ({when}).",
            s=tr.s,
            r=tr.r,
            o=tr.o,
            t_start=tr.t_start,
            t_end=tr.t_end,
            s_id=tr.s_id,
            r_id=tr.r_id,
            o_id=tr.o_id,
            fact_id=tr.fact_id,
        )
