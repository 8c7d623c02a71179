"""Caps on what comes from outside (stored answer length, CSV line length, judgments file size) and ``--wait``
on every command that takes a folder lock.

A cap gives one error naming the cap, the file (and line) and the flag or setting that raises it, exit 2; a
command given ``--wait`` on a folder another command holds waits for it and then does its work, and without
``--wait`` fails at once touching nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from answer_fixtures import write_fixture
from chronoqa.answer import answer_release
from chronoqa.answer.base import AnswerContext, AnswerRecord, Evidence
from chronoqa.artifacts.answers import read_answers
from chronoqa.artifacts.release import load_release
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.outdir import LOCK_FILE
from chronoqa.records import Question
from chronoqa.sources.quintuples import read_quintuples
from chronoqa.sources.tables import read_table
from chronoqa.validate import JUDGMENTS_FORMAT, read_sheet
from cli_in_process import cli as _cli

_SETTING = "CHRONOQA_MAX_LINE_BYTES"


# -- stored answer length ---------------------------------------------------------------------------------------


class _Verbose:
    """An answerer whose reply to the first question is ``n`` characters long (a model that runs on)."""

    uses_evidence = False
    spec = "verbose"

    def __init__(self, n: int) -> None:
        self.n = n

    def meta(self) -> dict[str, object]:
        return {}

    def answer(
        self, questions: Sequence[Question], evidence: Mapping[str, Sequence[Evidence]], context: AnswerContext
    ) -> Iterator[AnswerRecord]:
        for i, q in enumerate(questions):
            text = "x" * self.n if i == 0 else "short"
            yield AnswerRecord(q.id, self.spec, "ok", text, None, None, f"Answer: {text}")


def test_a_reply_over_the_answer_cap_is_stored_as_an_error_line(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    s = answer_release(rel, _Verbose(500), tmp_path / "ans", max_answer_chars=100)  # type: ignore[arg-type]
    lines = [json.loads(x) for x in (tmp_path / "ans" / "answers.jsonl").read_text().splitlines()]
    assert lines[0]["status"] == "error" and lines[0]["answer"] is None
    assert "100-character answer cap" in lines[0]["error"] and "--max-answer-chars" in lines[0]["error"]
    assert len(lines[0]["raw"]) == 100  # what came back, clipped to the cap, is kept for a look
    assert all(x["status"] == "ok" and x["answer"] == "short" for x in lines[1:])
    assert s.by_status["error"] == 1  # counted, never dropped
    assert len(read_answers(tmp_path / "ans", max_chars=100)) == len(lines)


def test_a_reply_at_the_cap_is_stored_as_it_is(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    answer_release(rel, _Verbose(91), tmp_path / "ans", max_answer_chars=99)  # type: ignore[arg-type]
    first = json.loads((tmp_path / "ans" / "answers.jsonl").read_text().splitlines()[0])
    assert first["status"] == "ok" and first["raw"] == "Answer: " + "x" * 91  # 99 characters: at the cap


def _answers_file(tmp_path: Path, rel: Path, long_field: str, n: int) -> Path:
    qids = [q.id for q in load_release(rel).questions if q.split == "test"]
    path = tmp_path / "answers.jsonl"
    rows = []
    for i, qid in enumerate(qids):
        row = {"qid": qid, "answerer": "mine", "status": "ok", "answer": "Spain", "explanation": None, "raw": None}
        if i == 1:
            row[long_field] = "y" * n
        rows.append(json.dumps(row))
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("field", ["answer", "explanation", "raw"])
def test_an_answers_file_over_the_cap_is_refused_naming_line_field_and_flag(tmp_path: Path, field: str) -> None:
    rel, _ = write_fixture(tmp_path)
    path = _answers_file(tmp_path, rel, field, 2_000)
    with pytest.raises(DataError) as info:
        read_answers(path, max_chars=1_000)
    assert (info.value.line, info.value.field) == (2, field)
    res = _cli("evaluate", "--bench", str(rel), "--answers", str(path), "--out", str(tmp_path / "m.json"),
               "--bootstrap", "10", "--max-answer-chars", "1000")  # fmt: skip
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert f"{path}:2" in res.output and "answer cap" in res.output and "--max-answer-chars" in res.output
    assert not (tmp_path / "m.json").exists()
    ok = _cli("evaluate", "--bench", str(rel), "--answers", str(path), "--out", str(tmp_path / "m.json"),
              "--bootstrap", "10", "--max-answer-chars", "2000")  # fmt: skip
    assert ok.exit_code == 0, ok.output


def test_the_default_answer_cap_refuses_a_huge_answer(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    path = _answers_file(tmp_path, rel, "answer", 100_001)
    with pytest.raises(DataError, match="--max-answer-chars"):
        read_answers(path)
    assert len(read_answers(_answers_file(tmp_path, rel, "answer", 100_000))) > 1


@pytest.mark.parametrize("bad", [0, -5])
def test_an_answer_cap_below_one_is_refused(tmp_path: Path, bad: int) -> None:
    rel, _ = write_fixture(tmp_path)
    with pytest.raises(ChronoqaError, match="--max-answer-chars"):
        read_answers(_answers_file(tmp_path, rel, "answer", 5), max_chars=bad)
    res = _cli("evaluate", "--bench", str(rel), "--answers", str(tmp_path / "answers.jsonl"),
               "--max-answer-chars", str(bad))  # fmt: skip
    assert res.exit_code == 2 and "Traceback" not in res.output


# -- CSV / TSV line length --------------------------------------------------------------------------------------


def _quintuples(path: Path, long_line: int, width: int) -> Path:
    """A quintuple CSV (no quotes: the bulk reader's kind of file) whose line ``long_line`` is ``width`` bytes."""
    rows = ["s,r,o,start,end"] + [f"e{i},plays_for,club{i},2001,2003" for i in range(4)]
    rows[long_line - 1] = f"e9,plays_for,{'c' * (width - len('e9,plays_for,,2001,2003'))},2001,2003"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("fast", [True, False])
def test_a_line_over_the_cap_names_line_cap_and_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fast: bool
) -> None:
    monkeypatch.setenv(_SETTING, "64")
    path = _quintuples(tmp_path / "facts.csv", 3, 65)
    with pytest.raises(DataError) as info:
        read_quintuples(path, fast=fast)
    err = info.value
    assert (err.file, err.line, err.field) == (str(path), 3, "(line)")
    assert "65 bytes" in str(err) and "64 bytes (the line cap)" in str(err) and _SETTING in str(err)
    skipped = read_quintuples(path, fast=fast, on_bad_row="skip")
    assert len(skipped) == 3 and skipped.report is not None and len(skipped.report.skipped) == 1  # counted


