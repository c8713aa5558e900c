"""The editor, history and help screens, driven by Pilot over real stores in tmp_path.

Most tests run the real MemtuiApp (its loading, say and reload) with no panes
composed, so they do not depend on the panes; `edit_entry`/`show_history` there
delegate to memtui.ui.editing exactly as app.py does. The agent is played by
writing the files directly while a screen is open.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Footer, Static, TextArea

from memtui.engine.entries import entry_text, resolve
from memtui.engine.ops.edit import edit_entry
from memtui.engine.ops.history import snapshots
from memtui.engine.store import open_store
from memtui.ui import editing
from memtui.ui.app import MemtuiApp
from memtui.ui.screens.edit import EditScreen, representable
from memtui.ui.screens.help import HelpScreen
from memtui.ui.screens.history import DiffRows, HistoryScreen
from memtui.ui.widgets.rows import Rows
from tests import demo_facts as facts
from tests.conftest import tree_digest, write_tree
from tests.helpers import E006, E007, EVENTS, EVENTS_MD, SENTINEL, line_of
from tests.ui_helpers import SIZE, HostApp, demo_store, press_until, run, until

AGENT_APPEND = (
    "\n### [E008] 2026-11-29 · 用户Todo\n**类型**：用户Todo\n**内容**：买猫粮\n"
    "**状态**：待跟进\n\n### [E000] 2026-11-29T22:10 · last_active\n"
)
CONTENT = "**内容**：工作压力大"
MINE = CONTENT + " ok"  # what the tests type at the end of E007's content line


class Host(HostApp):
    """The real app with no panes composed; what it says is recorded."""

    def compose(self) -> ComposeResult:
        yield Static("host", id="host")
        yield Footer()

    # the same two lines the report asks app.py to add
    def edit_entry(self, entry_id: str) -> None:
        editing.edit_entry(self, entry_id)

    def show_history(self, rel: str) -> None:
        editing.show_history(self, rel)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "store", {".memory.lock": "", EVENTS: EVENTS_MD})


async def open_editor(pilot: Pilot, app: Host, entry_id: str = "event:E007") -> EditScreen:
    await until(pilot, lambda: app.store is not None)
    app.edit_entry(entry_id)
    await until(pilot, lambda: isinstance(app.screen, EditScreen))
    screen = app.screen
    assert isinstance(screen, EditScreen)
    await pilot.pause()
    return screen


async def conflict_on_save(
    pilot: Pilot, app: Host, root: Path, theirs_md: str
) -> tuple[EditScreen, str]:
    """Open E007 and type " ok" on its content line; the agent then writes `theirs_md`, and
    the save stops at a conflict. Returns the editor and the user's text."""
    screen = await open_editor(pilot, app)
    await type_at_end_of(pilot, screen, 2, ["space", "o", "k"])
    mine = screen.buffer.text
    (root / EVENTS).write_text(theirs_md, encoding="utf-8")  # the agent edits E007
    await press_until(pilot, "ctrl+s", lambda: screen.conflict)
    return screen, mine


async def open_history(pilot: Pilot, app: Host) -> HistoryScreen:
    await until(pilot, lambda: app.store is not None)
    app.show_history(EVENTS)
    await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
    screen = app.screen
    assert isinstance(screen, HistoryScreen)
    return screen


async def type_at_end_of(pilot: Pilot, screen: EditScreen, line: int, keys: list[str]) -> None:
    buffer = screen.buffer
    buffer.cursor_location = (line, len(buffer.document.get_line(line)))
    await pilot.press(*keys)


async def answer(pilot: Pilot, app: MemtuiApp, yes: bool) -> None:
    """Answer the confirmation on top (whichever yes/no screen the app uses)."""
    await until(pilot, lambda: isinstance(app.screen, ModalScreen))
    await pilot.press("y" if yes else "n")
    await pilot.pause()


def banner_text(screen: EditScreen) -> str:
    return str(screen.banner.render())


def read(root: Path, rel: str = EVENTS) -> str:
    return (root / rel).read_bytes().decode("utf-8")


def history_of(root: Path, rel: str = EVENTS) -> list[bytes]:
    folder = root / ".history" / rel
    return [p.read_bytes() for p in sorted(folder.iterdir())] if folder.exists() else []


def audit_ops(root: Path) -> list[str]:
    path = root / ".history" / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line)["op"] for line in path.read_text("utf-8").splitlines()]


