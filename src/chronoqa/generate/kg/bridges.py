"""Bridges and hubs: the intermediate entities of a multi-hop question must be one entity in the world.

A multi-hop question names an intermediate entity (a *bridge*) by one hop from the entity before it: "the team
X played for in 1995", "the spouse of X". The graph's uniqueness of that hop is not the world's: a graph is
incomplete, and a player listed with one team in 1995 may have played for three that year. The rules, from
the phrase table's ``[bridges]`` declarations (:func:`chronoqa.generate.kg.phrases.parse_bridges`) and the data:

* ``bridge not one in the world``: a bridge hop's (relation, direction) must be declared, ``lifelong`` (one
  value over the entity's existence: where a person was born) or ``at a time`` (one value at each time point:
  one spouse, one head of government, one country of a place). An undeclared direction (the team of a player,
  the institution where one studied, a residence, a chess title: many-valued or open-class in the world) is
  never a bridge.
* ``bridge changes within the unit``: an ``at a time`` bridge is read at the question's time ``t``, and the
  graph's one value is believed only where it held over the whole unit: its fact has a recorded start unit
  before ``t`` and a recorded end unit after it (no change of value inside ``t``, no open end). A question that
  shows no time (the static prefix of interval, sequence, duration, Allen: "When did the spouse of X die?")
  *pins* each ``at a time`` bridge instead: its words state a unit drawn (with the cell's seeded RNG) strictly
  inside the bridge fact's recorded span, other than the question's own ``t`` ("the spouse of X as of 1995",
  :func:`pin_bridges`), and the logical form records it (``at`` of the path step). A bridge whose fact has no
  such unit cannot be pinned (``time-free bridge``): named without a time it is ambiguous for everyone who had
  several values.
* ``value changes near the unit``: a value of an ``at a time`` direction read at the question's time ``t`` (a
  bridge, or the answer of a question whose answer is read at ``t``: point-in-time, before/after, relative, two
  facts, present state) is not asked where the data dates a change of that value within one unit of ``t``:
  another fact of the same entity, relation and direction starts or ends in ``t - 1``, ``t`` or ``t + 1``.
  Several values held during ``t``, or the dating of the change is a year off in a turbulent time ("in 1918, in
  which administrative unit was Kyiv located?": the Soviets, the People's Republic and the Hetmanate within the
  year; Brunswick's country in 1918, the German Empire to November). The value's own start or end in ``t`` alone
  is no change between two values (none before it, or none after) and is left to the rules above; but where that
  start (end) borders a gap of a unit or more before (after) another spell of the group, the graph lacks the value
  of the gap, which may have begun (ended) in ``t`` too: at ``t`` it is not asked either, for a bridge read at
  ``t`` and for every answer read at ``t`` (an answer hop is ``one`` at a time, declared a bridge or not). "Which
  team did Mertens play for three years before he joined FC Utrecht (2009)?" → KAA Gent (2005-2006): he joined
  AGOVV Apeldoorn, missing from the graph, in 2006.
* ``hub entity``: no bridge and no entity answer of a multi-hop question is a hub, one of the
  :data:`HUB_SHARE` of the graph's entities with the most facts (ties included; never one with fewer than
  :data:`HUB_MIN` facts): a country, a class, a metropolis. "Which country was the capital of the
  administrative unit X was in part of?" answered by the Soviet Union is guessed from the prior, not resolved,
  and "the administrative unit the Russian SFSR was in" names a polity, not a place a reader can follow.
* ``relation followed back``: a bridge reached over a relation is not followed over the same relation back to
  another holder: a symmetric relation twice ("in 1984, the spouse of Cindy Williams was married to Goldie Hawn?":
  the spouse of a spouse), or one direction then the other ("Alfons Goppel was the head of government of the place
  whose government Franz Josef Strauß headed": Bavaria named by another of its heads). A co-holder reads as a
  trick, not a question anyone asks.
* ``bridge described by its own name``: a bridge is not described by an entity whose label holds the bridge's label
  as a whole word sequence, or the other way round ("the capital of Moscow Governorate" for Moscow: the description
  spells the name it stands for, a riddle). Both are wording rules: they are tested once the draft is worded, so a
  question they drop frees its place without moving the cell's other draws.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from chronoqa.generate.kg.index import NONE, Col, GraphIndex
from chronoqa.generate.kg.operators import REGISTRY
from chronoqa.generate.kg.operators.chains import Draft, Hop, Spans

__all__ = [
    "CHANGE_MARGIN",
    "HUB_MIN",
    "HUB_SHARE",
    "Bridges",
    "answer_change_reason",
    "bridge_reason",
    "bridge_wording_reason",
    "hub_threshold",
    "narrow_pool",
    "narrow_static_into",
    "pin_bridges",
    "shows_no_time",
]

HUB_SHARE = 0.01  # this share of the entities with a valid fact, those with the most facts, are hubs
HUB_MIN = 20  # ... never an entity with fewer facts
_BRACKETS = re.compile(r"\([^()]*\)")  # a disambiguator: "Stephen Maher (footballer)"
CHANGE_MARGIN = 1  # units either side of t in which another fact's start or end makes a value changing near t


def hub_threshold(degrees: np.ndarray) -> int:
    """The number of valid facts that makes an entity a hub, from every entity's count (``0``: no fact)."""
    ds = np.sort(degrees[degrees > 0])[::-1]
    if not len(ds):
        return HUB_MIN
    return max(HUB_MIN, int(ds[max(0, math.ceil(HUB_SHARE * len(ds)) - 1)]))


