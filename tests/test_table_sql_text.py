"""The optional LLM step that words a table question from its SQL: kept only when faithful, rejections counted."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from chronoqa.answer.cache import ResponseCache
from chronoqa.answer.client import ChatClient, ClientConfig
from chronoqa.generate.table import TableBuildConfig, build_table_benchmark
from chronoqa.generate.table.build import read_table_files
from chronoqa.generate.table.sql_text import sql_to_text, unfaithful
from chronoqa.records import Question
from fake_openai import FakeOpenAI, Reply
from table_domains import write_domain


@pytest.fixture(scope="module")
def questions(tmp_path_factory: pytest.TempPathFactory) -> list[Question]:
    path = write_domain("hospital_stays", Path(tmp_path_factory.mktemp("stays")))
    tables, _ = read_table_files([path])
    qs = [q for q in build_table_benchmark(tables, TableBuildConfig(per_cell=2)).questions if q.operator == "allen"]
    return qs[:12]


def _draft(content: str) -> str:
    m = re.search(r"Draft: (.*)\nQuestion:", content)
    assert m, content
    return m.group(1)


#: How the fake model rewrites the i-th draft: faithful, or wrong in one way each.
REWRITES = [
    lambda d, q: "Could you tell me: " + d.replace(" during the ", " over the course of the "),  # faithful
    lambda d, q: d[:-1] + ", in 1999?",  # a date added
    lambda d, q: d[:-1] + " at Riverside Clinic?" if "Riverside" not in d else d[:-1] + " at Mercy Hall?",  # a name
    lambda d, q: d[:-1] + f" (it was {q.answers[0]})?",  # the answer
    lambda d, q: re.sub(r"\d", "", d),  # the dates lost
    lambda d, q: d,  # the draft itself: faithful
]
WHY = [None, "dates differ", "added a name", "names the answer", "lost a key value or date", None]


def test_faithfulness_check(questions: list[Question]) -> None:
    """Each way of going wrong is named; a rewording that keeps names and dates and adds none passes."""
    for q in questions[:6]:
        for rewrite, why in zip(REWRITES, WHY, strict=True):
            assert unfaithful(q, rewrite(q.question, q)) == why, (rewrite(q.question, q), why)
    assert unfaithful(questions[0], "") == "not one line"


def test_through_the_answer_client_and_its_cache(questions: list[Question], tmp_path: Path) -> None:
    """Requests go through ChatClient; a second run is answered from the cache; the rejection rate is reported."""
    by_draft = {q.question: (i, q) for i, q in enumerate(questions)}

    def script(n: int, payload: dict[str, Any]) -> Reply:
        draft = _draft(payload["messages"][-1]["content"])
        i, q = by_draft[draft]
        if i == len(questions) - 1:
            return 500, "down", {}
        return 200, REWRITES[i % len(REWRITES)](draft, q), {}

    cfg: dict[str, Any] = {"model": "fake", "max_retries": 0, "timeout_s": 5.0, "api_key_env": ""}
    cache = ResponseCache(tmp_path / "cache")
    with FakeOpenAI(script) as srv:
        with ChatClient(ClientConfig(base_url=srv.base_url, **cfg), cache, sleep=lambda s: None) as client:
            out, report = sql_to_text(questions, client)
        calls = len(srv.requests)
        with ChatClient(ClientConfig(base_url=srv.base_url, **cfg), cache, sleep=lambda s: None) as client:
            again, report2 = sql_to_text(questions, client)
        assert len(srv.requests) - calls == 1  # only the failed request is sent again
    assert all("SELECT" in str(r["messages"][-1]["content"]) for r in srv.requests)
    n = len(questions)
    failed = 1
    faithful = sum(1 for i in range(n - failed) if WHY[i % len(WHY)] is None)
    assert (report.tried, report.failed, report.accepted) == (n, failed, faithful)
    assert report.rejected == n - failed - faithful
    assert report.rejection_rate == pytest.approx(report.rejected / (n - failed))
    assert report.to_dict()["reasons"] == {
        w: sum(1 for i in range(n - failed) if WHY[i % len(WHY)] == w) for w in set(WHY) - {None}
    }
    for q, new in zip(questions, out, strict=True):
        kept = new.question != q.question
        assert kept == (new.logical_form.get("template_question") == q.question)
        assert new.answers == q.answers and new.sql == q.sql
    assert [q.question for q in again] == [q.question for q in out] and report2.accepted == report.accepted
