"""The app on a Claude Code memory folder: the tree drawn from the layout's outline
(MEMORY.md's lines past the cut marked), x archiving a memory through the engine,
the Context view showing the cut, and the palette opening the demo's claude/ folder."""

from __future__ import annotations

import os
from pathlib import Path

from memtui.engine import ops
from memtui.engine.context_rows import CUT, HEAD, UNLOADED
from memtui.ui.app import MemtuiApp
from memtui.ui.panes.index_tree import IndexPane, IndexTree
from tests.conftest import tree_digest
from tests.ui_helpers import answer_confirm, demo_store, run, store_loaded, until


def _labels(tree: IndexTree) -> list[str]:
    out, stack = [], list(tree.root.children)
    while stack:
        node = stack.pop(0)
        out.append(node.label.plain)
        stack = list(node.children) + stack
    return out


def _open_all(tree: IndexTree, names: tuple[str, ...]) -> None:
    for node in list(tree.root.children):
        for child in node.children:
            if child.label.plain.startswith(names):
                child.expand()


def test_the_tree_draws_the_claude_outline_and_x_archives_a_memory(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo") / "claude"
    app = MemtuiApp(str(root), watch=False)

    async def body(pilot, app) -> None:  # type: ignore[no-untyped-def]
        pane = app.query_one(IndexPane)
        tree = pane.index_tree
        labels = _labels(tree)
        assert "Claude" in labels and "MEMORY.md  201 lines  ✖3 ⚠3" in labels
        _open_all(tree, ("MEMORY.md", "memories"))
        await pilot.pause()
        labels = _labels(tree)
        past = [label for label in labels if "not loaded" in label]
        assert len(past) == 1, past  # line 201, the one memory past the cut
        memory = next(n for n in _walk(tree) if n.data and n.data.toggle)
        assert memory.data.toggle[0] == "archive"
        name = memory.data.toggle[1].removeprefix("claude:")
        tree.focus()
        tree.move_cursor(memory)
        await pilot.pause()
        await pilot.press("x")
        await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: not (root / name).exists(), what="the memory to move")
        assert (root / ".archive" / f"{name}.archived").is_file()

    run(app, body, loaded=True)


def _walk(tree: IndexTree):  # type: ignore[no-untyped-def]
    stack = list(tree.root.children)
    while stack:
        node = stack.pop(0)
        yield node
        stack = list(node.children) + stack


def test_c_shows_what_the_agent_loads_with_the_cut(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo") / "claude"
    app = MemtuiApp(str(root), watch=False)

    async def body(pilot, app) -> None:  # type: ignore[no-untyped-def]
        from memtui.ui.screens.context import ContextScreen

        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ContextScreen), what="the view")
        kinds = [kind for kind, _ in app.screen.rows]
        assert kinds.count(CUT) == 1 and kinds.count(UNLOADED) == 1
        cut = next(text for kind, text in app.screen.rows if kind == CUT)
        assert "line 201" in cut
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ContextScreen), what="close")

    run(app, body, loaded=True)


def test_c_names_an_index_it_could_not_read_with_the_reason(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo") / "claude"
    (root / "MEMORY.md").unlink()
    os.mkfifo(root / "MEMORY.md")  # never opened: the app must not hang on it
    app = MemtuiApp(str(root), watch=False)

    async def body(pilot, app) -> None:  # type: ignore[no-untyped-def]
        from memtui.ui.screens.context import ContextScreen

        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ContextScreen), what="the view")
        rows = app.screen.rows
        assert (HEAD, "claude · MEMORY.md · not readable") in rows
        assert any(k == CUT and "MEMORY.md is not readable: a FIFO" in t for k, t in rows)

    run(app, body, loaded=True)


def test_the_palette_opens_the_demos_claude_folder(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo")
    app = MemtuiApp(str(root), watch=False)

    async def body(pilot, app) -> None:  # type: ignore[no-untyped-def]
        from memtui.ui.commands import commands

        found = [c for c in commands(app) if c.title == "Open the store claude"]
        assert len(found) == 1
        found[0].callback()
        await until(pilot, lambda: app.store is not None and app.store.layouts == ("claude",))
        await store_loaded(pilot, app)
        assert "Claude" in _labels(app.query_one(IndexPane).index_tree)

    run(app, body, loaded=True)


def test_memories_sharing_a_name_are_told_apart_by_their_file(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo") / "claude"

    async def body(pilot, app) -> None:  # type: ignore[no-untyped-def]
        tree = app.query_one(IndexPane).index_tree
        _open_all(tree, ("memories",))
        await pilot.pause()
        shared = sorted(label for label in _labels(tree) if label.startswith("Shared"))
        assert len(shared) == 4
        assert [s.split("  ")[0] for s in shared] == [
            f"Shared · team/project_shared_{n}.md" for n in range(4)
        ]

    run(MemtuiApp(str(root), watch=False), body, loaded=True)


def test_the_confirms_say_where_claude_keeps_what_is_archived(tmp_path: Path) -> None:
    """.archive/, the layout's own words, in the restore confirm of an archived memory
    and in a bulk archive's; never the seed layouts' archive/."""
    root = demo_store(tmp_path / "demo") / "claude"
    memories = sorted(p.name for p in root.glob("*.md") if p.name != "MEMORY.md")
    ops.archive(str(root), f"claude:{memories[0]}")
    before = tree_digest(root)

    async def body(pilot, app) -> None:  # type: ignore[no-untyped-def]
        tree = app.query_one(IndexPane).index_tree
        tree.focus()
        _open_all(tree, ("memories", "archived"))
        await pilot.pause()
        archived = next(n for n in _walk(tree) if n.data and n.data.toggle
                        and n.data.toggle[0] == "restore")  # fmt: skip
        tree.move_cursor(archived)
        await pilot.pause()
        await pilot.press("x")
        question = await answer_confirm(pilot, app, "n")
        assert f"Restore claude:{memories[0]} from .archive/" in question, question
        rows = [n for n in _walk(tree) if n.data and n.data.toggle
                and n.data.toggle[0] == "archive"][:2]  # fmt: skip
        for row in rows:
            tree.move_cursor(row)
            await pilot.pause()
            await pilot.press("space")
        await pilot.press("x")
        question = await answer_confirm(pilot, app, "n")
        assert "Archive these 2? Each moves to .archive/" in question, question
        assert " archive/" not in question

    run(MemtuiApp(str(root), watch=False), body, loaded=True)
    assert tree_digest(root) == before
