"""Pilot helpers shared by the UI tests (tests/test_ui_*.py): a host app, running a test
body in it, and waiting for the app.

Import as `from tests.ui_helpers import ...`, the same way as `from tests.helpers import ...`.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from memtui.demo import write_demo
from memtui.ui.app import MemtuiApp
from tests.helpers import TODAY_DATE, WAIT

SIZE = (120, 36)  # the terminal of every UI test and picture

Body = Callable[[Pilot, Any], Awaitable[None]]


class HostApp(MemtuiApp):
    """The real app (its loading, run_op and reload; no file watcher) with only what a
    subclass composes. What it says is recorded in `said` as (severity, text); the widget
    matching `focus_first` (a selector), if set, has the focus once mounted."""

    focus_first: str | None = None

    def __init__(self, root: str | Path, **kwargs: Any) -> None:
        super().__init__(str(root), watch=False, **kwargs)
        self.said: list[tuple[str, str]] = []

    def on_mount(self) -> None:
        super().on_mount()
        if self.focus_first is not None:
            self.query_one(self.focus_first).focus()

    def say(self, text: str, *, severity: Any = "information", title: str = "") -> None:
        self.said.append((str(severity), text))
        super().say(text, severity=severity, title=title)


def demo_store(root: Path) -> Path:
    """The smallest demo store (`memtui demo`), dated TODAY_DATE, written at root."""
    write_demo(root, size=1, today=TODAY_DATE)
    return root


def run(app: MemtuiApp, body: Body, *, loaded: bool = False) -> None:
    """Run `app` under Pilot at SIZE and await body(pilot, app); with `loaded`, the body
    starts once the store is loaded."""

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            if loaded:
                await store_loaded(pilot, app)
            await body(pilot, app)

    asyncio.run(main())


async def until(
    pilot: Pilot, check: Callable[[], object], timeout: float = WAIT, what: str = ""
) -> None:
    """Let the app run until `check()` holds (workers, messages, timers); fail naming
    `what` (or the check's source line) once `timeout` seconds have passed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            waited = what or _told(check)
            raise AssertionError(f"timed out after {timeout:g} s waiting for {waited}")
        await pilot.pause(0.05)


def _told(check: Callable[[], object]) -> str:
    """The source of a lambda check, so a timeout says which wait it was."""
    try:
        return inspect.getsource(check).strip()
    except (OSError, TypeError):
        return repr(check)


async def press_until(pilot: Pilot, key: str, check: Callable[[], bool]) -> None:
    """Press `key`, then let the app run until `check()` holds."""
    await pilot.press(key)
    await until(pilot, check)


async def store_loaded(pilot: Pilot, app: MemtuiApp) -> None:
    """Wait for the app's store, then let the panes show it."""
    await until(pilot, lambda: app.store is not None)
    await pilot.pause()


async def answer_confirm(pilot: Pilot, app: MemtuiApp, key: str) -> str:
    """Wait for the real ConfirmScreen, check that "No" has the focus (a stray Enter
    destroys nothing), press `key` ("y", "enter", "n", "escape") and wait for it to
    close; returns the question it asked."""
    from memtui.ui.screens.confirm import ConfirmScreen

    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirm dialog")
    screen = app.screen
    assert isinstance(screen, ConfirmScreen)
    assert app.focused is screen.query_one("#confirm-no"), "the focus must be on No"
    await pilot.press(key)
    await until(pilot, lambda: app.screen is not screen, what="the confirm dialog to close")
    return screen.question
