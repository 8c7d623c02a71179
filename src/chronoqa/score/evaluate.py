"""The library entry of ``chronoqa evaluate``: every metric, every slice, with statistics by default.

:func:`evaluate` scores a run (retrieval evidence and ranking measures), answers (answer accuracy,
time accuracy) or both against a release, and optionally compares the run with a second run. Every
metric is a ratio metric (see :mod:`chronoqa.score.stats`) reported with a seeded question-level
bootstrap 95% CI, overall and per slice (complexity, operator). Nothing is rounded in the result;
only printing rounds. Inputs are never modified.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from chronoqa.artifacts.answers import AnswerRecord, read_answers
from chronoqa.artifacts.release import BENCHMARK_FILE, Release, load_release
from chronoqa.artifacts.runs import RunSource, read_run
from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.records import COMPLEXITIES, Question
from chronoqa.score.answers import OUTCOMES, AnswerOutcome, SetRule, aliases_from_corpus, score_answer
from chronoqa.score.candidates import CorpusEntities
from chronoqa.score.evidence import EvidenceRow
from chronoqa.score.fast import (
    GoldColumns,
    HitColumns,
    RunScores,
    gold_columns,
    hits_from_run,
    score_run,
)
from chronoqa.score.measures import Measure, parse_measures
from chronoqa.score.stats import CI, benjamini_hochberg, bootstrap_cis, mcnemar, paired_test, rng_for
from chronoqa.score.time_accuracy import Judge, TimeRow, score_time
from chronoqa.time import ValidityMode

__all__ = ["DEFAULT_RANKING", "EvaluationResult", "Metrics", "evaluate", "select_questions"]

DEFAULT_RANKING: tuple[str, ...] = ("R@10", "nDCG@10", "MRR")
_BINARY = frozenset({"CCR", "coverage", "A", "T", "AT"})  # per-question 0/1 outcomes: McNemar applies

Metrics = dict[str, tuple[np.ndarray, np.ndarray]]
"""Per-question ratio metrics: name → (numerators, denominators), aligned with the question list."""


@dataclass(frozen=True)
class EvaluationResult:
    """Everything :func:`evaluate` computed. ``to_dict()`` is the metrics JSON (unrounded)."""

    data: Mapping[str, Any]
    evidence_rows: tuple[EvidenceRow, ...] = ()
    answer_outcomes: tuple[AnswerOutcome, ...] = ()
    time_rows: tuple[TimeRow, ...] = ()
    warnings: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of the metrics (safe to modify)."""
        return copy.deepcopy(dict(self.data))


def select_questions(release: Release, functional_only: bool | str = False) -> list[Question]:
    """The questions scored: all, or those whose negatives are functional.

    ``functional_only``: ``False`` (all), ``True`` or ``"stale"`` (stale negative functional, the seed
    README's restriction), ``"dist"``, or ``"both"``.
    """
    if functional_only is False or functional_only is None:
        return list(release.questions)
    mode = "stale" if functional_only is True else str(functional_only)
    if mode not in ("stale", "dist", "both"):
        raise UnknownNameError("functional restriction", mode, ("stale", "dist", "both"))
    if not release.flags:
        raise ChronoqaError(
            f"{release.path}: no functional_negatives.jsonl, so --functional-only cannot restrict the questions"
        )
    out = []
    for q in release.questions:
        f = release.flags.get(q.id)
        if f is None:
            continue
        ok = {
            "stale": f.stale_functional,
            "dist": f.dist_functional,
            "both": f.stale_functional and f.dist_functional,
        }[mode]
        if ok:
            out.append(q)
    return out


def _f(values: Sequence[float | None]) -> tuple[np.ndarray, np.ndarray]:
    num = np.fromiter((0.0 if v is None else float(v) for v in values), dtype=np.float64, count=len(values))
    den = np.fromiter((0.0 if v is None else 1.0 for v in values), dtype=np.float64, count=len(values))
    return num, den


