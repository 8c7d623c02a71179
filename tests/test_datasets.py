"""Named datasets: registry, checksum-verified fetching (file:// and a local HTTP server), loading, info, CLI."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import threading
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chronoqa import datasets as ds
from chronoqa.cli import app
from chronoqa.datasets import DatasetSpec, RemoteFile, fetch_spec
from chronoqa.errors import ChecksumError, ChronoqaError, UnknownNameError
from chronoqa.records import TemporalGraph


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _load_nothing(folder: Path, **_: object) -> TemporalGraph:
    return TemporalGraph(folder.name, ())


def spec_for(name: str, files: dict[str, tuple[str, str | None]]) -> DatasetSpec:
    return DatasetSpec(
        name=name,
        description="test",
        files=tuple(RemoteFile(n, url, h) for n, (url, h) in files.items()),
        licence="none",
        citation="none",
        loader=_load_nothing,
    )


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CHRONOQA_CACHE", str(folder))
    monkeypatch.delenv("CHRONOQA_MIRROR", raising=False)
    return folder


@pytest.fixture
def http_root(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    root = tmp_path / "www"
    root.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# --------------------------------------------------------------------------------------------------
# registry
# --------------------------------------------------------------------------------------------------


def test_registry_is_data_and_typos_suggest() -> None:
    tdbench = [
        "leaders",
        "organizations",
        "sports",
        "olympic",
        "olympic-leaders",
        "culture",
        "legal",
        "environ",
        "movie",
    ]
    assert list(ds.DATASETS) == ["yago11k", "wikidata12k", "tkgl-smallpedia", *(f"tdbench-{n}" for n in tdbench)]
    for spec in ds.DATASETS.values():
        assert spec.licence and spec.citation and spec.files
        for f in spec.files:
            assert f.url.startswith("https://")
            assert f.sha256 is None or len(f.sha256) == 64
    assert "419ee05fed2b31ec799769f6b2d77a1c41bb72f6" in ds.get_spec("yago11k").files[0].url
    assert ds.get_spec("tkgl-smallpedia").files[0].sha256 is None
    with pytest.raises(UnknownNameError, match="Did you mean yago11k"):
        ds.get_spec("yago11")
    with pytest.raises(TypeError):
        ds.DATASETS["x"] = ds.get_spec("yago11k")  # type: ignore[index]


def test_packaged_wikidata_labels() -> None:
    from chronoqa.datasets.wikidata12k import relation_labels

    labels = relation_labels()
    assert len(labels) == 24 and labels["P1376"] == "capital of" and labels["P26"] == "spouse"


# --------------------------------------------------------------------------------------------------
# fetching
# --------------------------------------------------------------------------------------------------


def test_download_from_file_url_is_verified_and_cached(tmp_path: Path, cache: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    data = b"1\t0\t2\t1990\t1995\n"
    (src / "temporal").write_bytes(data)
    spec = spec_for("toy", {"temporal": ((src / "temporal").as_uri(), sha(data))})
    folder = fetch_spec(spec)
    assert folder == cache / "datasets" / "toy"
    assert (folder / "temporal").read_bytes() == data
    (src / "temporal").unlink()  # the second fetch uses the verified cache copy
    assert fetch_spec(spec) == folder
    (folder / "temporal").write_bytes(b"tampered")
    with pytest.raises(ChecksumError, match="temporal"):
        fetch_spec(spec)


def test_download_mismatch_names_file_and_both_sums_and_leaves_nothing(tmp_path: Path, cache: Path) -> None:
    data = b"payload"
    (tmp_path / "f.txt").write_bytes(data)
    wrong = "0" * 64
    spec = spec_for("toy", {"f.txt": ((tmp_path / "f.txt").as_uri(), wrong)})
    with pytest.raises(ChecksumError) as exc:
        fetch_spec(spec)
    msg = str(exc.value)
    assert "f.txt" in msg and wrong in msg and sha(data) in msg
    folder = cache / "datasets" / "toy"
    assert not folder.exists() or list(folder.iterdir()) == []


def test_download_over_local_http(http_root: tuple[Path, str], cache: Path) -> None:
    root, base = http_root
    data = b"ts,head,tail,relation_type\n2000,Q1,Q2,P1\n" * 1000
    (root / "edges.csv").write_bytes(data)
    progress: list[tuple[str, int, int | None]] = []
    spec = spec_for("web", {"edges.csv": (f"{base}/edges.csv", sha(data))})
    folder = ds._fetch.fetch_spec(spec, progress=lambda *a: progress.append(a))
    assert (folder / "edges.csv").read_bytes() == data
    assert progress and progress[-1][1] == len(data)
    missing = spec_for("web2", {"nope.csv": (f"{base}/nope.csv", sha(b""))})
    with pytest.raises(ChronoqaError, match="could not download"):
        fetch_spec(missing)


def test_unverified_files_need_explicit_consent(tmp_path: Path, cache: Path) -> None:
    data = b"zip bytes"
    (tmp_path / "a.zip").write_bytes(data)
    spec = spec_for("unv", {"a.zip": ((tmp_path / "a.zip").as_uri(), None)})
    with pytest.raises(ChecksumError, match="allow-unverified"):
        fetch_spec(spec)
    with pytest.raises(ChecksumError, match=sha(data)):
        fetch_spec(spec, sha256="1" * 64)
    assert (fetch_spec(spec, sha256=sha(data)) / "a.zip").read_bytes() == data
    (cache / "datasets" / "unv" / "a.zip").unlink()
    assert (fetch_spec(spec, allow_unverified=True) / "a.zip").read_bytes() == data


def test_mirror_is_used_and_verified(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mirror = tmp_path / "mirror"
    (mirror / "toy").mkdir(parents=True)
    data = b"hello"
    (mirror / "toy" / "f").write_bytes(data)
    monkeypatch.setenv("CHRONOQA_MIRROR", str(mirror))
    spec = spec_for("toy", {"f": ("https://invalid.example/f", sha(data))})
    assert fetch_spec(spec) == mirror / "toy"
    assert not (cache / "datasets").exists()  # nothing copied
    (mirror / "toy" / "f").write_bytes(b"changed")
    with pytest.raises(ChecksumError) as exc:
        fetch_spec(spec)
    assert sha(data) in str(exc.value) and sha(b"changed") in str(exc.value)


def test_smallpedia_loads_from_a_tgb_zip(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mirror = tmp_path / "mirror"
    (mirror / "tkgl-smallpedia").mkdir(parents=True)
    with zipfile.ZipFile(mirror / "tkgl-smallpedia" / "tkgl-smallpedia.zip", "w") as zf:
        zf.writestr("tkgl-smallpedia_edgelist.csv", "ts,head,tail,relation_type\n1999,Q1,Q2,P54\n2000,Q1,Q2,P54\n")
    monkeypatch.setenv("CHRONOQA_MIRROR", str(mirror))
    with pytest.raises(ChecksumError):
        ds.load_graph("tkgl-smallpedia")
    g = ds.load_graph("tkgl-smallpedia", allow_unverified=True)
    assert g.name == "tkgl-smallpedia" and [(f.s, f.start.year if f.start else None) for f in g] == [
        ("Q1", 1999),
        ("Q1", 2000),
    ]


# --------------------------------------------------------------------------------------------------
# real data through the mirror
# --------------------------------------------------------------------------------------------------


def _raw_rows(folder: Path) -> list[list[str]]:
    return [line.rstrip("\n").split("\t") for line in (folder / "temporal").open(encoding="utf-8")]


@pytest.mark.mirror
def test_load_graph_named(mirror: Path) -> None:
    g = ds.load_graph("yago11k")
    assert len(g) == len(_raw_rows(mirror / "yago11k")) == 20_506
    assert g.report is not None and g.report.rows_loaded == 20_506 and not g.report.skipped
    w = ds.load_graph("wikidata12k")
    assert len(w) == 40_621 and w.relation_label("P1376") == "capital of"


@pytest.mark.mirror
def test_info_yago11k_against_raw_counts(mirror: Path) -> None:
    raw = _raw_rows(mirror / "yago11k")
    d = ds.info("yago11k").to_dict()
    ents = {line.split("\t")[1].rstrip("\n") for line in (mirror / "yago11k" / "entities.dict").open(encoding="utf-8")}
    assert d["facts"] == len(raw) and d["entities"] == len(ents) == 10_623
    assert d["entities_in_facts"] == len({r[0] for r in raw} | {r[2] for r in raw})
    assert d["relations"] == len({r[1] for r in raw}) == 10
    assert d["shapes"]["start_only"] == sum(1 for r in raw if r[3] != "None" and r[4] == "None")
    assert d["shapes"]["point"] == sum(1 for r in raw if r[3] != "None" and r[3] == r[4])
    assert d["time_range"] == ["-0431", "2844"]
    rel_names = dict(
        line.rstrip("\n").split("\t") for line in (mirror / "yago11k" / "relations.dict").open(encoding="utf-8")
    )
    top = Counter(rel_names[r[1]] for r in raw).most_common(1)[0]
    assert d["top_relations"][0] == {"id": top[0], "label": top[0].strip("<>"), "facts": top[1]}
    assert "CC BY" in d["licence"] and "HyTE" in d["citation"]


@pytest.mark.mirror
def test_info_wikidata12k(mirror: Path) -> None:
    d = ds.info("wikidata12k").to_dict()
    assert (d["facts"], d["entities"], d["relations"]) == (40_621, 12_554, 24)
    assert d["granularity"] == {"year": 40_621}
    assert d["shapes"] == {
        "point": 17_829,
        "interval": 16_642,
        "start_only": 4_735,
        "end_only": 1_405,
        "no_time": 0,
        "inverted": 10,
    }
    assert d["multi_period_triples"] == 4_422 and d["duplicates"] == 0
    assert all(r["label"] != r["id"] for r in d["top_relations"])


# --------------------------------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------------------------------


def test_cli_list_and_errors(cache: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["datasets", "list", "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)
    assert [r["name"] for r in rows] == list(ds.DATASETS)
    assert {r["name"]: r["verified"] for r in rows}["tkgl-smallpedia"] is False
    res = runner.invoke(app, ["datasets", "info", "yago11"])
    assert res.exit_code != 0 and "Did you mean yago11k" in res.output
    res = runner.invoke(app, ["datasets", "fetch", "tkgl-smallpedia"])
    assert res.exit_code != 0 and "allow-unverified" in res.output
    assert runner.invoke(app, ["datasets", "--help"]).exit_code == 0


@pytest.mark.mirror
def test_cli_info_yago11k(mirror: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["datasets", "info", "yago11k", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert (d["facts"], d["entities"], d["relations"]) == (20_506, 10_623, 10)
    res = runner.invoke(app, ["datasets", "info", "yago11k"])
    assert res.exit_code == 0 and "20,506" in res.output and "playsFor" in res.output
    res = runner.invoke(app, ["datasets", "fetch", "yago11k", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["folder"].endswith("yago11k")


@pytest.mark.mirror
def test_packaged_wikidata_labels_cover_the_data_and_agree_with_the_mirror(mirror: Path) -> None:
    from chronoqa.datasets.wikidata12k import relation_labels

    labels = relation_labels()
    used = {line.split("\t")[1] for line in (mirror / "wikidata12k" / "relations.dict").read_text().splitlines()}
    assert set(labels) == used  # every P-id of the data has a label, and no label is for another property
    lines = (mirror / "wikidata12k" / "relation_labels.tsv").read_text(encoding="utf-8").splitlines()[1:]
    assert labels == dict(line.split("\t", 1) for line in lines)
