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

import collections.abc
import dataclasses
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, TypeVar, overload

import numpy as np

from chronoqa.errors import LoadReport
from chronoqa.time import Granularity, Interval, TimePoint, parse_time

__all__ = [
    "COMPLEXITIES",
    "Doc",
    "Fact",
    "FactColumns",
    "Question",
    "Record",
    "RecordError",
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
        if which == "start":
            has, year, month, day = self.has_start, self.start_year, self.start_month, self.start_day
        else:
            has, year, month, day = self.has_end, self.end_year, self.end_month, self.end_day
        if not has[i]:
            return None
        return TimePoint(int(year[i]), int(month[i]) or None, int(day[i]) or None)

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


class RecordError(ValueError):
    """A JSON record that does not match its declaration: where (``S_star[0].s``), the value, what was expected."""

    def __init__(self, where: str, value: Any, expected: str) -> None:
        super().__init__(f"{where}: expected {expected}, got {value!r}")
        self.where, self.value, self.expected = where, value, expected


#: Field metadata: a time (``t_query``, ``t_start``, ``t_end``): JSON may hold text or a number (TempBench's
#: ``1994.0``); read, it is parsed and written back at its own granularity (``normalise``) or kept as written.
_TIME: Mapping[str, Any] = {"time": "normalise", "json_default": None}
_TIME_TEXT: Mapping[str, Any] = {"time": "text", "json_default": None}
#: Field metadata: a column of repeated strings, dictionary-encoded in Arrow.
_REPEATED: Mapping[str, Any] = {"arrow": "dictionary"}
_EXPECTED = {"str": "a string", "int": "an integer", "bool": "true or false", "time": "a time (text or a number)"}


@dataclass(frozen=True)
class _Field:
    """One field of a record as its declaration says: how JSON holds it, checks it and reads it back."""

    name: str
    kind: str  # str | int | bool | time | records | strs | maps | map
    nullable: bool  # JSON null is the field's value (a scalar) or its empty value (a collection)
    default: Any  # the value when JSON has no such key (dataclasses.MISSING: the key is required)
    item: Any = None  # the record type of a ``records`` field
    meta: Mapping[str, Any] = field(default_factory=dict)

    def load(self, v: Any, where: str) -> Any:
        """The field's value from its JSON value, checked (:class:`RecordError` names ``where``)."""
        if v is None:
            if not self.nullable:
                raise RecordError(where, v, _EXPECTED.get(self.kind, "a value") + " (not null)")
            return {"records": (), "strs": (), "maps": ()}.get(self.kind, {} if self.meta.get("empty") else None)
        kind = self.kind
        if kind == "str" and isinstance(v, str):
            return v
        if kind == "int" and isinstance(v, int) and not isinstance(v, bool):
            return v
        if kind == "bool" and isinstance(v, bool):
            return v
        if kind == "time" and isinstance(v, str | int | float) and not isinstance(v, bool):
            if isinstance(v, str) and self.meta.get("time") == "text":
                return v
            p = parse_time(v, field=self.name)
            return None if p is None else p.isoformat()
        if kind in ("records", "strs", "maps") and isinstance(v, list):
            return tuple(self._item(x, f"{where}[{j}]") for j, x in enumerate(v))
        if kind == "map" and isinstance(v, dict):
            return v
        expected = {"records": "a list of objects", "strs": "a list of strings", "maps": "a list of objects"}
        raise RecordError(where, v, expected.get(kind) or _EXPECTED.get(kind) or "an object")

    def _item(self, x: Any, where: str) -> Any:
        if self.kind == "records":
            if not isinstance(x, dict):
                raise RecordError(where, x, "an object")
            return self.item.read(x, where + ".")
        if self.kind == "strs" and not isinstance(x, str):
            raise RecordError(where, x, "a string")
        if self.kind == "maps" and not isinstance(x, dict):
            raise RecordError(where, x, "an object")
        return x

    def dump(self, v: Any) -> Any:
        """The field's JSON value."""
        if self.kind == "records":
            return [t.to_dict() for t in v]
        if self.kind == "strs":
            return list(v)
        if self.kind == "maps":
            return [dict(r) for r in v]
        if self.kind == "map":
            return None if v is None else dict(v)
        return v

    def arrow(self) -> Any:
        """The field's Arrow type (an object field is JSON text)."""
        import pyarrow as pa

        text = pa.dictionary(pa.int32(), pa.string()) if self.meta.get("arrow") == "dictionary" else pa.string()
        scalar = {"str": text, "time": text, "int": pa.int64(), "bool": pa.bool_()}
        if self.kind in scalar:
            return scalar[self.kind]
        if self.kind == "records":
            return pa.list_(pa.struct(list(self.item.arrow_schema())))
        return pa.list_(pa.string()) if self.kind == "strs" else pa.string()


def _field_of(f: Any, hint: Any, default: Any) -> _Field:
    """The :class:`_Field` a dataclass field's type hint declares."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    nullable = type(None) in typing.get_args(hint)
    base = args[0] if nullable and len(args) == 1 else hint
    origin = typing.get_origin(base)
    if "time" in f.metadata:
        return _Field(f.name, "time", True, default, meta=f.metadata)
    if base in (str, int, bool):
        return _Field(f.name, base.__name__, nullable, default, meta=f.metadata)
    if origin is tuple:
        item = typing.get_args(base)[0]
        if isinstance(item, type) and issubclass(item, Record):
            return _Field(f.name, "records", True, default, item)
        return _Field(f.name, "strs" if item is str else "maps", True, default)
    if origin in (Mapping, collections.abc.Mapping):
        return _Field(f.name, "map", True, default, meta={} if nullable else {"empty": True})
    raise TypeError(f"{f.name}: a record field of type {hint} has no JSON form")


class Record:
    """A record declared once, as a dataclass; its JSON form, its checks and its Arrow schema follow from that.

    :meth:`to_dict`, :meth:`from_dict` (checked as it reads) and :meth:`arrow_schema` read the fields' types and
    metadata. A field's JSON key is its name; a missing key takes the field's default (or ``json_default`` in its
    metadata, for a field the constructor requires), a JSON ``null`` is accepted where the type allows ``None`` (and
    reads as empty for a tuple or mapping). ``_AFTER`` names text properties written after a field (``hops``:
    ``complexity``).
    """

    __slots__ = ()
    _AFTER: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def record_fields(cls) -> tuple[_Field, ...]:
        """The declared fields, in order."""
        cached = _FIELDS.get(cls)
        if cached is None:
            hints = typing.get_type_hints(cls)
            out = []
            for f in dataclasses.fields(cls):  # type: ignore[arg-type]
                default = f.default
                if default is dataclasses.MISSING and f.default_factory is not dataclasses.MISSING:
                    default = f.default_factory()
                default = f.metadata.get("json_default", default)
                out.append(_field_of(f, hints[f.name], default))
            cached = _FIELDS[cls] = tuple(out)
        return cached

    @classmethod
    def read(cls: type[_R], d: Mapping[str, Any], prefix: str = "") -> _R:
        """The record of a parsed JSON object; a value the declaration rejects raises :class:`RecordError`."""
        d = cls._upgrade(d)
        kw = {}
        for f in cls.record_fields():
            if f.name in d:
                kw[f.name] = f.load(d[f.name], prefix + f.name)
            elif f.default is dataclasses.MISSING:
                raise RecordError(prefix + f.name, None, _EXPECTED.get(f.kind, "a value") + " (the key is missing)")
            else:
                kw[f.name] = f.default
        return cls(**kw)

    @classmethod
    def from_dict(cls: type[_R], d: Mapping[str, Any]) -> _R:
        """Read the JSON form (:meth:`read`)."""
        return cls.read(d)

    @classmethod
    def _upgrade(cls, d: Mapping[str, Any]) -> Mapping[str, Any]:
        """The JSON object as the declaration reads it (a format's older or foreign spelling made current)."""
        return d

    def to_dict(self) -> dict[str, Any]:
        """JSON form (key order fixed: the fields', so output is byte-stable)."""
        out: dict[str, Any] = {}
        for name, dump, after in self._dump_plan():
            v = getattr(self, name)
            out[name] = v if dump is None else dump(v)
            if after is not None:
                out[after] = getattr(self, after)
        return out

    @classmethod
    def _dump_plan(cls) -> tuple[tuple[str, Callable[[Any], Any] | None, str | None], ...]:
        """Per field, as :meth:`to_dict` writes it: name, :meth:`_Field.dump` (``None``: a scalar) and text after it.

        Made once per class: a release writes every question and each fact in it through :meth:`to_dict`, so the
        per-field lookups are not repeated per record.
        """
        plan = _DUMP_PLANS.get(cls)
        if plan is None:
            plan = tuple(
                (f.name, None if f.kind in _SCALAR_KINDS else f.dump, cls._AFTER.get(f.name))
                for f in cls.record_fields()
            )
            _DUMP_PLANS[cls] = plan
        return plan

    @classmethod
    def arrow_schema(cls) -> Any:
        """The record's columns as Arrow (a ``pyarrow.Schema``; tuples of records are lists of structs)."""
        import pyarrow as pa

        cols = []
        for f in cls.record_fields():
            cols.append((f.name, f.arrow()))
            if f.name in cls._AFTER:  # a derived label
                cols.append((cls._AFTER[f.name], pa.string()))
        return pa.schema(cols)


_R = TypeVar("_R", bound=Record)
_FIELDS: dict[type, tuple[_Field, ...]] = {}
_DUMP_PLANS: dict[type, tuple[tuple[str, Callable[[Any], Any] | None, str | None], ...]] = {}
#: The kinds :meth:`_Field.dump` returns as they are.
_SCALAR_KINDS = frozenset(("str", "int", "bool", "time"))


@dataclass(frozen=True, slots=True)
class Triple(Record):
    """A fact as it appears inside a question (``S_star`` and the negatives): labels plus ids."""

    s: str
    r: str
    o: str
    t_start: str | None = field(metadata=_TIME)
    t_end: str | None = field(metadata=_TIME)
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


@dataclass(frozen=True)
class Question(Record):
    """One benchmark question, KG- or table-built, in one format.

    TempBench's fields: ``id``, ``split``, ``question``, ``t_query``, ``S_star``, ``S_dist``,
    ``S_stale``. chronoqa's additions:

    * ``source``: ``"kg"`` or ``"table"``; ``operator``: ``point_in_time``/``before_after``/
      ``interval``/``sequence`` for KG questions, ``allen`` or ``time_alignment`` for table ones;
      ``allen``: the Allen relation name for table questions.
    * ``hops`` and ``complexity`` (``1-hop``, ``2-hop``, ``3+-hop``; written after ``hops``, derived from it).
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
    * ``answer_names``: other names a careful reader may give a gold answer by, where this question accepts them,
      e.g. ``[{"answer_id": "Q41304", "name": "Germany"}]`` for the Weimar Republic in 1920 (the phrase table's
      ``[goes_by]``, kept only where no other entity the question names or rests on goes by the name). Empty in a
      release written before the field.

    Read from JSON, TempBench's own records (without chronoqa's fields, ``complexity`` without ``hops``) read too.
    """

    id: str
    split: str = field(metadata={"json_default": "test"})
    question: str
    t_query: str | None = field(metadata=_TIME)
    S_star: tuple[Triple, ...] = field(metadata={"json_default": ()})
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
    answer_names: tuple[Mapping[str, str], ...] = ()

    _AFTER: ClassVar[Mapping[str, str]] = {"hops": "complexity"}

    @property
    def complexity(self) -> str:
        """``1-hop``, ``2-hop`` or ``3+-hop``."""
        return complexity_of(self.hops)

    @property
    def t_query_point(self) -> TimePoint | None:
        """``t_query`` parsed."""
        return parse_time(self.t_query, field="t_query")

    @classmethod
    def _upgrade(cls, d: Mapping[str, Any]) -> Mapping[str, Any]:
        """TempBench's records give the complexity label only: ``hops`` from it; ``complexity`` is derived."""
        complexity = d.get("complexity")
        if complexity is not None and not isinstance(complexity, str):
            raise RecordError("complexity", complexity, "a string")
        if d.get("hops") is None:
            d = {**d, "hops": {"1-hop": 1, "2-hop": 2, "3+-hop": 3}.get(str(complexity or "1-hop"), 1)}
        return d


@dataclass(frozen=True, slots=True)
class Doc(Record):
    """One corpus document: a fact verbalised once, with a stable id. The unit retrievers return.

    Its Arrow schema is the columns of a release corpus (the repeated fields dictionary-encoded); its times are
    kept as written (a number read from JSON is written as a time).
    """

    doc_id: str
    text: str
    s: str = field(metadata=_REPEATED)
    r: str = field(metadata=_REPEATED)
    o: str = field(metadata=_REPEATED)
    t_start: str | None = field(metadata={**_TIME_TEXT, **_REPEATED})
    t_end: str | None = field(metadata={**_TIME_TEXT, **_REPEATED})
    s_id: str = field(default="", metadata=_REPEATED)
    r_id: str = field(default="", metadata=_REPEATED)
    o_id: str = field(default="", metadata=_REPEATED)
    fact_id: int = -1

    def triple(self) -> Triple:
        """The fact as a question triple."""
        return Triple(
            self.s, self.r, self.o, self.t_start, self.t_end, self.s_id, self.r_id, self.o_id, self.fact_id, self.doc_id
        )
