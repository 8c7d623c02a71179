"""``chronoqa run``: data → benchmark → retrieval → answers → scores → report, in one resumable command.

Stages (each a folder of the run directory, see :mod:`chronoqa.pipeline.stages`)::

    fetch                 the dataset's files, checksum-verified (recorded, not copied)
    build                 the benchmark release folder (chronoqa.generate.kg; with tables, chronoqa.generate.table)
    paraphrase            with [paraphrase] paraphraser: the split's paraphrase set, answered by every answerer too
    retrieve-<spec>       one run file per retriever and control
    answer-<answerer>     answers.jsonl per answerer (the extractive reader once per run it reads)
    twin                  with [twin] kind: the release's counterfactual twin (chronoqa twin), then
    twin-retrieve-<spec>  the runs its answerers read and
    twin-answer-<name>    each answerer's answers to the twin (the memory gap: docs/report.md)
    evaluate              metrics JSON per run and per answer file (chronoqa.score.evaluate)
    report                report.html (self-contained) + report.md + summary.json

Two identical runs write byte-identical files, except the wall-clock timings, which live in files of
their own: ``timings.json`` of the run folder says what the last invocation did, per stage its seconds
and whether it was skipped as unchanged, and holds the retrieval timings of the runs it computed (each
retriever's ``*.run.timing.json``, moved out of its stage folder). A resumed run therefore ends with
the same files as an uninterrupted one.

A stage whose inputs and config are unchanged is skipped, so rerunning a killed or finished run only
computes what is missing. LLM responses are cached in ``<run>/cache/`` (outside the stage folders) so
a killed LLM stage resumes without re-asking finished questions.
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from chronoqa._gc import return_freed_memory
from chronoqa.artifacts.answers import ANSWERS_FILE
from chronoqa.artifacts.metrics import EvaluationMetrics
from chronoqa.artifacts.paraphrases import PARAPHRASES_FILE, read_paraphrases, write_paraphrases
from chronoqa.artifacts.release import BENCHMARK_FILE, Release, load_release
from chronoqa.artifacts.summary import Summary, read_summary, write_summary
from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.io import read_json, sha256_file, write_json, write_text
from chronoqa.outdir import OutputFolder
from chronoqa.pipeline.config import RunConfig, build_kwargs, dump_toml
from chronoqa.pipeline.stages import Stage, StageResult, StageRunner
from chronoqa.time import TimePoint

__all__ = ["TIMINGS_FILE", "PipelineResult", "Progress", "run_pipeline", "stage_name"]

TIMINGS_FILE = "timings.json"


class Progress(Protocol):
    """What the pipeline reports progress to (the CLI passes a progress display or a log writer).

    Per stage: :meth:`begin` before it runs (or is found unchanged), :meth:`start` from inside the stage
    once it knows how many units of work it has (not every stage calls it), :meth:`finish` after it, with
    the stage's measured seconds in ``result.seconds``.
    """

    def begin(self, stage: str) -> None:
        """A stage is about to run (or be skipped as unchanged)."""
        ...

    def start(self, stage: str, total: int | None) -> Callable[[int], None]:
        """A stage has ``total`` units of work; returns a callback advancing its count by n units."""
        ...

    def finish(self, stage: str, result: StageResult) -> None:
        """A stage finished (or was skipped)."""
        ...


class _Quiet:
    def begin(self, stage: str) -> None:
        pass

    def start(self, stage: str, total: int | None) -> Callable[[int], None]:
        return lambda n: None

    def finish(self, stage: str, result: StageResult) -> None:
        pass


def stage_name(kind: str, spec: str) -> str:
    """A folder-safe stage name: ``retrieve-hybrid(bm25,dense)`` stays readable, slashes and spaces go."""
    safe = re.sub(r"[^A-Za-z0-9_.,=+@()-]+", "_", spec)
    return f"{kind}-{safe}"


@dataclass(frozen=True)
class PipelineResult:
    """Where everything went, and what each stage did."""

    run_dir: Path
    stages: Sequence[StageResult]
    summary: Summary
    report_html: Path
    report_md: Path
    warnings: Sequence[str] = field(default_factory=tuple)


# --------------------------------------------------------------------------------------------------
# Stage functions
# --------------------------------------------------------------------------------------------------


def _fetch_stage(cfg: RunConfig) -> Callable[[Path], Mapping[str, Any]]:
    def fn(out: Path) -> Mapping[str, Any]:
        if cfg.tables:
            missing = [t for t in cfg.tables if not Path(t).is_file()]
            if missing:
                raise ChronoqaError(f"--tables {missing[0]}: no such table file")
            info: dict[str, Any] = {"source": "tables", "paths": [str(Path(t).resolve()) for t in cfg.tables]}
            info["files"] = {Path(t).name: sha256_file(Path(t)) for t in cfg.tables}
            write_json(out / "fetch.json", info)
            return {"n_files": len(cfg.tables)}
        if cfg.files:
            src = Path(cfg.files)
            if not src.exists():
                raise ChronoqaError(f"--files {src}: no such file or folder")
            files = sorted(p for p in (src.rglob("*") if src.is_dir() else [src]) if p.is_file())
            info = {"source": "files", "path": str(src.resolve()), "files": {}}
        else:
            from chronoqa.datasets import fetch, get_spec

            folder = fetch(cfg.dataset)
            spec = get_spec(cfg.dataset)
            info = {"source": "dataset", "dataset": cfg.dataset, "path": str(folder.resolve()), "files": {}}
            files = sorted(folder / f.name for f in spec.files)
            info["licence"] = spec.licence
            info["citation"] = spec.citation
        info["files"] = {p.name: sha256_file(p) for p in files}
        write_json(out / "fetch.json", info)
        return {"n_files": len(files)}

    return fn


def _load_graph(cfg: RunConfig, fetch_dir: Path, as_of: TimePoint) -> Any:
    """The graph to build from, read exactly as ``chronoqa build kg`` reads it (same ``as_of``)."""
    info = read_json(fetch_dir / "fetch.json")
    if info["source"] == "dataset":
        from chronoqa.datasets import load_graph

        return load_graph(cfg.dataset, as_of=as_of)
    from chronoqa.sources import read_graph

    return read_graph(Path(info["path"]), on_bad_row="skip", on_reversed="keep", as_of=as_of)


def _table_build_stage(cfg: RunConfig, fetch_dir: Path, progress: Progress) -> Callable[[Path], Mapping[str, Any]]:
    """The build stage for ``tables``: a table benchmark (``[build]`` holds TableBuildConfig fields)."""

    def fn(out: Path) -> Mapping[str, Any]:
        from chronoqa.generate.table import PhraseBook, TableBuildConfig, build_table_benchmark
        from chronoqa.generate.table.build import read_table_files
        from chronoqa.generate.table.recognise import recognise_files

        known = {f.name for f in dataclasses.fields(TableBuildConfig)}
        for key in cfg.build:
            if key not in known:
                raise UnknownNameError("[build] setting of a table build", key, sorted(known))
        tick = progress.start("build", 1)
        tables, sources = read_table_files(read_json(fetch_dir / "fetch.json")["paths"])
        found = recognise_files(tables, sources)  # TDBench's files get their declarations, as in `build table`
        for note in found.notes:
            if note.startswith("warning: "):
                warnings.warn(note.removeprefix("warning: "), stacklevel=1)
        settings = {"seed": cfg.seed, **cfg.build}
        settings["delimiters"] = found.delimiters(dict(cfg.build.get("delimiters", {})))
        build_cfg = TableBuildConfig(**settings)
        build = build_table_benchmark(tables, build_cfg, phrases=found.phrases(PhraseBook()), sources=sources)
        build.write(out)
        tick(1)
        return {"n_questions": len(build.questions), "declarations": sorted(d.dataset for d in found.declared.values())}

    return fn


def _build_stage(cfg: RunConfig, fetch_dir: Path, progress: Progress) -> Callable[[Path], Mapping[str, Any]]:
    if cfg.tables:
        return _table_build_stage(cfg, fetch_dir, progress)

    def fn(out: Path) -> Mapping[str, Any]:
        from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark

        defaults: dict[str, Any] = {"seed": cfg.seed}
        if cfg.files:  # a user's relations have no shipped phrases: phrase them generically unless told otherwise
            defaults["generic_phrases"] = True
        build_cfg = KGBuildConfig(**{**defaults, **build_kwargs(cfg.build)})
        graph = _load_graph(cfg, fetch_dir, build_cfg.as_of_point)
        tick = progress.start("build", build_cfg.n_questions)
        done = [0]

        def on_progress(n_done: int, total: int) -> None:
            tick(max(0, n_done - done[0]))
            done[0] = max(done[0], n_done)

        fetch_info = read_json(fetch_dir / "fetch.json")
        kg = build_kg_benchmark(graph, build_cfg, sources=fetch_info, progress=on_progress)
        kg.write(out)
        return {"n_questions": len(kg.questions)}

    return fn


def _retrieve_stage(
    release: Release, spec: str, k: int, split: str, progress: Progress, name: str, timings: dict[str, Any]
) -> Callable[[Path], Mapping[str, Any]]:
    def fn(out: Path) -> Mapping[str, Any]:
        from chronoqa.artifacts.runs import read_timing, timing_path
        from chronoqa.retrieve import run_retrieval

        state: dict[str, Any] = {"tick": None, "done": 0}

        def on_progress(_spec: str, done: int, total: int) -> None:
            if state["tick"] is None:
                state["tick"] = progress.start(name, total)
            state["tick"](done - state["done"])
            state["done"] = done

        def on_encoding(_spec: str, done: int, total: int) -> None:
            if state.get("encoded") is None:
                state["encoded"] = [0, progress.start(f"{name}: encoding corpus", total)]
            state["encoded"][1](done - state["encoded"][0])
            state["encoded"][0] = done

        (res,) = run_retrieval(
            release, [spec], out, k=k, split=split, reuse=False, progress=on_progress, encoding=on_encoding
        )
        if state["tick"] is None:
            progress.start(name, 1)(1)
        timings[name] = read_timing(res.path)  # wall clock: into the run's timings.json, not the stage folder
        timing_path(res.path).unlink(missing_ok=True)
        return {"spec": res.spec, "file": res.path.name, "control": res.control, "n_questions": res.n_questions}

    return fn


def _run_file(stage_dir: Path) -> Path:
    files = sorted(stage_dir.glob("*.run.jsonl"))
    if len(files) != 1:
        raise ChronoqaError(f"{stage_dir}: expected one *.run.jsonl, found {len(files)}")
    return files[0]


def _paraphrase_stage(cfg: RunConfig, rel: Release, progress: Progress) -> Callable[[Path], Mapping[str, Any]]:
    """The paraphrase set of the split's questions (``paraphrases.jsonl`` and its rejection counts)."""

    def fn(out: Path) -> Mapping[str, Any]:
        from chronoqa.paraphrase import GrammarParaphraser, paraphrase_questions

        tick = progress.start("paraphrase", 1)
        qs = [q for q in rel.questions if cfg.split in ("all", q.split)]
        result = paraphrase_questions(qs, GrammarParaphraser(), cfg.paraphrase_k)
        write_paraphrases(out / PARAPHRASES_FILE, result.records)
        write_json(out / "paraphrases.rates.json", {"paraphraser": GrammarParaphraser.name, **result.rates})
        tick(1)
        return {k: result.rates[k] for k in ("n_questions", "n_with_all_n", "n_with_none", "accepted", "rejected")}

    return fn


