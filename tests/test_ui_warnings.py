"""The warnings pane driven by Pilot over real stores in tmp_path (PaneHost: the real app
with only this pane): every finding grouped by level, its place kept across reloads, enter
opening its file, and a hostile message shown literally."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from memtui.engine.model import Finding
from memtui.engine.store import open_store
from memtui.ui.panes.warnings import WarningsPane
from tests import demo_facts as facts
from tests.ui_helpers import (
    HOSTILE,
    SIZE,
    PaneHost,
    assert_literal,
    demo_store,
    press_until,
    rows_plain,
    store_loaded,
    until,
)
from tests.ui_helpers import run_loaded as run


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "s")


def test_warnings_lists_every_finding_grouped_and_enter_opens(demo: Path) -> None:
    expected = open_store(demo).findings

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(WarningsPane)
        await until(pilot, lambda: len(pane.findings) == len(expected))
        assert pane.findings == list(expected)
        rows = rows_plain(pane)
        errors = [(f.code, f.file, f.line) for f in expected if f.level == "error"]
        warnings = [(f.code, f.file, f.line) for f in expected if f.level == "warning"]
        assert rows[0] == f"Errors ({facts.ERRORS})" and f"Warnings ({facts.WARNINGS})" in rows
        assert "Info (0)" not in rows and not facts.INFOS
        assert rows[1].split()[:2] == [errors[0][0], f"{errors[0][1]}:{errors[0][2]}"]
        counts = f"{facts.ERRORS} errors · {facts.WARNINGS} warnings · 0 info"
        assert counts in pane.header_text.plain
        await pilot.press("down", "enter")
        assert app.opened == [errors[1][1:]]
        await pilot.press("n")  # the first warning
        assert pane.current_place == warnings[0]
        await pilot.press("p")
        assert pane.current_place == errors[0]
        await pilot.press("n", "down", "down")
        assert pane.current_place == ("index-stale", "index.txt", None)

        # the place is kept by (code, file, line) when findings come and go
        (demo / "MEMORY.md").write_bytes(b"\xff\xfe not utf-8")
        store = app.store
        await press_until(pilot, "ctrl+r", lambda: app.store is not store)
        assert pane.current_place == ("index-stale", "index.txt", None)
        assert app.store is not None and pane.findings == list(app.store.findings)

    run(PaneHost(str(demo), "warnings"), body)


def test_warnings_hostile_message_and_no_file(demo: Path) -> None:
    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(WarningsPane)
        await until(pilot, lambda: bool(pane.findings))
        assert app.store is not None
        odd = Finding("x-hostile", "info", None, None, HOSTILE)
        store = app.store
        pane.show_store(dataclasses.replace(store, findings=(odd,)))
        await pilot.pause()
        assert rows_plain(pane)[0] == "Info (1)"
        assert pane.rows.lost  # the finding the cursor was on is gone: on none until a move
        await pilot.press("down")
        assert_literal(pane.render_row(1).plain)
        assert_literal(pane.detail_text.plain)
        await pilot.press("enter")
        assert app.opened == [] and app.said and "not tied to a file" in app.said[-1][1]
        assert app.is_running
        pane.show_store(dataclasses.replace(store, findings=()))
        await pilot.pause()
        assert "No findings" in pane.detail_text.plain

    run(PaneHost(str(demo), "warnings"), body)


def test_snapshot_warnings(demo: Path, snap_compare: Any) -> None:
    async def ready(pilot: Pilot) -> None:
        await store_loaded(pilot, pilot.app)  # type: ignore[arg-type]
        await pilot.pause()

    assert snap_compare(PaneHost(str(demo), "warnings"), terminal_size=SIZE, run_before=ready)