# --- editing ---------------------------------------------------------------------------


def test_edit_saves_only_that_event(root: Path) -> None:
    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_editor(pilot, app)
        assert screen.buffer.text == E007  # the entry's exact text
        assert screen.buffer.soft_wrap and screen.buffer.show_line_numbers
        await type_at_end_of(pilot, screen, 2, ["space", "o", "k"])
        assert screen.unsaved()
        await press_until(pilot, "ctrl+s", lambda: not isinstance(app.screen, EditScreen))

    app = Host(root)
    run(app, body)
    assert read(root) == EVENTS_MD.replace(CONTENT, MINE)
    assert history_of(root) == [EVENTS_MD.encode()]
    assert audit_ops(root) == ["edit"]
    assert ("information", f"saved {EVENTS}; read back and verified") in app.said


def test_agent_appends_meanwhile_and_the_save_keeps_it(root: Path) -> None:
    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_editor(pilot, app)
        await type_at_end_of(pilot, screen, 2, ["space", "o", "k"])
        with (root / EVENTS).open("a", encoding="utf-8") as fh:  # the agent writes
            fh.write(AGENT_APPEND)
        await press_until(pilot, "ctrl+s", lambda: not isinstance(app.screen, EditScreen))

    run(Host(root), body)
    assert read(root) == (EVENTS_MD + AGENT_APPEND).replace(CONTENT, MINE)
    assert history_of(root) == [(EVENTS_MD + AGENT_APPEND).encode()]


def test_agent_changes_this_event_conflict_then_keep_mine(root: Path) -> None:
    theirs_e007 = E007.replace("**状态**：待跟进", "**状态**：已跟进")
    theirs_md = E006 + theirs_e007 + SENTINEL

    async def body(pilot: Pilot, app: Host) -> None:
        screen, mine = await conflict_on_save(pilot, app, root, theirs_md)
        assert app.screen is screen  # still open
        assert screen.buffer.text == mine  # the user's text is intact
        banner = banner_text(screen)
        assert "changed since you read it" in banner and "ctrl+t" in banner
        assert screen.banner.has_class("-conflict")
        side = screen.query_one("#edit-side-text", TextArea)
        assert side.text == theirs_e007 and side.read_only
        assert read(root) == theirs_md and history_of(root) == []  # nothing written
        # ctrl+t: keep mine; the next save replaces theirs deliberately
        await pilot.press("ctrl+t")
        assert not screen.conflict and screen.seen_text == theirs_e007
        assert screen.buffer.text == mine
        await press_until(pilot, "ctrl+s", lambda: not isinstance(app.screen, EditScreen))

    run(Host(root), body)
    assert read(root) == EVENTS_MD.replace(CONTENT, MINE)
    assert history_of(root) == [theirs_md.encode()]  # theirs kept: it can be rolled back


def test_conflict_reload_theirs_keeps_mine_beside_and_escape_asks(root: Path) -> None:
    theirs_e007 = E007.replace("工作压力大", "工作压力大，睡不好")
    theirs_md = E006 + theirs_e007 + SENTINEL

    async def body(pilot: Pilot, app: Host) -> None:
        screen, mine = await conflict_on_save(pilot, app, root, theirs_md)
        await pilot.press("ctrl+r")  # asks first
        await answer(pilot, app, yes=True)
        assert screen.buffer.text == theirs_e007
        assert screen.query_one("#edit-side-text", TextArea).text == mine  # nothing lost
        await pilot.press("escape")  # your earlier text would go: asks
        await answer(pilot, app, yes=False)
        assert app.screen is screen
        await pilot.press("escape")
        await answer(pilot, app, yes=True)
        await until(pilot, lambda: not isinstance(app.screen, EditScreen))

    run(Host(root), body)
    assert read(root) == theirs_md and history_of(root) == []


def test_refused_shows_the_reason_and_keeps_the_text(root: Path) -> None:
    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_editor(pilot, app)
        screen.buffer.cursor_location = (0, 0)
        await pilot.press("delete", "delete", "delete", "delete")  # "### " of the heading
        text = screen.buffer.text
        await press_until(pilot, "ctrl+s", lambda: screen.banner.has_class("-error"))
        assert "Refused" in banner_text(screen) and "heading" in banner_text(screen)
        assert app.screen is screen and screen.buffer.text == text

    before = tree_digest(root)
    run(Host(root), body)
    assert tree_digest(root) == before