def _answer_stage(
    rel: Release,
    spec: str,
    run_file: Path | None,
    split: str,
    limit: int,
    cache: Path,
    progress: Progress,
    name: str,
    paraphrases: Path | None = None,
) -> Callable[[Path], Mapping[str, Any]]:
    def fn(out: Path) -> Mapping[str, Any]:
        from chronoqa.answer import answer_release, make_answerer

        n = sum(1 for q in rel.questions if q.split == split)
        tick = progress.start(name, min(n, limit) if limit else n)
        s = answer_release(
            rel,
            make_answerer(spec),
            out,
            run=run_file,
            split=split,
            cache_dir=cache,
            progress=tick,
            limit=limit or None,
            paraphrases=read_paraphrases(paraphrases) if paraphrases is not None else (),
        )
        return {"n": s.n, "by_status": dict(s.by_status)}

    return fn


def _evaluate_stage(
    cfg: RunConfig,
    rel: Release,
    runs: Mapping[str, Path],
    answers: Mapping[str, Path],
    progress: Progress,
    cache: Path,
    paraphrases: Path | None = None,
    twin: _Twin | None = None,
) -> Callable[[Path], Mapping[str, Any]]:
    def fn(out: Path) -> Mapping[str, Any]:
        from chronoqa.artifacts.answers import read_answers_meta
        from chronoqa.artifacts.metrics import MetricsRecord, write_metrics, write_verdicts
        from chronoqa.judge import make_judge
        from chronoqa.report.verdicts import answer_verdicts, retrieval_verdicts
        from chronoqa.score.candidates import CorpusEntities
        from chronoqa.score.evaluate import evaluate

        tick = progress.start("evaluate", len(runs) + len(answers))
        kw: dict[str, Any] = {"split": cfg.split, "seed": cfg.seed, "n_bootstrap": cfg.n_bootstrap}
        cutoff = cfg.cutoff_date or None  # [cutoff] date: the by_cutoff slices of every block
        for name, run in sorted(runs.items()):
            res = evaluate(rel, run=run, min_slice=cfg.min_slice, cutoff=cutoff, **kw)
            write_metrics(out, "retrieval", MetricsRecord(name, res.metrics))
            write_verdicts(out, "retrieval", name, retrieval_verdicts(res, run, rel))
            tick(1)
        entities = CorpusEntities(rel.corpus) if answers else None  # once per release, not once per answer file
        for name, ans in sorted(answers.items()):
            judge = make_judge(cfg.judge, cache / "judge") if cfg.judge else None  # its own call counts per file
            gap = {} if twin is None or name not in twin.answers else twin.gap_args(name)
            res = evaluate(
                rel,
                answers=ans,
                entities=entities,
                min_slice=cfg.min_slice,
                judge=judge,
                paraphrases=paraphrases,
                cutoff=cutoff,
                **gap,
                **kw,
            )
            metrics = _with_two_gold(rel, ans, res.metrics, kw)
            write_metrics(out, "answers", MetricsRecord(name, metrics, read_answers_meta(ans)))
            write_verdicts(out, "answers", name, answer_verdicts(res, ans))
            tick(1)
        return {"n_runs": len(runs), "n_answer_files": len(answers)}

    return fn


