"""Graphs read from and releases written to URIs (``chronoqa.artifacts.remote``), without a network.

``file://`` URIs go through pyarrow's LocalFileSystem, the code path of S3 and GCS. A non-local filesystem is
pyarrow's in-memory ``_MockFileSystem`` behind ``mock://`` (through a monkeypatched ``remote.resolve``, the test
hook), and failures come from a ``PyFileSystem`` whose handler breaks on a chosen upload. The expected releases are
the ones the ordinary local writer gives for the same build (``--out DIR``), compared byte for byte.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.fs as pafs
import pytest

from chronoqa.artifacts import remote
from chronoqa.artifacts.release import MANIFEST_FILE
from chronoqa.cli import main
from chronoqa.errors import LoadReport, SkippedRow, StorageError
from chronoqa.sources.synthetic import SyntheticConfig, generate

BUILD = ("--n-questions", "40", "--generic-phrases")


@pytest.fixture(scope="module")
def graphs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3,000-fact mixed synthetic graph as TSV, Parquet and a HyTE folder (3 of its rows start after as_of)."""
    root = tmp_path_factory.mktemp("graphs")
    g = generate(SyntheticConfig.mixed(3000))
    g.write_quintuples(root / "g.tsv")
    g.write_quintuples(root / "g.parquet")
    g.write_hyte(root / "h")
    return root


def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    """Run ``chronoqa ARGS`` in process (so the test hooks apply); the exit status and stderr."""
    monkeypatch.setattr(sys, "argv", ["chronoqa", *args])
    with pytest.raises(SystemExit) as exit_:
        main()
    err = capsys.readouterr().err
    code = exit_.value.code
    return (code if isinstance(code, int) else 0), err


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative name, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def mock_files(fs: pafs.FileSystem, root: str) -> dict[str, bytes]:
    """Every file under ``root`` of a pyarrow filesystem by relative name, with its bytes."""
    out = {}
    for info in fs.get_file_info(pafs.FileSelector(root, recursive=True)):
        if info.type == pafs.FileType.File:
            with fs.open_input_stream(info.path) as fh:
                out[info.path[len(root) + 1 :]] = fh.read()
    return dict(sorted(out.items()))


@pytest.fixture
def mock_fs(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[pafs.FileSystem], None]]:
    """Route ``mock://PATH`` to a filesystem of the test's choice (default: one in-memory ``_MockFileSystem``)."""
    real = remote.resolve
    current: list[pafs.FileSystem] = [pafs._MockFileSystem()]

    def resolve(uri: str) -> tuple[pafs.FileSystem, str]:
        if uri.startswith("mock://"):
            return current[0], uri[len("mock://") :].rstrip("/")
        return real(uri)

    def use(fs: pafs.FileSystem) -> None:
        current[0] = fs

    monkeypatch.setattr(remote, "resolve", resolve)
    yield use


@pytest.fixture
def own_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary folder of this test's own for the staging folders (to see what is left behind)."""
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return tmp


class Breaking(pafs.FileSystemHandler):
    """A filesystem handler over ``base`` that records the files it is asked to write and breaks on one of them.

    ``fail_on``: the 1-based number of the output stream that fails (``None``: none); ``how``: ``open`` (opening
    it raises), ``write`` (raises after a first chunk is written) or ``short`` (silently drops the last byte).
    """

    def __init__(self, base: pafs.FileSystem, fail_on: int | None = None, how: str = "open") -> None:
        self.base, self.fail_on, self.how = base, fail_on, how
        self.opened: list[str] = []
        self.moves: list[tuple[str, str]] = []

    def get_type_name(self) -> str:
        return "breaking"

    def normalize_path(self, path: str) -> str:
        return path

    def equals(self, other: Any) -> bool:
        return self is other

    def get_file_info(self, paths: list[str]) -> list[pafs.FileInfo]:
        return self.base.get_file_info(paths)

    def get_file_info_selector(self, selector: pafs.FileSelector) -> list[pafs.FileInfo]:
        return self.base.get_file_info(selector)

    def create_dir(self, path: str, recursive: bool) -> None:
        self.base.create_dir(path, recursive=recursive)

    def delete_dir(self, path: str) -> None:
        self.base.delete_dir(path)

    def delete_dir_contents(self, path: str, missing_dir_ok: bool = False) -> None:
        self.base.delete_dir_contents(path, missing_dir_ok=missing_dir_ok)

    def delete_root_dir_contents(self) -> None:
        self.base.delete_dir_contents("", accept_root_dir=True)

    def delete_file(self, path: str) -> None:
        self.base.delete_file(path)

    def move(self, src: str, dest: str) -> None:
        self.moves.append((src, dest))
        self.base.move(src, dest)

    def copy_file(self, src: str, dest: str) -> None:
        self.base.copy_file(src, dest)

    def open_input_stream(self, path: str) -> pa.NativeFile:
        return self.base.open_input_stream(path)

    def open_input_file(self, path: str) -> pa.NativeFile:
        return self.base.open_input_file(path)

    def open_append_stream(self, path: str, metadata: Any) -> pa.NativeFile:
        return self.base.open_append_stream(path)

    def open_output_stream(self, path: str, metadata: Any) -> pa.NativeFile:
        self.opened.append(path)
        breaks = len(self.opened) == self.fail_on
        if breaks and self.how == "open":
            raise OSError(f"injected failure opening {path}")
        out = self.base.open_output_stream(path)
        if not breaks:
            return out
        return pa.PythonFile(_BrokenWriter(out, self.how), mode="w")


