"""The row rules of the fact builder, one implementation for the row-by-row and the bulk paths.

Hand-worked fixture (as_of = 2026): a fact that ends after as_of still holds through as_of and is kept; a
fact that starts after as_of is not yet true: skipped, counted and reported, under either bad-row policy.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chronoqa.sources import detect_format, read_graph
from chronoqa.sources.hyte import read_hyte
from chronoqa.sources.quintuples import read_quintuples
from chronoqa.time import TimePoint

AS_OF = TimePoint(2026)
ROWS = [  # s, r, o, start, end
    ("Ann", "worksAt", "Uni", "2020", "2030"),  # ends after as_of: holds through 2026, kept
    ("Bob", "worksAt", "Uni", "2031", "2035"),  # starts after as_of: not yet true, skipped
    ("Cid", "worksAt", "Lab", "1990", "1999"),  # an ordinary fact
    ("Dan", "worksAt", "Lab", "2026-06", ""),  # starts inside the as_of year: holds at as_of's unit, kept
    ("Eve", "worksAt", "Lab", "2027", ""),  # starts after as_of, open end: skipped
]
KEPT = ["Ann", "Cid", "Dan"]


def write_hyte(folder: Path) -> Path:
    folder.mkdir()
    names = sorted({x for row in ROWS for x in (row[0], row[2])})
    (folder / "entities.dict").write_text("".join(f"{i}\t{n}\n" for i, n in enumerate(names)))
    (folder / "relations.dict").write_text("0\tworksAt\n")
    lines = [f"{names.index(s)}\t0\t{names.index(o)}\t{a.replace('-', '_')}\t{b or 'None'}\n" for s, _, o, a, b in ROWS]
    (folder / "temporal").write_text("".join(lines))
    return folder


def write_tsv(path: Path) -> Path:
    path.write_text("s\tr\to\tstart\tend\n" + "".join("\t".join(row) + "\n" for row in ROWS))
    return path


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("policy", ["raise", "skip"])
def test_end_after_as_of_is_kept_start_after_as_of_is_skipped_and_counted(
    tmp_path: Path, fast: bool, policy: str
) -> None:
    graphs = [
        read_hyte(write_hyte(tmp_path / "h"), as_of=AS_OF, fast=fast, on_bad_row=policy),  # type: ignore[arg-type]
        read_quintuples(write_tsv(tmp_path / "q.tsv"), as_of=AS_OF, fast=fast, on_bad_row=policy),  # type: ignore[arg-type]
    ]
    for g in graphs:
        kept = sorted(g.entity_label(f.s) for f in g.facts)
        assert kept == KEPT, g.name
        assert g.report.rows_loaded == 3
        reasons = g.report.skipped_by_reason()
        assert sum(reasons.values()) == 2 and all("not yet true" in r for r in reasons), reasons
        assert sorted(r.line for r in g.report.skipped) == [2, 5] or sorted(r.line for r in g.report.skipped) == [
            3,
            6,
        ]  # HyTE lines count from 1, the TSV has a header line
        ann = next(f for f in g.facts if g.entity_label(f.s) == "Ann")
        assert ann.end == TimePoint(2030)  # kept as stated: it still holds at as_of


def test_without_as_of_nothing_is_skipped(tmp_path: Path) -> None:
    g = read_quintuples(write_tsv(tmp_path / "q.tsv"))
    assert len(g.facts) == len(ROWS) and not g.report.skipped


def test_one_place_chooses_the_reader(tmp_path: Path) -> None:
    folder = write_hyte(tmp_path / "h")
    tsv = write_tsv(tmp_path / "q.tsv")
    tgb = tmp_path / "edges.csv"
    tgb.write_text("ts,head,tail,relation_type\n2001,a,b,r\n")
    assert [detect_format(p) for p in (folder, tsv, tgb)] == ["hyte", "quintuples", "tgb"]
    assert len(read_graph(folder, as_of=AS_OF, on_reversed="keep").facts) == 3
    assert len(read_graph(tgb, on_reversed="keep").facts) == 1  # an option tgb does not take is left out