def _with_two_gold(rel: Release, answers: Path, metrics: EvaluationMetrics, kw: Mapping[str, Any]) -> EvaluationMetrics:
    """On a refreshed release (``chronoqa refresh``): ``metrics`` with the carried questions' two-gold scores."""
    from chronoqa.artifacts.answers import read_answers
    from chronoqa.artifacts.changes import CHANGES_FILE
    from chronoqa.score.drift import two_gold

    if not (rel.path / CHANGES_FILE).is_file():
        return metrics
    block = two_gold(rel, {r.qid: r for r in read_answers(answers)}, 0, **kw)
    return metrics if block is None else metrics.model_copy(update={"two_gold": block})


def _twin_stage(cfg: RunConfig, rel: Release, progress: Progress) -> Callable[[Path], Mapping[str, Any]]:
    """The release's counterfactual twin (``chronoqa twin``) under ``release/`` of the stage folder."""

    def fn(out: Path) -> Mapping[str, Any]:
        from chronoqa.generate.twin import make_twin

        tick = progress.start("twin", 1)
        source = Path(cfg.files) if cfg.files else None  # a named dataset is found by its name
        rec = make_twin(
            rel.path, cfg.twin_kind, out / "release", seed=cfg.twin_seed, years=_twin_years(cfg), source=source
        )
        tick(1)
        return {k: rec[k] for k in ("pairs", "questions", "source_questions")}

    return fn


