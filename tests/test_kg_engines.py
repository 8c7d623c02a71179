"""The SQL engines of a KG build: Spark equals DuckDB, and a release is the same bytes with each.

The differential test builds YAGO11k (mirror) and a synthetic 100k-fact graph with ``engine`` duckdb and spark
(PySpark local mode) and compares the release folders file by file. Without pyspark the Spark tests skip
locally (``pip install chronoqa[spark]``) and fail in CI (``CI=true``: ``.ci/run`` installs the extra).
"""

from __future__ import annotations

import builtins
import importlib.util
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chronoqa.cli import app, main
from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
from chronoqa.generate.kg.sql import SparkEngine, build_index, find_candidates
from chronoqa.records import TemporalGraph
from chronoqa.time import Granularity, TimePoint
from sql_index_fixtures import build_args, hand_facts, index_differences, reference_index
from test_kg_candidates import T_MAX, differences, fixture_index, synthetic_index

HAVE_SPARK = importlib.util.find_spec("pyspark") is not None


def release_bytes(folder: Path) -> dict[str, bytes]:
    """Every file of a release folder by relative path."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def build_release(graph: TemporalGraph, tmp: Path, engine: str, **config: Any) -> dict[str, bytes]:
    """The release folder of ``graph`` built with ``engine``, as bytes."""
    build = build_kg_benchmark(graph, KGBuildConfig(engine=engine, **config))
    assert build.stats["engine"] == engine
    return release_bytes(build.write(tmp / engine))


def test_engine_is_not_in_the_manifest_config() -> None:
    assert "engine" not in KGBuildConfig(engine="spark").to_dict()
    assert KGBuildConfig().engine == "duckdb"  # in process, the default
    for gone in ("sparkk", "numpy"):  # numpy is no engine: the SQL is the one definition of each step
        with pytest.raises(UnknownNameError, match=r"duckdb.*spark"):
            KGBuildConfig(engine=gone)


def test_spark_without_pyspark_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_pyspark(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pyspark" or name.startswith("pyspark."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyspark)
    with pytest.raises(ChronoqaError, match=r"pip install chronoqa\[spark\]"):
        build_index("spark", **build_args(hand_facts()))


def test_cli_engine_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from chronoqa.sources.synthetic import generate

    data = tmp_path / "graph.tsv"
    generate(n_facts=3_000, seed=2).write_quintuples(data)
    outs = {}
    for engine in ("duckdb",):
        res = CliRunner().invoke(
            app,
            ["build", "kg", "--input", str(data), "--out", str(tmp_path / engine), "--n-questions", "60",
             "--generic-phrases", "--allow-ids", "--engine", engine],
        )  # fmt: skip
        assert res.exit_code == 0, res.output
        assert f"index engine {engine}" in " ".join(res.output.split())
        outs[engine] = release_bytes(tmp_path / engine)
    assert "benchmark.jsonl" in outs["duckdb"]
    for gone in ("polars", "numpy"):
        monkeypatch.setattr("sys.argv", ["chronoqa", "build", "kg", "--input", str(data), "--out",
                                         str(tmp_path / "x"), "--engine", gone])  # fmt: skip
        with pytest.raises(SystemExit) as exc:
            main()
        err = " ".join(capsys.readouterr().err.split())
        assert exc.value.code == 2 and f"Unknown index engine '{gone}'" in err and "Traceback" not in err
        assert "duckdb" in err and "spark" in err and not (tmp_path / "x").exists()


@pytest.mark.spark
@pytest.mark.slow
def test_spark_index_equals_the_reference_on_the_hand_fixture(spark: SparkEngine) -> None:
    args = build_args(hand_facts(), "day", "unknown")  # every corner of the fixture; YAGO11k below covers ongoing
    assert index_differences(build_index(spark, **args), reference_index(**args)) == []
    empty = build_args([])
    assert index_differences(build_index(spark, **empty), reference_index(**empty)) == []


@pytest.mark.spark
@pytest.mark.slow
def test_spark_candidates_equal_duckdb(spark: SparkEngine) -> None:
    for idx in (fixture_index(), synthetic_index(20_000)):
        assert differences(find_candidates(spark, idx, T_MAX), find_candidates("duckdb", idx, T_MAX)) == []


@pytest.mark.spark
@pytest.mark.slow
def test_spark_through_a_storage_url(spark: SparkEngine, tmp_path: Path) -> None:
    # a URL work folder (as s3a:// on a cluster): Spark itself writes the inputs and reads the results back
    with SparkEngine(work_dir=f"file://{tmp_path}") as remote:
        args = build_args(hand_facts(), "year", "ongoing")
        assert index_differences(build_index(remote, **args), reference_index(**args)) == []
    assert (tmp_path / "out" / "out_adj").is_dir() and (tmp_path / "in" / "facts").is_dir()


@pytest.mark.spark
@pytest.mark.slow
def test_differential_synthetic_100k(spark: SparkEngine, tmp_path: Path) -> None:
    from chronoqa.sources.synthetic import generate

    graph = generate(n_facts=100_000, seed=1).to_graph()
    cfg = {"n_questions": 1_000, "generic_phrases": True, "allow_ids": True}
    by_engine = {e: build_release(graph, tmp_path, e, **cfg) for e in ("duckdb", "spark")}
    assert len(by_engine["duckdb"]["benchmark.jsonl"]) > 10_000
    assert by_engine["spark"] == by_engine["duckdb"]


@pytest.mark.spark
@pytest.mark.slow
@pytest.mark.mirror
def test_differential_yago11k(spark: SparkEngine, mirror: Path, tmp_path: Path) -> None:
    from chronoqa import datasets

    graph = datasets.load_graph("yago11k", on_bad_row="skip", as_of=TimePoint(2026, 1, 1))
    by_engine = {e: build_release(graph, tmp_path, e) for e in ("duckdb", "spark")}
    assert by_engine["spark"] == by_engine["duckdb"]
    # the index itself, at day granularity too (the release above is at year granularity)
    from chronoqa.generate.kg.build import resolve_phrases

    phr, _, _ = resolve_phrases(graph, None, generic=False)
    kw = {
        "is_event": {r: p.is_event for r, p in phr.items()},
        "granularity": Granularity.DAY,
        "as_of": TimePoint(2026, 1, 1),
        "symmetric": sorted(r for r, p in phr.items() if p.symmetric),
    }
    ref = reference_index(graph.facts, **kw)  # type: ignore[arg-type]
    assert index_differences(build_index(spark, graph.facts, **kw), ref) == []  # type: ignore[arg-type]
