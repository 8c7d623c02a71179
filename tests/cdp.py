"""A minimal headless-Chromium driver over the DevTools protocol's pipe transport (stdlib only).

Chromium started with ``--remote-debugging-pipe`` reads NUL-terminated JSON commands on fd 3 and writes
responses and events on fd 4: no websocket, no port, no extra package. Used by the browser test of the
report and by ``benchmarks/bench_report.py``.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

__all__ = ["Browser", "BrowserError", "find_chromium"]


class BrowserError(RuntimeError):
    """The browser did not answer, or answered with an error."""


def find_chromium() -> str | None:
    """Debian's ``chromium`` (or another Chromium-like binary on PATH), else ``None``."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless Chromium with one page; ``events`` collects every console error and exception."""

    def __init__(self, exe: str, *, width: int = 1300, height: int = 1000, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory(prefix="chronoqa-cdp-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def wire() -> None:  # in the child: its fd 3 reads our commands, fd 4 writes its answers
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [
                exe,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
                f"--user-data-dir={self._profile.name}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,
            preexec_fn=wire,  # the pipe transport needs fds 3 and 4 in the child
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._next = 0
        self.errors: list[str] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self.call("Emulation.setDeviceMetricsOverride", metrics, session=True)

    # -------------------------------------------------------------------------------- protocol
    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_chrome], [], [], left)[0]:
                raise BrowserError("chromium did not answer in time")
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                raise BrowserError("chromium closed the DevTools pipe (did it start?)")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        msg: dict[str, Any] = json.loads(raw)
        return msg

    def _event(self, msg: dict[str, Any]) -> None:
        method, p = msg.get("method"), msg.get("params") or {}
        if method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails") or {}
            self.errors.append(f"exception: {(d.get('exception') or {}).get('description') or d.get('text')}")
        elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description"))) for a in p["args"])
            self.errors.append(f"console.error: {args}")
        elif method == "Log.entryAdded" and (p.get("entry") or {}).get("level") == "error":
            self.errors.append(f"log: {p['entry'].get('text')} {p['entry'].get('url', '')}")

    def call(self, method: str, params: dict[str, Any] | None = None, *, session: bool = False) -> dict[str, Any]:
        """Send one command and wait for its result (events that arrive meanwhile are collected)."""
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            got = self._read_message(deadline)
            if got.get("id") == self._next:
                if "error" in got:
                    raise BrowserError(f"{method}: {got['error']}")
                result: dict[str, Any] = got.get("result") or {}
                return result
            self._event(got)

    # -------------------------------------------------------------------------------- page helpers
    def js(self, expression: str) -> Any:
        """Evaluate ``expression`` in the page and return its value (JSON-able)."""
        res = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        if "exceptionDetails" in res:
            why = res["exceptionDetails"].get("exception", {}).get("description")
            raise BrowserError(f"{expression[:60]}...: {why}")
        return (res.get("result") or {}).get("value")

    def wait_for(self, condition: str, timeout: float | None = None) -> None:
        """Poll until ``condition`` (a JS expression) is true in the page."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while not self.js(f"!!({condition})"):
            if time.monotonic() > deadline:
                raise BrowserError(f"not true in time: {condition}")
            time.sleep(0.02)

    def open(self, path: Path, *, ready: str, timeout: float | None = None) -> float:
        """Load a file and wait until ``ready`` (a JS expression) is true; returns the seconds it took."""
        t0 = time.monotonic()
        self.call("Page.navigate", {"url": path.resolve().as_uri()}, session=True)
        self.wait_for(ready, timeout)
        return time.monotonic() - t0

    def click(self, selector: str) -> None:
        """Scroll the first element matching ``selector`` into view and click its centre with the mouse."""
        box = self.js(
            f"(function(){{var e=document.querySelector({json.dumps(selector)});if(!e)return null;"
            "e.scrollIntoView({block:'center'});var r=e.getBoundingClientRect();"
            "return [r.left+Math.min(r.width/2,40),r.top+r.height/2];})()"
        )
        if box is None:
            raise BrowserError(f"nothing matches {selector!r}")
        for kind in ("mousePressed", "mouseReleased"):
            event = {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1}
            self.call("Input.dispatchMouseEvent", event, session=True)

    def screenshot(self, out: Path, selector: str | None = None) -> Path:
        """A PNG of the page, or of the box around ``selector`` (document coordinates)."""
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": True}
        if selector:
            box = self.js(
                f"(function(){{var e=document.querySelector({json.dumps(selector)});var r=e.getBoundingClientRect();"
                "return [r.left+scrollX,r.top+scrollY,r.width,r.height];})()"
            )
            params["clip"] = {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}
        data = self.call("Page.captureScreenshot", params, session=True)["data"]
        out.write_bytes(base64.b64decode(data))
        return out

    def close(self) -> None:
        """Quit the browser."""
        with contextlib.suppress(BrowserError, OSError):
            self.call("Browser.close")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_chrome, self._from_chrome):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._profile.cleanup()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object | TracebackType) -> None:
        self.close()
