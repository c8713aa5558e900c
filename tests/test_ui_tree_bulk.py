"""Bulk archive from the index tree: `space` and `*` select archivable rows, `x` archives
them all after one confirm (the real ConfirmScreen) that lists them, as one operation
that `z` undoes whole. Pilot over the demo store, the whole app."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets.tree import TreeNode

from memtui.engine.oplog import operations
from memtui.ui.panes.index_tree import IndexPane, IndexTree, Node
from tests.conftest import memory_digest as memory
from tests.ui_helpers import HostApp, answer_confirm, demo_store, run, until

TOPICS = ("memory_billing_decisions.md", "memory_blog_notes.md", "memory_cat_notes.md")


class App(HostApp):
    focus_first = "#index-tree"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


def rows(tree: IndexTree) -> list[TreeNode[Node]]:
    lines = range(tree.last_line + 1)
    return [n for i in lines if (n := tree.get_node_at_line(i)) is not None]


def row(tree: IndexTree, start: str) -> TreeNode[Node]:
    for node in rows(tree):
        if node.label.plain.lstrip("✓ ").startswith(start):  # type: ignore[union-attr]
            return node
    raise AssertionError(f"no visible row starting {start!r}")


async def on(pilot: Pilot, tree: IndexTree, start: str, *keys: str) -> None:
    tree.move_cursor(row(tree, start))
    await pilot.pause()
    await pilot.press(*keys)
    await pilot.pause()


async def select_topics(pilot: Pilot, app: App) -> IndexTree:
    tree = app.query_one(IndexTree)
    await on(pilot, tree, "topics", "right")
    for name in TOPICS:
        await on(pilot, tree, name, "space")
    return tree


def test_three_topics_archived_with_one_confirm_and_z_restores_all_three(demo: Path) -> None:
    before = memory(demo)
    app = App(demo)

    async def body(pilot: Pilot, app: App) -> None:
        tree = await select_topics(pilot, app)
        marked = [n.label.plain for n in rows(tree) if n.label.plain.startswith("✓ ")]  # type: ignore[union-attr]
        assert [m[2:].split("  ")[0] for m in marked] == list(TOPICS)
        await pilot.press("x")
        question = await answer_confirm(pilot, app, "y")
        assert all(f"topic:{n[7:-3]}" in question for n in TOPICS), question
        gone = lambda: not any((demo / n).exists() for n in TOPICS)  # noqa: E731
        await until(pilot, gone, what="the three topics archived")
        assert all((demo / "archive" / n).exists() for n in TOPICS)
        index = (demo / "memory.md").read_text("utf-8")
        assert not any(f"→ {n}" in index or f"]({n})" in index for n in TOPICS)
        await until(pilot, lambda: not app.query_one(IndexPane).selected, what="selection gone")
        assert sum(1 for op in operations(str(demo)) if op.op != "undo") == 1

        await pilot.press("z")
        listed = await answer_confirm(pilot, app, "y")
        assert all(n in listed for n in TOPICS), listed
        await until(pilot, lambda: memory(demo) == before, what="all three put back")

    run(app, body, loaded=True)
    assert memory(demo) == before
    assert operations(str(demo))[-1].op == "undo"


def test_no_on_the_bulk_confirm_writes_nothing_and_keeps_the_selection(demo: Path) -> None:
    before = memory(demo)
    app = App(demo)

    async def body(pilot: Pilot, app: App) -> None:
        await select_topics(pilot, app)
        await pilot.press("x")
        await answer_confirm(pilot, app, "enter")  # Enter on No
        assert app._changes_running == 0
        assert len(app.query_one(IndexPane).selected) == len(TOPICS)

    run(app, body, loaded=True)
    assert memory(demo) == before
    assert operations(str(demo)) == []


def test_star_selects_every_fact_section_and_again_clears_them(demo: Path) -> None:
    app = App(demo)

    async def body(pilot: Pilot, app: App) -> None:
        tree = app.query_one(IndexTree)
        pane = app.query_one(IndexPane)
        await on(pilot, tree, "facts.md", "right")
        facts = [n for n in row(tree, "facts.md").children]
        assert len(facts) > 1
        await on(pilot, tree, facts[0].label.plain.split("  ")[0], "asterisk")  # type: ignore[union-attr]
        assert set(pane.selected.values()) == {n.data.toggle[1] for n in facts}  # type: ignore[union-attr]
        assert all(n.label.plain.startswith("✓ ") for n in facts)  # type: ignore[union-attr]
        await pilot.press("asterisk")
        assert pane.selected == {}
        assert not any(n.label.plain.startswith("✓ ") for n in facts)  # type: ignore[union-attr]

    run(app, body, loaded=True)


def test_space_on_a_row_x_cannot_archive_selects_nothing(demo: Path) -> None:
    app = App(demo)

    async def body(pilot: Pilot, app: App) -> None:
        await on(pilot, app.query_one(IndexTree), "index.txt", "space")
        assert app.query_one(IndexPane).selected == {}

    run(app, body, loaded=True)
