"""Tables of domains chronoqa has no declarations or phrase file for: stays, contracts, memberships.

Built with defaults only, each gives Allen questions over many relations, worded from its column names (the row
read as what it is: "Ada Costa's doctor during the stay that began ..."), and every gold set is recomputed here
from the generated rows with the independent oracle (``table_oracle``), never with the builder's code.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from pathlib import Path

import pytest

from chronoqa.generate.table import TableBuildConfig, build_table_benchmark
from chronoqa.generate.table.build import read_table_files
from chronoqa.generate.table.verbalise import PhraseBook, row_noun
from chronoqa.records import Question
from table_domains import DOMAINS, write_domain
from table_oracle import BRUTE, span, unit

#: What one row of each domain is, as a reader of the questions must see it.
NOUNS = {"hospital_stays": "stay", "employment_contracts": "contract", "party_memberships": "membership"}

#: What each relation's question must state about the row, with the reference's dates ("{b0}", "{b1}"), in the
#: singular row form. The statement is the relation: the gold is checked against ``BRUTE`` separately.
STATES = {
    "meets": "ended immediately before {b0}",
    "met-by": "began immediately after {b1}",
    "overlaps": "began before {b0} and ended on or after {b0} but before {b1}",
    "overlapped-by": "began after {b0} but no later than {b1}, and continued after {b1}",
    "starts": "began {at} {b0} and ended before {b1}",
    "started-by": "began {at} {b0} and continued after {b1}",
    "during": "began after {b0} and ended before {b1}",
    "contains": "began before {b0} and continued after {b1}",
    "finishes": "began after {b0} and ended {at} {b1}",
    "finished-by": "began before {b0} and ended {at} {b1}",
    "equals": "began {at} {b0} and ended {at} {b1}",
}
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def _readable(iso: str) -> str:
    """An ISO date as the questions print it, written here from scratch: ``2018-11-08`` → ``8 November 2018``."""
    parts = [int(p) for p in iso.split("-")]
    if len(parts) == 1:
        return str(parts[0])
    if len(parts) == 2:
        return f"{MONTHS[parts[1] - 1]} {parts[0]}"
    return f"{parts[2]} {MONTHS[parts[1] - 1]} {parts[0]}"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[list[str], list[list[str]], list[Question]]]:
    folder = Path(tmp_path_factory.mktemp("domains"))
    out = {}
    for name, make in DOMAINS.items():
        tables, _ = read_table_files([write_domain(name, folder)])
        result = build_table_benchmark(tables, TableBuildConfig())
        header, rows = make(0)
        out[name] = (header, rows, list(result.questions))
    return out


def _gold(header: list[str], rows: list[list[str]], q: Question) -> set[str]:
    """The answers of an Allen or time-alignment question, from the raw rows: key, relation and reference."""
    lhs, rhs = str(q.logical_form["tfd"]).split("->")
    key_cols = lhs.split(",")
    g, as_of = q.granularity, str(q.as_of)
    key = list(q.logical_form["key"])
    ref = q.reference or {}
    b0, b1 = unit(str(ref["start"]), g, "lo"), unit(str(ref["end"]), g, "hi")
    out = set()
    for row in rows:
        if [row[header.index(c)] for c in key_cols] != key:
            continue
        a0, a1 = span(row[-2], row[-1] or None, g, as_of)
        holds = BRUTE[q.allen](a0, a1, b0, b1) if q.allen else a0 <= b0 <= a1
        if holds:
            out.add(row[header.index(rhs)])
    return out


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_allen_questions_without_declarations(built, name: str) -> None:
    """At least 100 Allen questions over at least 8 relations, none needing a phrase file."""
    _, _, questions = built[name]
    allen = [q for q in questions if q.operator == "allen"]
    assert len(allen) >= 100
    assert len({q.allen for q in allen}) >= 8


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_gold_recomputed_from_rows(built, name: str) -> None:
    """Every Allen and "as of" answer set equals the rows' values standing in the relation to the reference."""
    header, rows, questions = built[name]
    checked = 0
    for q in questions:
        if q.operator not in ("allen", "time_alignment"):
            continue
        assert set(q.answers) == _gold(header, rows, q), q.question
        checked += 1
    assert checked >= 100


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_wording_reads_the_row_as_what_it_is(built, name: str) -> None:
    """The key's possessive, the row noun and the relation stated with the reference's dates; no column name."""
    header, _, questions = built[name]
    noun = NOUNS[name]
    for q in (q for q in questions if q.operator == "allen"):
        lhs, rhs = str(q.logical_form["tfd"]).split("->")
        key = list(q.logical_form["key"])
        text = q.question
        assert text.endswith("?") and text[0].isupper()
        if "," not in lhs:
            label = rhs.lower().replace("_", " ")
            forms = "|".join(re.escape(f) for f in (label, label + "s", label + "es", label[:-1] + "ies"))
            assert re.search(rf"{re.escape(key[0])}'s ({forms}) during the ", text), text
        assert re.search(rf"during the {noun}s? that ", text), text
        ref = q.reference or {}
        at = "on" if q.granularity == "day" else "in"
        state = STATES[str(q.allen)].format(b0=_readable(str(ref["start"])), b1=_readable(str(ref["end"])), at=at)
        if q.allen == "contains" and ref["start"] == ref["end"]:  # one unit inside the row, named once
            state = f"began before and continued after {_readable(str(ref['start']))}"
        assert text.endswith(f" that {state}?"), (text, state)
        assert not any(c in text for c in header if "_" in c), text
        assert not re.search(r"\b(whose|period|event)\b", text), text


