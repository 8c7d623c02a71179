"""Collect a run's results into its summary (:class:`~chronoqa.artifacts.summary.Summary`, ``summary.json``).

The summary holds: the benchmark's composition; one row per retriever run (controls marked) with
its retrieval metrics and 95% CIs, overall and by operator and complexity; one row per answer file
with answer accuracy (A), time accuracy (T, AT) and outcome rates; warnings (small slices, a
question-only prior that scores well on a slice, controls that misbehave); and the run manifest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from chronoqa.artifacts.answers import AnswersMeta
from chronoqa.artifacts.metrics import (
    MetricBlock,
    MetricsFolder,
    MetricsRecord,
    SliceMetrics,
    read_metrics,
)
from chronoqa.artifacts.release import MANIFEST_FILE, Release, load_release
from chronoqa.artifacts.summary import (
    AnswerRow,
    Composition,
    Drift,
    FunctionalCounts,
    MemoryGap,
    RetrievalRow,
    RunManifest,
    ShownCI,
    SliceCell,
    Slices,
    StageLine,
    Summary,
)
from chronoqa.io import read_json
from chronoqa.records import COMPLEXITIES
from chronoqa.score.outcomes import OUTCOME_CLASSES

__all__ = [
    "ANSWER_METRICS",
    "PRIOR_WARN_CI_LOW",
    "RETRIEVAL_METRICS",
    "build_summary",
]

RETRIEVAL_METRICS = ("R@10", "nDCG@10", "MRR", "TRP_macro", "CCR", "Outrank@10", "coverage", "stale_hit_rate")
ANSWER_METRICS = ("A", "A_strict", "abstain_rate", "error_rate", "outdated_rate")
TIME_METRICS = ("T", "AT", "T_half", "T_loose", *OUTCOME_CLASSES)  # partial credit and TDBench's outcome classes
JOIN_METRICS = ("join_intermediate_right", "join_wrong_given_intermediate")  # join questions only
PARAPHRASE_METRICS = ("A_all_k", "flip_rate", "A_original")  # answers to a paraphrase set only
JUDGE_METRICS = ("judge_agreement", "judge_false_accepts", "judge_false_rejects")  # an LLM judge against the rules
PRIOR_WARN_CI_LOW = 0.2
"""The prior is flagged on a slice whose accuracy's 95% CI lower bound reaches this value."""


def _ci(sl: SliceMetrics | None, metric: str) -> ShownCI | None:
    return ShownCI.of(sl.get(metric) if sl is not None else None)


def _present(sl: SliceMetrics | None, metrics: Sequence[str]) -> dict[str, ShownCI | None]:
    """The metrics ``sl`` has (a block most files lack adds no key to theirs)."""
    return {m: v for m in metrics if (v := _ci(sl, m)) is not None}


def _slices(block: MetricBlock, metrics: Sequence[str]) -> Slices:
    out: Slices = {}
    for group, subs in block.slices().items():  # by_cutoff too, with evaluate --cutoff
        for name, sub in subs.items():
            out.setdefault(group, {})[name] = SliceCell(
                n_questions=sub.n_questions, small=sub.small_slice, metrics={m: _ci(sub, m) for m in metrics}
            )
    return out


def _composition(release: str | Path | Release, split: str, title: str | None) -> Composition:
    rel = release if isinstance(release, Release) else load_release(release)
    qs = rel.questions
    ops = sorted({q.operator for q in qs})
    comps = [c for c in COMPLEXITIES if any(q.complexity == c for q in qs)]
    cells = Counter((q.operator, q.complexity) for q in qs)
    scored = [q for q in qs if split in ("all", q.split)]
    return Composition(
        name=title or str(rel.manifest.get("name") or rel.manifest.get("dataset") or rel.path.name),
        n_questions=len(qs),
        n_scored=len(scored),
        split=split,
        n_docs=len(rel.corpus),
        by_split=dict(sorted(Counter(q.split for q in qs).items())),
        operators=ops,
        complexities=comps,
        cells={op: {c: cells.get((op, c), 0) for c in comps} for op in ops},
        by_answer_type=dict(sorted(Counter(q.answer_type for q in qs).items())),
        by_cardinality=dict(sorted(Counter(q.cardinality for q in qs).items())),
        time_tag_hidden=sum(1 for q in qs if not q.render_time),
        functional=FunctionalCounts(
            dist=sum(1 for f in rel.flags.values() if f.dist_functional),
            stale=sum(1 for f in rel.flags.values() if f.stale_functional),
            n=len(rel.flags),
        ),
        as_of=next((q.as_of for q in qs if q.as_of), None),
        drift=_drift(rel),
    )


