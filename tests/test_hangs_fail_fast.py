"""A hang fails its own test, fast and by name, and the suite goes on: pytest-timeout's
per-test limit (pyproject) and the waits' deadlines (helpers.wait_until, ui_helpers.until)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from textual.app import App

from tests.helpers import ENV, REPO, wait_until
from tests.ui_helpers import until

PYTEST = [
    sys.executable,
    "-m",
    "pytest",
    "-c",
    str(REPO / "pyproject.toml"),
    "-p",
    "no:cacheprovider",
]
HUNG = """
import asyncio
import time


def test_a_condition_that_never_holds():
    while True:  # a wait with no deadline, as a regression would leave one
        time.sleep(0.05)


def test_an_event_loop_that_never_settles():
    async def main():
        while True:
            await asyncio.sleep(0.05)

    asyncio.run(main())


def test_the_one_after_the_hangs():
    assert True
"""


def test_a_hung_test_fails_within_the_timeout_and_is_named(tmp_path: Path) -> None:
    (tmp_path / "test_hung.py").write_text(HUNG, encoding="utf-8")
    # the project's own pytest settings (timeout method, options), with a short limit
    done = subprocess.run(
        [*PYTEST, "-o", "timeout=3", "--rootdir", str(tmp_path), str(tmp_path / "test_hung.py")],
        cwd=tmp_path,
        env={**ENV, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=100,  # far below the 120 s of a hang the limit would not stop
    )
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "2 failed, 1 passed" in out, out
    for name in ("test_a_condition_that_never_holds", "test_an_event_loop_that_never_settles"):
        assert f"FAILED test_hung.py::{name} - Failed: Timeout" in out, out


def test_the_suite_has_a_per_test_timeout(request: pytest.FixtureRequest) -> None:
    assert request.config.pluginmanager.hasplugin("timeout")
    assert float(request.config.getini("timeout")) > 0
    assert request.config.getini("timeout_method") == "signal"  # fails the test, not the run


def test_wait_until_fails_naming_what_it_waited_for() -> None:
    with pytest.raises(AssertionError, match=r"timed out after 0\.2 s waiting for the flag"):
        wait_until(lambda: False, timeout=0.2, what="the flag")
    wait_until(lambda: True, what="a condition that holds")  # returns at once


def test_until_fails_naming_the_check_it_waited_on() -> None:
    import asyncio

    async def main() -> None:
        async with App().run_test() as pilot:
            with pytest.raises(AssertionError, match="waiting for the palette"):
                await until(pilot, lambda: False, timeout=0.2, what="the palette")
            with pytest.raises(AssertionError, match=r"lambda: 1 \+ 1 == 3"):
                await until(pilot, lambda: 1 + 1 == 3, timeout=0.2)

    asyncio.run(main())
