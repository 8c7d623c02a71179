"""Records declared once: the JSON form, its checks and the Arrow schema all follow from the dataclass fields."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest

from chronoqa.artifacts.release import FunctionalFlags
from chronoqa.artifacts.schema import read_records
from chronoqa.errors import DataError
from chronoqa.records import Doc, Question, RecordError, Triple

TEXT = pa.dictionary(pa.int32(), pa.string())


def test_corpus_columns_are_docs_fields() -> None:
    """The columns of ``corpus.parquet`` as the release format has them: pinned here, derived in the code."""
    want = pa.schema(
        [("doc_id", pa.string()), ("text", pa.string()), ("s", TEXT), ("r", TEXT), ("o", TEXT), ("t_start", TEXT),
         ("t_end", TEXT), ("s_id", TEXT), ("r_id", TEXT), ("o_id", TEXT), ("fact_id", pa.int64())]
    )  # fmt: skip
    assert Doc.arrow_schema().equals(want)
    triple = Question.arrow_schema().field("S_star").type.value_type
    assert [triple.field(i).name for i in range(triple.num_fields)] == list(Triple.__dataclass_fields__)


def test_question_json_keys_in_field_order_with_complexity_after_hops() -> None:
    t = Triple("Ann", "playsFor", "Blue FC", "2005", None, fact_id=3, doc_id="d3")
    q = Question("q1", "test", "Where did Ann play in 2006?", "2006", (t,), hops=2, answers=("Blue FC",))
    d = q.to_dict()
    keys = list(d)
    assert keys[keys.index("hops") + 1] == "complexity" and d["complexity"] == "2-hop"
    assert d["S_star"] == [
        {"s": "Ann", "r": "playsFor", "o": "Blue FC", "t_start": "2005", "t_end": None, "s_id": "", "r_id": "",
         "o_id": "", "fact_id": 3, "doc_id": "d3"}
    ]  # fmt: skip
    assert Question.from_dict(json.loads(json.dumps(d))) == q
    doc = Doc("d3", "Ann played for Blue FC from 2005.", "Ann", "playsFor", "Blue FC", "2005", None)
    assert list(doc.to_dict()) == Doc.arrow_schema().names and Doc.from_dict(doc.to_dict()) == doc


def test_tempbench_records_read() -> None:
    """TempBench's own lines: a complexity label without hops, float years, no chronoqa fields."""
    q = Question.from_dict(
        {"id": "t1", "question": "q?", "t_query": 1994.0, "complexity": "3+-hop",
         "S_star": [{"s": "a", "r": "b", "o": "c", "t_start": 1990.0, "t_end": None}]}
    )  # fmt: skip
    assert (q.hops, q.split, q.t_query, q.S_star[0].t_start, q.S_star[0].doc_id) == (3, "test", "1994", "1990", "")
    assert Doc.from_dict({"doc_id": "d", "text": "x", "s": "a", "r": "b", "o": "c", "t_start": 1990}).t_start == "1990"


@pytest.mark.parametrize(
    ("record", "where", "expected"),
    [
        ({"id": "q", "question": "x", "S_star": [{"s": "a", "r": "b", "o": "c"}, {"s": "a", "r": "b"}]},
         "S_star[1].o", "the key is missing"),
        ({"id": "q", "question": "x", "S_star": [{"s": "a", "r": "b", "o": "c", "fact_id": "7"}]},
         "S_star[0].fact_id", "an integer"),
        ({"id": "q", "question": "x", "split": None}, "split", "not null"),
        ({"id": "q", "question": "x", "answers": ["a", 2]}, "answers[1]", "a string"),
        ({"id": "q", "question": "x", "render_time": 1}, "render_time", "true or false"),
        ({"id": "q", "question": "x", "logical_form": []}, "logical_form", "an object"),
    ],
)  # fmt: skip
def test_a_wrong_field_is_named(record: dict[str, object], where: str, expected: str) -> None:
    with pytest.raises(RecordError) as exc:
        Question.from_dict(record)
    assert exc.value.where == where and expected in exc.value.expected


def test_read_records_names_file_line_and_field(tmp_path: Path) -> None:
    rows = [(1, {"id": "a", "dist_functional": True, "stale_functional": False}),
            (3, {"id": "b", "dist_functional": "no", "stale_functional": False})]  # fmt: skip
    with pytest.raises(DataError) as exc:
        list(read_records(tmp_path / "f.jsonl", rows, FunctionalFlags, "id"))
    assert (exc.value.line, exc.value.field) == (3, "dist_functional")
    assert "true or false in a functionalflags record" in str(exc.value)
