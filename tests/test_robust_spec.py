"""Spec parameter ranges: out-of-range values are errors before anything is built or called."""

from __future__ import annotations

from pathlib import Path

import pytest

from answer_fixtures import write_fixture
from chronoqa.answer import make_answerer
from chronoqa.errors import ChronoqaError
from chronoqa.pipeline.config import load_config
from chronoqa.pipeline.run import run_pipeline
from chronoqa.retrieve.registry import REGISTRY
from chronoqa.spec import Bound, RetrieverSpec, SpecError, check_bounds


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("bm25(k1=-1)", "k1=-1.0 is out of range: expected a value >= 0"),
        ("bm25(b=1.5)", "b=1.5 is out of range: expected a value in [0, 1]"),
        ("bm25_temporal(depth=0)", "depth=0"),
        ("graph(hops=0)", "hops=0"),
        ("hybrid(bm25(k1=-1),dense)", "k1=-1.0"),  # members too
        ("hybrid(bm25,dense,k=0)", "expected a value > 0"),
        ('dense(model="")', "expected a non-empty value"),
        ("dense(batch_size=0)", "batch_size=0"),
    ],
)
def test_retriever_ranges(spec: str, needle: str) -> None:
    with pytest.raises(SpecError) as exc:
        REGISTRY.resolve_params(RetrieverSpec.parse(spec))
    assert needle in str(exc.value)


@pytest.mark.parametrize(
    "spec", ["bm25(k1=0,b=0)", "bm25(k1=3.2,b=1)", "graph(hops=4,time_weight=0)", "hybrid(bm25,dense,k=60)"]
)
def test_retriever_ranges_admit_the_edges(spec: str) -> None:
    REGISTRY.resolve_params(RetrieverSpec.parse(spec))


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("llm(model=)", "expected a value"),  # the grammar: a key needs a value
        ('llm(model="")', "model='' is out of range"),
        ('llm(model="  ")', "out of range"),
        ("llm(model=m,timeout=0)", "timeout must be > 0"),
        ("llm(model=m,timeout=-2)", "timeout must be > 0"),
        ("llm(model=m,k=0)", "k=0"),
        ("llm(model=m,max_tokens=0)", "max_tokens=0"),
        ("llm(model=m,temperature=-1)", "temperature=-1"),
        ("llm(model=m,concurrency=0)", "concurrency must be >= 1"),
        ("llm(model=m,retries=-1)", "max_retries must be >= 0"),
    ],
)
def test_llm_ranges(spec: str, needle: str) -> None:
    with pytest.raises(ChronoqaError) as exc:
        make_answerer(spec)
    assert needle in str(exc.value)


def test_bound_words_and_nan() -> None:
    assert Bound(0).describe() == ">= 0" and Bound(0, lo_open=True).describe() == "> 0"
    assert Bound(0, 1).describe() == "in [0, 1]" and not Bound(0).admits(float("nan"))
    with pytest.raises(SpecError, match=r"x=-0\.5"):
        check_bounds("thing", {"x": -0.5, "y": 3}, {"x": Bound(0)})


def test_pipeline_rejects_a_bad_spec_before_any_stage(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    out = tmp_path / "run"
    for kwargs in ({"retrievers": "bm25,bm25(k1=-1)"}, {"llm": 'llm(model="")'}):
        cfg = load_config(None, bench=str(rel), out=str(out), controls="", **kwargs)
        with pytest.raises(ChronoqaError, match="out of range"):
            run_pipeline(cfg)
        assert not out.exists()  # checked before the lock: no folder, no stage, no file
