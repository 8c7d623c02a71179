"""Optional entity-label files (``id<TAB>label``), e.g. English labels for Wikidata12k's Q-ids."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from chronoqa.errors import DataError
from chronoqa.io import text_lines

__all__ = ["read_entity_labels"]


def read_entity_labels(path: str | Path) -> dict[str, str]:
    """Read ``id<TAB>label`` lines (an optional header is skipped); bad lines raise :class:`DataError`."""
    path = Path(path)
    out: dict[str, str] = {}
    with closing(text_lines(path)) as lines:  # bytes that are not UTF-8: a DataError naming the line
        for lineno, line in lines:
            text = line.rstrip("\n").rstrip("\r")
            if not text.strip():
                continue
            parts = text.split("\t")
            if lineno == 1 and [p.strip().lower() for p in parts] in (["id", "label"], ["qid", "label"]):
                continue
            if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
                raise DataError(
                    str(path), lineno, "(row)", text[:80], "2 tab-separated fields: id<TAB>label",
                    "write one entity per line as id<TAB>label",
                )  # fmt: skip
            key = parts[0].strip()
            if key in out:
                raise DataError(
                    str(path), lineno, "id", key, "an id not listed on an earlier line", "remove the duplicate"
                )
            out[key] = parts[1].strip()
    return out
