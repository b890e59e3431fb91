"""The game report in a real headless Chromium, driven over the DevTools protocol.

Chromium is started with ``--remote-debugging-pipe``: the protocol then runs over
file descriptors 3 and 4 as NUL-separated JSON, so the standard library is enough
(no websocket client, no Playwright). The test steps through a round with the
keyboard, checks the board changed, that the console stayed clean, that no dialog
opened (a player is named ``<script>alert(1)</script>``) and that the page asked
for nothing over the network; it writes a screenshot to a temp dir
(``MJAUDIT_SCREENSHOT_DIR`` picks the folder).
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import json
import os
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from analyzer.checks.audit import resolve_rules
from mjaudit.events import PlayerInfo
from parsers import load
from reports.html import render_game
from reports.views import build_game_view
from reports.views_facts import collect_game

ROOT = Path(__file__).resolve().parents[1]
EVIL = "<script>alert(1)</script>"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-extensions",
    "--remote-debugging-pipe",
    "--window-size=1280,1400",
)


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class DevTools:
    """A minimal DevTools-protocol client over Chromium's debugging pipe."""

    def __init__(self, binary: str, profile: Path) -> None:
        to_chrome_r, self._out = os.pipe()
        self._in, from_chrome_w = os.pipe()

        def wire() -> None:  # runs in the child: the pipe must be fds 3 and 4
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            preexec_fn=wire,
            pass_fds=(3, 4),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    def _read(self, timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._in], [], [], left)
            if ready:
                chunk = os.read(self._in, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the debugging pipe")
                self._buf += chunk
        raw, _, self._buf = self._buf.partition(b"\0")
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, timeout: float = 30.0, **params: Any) -> dict[str, Any]:
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if self.session is not None and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self._out, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(max(0.0, deadline - time.monotonic()))
            if reply is None:
                raise TimeoutError(f"no reply to {method}")
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = 30.0) -> dict[str, Any]:
        for seen in self.events:
            if seen.get("method") == method:
                return seen
        deadline = time.monotonic() + timeout
        while True:
            ev = self._read(max(0.0, deadline - time.monotonic()))
            if ev is None:
                raise TimeoutError(f"no {method} event")
            self.events.append(ev)
            if ev.get("method") == method:
                return ev

    def drain(self, seconds: float = 0.3) -> None:
        while (ev := self._read(seconds)) is not None:
            self.events.append(ev)

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def key(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code
            )

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self.call("Browser.close", timeout=5)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._out)
        os.close(self._in)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevTools]:
    binary = _chromium()
    if binary is None:
        pytest.skip("no chromium binary on PATH (CI installs Debian's chromium in .ci/run)")
    tools = DevTools(binary, tmp_path_factory.mktemp("chromium-profile"))
    try:
        target = tools.call("Target.createTarget", url="about:blank")["targetId"]
        tools.session = tools.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Log", "Network"):
            tools.call(f"{domain}.enable")
        yield tools
    finally:
        tools.close()


def _evil_report(tmp_path: Path) -> Path:
    log = load(str(ROOT / "sample_logs" / "clean_game.xml"))
    start = log.start
    players = (PlayerInfo(EVIL), *start.players[1:])
    events = (dataclasses.replace(start, players=players), *log.events[1:])
    log = dataclasses.replace(log, events=events)
    view = build_game_view(collect_game(log, resolve_rules(log, "auto")))
    page = tmp_path / "game.html"
    page.write_text(render_game(view), encoding="utf-8")
    return page


def _board_state(tools: DevTools) -> dict[str, Any]:
    state: dict[str, Any] = tools.evaluate(
        """(() => {
          const b = document.querySelector('#board-0');
          return {
            caption: b.querySelector('.caption').textContent,
            step: b.querySelector('.stepno').textContent,
            ponds: [...b.querySelectorAll('.seat .pond')].map(p => p.textContent),
            hands: [...b.querySelectorAll('.seat .h')].map(h => h.textContent),
            tiles: b.querySelectorAll('.seat .pond svg.tile').length,
            hash: location.hash,
          };
        })()"""
    )
    return state


def test_report_steps_with_the_keyboard_in_chromium(browser: DevTools, tmp_path: Path) -> None:
    page = _evil_report(tmp_path)
    browser.call("Page.navigate", url=page.as_uri())
    browser.wait_for("Page.loadEventFired")
    browser.evaluate("document.querySelector('#r0').scrollIntoView()")

    start = _board_state(browser)
    assert start["step"].startswith("step 0 /")
    assert start["tiles"] == 0  # nothing discarded yet

    for _ in range(6):
        browser.key("ArrowRight", 39)
    after = _board_state(browser)
    assert after["step"].startswith("step 6 /")
    assert after["hash"] == "#r0s6"
    assert after["caption"] != start["caption"]
    assert after["tiles"] > 0  # discards reached the ponds
    assert after["ponds"] != start["ponds"]

    browser.key("ArrowLeft", 37)
    assert _board_state(browser)["step"].startswith("step 5 /")
    browser.key("ArrowDown", 40)
    assert browser.evaluate("location.hash") == "#r1s0"
    browser.key("ArrowUp", 38)
    assert browser.evaluate("location.hash") == "#r0s0"
    for _ in range(5):
        browser.key("ArrowRight", 39)

    # The untrusted name is shown as text and nothing ran.
    assert EVIL in browser.evaluate("document.body.innerText")
    assert browser.evaluate("document.querySelectorAll('script:not([type])').length") == 1

    shot = browser.call("Page.captureScreenshot", format="png")["data"]
    folder = Path(os.environ.get("MJAUDIT_SCREENSHOT_DIR", str(tmp_path)))
    folder.mkdir(parents=True, exist_ok=True)
    png = folder / "report-board.png"
    png.write_bytes(base64.b64decode(shot))
    print(f"screenshot: {png}")
    assert png.stat().st_size > 10_000

    browser.drain()
    methods = [e.get("method") for e in browser.events]
    assert "Page.javascriptDialogOpening" not in methods
    console_errors = [
        e["params"]
        for e in browser.events
        if (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] == "error")
        or e.get("method") == "Runtime.exceptionThrown"
        or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")
    ]
    assert console_errors == []
    requested = [
        e["params"]["request"]["url"]
        for e in browser.events
        if e.get("method") == "Network.requestWillBeSent"
    ]
    assert requested == [page.as_uri()]
