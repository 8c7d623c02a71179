"""Typed, immutable records shared by every stage: facts, graphs, tables, questions, corpus documents.

These are the contracts between stages (sources → store → generate → corpus → retrieve → answer →
score → report). Their JSON forms are the on-disk formats of a benchmark release folder; the field
names of :class:`Question` and :class:`Triple` are TempBench's (``S_star``, ``S_dist``, ``S_stale``,
``s``/``r``/``o``/``t_start``/``t_end``) so TempBench's own loader reads chronoqa releases unchanged.

Times in JSON are ISO strings at the fact's own granularity (``"1994"``, ``"1994-03"``,
``"1994-03-07"``) or ``null`` (unknown start / open end); they parse back with
:func:`chronoqa.time.parse_time`, which also reads TempBench's float years.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, overload

import numpy as np

from chronoqa.errors import LoadReport
from chronoqa.time import Granularity, Interval, TimePoint, parse_time

__all__ = [
    "COMPLEXITIES",
    "Doc",
    "Fact",
    "FactColumns",
    "Question",
    "TemporalGraph",
    "TemporalTable",
    "Triple",
    "complexity_of",
    "time_str",
]

COMPLEXITIES = ("1-hop", "2-hop", "3+-hop")


def complexity_of(hops: int) -> str:
    """TempBench's complexity label for a chain of ``hops`` facts."""
    if hops < 1:
        raise ValueError(f"hops must be >= 1, got {hops}")
    return COMPLEXITIES[min(hops, 3) - 1]


def time_str(t: TimePoint | None) -> str | None:
    """JSON form of a time point (``None`` stays ``None``)."""
    return None if t is None else t.isoformat()


class Fact(NamedTuple):
    """One temporal fact ``(s, r, o, [start, end])`` with the source line it came from.

    ``s``, ``r`` and ``o`` are the dataset's ids (``Q42``, ``<Getafe_CF>``); labels live beside the
    facts in :class:`TemporalGraph`. ``line`` is 1-based (0 when the fact has no source line).
    """

    id: int
    s: str
    r: str
    o: str
    start: TimePoint | None
    end: TimePoint | None
    line: int = 0

    @property
    def interval(self) -> Interval:
        """The validity interval."""
        return Interval(self.start, self.end)

    @property
    def granularity(self) -> Granularity:
        """Coarsest granularity of the known endpoints."""
        return self.interval.granularity


_DATE_FIELDS = ("year", "month", "day")


