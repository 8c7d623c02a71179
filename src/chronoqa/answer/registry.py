"""Answerers by spec string: ``extractive``, ``prior``, ``fake(correct=0.5)``, ``llm(model=...,base_url=...)``.

A spec is ``name`` or ``name(key=value,...)``; values are numbers or bare strings (URLs included).
Unknown names and unknown parameters raise :class:`~chronoqa.errors.UnknownNameError` with a
"Did you mean ...?" suggestion.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any

from chronoqa.answer.base import Answerer
from chronoqa.answer.baselines import ExtractiveReader, FakeAnswerer, PriorAnswerer
from chronoqa.answer.client import ClientConfig
from chronoqa.answer.llm import LLMAnswerer
from chronoqa.errors import ChronoqaError, UnknownNameError

__all__ = ["ANSWERERS", "BASELINES", "make_answerer", "parse_spec"]

_SPEC = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$", re.DOTALL)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"llm(model=m,k=5)"`` → ``("llm", {"model": "m", "k": 5})``."""
    m = _SPEC.match(spec)
    if not m:
        raise ChronoqaError(
            f"answerer spec {spec!r}: expected name or name(key=value,...), e.g. llm(model=gpt-4o-mini)"
        )
    name, body = m.group(1), m.group(2)
    kwargs: dict[str, Any] = {}
    if body and body.strip():
        for part in body.split(","):
            if "=" not in part:
                raise ChronoqaError(f"answerer spec {spec!r}: argument {part.strip()!r} is not key=value")
            k, v = (x.strip() for x in part.split("=", 1))
            kwargs[k] = _value(v)
    return name, kwargs


def _value(v: str) -> Any:
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        return v[1:-1]
    for cast in (int, float):
        try:
            return cast(v)
        except ValueError:
            pass
    if v.lower() in ("true", "false"):
        return v.lower() == "true"
    return v


def _llm(
    model: str,
    base_url: str = "http://127.0.0.1:8080/v1",
    protocol: str = "rag@1",
    k: int = 10,
    api_key_env: str = "OPENAI_API_KEY",
    concurrency: int = 4,
    timeout: float = 60.0,
    retries: int = 4,
    temperature: float = 0.0,
    max_tokens: int = 128,
    seed: int = 0,
) -> LLMAnswerer:
    params: dict[str, Any] = {"temperature": temperature, "max_tokens": max_tokens, "seed": seed}
    config = ClientConfig(
        base_url=base_url,
        model=model,
        api_key_env=api_key_env,
        timeout_s=timeout,
        max_retries=retries,
        concurrency=concurrency,
        seed=seed,
        parameters=params,
    )
    return LLMAnswerer(config, protocol=protocol, k=k, spec=f"llm(model={model},protocol={protocol})")


ANSWERERS: Mapping[str, Callable[..., Answerer]] = {
    "extractive": ExtractiveReader,
    "prior": PriorAnswerer,
    "fake": FakeAnswerer,
    "llm": _llm,
}
"""Every answerer factory by name."""

BASELINES = ("extractive", "prior")
"""The offline baselines `chronoqa run` always evaluates."""


def make_answerer(spec: str) -> Answerer:
    """Build an answerer from its spec string."""
    name, kwargs = parse_spec(spec)
    if name not in ANSWERERS:
        raise UnknownNameError("answerer", name, ANSWERERS)
    factory = ANSWERERS[name]
    params = inspect.signature(factory).parameters
    for k in kwargs:
        if k not in params:
            raise UnknownNameError(f"parameter of answerer {name!r}", k, params)
    if name == "llm" and "model" not in kwargs:
        raise ChronoqaError("answerer llm(...) needs model=..., e.g. llm(model=gpt-4o-mini,base_url=https://...)")
    try:
        return factory(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ChronoqaError(f"answerer spec {spec!r}: {exc}") from None