class _BrokenWriter:
    """A writable file that fails (``write``) or loses its last byte (``short``)."""

    def __init__(self, out: pa.NativeFile, how: str) -> None:
        self.out, self.how, self.closed = out, how, False

    def write(self, data: bytes) -> int:
        if self.how == "write":
            self.out.write(bytes(data)[:10])
            raise OSError("injected failure: connection reset while writing")
        self.out.write(bytes(data)[:-1])
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.out.close()
        self.closed = True

    def writable(self) -> bool:
        return True


@pytest.fixture(scope="module")
def release(graphs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One release folder written locally by the ordinary writer (both corpus formats)."""
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
    from chronoqa.sources import read_graph

    graph = read_graph(graphs / "g.tsv", on_bad_row="skip")
    build = build_kg_benchmark(graph, KGBuildConfig(n_questions=40, generic_phrases=True))
    return build.write(tmp_path_factory.mktemp("rel") / "release", corpus_format="both")


# -- the release at a URI: the same bytes, the manifest last ---------------------------------------------------


def test_out_uri_is_the_bytes_of_a_local_out(
    graphs: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    mock_fs: Callable[[pafs.FileSystem], None],
    own_tmp: Path,
) -> None:
    args = ("build", "kg", "--input", str(graphs / "g.tsv"), *BUILD, "--corpus-format", "both")
    assert cli(capsys, monkeypatch, *args, "--out", str(tmp_path / "local"))[0] == 0
    expected = files(tmp_path / "local")
    assert {"benchmark.jsonl", "corpus.jsonl", "corpus.parquet", MANIFEST_FILE} <= set(expected)

    assert cli(capsys, monkeypatch, *args, "--out", (tmp_path / "via-file").as_uri())[0] == 0
    assert files(tmp_path / "via-file") == expected

    recorder = Breaking(pafs._MockFileSystem())
    mock_fs(pafs.PyFileSystem(recorder))
    assert cli(capsys, monkeypatch, *args, "--out", "mock://bucket/rel/")[0] == 0
    assert mock_files(pafs.PyFileSystem(recorder), "bucket/rel") == expected
    # every other file first, then the manifest, written under a temporary name and moved into place
    names = [p.rsplit("/", 1)[1] for p in recorder.opened]
    assert names[-1] == f".{MANIFEST_FILE}.partial" and MANIFEST_FILE not in names
    assert sorted(names[:-1]) == sorted(set(expected) - {MANIFEST_FILE})
    assert recorder.moves == [(f"bucket/rel/.{MANIFEST_FILE}.partial", f"bucket/rel/{MANIFEST_FILE}")]
    assert not list(own_tmp.iterdir()), "the staging folders are removed"


def test_table_build_out_uri_is_the_bytes_of_a_local_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = tmp_path / "leaders.csv"
    rows = [f"C{i % 7},President,Person {i},{1950 + 3 * i},{1953 + 3 * i}" for i in range(40)]
    table.write_text("Country,Role,Name,Start,End\n" + "\n".join(rows) + "\n", encoding="utf-8")
    args = ("build", "table", str(table), "--as-of", "2030")
    assert cli(capsys, monkeypatch, *args, "--out", str(tmp_path / "local"))[0] == 0
    expected = files(tmp_path / "local")
    assert MANIFEST_FILE in expected
    assert cli(capsys, monkeypatch, *args, "--out", (tmp_path / "remote").as_uri())[0] == 0
    assert files(tmp_path / "remote") == expected


@pytest.mark.parametrize(
    ("fail_on", "how"),
    [(3, "open"), (2, "write"), ("manifest", "open"), ("manifest", "write")],
)
def test_a_failed_upload_leaves_no_manifest(
    release: Path, fail_on: int | str, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = pafs._MockFileSystem()
    base.create_dir("b/rel")
    with base.open_output_stream(f"b/rel/{MANIFEST_FILE}") as fh:  # an older, complete release there
        fh.write(b'{"old": true}\n')
    n = len(files(release))
    handler = Breaking(base, n if fail_on == "manifest" else int(fail_on), how)
    with pytest.raises(StorageError) as err:
        _upload(release, pafs.PyFileSystem(handler), monkeypatch)
    message = str(err.value)
    assert f"has no {MANIFEST_FILE}" in message and "injected failure" in message
    assert f"kept at {release}" in message
    left = mock_files(base, "b/rel")
    assert MANIFEST_FILE not in left and f".{MANIFEST_FILE}.partial" not in left
    assert len(left) <= n - 1


def test_a_short_upload_is_caught_before_the_manifest(release: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = pafs._MockFileSystem()
    with pytest.raises(
        StorageError, match=r"failed at \.chronoqa, after 8 of 9 files: \.chronoqa is \d+ bytes there, \d+ here"
    ):
        _upload(release, pafs.PyFileSystem(Breaking(base, 1, "short")), monkeypatch)
    assert MANIFEST_FILE not in mock_files(base, "b/rel")


def _upload(folder: Path, fs: pafs.FileSystem, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """:func:`remote.upload_release` of ``folder`` to ``mock://b/rel``, that is ``b/rel`` on ``fs``."""
    monkeypatch.setattr(remote, "resolve", lambda uri: (fs, "b/rel"))
    return remote.upload_release(folder, "mock://b/rel")


def test_cli_failed_upload_exits_2_and_keeps_the_staged_release(
    graphs: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    mock_fs: Callable[[pafs.FileSystem], None],
    own_tmp: Path,
) -> None:
    base = pafs._MockFileSystem()
    mock_fs(pafs.PyFileSystem(Breaking(base, 2, "write")))
    code, err = cli(capsys, monkeypatch, "build", "kg", "--input", str(graphs / "g.tsv"), *BUILD, "--out", "mock://b/x")
    assert code == 2 and "Traceback" not in err
    assert "uploading the release to mock://b/x failed at" in err and f"has no {MANIFEST_FILE}" in err
    (kept,) = own_tmp.iterdir()
    assert f"kept at {kept}" in err and (kept / MANIFEST_FILE).is_file()
    assert MANIFEST_FILE not in mock_files(base, "b/x")


# -- the graph at a URI -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["g.parquet", "h"])
def test_input_uri_reads_what_the_local_path_reads(
    graphs: Path,
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    mock_fs: Callable[[pafs.FileSystem], None],
    own_tmp: Path,
) -> None:
    local = graphs / name
    assert cli(capsys, monkeypatch, "build", "kg", "--input", str(local), *BUILD, "--out", str(tmp_path / "a"))[0] == 0
    expected = files(tmp_path / "a")
    # the same file in a non-local filesystem (a HyTE folder: every file under it)
    mem = pafs._MockFileSystem()
    for path in [local] if local.is_file() else sorted(p for p in local.rglob("*") if p.is_file()):
        dest = f"bucket/graphs/{name}" + ("" if path == local else f"/{path.relative_to(local).as_posix()}")
        mem.create_dir(dest.rsplit("/", 1)[0])
        with mem.open_output_stream(dest) as fh:
            fh.write(path.read_bytes())
    mock_fs(mem)
    uri = f"mock://bucket/graphs/{name}/"
    assert cli(capsys, monkeypatch, "build", "kg", "--input", uri, *BUILD, "--out", str(tmp_path / "b"))[0] == 0
    got = files(tmp_path / "b")
    assert set(got) == set(expected)
    for rel, data in expected.items():
        if rel != MANIFEST_FILE:
            assert got[rel] == data, rel
    # the manifest names the URI where the local build names the path (the load report), and nothing else differs
    manifest = got[MANIFEST_FILE].decode()
    assert uri.rstrip("/") in manifest and "chronoqa-input-" not in manifest
    assert manifest.replace(uri.rstrip("/"), str(local)) == expected[MANIFEST_FILE].decode()
    assert not list(own_tmp.iterdir()), "the downloaded copy is removed"


def test_a_bad_row_at_a_uri_is_named_by_the_uri(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, own_tmp: Path
) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("s\tr\to\tstart\tend\na\tr\tb\t1990\t1995\nc\tr\td\t1999-13-01\t2000\n", encoding="utf-8")
    code, err = cli(capsys, monkeypatch, "build", "kg", "--input", bad.as_uri(), "--out", str(tmp_path / "o"))
    assert code == 2 and "Traceback" not in err
    assert f"{bad.as_uri()}:3: field 'start' = '1999-13-01'" in err
    assert "chronoqa-input-" not in err and not list(own_tmp.iterdir())


# -- one clear error, exit 2 --------------------------------------------------------------------------------


def test_unknown_scheme_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, err = cli(capsys, monkeypatch, "build", "kg", "--input", "ftp://host/g.tsv", "--out", str(tmp_path / "o"))
    assert code == 2 and "Traceback" not in err
    assert "ftp://host/g.tsv: pyarrow has no filesystem for the scheme ftp://" in err
    assert "s3://, gs://, hdfs://, file://" in err
    code, err = cli(capsys, monkeypatch, "build", "table", "t.csv", "--out", "ftp://host/rel")
    assert code == 2 and "pyarrow has no filesystem for the scheme ftp://" in err
    assert not (tmp_path / "o").exists()


def test_missing_input_and_file_out_exit_2(
    graphs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = (tmp_path / "nowhere" / "g.tsv").as_uri()
    code, err = cli(capsys, monkeypatch, "build", "kg", "--input", missing, "--out", str(tmp_path / "o"))
    assert code == 2 and f"{missing}: there is no file or folder there" in err and "Traceback" not in err
    a_file = (graphs / "g.tsv").as_uri()
    code, err = cli(capsys, monkeypatch, "build", "kg", "--input", str(graphs / "g.tsv"), "--out", a_file)
    assert code == 2 and f"{a_file} is a file; expected a new or existing folder" in err
    code, err = cli(capsys, monkeypatch, "build", "kg", "--input", "file://relative/g.tsv", "--out", "o")
    assert code == 2 and "file:// URIs are absolute" in err


def test_unreachable_s3_exits_2_before_the_build(
    graphs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # s3a:// as Spark writes it, credentials in the URI; an endpoint nobody listens on (no network needed)
    query = "?endpoint_override=127.0.0.1:9&scheme=http&region=us-east-1"
    uri, secret_uri = f"s3a://bucket/rel{query}", f"s3a://AKIDTEST:SECRETTEST@bucket/rel{query}"
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "x")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "y")
    code, err = cli(capsys, monkeypatch, "build", "kg", "--input", str(graphs / "g.tsv"), "--out", secret_uri)
    assert code == 2 and "Traceback" not in err
    assert f"pyarrow could not reach {uri}:" in err and "check the AWS credentials" in err
    assert "SECRETTEST" not in err and "AKIDTEST" not in err
    assert "questions" not in err, "reached before the build"


# -- the pieces -------------------------------------------------------------------------------------------


def test_is_uri() -> None:
    assert remote.is_uri("s3://b/k") and remote.is_uri("file:///x") and remote.is_uri("hdfs://nn:8020/x")
    assert not remote.is_uri("/data/g.tsv") and not remote.is_uri("g.tsv") and not remote.is_uri("C:\\g.tsv")
    assert not remote.is_uri(Path("s3:/b"))


def test_staged_relabel_names_the_uri() -> None:
    staged = remote.Staged(Path("/tmp/chronoqa-input-x/h"), "s3://b/graphs/h/")
    report = LoadReport("/tmp/chronoqa-input-x/h")
    report.skip(SkippedRow("/tmp/chronoqa-input-x/h/temporal", 3, "start", "2030", "late"))
    staged.relabel(report)
    assert report.source == "s3://b/graphs/h"
    assert [str(r) for r in report.skipped] == ["s3://b/graphs/h/temporal:3: field 'start' = '2030': late"]
    secret = remote.Staged(Path("/tmp/chronoqa-input-y/g.tsv"), "s3://KEY:SECRET@b/g.tsv?region=eu-west-1")
    assert secret.name("/tmp/chronoqa-input-y/g.tsv:2: bad") == "s3://b/g.tsv:2: bad"
    local = remote.Staged(Path("/data/h"))
    assert local.name("/data/h/temporal") == "/data/h/temporal"


# -- a release read from a URI ------------------------------------------------------------------------------


def test_local_release_downloads_once_per_manifest(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_fs: Callable[[pafs.FileSystem], None]
) -> None:
    monkeypatch.setenv("CHRONOQA_CACHE", str(tmp_path / "cache"))
    recorder = Breaking(pafs._MockFileSystem())
    fs = pafs.PyFileSystem(recorder)
    mock_fs(fs)
    remote.upload_release(release, "mock://b/rels/r1")
    reads: list[str] = []
    real_open = recorder.open_input_stream

    def counted(path: str) -> pa.NativeFile:
        reads.append(path)
        return real_open(path)

    monkeypatch.setattr(recorder, "open_input_stream", counted)
    got = remote.local_release("mock://b/rels/r1/")
    assert got.name == "r1" and got.is_relative_to(tmp_path / "cache" / "releases")
    assert files(got) == files(release)
    assert len(reads) == 1 + len(files(release))  # the manifest, then every file
    reads.clear()
    assert remote.local_release("mock://b/rels/r1") == got and reads == [f"b/rels/r1/{MANIFEST_FILE}"]
    # a new release there (another manifest): downloaded again, the old copy replaced
    with fs.open_output_stream("b/rels/r1/qrels") as fh:
        fh.write(b"q 0 d 1\n")
    with fs.open_output_stream(f"b/rels/r1/{MANIFEST_FILE}") as fh:
        fh.write(b'{"new": true}\n')
    again = remote.local_release("mock://b/rels/r1")
    assert again == got and (got / "qrels").read_bytes() == b"q 0 d 1\n"
    assert [p.name for p in got.parent.iterdir()] == ["r1"], "no download folder left behind"
    fs.delete_file(f"b/rels/r1/{MANIFEST_FILE}")
    with pytest.raises(StorageError, match=f"mock://b/rels/r1 has no {MANIFEST_FILE}: not a release, or one whose"):
        remote.local_release("mock://b/rels/r1")


def test_evaluate_bench_uri_scores_as_the_local_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from retrieve_fixtures import write_bench

    monkeypatch.setenv("CHRONOQA_CACHE", str(tmp_path / "cache"))
    bench = write_bench(tmp_path / "bench")
    remote.upload_release(bench, (tmp_path / "remote" / "bench").as_uri())
    import chronoqa

    run = chronoqa.run_retrieval(bench, ["oracle"], tmp_path / "runs", k=10)[0].path
    args = ("evaluate", "--run", str(run), "--bootstrap", "20")
    assert cli(capsys, monkeypatch, *args, "--bench", str(bench), "--out", str(tmp_path / "a.json"))[0] == 0
    uri = (tmp_path / "remote" / "bench").as_uri()
    assert cli(capsys, monkeypatch, *args, "--bench", uri, "--out", str(tmp_path / "b.json"))[0] == 0
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    code, err = cli(capsys, monkeypatch, *args, "--bench", (tmp_path / "nothing").as_uri())
    assert code == 2 and f"has no {MANIFEST_FILE}" in err and "Traceback" not in err


def test_pipeline_bench_uri_runs_on_the_cached_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("bm25s")
    from answer_fixtures import write_fixture
    from chronoqa.pipeline.config import load_config
    from chronoqa.pipeline.run import run_pipeline

    monkeypatch.setenv("CHRONOQA_CACHE", str(tmp_path / "cache"))
    rel, _ = write_fixture(tmp_path)
    uri = (tmp_path / "remote" / rel.name).as_uri()  # the run names the release by its folder
    remote.upload_release(rel, uri)
    summaries = []
    for bench, name in ((str(rel), "local"), (uri, "remote")):
        cfg = load_config(None, bench=bench, out=str(tmp_path / f"run-{name}"), retrievers="bm25", controls="oracle",
                          baselines="prior", n_bootstrap=20)  # fmt: skip
        summaries.append(run_pipeline(cfg).summary.to_dict())
    for key in ("answers", "retrieval", "composition"):
        assert summaries[0][key] == summaries[1][key], key
    assert summaries[1]["manifest"]["config"]["bench"] == uri, "the run records the URI it was given"
    assert summaries[1]["answers"] and summaries[1]["retrieval"]
    assert (tmp_path / "cache" / "releases").is_dir()
