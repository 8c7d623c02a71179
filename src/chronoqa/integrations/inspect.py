"""An ``inspect_ai`` task over a chronoqa release, scored by chronoqa's own A, T and AT.

Run it with inspect's CLI or from Python; after ``pip install chronoqa[inspect]`` inspect finds it by name
(the ``inspect_ai`` entry point of chronoqa's ``pyproject.toml`` names this module)::

    inspect eval chronoqa/chronoqa_qa -T release=REL -T protocol=rag@1 -T run=RUN
    inspect_ai.eval("chronoqa/chronoqa_qa", task_args={"release": "REL"}, model="openai/...")

* ``protocol``: a prompt protocol of :mod:`chronoqa.answer.prompts` (``closed_book@1``, ``rag@1``); the
  RAG variant needs ``run``, a retrieval run file (any shape :func:`chronoqa.artifacts.runs.read_run`
  reads), whose top ``k`` facts are shown.
* The scorer parses the reply with :func:`chronoqa.answer.prompts.parse_response` and scores it with
  :func:`chronoqa.score.answers.score_answer` (A) and :func:`chronoqa.score.time_accuracy.score_time`
  (T: the explanation cites the gold times). Each sample's score is ``{"A", "T", "AT"}``; T and AT are
  undefined (NaN) for questions without a time reference and are averaged over the others, as
  ``chronoqa evaluate`` does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chronoqa.errors import ChronoqaError

try:
    from inspect_ai import Task, task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser
    from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
    from inspect_ai.solver import TaskState, generate
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ChronoqaError("the inspect_ai task needs inspect_ai: pip install chronoqa[inspect]") from exc

from chronoqa.answer.prompts import get_protocol, parse_response
from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.artifacts.release import Release, load_release
from chronoqa.artifacts.runs import read_run
from chronoqa.records import Question
from chronoqa.score.time_accuracy import reply_scores

__all__ = ["chronoqa_qa", "chronoqa_scorer", "defined_mean", "release_samples"]


def _messages(raw: Sequence[dict[str, str]]) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    for m in raw:
        if m["role"] == "system":
            out.append(ChatMessageSystem(content=m["content"]))
        else:
            out.append(ChatMessageUser(content=m["content"]))
    return out


def release_samples(
    release: Release,
    *,
    protocol: str = "closed_book@1",
    split: str | None = "test",
    run: str | Path | None = None,
    k: int = 10,
) -> list[Sample]:
    """One inspect ``Sample`` per question: the protocol's messages, the gold answers as target."""
    proto = get_protocol(protocol)
    if proto.uses_evidence and run is None:
        raise ChronoqaError(f"prompt protocol {proto.id} shows retrieved facts: give run=<a retrieval run file>")
    evidence: dict[str, list[dict[str, Any]]] = {}
    if proto.uses_evidence and run is not None:
        evidence = {line.qid: [h.to_dict() for h in line.hits] for line in read_run(run, docs=release.corpus)}
    questions = release.questions if split is None else release.split(split)
    return [
        Sample(
            input=_messages(proto.messages(q, evidence.get(q.id, ()), k)),
            target=list(q.answers) or ["none"],
            id=q.id,
            metadata={"operator": q.operator, "complexity": q.complexity, "split": q.split},
        )
        for q in questions
    ]


@metric
def defined_mean() -> Metric:
    """The mean of the defined (non-NaN) values: T and AT over the questions with time references."""

    def compute(scores: list[SampleScore]) -> float:
        vals = [float(v) for v in (s.score.value for s in scores) if isinstance(v, int | float) and not math.isnan(v)]
        return sum(vals) / len(vals) if vals else float("nan")

    return compute


@scorer(metrics={"A": [defined_mean()], "T": [defined_mean()], "AT": [defined_mean()]})
def chronoqa_scorer(questions: dict[str, Question]) -> Scorer:
    """The answer (A) and time (T) scoring of chronoqa, applied to a model reply, as an inspect scorer."""

    async def score(state: TaskState, target: Target) -> Score:
        q = questions[str(state.sample_id)]
        parsed = parse_response(state.output.completion or "")
        record = AnswerRecord(q.id, "inspect", parsed.status, parsed.answer, parsed.explanation)
        outcome, value = reply_scores(q, record)
        return Score(
            value=value,
            answer=parsed.answer,
            explanation=outcome.outcome,
        )

    return score


@task
def chronoqa_qa(
    release: str,
    protocol: str = "closed_book@1",
    split: str = "test",
    run: str | None = None,
    k: int = 10,
) -> Task:
    """A chronoqa release as an inspect task (closed-book, or RAG over a retrieval run)."""
    rel = load_release(release)
    samples = release_samples(rel, protocol=protocol, split=split or None, run=run, k=k)
    questions = {q.id: q for q in rel.questions}
    return Task(
        dataset=MemoryDataset(samples, name=f"chronoqa-{rel.manifest.get('dataset', rel.path.name)}"),
        solver=generate(),
        scorer=chronoqa_scorer(questions),
        name=f"chronoqa_{protocol.replace('@', '_v')}",
    )
