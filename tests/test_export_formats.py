"""``chronoqa export``: each target loaded back by its own library and compared field by field with the release.

The expected values come from the release's own files read as plain JSON (benchmark.jsonl,
functional_negatives.jsonl, corpus.jsonl, the TREC qrels), never from the exporter's code.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from chronoqa.export.hf import JSON_FIELDS  # the question fields the Hub rows hold as JSON text
from publish_fixtures import build_release, chronoqa_cli

#: The Hub's name of each release split (the Hub and ``datasets.Split`` say ``validation``, chronoqa ``dev``).
HUB = {"train": "train", "dev": "validation", "test": "test"}


@pytest.fixture(scope="module", params=["kg", "table"])
def exported(
    request: pytest.FixtureRequest, mirror: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp(f"export-{request.param}")
    release = build_release(request.param, mirror, base / "release")
    res = chronoqa_cli("export", str(release), "--to", "all", "--out", str(base / "out"))
    assert res.returncode == 0, res.stderr
    return release, base / "out"


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _qrels(release: Path) -> list[tuple[str, str, int]]:
    rows = []
    for line in (release / "qrels").read_text(encoding="utf-8").splitlines():
        qid, _, doc, grade = line.split()
        rows.append((qid, doc, int(grade)))
    return rows


def test_hf_questions_round_trip_every_field(exported: tuple[Path, Path]) -> None:
    datasets = pytest.importorskip("datasets", reason="pip install chronoqa[hf]")
    release, out = exported
    expected = {d["id"]: d for d in _lines(release / "benchmark.jsonl")}
    flags = {d["id"]: d for d in _lines(release / "functional_negatives.jsonl")}
    files = {p.name.split("-")[0]: str(p) for p in sorted((out / "hf" / "questions").glob("*.parquet"))}
    dd = datasets.load_dataset("parquet", data_files=files)
    seen = 0
    for split, ds in dd.items():
        for row in ds:
            want = expected[row["id"]]
            assert row["split"] == want["split"] and split == HUB[want["split"]]
            got = {k: (json.loads(row[k]) if k in JSON_FIELDS else row[k]) for k in want}
            assert got == want, row["id"]
            f = flags.get(row["id"])
            assert row["dist_functional"] == (None if f is None else f["dist_functional"])
            assert row["stale_functional"] == (None if f is None else f["stale_functional"])
            seen += 1
    assert seen == len(expected)


def test_hf_corpus_and_qrels_configs(exported: tuple[Path, Path]) -> None:
    datasets = pytest.importorskip("datasets", reason="pip install chronoqa[hf]")
    release, out = exported
    corpus = datasets.load_dataset("parquet", data_files=str(out / "hf" / "corpus" / "*.parquet"))["train"]
    assert [dict(r) for r in corpus] == _lines(release / "corpus.jsonl")
    qfiles = {p.name.split("-")[0]: str(p) for p in sorted((out / "hf" / "qrels").glob("*.parquet"))}
    qrels = datasets.load_dataset("parquet", data_files=qfiles)
    got = sorted((r["query-id"], r["corpus-id"], r["score"]) for ds in qrels.values() for r in ds)
    assert got == sorted(_qrels(release))


def test_hf_card_header(exported: tuple[Path, Path]) -> None:
    yaml = pytest.importorskip("yaml")
    release, out = exported
    text = (out / "hf" / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    header = yaml.safe_load(text.split("---\n")[1])
    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    licence = {"yago11k": "cc-by-3.0", "wikidata12k": "cc0-1.0"}.get(manifest["dataset"], "unknown")
    assert header["license"] == licence
    assert {c["config_name"] for c in header["configs"]} == {"questions", "corpus", "qrels"}
    n_split: dict[str, int] = defaultdict(int)
    for d in _lines(release / "benchmark.jsonl"):
        n_split[HUB[d["split"]]] += 1
    info = next(i for i in header["dataset_info"] if i["config_name"] == "questions")
    assert {s["name"]: s["num_examples"] for s in info["splits"]} == dict(n_split)
    assert "question-answering" in header["task_categories"]
    assert header["size_categories"] == ["n<1K"]
    body = text.split("---\n", 2)[2]
    if licence == "cc-by-3.0":
        assert "CC BY 3.0" in body and "Max Planck" in body
    else:
        assert "unknown: user-supplied data" in body
    assert "Composition" in body or "Relation × cardinality" in body  # the data card follows


def test_beir_layout_read_as_documented(exported: tuple[Path, Path]) -> None:
    """A reader of BEIR's documented format (GenericDataLoader: corpus/queries JSONL, qrels TSV with header)."""
    release, out = exported
    beir = out / "beir"
    corpus = {d["_id"]: {"title": d.get("title", ""), "text": d["text"]} for d in _lines(beir / "corpus.jsonl")}
    queries = {d["_id"]: d["text"] for d in _lines(beir / "queries.jsonl")}
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for split_file in sorted((beir / "qrels").glob("*.tsv")):
        lines = split_file.read_text(encoding="utf-8").splitlines()
        assert lines[0] == "query-id\tcorpus-id\tscore"
        for line in lines[1:]:
            qid, doc, score = line.split("\t")
            qrels[qid][doc] = int(score)
            assert qid in queries and doc in corpus
    bench = {d["id"]: d for d in _lines(release / "benchmark.jsonl")}
    assert queries == {k: d["question"] for k, d in bench.items()}
    assert {k: v["text"] for k, v in corpus.items()} == {
        d["doc_id"]: d["text"] for d in _lines(release / "corpus.jsonl")
    }
    # time-valid relevance: exactly the documents of each question's gold chain S_star
    for qid, d in bench.items():
        gold = {t["doc_id"] for t in d["S_star"] if t["doc_id"]}
        assert set(qrels.get(qid, {})) == gold
        assert not gold & {t["doc_id"] for t in d["S_stale"]}


