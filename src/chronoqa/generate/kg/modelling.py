"""The source's modelling read as the world: a founding read as a change of status, a batch date as each start.

Four rules a careful reader states without seeing the builder (the regime rules, :mod:`~chronoqa.generate.kg.regime`,
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
* ``residence not a move``: a fact of a relation declared ``residence`` (where its subject lives) is read as a move
  ("At the time Mikhail Pogodin moved to Moscow") only where the data gives a reason: not where its place is the
  subject's birthplace (the object of a ``birth`` fact of the subject) or lies in it or contains it (containment
  facts, followed either way, at any time), and not where it spans a single unit with no earlier residence of the
  subject elsewhere (Pogodin lived in Moscow "in 1833" only; he was born there). Its start is never asked, bounded
  or a reference (the facts the other rules time); the fact is still asked at a time ("Where did Pogodin live in
  1833?"). Its end likewise is never asked, bounded, a reference or read whole (a duration "until he moved away")
  as a move away unless the data has a later residence of the subject elsewhere (one starting in the end unit or
  after): Moholy-Nagy's Chicago residence ends in 1946 because he died there (rule ``residence end not a move``).
* ``held from birth``: a fact of a relation declared ``from_birth`` (a person holds it from birth: citizenship)
  whose start is the subject's birth (the unit of a ``birth`` fact of the subject or, where the data records no
  birth, the start of the subject's whole record, read as for ``status at founding``) is no "became": "When did
  Villumsen become a citizen of Denmark?" -> 1985 asks her birth year. Its start is never asked, bounded or a
  reference; a citizenship taken later (Villumsen's New Zealand, 2009) stays.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np

from chronoqa.generate.kg.index import NONE, POS, Col, GraphIndex, run_sizes
from chronoqa.generate.kg.operators import REGISTRY
from chronoqa.generate.kg.operators.base import AnswerKind
from chronoqa.generate.kg.operators.chains import Draft
from chronoqa.generate.kg.regime import Regimes

__all__ = ["BULK_MIN", "Lives", "Modelling", "ends_read", "modelling_reason"]

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
    no_move: np.ndarray | None = None  # fact -> a residence start the data gives no reason to read as a move
    at_birth: np.ndarray | None = None  # fact -> a from-birth relation's start at its subject's birth
    no_move_away: np.ndarray | None = None  # fact -> a residence end the data gives no reason to read as a move away

    @classmethod
    def build(
        cls,
        idx: GraphIndex,
        status: Collection[str],
        states: Collection[str],
        lives: Lives | None = None,
        regimes: Regimes | None = None,
    ) -> Modelling:
        """The flags of ``idx`` for the relations declared ``status``, the state relations and ``lives``.

        ``regimes``: the containment facts the birthplace test follows (``None``: none declared).
        """
        if lives is None:
            return cls(_founding(idx, status), _bulk_start(idx, states))
        births, homes = _births(idx, lives.birth), _residences(idx, lives)
        return cls(
            _founding(idx, status), _bulk_start(idx, states), no_move=_no_move(idx, homes, births, regimes),
            at_birth=_founding(idx, lives.from_birth, births), no_move_away=_no_move_away(idx, homes),
        )  # fmt: skip


@dataclass(frozen=True)
class Lives:
    """The relations the life rules read (relation ids): births, residences, from-birth relations."""

    birth: Collection[str] = ()
    residence: Collection[str] = ()
    from_birth: Collection[str] = ()


def _rels(idx: GraphIndex, names: Collection[str]) -> list[int]:
    return [i for i, r in enumerate(idx.rel_names) if r in names]


def _births(idx: GraphIndex, birth: Collection[str]) -> dict[int, list[tuple[int, int]]]:
    """Subject -> its birth facts' (place, start unit)."""
    t = idx.table
    out: dict[int, list[tuple[int, int]]] = {}
    for f in np.flatnonzero(~idx.ignored_mask & np.isin(t[:, Col.R], _rels(idx, birth))).tolist():
        out.setdefault(int(t[f, Col.S]), []).append((int(t[f, Col.O]), int(t[f, Col.SU])))
    return out


def _founding(
    idx: GraphIndex, status: Collection[str], births: dict[int, list[tuple[int, int]]] | None = None
) -> np.ndarray:
    """Per fact: a fact of a ``status`` relation whose start is where its subject's whole record starts.

    With ``births`` (the ``held from birth`` rule): a subject with a dated birth fact is read by it instead, the
    start at the birth's unit.
    """
    t, ok = idx.table, ~idx.ignored_mask
    rels = [i for i, r in enumerate(idx.rel_names) if r in status]
    if not rels:
        return np.zeros(len(t), dtype=bool)
    if births:
        out = _founding(idx, status)
        for f in np.flatnonzero(ok & np.isin(t[:, Col.R], rels) & (t[:, Col.SU] != NONE)).tolist():
            units = [u for _, u in births.get(int(t[f, Col.S]), ()) if u != NONE]
            if units:
                out[f] = int(t[f, Col.SU]) in units
        return out
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
        out[sel] = run_sizes(*(t[sel, c] for c in (Col.S, Col.R, Col.SU))) >= BULK_MIN
    return out


