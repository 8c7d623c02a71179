"""The configuration of ``chronoqa run``: defaults, a TOML file, then command-line flags.

File format (every key optional; flags override the file, the file overrides the defaults)::

    dataset = "wikidata12k"        # a registered dataset name, or:
    # files = "my_graph.tsv"       # your own facts: a HyTE folder or a CSV/TSV/Parquet of quintuples
    # bench = "my_release/"        # or a ready benchmark release folder (skips fetch and build)
    # tables = ["legal.csv"]       # or temporal tables (TDBench style): a table benchmark is built
    out = "runs/wikidata12k"
    seed = 0
    split = "test"                 # the split answered and scored

    [build]                        # any field of chronoqa.generate.kg.KGBuildConfig
                                   # (with tables: of chronoqa.generate.table.TableBuildConfig)
    n_questions = 10000            # the builder's default; the split below is what is retrieved, answered, scored

    [retrieve]
    retrievers = ["bm25", "bm25_temporal", "graph", "dense", "hybrid(bm25,dense)"]
    controls = ["oracle", "stale_only", "dist_only", "random", "empty"]
    k = 10

    [answer]
    baselines = ["extractive", "prior"]
    reader_runs = []               # runs the extractive reader reads; empty: every run
    llm = ""                       # e.g. "llm(model=qwen2.5:0.5b,base_url=http://127.0.0.1:11434/v1)"
    protocols = ["closed_book@1", "rag@1"]
    llm_run = "bm25"               # the run whose facts rag@1 shows
    limit = 0                      # answer only the first N questions (0: all)

    [evaluate]
    n_bootstrap = 1000
    min_slice = 30
    judge = ""                     # optional LLM judge of time accuracy, e.g. "llm(model=m,base_url=...)";
                                   # its cache is <run>/cache/judge, its agreement beside the T of each run

    [paraphrase]                   # paraphrase sets (docs/paraphrases.md): off unless a paraphraser is named
    paraphraser = ""               # "grammar": up to paraphrase_k checked rewordings of every question of the
    paraphrase_k = 3               # split, each answered too; A_all_k and flip_rate are reported beside A

    [twin]                         # the memory gap (docs/report.md): off unless a kind is named
    kind = ""                      # "shift_years", "rename_entities" or "permute_holders": the release's
    seed = 0                       # counterfactual twin (chronoqa twin) is made, retrieved and answered by every
    years = 28                     # answerer too; shift_years moves every date by this many years

    [cutoff]                       # knowledge-cutoff slices: off unless a date is given
    date = ""                      # e.g. "2023-10": every metric for golds true before / after it

The run folder records the effective configuration as ``config.toml`` (re-runnable with
``--config``) and ``config.json``.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.io import read_text

__all__ = [
    "DEFAULT_CONTROLS",
    "DEFAULT_RETRIEVERS",
    "TWIN_KINDS",
    "RunConfig",
    "build_kwargs",
    "dump_toml",
    "load_config",
]

DEFAULT_RETRIEVERS = ("bm25", "bm25_temporal", "graph", "dense", "hybrid(bm25,dense)")
DEFAULT_CONTROLS = ("oracle", "stale_only", "dist_only", "random", "empty")

_SECTIONS: Mapping[str, tuple[str, ...]] = {
    "retrieve": ("retrievers", "controls", "k"),
    "answer": ("baselines", "reader_runs", "llm", "protocols", "llm_run", "limit"),
    "evaluate": ("n_bootstrap", "min_slice", "judge"),
    "paraphrase": ("paraphraser", "paraphrase_k"),
    "twin": ("kind", "seed", "years"),
    "cutoff": ("date",),
}
_PREFIXED = ("twin", "cutoff")
"""Sections whose keys are named ``<section>_<key>`` in :class:`RunConfig` ([twin] seed is not the run's seed)."""
_FLAT: Mapping[str, tuple[str, str]] = {
    (f"{section}_{k}" if section in _PREFIXED else k): (section, k) for section, keys in _SECTIONS.items() for k in keys
}
"""A sectioned setting's :class:`RunConfig` field → (section, key in the file)."""
TWIN_KINDS = ("", "shift_years", "rename_entities", "permute_holders")
"""The twins ``chronoqa run`` can make ("": none)."""
PARAPHRASERS = ("", "grammar")
"""The paraphrasers ``chronoqa run`` knows ("": no paraphrase sets)."""


@dataclass(frozen=True)
class RunConfig:
    """Every setting of a pipeline run (see the module docstring for the file format)."""

    # Wikidata12k by default: its repeated relations are where retrievers differ (time-blind and time-aware
    # BM25 have disjoint 95% CIs on Outrank@10; graph retrieval beats both in paired tests); on YAGO11k they
    # score within each other's intervals (docs/metrics.md, "Does it separate systems?").
    dataset: str = "wikidata12k"
    files: str = ""
    bench: str = ""
    tables: tuple[str, ...] = ()
    out: str = ""
    seed: int = 0
    split: str = "test"
    build: Mapping[str, Any] = field(default_factory=dict)
    retrievers: tuple[str, ...] = DEFAULT_RETRIEVERS
    controls: tuple[str, ...] = DEFAULT_CONTROLS
    k: int = 10
    baselines: tuple[str, ...] = ("extractive", "prior")
    reader_runs: tuple[str, ...] = ()
    llm: str = ""
    protocols: tuple[str, ...] = ("closed_book@1", "rag@1")
    llm_run: str = "bm25"
    limit: int = 0
    n_bootstrap: int = 1000
    min_slice: int = 30
    judge: str = ""
    paraphraser: str = ""
    paraphrase_k: int = 3
    twin_kind: str = ""
    twin_seed: int = 0
    twin_years: int = 28
    cutoff_date: str = ""

    def __post_init__(self) -> None:
        if self.files and self.bench:
            raise ChronoqaError("give either files (your facts) or bench (a ready release), not both")
        if self.tables and (self.files or self.bench):
            raise ChronoqaError("give either tables (temporal tables) or files / bench, not both")
        if self.k < 1:
            raise ChronoqaError(f"k must be >= 1, got {self.k}")
        if self.limit < 0:
            raise ChronoqaError(f"limit must be >= 0 (0: all questions), got {self.limit}")
        if self.n_bootstrap < 0:
            raise ChronoqaError(f"n_bootstrap must be >= 0 (0: no confidence intervals), got {self.n_bootstrap}")
        if self.min_slice < 0:
            raise ChronoqaError(f"min_slice must be >= 0, got {self.min_slice}")
        if self.paraphraser not in PARAPHRASERS:
            raise UnknownNameError("paraphraser in [paraphrase]", self.paraphraser, [p for p in PARAPHRASERS if p])
        if self.paraphrase_k < 1:
            raise ChronoqaError(f"paraphrase_k must be >= 1 (rewordings per question), got {self.paraphrase_k}")
        if self.twin_kind not in TWIN_KINDS:
            raise UnknownNameError("kind in [twin]", self.twin_kind, [k for k in TWIN_KINDS if k])
        if self.twin_kind == "shift_years" and self.twin_years == 0:
            raise ChronoqaError("[twin] years = 0 shifts nothing: give the years a shift_years twin moves (e.g. 28)")
        if self.cutoff_date:
            from chronoqa.time import TimeParseError, parse_time

            try:
                parse_time(self.cutoff_date, field="[cutoff] date")
            except TimeParseError as exc:
                raise ChronoqaError(
                    f"{exc}. Fix: give the cutoff as a year, year-month or date (e.g. 2023-10)"
                ) from None

    @property
    def source_name(self) -> str:
        """Short name of what is benchmarked (for the default run folder)."""
        if self.bench:
            return Path(self.bench).name or "bench"
        if self.files:
            return Path(self.files).stem or "files"
        if self.tables:
            return "+".join(Path(t).stem for t in self.tables) or "tables"
        return self.dataset

    @property
    def out_dir(self) -> Path:
        """The run folder."""
        return Path(self.out or f"runs/{self.source_name}")

    def to_dict(self) -> dict[str, Any]:
        """JSON form, sectioned like the TOML file."""
        flat = {f.name: getattr(self, f.name) for f in fields(self)}
        out: dict[str, Any] = {}
        for k, v in flat.items():
            if k in _FLAT or k == "build":
                continue
            out[k] = v
        out["build"] = dict(sorted(self.build.items()))
        for name, (section, key) in _FLAT.items():
            v = flat[name]
            out.setdefault(section, {})[key] = list(v) if isinstance(v, tuple) else v
        return json.loads(json.dumps(out))


def _flatten(doc: Mapping[str, Any], source: str) -> dict[str, Any]:
    known = {f.name for f in fields(RunConfig)}
    flat: dict[str, Any] = {}
    for key, value in doc.items():
        if key in _SECTIONS:
            if not isinstance(value, Mapping):
                raise ChronoqaError(f"{source}: [{key}] must be a table")
            for k, v in value.items():
                if k not in _SECTIONS[key]:
                    raise UnknownNameError(f"key in [{key}] of {source}", k, _SECTIONS[key])
                flat[next(n for n, sk in _FLAT.items() if sk == (key, k))] = v
        elif key == "build":
            if not isinstance(value, Mapping):
                raise ChronoqaError(f"{source}: [build] must be a table")
            flat["build"] = dict(value)
        elif key in known and key not in _FLAT:
            flat[key] = value
        else:
            raise UnknownNameError(f"key of {source}", key, [*sorted(known - {"build"}), *_SECTIONS, "build"])
    return flat


def load_config(path: str | Path | None = None, **overrides: Any) -> RunConfig:
    """Defaults, updated by the TOML file at ``path`` (if any), updated by ``overrides`` (``None`` = unset)."""
    values: dict[str, Any] = {}
    if path is not None:
        p = Path(path)
        try:
            doc = tomllib.loads(read_text(p))
        except FileNotFoundError:
            raise ChronoqaError(f"config file {p} does not exist") from None
        except tomllib.TOMLDecodeError as exc:
            raise ChronoqaError(f"{p}: not valid TOML ({exc}). Fix the file; see `chronoqa run --help`") from None
        values.update(_flatten(doc, str(p)))
    for k, v in overrides.items():
        if v is None:
            continue
        if k == "build" and isinstance(v, Mapping):
            values["build"] = {**values.get("build", RunConfig().build), **v}
        else:
            values[k] = v
    types = {f.name: f for f in fields(RunConfig)}
    source = str(path) if path is not None else "the command line"
    for k, v in list(values.items()):
        if k not in types:
            raise UnknownNameError("run setting", k, types)
        if isinstance(getattr(RunConfig(), k), tuple):
            if isinstance(v, str):  # a flag's comma-separated list
                v = [x.strip() for x in _split_top(v) if x.strip()]
            values[k] = tuple(v) if isinstance(v, list) else v
    _check(RunConfig, values, source, "")
    _check_build(values.get("build", {}), source, tables=bool(values.get("tables")))
    return dataclasses.replace(RunConfig(), **values)


def _schema(cls: type) -> type[BaseModel]:
    """The declared schema of a config dataclass: its fields' types, checked strictly, no other key."""
    hints = typing.get_type_hints(cls)
    spec: dict[str, Any] = {f.name: (hints[f.name], None) for f in fields(cls)}
    model: type[BaseModel] = create_model(
        f"{cls.__name__}Schema", __config__=ConfigDict(strict=True, extra="forbid"), **spec
    )
    return model


def _check(cls: type, values: Mapping[str, Any], source: str, section: str) -> None:
    """Raise a :class:`ChronoqaError` naming the key, the value and the expected type of a bad setting."""
    try:
        _schema(cls).model_validate(dict(values))
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        where = f"[{section}] {loc}" if section else loc
        shown = repr(err.get("input"))
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise ChronoqaError(
            f"{source}: setting {where} = {shown}: {err['msg'].lower()}. Fix the value (see `chronoqa run --help`)"
        ) from None


def _check_build(build: Mapping[str, Any], source: str, *, tables: bool = False) -> None:
    """``[build]`` keys must be fields of the builder's config, with their types.

    The builder is :class:`chronoqa.generate.kg.KGBuildConfig`'s, or with ``tables``
    :class:`chronoqa.generate.table.TableBuildConfig`'s (whose scalar settings are type-checked here; its
    tables of settings, such as ``tfds`` and ``joins``, are checked by the table builder).
    """
    if tables:
        from chronoqa.generate.table import TableBuildConfig

        known_table = [f.name for f in fields(TableBuildConfig)]
        for key in build:
            if key not in known_table:
                raise UnknownNameError(f"key in [build] of {source} (a table build)", key, known_table)
        scalars = {k: v for k, v in build.items() if isinstance(v, (bool, int, float, str))}
        _check(TableBuildConfig, scalars, source, "build")
        return
    from chronoqa.generate.kg import KGBuildConfig

    known = [f.name for f in fields(KGBuildConfig)]
    for key in build:
        if key not in known:
            raise UnknownNameError(f"key in [build] of {source}", key, known)
    kwargs = build_kwargs(build)
    # tables (operator_weights, not_years) become (key, value) pairs the builder itself checks
    _check(KGBuildConfig, {k: v for k, v in kwargs.items() if not isinstance(build[k], Mapping)}, source, "build")
    try:
        KGBuildConfig(**kwargs)
    except (ChronoqaError, ValueError, TypeError) as exc:
        raise ChronoqaError(f"{source}: [build]: {exc}") from None


def build_kwargs(build: Mapping[str, Any]) -> dict[str, Any]:
    """``[build]`` as :class:`~chronoqa.generate.kg.KGBuildConfig` keywords: arrays as tuples, tables as pairs."""
    out: dict[str, Any] = {}
    for k, v in build.items():
        if isinstance(v, list):
            out[k] = tuple(tuple(x) if isinstance(x, list) else x for x in v)
        elif isinstance(v, Mapping):
            out[k] = tuple((kk, vv) for kk, vv in v.items())
        else:
            out[k] = v
    return out


def _split_top(text: str) -> list[str]:
    """Split on commas outside parentheses: ``"bm25,hybrid(bm25,dense)"`` → two specs."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def dump_toml(doc: Mapping[str, Any]) -> str:
    """A TOML text of a two-level document (top-level keys, then one table per mapping value)."""
    lines = [f"{k} = {_toml_value(v)}" for k, v in doc.items() if not isinstance(v, Mapping)]
    for k, v in doc.items():
        if isinstance(v, Mapping):
            lines += ["", f"[{k}]", *(f"{kk} = {_toml_value(vv)}" for kk, vv in v.items())]
    return "\n".join(lines) + "\n"
