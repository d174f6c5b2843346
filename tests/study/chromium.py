"""Headless Chromium driven over the DevTools protocol on a pipe: a page is opened as a
person's browser would open it, and JavaScript asks it what it shows.

No Python dependency: Chromium's ``--remote-debugging-pipe`` reads commands from fd 3
and writes replies to fd 4 (JSON messages, each ended by NUL). Chromium comes from
Debian's packages (``apt-get install chromium``; ``.ci/run`` installs it). Test support
only: nothing in cardsim uses it.
"""
from __future__ import annotations

import base64
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars")
TIMEOUT = 60.0
"""Seconds any one step (start, a command, a page load) may take."""


def executable() -> str:
    """The Chromium binary; an ``AssertionError`` saying how to install it when there is none."""
    found = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    assert found, "headless Chromium is needed for the browser tests: apt-get install -y chromium"
    return found


class Browser:
    """One headless Chromium with a fresh profile; ``with Browser() as b: b.open(path)``."""

    def __init__(self, width: int = 1400, height: int = 1000) -> None:
        self.width, self.height = width, height
        self._profile = tempfile.TemporaryDirectory(prefix="cardsim-chromium-")
        to_read, self._to_chromium = os.pipe()
        self._from_chromium, to_write = os.pipe()
        # bash puts the pipe ends at fds 3 and 4 and becomes Chromium (exec); dash's sh reads one digit only
        self._process = subprocess.Popen(
            ["bash", "-c", f'exec "$0" "$@" 3<&{to_read} 4>&{to_write}', executable(), *FLAGS,
             f"--user-data-dir={self._profile.name}", f"--window-size={width},{height}", "--remote-debugging-pipe",
             "about:blank"],
            pass_fds=(to_read, to_write), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True)
        os.close(to_read)
        os.close(to_write)
        self._buffer, self._events, self._next = b"", [], 0
        self._session: str | None = None

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Ask Chromium to quit; end its process group (only the processes it started) if it will not."""
        try:
            if self._process.poll() is None:
                self.send("Browser.close", session=False)
                self._process.wait(10)
        except (OSError, EOFError, TimeoutError, subprocess.TimeoutExpired):
            pass
        finally:
            if self._process.poll() is None:
                os.killpg(self._process.pid, signal.SIGKILL)
                self._process.wait()
            for fd in (self._to_chromium, self._from_chromium):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._profile.cleanup()

    def open(self, path: str | Path) -> None:
        """Load a local file in a new tab and wait for its load event (every image decoded or failed)."""
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self._session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                  session=False)["sessionId"]
        self.send("Page.enable")
        self._events.clear()
        self.send("Page.navigate", {"url": Path(path).resolve().as_uri()})
        self._wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the open page (JSON-able values only)."""
        reply = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in reply:
            raise AssertionError(f"JavaScript error: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def screenshot(self, png: str | Path, height: int | None = None) -> None:
        """A PNG of the whole open page (the full height, the window's width), or of its top ``height`` pixels."""
        full = int(self.evaluate("document.documentElement.scrollHeight"))
        height = full if height is None else min(height, full)
        self.send("Emulation.setDeviceMetricsOverride", {"width": self.width, "height": height,
                                                         "deviceScaleFactor": 1, "mobile": False})
        data = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": {
            "x": 0, "y": 0, "width": self.width, "height": height, "scale": 1}})["data"]
        Path(png).write_bytes(base64.b64decode(data))

    def send(self, method: str, params: dict | None = None, session: bool = True) -> dict:
        """Send one command (to the open page's session unless ``session=False``) and return its result."""
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self._session
        os.write(self._to_chromium, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise AssertionError(f"Chromium refused {method}: {reply['error']}")
                return reply["result"]

    def _wait_for(self, event: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not any(e.get("method") == event for e in self._events):
            self._receive(deadline)

    def _receive(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_chromium], [], [], left)[0]:
                raise TimeoutError(f"Chromium did not answer within {TIMEOUT:.0f} s")
            chunk = os.read(self._from_chromium, 1 << 16)
            if not chunk:
                raise EOFError(f"Chromium closed the pipe (exit status {self._process.poll()})")
            self._buffer += chunk
        text, _, self._buffer = self._buffer.partition(b"\0")
        message = json.loads(text)
        if "id" not in message:
            self._events.append(message)
        return message
