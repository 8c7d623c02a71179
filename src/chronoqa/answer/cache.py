"""On-disk cache of chat responses, keyed by sha256 of (model, messages, parameters).

One JSON file per response under ``<root>/<key[:2]>/<key>.json``, written atomically, so a run killed
mid-way leaves only complete entries and a rerun re-sends only the requests that had not finished.
Entries keep the request beside the response, so a run can be audited (which prompt produced which
answer) and re-scored without calling the model again. Only successful responses are cached: a
failed request is retried on the next run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from chronoqa.errors import DataError
from chronoqa.io import write_json

__all__ = ["ResponseCache", "request_key"]

CACHE_FORMAT = 1


def request_key(model: str, messages: Sequence[Mapping[str, str]], parameters: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of a request: same model, messages and parameters → same key."""
    canon = json.dumps(
        {"model": model, "messages": [dict(m) for m in messages], "parameters": dict(parameters)},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


class ResponseCache:
    """A folder of cached responses (safe for concurrent readers and writers: atomic renames)."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def path(self, key: str) -> Path:
        """File holding the entry for ``key``."""
        if len(key) != 64 or any(ch not in "0123456789abcdef" for ch in key):
            raise ValueError(f"cache key {key!r}: expected 64 lowercase hex digits (a sha256)")
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> str | None:
        """The cached response text, or ``None``."""
        p = self.path(key)
        if not p.exists():
            return None
        try:
            entry = json.loads(p.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise DataError(
                str(p), exc.lineno, "(json)", "", "a complete cache entry", f"delete {p} and rerun"
            ) from None
        text = entry.get("response")
        if not isinstance(text, str):
            raise DataError(str(p), 1, "response", text, "a string", f"delete {p} and rerun")
        return text

    def put(self, key: str, response: str, request: Mapping[str, Any]) -> None:
        """Store a response (atomically) with its request, for audits."""
        write_json(self.path(key), {"format": CACHE_FORMAT, "key": key, "request": dict(request), "response": response})

    def __contains__(self, key: str) -> bool:
        return self.path(key).exists()

    def __len__(self) -> int:
        return sum(1 for _ in self.root.glob("*/*.json")) if self.root.exists() else 0
