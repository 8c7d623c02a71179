"""The inspect_ai task over a release, run end to end on inspect's mock model.

The mock answers half the questions with their gold (and cites every gold time) and the other half
with a name that is in no release; the expected A, T and AT follow from that design, not from the scorer.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from chronoqa.artifacts.release import load_release
from publish_fixtures import build_release

inspect_ai = pytest.importorskip("inspect_ai", reason="pip install chronoqa[inspect]")


@pytest.fixture(scope="module")
def table_release(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_release("table", mirror, tmp_path_factory.mktemp("inspect") / "release")


def test_inspect_task_on_the_mock_model(table_release: Path, tmp_path: Path) -> None:
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from chronoqa.integrations.inspect import chronoqa_qa

    rel = load_release(table_release)
    test_qs = rel.split("test")
    assert len(test_qs) >= 10
    good = {q.id for i, q in enumerate(sorted(test_qs, key=lambda q: q.id)) if i % 2 == 0}
    by_text = {q.question: q for q in test_qs}

    def reply(messages: list[Any], *_: Any) -> ModelOutput:
        user = messages[-1].text
        q = next(q for text, q in by_text.items() if text in user)
        if q.id in good:
            answer = "; ".join(q.answers) or "none"
            # each required date attributed to the answer's term and its end (a bare list of dates cites nothing)
            said = [
                f"{r.get('answer') or answer}'s term {'began' if r['which'] == 'start' else 'ended'} on {r['value']}"
                for r in q.time_refs
            ]
            content = f"Answer: {answer}\nExplanation: {'. '.join(said) or 'no date is needed'}."
        else:
            content = "Answer: Zzyzx Qwerty\nExplanation: no dates."
        out = ModelOutput.from_content(model="mockllm/model", content=content)
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no token counting (offline)
        return out

    model = get_model("mockllm/model", custom_outputs=reply)
    logs = inspect_ai.eval(
        chronoqa_qa(release=str(table_release)), model=model, log_dir=str(tmp_path / "logs"), display="none"
    )
    log = logs[0]
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == len(test_qs)
    for s in log.samples:
        value = next(iter(s.scores.values())).value
        assert value["A"] == (1.0 if s.id in good else 0.0), s.id
        if not math.isnan(value["T"]):
            assert value["T"] == (1.0 if s.id in good else 0.0), s.id
            assert value["AT"] == value["T"]
    assert log.results is not None
    got = {
        sc.name: next(m.value for k, m in sc.metrics.items() if k.endswith("defined_mean")) for sc in log.results.scores
    }
    with_t = [s.id for s in log.samples if not math.isnan(next(iter(s.scores.values())).value["T"])]
    assert with_t, "some table questions carry time references"
    assert got["A"] == pytest.approx(len(good) / len(test_qs))
    assert got["T"] == pytest.approx(sum(1 for qid in with_t if qid in good) / len(with_t))
    assert got["AT"] == pytest.approx(got["T"])


def test_rag_variant_needs_a_run(table_release: Path) -> None:
    from chronoqa.errors import ChronoqaError
    from chronoqa.integrations.inspect import release_samples

    rel = load_release(table_release)
    with pytest.raises(ChronoqaError, match="give run="):
        release_samples(rel, protocol="rag@1")
    samples = release_samples(rel, protocol="closed_book@1", split="test")
    assert [s.id for s in samples] == [q.id for q in rel.split("test")]


def test_rag_variant_shows_the_run_facts(table_release: Path, tmp_path: Path) -> None:
    import chronoqa
    from chronoqa.integrations.inspect import release_samples

    results = chronoqa.run_retrieval(table_release, ["oracle"], tmp_path / "runs", k=10, split="test")
    rel = load_release(table_release)
    samples = release_samples(rel, protocol="rag@1", split="test", run=results[0].path, k=10)
    by_id = {q.id: q for q in rel.split("test")}
    shown = 0
    for s in samples:
        user = s.input[-1].text  # type: ignore[union-attr]
        for fact in by_id[str(s.id)].S_star:  # the oracle retrieves exactly S*
            assert fact.o in user
            shown += 1
    assert shown > 0