def test_escape_with_unsaved_changes_asks_and_nothing_is_written(root: Path) -> None:
    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_editor(pilot, app)
        await type_at_end_of(pilot, screen, 2, ["x"])
        await pilot.press("escape")
        await answer(pilot, app, yes=False)
        assert app.screen is screen and screen.buffer.text.count("工作压力大x") == 1
        await pilot.press("escape")
        await answer(pilot, app, yes=True)
        await until(pilot, lambda: not isinstance(app.screen, EditScreen))
        # unchanged: escape closes at once
        screen = await open_editor(pilot, app, "event:E006")
        await press_until(pilot, "escape", lambda: not isinstance(app.screen, EditScreen))

    before = tree_digest(root)
    run(Host(root), body)
    assert tree_digest(root) == before


def test_read_only_opens_read_only(root: Path) -> None:
    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_editor(pilot, app)
        assert screen.buffer.read_only
        assert "read-only" in str(screen.query_one("#edit-note", Static).render())
        await pilot.press("x", "ctrl+s")
        await pilot.pause()
        assert screen.buffer.text == E007 and app.screen is screen
        keys = {b.binding.action for b in screen.active_bindings.values()}
        assert "save" not in keys and "close" in keys

    before = tree_digest(root)
    run(Host(root, read_only=True), body)
    assert tree_digest(root) == before


def test_entry_the_editor_cannot_keep_exactly_is_shown_read_only(tmp_path: Path) -> None:
    assert representable(E007) and representable("a\r\nb\r\n")
    assert not representable("a\r\nb\n") and not representable("a\x1b[31mb\n")
    odd = E007.replace("工作压力大", "工作\x1b[31m压力大")
    root = write_tree(tmp_path / "s", {".memory.lock": "", EVENTS: E006 + odd + SENTINEL})

    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_editor(pilot, app)
        assert screen.buffer.read_only and "\\x1b" in screen.buffer.text
        assert "\x1b" not in screen.buffer.text

    run(Host(root), body)


def test_run_editor_reads_the_text_back_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    script = "import sys; p = sys.argv[1]; t = open(p, newline='').read(); "
    script += "open(p, 'w', newline='').write(t.replace('a', 'b'))"
    monkeypatch.setenv("VISUAL", f'python3 -c "{script}"')
    assert editing.run_editor("a\r\nx 中文\n", "events.md") == "b\r\nx 中文\n"
    monkeypatch.setenv("VISUAL", "false")
    with pytest.raises(editing.EditorFailed):
        editing.run_editor("a", "x.md")


# --- history ---------------------------------------------------------------------------


def make_history(root: Path) -> tuple[str, str, str]:
    """Two real edits: the file's versions v0 -> v1 -> v2 (v0, v1 are snapshots)."""
    v0 = read(root)
    seen = entry_text(store := open_store(root), resolve(store, "event:E007"))
    v1_e007 = E007.replace("工作压力大", "工作压力大，好些了")
    edit_entry(str(root), "event:E007", v1_e007, seen_text=seen)
    v1 = read(root)
    edit_entry(str(root), "event:E006", E006.replace("看海", "看山"), seen_text=E006)
    return v0, v1, read(root)


def test_history_lists_snapshots_diffs_and_rollback_can_be_undone(root: Path) -> None:
    v0, v1, v2 = make_history(root)

    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_history(pilot, app)
        await until(pilot, lambda: len(screen.snaps) == 2)
        rows = screen.query_one("#history-list", Rows)
        diff = screen.query_one("#history-diff", DiffRows)
        # newest first: v1, then v0; the diff of the highlighted one against now
        assert screen.current is not None and screen.current.size == len(v1.encode())
        await until(pilot, lambda: "+**内容**：周末一起去看山" in diff.diff_lines)
        assert "-**内容**：周末一起去看海" in diff.diff_lines
        assert "UTC" in rows._render_row(0).plain
        await press_until(pilot, "down", lambda: "-**内容**：工作压力大" in diff.diff_lines)
        # roll back to v0, after a confirmation
        await pilot.press("r")
        await answer(pilot, app, yes=False)
        assert read(root) == v2
        await pilot.press("r")
        await answer(pilot, app, yes=True)
        await until(pilot, lambda: len(screen.snaps) == 3)
        assert read(root) == v0
        assert screen.snaps[0].size == len(v2.encode())  # the version replaced, newest
        assert rows.cursor == 0
        # and undo it: roll back to the newest snapshot (enter does the same as r)
        await pilot.press("enter")
        await answer(pilot, app, yes=True)
        await until(pilot, lambda: len(screen.snaps) == 4)
        assert read(root) == v2
        await press_until(pilot, "escape", lambda: not isinstance(app.screen, HistoryScreen))

    app = Host(root)
    run(app, body)
    assert audit_ops(root) == ["edit", "edit", "rollback", "rollback"]
    assert len(snapshots(str(root), EVENTS)) == 4
    assert any("rolled memory/events.md back to" in text for _, text in app.said)


