"""A release corpus held as Arrow columns, with :class:`~chronoqa.records.Doc` values made only when asked for.

ir_datasets' docstore is the model: a stage that needs a few documents (a run's hits, a control's gold) gets
them by position or doc id, a stage that scans every document (an index, the entity aliases) iterates batch by
batch, and a stage that needs one field reads its column (:meth:`DocStore.column`). The table has the columns of
:data:`chronoqa.artifacts.release.CORPUS_SCHEMA` (plain or dictionary-encoded strings), with no nulls in a
field that has a default: :func:`chronoqa.artifacts.release.load_release` checks that as it reads the file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

import pyarrow as pa

from chronoqa.records import Doc

__all__ = ["DocStore"]

_BATCH = 1 << 16


class DocStore(Sequence[Doc]):
    """The documents of a corpus over the columns of ``table``, in corpus order (a ``Sequence[Doc]``)."""

    def __init__(self, table: pa.Table) -> None:
        self._table = table.combine_chunks()  # one chunk a column: a document is found at once
        self._names = tuple(table.column_names)
        self._arrays = [self._table.column(k).combine_chunks() for k in self._names]  # no copy: one chunk
        self._by_id: dict[str, int] | None = None

    @property
    def table(self) -> pa.Table:
        """The corpus columns (what a columnar consumer reads)."""
        return self._table

    def column(self, name: str) -> pa.Array:
        """One field of every document, in corpus order, as one array (dictionary-encoded strings decoded)."""
        col = self._table.column(name)
        if pa.types.is_dictionary(col.type):
            col = col.cast(col.type.value_type)
        return col.combine_chunks()  # one chunk already: no copy

    def __len__(self) -> int:
        return self._table.num_rows

    @overload
    def __getitem__(self, i: int) -> Doc: ...
    @overload
    def __getitem__(self, i: slice) -> list[Doc]: ...
    def __getitem__(self, i: int | slice) -> Doc | list[Doc]:
        """The document at position ``i`` (made now), or the documents of a slice."""
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"document position {i} out of range for {n} documents")
        return Doc(*(a[i].as_py() for a in self._arrays))

    def __iter__(self) -> Iterator[Doc]:
        return self._docs(self._table)

    def _docs(self, table: pa.Table) -> Iterator[Doc]:
        for batch in table.to_batches(max_chunksize=_BATCH):
            cols: list[list[Any]] = [batch.column(k).to_pylist() for k in range(batch.num_columns)]
            for row in zip(*cols, strict=True):
                yield Doc(*row)

    def index_of(self, doc_id: str) -> int | None:
        """Corpus position of a document id (the id index is built on the first call)."""
        if self._by_id is None:
            ids = self.column("doc_id").to_pylist()
            self._by_id = dict(zip(ids, range(len(ids)), strict=True))
        return self._by_id.get(doc_id)

    def get(self, doc_id: str) -> Doc | None:
        """The document with this id, or ``None``."""
        i = self.index_of(doc_id)
        return None if i is None else self[i]
