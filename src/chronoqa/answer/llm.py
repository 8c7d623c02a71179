"""The LLM answerer: a prompt protocol, an OpenAI-compatible client and the response cache, together.

Every question gets one record. A request that still fails after its retries is recorded with
status ``error`` and its error text (scored as wrong downstream); nothing is dropped. Responses are
cached under ``<cache_dir>/llm`` so a killed run resumes without re-asking finished questions, and a
finished run can be re-scored or audited without the model.

A structured protocol (``structured@1``) asks the server for JSON (``response_format``, where it takes
one) and reads each reply with :func:`~chronoqa.answer.structured.read_reply`; the meta records how
many replies parsed (``replies``) and the answers under each response format the server took
(``calls.format_json_schema``, ``calls.format_json_object``, ``calls.format_prompt``).
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
from chronoqa.answer.structured import read_reply, response_formats
from chronoqa.answer.tdbench import RANDOM_ROWS, rows_by_question
from chronoqa.artifacts.answers import ReplyCounts, parse_counts
from chronoqa.errors import ChronoqaError
from chronoqa.records import Question

__all__ = ["LLMAnswerer"]


class LLMAnswerer:
    """Ask a chat model each question under a named prompt protocol (``closed_book@1``, ``rag@1``, ``structured@1``)."""

    def __init__(self, config: ClientConfig, protocol: str = "rag@1", k: int = 10, spec: str | None = None) -> None:
        self.config = config
        self.protocol = get_protocol(protocol)
        self.k = k
        self.uses_evidence = self.protocol.uses_evidence
        self.spec = spec or f"llm(model={config.model},protocol={self.protocol.id})"
        self.last_stats: dict[str, int] = {}
        self.last_replies: ReplyCounts | None = None

    def meta(self) -> dict[str, Any]:
        """Protocol, model and every parameter (not the API key)."""
        return {
            "protocol": {"name": self.protocol.name, "version": self.protocol.version, "id": self.protocol.id},
            "model": self.config.model,
            "k": self.k,
            **({"open_book": {"random_rows": RANDOM_ROWS, "seed": self.config.seed}} if self.protocol.table else {}),
            "client": self.config.public_dict(),
            **({"calls": dict(self.last_stats)} if self.last_stats else {}),
            **({"replies": self.last_replies.to_dict()} if self.last_replies is not None else {}),
        }

    def answer(
        self, questions: Sequence[Question], evidence: Mapping[str, Sequence[Evidence]], context: AnswerContext
    ) -> Iterator[AnswerRecord]:
        """Send all requests (bounded concurrency), then yield one record per question in order."""
        cache = ResponseCache(Path(context.cache_dir) / "llm") if context.cache_dir else None
        shown = self._table_rows(questions, context) if self.protocol.table else evidence
        batch = [self.protocol.messages(q, shown.get(q.id, ()), self.k) for q in questions]
        lock = threading.Lock()

        def done(_i: int, _r: ChatResult) -> None:
            if context.progress is not None:
                with lock:
                    context.progress(1)

        formats = response_formats() if self.protocol.structured else ()
        with ChatClient(self.config, cache) as client:
            results = client.chat_many(batch, on_done=done, response_formats=formats)
            self.last_stats = {"http_calls": client.counters.http_calls, "cache_hits": client.counters.cache_hits}
            if formats and client.response_format_counts:
                self.last_stats = {**self.last_stats, **_prefixed(client.response_format_counts)}
        records = [self._record(q.id, res) for q, res in zip(questions, results, strict=True)]
        if self.protocol.structured:
            self.last_replies = parse_counts(records)
        yield from records

    def _table_rows(self, questions: Sequence[Question], context: AnswerContext) -> Mapping[str, Sequence[Evidence]]:
        """The release rows an open-book protocol shows, drawn with the client's seed."""
        if context.corpus is None:
            raise ChronoqaError(
                f"prompt protocol {self.protocol.id} shows the release's own rows: answer through answer_release"
            )
        return rows_by_question(questions, context.corpus, self.config.seed)

    def _record(self, qid: str, res: ChatResult) -> AnswerRecord:
        if not res.ok or res.text is None:
            return AnswerRecord(qid, self.spec, "error", None, None, res.error or "no response", None)
        if self.protocol.structured:
            return read_reply(qid, self.spec, res.text)
        parsed = parse_response(res.text)
        return AnswerRecord(qid, self.spec, parsed.status, parsed.answer, parsed.explanation, None, res.text)


def _prefixed(counts: Mapping[str, int]) -> dict[str, int]:
    """Answers by the response format the server took: ``{"format_json_schema": 3, "format_prompt": 1}``."""
    return {f"format_{k}": v for k, v in sorted(counts.items())}