def _drift(rel: Release) -> Drift | None:
    """A refreshed release's versions and change counts (``chronoqa refresh``; ``None`` for any other release)."""
    section = rel.manifest.get("refresh")
    if not isinstance(section, Mapping):
        return None
    record = {"from": section.get("previous_version"), "to": rel.manifest.get("release_version")}
    return Drift.from_dict(record | {"changes": section.get("changes") or {}}, str(rel.path / MANIFEST_FILE))


def _retrieval_rows(metrics: MetricsFolder) -> list[RetrievalRow]:
    rows = []
    for rec in metrics.retrieval:
        block = rec.block("retrieval")
        rows.append(
            RetrievalRow(
                name=rec.name,
                spec=rec.spec,
                control=rec.control,
                n_questions=rec.n_questions,
                metrics={m: _ci(block.all, m) for m in RETRIEVAL_METRICS},
                slices=_slices(block, ("R@10", "CCR", "TRP_macro")),
                warnings=list(rec.warnings),
            )
        )
    rows.sort(key=lambda r: (r.control, r.name))
    return rows


def _answer_rows(metrics: MetricsFolder) -> list[AnswerRow]:
    rows = []
    for rec in metrics.answers:
        meta = rec.answer_meta or AnswersMeta()
        ans, tim = rec.block("answers"), rec.block("time_accuracy")
        judge = {m: ci for m in JUDGE_METRICS if (ci := _ci(tim.all, m)) is not None}
        rows.append(
            AnswerRow(
                name=rec.name,
                answerer=rec.name if meta.answerer is None else meta.answerer,
                run=None if meta.run is None else meta.run.spec,
                run_control=meta.run_control,
                protocol=None if meta.protocol is None else meta.protocol.id,
                replies=rec.metrics.replies or meta.replies,  # a structured protocol's parse rate
                model=meta.model,
                by_status=meta.by_status,
                metrics={
                    **{m: _ci(ans.all, m) for m in ANSWER_METRICS},
                    **{m: _ci(tim.all, m) for m in TIME_METRICS},
                    **{m: _ci(ans.all, m) for m in JOIN_METRICS},
                    **_present(rec.block("paraphrase_sets").all, PARAPHRASE_METRICS),
                },
                judge=judge,
                n_time_refs_missing=tim.n_no_refs,
                slices=_slices(ans, ("A", "outdated_rate")),
                warnings=list(rec.warnings),
                **_optional(rec),
            )
        )
    rows.sort(key=lambda r: (r.answerer != "prior", r.name))
    return rows


def _optional(rec: MetricsRecord) -> dict[str, Any]:
    """An answer row's optional keys, each only when its evaluation made it (other rows keep their bytes).

    ``paraphrases`` for answers to a paraphrase set, ``two_gold`` on a refreshed release, ``memory_gap`` with a twin.
    """
    m = rec.metrics
    out: dict[str, Any] = {} if not m.paraphrases else {"paraphrases": m.paraphrases}
    if m.two_gold is not None:
        out["two_gold"] = m.two_gold
    gap = None if m.memory_gap is None else m.memory_gap.paired.get("A")
    if gap is None or m.twin is None:
        return out
    families = {k: v for k, v in gap.by_operator.items() if v.n >= m.min_slice}
    out["memory_gap"] = MemoryGap(
        twin=m.twin,
        metric="A",
        all=gap.all,
        by_operator=families,
        min_slice=m.min_slice,
        n_small_families=len(gap.by_operator) - len(families),
    )
    return out


def _warnings(retrieval: Sequence[RetrievalRow], answers: Sequence[AnswerRow], min_slice: int) -> list[str]:
    """The run's warnings: each row's (a small slice once), a strong question-only prior, misbehaving controls."""
    out: list[str] = []
    seen: set[str] = set()
    rows: list[RetrievalRow | AnswerRow] = [*retrieval, *answers]
    for row in rows:
        for w in row.warnings:
            if "slice" in w:
                # the same small slice recurs for every run: report it once
                key = w.split(" slice ", 1)[-1]
                if key in seen:
                    continue
                seen.add(key)
                out.append(f"small slice: {key}")
            else:
                out.append(f"{row.name}: {w}")
    for row in answers:
        if row.answerer == "prior":
            out += _prior_warnings(row, min_slice)
    for ret in retrieval:
        out += _control_warnings(ret)
    return out


