"""Entity-label files (``id<TAB>label``), e.g. Wikidata's English labels of Wikidata12k's Q-ids.

The reader cleans what such dumps are known to hold (Wikidata12k's ``entity2name.txt`` has all of
these): HTML entities (``&amp;`` → ``&``), invisible format characters (Unicode category ``Cf``, such
as U+200E), surrounding spaces, and an id listed twice where one line gives the id itself as its label
(the real label wins). A label that is blank after cleaning is *missing*: the id is left out of the
result, so a build that needs it names it (:func:`is_raw_id` tells such placeholders apart).
"""

from __future__ import annotations

import html
import re
import unicodedata
from contextlib import closing
from pathlib import Path

from chronoqa.errors import DataError
from chronoqa.io import text_lines

__all__ = ["clean_label", "is_raw_id", "read_entity_labels"]

# identifiers that are not words: Wikidata Q-/P-ids, Freebase mids, bare numbers
_RAW_ID = re.compile(r"^(?:[QP]\d+|/m/[0-9a-z_]+|\d+)$")


def is_raw_id(label: str) -> bool:
    """True when ``label`` is an identifier rather than a name (``Q77545``, ``P39``, ``/m/0abc``, ``1234``)."""
    return bool(_RAW_ID.match(label.strip()))


def clean_label(text: str) -> str:
    """A label as it should read: HTML entities decoded, format characters removed, spaces trimmed."""
    text = html.unescape(text)
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf").strip()


def read_entity_labels(path: str | Path) -> dict[str, str]:
    """Read ``id<TAB>label`` lines (an optional ``id<TAB>label`` header is skipped), cleaned as described above.

    Raises:
        DataError: A line without exactly two tab-separated fields or without an id, or an id listed
            twice with two different real labels (file, line, field and fix named).

    """
    path = Path(path)
    out: dict[str, str] = {}
    first_line: dict[str, int] = {}
    with closing(text_lines(path)) as lines:  # bytes that are not UTF-8: a DataError naming the line
        for lineno, line in lines:
            text = line.rstrip("\n").rstrip("\r")
            if not text.strip():
                continue
            parts = text.split("\t")
            if lineno == 1 and [p.strip().lower() for p in parts] in (["id", "label"], ["qid", "label"]):
                continue
            if len(parts) != 2 or not parts[0].strip():
                raise DataError(
                    str(path), lineno, "(row)", text[:80], "2 tab-separated fields: id<TAB>label",
                    "write one entity per line as id<TAB>label",
                )  # fmt: skip
            key = parts[0].strip()
            label = clean_label(parts[1])
            if not label or label == key:  # blank, or the id standing in for a label: missing
                first_line.setdefault(key, lineno)
                continue
            if key in out and out[key] != label:
                raise DataError(
                    str(path), lineno, "label", label,
                    f"one label per id ({key} is labelled {out[key]!r} on line {first_line[key]})",
                    "keep one of the two lines",
                )  # fmt: skip
            out[key] = label
            first_line[key] = lineno
    return out