@dataclass(frozen=True, eq=False)
class FactColumns(Sequence[Fact]):
    """The facts of a graph as columns: one array per field, a :class:`Fact` made only when one is asked for.

    The columnar form of ``Sequence[Fact]`` (a :class:`TemporalGraph` accepts either): builders and stores
    that work on millions of facts read the arrays; ``columns[i]`` and iteration give :class:`Fact` values
    equal to the ones a reader would have built. Entities and relations are integer codes into
    ``entities`` / ``relations`` (any order: a consumer that needs first-appearance order recodes); a date
    is ``(year, month, day)`` with ``0`` for a month or day not stated and ``has_start`` / ``has_end``
    marking a known end (years astronomical, as everywhere). ``ids`` are the facts' ids and ``lines`` their
    1-based source lines (0: none). Arrays are never written to after construction.
    """

    entities: Sequence[str]
    relations: Sequence[str]
    ids: np.ndarray  # int64
    s: np.ndarray  # int32 codes into entities
    r: np.ndarray  # int32 codes into relations
    o: np.ndarray  # int32 codes into entities
    has_start: np.ndarray  # bool
    start_year: np.ndarray  # int32
    start_month: np.ndarray  # int8, 0 = not stated
    start_day: np.ndarray  # int8, 0 = not stated
    has_end: np.ndarray
    end_year: np.ndarray
    end_month: np.ndarray
    end_day: np.ndarray
    lines: np.ndarray  # int64

    def __post_init__(self) -> None:
        """Check that every column has one value per fact (a programming error otherwise)."""
        n = len(self.ids)
        for name in self._array_fields():
            if len(getattr(self, name)) != n:
                raise ValueError(f"FactColumns.{name} has {len(getattr(self, name))} rows, ids has {n}")

    @staticmethod
    def _array_fields() -> tuple[str, ...]:
        ends = tuple(f"{w}_{f}" for w in ("start", "end") for f in _DATE_FIELDS)
        return ("ids", "s", "r", "o", "has_start", "has_end", "lines", *ends)

    # -- Sequence[Fact] -----------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, i: int) -> Fact: ...
    @overload
    def __getitem__(self, i: slice) -> FactColumns: ...
    def __getitem__(self, i: int | slice) -> Fact | FactColumns:
        """The fact at position ``i`` (a :class:`Fact`), or the columns of a slice."""
        if isinstance(i, slice):
            return self.take(np.arange(len(self))[i])
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"fact position {i} out of range for {n} facts")
        return Fact(
            int(self.ids[i]),
            self.entities[int(self.s[i])],
            self.relations[int(self.r[i])],
            self.entities[int(self.o[i])],
            self._point("start", i),
            self._point("end", i),
            int(self.lines[i]),
        )

    def __iter__(self) -> Iterator[Fact]:
        for i in range(len(self)):
            yield self[i]

    def _point(self, which: str, i: int) -> TimePoint | None:
        if not getattr(self, f"has_{which}")[i]:
            return None
        y, m, d = (int(getattr(self, f"{which}_{f}")[i]) for f in _DATE_FIELDS)
        return TimePoint(y, m or None, d or None)

    # -- building -----------------------------------------------------------------------------------
    def take(self, positions: np.ndarray) -> FactColumns:
        """The facts at ``positions`` (an integer array), in that order, sharing the name tables."""
        cols = {name: getattr(self, name)[positions] for name in self._array_fields()}
        return FactColumns(self.entities, self.relations, **cols)

    @classmethod
    def from_facts(cls, facts: Iterable[Fact]) -> FactColumns:
        """Columns of ``facts``; entity and relation codes in order of first appearance (s, o, then r per fact)."""
        if isinstance(facts, FactColumns):
            return facts
        ent: dict[str, int] = {}
        rel: dict[str, int] = {}
        rows: list[tuple[int, ...]] = []
        for f in facts:
            s = ent.setdefault(f.s, len(ent))
            o = ent.setdefault(f.o, len(ent))
            r = rel.setdefault(f.r, len(rel))
            st, en = f.start, f.end
            rows.append(
                (
                    f.id, s, r, o, f.line,
                    st is not None, st.year if st else 0, (st.month or 0) if st else 0, (st.day or 0) if st else 0,
                    en is not None, en.year if en else 0, (en.month or 0) if en else 0, (en.day or 0) if en else 0,
                )
            )  # fmt: skip
        dtypes = (np.int64, np.int32, np.int32, np.int32, np.int64, bool, np.int32, np.int8, np.int8, bool,
                  np.int32, np.int8, np.int8)  # fmt: skip
        if rows:
            cols = [np.array(c, dtype=t) for c, t in zip(zip(*rows, strict=True), dtypes, strict=True)]
        else:
            cols = [np.zeros(0, dtype=t) for t in dtypes]
        ids, s_, r_, o_, lines, hs, sy, sm, sd, he, ey, em, ed = cols
        return cls(list(ent), list(rel), ids, s_, r_, o_, hs, sy, sm, sd, he, ey, em, ed, lines)


@dataclass(frozen=True)
class TemporalGraph:
    """A loaded temporal knowledge graph: facts plus entity and relation labels.

    ``entity_labels``/``relation_labels`` map ids to readable labels; an id without a label is its
    own label. ``report`` says what the reader read, loaded and skipped.
    """

    name: str
    facts: Sequence[Fact]
    entity_labels: Mapping[str, str] = field(default_factory=dict)
    relation_labels: Mapping[str, str] = field(default_factory=dict)
    report: LoadReport | None = None

    def entity_label(self, entity: str) -> str:
        """Readable label of an entity id."""
        return self.entity_labels.get(entity, entity)

    def relation_label(self, relation: str) -> str:
        """Readable label of a relation id."""
        return self.relation_labels.get(relation, relation)

    def __len__(self) -> int:
        return len(self.facts)

    def __iter__(self) -> Iterator[Fact]:
        return iter(self.facts)


@dataclass(frozen=True)
class TemporalTable:
    """A temporal table (TDBench style): attribute columns plus a validity interval per row.

    ``rows`` hold the attribute values as strings (``None`` for missing), in ``columns`` order;
    ``intervals[i]`` is row ``i``'s validity; ``lines[i]`` its 1-based source line.
    """

    name: str
    columns: tuple[str, ...]
    rows: Sequence[tuple[str | None, ...]]
    intervals: Sequence[Interval]
    lines: Sequence[int]
    start_column: str
    end_column: str
    report: LoadReport | None = None

    def __len__(self) -> int:
        return len(self.rows)

    def column(self, name: str) -> list[str | None]:
        """All values of one attribute column."""
        i = self.columns.index(name)
        return [row[i] for row in self.rows]

    @property
    def granularity(self) -> Granularity:
        """The finest granularity used by any row's known endpoint."""
        gs = [p.granularity for iv in self.intervals for p in (iv.start, iv.end) if p is not None]
        return max(gs) if gs else Granularity.YEAR


