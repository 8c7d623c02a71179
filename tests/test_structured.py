"""The structured answer protocol: reading JSON replies, the prose fallback, judging dates from fields.

Gold verdicts are worked out by hand from the fixture facts (Ann Lee: Red FC 2001–2004, Blue FC
2005–2009; Bob Ray: Red FC 2003–2006), never by re-running the judge.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from answer_fixtures import triple, write_fixture
from chronoqa.answer import answer_release, make_answerer, read_answers
from chronoqa.answer.prompts import get_protocol
from chronoqa.answer.structured import parse_structured, read_reply, response_formats
from chronoqa.artifacts.answers import AnswerRecord, StructuredAnswer, parse_counts, read_answers_meta
from chronoqa.artifacts.metrics import MetricsFolder, MetricsRecord
from chronoqa.artifacts.release import load_release
from chronoqa.errors import DataError
from chronoqa.io import read_json, write_jsonl
from chronoqa.records import Question
from chronoqa.report import build_summary, summary_table
from chronoqa.score.evaluate import evaluate
from chronoqa.score.structured import structured_time
from chronoqa.score.time_accuracy import score_time
from fake_openai import FakeOpenAI, Reply

# --------------------------------------------------------------------------------------------------
# Reading a reply
# --------------------------------------------------------------------------------------------------

_OK = '{"answers": [{"answer": "Blue FC", "start": "2005", "end": "2009"}], "explanation": "since 2005"}'


@pytest.mark.parametrize(
    "text",
    [
        _OK,
        f"```json\n{_OK}\n```",
        f"Here is the answer:\n{_OK}",
        '{"answers": [{"answer": "Blue FC", "start": 2005, "end": 2009, "confidence": "high"}]}',
    ],
)
def test_a_json_reply_parses_wherever_the_object_sits(text: str) -> None:
    reply = parse_structured(text)
    assert reply is not None
    assert [(a.answer, a.start, a.end, a.date) for a in reply.answers] == [("Blue FC", "2005", "2009", None)]


@pytest.mark.parametrize(
    "text",
    [
        "Answer: Blue FC\nExplanation: from 2005 to 2009",
        '{"answers": [{"answer": "Blue FC", "start": "2005"',  # cut off
        '{"answer": "Blue FC"}',  # no answers list
        '{"answers": "Blue FC"}',  # not a list
        '{"answers": [{"start": "2005"}]}',  # an item without its answer
        '["Blue FC"]',  # not an object
    ],
)
def test_a_reply_that_is_not_valid_json_or_fails_the_schema_does_not_parse(text: str) -> None:
    assert parse_structured(text) is None


def test_bare_names_and_blank_dates_are_read_leniently() -> None:
    reply = parse_structured('{"answers": ["A", {"answer": "B", "end": " "}]}')
    assert reply is not None
    assert [(a.answer, a.end) for a in reply.answers] == [("A", None), ("B", None)]


def test_a_parsed_reply_becomes_a_record_with_its_fields_and_its_list_as_answer_text() -> None:
    rec = read_reply("q", "llm", '{"answers": [{"answer": "A One"}, {"answer": " B Two "}, {"answer": "unknown"}]}')
    assert (rec.status, rec.answer, rec.reply_format) == ("ok", "A One; B Two", "json")
    assert rec.structured is not None and len(rec.structured.answers) == 3
    assert read_reply("q", "llm", '{"answers": []}').status == "abstain"
    assert read_reply("q", "llm", '{"answers": [{"answer": "I don\'t know"}]}').status == "abstain"


def test_an_unparsed_reply_falls_back_to_the_prose_reader() -> None:
    rec = read_reply("q", "llm", "Answer: Blue FC\nExplanation: from 2005 to 2009")
    assert (rec.status, rec.answer, rec.explanation) == ("ok", "Blue FC", "from 2005 to 2009")
    assert rec.reply_format == "prose" and rec.structured is None
    assert rec.raw == "Answer: Blue FC\nExplanation: from 2005 to 2009"


def test_parse_counts_count_only_replies_of_a_structured_protocol() -> None:
    recs = [
        read_reply("a", "x", _OK),
        read_reply("b", "x", "Answer: no JSON"),
        read_reply("c", "x", _OK),
        AnswerRecord("d", "x", "error", None, error="HTTP 500"),
    ]
    assert parse_counts(recs).to_dict() == {"n_replies": 3, "n_json": 2, "parse_rate": 2 / 3}
    assert parse_counts([AnswerRecord("e", "x", "ok", "A")]).parse_rate is None


def test_the_schema_sent_is_the_one_replies_are_validated_with() -> None:
    schema = StructuredAnswer.model_json_schema()
    first, second = response_formats()
    assert first["type"] == "json_schema" and first["json_schema"]["schema"] == schema
    assert second == {"type": "json_object", "schema": schema}
    assert schema["required"] == ["answers"]
    item = schema["$defs"]["AnswerClaim"]
    assert list(item["properties"]) == ["answer", "start", "end", "date"]  # the answer is written first


def test_structured_protocols_ask_for_json_and_free_text_ones_do_not() -> None:
    q = Question("q", "test", "Who?", "2006", (triple(1),), answers=("Blue FC",))
    for spec, facts_shown in (("structured@1", True), ("structured_closed_book@1", False)):
        p = get_protocol(spec)
        system, user = p.messages(q, [{"s": "Ann Lee", "r": "playsFor", "o": "Blue FC", "t_start": "2005"}])
        assert p.structured and '"answers"' in system["content"]
        assert ("Ann Lee plays for Blue FC" in user["content"]) is facts_shown
    assert not get_protocol("rag@1").structured and not get_protocol("closed_book@1").structured


# --------------------------------------------------------------------------------------------------
# The record on disk
# --------------------------------------------------------------------------------------------------


def test_structured_fields_round_trip_and_free_text_lines_keep_their_old_keys(tmp_path: Path) -> None:
    json_rec = read_reply("q1", "llm", _OK)
    prose = AnswerRecord("q2", "llm", "ok", "Lyon", "born 1980")
    assert list(prose.to_dict()) == ["qid", "answerer", "status", "answer", "explanation", "error", "raw"]
    write_jsonl(tmp_path / "answers.jsonl", [json_rec.to_dict(), prose.to_dict()])
    assert read_answers(tmp_path) == [json_rec, prose]


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ({"structured": {"answers": [{"start": "2005"}]}}, "structured.answers.0.answer"),
        ({"reply_format": "xml"}, "reply_format"),
    ],
)
def test_a_bad_structured_line_names_its_line_and_field(tmp_path: Path, line: dict[str, Any], field: str) -> None:
    base = {"qid": "q1", "answerer": "llm", "status": "ok", "answer": "A"}
    write_jsonl(tmp_path / "answers.jsonl", [base, {**base, "qid": "q2", **line}])
    with pytest.raises(DataError) as err:
        read_answers(tmp_path)
    assert err.value.line == 2 and err.value.field == field


# --------------------------------------------------------------------------------------------------
# Judging dates from fields
# --------------------------------------------------------------------------------------------------

# In 2006 Ann Lee played for Blue FC (2005–2009): the references are that fact's start and end.
Q_PIT = Question("p", "test", "In 2006, which team did Ann Lee play for?", "2006", (triple(1),), answers=("Blue FC",))
# Bob Ray joined Red FC (2003) before Ann Lee left it (2004): one reference of the answer, one of the anchor.
Q_ANCHOR = Question(
    "a", "test", "Who joined Red FC before Ann Lee left it?", None, (triple(5),), S_anchor=(triple(0),),
    answers=("Bob Ray",), operator="before_after",
    time_refs=({"which": "start", "value": "2003", "of": "answer"}, {"which": "end", "value": "2004", "of": "anchor"}),
)  # fmt: skip
# A table question with two answers, a reference each, at day granularity.
Q_TABLE = Question(
    "t", "test", "Who held the office?", None, (), source="table", answers=("A One", "B Two"), granularity="day",
    time_refs=({"which": "start", "value": "2001-03-04", "answer": "A One"},
               {"which": "end", "value": "2005-06-07", "answer": "B Two"}),
)  # fmt: skip
# A time answer: Ann Lee left Red FC in 2004.
Q_TIME = Question(
    "y", "test", "In which year did Ann Lee leave Red FC?", None, (triple(0),), answers=("2004",),
    answer_type="time", operator="interval", time_refs=({"which": "end", "value": "2004", "of": "answer"},),
)  # fmt: skip


def _t(q: Question, reply: dict[str, Any]) -> bool | None:
    rec = read_reply(q.id, "llm", json.dumps(reply))
    assert rec.reply_format == "json"
    row = structured_time(q, rec, True)
    assert row is not None
    return row.T


def _a(answer: str, **dates: str) -> dict[str, str]:
    return {"answer": answer, **dates}


@pytest.mark.parametrize(
    ("q", "reply", "expected"),
    [
        (Q_PIT, {"answers": [_a("Blue FC", start="2005", end="2009")]}, True),
        (Q_PIT, {"answers": [_a("Blue FC", start="March 2005", end="2009-12-31")]}, True),
        (Q_PIT, {"answers": [_a("Blue FC", start="2005", end="2010")]}, False),  # wrong end
        (Q_PIT, {"answers": [_a("Blue FC", start="2009", end="2005")]}, False),  # ends swapped
        (Q_PIT, {"answers": [_a("Blue FC", start="2005")]}, False),  # the end is not stated
        (Q_PIT, {"answers": [_a("Blue FC", date="2005")]}, False),  # one date: the start, not the end
        (Q_PIT, {"answers": [_a("Red FC", start="2005", end="2009")]}, False),  # dates claimed for another team
        # another answer's claim beside the gold's does not count for the gold's fact (A judges the list)
        (Q_PIT, {"answers": [_a("Blue FC", start="2005", end="2009"), _a("Red FC", start="2001", end="2004")]}, True),
        (Q_PIT, {"answers": [_a("Blue FC", start="2005", end="2009"), _a("Blue FC", start="2001")]}, False),
        (Q_ANCHOR, {"answers": [_a("Bob Ray", start="2003")], "reference": {"end": "2004"}}, True),
        (Q_ANCHOR, {"answers": [_a("Bob Ray", start="2003")], "reference": {"date": "2004"}}, True),
        (Q_ANCHOR, {"answers": [_a("Bob Ray", start="2003")]}, False),  # the anchor's date not given
        (Q_ANCHOR, {"answers": [_a("Bob Ray", start="2003")], "reference": {"end": "2001"}}, False),
        (Q_TABLE, {"answers": [_a("A One", start="2001-03-04"), _a("B Two", end="2005-06-07")]}, True),
        (Q_TABLE, {"answers": [_a("B Two", start="2001-03-04"), _a("A One", end="2005-06-07")]}, False),  # swapped
        (Q_TABLE, {"answers": [_a("A One", start="2001"), _a("B Two", end="2005-06-07")]}, False),  # too coarse
        (Q_TIME, {"answers": [_a("2004")]}, True),  # the answer is its own date
        (Q_TIME, {"answers": [_a("2004", start="2001", end="2004")]}, True),
        (Q_TIME, {"answers": [_a("2003")]}, False),
        (Q_TIME, {"answers": []}, False),
    ],
)
def test_dates_are_judged_from_the_claimed_fields(q: Question, reply: dict[str, Any], expected: bool) -> None:
    assert _t(q, reply) is expected


def test_records_without_fields_are_left_to_the_prose_judge() -> None:
    assert structured_time(Q_PIT, read_reply("p", "llm", "Answer: Blue FC"), True) is None
    assert structured_time(Q_PIT, AnswerRecord("p", "llm", "ok", "Blue FC", "2005 to 2009"), True) is None
    assert structured_time(Q_PIT, None, False) is None


# --------------------------------------------------------------------------------------------------
# End to end over a fake server: the answer stage, its meta, evaluate
# --------------------------------------------------------------------------------------------------

_REPLIES = {
    # q1: Blue FC 2005–2009, in fields only (no explanation): T from the fields
    "In 2006, which team": '{"answers": [{"answer": "Blue FC", "start": "2005", "end": "2009"}]}',
    # q2: Red Arena, owned by Red FC since 1990, in a fenced block
    "what arena": '```json\n{"answers": [{"answer": "Red Arena", "start": "1990"}]}\n```',
    # q3: a prose reply (the fallback)
    "When did Ann Lee start": "Answer: 2005\nExplanation: Ann Lee joined Blue FC in 2005.",
    # q4: cut-off JSON (the fallback reads it as prose, and it names no city)
    "Where was Bob Ray born": '{"answers": [{"answer": "Ly',
}


def _script(n: int, payload: dict[str, Any]) -> Reply:
    fmt = payload.get("response_format")
    if fmt is not None and fmt["type"] != "json_object":  # llama-cpp-python's server takes json_object only
        return 422, "response_format.type: input should be 'text' or 'json_object'", {}
    user = payload["messages"][-1]["content"]
    return 200, next(v for k, v in _REPLIES.items() if k in user), {}


def test_structured_protocol_end_to_end_reports_its_parse_rate_and_judges_fields(tmp_path: Path) -> None:
    rel, run = write_fixture(tmp_path)
    with FakeOpenAI(_script) as srv:
        spec = f"llm(model=m,base_url={srv.base_url},protocol=structured@1,concurrency=1,max_tokens=200)"
        answer_release(rel, make_answerer(spec), tmp_path / "ans", run=run)
        sent = [r.get("response_format", {}).get("type") for r in srv.requests]
    assert sent == ["json_schema", "json_object", "json_object", "json_object", "json_object"]
    meta = read_json(tmp_path / "ans" / "answers.meta.json")
    assert meta["protocol"]["id"] == "structured@1"
    assert meta["replies"] == {"n_replies": 4, "n_json": 2, "parse_rate": 0.5}
    assert meta["calls"]["format_json_object"] == 4
    recs = {r.qid: r for r in read_answers(tmp_path / "ans")}
    assert [recs[q].reply_format for q in ("q1", "q2", "q3", "q4")] == ["json", "json", "prose", "prose"]

    res = evaluate(rel, answers=tmp_path / "ans", n_bootstrap=0, split="test")
    assert res.metrics.replies is not None
    assert res.metrics.replies.to_dict() == {"n_replies": 4, "n_json": 2, "parse_rate": 0.5}
    a = {o.qid: o.correct for o in res.answer_outcomes}
    t = {r.qid: r.T for r in res.time_rows}
    assert a == {"q1": True, "q2": True, "q3": True, "q4": False}
    assert t["q1"] is True and t["q2"] is True  # read from the fields
    # the same record read as prose has no explanation, so no date: the fields are what was judged
    q1 = next(q for q in load_release(rel).questions if q.id == "q1")
    assert score_time(q1, recs["q1"], True).T is False
    assert t["q3"] is True  # the prose fallback, judged by the prose judge: "joined Blue FC in 2005"

    # the report's answerer line carries the parse rate
    folder = MetricsFolder(answers=(MetricsRecord("llm", res.to_dict(), read_answers_meta(tmp_path / "ans")),))
    _, _, _, rows = summary_table(build_summary(rel, folder))
    assert rows[0][0] == "llm(model=m,protocol=structured@1) · JSON parsed 2/4"


def test_free_text_protocols_send_no_response_format_and_report_no_parse_rate(tmp_path: Path) -> None:
    rel, run = write_fixture(tmp_path)
    with FakeOpenAI(lambda n, p: (200, "Answer: Lyon\nExplanation: born 1980", {})) as srv:
        spec = f"llm(model=m,base_url={srv.base_url},protocol=rag@1,concurrency=1)"
        answer_release(rel, make_answerer(spec), tmp_path / "ans", run=run)
        assert all("response_format" not in r for r in srv.requests)
    assert "replies" not in read_json(tmp_path / "ans" / "answers.meta.json")
    assert all(r.reply_format is None for r in read_answers(tmp_path / "ans"))

    assert evaluate(rel, answers=tmp_path / "ans", n_bootstrap=0).metrics.replies is None
