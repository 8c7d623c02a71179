"""Collect a run's results into one JSON-able summary (what the HTML and Markdown reports render).

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

from chronoqa.artifacts.metrics import MetricBlock, MetricsFolder, SliceMetrics, read_metrics
from chronoqa.artifacts.release import Release, load_release
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


def _ci(sl: SliceMetrics | None, metric: str) -> dict[str, Any] | None:
    m = sl.get(metric) if sl is not None else None
    if m is None:
        return None
    return {"value": m.value, "lo": m.ci_low, "hi": m.ci_high, "n": m.n}


def _present(sl: SliceMetrics | None, metrics: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The metrics ``sl`` has (a block most files lack adds no key to theirs)."""
    return {m: v for m in metrics if (v := _ci(sl, m)) is not None}


def _slices(block: MetricBlock, metrics: Sequence[str]) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for group in ("by_operator", "by_complexity", "by_cutoff"):  # by_cutoff: evaluate --cutoff
        for name, sub in getattr(block, group).items():
            out.setdefault(group, {})[name] = {
                "n_questions": sub.n_questions,
                "small": sub.small_slice,
                **{m: _ci(sub, m) for m in metrics},
            }
    return out


def _composition(release: str | Path | Release, split: str, title: str | None) -> dict[str, Any]:
    rel = release if isinstance(release, Release) else load_release(release)
    qs = rel.questions
    ops = sorted({q.operator for q in qs})
    comps = [c for c in COMPLEXITIES if any(q.complexity == c for q in qs)]
    cells = Counter((q.operator, q.complexity) for q in qs)
    scored = [q for q in qs if split in ("all", q.split)]
    return {
        "name": title or str(rel.manifest.get("name") or rel.manifest.get("dataset") or rel.path.name),
        "n_questions": len(qs),
        "n_scored": len(scored),
        "split": split,
        "n_docs": len(rel.corpus),
        "by_split": dict(sorted(Counter(q.split for q in qs).items())),
        "operators": ops,
        "complexities": comps,
        "cells": {op: {c: cells.get((op, c), 0) for c in comps} for op in ops},
        "by_answer_type": dict(sorted(Counter(q.answer_type for q in qs).items())),
        "by_cardinality": dict(sorted(Counter(q.cardinality for q in qs).items())),
        "time_tag_hidden": sum(1 for q in qs if not q.render_time),
        "functional": {
            "dist": sum(1 for f in rel.flags.values() if f.dist_functional),
            "stale": sum(1 for f in rel.flags.values() if f.stale_functional),
            "n": len(rel.flags),
        },
        "as_of": next((q.as_of for q in qs if q.as_of), None),
        "drift": _drift(rel.manifest),
    }


def _drift(manifest: Mapping[str, Any]) -> dict[str, Any] | None:
    """A refreshed release's versions and change counts (``chronoqa refresh``; ``None`` for any other release)."""
    section = manifest.get("refresh")
    if not isinstance(section, Mapping):
        return None
    return {"from": section.get("previous_version"), "to": manifest.get("release_version"),
            "changes": dict(section.get("changes") or {})}  # fmt: skip


def _retrieval_rows(metrics: MetricsFolder) -> list[dict[str, Any]]:
    rows = []
    for rec in metrics.retrieval:
        block = rec.block("retrieval")
        rows.append(
            {
                "name": rec.name,
                "spec": rec.spec,
                "control": rec.control,
                "n_questions": rec.n_questions,
                "metrics": {m: _ci(block.all, m) for m in RETRIEVAL_METRICS},
                "slices": _slices(block, ("R@10", "CCR", "TRP_macro")),
                "warnings": list(rec.warnings),
            }
        )
    rows.sort(key=lambda r: (r["control"], r["name"]))
    return rows


def _answer_rows(metrics: MetricsFolder) -> list[dict[str, Any]]:
    rows = []
    for rec in metrics.answers:
        meta = rec.answer_meta or {}
        ans, tim = rec.block("answers"), rec.block("time_accuracy")
        run = meta.get("run") or {}
        rows.append(
            {
                "name": rec.name,
                "answerer": meta.get("answerer", rec.name),
                "run": run.get("spec") if run else None,
                "run_control": bool(run.get("control", False)) if run else False,
                "protocol": (meta.get("protocol") or {}).get("id"),
                "replies": rec.metrics.replies or meta.get("replies"),  # a structured protocol's parse rate
                "model": meta.get("model"),
                "by_status": meta.get("by_status", {}),
                "metrics": {
                    **{m: _ci(ans.all, m) for m in ANSWER_METRICS},
                    **{m: _ci(tim.all, m) for m in TIME_METRICS},
                    **{m: _ci(ans.all, m) for m in JOIN_METRICS},
                    **_present(rec.block("paraphrase_sets").all, PARAPHRASE_METRICS),
                },
                "judge": {m: _ci(tim.all, m) for m in JUDGE_METRICS if _ci(tim.all, m) is not None},
                "n_time_refs_missing": tim.n_no_refs,
                "slices": _slices(ans, ("A", "outdated_rate")),
                "warnings": list(rec.warnings),
            }
            | ({"paraphrases": rec.metrics.paraphrases} if rec.metrics.paraphrases else {})
        )
    rows.sort(key=lambda r: (r["answerer"] != "prior", r["name"]))
    return rows


