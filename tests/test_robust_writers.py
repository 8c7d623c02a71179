"""Every writer, fed hostile text: it round-trips through the writer's own reader, or is refused with one clear
error; in HTML and Markdown it is never markup.

Writers: the release (questions, corpus as JSONL and Parquet), run files (JSONL and TREC), answers, the
evaluate outputs (metrics and verdicts), the report (HTML and Markdown), the exports (Hugging Face card,
Croissant, BEIR, lm-eval) and the validation sheet (page, CSV, summary). Hostile text: markup (HTML comment and
script openers, Markdown links, tables and headings, YAML front matter), NUL and other control characters,
CR/LF and Unicode line breaks, byte-order marks, bidi controls, combining marks, astral characters, huge
fields. Invalid UTF-8 reaches the writers only through their inputs; those are refused by the readers, one line
naming the file, exit 2 (the last test).
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from answer_fixtures import FACTS, doc, questions, write_fixture
from chronoqa.artifacts.answers import AnswerRecord, read_answers, write_answers
from chronoqa.artifacts.metrics import AnswerVerdict, read_verdicts, write_verdicts
from chronoqa.artifacts.release import FunctionalFlags, load_release, write_release
from chronoqa.artifacts.runs import RunHit, RunLine, read_run, write_run
from chronoqa.errors import ChronoqaError
from chronoqa.export import export_release
from chronoqa.report import build_explorer, build_summary, render_html, render_markdown
from chronoqa.validate import write_sheet
from report_fixtures import evil_release, write_answer_folder, write_eval_folder

markdown_it = pytest.importorskip("markdown_it")
yaml = pytest.importorskip("yaml")

BUDGET = int(os.environ.get("CHRONOQA_FUZZ_EXAMPLES", "6"))
FUZZ = settings(
    max_examples=BUDGET, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
pytestmark = pytest.mark.fuzz

HOSTILE = [
    "<!--<script>",
    "</script><script>window.__pwned=1</script>",
    '<img src=x onerror="alert(1)">',
    "a | b\n# heading\n---\nkey: value",
    "[click](javascript:alert(1)) `code` *em* _em_ \\| \\",
    'x" onmouseover="y',
    "line\r\nbreak\rmore\n",
    "nul\x00byte \x1b[31m \x7f",
    "\u2028\u2029\x85\ufeff",
    "\u202eevil\u202c e\u0301 \U0001f600 \U00010348",
    "---\ntitle: x\n---",
    "x" * 20_000,
]
# hostile fragments and arbitrary text; surrogates excluded (no UTF-8 file can hold them)
TEXT = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=40),
    st.lists(
        st.sampled_from(["<", "</", "<!--", "<script", "-->", "&", "|", "\\", "\n", "\r", "#", "`", "[", "]", "a"]),
        min_size=1,
    ).map("".join),
)


def _tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("w")


def _strings(obj: object) -> list[str]:
    """Every string inside parsed JSON (keys and values)."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [x for k, v in obj.items() for x in (k, *_strings(v))]
    if isinstance(obj, list):
        return [x for v in obj for x in _strings(v)]
    return []


class _Html(HTMLParser):
    """The start tags of a page, and the text of its ``<script type=application/json>`` elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.json: list[str] = []
        self._in_json = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self._in_json = tag == "script" and ("type", "application/json") in attrs

    def handle_endtag(self, tag: str) -> None:
        self._in_json = False

    def handle_data(self, data: str) -> None:
        if self._in_json:
            self.json.append(data)

    def data(self) -> list[str]:
        """Every string of the page's JSON elements, each element parsed on its own."""
        return [x for blob in self.json for x in _strings(json.loads(blob))]


def _parse_html(page: str) -> _Html:
    doc = _Html()
    doc.feed(page)
    doc.close()
    return doc


def _md_html_tokens(text: str) -> list[str]:
    """Raw HTML a Markdown renderer would pass through (blocks and inline), and links it would make."""
    found = []
    for tok in markdown_it.MarkdownIt("commonmark").enable("table").parse(text):
        if tok.type == "html_block":
            found.append(tok.content)
        for child in tok.children or []:
            if child.type in ("html_inline", "link_open", "image"):
                found.append(child.type + ":" + (child.content or ""))
    return found


# -- the release and its corpus -------------------------------------------------------------------------------