def _run_metrics(
    gold: GoldColumns, hits: HitColumns, question_ids: Sequence[str], measures: Sequence[Measure]
) -> tuple[Metrics, list[EvidenceRow]]:
    sc = score_run(gold, hits, measures)
    n = gold.n_questions
    ones = np.ones(n)
    stale_def = sc.stale_defined.astype(np.float64)
    dist_def = sc.dist_defined.astype(np.float64)
    metrics: Metrics = {
        "coverage": (sc.covered, ones),
        "TRP_macro": sc.trp,
        "CCR": (sc.ccr, ones),
        "stale_hit_rate": (sc.stale_hit * stale_def, stale_def),
        "dist_hit_rate": (sc.dist_hit * dist_def, dist_def),
        "wrong_reason_rate": sc.wrong_reason,
    }
    metrics.update(sc.measures)
    return metrics, _rows(gold, sc, question_ids)


def _rows(gold: GoldColumns, sc: RunScores, question_ids: Sequence[str]) -> list[EvidenceRow]:
    trp_num, trp_den = sc.trp
    wr_num, wr_den = sc.wrong_reason
    cols = zip(
        question_ids,
        sc.n_retrieved.tolist(),
        sc.n_gold.tolist(),
        sc.n_valid_hits.tolist(),
        trp_num.tolist(),
        trp_den.tolist(),
        sc.ccr.tolist(),
        sc.stale_hit.tolist(),
        sc.stale_defined.tolist(),
        sc.dist_hit.tolist(),
        sc.dist_defined.tolist(),
        wr_num.tolist(),
        wr_den.tolist(),
        strict=True,
    )
    return [
        EvidenceRow(qid, "", "", nr, ng, nh, t if td else None, c, sh if sd else None, dh if dd else None,
                    bool(w) if wd else None)
        for qid, nr, ng, nh, t, td, c, sh, sd, dh, dd, w, wd in cols
    ]  # fmt: skip


def _answer_metrics(outcomes: Sequence[AnswerOutcome], time_rows: Sequence[TimeRow]) -> tuple[Metrics, Metrics]:
    n = len(outcomes)
    ones = np.ones(n)
    ans: Metrics = {"A": (np.fromiter((o.correct for o in outcomes), dtype=np.float64, count=n), ones)}
    if any(o.strict is not None for o in outcomes):  # the whole-string rule, reported beside the careful one
        ans["A_strict"] = (np.fromiter((bool(o.strict) for o in outcomes), dtype=np.float64, count=n), ones)
    for name in OUTCOMES[1:]:
        ans[f"{name}_rate"] = (np.fromiter((o.outcome == name for o in outcomes), dtype=np.float64, count=n), ones)
    has_t = np.fromiter((t.T is not None for t in time_rows), dtype=np.float64, count=n)
    a = np.fromiter((t.A for t in time_rows), dtype=np.float64, count=n)
    tt = np.fromiter((bool(t.T) for t in time_rows), dtype=np.float64, count=n)
    tim: Metrics = {
        "A": (a * has_t, has_t),
        "T": (tt * has_t, has_t),
        "AT": (a * tt * has_t, has_t),
        "A_minus_AT": (a * (1 - tt) * has_t, has_t),
    }
    if any(t.T_strict is not None for t in time_rows):
        ts = np.fromiter((bool(t.T_strict) for t in time_rows), dtype=np.float64, count=n)
        tim["T_strict"] = (ts * has_t, has_t)
    judged = np.fromiter((t.judge is not None and t.T is not None for t in time_rows), dtype=np.float64, count=n)
    if judged.any():
        agree = np.fromiter((t.judge is not None and t.judge == t.T for t in time_rows), dtype=np.float64, count=n)
        jt = np.fromiter((bool(t.judge) for t in time_rows), dtype=np.float64, count=n)
        tim["judge_T"] = (jt * judged, judged)
        tim["judge_agreement"] = (agree * judged, judged)
        # the judge's disagreements split by side, relative to the deterministic T (shares of judged items)
        tim["judge_false_accepts"] = (jt * (1 - tt) * judged, judged)
        tim["judge_false_rejects"] = ((1 - jt) * tt * judged, judged)
    return ans, tim


def _slices(qs: Sequence[Question]) -> list[tuple[str, str, np.ndarray]]:
    """(group, name, index array): all, by complexity (fixed order), by operator (sorted)."""
    out: list[tuple[str, str, np.ndarray]] = [("all", "all", np.arange(len(qs)))]
    comp = [q.complexity for q in qs]
    ops = [q.operator for q in qs]
    present_c = set(comp)
    for c in [c for c in COMPLEXITIES if c in present_c] + sorted(present_c.difference(COMPLEXITIES)):
        out.append(("by_complexity", c, np.array([i for i, x in enumerate(comp) if x == c], dtype=np.int64)))
    for o in sorted(set(ops)):
        out.append(("by_operator", o, np.array([i for i, x in enumerate(ops) if x == o], dtype=np.int64)))
    return out