def _twin_years(cfg: RunConfig) -> int:
    """The years a shift_years twin moves (0 for the other kinds, which move no date)."""
    return cfg.twin_years if cfg.twin_kind == "shift_years" else 0


def _report_stage(
    cfg: RunConfig, release: Release, eval_dir: Path, run_dir: Path, progress: Progress
) -> Callable[[Path], Mapping[str, Any]]:
    def fn(out: Path) -> Mapping[str, Any]:
        from chronoqa.report import build_explorer, build_summary, render_html, render_markdown

        tick = progress.start("report", 1)
        summary = build_summary(release, eval_dir, config=_portable(cfg), run_dir=run_dir, title=cfg.source_name)
        explorer = build_explorer(release, eval_dir, split=cfg.split)
        write_summary(out, summary)
        write_text(out / "report.md", render_markdown(summary, explorer))
        write_text(out / "report.html", render_html(summary, explorer))
        tick(1)
        return {"n_warnings": len(summary.warnings)}

    return fn


# --------------------------------------------------------------------------------------------------
# The pipeline
# --------------------------------------------------------------------------------------------------


def _portable(cfg: RunConfig) -> dict[str, Any]:
    """The config without the run folder's path: the report is the same wherever the run folder lives."""
    return {k: v for k, v in cfg.to_dict().items() if k != "out"}