@FUZZ
@given(s=TEXT, fmt=st.sampled_from(["jsonl", "parquet", "both"]))
def test_release_and_corpus_round_trip(tmp_path_factory: pytest.TempPathFactory, s: str, fmt: str) -> None:
    root = _tmp(tmp_path_factory)
    qs = questions()
    qs[0] = replace(qs[0], question=s, answers=(s,))
    corpus = [doc(i) for i in range(len(FACTS))]
    corpus[0] = replace(corpus[0], text=s, s=s)
    flags = [FunctionalFlags(q.id, True, True) for q in qs]
    write_release(root / "rel", qs, corpus, flags, {"name": s}, "# card\n", corpus_format=fmt)
    rel = load_release(root / "rel")
    assert rel.questions[0].question == s and rel.questions[0].answers == (s,)
    back = {d.doc_id: d for d in rel.corpus}
    assert back[corpus[0].doc_id].text == s and back[corpus[0].doc_id].s == s
    assert rel.manifest["name"] == s


# -- run files --------------------------------------------------------------------------------------------------


@FUZZ
@given(s=TEXT)
def test_run_files_round_trip_the_hit_text(tmp_path_factory: pytest.TempPathFactory, s: str) -> None:
    root = _tmp(tmp_path_factory)
    d1, d2 = doc(0).doc_id, doc(1).doc_id
    hits = (RunHit(d1, 1, 2.0, s, "r" + s, s, "2001", None), RunHit(d2, 2, 1.0, "a", "b", "c", None, "2003"))
    path = write_run(root, "bm25", [RunLine("q1", hits)], {"spec": s})
    back = read_run(path)
    assert [tuple(h) for h in back.lines[0].hits] == [tuple(h) for h in hits]
    trec = read_run(path.with_name("bm25.run.trec"), docs=[doc(0), doc(1)])
    assert [(h.doc_id, h.rank) for h in trec.lines[0].hits] == [(d1, 1), (d2, 2)]


@pytest.mark.parametrize("bad", ["d 1", "d\t1", "d\n1", "d\r1", "", "d\x0b1"])
def test_an_id_a_trec_run_cannot_carry_is_refused(tmp_path: Path, bad: str) -> None:
    hits = (RunHit(bad, 1, 1.0, "a", "b", "c", None, None),)
    with pytest.raises(ChronoqaError, match="TREC"):
        write_run(tmp_path, "bm25", [RunLine("q1", hits)], {})
    with pytest.raises(ChronoqaError, match="TREC"):
        write_run(tmp_path, "bm25", [RunLine(bad or "q 1", (RunHit("d1", 1, 1.0, "a", "b", "c", None, None),))], {})
    assert not list(tmp_path.glob("bm25.run*"))


# -- answers and the evaluate outputs ---------------------------------------------------------------------------


@FUZZ
@given(s=TEXT)
def test_answers_and_verdicts_round_trip(tmp_path_factory: pytest.TempPathFactory, s: str) -> None:
    root = _tmp(tmp_path_factory)
    recs = [AnswerRecord("q1", "a", "ok", s, s, None, s), AnswerRecord("q2", "a", "error", None, None, s, None)]
    write_answers(root / "ans", recs, {"answerer": s})
    assert read_answers(root / "ans") == recs
    rows = [AnswerVerdict(qid="q1", outcome="wrong", A=0, T=None, answer=s)]
    write_verdicts(root / "ev", "answers", "n" + s[:50], rows)
    assert read_verdicts(root / "ev", "answers", "n" + s[:50]) == rows


# -- the report -------------------------------------------------------------------------------------------------


@FUZZ
@given(s=TEXT)
def test_report_shows_hostile_labels_and_answers_as_text(tmp_path_factory: pytest.TempPathFactory, s: str) -> None:
    root = _tmp(tmp_path_factory)
    rel, ev = write_eval_folder(root, release=evil_release(root, s))
    write_answer_folder(ev, "ans" + s[:30], {"q1": s, "q4": s})
    summary, ex = build_summary(rel, ev), build_explorer(rel, ev)
    page = _parse_html(render_html(summary, ex))
    assert page.tags.count("script") == 2 and "img" not in page.tags  # the report's own two scripts, no more
    assert any(s in x for x in page.data())  # the data keeps its text
    assert _md_html_tokens(render_markdown(summary, ex)) == []


