"""Question kinds: one-fact recall against reasoning, the slice on which retrievers are told apart.

A question is ``recall`` when it is a 1-hop question of one of TempBench's four operators (point in time,
before/after, interval, sequence): its evidence is one fact the question names the ends of. Every other question
is ``reasoning``: a chain of two or more hops, or a family that relates facts (two facts, Allen relations,
relative time, time alignment), measures them (durations, counts) or decides them (yes/no, present state against
``as_of``). On recall questions a time-blind lexical retriever already finds the one fact the question names in
its top k, so CCR@k is high for every system; the reasoning questions are where the systems' CCR differs
(docs/metrics.md, "Does it separate systems?"). Every metric block carries both as the ``by_kind`` slices.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from chronoqa.records import Question

__all__ = ["KINDS", "RECALL_OPERATORS", "kind_slices", "question_kind"]

#: TempBench's operators: a 1-hop question of one of them is a one-fact lookup.
RECALL_OPERATORS = frozenset({"point_in_time", "before_after", "interval", "sequence"})

#: The ``by_kind`` slices, in report order.
KINDS = ("recall", "reasoning")


def question_kind(q: Question) -> str:
    """``recall`` (a 1-hop question of a TempBench operator) or ``reasoning`` (any other question)."""
    return "recall" if q.hops <= 1 and q.operator in RECALL_OPERATORS else "reasoning"


def kind_slices(qs: Sequence[Question]) -> list[tuple[str, str, np.ndarray]]:
    """The ``by_kind`` slices of ``qs`` that have questions: (group, kind, question indices)."""
    kinds = [question_kind(q) for q in qs]
    return [
        ("by_kind", kind, np.array([i for i, k in enumerate(kinds) if k == kind], dtype=np.int64))
        for kind in KINDS
        if kind in kinds
    ]
