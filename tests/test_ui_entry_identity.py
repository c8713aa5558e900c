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

from memtui.ui.panes.events import EventsPane, shown_label
from memtui.ui.panes.index_tree import IndexPane, IndexTree
from tests.conftest import tree_digest, write_tree
from tests.helpers import needs_seed_tools
from tests.test_entry_identity import SENTINEL, event, is_done, seeded_store
from tests.ui_helpers import HostApp, answer_confirm, run, store_loaded, until
from tests.workers.bash_agent import (
    EVENTS,
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


def _visible(tree: IndexTree, start: str, default: Any = ...) -> Any:
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        if node is not None and node.label.plain.startswith(start):  # type: ignore[union-attr]
            return node
    if default is ...:
        raise AssertionError(f"no visible node starting {start!r}")
    return default