def _answer_plan(cfg: RunConfig, run_names: Sequence[str]) -> list[tuple[str, str, str | None]]:
    """(stage name, answerer spec, run name or None) for every answer stage."""
    from chronoqa.answer import make_answerer

    plan: list[tuple[str, str, str | None]] = []
    for spec in cfg.baselines:
        answerer = make_answerer(spec)  # validates the spec early
        if answerer.uses_evidence:
            wanted = list(cfg.reader_runs) or list(run_names)
            for r in wanted:
                if r not in run_names:
                    raise ChronoqaError(f"answer.reader_runs names {r!r}, which is not a run of this pipeline")
                plan.append((stage_name("answer", f"{spec}@{r}"), spec, r))
        else:
            plan.append((stage_name("answer", spec), spec, None))
    if cfg.llm:
        base = cfg.llm.strip()
        for proto in cfg.protocols:
            spec = _with_protocol(base, proto)
            answerer = make_answerer(spec)
            if answerer.uses_evidence:
                if cfg.llm_run not in run_names:
                    raise ChronoqaError(f"answer.llm_run {cfg.llm_run!r} is not a run of this pipeline")
                plan.append((stage_name("answer", f"llm-{proto}@{cfg.llm_run}"), spec, cfg.llm_run))
            else:
                plan.append((stage_name("answer", f"llm-{proto}"), spec, None))
    return plan


def _with_protocol(spec: str, proto: str) -> str:
    spec = re.sub(r",?\s*protocol=[^,)]*", "", spec)
    if spec.endswith(")"):
        return spec[:-1] + ("," if not spec.endswith("(") else "") + f"protocol={proto})"
    return f"{spec}(protocol={proto})"


def run_pipeline(
    cfg: RunConfig, *, progress: Progress | None = None, force: bool = False, wait: bool = False
) -> PipelineResult:
    """Run (or resume) every stage of a run; returns where the report and summary are.

    The run folder is an :class:`~chronoqa.outdir.OutputFolder`: a folder that is neither new, empty nor a
    chronoqa run folder is refused before anything is written (``force`` recomputes our stages, nothing else).
    The run holds the folder's lock from before it touches any file until it returns: a second writer on the
    same folder (or on a folder inside it) raises :class:`~chronoqa.outdir.FolderLockedError` at once, or
    waits for the lock with ``wait=True``.
    """
    _check_inputs(cfg)  # before the lock, which creates the run folder: a bad input writes nothing
    with OutputFolder(cfg.out_dir, "run", wait=wait) as folder:
        return _run_locked(cfg, progress or _Quiet(), force, folder)


