"""The lm-evaluation-harness task folder: loaded by lm_eval's own task manager, docs and scoring checked.

No model runs: the task's hooks are called on the gold answer (A must be 1) and on a name in no release
(A must be 0), which is what a model's reply would go through.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from publish_fixtures import build_release, chronoqa_cli

pytest.importorskip("lm_eval", reason="pip install chronoqa[lm-eval]")


def test_lm_eval_task_manager_loads_the_exported_task(mirror: Path, tmp_path: Path) -> None:
    from lm_eval.tasks import TaskManager, get_task_dict

    release = build_release("table", mirror, tmp_path / "release")
    res = chronoqa_cli("export", str(release), "--to", "lm-eval", "--out", str(tmp_path / "out"))
    assert res.returncode == 0, res.stderr
    folder = tmp_path / "out" / "lm-eval"
    tm = TaskManager(include_path=str(folder), include_defaults=False)
    assert "chronoqa_dyknow_leaders" in tm.all_tasks
    task = get_task_dict(["chronoqa_dyknow_leaders"], tm)["chronoqa_dyknow_leaders"]
    docs = list(task.test_docs())
    gold = [json.loads(line) for line in (release / "benchmark.jsonl").read_text(encoding="utf-8").splitlines()]
    test = [d for d in gold if d["split"] == "test"]
    assert [d["id"] for d in docs] == [d["id"] for d in test]
    for doc, want in list(zip(docs, test, strict=True))[:20]:
        prompt = task.doc_to_text(doc)
        assert want["question"] in prompt and "Answer:" in prompt
        answer = "; ".join(want["answers"]) or "none"
        right = task.process_results(doc, [f"Answer: {answer}\nExplanation: -"])
        wrong = task.process_results(doc, ["Answer: Zzyzx Qwerty\nExplanation: -"])
        assert right["A"] == 1.0 and wrong["A"] == 0.0, want["id"]
        assert math.isnan(wrong["T"]) or wrong["T"] == 0.0
    agg = task.aggregation()
    assert agg["A"]([1.0, 0.0, 1.0, 1.0]) == pytest.approx(0.75)
    assert agg["T"]([1.0, math.nan, 0.0]) == pytest.approx(0.5)


def test_lm_eval_fewshot_from_train_validation_split_and_stderr(mirror: Path, tmp_path: Path) -> None:
    """Few-shot examples come from train (never test), dev is lm_eval's validation, every metric has a stderr."""
    from lm_eval.api.metrics import stderr_for_metric
    from lm_eval.tasks import TaskManager, get_task_dict

    release = build_release("kg", mirror, tmp_path / "release")
    res = chronoqa_cli("export", str(release), "--to", "lm-eval", "--out", str(tmp_path / "out"))
    assert res.returncode == 0, res.stderr
    tm = TaskManager(include_path=str(tmp_path / "out" / "lm-eval"), include_defaults=False)
    task = get_task_dict(["chronoqa_yago11k"], tm)["chronoqa_yago11k"]
    gold = [json.loads(line) for line in (release / "benchmark.jsonl").read_text(encoding="utf-8").splitlines()]
    ids = {s: [d["id"] for d in gold if d["split"] == s] for s in ("train", "dev", "test")}
    assert ids["train"] and ids["dev"]
    assert [d["id"] for d in task.fewshot_docs()] == ids["train"]
    assert [d["id"] for d in task.validation_docs()] == ids["dev"]
    assert [d["id"] for d in task.test_docs()] == ids["test"]
    shots = task.sampler.sample(3)
    assert len(shots) == 3 and {d["id"] for d in shots} <= set(ids["train"])
    for name, agg in task.aggregation().items():  # lm_eval's own aggregations, so it reports their stderr
        err = stderr_for_metric(agg, bootstrap_iters=50)
        assert err is not None, name
        values = [1.0, 0.0] * 10 + ([math.nan, math.nan] if name != "A" else [])  # T, AT: NaN where undefined
        assert 0.0 < err(values) < 1.0
