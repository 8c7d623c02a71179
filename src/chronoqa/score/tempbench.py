"""Drop-in replacement for TempBench's ``tempbench_eval``: ``score_question`` and ``aggregate``.

The seed README's quickstart runs unchanged against this module::

    from chronoqa.score.tempbench import score_question, aggregate

    rows = [score_question(q, my_retriever(q["question"], q["t_query"])) for q in test]
    print(aggregate(rows))
    # {'n_questions': ..., 'coverage': ..., 'TRP_macro': ..., 'CCR': ..., 'by_complexity': {...}, 'by_operator': {...}}

``q`` is a TempBench dict (``id``, ``t_query`` such as ``1994.0``, ``S_star``, ``complexity`` or
``hops``, ``operator``) or a :class:`chronoqa.records.Question`; ``retrieved`` holds dicts with
s/r/o/t_start/t_end or 5-tuples. Definitions are in :mod:`chronoqa.score.evidence`; a question is scored by
the one retrieval scorer, :func:`chronoqa.score.fast.score_run` (the one ``chronoqa evaluate`` runs), over a
list of one. Nothing is rounded; nothing is truncated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from chronoqa.artifacts.release import FunctionalFlags
from chronoqa.records import COMPLEXITIES, Question, complexity_of
from chronoqa.score.evidence import EvidenceRow
from chronoqa.score.fast import evidence_rows, gold_columns, hits_from_triples, score_run
from chronoqa.time import ValidityMode

__all__ = ["aggregate", "score_question"]


def score_question(
    q: Question | Mapping[str, Any],
    retrieved: Iterable[Any] | None,
    *,
    flags: FunctionalFlags | Mapping[str, Any] | None = None,
    mode: ValidityMode = "certain",
) -> dict[str, Any]:
    """Score one question's retrieved triples; returns a row for :func:`aggregate`.

    Row keys: ``id``, ``complexity``, ``operator``, ``n_retrieved`` (distinct triples), ``n_gold``,
    ``n_valid_hits``, ``TRP`` (``None`` when nothing was retrieved), ``CCR`` (0.0 or 1.0),
    ``stale_hit``/``dist_hit``/``wrong_reason`` (``None`` where undefined). ``retrieved=None``
    is an empty retrieval. The inputs are not modified.
    """
    view = q if isinstance(q, Question) else _TempBenchQuestion.of(q)
    flag = _flags(view.id, flags)
    gold = gold_columns([view], None if flag is None else {view.id: flag}, mode=mode)
    row = evidence_rows(score_run(gold, hits_from_triples([retrieved or ()])), [view.id])[0]
    return row._replace(complexity=_complexity(q), operator=str(_field(q, "operator") or "unknown")).to_dict()


class _TempBenchQuestion(NamedTuple):
    """The fields the scorer reads, from a TempBench question dict."""

    id: str
    t_query: Any
    granularity: str | None
    as_of: Any
    S_star: Sequence[Any]
    S_stale: Sequence[Any]
    S_dist: Sequence[Any]

    @classmethod
    def of(cls, q: Mapping[str, Any]) -> _TempBenchQuestion:
        g = q.get("granularity")
        return cls(
            str(q.get("id", "")), q.get("t_query"), None if g is None else str(g), q.get("as_of"),
            q.get("S_star") or (), q.get("S_stale") or (), q.get("S_dist") or (),
        )  # fmt: skip


def _field(q: Question | Mapping[str, Any], name: str) -> Any:
    return getattr(q, name, None) if isinstance(q, Question) else q.get(name)


def _flags(qid: str, flags: FunctionalFlags | Mapping[str, Any] | None) -> FunctionalFlags | None:
    """The question's functional flags as a record (a dict's missing flag counts as functional)."""
    if flags is None or isinstance(flags, FunctionalFlags):
        return flags
    return FunctionalFlags(qid, bool(flags.get("dist_functional", True)), bool(flags.get("stale_functional", True)))


def _complexity(q: Question | Mapping[str, Any]) -> str:
    if isinstance(q, Question):
        return q.complexity
    hops = q.get("hops")
    if hops is not None:
        return complexity_of(int(hops))
    c = q.get("complexity")
    return str(c) if c is not None else "1-hop"


def _get(row: Mapping[str, Any] | EvidenceRow, key: str) -> Any:
    return getattr(row, key) if isinstance(row, EvidenceRow) else row.get(key)


def _summary(rows: list[Mapping[str, Any] | EvidenceRow]) -> dict[str, Any]:
    n = len(rows)
    trps = [t for t in (_get(r, "TRP") for r in rows) if t is not None]
    out: dict[str, Any] = {
        "n_questions": n,
        "coverage": (len(trps) / n) if n else None,
        "TRP_macro": (sum(trps) / len(trps)) if trps else None,
        "CCR": (sum(float(_get(r, "CCR")) for r in rows) / n) if n else None,
    }
    for name in ("stale_hit", "dist_hit", "wrong_reason"):
        vals = [bool(v) for v in (_get(r, name) for r in rows) if v is not None]
        out[f"{name}_rate"] = (sum(vals) / len(vals)) if vals else None
    return out


def _order(keys: Iterable[str], preferred: tuple[str, ...] = ()) -> list[str]:
    ks = set(keys)
    return [k for k in preferred if k in ks] + sorted(ks.difference(preferred))


def aggregate(rows: Iterable[Mapping[str, Any] | EvidenceRow]) -> dict[str, Any]:
    """TempBench's aggregate: ``n_questions``, ``coverage``, ``TRP_macro``, ``CCR``, ``by_complexity``, ``by_operator``.

    TRP_macro averages over questions that retrieved anything (``None`` when none did); CCR and
    coverage average over all questions. Also reports the negative-aware rates
    (``stale_hit_rate``, ``dist_hit_rate``, ``wrong_reason_rate``, ``None`` where undefined).
    """
    rows = list(rows)
    by_c: dict[str, list[Mapping[str, Any] | EvidenceRow]] = {}
    by_o: dict[str, list[Mapping[str, Any] | EvidenceRow]] = {}
    for r in rows:
        by_c.setdefault(str(_get(r, "complexity")), []).append(r)
        by_o.setdefault(str(_get(r, "operator")), []).append(r)
    out = _summary(rows)
    out["by_complexity"] = {c: _summary(by_c[c]) for c in _order(by_c, COMPLEXITIES)}
    out["by_operator"] = {o: _summary(by_o[o]) for o in _order(by_o)}
    return out