def _check_inputs(cfg: RunConfig) -> None:
    """Fail on a missing release or a bad retriever, answerer or judge spec before any file is written."""
    from chronoqa.artifacts.remote import local_release  # a release at a URI: its copy in the cache

    if cfg.bench and not (local_release(cfg.bench) / "benchmark.jsonl").is_file():
        raise ChronoqaError(f"--bench {cfg.bench}: not a benchmark release folder (no benchmark.jsonl)")
    from chronoqa.retrieve.registry import REGISTRY
    from chronoqa.spec import RetrieverSpec

    for spec in [*cfg.retrievers, *cfg.controls]:
        REGISTRY.resolve_params(RetrieverSpec.parse(spec))
    _answer_plan(cfg, [*cfg.retrievers, *cfg.controls])
    if cfg.judge:
        from chronoqa.judge import make_judge

        make_judge(cfg.judge)


@dataclass
class _Run:
    """What the steps of one run share: its config, its stage runner, the stages done and the release handle.

    The release is opened once (:func:`~chronoqa.artifacts.release.load_release`) and every stage reads it through
    this handle; the runner takes the digests of the release files from it, so each file is read once.
    """

    cfg: RunConfig
    prog: Progress
    runner: StageRunner
    results: list[StageResult] = field(default_factory=list)
    release: Release | None = None
    retrieval_timings: dict[str, Any] = field(default_factory=dict)
    paraphrases: Path | None = None
    """The paraphrase set the answer stages answer too (``None``: no paraphrase stage)."""

    def paraphrase_inputs(self) -> dict[str, Path]:
        """The paraphrase set as a stage input (none without one)."""
        return {} if self.paraphrases is None else {"paraphrases": self.paraphrases}

    def do(self, stage: Stage) -> StageResult:
        """Run (or skip) one stage and report it."""
        self.prog.begin(stage.name)
        res = self.runner.run(stage)
        return_freed_memory()  # the stage's freed memory would otherwise stay under every later stage's peak
        self.prog.finish(stage.name, res)
        self.results.append(res)
        return res

    def known_digest(self, path: Path) -> str | None:
        """The sha256 of a release file as the handle read it (``None`` for any other input)."""
        rel = self.release
        if rel is None or path.parent != rel.path or path.name not in (BENCHMARK_FILE, rel.corpus_file):
            return None
        return rel.sha256(path.name)

    @property
    def rel(self) -> Release:
        """The release (opened by :func:`_open_release`)."""
        if self.release is None:
            raise ChronoqaError("internal check failed: a stage ran before the release was opened")
        return self.release

    def bench_inputs(self) -> dict[str, Path]:
        """The release files every stage over the release depends on: the questions and the corpus it reads."""
        return _release_inputs(self.rel)


def _release_inputs(rel: Release) -> dict[str, Path]:
    """A release's files a stage over it depends on: the questions and the corpus it reads."""
    inputs = {"benchmark": rel.path / BENCHMARK_FILE}
    if rel.corpus_file is not None:
        inputs["corpus"] = rel.path / rel.corpus_file
    return inputs


@dataclass(frozen=True)
class _Twin:
    """The release's counterfactual twin and the answers to it, by the name of the real release's answer file."""

    release: Release
    answers: Mapping[str, Path]

    def gap_args(self, name: str) -> dict[str, Any]:
        """``evaluate``'s keywords for the memory gap of the answer file ``name``."""
        return {"twin": self.release, "twin_answers": self.answers[name]}


def _run_locked(cfg: RunConfig, prog: Progress, force: bool, folder: OutputFolder) -> PipelineResult:
    """The steps of a run, in order."""
    run = _start(cfg, prog, force, folder)
    _open_release(run)
    _paraphrase(run)
    runs = _retrieve(run)
    answers = _answer(run, runs)
    twin = _twin(run)
    ev = _evaluate(run, runs, answers, twin)
    rep = _report(run, ev)
    return _finish(run, rep)


