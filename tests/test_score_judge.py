"""The LLM judge of time accuracy through the answering client and its cache (a fake OpenAI server)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chronoqa.artifacts.answers import AnswerRecord, StructuredAnswer
from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.judge import answer_messages, judge_messages, make_judge, parse_verdict
from chronoqa.records import Doc, Question, Triple
from chronoqa.score.candidates import CorpusEntities
from fake_openai import FakeOpenAI, Reply

Q = Question("q1", "test", "Who was the president of Germany on 1 May 2008?", None, (), source="table",
             answers=("Horst Köhler",), granularity="day",
             time_refs=({"which": "start", "value": "2004-07-01", "answer": "Horst Köhler"},))  # fmt: skip
REC = AnswerRecord("q1", "x", "ok", "Horst Köhler", "He took office on 1 July 2004.")


def test_verdicts_are_parsed_conservatively() -> None:
    assert parse_verdict("Yes") is True and parse_verdict(" yes, the date is right") is True
    assert parse_verdict("No.") is False and parse_verdict("Incorrect") is False
    assert parse_verdict("Maybe") is None and parse_verdict("") is None and parse_verdict(None) is None


def test_messages_state_the_protocol() -> None:
    msgs = judge_messages(Q, REC)
    assert msgs[0]["role"] == "system" and "Yes or No" in msgs[0]["content"]
    assert "start of Horst Köhler: 2004-07-01" in msgs[1]["content"]
    assert "He took office on 1 July 2004." in msgs[1]["content"]


def test_judge_calls_once_and_caches(tmp_path: Path) -> None:
    def script(n: int, payload: dict[str, Any]) -> Reply:
        assert payload["max_tokens"] == 8 and payload["temperature"] == 0.0
        return 200, "Yes", {}

    with FakeOpenAI(script) as srv:
        judge = make_judge(f"llm(model=m,base_url={srv.base_url},concurrency=1)", tmp_path / "cache")
        assert judge(Q, REC) is True
        assert judge(Q, REC) is True  # remembered
        again = make_judge(f"llm(model=m,base_url={srv.base_url})", tmp_path / "cache")
        again.prepare([(Q, REC)])
        assert again(Q, REC) is True
        assert len(srv.requests) == 1  # the second judge read the cache
        assert again.meta()["calls"]["cache_hits"] == 1


def test_failures_give_no_verdict(tmp_path: Path) -> None:
    with FakeOpenAI(lambda n, p: (400, "bad", {})) as srv:
        judge = make_judge(f"llm(model=m,base_url={srv.base_url},retries=0)", tmp_path)
        assert judge(Q, REC) is None
        assert judge.meta()["calls"]["errors"] == 1


def test_bad_specs() -> None:
    with pytest.raises(UnknownNameError):
        make_judge("gpt(model=x)")
    with pytest.raises(ChronoqaError, match="needs model"):
        make_judge("llm(base_url=http://x)")
    with pytest.raises(UnknownNameError):
        make_judge("llm(model=m,colour=red)")


def test_corpus_entities_give_slot_candidates_and_context() -> None:
    rows = [("Germany", "Horst Köhler"), ("Germany", "Johannes Rau"), ("Israel", "Chaim Herzog")]
    docs = [Doc(f"d{i}", "", f"{c}, president", "name", n, None, None) for i, (c, n) in enumerate(rows)]
    q = Question("q", "test", "?", None, (Triple("Germany, president", "name", "Horst Köhler", None, None),),
                 answers=("Horst Köhler",))  # fmt: skip
    kw = CorpusEntities(docs).answer_kwargs(q)
    assert kw["context"] == ["Johannes Rau"]
    assert {"Johannes Rau", "Chaim Herzog", "Horst Köhler"} <= set(kw["candidates"].keys())


def test_pipeline_evaluate_with_an_llm_judge(tmp_path: Path) -> None:
    """``[evaluate] judge`` in the run config: verdicts cached in the run's cache, errors split by side."""
    pytest.importorskip("bm25s")
    from answer_fixtures import write_fixture
    from chronoqa.io import read_json
    from chronoqa.pipeline.config import load_config
    from chronoqa.pipeline.run import run_pipeline

    def script(n: int, payload: dict[str, Any]) -> Reply:
        system = payload["messages"][0]["content"]
        if "You check the time references" in system:  # the judge: Yes only on the question about a birth
            return 200, "Yes" if "born" in payload["messages"][1]["content"] else "No", {}
        return 200, "Answer: Blue FC\nExplanation: Ann Lee played for Blue FC from 2005 to 2009.", {}

    rel, _ = write_fixture(tmp_path)
    with FakeOpenAI(script) as srv:
        url = srv.base_url
        cfg = load_config(None, bench=str(rel), out=str(tmp_path / "run"), retrievers="bm25", controls="",
                          baselines="", protocols="closed_book@1", llm=f"llm(model=fake,base_url={url})",
                          judge=f"llm(model=judge,base_url={url},concurrency=1)", n_bootstrap=20)  # fmt: skip
        run_pipeline(cfg)
        n_calls = len(srv.requests)
        run_pipeline(cfg, force=True)  # every stage again: the judge's verdicts come from the run's cache
        assert len(srv.requests) == n_calls
    assert list((tmp_path / "run" / "cache" / "judge").rglob("*.json"))
    data = read_json(tmp_path / "run" / "evaluate" / "answers" / "llm-closed_book@1.json")
    got = {k: v["value"] for k, v in data["time_accuracy"]["all"].items() if k.startswith(("T", "judge_"))}
    # Hand-worked on the fixture: the model always states Blue FC from 2005 to 2009, the data's term, which holds
    # the gold of q1 (both ends) and of q3 (its start, 2005; the end 2009 stated beside it is the data's too), not
    # of q2 or q4 (T = 1 on q1 and q3, 0 on q2 and q4); the judge says Yes on q4 (born: a false accept) and No
    # elsewhere (q1, q3: false rejects; q2 agrees).
    assert got["T"] == 0.5 and got["judge_T"] == 0.25
    assert got["judge_agreement"] == 0.25
    assert got["judge_false_accepts"] == 0.25 and got["judge_false_rejects"] == 0.5
    # 4 time verdicts, and 2 answers the careful rules leave undecided ("Blue FC" where the question's slot
    # has no club: the judge's reply there is no verdict, so they stay undecided)
    assert data["judge"]["calls"]["http_calls"] + data["judge"]["calls"]["cache_hits"] == 6
    assert data["answers"]["all"]["undecided_rate"]["value"] == 0.5


