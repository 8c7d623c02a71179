"""Readers: HyTE folders, TGB edge lists, quintuples, temporal tables, synthetic graphs; bad-row policies.

Expected values come from the tiny fixtures written here or from plain-Python counts over the raw
mirrored files, never from the readers themselves.
"""

from __future__ import annotations

import csv
import itertools
import re
import zipfile
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronoqa.errors import DataError, UnknownNameError
from chronoqa.records import Fact, FactColumns, TemporalGraph
from chronoqa.sources import FORMATS, get_format, read
from chronoqa.sources.hyte import read_hyte, write_hyte
from chronoqa.sources.quintuples import read_quintuples
from chronoqa.sources.synthetic import SyntheticConfig, generate
from chronoqa.sources.tables import read_table
from chronoqa.sources.tgb import read_tgb, write_tgb_edgelist
from chronoqa.time import Granularity, Interval, TimePoint, parse_time


def make_hyte(folder: Path, rows: list[str] | bytes, *, labels: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "entities.dict").write_text("0\t<Getafe_CF>\n1\t<Mike_Newell_(footballer)>\n2\tQ42\n", encoding="utf-8")
    (folder / "relations.dict").write_text("0\t<playsFor>\n1\tP54\n", encoding="utf-8")
    data = rows if isinstance(rows, bytes) else "".join(r + "\n" for r in rows).encode()
    (folder / "temporal").write_bytes(data)
    if labels:
        (folder / "relation_labels.tsv").write_text("pid\tlabel\nP54\tmember of sports team\n", encoding="utf-8")
    return folder


# --------------------------------------------------------------------------------------------------
# HyTE
# --------------------------------------------------------------------------------------------------


def test_hyte_reads_names_labels_ids_and_lines(tmp_path: Path) -> None:
    folder = make_hyte(
        tmp_path / "kg", ["1\t0\t0\t1982\tNone", "2\t1\t0\t1994_03_07\t1996", "0\t0\t2\t-405\t-405"], labels=True
    )
    g = read_hyte(folder)
    assert g.name == "kg"
    assert [(f.id, f.s, f.r, f.o, f.line) for f in g.facts] == [
        (0, "<Mike_Newell_(footballer)>", "<playsFor>", "<Getafe_CF>", 1),
        (1, "Q42", "P54", "<Getafe_CF>", 2),
        (2, "<Getafe_CF>", "<playsFor>", "Q42", 3),
    ]
    assert g.facts[0].start == TimePoint(1982) and g.facts[0].end is None
    assert g.facts[1].start == TimePoint(1994, 3, 7) and g.facts[1].end == TimePoint(1996)
    assert g.facts[2].start == TimePoint(-405)
    assert g.entity_label("<Mike_Newell_(footballer)>") == "Mike Newell (footballer)"
    assert g.entity_label("<Getafe_CF>") == "Getafe CF"
    assert "Q42" not in g.entity_labels and g.entity_label("Q42") == "Q42"
    assert g.relation_label("<playsFor>") == "playsFor"
    assert g.relation_label("P54") == "member of sports team"
    assert g.report is not None and g.report.rows_read == 3 and g.report.rows_loaded == 3


def test_a_yago_name_reads_its_escaped_characters() -> None:
    r"""YAGO escapes a quote in a name as ``\u0022``: the label holds the quote."""
    from chronoqa.sources.hyte import entity_label

    assert entity_label(r"<Guinn_\u0022Big_Boy\u0022_Williams>") == 'Guinn "Big Boy" Williams'
    assert entity_label(r"<Take_the_\u0022A\u0022_Train>") == 'Take the "A" Train'
    assert entity_label("<Getafe_CF>") == "Getafe CF"


def test_hyte_reads_split_files_with_continuing_ids(tmp_path: Path) -> None:
    folder = make_hyte(tmp_path / "kg", ["1\t0\t0\t1982\tNone"])
    (folder / "train.txt").write_text("1\t0\t0\t1982\tNone\n0\t0\t2\t1990\t1991\n", encoding="utf-8")
    (folder / "test.txt").write_text("2\t1\t0\t2000\t2001\n", encoding="utf-8")
    g = read_hyte(folder, files=("train.txt", "test.txt"))
    assert [(f.id, f.line) for f in g.facts] == [(0, 1), (1, 2), (2, 1)]


