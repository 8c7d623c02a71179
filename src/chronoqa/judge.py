"""An optional LLM judge of time accuracy, recorded beside the deterministic verdict, never instead of it.

:class:`LLMJudge` asks a chat model, through the answering client and its response cache, whether an
explanation's time references are right, with TDBench's protocol (question, gold answer, the required
references with their ends, the model's answer and explanation; a Yes/No verdict). It is callable as a
:data:`chronoqa.score.time_accuracy.Judge`, so :func:`chronoqa.score.evaluate` takes it without knowing
models; it sits above both the answer and the score stages because it uses both.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from chronoqa.answer.cache import ResponseCache
from chronoqa.answer.client import ChatClient, ClientConfig
from chronoqa.answer.registry import parse_spec
from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.records import Question
from chronoqa.score.time_accuracy import gold_time_refs

__all__ = [
    "ANSWER_PROTOCOL",
    "JUDGE_PROTOCOL",
    "LLMJudge",
    "answer_messages",
    "judge_messages",
    "make_judge",
    "parse_verdict",
]

JUDGE_PROTOCOL = "tdbench-time@1"
"""The name and version of the LLM judge's prompt (part of the cache key through the messages)."""


# --------------------------------------------------------------------------------------------------
# LLM judge
# --------------------------------------------------------------------------------------------------

_SYSTEM = (
    "You check the time references in answers to time-sensitive questions. You are given the question, "
    "the gold answer, the gold time references (which end of which fact, and the date), and a model's "
    "answer with its explanation. Reply Yes if the explanation states every gold time reference for the "
    "right fact at the right end (start or end) and states no contradicting date for it; otherwise reply No. "
    "Dates of other people or facts, and dates listed without saying what they are, do not count. "
    "Reply with one word: Yes or No."
)
_YES = re.compile(r"^\W*(yes|correct|true)\b", re.IGNORECASE)
_NO = re.compile(r"^\W*(no|incorrect|false|wrong)\b", re.IGNORECASE)


def _refs_text(q: Question) -> str:
    lines = []
    for r in q.time_refs:
        who = r.get("answer") or ("the answer's fact" if r.get("of", "answer") == "answer" else "the anchor fact")
        lines.append(f"- {r.get('which', 'any')} of {who}: {r.get('value')}")
    if not lines:
        lines = [f"- {ref.which} of the answer's fact: {ref.value}" for ref in gold_time_refs(q)]
    return "\n".join(lines)


ANSWER_PROTOCOL = "answer-judge@1"
"""The LLM judge's prompt for the answers the careful rules leave undecided."""

_ANSWER_SYSTEM = (
    "You check answers to time-sensitive questions. You are given the question, the gold answers and a "
    "model's reply. Reply Yes if the reply names every gold answer (in any spelling, language or form) and "
    "commits to no wrong answer; otherwise reply No. Reply with one word: Yes or No."
)


def _fields(record: AnswerRecord) -> str:
    """A structured reply's fields (the answers with the dates the model claims), as one line.

    Empty for a prose reply, whose messages stay as they were.
    """
    if record.structured is None:
        return ""
    return (
        "Model reply as JSON fields: "
        + json.dumps(record.structured.to_dict(), ensure_ascii=False, sort_keys=True)
        + "\n"
    )


def answer_messages(q: Question, record: AnswerRecord) -> list[dict[str, str]]:
    """The judge's chat messages for one undecided answer (protocol :data:`ANSWER_PROTOCOL`)."""
    user = (
        f"Question: {q.question}\n"
        f"Gold answers: {'; '.join(q.answers) or 'none (no one fits)'}\n"
        f"Model reply: {record.answer or ''}\n"
        f"{_fields(record)}"
        "Is the reply right? Yes or No."
    )
    return [{"role": "system", "content": _ANSWER_SYSTEM}, {"role": "user", "content": user}]


def judge_messages(q: Question, record: AnswerRecord) -> list[dict[str, str]]:
    """The judge's chat messages for one answer (protocol :data:`JUDGE_PROTOCOL`)."""
    user = (
        f"Question: {q.question}\n"
        f"Gold answer: {'; '.join(q.answers) or 'none'}\n"
        f"Gold time references:\n{_refs_text(q)}\n"
        f"Model answer: {record.answer or ''}\n"
        f"Model explanation: {record.explanation or ''}\n"
        f"{_fields(record)}"
        "Are the explanation's time references right? Yes or No."
    )
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


def parse_verdict(text: str | None) -> bool | None:
    """``Yes`` → true, ``No`` → false, anything else → no verdict."""
    if not text:
        return None
    if _YES.match(text):
        return True
    if _NO.match(text):
        return False
    return None


