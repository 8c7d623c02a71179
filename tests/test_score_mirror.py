"""Real data: the metric invariants hold on a small YAGO11k release built from the mirror."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from chronoqa.cli import app
from chronoqa.score.evaluate import evaluate


@pytest.mark.mirror
@pytest.mark.slow
def test_controls_on_real_release(mirror: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    bench, runs = tmp_path / "bench", tmp_path / "runs"
    res = runner.invoke(app, ["build", "kg", "--dataset", "yago11k", "--out", str(bench), "--n-questions", "200"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(
        app,
        ["retrieve", "--bench", str(bench), "-r", "oracle", "-r", "empty", "-r", "dist_only", "--out", str(runs),
         "--k", "10"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    oracle = evaluate(bench, run=runs / "oracle.run.jsonl", n_bootstrap=50).to_dict()["retrieval"]["all"]
    assert oracle["CCR"]["value"] == 1.0 and oracle["TRP_macro"]["value"] == 1.0 and oracle["R@10"]["value"] == 1.0
    empty = evaluate(bench, run=runs / "empty.run.jsonl", n_bootstrap=50).to_dict()["retrieval"]["all"]
    assert empty["coverage"]["value"] == 0.0 and empty["CCR"]["value"] == 0.0 and empty["TRP_macro"]["value"] is None
    dist = evaluate(bench, run=runs / "dist_only.run.jsonl", functional_only="dist", n_bootstrap=50).to_dict()
    d = dist["retrieval"]["all"]
    assert dist["n_questions"] > 0
    assert d["TRP_macro"]["value"] == 0.0 and d["CCR"]["value"] == 0.0 and d["dist_hit_rate"]["value"] == 1.0
