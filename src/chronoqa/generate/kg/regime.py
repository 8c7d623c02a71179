"""The source's modelling read as the world: containment facts across a change of regime.

A graph such as Wikidata12k models a place and the polity it belongs to as entities whose identity changes
with the regime: Berlin is one entity whether governed from the West or the East, Lower Saxony is listed in
the German Empire decades before it existed, and every place of the Soviet Union "became part of Russia in
1991". The phrase table declares which relations are containment (``containment = "part_of"``: the subject
lies in the object, e.g. country, located in; ``"contains"``: the object lies in the subject; ``"capital_of"``:
the subject is the object's capital, a place-to-polity hop that dates nothing about the polity's extent, so it
counts for the third and fifth rules only). Nine rules, from the data and the phrase table's words:

* ``regime boundary``: a containment fact whose start is the container's first start in the data (or whose
  end is its last end) dates the container's own beginning (end), not a change of the place: its time is
  never asked or used to resolve one ("When did X become part of Russia?" → 1991; "the year after Lower
  Saxony ceased to be part of the German Empire"). So does a start (end) at a *batch* unit of the container:
  one where at least ``BATCH_SHARE`` of its dated starts (ends), and ``BATCH_MIN``, fall. Many places
  re-subordinated in one year is the container re-forming, dissolving or being reorganised (Germany 1990:
  17 of its 28 starts, "Berlin became part of Germany in 1990"; the Soviet Union 1922 and 1991), not an
  event of the place.
* ``outside the polity's window``: a containment hop is asked only at a time where both ends existed as
  polities per the data: a part that is itself a container (something lies in it) has a window, from the
  first start to the last end of the facts placing something in it (an open end counts up to its start:
  nothing asserts the fact later), and the time asked must fall inside it.
* ``direct parent, not membership``: a source such as Wikidata records a place's *direct* parent, which changes
  when an intermediate level is abolished or inserted (Cuxhaven "became part of Lower Saxony" in 2004 when its
  Regierungsbezirk was abolished; it had lain in Lower Saxony since 1977). A containment fact's start is a change
  of membership only where the data shows the part was *not* transitively inside the container the unit before:
  a containment fact of the part possibly valid then names another container, whose own containers at that unit
  are recorded, and no chain of containment facts possibly valid then leads from the part to the container (a
  chain may end at a unit with no container facts above the earlier container, never at it: an okrug and the
  oblast after it, both without containers in the data, may be one inside the other). Otherwise (no earlier
  parent recorded, its own containment unknown, or it lay inside the container) the start is unknown as an event
  and is treated like a regime boundary; an end likewise, with the unit after it and the next parent. Asking
  which unit contained a place at a time is unaffected.
* ``identity across regimes``: an entity whose own container has two or more values over the data (its
  polity changed) is not passed through from a containment hop to another kind of hop ("which country was
  the place Dietrich Stobbe governed part of in 1978?" joins West Berlin's mayor to East Berlin's country).
* ``capital outside its polity``: a place that is the capital of X at a time lies in X then. A hop asking a
  place's container at the question's time (its answer, or a bridge to the next hop) is not asked where the place
  is possibly the capital of a container X (something lies in X in the data) other than the hop's, and no
  containment fact possibly valid then places it in X: the gold would be unique only because the data leaves the
  implied fact out ("In 1927, in which administrative unit was the capital of the Soviet Union located?" ->
  Moscow Governorate, while Moscow was the RSFSR's capital from 1918 and is recorded in it only from 1931).
* ``level named ambiguously``: a hop to a container the question describes by the words of its relation ("the
  administrative unit X was in", "which country was X part of", "the Soviet republic X was in": the relation's own
  words or the phrase table's role that the container's label marks or its facts show) is not asked where the data
  places the hop's part, at the question's time, in another entity those words describe as well: one its
  containment facts possibly valid then reach, directly or through the container or another unit (at most
  ``MAX_DEPTH`` levels up), whose role under the hop's relation is the container's. The words fit both levels: "In
  which Soviet republic was Grozny located in 1986?" fits the Chechen-Ingush ASSR and the RSFSR it lies in; "As of
  1993, in which administrative unit was Cuxhaven located?" fits Lüneburg Government Region and Lower Saxony, which
  the data places it in through the region. A country is no administrative unit by the phrase table's roles
  (Venice in Italy beside the Province of Venice): the words "administrative unit" do not describe it. A level the
  data does not record is named by the phrase table instead (a role whose marks extend another's: "the autonomous
  Soviet republic").
* ``level not named``: containment is transitive in the world while the data records one level, so words that name
  no level ("the administrative unit X was in", "in which administrative unit was Kutzenhausen located?") fit the
  recorded district, its department and its region alike, and the gold is one right answer of several. A hop to a
  container through a relation or role the phrase table declares ``levels_unnamed`` is never described (an entity
  answer or a bridge), at any time; a role whose label marks the level ("in which province was X located?") is asked.
  A container the question names (a yes/no, a start or end year, a reference clause) stays.
* ``union asked as a country``: a union whose members were states in their own right (Austria-Hungary, the Kingdom
  of Hungary in it) is never described, by a role the phrase table declares ``union_of_states``: "which country was
  X part of" fits the member state as well. Named, it stays.
* ``divided entity``: a place the data records as one entity while it was two in the world (the phrase table's
  ``[divided]``: Wikidata's one Berlin, its country the GDR 1949-1990 and its heads of government West Berlin's
  mayors). Its own facts, those it is the subject of (either side of a symmetric relation: a twinning), say what the
  place was as a polity (its country, its unit, its head of government, its twins), which depends on the half; they
  are not asked where the question reads them at a unit of the declared span: the question's time, or the start or
  end of a fact whose time it asks, bounds or refers to ("As of 1980, who was the head of government of Berlin?" ->
  West Berlin's mayor; "Which country was Berlin part of when it became twinned with Los Angeles?" -> GDR, a twinning
  made by West Berlin). A fact of another subject placed in it (lived in, located in) holds in either half and stays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

from chronoqa.generate.kg.index import NEG, NONE, Col, GraphIndex
from chronoqa.generate.kg.operators.base import AnswerKind
from chronoqa.generate.kg.operators.chains import Draft, Hop

__all__ = ["BATCH_MIN", "BATCH_SHARE", "MAX_DEPTH", "Regimes", "regime_reason"]

BATCH_SHARE = 0.25  # a unit where this share of a container's dated starts (ends) fall dates the container
BATCH_MIN = 3  # ... and at least this many
MAX_DEPTH = 8  # containment chains longer than this are not followed (the answer is unknown)


@dataclass(frozen=True)
class Regimes:
    """Per relation its containment role; per entity its window as a container; per fact its boundary flags."""

    role: list[str | None]  # relation -> "part_of" | "contains" | "capital_of" | None
    win_lo: np.ndarray  # entity -> first start unit of a fact placing something in it (NONE: not a container)
    win_hi: np.ndarray  # entity -> last end unit of such a fact
    changes: np.ndarray  # entity -> its own container has two or more values over the data
    boundary_start: np.ndarray  # fact -> its start is its container's first start
    boundary_end: np.ndarray  # fact -> its end is its container's last end
    parent_start: np.ndarray  # fact -> its start is not shown to be a change of membership (direct parent)
    parent_end: np.ndarray  # fact -> its end is not shown to be a change of membership
    parents: _Parents  # each part's containment facts and the facts making it a capital
    # containment relation -> the entities its facts place something in -> the phrase table's role each holds under it
    # (its label marks it or its facts show it; "": the relation's own words)
    levels: dict[int, dict[int, str]]
    # relation -> a fact's object -> its role key (absent: the relation's own words), the words a hop reads
    named: Mapping[int, Mapping[int, str]] = field(default_factory=dict)
    # relation -> role key ("": the relation's own words) -> the rule keeping a container so worded undescribed
    undescribed: Mapping[int, Mapping[str, str]] = field(default_factory=dict)
    divided: _Divided | None = None  # the declared divided entities and the facts read for them

    @classmethod
    def build(
        cls, idx: GraphIndex, roles: Mapping[str, str | None], named: Mapping[int, Mapping[int, str]] | None = None,
        undescribed: Mapping[int, Mapping[str, str]] | None = None,
        divided: Mapping[int, tuple[int, int]] | None = None,
    ) -> Regimes | None:  # fmt: skip
        """The regimes of ``idx`` under the declared roles (relation id -> role); ``None`` when none is declared.

        ``named``: relation -> object -> the phrase table's role its label marks or its facts show (the key
        "<relation>/<role>"; absent: the relation's own words). ``undescribed``: relation -> role key ("": its own
        words) -> ``level not named`` or ``union asked as a country`` (:meth:`RelationPhrases.undescribed
        <chronoqa.generate.kg.phrases.RelationPhrases.undescribed>`). ``divided``: entity -> the first and last
        unit of its declared division (``divided entity``).
        """
        role = [roles.get(r) for r in idx.rel_names]
        if not any(role) and not divided:
            return None
        t, ok = idx.table, ~idx.ignored_mask
        part_of = np.array([x == "part_of" for x in role], dtype=bool)[t[:, Col.R]]  # capital_of: not an extent
        contains = np.array([x == "contains" for x in role], dtype=bool)[t[:, Col.R]]
        cont = ok & (part_of | contains)
        part = np.where(part_of, t[:, Col.S], t[:, Col.O])
        whole = np.where(part_of, t[:, Col.O], t[:, Col.S])
        n = len(idx.ent_names)
        su, eu = t[:, Col.SU], t[:, Col.EU]
        hi_end = np.where(eu != NONE, eu, su)  # an open end is evidence up to its start only
        win_lo = np.full(n, np.iinfo(np.int32).max, dtype=np.int64)
        win_hi = np.full(n, NEG, dtype=np.int64)
        has_start = cont & (su != NONE)
        np.minimum.at(win_lo, whole[has_start], su[has_start])
        dated = cont & (hi_end != NONE)
        np.maximum.at(win_hi, whole[dated], hi_end[dated])
        win_lo[win_lo == np.iinfo(np.int32).max] = NONE
        pairs = np.unique(np.stack([part[cont], whole[cont]], axis=1), axis=0) if cont.any() else np.zeros((0, 2))
        changes = np.bincount(pairs[:, 0].astype(np.int64), minlength=n) >= 2
        b_start = cont & (su != NONE) & ((su == win_lo[whole]) | _batch(whole, su, cont & (su != NONE), n))
        b_end = cont & (eu != NONE) & ((eu == win_hi[whole]) | _batch(whole, eu, cont & (eu != NONE), n))
        capital = ok & np.array([x == "capital_of" for x in role], dtype=bool)[t[:, Col.R]]
        capitals = np.stack([t[capital, Col.S], t[capital, Col.O], su[capital], eu[capital]], axis=1)
        parents = _Parents(cont, part, whole, su, eu, capitals)
        p_start, p_end = parents.unknown_boundaries()
        levels = _levels(idx, role, ok, named or {})
        return cls(
            role,
            win_lo,
            win_hi,
            changes,
            b_start,
            b_end,
            p_start,
            p_end,
            parents,
            levels,
            named or {},
            undescribed or {},
            _Divided(dict(divided), t, idx.rel_symmetric) if divided else None,
        )

    def part_and_whole(self, h: Hop) -> tuple[int, int] | None:
        """The (part, container) of a containment hop, or ``None`` for another relation (or a capital)."""
        role = self.role[h.rel]
        if role is None or role == "capital_of":
            return None
        subject, obj = (h.src, h.dst) if h.forward else (h.dst, h.src)
        return (subject, obj) if role == "part_of" else (obj, subject)

    def unnamed_level(self, h: Hop) -> str | None:
        """The rule keeping the container a hop reaches from being described, or ``None``.

        ``level not named`` or ``union asked as a country``, by the words of the hop's fact (its object's role, else
        its relation's).
        """
        pw = self.part_and_whole(h)
        if pw is None or h.dst != pw[1]:
            return None
        obj = h.dst if h.forward else h.src
        return self.undescribed.get(h.rel, {}).get(self.named.get(h.rel, {}).get(obj, ""))


def _batch(whole: np.ndarray, unit: np.ndarray, sel: np.ndarray, n: int) -> np.ndarray:
    """Facts (of ``sel``) dated at a unit holding :data:`BATCH_SHARE` and :data:`BATCH_MIN` of their container's."""
    out = np.zeros(len(whole), dtype=bool)
    if not sel.any():
        return out
    w, u = whole[sel].astype(np.int64), unit[sel].astype(np.int64)
    _, inv, counts = np.unique(np.stack([w, u], axis=1), axis=0, return_inverse=True, return_counts=True)
    c = counts[inv.ravel()]
    out[sel] = (c >= BATCH_MIN) & (c >= BATCH_SHARE * np.bincount(w, minlength=n)[w])
    return out


