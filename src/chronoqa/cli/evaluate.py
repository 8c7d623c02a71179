"""``chronoqa evaluate``: score a run and/or answers against a release; print a table, write metrics JSON.

A thin layer over :func:`chronoqa.score.evaluate.evaluate`; only the printed table rounds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from chronoqa.cli._ui import plain_console, warn

if TYPE_CHECKING:
    from chronoqa.artifacts.metrics import (
        Estimate,
        EvaluationMetrics,
        MetricBlock,
        PairedBlock,
        PairedEstimate,
        SliceMetrics,
        TwinRef,
        TwoGold,
    )

__all__ = ["register", "render"]


def _fmt(v: Any) -> str:
    return "–" if v is None else f"{v:.3f}"


def _ci(d: Estimate | PairedEstimate) -> str:
    if d.ci_low is None or d.ci_high is None:
        return "–"
    return f"[{d.ci_low:.3f}, {d.ci_high:.3f}]"


def _block_table(title: str, block: MetricBlock) -> Table:
    table = Table(title=title, title_justify="left")
    for col in ("slice", "metric", "value", "95% CI", "n"):
        table.add_column(col, justify="left" if col in ("slice", "metric") else "right")
    slices: list[tuple[str, SliceMetrics]] = []
    if block.all is not None:
        slices.append(("all", block.all))
    for group, named in block.slices().items():
        slices += ((f"gold {name} cutoff" if group == "by_cutoff" else name, res) for name, res in named.items())
    for label, res in slices:
        first = True
        small = " (small)" if res.small_slice else ""
        for metric, d in res.metrics.items():
            table.add_row(
                f"{label}{small} (n={res.n_questions})" if first else "", metric, _fmt(d.value), _ci(d), str(d.n)
            )
            first = False
        table.add_section()
    return table


def _compare_table(paired: Mapping[str, PairedBlock], title: str) -> Table:
    table = Table(title=title, title_justify="left")
    for col in ("metric", "A", "B", "A − B", "95% CI", "p", "q (BH)", "McNemar p"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    for metric, block in paired.items():
        r = block.all
        table.add_row(
            metric, _fmt(r.a), _fmt(r.b), _fmt(r.diff), _ci(r), _fmt(r.p_value), _fmt(r.q_value_bh), _fmt(r.mcnemar_p)
        )
    return table


def _memory_gap_title(tw: TwinRef) -> str:
    kind = None if tw.transform is None else tw.transform.kind
    return (
        f"memory gap: A = --answers (real), B = --twin-answers ({tw.release}, {kind}; "
        f"{tw.paired} paired questions, {tw.unpaired} without twin)"
    )


def render(metrics: EvaluationMetrics, console: Console) -> None:
    """Print the metrics of :func:`chronoqa.score.evaluate.evaluate` as rich tables (rounded to 3 places)."""
    console.print(
        f"{metrics.n_questions} questions, seed {metrics.seed}, "
        f"{metrics.n_bootstrap} bootstrap resamples, functional_only={metrics.functional_only}"
    )
    titles = {
        "retrieval": "retrieval evidence and ranking",
        "answers": "answer accuracy",
        "time_accuracy": "time",
        "paraphrase_sets": "paraphrase sets (A_all_k: every phrasing right; flip_rate: verdicts differ)",
    }
    for key, title in titles.items():
        block = getattr(metrics, key)
        if block is not None:
            console.print(_block_table(title, block))
    cmp = metrics.compare
    if cmp is not None:
        title = f"paired comparison of runs: A = {cmp.a}, B = {cmp.b} (all questions)"
        console.print(_compare_table(cmp.paired, title))
    if metrics.memory_gap is not None and metrics.twin is not None:
        console.print(_compare_table(metrics.memory_gap.paired, _memory_gap_title(metrics.twin)))
    if metrics.compare_answers is not None:
        title = "paired comparison of answers: A = --answers, B = --compare-answers"
        console.print(_compare_table(metrics.compare_answers.paired, title))
    if metrics.two_gold is not None:
        console.print(_two_gold_table(metrics.two_gold))
        dropped = metrics.two_gold.retired_answers_dropped
        if dropped:
            warn(console, f"{dropped} answers are to questions the refresh retired: not scored (see CHANGES.md)")
    for w in metrics.warnings:
        warn(console, w)


_METRICS_KEYS = frozenset({"n_questions", "seed", "n_bootstrap", "functional_only"})


def _check_out(out: Path, inputs: Sequence[Path | None]) -> None:
    """Refuse an ``--out`` that would replace a file chronoqa did not write as metrics (exit 2, one line).

    An existing ``--out`` is replaced only when it is a metrics file (a JSON object with evaluate's keys);
    never an input, a folder, or a file inside a release folder.
    """
    from chronoqa.artifacts.release import BENCHMARK_FILE
    from chronoqa.errors import ChronoqaError
    from chronoqa.outdir import LOCK_FILE, MARKER

    fix = "give --out a new file path, e.g. --out metrics.json in a folder of your own"
    if out.is_dir():
        raise ChronoqaError(f"--out {out}: is a folder, expected a file path; {fix}")
    if out.name in (MARKER, LOCK_FILE) or (out.name.startswith(".") and out.name.endswith(".lock")):
        raise ChronoqaError(f"--out {out}: is a name chronoqa keeps for its locks and markers; {fix}")
    if any(p is not None and p.exists() and out.exists() and p.samefile(out) for p in inputs):
        raise ChronoqaError(f"--out {out}: is one of evaluate's inputs and would be replaced; {fix}")
    if (out.absolute().parent / BENCHMARK_FILE).is_file():
        raise ChronoqaError(f"--out {out}: is inside a release folder, whose files chronoqa never replaces; {fix}")
    if out.exists():
        try:
            data = json.loads(out.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            data = None
        if not (isinstance(data, dict) and data.keys() >= _METRICS_KEYS):
            raise ChronoqaError(f"--out {out}: exists and is not a metrics file chronoqa wrote; {fix}")


def _release_paraphrases(folder: Path, answers: Path | None) -> Path | None:
    """The release's own paraphrase set, scored with answers that answer it (``chronoqa paraphrase``'s default)."""
    path = folder / "paraphrases.jsonl"
    return path if answers is not None and path.is_file() else None


_Paraphrases = Annotated[
    Path | None,
    typer.Option("--paraphrases", help="Paraphrase set the answers answer (default: the release's, if any)."),
]
_MaxAnswerChars = Annotated[
    int, typer.Option("--max-answer-chars", min=1, help="Longest answer text read; a longer one is an error.")
]
_Cutoff = Annotated[
    str | None,
    typer.Option("--cutoff", help="Knowledge cutoff (e.g. 2023-10): every metric for golds true before / after it."),
]
_Twin = Annotated[
    str | None, typer.Option("--twin", help="A counterfactual twin of --bench (chronoqa twin) for the memory gap.")
]
_TwinAnswers = Annotated[
    Path | None, typer.Option("--twin-answers", help="answers.jsonl to --twin, compared with --answers.")
]
_Measure = Annotated[
    list[str] | None,
    typer.Option("--measure", help="Ranking measure, repeatable (default R@10 nDCG@10 MRR Outrank@10)."),
]
_Wait = Annotated[
    bool,
    typer.Option(help="Wait while another chronoqa command holds --out or a folder above it (default: fail at once)."),
]


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("evaluate")(evaluate_cmd)


def _check_options(
    run: Path | None, answers: Path | None, twin: str | None, twin_answers: Path | None, answer_rule: str
) -> None:
    """The options that need each other or take a fixed set of values (a usage error, exit 2)."""
    if run is None and answers is None:
        raise typer.BadParameter("give --run, --answers or both")
    if (twin is None) != (twin_answers is None) or (twin is not None and answers is None):
        raise typer.BadParameter("the memory gap needs --answers, --twin TWIN_RELEASE and --twin-answers FILE")
    if answer_rule not in ("all", "3_of_many"):
        raise typer.BadParameter(f"--answer-rule {answer_rule!r}: expected 'all' or '3_of_many'")


def _make_judge(judge: str | None, cache: Path | None, out: Path) -> Any:
    """The LLM judge of ``--judge``, or ``None``."""
    if not judge:
        return None
    from chronoqa.judge import make_judge

    return make_judge(judge, cache or out.parent / "cache" / "judge")


def _inputs(
    bench: str,
    answers: Path | None,
    compare: Path | None,
    twin_answers: Path | None,
    max_chars: int,
    split: str | None,
) -> tuple[Any, Any, Any, Any, int]:
    """The release and the answer files read under the answer cap (an error names ``--max-answer-chars``).

    The release's questions are read first, as the scorer reads them: a bad release is the first error. An
    answers file that answers none of the questions scored (empty, or made for another split) is an error. On a
    refreshed release the answers to retired questions are dropped; the last value counts them.
    """
    from chronoqa.artifacts.answers import read_answers
    from chronoqa.artifacts.release import load_release
    from chronoqa.artifacts.remote import local_release
    from chronoqa.errors import ChronoqaError

    release = load_release(local_release(bench))
    _ = release.questions
    files = (answers, compare, twin_answers)
    scored, scored_b, scored_twin = (None if p is None else read_answers(p, max_chars=max_chars) for p in files)
    asked = {q.id for q in release.questions if split is None or q.split == split}
    for flag, path, records in (("--answers", answers, scored), ("--compare-answers", compare, scored_b)):
        if asked and records is not None and not asked.intersection(r.qid for r in records):
            where = f"the {split} split" if split else str(release.path)
            raise ChronoqaError(
                f"{flag} {path}: {len(records)} answer lines, none for the {len(asked)} questions of {where}. "
                f"Fix: give the answers of this release (`chronoqa run` or `chronoqa answer` writes them)"
            )
    scored, retired = _drop_retired(release, scored)
    return release, scored, scored_b, scored_twin, retired


def _drop_retired(release: Any, scored: Any) -> tuple[Any, int]:
    """On a refreshed release, answers to the questions the refresh retired are dropped (and counted)."""
    from chronoqa.score.drift import for_release

    if scored is None:
        return None, 0
    return for_release(release, {r.qid: r for r in scored})


def _two_gold(
    metrics: EvaluationMetrics, release: Any, scored: Any, retired: int, kw: Mapping[str, Any]
) -> EvaluationMetrics:
    """On a refreshed release, ``metrics`` with ``two_gold``: the answers' scores under the old gold and the new."""
    from chronoqa.score.drift import two_gold

    block = None if scored is None else two_gold(release, scored, retired, **kw)
    return metrics if block is None else metrics.model_copy(update={"two_gold": block})


