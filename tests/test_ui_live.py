"""The app follows the agent: a real bash writer under flock shows up within seconds,
and the user's place is kept."""

from __future__ import annotations

import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from memtui.ui.app import MemtuiApp
from memtui.ui.widgets.working import Working
from tests import demo_facts as facts
from tests.ui_helpers import demo_store, run, until

needs_flock = pytest.mark.skipif(shutil.which("flock") is None, reason="needs util-linux flock")

EVENT = (
    "\n### [E900] 2026-11-29 · 重要事件\n**类型**：重要事件\n**内容**：LIVE-MARKER\n"
    "**状态**：待跟进\n"
)
AGENT = r"""
exec 9>"$ROOT/.memory.lock"
flock -x -w 10 9 || exit 1
printf '%s' "$EVENT" >> "$ROOT/$FILE"
flock -u 9
"""


def agent_appends(root: Path, rel: str, text: str) -> None:
    """The agent's bash appends `text` to `rel` under the store lock."""
    subprocess.run(
        ["bash", "-c", AGENT],
        env={"ROOT": str(root), "EVENT": text, "FILE": rel, "PATH": "/usr/bin:/bin"},
        check=True,
        timeout=60,
    )


class Saying(MemtuiApp):
    """The whole app, recording what it says."""

    def __init__(self, root: Path, **kwargs: Any) -> None:
        super().__init__(str(root), **kwargs)
        self.said: list[str] = []

    def say(self, text: str, **kwargs: Any) -> None:  # type: ignore[override]
        self.said.append(text)
        super().say(text, **kwargs)

    def has_said(self, part: str) -> bool:
        return any(part in t for t in self.said)


@needs_flock
def test_an_agent_write_appears_while_the_app_is_open(tmp_path: Path):
    root = demo_store(tmp_path / "store")

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await pilot.press("3")
        first = app.store
        assert first is not None and first.data.get("companion") is not None
        assert not any(e.number == 900 for e in first.data.get("companion").events)
        agent_appends(root, "memory/events.md", EVENT)
        await until(
            pilot,
            lambda: any(e.number == 900 for e in app.store.data.get("companion").events),  # type: ignore[union-attr]
            what="the agent's event in the app's store",
        )
        assert app.store is not first
        assert app.query_one("#pane-events").has_focus_within

    run(MemtuiApp(str(root), watch=True), body, loaded=True)


@needs_flock
def test_an_in_place_edit_inside_a_folder_appears_within_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """An append to a candidate in pending/ changes no folder's mtime: the sweep of
    every known file finds it (once a second on a small store). The walk of the whole
    tree is turned off here, so only the sweep can have seen it."""
    from memtui.ui import live

    monkeypatch.setattr(live, "FULL_EVERY", 10**9)
    swept: list[tuple[str, ...]] = []
    real_sweep = live.sweep

    def sweep(root: str, files: Any) -> Any:
        files = tuple(files)
        swept.append(files)
        return real_sweep(root, files)

    monkeypatch.setattr(live, "sweep", sweep)
    root = demo_store(tmp_path / "store")

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        assert app.store is not None and app.store.data.get("dsh") is not None
        rel = app.store.data.get("dsh").candidates[0].file
        # the sweep's last look includes the candidate: the append below is a change to it
        await until(pilot, lambda: any(rel in files for files in swept), what="a sweep of it")
        agent_appends(root, rel, "\nLIVE-CANDIDATE-MARKER\n")
        await until(
            pilot,
            lambda: "LIVE-CANDIDATE-MARKER" in app.store.texts[rel].text,  # type: ignore[union-attr]
            what="the agent's edit inside pending/ in the app's store",
        )

    run(MemtuiApp(str(root), watch=True), body, loaded=True)


DONE = f"done {facts.NEWEST}"  # an open event


def start_done(app: MemtuiApp, root: Path) -> None:
    from memtui.layouts.companion import ops as companion

    app.run_op(DONE, lambda: companion.done(str(root), f"event:{facts.NEWEST}"))