def test_a_line_at_the_cap_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_SETTING, "64")
    assert len(read_quintuples(_quintuples(tmp_path / "facts.csv", 3, 64))) == 4


def test_a_quoted_table_line_over_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_SETTING, "40")
    path = tmp_path / "t.csv"
    path.write_text('Name,Role,Start,End\n"A",President,1990,1995\n"' + "B" * 50 + '",President,1996,2000\n')
    with pytest.raises(DataError, match=r"line cap") as info:
        read_table(path)
    assert info.value.line == 3


def test_a_field_as_long_as_the_line_cap_allows_is_read(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"  # a 200 KB quoted name: over the csv module's own 128 KiB field limit
    path.write_text('Name,Role,Start,End\n"' + "N" * 200_000 + '",President,1990,1995\nB,President,1996,2000\n')
    table = read_table(path)
    assert len(table.rows) == 2


def test_a_huge_line_through_the_cli_is_one_error_and_not_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "leaders.csv"
    with path.open("w") as fh:
        fh.write("Country,Role,Name,Start,End\nA,President,x,1990,1995\nA,President,")
        fh.write("y" * (3 * 1024 * 1024))
        fh.write(",1996,2000\n")
    res = _cli("build", "table", str(path), "--out", str(tmp_path / "out"), "--tfd", "Country,Role->Name")
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output[-2000:]
    assert f"{path}:3" in res.output and "1,048,576 bytes (the line cap)" in res.output and _SETTING in res.output
    assert len(res.output) < 3000  # the line is named, never echoed
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("value", ["0", "-3", "lots"])
def test_a_bad_line_cap_setting_is_one_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(_SETTING, value)
    path = _quintuples(tmp_path / "facts.csv", 3, 30)
    with pytest.raises(ChronoqaError, match=_SETTING):
        read_quintuples(path)


# -- judgments file size ----------------------------------------------------------------------------------------


def _sheet(path: Path, qid: str, comment: str) -> Path:
    doc = {"format": JUDGMENTS_FORMAT, "annotator": "ann", "judgments": [{"id": qid, "comment": comment}]}
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_judgments_file_over_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    qid = load_release(rel).questions[0].id
    path = _sheet(tmp_path / "a.json", qid, "z" * 5_000)
    with pytest.raises(DataError, match="--max-sheet-mb") as info:
        read_sheet(path, {qid}, max_bytes=4_096)
    assert info.value.file == str(path)
    assert read_sheet(path, {qid}, max_bytes=8_192).annotator == "ann"
    res = _cli("validate", "import", str(rel), str(path), "--out", str(tmp_path / "v"), "--max-sheet-mb", "0.002")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert str(path) in res.output and "sheet cap" in res.output and "--max-sheet-mb" in res.output
    assert not (tmp_path / "v").exists()


# -- --wait -----------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def _held_for(folder: Path, seconds: float | None) -> Iterator[None]:
    """``folder``'s lock held by another open file (as another process would), let go after ``seconds`` (or at
    the end of the block)."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    os.write(fd, b"4242\n")
    fcntl.flock(fd, fcntl.LOCK_EX)
    timer = threading.Timer(seconds or 0, os.close, (fd,))
    if seconds is not None:
        timer.start()
    try:
        yield
    finally:
        if seconds is None:
            os.close(fd)
        else:
            timer.join()


_LEADERS = "Country,Role,Name,Start,End\nA,President,x,1990,1995\nA,President,y,1995,2001\nB,President,u,1980,1999\n"


def _commands(tmp_path: Path, busy: Path) -> dict[str, list[str]]:
    rel, run = write_fixture(tmp_path)
    csv = tmp_path / "leaders.csv"
    csv.write_text(_LEADERS)
    return {
        "build table": ["build", "table", str(csv), "--out", str(busy), "--tfd", "Country,Role->Name",
                        "--per-cell", "1"],
        "export": ["export", str(rel), "--to", "beir", "--out", str(busy)],
        "validate sample": ["validate", "sample", str(rel), "--out", str(busy), "--n", "2"],
        "validate import": ["validate", "import", str(rel),
                            str(_sheet(tmp_path / "a.json", load_release(rel).questions[0].id, "")),
                            "--out", str(busy), "--bootstrap", "10"],
        "evaluate": ["evaluate", "--bench", str(rel), "--run", str(run), "--out", str(busy / "metrics.json"),
                     "--bootstrap", "10"],
        "retrieve": ["retrieve", "--bench", str(rel), "-r", "bm25", "--out", str(busy)],
    }  # fmt: skip


@pytest.mark.parametrize(
    "command", ["build table", "export", "validate sample", "validate import", "evaluate", "retrieve"]
)
def test_wait_waits_for_the_holder_then_works_and_without_it_fails_at_once(tmp_path: Path, command: str) -> None:
    busy = tmp_path / "busy"
    args = _commands(tmp_path, busy)[command]
    with _held_for(busy, None):
        t0 = time.perf_counter()
        res = _cli(*args)
        assert res.exit_code == 2 and "in use by another chronoqa" in res.output and "--wait" in res.output
        assert time.perf_counter() - t0 < 30
    assert sorted(p.name for p in busy.iterdir()) == [LOCK_FILE]  # nothing written while it was held
    with _held_for(busy, 1.5):
        t0 = time.perf_counter()
        res = _cli(*args, "--wait")
        waited = time.perf_counter() - t0
    assert res.exit_code == 0, res.output
    assert waited >= 1.4  # it waited for the holder, then did its work
    assert len(list(busy.iterdir())) > 1


def test_evaluate_replaces_only_a_metrics_file_it_wrote(tmp_path: Path) -> None:
    """--out that is the user's file, an input, a folder or a file in a release is refused before any scoring."""
    rel, _ = write_fixture(tmp_path)
    answers = _answers_file(tmp_path, rel, "answer", 10)
    mine = tmp_path / "mine.json"
    mine.write_text('{"my": "notes"}\n', encoding="utf-8")
    folder = tmp_path / "out_folder"
    folder.mkdir()
    for out, says in ((mine, "not a metrics file"), (answers, "one of evaluate's inputs"),
                      (folder, "is a folder"), (rel / "metrics.json", "inside a release folder")):  # fmt: skip
        before = out.read_bytes() if out.is_file() else None
        res = _cli("evaluate", "--bench", str(rel), "--answers", str(answers), "--out", str(out), "--bootstrap", "5")
        assert res.exit_code == 2 and says in res.output and "Traceback" not in res.output, (out, res.output)
        assert (out.read_bytes() if out.is_file() else None) == before
    assert not (rel / "metrics.json").exists()
    ok = tmp_path / "m.json"
    for _ in range(2):  # a metrics file chronoqa wrote may be replaced by the next evaluation
        res = _cli("evaluate", "--bench", str(rel), "--answers", str(answers), "--out", str(ok), "--bootstrap", "5")
        assert res.exit_code == 0, res.output


@pytest.mark.parametrize("field", ["answer", "explanation", "qid"])
def test_an_answers_field_that_is_not_text_is_one_error(tmp_path: Path, field: str) -> None:
    rel, _ = write_fixture(tmp_path)
    path = _answers_file(tmp_path, rel, "answer", 10)
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    rows[1][field] = 12345
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(DataError) as info:
        read_answers(path)
    assert (info.value.line, info.value.field) == (2, field)
    res = _cli("evaluate", "--bench", str(rel), "--answers", str(path), "--out", str(tmp_path / "m.json"))
    assert res.exit_code == 2 and "Traceback" not in res.output and f"{path}:2" in res.output


def test_answers_of_one_split_scored_over_all_say_which_split_to_score(tmp_path: Path) -> None:
    """`answer` answers the test split by default; `evaluate` over every split says so and names --split."""
    rel, _ = write_fixture(tmp_path)
    test_ids = [q.id for q in load_release(rel).questions if q.split == "test"]
    path = tmp_path / "answers.jsonl"
    rows = ({"qid": qid, "answerer": "mine", "status": "ok", "answer": "Spain"} for qid in test_ids)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    res = _cli("evaluate", "--bench", str(rel), "--answers", str(path), "--out", str(tmp_path / "m.json"),
               "--bootstrap", "5")  # fmt: skip
    assert res.exit_code == 0, res.output
    warnings = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))["warnings"]
    assert any("cover only the test split" in w and "--split test" in w for w in warnings), warnings
