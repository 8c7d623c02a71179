"""The identities a refresh matches by: a question's canonical key, a fact's key across snapshots, the new corpus."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from chronoqa.records import Doc, Question, Triple

__all__ = [
    "FIRST_VERSION", "NEW_DRIFT", "Docs", "FactKey", "Grounding", "fact_diff", "fact_key",
    "next_version", "question_key", "show_fact",
]  # fmt: skip

#: The version of a release that records none (every release before ``refresh`` existed).
FIRST_VERSION = "1.0.0"
#: Why a question is new: it uses a fact the old data did not have (drift; one the new build drew anew from facts
#: both snapshots hold is sampling, and left out).
NEW_DRIFT = "uses a fact the newer data added or re-dated"
FactKey = tuple[str, str, str, str | None, str | None]


def question_key(q: Question) -> str:
    """The canonical key of a question: source, operator, template and logical form (its SQL when it has none)."""
    body: dict[str, Any] = {"source": q.source, "operator": q.operator, "template": q.template_id}
    body["form"] = dict(q.logical_form) if q.logical_form else {"sql": q.sql, "t_query": q.t_query}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def next_version(old: str, counts: Mapping[str, int]) -> str:
    """The release version after a refresh.

    A gold change or a retirement makes a new major version, only new questions a new minor one, nothing the same.
    """
    major, minor, patch = (int(x) for x in old.split("."))
    if counts.get("gold_changed") or counts.get("retired"):
        return f"{major + 1}.0.0"
    if counts.get("new"):
        return f"{major}.{minor + 1}.0"
    return f"{major}.{minor}.{patch}"


def fact_key(t: Triple | Doc) -> FactKey:
    """A fact's identity across snapshots: its ids and dates (never its doc id, which follows its source line)."""
    return (t.s_id, t.r_id, t.o_id, t.t_start, t.t_end)


def show_fact(t: Triple) -> str:
    """A fact as CHANGES.md shows it: ``s | r | o | start..end``."""
    return f"{t.s} | {t.r} | {t.o} | {t.t_start or '?'}..{t.t_end or ''}"


@dataclass(frozen=True)
class Grounding:
    """An old question re-grounded on the newer data: its new record, or why it is retired."""

    question: Question | None
    reason: str = ""
    regrounded: bool = True


def fact_diff(old: Sequence[Triple], new: Sequence[Triple]) -> tuple[list[str], list[str], list[str]]:
    """``S*`` facts added, removed and re-dated (same ids, other dates) from ``old`` to ``new``."""
    old_k, new_k = {fact_key(t): t for t in old}, {fact_key(t): t for t in new}
    gone = [t for k, t in old_k.items() if k not in new_k]
    came = [t for k, t in new_k.items() if k not in old_k]
    came_ids = {k[:3]: t for t in came for k in [fact_key(t)]}
    redated = [f"{show_fact(t)} -> {came_ids[fact_key(t)[:3]].t_start or '?'}..{came_ids[fact_key(t)[:3]].t_end or ''}"
               for t in gone if fact_key(t)[:3] in came_ids]  # fmt: skip
    moved = {fact_key(t)[:3] for t in gone} & set(came_ids)
    removed = [show_fact(t) for t in gone if fact_key(t)[:3] not in moved]
    added = [show_fact(t) for t in came if fact_key(t)[:3] not in moved]
    return added, removed, redated


class Docs:
    """The new corpus by fact identity: remaps an old question's facts to the new documents (ids follow lines)."""

    def __init__(self, docs: Iterable[Doc]) -> None:
        self.by_key: dict[FactKey, Doc] = {fact_key(d): d for d in docs}
        self.spells: dict[tuple[str, str, str], list[Doc]] = {}  # the newer data's spells of each fact, by ids
        for d in self.by_key.values():
            self.spells.setdefault(fact_key(d)[:3], []).append(d)

    def triple(self, t: Triple) -> Triple | None:
        """``t`` with the new document's id and fact id (``None``: the fact is not in the newer data)."""
        d = self.by_key.get(fact_key(t))
        return None if d is None else replace(t, doc_id=d.doc_id, fact_id=d.fact_id)

    def as_held(self, ts: Sequence[Triple]) -> list[Triple]:
        """``ts`` as the newer data holds them: each fact itself, else its spells (the one starting when it did).

        :func:`fact_diff` against them lists as removed only what the newer data dropped.
        """
        out: list[Triple] = []
        for t in ts:
            d = self.by_key.get(fact_key(t))
            spells = [d] if d is not None else self.spells.get(fact_key(t)[:3], [])
            same_start = [s for s in spells if s.t_start == t.t_start]
            out += [replace(t, t_start=s.t_start, t_end=s.t_end) for s in same_start or spells]
        return out

    def remap(self, q: Question) -> Question:
        """``q`` with every fact moved to the new documents (negatives no longer in the data dropped)."""

        def moved(ts: Sequence[Triple]) -> tuple[Triple, ...]:
            return tuple(x for x in (self.triple(t) for t in ts) if x is not None)

        return replace(q, S_star=moved(q.S_star), S_dist=moved(q.S_dist), S_stale=moved(q.S_stale),
                       S_anchor=moved(q.S_anchor))  # fmt: skip
