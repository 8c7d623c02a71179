"""Answerers by spec string: ``extractive``, ``prior``, ``fake(correct=0.5)``, ``llm(model=...,base_url=...)``.

Specs are written in chronoqa's one spec grammar (:mod:`chronoqa.spec`): ``name`` or
``name(key=value,...)``; values are numbers, ``true``/``false``, bare words (URLs and model names
included) or double-quoted strings (``llm(model="a,b")``). Unknown names and unknown parameters raise
:class:`~chronoqa.errors.UnknownNameError` with a "Did you mean ...?" suggestion.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from chronoqa.answer.base import Answerer
from chronoqa.answer.baselines import ExtractiveReader, FakeAnswerer, PriorAnswerer
from chronoqa.answer.client import ClientConfig
from chronoqa.answer.llm import LLMAnswerer
from chronoqa.errors import ChronoqaError
from chronoqa.spec import Bound, NameTable, Spec, SpecError, check_bounds, check_params

__all__ = ["ANSWERERS", "BASELINES", "client_config", "make_answerer", "parse_spec"]


def _answerer_spec(text: str | Spec) -> Spec:
    spec = Spec.parse(text)
    if spec.args or spec.at is not None:
        raise SpecError(
            f"answerer spec {str(spec)!r}: expected name or name(key=value,...), e.g. llm(model=gpt-4o-mini)"
        )
    return spec


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"llm(model=m,k=5)"`` -> ``("llm", {"model": "m", "k": 5})`` (one grammar: :mod:`chronoqa.spec`)."""
    parsed = _answerer_spec(spec)
    return parsed.name, parsed.param_dict


_LLM = {
    "model": Bound(),
    "max_body_mb": Bound(0, lo_open=True),
    "k": Bound(1),
    "max_tokens": Bound(1),
    "temperature": Bound(0, 2),
}


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
    max_body_mb: float = 8.0,
) -> LLMAnswerer:
    values: dict[str, bool | int | float | str] = {
        "model": model,
        "k": k,
        "max_tokens": max_tokens,
        "temperature": temperature,
        "max_body_mb": max_body_mb,
    }
    check_bounds("answerer llm", values, _LLM)
    params: dict[str, Any] = {"temperature": temperature, "max_tokens": max_tokens, "seed": seed}
    config = ClientConfig(
        base_url=base_url,
        model=model,
        api_key_env=api_key_env,
        timeout_s=timeout,
        max_retries=retries,
        concurrency=concurrency,
        seed=seed,
        max_body_bytes=max(1, int(max_body_mb * 1024 * 1024)),
        parameters=params,
    )
    shown = Spec("llm", params=(("model", model), ("protocol", protocol)))
    return LLMAnswerer(config, protocol=protocol, k=k, spec=str(shown))


ANSWERERS: NameTable[Callable[..., Answerer]] = NameTable(
    "answerer",
    (("extractive", ExtractiveReader), ("prior", PriorAnswerer), ("fake", FakeAnswerer), ("llm", _llm)),
)
"""Every answerer factory by name."""

BASELINES = ("extractive", "prior")
"""The offline baselines `chronoqa run` always evaluates."""


def make_answerer(spec: str) -> Answerer:
    """Build an answerer from its spec string."""
    parsed = _answerer_spec(spec)
    factory = ANSWERERS[parsed.name]
    check_params(f"answerer {parsed.name!r}", parsed, inspect.signature(factory).parameters)
    kwargs = parsed.param_dict
    if parsed.name == "llm" and "model" not in kwargs:
        raise ChronoqaError("answerer llm(...) needs model=..., e.g. llm(model=gpt-4o-mini,base_url=https://...)")
    try:
        return factory(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ChronoqaError(f"answerer spec {spec!r}: {exc}") from None


def client_config(spec: str, option: str) -> ClientConfig:
    """The chat client's settings of an ``llm(model=...,base_url=...)`` spec (the ``llm`` answerer's parameters).

    For the steps that ask a model through the answer client without answering (``chronoqa paraphrase --llm``,
    ``chronoqa build table --sql-to-text``); ``option`` names the flag in the error.
    """
    expected = "expected llm(model=...,base_url=...), the answerer's llm spec"
    try:
        config = getattr(make_answerer(spec), "config", None)
    except ChronoqaError as exc:
        raise ChronoqaError(f"{option} {spec!r}: {exc} ({expected})") from None
    if not isinstance(config, ClientConfig):
        raise ChronoqaError(f"{option} {spec!r}: {expected}")
    return config
