"""Retrieval-evidence metrics: TempBench's TRP, CCR and coverage, plus negative-aware measures.

Definitions (exactly TempBench's; see ``docs/metrics.md``):

* A triple's identity is ``(s, r, o, t_start, t_end)`` with both times normalised by
  :func:`chronoqa.time.parse_time` (``1994.0``, ``1994`` and ``"1994"`` are the same time).
  Retrieved triples are de-duplicated by identity (first occurrence kept) before scoring, so a
  system cannot raise its precision by repeating a gold triple.
* A triple is *time-valid* when it holds at ``t_query``: :func:`chronoqa.time.valid_at` at the
  question's granularity (year when unknown), open ends closed at the question's ``as_of``, in mode
  ``"certain"`` by default (the fact holds at every unit of ``t_query``; an unknown start never
  does). A question without ``t_query`` has no time condition: S* membership alone decides.
* **TRP** of a question = |retrieved ∩ time-valid S*| / |retrieved|; undefined (``None``) when
  nothing was retrieved. TRP_macro averages it over the questions that retrieved anything.
* **CCR** of a question = 1 when every S* triple was retrieved and every S* triple is time-valid,
  else 0 (an empty S* scores 0). Averaged over all questions, empty retrievals included.
* **coverage** = fraction of questions with a non-empty retrieval.
* **stale hit** / **distractor hit**: a retrieved triple is in S_stale (resp. S_dist) and neither in
  S* nor in S_anchor (an anchor fact is evidence the question needs, also when it is one of the
  subject's other spells). Defined only for questions that have such a negative and, when functional
  flags are known, whose negative is functional (the seed README's trap: non-functional negatives equal
  the gold).
* **wrong-reason**: a stale or distractor hit while the gold chain was not retrieved (CCR 0): the
  questions a system could answer right for the wrong reason. Defined on questions where a hit is
  defined.

Nothing here truncates the retrieval: the caller truncates to its own ``k``. This module holds the
definitions, a triple's identity and time validity; the one scorer of whole runs and of single questions is
:func:`chronoqa.score.fast.score_run` (:mod:`chronoqa.score.tempbench` scores one question through it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from chronoqa.artifacts.runs import RunHit
from chronoqa.errors import ChronoqaError
from chronoqa.records import Question, Triple
from chronoqa.time import Granularity, Interval, TimePoint, ValidityMode, parse_time, valid_at

__all__ = ["EvidenceRow", "TripleKey", "has_time_valid_chain", "norm_time", "time_valid", "triple_key"]

TripleKey = tuple[str, str, str, str | None, str | None]


@lru_cache(maxsize=1 << 16, typed=True)
def norm_time(value: Any) -> str | None:
    """A time value in its canonical ISO form (``1994.0`` → ``"1994"``); ``None`` for unknown.

    Pure and memoised (the cache holds no semantics, only speed).
    """
    p = parse_time(value)
    return None if p is None else p.isoformat()


def triple_key(item: Any) -> TripleKey:
    """Identity of a triple given as a :class:`Triple`, a dict with s/r/o/t_start/t_end, or a 5-tuple."""
    cls = type(item)
    if cls is dict and "s" in item and "r" in item and "o" in item:  # fast path: JSON hits and TempBench dicts
        g = item.get
        return (str(g("s")), str(g("r")), str(g("o")), norm_time(g("t_start")), norm_time(g("t_end")))
    if cls is RunHit:
        return (item.s, item.r, item.o, norm_time(item.t_start), norm_time(item.t_end))
    if cls is tuple and len(item) == 5:
        return (str(item[0]), str(item[1]), str(item[2]), norm_time(item[3]), norm_time(item[4]))
    if isinstance(item, Triple):
        return (item.s, item.r, item.o, norm_time(item.t_start), norm_time(item.t_end))
    if isinstance(item, Mapping):
        try:
            s, r, o = item["s"], item["r"], item["o"]
        except KeyError as exc:
            raise ChronoqaError(
                f"retrieved triple {dict(item)!r} has no {exc.args[0]!r}: expected keys s, r, o, t_start, t_end"
            ) from None
        return (str(s), str(r), str(o), norm_time(item.get("t_start")), norm_time(item.get("t_end")))
    if isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 5:
        s, r, o, ts, te = item
        return (str(s), str(r), str(o), norm_time(ts), norm_time(te))
    raise ChronoqaError(
        f"retrieved item {item!r} is not a triple: expected a dict with s/r/o/t_start/t_end or a 5-tuple "
        "(s, r, o, t_start, t_end)"
    )


@lru_cache(maxsize=1 << 16)
def time_valid(
    t_start: str | None,
    t_end: str | None,
    t_query: str,
    granularity: Granularity,
    as_of: str | None,
    mode: ValidityMode,
) -> bool:
    """Whether a triple with these (normalised) times holds at ``t_query`` (memoised :func:`valid_at`)."""
    tq = parse_time(t_query)
    if tq is None:
        return True
    iv = Interval(parse_time(t_start), parse_time(t_end))
    ao: TimePoint | None = parse_time(as_of) if as_of is not None else None
    return valid_at(iv, tq, granularity, as_of=ao, mode=mode)


class EvidenceRow(NamedTuple):
    """Per-question evidence scores. ``TRP`` is ``None`` when nothing was retrieved; hits ``None`` when undefined."""

    id: str
    complexity: str
    operator: str
    n_retrieved: int
    n_gold: int
    n_valid_hits: int
    TRP: float | None
    CCR: float
    stale_hit: bool | None
    dist_hit: bool | None
    wrong_reason: bool | None

    def to_dict(self) -> dict[str, Any]:
        """TempBench-style row dict (plus chronoqa's negative-aware fields)."""
        return self._asdict()


def has_time_valid_chain(q: Question) -> bool:
    """Whether ``q`` has evidence that holds at ``t_query``, the evidence TRP and CCR are defined over.

    Not so for a question whose gold set is empty (a table question of cardinality "none"), nor for a yes/no
    question answered "no": it asks about a fact that by construction no longer holds at ``t_query`` (its S*
    is the spell that ended before).
    """
    answered_no = q.answer_type == "yes_no" and tuple(a.lower() for a in q.answers) == ("no",)
    return bool(q.S_star) and not answered_no
