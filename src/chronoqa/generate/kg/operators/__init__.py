"""The KG question operators: one module each, registered in :data:`REGISTRY`.

Each module (``point_in_time``, ``before_after``, ``interval``, ``sequence``, ``duration``, ``yes_no``,
``present_state``, ``two_facts``, ``allen``, ``relative``) declares one
:class:`~chronoqa.generate.kg.operators.base.Operator`: its drafting, its templates, its answer kind, its time
references and its validity rule. The builder knows operators only through this table: the cells it fills, the
configuration's names and default weights, the data card's names all come from it. To add an operator, write
its module beside these and add it to :data:`REGISTRY` (see docs/architecture.md).

The chain search the operators share is in :mod:`~chronoqa.generate.kg.operators.chains`.
"""

from __future__ import annotations

from chronoqa.errors import UnknownNameError
from chronoqa.generate.kg.operators import (
    allen,
    before_after,
    duration,
    interval,
    point_in_time,
    present_state,
    relative,
    sequence,
    two_facts,
    yes_no,
)
from chronoqa.generate.kg.operators.base import AnswerKind, Operator
from chronoqa.generate.kg.operators.chains import (
    HUB_CAP,
    TIME_FREE_CAP,
    Draft,
    GenContext,
    Hop,
    SeedList,
    build_chain_pool,
    build_static_into,
    static_depths,
)
from chronoqa.generate.kg.templates import Template

__all__ = [
    "HUB_CAP",
    "REGISTRY",
    "TIME_FREE_CAP",
    "AnswerKind",
    "Draft",
    "GenContext",
    "Hop",
    "Operator",
    "SeedList",
    "build_chain_pool",
    "build_static_into",
    "operator",
    "static_depths",
    "templates",
]

#: Operator name → operator, in the order cells are filled and tables list them.
REGISTRY: dict[str, Operator] = {
    op.name: op
    for op in (
        point_in_time.OPERATOR,
        before_after.OPERATOR,
        interval.OPERATOR,
        sequence.OPERATOR,
        duration.OPERATOR,
        yes_no.OPERATOR,
        present_state.OPERATOR,
        two_facts.OPERATOR,
        allen.OPERATOR,
        relative.OPERATOR,
    )
}


def operator(name: str) -> Operator:
    """The registered operator called ``name`` (:class:`~chronoqa.errors.UnknownNameError` for another name)."""
    if name not in REGISTRY:
        raise UnknownNameError("operator", name, tuple(REGISTRY))
    return REGISTRY[name]


def templates() -> dict[str, Template]:
    """Every template of every operator, by template id (ids are unique across operators)."""
    return {t.id: t for op in REGISTRY.values() for t in op.templates}
