"""A scriptable fake OpenAI-compatible chat server (stdlib http.server in a thread) for tests."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = tuple[int, str, dict[str, str]]  # status, body text (the message content on 200), headers


class FakeOpenAI:
    """Serves POST /v1/chat/completions. ``script(n, payload)`` decides the n-th reply (0-based).

    A reply status of 200 wraps the text as an OpenAI chat completion; ``"sleep:<s>"`` as text with
    status 0 makes the server wait ``s`` seconds before answering 200 "late" (to trigger timeouts);
    ``"drip:<s>"`` sends the headers at once, then the body one byte every ``s`` seconds (a slow drip);
    ``"hdrip:<s>"`` sends the status line and headers themselves one byte every ``s`` seconds;
    ``"big:<n>"`` sends a body of ``n`` bytes with no Content-Length (read until the connection closes),
    ``"bigdecl:<n>"`` only declares a Content-Length of ``n`` and sends a few bytes.
    """

    def __init__(self, script: Callable[[int, dict[str, Any]], Reply]) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                n_bytes = int(self.headers.get("Content-Length", "0"))
                payload = json.loads(self.rfile.read(n_bytes))
                with outer.lock:
                    n = len(outer.requests)
                    outer.requests.append(payload)
                    outer.in_flight += 1
                    outer.max_in_flight = max(outer.max_in_flight, outer.in_flight)
                released = False

                def release() -> None:
                    # Count the request as finished BEFORE its response leaves: a client may send its
                    # next request as soon as it reads this one, before the handler thread returns.
                    nonlocal released
                    if not released:
                        released = True
                        with outer.lock:
                            outer.in_flight -= 1

                try:
                    status, text, headers = outer.script(n, payload)
                    if status == 0 and text.startswith("sleep:"):
                        time.sleep(float(text.split(":", 1)[1]))
                        status, text = 200, "Answer: late"
                    if status == 0 and text.startswith("drip:"):  # headers at once, then one body byte per step
                        release()
                        self._drip(float(text.split(":", 1)[1]))
                        return
                    if status == 0 and text.split(":", 1)[0] in ("hdrip", "big", "bigdecl"):
                        release()
                        self._hostile(*text.split(":", 1))
                        return
                    time.sleep(0.01)
                    if status == 200:
                        body = json.dumps(
                            {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}}]}
                        ).encode()
                    else:
                        body = json.dumps({"error": text}).encode()
                    release()
                    try:
                        self.send_response(status)
                        for k, v in headers.items():
                            self.send_header(k, v)
                        self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                finally:
                    release()

            def _drip(self, step: float) -> None:
                body = json.dumps({"choices": [{"index": 0, "message": {"content": "Answer: drip"}}]}).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.flush()
                    for i in range(len(body)):
                        self.wfile.write(body[i : i + 1])
                        self.wfile.flush()
                        time.sleep(step)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _hostile(self, kind: str, arg: str) -> None:
                try:
                    if kind == "hdrip":
                        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Pad: " + b"a" * 200
                        for i in range(len(head)):
                            self.wfile.write(head[i : i + 1])
                            self.wfile.flush()
                            time.sleep(float(arg))
                        return
                    self.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n")
                    if kind == "bigdecl":
                        self.wfile.write(f"Content-Length: {arg}\r\n\r\n".encode() + b'{"choices": ')
                        return
                    self.wfile.write(b"\r\n")
                    block = b" " * 65536
                    for _ in range(int(arg) // len(block)):
                        self.wfile.write(block)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def echo_gold(answer_of: Callable[[dict[str, Any]], str]) -> Callable[[int, dict[str, Any]], Reply]:
    """A script that always answers 200 with ``Answer: <answer_of(payload)>``."""

    def script(n: int, payload: dict[str, Any]) -> Reply:
        return 200, f"Answer: {answer_of(payload)}\nExplanation: it held in 2001.", {}

    return script
