"""The history screen names the agent's own record of a file (Layout.file_history:
Letta's git log) under its note, beside memtui's snapshots; a file no agent keeps a
record of shows the note alone."""

from __future__ import annotations

import datetime as dt
import random
import shutil
from pathlib import Path

import pytest
from textual.widgets import Static

from memtui.demo.common import Sink
from memtui.engine.layouts import registry
from tests.test_ui_edit_history_help import Host
from tests.ui_helpers import run, until

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="the letta demo needs git")


def letta_store(folder: Path) -> Path:
    registry()["letta"].demo(Sink(folder), random.Random(1), 1, dt.date(2026, 12, 3))
    return folder / "letta"


def note_of(root: Path, rel: str) -> str:
    said: list[str] = []

    async def body(pilot, app) -> None:  # type: ignore[no-untyped-def]
        screen = await open_history_of(pilot, app, rel)
        await until(pilot, lambda: screen.loaded)
        await pilot.pause()
        said.append(str(screen.query_one("#history-note", Static).render()))

    run(Host(root), body)
    return said[0]


async def open_history_of(pilot, app, rel):  # type: ignore[no-untyped-def]
    from memtui.ui import editing
    from memtui.ui.screens.history import HistoryScreen

    await until(pilot, lambda: app.store is not None)
    editing.show_history(app, rel)
    await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
    return app.screen


@needs_git
def test_letta_s_git_log_is_named_on_the_history_screen(tmp_path: Path) -> None:
    note = note_of(letta_store(tmp_path), "system/persona.md")
    assert "letta keeps its own record of this file (1): 804d773e3e7b" in note, note
    assert "init: persona, human, deploy notes" in note


def test_a_file_without_an_agent_record_shows_the_note_alone(tmp_path: Path) -> None:
    root = tmp_path / "store"
    root.mkdir()
    (root / "memory.md").write_text("# Index\n", encoding="utf-8")
    (root / "soul.md").write_text("# Soul\n", encoding="utf-8")
    note = note_of(root, "memory.md")
    assert "r or enter rolls the file back" in note and "own record" not in note