@dataclass(frozen=True, slots=True)
class Triple:
    """A fact as it appears inside a question (``S_star`` and the negatives): labels plus ids."""

    s: str
    r: str
    o: str
    t_start: str | None
    t_end: str | None
    s_id: str = ""
    r_id: str = ""
    o_id: str = ""
    fact_id: int = -1
    doc_id: str = ""

    def key(self) -> tuple[str, str, str, str | None, str | None]:
        """TempBench's identity of a triple: labels and times."""
        return (self.s, self.r, self.o, self.t_start, self.t_end)

    @property
    def interval(self) -> Interval:
        """Validity interval parsed from ``t_start``/``t_end``."""
        return Interval(parse_time(self.t_start, field="t_start"), parse_time(self.t_end, field="t_end"))

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "s": self.s,
            "r": self.r,
            "o": self.o,
            "t_start": self.t_start,
            "t_end": self.t_end,
            "s_id": self.s_id,
            "r_id": self.r_id,
            "o_id": self.o_id,
            "fact_id": self.fact_id,
            "doc_id": self.doc_id,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Triple:
        """Read the JSON form (TempBench's five keys suffice)."""

        def t(v: Any) -> str | None:
            p = parse_time(v)
            return None if p is None else p.isoformat()

        return cls(
            s=str(d["s"]),
            r=str(d["r"]),
            o=str(d["o"]),
            t_start=t(d.get("t_start")),
            t_end=t(d.get("t_end")),
            s_id=str(d.get("s_id", "")),
            r_id=str(d.get("r_id", "")),
            o_id=str(d.get("o_id", "")),
            fact_id=int(d.get("fact_id", -1)),
            doc_id=str(d.get("doc_id", "")),
        )