def _residences(idx: GraphIndex, lives: Lives) -> dict[tuple[int, int], list[int]]:
    """(Subject, relation) -> its residence facts, in table order."""
    t = idx.table
    out: dict[tuple[int, int], list[int]] = {}
    for f in np.flatnonzero(~idx.ignored_mask & np.isin(t[:, Col.R], _rels(idx, lives.residence))).tolist():
        out.setdefault((int(t[f, Col.S]), int(t[f, Col.R])), []).append(f)
    return out


def _no_move(
    idx: GraphIndex,
    homes: dict[tuple[int, int], list[int]],
    births: dict[int, list[tuple[int, int]]],
    regimes: Regimes | None,
) -> np.ndarray:
    """Per fact: a residence start the data gives no reason to read as a move (the module docstring)."""
    t = idx.table
    out = np.zeros(len(t), dtype=bool)
    near = _linked(regimes) if homes else {}
    for (s, _), facts in homes.items():
        for f in facts:
            o, su, eu = int(t[f, Col.O]), int(t[f, Col.SU]), int(t[f, Col.EU])
            if su == NONE:
                continue
            if any(b == o or b in near.get(o, ()) for b, _ in births.get(s, ())):
                out[f] = True  # the birthplace, or a place it lies in or that lies in it
                continue
            earlier = any(int(t[g, Col.O]) != o and _before(int(t[g, Col.SU]), int(t[g, Col.EU]), su) for g in facts)
            out[f] = eu == su and not earlier  # one unit, and no earlier residence elsewhere
    return out


def _no_move_away(idx: GraphIndex, homes: dict[tuple[int, int], list[int]]) -> np.ndarray:
    """Per fact: a residence end with no later residence of the subject elsewhere.

    A later residence starts in the end unit or after; without one the data gives no reason to read the end as a
    move away (the subject may have died there).
    """
    t = idx.table
    out = np.zeros(len(t), dtype=bool)
    for facts in homes.values():
        later = [(int(t[g, Col.O]), int(t[g, Col.SU])) for g in facts if t[g, Col.SU] != NONE]
        for f in facts:
            if t[f, Col.EU] != NONE:
                o, eu = int(t[f, Col.O]), int(t[f, Col.EU])
                out[f] = not any(x != o and su >= eu for x, su in later)
    return out


def _before(su: int, eu: int, unit: int) -> bool:
    """A spell (start, end unit) dated before ``unit``: its start, or (no start) its end."""
    return su < unit if su != NONE else eu != NONE and eu < unit


def _linked(regimes: Regimes | None) -> dict[int, set[int]]:
    """Place -> the places it lies in or that lie in it, by the containment facts at any time, transitively."""
    if regimes is None:
        return {}
    parents = regimes.parents
    up = {part: {int(parents.whole[g]) for g in facts} for part, facts in parents.of.items()}
    down: dict[int, set[int]] = {}
    for part, wholes in up.items():
        for w in wholes:
            down.setdefault(w, set()).add(part)
    return {e: _reach(e, up) | _reach(e, down) for e in set(up) | set(down)}


def _reach(e: int, step: dict[int, set[int]]) -> set[int]:
    seen, todo = set(), [e]
    while todo:
        for x in step.get(todo.pop(), ()):
            if x not in seen:
                seen.add(x)
                todo.append(x)
    return seen


def ends_read(idx: GraphIndex, d: Draft) -> list[int]:
    """The facts whose recorded end the draft asks, bounds or refers to, or whose spell it reads whole."""
    ends = [f for f in REGISTRY[d.operator].ends_rested_on(idx, d) if f >= 0]
    return ends + ([d.hops[-1].fid] if d.operator in ("duration", "yes_no") and d.hops else [])


def modelling_reason(m: Modelling | None, d: Draft, idx: GraphIndex) -> str | None:
    """Which rule of the module docstring rejects the draft, or ``None``."""
    if m is None:
        return None
    if m.no_move_away is not None and any(m.no_move_away[f] for f in ends_read(idx, d)):
        return "residence end not a move"
    timed = [d.ref_fid] if d.ref_fid >= 0 else []
    if d.kind.is_time or d.kind in (AnswerKind.DURATION, AnswerKind.YES_NO):
        timed.append(d.hops[-1].fid)
    if any(m.founding[f] for f in timed):
        return "status at founding"
    if any(m.bulk_start[f] for f in timed):
        return "bulk-dated start"
    if m.no_move is not None and any(m.no_move[f] for f in timed):
        return "residence not a move"
    if m.at_birth is not None and any(m.at_birth[f] for f in timed):
        return "held from birth"
    return None
