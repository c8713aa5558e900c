"""`memtui serve`: the app in a real browser (headless Chromium from the distribution,
driven by Playwright without a browser download), loopback only unless --public.

The terminal is drawn on a canvas, so the page's DOM holds no text: the test reads the
screen from what the page received over its websocket (the app's output, escape
sequences removed), recorded by a script the page runs before textual-serve's own.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TODAY, run_cli

from memtui.cli.serve_verb import is_loopback
from tests.helpers import wait_until

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# Each text frame the page receives, escape sequences (CSI, OSC, charset) removed
RECORD_FRAMES = r"""
window.__screen = "";
const decoder = new TextDecoder();
const keep = (text) => {
  window.__screen += text
    .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, "")
    .replace(/\x1b\[[0-?]*[ -\/]*[@-~]/g, "")
    .replace(/\x1b[()][0-9A-Za-z]/g, "");
};
const Native = window.WebSocket;
window.WebSocket = function (...args) {
  const ws = new Native(...args);
  ws.addEventListener("message", (e) => {
    if (typeof e.data === "string") keep(e.data);
    else if (e.data instanceof ArrayBuffer) keep(decoder.decode(e.data, { stream: true }));
    else if (e.data instanceof Blob) e.data.text().then(keep);
  });
  return ws;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, Native);
"""

PANES = ("Workspace", "Companion", "Dsh", "File", "Events", "Mood", "Pending", "Warnings")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path: Path):
    """`memtui serve` on 127.0.0.1 over the demo store; yields its URL."""
    root = tmp_path / "demo"
    assert run_cli("demo", "--dir", str(root), "--no-ui").returncode == 0
    port = free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "MEMTUI_TODAY": TODAY}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "memtui", "serve", "--store", str(root), "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # the server and the app processes it starts, stopped as one
        )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: _answers(port) or proc.poll() is not None, what=f"{url} to answer")
        assert proc.poll() is None, log.read_text()
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _answers(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_the_app_opens_in_headless_chromium(served, tmp_path):
    if CHROMIUM is None:
        pytest.skip("no chromium: `apt-get install chromium` (Debian) to run the browser test")
    playwright = pytest.importorskip("playwright.sync_api", reason="playwright (test extra)")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.route("http*://fonts.googleapis.com/**", lambda route: route.abort())  # offline
            page.add_init_script(RECORD_FRAMES)
            # ?delay: textual-serve's splash, whose Start button starts the app
            page.goto(f"{served}/?delay=1", wait_until="domcontentloaded")
            splash = tmp_path / "splash.png"
            page.screenshot(path=str(splash))
            page.click("#start")
            names = str(list(PANES))
            page.wait_for_function(
                f"() => {names}.every((n) => window.__screen.includes(n))", timeout=60_000
            )
            screen = page.evaluate("() => window.__screen")
            shot = tmp_path / "memtui-served.png"
            page.screenshot(path=str(shot))
        finally:
            browser.close()
    assert "memtui" in screen and "events.md" in screen and "No file open" in screen
    assert shot.read_bytes() != splash.read_bytes()
    print(f"screenshot: {shot}")


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "example.org", "::"])
def test_a_host_other_than_loopback_needs_public(host, tmp_path):
    res = run_cli("serve", "--host", host, "--port", str(free_port()), cwd=tmp_path)
    assert res.returncode == 2 and "not loopback" in res.stderr and "--public" in res.stderr
    assert res.stdout == ""  # nothing started


def test_public_warns_that_anyone_may_change_the_memory(tmp_path):
    """The warning comes first, before any other check: here the store is missing, so
    nothing is bound, and the warning was still given."""
    res = run_cli("serve", "--host", "0.0.0.0", "--public", "--store", str(tmp_path / "none"))
    assert "anyone who can reach port 8000" in res.stderr and "no authentication" in res.stderr
    assert res.returncode == 2 and "no such folder" in res.stderr


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
def test_loopback_hosts_need_no_flag(host):
    assert is_loopback(host)