@dataclass(frozen=True)
class Question:
    """One benchmark question, KG- or table-built, in one format.

    TempBench's fields: ``id``, ``split``, ``question``, ``t_query``, ``S_star``, ``S_dist``,
    ``S_stale``. chronoqa's additions:

    * ``source``: ``"kg"`` or ``"table"``; ``operator``: ``point_in_time``/``before_after``/
      ``interval``/``sequence`` for KG questions, ``allen`` or ``time_alignment`` for table ones;
      ``allen``: the Allen relation name for table questions.
    * ``hops`` and ``complexity`` (``1-hop``, ``2-hop``, ``3+-hop``).
    * ``answers`` (labels), ``answer_ids``, ``answer_type`` (``entity``, ``time``, ``value``),
      ``cardinality`` (``none``/``unique``/``multiple``).
    * ``template_id``; ``render_time``: whether a prompt may show ``t_query`` as a time tag (false
      for interval questions, whose ``t_query`` is the answer).
    * ``S_anchor``: facts needed only to resolve the time (the reference event of before/after).
    * ``time_refs``: the gold dates an explanation must cite, e.g. ``[{"which": "start",
      "value": "2014-03"}]``; ``outdated_answers``: earlier holders, for time-alignment questions.
    * ``granularity``, ``as_of``, ``sql``, ``reference`` (table questions' reference interval),
      ``logical_form`` (anchor, relation path, t_query: for dedup and audits).
    * ``assumes_complete``: the gold holds only if the data is complete (first ever, before any, an
      unbounded window, a "none" answer): a closed-world question, counted in the data card.
    """

    id: str
    split: str
    question: str
    t_query: str | None
    S_star: tuple[Triple, ...]
    S_dist: tuple[Triple, ...] = ()
    S_stale: tuple[Triple, ...] = ()
    S_anchor: tuple[Triple, ...] = ()
    source: str = "kg"
    operator: str = "point_in_time"
    allen: str | None = None
    hops: int = 1
    answers: tuple[str, ...] = ()
    answer_ids: tuple[str, ...] = ()
    answer_type: str = "entity"
    cardinality: str = "unique"
    template_id: str = ""
    render_time: bool = True
    granularity: str = "year"
    as_of: str | None = None
    time_refs: tuple[Mapping[str, str], ...] = ()
    outdated_answers: tuple[str, ...] = ()
    sql: str | None = None
    reference: Mapping[str, str | None] | None = None
    logical_form: Mapping[str, Any] = field(default_factory=dict)
    assumes_complete: bool = False

    @property
    def complexity(self) -> str:
        """``1-hop``, ``2-hop`` or ``3+-hop``."""
        return complexity_of(self.hops)

    @property
    def t_query_point(self) -> TimePoint | None:
        """``t_query`` parsed."""
        return parse_time(self.t_query, field="t_query")

    def to_dict(self) -> dict[str, Any]:
        """JSON form (key order fixed, so output is byte-stable)."""
        return {
            "id": self.id,
            "split": self.split,
            "question": self.question,
            "t_query": self.t_query,
            "S_star": [t.to_dict() for t in self.S_star],
            "S_dist": [t.to_dict() for t in self.S_dist],
            "S_stale": [t.to_dict() for t in self.S_stale],
            "S_anchor": [t.to_dict() for t in self.S_anchor],
            "source": self.source,
            "operator": self.operator,
            "allen": self.allen,
            "hops": self.hops,
            "complexity": self.complexity,
            "answers": list(self.answers),
            "answer_ids": list(self.answer_ids),
            "answer_type": self.answer_type,
            "cardinality": self.cardinality,
            "template_id": self.template_id,
            "render_time": self.render_time,
            "granularity": self.granularity,
            "as_of": self.as_of,
            "time_refs": [dict(r) for r in self.time_refs],
            "outdated_answers": list(self.outdated_answers),
            "sql": self.sql,
            "reference": None if self.reference is None else dict(self.reference),
            "logical_form": dict(self.logical_form),
            "assumes_complete": self.assumes_complete,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Question:
        """Read the JSON form; TempBench's own records (without chronoqa's fields) read too."""

        def triples(key: str) -> tuple[Triple, ...]:
            return tuple(Triple.from_dict(t) for t in d.get(key) or ())

        t_query = parse_time(d.get("t_query"), field="t_query")
        hops = d.get("hops")
        if hops is None:  # TempBench: complexity label only
            hops = {"1-hop": 1, "2-hop": 2, "3+-hop": 3}.get(str(d.get("complexity", "1-hop")), 1)
        return cls(
            id=str(d["id"]),
            split=str(d.get("split", "test")),
            question=str(d["question"]),
            t_query=None if t_query is None else t_query.isoformat(),
            S_star=triples("S_star"),
            S_dist=triples("S_dist"),
            S_stale=triples("S_stale"),
            S_anchor=triples("S_anchor"),
            source=str(d.get("source", "kg")),
            operator=str(d.get("operator", "point_in_time")),
            allen=d.get("allen"),
            hops=int(hops),
            answers=tuple(str(a) for a in d.get("answers") or ()),
            answer_ids=tuple(str(a) for a in d.get("answer_ids") or ()),
            answer_type=str(d.get("answer_type", "entity")),
            cardinality=str(d.get("cardinality", "unique")),
            template_id=str(d.get("template_id", "")),
            render_time=bool(d.get("render_time", True)),
            granularity=str(d.get("granularity", "year")),
            as_of=d.get("as_of"),
            time_refs=tuple(d.get("time_refs") or ()),
            outdated_answers=tuple(str(a) for a in d.get("outdated_answers") or ()),
            sql=d.get("sql"),
            reference=d.get("reference"),
            logical_form=d.get("logical_form") or {},
            assumes_complete=bool(d.get("assumes_complete", False)),
        )


@dataclass(frozen=True, slots=True)
class Doc:
    """One corpus document: a fact verbalised once, with a stable id. The unit retrievers return."""

    doc_id: str
    text: str
    s: str
    r: str
    o: str
    t_start: str | None
    t_end: str | None
    s_id: str = ""
    r_id: str = ""
    o_id: str = ""
    fact_id: int = -1

    def triple(self) -> Triple:
        """The fact as a question triple."""
        return Triple(
            self.s, self.r, self.o, self.t_start, self.t_end, self.s_id, self.r_id, self.o_id, self.fact_id, self.doc_id
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "doc_id": self.doc_id,
            "text": self.text,
            "s": self.s,
            "r": self.r,
            "o": self.o,
            "t_start": self.t_start,
            "t_end": self.t_end,
            "s_id": self.s_id,
            "r_id": self.r_id,
            "o_id": self.o_id,
            "fact_id": self.fact_id,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Doc:
        """Read the JSON form."""
        return cls(
            doc_id=str(d["doc_id"]),
            text=str(d["text"]),
            s=str(d["s"]),
            r=str(d["r"]),
            o=str(d["o"]),
            t_start=d.get("t_start"),
            t_end=d.get("t_end"),
            s_id=str(d.get("s_id", "")),
            r_id=str(d.get("r_id", "")),
            o_id=str(d.get("o_id", "")),
            fact_id=int(d.get("fact_id", -1)),
        )