def test_plural_follows_answers_and_rows(built) -> None:
    """Several answers ask in the plural ("Who were ... doctors"); one answer over two rows keeps "was"."""
    _, _, questions = built["hospital_stays"]
    allen = [q for q in questions if q.operator == "allen"]
    several = [q for q in allen if len(q.answers) > 1]
    assert several and all(q.question.startswith(("Who were", "What were")) for q in several)
    one = [q for q in allen if len(q.answers) == 1]
    assert all(q.question.startswith(("Who was", "What was")) for q in one)
    rows = Counter(len(q.S_star) > 1 for q in one)
    assert all(" stays that " in q.question for q in one if len(q.S_star) > 1) and rows[False] > 0


def test_named_events_stay_events(tmp_path: Path) -> None:
    """A table of short spans a column names (each Games edition one span) keeps the event families."""
    path = tmp_path / "games.csv"
    lines = ["Game_name,Country,City,Start,End"]
    for i, (country, city) in enumerate([("Norway", "Oslo"), ("Italy", "Rome"), ("Norway", "Lillehammer")] * 4):
        year = 1950 + 4 * i
        lines.append(f"{city} {year},{country},{city},{year}-02-01,{year}-02-14")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tables, _ = read_table_files([path])
    result = build_table_benchmark(tables, TableBuildConfig())
    assert result.manifest["tables"]["games"]["kind"]["kind"] == "event"
    assert not any(q.operator == "allen" for q in result.questions)


def test_time_columns_found_by_their_words(tmp_path: Path) -> None:
    """Admission / Discharge are read as a row's start and end without being named."""
    path = write_domain("hospital_stays", tmp_path)
    (table,), _ = read_table_files([path])
    assert (table.start_column, table.end_column) == ("Admission", "Discharge")
    assert table.intervals[0].start is not None
    first = datetime.date.fromisoformat(DOMAINS["hospital_stays"](0)[1][0][4])
    assert str(table.intervals[0].start) == first.isoformat()


def test_phrase_file_polishes(tmp_path: Path) -> None:
    """A phrase file may name the row ("job") or word a TFD its own way, which then keeps the "whose" form."""
    tables, _ = read_table_files([write_domain("employment_contracts", tmp_path)])
    book = PhraseBook(
        tfds={"Employee->Employer": {"subject": "the employer of {Employee}", "wh": "What was", "period": "job"}},
        tables={"employment_contracts": {"row": "posting"}},
    )
    result = build_table_benchmark(tables, TableBuildConfig(), phrases=book)
    allen = [q for q in result.questions if q.operator == "allen"]
    by_tfd = {str(q.logical_form["tfd"]): q.question for q in allen}
    assert re.search(r"^What (was|were) the employers? of .+ whose jobs? (began|ended)", by_tfd["Employee->Employer"])
    assert re.search(r"'s positions? during the postings? that ", by_tfd["Employee->Position"])


def test_status_table_with_history_gets_allen_too(tmp_path: Path) -> None:
    """Most memberships still held make a status table; its TFDs still give the Allen families, gold from rows."""
    header, rows = DOMAINS["party_memberships"](0, 80, rows_each=(1, 2), still=0.9)
    path = tmp_path / "current.csv"
    path.write_text("\n".join(",".join(r) for r in [header, *rows]) + "\n", encoding="utf-8")
    tables, _ = read_table_files([path])
    result = build_table_benchmark(tables, TableBuildConfig())
    assert result.manifest["tables"]["current"]["kind"]["kind"] == "status"
    allen = [q for q in result.questions if q.operator == "allen"]
    assert len(allen) >= 100 and len({q.allen for q in allen}) >= 8
    for q in allen:
        assert set(q.answers) == _gold(header, rows, q), q.question
    ops = Counter(q.operator for q in result.questions)
    assert ops["status_since"] > 0 and ops["time_alignment"] == 0  # "since when" already asks the current state


def test_row_noun_from_words_that_say_what_a_row_is() -> None:
    """A row's noun comes from words that name it whatever the key; a country's ruling party is no membership."""
    assert row_noun(("Patient", "Doctor"), "Admission", "Discharge") == "stay"
    assert row_noun(("Employee", "Employer"), "Contract_start", "Contract_end") == "contract"
    assert row_noun(("Member", "Party"), "Joined", "Left") == "membership"
    assert row_noun(("Country", "Party"), "Start", "End") == "period"
    assert row_noun(("Doctor", "Hospital"), "Start", "End") == "period"
