"""Hostile inputs closed with one general rule each: one clear error (exit 2) naming the file, never a pass.

An empty table, an answers file answering none of the scored questions, a NaN or infinite number in any JSON
file or run, a release whose files hold fewer records than its manifest says.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from chronoqa.artifacts.release import load_release, write_release
from cli_in_process import cli

_CSV = (
    "Country,Role,Name,Start,End\n"
    "A,President,x,1990-01-05,1995-03-01\nA,President,y,1995-03-01,2001-07-31\nA,President,z,2001-08-01,\n"
    "B,President,u,1980-02-02,1999-12-31\nB,President,v,2000-01-01,\n"
)


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rel")
    (root / "l.csv").write_text(_CSV, encoding="utf-8")
    out = root / "rel"
    r = cli("build", "table", str(root / "l.csv"), "--out", str(out), "--tfd", "Country,Role->Name", "--per-cell", "2")
    assert r.exit_code == 0, r.output
    return out


def _one_error(result: object, *needles: str) -> None:
    code, output = result.exit_code, result.output  # type: ignore[attr-defined]
    assert code == 2, output
    assert "Traceback" not in output
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, output
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])


def _evaluate(release: Path, tmp_path: Path, *args: str) -> object:
    return cli("evaluate", "--bench", str(release), "--out", str(tmp_path / "m.json"), "--bootstrap", "10", *args)


def test_a_header_only_table_says_it_has_no_rows_before_asking_for_as_of(tmp_path: Path) -> None:
    table = tmp_path / "empty.csv"
    table.write_text(_CSV.splitlines()[0] + "\n", encoding="utf-8")
    _one_error(cli("build", "table", str(table), "--out", str(tmp_path / "o")), "empty.csv", "no data rows")
    assert not (tmp_path / "o").exists()


def test_a_table_whose_every_row_is_skipped_says_so_before_asking_for_as_of(tmp_path: Path) -> None:
    table = tmp_path / "bad.csv"
    table.write_text("Country,Role,Name,Start,End\nA,P,x,not a date,\nA,P,y,also not,\n", encoding="utf-8")
    out = str(tmp_path / "o")
    _one_error(cli("build", "table", str(table), "--out", out, "--on-bad-row", "skip"), "bad.csv", "all 2 rows")


def test_an_empty_answers_file_is_an_error_naming_it(release: Path, tmp_path: Path) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text("", encoding="utf-8")
    _one_error(_evaluate(release, tmp_path, "--answers", str(answers)), "--answers", "answers.jsonl", "0 answer lines")
    assert not (tmp_path / "m.json").exists()


def _answer(qid: str) -> str:
    return json.dumps({"qid": qid, "answerer": "t", "status": "ok", "answer": "x"}) + "\n"


def test_answers_for_none_of_the_scored_split_are_an_error(release: Path, tmp_path: Path) -> None:
    """A neighbour of the empty file: lines that answer only another split than the one scored."""
    qs = [json.loads(line) for line in (release / "benchmark.jsonl").read_text(encoding="utf-8").splitlines()]
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(_answer(q["id"]) for q in qs if q["split"] == "train"), encoding="utf-8")
    test_n = sum(q["split"] == "test" for q in qs)
    _one_error(
        _evaluate(release, tmp_path, "--answers", str(answers), "--split", "test"),
        "answers.jsonl",
        f"none for the {test_n} questions of the test split",
    )
    assert _evaluate(release, tmp_path, "--answers", str(answers), "--split", "train").exit_code == 0


def _run_lines(release: Path, score: str, bad: int) -> str:
    qs = [json.loads(line) for line in (release / "benchmark.jsonl").read_text(encoding="utf-8").splitlines()]
    doc = json.loads((release / "corpus.jsonl").read_text(encoding="utf-8").splitlines()[0])
    hit = {k: doc[k] for k in ("doc_id", "s", "r", "o", "t_start", "t_end")}
    lines = []
    for i, q in enumerate(qs):
        line = json.dumps({"qid": q["id"], "hits": [{**hit, "rank": 1, "score": 0.5}]})
        lines.append(line.replace('"score": 0.5', f'"score": {score}') if i == bad else line)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("score", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_non_finite_score_in_a_run_names_file_line_and_field(release: Path, tmp_path: Path, score: str) -> None:
    run = tmp_path / "x.run.jsonl"
    run.write_text(_run_lines(release, score, bad=2), encoding="utf-8")
    _one_error(_evaluate(release, tmp_path, "--run", str(run)), "x.run.jsonl:3", "hits[0].score", "finite")


@pytest.mark.parametrize("score", ["nan", "inf", "-Infinity"])
def test_a_non_finite_score_in_a_trec_run_names_its_line(release: Path, tmp_path: Path, score: str) -> None:
    qs = [json.loads(line) for line in (release / "benchmark.jsonl").read_text(encoding="utf-8").splitlines()]
    doc = json.loads((release / "corpus.jsonl").read_text(encoding="utf-8").splitlines()[0])["doc_id"]
    run = tmp_path / "x.trec"
    run.write_text("".join(f"{q['id']} Q0 {doc} 1 {score if i == 4 else '1.5'} t\n" for i, q in enumerate(qs)))
    _one_error(_evaluate(release, tmp_path, "--run", str(run)), "x.trec:5", "finite")


def test_a_non_finite_number_in_any_json_file_names_its_field(tmp_path: Path) -> None:
    """A neighbour: every JSON reader (a JSON file, a JSONL file) refuses NaN, naming line and field."""
    from chronoqa.errors import DataError
    from chronoqa.io import numbered_jsonl, read_json

    path = tmp_path / "m.json"
    path.write_text('{\n  "a": 1,\n  "b": {"c": [1, NaN]}\n}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"m\.json:3: field 'b\.c\[1\]'"):
        read_json(path)
    lines = tmp_path / "x.jsonl"
    lines.write_text('{"t": "NaN is a word"}\n{"v": 1E400}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"x\.jsonl:2: field 'v'"):
        list(numbered_jsonl(lines))


def _damaged(release: Path, tmp_path: Path, name: str, keep: int) -> Path:
    """A copy of ``release`` whose file ``name`` keeps only its first ``keep`` lines."""
    import shutil

    copy = tmp_path / "damaged"
    shutil.copytree(release, copy)
    lines = (copy / name).read_text(encoding="utf-8").splitlines(keepends=True)
    (copy / name).write_text("".join(lines[:keep]), encoding="utf-8")
    return copy


def _manifest_count(release: Path, key: str) -> int:
    return int(json.loads((release / "manifest.json").read_text(encoding="utf-8"))["counts"][key])


def test_an_emptied_benchmark_is_refused_by_evaluate_with_both_counts(release: Path, tmp_path: Path) -> None:
    damaged = _damaged(release, tmp_path, "benchmark.jsonl", 0)
    answers = tmp_path / "a.jsonl"
    answers.write_text("", encoding="utf-8")
    n = _manifest_count(release, "questions")
    _one_error(
        _evaluate(damaged, tmp_path, "--answers", str(answers)),
        "benchmark.jsonl: 0 records",
        f"wrote {n}",
        "chronoqa build table",
    )


def test_a_cut_corpus_is_refused_by_export(release: Path, tmp_path: Path) -> None:
    damaged = _damaged(release, tmp_path, "corpus.jsonl", 2)
    n = _manifest_count(release, "corpus_docs")
    result = cli("export", str(damaged), "--to", "beir", "--out", str(tmp_path / "ex"))
    _one_error(result, "corpus.jsonl: 2 records", f"wrote {n} (counts.corpus_docs)")


def test_cut_functional_flags_are_refused_by_evaluate(release: Path, tmp_path: Path) -> None:
    """A neighbour: the flags file (one record per question) cut short, read when a run is scored."""
    damaged = _damaged(release, tmp_path, "functional_negatives.jsonl", 3)
    run = tmp_path / "x.run.jsonl"
    run.write_text(_run_lines(release, "0.5", bad=0), encoding="utf-8")
    _one_error(_evaluate(damaged, tmp_path, "--run", str(run)), "functional_negatives.jsonl: 3 records")


@contextlib.contextmanager
def _held_lock(lock: Path) -> Iterator[int]:
    """``lock`` held as another chronoqa process holds it (an open file description of its own)."""
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    os.write(fd, b"4242\n")
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield fd
    finally:
        os.close(fd)


def _ok_run(release: Path, tmp_path: Path) -> Path:
    run = tmp_path / "x.run.jsonl"
    run.write_text(_run_lines(release, "0.5", bad=0), encoding="utf-8")
    return run


def test_a_metrics_file_another_evaluate_writes_is_refused(release: Path, tmp_path: Path) -> None:
    run = _ok_run(release, tmp_path)
    with _held_lock(tmp_path / ".m.json.lock"):
        _one_error(_evaluate(release, tmp_path, "--run", str(run)), "m.json is in use", "process 4242", "--wait")
    assert not (tmp_path / "m.json").exists()


def test_evaluate_with_wait_waits_for_the_writer_of_its_metrics_file(release: Path, tmp_path: Path) -> None:
    run = _ok_run(release, tmp_path)
    released = threading.Event()
    with _held_lock(tmp_path / ".m.json.lock") as fd:

        def release_soon() -> None:
            time.sleep(0.5)
            released.set()
            fcntl.flock(fd, fcntl.LOCK_UN)

        threading.Thread(target=release_soon).start()
        result = _evaluate(release, tmp_path, "--run", str(run), "--wait")
        assert released.is_set()  # it finished only after the other writer let go
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))["n_questions"] > 0


def test_evaluates_writing_other_files_of_one_folder_do_not_wait(release: Path, tmp_path: Path) -> None:
    """A neighbour: the lock is the file's, not the folder's; it leaves no lock file behind."""
    run = _ok_run(release, tmp_path)
    with _held_lock(tmp_path / ".other.json.lock"):
        assert _evaluate(release, tmp_path, "--run", str(run)).exit_code == 0  # type: ignore[attr-defined]
    assert not (tmp_path / ".m.json.lock").exists()


def test_two_evaluate_processes_into_one_metrics_file_never_both_write_unlocked(release: Path, tmp_path: Path) -> None:
    """Two real processes at once: each either writes a whole metrics file or is refused in one line (exit 2)."""
    run = _ok_run(release, tmp_path)
    args = ["--bench", str(release), "--run", str(run), "--out", str(tmp_path / "m.json"), "--bootstrap", "3000"]
    cmd = [sys.executable, "-c", "from chronoqa.cli import main; main()", "evaluate", *args]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(timeout=300), p.stderr.read() if p.stderr else "") for p in procs]
    assert sorted(code for code, _ in results)[0] == 0, results
    for code, err in results:
        assert code in (0, 2) and "Traceback" not in err, err
        if code == 2:
            assert "m.json is in use by another chronoqa run" in err, err
    assert json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))["n_questions"] > 0


def _impossible(tmp_path: Path, kind: str) -> str:
    """An ``--out`` no file system takes: under a file, a name over 255 bytes, in a folder no one may create in."""
    if kind == "under a file":
        (tmp_path / "plain.txt").write_text("the user's\n", encoding="utf-8")
        return str(tmp_path / "plain.txt" / "out")
    if kind == "name too long":
        return str(tmp_path / ("x" * 300) / "out")
    return "/proc/chronoqa-cannot-be-here/out"


_TROUBLE = {
    "under a file": "is a file",
    "name too long": "longer than the file system allows",
    "not creatable": "none can be made there",
}


@pytest.mark.parametrize("kind", list(_TROUBLE))
@pytest.mark.parametrize("command", ["evaluate", "build", "export"])
def test_an_impossible_out_is_one_error_naming_the_option(
    release: Path, tmp_path: Path, command: str, kind: str
) -> None:
    out = _impossible(tmp_path, kind)
    if command == "evaluate":
        result = _evaluate_to(release, tmp_path, out)
    elif command == "build":
        (tmp_path / "l.csv").write_text(_CSV, encoding="utf-8")
        result = cli("build", "table", str(tmp_path / "l.csv"), "--out", out, "--tfd", "Country,Role->Name")
    else:
        result = cli("export", str(release), "--to", "beir", "--out", out)
    trouble = "a file" if kind == "under a file" else _TROUBLE[kind]
    _one_error(result, "--out", trouble, "Fix: give --out another path")
    if kind == "under a file":
        assert (tmp_path / "plain.txt").read_text(encoding="utf-8") == "the user's\n"


def _evaluate_to(release: Path, tmp_path: Path, out: str) -> object:
    run = _ok_run(release, tmp_path)
    return cli("evaluate", "--bench", str(release), "--run", str(run), "--out", out, "--bootstrap", "10")


def test_a_folder_as_config_file_is_one_error(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    _one_error(cli("run", "--config", str(tmp_path / "conf")), "--config", "is a folder, where a file is expected")


def test_a_nul_in_a_path_from_a_config_file_is_one_error(tmp_path: Path) -> None:
    """A neighbour: a path no command line can carry, given in a config file."""
    conf = tmp_path / "c.toml"
    conf.write_text('out = "a\\u0000b"\n', encoding="utf-8")
    _one_error(cli("run", "--config", str(conf)), "NUL character")


def test_path_errors_name_the_option_whose_path_failed() -> None:
    """The option is found by the failing path: itself, a folder above it, or a lock file beside it."""
    import errno

    from chronoqa.cli._ui import path_error

    argv = ["evaluate", "--bench", "rel", "--out", "/proc/x/m.json"]
    beside = OSError(errno.ENOENT, "No such file or directory", "/proc/x/.m.json.lock")
    above = OSError(errno.ENOTDIR, "Not a directory", "/proc/x")
    assert path_error(beside, argv).startswith("--out /proc/x/m.json (/proc/x/.m.json.lock): no such file")
    assert path_error(above, argv).startswith("--out /proc/x/m.json (/proc/x): a part of the path is a file")
    elsewhere = OSError(errno.EACCES, "Permission denied", "/etc/x")
    assert path_error(elsewhere, argv) == "/etc/x: permission denied. Fix: give another path"
    assert path_error(ValueError("bad number"), argv) == ""


_SLOW_RELEASE_WRITER = """
import sys, time
from chronoqa.artifacts.release import load_release, write_release

