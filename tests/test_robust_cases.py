"""Hostile cases next to those the other robustness tests pin: a relative ``--out`` that climbs into a user's
folder, a second run nested in a held run folder, judgments files of the wrong shape at the top level, and the
annotation page opened in a browser with labels that open HTML comments and scripts.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_fixtures import write_fixture
from chronoqa.artifacts.release import load_release
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.escape import md_code
from chronoqa.outdir import LOCK_FILE
from chronoqa.validate import JUDGMENTS_FORMAT, import_judgments, read_sheet, write_sheet
from cli_in_process import cli as _cli
from report_fixtures import evil_release


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


@pytest.mark.parametrize("command", ["run", "retrieve", "answer", "export", "validate"])
def test_a_relative_out_climbing_into_a_user_folder_touches_none_of_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    rel, _ = write_fixture(tmp_path / "fixture")
    mine = tmp_path / "mine"
    for name in (".tmp-build-x/keep.txt", ".old-report-y/keep.txt", ".tmp-mine/a", "report/summary.md", "sub/b/c"):
        (mine / name).parent.mkdir(parents=True, exist_ok=True)
        (mine / name).write_text(f"the user's {name}\n")
    before = _snapshot(mine)
    monkeypatch.chdir(mine / "sub" / "b")
    args = {
        "run": ["run", "--bench", str(rel), "--out", "../../", "--force"],
        "retrieve": ["retrieve", "--bench", str(rel), "-r", "bm25", "--out", "../../"],
        "answer": ["answer", "--bench", str(rel), "--answerer", "prior", "--out", "../../"],
        "export": ["export", str(rel), "--to", "beir", "--out", "../../"],
        "validate": ["validate", "sample", str(rel), "--out", "../../", "--n", "2"],
    }[command]
    res = _cli(*args)
    assert res.exit_code == 2 and "was not written by chronoqa" in res.output and "Traceback" not in res.output
    assert _snapshot(mine) == before  # the user's .tmp-*/.old-* folders and files all kept


@pytest.fixture
def held_run(tmp_path: Path) -> Iterator[Path]:
    """A run folder whose lock a running ``chronoqa run`` holds (another open file description)."""
    folder = tmp_path / "RUN"
    folder.mkdir()
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    os.write(fd, b"4242\n")
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield folder
    finally:
        os.close(fd)


@pytest.mark.parametrize("nested", ["evaluate", "build", "retrieve/x"])
def test_a_second_run_nested_in_a_held_run_folder_is_refused(tmp_path: Path, held_run: Path, nested: str) -> None:
    rel, _ = write_fixture(tmp_path)
    res = _cli("run", "--bench", str(rel), "--out", str(held_run / nested))
    assert res.exit_code == 2 and "in use by another chronoqa run (process 4242)" in res.output
    assert "--wait" in res.output and "Traceback" not in res.output
    assert sorted(p.name for p in held_run.iterdir()) == [LOCK_FILE]  # nothing written inside


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ([{"id": "q1"}], "format"),  # the judgments list saved without its envelope
        ({"judgments": {"q1": {"clear": "yes"}}}, "format"),
        ("just text", "format"),
        ({"format": JUDGMENTS_FORMAT, "annotator": "a", "judgments": {"q1": "yes"}}, "judgments"),
        ({"format": JUDGMENTS_FORMAT, "annotator": "a", "judgments": [{"id": "q1", "clear": ["yes"]}]}, "clear"),
        ({"format": JUDGMENTS_FORMAT, "annotator": "a", "judgments": [{"id": "q1", "comment": 5}]}, "comment"),
        ({"format": JUDGMENTS_FORMAT, "annotator": "  ", "judgments": []}, "annotator"),
    ],
)
def test_a_judgments_file_of_the_wrong_shape_is_one_error(tmp_path: Path, doc: object, field: str) -> None:
    path = tmp_path / "a.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError) as info:
        read_sheet(path, {"q1"})
    assert info.value.field == field and info.value.file == str(path)
    rel, _ = write_fixture(tmp_path)
    res = _cli("validate", "import", str(rel), str(path), "--out", str(tmp_path / "v"))
    assert res.exit_code == 2 and "Traceback" not in res.output and str(path) in res.output
    assert not (tmp_path / "v").exists()


@pytest.mark.parametrize("n_boot", [0, -5])
def test_a_bootstrap_below_one_is_refused_by_the_library_too(tmp_path: Path, n_boot: int) -> None:
    rel, _ = write_fixture(tmp_path)
    path = tmp_path / "a.json"
    path.write_text(json.dumps({"format": JUDGMENTS_FORMAT, "annotator": "a", "judgments": []}), encoding="utf-8")
    with pytest.raises(ChronoqaError, match="--bootstrap"):
        import_judgments(load_release(rel), [path], tmp_path / "v", n_boot=n_boot)
    assert not (tmp_path / "v").exists()


HOSTILE = "<!--<script> </script><img src=x onerror=window.__pwned=1> **b** [l](javascript:alert(1)) | c"


def test_the_annotation_page_with_hostile_labels_shows_them_as_text(tmp_path: Path) -> None:
    from cdp import Browser, find_chromium

    exe = find_chromium()
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed: .ci/run installs it (apt-get install -y chromium)")
        pytest.skip("chromium not found: `apt-get install -y chromium` to run the annotation page's browser test")
    rel = load_release(evil_release(tmp_path, HOSTILE))
    folder = write_sheet(rel, tmp_path / "v", 10)
    ids = json.loads((folder / "sample.json").read_text(encoding="utf-8"))["ids"]
    with Browser(exe) as b:
        b.open(folder / "sheet.html", ready="(document.getElementById('item')?.textContent || '').length > 0")
        # the page ran: its data parsed, every item is there, no element or comment came from the data
        assert b.js("JSON.parse(document.getElementById('items').textContent).length") == len(ids)
        assert b.js("document.querySelectorAll('script').length") == 5
        assert b.js("document.querySelectorAll('img, iframe, a').length") == 0
        assert b.js("document.createTreeWalker(document.body, NodeFilter.SHOW_COMMENT).nextNode() === null")
        assert b.js("typeof window.__pwned") == "undefined"
        for _ in ids:  # step through every item: the hostile one shows its text as written
            if "Bob Ray born" in b.js("document.getElementById('item').textContent"):
                break
            b.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'j'}))")
        assert "Where was Bob Ray born?" + HOSTILE in b.js("document.getElementById('item').textContent")
        assert b.errors == []


def _md_markup(text: str) -> list[str]:
    """Raw HTML and links a CommonMark (+ tables) renderer would make of ``text``."""
    markdown_it = pytest.importorskip("markdown_it")
    found = []
    for tok in markdown_it.MarkdownIt("commonmark").enable("table").parse(text):
        if tok.type == "html_block":
            found.append(tok.content)
        found += [c.type for c in tok.children or [] if c.type in ("html_inline", "link_open", "image")]
    return found


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=30), st.booleans())
def test_a_code_span_shows_any_name_as_written(name: str, table: bool) -> None:
    markdown_it = pytest.importorskip("markdown_it")
    shown = name.replace("\x00", "\ufffd")  # CommonMark shows NUL as U+FFFD, wherever it is
    span = md_code(name, table=table)
    text = f"| a |\n|---|\n| {span} |\n" if table else f"x {span} y\n"
    codes = [
        c.content
        for tok in markdown_it.MarkdownIt("commonmark").enable("table").parse(text)
        for c in tok.children or []
        if c.type == "code_inline"
    ]
    if shown.strip(" ") and not any(ch in shown for ch in "\x0b\x0c\x85\u2028\u2029\r\n"):
        assert codes == [shown]
    assert md_code("playsFor") == "`playsFor`"  # a plain name keeps its bytes


def test_kg_datacard_shows_a_hostile_dataset_and_relation_as_text(tmp_path: Path) -> None:
    import chronoqa

    rel = "<plays`For|x>" + HOSTILE
    facts = [
        chronoqa.Fact(i, f"<P{i % 40}>", rel, f"<O{i % 30}>", chronoqa.TimePoint(1960 + i % 50),
                      chronoqa.TimePoint(1963 + i % 50), i + 1)
        for i in range(300)
    ]  # fmt: skip
    graph = chronoqa.TemporalGraph(HOSTILE, facts, {}, {rel: "plays for"})
    config = chronoqa.KGBuildConfig(n_questions=20, seed=0, generic_phrases=True, allow_ids=True)
    build = chronoqa.build_kg_benchmark(graph, config)
    card = (build.write(tmp_path / "release") / "DATACARD.md").read_text(encoding="utf-8")
    assert _md_markup(card) == []
    assert "Data card: " in card and "&lt;img src=x onerror=window.\\_\\_pwned=1&gt;" in card


def test_table_datacard_shows_hostile_table_names_and_answers_as_text(tmp_path: Path) -> None:
    name = "lead<img src=x>_|ers"
    csv = tmp_path / f"{name}.csv"
    rows = [f"A,President,x{i}<b>|*y*</b>,{1900 + 4 * i},{1904 + 4 * i}" for i in range(20)]
    csv.write_text("Country,Role,Name,Start,End\n" + "\n".join(rows) + "\n", encoding="utf-8")
    res = _cli("build", "table", str(csv), "--out", str(tmp_path / "rel"), "--tfd", "Country,Role->Name",
               "--per-cell", "2")  # fmt: skip
    assert res.exit_code == 0, res.output
    card = (tmp_path / "rel" / "DATACARD.md").read_text(encoding="utf-8")
    assert _md_markup(card) == [] and "lead&lt;img src=x&gt;\\_\\|ers" in card
