"""The source's modelling read as the world: a subject's founding read as a change of its status.

One rule a careful reader states without seeing the builder (the regime rules, :mod:`~chronoqa.generate.kg.regime`,
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
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np

from chronoqa.generate.kg.index import NONE, POS, Col, GraphIndex
from chronoqa.generate.kg.operators.base import AnswerKind
from chronoqa.generate.kg.operators.chains import Draft

__all__ = ["Modelling", "modelling_reason"]


@dataclass(frozen=True)
class Modelling:
    """Per fact: a status fact that starts with its subject's whole record (``status at founding``)."""

    founding: np.ndarray  # fact -> bool

    @classmethod
    def build(cls, idx: GraphIndex, status: Collection[str]) -> Modelling | None:
        """The flags of ``idx`` for the relations declared ``status`` (relation ids); ``None`` when none is."""
        t, ok = idx.table, ~idx.ignored_mask
        rels = [i for i, r in enumerate(idx.rel_names) if r in status]
        if not rels:
            return None
        n = len(idx.ent_names)
        ends = np.concatenate([t[ok, Col.S], t[ok, Col.O]]).astype(np.int64)
        su = np.tile(t[ok, Col.SU], 2).astype(np.int64)
        count = np.bincount(ends, minlength=n)
        no_start = np.bincount(ends, weights=su == NONE, minlength=n) > 0
        first = np.full(n, POS, dtype=np.int64)
        np.minimum.at(first, ends[su != NONE], su[su != NONE])
        s = t[:, Col.S].astype(np.int64)
        cand = ok & np.isin(t[:, Col.R], rels) & (count[s] >= 2) & ~no_start[s]
        return cls(cand & (t[:, Col.SU] != NONE) & (t[:, Col.SU] == first[s]))


def modelling_reason(m: Modelling | None, d: Draft) -> str | None:
    """Which rule of the module docstring rejects the draft, or ``None``."""
    if m is None:
        return None
    timed = [d.ref_fid] if d.ref_fid >= 0 else []
    if d.kind.is_time or d.kind in (AnswerKind.DURATION, AnswerKind.YES_NO):
        timed.append(d.hops[-1].fid)
    if any(m.founding[f] for f in timed):
        return "status at founding"
    return None
