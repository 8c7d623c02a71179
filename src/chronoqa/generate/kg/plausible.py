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

from collections.abc import Mapping, Sequence

import numpy as np

from chronoqa.generate.kg.phrases import RelationPhrases
from chronoqa.records import Fact, FactColumns
from chronoqa.time import TimePoint

__all__ = ["CENTURY_GAP", "EARLY", "REASONS", "implausible_codes", "implausible_facts"]

CENTURY_GAP = 300
EARLY = 1000  # years before this are judged against one or two other facts too
CHUNK = 1 << 20  # facts judged at once (bounds the temporaries on huge graphs)
REASONS = ("event_over_years", "open_end_too_long", "before_birth", "after_death", "century_outlier")


def implausible_facts(
    facts: Sequence[Fact],
    phrases: Mapping[str, RelationPhrases],
    ignored: Sequence[bool] | np.ndarray,
    as_of: TimePoint,
    open_end: str,
    default_max_years: int,
) -> dict[int, str]:
    """Fact position → reason (one of :data:`REASONS`) for every implausible fact (see the module docstring)."""
    codes = implausible_codes(facts, phrases, ignored, as_of, open_end, default_max_years)
    pos = np.flatnonzero(codes >= 0)
    return {p: REASONS[c] for p, c in zip(pos.tolist(), codes[pos].tolist(), strict=True)}


