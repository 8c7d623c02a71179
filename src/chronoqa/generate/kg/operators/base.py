"""What every KG operator is: an :class:`Operator` record, its :class:`AnswerKind` and its default rules.

An operator module (``point_in_time.py``, ``interval.py``...) declares one :class:`Operator`: how it drafts a
question from the graph index (:mod:`~chronoqa.generate.kg.operators.chains`), the templates that put a draft
into words, the kind of its answer, the time references a question records, and the rule the build-time
audit re-checks on every gold chain. The registry (:data:`chronoqa.generate.kg.operators.REGISTRY`) lists them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Literal

from chronoqa.generate.kg.index import certain_interval
from chronoqa.records import Fact, Question
from chronoqa.time import Granularity, TimePoint, valid_at

if TYPE_CHECKING:
    from chronoqa.generate.kg.index import GraphIndex
    from chronoqa.generate.kg.operators.chains import Draft, GenContext
    from chronoqa.generate.kg.templates import Template

__all__ = [
    "AnswerKind",
    "DraftFn",
    "EndsFn",
    "GoldFacts",
    "GoldRule",
    "Operator",
    "TimeRefsFn",
    "gold_certain_at_t_query",
    "no_time_refs",
    "rests_on_no_end",
    "time_ref",
]


class AnswerKind(Enum):
    """What a question's answer is. ``Question.answer_type`` records :attr:`answer_type`."""

    ENTITY = "entity"
    YEAR = "year"
    DATE = "date"  # a time finer than a year (month or day granularity)
    DURATION = "duration"
    COUNT = "count"
    YES_NO = "yes_no"

    @property
    def is_time(self) -> bool:
        """A point in time (``YEAR`` or ``DATE``): the answer is written as an ISO time at the granularity."""
        return self in (AnswerKind.YEAR, AnswerKind.DATE)

    @property
    def is_entity(self) -> bool:
        """An entity of the graph: answers are labels, ``answer_ids`` the entity ids."""
        return self is AnswerKind.ENTITY

    @property
    def answer_type(self) -> str:
        """The ``Question.answer_type`` of this kind (``"time"`` for a year or a date)."""
        return "time" if self.is_time else self.value

    def at(self, granularity: Granularity) -> AnswerKind:
        """A time kind at a question granularity (``YEAR`` at year granularity, else ``DATE``); others unchanged."""
        if not self.is_time:
            return self
        return AnswerKind.YEAR if granularity is Granularity.YEAR else AnswerKind.DATE


@dataclass(frozen=True)
class GoldFacts:
    """What the audit needs to re-check a gold chain: the facts, which relations are events, the readings."""

    facts: Sequence[Fact]
    is_event: Mapping[str, bool]
    as_of: TimePoint
    open_end: str


DraftFn = Callable[["GenContext", random.Random, int], "Draft | None"]
#: ``(draft, facts, t_query ISO) -> time references`` of a question (``Question.time_refs``).
TimeRefsFn = Callable[["Draft", Sequence[Fact], str], list[dict[str, str]]]
#: ``(gold facts, question, positions of its S* facts) -> why the gold is invalid, or None``.
GoldRule = Callable[[GoldFacts, Question, Sequence[int]], "str | None"]
#: ``(index, draft) -> the facts whose recorded end the draft's question or answer rests on``.
EndsFn = Callable[["GraphIndex", "Draft"], list[int]]
#: ``(context, draft) -> why the worded draft is not asked (its rule's name), or None``.
WordedRule = Callable[["GenContext", "Draft"], "str | None"]


def no_time_refs(d: Draft, facts: Sequence[Fact], t_iso: str) -> list[dict[str, str]]:
    """No time reference: the question states its time (point-in-time)."""
    return []


def rests_on_no_end(idx: GraphIndex, d: Draft) -> list[int]:
    """No recorded end: the question and its answer read starts or points in time only."""
    return []


def no_worded_rule(ctx: GenContext, d: Draft) -> str | None:
    """No rule of the operator's own once the draft is worded."""
    return None


def time_ref(which: str, value: str, of: str) -> dict[str, str]:
    """One entry of ``Question.time_refs``: the ``which`` (start / end) time ``value`` of the ``of`` fact."""
    return {"which": which, "value": value, "of": of}


def gold_certain_at_t_query(gold: GoldFacts, q: Question, positions: Sequence[int]) -> str | None:
    """Every ``S*`` fact is certainly valid at ``t_query`` (:func:`chronoqa.time.valid_at`, mode ``certain``)."""
    tq = q.t_query_point
    assert tq is not None
    for pos, t in zip(positions, q.S_star, strict=True):
        f = gold.facts[pos]
        iv = certain_interval(f, gold.is_event.get(f.r, False), gold.open_end)
        if not valid_at(iv, tq, tq.granularity, as_of=gold.as_of, mode="certain"):
            return f"S* fact {t.fact_id} not valid at {q.t_query}"
    return None


@dataclass(frozen=True)
class Operator:
    """One question operator: everything the builder needs to know about it, in one record.

    Attributes:
        name: The operator's name in configs, questions and manifests (``"point_in_time"``).
        title: Its name in tables ("Point-in-time").
        weight: Its share of the questions in the default ``KGBuildConfig.operator_weights``.
        answer: The kind of its answer (a time kind is read at the question granularity: :meth:`answer_kind`).
        draft: ``draft(ctx, rng, hops)``: one candidate drawn with the cell's RNG, a :class:`Draft` whose gold
            is verified unique over the graph and that passes the operator's validity rule, or ``None``.
        templates: Its surface forms, in draw order (a template may suit only some drafts).
        time_refs: The times a question states or asks (``Question.time_refs``).
        gold_rule: The build-time audit's re-check of a question's gold chain.
        ends_rested_on: The facts whose recorded end a draft's question or answer rests on (the per-term
            rule, :mod:`~chronoqa.generate.kg.tenure`, rejects a draft resting on an end that is no tenure's end).
        worded_rule: The operator's own validity rule read once the draft is worded (so that a draft it drops frees
            its place without moving the cell's other draws): the rule's name, or ``None``.
        render_time: Whether a prompt may show ``t_query`` (``False`` when it gives the answer away or the
            system must resolve the time).
        names_final_entity: The logical form records the final hop's other endpoint (``final_other``): the
            question names it and asks about the fact's time.
        tempbench: One of TempBench's four operators: a row of the operator x hops matrix the coverage account
            covers (:mod:`~chronoqa.generate.kg.census`).
        census: The chains a census of its thin multi-hop cells counts: ``"pool"`` (the exhaustive
            point-in-time pool), ``"static"`` (static prefixes into a timeline), or ``None`` (no census).
        answer_at_t: Its entity answer is the final hop's value at the draft's ``t`` (the bridge rules then
            reject an answer that changes near ``t``).

    """

    name: str
    title: str
    weight: float
    answer: AnswerKind
    draft: DraftFn
    templates: tuple[Template, ...]
    time_refs: TimeRefsFn = no_time_refs
    gold_rule: GoldRule = gold_certain_at_t_query
    ends_rested_on: EndsFn = rests_on_no_end
    worded_rule: WordedRule = no_worded_rule
    render_time: bool = False
    names_final_entity: bool = False
    tempbench: bool = False
    census: Literal["pool", "static"] | None = None
    answer_at_t: bool = False

    def answer_kind(self, granularity: Granularity) -> AnswerKind:
        """The kind of this operator's answer at a question granularity."""
        return self.answer.at(granularity)
