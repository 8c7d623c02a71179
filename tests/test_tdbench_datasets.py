"""TDBench's tables as named datasets: registry, shipped declarations, recognition by sha256, right gold.

The gold checks read the real CSV files from the mirror with :mod:`csv` and compute the expected answers
independently of the builder (skipped without ``CHRONOQA_MIRROR``).
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chronoqa import datasets as ds
from chronoqa.cli import app
from chronoqa.datasets import tdbench
from chronoqa.errors import ChronoqaError

TABLES = {
    "tdbench-leaders": "dyknow_leaders.csv",
    "tdbench-organizations": "dyknow_organizations.csv",
    "tdbench-sports": "dyknow_sports.csv",
    "tdbench-olympic": "olympic.csv",
    "tdbench-olympic-leaders": "olympic_dyknow_leaders.csv",
    "tdbench-culture": "culture.csv",
    "tdbench-legal": "legal.csv",
    "tdbench-environ": "environ.csv",
    "tdbench-movie": "movie.csv",
}


def _rows(mirror: Path, file: str) -> list[dict[str, str]]:
    with (mirror / "tdbench" / file).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _build(tmp_path: Path, *args: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any], str]:
    out = tmp_path / "rel"
    res = CliRunner().invoke(app, ["build", "table", *args, "--out", str(out)])
    assert res.exit_code == 0, res.output
    qs = [json.loads(line) for line in (out / "benchmark.jsonl").read_text(encoding="utf-8").splitlines()]
    docs = [json.loads(line) for line in (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    return qs, docs, json.loads((out / "manifest.json").read_text(encoding="utf-8")), res.output


def test_each_table_is_one_registered_dataset_with_its_declarations() -> None:
    for name, file in TABLES.items():
        spec = ds.get_spec(name)
        decl = tdbench.declarations(name)
        assert spec.format == "table" and spec.folder_name == "tdbench"
        assert [f.name for f in spec.files] == [file] == [decl.file]
        assert spec.files[0].url.endswith(f"/6241ab837ef192d748725a2aea30da3d2c2d726e/dataset/crafted/{file}")
        assert spec.files[0].sha256 == decl.sha256 and len(decl.sha256) == 64
        assert "never redistributed" in spec.licence
        assert set(decl.phrases) <= {"tfds", "facts", "joins", "tables"}
        assert set(decl.phrases.get("tables", {})) <= {decl.table}
        assert tdbench.recognise(decl.sha256.upper()) == decl
    assert tdbench.recognise("0" * 64) is None


def test_a_table_dataset_is_not_loaded_as_a_graph() -> None:
    with pytest.raises(ChronoqaError, match=r"chronoqa build table --dataset tdbench-legal"):
        ds.get_spec("tdbench-legal").loader(Path("."), on_bad_row="skip", as_of=None)


@pytest.mark.mirror
def test_registered_sums_are_the_mirror_files(mirror: Path) -> None:
    for name, file in TABLES.items():
        digest = hashlib.sha256((mirror / "tdbench" / file).read_bytes()).hexdigest()
        assert ds.get_spec(name).files[0].sha256 == digest, name
        assert ds.fetch(name) == mirror / "tdbench"
        header = _rows(mirror, file)[0].keys()
        for entry in tdbench.declarations(name).phrases.get("tables", {}).values():
            for key in entry:  # every column a declaration names is the file's
                if key.startswith(("exclude:", "map:")):
                    cols = key.split(":", 1)[1].replace("->", ",").split(",")
                    assert set(cols) <= set(header), (name, key)


@pytest.mark.mirror
def test_legal_by_name_asks_nothing_our_docs_call_false(mirror: Path, tmp_path: Path) -> None:
    qs, docs, manifest, _ = _build(tmp_path, "--dataset", "tdbench-legal")
    rows = _rows(mirror, "legal.csv")
    # TDBench files every second-parent adoption as Illegal since the year the law made it legal (Spain 2005),
    # and Iran's and Saudi Arabia's laws did not change in 2013 / 2001
    wrong = {(r["Country"], r["Law_type"]) for r in rows if r["Law_type"].startswith("Second parent adoption")}
    wrong |= {("Iran", "Same-sex sexual activity"), ("Saudi Arabia", "Same-sex sexual activity")}
    assert len(wrong) == 21
    assert not any("second parent adoption" in q["question"].lower() for q in qs)
    assert not any("Second parent adoption" in d["text"] for d in docs)  # no false fact in the corpus either
    start = {(r["Country"], r["Law_type"]): (r["Legality"], r["Start"]) for r in rows}
    since = [q for q in qs if q["operator"] == "status_since"]
    assert len(since) >= 50
    for q in since:
        key = tuple(q["logical_form"]["key"])
        assert key not in wrong
        legality, year = start[key]
        assert q["answers"] == [year] and re.search(rf"\bbeen {legality.lower()}\b", q["question"]), q["question"]
    assert manifest["tables"]["legal"]["rows"] == 121 and manifest["tables"]["legal"]["stored_rows"] == 100
    assert manifest["sources"]["legal"]["dataset"] == "tdbench-legal"


@pytest.mark.mirror
def test_a_file_given_by_path_gets_the_same_declarations(mirror: Path, tmp_path: Path) -> None:
    by_name = _build(tmp_path / "a", "--dataset", "tdbench-legal")
    by_path = _build(tmp_path / "b", str(mirror / "tdbench" / "legal.csv"))
    assert by_path[0] == by_name[0] and by_path[1] == by_name[1]
    assert "recognised by its sha256 as tdbench-legal" in by_path[3]
    changed = tmp_path / "c" / "legal.csv"  # same name, another content: a warning names the dataset
    changed.parent.mkdir()
    changed.write_text(
        (mirror / "tdbench" / "legal.csv").read_text(encoding="utf-8") + "Freedonia,Civil partnership,Legal,2015,\n"
    )
    _, _, _, output = _build(tmp_path / "d", str(changed))
    assert "NOT applied" in output and "--dataset tdbench-legal" in output
    both = [str(mirror / "tdbench" / "legal.csv"), "--dataset", "tdbench-legal", "--out", str(tmp_path / "e")]
    res = CliRunner().invoke(app, ["build", "table", *both])
    assert res.exit_code == 2 and "not both" in res.output and "Traceback" not in res.output


def _official_editions(rows: list[dict[str, str]]) -> dict[tuple[str, int], int]:
    """(season, official number) → the year the Games began, numbered as the IOC numbers them.

    Summer Games are numbered by Olympiad, four years from 1896, cancelled ones counted (Antwerp 1920 is the
    7th); Winter Games are numbered as held. Tokyo 2020 began in 2021.
    """
    out: dict[tuple[str, int], int] = {}
    winters = sorted(r["Start"] for r in rows if r["Season"] == "Winter")
    for r in rows:
        year = int(r["Start"][:4])
        if r["Season"] == "Summer":
            out["Summer", (int(r["Game_name"][-4:]) - 1896) // 4 + 1] = year
        else:
            out["Winter", winters.index(r["Start"]) + 1] = year
    return out


@pytest.mark.mirror
def test_olympic_by_name_uses_official_numbers_and_whole_city_names(mirror: Path, tmp_path: Path) -> None:
    qs, docs, _, _ = _build(tmp_path, "--dataset", "tdbench-olympic")
    rows = _rows(mirror, "olympic.csv")
    editions = _official_editions(rows)
    assert editions["Summer", 7] == 1920 and editions["Summer", 14] == 1948 and editions["Winter", 5] == 1948
    when = [q for q in qs if q["operator"] == "event_when"]
    assert when
    for q in when:
        m = re.fullmatch(r"In which year were the (\d+)\w\w (Summer|Winter) Olympic Games held\?", q["question"])
        assert m, q["question"]
        assert q["answers"] == [str(editions[m.group(2), int(m.group(1))])], q["question"]
    text = " ".join([q["question"] for q in qs] + [a for q in qs for a in q["answers"]] + [d["text"] for d in docs])
    assert "counting only" not in text
    for cut in ("St.,", "Salt,", "Los,", "Lake,", "Squaw,", "Mexico, Mexico", "Rio,"):
        assert cut not in text, cut
    assert "were held in St. Louis, United States" in text
    # a Games row is asked about by one of "in which year" / "which Games in YEAR", never both
    rows_when = {s["doc_id"] for q in when for s in q["S_star"]}
    rows_in = {s["doc_id"] for q in qs if q["operator"] == "event_in" for s in q["S_star"]}
    assert rows_when and rows_in and not rows_when & rows_in
    asked = [s["doc_id"] for q in qs if q["operator"] != "event_order" for s in q["S_star"]]
    assert len(asked) == len(set(asked)) == 50  # every Games once (Germany's three rows declared wrong)


def _split_holdings(rows: list[dict[str, str]]) -> set[tuple[str, str, str, str]]:
    """Rows (Country, Role, Name, Start) of one holder that adjoin another row of the same holder and office."""
    by: dict[tuple[str, str, str], list[tuple[str, str]]] = defaultdict(list)
    for r in rows:
        by[r["Country"], r["Role"], r["Name"]].append((r["Start"], r["End"] or "9999"))
    out = set()
    for key, spans in by.items():
        for i, (s0, e0) in enumerate(spans):
            if any(j != i and s1 <= e0 and s0 <= e1 for j, (s1, e1) in enumerate(spans)):
                out.add((*key, s0))
    return out


@pytest.mark.mirror
def test_leaders_by_name_reads_rows_as_times_in_office(mirror: Path, tmp_path: Path) -> None:
    qs, docs, manifest, _ = _build(tmp_path, "--dataset", "tdbench-leaders")
    rows = _rows(mirror, "dyknow_leaders.csv")
    split = _split_holdings(rows)
    assert ("Italy", "Prime Minister", "Giulio Andreotti", "1989-07-22") in split  # one row per cabinet
    assert ("Italy", "Prime Minister", "Silvio Berlusconi", "2005-04-23") in split
    caretakers = {"Muhammad Habibur Rahman", "Latifur Rahman", "Iajuddin Ahmed", "Fazlul Haque", "Fakhruddin Ahmed"}
    caretakers.add("Muhammad Yunus")  # Chief Advisers of Bangladesh's caretaker and interim governments
    by_line = {i + 2: r for i, r in enumerate(rows)}
    assert not any(" term" in q["question"] for q in qs)
    allen = [q for q in qs if q["operator"] == "allen"]
    assert allen and all("time in office" in q["question"] or "times in office" in q["question"] for q in allen)
    for q in qs:
        assert not caretakers & set(q["answers"]), q["question"]
        for s in q["S_star"]:
            r = by_line[int(s["doc_id"].split(":")[1])]
            assert q["operator"] != "allen" or (r["Country"], r["Role"], r["Name"], r["Start"]) not in split
    assert not any(name in d["text"] for d in docs for name in caretakers)
    assert manifest["tfds"]["dyknow_leaders"]["split_holdings_skipped"] > 0


@pytest.mark.mirror
def test_culture_by_name_needs_no_delimiter_flag(mirror: Path, tmp_path: Path) -> None:
    qs, _, manifest, _ = _build(tmp_path, "--dataset", "tdbench-culture")
    assert manifest["config"]["delimiters"] == {"culture.Heritage_element": "none"}
    with_commas = {r["Heritage_element"] for r in _rows(mirror, "culture.csv") if ", " in r["Heritage_element"]}
    assert any(e in q["question"] for q in qs for e in with_commas)  # an element name is one name, commas and all


# Worked by hand: Ann's first time in office (2000-2004) is filed as two cabinets (lines 2 and 3, the second
# beginning the day the first ended); her return in 2012 (line 6) is another time in office.
OFFICES = """Country,Role,Name,Start,End
Xland,Prime Minister,Ann,2000-01-10,2002-03-05
Xland,Prime Minister,Ann,2002-03-05,2004-06-01
Xland,Prime Minister,Bob,2004-06-01,2008-02-02
Xland,Prime Minister,Cat,2008-02-02,2012-09-09
Xland,Prime Minister,Ann,2012-09-09,2015-01-01
Yland,Prime Minister,Dan,2001-01-01,2005-01-01
Yland,Prime Minister,Eve,2005-01-01,2009-01-01
Yland,Prime Minister,Fay,2009-01-01,2013-01-01
Yland,Prime Minister,Gus,2013-01-01,2016-01-01
"""


def test_no_question_rests_on_a_boundary_inside_one_holding(tmp_path: Path) -> None:
    from chronoqa.generate.table import TableBuildConfig, build_table_benchmark
    from chronoqa.sources.tables import read_table

    path = tmp_path / "offices.csv"
    path.write_text(OFFICES, encoding="utf-8")
    cfg = TableBuildConfig(as_of="2016-06-01", per_cell=5, seed=3, complete=("offices",))
    build = build_table_benchmark([read_table(path)], cfg)
    allen = [q for q in build.questions if q.operator == "allen"]
    assert allen
    for q in allen:  # neither of Ann's two cabinets is a gold row: their shared boundary is no end of office
        assert not {"offices:2", "offices:3"} & {t.doc_id for t in q.S_star}, q.question
    assert any(t.doc_id == "offices:6" for q in allen for t in q.S_star)  # her return is asked about
    assert build.manifest["tfds"]["offices"]["split_holdings_skipped"] > 0


def test_declared_rows_map_from_the_values_as_read_and_exclude() -> None:
    from chronoqa.generate.table.declared import declared_rows
    from chronoqa.records import TemporalTable
    from chronoqa.time import Interval, parse_time

    iv = Interval(parse_time("1920"), parse_time("1920"))
    table = TemporalTable(
        "t", ("Season", "N"), [("Summer", "6"), ("Summer", "7"), ("Winter", "6")], [iv] * 3, [2, 3, 4], "Start", "End"
    )
    out = declared_rows(table, {"map:Season,N->N": {"Summer | 6": "7", "Summer | 7": "8"}, "exclude:Season": "Winter"})
    assert list(out.table.rows) == [("Summer", "7"), ("Summer", "8")]  # 6 -> 7 and 7 -> 8, never 6 -> 8
    assert list(out.table.lines) == [2, 3] and out.excluded == {2: "exclude:Season"}
    assert out.mapped == {"map:Season,N->N": 2}
    with pytest.raises(ChronoqaError, match="names column 'Year'"):
        declared_rows(table, {"exclude:Year": "1920"})
