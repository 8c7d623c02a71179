"""``chronoqa run --tables``: a table benchmark built, retrieved, answered and scored in one command."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.pipeline.config import load_config
from chronoqa.pipeline.run import run_pipeline

pytest.importorskip("bm25s")

# two keys whose holder changes over time, day-level dates (worked by hand: 9 rows, 3 open-ended)
CSV = (
    "Country,Role,Name,Start,End\n"
    "A,President,Xavier,1990-01-05,1995-03-01\nA,President,Yvonne,1995-03-02,2001-07-31\n"
    "A,President,Zoe,2001-08-01,\nB,President,Ulla,1980-02-02,1999-12-31\nB,President,Vera,2000-01-01,2010-06-30\n"
    "B,President,Walt,2010-07-01,\nC,President,Tom,1985-01-01,1992-12-31\nC,President,Sam,1993-01-01,2004-04-30\n"
    "C,President,Rita,2004-05-01,\n"
)


def _csv(tmp_path: Path) -> Path:
    path = tmp_path / "leaders.csv"
    path.write_text(CSV, encoding="utf-8")
    return path


def test_run_tables_builds_the_cli_release_and_scores_it(tmp_path: Path) -> None:
    from chronoqa.cli import app

    csv = _csv(tmp_path)
    cfg = load_config(
        None,
        tables=[str(csv)],
        out=str(tmp_path / "run"),
        retrievers="bm25",
        controls="oracle,empty",
        baselines="extractive",
        n_bootstrap=20,
        build={"per_cell": 3, "tfds": {"leaders": ["Country,Role->Name"]}},
    )
    res = run_pipeline(cfg)
    names = [s.name for s in res.stages]
    assert names[:2] == ["fetch", "build"] and names[-2:] == ["evaluate", "report"]
    # the pipeline's release is byte-identical to `chronoqa build table` with the same settings
    out = tmp_path / "cli"
    cli = CliRunner().invoke(
        app, ["build", "table", str(csv), "--out", str(out), "--tfd", "Country,Role->Name", "--per-cell", "3"]
    )
    assert cli.exit_code == 0, cli.output
    built = tmp_path / "run" / "build"
    for f in ("benchmark.jsonl", "corpus.jsonl", "qrels", "functional_negatives.jsonl", "DATACARD.md"):
        assert (built / f).read_bytes() == (out / f).read_bytes(), f
    specs = {r["spec"]: r for r in res.summary.to_dict()["retrieval"]}
    assert specs["oracle"]["metrics"]["CCR"]["value"] == 1.0  # the oracle returns S*: identity holds
    assert specs["empty"]["metrics"]["CCR"]["value"] == 0.0
    assert all(s.skipped for s in run_pipeline(cfg).stages)  # unchanged inputs: nothing recomputed


def test_run_tables_bad_settings(tmp_path: Path) -> None:
    csv = _csv(tmp_path)
    with pytest.raises(ChronoqaError, match="not both"):
        load_config(None, tables=[str(csv)], files=str(csv))
    with pytest.raises(UnknownNameError, match="n_questions"):  # a KG setting, found when the config is read
        load_config(None, tables=[str(csv)], out=str(tmp_path / "r"), build={"n_questions": 5})
    missing = load_config(None, tables=[str(tmp_path / "nope.csv")], out=str(tmp_path / "m"))
    with pytest.raises(ChronoqaError, match="no such table file"):
        run_pipeline(missing)


def test_cli_run_tables_user_error_exits_2(tmp_path: Path) -> None:
    from chronoqa.cli import app

    res = CliRunner().invoke(app, ["run", "--tables", str(tmp_path / "nope.csv"), "--out", str(tmp_path / "r")])
    assert res.exit_code == 2 and "no such table file" in " ".join(res.output.split())


def test_run_tables_on_a_status_table(tmp_path: Path) -> None:
    from test_table_kinds import LAWS

    path = tmp_path / "laws.csv"
    path.write_text(LAWS, encoding="utf-8")
    cfg = load_config(
        None,
        tables=[str(path)],
        out=str(tmp_path / "run"),
        retrievers="bm25",
        controls="oracle",
        baselines="extractive,prior",
        n_bootstrap=20,
        build={"per_cell": 5, "as_of": "2025-01-01"},
    )
    res = run_pipeline(cfg)
    specs = {r["spec"]: r for r in res.summary.to_dict()["retrieval"]}
    assert specs["oracle"]["metrics"]["CCR"]["value"] == 1.0
    assert {r["name"] for r in res.summary.to_dict()["answers"]} >= {"prior", "extractive@bm25", "extractive@oracle"}


def _declared_laws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny TDBench-like ``legal.csv`` registered (for this test) as a TDBench table with declarations."""
    import hashlib

    from chronoqa.datasets.tdbench import Declarations
    from chronoqa.generate.table import recognise
    from test_table_kinds import LAWS

    path = tmp_path / "legal.csv"
    path.write_text(LAWS, encoding="utf-8")
    decl = Declarations(
        dataset="tdbench-legal",
        file="legal.csv",
        sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
        rows=LAWS.count("\n") - 1,
        description="a tiny TDBench-like table",
        phrases={
            "tables": {"legal": {"exclude:Country,Law_type": ["Borduria | Adoption"]}},
            "facts": {"legal": "In {Country}, {Law_type} has been {Legality} (declared phrase)"},
        },
        delimiters={"Law_type": "none"},
    )
    monkeypatch.setattr(recognise, "recognise", lambda sha: decl if sha == decl.sha256 else None)
    return path


