"""No prompt contains the gold answer string, over a real benchmark built from YAGO11k (mirror)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from chronoqa.answer.prompts import PROTOCOLS
from chronoqa.records import Question

pytestmark = [pytest.mark.mirror, pytest.mark.slow]


def _needles(q: Question) -> list[str]:
    out = list(q.answers)
    if q.answer_type == "time":
        out += [a[:4].lstrip("0") or a for a in q.answers if re.match(r"^-?\d{4}", a)]  # the year of a date
    return [n for n in dict.fromkeys(out) if n.strip()]


def _contains(text: str, needle: str) -> bool:
    # whole words, any case: "Lyon" must not hide in "Lyonnais", "2005" not in "12005"
    return re.search(r"(?<!\w)" + re.escape(needle) + r"(?!\w)", text, re.IGNORECASE) is not None


@pytest.fixture(scope="module")
def questions(mirror: Path) -> list[Question]:
    from chronoqa.datasets import load_graph
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark

    graph = load_graph("yago11k")
    return build_kg_benchmark(graph, KGBuildConfig(n_questions=600, seed=1)).questions


def test_no_prompt_contains_gold_answer(questions: list[Question]) -> None:
    assert len(questions) >= 300  # YAGO11k holds fewer world-valid questions than asked for
    interval = [q for q in questions if q.operator == "interval"]
    # the check is meaningful: interval questions' t_query IS their answer (TempBench's leak) ...
    assert interval and all(not q.render_time for q in interval)
    leaky = [q for q in interval if q.t_query and any(_contains(q.t_query, n) for n in _needles(q))]
    assert leaky, "expected interval questions whose t_query equals the answer"
    # ... and a prompt that rendered it would be caught by this very check
    forced = dataclasses.replace(leaky[0], render_time=True)
    assert any(
        _contains(m["content"], n) for m in PROTOCOLS["closed_book@1"].messages(forced) for n in _needles(forced)
    )

    bad: list[str] = []
    for q in questions:
        if q.answer_type == "yes_no":  # the labels are words of any prompt ("Answer yes or no"): no leak
            continue
        for proto in PROTOCOLS.values():
            # the question part of every protocol (rag@1's facts are retrieved evidence, not the prompt template)
            for m in proto.messages(q, []):
                for n in _needles(q):
                    if _contains(m["content"], n):
                        bad.append(f"{q.id} {proto.id}: {n!r} in {m['content'][-160:]!r}")
    assert not bad, f"{len(bad)} prompts contain their gold answer, e.g. {bad[:5]}"