def _warnings(retrieval: list[dict[str, Any]], answers: list[dict[str, Any]], min_slice: int) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for row in retrieval + answers:
        for w in row["warnings"]:
            if "slice" in w:
                # the same small slice recurs for every run: report it once
                key = w.split(" slice ", 1)[-1]
                if key in seen:
                    continue
                seen.add(key)
                out.append(f"small slice: {key}")
            else:
                out.append(f"{row['name']}: {w}")
    for row in answers:
        if row["answerer"] != "prior":
            continue
        a = row["metrics"].get("A") or {}
        if a.get("lo") is not None and a["lo"] >= PRIOR_WARN_CI_LOW:
            out.append(
                f"question-only prior scores A={a['value']:.3f} [{a['lo']:.3f}, {a['hi']:.3f}] overall: "
                "the benchmark is partly answerable without evidence"
            )
        for group, slices in row["slices"].items():
            for name, s in slices.items():
                sa = s.get("A") or {}
                n = s.get("n_questions") or 0
                if n >= min_slice and sa.get("lo") is not None and sa["lo"] >= PRIOR_WARN_CI_LOW:
                    out.append(
                        f"strong question-only prior on {group.removeprefix('by_')}={name}: the prior scores "
                        f"A={sa['value']:.3f} [{sa['lo']:.3f}, {sa['hi']:.3f}] (n={n}) without reading any evidence; "
                        "read this slice's answer accuracy as partly a shortcut"
                    )
    for row in retrieval:
        cov = (row["metrics"].get("coverage") or {}).get("value")
        if row["spec"].startswith(("stale_only", "dist_only")) and cov == 0:
            out.append(
                f"control {row['spec']} retrieved nothing for any question: no scored question has such negatives "
                "(e.g. the data has no same-(s,r,o) facts in other periods), so they test nothing here"
            )
        ccr = (row["metrics"].get("CCR") or {}).get("value")
        if ccr is None:
            continue
        if row["spec"].startswith("oracle") and ccr < 0.99:
            out.append(f"control oracle has CCR {ccr:.3f} < 1: some gold facts are missing from the corpus")
        if row["spec"].startswith(("stale_only", "dist_only", "empty", "random")) and ccr > 0.05:
            out.append(f"control {row['spec']} has CCR {ccr:.3f} > 0.05: negatives may not be functional")
    return out


def build_summary(
    release: str | Path | Release,
    metrics: str | Path | MetricsFolder,
    *,
    config: Mapping[str, Any] | None = None,
    run_dir: str | Path | None = None,
    title: str | None = None,
) -> dict[str, Any]:
    """The summary of a run: composition, retrieval rows, answer rows, warnings, manifest.

    ``metrics`` is an evaluate folder (:mod:`chronoqa.artifacts.metrics`), as a path or read.
    """
    cfg = dict(config or {})
    split = str(cfg.get("split", "test"))
    min_slice = int((cfg.get("evaluate") or {}).get("min_slice", 30))
    folder = metrics if isinstance(metrics, MetricsFolder) else read_metrics(metrics)
    retrieval = _retrieval_rows(folder)
    answers = _answer_rows(folder)
    stages = []
    if run_dir is not None:
        order = ("fetch", "build", "paraphrase", "retrieve-", "answer-", "evaluate", "report")

        def rank(p: Path) -> tuple[int, str]:
            name = p.parent.name
            return (next((i for i, pre in enumerate(order) if name.startswith(pre)), len(order)), name)

        for p in sorted(Path(run_dir).glob("*/stage.json"), key=rank):
            m = read_json(p)
            # no timings here: the report is a deterministic function of the run (timings live in stage.json)
            stages.append(
                {"name": m.get("name"), "files": len(m.get("outputs") or {}), "fingerprint": m.get("fingerprint")}
            )
    return {
        "format": 1,
        "composition": _composition(release, split, title),
        "retrieval": retrieval,
        "answers": answers,
        "warnings": _warnings(retrieval, answers, min_slice),
        "manifest": {"config": cfg, "stages": stages},
    }
