"""Output folders chronoqa owns: nothing of the user's is replaced or deleted, one lock per folder and its ancestors.

A command writes only into a new or empty folder or one it marked (``.chronoqa``); a folder of the user's is
refused with one line, exit 2, and every file there is left byte for byte as it was. Temporary folders are removed
by the name the marker lists, never by pattern. A writer whose folder, or a folder above it, is held by another
chronoqa command is refused (or waits).
"""

from __future__ import annotations

import fcntl
import os
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronoqa.io import read_json
from chronoqa.outdir import (
    LOCK_FILE,
    MARKER,
    FolderLockedError,
    OutputFolder,
    OutputFolderError,
    check_output_folder,
    read_marker,
)
from chronoqa.pipeline.stages import Stage, StageRunner
from cli_in_process import CliResult as _Result
from cli_in_process import cli as _cli

_CSV = (
    "Country,Role,Name,Start,End\n"
    "A,President,x,1990-01-05,1995-03-01\nA,President,y,1995-03-01,2001-07-31\nA,President,z,2001-08-01,\n"
    "B,President,u,1980-02-02,1999-12-31\nB,President,v,2000-01-01,\n"
)


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


def _user_folder(path: Path) -> dict[str, bytes | None]:
    """A folder of the user's, with names a careless writer would replace or a pattern would match."""
    for rel in ("report/summary.md", "evaluate/metrics.json", ".tmp-mine/keep.txt", ".old-notes/a.txt", "x.csv"):
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(f"the user's {rel}\n")
    return _snapshot(path)


def _build(csv: Path, out: Path, *extra: str) -> _Result:
    return _cli("build", "table", str(csv), "--out", str(out), "--tfd", "Country,Role->Name", "--per-cell", "2", *extra)


@pytest.fixture
def csv(tmp_path: Path) -> Path:
    path = tmp_path / "leaders.csv"
    path.write_text(_CSV, encoding="utf-8")
    return path


@pytest.fixture
def held(tmp_path: Path) -> Iterator[Path]:
    """A folder whose lock another holder has (an open file description of its own: as another process would)."""
    folder = tmp_path / "busy"
    folder.mkdir()
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    os.write(fd, b"4242\n")
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield folder
    finally:
        os.close(fd)