def test_rollback_after_the_agent_wrote_is_refused_and_the_diff_catches_up(root: Path) -> None:
    _, v1, v2 = make_history(root)

    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_history(pilot, app)
        await until(pilot, lambda: len(screen.snaps) == 2)
        diff = screen.query_one("#history-diff", DiffRows)
        await until(pilot, lambda: bool(diff.diff_lines))
        with open(root / EVENTS, "a", encoding="utf-8") as f:  # the agent, after the diff
            f.write(AGENT_APPEND)
        await pilot.press("r")
        await answer(pilot, app, yes=True)
        await until(pilot, lambda: any("not rolled back" in t for _, t in app.said))
        assert read(root) == v2 + AGENT_APPEND  # nothing the agent wrote is lost
        # the list and diff were made again against the file as it is now
        await until(pilot, lambda: "+**内容**：买猫粮" in diff.diff_lines)
        await pilot.press("r")  # seen now: the user may roll back over it on purpose
        await answer(pilot, app, yes=True)
        await until(pilot, lambda: len(screen.snaps) == 3)
        assert read(root) == v1

    run(Host(root), body)
    assert audit_ops(root) == ["edit", "edit", "rollback"]


def test_history_diff_follows_the_agent_when_the_store_reloads(root: Path) -> None:
    make_history(root)

    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_history(pilot, app)
        await until(pilot, lambda: len(screen.snaps) == 2)
        diff = screen.query_one("#history-diff", DiffRows)
        await until(pilot, lambda: bool(diff.diff_lines))
        with open(root / EVENTS, "a", encoding="utf-8") as f:
            f.write(AGENT_APPEND)
        app.load_store()  # what the app's watcher does when it sees the write
        await until(pilot, lambda: "+**内容**：买猫粮" in diff.diff_lines)

    run(Host(root), body)


def test_history_read_only_has_no_rollback(root: Path) -> None:
    make_history(root)

    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_history(pilot, app)
        await until(pilot, lambda: len(screen.snaps) == 2)
        await pilot.press("r", "enter")
        await pilot.pause()
        assert app.screen is screen
        assert "rollback" not in {b.binding.action for b in screen.active_bindings.values()}

    before = tree_digest(root)
    run(Host(root, read_only=True), body)
    assert tree_digest(root) == before


def test_history_of_a_file_without_snapshots(root: Path) -> None:
    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_history(pilot, app)
        await until(pilot, lambda: screen.loaded)
        label = str(screen.query_one("#history-diff-label", Static).render())
        assert "no history yet" in label

    run(Host(root), body)


# --- help ------------------------------------------------------------------------------


def test_help_lists_the_keys_and_closes(root: Path) -> None:
    async def body(pilot: Pilot, app: Host) -> None:
        await press_until(pilot, "question_mark", lambda: isinstance(app.screen, HelpScreen))
        page = app.screen.page().plain
        for needle in ("Keys everywhere", "Search", "Quit", "Reload", "ctrl+p"):
            assert needle in page
        for needle in ("Save", "Keep mine", "Reload theirs", "Roll back", "Events"):
            assert needle in page
        # closes help; does not quit
        await press_until(pilot, "q", lambda: not isinstance(app.screen, HelpScreen))
        await press_until(pilot, "question_mark", lambda: isinstance(app.screen, HelpScreen))
        await press_until(pilot, "escape", lambda: not isinstance(app.screen, HelpScreen))
        assert app.is_running

    run(Host(root), body)


