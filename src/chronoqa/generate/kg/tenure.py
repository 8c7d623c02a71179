"""The end of a per-term spell read as the end of a tenure.

A relation the data stores per term (:meth:`~chronoqa.generate.kg.index.GraphIndex.per_term`: a deputy's
legislatures, a player's seasons) records a spell that need not be the whole tenure, so its end need not be the
day the holder left: "Was it still the case in 2011 that X played for Y? -> no", "the year after X left Y", "In
which year did X leave Y?" may rest on the end of one term of several. The index decides, once for every
operator, which recorded ends are a tenure's end (:meth:`~chronoqa.generate.kg.index.GraphIndex.tenure_end`);
each operator declares the ends a draft of it rests on
(:attr:`Operator.ends_rested_on <chronoqa.generate.kg.operators.base.Operator>`: an interval ``end`` answer, a
yes/no ``no``, an Allen comparison reading an end, a relative time counted from an end, a sequence ``next`` after
a state; by default none), and this module rejects a draft that rests on another end than a tenure's.

Starts stay usable. Rule name: ``end of a per-term spell``.

An end the data does not record (a state with no end) is unknown, never a guess: a draft resting on it ("X lost
the designation in the same year that ...", "one year after X left Y") is rejected, whatever the label the
comparison over every completion would give. The same holds for the ends of a relation declared ``end_unknown``
(Wikidata's "instance of": an end is the source's modelling, not an event), whose whole spell (its duration, "still
in") is not asked either; its start stays usable. Rule name: ``end of an open fact``
(:meth:`~chronoqa.generate.kg.index.GraphIndex.end_recorded`).

The same holds for an *interrupted* spell of a relation declared ``exclusive`` (one party at a time in the world:
:meth:`~chronoqa.generate.kg.index.GraphIndex.mark_interrupted`): another value starts inside it, so neither its
recorded end nor its length nor its holding on inside it is a fact of the world. A draft resting on its end, a
duration over it or a yes/no on it (either label: "still" reads the whole spell) is rejected. Rule name:
``interrupted spell``.
"""

from __future__ import annotations

from chronoqa.generate.kg.index import Col, GraphIndex
from chronoqa.generate.kg.operators import REGISTRY
from chronoqa.generate.kg.operators.chains import Draft

__all__ = ["INTERRUPTED", "OPEN_END", "RULE", "tenure_reason"]

RULE = "end of a per-term spell"
INTERRUPTED = "interrupted spell"
OPEN_END = "end of an open fact"
WHOLE_SPELL = ("duration", "yes_no")  # operators whose question reads the asked spell whole (its length, "still")


def tenure_reason(idx: GraphIndex, d: Draft) -> str | None:
    """Why the draft reads a spell's end the data does not make one in the world, or ``None``.

    :data:`OPEN_END` when it rests on an end the data does not record (or declares unknown) or reads such a
    declared spell whole, :data:`RULE` when it rests on a recorded end that is not a tenure's end,
    :data:`INTERRUPTED` when it reads an interrupted spell's end or the spell whole.
    """
    ends = [f for f in REGISTRY[d.operator].ends_rested_on(idx, d) if f >= 0]
    whole = [d.hops[-1].fid] if d.operator in WHOLE_SPELL and d.hops else []
    if any(not idx.end_recorded(f) and not idx.rel_event[idx.table[f, Col.R]] for f in ends) or any(
        int(idx.table[f, Col.R]) in idx.unknown_end_rels for f in whole
    ):
        return OPEN_END
    if any(not idx.tenure_end(f) for f in ends):
        return RULE
    if any(f >= 0 and idx.interrupted(f) for f in [*ends, *whole]):
        return INTERRUPTED
    return None