def _prior_warnings(row: AnswerRow, min_slice: int) -> list[str]:
    """The question-only prior scores well overall or on a slice large enough to trust."""
    out = []
    a = row.metrics.get("A")
    if a is not None and a.lo is not None and a.lo >= PRIOR_WARN_CI_LOW:
        out.append(
            f"question-only prior scores A={a.value:.3f} [{a.lo:.3f}, {a.hi:.3f}] overall: "
            "the benchmark is partly answerable without evidence"
        )
    for group, slices in row.slices.items():
        for name, s in slices.items():
            sa, n = s.get("A"), s.n_questions
            if n >= min_slice and sa is not None and sa.lo is not None and sa.lo >= PRIOR_WARN_CI_LOW:
                out.append(
                    f"strong question-only prior on {group.removeprefix('by_')}={name}: the prior scores "
                    f"A={sa.value:.3f} [{sa.lo:.3f}, {sa.hi:.3f}] (n={n}) without reading any evidence; "
                    "read this slice's answer accuracy as partly a shortcut"
                )
    return out


def _value(row: RetrievalRow, metric: str) -> float | None:
    ci = row.metrics.get(metric)
    return None if ci is None else ci.value


def _control_warnings(row: RetrievalRow) -> list[str]:
    """A control run that does not do what it should (the oracle misses gold, a negative control finds it)."""
    out = []
    if row.spec.startswith(("stale_only", "dist_only")) and _value(row, "coverage") == 0:
        out.append(
            f"control {row.spec} retrieved nothing for any question: no scored question has such negatives "
            "(e.g. the data has no same-(s,r,o) facts in other periods), so they test nothing here"
        )
    ccr = _value(row, "CCR")
    if ccr is None:
        return out
    if row.spec.startswith("oracle") and ccr < 0.99:
        out.append(f"control oracle has CCR {ccr:.3f} < 1: some gold facts are missing from the corpus")
    if row.spec.startswith(("stale_only", "dist_only", "empty", "random")) and ccr > 0.05:
        out.append(f"control {row.spec} has CCR {ccr:.3f} > 0.05: negatives may not be functional")
    return out


def _stages(run_dir: str | Path | None) -> list[StageLine]:
    """The run folder's stages in pipeline order (no timings: the report is a deterministic function of the run)."""
    if run_dir is None:
        return []
    order = ("fetch", "build", "paraphrase", "retrieve-", "answer-", "evaluate", "report")

    def rank(p: Path) -> tuple[int, str]:
        name = p.parent.name
        return (next((i for i, pre in enumerate(order) if name.startswith(pre)), len(order)), name)

    stages = []
    for p in sorted(Path(run_dir).glob("*/stage.json"), key=rank):
        m = read_json(p)
        stages.append(
            StageLine(name=m.get("name"), files=len(m.get("outputs") or {}), fingerprint=m.get("fingerprint"))
        )
    return stages


def build_summary(
    release: str | Path | Release,
    metrics: str | Path | MetricsFolder,
    *,
    config: Mapping[str, Any] | None = None,
    run_dir: str | Path | None = None,
    title: str | None = None,
) -> Summary:
    """The summary of a run (``summary.json``, :class:`~chronoqa.artifacts.summary.Summary`).

    ``metrics`` is an evaluate folder (:mod:`chronoqa.artifacts.metrics`), as a path or read.
    """
    cfg = dict(config or {})
    split = str(cfg.get("split", "test"))
    min_slice = int((cfg.get("evaluate") or {}).get("min_slice", 30))
    folder = metrics if isinstance(metrics, MetricsFolder) else read_metrics(metrics)
    retrieval = _retrieval_rows(folder)
    answers = _answer_rows(folder)
    return Summary(
        format=1,
        composition=_composition(release, split, title),
        retrieval=retrieval,
        answers=answers,
        warnings=_warnings(retrieval, answers, min_slice),
        manifest=RunManifest(config=cfg, stages=_stages(run_dir)),
    )
