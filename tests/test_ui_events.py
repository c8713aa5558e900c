"""The events pane driven by Pilot over real stores in tmp_path: the real MemtuiApp
(loading, run_op, reload) with only this pane composed (PaneHost), recording what it asks
of the app (open a file, confirm, history, edit)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from memtui.engine.store import open_store
from memtui.ui.panes.events import EventsPane
from tests import demo_facts as facts
from tests.conftest import write_tree
from tests.helpers import EVENTS, bytes_of
from tests.ui_helpers import (
    SIZE,
    PaneHost,
    answer_confirm,
    assert_literal,
    demo_store,
    event_block,
    hostile_store,
    press_until,
    rows_plain,
    screen_text,
    store_loaded,
    until,
)
from tests.ui_helpers import run_loaded as run


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "s")


def test_events_newest_first_overdue_marked_and_filters(demo: Path) -> None:
    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == facts.EVENTS)
        rows = rows_plain(pane)
        assert rows[0].startswith(f"● {facts.NEWEST}") and rows[-1].split()[0] == facts.OLDEST
        overdue = [r.split()[1] for r in rows if r.startswith("!")]
        assert overdue == list(facts.OVERDUE)
        style = pane.get_component_rich_style("events--overdue", partial=True)
        late = pane.render_row(next(i for i, r in enumerate(rows) if facts.OVERDUE[-1] in r))
        assert late.spans[0].style == style and style.color is not None
        assert f"{len(facts.OVERDUE)} overdue" in pane.header_text.plain
        assert f"last active {facts.LAST_ACTIVE}" in pane.header_text.plain
        assert "E000" not in " ".join(rows)  # sentinels are activity, not rows
        # out-of-range stars are shown as a number
        assert f"⭐×{facts.STARS}" in " ".join(rows)

        await pilot.press("o")
        assert pane.rows.count == facts.OPEN
        assert all(r[0] in "●!" and " open " in r for r in rows_plain(pane))
        assert f"{facts.OPEN} of {facts.EVENTS} events [open only]" in pane.header_text.plain
        await pilot.press("t", "t")  # 情绪事件, then 约定
        assert "[open only, 约定]" in pane.header_text.plain
        assert {r.split()[3] for r in rows_plain(pane)} == {"约定"}
        await pilot.press("o", "t", "t", "t")  # all, then 用户Todo, 重要事件, all
        assert pane.rows.count == facts.EVENTS
        assert f"{facts.EVENTS} events ·" in pane.header_text.plain

    run(PaneHost(str(demo), "events"), body)


def test_events_done_and_reopen_write_the_status_line(demo: Path) -> None:
    before = event_block(demo, facts.NEWEST)
    assert "**状态**：待跟进" in before

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == facts.EVENTS)
        await pilot.press("down")  # the second newest: the cursor stays on it across reloads
        assert pane.current_id == facts.SECOND_NEWEST
        await pilot.press("up")
        assert pane.current_id == facts.NEWEST and "待跟进" in pane.detail_text.plain
        store = app.store
        await pilot.press("d")
        await until(pilot, lambda: app.store is not store and "已完成" in pane.detail_text.plain)
        assert pane.current_id == facts.NEWEST
        assert " done " in rows_plain(pane)[0]
        store = app.store
        await pilot.press("d")
        await until(pilot, lambda: app.store is not store and "待跟进" in pane.detail_text.plain)

    run(PaneHost(str(demo), "events"), body)
    after = event_block(demo, facts.NEWEST)
    assert after == before  # reopened: back to the same bytes


def test_events_done_changes_only_the_status_line(demo: Path) -> None:
    original = (demo / EVENTS).read_text("utf-8")

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == facts.EVENTS)
        await pilot.press("o")
        row = next(i for i, r in enumerate(rows_plain(pane)) if facts.OVERDUE[-1] in r)
        pane.rows.cursor = row
        await pilot.pause()
        store = app.store
        await press_until(pilot, "d", lambda: app.store is not store)
        assert pane.rows.count == facts.OPEN - 1  # no longer open: gone from the open-only view

    run(PaneHost(str(demo), "events"), body)
    now = (demo / EVENTS).read_text("utf-8")
    changed = [
        (a, b) for a, b in zip(original.splitlines(), now.splitlines(), strict=True) if a != b
    ]
    assert changed == [("**状态**：待跟进", "**状态**：已完成")]
    assert "**状态**：已完成" in event_block(demo, facts.OVERDUE[-1])


def test_events_archive_asks_then_moves_the_event(demo: Path) -> None:
    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == facts.EVENTS)
        await pilot.press("down")  # the second newest (archiving the newest warns)
        store = app.store
        await pilot.press("x")
        assert facts.SECOND_NEWEST in await answer_confirm(
            pilot, app, "enter"
        )  # "No" has the focus
        assert app._changes_running == 0 and app.store is store  # no change was started
        await pilot.press("x")
        await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: app.store is not store and pane.rows.count == facts.EVENTS - 1)
        assert pane.current_id != facts.SECOND_NEWEST

    run(PaneHost(str(demo), "events"), body)
    assert f"### [{facts.SECOND_NEWEST}]" not in (demo / EVENTS).read_text("utf-8")
    assert f"### [{facts.SECOND_NEWEST}]" in (demo / "archive" / EVENTS).read_text("utf-8")


def test_events_archived_view_restores_as_the_cli_does(demo: Path, tmp_path: Path) -> None:
    import shutil

    from tests.conftest import run_cli

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == facts.EVENTS)
        await pilot.press("down", "x")  # archive the second newest
        await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: pane.rows.count == facts.EVENTS - 1)
        shutil.copytree(demo, tmp_path / "cli")  # the CLI restores on a copy of this state
        await pilot.press("v")  # the archived events
        await until(
            pilot, lambda: pane.archived and facts.SECOND_NEWEST in "".join(rows_plain(pane))
        )
        assert "Archived (archive/memory/events.md)" in pane.header_text.plain
        assert pane.check_action("toggle_done", ()) is None  # greyed: restore it first
        assert pane.check_action("edit", ()) is None
        pane.rows.cursor = next(
            i for i, r in enumerate(rows_plain(pane)) if facts.SECOND_NEWEST in r
        )
        await pilot.press("enter")
        assert app.opened[-1][0] == "archive/memory/events.md"
        await pilot.press("x")
        assert f"Restore {facts.SECOND_NEWEST}" in await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: facts.SECOND_NEWEST not in "".join(rows_plain(pane)))
        await pilot.press("v")  # back to the timeline, the event in it again
        await until(pilot, lambda: not pane.archived and pane.rows.count == facts.EVENTS)

    run(PaneHost(str(demo), "events"), body)
    cli = tmp_path / "cli"
    assert run_cli("restore", f"event:{facts.SECOND_NEWEST}", "--store", str(cli)).returncode == 0
    for rel in (EVENTS, "archive/" + EVENTS):
        assert bytes_of(demo / rel) == bytes_of(cli / rel)


def test_events_edit_history_and_enter_go_to_the_app(demo: Path) -> None:
    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == facts.EVENTS)
        await pilot.press("e", "h", "enter")
        assert app.store is not None and app.store.data.get("companion") is not None
        line = next(
            e for e in app.store.data.get("companion").events if e.label == facts.NEWEST
        ).span.lineno
        assert app.edits == [f"event:{facts.NEWEST}"]
        assert app.histories == [EVENTS]
        assert app.opened == [(EVENTS, line)]

    run(PaneHost(str(demo), "events"), body)


def test_events_duplicate_numbers_get_the_entry_ids(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "s",
        {
            EVENTS: "### [E001] 2026-11-01 · 用户Todo\n**内容**：a\n**状态**：待跟进\n\n"
            "### [E001] 2026-11-02 · 用户Todo\n**内容**：b\n**状态**：待跟进\n\n"
            "### [E000] 2026-11-02T20:00 · last_active\n",
        },
    )

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == 2)
        assert [r.split()[1] for r in rows_plain(pane)] == ["E001#2", "E001"]
        store = app.store
        # the second E001 (newest first), as `memtui done E001#2`
        await press_until(pilot, "d", lambda: app.store is not store)

    run(PaneHost(str(root), "events"), body)
    text = (root / EVENTS).read_text("utf-8")
    assert "**内容**：a\n**状态**：待跟进" in text
    assert "**内容**：b\n**状态**：已完成" in text


def test_events_read_only_hides_and_refuses_changes(demo: Path) -> None:
    original = (demo / EVENTS).read_bytes()

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == facts.EVENTS)
        keys = set(app.screen.active_bindings)
        assert {"o", "t", "h"} <= keys and not {"d", "x", "e"} & keys
        await pilot.press("d", "x", "e")
        # each key says why nothing happens (the app's on_key); none asks or edits
        for verb in ("done", "archive", "edit"):
            await until(
                pilot,
                lambda v=verb: any(
                    t.startswith(f"{v}: the store is open read-only") for _, t in app.said
                ),
            )
        assert app.asked == [] and app.edits == [] and app.screen is app.screen_stack[0]
        await pilot.press("o")
        assert pane.rows.count == facts.OPEN  # filters still work

    run(PaneHost(str(demo), "events", read_only=True), body)
    assert (demo / EVENTS).read_bytes() == original


def test_hostile_event_text_is_shown_literally_and_runs_nothing(tmp_path: Path) -> None:
    root = hostile_store(tmp_path / "s")

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == 1)
        assert_literal(pane.render_row(0).plain)
        assert_literal(pane.detail_text.plain)
        shown = screen_text(app)
        assert "[@click=app.quit]点我[/]" in shown and "\x1b[2J" not in shown
        rows = pane.rows
        for x in range(58, 80, 3):  # over the content column of the row
            await pilot.click(rows, offset=(x, 0))
        await pilot.click("#events-detail", offset=(10, 3))
        # a key after the clicks is handled: the clicks ran nothing (no quit)
        await pilot.press("o")
        await until(pilot, lambda: "[open only]" in pane.header_text.plain)
        assert app.is_running and app.return_code is None

    run(PaneHost(str(root), "events"), body)


def test_twenty_thousand_events_show_at_once(tmp_path: Path) -> None:
    kinds = ("情绪事件", "约定", "用户Todo", "重要事件")
    parts = []
    for n in range(1, 20_001):
        day = dt.date(2020, 1, 1) + dt.timedelta(days=n // 8)
        kind = kinds[n % 4]
        status = "待跟进" if n % 5 == 0 else "已完成"
        due = f"**到期日**：{day + dt.timedelta(days=7)}\n" if kind == "约定" else ""
        parts.append(
            f"### [E{n:03d}] {day} · {kind}\n**类型**：{kind}\n**内容**：第 {n} 件事\n"
            f"**状态**：{status}\n{due}\n"
        )
        if n % 50 == 0:
            parts.append(f"### [E000] {day}T21:00 · last_active\n\n")
    root = write_tree(tmp_path / "big", {EVENTS: "".join(parts)})
    store = open_store(root)

    async def body(pilot: Pilot, app: PaneHost) -> None:
        # how fast: benchmarks/ui.py (the events pane on the size-500 demo)
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == 20_000)
        pane.show_store(store)
        await pilot.press("o")
        assert pane.rows.count == 4_000 and "4000 of 20000 events" in pane.header_text.plain
        await pilot.press("o", "end", "pageup", "home")
        assert pane.rows.count == 20_000 and pane.rows.cursor == 0
        assert pane.render_row(0).plain.split()[1] == "E20000"
        assert "E001" in pane.render_row(19_999).plain.split()[:2]

    run(PaneHost(str(root), "events"), body)


def test_snapshot_events(demo: Path, snap_compare: Any) -> None:
    async def ready(pilot: Pilot) -> None:
        await store_loaded(pilot, pilot.app)  # type: ignore[arg-type]
        await pilot.press("down", "down")  # rests on the third newest, a done event
        await pilot.pause()

    assert snap_compare(PaneHost(str(demo), "events"), terminal_size=SIZE, run_before=ready)