def test_run_tables_applies_tdbench_declarations_as_build_table_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from chronoqa.cli import app

    path = _declared_laws(tmp_path, monkeypatch)
    cfg = load_config(
        None,
        tables=[str(path)],
        out=str(tmp_path / "run"),
        retrievers="bm25",
        controls="oracle",
        n_bootstrap=10,
        build={"per_cell": 5, "as_of": "2025-01-01"},
    )
    run_pipeline(cfg)
    built = tmp_path / "run" / "build"
    corpus = (built / "corpus.jsonl").read_text(encoding="utf-8")
    # the declared fact phrase is used, and the row declared wrong is stated by no document
    assert "(declared phrase)" in corpus and "Aland" in corpus
    assert "In Borduria, Adoption" not in corpus and "Borduria, Marriage" in corpus
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["sources"]["legal"]["dataset"] == "tdbench-legal"
    # `chronoqa build table` given the same file by path builds the very same release
    out = tmp_path / "cli"
    cli = CliRunner().invoke(app, ["build", "table", str(path), "--out", str(out), "--as-of", "2025-01-01"])
    assert cli.exit_code == 0, cli.output
    assert "recognised by its sha256 as tdbench-legal" in cli.output
    for f in ("benchmark.jsonl", "corpus.jsonl", "qrels", "functional_negatives.jsonl", "DATACARD.md"):
        assert (built / f).read_bytes() == (out / f).read_bytes(), f
    # the same table not recognised (another sha256): no declarations, the row is stated
    monkeypatch.undo()
    plain = CliRunner().invoke(app, ["build", "table", str(path), "--out", str(tmp_path / "plain")])
    assert plain.exit_code == 0, plain.output
    assert "Borduria" in (tmp_path / "plain" / "corpus.jsonl").read_text(encoding="utf-8")
    assert "(declared phrase)" not in (tmp_path / "plain" / "corpus.jsonl").read_text(encoding="utf-8")
    # named like TDBench's legal.csv but not its content: `run` warns as `build table` does
    assert "NOT applied" in plain.output and "--dataset tdbench-legal" in plain.output
    other = load_config(None, tables=[str(path)], out=str(tmp_path / "run2"), retrievers="bm25", n_bootstrap=10)
    with pytest.warns(UserWarning, match=r"NOT applied.*--dataset tdbench-legal"):
        run_pipeline(other)
