"""Release, run and CLI-argument validation: each bad file is one DataError naming file, line, field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from answer_fixtures import write_fixture
from chronoqa.artifacts.release import load_release
from chronoqa.errors import ChronoqaError, DataError, UnknownNameError
from chronoqa.score.evaluate import evaluate


def _chronoqa(*args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from chronoqa.cli import main; sys.argv = ['chronoqa', *sys.argv[1:]]; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)


def _edit_line(path: Path, n: int, **changes: object) -> None:
    """Change fields of the n-th line (1-based) of a JSONL file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[n - 1])
    rec.update(changes)
    lines[n - 1] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize(
    ("file", "line", "changes", "field"),
    [
        ("benchmark.jsonl", 2, {"S_star": "Ann Lee playsFor Blue FC"}, "S_star"),
        ("benchmark.jsonl", 1, {"S_star": [{"s": 1, "r": "r", "o": "o"}]}, "S_star[0].s"),
        ("benchmark.jsonl", 3, {"id": 7}, "id"),
        ("benchmark.jsonl", 1, {"answers": "Blue FC"}, "answers"),
        ("benchmark.jsonl", 1, {"render_time": "yes"}, "render_time"),
        ("benchmark.jsonl", 1, {"hops": "two"}, "hops"),
        ("corpus.jsonl", 4, {"doc_id": None}, "doc_id"),
        ("functional_negatives.jsonl", 2, {"dist_functional": "false"}, "dist_functional"),
    ],
)
def test_release_field_types(tmp_path: Path, file: str, line: int, changes: dict[str, object], field: str) -> None:
    rel, _ = write_fixture(tmp_path)
    _edit_line(rel / file, line, **changes)
    with pytest.raises(DataError) as exc:
        load_release(rel).load()
    err = exc.value
    assert (Path(err.file).name, err.line, err.field) == (file, line, field), str(err)


