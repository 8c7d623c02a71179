"""The optional LLM step that words a table question from its SQL: kept only when faithful, rejections counted."""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path
from typing import Any

import pytest

from chronoqa.answer.cache import ResponseCache
from chronoqa.answer.client import ChatClient, ClientConfig
from chronoqa.artifacts.release import load_release
from chronoqa.generate.faithful import check_rewording, reason_kind
from chronoqa.generate.table import TableBuildConfig, build_table_benchmark
from chronoqa.generate.table.build import read_table_files
from chronoqa.generate.table.sql_text import sql_to_text
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
WHY = [None, "adds date", "adds entity word", "adds the answer", "drops date", None]


def test_faithfulness_check(questions: list[Question]) -> None:
    """Each way of going wrong is named; a rewording that keeps names and dates and adds none passes."""
    for q in questions[:6]:
        for rewrite, why in zip(REWRITES, WHY, strict=True):
            kinds = {reason_kind(r) for r in check_rewording(q, rewrite(q.question, q), same_ok=True)}
            assert (why in kinds) if why else not kinds, (rewrite(q.question, q), why, kinds)
    assert check_rewording(questions[0], "") == ("empty",)
    assert check_rewording(questions[0], "Who?\nWhen?") == ("not one line",)


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
    reasons = report.to_dict()["reasons"]
    for w in set(WHY) - {None}:  # each question is counted once per kind of reason it is rejected for
        assert reasons[w] >= sum(1 for i in range(n - failed) if WHY[i % len(WHY)] == w), (w, reasons)
    for q, new in zip(questions, out, strict=True):
        kept = new.question != q.question
        assert kept == (new.logical_form.get("template_question") == q.question)
        assert new.answers == q.answers and new.sql == q.sql
    assert [q.question for q in again] == [q.question for q in out] and report2.accepted == report.accepted


# --------------------------------------------------------------------------------------------------
# one check for every rewording step
# --------------------------------------------------------------------------------------------------


def test_one_check_for_every_rewording_step(questions: list[Question]) -> None:
    """The build's hook, the SQL-to-text step and a paraphrase set reject a rewording for the same reasons."""
    from chronoqa.generate.table.verbalise import paraphrase_questions as reword_hook
    from chronoqa.paraphrase import paraphrase_questions as paraphrase_set

    q = questions[0]
    bad = q.question[:-1] + f", at Mercy Hall in 1999 ({q.answers[0]})?"
    expected = {"adds date", "adds entity word", "adds the answer"}
    _, hook = reword_hook([q], lambda text: bad)

    class Stub:
        name = "stub"

        def propose(self, qs: list[Question], n: int) -> list[list[tuple[str, str]]]:
            return [[("stub", bad)] for _ in qs]

    class Client:
        def chat_many(self, batch: Any) -> list[Any]:
            return [type("R", (), {"ok": True, "text": bad, "error": None})() for _ in batch]

    _, sql = sql_to_text([q], Client())
    rates = paraphrase_set([q], Stub(), 1).rates
    for report in (hook.to_dict(), sql.to_dict(), rates):
        assert (report["rejected"], report["accepted"]) == (1, 0)
        assert expected <= set(report["reasons"]), report["reasons"]
        assert report["by_template"] == {q.template_id: {"checked": 1, "rejected": 1, "rejection_rate": 1.0}}


# --------------------------------------------------------------------------------------------------
# chronoqa build table --sql-to-text, end to end with a fake server
# --------------------------------------------------------------------------------------------------

#: Rewrites whose verdict does not depend on the question: kept (changed), rejected twice, kept (the draft).
CLI_REWRITES = [
    (lambda d: "Could you tell me: " + d, True),
    (lambda d: d[:-1] + ", in 1999?", False),
    (lambda d: d[:-1] + " at Mercy Hall?", False),
    (lambda d: d, True),
]


def _pick(draft: str) -> int:
    return zlib.crc32(draft.encode()) % len(CLI_REWRITES)


def test_cli_build_table_sql_to_text(tmp_path: Path) -> None:
    """`chronoqa build table --sql-to-text llm(...)`: kept wordings only, rejections in manifest and card, cached."""
    from cli_in_process import cli

    table = write_domain("hospital_stays", tmp_path)

    def script(n: int, payload: dict[str, Any]) -> Reply:
        draft = _draft(payload["messages"][-1]["content"])
        return 200, CLI_REWRITES[_pick(draft)][0](draft), {}

    with FakeOpenAI(script) as srv:
        spec = f'llm(model=fake,base_url={srv.base_url},retries=0,api_key_env="")'
        args = ["build", "table", str(table), "--sql-to-text", spec, "--sql-to-text-cache", str(tmp_path / "c")]
        res = cli(*args, "--out", str(tmp_path / "a"))
        assert res.exit_code == 0, res.output
        n_calls = len(srv.requests)
        again = cli(*args, "--out", str(tmp_path / "b"))
        assert again.exit_code == 0 and len(srv.requests) == n_calls  # the rerun is answered from the cache
    plain = cli("build", "table", str(table), "--out", str(tmp_path / "plain"))
    assert plain.exit_code == 0, plain.output
    drafts = {q.id: q for q in load_release(tmp_path / "plain").questions}
    built = {q.id: q for q in load_release(tmp_path / "a").questions}
    assert built.keys() == drafts.keys() and n_calls == sum(1 for q in drafts.values() if q.sql)
    expected_kept = 0
    for qid, q in built.items():
        rewrite, faithful = CLI_REWRITES[_pick(drafts[qid].question)]
        expected_kept += faithful
        assert q.question == (rewrite(drafts[qid].question) if faithful else drafts[qid].question)
        assert q.answers == drafts[qid].answers and q.sql == drafts[qid].sql
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())["sql_to_text"]
    assert manifest["client"] == spec and manifest["tried"] == n_calls and manifest["failed"] == 0
    assert manifest["accepted"] == expected_kept and manifest["rejected"] == n_calls - expected_kept
    assert manifest["rejection_rate"] == pytest.approx((n_calls - expected_kept) / n_calls)
    assert sum(c["checked"] for c in manifest["by_template"].values()) == n_calls
    card = (tmp_path / "a" / "DATACARD.md").read_text()
    assert "worded by a model from their SQL" in card and f"{manifest['rejected']} rejected" in card
    assert f"{manifest['accepted']} of {n_calls} questions reworded" in res.output
    for name in ("benchmark.jsonl", "DATACARD.md"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_cli_sql_to_text_bad_spec_is_one_error(tmp_path: Path) -> None:
    from cli_in_process import cli

    table = write_domain("hospital_stays", tmp_path)
    res = cli("build", "table", str(table), "--out", str(tmp_path / "o"), "--sql-to-text", "bm25()")
    assert res.exit_code == 2 and "Traceback" not in res.output and "--sql-to-text" in res.output, res.output
    assert not (tmp_path / "o" / "benchmark.jsonl").exists()
