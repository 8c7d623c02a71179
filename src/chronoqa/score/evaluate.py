"""The library entry of ``chronoqa evaluate``: every metric, every slice, with statistics by default.

:func:`evaluate` scores a run (retrieval evidence and ranking measures), answers (answer accuracy,
time accuracy) or both against a release, and optionally compares the run with a second run. Every
metric is a ratio metric (see :mod:`chronoqa.score.stats`) reported with a seeded question-level
bootstrap 95% CI, overall and per slice (complexity, operator). Nothing is rounded in the result;
only printing rounds. Inputs are never modified.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from chronoqa.artifacts.answers import AnswerRecord, parse_counts, read_answers
from chronoqa.artifacts.metrics import (
    AnswerComparison,
    Estimate,
    EvaluationMetrics,
    MetricBlock,
    PairedBlock,
    PairedEstimate,
    RunComparison,
    RunRef,
    SliceMetrics,
    TwinRef,
    TwinTransform,
)
from chronoqa.artifacts.release import BENCHMARK_FILE, Release, load_release
from chronoqa.artifacts.runs import RunSource, read_run
from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.records import COMPLEXITIES, Question
from chronoqa.score.answers import OUTCOMES, AnswerOutcome, SetRule
from chronoqa.score.candidates import CorpusEntities, Judging
from chronoqa.score.cutoff import cutoff_slices
from chronoqa.score.evidence import EvidenceRow, has_time_valid_chain
from chronoqa.score.fast import GoldColumns, HitColumns, evidence_rows, gold_columns, hits_from_run, score_run
from chronoqa.score.kinds import kind_slices
from chronoqa.score.measures import Measure, parse_measures
from chronoqa.score.outcomes import class_metrics
from chronoqa.score.paraphrase_sets import ParaphraseSource, Phrasings, set_metrics, split_answers
from chronoqa.score.stats import benjamini_hochberg, bootstrap_cis, mcnemar, paired_test, rng_for
from chronoqa.score.time_accuracy import Judge, TimeRow
from chronoqa.time import TimePoint, ValidityMode, parse_time

__all__ = ["DEFAULT_RANKING", "EvaluationResult", "Metrics", "evaluate", "select_questions"]

DEFAULT_RANKING: tuple[str, ...] = ("R@10", "nDCG@10", "MRR", "Outrank@10")
# per-question 0/1 outcomes: McNemar applies
_BINARY = frozenset({"CCR", "coverage", "A", "T", "AT", "T_half", "T_loose"})
_BINARY_MEASURES = frozenset({"CCR", "Outrank"})  # ranking measures whose per-question value is 0 or 1, at any k


def _is_binary(metric: str) -> bool:
    """Whether ``metric``'s per-question outcome is 0 or 1 (McNemar's test applies to its paired comparison)."""
    return metric in _BINARY or metric.partition("@")[0] in _BINARY_MEASURES


Metrics = dict[str, tuple[np.ndarray, np.ndarray]]
"""Per-question ratio metrics: name → (numerators, denominators), aligned with the question list."""

Answers = Mapping[str, AnswerRecord] | Sequence[AnswerRecord] | str | Path
"""Answers to score: by question id, a sequence of records, or an answers file or folder."""


@dataclass(frozen=True)
class EvaluationResult:
    """Everything :func:`evaluate` computed: the metrics record and the per-question rows behind it."""

    metrics: EvaluationMetrics
    evidence_rows: tuple[EvidenceRow, ...] = ()
    answer_outcomes: tuple[AnswerOutcome, ...] = ()
    time_rows: tuple[TimeRow, ...] = ()
    warnings: tuple[str, ...] = field(default_factory=tuple)
    phrasings: Phrasings = field(default_factory=dict)
    """With a paraphrase set: each paraphrase's verdict, per question (:mod:`chronoqa.score.paraphrase_sets`)."""
    retrieval_values: Metrics = field(default_factory=dict)
    """With a run: each retrieval metric's per-question (numerators, denominators), aligned with ``evidence_rows``."""

    def to_dict(self) -> dict[str, Any]:
        """The metrics JSON (unrounded; a new dict, safe to modify)."""
        return self.metrics.to_dict()


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
    return metrics, evidence_rows(sc, question_ids)