def test_croissant_records_load_with_mlcroissant(exported: tuple[Path, Path]) -> None:
    mlc = pytest.importorskip("mlcroissant", reason="pip install chronoqa[hf]")
    release, out = exported
    ds = mlc.Dataset(jsonld=str(out / "croissant" / "croissant.json"))
    expected = {d["id"]: d for d in _lines(release / "benchmark.jsonl")}

    def text(v: Any) -> Any:
        return v.decode("utf-8") if isinstance(v, bytes) else v

    got = {}
    for rec in ds.records(record_set="questions"):
        r = {k.split("/", 1)[1]: v for k, v in rec.items()}
        got[text(r["id"])] = r
    assert set(got) == set(expected)
    for qid, want in expected.items():
        r = got[qid]
        assert text(r["question"]) == want["question"]
        assert text(r["t_query"]) == want["t_query"]
        assert r["hops"] == want["hops"]
        assert [text(a) for a in r["answers"]] == want["answers"]
        assert [text(t["questions/S_star/o"]) for t in r["S_star"]] == [t["o"] for t in want["S_star"]]
        assert json.loads(text(r["logical_form"])) == want["logical_form"]
    n_corpus = sum(1 for _ in ds.records(record_set="corpus"))
    assert n_corpus == len(_lines(release / "corpus.jsonl"))
    # the release's as_of, never the day of the export
    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    as_of = manifest.get("as_of") or manifest["config"]["as_of"]
    assert json.loads((out / "croissant" / "croissant.json").read_text(encoding="utf-8"))["datePublished"] == as_of
    assert str(ds.metadata.date_published.date()) == as_of


def test_export_is_deterministic(exported: tuple[Path, Path], tmp_path: Path) -> None:
    release, out = exported
    res = chronoqa_cli("export", str(release), "--to", "all", "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    first = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    second = {p.relative_to(tmp_path): p.read_bytes() for p in sorted(tmp_path.rglob("*")) if p.is_file()}
    assert first == second


def test_unknown_target_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "benchmark.jsonl").write_text("", encoding="utf-8")
    res = chronoqa_cli("export", str(tmp_path), "--to", "parquet", "--out", str(tmp_path / "o"))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "export target" in res.stderr and "hf" in res.stderr


def test_not_a_release_is_one_line(tmp_path: Path) -> None:
    res = chronoqa_cli("export", str(tmp_path), "--to", "hf", "--out", str(tmp_path / "o"))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "not a benchmark release" in res.stderr


def test_hf_folder_loads_by_its_own_card(exported: tuple[Path, Path]) -> None:
    """``datasets.load_dataset(folder)`` reads the card's YAML configs (what the Hub does), no files named."""
    datasets = pytest.importorskip("datasets", reason="pip install chronoqa[hf]")
    release, out = exported
    n_split: dict[str, int] = defaultdict(int)
    for d in _lines(release / "benchmark.jsonl"):
        n_split[HUB[d["split"]]] += 1
    questions = datasets.load_dataset(str(out / "hf"))
    assert {k: v.num_rows for k, v in questions.items()} == dict(n_split)
    corpus = datasets.load_dataset(str(out / "hf"), "corpus")
    assert corpus["corpus"].num_rows == len(_lines(release / "corpus.jsonl"))
