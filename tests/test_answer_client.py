from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chronoqa.answer.cache import ResponseCache, request_key
from chronoqa.answer.client import ChatClient, ClientConfig
from fake_openai import FakeOpenAI, Reply

MSG = [{"role": "user", "content": "Who?"}]


def _cfg(url: str, **kw: Any) -> ClientConfig:
    base: dict[str, Any] = {"base_url": url, "model": "m", "max_retries": 3, "backoff_base_s": 0.1, "timeout_s": 2.0}
    base.update(kw)
    return ClientConfig(**base)


def test_retries_on_429_and_5xx_then_succeeds() -> None:
    replies: list[Reply] = [(429, "slow down", {"Retry-After": "0.25"}), (500, "boom", {}), (503, "busy", {})]

    def script(n: int, payload: dict[str, Any]) -> Reply:
        return replies[n] if n < len(replies) else (200, "Answer: Paris\nExplanation: since 1900", {})

    slept: list[float] = []
    with FakeOpenAI(script) as srv, ChatClient(_cfg(srv.base_url), sleep=slept.append) as client:
        res = client.chat(MSG)
    assert res.ok and res.text == "Answer: Paris\nExplanation: since 1900"
    assert res.attempts == 4 and len(srv.requests) == 4
    # exponential backoff with jitter in [half, full] of base*2**(i-1); Retry-After honoured as a floor
    assert len(slept) == 3
    assert slept[0] >= 0.25
    assert 0.1 <= slept[1] <= 0.2 + 1e-9
    assert 0.2 <= slept[2] <= 0.4 + 1e-9
    assert srv.requests[0]["model"] == "m" and srv.requests[0]["messages"] == MSG


def test_backoff_schedule_is_seeded_and_reproducible() -> None:
    a = ChatClient(_cfg("http://127.0.0.1:9/v1", seed=1))
    b = ChatClient(_cfg("http://127.0.0.1:9/v1", seed=1))
    c = ChatClient(_cfg("http://127.0.0.1:9/v1", seed=2))
    sa = [a.backoff("k", i) for i in range(1, 5)]
    assert sa == [b.backoff("k", i) for i in range(1, 5)]
    assert sa != [c.backoff("k", i) for i in range(1, 5)]
    for client in (a, b, c):
        client.close()


def test_gives_up_and_reports_error_without_raising() -> None:
    with (
        FakeOpenAI(lambda n, p: (500, "always broken", {})) as srv,
        ChatClient(_cfg(srv.base_url, max_retries=2), sleep=lambda s: None) as client,
    ):
        res = client.chat(MSG)
    assert not res.ok and res.text is None
    assert res.error is not None and "gave up after 3 attempts" in res.error and "500" in res.error
    assert len(srv.requests) == 3


def test_client_error_is_not_retried() -> None:
    with (
        FakeOpenAI(lambda n, p: (400, "bad request", {})) as srv,
        ChatClient(_cfg(srv.base_url), sleep=lambda s: None) as client,
    ):
        res = client.chat(MSG)
    assert not res.ok and res.error is not None and res.error.startswith("HTTP 400")
    assert len(srv.requests) == 1


def test_timeout_is_retried_then_recorded() -> None:
    with (
        FakeOpenAI(lambda n, p: (0, "sleep:1.0", {})) as srv,
        ChatClient(_cfg(srv.base_url, timeout_s=0.2, max_retries=1), sleep=lambda s: None) as client,
    ):
        res = client.chat(MSG)
    assert not res.ok and res.error is not None and "Timeout" in res.error
    assert len(srv.requests) == 2


def test_network_error_is_recorded() -> None:
    # nothing listens on the discard port
    with ChatClient(_cfg("http://127.0.0.1:9/v1", max_retries=1), sleep=lambda s: None) as client:
        res = client.chat(MSG)
    assert not res.ok and res.error is not None and "Connect" in res.error


