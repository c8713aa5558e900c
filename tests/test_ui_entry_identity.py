"""The app acts on the entry it shows, or refuses and says so (SPEC §6): a real bash agent
under the seed's flock writes between the screen showing an entry and the key acting
on it; the action carries the fingerprint of the entry as shown, the engine checks it
under the lock, and nothing changes. With nothing moved the same key still works.

The host app does not watch the store, so the pane keeps showing what it showed
before the agent wrote (as it does for the second or so before a reload).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.widgets import Footer

from memtui.ui.messages import StoreChanged
from memtui.ui.panes.events import EventsPane, shown_label
from memtui.ui.panes.index_tree import IndexPane, IndexTree
from memtui.ui.panes.pending import PendingPane
from memtui.ui.panes.warnings import WarningsPane
from tests.conftest import tree_digest, write_tree
from tests.helpers import needs_seed_tools
from tests.test_entry_identity import SENTINEL, event, is_done, seeded_store
from tests.test_ui_pending import PendingOnly
from tests.ui_helpers import HostApp, PaneHost, answer_confirm, run, store_loaded, until
from tests.workers.bash_agent import (
    EVENTS,
    agent_write,
    insert_at_top,
    needs_bash_flock,
    replace_text,
)

pytestmark = needs_bash_flock


class EventsHost(HostApp):
    focus_first = "#pane-events"

    def compose(self) -> ComposeResult:
        yield EventsPane(id="pane-events")
        yield Footer()


class TreeHost(HostApp):
    focus_first = "#pane-index"

    def compose(self) -> ComposeResult:
        yield IndexPane(id="pane-index")
        yield Footer()


async def highlight(pilot: Pilot, app: EventsHost, content: str) -> EventsPane:
    """Put the Events cursor on the event whose content is `content`."""
    await store_loaded(pilot, app)
    pane = app.query_one(EventsPane)
    await until(pilot, lambda: pane.rows.count > 0)
    for index in range(pane.rows.count):
        got = pane.event_at(index)
        if got is not None and got[0].content == content:
            pane.rows.cursor = index
            await pilot.pause()
            assert pane.current is not None and pane.current[0].content == content
            return pane
    raise AssertionError(f"no event {content!r} in the Events pane")


def errors(app: Any) -> list[str]:
    return [text for severity, text in app.said if severity == "error"]


async def refused_in_app(pilot: Pilot, app: Any, root: Path, key: str, why: str) -> None:
    """Press `key`: the app says why it refused, and the store is as the agent left it."""
    before = tree_digest(root)
    await pilot.press(key)
    await until(pilot, lambda: errors(app), what="the refusal")
    assert why in errors(app)[-1] and "nothing was changed" in errors(app)[-1]
    assert tree_digest(root) == before


@needs_seed_tools
def test_done_on_an_unnumbered_event_the_agent_moved_is_refused(tmp_path: Path) -> None:
    root = seeded_store(tmp_path)

    async def body(pilot: Pilot, app: EventsHost) -> None:
        pane = await highlight(pilot, app, "乙")
        assert pane.current is not None and shown_label(pane.current[1]).startswith("L")
        insert_at_top(root, event(None, "丙", 21))  # the agent, between showing and `d`
        await refused_in_app(pilot, app, root, "d", "moved since it was shown")

    run(EventsHost(root), body)
    assert not any(is_done(root, c) for c in ("甲", "乙", "丙"))


@needs_seed_tools
def test_done_on_an_unnumbered_event_nothing_moved_works(tmp_path: Path) -> None:
    root = seeded_store(tmp_path)

    async def body(pilot: Pilot, app: EventsHost) -> None:
        await highlight(pilot, app, "乙")
        store = app.store
        await pilot.press("d")
        await until(pilot, lambda: app.store is not store, what="the reload after done")
        assert not errors(app)

    run(EventsHost(root), body)
    assert is_done(root, "乙") and not is_done(root, "甲")


def test_done_after_the_agent_reuses_the_number_above_is_refused(tmp_path: Path) -> None:
    text = event(1, "一", 1) + event(2, "二", 2) + SENTINEL
    root = write_tree(tmp_path / "store", {EVENTS: text})

    async def body(pilot: Pilot, app: EventsHost) -> None:
        await highlight(pilot, app, "二")
        insert_at_top(root, event(2, "代理的二", 3))
        await refused_in_app(pilot, app, root, "d", "moved since it was shown")

    run(EventsHost(root), body)
    assert not is_done(root, "二") and not is_done(root, "代理的二")


def test_archive_from_the_tree_after_the_agent_changed_the_sop_is_refused(
    tmp_path: Path,
) -> None:
    files = {
        "index.txt": "[RULES] x\n",
        "facts.md": "## A\n- a\n",
        "sops/deploy.md": "# d\n1. go\n",
    }
    root = write_tree(tmp_path / "store", files)

    async def body(pilot: Pilot, app: TreeHost) -> None:
        await store_loaded(pilot, app)
        tree = app.query_one(IndexTree)
        node = _visible(tree, "sops")
        node.expand()
        await until(pilot, lambda: _visible(tree, "deploy", None) is not None)
        tree.move_cursor(_visible(tree, "deploy"))
        await pilot.pause()
        replace_text(root, "1. go", "1. go now", "sops/deploy.md")  # the agent
        before = tree_digest(root)
        await pilot.press("x")
        await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: errors(app), what="the refusal")
        assert "sop:deploy changed since it was shown" in errors(app)[-1]
        assert tree_digest(root) == before

    run(TreeHost(root), body)
    assert (root / "sops/deploy.md").read_text("utf-8") == "# d\n1. go now\n"


# --- a live reload keeps the cursor on the entry, or on none ------------------------------


def numberless(n: int) -> str:
    """An event without a number, 8 lines (the blank one included): `第 n 件事`."""
    return (
        f"### [E] 2026-11-{n:02d} · 用户Todo\n**类型**：用户Todo\n**内容**：第 {n} 件事\n"
        "**情绪强度**：⭐⭐\n**用户状态**：平静\n**后续**：无\n**状态**：待跟进\n\n"
    )


def newest_first_store(tmp_path: Path) -> Path:
    """第 12 件事 down to 第 1 件事, newest first in the file (an agent that prepends):
    lines 1-8 are 第 12, the row above 第 10 in the list."""
    text = "".join(numberless(n) for n in range(12, 0, -1))
    return write_tree(tmp_path / "store", {EVENTS: text})


async def agent_deletes(pilot: Pilot, app: EventsHost, root: Path, lines: str) -> EventsPane:
    """The agent deletes `lines` (sed's 'a,b') of events.md; the app reloads on the
    message its watcher (ui/live.py) posts for that write."""
    pane = app.query_one(EventsPane)
    store = app.store
    agent_write(root, f'sed -i "{lines}d" "$ROOT/{EVENTS}"')
    app.post_message(StoreChanged((EVENTS,)))
    await until(pilot, lambda: app.store is not store and pane.rows.count == 11, what="reload")
    await pilot.pause()
    return pane


def test_a_reload_keeps_the_cursor_on_the_event_the_agent_moved(tmp_path: Path) -> None:
    """The replay: cursor on 第 10 件事, the agent deletes the 8 lines of 第 12 above it,
    the list reloads; `d` marks 第 10 done, not 第 9 now in its old row."""
    root = newest_first_store(tmp_path)

    async def body(pilot: Pilot, app: EventsHost) -> None:
        pane = await highlight(pilot, app, "第 10 件事")
        assert pane.rows.cursor == 2
        pane = await agent_deletes(pilot, app, root, "1,8")
        assert pane.current is not None and pane.current[0].content == "第 10 件事"
        store = app.store
        await pilot.press("d")
        await until(pilot, lambda: app.store is not store, what="the reload after done")
        assert not errors(app)
        # done changed its text (so its id): the cursor stays on it, not lost
        assert pane.current is not None and pane.current[0].content == "第 10 件事"

    run(EventsHost(root), body)
    assert is_done(root, "第 10 件事")
    assert not any(is_done(root, f"第 {n} 件事") for n in (9, 11))


def test_a_reload_that_removes_the_event_leaves_nothing_to_act_on(tmp_path: Path) -> None:
    """第 10 件事 itself deleted: no row is current, `d` says why and changes nothing;
    once the user moves, the row they move to is the one acted on."""
    root = newest_first_store(tmp_path)

    async def body(pilot: Pilot, app: EventsHost) -> None:
        await highlight(pilot, app, "第 10 件事")
        pane = await agent_deletes(pilot, app, root, "17,24")  # 第 10's own lines
        assert pane.current is None and pane.rows.lost
        assert "is gone" in pane.detail_text.plain
        before = tree_digest(root)
        await pilot.press("d")
        await until(
            pilot, lambda: any("done: the row you were on is gone" in t for _, t in app.said)
        )
        assert tree_digest(root) == before
        await pilot.press("down")  # the rows closed up: down is the next one, 第 9
        assert pane.current is not None and pane.current[0].content == "第 9 件事"

    run(EventsHost(root), body)
    assert not any(is_done(root, f"第 {n} 件事") for n in range(1, 13) if n != 10)


async def reloaded(pilot: Pilot, app: HostApp, rel: str) -> None:
    """The app reloads on its watcher's message for the agent's write to `rel`."""
    store = app.store
    app.post_message(StoreChanged((rel,)))
    await until(pilot, lambda: app.store is not store, what="the reload")
    await pilot.pause()


def said_gone(app: HostApp, verb: str) -> bool:
    return any(f"{verb}: the row you were on is gone" in text for _, text in app.said)


DSH = {"index.txt": "[RULES] x\n", "facts.md": "## A\n- a\n"}


def candidate(n: int) -> str:
    return f"---\nid: c-{n}\nentry_type: fact\ntarget: A\nevidence: ran it\n---\n- fact {n}\n"


def test_a_candidate_the_agent_took_leaves_nothing_to_accept(tmp_path: Path) -> None:
    files = {**DSH, **{f"pending/c-{n}.md": candidate(n) for n in range(1, 5)}}
    root = write_tree(tmp_path / "store", files)

    async def body(pilot: Pilot, app: PendingOnly) -> None:
        await store_loaded(pilot, app)
        pane = app.query_one(PendingPane)
        pane.rows.cursor = pane.positions["pending:c-2"]
        await pilot.pause()
        agent_write(root, 'rm "$ROOT/pending/c-2.md"')
        await reloaded(pilot, app, "pending/c-2.md")
        assert pane.current is None and pane.rows.lost  # not c-3, now in its row
        before = tree_digest(root)
        await pilot.press("a")
        await until(pilot, lambda: said_gone(app, "accept"), what="why a does nothing")
        assert tree_digest(root) == before
        await pilot.press("down")
        assert pane.current is not None and pane.current.name == "c-3"

    run(PendingOnly(str(root)), body)


def test_a_finding_the_agent_settled_leaves_nothing_to_fix(tmp_path: Path) -> None:
    overdue = (
        "### [E00{n}] 2026-11-0{n} · 约定\n**类型**：约定\n**内容**：约{n}\n"
        "**状态**：待跟进\n**到期日**：2026-11-1{n}\n\n"
    )
    text = "".join(overdue.format(n=n) for n in (1, 2, 3)) + SENTINEL
    root = write_tree(tmp_path / "store", {EVENTS: text})

    async def body(pilot: Pilot, app: PaneHost) -> None:
        await store_loaded(pilot, app)
        pane = app.query_one(WarningsPane)
        pane.rows.cursor = next(
            n
            for n, f in enumerate(pane.items)
            if getattr(f, "code", "") == "event-overdue" and "E002" in f.message  # type: ignore[union-attr]
        )
        await pilot.pause()
        agent_write(root, f'sed -i "/E002/,/^$/ s|待跟进|已完成|" "$ROOT/{EVENTS}"')
        await reloaded(pilot, app, EVENTS)
        assert not any(f.code == "event-overdue" and "E002" in f.message for f in pane.findings)
        assert pane.rows.lost and "is gone" in pane.detail_text.plain
        await pilot.press("f")
        await until(pilot, lambda: said_gone(app, "fix"), what="why f does nothing")

    run(PaneHost(str(root), "warnings"), body)


def test_a_sop_the_agent_removed_leaves_no_row_to_archive(tmp_path: Path) -> None:
    files = {**DSH, **{f"sops/{name}.md": f"# {name}\n1. go\n" for name in ("a", "b", "c")}}
    root = write_tree(tmp_path / "store", files)

    async def body(pilot: Pilot, app: TreeHost) -> None:
        await store_loaded(pilot, app)
        pane, tree = app.query_one(IndexPane), app.query_one(IndexTree)
        _visible(tree, "sops").expand()
        await until(pilot, lambda: _visible(tree, "b", None) is not None)
        tree.move_cursor(_visible(tree, "b"))
        await pilot.pause()
        agent_write(root, 'rm "$ROOT/sops/b.md"')
        await reloaded(pilot, app, "sops/b.md")
        assert _visible(tree, "b", None) is None
        assert pane._current() is None  # not sop c, now on its line
        assert pane.check_action("archive", ()) is None  # x shown greyed: it does nothing
        await pilot.press("down")
        assert pane._current() is not None

    run(TreeHost(root), body)


def _visible(tree: IndexTree, start: str, default: Any = ...) -> Any:
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        if node is not None and node.label.plain.startswith(start):  # type: ignore[union-attr]
            return node
    if default is ...:
        raise AssertionError(f"no visible node starting {start!r}")
    return default