@pytest.mark.parametrize("policy", ["raise", "skip", "keep", "swap"])
def test_reversed_interval_policies(tmp_path: Path, policy: str) -> None:
    folder = make_hyte(tmp_path / "kg", ["1\t0\t0\t1990\t1995", "1\t0\t2\t2012\t2010"])
    if policy == "raise":
        with pytest.raises(DataError) as exc:
            read_hyte(folder, on_reversed="raise")
        assert exc.value.line == 2 and exc.value.field == "end" and "temporal" in exc.value.file
        assert "2012" in str(exc.value) and "on_reversed" in str(exc.value)
        return
    g = read_hyte(folder, on_reversed=policy)  # type: ignore[arg-type]
    assert g.report is not None
    if policy == "skip":
        assert len(g) == 1
        assert g.report.skipped_by_reason() == {"reversed interval": 1}
    elif policy == "keep":
        assert len(g) == 2 and g.facts[1].interval.is_reversed()
        assert sum(g.report.notes.values()) == 1
    else:
        assert len(g) == 2 and (g.facts[1].start, g.facts[1].end) == (TimePoint(2010), TimePoint(2012))


def test_duplicates_are_counted_and_optionally_dropped(tmp_path: Path) -> None:
    folder = make_hyte(tmp_path / "kg", ["1\t0\t0\t1990\t1995", "1\t0\t0\t1990\t1995", "1\t0\t0\t1990\t1996"])
    kept = read_hyte(folder)
    assert len(kept) == 3
    assert kept.report is not None and list(kept.report.notes.values()) == [1]
    dropped = read_hyte(folder, on_duplicate="drop")
    assert [f.line for f in dropped.facts] == [1, 3]
    assert dropped.report is not None and len(dropped.report.skipped) == 1


def test_impossible_date_raises_with_file_line_field_or_is_skipped(tmp_path: Path) -> None:
    folder = make_hyte(tmp_path / "kg", ["1\t0\t0\t1990\t1995", "1\t0\t0\t1994_13_01\tNone"])
    with pytest.raises(DataError) as exc:
        read_hyte(folder)
    err = exc.value
    assert (Path(err.file).name, err.line, err.field, err.value) == ("temporal", 2, "start", "1994_13_01")
    assert "expected" in str(err) and "Fix:" in str(err)
    g = read_hyte(folder, on_bad_row="skip")
    assert len(g) == 1
    assert g.report is not None and len(g.report.skipped) == 1 and g.report.skipped[0].line == 2


def test_future_years_beyond_as_of(tmp_path: Path) -> None:
    folder = make_hyte(tmp_path / "kg", ["1\t0\t0\t1990\t1995", "1\t0\t2\t2844\tNone", "1\t0\t2\t2000\t2030"])
    assert len(read_hyte(folder)) == 3  # no as_of: nothing to check against
    as_of = TimePoint(2024, 6, 30)
    # a start after as_of is not yet true: skipped and counted under either policy (not bad data);
    # a fact that only ends after as_of (2000-2030) holds through as_of and is kept
    for policy in ("raise", "skip"):
        g = read_hyte(folder, as_of=as_of, on_bad_row=policy)  # type: ignore[arg-type]
        assert [f.line for f in g.facts] == [1, 3]
        assert g.report is not None and [(s.line, s.field) for s in g.report.skipped] == [(2, "start")]
        assert "2024-06-30" in g.report.skipped[0].reason


def test_non_utf8_bytes_name_line_and_byte_offset(tmp_path: Path) -> None:
    good = b"1\t0\t0\t1990\t1995\n"
    bad = b"1\t0\t0\t19\xff0\t1995\n"
    folder = make_hyte(tmp_path / "kg", good + bad + good)
    with pytest.raises(DataError) as exc:
        read_hyte(folder)
    offset = len(good) + bad.index(b"\xff")
    assert exc.value.line == 2 and f"byte offset {offset}" in str(exc.value) and "UTF-8" in str(exc.value)
    g = read_hyte(folder, on_bad_row="skip")
    assert [f.line for f in g.facts] == [1, 3]
    assert g.report is not None and g.report.rows_read == 3 and len(g.report.skipped) == 1


def test_wrong_column_count_and_unknown_ids(tmp_path: Path) -> None:
    folder = make_hyte(
        tmp_path / "kg", ["1\t0\t0\t1990", "9\t0\t0\t1990\t1991", "1\t7\t0\t1990\t1991", "1\t0\t0\t1990\t1991"]
    )
    with pytest.raises(DataError, match="5 tab-separated fields"):
        read_hyte(folder)
    g = read_hyte(folder, on_bad_row="skip")
    assert [f.line for f in g.facts] == [4]
    assert g.report is not None
    assert [(s.line, s.field) for s in g.report.skipped] == [(1, "(row)"), (2, "s_id"), (3, "r_id")]


def test_write_hyte_round_trip(tmp_path: Path) -> None:
    src = make_hyte(tmp_path / "kg", ["1\t0\t0\t1982\tNone", "2\t1\t0\t1994_03_07\t1996_04", "0\t0\t2\t-405\t-405"])
    g = read_hyte(src)
    write_hyte(g, tmp_path / "out")
    back = read_hyte(tmp_path / "out")
    assert [(f.s, f.r, f.o, f.start, f.end) for f in back.facts] == [(f.s, f.r, f.o, f.start, f.end) for f in g.facts]