def test_the_keys_help_says_close_the_editor_do_close_it(root: Path) -> None:
    """The help's editor keys come from its bindings as they act while typing: q types
    a q there (it closes only a read-only view, and help says so); each key listed
    as Close does close the editor."""
    from textual.binding import BindingsMap

    async def body(pilot: Pilot, app: Host) -> None:
        await press_until(pilot, "question_mark", lambda: isinstance(app.screen, HelpScreen))
        page = app.screen.page().plain
        section = page.split("Editing an entry\n")[1].split("\n\n")[0].splitlines()
        await press_until(pilot, "escape", lambda: not isinstance(app.screen, HelpScreen))
        named = {app.get_key_display(b): b.key for _, b in BindingsMap(EditScreen.BINDINGS)}
        closing = [line.split("  ")[1].strip() for line in section if line.endswith(" Close")]
        keys = [named[shown] for line in closing for shown in line.split(", ")]
        assert keys == ["escape"]
        assert any(line.strip().startswith("q ") and "read-only" in line for line in section)
        screen = await open_editor(pilot, app)
        await type_at_end_of(pilot, screen, 2, ["q"])
        assert app.screen is screen and screen.buffer.text.splitlines()[2].endswith("q")
        screen.buffer.text = screen.baseline  # nothing unsaved: the key closes at once
        for key in keys:
            await press_until(pilot, key, lambda: not isinstance(app.screen, EditScreen))

    run(Host(root), body)


# --- ctrl+o: $EDITOR ---------------------------------------------------------------------

# A fake $EDITOR: changes the content line of the entry it is handed, as a user would.
FAKE_EDITOR = """#!/bin/sh
sed -i 's/工作压力大/工作压力大，编辑器里改的/' "$1"
"""


def test_ctrl_o_hands_the_entry_to_the_editor_and_saves_what_it_wrote(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import contextlib

    editor = tmp_path / "fake-editor"
    editor.write_text(FAKE_EDITOR, encoding="utf-8")
    editor.chmod(0o755)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(editor))
    # Pilot's headless driver has no terminal to hand over; a real one suspends here
    monkeypatch.setattr(Host, "suspend", lambda self: contextlib.nullcontext())

    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_editor(pilot, app)
        await pilot.press("ctrl+o")
        await until(pilot, lambda: "编辑器里改的" in screen.buffer.text)
        assert screen.buffer.text == E007.replace("工作压力大", "工作压力大，编辑器里改的")
        await press_until(pilot, "ctrl+s", lambda: not isinstance(app.screen, EditScreen))

    run(Host(root), body)
    new_e007 = E007.replace("工作压力大", "工作压力大，编辑器里改的")
    assert (root / EVENTS).read_text("utf-8") == E006 + new_e007 + SENTINEL


def test_ctrl_o_without_a_terminal_to_hand_over_says_so_and_keeps_the_text(root: Path) -> None:
    async def body(pilot: Pilot, app: Host) -> None:
        screen = await open_editor(pilot, app)
        await pilot.press("ctrl+o")
        await until(pilot, lambda: any("cannot hand the terminal" in t for _, t in app.said))
        assert screen.buffer.text == E007 and app.screen is screen

    before = tree_digest(root)
    run(Host(root), body)
    assert tree_digest(root) == before


# --- the whole app ------------------------------------------------------------------------


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


def test_full_app_edit_from_events_pane_and_help(demo: Path) -> None:
    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await pilot.press("3")
        await pilot.pause()
        await press_until(pilot, "question_mark", lambda: isinstance(app.screen, HelpScreen))
        page = app.screen.page().plain
        assert "Keys in the Events pane" in page and "Keys everywhere" in page
        await press_until(pilot, "escape", lambda: not isinstance(app.screen, HelpScreen))
        await press_until(pilot, "e", lambda: isinstance(app.screen, EditScreen))
        screen = app.screen
        assert isinstance(screen, EditScreen)
        store = app.store
        assert store is not None
        assert screen.buffer.text == entry_text(store, resolve(store, screen.entry_id))
        await type_at_end_of(pilot, screen, 0, ["space", "z"])
        await press_until(pilot, "ctrl+s", lambda: not isinstance(app.screen, EditScreen))
        await press_until(pilot, "h", lambda: isinstance(app.screen, HistoryScreen))
        await until(pilot, lambda: len(app.screen.snaps) >= 1)

    before = read(demo)
    run(MemtuiApp(str(demo), watch=False), body)
    after = read(demo)
    assert after != before and len(after) == len(before) + 2


