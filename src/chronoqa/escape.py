r"""One escaping rule per output language; every writer of HTML, Markdown or YAML text goes through these.

* :func:`html_text` / :func:`html_attr`: text placed between tags, or inside a quoted attribute value.
* Characters that reorder or hide the text around them (:data:`INVISIBLE`: bidirectional controls
  U+202A..U+202E and U+2066..U+2069, the marks U+200E/U+200F and U+061C, zero-width U+200B and U+2060, the byte-order
  mark U+FEFF) are shown, never applied, wherever text is displayed: :func:`html_text`, :func:`html_attr`,
  :func:`md_text` and :func:`md_code` write each as ``<U+202E>`` (:func:`show_invisible`; a page's own script that
  renders data into the DOM does the same through :func:`js_show_invisible`, built from the same set). An entity such as
  ``&#x202E;`` would not do: a browser or Markdown renderer decodes it back into the control. Zero-width
  (non-)joiners (U+200C/D) are kept: they spell words and emoji. The data formats (:func:`script_json`,
  :func:`yaml_str`) keep the text as it is, writing these as ``\u`` escapes.
* :func:`script_json`: data embedded in ``<script type="application/json">``. ``<``, ``>`` and ``&`` become
  JSON ``\u`` escapes, so no ``</script``, ``<!--`` or ``<script`` can appear in the element (the HTML
  parser's script-data states never start), and U+2028/U+2029 are escaped too. ``JSON.parse`` of the
  element's text gives back the data unchanged.
* :func:`md_text`: data text inlined in Markdown (a heading, a list item, a table cell): HTML special
  characters become entities, the characters that make links, code, emphasis or cell breaks are
  backslash-escaped (the backslash first, so a label's own ``\`` cannot undo an escape), and line breaks
  become spaces.
* :func:`md_code`: data text shown as an inline Markdown code span (an identifier: a relation, a column):
  fenced with more backticks than any run inside it, so no backtick ends it early; one line; in a table cell
  its ``|`` is escaped. A name without backticks or line breaks is written as ```name``` as before.
* :func:`yaml_str`: a YAML double-quoted scalar of any text, parsed back unchanged by a YAML 1.1 or 1.2
  reader (line-break and non-printable characters are ``\u`` escapes).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

__all__ = [
    "INVISIBLE",
    "html_attr",
    "html_text",
    "js_show_invisible",
    "md_code",
    "md_text",
    "script_json",
    "show_invisible",
    "yaml_str",
]

#: Characters that reorder or hide text: bidirectional controls and marks, zero-width space and word joiner, BOM.
INVISIBLE = re.compile("[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")

_SCRIPT_UNSAFE = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|#])")
_LINE_BREAKS = re.compile(r"\r\n|[\r\n\v\f\x85\u2028\u2029]")
# YAML's printable set, less its line breaks (U+0085, U+2028/9) and the byte-order mark
_YAML_UNSAFE = re.compile(
    "[^\t\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]|" + INVISIBLE.pattern
)


def show_invisible(value: Any) -> str:
    """``value`` with each :data:`INVISIBLE` character written as ``<U+XXXX>`` (shown, never applied)."""
    return INVISIBLE.sub(lambda m: f"<U+{ord(m.group()):04X}>", str(value))


def js_show_invisible(name: str) -> str:
    """JavaScript source of a function ``name(s)`` doing :func:`show_invisible` in a page's script.

    Its character class is :data:`INVISIBLE`'s own pattern, so a script that renders data into the DOM shows these
    characters exactly as the HTML written here does.
    """
    cls = "".join(ch if ch.isascii() else _u_escape(ch) for ch in INVISIBLE.pattern)
    return (
        f"function {name}(s) {{ return String(s).replace(/{cls}/g, function (c) {{"
        ' return "<U+" + ("000" + c.charCodeAt(0).toString(16).toUpperCase()).slice(-4) + ">"; }); }'
    )


def html_text(value: Any) -> str:
    """``value`` as HTML text content (``&``, ``<``, ``>`` and both quotes as entities)."""
    return html.escape(show_invisible(value))


def html_attr(value: Any) -> str:
    """``value`` inside a double- or single-quoted HTML attribute value."""
    return html.escape(show_invisible(value), quote=True)


def script_json(obj: Any, *, sort_keys: bool = False) -> str:
    """Compact JSON of ``obj`` that is inert inside a ``<script>`` element (see the module docstring)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False, sort_keys=sort_keys)
    for a, b in _SCRIPT_UNSAFE:
        text = text.replace(a, b)
    return INVISIBLE.sub(lambda m: _u_escape(m.group()), text)


def md_text(value: Any) -> str:
    """``value`` as inert inline Markdown text: shown as written, never markup, one line."""
    text = _LINE_BREAKS.sub(" ", show_invisible(value))
    return _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def md_code(value: Any, *, table: bool = False) -> str:
    """``value`` as an inline Markdown code span shown as written (``table``: inside a table cell)."""
    text = _LINE_BREAKS.sub(" ", show_invisible(value))
    if not text:
        return ""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    # CommonMark strips one space from each end of a span that has both, and a span may not open on a backtick
    pad = " " if text[0] == "`" or text[-1] == "`" or (text[0] == " " and text[-1] == " " and text.strip()) else ""
    if table:
        text = text.replace("|", "\\|")
    return f"{fence}{pad}{text}{pad}{fence}"


def yaml_str(value: Any) -> str:
    """``value`` as a YAML double-quoted scalar (a JSON string, with YAML's unsafe characters escaped)."""
    text = json.dumps(str(value), ensure_ascii=False)
    return _YAML_UNSAFE.sub(lambda m: _u_escape(m.group()), text)


def _u_escape(ch: str) -> str:
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
