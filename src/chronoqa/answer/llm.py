"""The LLM answerer: a prompt protocol, an OpenAI-compatible client and the response cache, together.

Every question gets one record. A request that still fails after its retries is recorded with
status ``error`` and its error text (scored as wrong downstream); nothing is dropped. Responses are
cached under ``<cache_dir>/llm`` so a killed run resumes without re-asking finished questions, and a
finished run can be re-scored or audited without the model.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from chronoqa.answer.base import AnswerContext, AnswerRecord, Evidence
from chronoqa.answer.cache import ResponseCache
from chronoqa.answer.client import ChatClient, ChatResult, ClientConfig
from chronoqa.answer.prompts import get_protocol, parse_response
from chronoqa.records import Question

__all__ = ["LLMAnswerer"]


class LLMAnswerer:
    """Ask a chat model each question under a named prompt protocol (``closed_book@1``, ``rag@1``)."""

    def __init__(self, config: ClientConfig, protocol: str = "rag@1", k: int = 10, spec: str | None = None) -> None:
        self.config = config
        self.protocol = get_protocol(protocol)
        self.k = k
        self.uses_evidence = self.protocol.uses_evidence
        self.spec = spec or f"llm(model={config.model},protocol={self.protocol.id})"
        self.last_stats: dict[str, int] = {}

    def meta(self) -> dict[str, Any]:
        """Protocol, model and every parameter (not the API key)."""
        return {
            "protocol": {"name": self.protocol.name, "version": self.protocol.version, "id": self.protocol.id},
            "model": self.config.model,
            "k": self.k,
            "client": self.config.public_dict(),
            **({"calls": dict(self.last_stats)} if self.last_stats else {}),
        }

    def answer(
        self, questions: Sequence[Question], evidence: Mapping[str, Sequence[Evidence]], context: AnswerContext
    ) -> Iterator[AnswerRecord]:
        """Send all requests (bounded concurrency), then yield one record per question in order."""
        cache = ResponseCache(Path(context.cache_dir) / "llm") if context.cache_dir else None
        batch = [self.protocol.messages(q, evidence.get(q.id, ()), self.k) for q in questions]
        lock = threading.Lock()

        def done(_i: int, _r: ChatResult) -> None:
            if context.progress is not None:
                with lock:
                    context.progress(1)

        with ChatClient(self.config, cache) as client:
            results = client.chat_many(batch, on_done=done)
            self.last_stats = {"http_calls": client.counters.http_calls, "cache_hits": client.counters.cache_hits}
        for q, res in zip(questions, results, strict=True):
            if not res.ok or res.text is None:
                yield AnswerRecord(q.id, self.spec, "error", None, None, res.error or "no response", None)
                continue
            parsed = parse_response(res.text)
            yield AnswerRecord(q.id, self.spec, parsed.status, parsed.answer, parsed.explanation, None, res.text)
