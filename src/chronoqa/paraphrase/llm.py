"""The LLM paraphraser: a chat model writes the rewordings, through the answer client and its response cache.

Protocol ``paraphrase@1``: one request per question asks for ``n`` rewordings, one per line, keeping every
name and date. Each line of the reply (numbering, bullets and quotes stripped) is a candidate; the
faithfulness check decides which are kept, as for the grammar. A failed call proposes nothing (counted in
``stats["errors"]``); a rerun answers every request already made from the cache, without HTTP.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from chronoqa.answer.cache import ResponseCache
from chronoqa.answer.client import ChatClient, ClientConfig
from chronoqa.answer.registry import client_config
from chronoqa.records import Question

__all__ = ["PROTOCOL", "LLMParaphraser", "messages", "parse_lines"]

PROTOCOL: Final = "paraphrase@1"

_SYSTEM: Final = (
    "You reword questions. Write each rewording on its own line, with no numbering and no comment. Keep every "
    "name and every date exactly as written; add no name, date or fact; the rewording must ask exactly the "
    "same thing."
)
_BULLET: Final = re.compile(r"^\s*(?:[-*•]|\d+[.)]|paraphrase\s*\d*:)\s*", re.IGNORECASE)


def messages(question: str, n: int) -> list[dict[str, str]]:
    """The chat messages asking for ``n`` rewordings of ``question`` (protocol :data:`PROTOCOL`)."""
    user = f"Question: {question}\nWrite {n} different rewordings of this question, one per line."
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


def parse_lines(text: str, n: int) -> list[str]:
    """The first ``n`` non-empty lines of a reply, without numbering, bullets or surrounding quotes."""
    out = []
    for raw in text.splitlines():
        line = _BULLET.sub("", raw).strip().strip("\"'“”‘’").strip()
        if line and line not in out:
            out.append(line)
    return out[:n]


class LLMParaphraser:
    """Ask a chat model for ``n`` rewordings of each question (spec: the answerer's ``llm(model=...,...)``)."""

    def __init__(self, config: ClientConfig, cache_dir: str | Path | None = None) -> None:
        self.config = config
        self.cache = ResponseCache(Path(cache_dir)) if cache_dir is not None else None
        self.name = f"llm(model={config.model},protocol={PROTOCOL})"
        self.stats: dict[str, int] = {"http_calls": 0, "cache_hits": 0, "errors": 0}

    @classmethod
    def from_spec(cls, spec: str, cache_dir: str | Path | None = None) -> LLMParaphraser:
        """Build from ``llm(model=m,base_url=...,max_tokens=...)``: the parameters of the ``llm`` answerer."""
        return cls(client_config(spec, "--llm"), cache_dir)

    def propose(self, questions: Sequence[Question], n: int) -> list[list[tuple[str, str]]]:
        """Per question, its candidate rewordings as ``("llm", text)``, in the order the model wrote them."""
        with ChatClient(self.config, self.cache) as client:
            results = client.chat_many([messages(q.question, n) for q in questions])
            self.stats["http_calls"] += client.counters.http_calls
            self.stats["cache_hits"] += client.counters.cache_hits
        out: list[list[tuple[str, str]]] = []
        for res in results:
            if not res.ok or res.text is None:
                self.stats["errors"] += 1
                out.append([])
            else:
                out.append([("llm", line) for line in parse_lines(res.text, n)])
        return out
