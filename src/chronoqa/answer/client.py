"""A client for any OpenAI-compatible chat endpoint (OpenAI, vLLM, llama.cpp server, Ollama).

* ``httpx`` is imported lazily: without it, building a client raises an error that says
  ``pip install chronoqa[llm]``.
* Bounded concurrency: :meth:`ChatClient.chat_many` runs at most ``concurrency`` requests at once
  (a thread pool) and returns results in input order.
* A deadline per request: ``timeout_s`` bounds the whole exchange, from connecting through the response
  headers to the last body byte: every socket operation waits at most until ``timeout_s`` after the request
  started (a network backend that caps each timeout), so a server dripping its headers or its body byte by
  byte cannot hold a request open.
* A cap on the response body: ``max_body_bytes`` (default 8 MiB, decoded size) is checked against a declared
  ``Content-Length`` before reading and against the bytes read so far while reading; a longer body fails the
  request (not retried) without holding more than about the cap in memory.
* An API key about to travel over plain ``http://`` to a host other than this machine raises an
  :class:`InsecureKeyWarning` (the request is still made: a LAN server may be intended).
* Timeouts and retries: 429, 5xx, timeouts and network errors are retried up to ``max_retries`` times
  with exponential backoff plus jitter. The jitter comes from a ``random.Random`` seeded from
  ``(seed, request key, attempt)``, so the schedule is reproducible and independent of thread timing.
  A ``Retry-After`` header (seconds) is honoured up to ``backoff_max``.
* A call that still fails returns a :class:`ChatResult` with ``ok=False`` and the error text; it never
  raises, so callers record the failure instead of dropping the question.
* Response formats (JSON mode): :meth:`ChatClient.chat` may be given ``response_formats``, ``response_format``
  values to try in order. A server that refuses one (an error whose body names ``response_format``, or a
  400/422 naming the value's type; never retried) is not sent it again by this client; the next is tried,
  and after the last the request goes with the prompt alone. ``response_format_counts`` says which one
  each answer came under (``prompt``: none). The list is part of the cache key, as the protocol asked for it.
* With a :class:`~chronoqa.answer.cache.ResponseCache`, successful responses are stored on disk and a
  repeated request is answered from the cache without any HTTP call.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import os
import random
import threading
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from chronoqa.answer.cache import ResponseCache, request_key
from chronoqa.errors import ChronoqaError

__all__ = [
    "DEFAULT_MAX_BODY_BYTES",
    "ChatClient",
    "ChatResult",
    "ClientConfig",
    "InsecureKeyWarning",
    "LLMDependencyError",
    "Message",
]

Message = Mapping[str, str]

_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class LLMDependencyError(ChronoqaError, ImportError):
    """The optional ``httpx`` dependency is missing."""


class InsecureKeyWarning(UserWarning):
    """An API key is about to be sent over plain http to a host that is not this machine."""


class _DeadlineExceeded(Exception):
    """A request ran past its total deadline."""


class _BodyTooLarge(Exception):
    """A response body is longer than ``max_body_bytes``."""


DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024
"""The default cap on one response body: chat completions are a few kB; a few MB leaves room for long ones."""

_DEADLINE = threading.local()  # .at: the monotonic deadline of the request this thread is making (or None)


def _capped(timeout: float | None) -> float | None:
    """``timeout`` shortened to what is left of this thread's request deadline (raise once it has passed)."""
    at: float | None = getattr(_DEADLINE, "at", None)
    if at is None:
        return timeout
    left = at - time.monotonic()
    if left <= 0:
        raise _deadline_error()
    return left if timeout is None else min(timeout, left)


def _deadline_error() -> Exception:
    import httpcore

    limit = getattr(_DEADLINE, "limit", 0.0)
    return httpcore.ReadTimeout(f"no complete response within the {limit:g} s request deadline")


