"""The LLM client keeps its deadline against a slow-drip server and warns before a key travels in clear."""

from __future__ import annotations

import time
import warnings

import pytest

from chronoqa.answer.client import ChatClient, ClientConfig, InsecureKeyWarning
from fake_openai import FakeOpenAI

MSG = [{"role": "user", "content": "hi"}]


def test_slow_drip_is_cut_at_the_deadline() -> None:
    # ~70 body bytes, one every 0.5 s: 35 s in all; each read completes well within the 1 s read timeout
    with (
        FakeOpenAI(lambda n, p: (0, "drip:0.5", {})) as srv,
        ChatClient(ClientConfig(srv.base_url, "m", timeout_s=1.0, max_retries=0), sleep=lambda s: None) as client,
    ):
        t0 = time.monotonic()
        res = client.chat(MSG)
        elapsed = time.monotonic() - t0
    assert not res.ok and res.error is not None and "deadline" in res.error, res
    assert elapsed < 3.0, elapsed  # the deadline (1 s) plus at most one more read, not 35 s


def test_a_quick_drip_within_the_deadline_is_read() -> None:
    with (
        FakeOpenAI(lambda n, p: (0, "drip:0.001", {})) as srv,
        ChatClient(ClientConfig(srv.base_url, "m", timeout_s=5.0, max_retries=0)) as client,
    ):
        res = client.chat(MSG)
    assert res.ok and res.text == "Answer: drip"


@pytest.mark.parametrize(
    ("url", "warns"),
    [
        ("http://api.example.com/v1", True),
        ("http://10.0.0.7:8080/v1", True),
        ("https://api.example.com/v1", False),
        ("http://127.0.0.1:8080/v1", False),
        ("http://127.1.2.3:8080/v1", False),
        ("http://localhost:11434/v1", False),
        ("http://[::1]:8080/v1", False),
    ],
)
def test_key_over_plain_http_warns(monkeypatch: pytest.MonkeyPatch, url: str, warns: bool) -> None:
    monkeypatch.setenv("CHRONOQA_TEST_KEY", "sk-secret")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        ChatClient(ClientConfig(url, "m", api_key_env="CHRONOQA_TEST_KEY")).close()
    got = [w for w in seen if issubclass(w.category, InsecureKeyWarning)]
    assert bool(got) == warns, (url, [str(w.message) for w in seen])
    if got:
        assert "CHRONOQA_TEST_KEY" in str(got[0].message) and "sk-secret" not in str(got[0].message)


def test_no_key_no_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CHRONOQA_TEST_KEY", raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ChatClient(ClientConfig("http://api.example.com/v1", "m", api_key_env="CHRONOQA_TEST_KEY")).close()


def test_dripped_headers_are_cut_at_the_deadline() -> None:
    # ~240 header bytes, one every 0.05 s: 12 s in all, each read well within the 1 s timeout
    with (
        FakeOpenAI(lambda n, p: (0, "hdrip:0.05", {})) as srv,
        ChatClient(ClientConfig(srv.base_url, "m", timeout_s=1.0, max_retries=0), sleep=lambda s: None) as client,
    ):
        t0 = time.monotonic()
        res = client.chat(MSG)
        elapsed = time.monotonic() - t0
    assert not res.ok and res.error is not None and "deadline" in res.error, res
    assert elapsed < 3.0, elapsed  # the deadline, not the 12 s the headers take


def test_the_deadline_holds_on_every_retry() -> None:
    with (
        FakeOpenAI(lambda n, p: (0, "hdrip:0.05", {})) as srv,
        ChatClient(ClientConfig(srv.base_url, "m", timeout_s=0.5, max_retries=2), sleep=lambda s: None) as client,
    ):
        t0 = time.monotonic()
        res = client.chat(MSG)
        elapsed = time.monotonic() - t0
    assert not res.ok and res.attempts == 3 and len(srv.requests) == 3
    assert elapsed < 4.0, elapsed  # three tries of 0.5 s each


def test_a_body_over_the_cap_is_refused_while_reading() -> None:
    # 64 MiB of body without a Content-Length against a 1 MiB cap
    with (
        FakeOpenAI(lambda n, p: (0, f"big:{64 * 1024 * 1024}", {})) as srv,
        ChatClient(ClientConfig(srv.base_url, "m", max_body_bytes=1024 * 1024, max_retries=2)) as client,
    ):
        res = client.chat(MSG)
    assert not res.ok and res.error is not None and "max_body_bytes" in res.error, res
    assert res.attempts == 1 and len(srv.requests) == 1  # the same request would get the same body


def test_a_declared_length_over_the_cap_is_refused_before_reading() -> None:
    with (
        FakeOpenAI(lambda n, p: (0, "bigdecl:1500000000", {})) as srv,
        ChatClient(ClientConfig(srv.base_url, "m", timeout_s=5.0, max_retries=0)) as client,
    ):
        t0 = time.monotonic()
        res = client.chat(MSG)
    assert not res.ok and res.error is not None and "Content-Length 1500000000" in res.error, res
    assert time.monotonic() - t0 < 2.0  # refused at the headers, not after waiting for 1.5 GB


def test_a_body_within_the_cap_is_read() -> None:
    with (
        FakeOpenAI(lambda n, p: (200, "Answer: ok", {})) as srv,
        ChatClient(ClientConfig(srv.base_url, "m", max_body_bytes=200, max_retries=0)) as client,
    ):
        assert client.chat(MSG).text == "Answer: ok"
    with pytest.raises(ValueError, match="max_body_bytes"):
        ClientConfig("http://127.0.0.1:1/v1", "m", max_body_bytes=0)
