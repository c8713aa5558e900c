"""The events, mood and warnings panes driven by Pilot over real stores in tmp_path.

Most tests run the real MemtuiApp (loading, run_op, reload) with only the pane
under test composed, and record what it asks of the app (open a file, confirm,
history, edit); one test runs the whole app.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.widgets import Footer

from memtui.engine.model import Finding
from memtui.engine.store import open_store
from memtui.ui.app import MemtuiApp
from memtui.ui.panes.events import EventsPane
from memtui.ui.panes.mood import LINE, OVER, MoodChart, MoodPane, Series, plot
from memtui.ui.panes.warnings import WarningsPane
from tests import demo_facts as facts
from tests.conftest import write_tree
from tests.ui_helpers import (
    SIZE,
    Body,
    HostApp,
    answer_confirm,
    demo_store,
    press_until,
    store_loaded,
    until,
)
from tests.ui_helpers import run as run_app

EVENTS = "memory/events.md"
HOSTILE = "[@click=app.quit]点我[/] [bold]粗[/] \x1b[2J\x1b]52;c;SGVsbG8=\x07 \x9b31m"
PANES = {"events": EventsPane, "mood": MoodPane, "warnings": WarningsPane}


class PaneHost(HostApp):
    """The real app with one pane; what the pane asks of the app is recorded."""

    def __init__(self, root: str, key: str, **kwargs: Any) -> None:
        super().__init__(root, **kwargs)
        self.key = key
        self.focus_first = f"#pane-{key}"
        self.opened: list[tuple[str, int | None]] = []
        self.asked: list[str] = []
        self.histories: list[str] = []
        self.edits: list[str] = []

    def compose(self) -> ComposeResult:
        yield PANES[self.key](id=f"pane-{self.key}")
        yield Footer()

    def open_file(self, rel: str, line: int | None = None) -> None:
        self.opened.append((rel, line))

    def confirm(self, question: str, then: Callable[[], None]) -> None:
        self.asked.append(question)
        super().confirm(question, then)  # the real dialog: the test answers it

    def show_history(self, rel: str) -> None:
        self.histories.append(rel)

    def edit_entry(self, entry_id: str) -> None:
        self.edits.append(entry_id)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "s")


def run(app: MemtuiApp, body: Body) -> None:
    """Every test here starts once the store is loaded."""
    run_app(app, body, loaded=True)


def screen_text(app: MemtuiApp) -> str:
    """What the terminal shows, as plain text."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)


def rows_plain(pane: EventsPane | WarningsPane) -> list[str]:
    return [pane.render_row(i).plain for i in range(pane.rows.count)]


def event_block(root: Path, label: str) -> str:
    text = (root / EVENTS).read_text("utf-8")
    start = text.index(f"### [{label}]")
    stop = text.find("\n### ", start + 1)
    return text[start : stop if stop >= 0 else len(text)]


# --- events ---------------------------------------------------------------------------


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
        assert (demo / rel).read_bytes() == (cli / rel).read_bytes()


def test_events_edit_history_and_enter_go_to_the_app(demo: Path) -> None:
    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == facts.EVENTS)
        await pilot.press("e", "h", "enter")
        assert app.store is not None and app.store.companion is not None
        line = next(e for e in app.store.companion.events if e.label == facts.NEWEST).span.lineno
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


def hostile_store(root: Path) -> Path:
    return write_tree(
        root,
        {
            EVENTS: "# 事件\n\n"
            f"### [E001] 2026-11-20 · 约定\n**类型**：约定\n**内容**：{HOSTILE}\n"
            "**状态**：待跟进\n**到期日**：2026-11-01\n\n"
            "### [E000] 2026-11-28T22:00 · last_active\n",
            "memory/mood_state.md": "valence: 0.1\nenergy: 0.5\n\n"
            "### 2026-11-28T22:00 · source=conversation\n"
            f"valence: 0.1\nenergy: 0.5\nnote: {HOSTILE}\n",
            ".mood_state_aux": "last_decay_written_at: [@click=app.quit]t[/]\n"
            "consecutive_g4c_count: 2\n",
        },
    )


def assert_literal(plain: str) -> None:
    assert "[@click=app.quit]点我[/] [bold]粗[/]" in plain
    assert "\\x1b[2J" in plain and "\\x9b31m" in plain and "\\x07" in plain
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", plain)


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


# --- mood -----------------------------------------------------------------------------