# --------------------------------------------------------------------------------------------------
# tables
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end"),
    [("Start", "End"), ("start_date", "END_DATE"), ("valid_from", "valid_to"), ("From", "to"), ("begin", "end")],
)
def test_table_detects_start_end_columns(tmp_path: Path, start: str, end: str) -> None:
    path = tmp_path / "t.csv"
    path.write_text(
        f"Country,{start},Name,{end}\nItaly,1999-05-18,Ciampi,2006-05-15\nItaly,2006-05-15,Napolitano,nan\n",
        encoding="utf-8",
    )
    t = read_table(path)
    assert (t.start_column, t.end_column) == (start, end)
    assert t.columns == ("Country", "Name")
    assert t.rows == (("Italy", "Ciampi"), ("Italy", "Napolitano"))
    assert t.intervals[0].start == TimePoint(1999, 5, 18) and t.intervals[1].end is None
    assert t.lines == (2, 3)


def test_table_override_missing_values_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text('Name,Since,Until,Note\n"Smith, J",2001,2003,\nDoe,2002,,nan\n', encoding="utf-8")
    unnamed = tmp_path / "u.csv"
    unnamed.write_text("Name,First,Last\nDoe,2002,2003\n", encoding="utf-8")
    with pytest.raises(DataError, match="start_column"):  # no column name says start or end
        read_table(unnamed)
    assert read_table(path).intervals == read_table(path, start_column="since", end_column="Until").intervals
    t = read_table(path, start_column="since", end_column="Until")
    assert t.rows == (("Smith, J", None), ("Doe", None))
    assert t.intervals[1].end is None
    bad = tmp_path / "bad.csv"
    bad.write_text("Name,Start,End\nA,2001,2003\nB,2001\nC,2001-13,2002\nD,2005,2001\n", encoding="utf-8")
    with pytest.raises(DataError) as exc:
        read_table(bad)
    assert exc.value.line == 3 and "3 fields" in str(exc.value)
    with pytest.raises(DataError) as exc2:
        read_table(bad, on_bad_row="skip", on_reversed="raise")
    assert exc2.value.line == 5 and exc2.value.field == "End"
    # on_reversed follows on_bad_row when not given: under skip the reversed row is left out and counted
    assert read_table(bad, on_bad_row="skip").report == read_table(bad, on_bad_row="skip", on_reversed="skip").report
    t2 = read_table(bad, on_bad_row="skip", on_reversed="skip")
    assert t2.column("Name") == ["A"]
    assert t2.report is not None and [(s.line, s.field) for s in t2.report.skipped] == [
        (3, "(row)"),
        (4, "Start"),
        (5, "End"),
    ]


