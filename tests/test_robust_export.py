"""Exports refuse a release or a validation folder they cannot export faithfully, and never leave an earlier
export's split files beside the new ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from answer_fixtures import write_fixture
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.export import export_release


def _validation(root: Path, lines: list[str]) -> Path:
    v = root / "validation"
    v.mkdir()
    (v / "VALIDATION.md").write_text("## Human validation\n", encoding="utf-8")
    (v / "low_confidence.jsonl").write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return v


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    code = "from chronoqa.cli import main; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)


def test_a_release_without_its_corpus_is_refused(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    (rel / "corpus.jsonl").unlink()
    res = _cli("export", str(rel), "--to", "beir", "--out", str(tmp_path / "out"))
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert "corpus" in res.stderr and "is missing" in res.stderr
    assert not (tmp_path / "out" / "beir" / "qrels").exists()


def test_a_gold_document_absent_from_the_corpus_is_refused(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    lines = (rel / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    gold = (rel / "qrels").read_text(encoding="utf-8").split()[2]
    kept = [x for x in lines if json.loads(x)["doc_id"] != gold]
    assert len(kept) == len(lines) - 1
    (rel / "corpus.jsonl").write_text("".join(x + "\n" for x in kept), encoding="utf-8")
    with pytest.raises(ChronoqaError, match=f"gold document '{gold}', which is not in the corpus"):
        export_release(rel, "hf", tmp_path / "out")


# the qrels a release's questions give, worked out from the fixture's S* documents by hand
FIXTURE_QRELS = ["q1 0 d2 1", "q2 0 d1 1", "q2 0 d4 1", "q3 0 d2 1", "q4 0 d7 1", "t1 0 d8 1", "t2 0 d6 1", "t3 0 d1 1"]


@pytest.mark.parametrize(
    ("kept", "what"),
    [
        (FIXTURE_QRELS[:-1], "7 judgments"),  # cut short
        ([], "0 judgments"),  # emptied
        ([*FIXTURE_QRELS[:2], FIXTURE_QRELS[3], FIXTURE_QRELS[2], *FIXTURE_QRELS[4:]], "line 3 differs"),  # reordered
        ([FIXTURE_QRELS[0].replace("d2", "d1"), *FIXTURE_QRELS[1:]], "line 1 differs"),  # another gold doc
    ],
)
def test_a_qrels_file_changed_after_the_build_is_refused_by_export(tmp_path: Path, kept: list[str], what: str) -> None:
    rel, _ = write_fixture(tmp_path)
    assert (rel / "qrels").read_text(encoding="utf-8").splitlines() == FIXTURE_QRELS
    (rel / "qrels").write_text("".join(x + "\n" for x in kept), encoding="utf-8")
    res = _cli("export", str(rel), "--to", "beir", "--out", str(tmp_path / "out"))
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert what in res.stderr and "give 8" in res.stderr and "Fix: rebuild" in res.stderr, res.stderr
    assert not (tmp_path / "out").exists()


def test_a_missing_qrels_file_is_refused_and_foreign_qrels_are_not_checked(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    (rel / "qrels").unlink()
    with pytest.raises(ChronoqaError, match=r"0 judgments, but the questions of .* give 8"):
        export_release(rel, "beir", tmp_path / "out")
    (rel / "manifest.json").unlink()  # foreign data (no manifest, no marker): its own qrels are its own
    (rel / ".chronoqa").unlink()
    (rel / "qrels").write_text(FIXTURE_QRELS[0] + "\n", encoding="utf-8")
    export_release(rel, "beir", tmp_path / "out2")
    tsv = [x for f in sorted((tmp_path / "out2" / "beir" / "qrels").glob("*.tsv")) for x in f.read_text().splitlines()]
    assert [x for x in tsv if not x.startswith("query-id")] == ["q1\td2\t1"]


@pytest.mark.parametrize(
    ("line", "field"),
    [("{not json", None), ('{"id": "nope", "status": "flagged"}', "id"), ('{"id": "q1", "status": "bad"}', "status")],
)
def test_a_corrupt_low_confidence_file_is_refused(tmp_path: Path, line: str, field: str | None) -> None:
    rel, _ = write_fixture(tmp_path)
    v = _validation(tmp_path, ['{"id": "q1", "status": "flagged", "disputed": [], "n_annotators": 2}', line])
    with pytest.raises(DataError) as err:
        export_release(rel, "beir", tmp_path / "out", validation=v)
    assert err.value.line == 2 and str(v / "low_confidence.jsonl") in str(err.value)
    if field is not None:
        assert err.value.field == field
    assert not (tmp_path / "out").exists()


def test_a_sound_low_confidence_file_travels(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    v = _validation(tmp_path, ['{"id": "q1", "status": "consensus", "disputed": [], "n_annotators": 2}'])
    export_release(rel, "beir", tmp_path / "out", validation=v)
    assert (tmp_path / "out" / "beir" / "low_confidence.jsonl").read_text(encoding="utf-8").startswith('{"id": "q1"')


@pytest.mark.parametrize(
    ("target", "sub", "name"), [("hf", "questions", "dev-00000-of-00001.parquet"), ("beir", "qrels", "dev.tsv")]
)
def test_reexport_never_leaves_old_split_files_beside_the_new(tmp_path: Path, target: str, sub: str, name: str) -> None:
    rel, _ = write_fixture(tmp_path)
    export_release(rel, target, tmp_path / "out")
    export_release(rel, target, tmp_path / "out")  # the same splits again: fine
    old = tmp_path / "out" / target / sub / name  # a split this release does not have (it has train, test)
    old.write_bytes(b"from an earlier export")
    with pytest.raises(ChronoqaError, match="split file of an earlier export"):
        export_release(rel, target, tmp_path / "out")
    assert old.read_bytes() == b"from an earlier export"  # refused, nothing deleted
