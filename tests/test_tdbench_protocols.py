"""TDBench's closed- and open-book settings as prompt protocols, and a table run scored with partial credit.

The open-book table is checked against the question's own rows and the corpus by hand: which rows must be
there, how many random rows, that the order is seeded, and that a "none" question gets a table too.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chronoqa.answer.prompts import PROTOCOLS, get_protocol
from chronoqa.answer.tdbench import RANDOM_ROWS, RowPool, markdown_table, rows_by_question
from chronoqa.artifacts.release import Release, load_release
from chronoqa.io import read_json, read_jsonl
from chronoqa.pipeline.config import load_config
from chronoqa.pipeline.run import run_pipeline
from chronoqa.records import Doc
from fake_openai import FakeOpenAI, Reply

# three keys whose holder changes over time, day-level dates (9 rows, 3 open-ended)
CSV = (
    "Country,Role,Name,Start,End\n"
    "A,President,Xavier,1990-01-05,1995-03-01\nA,President,Yvonne,1995-03-02,2001-07-31\n"
    "A,President,Zoe,2001-08-01,\nB,President,Ulla,1980-02-02,1999-12-31\nB,President,Vera,2000-01-01,2010-06-30\n"
    "B,President,Walt,2010-07-01,\nC,President,Tom,1985-01-01,1992-12-31\nC,President,Sam,1993-01-01,2004-04-30\n"
    "C,President,Rita,2004-05-01,\n"
)
ROWS = {line.split(",")[2]: line.split(",") for line in CSV.splitlines()[1:]}


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    from chronoqa.cli import app

    tmp = tmp_path_factory.mktemp("tdbench")
    csv = tmp / "leaders.csv"
    csv.write_text(CSV, encoding="utf-8")
    out = tmp / "rel"
    res = CliRunner().invoke(
        app, ["build", "table", str(csv), "--out", str(out), "--tfd", "Country,Role->Name", "--per-cell", "3"]
    )
    assert res.exit_code == 0, res.output
    return load_release(out)


def _table_rows(text: str) -> list[list[str]]:
    lines = [ln for ln in text.splitlines() if ln.startswith("| ")]
    return [[c.strip() for c in ln.strip("|").split("|")] for ln in lines[1:]]


def test_protocols_registered_and_closed_book_shows_no_table(release: Release) -> None:
    assert {"tdbench_closed@1", "tdbench_open@1"} <= set(PROTOCOLS)
    q = release.questions[0]
    closed = get_protocol("tdbench_closed@1").messages(q, [{"s": "x", "r": "y", "o": "z"}])
    assert "Table" not in closed[1]["content"] and q.question in closed[1]["content"]
    assert "explain with dates" in closed[0]["content"] and "Answer:" in closed[0]["content"]
    assert not get_protocol("tdbench_open@1").uses_evidence  # needs no run: it shows the release's rows


def test_open_book_table_has_gold_other_periods_and_random_rows(release: Release) -> None:
    qs = list(release.questions)
    shown = rows_by_question(qs, lambda: release.corpus, seed=0)
    proto = get_protocol("tdbench_open@1")
    for q in qs:
        text = proto.messages(q, shown[q.id])[1]["content"]
        rows = _table_rows(text)
        assert rows and all(len(r) == 5 for r in rows)  # Country | Role | Name | Start | End
        names = [r[2] for r in rows]
        country = q.logical_form["key"][0]
        own = [n for n, raw in ROWS.items() if raw[0] == country]
        # every row of the question's key (the gold and the other periods), each once, with its CSV dates
        assert sorted(n for n in names if n in own) == sorted(own)
        for r in rows:
            raw = ROWS[r[2]]
            assert r[:2] == raw[:2] and r[3] == raw[3] and r[4] == raw[4]
        # RANDOM_ROWS rows of other keys
        assert len([n for n in names if n not in own]) == RANDOM_ROWS
        assert text.endswith(f"Question: {q.question}")
        assert f"an empty End means the row still held on {q.as_of}" in text


def test_open_book_order_is_seeded(release: Release) -> None:
    qs = list(release.questions)
    a = rows_by_question(qs, lambda: release.corpus, seed=0)
    b = rows_by_question(qs, lambda: release.corpus, seed=0)
    c = rows_by_question(qs, lambda: release.corpus, seed=1)
    assert a == b
    assert any(a[q.id] != c[q.id] for q in qs)
    # questions of one key do not all get the same random rows at the same places (TDBench's fixed state)
    orders = {tuple(r["o"] for r in a[q.id]) for q in qs if q.logical_form["key"][0] == "A"}
    assert len(orders) > 1


def test_none_question_gets_a_table(release: Release) -> None:
    # TDBench shows no table when the gold is empty, which tells the model the answer is "none"
    q = next(q for q in release.questions if q.S_dist)
    none_q = replace(q, S_star=(), answers=(), answer_ids=(), cardinality="none", time_refs=())
    rows = rows_by_question([none_q], lambda: release.corpus, seed=0)[none_q.id]
    assert len(rows) == len({t.o for t in q.S_dist + q.S_stale}) + RANDOM_ROWS
    assert len(_table_rows(markdown_table(none_q, rows))) == len(rows)


def _fake_model(n: int, payload: dict[str, Any]) -> Reply:
    """A fake model: closed book it does not know; open book it names the first row of the question's country."""
    user = payload["messages"][-1]["content"]
    q = user.split("Question: ", 1)[1]
    if "Table" not in user:
        return 200, "Answer: unknown", {}
    country = re.search(r"\bof ([ABC])\b", q)
    for cells in _table_rows(user):
        if country and cells[0] == country.group(1):
            end = f"to {cells[4]}" if cells[4] else "and still holds office"
            return 200, f"Answer: {cells[2]}\nExplanation: {cells[2]} took office on {cells[3]} {end}.", {}
    return 200, "Answer: none\nExplanation: no row fits.", {}