def _group_extreme(n: int, keys: np.ndarray, values: np.ndarray, lowest: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per key ``0..n-1``: whether it has a value, and its smallest (``lowest``) or largest value."""
    has = np.zeros(n, dtype=bool)
    has[keys] = True
    out = np.full(n, np.iinfo(np.int64).max if lowest else np.iinfo(np.int64).min, dtype=np.int64)
    (np.minimum if lowest else np.maximum).at(out, keys, values)
    return has, out


def _sorted_keys(
    n: int, keys: Sequence[np.ndarray], values: Sequence[np.ndarray]
) -> tuple[np.ndarray, int, int, np.ndarray, np.ndarray]:
    """Entries ``(key, value)`` (in parts, not concatenated) sorted by (key, value), as ``key * span + value - low``.

    Returns ``(sorted combined, low, span, first position of each key, count of each key)`` for keys ``0..n-1``;
    :func:`_value_at` reads a value back. The combined array is int32 where it fits (half the memory traffic
    of int64), and it is only sorted (no argsort): the rules need order statistics, not who is where.
    """
    filled = [v for v in values if len(v)]
    low = min(int(v.min()) for v in filled) if filled else 0
    span = max(int(v.max()) for v in filled) - low + 1 if filled else 1
    wide = n * span + abs(low) > np.iinfo(np.int32).max  # bounds every partial sum below
    combined: np.ndarray = np.empty(sum(len(k) for k in keys), dtype=np.int64 if wide else np.int32)
    counts = np.zeros(n, dtype=np.int64)
    at = 0
    for k, v in zip(keys, values, strict=True):
        part: np.ndarray = combined[at : at + len(k)]
        part[:] = k
        part *= span
        part += v
        part -= low
        counts += np.bincount(k, minlength=n)
        at += len(k)
    combined.sort()
    return combined, low, span, np.cumsum(counts) - counts, counts


def _value_at(combined: np.ndarray, low: int, span: int, pos: np.ndarray) -> np.ndarray:
    """The values at sorted positions ``pos`` of a :func:`_sorted_keys` array (clipped into it; int64)."""
    if not len(combined):
        return np.zeros(len(pos), dtype=np.int64)
    picked = combined[np.clip(pos, 0, len(combined) - 1)].astype(np.int64)
    picked %= span
    picked += low
    return picked


def implausible_codes(
    facts: Sequence[Fact],
    phrases: Mapping[str, RelationPhrases],
    ignored: Sequence[bool] | np.ndarray,
    as_of: TimePoint,
    open_end: str,
    default_max_years: int,
) -> np.ndarray:
    """Per fact position, the index in :data:`REASONS` of its reason, or ``-1`` (int8; on columns, no loop per fact).

    ``facts`` is any ``Sequence[Fact]`` (converted once to :class:`~chronoqa.records.FactColumns`); the rules
    are the module docstring's, in its order (the first that applies is recorded).
    """
    cols = FactColumns.from_facts(facts)
    n = len(cols)
    out = np.full(n, -1, dtype=np.int8)
    if not n:
        return out
    live = ~np.asarray(ignored, dtype=bool)
    n_rel, n_ent = len(cols.relations), len(cols.entities)
    is_event = np.zeros(n_rel, dtype=bool)
    role = np.zeros(n_rel, dtype=np.int8)  # 0: none, 1: birth, 2: death, 3: another role
    limit = np.zeros(n_rel, dtype=np.int64)
    for code in np.flatnonzero(np.bincount(cols.r[live], minlength=n_rel)).tolist():
        p = phrases[cols.relations[code]]
        is_event[code] = p.is_event
        role[code] = {None: 0, "birth": 1, "death": 2}.get(p.role, 3)
        limit[code] = p.max_years if p.max_years is not None else default_max_years
    r, s, o = cols.r, cols.s, cols.o
    hs, he = cols.has_start, cols.has_end
    sy, ey = cols.start_year.astype(np.int32, copy=False), cols.end_year.astype(np.int32, copy=False)
    rep = np.where(hs, sy, ey)  # the representative year: the start's, else the end's
    dated = live & (hs | he)
    fact_role = role[r]
    # births and deaths of entities, where the graph dates them
    born = dated & hs & (fact_role == 1)
    has_birth, birth = _group_extreme(n_ent, s[born], sy[born], lowest=True)
    birth[~has_birth] = np.iinfo(np.int64).min  # no year lies before an unknown birth
    died = dated & hs & (fact_role == 2)
    has_death, death = _group_extreme(n_ent, s[died], sy[died], lowest=False)
    death[~has_death] = np.iinfo(np.int64).max  # nor after an unknown death
    del has_birth, has_death
    del born, died, fact_role
    # per relation: twice the median of its representative years (integers, as statistics.median's halves)
    rel_sorted, rel_low, rel_span, rel_first, rel_count = _sorted_keys(n_rel, [r[dated]], [rep[dated]])
    mid = rel_first + np.maximum(rel_count - 1, 0) // 2
    mid_hi = rel_first + rel_count // 2
    rel_med2 = _value_at(rel_sorted, rel_low, rel_span, mid) + _value_at(rel_sorted, rel_low, rel_span, mid_hi)
    del rel_sorted
    # per entity: the representative years of its facts (a self-loop counts once), sorted; entity e's years are
    # L(0) <= ... <= L(count - 1). A fact's own entry is the first of its year (removing any entry of that year
    # leaves the same others), at rank #{years < y}; the j-th of the others is L(j) below that rank, else
    # L(j + 1). So "j < rank" is "L(j) < y", and the rules read only L(0..2) and L(k-1..k+1) around the median
    # index k of the others: per entity values gathered once, one gather per fact (no search per fact).
    other_side = dated & (o != s)
    ent_sorted, ent_low, ent_span, ent_first, ent_count = _sorted_keys(
        n_ent, [s[dated], o[other_side]], [rep[dated], rep[other_side]]
    )
    del other_side, dated

    # L(0..2), for entities with one or two others (rare: kept out of the table)
    head = np.stack([_value_at(ent_sorted, ent_low, ent_span, ent_first + j) for j in (0, 1, 2)])
    k = (ent_count - 1) // 2
    below, at_k, above = (_value_at(ent_sorted, ent_low, ent_span, ent_first + k + j) for j in (-1, 0, 1))
    odd = (ent_count - 1) % 2 == 1
    # twice the others' median, by where the fact's year falls: y <= L(k-1), L(k-1) < y <= L(k), L(k) < y
    table = np.zeros((n_ent, 8), dtype=np.int64)  # count, L(k-1), L(k), med2 (3 cases), unused: one cache line
    table[:, 0] = ent_count
    table[:, 1], table[:, 2] = below, at_k
    table[:, 3] = np.where(odd, 2 * above, at_k + above)
    table[:, 4] = np.where(odd, 2 * above, below + above)
    table[:, 5] = np.where(odd, 2 * at_k, below + at_k)
    del ent_sorted, k, below, at_k, above, odd

    def chunk(a: int, b: int) -> np.ndarray:
        """The reason codes of facts ``a..b-1`` (in chunks, so that temporaries stay small on huge graphs)."""
        rr, ss, oo, h_s, h_e = r[a:b], s[a:b], o[a:b], hs[a:b], he[a:b]
        y_s, y_e, y_rep = sy[a:b].astype(np.int64), ey[a:b].astype(np.int64), rep[a:b].astype(np.int64)
        two_years = h_s & h_e
        min_year = np.where(two_years, np.minimum(y_s, y_e), y_rep)
        ev, fact_role = is_event[rr], role[rr]

        def verdict(e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """``(has a verdict, the fact's years are far from e's other facts)`` per fact, for entity column ``e``.

            Where there is no verdict the second array is arbitrary.
            """
            row = np.take(table, e, axis=0)  # (np.take: a third of table[e]'s time on 10M rows)
            others = row[:, 0] - 1
            # three or more: the median of the others (doubled, to stay in integers)
            med2 = np.where(y_rep > row[:, 2], row[:, 5], np.where(y_rep > row[:, 1], row[:, 4], row[:, 3]))
            far = np.abs(2 * y_rep - med2) > 2 * CENTURY_GAP
            far |= two_years & (np.abs(2 * y_e - med2) > 2 * CENTURY_GAP)
            judged = others >= 3
            # one or two other facts: only an early year far from every one of them counts
            few = np.flatnonzero((others >= 1) & (others < 3) & (min_year < EARLY))
            if len(few):
                y, y2, two, n_others, ee = y_rep[few], y_e[few], two_years[few], others[few], e[few]
                l0, l1, l2 = head[0, ee], head[1, ee], head[2, ee]
                first, second = np.where(y > l0, l0, l1), np.where(y > l1, l1, l2)
                all_far = (np.abs(y - first) > CENTURY_GAP) & (~two | (np.abs(y2 - first) > CENTURY_GAP))
                all_far &= (n_others < 2) | (
                    (np.abs(y - second) > CENTURY_GAP) & (~two | (np.abs(y2 - second) > CENTURY_GAP))
                )
                far[few] = all_far
                judged[few] = True
            return judged, far

        has_s, far_s = verdict(ss)
        has_o, far_o = verdict(oo)
        has_o &= oo != ss
        any_verdict = has_s | has_o
        all_far = (~has_s | far_s) & (~has_o | far_o)
        early_off = (min_year < EARLY) & (np.abs(2 * min_year - rel_med2[rr]) > 2 * CENTURY_GAP)
        reasons = (
            ev & h_s & h_e & (y_e > y_s),
            ~ev & h_s & ~h_e & (open_end == "ongoing") & (as_of.year - y_s > limit[rr]),
            (fact_role == 0) & h_s & ((y_s < np.take(birth, ss)) | (y_s < np.take(birth, oo))),
            (fact_role == 0) & h_s & ((y_s > np.take(death, ss)) | (y_s > np.take(death, oo))),
            (h_s | h_e) & ((any_verdict & all_far) | (~any_verdict & early_off)),
        )
        got = np.full(b - a, -1, dtype=np.int8)
        for code in range(len(reasons) - 1, -1, -1):  # the first reason that applies wins
            got[live[a:b] & reasons[code]] = code
        return got

    for a in range(0, n, CHUNK):
        out[a : a + CHUNK] = chunk(a, min(n, a + CHUNK))
    return out