def test_mood_pane_shows_values_guard_steps_and_chart(demo: Path) -> None:
    mood = open_store(demo).companion.mood  # type: ignore[union-attr]
    assert mood is not None and mood.g4c_count == 1  # the guard is off in the demo
    newest, oldest = mood.snapshots[0], mood.snapshots[-1]
    # the one step over the bound (SPEC: |Δvalence| ≤ 0.30), newest first
    steps = [(a, b) for a, b in itertools.pairwise(mood.snapshots)]
    over = [a for a, b in steps if abs(a.valence - b.valence) > 0.30]  # type: ignore[operator]
    assert len(over) == 1

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(MoodPane)
        await until(pilot, lambda: "valence" in pane.summary_text.plain)
        summary = pane.summary_text.plain
        assert f"valence {mood.valence:.2f}" in summary and f"energy {mood.energy:.2f}" in summary
        assert "Healing-loop guard  off (consecutive_g4c_count 1" in summary
        assert f"Last decay  {mood.last_decay}" in summary
        assert "|Δvalence| ≤ 0.30 · |Δenergy| ≤ 0.20 · 1 step over the bound" in summary
        lines = pane.snapshots_text.plain.splitlines()
        assert len(lines) == len(mood.snapshots) + 1  # a heading, then newest first
        assert lines[1].startswith(f"{newest.time[:16]} {newest.source}")
        assert lines[1].endswith(newest.note)
        style = pane.style_of("mood--over")
        step = next(s for s in pane.snapshots_text.spans if s.style == style)
        i = mood.snapshots.index(over[0])
        delta = over[0].valence - mood.snapshots[i + 1].valence  # type: ignore[operator]
        assert pane.snapshots_text.plain[step.start : step.end].strip() == f"{delta:+.2f}"
        shown = screen_text(app)
        assert "valence  +1.0┤" in shown and "energy    1.0┤" in shown
        assert sum(1 for ch in shown if 0x2801 <= ord(ch) <= 0x28FF) > 50  # braille dots
        # oldest at the left, newest at the right
        first, last = oldest.time[:16], newest.time[:16]
        axis = next(line for line in shown.splitlines() if first in line)
        assert axis.index(first) < axis.index(last)
        await pilot.press("enter", "h")
        assert app.opened == [("memory/mood_state.md", newest.line)]
        assert app.histories == ["memory/mood_state.md"]

        (demo / ".mood_state_aux").write_text(
            "last_decay_written_at: 2026-11-28T22:47:00+08:00\nconsecutive_g4c_count: 2\n"
        )
        store = app.store
        await press_until(pilot, "ctrl+r", lambda: app.store is not store)
        summary = pane.summary_text.plain
        assert "Healing-loop guard  ON: positive Δvalence forbidden" in summary
        assert "(consecutive_g4c_count 2)" in summary

        def on_colour() -> Any:
            text = pane.summary_text
            span = next(s for s in text.spans if text.plain[s.start : s.end] == "ON")
            return span.style.color  # type: ignore[union-attr]

        dark = on_colour()
        app.theme = "nord"  # the prebuilt text follows the theme
        await until(pilot, lambda: on_colour() != dark)
        assert on_colour() == pane.style_of("mood--guard-on").color

    run(PaneHost(str(demo), "mood"), body)


def test_mood_pane_handles_missing_and_odd_data(tmp_path: Path) -> None:
    def store_of(name: str, files: dict[str, str | bytes]) -> Any:
        return open_store(write_tree(tmp_path / name, files))

    events_only: dict[str, str | bytes] = {EVENTS: "### [E000] 2026-11-28T22:00 · last_active\n"}
    one = "valence: 0.1\nenergy: 0.5\n\n### 2026-11-28T22:00 · source=conversation\n"
    cases = {
        "no companion": store_of("ws", {"memory.md": "# idx\n", "soul.md": "## name\n"}),
        "no mood file": store_of("a", events_only),
        "no snapshots": store_of("b", {"memory/mood_state.md": "valence: 0.1\nenergy: 0.5\n"}),
        "one snapshot": store_of("c", {"memory/mood_state.md": one + "valence: 0.1\n"}),
        "bad values": store_of(
            "d",
            {
                "memory/mood_state.md": "valence: x\n\n"
                "### 2026-11-28T22:00 · source=conversation\nvalence: ?\nenergy: 3\n"
                "### 2026-11-27T22:00 · source=decay\nvalence: 0.2\nenergy: 0.1\n",
            },
        ),
        "hostile": open_store(hostile_store(tmp_path / "h")),
    }

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(MoodPane)
        chart = app.query_one(MoodChart)
        seen = {}
        for name, store in cases.items():
            pane.show_store(store)
            await pilot.pause()
            seen[name] = (pane.summary_text.plain, screen_text(app), pane.snapshots_text.plain)
        assert "No companion layout" in seen["no companion"][0]
        assert "No memory/mood_state.md" in seen["no mood file"][0]
        assert "No snapshots" in seen["no snapshots"][1]
        assert "valence +0.10" in seen["one snapshot"][0]
        assert re.search(r"conversation +\+0\.10 +— ", seen["one snapshot"][2])
        assert "valence —" in seen["bad values"][0]
        assert "unknown (no consecutive_g4c_count" in seen["bad values"][0]
        assert "ON: positive Δvalence forbidden" in seen["hostile"][0]
        assert "[@click=app.quit]t[/]" in seen["hostile"][0]
        assert_literal(pane.snapshots_text.plain)
        assert chart.display and app.is_running

    run(PaneHost(str(hostile_store(tmp_path / "start")), "mood"), body)