def _deadline_backend(inner: Any) -> Any:
    """Wrap an ``httpcore`` network backend: every connect, read and write waits at most until the deadline.

    The deadline then covers the response headers too, which httpx's own per-operation timeouts do not (each
    byte of a dripped header starts a new read timeout).
    """
    import httpcore

    class Stream(httpcore.NetworkStream):
        def __init__(self, raw: Any) -> None:
            self._raw = raw

        def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
            try:
                return bytes(self._raw.read(max_bytes, _capped(timeout)))
            except httpcore.ReadTimeout:
                _capped(None)  # past the deadline: say so rather than "timed out"
                raise

        def write(self, buffer: bytes, timeout: float | None = None) -> None:
            self._raw.write(buffer, _capped(timeout))

        def close(self) -> None:
            self._raw.close()

        def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
            return Stream(self._raw.start_tls(ssl_context, server_hostname, _capped(timeout)))

        def get_extra_info(self, info: str) -> Any:
            return self._raw.get_extra_info(info)

    class Backend(httpcore.NetworkBackend):
        def connect_tcp(
            self,
            host: str,
            port: int,
            timeout: float | None = None,
            local_address: str | None = None,
            socket_options: Any = None,
        ) -> Any:
            return Stream(inner.connect_tcp(host, port, _capped(timeout), local_address, socket_options))

        def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> Any:
            return Stream(inner.connect_unix_socket(path, _capped(timeout), socket_options))

        def sleep(self, seconds: float) -> None:
            inner.sleep(seconds)

    return Backend()


