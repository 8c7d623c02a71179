"""Row identity: the ONE canonical triple of every stored row, shared by the corpus and the questions.

Scoring (TempBench's TRP/CCR) and the retrievers identify a fact by ``(s, r, o, t_start, t_end)``. Every
stored row has exactly one canonical :class:`~chronoqa.records.Triple` (:func:`row_triple`, from the
table's primary TFD, :func:`primary_tfd`); the row's corpus ``Doc`` and every question triple naming that
row (``S_star``, ``S_dist``, ``S_stale``, ``S_anchor``, join rows) are built from it, so
``corpus[t.doc_id].triple() == t`` for every question triple ``t`` (:func:`check_identity`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from chronoqa.errors import ChronoqaError
from chronoqa.generate.table.store import TableStore
from chronoqa.generate.table.tfd import TFD
from chronoqa.generate.table.verbalise import column_label
from chronoqa.records import Doc, Question, Triple
from chronoqa.time import TimePoint

__all__ = ["RowTriples", "TripleParts", "check_identity", "doc_id", "primary_tfd", "question_id", "row_triple"]


def primary_tfd(kept: Sequence[TFD]) -> TFD | None:
    """The TFD that gives a table's canonical row triples: the first kept one, ``None`` when none is kept.

    Kept TFDs come in a fixed order (named ones in the order given; discovered ones by left-hand side
    size, then name), so the choice is deterministic. Questions of the primary TFD have ``o`` = answer.
    """
    return kept[0] if kept else None


def row_triple(store: TableStore, i: int, tfd: TFD | None) -> Triple:
    """The ONE canonical triple of source row ``i`` of ``store``'s table.

    With a TFD ``X ->T Y``: ``s`` = the ``X`` values joined by ``", "`` (``"Germany, President"``),
    ``r`` = the label of ``Y``'s column, ``o`` = the ``Y`` value; ``s_id`` = the raw ``X`` values joined
    by ``" | "``, ``r_id`` = ``Y``'s column name, ``o_id`` = the ``Y`` value. Without one (``tfd=None``):
    the generic triple, ``X`` = every attribute column but the last, ``Y`` = the last attribute column.
    Times are ISO at the store's comparison granularity (never finer than printed; ``t_end`` ``None`` for
    an open end). The corpus document of the row and every question triple naming it use this function
    (the corpus through :class:`RowTriples`, its form for many rows).
    """
    return RowTriples(store, tfd).triple(i)


#: The fields of a :class:`~chronoqa.records.Triple` in its field order (``s, r, o, t_start, t_end, s_id,
#: r_id, o_id, fact_id, doc_id``), as :meth:`RowTriples.parts` returns them.
TripleParts = tuple[str, str, str, str, str | None, str, str, str, int, str]


class RowTriples:
    """The canonical triples (:func:`row_triple`) of many rows of one store under one TFD.

    Column positions and the relation's label are looked up once, and the ISO text of each distinct date
    once (many rows share dates), so the corpus's one triple per row costs a few lookups.
    """

    def __init__(self, store: TableStore, tfd: TFD | None) -> None:
        """Prepare the triples of ``store``'s rows under ``tfd`` (``None``: the generic triple)."""
        t = store.table
        cols = t.columns
        xs, y = (tfd.lhs, tfd.rhs) if tfd is not None else (cols[:-1], cols[-1])
        self._table = t
        self._granularity = store.granularity
        self._x = tuple(cols.index(c) for c in xs)
        self._y = cols.index(y)
        self._label = column_label(y)
        self._column = y
        self._iso: dict[tuple[int, int | None, int | None], str] = {}

    def _iso_of(self, p: TimePoint) -> str:
        """``p`` at the comparison granularity in ISO form, as :meth:`TableStore.row_iso` gives it."""
        k = (p.year, p.month, p.day)
        text = self._iso.get(k)
        if text is None:
            text = self._iso[k] = p.truncate(self._granularity).isoformat()
        return text

    def parts(self, i: int) -> TripleParts:
        """The fields of source row ``i``'s canonical triple, in :class:`~chronoqa.records.Triple` order."""
        t = self._table
        row = t.rows[i]
        x_vals = [row[j] for j in self._x]
        y_val = row[self._y] or ""
        iv = t.intervals[i]
        assert iv.start is not None
        return (
            ", ".join(v for v in x_vals if v),
            self._label,
            y_val,
            self._iso_of(iv.start),
            None if iv.end is None else self._iso_of(iv.end),
            " | ".join("" if v is None else v for v in x_vals),
            self._column,
            y_val,
            i,
            doc_id(t.name, t.lines[i]),
        )

    def triple(self, i: int) -> Triple:
        """Source row ``i``'s canonical triple."""
        return Triple(*self.parts(i))


#: A character an id may not hold: anything but a (Unicode) letter, digit, ``_``, ``.`` or ``-``.
_ID_UNSAFE = re.compile(r"[^\w.-]")


def id_stem(name: str) -> str:
    """``name`` (a table's, from its file stem) as ids spell it: each character but a letter, digit, ``_ . -`` is ``_``.

    So an id holds no whitespace (TREC runs and qrels split on it), no ``:`` (the doc id's separator), no markup
    and no bidirectional or zero-width control, whatever the file was called; ``dyknow_leaders`` is unchanged.
    """
    return _ID_UNSAFE.sub("_", name)


def doc_id(table: str, line: int) -> str:
    """The corpus document id of a source row: ``table:line`` (the table as :func:`id_stem` spells it)."""
    return f"{id_stem(table)}:{line}"


def question_id(prefix: str, sql: str) -> str:
    """A question's id: ``prefix`` (:func:`id_stem`) and a hash of its SQL (the same query always gets the same id)."""
    return f"{id_stem(prefix)}-{hashlib.sha256(sql.encode('utf-8')).hexdigest()[:12]}"


def check_identity(questions: Sequence[Question], corpus: Sequence[Doc]) -> None:
    """Every question triple must be its corpus document's triple (the identity scoring relies on)."""
    docs = {d.doc_id: d for d in corpus}
    for q in questions:
        for name in ("S_star", "S_dist", "S_stale", "S_anchor"):
            for t in getattr(q, name):
                d = docs.get(t.doc_id)
                if d is None:
                    raise ChronoqaError(
                        f"question {q.id}: {name} names row {t.doc_id}, which is not in the corpus (left out of the "
                        "store: no start, reversed, or starting after as_of); fix the row or pass a later as_of"
                    )
                if d.triple() != t:
                    raise ChronoqaError(f"internal check failed: question {q.id} {name} {t} differs from {d.triple()}")