def test_build_into_a_user_folder_is_refused_and_touches_nothing(tmp_path: Path, csv: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    before = _user_folder(out)
    res = _build(csv, out)
    assert res.exit_code == 2
    assert "not empty and was not written by chronoqa" in res.output and "--out" in res.output
    assert "Traceback" not in res.output
    assert _snapshot(out) == before


def test_build_marks_its_folder_and_may_write_it_again(tmp_path: Path, csv: Path) -> None:
    out = tmp_path / "rel"
    assert _build(csv, out).exit_code == 0
    assert read_marker(out) == {"format": 1, "kind": "release", "pending": []}
    first = _snapshot(out)
    assert not (out / LOCK_FILE).exists()
    assert _build(csv, out).exit_code == 0  # our own folder: rewritten, byte-identical
    assert _snapshot(out) == first


def test_a_folder_of_another_kind_is_refused(tmp_path: Path, csv: Path) -> None:
    out = tmp_path / "rel"
    assert _build(csv, out).exit_code == 0
    before = _snapshot(out)
    res = _cli("export", str(out), "--to", "beir", "--out", str(out))
    assert res.exit_code == 2 and "is a chronoqa release folder, not an export folder" in res.output
    assert _snapshot(out) == before


def test_export_into_a_user_folder_is_refused(tmp_path: Path, csv: Path) -> None:
    rel, out = tmp_path / "rel", tmp_path / "mine"
    assert _build(csv, rel).exit_code == 0
    out.mkdir()
    before = _user_folder(out)
    res = _cli("export", str(rel), "--to", "beir", "--out", str(out))
    assert res.exit_code == 2 and "was not written by chronoqa" in res.output
    assert _snapshot(out) == before
    fresh = tmp_path / "exp"
    assert _cli("export", str(rel), "--to", "beir", "--out", str(fresh)).exit_code == 0
    assert read_marker(fresh) is not None and (fresh / "beir" / "corpus.jsonl").is_file()


def test_run_into_a_user_folder_is_refused_before_anything_is_written(tmp_path: Path, csv: Path) -> None:
    rel, out = tmp_path / "rel", tmp_path / "mine"
    assert _build(csv, rel).exit_code == 0
    out.mkdir()
    before = _user_folder(out)
    res = _cli("run", "--bench", str(rel), "--out", str(out), "--force")
    assert res.exit_code == 2 and "was not written by chronoqa" in res.output
    assert _snapshot(out) == before


def test_a_file_as_out_is_refused(tmp_path: Path, csv: Path) -> None:
    out = tmp_path / "file"
    out.write_text("mine\n")
    res = _build(csv, out)
    assert res.exit_code == 2 and "is a file, not a folder" in res.output
    assert out.read_text() == "mine\n"


def _stage(name: str, text: str) -> Stage:
    def fn(out: Path) -> dict[str, int]:
        (out / "data.txt").write_text(text)
        return {}

    return Stage(name, fn, {}, {"text": text})


def test_leftovers_are_removed_by_name_and_user_lookalikes_are_kept(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with OutputFolder(run, "run") as folder:
        StageRunner(run, owner=folder).run(_stage("a", "x"))
        leftover = folder.temp("tmp", "b")  # as a killed run leaves it: listed, made, never finished
        leftover.mkdir()
        (leftover / "half.txt").write_text("half")
    (run / ".tmp-b-mine").mkdir()  # the user's, named like ours
    (run / ".tmp-b-mine" / "keep.txt").write_text("keep")
    with OutputFolder(run, "run") as folder:
        StageRunner(run, owner=folder)
    assert not leftover.exists()
    assert (run / ".tmp-b-mine" / "keep.txt").read_text() == "keep"
    assert read_marker(run) == {"format": 1, "kind": "run", "pending": []}


def test_force_never_replaces_a_user_file_in_a_stage_folder(tmp_path: Path) -> None:
    run = tmp_path / "run"
    runner = StageRunner(run, force=True)
    runner.run(_stage("a", "x"))
    (run / "a" / "notes.txt").write_text("mine")
    (run / "b").mkdir()
    (run / "b" / "mine.txt").write_text("mine")
    with pytest.raises(OutputFolderError, match=r"holds 'notes.txt', which this run did not write"):
        runner.run(_stage("a", "y"))
    with pytest.raises(OutputFolderError, match="did not write"):
        runner.run(_stage("b", "y"))
    assert (run / "a" / "data.txt").read_text() == "x" and (run / "a" / "notes.txt").read_text() == "mine"
    assert (run / "b" / "mine.txt").read_text() == "mine"


def test_a_nested_out_inside_a_held_folder_is_refused(held: Path, csv: Path) -> None:
    before = _snapshot(held)
    res = _build(csv, held / "build")
    assert res.exit_code == 2 and "is in use by another chronoqa run (process 4242)" in res.output
    assert "--wait" in res.output and _snapshot(held) == before
    with pytest.raises(FolderLockedError, match="in use"), OutputFolder(held / "evaluate" / "deeper", "run"):
        pass
    res = _cli("evaluate", "--bench", str(held), "--run", "x", "--out", str(held / "m.json"))
    assert res.exit_code == 2 and "in use" in res.output and not (held / "m.json").exists()


def test_a_held_folder_is_refused_to_every_writer(held: Path, tmp_path: Path, csv: Path) -> None:
    rel = tmp_path / "rel"
    assert _build(csv, rel).exit_code == 0
    for args in (
        ["run", "--bench", str(rel), "--out", str(held)],
        ["export", str(rel), "--to", "beir", "--out", str(held)],
        ["retrieve", "--bench", str(rel), "-r", "bm25", "--out", str(held)],
        ["answer", "--bench", str(rel), "--answerer", "prior", "--out", str(held)],
    ):
        res = _cli(*args)
        assert res.exit_code == 2 and "in use by another chronoqa run" in res.output, (args, res.output)
    assert sorted(p.name for p in held.iterdir()) == [LOCK_FILE]


def test_a_stage_folder_held_by_another_command_is_not_replaced(tmp_path: Path) -> None:
    run = tmp_path / "run"
    runner = StageRunner(run)
    runner.run(_stage("a", "x"))
    fd = os.open(run / "a" / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)  # a build writing into RUN/a
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with pytest.raises(FolderLockedError, match="in use by another chronoqa command"):
            runner.run(_stage("a", "y"))
    finally:
        os.close(fd)
    assert (run / "a" / "data.txt").read_text() == "x"


def test_marker_and_lock_files_of_a_writer_in_flight_are_not_user_files(tmp_path: Path) -> None:
    out = tmp_path / "o"
    out.mkdir()
    (out / LOCK_FILE).write_text("123\n")  # a killed writer's lock, before it marked the folder
    check_output_folder(out, "release")
    (out / LOCK_FILE).write_text("my own lock notes\n")
    with pytest.raises(OutputFolderError):
        check_output_folder(out, "release")


_NAMES = st.text(string.ascii_letters + string.digits + ".-_ ", min_size=1, max_size=12).filter(
    lambda n: n not in (".", "..", MARKER)
)


@settings(max_examples=40, deadline=None)
@given(names=st.lists(_NAMES, min_size=1, max_size=5, unique=True))
def test_any_user_folder_is_refused_and_left_as_it_was(
    tmp_path_factory: pytest.TempPathFactory, names: list[str]
) -> None:
    out = tmp_path_factory.mktemp("fuzz")
    for i, name in enumerate(names):
        if i % 2:
            (out / name).mkdir()
            (out / name / "f").write_text(name)
        else:
            (out / name).write_text(name)
    before = _snapshot(out)
    lock_only = names == [LOCK_FILE]
    for kind in ("run", "release", "export"):
        if lock_only:  # an empty lock file is one of ours (a writer in flight)
            check_output_folder(out, kind)
            continue
        refused = "not empty and was not written by chronoqa"
        with pytest.raises(OutputFolderError, match=refused), OutputFolder(out, kind):
            pass
    assert _snapshot(out) == before


def test_reversed_interval_is_skipped_and_counted_under_skip(tmp_path: Path, csv: Path) -> None:
    bad = tmp_path / "reversed.csv"
    bad.write_text(_CSV + "B,President,w,2010-01-01,2005-01-01\n", encoding="utf-8")
    res = _build(bad, tmp_path / "raise")
    assert res.exit_code == 2 and "an end no earlier than the start" in " ".join(res.output.split())
    res = _build(bad, tmp_path / "skip", "--on-bad-row", "skip")
    assert res.exit_code == 0, res.output
    skipped = read_json(tmp_path / "skip" / "manifest.json")
    assert "reversed interval" in str(skipped)
    assert _build(csv, tmp_path / "clean").exit_code == 0
    clean = read_json(tmp_path / "clean" / "manifest.json")
    assert skipped["counts"]["corpus_docs"] == clean["counts"]["corpus_docs"]  # the reversed row is left out


def test_a_failed_command_leaves_no_folder_it_made(tmp_path: Path) -> None:
    new, mine = tmp_path / "new", tmp_path / "mine"
    mine.mkdir()
    for folder in (new, mine):
        with pytest.raises(RuntimeError), OutputFolder(folder, "validation"):
            raise RuntimeError("bad input found after the folder was claimed")
    assert not new.exists()
    assert mine.is_dir() and [p.name for p in mine.iterdir()] == [MARKER]  # it existed: only our marker added


def test_a_damaged_marker_is_named_as_such(tmp_path: Path) -> None:
    """A folder whose marker cannot be read is refused with a message that says so (not "no marker")."""
    from chronoqa.outdir import MARKER, OutputFolderError, check_output_folder

    folder = tmp_path / "rel"
    folder.mkdir()
    (folder / MARKER).write_text("{not json", encoding="utf-8")
    with pytest.raises(OutputFolderError, match="marker chronoqa cannot read"):
        check_output_folder(folder, "release")
    assert (folder / MARKER).read_text(encoding="utf-8") == "{not json"


def test_a_symlink_loop_as_out_is_one_error(tmp_path: Path) -> None:
    from chronoqa.outdir import OutputFolderError, check_output_folder

    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(OutputFolderError, match="cannot be resolved"):
        check_output_folder(tmp_path / "a", "release")
