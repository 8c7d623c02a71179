"""Implausible dates, detected from the data itself (no hand lists of bad years).

A fact is *implausible* for one of these reasons (checked in this order; the first that applies is
recorded):

* ``event_over_years``: an event relation with a start and an end in different years (an award or a
  birth read as valid over a multi-year span).
* ``open_end_too_long``: under the ``ongoing`` open-end reading, a state with a start and no end that
  would still hold at ``as_of`` after more than its relation's plausible duration (phrase-table field
  ``max_years``, else the table's ``default_max_years``): Wikidata12k's "position held since AD 25".
* ``before_birth`` / ``after_death``: the fact starts before the birth year or after the death year of
  one of its entities, where the graph dates them (relations with ``role = "birth"`` / ``"death"``).
* ``century_outlier``: a date of the fact lies more than :data:`CENTURY_GAP` years from the median year
  of the *other* facts of each of its entities that has at least three other dated facts ("In 427, who
  owned Green Bay Packers?"); an entity with a long history (Rome) keeps its old facts, because the
  other endpoint's facts date them. An entity with only one or two other dated facts gives a verdict only
  on a year before :data:`EARLY` (AD 1-999) that lies more than :data:`CENTURY_GAP` years from all of them;
  where no other fact dates either entity, such an early year is judged against the median year of the
  relation's facts (YAGO11k's "Sho Sakurai created Believe" in AD 100).

Implausible facts are never gold, anchors, references or negatives; they still count against answer
uniqueness (conservative), stay in the corpus, and are counted by reason and listed in the manifest.
Facts already valid nowhere (reversed, non-year dates) are not re-examined.
"""

from __future__ import annotations

import bisect
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence

from chronoqa.generate.kg.phrases import RelationPhrases
from chronoqa.records import Fact
from chronoqa.time import TimePoint

__all__ = ["CENTURY_GAP", "EARLY", "REASONS", "implausible_facts"]

CENTURY_GAP = 300
EARLY = 1000  # years before this are judged against one or two other facts too
REASONS = ("event_over_years", "open_end_too_long", "before_birth", "after_death", "century_outlier")


def _years(f: Fact) -> list[int]:
    return [p.year for p in (f.start, f.end) if p is not None]


def implausible_facts(
    facts: Sequence[Fact],
    phrases: Mapping[str, RelationPhrases],
    ignored: Sequence[bool],
    as_of: TimePoint,
    open_end: str,
    default_max_years: int,
) -> dict[int, str]:
    """Fact position → reason (one of :data:`REASONS`) for every implausible fact (see the module docstring)."""
    births: dict[str, int] = {}
    deaths: dict[str, int] = {}
    per_entity: dict[str, list[int]] = defaultdict(list)  # entity -> sorted representative years
    per_relation: dict[str, list[int]] = defaultdict(list)
    for i, f in enumerate(facts):
        if ignored[i]:
            continue
        ys = _years(f)
        if not ys:
            continue
        role = phrases[f.r].role
        if role == "birth" and f.start is not None:
            births[f.s] = min(births.get(f.s, f.start.year), f.start.year)
        elif role == "death" and f.start is not None:
            deaths[f.s] = max(deaths.get(f.s, f.start.year), f.start.year)
        rep = ys[0]
        per_relation[f.r].append(rep)
        per_entity[f.s].append(rep)
        if f.o != f.s:
            per_entity[f.o].append(rep)
    for ys in per_entity.values():
        ys.sort()
    rel_median = {r: statistics.median(ys) for r, ys in per_relation.items()}

    def off(e: str, own: int, ys: list[int]) -> bool | None:
        """True/False: the fact's years are far from / near e's other facts; None: e has too few to tell."""
        lst = per_entity.get(e, [])
        n = len(lst) - 1
        if n < 1:
            return None
        i = bisect.bisect_left(lst, own)  # the fact's own entry, removed from the list

        def kth(j: int) -> int:
            return lst[j] if j < i else lst[j + 1]

        if n < 3:  # too few for a median: only an early year (AD 1-999) far from every other fact counts
            if min(ys) >= EARLY:
                return None
            return all(abs(y - kth(j)) > CENTURY_GAP for y in ys for j in range(n))
        k = n // 2
        med = kth(k) if n % 2 else (kth(k - 1) + kth(k)) / 2
        return any(abs(y - med) > CENTURY_GAP for y in ys)

    out: dict[int, str] = {}
    for i, f in enumerate(facts):
        if ignored[i]:
            continue
        p = phrases[f.r]
        if p.is_event and f.start is not None and f.end is not None and f.end.year > f.start.year:
            out[i] = "event_over_years"
            continue
        if not p.is_event and open_end == "ongoing" and f.start is not None and f.end is None:
            limit = p.max_years if p.max_years is not None else default_max_years
            if as_of.year - f.start.year > limit:
                out[i] = "open_end_too_long"
                continue
        if p.role is None and f.start is not None:
            y = f.start.year
            ents = (f.s, f.o)
            if any(e in births and y < births[e] for e in ents):
                out[i] = "before_birth"
                continue
            if any(e in deaths and y > deaths[e] for e in ents):
                out[i] = "after_death"
                continue
        ys = _years(f)
        if ys:
            verdicts = [v for v in (off(f.s, ys[0], ys), off(f.o, ys[0], ys) if f.o != f.s else None) if v is not None]
            if verdicts and all(verdicts):
                out[i] = "century_outlier"
            elif not verdicts and min(ys) < EARLY and abs(min(ys) - rel_median[f.r]) > CENTURY_GAP:
                out[i] = "century_outlier"  # no other fact dates the entities: the relation's own years do
    return out