def test_cache_second_run_makes_no_http_calls(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    batch = [[{"role": "user", "content": f"q{i}"}] for i in range(6)]

    def script(n: int, p: dict[str, Any]) -> Reply:
        return 200, "Answer: " + p["messages"][0]["content"].upper(), {}

    with FakeOpenAI(script) as srv:
        with ChatClient(_cfg(srv.base_url, concurrency=3), cache) as client:
            first = client.chat_many(batch)
        assert len(srv.requests) == 6 and len(cache) == 6
        with ChatClient(_cfg(srv.base_url, concurrency=3), cache) as client:
            second = client.chat_many(batch)
            assert client.http_calls == 0 and client.counters.cache_hits == 6
        assert len(srv.requests) == 6
    assert [r.text for r in first] == [f"Answer: Q{i}" for i in range(6)]
    assert [r.text for r in second] == [r.text for r in first]
    assert all(r.cached for r in second)


def test_cache_key_depends_on_model_messages_and_parameters() -> None:
    k = request_key("m", MSG, {"temperature": 0})
    assert k == request_key("m", [dict(MSG[0])], {"temperature": 0})
    assert k != request_key("m2", MSG, {"temperature": 0})
    assert k != request_key("m", [{"role": "user", "content": "Who else?"}], {"temperature": 0})
    assert k != request_key("m", MSG, {"temperature": 0.5})


def test_failed_calls_are_not_cached(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c")
    with (
        FakeOpenAI(lambda n, p: (500, "x", {})) as srv,
        ChatClient(_cfg(srv.base_url, max_retries=0), cache) as client,
    ):
        assert not client.chat(MSG).ok
    assert len(cache) == 0


def test_concurrency_is_bounded() -> None:
    with (
        FakeOpenAI(lambda n, p: (0, "sleep:0.1", {})) as srv,
        ChatClient(_cfg(srv.base_url, concurrency=2), sleep=lambda s: None) as client,
    ):
        res = client.chat_many([[{"role": "user", "content": str(i)}] for i in range(8)])
    assert all(r.ok for r in res)
    assert srv.max_in_flight == 2


def test_api_key_from_named_env_var(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    monkeypatch.setenv("MY_KEY", "sekrit")
    with FakeOpenAI(lambda n, p: (200, "Answer: x", {})) as srv:
        orig = srv.script

        def spy(n: int, p: dict[str, Any]) -> Reply:
            return orig(n, p)

        srv.script = spy
        cfg = _cfg(srv.base_url, api_key_env="MY_KEY")
        with ChatClient(cfg) as client:
            assert "sekrit" in client._http.headers.get("Authorization", "")
            seen.append(str(cfg.public_dict()))
    assert "sekrit" not in seen[0]


def test_bad_config_is_rejected() -> None:
    with pytest.raises(ValueError, match="http"):
        ClientConfig(base_url="localhost:8080", model="m")
    with pytest.raises(ValueError, match="concurrency"):
        ClientConfig(base_url="http://x/v1", model="m", concurrency=0)


_FORMATS = ({"type": "json_schema", "json_schema": {"name": "x", "schema": {}}}, {"type": "json_object"})


def _format_script(accepted: set[str], status: int = 422) -> Any:
    """A server that refuses every response_format type not in ``accepted``, with an error naming the field.

    llama-cpp-python's server answers its validation error with a 500 whose body quotes it.
    """

    def script(n: int, payload: dict[str, Any]) -> Reply:
        fmt = payload.get("response_format")
        if fmt is not None and fmt["type"] not in accepted:
            return status, "('body', 'response_format', 'type'): Input should be 'text' or 'json_object'", {}
        return 200, '{"answers": []}', {}

    return script


@pytest.mark.parametrize("status", [400, 422, 500])
def test_response_formats_step_down_to_what_the_server_takes_and_remember_it(status: int) -> None:
    slept: list[float] = []
    script = _format_script({"json_object"}, status)
    with FakeOpenAI(script) as srv, ChatClient(_cfg(srv.base_url), sleep=slept.append) as client:
        first = client.chat(MSG, _FORMATS)
        second = client.chat([{"role": "user", "content": "Where?"}], _FORMATS)
    assert first.ok and second.ok and first.text == '{"answers": []}'
    sent = [r.get("response_format", {}).get("type") for r in srv.requests]
    assert sent == ["json_schema", "json_object", "json_object"]  # json_schema refused once, then not sent again
    assert client.response_format_counts == {"json_object": 2}
    assert slept == []  # a refusal is not retried


def test_a_server_taking_no_response_format_gets_the_prompt_alone() -> None:
    with FakeOpenAI(_format_script(set())) as srv, ChatClient(_cfg(srv.base_url)) as client:
        res = client.chat(MSG, _FORMATS)
    assert res.ok
    assert [r.get("response_format", {}).get("type") for r in srv.requests] == ["json_schema", "json_object", None]
    assert client.response_format_counts == {"prompt": 1}


def test_a_400_that_is_not_about_the_format_is_an_error_not_a_step_down() -> None:
    def script(n: int, payload: dict[str, Any]) -> Reply:
        return 400, "the prompt is longer than the context window", {}

    with FakeOpenAI(script) as srv, ChatClient(_cfg(srv.base_url)) as client:
        res = client.chat(MSG, _FORMATS)
    assert not res.ok and "HTTP 400" in (res.error or "")
    assert len(srv.requests) == 1


def test_response_formats_are_part_of_the_cache_key(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c")
    with FakeOpenAI(_format_script({"json_schema"})) as srv, ChatClient(_cfg(srv.base_url), cache) as client:
        with_json = client.chat(MSG, _FORMATS)
        plain = client.chat(MSG)
        again = client.chat(MSG, _FORMATS)
    assert with_json.key != plain.key and not plain.cached and again.cached
    assert len(srv.requests) == 2
    assert "response_format" not in srv.requests[1]  # the plain request carries none