def test_duplicate_ids(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    _edit_line(rel / "benchmark.jsonl", 3, id="q1")
    with pytest.raises(
        DataError, match=r"benchmark\.jsonl:3: field 'id' = 'q1': expected an id no earlier line has \(line 1 "
    ):
        load_release(rel).load()
    rel2, _ = write_fixture(tmp_path / "b")
    _edit_line(rel2 / "corpus.jsonl", 2, doc_id="d1")
    with pytest.raises(DataError, match=r"corpus\.jsonl:2: field 'doc_id' = 'd1'"):
        load_release(rel2).load()


def test_blank_lines_count_in_line_numbers(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    bench = rel / "benchmark.jsonl"
    lines = bench.read_text(encoding="utf-8").splitlines()
    bench.write_text("\n".join([lines[0], "", *lines[1:]]) + "\n", encoding="utf-8")
    _edit_line(bench, 3, split=1)
    with pytest.raises(DataError) as exc:
        load_release(rel).load()
    assert exc.value.line == 3 and exc.value.field == "split"


def test_unknown_split_and_negative_bootstrap(tmp_path: Path) -> None:
    rel, run = write_fixture(tmp_path)
    with pytest.raises(UnknownNameError, match=r"Unknown split 'testt'\. Did you mean test\?"):
        evaluate(rel, run=run, split="testt")
    with pytest.raises(ChronoqaError, match="n_bootstrap must be >= 0"):
        evaluate(rel, run=run, n_bootstrap=-1)


def test_cli_arguments_naming_the_wrong_kind_of_path(tmp_path: Path) -> None:
    rel, run = write_fixture(tmp_path)
    res = _chronoqa("evaluate", "--bench", str(rel), "--run", str(run.parent), "--out", str(tmp_path / "m.json"))
    assert res.returncode == 2 and "Traceback" not in res.stderr and "an existing run file" in res.stderr
    res = _chronoqa("evaluate", "--bench", str(rel), "--run", str(run), "--split", "testt")
    assert res.returncode == 2 and "Unknown split 'testt'" in res.stderr and not res.stdout
    res = _chronoqa("evaluate", "--bench", str(rel), "--run", str(run), "--bootstrap", "-1")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    a_file = tmp_path / "taken.txt"
    a_file.write_text("x", encoding="utf-8")
    res = _chronoqa("build", "kg", "--input", str(tmp_path), "--out", str(a_file))
    assert res.returncode == 2 and "is a file, not a folder" in res.stderr and "Traceback" not in res.stderr
    assert a_file.read_text(encoding="utf-8") == "x"


def _rewrite_hits(src: Path, dst: Path, **changes: str) -> Path:
    out = []
    for line in src.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        for j, h in enumerate(rec["hits"]):
            h.update({k: v.format(j=j, qid=rec["qid"]) for k, v in changes.items()})
        out.append(json.dumps(rec))
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text("\n".join(out) + "\n", encoding="utf-8")
    return dst


def test_a_hit_is_its_doc_id_not_its_text(tmp_path: Path) -> None:
    rel, run = write_fixture(tmp_path)
    real = evaluate(rel, run=run, n_bootstrap=0).to_dict()["retrieval"]
    assert 0 < real["all"]["R@10"]["value"] < 1  # a non-trivial run
    # the issue's case: every doc_id bogus, the triples' text intact, scored like the real run; now an error
    bogus = _rewrite_hits(run, tmp_path / "bogus" / "x.run.jsonl", doc_id="zz-{qid}-{j}")
    with pytest.raises(DataError) as exc:
        evaluate(rel, run=bogus, n_bootstrap=0)
    assert (exc.value.line, exc.value.field, exc.value.value) == (1, "hits[0].doc_id", "zz-q1-0")
    # real doc ids with garbled text: scored as the documents they name
    garbled = _rewrite_hits(run, tmp_path / "garbled" / "x.run.jsonl", s="nobody", o="nothing", t_start="1066")
    assert evaluate(rel, run=garbled, n_bootstrap=0).to_dict()["retrieval"] == real


def test_run_lines_without_hits(tmp_path: Path) -> None:
    rel, run = write_fixture(tmp_path)
    lines = run.read_text(encoding="utf-8").splitlines()
    for bad, field in (({"qid": "q1", "hits": None}, "hits"), ({"qid": "q1", "hits": [{"doc_id": "d1"}]}, "hits[0]")):
        p = tmp_path / "bad" / "x.run.jsonl"
        p.parent.mkdir(exist_ok=True)
        p.write_text("\n".join([json.dumps(bad), *lines[1:]]) + "\n", encoding="utf-8")
        with pytest.raises(DataError) as exc:
            evaluate(rel, run=p, n_bootstrap=0)
        assert (exc.value.line, exc.value.field) == (1, field)


def test_an_impossible_date_names_file_and_line(tmp_path: Path) -> None:
    rel, _ = write_fixture(tmp_path)
    _edit_line(rel / "benchmark.jsonl", 2, t_query="2001-02-30")
    with pytest.raises(DataError, match=r"benchmark\.jsonl:2: .*day 30 of 2001-02 is impossible"):
        load_release(rel).load()


def test_a_huge_bad_value_is_echoed_clipped(tmp_path: Path) -> None:
    from chronoqa.errors import MAX_ECHO, LoadReport
    from chronoqa.sources import read_graph

    kg = tmp_path / "kg"
    kg.mkdir()
    (kg / "entities.dict").write_text("0\tA\n1\tB\n", encoding="utf-8")
    (kg / "relations.dict").write_text("0\tr\n", encoding="utf-8")
    huge = "9" * 1_000_000
    (kg / "temporal").write_text(f"0\t0\t1\t{huge}\t2004\n0\t0\t1\t2001\t2004\n", encoding="utf-8")
    with pytest.raises(DataError) as exc:
        read_graph(kg)
    assert len(str(exc.value)) < 4 * MAX_ECHO + 400 and "1,000,000 characters" in str(exc.value)
    g = read_graph(kg, on_bad_row="skip")
    report = g.report
    assert isinstance(report, LoadReport) and len(report.skipped) == 1
    assert len(json.dumps(report.to_dict())) < 3 * MAX_ECHO + 1000


def test_a_repeated_table_column_is_an_error(tmp_path: Path) -> None:
    from chronoqa.sources.tables import read_table

    t = tmp_path / "t.csv"
    t.write_text("Country,Role,Role,Start,End\nItaly,President,President,1999,2006\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"t\.csv:1: field '\(header\)' = 'Role': expected column names"):
        read_table(t)


def test_hits_without_doc_id_are_warned(tmp_path: Path) -> None:
    rel, run = write_fixture(tmp_path)
    assert not [w for w in evaluate(rel, run=run, n_bootstrap=0).to_dict()["warnings"] if "doc_id" in w]
    no_ids = _rewrite_hits(run, tmp_path / "noid" / "x.run.jsonl", doc_id="")
    n_hits = sum(len(json.loads(line)["hits"]) for line in run.read_text(encoding="utf-8").splitlines())
    warned = [w for w in evaluate(rel, run=no_ids, n_bootstrap=0).to_dict()["warnings"] if "doc_id" in w]
    assert warned == [f"run 'x': {n_hits} hits carry no doc_id and are matched by their triple text, not as documents"]


def test_hits_without_doc_id_score_as_the_same_hits_with_one(tmp_path: Path) -> None:
    rel, run = write_fixture(tmp_path)  # the fixture's hits embed their documents' own triples
    no_ids = _rewrite_hits(run, tmp_path / "noid" / "x.run.jsonl", doc_id="")
    with_ids = evaluate(rel, run=run, n_bootstrap=0).to_dict()["retrieval"]
    without = evaluate(rel, run=no_ids, n_bootstrap=0).to_dict()["retrieval"]
    assert without["all"] == with_ids["all"] and with_ids["all"]


@pytest.mark.parametrize("columnar", [True, False])
def test_invalid_utf8_inside_a_hit_label_names_file_and_line(tmp_path: Path, columnar: bool) -> None:
    from chronoqa.artifacts.runs import read_run

    rel, run = write_fixture(tmp_path)
    lines = run.read_bytes().splitlines(keepends=True)
    lines[1] = lines[1].replace(b'"s":"', b'"s":"\xff', 1)
    assert b"\xff" in lines[1]
    bad = tmp_path / "bad" / "x.run.jsonl"
    bad.parent.mkdir()
    bad.write_bytes(b"".join(lines))
    with pytest.raises(DataError) as err:
        read_run(bad, docs=load_release(rel).corpus, columnar=columnar)
    assert err.value.file == str(bad) and err.value.line == 2 and "UTF-8" in str(err.value)
    with pytest.raises(DataError, match=r":2: .*UTF-8"):
        evaluate(rel, run=bad, n_bootstrap=0)


def test_a_mirror_that_is_not_a_folder_fails_at_start_up(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "CHRONOQA_MIRROR": str(tmp_path / "no-such-mirror")}
    code = "from chronoqa.cli import main; main()"
    res = subprocess.run(
        [sys.executable, "-c", code, "datasets", "info", "yago11k"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().count("\n") == 0 and "CHRONOQA_MIRROR=" in res.stderr and "no such folder" in res.stderr


def test_a_missing_input_path_says_so(tmp_path: Path) -> None:
    from chronoqa.sources import read_graph
    from chronoqa.sources.tables import read_table

    with pytest.raises(DataError, match=r"an existing TKG folder or file\. Fix: check the path given to --input"):
        read_graph(tmp_path / "nowhere")
    with pytest.raises(DataError, match="it does not exist") as err:
        read_table(tmp_path / "nowhere")
    assert "unknown table format" not in str(err.value)


def test_error_fixes_name_what_a_user_can_type(tmp_path: Path) -> None:
    from chronoqa.sources.quintuples import read_quintuples
    from chronoqa.sources.tables import read_table

    quint = tmp_path / "q.csv"
    quint.write_text("head,relation,tail,from,until\na,r,b,2001,2002\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        read_quintuples(quint)
    assert err.value.fix.startswith("map it with --columns end=<column name or 0-based position>")
    assert "or rename that column in the header to 'end'" in err.value.fix
    table = tmp_path / "t.csv"
    table.write_text("name,start,end\nAnn,2005,2001\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        read_table(table, start_column="start", end_column="end")
    assert err.value.fix.startswith("correct the row's dates in the file, or build with --on-reversed skip")