def _start(cfg: RunConfig, prog: Progress, force: bool, folder: OutputFolder) -> _Run:
    """The stage runner (the folder's claim removed a dead run's temporary folders, under the lock) and the config."""
    run = _Run(cfg, prog, StageRunner(cfg.out_dir, force=force, owner=folder))
    run.runner.known = run.known_digest
    write_json(cfg.out_dir / "config.json", cfg.to_dict())
    write_text(cfg.out_dir / "config.toml", dump_toml(cfg.to_dict()))
    return run


def _open_release(run: _Run) -> None:
    """The release: ``bench`` (a local copy of it when it is at a URI), or the fetch and build stages' output."""
    cfg = run.cfg
    if cfg.bench:
        from chronoqa.artifacts.remote import local_release

        release = local_release(cfg.bench)
    else:
        fetch_key: dict[str, Any] = {"dataset": cfg.dataset, "files": cfg.files}
        if cfg.tables:
            fetch_key["tables"] = list(cfg.tables)
        fetch = run.do(Stage("fetch", _fetch_stage(cfg), {}, fetch_key))
        build_key = {"seed": cfg.seed, "build": dict(cfg.build)}
        build_fn = _build_stage(cfg, fetch.path, run.prog)
        release = run.do(Stage("build", build_fn, {"fetch": fetch.path / "fetch.json"}, build_key)).path
    run.release = load_release(release)


def _paraphrase(run: _Run) -> None:
    """The paraphrase stage, when the config names a paraphraser: the set every answer stage answers too."""
    cfg = run.cfg
    if not cfg.paraphraser:
        return
    key = {"paraphraser": cfg.paraphraser, "k": cfg.paraphrase_k, "split": cfg.split}
    res = run.do(Stage("paraphrase", _paraphrase_stage(cfg, run.rel, run.prog), run.bench_inputs(), key))
    run.paraphrases = res.path / PARAPHRASES_FILE


def _retrieve(run: _Run) -> dict[str, Path]:
    """One retrieve stage per retriever and control; their run files by spec."""
    cfg = run.cfg
    runs: dict[str, Path] = {}
    for spec in [*cfg.retrievers, *cfg.controls]:
        name = stage_name("retrieve", spec)
        fn = _retrieve_stage(run.rel, spec, cfg.k, cfg.split, run.prog, name, run.retrieval_timings)
        res = run.do(Stage(name, fn, run.bench_inputs(), {"spec": spec, "k": cfg.k, "split": cfg.split}))
        runs[spec] = _run_file(res.path)
    return runs


def _answer(run: _Run, runs: Mapping[str, Path]) -> dict[str, Path]:
    """One answer stage per answerer (and run it reads); their answer files by name."""
    cfg = run.cfg
    answers: dict[str, Path] = {}
    for name, spec, run_name in _answer_plan(cfg, list(runs)):
        run_file = runs[run_name] if run_name else None
        inputs = run.bench_inputs() | ({"run": run_file} if run_file is not None else {}) | run.paraphrase_inputs()
        fn = _answer_stage(run.rel, spec, run_file, cfg.split, cfg.limit, _cache(cfg), run.prog, name, run.paraphrases)
        key = {"answerer": spec, "run": run_name, "split": cfg.split, "limit": cfg.limit}
        res = run.do(Stage(name, fn, inputs, key))
        answers[name.removeprefix("answer-")] = res.path / ANSWERS_FILE
    return answers


