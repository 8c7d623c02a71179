"""The end of a per-term spell read as the end of a tenure.

A relation the data stores per term (:meth:`~chronoqa.generate.kg.index.GraphIndex.per_term`: a deputy's
legislatures, a player's seasons) records a spell that need not be the whole tenure, so its end need not be the
day the holder left: "Was it still the case in 2011 that X played for Y? -> no", "the year after X left Y", "In
which year did X leave Y?" may rest on the end of one term of several. The index decides, once for every
operator, which recorded ends are a tenure's end (:meth:`~chronoqa.generate.kg.index.GraphIndex.tenure_end`);
this module names the ends each draft rests on and rejects a draft that rests on another:

* interval ``end``: the asked fact's end is the answer;
* yes/no ``no``: the asked fact's end decides the label (``yes`` asks inside the spell: a longer tenure keeps it);
* Allen: the asked fact's end where its comparison reads it (``still`` and ``end_...``), the reference's where
  its comparison reads the reference's end;
* relative ``..._end``: the reference's end is the point counted from;
* sequence ``next`` over a state: the reference's end is where "next" starts.

Starts stay usable. Rule name: ``end of a per-term spell``.
"""

from __future__ import annotations

from chronoqa.generate.kg.index import GraphIndex
from chronoqa.generate.kg.operators.chains import Draft

__all__ = ["RULE", "ends_rested_on", "tenure_reason"]

RULE = "end of a per-term spell"


def ends_rested_on(idx: GraphIndex, d: Draft) -> list[int]:
    """The facts whose recorded end the draft's question or answer rests on (see the module docstring)."""
    asked = d.hops[-1].fid if d.hops else -1
    if d.operator == "interval":
        return [asked] if d.variant == "end" else []
    if d.operator == "yes_no":
        return [asked] if d.variant == "no" else []
    if d.operator == "allen":
        parts = d.variant.split("_")
        out = [asked] if d.variant == "still" or parts[0] == "end" else []
        return out + ([d.ref_fid] if parts[-1] == "end" else [])
    if d.operator == "relative":
        return [d.ref_fid] if d.variant.endswith("_end") else []
    if d.operator == "sequence" and d.variant == "next" and not idx.rel_event[d.hops[-1].rel]:
        return [d.ref_fid]
    return []


def tenure_reason(idx: GraphIndex, d: Draft) -> str | None:
    """:data:`RULE` when the draft rests on a recorded end that is not a tenure's end, else ``None``."""
    if any(f >= 0 and not idx.tenure_end(f) for f in ends_rested_on(idx, d)):
        return RULE
    return None