def _ci_dict(ci: CI) -> dict[str, Any]:
    return {"value": ci.value, "ci_low": ci.lo, "ci_high": ci.hi, "n": ci.n}


def _block(
    metrics: Metrics,
    slices: Sequence[tuple[str, str, np.ndarray]],
    *,
    seed: int,
    n_boot: int,
    min_slice: int,
    tag: str,
    warnings: list[str],
) -> dict[str, Any]:
    names = list(metrics)
    out: dict[str, Any] = {}
    if not names:
        return out
    nums = np.stack([metrics[k][0] for k in names])
    dens = np.stack([metrics[k][1] for k in names])
    for group, name, idx in slices:
        cis = bootstrap_cis(nums[:, idx], dens[:, idx], n_boot=n_boot, rng=rng_for(seed, f"{tag}:{group}:{name}"))
        res: dict[str, Any] = {k: _ci_dict(ci) for k, ci in zip(names, cis, strict=True)}
        res["n_questions"] = len(idx)
        if len(idx) < min_slice:
            res["small_slice"] = True
            if group != "all":
                warnings.append(
                    f"{tag} slice {group}={name} has {len(idx)} questions (< {min_slice}): its CIs are wide"
                )
        if group == "all":
            out["all"] = res
        else:
            out.setdefault(group, {})[name] = res
    return out