class LLMJudge:
    """An LLM judge of time accuracy (callable as a :data:`~chronoqa.score.time_accuracy.Judge`).

    Call :meth:`prepare` with every (question, answer) first to send the requests concurrently; a
    call for an answer not prepared asks for it alone. Responses are cached under ``cache_dir``.
    """

    def __init__(self, config: ClientConfig, cache_dir: str | Path | None = None) -> None:
        self.config = config
        self.cache = ResponseCache(Path(cache_dir)) if cache_dir is not None else None
        self._verdicts: dict[tuple[str, str | None, str | None], bool | None] = {}
        self._answers: dict[tuple[str, str, str | None], bool | None] = {}
        self.stats: dict[str, int] = {"http_calls": 0, "cache_hits": 0, "no_verdict": 0, "errors": 0}

    def meta(self) -> dict[str, Any]:
        """Protocol and client parameters (never the key)."""
        return {
            "protocol": JUDGE_PROTOCOL,
            "answer_protocol": ANSWER_PROTOCOL,
            "client": self.config.public_dict(),
            "calls": dict(self.stats),
        }

    def prepare(self, pairs: Sequence[tuple[Question, AnswerRecord]]) -> None:
        """Ask for every verdict not known yet, ``concurrency`` at a time."""
        todo = [(q, r) for q, r in pairs if _key(q, r) not in self._verdicts and gold_time_refs(q)]
        if not todo:
            return
        with ChatClient(self.config, self.cache) as client:
            results = client.chat_many([judge_messages(q, r) for q, r in todo])
            self.stats["http_calls"] += client.counters.http_calls
            self.stats["cache_hits"] += client.counters.cache_hits
        for (q, r), res in zip(todo, results, strict=True):
            if not res.ok:
                self.stats["errors"] += 1
                verdict = None
            else:
                verdict = parse_verdict(res.text)
                if verdict is None:
                    self.stats["no_verdict"] += 1
            self._verdicts[_key(q, r)] = verdict

    def answer(self, q: Question, record: AnswerRecord) -> bool | None:
        """The judge's verdict on an answer the careful rules leave undecided (``None``: no usable reply)."""
        key = ("\0answer", q.id, record.answer)
        if key not in self._answers:
            with ChatClient(self.config, self.cache) as client:
                res = client.chat_many([answer_messages(q, record)])[0]
                self.stats["http_calls"] += client.counters.http_calls
                self.stats["cache_hits"] += client.counters.cache_hits
            verdict = parse_verdict(res.text) if res.ok else None
            self.stats["errors" if not res.ok else "no_verdict"] += int(verdict is None)
            self._answers[key] = verdict
        return self._answers[key]

    def __call__(self, q: Question, record: AnswerRecord) -> bool | None:
        """The judge's verdict on ``record`` (``None``: no usable reply)."""
        key = _key(q, record)
        if key not in self._verdicts:
            self.prepare([(q, record)])
        return self._verdicts.get(key)


def _key(q: Question, r: AnswerRecord) -> tuple[str, str | None, str | None]:
    return (q.id, r.answer, r.explanation)


def make_judge(spec: str, cache_dir: str | Path | None = None) -> LLMJudge:
    """Build a judge from ``llm(model=...,base_url=...,...)`` (the parameters of the answerer's ``llm``)."""
    name, kw = parse_spec(spec)
    if name != "llm":
        raise UnknownNameError("judge", name, ("llm",))
    if "model" not in kw:
        raise ChronoqaError(
            "judge llm(...) needs model=..., e.g. --judge 'llm(model=smollm2,base_url=http://127.0.0.1:8080/v1)'"
        )
    known = {"model", "base_url", "api_key_env", "concurrency", "timeout", "retries", "temperature", "max_tokens"}
    known.add("seed")
    for k in kw:
        if k not in known:
            raise UnknownNameError("parameter of judge 'llm'", k, sorted(known))
    seed = int(kw.get("seed", 0))
    params: Mapping[str, Any] = {
        "temperature": float(kw.get("temperature", 0.0)),
        "max_tokens": int(kw.get("max_tokens", 8)),
        "seed": seed,
    }
    try:
        config = ClientConfig(
            base_url=str(kw.get("base_url", "http://127.0.0.1:8080/v1")),
            model=str(kw["model"]),
            api_key_env=str(kw.get("api_key_env", "OPENAI_API_KEY")),
            timeout_s=float(kw.get("timeout", 60.0)),
            max_retries=int(kw.get("retries", 4)),
            concurrency=int(kw.get("concurrency", 4)),
            seed=seed,
            parameters=params,
        )
    except ValueError as exc:
        raise ChronoqaError(f"judge spec {spec!r}: {exc}") from None
    return LLMJudge(config, cache_dir)