source = load_release(sys.argv[1])
def slow(questions):  # the writer is killed while benchmark.jsonl's temporary file is half written
    for i, q in enumerate(questions):
        if i == 3:
            print("writing", flush=True)
            time.sleep(60)
        yield q
write_release(sys.argv[2], slow(source.questions), list(source.corpus), source.flags.values(),
              source.manifest, "card")
"""


def _killed_mid_write(release: Path, out: Path, script: str) -> list[str]:
    """Run ``script`` writing ``out`` in a child process, ``kill -9`` it mid-write; the names it left there."""
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(release), str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"writing\n", proc.stderr and proc.stderr.read()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    return sorted(p.name for p in out.iterdir())


def test_a_writer_killed_mid_write_leaves_a_temporary_the_next_writer_removes(release: Path, tmp_path: Path) -> None:
    out = tmp_path / "rel"
    left = _killed_mid_write(release, out, _SLOW_RELEASE_WRITER)
    strays = [n for n in left if n.startswith(".tmp-")]
    assert len(strays) == 1 and strays[0].startswith(".tmp-benchmark.jsonl-"), left
    marker = json.loads((out / ".chronoqa").read_text(encoding="utf-8"))
    assert marker["pending"] == strays  # listed by name before it was made
    # lookalikes the user made (a pattern would match them): never touched
    (out / ".tmp-benchmark.jsonl-1-mine").write_text("the user's\n", encoding="utf-8")
    (out / ".benchmark.jsonl.abcd.tmp").write_text("the user's too\n", encoding="utf-8")
    (tmp_path / "l.csv").write_text(_CSV, encoding="utf-8")
    again = cli("build", "table", str(tmp_path / "l.csv"), "--out", str(out), "--tfd", "Country,Role->Name")
    assert again.exit_code == 0, again.output
    assert not (out / strays[0]).exists()
    assert (out / ".tmp-benchmark.jsonl-1-mine").read_text(encoding="utf-8") == "the user's\n"
    assert (out / ".benchmark.jsonl.abcd.tmp").read_text(encoding="utf-8") == "the user's too\n"
    assert json.loads((out / ".chronoqa").read_text(encoding="utf-8"))["pending"] == []
    assert len(load_release(out).questions) == _manifest_count(out, "questions")


def test_the_library_release_writer_also_removes_a_killed_writers_temporary(release: Path, tmp_path: Path) -> None:
    """A neighbour: the same kill, then the library writer a run stage uses, on that folder; same bytes as ever."""
    out = tmp_path / "rel"
    strays = [n for n in _killed_mid_write(release, out, _SLOW_RELEASE_WRITER) if n.startswith(".tmp-")]
    assert strays
    source = load_release(release)
    write_release(out, source.questions, list(source.corpus), source.flags.values(), source.manifest, "card")
    assert not any(p.name.startswith(".tmp-") for p in out.iterdir())
    assert (out / "benchmark.jsonl").read_bytes() == (release / "benchmark.jsonl").read_bytes()
    marker = (out / ".chronoqa").read_bytes()
    assert marker == (release / ".chronoqa").read_bytes()  # the finished marker lists nothing: same bytes


@pytest.mark.parametrize("value", ["nan", "-1", "inf", "1.5"])
def test_a_threshold_outside_0_to_1_is_refused_naming_the_flag_before_anything_is_written(
    tmp_path: Path, value: str
) -> None:
    (tmp_path / "l.csv").write_text(_CSV, encoding="utf-8")
    r = cli("build", "table", str(tmp_path / "l.csv"), "--threshold", value, "--out", str(tmp_path / "out"))
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert "--threshold" in r.output and "not a share from 0 to 1" in r.output, r.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("field", ["threshold", "min_changing_share"])
def test_a_table_config_share_outside_0_to_1_is_refused(field: str) -> None:
    from chronoqa.errors import ChronoqaError
    from chronoqa.generate.table import TableBuildConfig

    for value in (float("nan"), -0.5, float("inf")):
        with pytest.raises(ChronoqaError, match=f"{field}: expected a share from 0 to 1"):
            TableBuildConfig(**{field: value})


def test_a_release_whose_build_did_not_finish_is_refused_by_retrieve(release: Path, tmp_path: Path) -> None:
    """A chronoqa-marked release folder without its manifest (written last) is a failed build, never data."""
    damaged = _damaged(release, tmp_path, "qrels", 10**6)
    (damaged / "manifest.json").unlink()
    result = cli("retrieve", "--bench", str(damaged), "-r", "bm25", "--k", "3", "--out", str(tmp_path / "runs"))
    _one_error(result, f"{damaged}: chronoqa's build of this release did not finish", "Fix: build it again")
    assert not (tmp_path / "runs").exists()
    (damaged / ".chronoqa").unlink()  # foreign data (no marker, no manifest) is read as before
    result = cli("retrieve", "--bench", str(damaged), "-r", "bm25", "--k", "3", "--out", str(tmp_path / "runs"))
    assert result.exit_code == 0, result.output


def test_a_manifest_json_cannot_hold_fails_before_any_release_file_is_written(release: Path, tmp_path: Path) -> None:
    from chronoqa.errors import ChronoqaError

    rel = load_release(release)
    manifest = {**rel.manifest, "config": {**rel.manifest["config"], "threshold": float("inf")}}
    with pytest.raises(ChronoqaError, match=r"cannot be written as JSON .*nothing was written"):
        write_release(tmp_path / "out", rel.questions, list(rel.corpus), rel.flags.values(), manifest, "")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_table_path_that_is_not_a_regular_file_says_so(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "t.csv"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path = Path("/dev/null")
    r = cli("build", "table", str(path), "--out", str(tmp_path / "out"))
    _one_error(r, f"{path}:0", "is not a regular file (a named pipe, device or socket)")
    assert "does not exist" not in r.output  # type: ignore[attr-defined]


def test_a_named_pipe_as_config_file_is_refused_unread(tmp_path: Path) -> None:
    """A neighbour through the shared text reader: a pipe would block the read forever."""
    os.mkfifo(tmp_path / "c.toml")
    r = cli("run", "--config", str(tmp_path / "c.toml"), "--out", str(tmp_path / "run"))
    _one_error(r, "c.toml", "expected a regular file", "is not a regular file")


@pytest.mark.parametrize("stem", ["x: y # <b>é\u202e", "my table\t2024"])
def test_a_table_file_name_with_spaces_and_markup_gives_ids_its_own_tools_accept(tmp_path: Path, stem: str) -> None:
    table = tmp_path / f"{stem}.csv"
    table.write_text(_CSV, encoding="utf-8")
    rel = tmp_path / "rel"
    r = cli("build", "table", str(table), "--out", str(rel), "--tfd", "Country,Role->Name", "--per-cell", "2")
    assert r.exit_code == 0, r.output
    ids = [json.loads(x)["id"] for x in (rel / "benchmark.jsonl").read_text(encoding="utf-8").splitlines()]
    docs = [json.loads(x)["doc_id"] for x in (rel / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    safe = "".join(c if c.isalnum() or c in "_.-" else "_" for c in stem)  # the documented rule, spelled out
    assert ids and all(i.startswith(safe + "-") for i in ids)
    assert docs and all(d.startswith(safe + ":") for d in docs)
    assert all(len(line.split()) == 4 for line in (rel / "qrels").read_text(encoding="utf-8").splitlines())
    assert cli("export", str(rel), "--to", "beir", "--out", str(tmp_path / "ex")).exit_code == 0
    r = cli("retrieve", "--bench", str(rel), "-r", "bm25", "--k", "3", "--out", str(tmp_path / "runs"))
    assert r.exit_code == 0, r.output