def _two_gold_table(block: TwoGold) -> Table:
    drift = ", ".join(f"{k} {v}" for k, v in block.drift.items())
    table = Table(title=f"refreshed release: the same answers, old gold vs new gold ({drift})", title_justify="left")
    for col in ("metric", "old gold", "new gold", "n"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    for metric, d in block.new_gold.metrics.items():
        old = block.old_gold.get(metric)
        if old is not None:
            table.add_row(metric, _fmt(old.value), _fmt(d.value), str(d.n))
    return table


def evaluate_cmd(
    bench: Annotated[str, typer.Option("--bench", help="Benchmark release folder (a path or a URI).")],
    run: Annotated[Path | None, typer.Option("--run", help="Run file (<name>.run.jsonl).")] = None,
    answers: Annotated[Path | None, typer.Option("--answers", help="answers.jsonl to score.")] = None,
    functional_only: Annotated[
        bool, typer.Option("--functional-only", help="Only questions whose stale negative is functional.")
    ] = False,
    compare: Annotated[Path | None, typer.Option("--compare", help="A second run to compare with --run.")] = None,
    compare_answers: Annotated[
        Path | None, typer.Option("--compare-answers", help="A second answers.jsonl to compare with --answers.")
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Metrics JSON to write.")] = Path("metrics.json"),
    seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap and permutation tests.")] = 0,
    bootstrap: Annotated[int, typer.Option("--bootstrap", help="Bootstrap / permutation resamples.")] = 1000,
    min_slice: Annotated[int, typer.Option("--min-slice", help="Warn on slices smaller than this.")] = 30,
    measure: _Measure = None,
    split: Annotated[str | None, typer.Option("--split", help="Score one split only (train/dev/test).")] = None,
    answer_rule: Annotated[str, typer.Option("--answer-rule", help="Set answers: 'all' or '3_of_many'.")] = "all",
    judge: Annotated[
        str | None,
        typer.Option("--judge", help="LLM judge of time accuracy, e.g. 'llm(model=m,base_url=http://...)'."),
    ] = None,
    judge_cache: Annotated[
        Path | None, typer.Option("--judge-cache", help="Cache folder of the judge (default: beside --out).")
    ] = None,
    max_answer_chars: _MaxAnswerChars = 100_000,
    wait: _Wait = False,
    paraphrases: _Paraphrases = None,
    cutoff: _Cutoff = None,
    twin: _Twin = None,
    twin_answers: _TwinAnswers = None,
) -> None:
    """Score retrieval evidence (TRP, CCR, coverage, R@k, nDCG@k, MRR) and answers (A, T, AT) with 95% CIs."""
    from chronoqa.io import write_json
    from chronoqa.score.evaluate import DEFAULT_RANKING, evaluate

    _check_options(run, answers, twin, twin_answers, answer_rule)
    console = plain_console()
    # user errors (a bad file, an unknown measure) reach chronoqa.cli.main: one line on stderr, exit 2
    llm_judge = _make_judge(judge, judge_cache, out)
    from chronoqa.cli._progress import one_step
    from chronoqa.outdir import ancestor_locks, file_lock

    step = f"evaluate ({bootstrap} bootstrap resamples)"
    with (
        ancestor_locks(out, wait=wait),  # a folder another command holds is the first error
        file_lock(out, wait=wait, what="metrics file"),  # so is another evaluate writing the same --out
    ):
        # under the lock: nothing races it
        _check_out(out, (answers, compare_answers, run, compare, paraphrases, twin_answers))
        with one_step(plain_console(stderr=True), step, None):  # start and end on stderr
            release, scored, scored_b, scored_twin, retired = _inputs(
                bench, answers, compare_answers, twin_answers, max_answer_chars, split
            )
            paraphrases = paraphrases or _release_paraphrases(release.path, answers)
            # the scoring settings, shared by the old-and-new-gold scores of a refreshed release
            kw: dict[str, Any] = {"seed": seed, "n_bootstrap": bootstrap, "split": split, "answer_rule": answer_rule}
            result = evaluate(
                release,
                run=run,
                answers=scored,
                functional_only=functional_only,
                compare=compare,
                compare_answers=scored_b,
                min_slice=min_slice,
                measures=tuple(measure) if measure else DEFAULT_RANKING,
                judge=llm_judge,
                paraphrases=paraphrases,
                cutoff=cutoff,
                twin=twin,
                twin_answers=scored_twin,
                **kw,
            )
            metrics = _two_gold(result.metrics, release, scored, retired, kw)
            write_json(out, metrics.to_dict())
    render(metrics, console)
    console.print(f"metrics written to {out}")
