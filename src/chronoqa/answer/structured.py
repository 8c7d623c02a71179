"""Reading the replies of a structured protocol (``structured@1``): JSON by the schema, prose otherwise.

The schema is :class:`~chronoqa.artifacts.answers.StructuredAnswer`, declared once. :func:`response_formats`
is what is sent to ask a server to hold the model to it, most widely understood first:

1. ``{"type": "json_schema", "json_schema": {...}}``: OpenAI's structured outputs (also vLLM, llama.cpp's
   own server, Ollama);
2. ``{"type": "json_object", "schema": {...}}``: llama-cpp-python's server, which turns the schema into a
   grammar.

A server that refuses both is asked with the prompt alone (:class:`~chronoqa.answer.client.ChatClient`
steps down the list). :func:`read_reply` turns a reply into an answer record: a reply that is one JSON
object valid under the schema (inside a Markdown code fence, or after a line of preamble, too) becomes a
record with ``reply_format="json"`` and its ``structured`` fields, the answers joined by ``"; "`` as its
answer text; any other reply is read as free text by :func:`~chronoqa.answer.prompts.parse_response`
(``reply_format="prose"``), so a model that cannot comply is still scored, by the prose judge.
:func:`~chronoqa.artifacts.answers.parse_counts` gives the parse rate of a set of records.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from chronoqa.answer.prompts import abstains, parse_response
from chronoqa.artifacts.answers import AnswerRecord, StructuredAnswer

__all__ = ["parse_structured", "read_reply", "response_formats"]

_FENCE = re.compile(r"```(?:json)?\s*(.*?)\s*```", re.DOTALL | re.IGNORECASE)
_SCHEMA_NAME = "structured_answer"


def response_formats() -> tuple[dict[str, Any], ...]:
    """The ``response_format`` values to try, in order (see the module docstring)."""
    schema = StructuredAnswer.model_json_schema()
    return (
        {"type": "json_schema", "json_schema": {"name": _SCHEMA_NAME, "schema": schema, "strict": False}},
        {"type": "json_object", "schema": schema},
    )


def _candidates(text: str) -> list[str]:
    """The texts that may hold the JSON object: the reply, a fenced block in it, its outermost braces."""
    body = text.strip()
    out = [body]
    fence = _FENCE.search(body)
    if fence:
        out.append(fence.group(1))
    first, last = body.find("{"), body.rfind("}")
    if 0 <= first < last:
        out.append(body[first : last + 1])
    return list(dict.fromkeys(out))


def parse_structured(text: str) -> StructuredAnswer | None:
    """The reply as a :class:`StructuredAnswer`, or ``None`` when it holds no JSON object valid under the schema."""
    for candidate in _candidates(text):
        try:
            obj = json.loads(candidate)
        except ValueError:
            continue
        if not isinstance(obj, dict):
            continue
        try:
            return StructuredAnswer.model_validate(obj)
        except ValidationError:
            return None
    return None


def read_reply(qid: str, answerer: str, text: str) -> AnswerRecord:
    """One reply of a structured protocol as an answer record (JSON fields, or the prose fallback)."""
    reply = parse_structured(text)
    if reply is None:
        p = parse_response(text)
        return AnswerRecord(qid, answerer, p.status, p.answer, p.explanation, None, text, reply_format="prose")
    names = [a.answer.strip() for a in reply.answers if not abstains(a.answer)]
    answer = "; ".join(n for n in names if n) or None
    status = "ok" if answer else "abstain"
    expl = reply.explanation.strip() if reply.explanation and reply.explanation.strip() else None
    return AnswerRecord(qid, answerer, status, answer, expl, None, text, reply_format="json", structured=reply)