def test_full_app_e_in_pending_edits_the_highlighted_candidate(demo: Path) -> None:
    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await pilot.press("5")
        pane = app.query_one("#pane-pending")
        await until(pilot, lambda: pane.current is not None)  # type: ignore[attr-defined]
        await pilot.press("down")
        wanted = pane.current.name  # type: ignore[attr-defined]
        await press_until(pilot, "e", lambda: isinstance(app.screen, EditScreen))
        screen = app.screen
        assert isinstance(screen, EditScreen) and screen.entry_id == f"pending:{wanted}"
        text = (demo / "pending" / f"{wanted}.md").read_text("utf-8")
        assert screen.buffer.text == text  # the candidate as stored, front matter too

    run(MemtuiApp(str(demo), watch=False), body)


def test_full_app_e_and_h_in_the_file_pane_act_on_the_line_and_file_shown(demo: Path) -> None:
    rel = "memory/events.md"
    label = facts.OVERDUE[-1]
    line = line_of((demo / rel).read_text("utf-8"), f"### [{label}]") + 2  # inside the event

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        app.open_file(rel, line)
        viewer = app.query_one("#pane-file")
        await until(pilot, lambda: viewer.rel == rel and viewer.rows.cursor == line - 1)  # type: ignore[attr-defined]
        viewer.rows.focus()  # type: ignore[attr-defined]
        await press_until(pilot, "e", lambda: isinstance(app.screen, EditScreen))
        assert app.screen.entry_id == f"event:{label}"  # type: ignore[attr-defined]
        await press_until(pilot, "escape", lambda: not isinstance(app.screen, EditScreen))
        await press_until(pilot, "h", lambda: isinstance(app.screen, HistoryScreen))
        assert app.screen.rel == rel  # type: ignore[attr-defined]

    run(MemtuiApp(str(demo), watch=False), body)


# --- pictures ------------------------------------------------------------------------------


class EditPicture(Host):
    def on_mount(self) -> None:
        self.store = open_store(self.root)
        self.edit_entry("event:E007")


def test_snapshot_edit_screen_in_conflict(root: Path, snap_compare: Any) -> None:
    async def conflict(pilot: Pilot) -> None:
        app = pilot.app
        await until(pilot, lambda: isinstance(app.screen, EditScreen))
        screen = app.screen
        assert isinstance(screen, EditScreen)
        for area in screen.query(TextArea):
            area.cursor_blink = False
        await type_at_end_of(pilot, screen, 2, ["space", "o", "k"])
        (root / EVENTS).write_text(
            E006 + E007.replace("待跟进", "已跟进") + SENTINEL, encoding="utf-8"
        )
        await press_until(pilot, "ctrl+s", lambda: screen.conflict)
        await pilot.pause()

    assert snap_compare(EditPicture(root), terminal_size=SIZE, run_before=conflict)


class HistoryPicture(Host):
    def on_mount(self) -> None:
        self.store = open_store(self.root)
        self.show_history(EVENTS)


def test_snapshot_history_screen(root: Path, snap_compare: Any) -> None:
    older = EVENTS_MD.replace("看海", "看日出")
    write_tree(
        root,
        {
            f".history/{EVENTS}/20261120T101500Z.1": older,
            f".history/{EVENTS}/20261125T083000Z.1": EVENTS_MD.replace("工作压力大", "加班"),
        },
    )

    async def ready(pilot: Pilot) -> None:
        app = pilot.app
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
        screen = app.screen
        await until(pilot, lambda: len(screen.snaps) == 2)
        diff = screen.query_one("#history-diff", DiffRows)
        await until(pilot, lambda: "+**内容**：工作压力大" in diff.diff_lines)
        await pilot.pause()

    assert snap_compare(HistoryPicture(root), terminal_size=SIZE, run_before=ready)


def test_help_names_the_context_view_in_words_not_its_widget_class(demo: Path) -> None:
    from memtui.ui.screens.context import ContextScreen

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await press_until(pilot, "c", lambda: isinstance(app.screen, ContextScreen))
        await pilot.pause()
        await press_until(pilot, "question_mark", lambda: isinstance(app.screen, HelpScreen))
        page = app.screen.page().plain
        assert "Keys in the context view" in page
        assert "Rows" not in page  # no class name (was "Keys in the focused ContextRows")

    run(MemtuiApp(str(demo), watch=False), body)