def test_braille_plot_runs_oldest_to_newest_and_marks_big_steps() -> None:
    rising = plot(Series((-1.0, 1.0), frozenset()), -1.0, 1.0, width=2, height=1)
    (first_bits, first_kind), (last_bits, last_kind) = rising[0]
    assert first_bits & 0x40 and last_bits & 0x08  # bottom left to top right
    assert first_kind == last_kind == LINE
    jump = plot(Series((0.0, 1.0, None, 0.5), frozenset({0})), 0.0, 1.0, width=4, height=2)
    kinds = {kind for line in jump for _bits, kind in line}
    assert OVER in kinds and LINE in kinds  # the 0→1 step over the bound; the lone 0.5 dot
    assert plot(Series((), frozenset()), 0, 1, width=3, height=1) == [[(0, 0)] * 3]


# --- warnings -------------------------------------------------------------------------


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
        assert_literal(pane.render_row(1).plain)
        assert_literal(pane.detail_text.plain)
        await pilot.press("enter")
        assert app.opened == [] and app.said and "not tied to a file" in app.said[-1][1]
        assert app.is_running
        pane.show_store(dataclasses.replace(store, findings=()))
        await pilot.pause()
        assert "No findings" in pane.detail_text.plain

    run(PaneHost(str(demo), "warnings"), body)


# --- scale ----------------------------------------------------------------------------


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


# --- the whole app --------------------------------------------------------------------


def test_full_app_events_mood_and_warnings_tabs(demo: Path) -> None:
    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        from textual.widgets import TabbedContent

        await pilot.press("3")
        events = app.query_one(EventsPane)
        await until(pilot, lambda: app.focused is events.rows)
        overdue = [r.split()[1] for r in rows_plain(events) if r.startswith("!")]
        assert overdue == list(facts.OVERDUE)
        store = app.store
        await press_until(pilot, "d", lambda: app.store is not store)
        assert "**状态**：已完成" in event_block(demo, facts.NEWEST)
        # the app's history screen for events.md
        await press_until(pilot, "h", lambda: type(app.screen).__name__ == "HistoryScreen")
        await press_until(pilot, "escape", lambda: app.focused is events.rows)

        await pilot.press("4")
        mood = app.query_one(MoodPane)
        assert "off (consecutive_g4c_count 1" in mood.summary_text.plain

        await pilot.press("6")
        warnings = app.query_one(WarningsPane)
        await until(pilot, lambda: app.focused is warnings.rows)
        assert len(warnings.findings) == len(open_store(demo).findings)
        await press_until(pilot, "enter", lambda: app.query_one(TabbedContent).active == "tab-file")
        assert app.query_one("#pane-file").rel == "memory.md"  # type: ignore[attr-defined]
        assert app.is_running

    run(MemtuiApp(str(demo), watch=False), body)


# --- pictures -------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["events", "mood", "warnings"])
def test_snapshot(key: str, demo: Path, snap_compare: Any) -> None:
    async def ready(pilot: Pilot) -> None:
        await store_loaded(pilot, pilot.app)  # type: ignore[arg-type]
        if key == "events":
            await pilot.press("down", "down")  # rests on the third newest, a done event
        await pilot.pause()

    assert snap_compare(PaneHost(str(demo), key), terminal_size=SIZE, run_before=ready)