def _twin(run: _Run) -> _Twin | None:
    """With ``[twin] kind``: the twin stage, then each answerer's answers to the twin (and the runs they read).

    The twin is retrieved and answered as the release is (same specs, k, split and limit; no paraphrase set): the
    stages are ``twin-retrieve-<spec>`` and ``twin-answer-<name>``.
    """
    cfg = run.cfg
    if not cfg.twin_kind:
        return None
    key = {"kind": cfg.twin_kind, "seed": cfg.twin_seed, "years": _twin_years(cfg)}
    made = run.do(Stage("twin", _twin_stage(cfg, run.rel, run.prog), run.bench_inputs(), key))
    twin = load_release(made.path / "release")
    inputs = _release_inputs(twin)
    runs: dict[str, Path] = {}
    answers: dict[str, Path] = {}
    for name, spec, run_name in _answer_plan(cfg, [*cfg.retrievers, *cfg.controls]):
        if run_name is not None and run_name not in runs:
            rname = stage_name("twin-retrieve", run_name)
            fn = _retrieve_stage(twin, run_name, cfg.k, cfg.split, run.prog, rname, run.retrieval_timings)
            res = run.do(Stage(rname, fn, inputs, {"spec": run_name, "k": cfg.k, "split": cfg.split}))
            runs[run_name] = _run_file(res.path)
        run_file = runs[run_name] if run_name else None
        aname = f"twin-{name}"
        fn = _answer_stage(twin, spec, run_file, cfg.split, cfg.limit, _cache(cfg), run.prog, aname)
        key = {"answerer": spec, "run": run_name, "split": cfg.split, "limit": cfg.limit}
        res = run.do(Stage(aname, fn, inputs | ({"run": run_file} if run_file else {}), key))
        answers[name.removeprefix("answer-")] = res.path / ANSWERS_FILE
    return _Twin(twin, answers)


def _cache(cfg: RunConfig) -> Path:
    """The run's cache folder (LLM responses, the judge's), outside the stage folders."""
    return cfg.out_dir / "cache"


def _evaluate(run: _Run, runs: Mapping[str, Path], answers: Mapping[str, Path], twin: _Twin | None) -> StageResult:
    """The evaluate stage: metrics and verdicts of every run and answer file (with [twin], their memory gaps)."""
    cfg = run.cfg
    inputs: dict[str, Path] = run.bench_inputs()
    inputs.update({f"run:{k}": v for k, v in runs.items()})
    inputs.update({f"answers:{k}": v for k, v in answers.items()})
    inputs.update(run.paraphrase_inputs())
    if twin is not None:
        inputs.update({f"twin:{k}": v for k, v in _release_inputs(twin.release).items()})
        inputs.update({f"twin-answers:{k}": v for k, v in twin.answers.items()})
    key: dict[str, Any] = {
        "split": cfg.split,
        "seed": cfg.seed,
        "n_bootstrap": cfg.n_bootstrap,
        "min_slice": cfg.min_slice,
        "verdicts": 2,  # 2: retrieval verdicts carry Outrank@10
    }
    if cfg.judge:
        key["judge"] = cfg.judge
    if cfg.cutoff_date:
        key["cutoff"] = cfg.cutoff_date
    fn = _evaluate_stage(cfg, run.rel, runs, answers, run.prog, _cache(cfg), run.paraphrases, twin)
    return run.do(Stage("evaluate", fn, inputs, key))


def _report(run: _Run, ev: StageResult) -> StageResult:
    """The report stage: summary.json, report.md and report.html."""
    cfg = run.cfg
    fn = _report_stage(cfg, run.rel, ev.path, cfg.out_dir, run.prog)
    inputs = {"evaluate": ev.path, **run.bench_inputs()}
    return run.do(Stage("report", fn, inputs, {"config": _portable(cfg), "report_version": 3}))


def _finish(run: _Run, rep: StageResult) -> PipelineResult:
    """The run's manifest and timings, and where everything went."""
    cfg, results = run.cfg, run.results
    summary = read_summary(rep.path)
    manifest = {
        "config": cfg.to_dict(),
        "release": run.runner.relative(run.rel.path),
        "stages": [{"name": r.name, "path": r.path.name} for r in results],
    }
    write_json(cfg.out_dir / "run.json", manifest)
    timings = {
        "stages": {r.name: {"seconds": round(r.seconds, 3), "skipped": r.skipped} for r in results},
        "retrieval": run.retrieval_timings,
    }
    write_json(cfg.out_dir / TIMINGS_FILE, timings)
    return PipelineResult(
        cfg.out_dir, results, summary, rep.path / "report.html", rep.path / "report.md", summary.warnings
    )