def _answer_metrics(outcomes: Sequence[AnswerOutcome], time_rows: Sequence[TimeRow]) -> tuple[Metrics, Metrics]:
    n = len(outcomes)
    ones = np.ones(n)
    ans: Metrics = {"A": (np.fromiter((o.correct for o in outcomes), dtype=np.float64, count=n), ones)}
    if any(o.strict is not None for o in outcomes):  # the whole-string rule, reported beside the careful one
        ans["A_strict"] = (np.fromiter((bool(o.strict) for o in outcomes), dtype=np.float64, count=n), ones)
    for name in OUTCOMES[1:]:
        ans[f"{name}_rate"] = (np.fromiter((o.outcome == name for o in outcomes), dtype=np.float64, count=n), ones)
    # A counts an answer the careful rules leave undecided as wrong; A_upper as right (undecided_rate: the gap)
    ans["A_upper"] = (ans["A"][0] + ans["undecided_rate"][0], ones)
    has_t = np.fromiter((t.T is not None for t in time_rows), dtype=np.float64, count=n)
    a = np.fromiter((t.A for t in time_rows), dtype=np.float64, count=n)
    tt = np.fromiter((bool(t.T) for t in time_rows), dtype=np.float64, count=n)
    tim: Metrics = {
        "A": (a * has_t, has_t),
        "T": (tt * has_t, has_t),
        "AT": (a * tt * has_t, has_t),
        "A_minus_AT": (a * (1 - tt) * has_t, has_t),
    }
    und = np.fromiter((t.undecided is not None and t.T is not None and not t.T for t in time_rows), np.float64, n)
    tim["T_undecided"] = (und * has_t, has_t)  # T counts these as not cited; T_upper as cited
    tim["T_upper"] = ((tt + und) * has_t, has_t)
    if any(t.T_strict is not None for t in time_rows):
        ts = np.fromiter((bool(t.T_strict) for t in time_rows), dtype=np.float64, count=n)
        tim["T_strict"] = (ts * has_t, has_t)
    # the judge against the rules: over the items the rules decide (an undecided item takes the judge's verdict)
    judged = np.fromiter(
        (t.judge is not None and t.T is not None and t.undecided is None for t in time_rows), np.float64, n
    )
    if judged.any():
        agree = np.fromiter((t.judge is not None and t.judge == t.T for t in time_rows), dtype=np.float64, count=n)
        jt = np.fromiter((bool(t.judge) for t in time_rows), dtype=np.float64, count=n)
        tim["judge_T"] = (jt * judged, judged)
        tim["judge_agreement"] = (agree * judged, judged)
        # the judge's disagreements split by side, relative to the deterministic T (shares of judged items)
        tim["judge_false_accepts"] = (jt * (1 - tt) * judged, judged)
        tim["judge_false_rejects"] = ((1 - jt) * tt * judged, judged)
    more_ans, more_tim = class_metrics(outcomes, time_rows)  # partial credit, outcome classes, the join hop
    return {**ans, **more_ans}, {**tim, **more_tim}


Slice = tuple[str, str, np.ndarray]
"""A slice of the questions: (group, name, question indices); the group ``all`` has the name ``all``."""


def _slices(qs: Sequence[Question], cutoff: TimePoint | None = None) -> list[Slice]:
    """(group, name, index array): all, by complexity, operator, kind and cutoff.

    Complexities in their fixed order, operators sorted, kinds (recall, reasoning: :mod:`chronoqa.score.kinds`)
    in theirs, the cutoff's sides only when a cutoff is given.
    """
    out: list[Slice] = [("all", "all", np.arange(len(qs)))]
    comp = [q.complexity for q in qs]
    ops = [q.operator for q in qs]
    present_c = set(comp)
    for c in [c for c in COMPLEXITIES if c in present_c] + sorted(present_c.difference(COMPLEXITIES)):
        out.append(("by_complexity", c, np.array([i for i, x in enumerate(comp) if x == c], dtype=np.int64)))
    for o in sorted(set(ops)):
        out.append(("by_operator", o, np.array([i for i, x in enumerate(ops) if x == o], dtype=np.int64)))
    out += kind_slices(qs)
    return out if cutoff is None else [*out, *cutoff_slices(qs, cutoff)]