@dataclass(frozen=True)
class Bridges:
    """Per (relation, forward) its declared bridge reading; per entity whether it is a hub."""

    holds: Mapping[tuple[int, bool], str]  # (relation index, forward) -> "lifelong" | "at a time"
    hub: np.ndarray  # entity -> bool

    @classmethod
    def build(cls, idx: GraphIndex, declared: Mapping[tuple[str, str], str]) -> Bridges:
        """From ``declared`` (graph relation id, side) -> holds; side ``object``: the forward hop."""
        holds = {
            (i, side == "object"): h for i, r in enumerate(idx.rel_names) for side in ("object", "subject")
            if (h := declared.get((r, side))) is not None
        }  # fmt: skip
        t, ok = idx.table, ~idx.ignored_mask
        n = len(idx.ent_names)
        deg = np.bincount(t[ok, Col.S], minlength=n) + np.bincount(
            t[ok & (t[:, Col.S] != t[:, Col.O]), Col.O], minlength=n
        )
        return cls(holds, deg >= hub_threshold(deg))

    def hop_reason(self, idx: GraphIndex, h: Hop, t: int, *, time_free: bool) -> str | None:
        """Why ``h`` cannot name an intermediate entity at unit ``t``.

        ``time_free``: the question shows no time, so an ``at a time`` bridge must be pinnable (a unit other than
        ``t`` strictly inside its fact's span, :meth:`pin_unit`); otherwise it is read at ``t``.
        """
        holds = self.holds.get((h.rel, h.forward))
        if holds is None:
            return "bridge not one in the world"
        if holds == "at a time":
            lo, hi = self.inner_units(idx, h)
            if time_free and _units_besides(lo, hi, t) <= 0:
                return "time-free bridge"
            if not time_free and not lo <= t <= hi:
                return "bridge changes within the unit"
        return "hub entity" if self.hub[h.dst] else None

    def pin_unit(self, idx: GraphIndex, h: Hop, avoid: int, rng: random.Random) -> int | None:
        """A unit strictly inside ``h``'s fact span other than ``avoid``, drawn with ``rng`` (``None``: none)."""
        lo, hi = self.inner_units(idx, h)
        n = _units_besides(lo, hi, avoid)
        if n <= 0:
            return None
        u = lo + rng.randrange(n)
        return u + 1 if lo <= avoid <= u else u

    @staticmethod
    def inner_units(idx: GraphIndex, h: Hop) -> tuple[int, int]:
        """The units strictly between the recorded start and end units of ``h``'s fact (empty: ``lo > hi``)."""
        row = idx.fact_row(h.fid)
        if row[Col.SU] == NONE or row[Col.EU] == NONE:
            return 1, 0
        return row[Col.SU] + 1, row[Col.EU] - 1

    def changes_near(self, idx: GraphIndex, h: Hop, t: int) -> bool:
        """Another fact of ``h``'s group (entity, relation, direction) starts or ends within CHANGE_MARGIN of ``t``."""
        a, b = idx.group_bounds(h.src, h.rel, h.forward)
        grp = idx.rows_array(h.forward, a, b)
        grp = grp[grp[:, Col.FID] != h.fid]
        near = [np.abs(grp[:, c].astype(np.int64) - t) <= CHANGE_MARGIN for c in (Col.ASU, Col.AEU)]
        return bool((near[0] | near[1]).any())

    @staticmethod
    def gap_beside(idx: GraphIndex, h: Hop, t: int) -> bool:
        """``h``'s fact starts (ends) in ``t`` beside a gap in the record of its group (entity, relation, direction).

        No other spell may hold ``t - 1`` (``t + 1``) while another lies further on that side: a value the graph
        lacks may have held in ``t`` too.
        """
        row = idx.fact_row(h.fid)
        a, b = idx.group_bounds(h.src, h.rel, h.forward)
        grp = idx.rows_array(h.forward, a, b)
        grp = grp[grp[:, Col.FID] != h.fid]
        for own, beside, further in (
            (Col.EU, t + 1, grp[:, Col.ASU] > t + 1),
            (Col.SU, t - 1, (grp[:, Col.AEU] != NONE) & (grp[:, Col.AEU] < t - 1)),
        ):
            covered = (grp[:, Col.APLO] <= beside) & (beside <= grp[:, Col.APHI])
            if row[own] == t and further.any() and not covered.any():
                return True
        return False

    def chain_spans(self, idx: GraphIndex, hops: Sequence[Hop], spans: Spans) -> tuple[Spans, str | None]:
        """``spans`` narrowed to the units where every bridge of ``hops`` is allowed, or the rule that removes all."""
        for h in hops[:-1]:
            holds = self.holds.get((h.rel, h.forward))
            if holds is None:
                return spans, "bridge not one in the world"
            if self.hub[h.dst]:
                return spans, "hub entity"
            if holds == "at a time":
                lo, hi = self.inner_units(idx, h)
                spans = [(max(a, lo), min(b, hi)) for a, b in spans if max(a, lo) <= min(b, hi)]
                if not spans:
                    return spans, "bridge changes within the unit"
        return spans, ("hub entity" if self.hub[hops[-1].dst] else None)