def _compare(
    a: Metrics,
    b: Metrics,
    slices: Sequence[tuple[str, str, np.ndarray]],
    *,
    seed: int,
    n_boot: int,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for metric in a:
        na, da = a[metric]
        nb, db = b[metric]
        rows: list[tuple[str, str, dict[str, Any]]] = []
        for group, name, idx in slices:
            pr = paired_test(na[idx], da[idx], nb[idx], db[idx], n_resamples=n_boot, seed=seed, name=f"{metric}:{name}")
            row: dict[str, Any] = {
                "a": pr.a, "b": pr.b, "diff": pr.diff, "ci_low": pr.lo, "ci_high": pr.hi,
                "p_value": pr.p_value, "n": pr.n, "test": pr.test,
            }  # fmt: skip
            if metric in _BINARY:  # McNemar on the questions where both outcomes are defined
                both = (da[idx] > 0) & (db[idx] > 0)
                mc = mcnemar(na[idx][both] > 0.5, nb[idx][both] > 0.5)
                row["mcnemar_p"] = mc.p_value
            rows.append((group, name, row))
        qs = benjamini_hochberg([r["p_value"] for _, _, r in rows])
        block: dict[str, Any] = {}
        for (group, name, row), q in zip(rows, qs, strict=True):
            row["q_value_bh"] = q
            if group == "all":
                block["all"] = row
            else:
                block.setdefault(group, {})[name] = row
        out[metric] = block
    return out


def _time_only(tim: Metrics) -> Metrics:
    """Time-accuracy metrics without their ``A`` (the answer block's ``A`` covers every question)."""
    return {k: v for k, v in tim.items() if k != "A"}


def _score_answers(
    answers: Mapping[str, AnswerRecord] | Sequence[AnswerRecord] | str | Path,
    qs: Sequence[Question],
    rel: Release,
    warnings: list[str],
    *,
    aliases: Mapping[str, Sequence[str]],
    rule: SetRule,
    judge: Judge | None,
) -> tuple[list[AnswerOutcome], list[TimeRow]]:
    if isinstance(answers, Mapping):
        recs: Mapping[str, AnswerRecord] = answers
    elif isinstance(answers, (str, Path)):
        recs = {r.qid: r for r in read_answers(answers)}
    else:
        recs = {r.qid: r for r in answers}
    unknown = sorted(set(recs) - {q.id for q in rel.questions})
    if unknown:
        raise ChronoqaError(
            f"answers name {len(unknown)} question ids not in {rel.path} (first: {unknown[0]!r}): "
            "they were made for another benchmark"
        )
    missing = len({q.id for q in qs} - set(recs))
    if missing:
        warnings.append(f"answers have no line for {missing} questions: scored as missing (wrong)")
    outcomes, trows = [], []
    ents = CorpusEntities(rel.corpus)
    prepare = getattr(judge, "prepare", None)
    if prepare is not None:  # an LLM judge sends its requests concurrently, once
        prepare([(q, recs[q.id]) for q in qs if q.id in recs])
    for q in qs:
        rec = recs.get(q.id)
        o = score_answer(q, rec, aliases=aliases, rule=rule, **ents.answer_kwargs(q))
        strict = score_answer(q, rec, aliases=aliases, rule=rule, mode="strict")
        outcomes.append(o._replace(strict=strict.correct))
        row = score_time(q, rec, o.correct, judge=judge, entities=ents.time_entities())
        loose = score_time(q, rec, o.correct, mode="strict")
        trows.append(row._replace(T_strict=loose.T))
    return outcomes, trows


def _load_run(
    run: RunSource, qs: Sequence[Question], release: Release, warnings: list[str]
) -> tuple[str, dict[str, Any], HitColumns]:
    """Name, meta and hit columns of a run of any shape (a run file is read into Arrow columns when it can be)."""
    loaded = read_run(run, docs=release.corpus, columnar=True)
    name, meta = loaded.name, dict(loaded.meta)
    known = {q.id for q in release.questions}
    unknown = sorted(set(loaded.qids) - known)
    if unknown:
        raise ChronoqaError(
            f"run {name!r} has {len(unknown)} question ids that are not in {release.path} "
            f"(first: {unknown[0]!r}): it was made for another benchmark; re-run retrieval on this release"
        )
    no_id = loaded.hits_without_doc_id() if release.corpus else 0
    if no_id:
        warnings.append(
            f"run {name!r}: {no_id} hits carry no doc_id and are matched by their triple text, not as documents"
        )
    hits = hits_from_run(loaded, qs)
    missing = len({q.id for q in qs} - set(hits.line_qids))
    if missing:
        warnings.append(f"run {name!r} has no line for {missing} questions: scored as empty retrievals")
    bench_sha = meta.get("benchmark_sha256")
    if bench_sha and release.sha256(BENCHMARK_FILE) not in (None, bench_sha):
        warnings.append(f"run {name!r} was made against a different benchmark.jsonl (sha256 differs)")
    return name, meta, hits


def evaluate(
    release: Release | str | Path,
    run: RunSource | None = None,
    answers: Mapping[str, AnswerRecord] | Sequence[AnswerRecord] | str | Path | None = None,
    *,
    functional_only: bool | str = False,
    compare: RunSource | None = None,
    compare_answers: Mapping[str, AnswerRecord] | Sequence[AnswerRecord] | str | Path | None = None,
    seed: int = 0,
    n_bootstrap: int = 1000,
    min_slice: int = 30,
    measures: Sequence[str | Measure] = DEFAULT_RANKING,
    validity_mode: ValidityMode = "certain",
    answer_rule: SetRule = "all",
    aliases: Mapping[str, Sequence[str]] | None = None,
    judge: Judge | None = None,
    split: str | None = None,
) -> EvaluationResult:
    """Score a run and/or answers against a release; see ``docs/metrics.md`` for every definition.

    ``compare`` is a second run compared with ``run`` question by question (paired permutation test
    and paired bootstrap CI per metric and slice, McNemar for binary outcomes such as CCR, Benjamini–Hochberg
    across slices); ``compare_answers`` does the same for a second answer file (A, T, AT: McNemar applies).
    ``aliases`` default to every label the release corpus uses for an entity id. ``judge`` is an
    optional LLM judge of time accuracy; its agreement with the deterministic check is reported.
    """
    if n_bootstrap < 0:
        raise ChronoqaError(f"n_bootstrap must be >= 0 (0: no confidence intervals), got {n_bootstrap}")
    rel = release if isinstance(release, Release) else load_release(release)
    if split is not None and split not in {q.split for q in rel.questions}:
        raise UnknownNameError("split", split, {q.split for q in rel.questions})
    qs = select_questions(rel, functional_only)
    warnings: list[str] = []
    if functional_only not in (False, None):
        no_flags = sum(1 for q in rel.questions if q.id not in rel.flags)
        if no_flags:
            warnings.append(f"{no_flags} questions have no functional-negative flags: not in the functional subset")
    if split is not None:
        qs = [q for q in qs if q.split == split]
    slices = _slices(qs)
    data: dict[str, Any] = {
        "n_questions": len(qs),
        "functional_only": functional_only,
        "split": split,
        "seed": seed,
        "n_bootstrap": n_bootstrap,
        "confidence": 0.95,
        "min_slice": min_slice,
        "validity_mode": validity_mode,
    }
    if compare is not None and run is None:
        raise ChronoqaError("compare needs a run to compare with: give run= as well")
    ev_rows: list[EvidenceRow] = []
    if run is not None:
        # Retrieval evidence is defined for questions that have evidence: a question whose gold set is
        # empty (a table question of cardinality "none") has no S* to retrieve, so it is left out of every
        # retrieval denominator by definition, and counted (answers still score it).
        ev_qs = [q for q in qs if q.S_star]
        data["n_evidence_questions"] = len(ev_qs)
        data["n_no_gold_evidence"] = len(qs) - len(ev_qs)
        if len(ev_qs) < len(qs):
            warnings.append(
                f"{len(qs) - len(ev_qs)} questions have an empty S* (no evidence to retrieve, e.g. cardinality "
                "'none'): retrieval metrics leave them out; answer metrics keep them"
            )
        ev_slices = _slices(ev_qs)
        name, meta, hits = _load_run(run, ev_qs, rel, warnings)
        gold = gold_columns(ev_qs, rel.flags, mode=validity_mode)
        ms = parse_measures(measures)
        ids = [q.id for q in ev_qs]
        met, ev_rows = _run_metrics(gold, hits, ids, ms)
        ev_rows = [
            r._replace(complexity=q.complexity, operator=q.operator) for r, q in zip(ev_rows, ev_qs, strict=True)
        ]
        data["run"] = {"name": name, "meta": meta}
        data["retrieval"] = _block(
            met, ev_slices, seed=seed, n_boot=n_bootstrap, min_slice=min_slice, tag="retrieval", warnings=warnings
        )
        if compare is not None:
            name_b, _, hits_b = _load_run(compare, ev_qs, rel, warnings)
            met_b, _ = _run_metrics(gold, hits_b, ids, ms)
            data["compare"] = {
                "a": name,
                "b": name_b,
                "b_retrieval": _block(
                    met_b, ev_slices, seed=seed, n_boot=n_bootstrap, min_slice=min_slice, tag="compare", warnings=[]
                ),
                "paired": _compare(met, met_b, ev_slices, seed=seed, n_boot=n_bootstrap),
            }
    outcomes: list[AnswerOutcome] = []
    trows: list[TimeRow] = []
    if compare_answers is not None and answers is None:
        raise ChronoqaError("compare_answers needs answers to compare with: give answers= as well")
    if answers is not None:
        al = aliases if aliases is not None else aliases_from_corpus(rel.corpus)
        kw: dict[str, Any] = {"aliases": al, "rule": answer_rule, "judge": judge}
        outcomes, trows = _score_answers(answers, qs, rel, warnings, **kw)
        ans, tim = _answer_metrics(outcomes, trows)
        data["answers"] = _block(
            ans, slices, seed=seed, n_boot=n_bootstrap, min_slice=min_slice, tag="answers", warnings=warnings
        )
        data["time_accuracy"] = _block(
            tim, slices, seed=seed, n_boot=n_bootstrap, min_slice=min_slice, tag="time", warnings=[]
        )
        data["time_accuracy"]["n_no_refs"] = sum(1 for t in trows if t.T is None)
        judge_meta = getattr(judge, "meta", None)
        if judge_meta is not None:
            data["judge"] = judge_meta()
        data["answer_rule"] = answer_rule
        if compare_answers is not None:
            out_b, trows_b = _score_answers(compare_answers, qs, rel, warnings, **kw)
            ans_b, tim_b = _answer_metrics(out_b, trows_b)
            both_a, both_b = {**ans, **_time_only(tim)}, {**ans_b, **_time_only(tim_b)}
            data["compare_answers"] = {
                "b_answers": _block(
                    ans_b, slices, seed=seed, n_boot=n_bootstrap, min_slice=min_slice, tag="compare_answers",
                    warnings=[],
                ),
                "paired": _compare(both_a, both_b, slices, seed=seed, n_boot=n_bootstrap),
            }  # fmt: skip
    data["warnings"] = list(warnings)
    return EvaluationResult(data, tuple(ev_rows), tuple(outcomes), tuple(trows), tuple(warnings))