def test_run_with_both_protocols_reports_partial_credit_and_classes(release: Release, tmp_path: Path) -> None:
    pytest.importorskip("bm25s")
    with FakeOpenAI(_fake_model) as srv:
        cfg = load_config(
            None,
            bench=str(release.path),
            out=str(tmp_path / "run"),
            retrievers="bm25",
            controls="",
            baselines="prior",
            llm=f"llm(model=fake,base_url={srv.base_url})",
            protocols="tdbench_closed@1,tdbench_open@1",
            n_bootstrap=20,
        )
        res = run_pipeline(cfg)
        opened = [p for p in srv.requests if "Table" in p["messages"][-1]["content"]]
    names = [s.name for s in res.stages]
    assert "answer-llm-tdbench_closed@1" in names and "answer-llm-tdbench_open@1" in names
    n = len(release.split("test"))
    assert len(opened) == n  # every open-book prompt showed a table, closed-book none
    meta = read_json(tmp_path / "run" / "answer-llm-tdbench_open@1" / "answers.meta.json")
    assert meta["protocol"]["id"] == "tdbench_open@1" and meta["open_book"]["random_rows"] == RANDOM_ROWS
    rows = {r["protocol"]: r for r in res.summary.to_dict()["answers"] if r.get("protocol")}
    closed, opened_row = rows["tdbench_closed@1"], rows["tdbench_open@1"]
    assert closed["metrics"]["A"]["value"] == 0.0 and closed["metrics"]["other_wrong"]["value"] == 1.0
    m = opened_row["metrics"]
    for key in ("T", "T_half", "T_loose", "right_holder_right_date", "outdated_right_date", "other_wrong"):
        assert m[key] is not None and m[key]["value"] is not None, key
    assert m["T"]["value"] <= m["T_half"]["value"] and m["T"]["value"] <= m["T_loose"]["value"]
    classes = ("right_holder_right_date", "right_holder_wrong_date", "outdated_right_date", "outdated_wrong_date")
    assert abs(sum(m[c]["value"] for c in (*classes, "other_wrong")) - 1.0) < 1e-9
    report = (res.report_md).read_text(encoding="utf-8")
    for text in ("T half", "T loose", "Outcome classes", "right, dates right", "outdated, its dates right"):
        assert text in report, text
    html = res.report_html.read_text(encoding="utf-8")
    assert "Outcome classes" in html and "T half" in html
    answers = list(read_jsonl(tmp_path / "run" / "answer-llm-tdbench_open@1" / "answers.jsonl"))
    assert len(answers) == n


def test_selectable_in_the_answer_and_run_commands(release: Release, tmp_path: Path) -> None:
    pytest.importorskip("bm25s")
    from chronoqa.cli import app

    with FakeOpenAI(_fake_model) as srv:
        spec = f"llm(model=fake,base_url={srv.base_url},protocol=tdbench_open@1)"
        out = tmp_path / "ans"
        res = CliRunner().invoke(app, ["answer", "--bench", str(release.path), "--out", str(out), "--answerer", spec])
        assert res.exit_code == 0, res.output
        assert read_json(out / "answers.meta.json")["protocol"]["id"] == "tdbench_open@1"
        assert srv.requests and all("Table" in p["messages"][-1]["content"] for p in srv.requests)
        args = ["run", "--bench", str(release.path), "--out", str(tmp_path / "run"), "--retrievers", "bm25"]
        args += ["--controls", "", "--baselines", "prior", "--n-bootstrap", "10"]
        args += ["--llm", f"llm(model=fake,base_url={srv.base_url})", "--protocols", "tdbench_closed@1"]
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 0, res.output
    assert (tmp_path / "run" / "answer-llm-tdbench_closed@1" / "answers.jsonl").is_file()
    assert not (tmp_path / "run" / "answer-llm-rag@1@bm25").exists()  # the flag replaced the default protocols


def test_random_rows_from_a_large_corpus_are_distinct_and_of_other_keys() -> None:
    docs = [
        Doc(f"d{i}", "t", f"K{i % 100}", "name", f"N{i}", "2000", None, f"K{i % 100}", "Name", f"N{i}", i)
        for i in range(500)
    ]
    docs += [Doc("x", "t", "Other", "team", "T", "2000", None, "Other", "Team", "T", 500)]
    pool = RowPool(lambda: docs)
    keys = {f"K{k}" for k in range(90)}  # 450 of the 500 rows are excluded: 50 rows of 10 keys remain
    for seed in range(20):
        rows = pool.draw("Name", keys, RANDOM_ROWS, random.Random(seed))
        assert len(rows) == RANDOM_ROWS and len({r["o"] for r in rows}) == RANDOM_ROWS
        assert all(r["s_id"] not in keys and r["r_id"] == "Name" for r in rows)
        assert rows == pool.draw("Name", keys, RANDOM_ROWS, random.Random(seed))
    # a relation with too few rows of other keys: the whole corpus is drawn from
    rows = pool.draw("Team", {"Other"}, RANDOM_ROWS, random.Random(0))
    assert len(rows) == RANDOM_ROWS and all(r["s_id"] != "Other" for r in rows)