def narrow_static_into(
    br: Bridges | None, idx: GraphIndex, static_into: list[list[tuple[Hop, int, int]]]
) -> Counter[str]:
    """Keep in ``static_into`` (in place) the static hops that may name an intermediate entity at some unit.

    The rules that do not depend on the question's time remove a hop for good: an undeclared direction, a hub
    entity, an ``at a time`` fact with no unit strictly inside its recorded span (never pinnable, never read
    whole). The chain search then draws only final facts that a bridge-valid prefix can reach (``static_depths``
    counts over the kept hops). Returns the removed hops by rule.
    """
    removed = Counter[str]()
    if br is None:
        return removed
    for into in static_into:
        kept = []
        for item in into:
            h = item[0]
            holds = br.holds.get((h.rel, h.forward))
            lo, hi = br.inner_units(idx, h)
            why = (
                "bridge not one in the world" if holds is None
                else "hub entity" if br.hub[h.dst]
                else "time-free bridge" if holds == "at a time" and lo > hi
                else None
            )  # fmt: skip
            if why is None:
                kept.append(item)
            else:
                removed[why] += 1
        into[:] = kept
    return removed


def _units_besides(lo: int, hi: int, avoid: int) -> int:
    """How many units of ``[lo, hi]`` are not ``avoid``."""
    return max(0, hi - lo + 1) - (lo <= avoid <= hi)


def shows_no_time(d: Draft) -> bool:
    """The draft's question states no time its bridges could be read at (a static prefix, no rendered time)."""
    return d.static_prefix and not REGISTRY[d.operator].render_time


