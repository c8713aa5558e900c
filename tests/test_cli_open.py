"""`memtui [PATH] [--read-only]`: with no terminal, the one-screen summary (reading only);
with one, the app, read-only when asked: the flag reaches the app and every change is
refused there."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot

from memtui.cli import main
from memtui.engine.store import open_store
from memtui.ui.app import MemtuiApp
from tests.conftest import run_cli, tree_digest
from tests.helpers import ENV, TODAY_DATE
from tests.ui_helpers import demo_store, run, until


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


def expected_summary(root: Path) -> list[str]:
    """What the summary must say, worked out from the engine's snapshot of the store:
    each layout's line in the order the first line names them."""
    store = open_store(root, today=TODAY_DATE)
    c, d, w = store.data.get("companion"), store.data.get("dsh"), store.data.get("workspace")
    assert c is not None and d is not None and w is not None
    events = [e for e in c.events if not e.is_sentinel]
    tally = f"{store.count('error')} errors, {store.count('warning')} warnings"
    return [
        f"{root}  ({', '.join(store.layouts)})",
        f"  workspace: memory.md {w.index_lines} lines, {len(w.topics)} topic files",
        f"  companion: {len(events)} events ({sum(e.is_open for e in events)} open), "
        f"last active {c.last_active}",
        f"  dsh: {sum(len(s.facts) for s in d.fact_sections)} facts in "
        f"{len(d.fact_sections)} sections, {len(d.sops)} sops, {len(d.candidates)} pending",
        f"  findings: {tally}, {store.count('info')} info  (memtui check)",
    ]


@pytest.mark.parametrize("args", [[], ["--read-only"], ["--summary"]])
def test_memtui_path_without_a_terminal_prints_the_summary_and_writes_nothing(
    demo: Path, args: list[str]
) -> None:
    before = tree_digest(demo)
    res = run_cli(*args, str(demo), env=ENV)  # stdin and stdout are pipes: no terminal
    assert res.returncode == 0 and res.stderr == "", res.stderr
    assert res.stdout.splitlines() == expected_summary(demo)
    assert tree_digest(demo) == before


@pytest.mark.parametrize("layout", ["claude", "hermes", "openclaw"])
def test_every_layout_says_its_line_in_the_summary(demo: Path, layout: str) -> None:
    """Not only the seed layouts: each layout declares its summary (Layout.summary)."""
    res = run_cli("--summary", str(demo / layout), env=ENV)
    assert res.returncode == 0, res.stderr
    said = res.stdout.splitlines()
    assert said[0] == f"{demo / layout}  ({layout})"
    assert said[1].startswith(f"  {layout}: ") and any(c.isdigit() for c in said[1])


def test_memtui_in_a_store_folder_summarises_that_folder(demo: Path) -> None:
    res = run_cli(cwd=demo, env=ENV)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[0].startswith(f"{demo}  (")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def opened_by(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> MemtuiApp:
    """The app `memtui ARGV` would run in a terminal (its run() is not called here)."""
    apps: list[MemtuiApp] = []
    monkeypatch.setattr(MemtuiApp, "run", lambda self, *a, **k: apps.append(self))
    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(sys, "stdout", Terminal())
    assert main(argv) == 0
    monkeypatch.undo()
    assert len(apps) == 1
    return apps[0]


def test_read_only_flag_reaches_the_app_and_nothing_can_change(
    demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert opened_by([str(demo)], monkeypatch).read_only is False
    app = opened_by(["--read-only", str(demo)], monkeypatch)
    assert app.read_only is True and app.root == str(demo)
    before = tree_digest(demo)

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.sub_title.endswith(" · read-only"))
        await pilot.press("5")  # the pending queue: accept, reject and edit are hidden
        pending = app.query_one("#pane-pending")
        await until(pilot, lambda: pending.has_focus_within)
        bindings = app.screen.active_bindings
        assert not {"a", "r", "e"} & set(bindings) and "space" in bindings
        await pilot.press("space", "a", "r", "3", "d", "x", "e")
        await pilot.press("4")  # a key after them is handled: they were, and started nothing
        await until(pilot, lambda: app.query_one("#pane-mood").has_focus_within)
        assert app._changes_running == 0 and app.screen is app.screen_stack[0]

    run(app, body, loaded=True)
    assert tree_digest(demo) == before
