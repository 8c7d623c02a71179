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

The same holds for a spell of a relation declared ``squads`` whose end is a move within one club
(:func:`squad_moves`: José Fonte's Sporting CP youth spell to 2002, then Sporting CP B): no question reads its end,
its length or its holding on. Rule name: ``end of a move within a club``.

The same holds for a loan of a relation declared ``one_spell_per_object`` (the source keeps one fact per subject,
relation and object, so a permanent spell after a loan at the same club, or a return, is lost: YAGO11k's Richard Keogh
at Carlisle United 2007-2008 inside his Bristol City spell 2005-2008, then at Carlisle 2008-2010 in the world). A loan
(:func:`loans`) is a closed spell lying within another closed spell of the subject and relation, both of the relation's
own wording (clubs within clubs; a national or youth national side, a declared role, is never a loan): its recorded end
need not be the day the subject left, so no question reads its end, its length or its holding on; its start stays
usable. Rule name: ``end of a loan``.

A fact of a relation declaring ``date_convention`` (Wikidata dates a nomination by the work's year, and lists a
nominee's nominations in part) is dated by a convention: its date is not asked ("What year was X nominated for
Y?"), nor compared or paired with a fact of another relation (same year, before, after, when, counted from); two
facts of the relation compare under one convention. Rule name: ``date by convention``.

A fact the table declares ``year_uncertain`` (an award presented at a ceremony early in the year after the work it
honours: Wikidata dates some such facts by the work's year, Katharine Hepburn's Best Actress 1981 for On Golden Pond,
and others by the ceremony's, Dustin Hoffman's Best Actor 1980 for Kramer vs. Kramer) is a year early or right, and
nothing tells which: it is never used for its year, not asked, not a hop, not a reference or anchor, not compared with
any fact (its own award's included: the two conventions mix within one award). Rule name: ``year uncertain by one``.

A question that orders a state timeline (the asked subject's spells of the asked relation, of one role: a sequence
"next" or "last", a relative or before/after question whose reference fact is in that timeline) is not asked where
the reference's or the answer's spell is nested with another spell of it (one starts strictly inside the other, by
units: a loan or a dual registration within a spell; Ognjen Vranješ at Crvena zvezda 2009-2011 and at Sheriff in
2010): "next after Crvena zvezda", "two years before joining FC Metz" then read two timelines. Rule name:
``nested spell ordered`` (:func:`nested_reason`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

import numpy as np

from chronoqa.generate.kg.index import NONE, Col, GraphIndex
from chronoqa.generate.kg.operators import REGISTRY
from chronoqa.generate.kg.operators.chains import Draft

__all__ = [
    "CONVENTION",
    "INTERRUPTED",
    "LOAN_END",
    "NESTED",
    "OPEN_END",
    "ORDERING",
    "RULE",
    "SQUAD_MOVE",
    "YEAR_UNCERTAIN",
    "loans",
    "nested_reason",
    "squad_moves",
    "tenure_reason",
]

RULE = "end of a per-term spell"
INTERRUPTED = "interrupted spell"
OPEN_END = "end of an open fact"
SQUAD_MOVE = "end of a move within a club"
LOAN_END = "end of a loan"
CONVENTION = "date by convention"
YEAR_UNCERTAIN = "year uncertain by one"
NESTED = "nested spell ordered"
ORDERING = ("sequence", "relative", "before_after")  # operators whose question orders facts of one timeline
WHOLE_SPELL = ("duration", "yes_no")  # operators whose question reads the asked spell whole (its length, "still")


def tenure_reason(idx: GraphIndex, d: Draft) -> str | None:
    """Why the draft reads a spell's end the data does not make one in the world, or ``None``.

    :data:`OPEN_END` when it rests on an end the data does not record (or declares unknown) or reads such a
    declared spell whole, :data:`RULE` when it rests on a recorded end that is not a tenure's end,
    :data:`INTERRUPTED` when it reads an interrupted spell's end or the spell whole, :data:`SQUAD_MOVE` /
    :data:`LOAN_END` when it reads the end of a move within a club or of a loan, or that spell whole;
    :data:`YEAR_UNCERTAIN` / :data:`CONVENTION` when it rests on a date set by a convention
    (:func:`_convention_reason`).
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
    if any(f in idx.squad_moves for f in [*ends, *whole]):
        return SQUAD_MOVE
    if any(f in idx.loans for f in [*ends, *whole]):
        return LOAN_END
    return _convention_reason(idx, d)


def _convention_reason(idx: GraphIndex, d: Draft) -> str | None:
    """Why the draft rests on a date set by a convention of the source, or ``None``.

    :data:`YEAR_UNCERTAIN` where any of its facts (a hop, a further answer, the reference) is declared
    ``year_uncertain``: every fact of a draft is read at its date. :data:`CONVENTION` where it asks or pairs across
    relations the date of a ``date_convention`` fact.
    """
    if not d.hops:
        return None
    if idx.year_uncertain and not idx.year_uncertain.isdisjoint((*(h.fid for h in d.hops), *d.extra_fids, d.ref_fid)):
        return YEAR_UNCERTAIN
    rels = {int(idx.table[f, Col.R]) for f in (d.hops[-1].fid, d.ref_fid) if f >= 0}
    if rels & idx.convention_rels and (d.ref_fid < 0 or len(rels) > 1):
        return CONVENTION
    return None


def nested_reason(idx: GraphIndex, d: Draft, roles: Mapping[int, Mapping[int, str]]) -> str | None:
    """:data:`NESTED` where the draft orders a state timeline over a spell nested with another (module docstring).

    The timeline is the asked subject's facts of the asked relation (the final hop's group, of the answer's role:
    ``roles``, national teams beside clubs); it is ordered by a sequence question (the reference and the answer,
    or "last"'s answer alone) and by a relative or before/after question whose reference fact is in it.
    """
    if d.operator not in ORDERING or not d.hops or idx.rel_event[d.hops[-1].rel]:
        return None
    last = d.hops[-1]
    group = idx.group(last.src, last.rel, last.forward)
    by_fid = {x[Col.FID]: x for x in group}
    asked = [by_fid[f] for f in (last.fid, d.ref_fid) if f in by_fid]
    if d.operator != "sequence" and len(asked) < 2:
        return None  # the reference is of another timeline (or none): no order over this one
    role = roles.get(last.rel, {}) if last.forward else {}
    for f in asked:
        same = [x for x in group if x[Col.OTHER] != f[Col.OTHER] and role.get(x[Col.OTHER]) == role.get(f[Col.OTHER])]
        if any(_starts_inside(f, x) or _starts_inside(x, f) for x in same):
            return NESTED
    return None


def _starts_inside(a: Sequence[int], b: Sequence[int]) -> bool:
    """``b`` starts strictly inside ``a``'s spell (after its start unit, before its end unit; both recorded)."""
    return NONE not in (a[Col.ASU], a[Col.AEU], b[Col.ASU]) and a[Col.ASU] < b[Col.ASU] < a[Col.AEU]


def _words(label: str) -> tuple[str, ...]:
    return tuple(" ".join(label.replace("_", " ").split()).casefold().split())


def squad_moves(idx: GraphIndex, labels: Sequence[str], relations: Collection[int]) -> frozenset[int]:
    """The spells of ``relations`` (declared ``squads``) whose end is a move within one club.

    The subject's spell at the same club's other team starts in the end unit or the next; the other team's label
    is this one's plus one marker word, or this one's less it ("Sporting Clube de Portugal" and "Sporting Clube de
    Portugal B"). A marker is read from the data: a word that extends the labels of two of the relation's objects
    ("B", "II", "Academy"), or a single letter ("FC Barcelona C"); "Córdoba" and "Córdoba CF" are two clubs.
    """
    t, out = idx.table, set()
    for r in relations:
        fids = np.flatnonzero((t[:, Col.R] == r) & ~idx.ignored_mask).tolist()
        words = {o: _words(labels[o]) for o in {int(t[f, Col.O]) for f in fids}}
        named = set(words.values())
        ext = Counter(w[-1] for w in named if len(w) > 1 and w[:-1] in named)
        markers = {m for m, n in ext.items() if n >= 2 or (len(m) == 1 and m.isalpha())}
        spells: dict[int, list[int]] = {}
        for f in fids:
            spells.setdefault(int(t[f, Col.S]), []).append(f)
        for f in fids:
            end, a = int(t[f, Col.EU]), words[int(t[f, Col.O])]
            for g in spells[int(t[f, Col.S])] if end != NONE else ():
                short, long = sorted((a, words[int(t[g, Col.O])]), key=len)
                within = len(long) == len(short) + 1 and long[:-1] == short and long[-1] in markers
                if within and t[g, Col.SU] != NONE and end <= int(t[g, Col.SU]) <= end + 1:
                    out.add(f)
    return frozenset(out)


def loans(idx: GraphIndex, relations: Collection[int], roles: Mapping[int, Mapping[int, str]]) -> frozenset[int]:
    """The loans of ``relations`` (declared ``one_spell_per_object``): spells lying within another of the subject.

    A kept spell with both ends recorded lies within another such spell (not itself) of the same subject and
    relation, both of the relation's own wording (``roles``: relation -> object -> role key; an object of a declared
    role, a national or a youth national side, is no club and its spell no loan: an under-17 spell inside an
    under-19 one is two age groups), that starts in its start unit or earlier and ends in its end unit or later.
    Every pair of one (subject, relation) group is compared at once, in NumPy.
    """
    t = idx.table
    fids = np.flatnonzero(
        np.isin(t[:, Col.R], list(relations)) & ~idx.ignored_mask & (t[:, Col.SU] != NONE) & (t[:, Col.EU] != NONE)
    )
    if not len(fids):
        return frozenset()
    pairs, back = np.unique(t[fids][:, [Col.R, Col.O]], axis=0, return_inverse=True)
    own = np.array([o not in roles.get(r, {}) for r, o in pairs.tolist()], dtype=bool)  # each (relation, object) once
    fids = fids[own[back.reshape(-1)]]
    if not len(fids):
        return frozenset()
    rows = t[fids]
    order = np.lexsort((rows[:, Col.R], rows[:, Col.S]))  # one (subject, relation) group a run
    key = np.stack([rows[order, Col.S], rows[order, Col.R]], axis=1)
    first = np.flatnonzero(np.concatenate(([True], (key[1:] != key[:-1]).any(axis=1))))
    size = np.diff(np.append(first, len(order)))
    per = np.repeat(size, size)  # each sorted spell's group size, and the group's first position
    start = np.repeat(first, size)
    inner = np.repeat(np.arange(len(order)), per)  # every (inner, outer) pair of one group
    outer = np.repeat(start, per) + (np.arange(len(inner)) - np.repeat(np.cumsum(per) - per, per))
    a, b = rows[order[inner]], rows[order[outer]]
    within = (inner != outer) & (b[:, Col.SU] <= a[:, Col.SU]) & (b[:, Col.EU] >= a[:, Col.EU])
    return frozenset(fids[order[inner[within]]].tolist())
