"""The app follows the agent: a real bash writer under flock shows up within seconds,
and the user's place is kept."""

from __future__ import annotations

import asyncio
import datetime as dt
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from memtui.demo import write_demo
from memtui.ui.app import MemtuiApp

EVENT = (
    "\n### [E900] 2026-11-29 · 重要事件\n**类型**：重要事件\n**内容**：LIVE-MARKER\n"
    "**状态**：待跟进\n"
)
AGENT = r"""
exec 9>"$ROOT/.memory.lock"
flock -x -w 10 9 || exit 1
printf '%s' "$EVENT" >> "$ROOT/memory/events.md"
flock -u 9
"""


@pytest.mark.skipif(shutil.which("flock") is None, reason="needs util-linux flock")
def test_an_agent_write_appears_while_the_app_is_open(tmp_path: Path):
    root = tmp_path / "store"
    write_demo(root, size=1, today=dt.date(2026, 11, 29))
    asyncio.run(_follow(root))


async def _follow(root: Path) -> None:
    app = MemtuiApp(str(root), watch=True)
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(200):
            if app.store is not None:
                break
            await pilot.pause(0.02)
        await pilot.press("3")
        first = app.store
        assert first is not None
        assert not any(e.number == 900 for e in first.companion.events)
        subprocess.run(
            ["bash", "-c", AGENT],
            env={"ROOT": str(root), "EVENT": EVENT, "PATH": "/usr/bin:/bin"},
            check=True,
            timeout=20,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            store = app.store
            if store is not first and any(e.number == 900 for e in store.companion.events):
                break
            await pilot.pause(0.1)
        else:
            pytest.fail("the agent's event never showed up")
        assert app.query_one("#pane-events").has_focus_within


CANDIDATE_APPEND = "\nLIVE-CANDIDATE-MARKER\n"


@pytest.mark.skipif(shutil.which("flock") is None, reason="needs util-linux flock")
def test_an_in_place_edit_inside_a_folder_appears_within_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """An append to a candidate in pending/ changes no folder's mtime: the sweep of
    every known file finds it (once a second on a small store). The walk of the whole
    tree is turned off here, so only the sweep can have seen it."""
    from memtui.ui import live

    monkeypatch.setattr(live, "FULL_EVERY", 10**9)
    root = tmp_path / "store"
    write_demo(root, size=1, today=dt.date(2026, 11, 29))
    asyncio.run(_follow_candidate(root))


async def _follow_candidate(root: Path) -> None:
    app = MemtuiApp(str(root), watch=True)
    async with app.run_test(size=(120, 36)) as pilot:
        while app.store is None:
            await pilot.pause(0.02)
        first = app.store
        assert first.dsh is not None
        rel = first.dsh.candidates[0].file
        await pilot.pause(1.2)  # a sweep has run since the store loaded
        agent = AGENT.replace('"$ROOT/memory/events.md"', '"$ROOT/$FILE"')
        subprocess.run(
            ["bash", "-c", agent],
            env={
                "ROOT": str(root),
                "EVENT": CANDIDATE_APPEND,
                "FILE": rel,
                "PATH": "/usr/bin:/bin",
            },
            check=True,
            timeout=20,
        )
        start = time.monotonic()
        while time.monotonic() - start < 10:
            tf = app.store.texts.get(rel)
            if tf is not None and "LIVE-CANDIDATE-MARKER" in tf.text:
                break
            await pilot.pause(0.1)
        else:
            pytest.fail("the agent's edit inside pending/ never showed up")


HOLD = r"""
exec 9>"$ROOT/.memory.lock"
flock -x 9
echo locked
sleep 2.5
"""


@pytest.mark.skipif(shutil.which("flock") is None, reason="needs util-linux flock")
def test_a_change_waiting_for_the_agents_lock_says_so_then_lands(tmp_path: Path):
    root = tmp_path / "store"
    write_demo(root, size=1, today=dt.date(2026, 11, 29))
    asyncio.run(_wait_for_lock(root))


async def done_while_the_agent_holds_the_lock(
    pilot: object, app: MemtuiApp, root: Path
) -> subprocess.Popen[str]:
    """Once the store is shown, a bash agent takes the lock (for 2.5 s), then the app
    starts marking E039 done: the change waits for the lock."""
    from memtui.engine.ops import companion

    while app.store is None:
        await asyncio.sleep(0.02)
    agent = subprocess.Popen(
        ["bash", "-c", HOLD],
        env={"ROOT": str(root), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert agent.stdout is not None and agent.stdout.readline().strip() == "locked"
    app.run_op("done E039", lambda: companion.done(str(root), "event:E039"))
    return agent


async def _wait_for_lock(root: Path) -> None:
    said: list[str] = []

    class Saying(MemtuiApp):
        def say(self, text: str, **kwargs: object) -> None:  # type: ignore[override]
            said.append(text)
            super().say(text, **kwargs)  # type: ignore[arg-type]

    app = Saying(str(root), watch=False)
    async with app.run_test(size=(120, 36)) as pilot:
        agent = await done_while_the_agent_holds_the_lock(pilot, app, root)
        start = time.monotonic()
        while not any("done E039: wrote" in t for t in said):
            assert time.monotonic() - start < 15, said
            await pilot.pause(0.1)
        agent.wait(timeout=10)
    assert any("waiting for the store lock" in t for t in said)  # while the agent held it
    waiting = next(i for i, t in enumerate(said) if "waiting for the store lock" in t)
    assert waiting < next(i for i, t in enumerate(said) if "done E039: wrote" in t)


@pytest.mark.skipif(shutil.which("flock") is None, reason="needs util-linux flock")
def test_quit_while_a_change_waits_for_the_lock_lets_it_land_first(tmp_path: Path):
    root = tmp_path / "store"
    write_demo(root, size=1, today=dt.date(2026, 11, 29))
    asyncio.run(_quit_while_waiting(root))
    assert "**状态**：已完成" in (root / "memory" / "events.md").read_text(encoding="utf-8")


async def _quit_while_waiting(root: Path) -> None:
    app = MemtuiApp(str(root), watch=False)
    async with app.run_test(size=(120, 36)) as pilot:
        agent = await done_while_the_agent_holds_the_lock(pilot, app, root)
        await pilot.press("q")
        await pilot.pause(0.2)
        assert app.is_running  # not cut off while the change waits for the lock
        start = time.monotonic()
        while app.is_running and time.monotonic() - start < 15:
            await pilot.pause(0.1)
        agent.wait(timeout=10)
        assert not app.is_running


def test_reload_requests_during_a_load_coalesce_into_one_more(tmp_path: Path):
    """A load is never cancelled by the next request (a slow load would never finish
    while the agent keeps writing): requests meanwhile make exactly one load after it."""
    root = tmp_path / "store"
    write_demo(root, size=1, today=dt.date(2026, 11, 29))
    loads: list[float] = []

    class Counting(MemtuiApp):
        def _load(self) -> None:  # type: ignore[override]
            loads.append(time.monotonic())
            super()._load()

    async def main() -> None:
        app = Counting(str(root), watch=False)
        async with app.run_test(size=(120, 36)) as pilot:
            while app.store is None:
                await pilot.pause(0.02)
            first = app.store
            loads.clear()
            for _ in range(5):
                app.load_store()
            while len(loads) < 2 or app._loading:
                await pilot.pause(0.05)
            await pilot.pause(0.3)
            assert len(loads) == 2 and app.store is not first

    asyncio.run(main())