def _plain_http_to_another_host(base_url: str) -> bool:
    """True for an ``http://`` URL whose host is not a loopback name or address."""
    parts = urlsplit(base_url)
    if parts.scheme != "http":
        return False
    host = (parts.hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True


def _require_httpx() -> Any:
    try:
        import httpx
    except ImportError:  # pragma: no cover - exercised only without the extra
        raise LLMDependencyError(
            "The LLM client needs httpx, which is not installed. Fix: pip install 'chronoqa[llm]'"
        ) from None
    return httpx


@dataclass(frozen=True)
class ClientConfig:
    """Where and how to call the endpoint.

    ``base_url`` is the OpenAI-style root (``http://127.0.0.1:8080/v1``); the client posts to
    ``{base_url}/chat/completions``. ``api_key_env`` names the environment variable holding the key
    (empty or unset: no ``Authorization`` header, fine for local servers). ``parameters`` are sent
    with every request (``temperature``, ``max_tokens``, ``seed``...) and are part of the cache key.
    """

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 60.0
    max_retries: int = 4
    backoff_base_s: float = 0.5
    backoff_max_s: float = 30.0
    concurrency: int = 4
    seed: int = 0
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    parameters: Mapping[str, Any] = field(default_factory=lambda: {"temperature": 0.0, "max_tokens": 128})

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url {self.base_url!r}: expected an http(s) URL such as http://127.0.0.1:8080/v1")
        if not self.model.strip():
            raise ValueError("model must name a model, got an empty name (e.g. model=gpt-4o-mini)")
        if not self.timeout_s > 0:
            raise ValueError(f"timeout must be > 0 seconds, got {self.timeout_s}")
        if self.concurrency < 1:
            raise ValueError(f"concurrency must be >= 1, got {self.concurrency}")
        if self.max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {self.max_retries}")
        if self.max_body_bytes < 1:
            raise ValueError(f"max_body_bytes must be >= 1, got {self.max_body_bytes}")

    def public_dict(self) -> dict[str, Any]:
        """JSON form for manifests (never includes the key itself, only the variable's name)."""
        return {
            "base_url": self.base_url,
            "model": self.model,
            "api_key_env": self.api_key_env,
            "timeout_s": self.timeout_s,
            "max_retries": self.max_retries,
            "backoff_base_s": self.backoff_base_s,
            "backoff_max_s": self.backoff_max_s,
            "concurrency": self.concurrency,
            "seed": self.seed,
            "max_body_bytes": self.max_body_bytes,
            "parameters": dict(sorted(self.parameters.items())),
        }


@dataclass(frozen=True)
class ChatResult:
    """Outcome of one chat request: the text on success, else the last error; plus bookkeeping."""

    ok: bool
    text: str | None
    error: str | None
    attempts: int
    cached: bool
    key: str


class _Counters:
    """Thread-safe call counters."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.http_calls = 0
        self.cache_hits = 0

    def add(self, *, http: int = 0, hits: int = 0) -> None:
        with self._lock:
            self.http_calls += http
            self.cache_hits += hits


class ChatClient:
    """OpenAI-compatible chat-completions client with retries, bounded concurrency and a response cache.

    ``sleep`` is injectable so tests can observe the backoff schedule without waiting.
    """

    def __init__(
        self,
        config: ClientConfig,
        cache: ResponseCache | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        transport: Any = None,
    ) -> None:
        httpx = _require_httpx()
        self.config = config
        self.cache = cache
        self._sleep = sleep
        self._httpx = httpx
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(config.api_key_env, "") if config.api_key_env else ""
        if key:
            if _plain_http_to_another_host(config.base_url):
                warnings.warn(
                    f"the API key in ${config.api_key_env} will be sent unencrypted over plain http to "
                    f"{config.base_url}: use https, a loopback address, or api_key_env= (no key) for that server",
                    InsecureKeyWarning,
                    stacklevel=2,
                )
            headers["Authorization"] = f"Bearer {key}"
        limits = httpx.Limits(max_connections=config.concurrency, max_keepalive_connections=config.concurrency)
        if transport is None:
            transport = httpx.HTTPTransport(limits=limits)
            # httpx takes no network backend as an argument; its pool's is swapped for one that keeps the
            # request deadline (tests/test_robust_llm.py fails if a new httpx moves this attribute)
            pool = transport._pool
            pool._network_backend = _deadline_backend(pool._network_backend)
        self._http = httpx.Client(
            base_url=config.base_url.rstrip("/"),
            headers=headers,
            timeout=httpx.Timeout(config.timeout_s),
            transport=transport,
            limits=limits,
        )
        self.counters = _Counters()
        self._formats_lock = threading.Lock()
        self._refused: set[str] = set()
        self.response_format_counts: dict[str, int] = {}

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._http.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def http_calls(self) -> int:
        """How many HTTP requests were sent (retries included)."""
        return self.counters.http_calls

    def backoff(self, key: str, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry ``attempt`` (1-based): ``base * 2**(attempt-1)`` plus seeded jitter."""
        c = self.config
        digest = hashlib.sha256(f"{c.seed}:{key}:{attempt}".encode()).digest()
        rng = random.Random(int.from_bytes(digest[:8], "big"))
        delay = min(c.backoff_max_s, c.backoff_base_s * (2 ** (attempt - 1)))
        delay = delay * (0.5 + rng.random() / 2)  # "equal jitter": between half and all of the step
        if retry_after is not None:
            delay = max(delay, min(retry_after, c.backoff_max_s))
        return delay

    def chat(self, messages: Sequence[Message], response_formats: Sequence[Mapping[str, Any]] = ()) -> ChatResult:
        """Send one chat request (or answer it from the cache); never raises on endpoint failures.

        ``response_formats``: ``response_format`` values to try in order (see the module docstring).
        """
        c = self.config
        params = dict(c.parameters)
        if response_formats:
            params["response_format"] = [dict(f) for f in response_formats]
        key = request_key(c.model, messages, params)
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self.counters.add(hits=1)
                return ChatResult(True, hit, None, 0, True, key)
        base: dict[str, Any] = {"model": c.model, "messages": [dict(m) for m in messages], **c.parameters}
        for fmt in [*response_formats, None]:
            name = "prompt" if fmt is None else str(fmt.get("type", "?"))
            if name in self._refused:
                continue
            payload = base if fmt is None else {**base, "response_format": dict(fmt)}
            res, refused = self._attempts(payload, key)
            if fmt is not None and refused:
                with self._formats_lock:
                    self._refused.add(name)
                continue
            if res.ok:
                with self._formats_lock:
                    self.response_format_counts[name] = self.response_format_counts.get(name, 0) + 1
            return res
        raise AssertionError("unreachable: the prompt alone is never refused")  # pragma: no cover

    def _attempts(self, payload: Mapping[str, Any], key: str) -> tuple[ChatResult, bool]:
        """Send ``payload`` with retries; the result, and whether the server refused its ``response_format``."""
        c = self.config
        httpx = self._httpx
        error = "no attempt made"
        for attempt in range(1, c.max_retries + 2):
            retry_after: float | None = None
            self.counters.add(http=1)
            try:
                status, resp_headers, body = self._post(payload)
            except (httpx.TimeoutException, httpx.TransportError, _DeadlineExceeded) as exc:
                error = f"{type(exc).__name__}: {exc}"
            except _BodyTooLarge as exc:  # the same request would get the same body: not retried
                return ChatResult(False, None, f"response too large: {exc}", attempt, False, key), False
            else:
                body_text = body.decode("utf-8", "replace")
                if status == 200:
                    return self._success(payload, key, body_text, attempt), False
                error = f"HTTP {status}: {body_text[:200]}"
                if _refuses_format(payload, status, body_text):  # not transient: never retried
                    return ChatResult(False, None, error, attempt, False, key), True
                if status not in _RETRY_STATUS:
                    return ChatResult(False, None, error, attempt, False, key), False
                retry_after = _retry_after(resp_headers.get("retry-after"))
            if attempt <= c.max_retries:
                self._sleep(self.backoff(key, attempt, retry_after))
        gave_up = f"gave up after {c.max_retries + 1} attempts: {error}"
        return ChatResult(False, None, gave_up, c.max_retries + 1, False, key), False

    def _success(self, payload: Mapping[str, Any], key: str, body_text: str, attempt: int) -> ChatResult:
        try:
            text = _content_of(json.loads(body_text))
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            error = f"malformed response: {exc}: {body_text[:200]!r}"
            return ChatResult(False, None, error, attempt, False, key)
        if self.cache is not None:
            request = {k: payload[k] for k in ("model", "messages", "response_format") if k in payload}
            self.cache.put(key, text, request)
        return ChatResult(True, text, None, attempt, False, key)

    def _post(self, payload: Mapping[str, Any]) -> tuple[int, Mapping[str, str], bytes]:
        """One POST with a deadline on the whole exchange and a cap on the body's size.

        Every socket operation waits at most until ``timeout_s`` after the request started (the network
        backend reads the deadline this thread set), so dripped headers are cut off at the deadline as a
        dripped body is. The body is refused once it is longer than ``max_body_bytes``.
        """
        limit, cap = self.config.timeout_s, self.config.max_body_bytes
        deadline = time.monotonic() + limit
        _DEADLINE.at, _DEADLINE.limit = deadline, limit
        try:
            with self._http.stream("POST", "/chat/completions", json=payload) as resp:
                declared = resp.headers.get("content-length", "")
                if declared.isdigit() and int(declared) > cap:
                    raise _BodyTooLarge(f"Content-Length {declared} bytes is over the {cap} byte cap (max_body_bytes)")
                chunks: list[bytes] = []
                size = 0
                for chunk in resp.iter_bytes():
                    size += len(chunk)
                    if size > cap:
                        raise _BodyTooLarge(f"body over the {cap} byte cap (max_body_bytes)")
                    chunks.append(chunk)
                    if time.monotonic() > deadline:
                        raise _DeadlineExceeded(f"no complete response within the {limit:g} s request deadline")
                return resp.status_code, resp.headers, b"".join(chunks)
        finally:
            _DEADLINE.at = None

    def chat_many(
        self,
        batch: Sequence[Sequence[Message]],
        *,
        on_done: Callable[[int, ChatResult], None] | None = None,
        response_formats: Sequence[Mapping[str, Any]] = (),
    ) -> list[ChatResult]:
        """Run many requests with at most ``concurrency`` in flight; results in input order.

        ``on_done(i, result)`` is called (from worker threads) as each request finishes, e.g. for a
        progress bar. ``response_formats`` is passed to every :meth:`chat`.
        """

        def one(i: int) -> ChatResult:
            res = self.chat(batch[i], response_formats)
            if on_done is not None:
                on_done(i, res)
            return res

        if self.config.concurrency == 1:
            return [one(i) for i in range(len(batch))]
        with ThreadPoolExecutor(max_workers=self.config.concurrency) as pool:
            return list(pool.map(one, range(len(batch))))


def _content_of(body: Any) -> str:
    content = body["choices"][0]["message"]["content"]
    if content is None:
        return ""
    if not isinstance(content, str):
        raise TypeError(f"message content is {type(content).__name__}, expected a string")
    return content


def _refuses_format(payload: Mapping[str, Any], status: int, body: str) -> bool:
    """True when an error answers a request whose ``response_format`` the server does not take.

    The body names the field (OpenAI and FastAPI servers; llama-cpp-python's reports its validation
    error as a 500), or a 400/422 names the format's type.
    """
    fmt = payload.get("response_format")
    if fmt is None or status < 400:
        return False
    low = body.lower()
    return "response_format" in low or (status in (400, 422) and str(fmt.get("type", "")).lower() in low)


def _retry_after(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        secs = float(value)
    except ValueError:
        return None  # an HTTP date: not parsed here (no date parsing outside chronoqa.time)
    return secs if secs >= 0 else None