def _levels(
    idx: GraphIndex, role: list[str | None], ok: np.ndarray, named: Mapping[int, Mapping[int, str]]
) -> dict[int, dict[int, str]]:
    """Per containment relation: its kept facts' containers, each with its role under it (:attr:`Regimes.levels`)."""
    t, out = idx.table, {}
    for r, kind in enumerate(role):
        if kind in ("part_of", "contains"):
            side = t[ok & (t[:, Col.R] == r), Col.O if kind == "part_of" else Col.S]
            marks = named.get(r, {})
            out[r] = {e: marks.get(e, "") for e in np.unique(side).tolist()}
    return out


class _Parents:
    """Each part's containment facts, read for the ``direct parent, not membership`` rule.

    ``cont`` masks the containment facts; ``capitals`` holds one (capital, polity, start, end) row per capital fact.
    """

    def __init__(
        self, cont: np.ndarray, part: np.ndarray, whole: np.ndarray, su: np.ndarray, eu: np.ndarray,
        capitals: np.ndarray | None = None,
    ) -> None:  # fmt: skip
        self.su, self.eu, self.whole, self.part = su, eu, whole, part
        self.capital_of: dict[int, list[tuple[int, int, int]]] = {}  # capital -> (polity, start, end) of its facts
        for e, polity, lo, hi in [] if capitals is None else capitals.tolist():
            self.capital_of.setdefault(e, []).append((polity, lo, hi))
        self.of: dict[int, list[int]] = {}
        for f in np.flatnonzero(cont).tolist():
            self.of.setdefault(int(part[f]), []).append(f)

    def held(self, e: int, u: int, but: int = -1) -> list[int]:
        """The containment facts of part ``e`` (other than ``but``) possibly valid at unit ``u``."""
        out = []
        for g in self.of.get(e, ()):
            lo, hi = int(self.su[g]), int(self.eu[g])
            if g != but and (lo == NONE or lo <= u) and (hi == NONE or u <= hi) and (lo != NONE or hi != NONE):
                out.append(g)
        return out

    def inside(self, e: int, c: int, u: int, depth: int) -> bool | None:
        """Whether the data shows ``e`` inside ``c`` at ``u`` (True), outside it (False), or cannot tell (None)."""
        if e == c:
            return True
        if depth > MAX_DEPTH:
            return None
        up = self.held(e, u)
        if not up:  # above the earlier container, a unit with no container facts ends the chain; else unknown
            top = e not in self.of and depth > 0
            return False if top else None
        verdicts = [self.inside(int(self.whole[g]), c, u, depth + 1) for g in up]
        return True if True in verdicts else None if None in verdicts else False

    def above(self, e: int, u: int) -> set[int]:
        """The entities the containment facts possibly valid at unit ``u`` place ``e`` in, up to :data:`MAX_DEPTH`."""
        seen: set[int] = set()
        level = {e}
        for _ in range(MAX_DEPTH):
            level = {int(self.whole[g]) for x in level for g in self.held(x, u)} - seen - {e}
            if not level:
                break
            seen |= level
        return seen

    def changed(self, f: int, u: int) -> bool:
        """The data shows the part of fact ``f`` outside its container at unit ``u`` (just before or after it)."""
        beside = self.held(int(self.part[f]), u, but=f)
        c = int(self.whole[f])
        return bool(beside) and all(self.inside(int(self.whole[g]), c, u, 0) is False for g in beside)

    def unrecorded_polity(self, e: int, c: int, u: int, win_lo: np.ndarray) -> bool:
        """``e`` is possibly the capital of a container other than ``c`` at ``u`` that no fact then places it in."""
        held = {int(self.whole[g]) for g in self.held(e, u)}
        return any(
            x != c and x not in held and win_lo[x] != NONE and (lo == NONE or lo <= u) and (hi == NONE or u <= hi)
            for x, lo, hi in self.capital_of.get(e, ())
            if lo != NONE or hi != NONE
        )

    def unknown_boundaries(self) -> tuple[np.ndarray, np.ndarray]:
        """Per fact: a dated start (end) of a containment fact not shown to be a change of membership."""
        start = np.zeros(len(self.su), dtype=bool)
        end = np.zeros(len(self.su), dtype=bool)
        for fs in self.of.values():
            for f in fs:
                lo, hi = int(self.su[f]), int(self.eu[f])
                start[f] = lo != NONE and not self.changed(f, lo - 1)
                end[f] = hi != NONE and not self.changed(f, hi + 1)
        return start, end