@dataclass(frozen=True)
class _Stats:
    """The statistics settings of one evaluation: how metrics become blocks of estimates and comparisons."""

    seed: int
    n_boot: int
    min_slice: int
    cutoff: TimePoint | None = None

    def slices(self, qs: Sequence[Question]) -> list[Slice]:
        """The slices of ``qs`` this evaluation reports (:func:`_slices` with its cutoff)."""
        return _slices(qs, self.cutoff)

    def block(self, metrics: Metrics, slices: Sequence[Slice], tag: str, warnings: list[str]) -> MetricBlock:
        """Every metric's estimate and bootstrap CI per slice; small slices are marked (and warned, with ``tag``)."""
        names = list(metrics)
        if not names:
            return MetricBlock()
        nums = np.stack([metrics[k][0] for k in names])
        dens = np.stack([metrics[k][1] for k in names])
        groups: dict[str, dict[str, SliceMetrics]] = {}
        for group, name, idx in slices:
            rng = rng_for(self.seed, f"{tag}:{group}:{name}")
            cis = bootstrap_cis(nums[:, idx], dens[:, idx], n_boot=self.n_boot, rng=rng)
            ests = {
                k: Estimate(value=ci.value, ci_low=ci.lo, ci_high=ci.hi, n=ci.n)
                for k, ci in zip(names, cis, strict=True)
            }
            small = {"small_slice": True} if len(idx) < self.min_slice else {}
            if small and group != "all":
                warnings.append(
                    f"{tag} slice {group}={name} has {len(idx)} questions (< {self.min_slice}): its CIs are wide"
                )
            groups.setdefault(group, {})[name] = SliceMetrics(metrics=ests, n_questions=len(idx), **small)
        return MetricBlock.model_validate({"all": groups.pop("all")["all"], **groups})

    def compare(self, a: Metrics, b: Metrics, slices: Sequence[Slice]) -> dict[str, PairedBlock]:
        """Per metric of ``a``: paired test and CI of ``a - b`` per slice (McNemar for binary outcomes), BH-adjusted."""
        return {metric: self._paired(metric, a[metric], b[metric], slices) for metric in a}

    def _paired(
        self, metric: str, a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray], slices: Sequence[Slice]
    ) -> PairedBlock:
        (na, da), (nb, db) = a, b
        rows: list[dict[str, Any]] = []
        for _, name, idx in slices:
            pr = paired_test(
                na[idx], da[idx], nb[idx], db[idx], n_resamples=self.n_boot, seed=self.seed, name=f"{metric}:{name}"
            )
            row: dict[str, Any] = {
                "a": pr.a, "b": pr.b, "diff": pr.diff, "ci_low": pr.lo, "ci_high": pr.hi,
                "p_value": pr.p_value, "n": pr.n, "test": pr.test,
            }  # fmt: skip
            if _is_binary(metric):  # McNemar on the questions where both outcomes are defined
                both = (da[idx] > 0) & (db[idx] > 0)
                row["mcnemar_p"] = mcnemar(na[idx][both] > 0.5, nb[idx][both] > 0.5).p_value
            rows.append(row)
        qs = benjamini_hochberg([r["p_value"] for r in rows])
        groups: dict[str, dict[str, PairedEstimate]] = {}
        for (group, name, _), row, q in zip(slices, rows, qs, strict=True):
            groups.setdefault(group, {})[name] = PairedEstimate(**row, q_value_bh=q)
        return PairedBlock.model_validate({"all": groups.pop("all")["all"], **groups})


def _time_only(tim: Metrics) -> Metrics:
    """Time-accuracy metrics without their ``A`` (the answer block's ``A`` covers every question)."""
    return {k: v for k, v in tim.items() if k != "A"}


