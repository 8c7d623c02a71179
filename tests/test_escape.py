"""Every writer of HTML, Markdown or YAML keeps hostile data text inert: parsed back, it is the text as given.

The checks parse the output with a real parser of its language (``html.parser`` for HTML, markdown-it for
Markdown, PyYAML for YAML front matter) rather than looking for forbidden substrings.
"""

from __future__ import annotations

import json
import os
import unicodedata
from html.parser import HTMLParser
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronoqa.escape import html_attr, html_text, md_code, md_text, script_json, yaml_str
from chronoqa.export.hf import _yaml
from chronoqa.validate.html import render_page
from chronoqa.validate.importer import ValidationResult, _markdown
from chronoqa.validate.protocol import JUDGMENTS

yaml = pytest.importorskip("yaml")  # PyYAML and markdown-it-py come with the dev extras (datasets, rich)
markdown_it = pytest.importorskip("markdown_it")

BUDGET = int(os.environ.get("CHRONOQA_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=BUDGET, suppress_health_check=[HealthCheck.too_slow])
pytestmark = pytest.mark.fuzz

HOSTILE = [
    "<!--<script>",
    "</script><script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "a | b\n# heading\n---\nkey: value",
    "[click](javascript:alert(1)) `code` *em* _em_ \\| \\",
    'x" onmouseover="y',
    "\u2028\u2029\x85\ufeff\x00\x7f",
    "trailing ##",
    "\u202eevil\u202c \u2066x\u2069 zero\u200bwidth \ufeffbom \u200e\u200f\u2060 joiner\u200dkept",
]
# the characters that reorder or hide text, listed here apart from chronoqa.escape's own pattern
BIDI_AND_ZERO_WIDTH = "\u061c\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2066\u2067\u2068\u2069\ufeff"
# hostile fragments and arbitrary text, surrogates excluded (no UTF-8 file can hold them)
TEXT = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(st.characters(exclude_categories=("Cs",))),
    st.text(st.sampled_from([*BIDI_AND_ZERO_WIDTH, "a", "\u200c", "\u200d", "<"])),
    st.lists(st.sampled_from(["<", "</", "<!--", "<script", "-->", "&", "|", "\\", "\n", "#", "`", "[", "]", "a"])).map(
        "".join
    ),
)


class _Doc(HTMLParser):
    """The elements, the text of each element by id, and the attributes seen while parsing a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: dict[str, str] = {}
        self.attrs: list[dict[str, str | None]] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.append(dict(attrs))
        self._open.append(dict(attrs).get("id") or tag)

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open:
            key = self._open[-1]
            self.text[key] = self.text.get(key, "") + data


def _inert(data: str) -> bool:
    """The HTML standard's restriction on a script element's text, conservatively: none of ``<!--``,
    ``<script`` or ``</script`` (html.parser, unlike a browser, has no script-data escaped states, so the
    parse alone would not show a ``<!--<script>`` swallowing the rest of the page)."""
    low = data.lower()
    return not any(bad in low for bad in ("<!--", "<script", "</script"))


def _parse(page: str) -> _Doc:
    doc = _Doc()
    doc.feed(page)
    doc.close()
    return doc


#: What markdown-it trims from a heading's ends: the tab and Unicode's space separators (category Zs)
_MD_SPACES = "\t" + "".join(chr(c) for c in range(0x3001) if unicodedata.category(chr(c)) == "Zs")


def _shown(s: str) -> str:
    """``s`` as a reader should see it: each bidirectional control or zero-width character named, not applied."""
    return "".join(f"<U+{ord(ch):04X}>" if ch in BIDI_AND_ZERO_WIDTH else ch for ch in s)


@FUZZ
@given(TEXT)
def test_html_text_and_attribute_parse_back(s: str) -> None:
    doc = _parse(f'<p id="x" title="{html_attr(s)}">{html_text(s)}</p><i id="after"></i>')
    assert doc.tags == ["p", "i"]
    assert doc.attrs[0]["title"] == _shown(s)
    assert doc.text.get("x", "") == _shown(s)
    assert not any(ch in BIDI_AND_ZERO_WIDTH for ch in html_text(s) + html_attr(s))


@pytest.mark.parametrize("ch", list(BIDI_AND_ZERO_WIDTH))
def test_each_bidi_or_zero_width_character_is_shown_in_html_and_markdown(ch: str) -> None:
    label = f"Alice{ch}Bob"
    shown = f"Alice&lt;U+{ord(ch):04X}&gt;Bob"
    assert html_text(label) == shown and html_attr(label) == shown and md_text(label) == shown
    assert md_code(label) == f"`Alice<U+{ord(ch):04X}>Bob`"


@pytest.mark.parametrize("ch", ["\u200c", "\u200d"])
def test_joiners_that_spell_words_are_kept(ch: str) -> None:
    """A neighbour of the controls: zero-width (non-)joiners spell Persian words and emoji; they stay as they are."""
    assert html_text(f"a{ch}b") == f"a{ch}b" and md_text(f"a{ch}b") == f"a{ch}b"


@FUZZ
@given(st.recursive(TEXT | st.integers() | st.booleans(), lambda c: st.lists(c) | st.dictionaries(TEXT, c)))
def test_script_json_stays_inside_its_element(obj: Any) -> None:
    page = f'<script type="application/json" id="d">{script_json(obj)}</script><i id="after"></i>'
    doc = _parse(page)
    assert doc.tags == ["script", "i"]  # nothing in the data closed the element or opened another
    assert json.loads(doc.text.get("d", "")) == obj
    assert _inert(doc.text.get("d", ""))
    assert not any(ch in BIDI_AND_ZERO_WIDTH for ch in doc.text.get("d", ""))  # \u escapes in the page source


@FUZZ
@given(TEXT)
def test_markdown_text_is_shown_as_written(s: str) -> None:
    expected = _shown("".join(" " if ch in "\r\n\v\f\x85\u2028\u2029" else ch for ch in s.replace("\r\n", "\n")))
    rendered = markdown_it.MarkdownIt("commonmark").enable("table").render(f"# {md_text(s)}\n")
    doc = _parse(rendered)
    assert doc.tags == ["h1"]  # one heading, no other element (no link, code, emphasis, html)
    # markdown-it trims the heading (tabs and Unicode spaces) and maps NUL to U+FFFD: compare what survives
    assert doc.text.get("h1", "") == expected.replace("\x00", "\ufffd").strip(_MD_SPACES)
    table = markdown_it.MarkdownIt("commonmark").enable("table").render(f"| a | b |\n|---|---|\n| {md_text(s)} | z |\n")
    cells = _parse(table)
    assert cells.tags.count("td") == 2 and cells.tags.count("tr") == 2


@FUZZ
@given(TEXT)
def test_yaml_str_parses_back(s: str) -> None:
    assert yaml.safe_load(f"key: {yaml_str(s)}\n") == {"key": s}
    assert not any(ch in BIDI_AND_ZERO_WIDTH for ch in yaml_str(s))  # \u escapes: the file shows them


@FUZZ
@given(TEXT, st.lists(TEXT, max_size=3))
def test_hf_card_header_parses_back(name: str, tags: list[str]) -> None:
    header = {"pretty_name": name, "tags": tags, "configs": [{"config_name": name, "default": True}]}
    assert yaml.safe_load("\n".join(_yaml(header))) == header


@FUZZ
@given(st.lists(TEXT, min_size=1, max_size=3), TEXT)
def test_validation_sheet_keeps_its_data_and_its_page(labels: list[str], dataset: str) -> None:
    items = [
        {"id": f"q{i}", "question": lab, "answers": [lab], "facts": [{"label": lab}]} for i, lab in enumerate(labels)
    ]
    page = render_page(items, {"dataset": dataset})
    doc = _parse(page)
    assert doc.tags.count("script") == 5 and doc.tags[-1] == "script"  # four data elements and the program
    assert json.loads(doc.text["items"]) == items
    assert json.loads(doc.text["meta"]) == {"dataset": dataset}
    assert all(_inert(doc.text[k]) for k in ("meta", "items", "judgments", "values"))
    assert "main" in doc.tags and "button" in doc.tags  # the page body is there, not swallowed by a comment


@FUZZ
@given(st.lists(TEXT, min_size=1, max_size=3))
def test_validation_summary_names_annotators_as_text(names: list[str]) -> None:
    empty = {"rate": None, "errors": 0, "n": 0, "ci_low": None, "ci_high": None}
    res = ValidationResult(tuple(names), {}, [], [], {"by_cell": {}, "all": {j.name: empty for j in JUDGMENTS}})
    md = markdown_it.MarkdownIt("commonmark").enable("table").render(_markdown(res))
    doc = _parse(md)
    assert set(doc.tags) <= {"h2", "p", "table", "thead", "tbody", "tr", "th", "td", "code"}
    assert doc.tags.count("table") == 2


def test_the_sheet_with_a_comment_opener_in_a_label_is_not_blank() -> None:
    page = render_page([{"id": "q1", "question": "<!--<script>", "answers": ["x"]}], {"dataset": "<!--<script>"})
    doc = _parse(page)
    assert json.loads(doc.text["items"])[0]["question"] == "<!--<script>"
    assert _inert(doc.text["items"]) and _inert(doc.text["meta"])
    assert doc.tags[-1] == "script" and doc.text["script"].lstrip().startswith("(")  # the program is its own element