@needs_flock
def test_a_change_waiting_for_the_agents_lock_says_so_then_lands(agent_holding_the_lock):
    root, release = agent_holding_the_lock

    async def body(pilot: Pilot, app: Saying) -> None:
        start_done(app, root)
        await until(pilot, lambda: app.has_said("waiting for the store lock"))
        assert not app.has_said(f"{DONE}: wrote")  # the agent still holds the lock
        release.touch()
        await until(pilot, lambda: app.has_said(f"{DONE}: wrote"))

    run(Saying(root, watch=False), body, loaded=True)


def test_a_slow_change_with_no_lock_held_says_it_works_not_that_it_waits(tmp_path: Path):
    """A change still running after SLOW_OP that waits for no lock: a line saying it works,
    never "waiting for the store lock" (said before whether or not anyone held it)."""
    root = demo_store(tmp_path / "store")
    go = threading.Event()

    def slow() -> list[Any]:
        go.wait(60)
        return []  # no receipt: "nothing to change"

    async def body(pilot: Pilot, app: Saying) -> None:
        app.run_op("slow change", slow)
        await until(pilot, lambda: bool(app.query(Working)), what="the working line")
        working = app.query_one(Working)
        line = working.lines["slow change"]
        await until(pilot, lambda: line.display and "working…" in line.said.plain)
        go.set()
        await until(pilot, lambda: app.has_said("slow change: nothing to change"))
        assert not working.lines
        assert not app.has_said("waiting for the store lock")

    run(Saying(root, watch=False), body, loaded=True)


@needs_flock
def test_quit_while_a_change_waits_for_the_lock_lets_it_land_first(agent_holding_the_lock):
    root, release = agent_holding_the_lock

    async def body(pilot: Pilot, app: Saying) -> None:
        start_done(app, root)
        await pilot.press("q")
        await until(pilot, lambda: app.has_said("quitting once the change in progress"))
        assert app.is_running  # not cut off while the change waits for the lock
        release.touch()
        await until(pilot, lambda: not app.is_running, what="the app to quit")

    run(Saying(root, watch=False), body, loaded=True)
    assert "**状态**：已完成" in (root / "memory" / "events.md").read_text(encoding="utf-8")


def test_reload_requests_during_a_load_coalesce_into_one_more(tmp_path: Path):
    """A load is never cancelled by the next request (a slow load would never finish
    while the agent keeps writing): requests meanwhile make exactly one load after it."""
    root = demo_store(tmp_path / "store")
    loads: list[object] = []

    class Counting(MemtuiApp):
        def _load(self) -> None:  # type: ignore[override]
            loads.append(self.store)
            super()._load()

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        first = app.store
        loads.clear()
        for _ in range(5):
            app.load_store()
        await until(pilot, lambda: len(loads) == 2 and not app._loading)
        assert not app._load_due  # none more is wanted: the five made exactly two
        assert len(loads) == 2 and app.store is not first

    run(Counting(str(root), watch=False), body, loaded=True)


def test_files_changing_while_a_change_runs_are_read_once_it_ends(tmp_path: Path):
    """A bulk change's chunks land one by one: each seen by the watcher would start a
    reload of the whole store beside the change; the app reads the store once it ends."""
    from memtui.ui.messages import StoreChanged

    root = demo_store(tmp_path / "store")
    loads: list[object] = []
    go = threading.Event()

    class Counting(Saying):
        def _load(self) -> None:  # type: ignore[override]
            loads.append(self.store)
            super()._load()

    def slow() -> list[Any]:
        go.wait(60)
        return []  # changed nothing itself: the reload is the watcher's

    async def body(pilot: Pilot, app: Saying) -> None:
        loads.clear()
        app.run_op("bulk", slow)
        for _ in range(3):  # what the watcher posts as the chunks land
            app.post_message(StoreChanged(("memory/events.md",)))
        await pilot.pause(0.3)
        assert loads == []
        go.set()
        await until(pilot, lambda: app.has_said("bulk: nothing to change"))
        await until(pilot, lambda: len(loads) == 1 and not app._loading, what="one reload")

    run(Counting(root, watch=False), body, loaded=True)