def regime_reason(rg: Regimes | None, d: Draft) -> str | None:
    """Which rule of the module docstring rejects the draft, or ``None``."""
    if rg is None:
        return None
    timed = [d.ref_fid] if d.ref_fid >= 0 else []
    if d.kind.is_time or d.kind in (AnswerKind.DURATION, AnswerKind.YES_NO):
        timed.append(d.hops[-1].fid)  # its start or end is asked (or bounds the answer)
    if any(rg.boundary_start[f] or rg.boundary_end[f] for f in timed):
        return "regime boundary"
    if any(rg.parent_start[f] or rg.parent_end[f] for f in timed):
        return "direct parent, not membership"
    for h in d.hops:
        pw = rg.part_and_whole(h)
        if pw is not None and rg.win_lo[pw[0]] != NONE and not rg.win_lo[pw[0]] <= d.t <= rg.win_hi[pw[0]]:
            return "outside the polity's window"
    for a, b in pairwise(d.hops):
        if rg.changes[a.dst] and (rg.role[a.rel] is None) != (rg.role[b.rel] is None):
            return "identity across regimes"
    described = d.hops if d.kind.is_entity else d.hops[:-1]  # a final hop's container is else named, not described
    answers = d.answers if d.kind.is_entity else ()
    unnamed = next((why for h in described if (why := rg.unnamed_level(h)) is not None), None)
    if unnamed is not None:
        return unnamed
    if d.t != NONE and any(_other_level(rg, h, d.t, answers) for h in described):
        return "level named ambiguously"
    if d.kind.is_entity and d.t != NONE:
        for h in d.hops:
            pw = rg.part_and_whole(h)
            if pw is not None and h.dst == pw[1] and rg.parents.unrecorded_polity(pw[0], pw[1], d.t, rg.win_lo):
                return "capital outside its polity"
    if rg.divided is not None and rg.divided.read(d, timed):
        return "divided entity"
    return None


