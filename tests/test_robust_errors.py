"""One error printer: user text is never markup, errors go to stderr with exit 2, decoding errors name file:line.

Each case is a failure a hostile-input trial recorded (a MarkupError traceback, a word
that vanished, an error that named nothing).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from answer_fixtures import write_fixture
from chronoqa.cli import main
from chronoqa.errors import DataError
from chronoqa.io import read_json, read_jsonl, read_text
from chronoqa.pipeline.config import load_config
from chronoqa.sources.labels import read_entity_labels


def _cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``chronoqa ARGS`` in this process; returns (exit status, stdout, stderr)."""
    monkeypatch.setattr("sys.argv", ["chronoqa", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    out, err = capsys.readouterr()
    code = exc.value.code
    return (code if isinstance(code, int) else 1), out, err


def _user_error(result: tuple[int, str, str], *needles: str) -> None:
    code, out, err = result
    assert code == 2, (code, out, err)
    assert "Traceback" not in err and "MarkupError" not in err
    lines = err.strip().splitlines()
    assert lines[-1].startswith("error: ") and sum(ln.startswith("error") for ln in lines) == 1, err
    assert "error" not in out
    for needle in needles:
        assert needle in err, (needle, err)


@pytest.fixture
def release(tmp_path: Path) -> Path:
    return write_fixture(tmp_path)[0]


def test_brackets_in_a_retriever_spec(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    res = _cli(monkeypatch, capsys, "retrieve", "--bench", str(release), "-r", "bm25[/x]", "--out", str(tmp_path / "o"))
    _user_error(res, "bm25[/x]")


def test_brackets_in_a_bench_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = tmp_path / "a[/x]b"
    res = _cli(monkeypatch, capsys, "run", "--bench", str(bench), "--out", str(tmp_path / "o"))
    _user_error(res, f"--bench {bench}: not a benchmark release folder")


def test_brackets_in_an_llm_spec(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    res = _cli(monkeypatch, capsys, "run", "--bench", str(release), "--out", str(tmp_path / "o"), "--llm", "llm[/x]")
    _user_error(res, "llm[/x]")


def test_a_section_name_in_brackets_survives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = tmp_path / "run.toml"
    toml.write_text("[retrieve]\nretreivers = ['bm25']\n", encoding="utf-8")
    res = _cli(monkeypatch, capsys, "run", "--config", str(toml), "--out", str(tmp_path / "o"))
    _user_error(res, "key in [retrieve] of", "Did you mean retrievers?")


# -- decoding errors name the file and the line ------------------------------------------------------------


def _latin1(path: Path, text_before: str) -> Path:
    path.write_bytes(text_before.encode("utf-8") + b"caf\xe9\n")
    return path


def test_not_utf8_everywhere_names_file_and_line(tmp_path: Path) -> None:
    labels = _latin1(tmp_path / "labels.tsv", "Q1\tRome\nQ2\tParis\n")
    with pytest.raises(DataError, match=r"labels\.tsv:3: field '\(bytes\)' = \"b'\\\\xe9' at byte offset 20\""):
        read_entity_labels(labels)
    jsonl = _latin1(tmp_path / "benchmark.jsonl", '{"a": 1}\n')
    with pytest.raises(DataError, match=r"benchmark\.jsonl:2: .*expected UTF-8 text"):
        list(read_jsonl(jsonl))
    js = _latin1(tmp_path / "x.json", "{\n")
    with pytest.raises(DataError, match=r"x\.json:2: .*expected UTF-8 text"):
        read_json(js)
    with pytest.raises(DataError, match=r"x\.json:2: "):
        read_text(js)
    toml = _latin1(tmp_path / "run.toml", "seed = 1\n# ")
    with pytest.raises(DataError, match=r"run\.toml:2: .*expected UTF-8 text"):
        load_config(toml)


def test_not_utf8_benchmark_through_the_cli(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = release / "benchmark.jsonl"
    lines = bench.read_bytes().splitlines(keepends=True)
    bench.write_bytes(b"".join(lines[:2]) + lines[2].replace(b"Ann", b"\xffnn") + b"".join(lines[3:]))
    res = _cli(monkeypatch, capsys, "evaluate", "--bench", str(release), "--answers", str(tmp_path / "a.jsonl"))
    _user_error(res, f"{bench}:3:", "UTF-8")
    toml = _latin1(tmp_path / "run.toml", "seed = 1\n# ")
    res = _cli(monkeypatch, capsys, "run", "--config", str(toml))
    _user_error(res, f"{toml}:2:", "UTF-8")
