"""Your own facts on the command line: the quintuple format, ``--columns`` and ``--on-reversed`` of ``build kg``.

Errors are one line on stderr with exit status 2, naming the flag to type; a mapping by position builds the
same release as the same file with the standard header.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chronoqa.errors import ChronoqaError, DataError, UnknownNameError
from chronoqa.sources.quintuples import parse_columns, read_quintuples

_CLI = "from chronoqa.cli import main; main()"
ROWS = [
    ("Q1", "worksFor", "Q2", "2005", "2009"),
    ("Q1", "worksFor", "Q3", "2010", "2012"),
    ("Q4", "worksFor", "Q2", "2001", "2003"),
    ("Q4", "memberOf", "Q5", "1999", ""),
]


def _write(path: Path, header: tuple[str, ...], rows: list[tuple[str, ...]] = ROWS) -> Path:
    path.write_text("\n".join("\t".join(r) for r in [header, *rows]) + "\n", encoding="utf-8")
    return path


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _CLI, *args], capture_output=True, text=True, timeout=300, cwd=cwd, env=dict(os.environ)
    )


def test_parse_columns_takes_short_and_long_roles_names_and_positions() -> None:
    assert parse_columns("subject=0, relation=1,object=2,start=3,end=4") == {
        "s": "0",
        "r": "1",
        "o": "2",
        "start": "3",
        "end": "4",
    }
    assert parse_columns("s=head,END=until,Object_Label=tail name") == {
        "s": "head",
        "end": "until",
        "o_label": "tail name",
    }
    with pytest.raises(ChronoqaError, match=r"'subject' is not ROLE=COLUMN; for example --columns subject="):
        parse_columns("subject")
    with pytest.raises(ChronoqaError, match="is not ROLE=COLUMN"):
        parse_columns("s=0,,r=1")
    with pytest.raises(UnknownNameError, match="Did you mean subject"):
        parse_columns("subjct=0")
    with pytest.raises(ChronoqaError, match="role 's' is mapped twice"):
        parse_columns("s=0,subject=1")


def test_mapping_by_position_reads_what_the_standard_header_reads(tmp_path: Path) -> None:
    standard = read_quintuples(_write(tmp_path / "a.tsv", ("s", "r", "o", "start", "end")))
    renamed = _write(tmp_path / "b.tsv", ("who", "what", "whom", "since", "until"))
    by_position = read_quintuples(renamed, columns=parse_columns("subject=0,relation=1,object=2,start=3,end=4"))
    by_name = read_quintuples(renamed, columns=parse_columns("s=who,r=what,o=whom,start=since,end=until"))
    facts = [(f.s, f.r, f.o, f.start, f.end) for f in standard.facts]
    assert len(facts) == 4
    assert [(f.s, f.r, f.o, f.start, f.end) for f in by_position.facts] == facts
    assert [(f.s, f.r, f.o, f.start, f.end) for f in by_name.facts] == facts
    with pytest.raises(DataError, match=r"0-based position \(0 to 4\), e\.g\. --columns s=who"):
        read_quintuples(renamed, columns={"s": "5", "r": "1", "o": "2", "start": "3", "end": "4"})


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--columns", "subjct=0"], "Unknown role in --columns 'subjct'. Did you mean subject?"),
        (["--columns", "subject"], "is not ROLE=COLUMN; for example --columns subject=head"),
        (["--columns", "s=0,r=1,o=2,start=3,end=9"], "expected a column '9' for role 'end'"),
        ([], "Fix: map it with --columns s=<column name or 0-based position>"),
        (["--columns", "s=0,r=1,o=2,start=3,end=4", "--on-reversed", "sometimes"], "--on-reversed 'sometimes'"),
    ],
)
def test_bad_mapping_is_one_line_and_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    _write(tmp_path / "facts.tsv", ("who", "what", "whom", "since", "until"))
    proc = _cli("build", "kg", "--input", "facts.tsv", "--out", "rel", *args, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ") and says in proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "rel").exists()


def test_on_reversed_raise_names_the_flag_and_swap_reads_the_fact(tmp_path: Path) -> None:
    _write(tmp_path / "rev.tsv", ("s", "r", "o", "start", "end"), [("Q1", "worksFor", "Q2", "2009", "2005")])
    proc = _cli("build", "kg", "--input", "rev.tsv", "--out", "rel", "--on-reversed", "raise", cwd=tmp_path)
    assert proc.returncode == 2 and "rev.tsv:2" in proc.stderr
    assert "read it with --on-reversed keep (valid nowhere), swap or skip" in proc.stderr
    from chronoqa.sources import read_graph
    from chronoqa.time import TimePoint

    (fact,) = read_graph(tmp_path / "rev.tsv", "quintuples", on_reversed="swap").facts
    assert (fact.start, fact.end) == (TimePoint(2005), TimePoint(2009))


def test_build_with_columns_by_position_equals_the_standard_header(tmp_path: Path) -> None:
    (tmp_path / "std").mkdir()
    (tmp_path / "own").mkdir()
    _write(tmp_path / "std" / "facts.tsv", ("subject", "relation", "object", "start", "end"))
    _write(tmp_path / "own" / "facts.tsv", ("who", "what", "whom", "since", "until"))
    common = ["--input", "facts.tsv", "--out", "rel", "--generic-phrases", "--allow-ids", "--n-questions", "20"]
    a = _cli("build", "kg", *common, cwd=tmp_path / "std")
    b = _cli("build", "kg", *common, "--columns", "subject=0,relation=1,object=2,start=3,end=4", cwd=tmp_path / "own")
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    rel_a, rel_b = tmp_path / "std" / "rel", tmp_path / "own" / "rel"
    files = sorted(p.relative_to(rel_a) for p in rel_a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(rel_b) for p in rel_b.rglob("*") if p.is_file())
    assert "benchmark.jsonl" in {f.name for f in files}
    # the input files differ (their headers), so do the checksums recorded of them; nothing else does
    differ = [f for f in files if (rel_a / f).read_bytes() != (rel_b / f).read_bytes()]
    assert differ == [Path("manifest.json")] or differ == [], differ


def test_help_shows_the_quintuple_format_and_the_flags(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _CLI, "build", "kg", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200", "TERM": "dumb"},
    )
    text = " ".join(proc.stdout.replace("│", " ").split())  # the help's panel borders out of the way
    for needle in ("one fact per row", "subject, relation, object, start, end", "--columns", "--on-reversed"):
        assert needle in text, needle


def test_build_table_on_reversed_flag(tmp_path: Path) -> None:
    from chronoqa.generate.table.build import read_table_files

    path = tmp_path / "leaders.csv"
    path.write_text("name,role,start,end\nA,Boss,2001,2005\nB,Boss,2007,2003\nC,Boss,2008,2010\n", encoding="utf-8")
    proc = _cli("build", "table", "leaders.csv", "--out", "rel", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "leaders.csv:3" in proc.stderr and "build with --on-reversed skip, swap or keep" in proc.stderr
    bad = _cli("build", "table", "leaders.csv", "--out", "rel", "--on-reversed", "nah", cwd=tmp_path)
    assert bad.returncode == 2 and "--on-reversed 'nah': expected raise, skip, swap or keep" in bad.stderr
    (table,), _ = read_table_files([path], on_reversed="skip")
    assert table.report is not None and len(table.report.skipped) == 1 and table.report.skipped[0].line == 3
    (swapped,), _ = read_table_files([path], on_reversed="swap")
    assert table.report.rows_loaded == 2 and swapped.report is not None and swapped.report.rows_loaded == 3
    (as_bad_row,), _ = read_table_files([path], on_bad_row="skip")  # no --on-reversed: --on-bad-row decides
    assert as_bad_row.report is not None and [r.line for r in as_bad_row.report.skipped] == [3]
    skipped = _cli(
        "build", "table", "leaders.csv", "--out", "rel2", "--on-bad-row", "skip", "--tfd", "role->name", cwd=tmp_path
    )
    assert skipped.returncode == 0 and "reversed interval" in skipped.stdout + skipped.stderr
