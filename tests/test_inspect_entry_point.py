"""After a plain ``pip install``, inspect_ai finds chronoqa's task by name (``chronoqa/chronoqa_qa``).

The package is built from this source tree and installed into a fresh virtual environment (its
dependencies are this environment's, reached through a ``.pth`` file, nothing is downloaded); the
evaluation runs there in a subprocess on inspect's ``mockllm/model``, naming the task only by its
registry name, as ``inspect eval chronoqa/chronoqa_qa`` does. The mock answers every other test
question with its gold answer, so the expected A follows from the fixture, not from the scorer.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from retrieve_fixtures import questions, write_bench

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

EVAL = """
import json, sys
import inspect_ai
from inspect_ai.model import ModelOutput, ModelUsage, get_model

release, log_dir = sys.argv[1], sys.argv[2]
test = [json.loads(l) for l in open(release + '/benchmark.jsonl', encoding='utf-8')]
good = {q['question']: q['answers'] for i, q in enumerate(x for x in test if x['split'] == 'test') if i % 2 == 0}

def reply(messages, *_):
    user = messages[-1].text
    answers = next((a for text, a in good.items() if text in user), None)
    content = 'Answer: ' + ('; '.join(answers) if answers else 'Zzyzx Qwerty') + '\\nExplanation: none.'
    out = ModelOutput.from_content(model='mockllm/model', content=content)
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
    return out

import chronoqa
log = inspect_ai.eval('chronoqa/chronoqa_qa', task_args={'release': release},
                      model=get_model('mockllm/model', custom_outputs=reply), log_dir=log_dir, display='none')[0]
scores = {s.name: {k: m.value for k, m in s.metrics.items()} for s in log.results.scores} if log.results else {}
print(json.dumps({'status': log.status, 'registry_name': log.eval.task_registry_name,
                  'samples': len(log.samples or []), 'scores': scores, 'chronoqa': chronoqa.__file__}))
"""


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment with chronoqa installed from this tree (no build isolation, no index)."""
    if importlib.util.find_spec("hatchling") is None:
        pytest.skip("the build backend is missing: pip install hatchling (in chronoqa's dev extra)")
    base = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(base)], check=True, timeout=120)
    py = base / "bin" / "python"
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout.strip()  # fmt: skip
    Path(site, "_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    res = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet", "--no-deps",
         "--no-build-isolation", "--no-index", str(ROOT)],
        capture_output=True, text=True, timeout=300, check=False, env=_clean_env(),
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-2000:]
    return py


def _clean_env() -> dict[str, str]:
    """The environment without this session's PYTHONPATH: the installed package must stand on its own."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def test_inspect_finds_the_task_by_name_after_install(venv: Path, tmp_path: Path) -> None:
    pytest.importorskip("inspect_ai", reason="pip install chronoqa[inspect]")
    rel = write_bench(tmp_path / "rel")
    res = subprocess.run(
        [str(venv), "-c", EVAL, str(rel), str(tmp_path / "logs")],
        capture_output=True, text=True, timeout=300, check=False, env=_clean_env(), cwd=tmp_path,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    got = json.loads(res.stdout.splitlines()[-1])
    assert Path(got["chronoqa"]).is_relative_to(venv.parents[1])  # the installed copy, not this tree
    assert got["status"] == "success" and got["registry_name"] == "chronoqa/chronoqa_qa"
    test_qs = [q for q in questions() if q.split == "test"]
    assert got["samples"] == len(test_qs)
    n_good = len(range(0, len(test_qs), 2))
    a = next(v for k, v in got["scores"]["A"].items() if k.endswith("defined_mean"))
    assert a == pytest.approx(n_good / len(test_qs))


# The console script `inspect` is `inspect_ai._cli.main:main`; the fresh environment has no console
# scripts of its dependencies, so the same entry is called through its interpreter. One substitution:
# inspect's mock model counts tokens with tiktoken, which downloads its encoding from a blob store on
# first use (not a package registry, so unreachable offline); a length count stands in for it.
CLI = """
import sys
import inspect_ai.model._model as model
model.count_text_tokens = lambda text: max(1, len(text) // 4)
from inspect_ai._cli.main import main
sys.argv = ['inspect', *sys.argv[1:]]
main()
"""


def test_inspect_cli_evaluates_the_task_on_the_mock_model(venv: Path, tmp_path: Path) -> None:
    read_eval_log = pytest.importorskip("inspect_ai.log", reason="pip install chronoqa[inspect]").read_eval_log
    rel = write_bench(tmp_path / "rel")
    args = ["eval", "chronoqa/chronoqa_qa", "-T", f"release={rel}", "--model", "mockllm/model",
            "--log-dir", str(tmp_path / "logs"), "--log-format", "json", "--display", "none"]  # fmt: skip
    res = subprocess.run(
        [str(venv), "-c", CLI, *args],
        capture_output=True, text=True, timeout=300, check=False, env=_clean_env(), cwd=tmp_path,
    )  # fmt: skip
    assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]
    (log_file,) = (tmp_path / "logs").glob("*.json")
    log = read_eval_log(str(log_file))
    assert log.status == "success" and log.eval.task_registry_name == "chronoqa/chronoqa_qa"
    assert len(log.samples or []) == sum(q.split == "test" for q in questions())
    # the mock's fixed reply names no gold answer: every question is scored, none right
    scores = {s.name: {k: m.value for k, m in s.metrics.items()} for s in log.results.scores}  # type: ignore[union-attr]
    assert set(scores) >= {"A", "T", "AT"}
    assert next(v for k, v in scores["A"].items() if k.endswith("defined_mean")) == 0.0