@dataclass(frozen=True)
class _Divided:
    """The ``divided entity`` rule's inputs: entity -> its declared span (first, last unit); the index's facts."""

    spans: dict[int, tuple[int, int]]
    table: np.ndarray  # the index's per-fact table
    symmetric: list[bool]  # relation -> symmetric (a twinning is either side's own fact)

    def read(self, d: Draft, timed: list[int]) -> bool:
        """A fact of a divided entity, its own (the subject, or a side of a symmetric relation), read in its span.

        The question reads every fact of its gold and its reference fact at its time, and a fact in ``timed`` (its
        time asked, bounding the answer or referred to) at its start and end as well.
        """
        t = self.table
        for f in {*(h.fid for h in d.hops), *d.extra_fids, *timed}:
            s, r, o = int(t[f, Col.S]), int(t[f, Col.R]), int(t[f, Col.O])
            spans = [self.spans[e] for e in ((s, o) if self.symmetric[r] else (s,)) if e in self.spans]
            units = [d.t] + ([int(t[f, Col.SU]), int(t[f, Col.EU])] if f in timed else [])
            if any(lo <= u <= hi for lo, hi in spans for u in units if u != NONE):
                return True
        return False


def _other_level(rg: Regimes, h: Hop, u: int, answers: tuple[int, ...]) -> bool:
    """The hop reaches a container while the data places its part at ``u`` in another container of the same words.

    Another container of the hop's relation (something lies in it by a fact of it) holding the container's role
    under it (:attr:`Regimes.levels`); an answer of the question is no other reading.
    """
    pw = rg.part_and_whole(h)
    if pw is None or h.dst != pw[1]:
        return False
    levels = rg.levels.get(h.rel, {})
    own = levels.get(pw[1])
    others = rg.parents.above(pw[0], u) - {pw[1], *answers}
    return own is not None and any(levels.get(x) == own for x in others)