def pin_bridges(br: Bridges | None, idx: GraphIndex, d: Draft, rng: random.Random) -> Draft:
    """``d`` with each ``at a time`` bridge of a question that shows no time pinned to a unit (module docstring).

    The unit avoids ``d.t`` (an interval's answer, a duration's start: stating it would give it away); a bridge
    with no unit left stays unpinned and :func:`bridge_reason` rejects the draft. ``rng`` is drawn from only
    when there is a bridge to pin.
    """
    if br is None or len(d.hops) < 2 or not shows_no_time(d):
        return d
    pins = [
        br.pin_unit(idx, h, d.t, rng) if br.holds.get((h.rel, h.forward)) == "at a time" else None for h in d.hops[:-1]
    ]
    return dataclasses.replace(d, pins=tuple(pins)) if any(p is not None for p in pins) else d


def bridge_reason(br: Bridges | None, idx: GraphIndex, d: Draft) -> str | None:
    """Which rule of the module docstring rejects the draft, or ``None`` (1-hop drafts have no bridge)."""
    if br is None or len(d.hops) < 2:
        return None
    time_free = shows_no_time(d)
    for i, h in enumerate(d.hops[:-1]):
        pin = d.pins[i] if d.pins else None
        if time_free and pin is None and br.holds.get((h.rel, h.forward)) == "at a time":
            return "time-free bridge"
        why = br.hop_reason(idx, h, d.t if pin is None else pin, time_free=False)
        if why is not None:
            return why
    if not time_free and any(
        br.holds.get((h.rel, h.forward)) == "at a time" and (br.changes_near(idx, h, d.t) or br.gap_beside(idx, h, d.t))
        for h in d.hops[:-1]
    ):
        return "value changes near the unit"
    return "hub entity" if d.kind.is_entity and any(br.hub[a] for a in d.answers) else None


def bridge_wording_reason(idx: GraphIndex, labels: Callable[[str], str], d: Draft) -> str | None:
    """``relation followed back`` or ``bridge described by its own name`` (module docstring), or ``None``.

    ``labels``: entity id -> label. A bridge's description names the anchor only (the bridges before it are
    themselves described), so the anchor's label is the one compared.
    """
    hops = d.hops
    if any(a.rel == b.rel and (idx.rel_symmetric[a.rel] or a.forward != b.forward) for a, b in pairwise(hops)):
        return "relation followed back"
    named = _words(labels(idx.ent_names[d.anchor]))
    for h in hops[:-1]:
        bridge = _words(labels(idx.ent_names[h.dst]))
        if _holds(named, bridge) or _holds(bridge, named):
            return "bridge described by its own name"
    return None


def _words(label: str) -> tuple[str, ...]:
    """A label's words, case-folded, without a disambiguator: "Moscow Governorate" -> (moscow, governorate)."""
    return tuple(re.findall(r"\w+", _BRACKETS.sub(" ", label).casefold()))


def _holds(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    """``inner`` is a whole-word sequence of ``outer``."""
    n = len(inner)
    return 0 < n <= len(outer) and any(outer[i : i + n] == inner for i in range(len(outer) - n + 1))


def answer_change_reason(br: Bridges | None, idx: GraphIndex, d: Draft) -> str | None:
    """``value changes near the unit`` for the answer hop of a draft whose answer is read at ``t``, else ``None``."""
    op = REGISTRY[d.operator]
    if br is None or not op.answer_at_t or (d.static_prefix and not op.render_time):
        return None
    h = d.hops[-1]
    if br.holds.get((h.rel, h.forward)) == "at a time" and br.changes_near(idx, h, d.t):
        return "value changes near the unit"
    if br.gap_beside(idx, h, d.t):  # every answer hop is one at a time: a missing spell may share the boundary
        return "value changes near the unit"
    return None


def narrow_pool(
    br: Bridges | None, idx: GraphIndex, pool: dict[int, list[tuple[tuple[Hop, ...], Spans]]]
) -> dict[int, Counter[str]]:
    """Keep in ``pool`` (in place) the chains of 2+ hops the rules allow at some unit, their spans narrowed to those.

    Returns per chain length the removed chains by rule (the census reports them).
    """
    removed: dict[int, Counter[str]] = {}
    if br is None:
        return removed
    for k, chains in pool.items():
        if k < 2:
            continue
        kept, why_out = [], Counter[str]()
        for hops, spans in chains:
            narrowed, why = br.chain_spans(idx, hops, spans)
            if why is None:
                kept.append((hops, narrowed))
            else:
                why_out[why] += 1
        pool[k] = kept
        removed[k] = why_out
    return removed