class _TaskLoader(yaml.SafeLoader):
    """PyYAML's safe loader that reads lm-eval's ``!function module.name`` tags as plain strings."""


_TaskLoader.add_multi_constructor("!", lambda loader, suffix, node: loader.construct_scalar(node))


# -- the exports ------------------------------------------------------------------------------------------------


@FUZZ
@given(s=TEXT)
def test_exports_keep_hostile_text_as_data(tmp_path_factory: pytest.TempPathFactory, s: str) -> None:
    root = _tmp(tmp_path_factory)
    rel = evil_release(root, s)
    export_release(rel, "all", root / "out")
    card = (root / "out" / "hf" / "README.md").read_text(encoding="utf-8")
    front, body = card.split("\n---\n", 1)
    assert isinstance(yaml.safe_load(front.removeprefix("---\n")), dict)
    assert _md_html_tokens(body) == []
    json.loads((root / "out" / "croissant" / "croissant.json").read_text(encoding="utf-8"))
    queries = [json.loads(x) for x in (root / "out" / "beir" / "queries.jsonl").read_text().split("\n") if x]
    assert any(q["text"] == "Where was Bob Ray born?" + s for q in queries)
    for path in (root / "out" / "lm-eval").rglob("*.yaml"):
        assert isinstance(yaml.load(path.read_text(encoding="utf-8"), _TaskLoader), dict)


# -- the validation sheet ---------------------------------------------------------------------------------------


@FUZZ
@given(s=TEXT)
def test_validation_sheet_csv_round_trips_and_page_stays_whole(
    tmp_path_factory: pytest.TempPathFactory, s: str
) -> None:
    root = _tmp(tmp_path_factory)
    rel = load_release(evil_release(root, s))
    folder = write_sheet(rel, root / "v", 10)
    page = _parse_html((folder / "sheet.html").read_text(encoding="utf-8"))
    # four data elements and the page's code, no more
    assert "img" not in page.tags and page.tags.count("script") == 5 and len(page.json) == 4
    assert any(s in x for x in page.data())
    with (folder / "sheet.csv").open(newline="", encoding="utf-8") as fh:
        cells = [c for row in csv.reader(fh) for c in row]
    assert "Where was Bob Ray born?" + s in cells


# -- invalid UTF-8 in the writers' inputs -----------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    code = "from chronoqa.cli import main; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("what", ["release", "run", "answers", "sheet", "table"])
def test_invalid_utf8_in_an_input_is_one_error_naming_the_file(tmp_path: Path, what: str) -> None:
    rel, run = write_fixture(tmp_path)
    bad = b"\xff\xfe<script>"
    if what == "release":
        path = rel / "benchmark.jsonl"
        path.write_bytes(path.read_bytes().replace(b"Where", b"Wh" + bad, 1))
        args = ["export", str(rel), "--to", "beir", "--out", str(tmp_path / "x")]
    elif what == "run":
        path = run
        path.write_bytes(path.read_bytes().replace(b'"s":"', b'"s":"' + bad, 1))
        args = ["evaluate", "--bench", str(rel), "--run", str(run), "--out", str(tmp_path / "m.json")]
    elif what == "answers":
        path = tmp_path / "answers.jsonl"
        path.write_bytes(b'{"qid":"q1","answerer":"a","status":"ok","answer":"' + bad + b'"}\n')
        args = ["evaluate", "--bench", str(rel), "--answers", str(path), "--out", str(tmp_path / "m.json")]
    elif what == "sheet":
        path = tmp_path / "a.json"
        path.write_bytes(b'{"format":"x","annotator":"' + bad + b'"}')
        args = ["validate", "import", str(rel), str(path), "--out", str(tmp_path / "x")]
    else:
        path = tmp_path / "t.csv"
        path.write_bytes(b"Country,Role,Name,Start,End\nA,President," + bad + b",1990,1995\n")
        args = ["build", "table", str(path), "--out", str(tmp_path / "x"), "--tfd", "Country,Role->Name"]
    res = _cli(*args)
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr and str(path) in res.stderr and "UTF-8" in res.stderr
    assert re.findall(r"^error: ", res.stderr, re.M) == ["error: "]
    assert not (tmp_path / "x").exists() and not (tmp_path / "m.json").exists()