def test_table_parquet(tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    pq.write_table(
        pa.table({"Name": ["A", None], "Start": [1994, 2000], "End": [1996.0, float("nan")], "Score": [1.5, None]}),
        path,
    )
    t = read_table(path)
    assert t.rows == (("A", "1.5"), (None, None))
    assert t.intervals[0].end == TimePoint(1996) and t.intervals[1].end is None
    assert t.granularity is Granularity.YEAR


@pytest.mark.mirror
def test_tdbench_tables_load_with_independent_counts(mirror: Path) -> None:
    for path in sorted((mirror / "tdbench").glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as fh:
            raw = list(csv.DictReader(fh))
        t = read_table(path, on_reversed="keep")
        assert len(t) == len(raw), path.name
        open_ended = sum(1 for r in raw if r["End"].strip() in ("", "nan"))
        assert sum(1 for iv in t.intervals if iv.end is None) == open_ended, path.name
    leaders = read_table(mirror / "tdbench" / "dyknow_leaders.csv")
    assert len(leaders) == 448 and sum(iv.end is None for iv in leaders.intervals) == 78
    assert leaders.columns == ("Country", "Role", "Name")


# --------------------------------------------------------------------------------------------------
# quintuples
# --------------------------------------------------------------------------------------------------


def test_quintuples_csv_with_labels_and_mapping(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    path.write_text(
        "head,rel,tail,from,until,head_label\nQ1,P1,Q2,1990,1995,Alice\nQ1,P1,Q3,1996,,Alice\nQ4,P2,Q1,,2001-02,\n",
        encoding="utf-8",
    )
    with pytest.raises(DataError, match="role 'end'"):
        read_quintuples(path)
    g = read_quintuples(path, columns={"end": "until", "s_label": "head_label"})
    assert [(f.s, f.r, f.o, f.start, f.end, f.line) for f in g.facts] == [
        ("Q1", "P1", "Q2", TimePoint(1990), TimePoint(1995), 2),
        ("Q1", "P1", "Q3", TimePoint(1996), None, 3),
        ("Q4", "P2", "Q1", None, TimePoint(2001, 2), 4),
    ]
    assert g.entity_labels == {"Q1": "Alice"}
    with pytest.raises(UnknownNameError, match="Did you mean"):
        read_quintuples(path, columns={"sbj": "head"})


def test_quintuples_tsv_and_parquet_agree(tmp_path: Path) -> None:
    tsv = tmp_path / "q.tsv"
    tsv.write_text("s\tr\to\tstart\tend\na\tr\tb\t1990-01-02\t1990-01-05\na\tr\tc\t1991\t\n", encoding="utf-8")
    pqt = tmp_path / "q.parquet"
    pq.write_table(
        pa.table(
            {
                "s": ["a", "a"],
                "r": ["r", "r"],
                "o": ["b", "c"],
                "start": ["1990-01-02", "1991"],
                "end": ["1990-01-05", None],
            }
        ),
        pqt,
    )
    a, b = read_quintuples(tsv), read_quintuples(pqt)
    assert [f[1:6] for f in a.facts] == [f[1:6] for f in b.facts]
    assert [f.line for f in b.facts] == [2, 3]


# --------------------------------------------------------------------------------------------------
# TGB
# --------------------------------------------------------------------------------------------------


def test_tgb_csv_and_zip(tmp_path: Path) -> None:
    text = "ts,head,tail,relation_type\n1990,Q1,Q2,P1\n1991,Q1,Q2,P1\n1991,Q3,Q2,P2\n"
    (tmp_path / "tkgl-tiny_edgelist.csv").write_text(text, encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "tkgl-tiny.zip", "w") as zf:
        zf.writestr("tkgl-tiny_edgelist.csv", text)
        zf.writestr("tkgl-tiny_static_edgelist.csv", "head,tail,relation_type\n")
    for path in (tmp_path / "tkgl-tiny_edgelist.csv", tmp_path / "tkgl-tiny.zip"):
        g = read_tgb(path)
        assert g.name == "tkgl-tiny"
        assert [(f.s, f.r, f.o, f.start, f.end, f.line) for f in g.facts] == [
            ("Q1", "P1", "Q2", TimePoint(1990), TimePoint(1990), 2),
            ("Q1", "P1", "Q2", TimePoint(1991), TimePoint(1991), 3),
            ("Q3", "P2", "Q2", TimePoint(1991), TimePoint(1991), 4),
        ]
    bad = tmp_path / "bad.csv"
    bad.write_text("ts,head,tail,relation_type\n1990-05,Q1,Q2,P1\n", encoding="utf-8")
    with pytest.raises(DataError, match="a year"):
        read_tgb(bad)
    (tmp_path / "hdr.csv").write_text("t,h,t2,r\n", encoding="utf-8")
    with pytest.raises(DataError, match="header"):
        read_tgb(tmp_path / "hdr.csv")


def _raw_hyte(folder: Path) -> list[tuple[str, str, str, str, str]]:
    ents = dict(line.rstrip("\n").split("\t") for line in (folder / "entities.dict").open(encoding="utf-8"))
    rels = dict(line.rstrip("\n").split("\t") for line in (folder / "relations.dict").open(encoding="utf-8"))
    out = []
    for line in (folder / "temporal").open(encoding="utf-8"):
        s, r, o, a, b = line.rstrip("\n").split("\t")
        out.append((ents[s], rels[r], ents[o], a, b))
    return out


@pytest.mark.mirror
@pytest.mark.slow
def test_tgb_edgelist_from_wikidata12k_matches_independent_expansion(mirror: Path, tmp_path: Path) -> None:
    raw = _raw_hyte(mirror / "wikidata12k")
    expected: Counter[tuple[str, str, str, int]] = Counter()
    for s, r, o, a, b in raw:  # TGB's rule: start..end years; start-only: the start year; no start: nothing
        if a == "None":
            continue
        end = int(a) if b == "None" else int(b)
        for y in range(int(a), end + 1):
            expected[(s, r, o, y)] += 1
    assert sum(expected.values()) == 233_018
    g = read_hyte(mirror / "wikidata12k", on_reversed="keep")
    summary = write_tgb_edgelist(g, tmp_path / "tkgl-wd.zip")
    assert summary.edges == 233_018
    assert summary.facts_without_edges == {"no start time": 1405, "reversed interval": 10}
    back = read_tgb(tmp_path / "tkgl-wd.zip")
    got = Counter((f.s, f.r, f.o, f.start.year) for f in back.facts if f.start is not None)
    assert got == expected


# --------------------------------------------------------------------------------------------------
# real HyTE datasets: counts checked against plain-Python counts over the raw files
# --------------------------------------------------------------------------------------------------


def _n_parts(t: str) -> int:
    return len(t.lstrip("-").split("_"))


def _ints(t: str) -> tuple[int, ...]:
    neg = t.startswith("-")
    parts = [int(p) for p in t.lstrip("-").split("_")]
    parts[0] = -parts[0] if neg else parts[0]
    return tuple(parts)


def _independent_shape(raw: list[tuple[str, str, str, str, str]]) -> dict[str, int]:
    shapes: Counter[str] = Counter()
    for _, _, _, a, b in raw:
        if a != "None" and b != "None":
            n = min(_n_parts(a), _n_parts(b))  # compare at the coarser precision
            if _ints(a)[:n] > _ints(b)[:n]:
                shapes["inverted"] += 1
            else:
                shapes["point" if a == b else "interval"] += 1
        elif a != "None":
            shapes["start_only"] += 1
        elif b != "None":
            shapes["end_only"] += 1
        else:
            shapes["no_time"] += 1
    return dict(shapes)


def _loader_shape(g: TemporalGraph) -> dict[str, int]:
    shapes: Counter[str] = Counter()
    for f in g.facts:
        if f.start is not None and f.end is not None:
            shapes["inverted" if f.interval.is_reversed() else "point" if f.start == f.end else "interval"] += 1
        elif f.start is not None:
            shapes["start_only"] += 1
        elif f.end is not None:
            shapes["end_only"] += 1
        else:
            shapes["no_time"] += 1
    return dict(shapes)


@pytest.mark.mirror
@pytest.mark.parametrize(
    ("name", "facts", "entities", "relations"), [("yago11k", 20_506, 10_623, 10), ("wikidata12k", 40_621, 12_554, 24)]
)
def test_real_hyte_counts(mirror: Path, name: str, facts: int, entities: int, relations: int) -> None:
    folder = mirror / name
    raw = _raw_hyte(folder)
    n_ent = sum(1 for line in (folder / "entities.dict").open(encoding="utf-8") if line.strip())
    n_rel = sum(1 for line in (folder / "relations.dict").open(encoding="utf-8") if line.strip())
    assert (len(raw), n_ent, n_rel) == (facts, entities, relations)
    g = read_hyte(folder, on_reversed="keep")
    assert len(g) == facts
    assert len({f.r for f in g.facts}) == relations
    assert [(f.s, f.r, f.o) for f in g.facts] == [(s, r, o) for s, r, o, _, _ in raw]
    # granularity mix: coarsest stated precision per fact, from the raw strings
    names = {1: Granularity.YEAR, 2: Granularity.MONTH, 3: Granularity.DAY}
    raw_gran = Counter(names[min(_n_parts(t) for t in (a, b) if t != "None")] for *_, a, b in raw)
    assert Counter(f.granularity for f in g.facts) == raw_gran
    assert _loader_shape(g) == _independent_shape(raw)
    assert g.report is not None and sum(g.report.notes.values()) == _independent_shape(raw)["inverted"]


@pytest.mark.mirror
def test_real_hyte_published_shapes(mirror: Path) -> None:
    yago = _independent_shape(_raw_hyte(mirror / "yago11k"))
    assert yago == {"point": 5016, "interval": 6424, "start_only": 8996, "inverted": 70}
    raw_wd = _raw_hyte(mirror / "wikidata12k")
    wd = _independent_shape(raw_wd)
    assert wd == {"point": 17829, "interval": 16642, "start_only": 4735, "end_only": 1405, "inverted": 10}
    periods: dict[tuple[str, str, str], set[tuple[str, str]]] = {}
    for s, r, o, a, b in raw_wd:
        periods.setdefault((s, r, o), set()).add((a, b))
    assert sum(1 for p in periods.values() if len(p) > 1) == 4422
    raw_gran = Counter(min(_n_parts(t) for t in (a, b) if t != "None") for *_, a, b in _raw_hyte(mirror / "yago11k"))
    assert raw_gran == {1: 15420, 2: 125, 3: 4961}


@pytest.mark.mirror
def test_wikidata12k_relation_labels(mirror: Path) -> None:
    g = read_hyte(mirror / "wikidata12k", on_reversed="keep")
    assert len(g.relation_labels) == 24
    assert g.relation_label("P54") == "member of sports team"
    assert not g.entity_labels


# --------------------------------------------------------------------------------------------------
# synthetic
# --------------------------------------------------------------------------------------------------


def test_synthetic_is_deterministic_and_differs_by_seed(tmp_path: Path) -> None:
    a, b, c = generate(n_facts=3000, seed=5), generate(n_facts=3000, seed=5), generate(n_facts=3000, seed=6)
    a.write_hyte(tmp_path / "a")
    b.write_hyte(tmp_path / "b")
    c.write_hyte(tmp_path / "c")
    ta, tb, tc = ((tmp_path / x / "temporal").read_bytes() for x in "abc")
    assert ta == tb and ta != tc
    for fmt in ("x.csv", "x.parquet"):
        a.write_quintuples(tmp_path / f"a{fmt}")
        b.write_quintuples(tmp_path / f"b{fmt}")
        assert (tmp_path / f"a{fmt}").read_bytes() == (tmp_path / f"b{fmt}").read_bytes()


def test_synthetic_shape() -> None:
    cfg = SyntheticConfig(n_facts=20_000, seed=3)
    data = generate(cfg)
    g = data.to_graph()
    shapes = Counter(
        "point"
        if f.start is not None and f.start == f.end
        else "interval"
        if f.start is not None and f.end is not None
        else "start_only"
        if f.start is not None
        else "end_only"
        for f in g.facts
    )
    # the kind fractions (repeats turn some facts into intervals)
    assert abs(shapes["point"] / 20_000 - cfg.p_point) < 0.05
    assert abs(shapes["start_only"] / 20_000 - cfg.p_start_only) < 0.05
    assert shapes["end_only"] > 0 and shapes["interval"] > shapes["point"] * 0.9
    assert not any(f.interval.is_reversed() for f in g.facts)
    assert any(f.start is not None and f.start.day is not None for f in g.facts)
    # heavy-tailed degrees: the busiest entity has far more facts than the mean
    degree = Counter(f.s for f in g.facts) + Counter(f.o for f in g.facts)
    assert max(degree.values()) > 20 * (sum(degree.values()) / len(degree))
    # some triples hold in several disjoint periods
    periods: dict[tuple[str, str, str], list[tuple[TimePoint, TimePoint]]] = {}
    for f in g.facts:
        if f.start is not None and f.end is not None and f.start != f.end:
            periods.setdefault((f.s, f.r, f.o), []).append((f.start, f.end))
    multi = [sorted(p, key=lambda iv: iv[0].sort_key()) for p in periods.values() if len(p) > 1]
    assert len(multi) > 0.03 * 20_000
    disjoint = sum(all(x[1].last_day() < y[0].first_day() for x, y in itertools.pairwise(p)) for p in multi)
    assert disjoint > 0.9 * len(multi)


def test_synthetic_writers_round_trip(tmp_path: Path) -> None:
    data = generate(n_facts=2000, seed=11)
    g = data.to_graph()
    want = [(f.s, f.r, f.o, f.start, f.end) for f in g.facts]
    data.write_hyte(tmp_path / "h")
    assert [(f.s, f.r, f.o, f.start, f.end) for f in read_hyte(tmp_path / "h")] == want
    for name in ("q.csv", "q.tsv", "q.parquet"):
        data.write_quintuples(tmp_path / name)
        assert [(f.s, f.r, f.o, f.start, f.end) for f in read_quintuples(tmp_path / name)] == want, name
    n = data.write_tgb(tmp_path / "tkgl-syn_edgelist.csv")
    expected = Counter()
    for s, r, o, a, b in want:
        if a is None:
            continue
        for y in range(a.year, (a if b is None else b).year + 1):
            expected[(s, r, o, y)] += 1
    back = read_tgb(tmp_path / "tkgl-syn_edgelist.csv")
    assert n == sum(expected.values()) == len(back)
    assert Counter((f.s, f.r, f.o, f.start.year) for f in back.facts if f.start) == expected
    years = [f.start.year for f in back.facts if f.start]
    assert years == sorted(years)


def test_synthetic_rejects_bad_config() -> None:
    with pytest.raises(ValueError, match="sum to 1"):
        generate(p_point=0.9)


# --------------------------------------------------------------------------------------------------
# registry
# --------------------------------------------------------------------------------------------------


def test_format_registry(tmp_path: Path) -> None:
    assert set(FORMATS) == {"hyte", "tgb", "quintuples", "table"}
    with pytest.raises(UnknownNameError, match="Did you mean hyte"):
        get_format("hyt")
    folder = make_hyte(tmp_path / "kg", ["1\t0\t0\t1982\tNone"])
    g = read(folder, "hyte")
    assert isinstance(g, TemporalGraph) and len(g) == 1


def test_parse_time_used_for_cells_matches_regex_reading() -> None:
    # YAGO cells: the reader's parse equals a regex reading written here
    for cell in ("1994_03_07", "1994_03", "1994", "-405"):
        m = re.fullmatch(r"(-?\d+)(?:_(\d+))?(?:_(\d+))?", cell)
        assert m is not None
        y, mo, d = (int(x) if x else None for x in m.groups())
        assert parse_time(cell) == TimePoint(y, mo, d)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------------
# the vectorised HyTE path gives exactly what the line-by-line path gives
# --------------------------------------------------------------------------------------------------


def _same(a: TemporalGraph, b: TemporalGraph) -> None:
    assert tuple(a.facts) == tuple(b.facts)
    assert not isinstance(b.facts, FactColumns)  # the line-by-line path builds Facts
    assert a.report is not None and b.report is not None
    assert a.report.to_dict() == b.report.to_dict()
    assert (a.entity_labels, a.relation_labels) == (b.entity_labels, b.relation_labels)


@pytest.mark.parametrize("on_duplicate", ["keep", "drop"])
def test_hyte_fast_path_equals_slow_path_on_synthetic(tmp_path: Path, on_duplicate: str) -> None:
    generate(n_facts=5000, seed=4, n_entities=30, n_relations=2).write_hyte(tmp_path / "h")  # many duplicates
    fast = read_hyte(tmp_path / "h", on_duplicate=on_duplicate)  # type: ignore[arg-type]
    slow = read_hyte(tmp_path / "h", on_duplicate=on_duplicate, fast=False)  # type: ignore[arg-type]
    _same(fast, slow)
    assert fast.report is not None and (fast.report.notes or fast.report.skipped)


def test_hyte_fast_path_falls_back_on_bad_rows(tmp_path: Path) -> None:
    rows = ["1\t0\t0\t1990\t1995", "", "1\t0\t2\t2012\t2010", "1\t0\t0\t1994_13_01\tNone", "9\t0\t0\t1990\t1991"]
    folder = make_hyte(tmp_path / "kg", rows)
    for kwargs in ({"on_reversed": "skip"}, {"on_reversed": "keep"}, {"on_reversed": "swap"}):
        _same(
            read_hyte(folder, on_bad_row="skip", **kwargs), read_hyte(folder, on_bad_row="skip", fast=False, **kwargs)
        )  # type: ignore[arg-type]
    (folder / "train.txt").write_text("1\t0\t0\t1990\t1995\n", encoding="utf-8")
    (folder / "test.txt").write_text("1\t0\t0\t1990\t1995\n2\t1\t0\t2000\t2001\n", encoding="utf-8")
    files = ("train.txt", "test.txt")
    _same(read_hyte(folder, files=files), read_hyte(folder, files=files, fast=False))
    as_of = TimePoint(2000)
    _same(
        read_hyte(folder, files=files, as_of=as_of, on_bad_row="skip"),
        read_hyte(folder, files=files, as_of=as_of, on_bad_row="skip", fast=False),
    )


def test_bulk_paths_skip_rows_not_yet_true_themselves(tmp_path: Path) -> None:
    """A row that starts after as_of is skipped and counted by the bulk readers (columns, no Fact made), exactly
    as the row readers skip it: same facts, ids, lines, report and labels."""
    as_of = TimePoint(2026)
    rows = ["1\t0\t0\t1990\t1995", "1\t0\t2\t2031\tNone", "0\t1\t1\t2000\t2001", "2\t1\t0\t2040_03\t2041"]
    folder = make_hyte(tmp_path / "kg", rows)
    fast = read_hyte(folder, as_of=as_of, on_bad_row="skip")
    assert isinstance(fast.facts, FactColumns)  # read in bulk: the row reader did not run
    _same(fast, read_hyte(folder, as_of=as_of, on_bad_row="skip", fast=False))
    assert [f.id for f in fast.facts] == [0, 2] and [r.line for r in fast.report.skipped] == [2, 4]  # type: ignore[union-attr]
    assert "Q42" not in fast.facts.entities  # only the skipped rows name it: no code for it
    (folder / "train.txt").write_text("1\t0\t0\t2030\t2031\n1\t0\t0\t1990\t1995\n", encoding="utf-8")
    files = ("train.txt", "temporal")  # a file before the last: each row admitted one by one
    _same(
        read_hyte(folder, files=files, as_of=as_of, on_bad_row="skip"),
        read_hyte(folder, files=files, as_of=as_of, on_bad_row="skip", fast=False),
    )
    path = tmp_path / "q.csv"
    path.write_text(
        "s,r,o,start,end,s_label\nQ1,P1,Q2,1990,1995,Alice\nQ5,P1,Q2,2031,,Eve\nQ1,P1,Q3,1996,,Alicia\n",
        encoding="utf-8",
    )
    g = _same_q(path, as_of=as_of, on_bad_row="skip")
    assert isinstance(g.facts, FactColumns) and g.entity_labels == {"Q1": "Alice"}  # Eve's row was skipped


@pytest.mark.mirror
@pytest.mark.parametrize("name", ["yago11k", "wikidata12k"])
def test_hyte_fast_path_equals_slow_path_on_real_data(mirror: Path, name: str) -> None:
    fast = read_hyte(mirror / name, on_reversed="keep")
    assert isinstance(fast.facts, FactColumns)  # the bulk path builds no Fact objects
    _same(fast, read_hyte(mirror / name, on_reversed="keep", fast=False))


def test_bulk_paths_give_columns_and_the_row_paths_facts(tmp_path: Path) -> None:
    data = generate(n_facts=3000, seed=9, n_entities=50, n_relations=4)
    data.write_hyte(tmp_path / "h")
    data.write_quintuples(tmp_path / "q.csv")
    assert isinstance(data.to_graph().facts, FactColumns)
    for fast in (read_hyte(tmp_path / "h", on_reversed="keep"), read_quintuples(tmp_path / "q.csv")):
        assert isinstance(fast.facts, FactColumns)
        assert [(f.s, f.r, f.o, f.start, f.end) for f in fast.facts] == [
            (f.s, f.r, f.o, f.start, f.end) for f in data.to_graph().facts
        ]
    two = read_hyte(tmp_path / "h", files=("temporal", "temporal"), on_reversed="keep")  # duplicates across files
    assert not isinstance(two.facts, FactColumns) and len(two) == 6000


def test_table_non_utf8_and_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    head, bad = b"Name,Start,End\n", b"Caf\xe9,2001,2002\n"
    path.write_bytes(head + b"A,2001,2003\n" + bad + b"\nB,2004,\n")
    with pytest.raises(DataError) as exc:
        read_table(path)
    offset = len(head) + len(b"A,2001,2003\n") + bad.index(b"\xe9")
    assert exc.value.line == 3 and f"byte offset {offset}" in str(exc.value)
    t = read_table(path, on_bad_row="skip")
    assert t.column("Name") == ["A", "B"] and t.lines == (2, 5)
    assert t.report is not None and len(t.report.skipped) == 1 and sum(t.report.notes.values()) == 1


time_points = st.one_of(
    st.none(),
    st.builds(TimePoint, st.integers(-500, 2100)),
    st.builds(TimePoint, st.integers(1, 2100), st.integers(1, 12)),
    st.builds(TimePoint, st.integers(1, 2100), st.integers(1, 12), st.integers(1, 28)),
)
names = st.sampled_from(["<A_b>", "<C_(d)>", "Q1", "Q22", "e"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(names, st.sampled_from(["<r>", "P1"]), names, time_points, time_points), max_size=25))
def test_hyte_write_read_round_trip_property(
    rows: list[tuple[str, str, str, TimePoint | None, TimePoint | None]],
) -> None:
    import tempfile

    graph = TemporalGraph("g", tuple(Fact(i, *row, i + 1) for i, row in enumerate(rows)))
    with tempfile.TemporaryDirectory() as tmp:
        write_hyte(graph, tmp)
        for fast in (True, False):
            back = read_hyte(tmp, on_reversed="keep", fast=fast)
            assert [(f.s, f.r, f.o, f.start, f.end) for f in back.facts] == list(rows)
            n_rev = sum(1 for *_, a, b in rows if a is not None and b is not None and Interval(a, b).is_reversed())
            assert (
                back.report is not None
                and sum(v for k, v in back.report.notes.items() if k.startswith("reversed")) == n_rev
            )


def _same_q(path: Path, **kwargs: object) -> TemporalGraph:
    fast = read_quintuples(path, **kwargs)  # type: ignore[arg-type]
    slow = read_quintuples(path, fast=False, **kwargs)  # type: ignore[arg-type]
    _same(fast, slow)
    return fast


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet"])
def test_quintuples_fast_path_equals_slow_path(tmp_path: Path, suffix: str) -> None:
    data = generate(n_facts=4000, seed=8, n_entities=40, n_relations=3)
    data.write_quintuples(tmp_path / f"q{suffix}")
    g = _same_q(tmp_path / f"q{suffix}")
    assert g.report is not None and g.report.notes  # duplicates were counted
    _same_q(tmp_path / f"q{suffix}", on_duplicate="drop")
    _same_q(tmp_path / f"q{suffix}", as_of=TimePoint(1990), on_bad_row="skip")


def test_quintuples_fast_path_with_labels_and_bad_rows(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    path.write_text(
        "s,r,o,start,end,s_label\nQ1,P1,Q2,1990,1995,Alice\nQ1,P1,Q3,1996,,Alicia\n Q4 ,P2,Q1,,2001-02,\n",
        encoding="utf-8",
    )
    g = _same_q(path)
    assert g.entity_labels == {"Q1": "Alice"} and g.facts[2].s == "Q4"
    bad = tmp_path / "bad.csv"
    bad.write_text("s,r,o,start,end\nQ1,P1,Q2,1990,1995\nQ1,,Q2,1990,1995\nQ1,P1,Q2,2012,2010\n\n", encoding="utf-8")
    _same_q(bad, on_bad_row="skip", on_reversed="keep")
    quoted = tmp_path / "quoted.csv"
    quoted.write_text('s,r,o,start,end\n"Q1",P1,"Q,2",1990,1995\n', encoding="utf-8")
    assert _same_q(quoted).facts[0].o == "Q,2"