def test_run_config_reads_the_judge_and_checks_it_first(tmp_path: Path) -> None:
    from chronoqa.pipeline.config import dump_toml, load_config
    from chronoqa.pipeline.run import run_pipeline

    toml = tmp_path / "run.toml"
    toml.write_text('[evaluate]\njudge = "llm(model=m,base_url=http://127.0.0.1:9/v1)"\n')
    cfg = load_config(toml)
    assert cfg.judge == "llm(model=m,base_url=http://127.0.0.1:9/v1)"
    again = tmp_path / "again.toml"
    again.write_text(dump_toml(cfg.to_dict()))
    assert load_config(again) == cfg
    with pytest.raises(UnknownNameError):  # before any stage runs: nothing is written
        run_pipeline(load_config(None, out=str(tmp_path / "run"), judge="gpt(model=x)"))
    assert not (tmp_path / "run").exists()


class _StubJudge:
    """A judge that says Yes to every answer it is asked about, and records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[str | None] = []

    def __call__(self, q: Question, record: AnswerRecord) -> bool | None:
        return None

    def answer(self, q: Question, record: AnswerRecord) -> bool | None:
        self.asked.append(record.answer)
        return True


def test_undecided_answers_go_to_the_judge_and_only_they() -> None:
    from chronoqa.score.candidates import Judging

    corpus = [Doc("d1", "", "Germany", "president", "Horst Köhler", "2004-07-01", "2010-05-31"),
              Doc("d2", "", "Germany", "president", "Johannes Rau", "1999-07-01", "2004-06-30")]  # fmt: skip
    q = Question(
        "q2",
        "test",
        "Who was the president of Germany in 2005?",
        None,
        (Triple("Germany", "president", "Horst Köhler", "2004-07-01", "2010-05-31"),),
        answers=("Horst Köhler",),
    )
    stub = _StubJudge()
    plain, judged = Judging(corpus), Judging(corpus, judge=stub)
    unknown = AnswerRecord("q2", "x", "ok", "Хорст Кёлер-Шмидт IV")  # a form no rule reads
    assert plain.answer(q, unknown).verdict == "undecided"
    got = judged.answer(q, unknown)
    assert got.correct and got.undecided  # decided by the judge; the rules' reason is kept
    for text, verdict in (("Horst Köhler", "right"), ("Johannes Rau", "wrong")):
        assert judged.answer(q, AnswerRecord("q2", "x", "ok", text)).verdict == verdict
    assert stub.asked == ["Хорст Кёлер-Шмидт IV"]


def test_the_judge_sees_a_structured_replys_fields() -> None:
    q = Question("q9", "test", "Who was the president of Germany in 2005?", None, (), answers=("Horst Köhler",),
                 time_refs=({"which": "start", "value": "2004-07-01", "answer": "Horst Köhler"},))  # fmt: skip
    claims = StructuredAnswer.model_validate({"answers": [{"answer": "Horst Köhler", "start": "2004-07-01"}]})
    structured = AnswerRecord("q9", "x", "ok", "Horst Köhler", None, structured=claims)
    prose = AnswerRecord("q9", "x", "ok", "Horst Köhler", "He took office on 1 July 2004.")
    for messages in (judge_messages(q, structured), answer_messages(q, structured)):
        assert '"start": "2004-07-01"' in messages[-1]["content"]
    assert "JSON" not in judge_messages(q, prose)[-1]["content"]  # a prose reply's messages are as before


def test_the_report_shows_the_judges_agreement_on_the_answerer_line() -> None:
    from chronoqa.artifacts.summary import AnswerRow, ShownCI, Summary
    from chronoqa.report.render import summary_table

    row = AnswerRow(name="m", answerer="llm(model=m)", run=None, run_control=False, protocol=None, replies=None,
                    model="m", by_status={}, metrics={}, n_time_refs_missing=None, slices={}, warnings=[],
                    judge={"judge_agreement": ShownCI(value=0.75, lo=None, hi=None, n=8)})  # fmt: skip
    summary = Summary.model_construct(retrieval=[], answers=[row])  # the table reads the rows only
    _, _, _, rows = summary_table(summary)
    assert rows[0][0] == "llm(model=m) · LLM judge agrees with the rules on 75.0% of 8 decided"
    _, _, _, rows = summary_table(summary.model_copy(update={"answers": [row.model_copy(update={"judge": {}})]}))
    assert rows[0][0] == "llm(model=m)"  # no judge run: the line is as before
