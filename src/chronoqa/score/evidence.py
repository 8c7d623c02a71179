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
* **stale hit** / **distractor hit**: a retrieved triple is in S_stale (resp. S_dist) and not in
  S*. Defined only for questions that have such a negative and, when functional flags are known,
  whose negative is functional (the seed README's trap: non-functional negatives equal the gold).
* **wrong-reason**: a stale or distractor hit while the gold chain was not retrieved (CCR 0): the
  questions a system could answer right for the wrong reason. Defined on questions where a hit is
  defined.

Nothing here truncates the retrieval: the caller truncates to its own ``k``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from chronoqa.artifacts.release import FunctionalFlags
from chronoqa.artifacts.runs import RunHit
from chronoqa.errors import ChronoqaError
from chronoqa.records import Question, Triple, complexity_of
from chronoqa.time import Granularity, Interval, TimePoint, ValidityMode, parse_time, valid_at

__all__ = [
    "EvidenceRow",
    "PreparedQuestion",
    "TripleKey",
    "norm_time",
    "prepare_question",
    "retrieved_keys",
    "score_evidence",
    "time_valid",
    "triple_key",
]

TripleKey = tuple[str, str, str, str | None, str | None]

_GRANULARITIES = {str(g): g for g in Granularity}


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


def retrieved_keys(retrieved: Iterable[Any]) -> tuple[TripleKey, ...]:
    """Identities of the retrieved triples, de-duplicated, first occurrence order kept."""
    return tuple(dict.fromkeys(triple_key(t) for t in retrieved))


class PreparedQuestion(NamedTuple):
    """What evidence scoring needs from a question, computed once (identities and validity)."""

    id: str
    complexity: str
    operator: str
    gold: frozenset[TripleKey]
    valid_gold: frozenset[TripleKey]
    stale: frozenset[TripleKey] | None
    dist: frozenset[TripleKey] | None

    @property
    def gold_all_valid(self) -> bool:
        """True when every S* triple is time-valid (so CCR 1 is reachable)."""
        return bool(self.gold) and len(self.valid_gold) == len(self.gold)


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


def _complexity(q: Question | Mapping[str, Any]) -> str:
    if isinstance(q, Question):
        return q.complexity
    hops = q.get("hops")
    if hops is not None:
        return complexity_of(int(hops))
    c = q.get("complexity")
    return str(c) if c is not None else "1-hop"


def prepare_question(
    q: Question | Mapping[str, Any],
    flags: FunctionalFlags | Mapping[str, Any] | None = None,
    *,
    mode: ValidityMode = "certain",
) -> PreparedQuestion:
    """Identities and validity of a question's S*, S_stale and S_dist (a :class:`Question` or a TempBench dict).

    ``flags`` are the question's functional-negative flags; a non-functional negative is not scored.
    """
    field: Callable[..., Any]
    field = (lambda name, default=None: getattr(q, name, default)) if isinstance(q, Question) else q.get
    qid = str(field("id", ""))
    tq = norm_time(field("t_query"))
    g = _GRANULARITIES.get(field("granularity", None) or "year") or Granularity.parse(str(field("granularity")))
    as_of = norm_time(field("as_of"))
    gold = tuple(dict.fromkeys(triple_key(t) for t in field("S_star", ()) or ()))
    valid = frozenset(gold) if tq is None else frozenset(k for k in gold if time_valid(k[3], k[4], tq, g, as_of, mode))
    gold_set = frozenset(gold)

    def negatives(key: str, flag_name: str) -> frozenset[TripleKey] | None:
        items = field(key, ()) or ()
        if not items:
            return None
        if flags is not None:
            ok = getattr(flags, flag_name) if isinstance(flags, FunctionalFlags) else flags.get(flag_name, True)
            if not ok:
                return None
        return frozenset(triple_key(t) for t in items) - gold_set

    operator = field("operator", None) or "unknown"
    return PreparedQuestion(
        qid, _complexity(q), str(operator), gold_set, valid, negatives("S_stale", "stale_functional"),
        negatives("S_dist", "dist_functional"),
    )  # fmt: skip


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


def score_evidence(pq: PreparedQuestion, keys: Sequence[TripleKey] | Iterable[TripleKey]) -> EvidenceRow:
    """Score one question's retrieval given its de-duplicated retrieved identities (see :func:`retrieved_keys`)."""
    got: Collection[TripleKey] = keys if isinstance(keys, (frozenset, set, dict)) else frozenset(keys)
    n = len(got)
    valid = pq.valid_gold
    hits = sum(1 for k in valid if k in got) if len(valid) < n else sum(1 for k in got if k in valid)
    ccr = 1.0 if pq.gold_all_valid and pq.gold.issubset(got) else 0.0
    stale_hit = None if pq.stale is None else not pq.stale.isdisjoint(got)
    dist_hit = None if pq.dist is None else not pq.dist.isdisjoint(got)
    if stale_hit is None and dist_hit is None:
        wrong: bool | None = None
    else:
        wrong = bool(stale_hit or dist_hit) and ccr == 0.0
    return EvidenceRow(
        pq.id, pq.complexity, pq.operator, n, len(pq.gold), hits, (hits / n) if n else None, ccr,
        stale_hit, dist_hit, wrong,
    )  # fmt: skip