def _score_answers(
    answers: Answers,
    qs: Sequence[Question],
    rel: Release,
    warnings: list[str],
    *,
    entities: CorpusEntities,
    aliases: Mapping[str, Sequence[str]],
    rule: SetRule,
    judge: Judge | None,
    info: dict[str, Any] | None = None,
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
        answered = sorted({q.split for q in qs if q.id in recs})
        hint = (
            f"; the answers cover only the {'/'.join(answered)} split: score it alone with --split {answered[0]}"
            if len(answered) == 1 and len({q.split for q in qs}) > 1
            else ""
        )
        warnings.append(f"answers have no line for {missing} questions: scored as missing (wrong){hint}")
    if info is not None and any(r.reply_format for r in recs.values()):  # a structured protocol: its parse rate
        info["replies"] = parse_counts(r for q in qs if (r := recs.get(q.id)) is not None)
    outcomes, trows = [], []
    judging = Judging(entities=entities, aliases=aliases, rule=rule, judge=judge)
    prepare = getattr(judge, "prepare", None)
    if prepare is not None:  # an LLM judge sends its requests concurrently, once
        prepare([(q, recs[q.id]) for q in qs if q.id in recs])
    for q in qs:
        rec = recs.get(q.id)
        o = judging.answer(q, rec)
        outcomes.append(o)
        trows.append(judging.time(q, rec, o.correct, o.outcome))
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


def _open_release(release: Release | str | Path) -> Release:
    """The release scored: given, or loaded from its folder."""
    return release if isinstance(release, Release) else load_release(release)


def _check_arguments(
    n_bootstrap: int,
    run: object,
    compare: object,
    answers: object,
    compare_answers: object,
    twin: tuple[object, object],
) -> None:
    if (twin[0] is None) != (twin[1] is None) or (twin[0] is not None and answers is None):
        raise ChronoqaError("a memory gap needs answers, a twin release and the answers to the twin: give all three")
    if n_bootstrap < 0:
        raise ChronoqaError(f"n_bootstrap must be >= 0 (0: no confidence intervals), got {n_bootstrap}")
    if compare is not None and run is None:
        raise ChronoqaError("compare needs a run to compare with: give run= as well")
    if compare_answers is not None and answers is None:
        raise ChronoqaError("compare_answers needs answers to compare with: give answers= as well")


def _scored_questions(
    rel: Release, functional_only: bool | str, split: str | None, warnings: list[str]
) -> list[Question]:
    """The questions of ``split`` (all when ``None``) that ``functional_only`` keeps (see :func:`select_questions`)."""
    if split is not None and split not in {q.split for q in rel.questions}:
        raise UnknownNameError("split", split, {q.split for q in rel.questions})
    qs = select_questions(rel, functional_only)
    if functional_only not in (False, None):
        no_flags = sum(1 for q in rel.questions if q.id not in rel.flags)
        if no_flags:
            warnings.append(f"{no_flags} questions have no functional-negative flags: not in the functional subset")
    return qs if split is None else [q for q in qs if q.split == split]


def _evidence_questions(qs: Sequence[Question], warnings: list[str]) -> list[Question]:
    """The questions retrieval is scored on.

    Retrieval evidence is defined for questions that have time-valid evidence: a question whose gold set is
    empty (a table question of cardinality "none") has no S* to retrieve, and a yes/no question answered "no"
    asks about a fact that by construction does not hold at ``t_query`` (its S* is the spell that ended
    before), so neither has a time-valid chain; both are left out of every retrieval denominator by
    definition, and counted (answers still score them).
    """
    ev_qs = [q for q in qs if has_time_valid_chain(q)]
    n_empty = sum(1 for q in qs if not q.S_star)
    if n_empty:
        warnings.append(
            f"{n_empty} questions have an empty S* (no evidence to retrieve, e.g. cardinality "
            "'none'): retrieval metrics leave them out; answer metrics keep them"
        )
    n_no = len(qs) - len(ev_qs) - n_empty
    if n_no:
        warnings.append(
            f"{n_no} yes/no questions are answered 'no' (their S* does not hold at t_query by construction): "
            "retrieval metrics leave them out; answer metrics keep them"
        )
    return ev_qs


def _score_retrieval(
    rel: Release,
    qs: Sequence[Question],
    run: RunSource,
    compare: RunSource | None,
    measures: Sequence[Measure],
    validity_mode: ValidityMode,
    stats: _Stats,
    warnings: list[str],
) -> tuple[dict[str, Any], list[EvidenceRow], Metrics]:
    """The retrieval fields of the metrics record, the evidence rows and the per-question values of the run."""
    ev_qs = _evidence_questions(qs, warnings)
    ev_slices = stats.slices(ev_qs)
    name, meta, hits = _load_run(run, ev_qs, rel, warnings)
    gold = gold_columns(ev_qs, rel.flags, mode=validity_mode)
    ids = [q.id for q in ev_qs]
    met, rows = _run_metrics(gold, hits, ids, measures)
    rows = [r._replace(complexity=q.complexity, operator=q.operator) for r, q in zip(rows, ev_qs, strict=True)]
    fields: dict[str, Any] = {
        "n_evidence_questions": len(ev_qs),
        "n_no_gold_evidence": len(qs) - len(ev_qs),
        "run": RunRef(name=name, meta=meta),
        "retrieval": stats.block(met, ev_slices, "retrieval", warnings),
    }
    if compare is not None:
        name_b, _, hits_b = _load_run(compare, ev_qs, rel, warnings)
        met_b, _ = _run_metrics(gold, hits_b, ids, measures)
        fields["compare"] = RunComparison(
            a=name,
            b=name_b,
            b_retrieval=stats.block(met_b, ev_slices, "compare", []),
            paired=stats.compare(met, met_b, ev_slices),
        )
    return fields, rows, met


def _paraphrase_fields(
    qs: Sequence[Question],
    paraphrases: ParaphraseSource,
    answers: Answers,
    kw: Mapping[str, Any],
    stats: _Stats,
    warnings: list[str],
    phrasings: Phrasings,
) -> dict[str, Any]:
    """The paraphrase-set block (every phrasing right, flips), scored by the judging path of the answers.

    Each paraphrase's verdict is put in ``phrasings`` (the report's explorer shows them).
    """
    originals, phrased, records = split_answers(answers, paraphrases)
    if not phrased:  # answers to the original questions only: nothing to score as sets
        return {}
    judging = Judging(entities=kw["entities"], aliases=kw["aliases"], rule=kw["rule"], judge=kw["judge"])
    with_set, met, info, rows = set_metrics(qs, records, {**originals, **phrased}, judging)
    phrasings.update(rows)
    if not with_set:
        warnings.append("no scored question has an accepted paraphrase: no paraphrase-set metrics")
        return {"paraphrases": info}
    block = stats.block(met, stats.slices(with_set), "paraphrase_sets", warnings)
    return {"paraphrase_sets": block, "paraphrases": info}


def _evaluate_answers(
    rel: Release,
    qs: Sequence[Question],
    answers: Answers,
    compare_answers: Answers | None,
    kw: Mapping[str, Any],
    stats: _Stats,
    warnings: list[str],
) -> tuple[dict[str, Any], list[AnswerOutcome], list[TimeRow]]:
    """The answer and time-accuracy fields of the metrics record (and the comparison), and the per-question rows."""
    info: dict[str, Any] = {}  # a structured protocol's parse rate ("replies")
    outcomes, trows = _score_answers(answers, qs, rel, warnings, info=info, **kw)
    ans, tim = _answer_metrics(outcomes, trows)
    slices = stats.slices(qs)
    answers_block = stats.block(ans, slices, "answers", warnings)
    time_block = stats.block(tim, slices, "time", [])
    fields: dict[str, Any] = {
        "answers": answers_block,
        "time_accuracy": time_block.model_copy(update={"n_no_refs": sum(1 for t in trows if t.T is None)}),
        "answer_rule": kw["rule"],
        **info,
    }
    judge_meta = getattr(kw["judge"], "meta", None)
    if judge_meta is not None:
        fields["judge"] = judge_meta()
    if compare_answers is not None:
        out_b, trows_b = _score_answers(compare_answers, qs, rel, warnings, **kw)
        ans_b, tim_b = _answer_metrics(out_b, trows_b)
        fields["compare_answers"] = AnswerComparison(
            b_answers=stats.block(ans_b, slices, "compare_answers", []),
            paired=stats.compare({**ans, **_time_only(tim)}, {**ans_b, **_time_only(tim_b)}, slices),
        )
    return fields, outcomes, trows


def _score_answer_files(
    rel: Release,
    qs: Sequence[Question],
    answers: Answers,
    others: tuple[Answers | None, ParaphraseSource | None, Release | str | Path | None, Answers | None],
    kw: Mapping[str, Any],
    stats: _Stats,
    warnings: list[str],
    phrasings: Phrasings,
) -> tuple[dict[str, Any], list[AnswerOutcome], list[TimeRow]]:
    """The answer fields of the metrics record and the per-question rows of the answers to the original questions.

    In order: the paraphrase sets (:func:`_paraphrase_fields`), the answers to the original questions
    (:func:`_evaluate_answers`), the memory gap to a twin (:func:`_memory_gap`). ``others`` are
    :func:`evaluate`'s ``compare_answers``, ``paraphrases``, ``twin`` and ``twin_answers``.
    """
    compare_answers, paraphrases, twin, twin_answers = others
    fields: dict[str, Any] = {}
    if paraphrases is not None:
        fields.update(_paraphrase_fields(qs, paraphrases, answers, kw, stats, warnings, phrasings))
        answers = split_answers(answers, paraphrases)[0]
    ans, outcomes, trows = _evaluate_answers(rel, qs, answers, compare_answers, kw, stats, warnings)
    fields.update(ans)
    if twin is not None and twin_answers is not None:
        fields.update(_memory_gap(qs, (outcomes, trows), twin, twin_answers, kw, stats, warnings))
    return fields, outcomes, trows


def _memory_gap(
    qs: Sequence[Question],
    rows: tuple[list[AnswerOutcome], list[TimeRow]],
    twin: Release | str | Path,
    twin_answers: Answers,
    kw: Mapping[str, Any],
    stats: _Stats,
    warnings: list[str],
) -> dict[str, Any]:
    """The answers against the answers to a counterfactual twin, question by question through ``twin_of.jsonl``.

    Only scored questions with a twin are compared (``twin.paired``); each slice is the real question's.
    """
    from chronoqa.generate.twin import read_twin_pairs

    twin_rel = _open_release(twin)
    to_twin = {src: tw for tw, src in read_twin_pairs(twin_rel.path).items()}
    by_id = {q.id: q for q in twin_rel.questions}
    idx = [i for i, q in enumerate(qs) if to_twin.get(q.id) in by_id]
    if not idx:
        raise ChronoqaError(f"{twin_rel.path}: no scored question has a twin there: is it a twin of this release?")
    ents = CorpusEntities(twin_rel.corpus)
    twin_kw = {**kw, "entities": ents, "aliases": ents.aliases}
    twin_qs = [by_id[to_twin[qs[i].id]] for i in idx]
    out_b, trows_b = _score_answers(twin_answers, twin_qs, twin_rel, warnings, **twin_kw)
    ans_a, tim_a = _answer_metrics([rows[0][i] for i in idx], [rows[1][i] for i in idx])
    ans_b, tim_b = _answer_metrics(out_b, trows_b)
    a, b = {**ans_a, **_time_only(tim_a)}, {**ans_b, **_time_only(tim_b)}
    slices = stats.slices([qs[i] for i in idx])
    gap = AnswerComparison(
        b_answers=stats.block(ans_b, slices, "twin", []),
        paired=stats.compare({k: v for k, v in a.items() if k in b}, b, slices),
    )
    transform = twin_rel.manifest.get("twin", {}).get("transform")
    ref = TwinRef(
        release=twin_rel.path.name,
        transform=None if transform is None else TwinTransform.from_dict(transform, str(twin_rel.path)),
        paired=len(idx),
        unpaired=len(qs) - len(idx),
    )
    return {"memory_gap": gap, "twin": ref}


def evaluate(
    release: Release | str | Path,
    run: RunSource | None = None,
    answers: Answers | None = None,
    *,
    functional_only: bool | str = False,
    compare: RunSource | None = None,
    compare_answers: Answers | None = None,
    seed: int = 0,
    n_bootstrap: int = 1000,
    min_slice: int = 30,
    measures: Sequence[str | Measure] = DEFAULT_RANKING,
    validity_mode: ValidityMode = "certain",
    answer_rule: SetRule = "all",
    aliases: Mapping[str, Sequence[str]] | None = None,
    judge: Judge | None = None,
    split: str | None = None,
    entities: CorpusEntities | None = None,
    paraphrases: ParaphraseSource | None = None,
    cutoff: str | None = None,
    twin: Release | str | Path | None = None,
    twin_answers: Answers | None = None,
) -> EvaluationResult:
    """Score a run and/or answers against a release; see ``docs/metrics.md`` for every definition.

    ``compare`` is a second run compared with ``run`` question by question (paired permutation test
    and paired bootstrap CI per metric and slice, McNemar for binary outcomes such as CCR, Benjamini–Hochberg
    across slices); ``compare_answers`` does the same for a second answer file (A, T, AT: McNemar applies).
    ``aliases`` default to every label the release corpus uses for an entity id. ``judge`` is an
    optional LLM judge of time accuracy; its agreement with the deterministic check is reported. ``entities``
    is the release corpus indexed for careful judging (:class:`~chronoqa.score.candidates.CorpusEntities`, made
    from the release when not given): a caller scoring several answer files of one release builds it once.
    ``paraphrases`` is a paraphrase set of the release (``paraphrases.jsonl`` or its records): the answers to its
    accepted paraphrases (ids ``<qid>~p<i>``) are scored with their originals as sets (``paraphrase_sets``:
    ``A_all_k``, ``flip_rate``; :mod:`chronoqa.score.paraphrase_sets`), the other answers as usual.
    ``cutoff`` (``"2023-10"``) adds the ``by_cutoff`` slices to every block (:mod:`chronoqa.score.cutoff`).
    ``twin`` is a counterfactual twin of the release (``chronoqa twin``) and ``twin_answers`` the answers to it:
    ``memory_gap`` compares ``answers`` with them, paired through the twin's ``twin_of.jsonl``.

    The steps: check the arguments, open the release, select the scored questions, score the run
    (:func:`_score_retrieval`), score the answers (:func:`_score_answer_files`), gather the record.
    """
    _check_arguments(n_bootstrap, run, compare, answers, compare_answers, (twin, twin_answers))
    rel = _open_release(release)
    warnings: list[str] = []
    qs = _scored_questions(rel, functional_only, split, warnings)
    stats = _Stats(seed, n_bootstrap, min_slice, None if cutoff is None else parse_time(cutoff, field="cutoff"))
    fields: dict[str, Any] = {} if cutoff is None else {"cutoff": cutoff}
    ev_rows: list[EvidenceRow] = []
    outcomes: list[AnswerOutcome] = []
    trows: list[TimeRow] = []
    phrasings: Phrasings = {}
    values: Metrics = {}
    if run is not None:
        ms = parse_measures(measures)
        ret, ev_rows, values = _score_retrieval(rel, qs, run, compare, ms, validity_mode, stats, warnings)
        fields.update(ret)
    if answers is not None:
        ents = entities if entities is not None else CorpusEntities(rel.corpus)
        al = aliases if aliases is not None else ents.aliases
        kw = {"entities": ents, "aliases": al, "rule": answer_rule, "judge": judge}
        others = (compare_answers, paraphrases, twin, twin_answers)
        ans, outcomes, trows = _score_answer_files(rel, qs, answers, others, kw, stats, warnings, phrasings)
        fields.update(ans)
    metrics = EvaluationMetrics(
        n_questions=len(qs), functional_only=functional_only, split=split, seed=seed, n_bootstrap=n_bootstrap,
        confidence=0.95, min_slice=min_slice, validity_mode=validity_mode, warnings=list(warnings), **fields,
    )  # fmt: skip
    return EvaluationResult(
        metrics, tuple(ev_rows), tuple(outcomes), tuple(trows), tuple(warnings), phrasings, retrieval_values=values
    )
