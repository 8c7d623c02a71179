"""The source's modelling read as the world: a founding read as a change of status, a batch date as each start.

Two rules a careful reader states without seeing the builder (the regime rules, :mod:`~chronoqa.generate.kg.regime`,
are the others of the kind):

* ``status at founding``: a fact of a relation declared ``status`` (what the subject is: Wikidata's "instance of")
  whose start is where the subject's whole record starts (no other fact of the subject, on either side, starts
  earlier or has an unknown start, and there is another) dates the subject's founding, not a change of its
  status: "When did West Germany gain the status of sovereign state?" reads 1949, the year the data's West
  Germany begins, while the world's answer is 1955; "How many years passed between when HFC Haarlem gained and
  lost the status of association football club?" asks the club's lifetime. Its time is never asked, bounded or
  used as a reference (the facts the regime rules time: the asked fact of a time, duration or yes/no answer, a
  reference). An end where the record ends is not read the same way: most records end with the data, not with
  their subject.
* ``bulk-dated start``: :data:`BULK_MIN` or more facts of one subject and one state relation that share one start
  unit and record no end are dated by the source's import of a batch, not by when each began: all 24 of YAGO11k's
  Radio New Zealand ``owns`` facts start in 1996 and none ends (1996 is when its commercial stations were sold,
  not when each was acquired), so "In what year did Radio New Zealand acquire Geyserland FM?" -> 1996 is wrong. Their
  start is never asked, bounded or used as a reference (the facts the other rules time); the facts stay in the
  corpus and are asked at a time like any other. An event relation is not read so (a coach wins several awards in
  one year), nor a group with an end (a recorded end is evidence the spells were each dated).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np

from chronoqa.generate.kg.index import NONE, POS, Col, GraphIndex
from chronoqa.generate.kg.operators.base import AnswerKind
from chronoqa.generate.kg.operators.chains import Draft

__all__ = ["BULK_MIN", "Modelling", "modelling_reason"]

# The most facts of one subject and state relation sharing a start with no end in the shipped graphs, the batch
# aside, is 7 (a container's places re-formed in one year, which the regime rules read) and 5 outside containment
# (South Sudan's memberships from 2012, Kazakhstan's from 1992: a new state joining its organisations at once, true);
# YAGO11k's Radio New Zealand holds 22 (its 24 owns facts, 1996). Ten sits between: no state joins ten
# organisations, no club signs ten spells of one player, in one year with none ended.
BULK_MIN = 10


@dataclass(frozen=True)
class Modelling:
    """Per fact: a status fact that starts with its subject's whole record; a fact whose start is a batch's."""

    founding: np.ndarray  # fact -> bool
    bulk_start: np.ndarray  # fact -> bool

    @classmethod
    def build(cls, idx: GraphIndex, status: Collection[str], states: Collection[str]) -> Modelling:
        """The flags of ``idx`` for the relations declared ``status`` and the state relations (relation ids)."""
        return cls(_founding(idx, status), _bulk_start(idx, states))


def _founding(idx: GraphIndex, status: Collection[str]) -> np.ndarray:
    """Per fact: a fact of a ``status`` relation whose start is where its subject's whole record starts."""
    t, ok = idx.table, ~idx.ignored_mask
    rels = [i for i, r in enumerate(idx.rel_names) if r in status]
    if not rels:
        return np.zeros(len(t), dtype=bool)
    n = len(idx.ent_names)
    ends = np.concatenate([t[ok, Col.S], t[ok, Col.O]]).astype(np.int64)
    su = np.tile(t[ok, Col.SU], 2).astype(np.int64)
    count = np.bincount(ends, minlength=n)
    no_start = np.bincount(ends, weights=su == NONE, minlength=n) > 0
    first = np.full(n, POS, dtype=np.int64)
    np.minimum.at(first, ends[su != NONE], su[su != NONE])
    s = t[:, Col.S].astype(np.int64)
    cand = ok & np.isin(t[:, Col.R], rels) & (count[s] >= 2) & ~no_start[s]
    return cand & (t[:, Col.SU] != NONE) & (t[:, Col.SU] == first[s])


def _bulk_start(idx: GraphIndex, states: Collection[str]) -> np.ndarray:
    """Per fact: one of :data:`BULK_MIN` or more facts of a subject and state relation sharing its start, no end."""
    t = idx.table
    rels = [i for i, r in enumerate(idx.rel_names) if r in states]
    sel = ~idx.ignored_mask & np.isin(t[:, Col.R], rels) & (t[:, Col.SU] != NONE) & (t[:, Col.EU] == NONE)
    out = np.zeros(len(t), dtype=bool)
    if sel.any():
        keys = t[sel][:, [Col.S, Col.R, Col.SU]].astype(np.int64)
        _, inv, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
        out[sel] = counts[inv.ravel()] >= BULK_MIN
    return out


def modelling_reason(m: Modelling | None, d: Draft) -> str | None:
    """Which rule of the module docstring rejects the draft, or ``None``."""
    if m is None:
        return None
    timed = [d.ref_fid] if d.ref_fid >= 0 else []
    if d.kind.is_time or d.kind in (AnswerKind.DURATION, AnswerKind.YES_NO):
        timed.append(d.hops[-1].fid)
    if any(m.founding[f] for f in timed):
        return "status at founding"
    if any(m.bulk_start[f] for f in timed):
        return "bulk-dated start"
    return None
