"""The File pane (viewer) driven by Pilot over real stores (TreeAndFile: the real app with
only the index and File panes): opening at a line, raw and rendered Markdown, a file that
is not UTF-8, and hostile names and text shown literally."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Markdown, TabbedContent

from memtui.ui.panes.viewer import FilePane
from tests.conftest import write_tree
from tests.ui_helpers import (
    SIZE,
    TreeAndFile,
    built,
    cursor_to,
    demo_store,
    find,
    loaded,
    open_search,
    press_on,
    press_until,
    run,
    searched,
    until,
    visible,
)

HOSTILE = "[@click=app.quit]x[/]"
HOSTILE_NAME = "[@click=app.quit]x[b]"  # a file name can't hold the "/" of "[/]"
ESCAPES = ("\x1b[2J", "\x1b]52;c;SGVsbG8=\x07", "\x9b31m")
RAW_CONTROLS = ("\x1b", "\x07", "\x9b")


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


def test_selecting_a_fact_section_opens_facts_md_at_its_line(demo: Path) -> None:
    text = (demo / "facts.md").read_text("utf-8")
    git_line = text.split("\n").index("## GIT") + 1

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        await press_on(pilot, tree, "facts.md", "right")
        await press_on(pilot, tree, "GIT", "enter")
        viewer = app.query_one(FilePane)
        assert viewer.rel == "facts.md"
        assert viewer.rows.cursor == git_line - 1
        assert viewer.target == git_line
        # line numbers are `memtui check`'s: the duplicate fact it reports is marked there
        dup = next(f for f in app.store.findings if f.code == "fact-duplicate")  # type: ignore[union-attr]
        assert viewer.marks.get(dup.line) == "warning"  # type: ignore[arg-type]
        assert viewer._render_row(dup.line - 1).plain.startswith(f"●{dup.line:>3} │ - ")  # type: ignore[operator]
        assert app.query_one(TabbedContent).active == "tab-file"
        # a topic file: the snapshot holds no text for it, the viewer reads it itself
        tree.focus()
        await press_on(pilot, tree, "topics", "right")
        await cursor_to(pilot, tree, "memory_blog_notes.md")
        await pilot.press("enter")
        await until(pilot, lambda: viewer.rel == "memory_blog_notes.md" and not viewer.loading)
        text = (demo / "memory_blog_notes.md").read_text("utf-8")
        assert viewer.lines == text.split("\n")[: len(viewer.lines)]
        assert len(viewer.lines) == text.count("\n") + (not text.endswith("\n"))

    run(TreeAndFile(str(demo)), body)


def test_m_toggles_raw_and_rendered(demo: Path) -> None:
    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        await loaded(pilot, app)
        app.open_file("soul.md", 3)
        await pilot.pause()
        viewer = app.query_one(FilePane)
        viewer.focus()
        await pilot.pause()
        assert not viewer.rendered and viewer.rows.display
        await pilot.press("m")
        await pilot.pause()
        assert viewer.rendered
        assert viewer.query_one("#file-rendered").display
        assert not viewer.rows.display
        await pilot.press("m")
        await pilot.pause()
        assert not viewer.rendered and viewer.rows.cursor == 2
        # not Markdown: raw only
        app.open_file("index.txt", None)
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        assert not viewer.rendered

    run(TreeAndFile(str(demo)), body)


def hostile_store(root: Path) -> Path:
    bad = HOSTILE + "".join(ESCAPES)
    body = f"# {bad}\n\n## {HOSTILE}\n- {bad}\n- [link](app.quit) and [[/]]\n\n{bad}\n"
    return write_tree(
        root,
        {
            "memory.md": f"# idx\n\n## {HOSTILE}\n- {bad} → memory_{HOSTILE_NAME}.md\n"
            f"- esc → memory_\x1b[2J.md\n",
            f"memory_{HOSTILE_NAME}.md": body,
            "memory_\x1b[2J.md": body,
            "soul.md": f"## {bad}\nx\n",
            "index.txt": f"[RULES] {bad}\n",
            "facts.md": f"## {HOSTILE}\n- {bad}\n",
            f"sops/{HOSTILE_NAME}.md": body,
            "sops/\x9b31m.md": body,
            "memory/events.md": f"### [E001] 2026-11-20 · {bad}\n**状态**：{bad}\n",
            "memory/user_profile.md": f"## {bad}\n- {bad}\n",
        },
    )


def test_hostile_names_and_text_are_shown_literally(tmp_path: Path) -> None:
    root = hostile_store(tmp_path / "hostile")

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        for node in list(visible(tree)):
            if node.allow_expand:
                node.expand_all()
        await pilot.pause()
        nodes = built(tree)
        labels = [n.label.plain for n in nodes]  # type: ignore[union-attr]
        assert any(HOSTILE in label for label in labels)
        assert any("\\x1b[2J" in label for label in labels)
        assert any("\\x9b31m" in label for label in labels)
        for node in nodes:
            label = node.label
            assert not any(ch in label.plain for ch in RAW_CONTROLS)  # type: ignore[union-attr]
            assert all(
                not (s.style and getattr(s.style, "meta", None))  # type: ignore[union-attr]
                for s in label.spans
            )  # type: ignore[union-attr]
        viewer = app.query_one(FilePane)
        hostile_topic = find(tree, f"memory_{HOSTILE_NAME}.md")
        tree.move_cursor(hostile_topic)
        # through the tree once, then straight to each file
        await press_until(pilot, "enter", lambda: viewer.rel == f"memory_{HOSTILE_NAME}.md")
        for rel in sorted({n.data.rel for n in nodes if n.data and n.data.rel}):
            app.open_file(rel)
            await until(pilot, lambda: not viewer.loading)
            assert viewer.rel == rel and viewer.text is not None
            shown = "".join(viewer._render_row(i).plain for i in range(viewer.rows.count))
            assert not any(ch in shown for ch in RAW_CONTROLS)
            if rel in (f"memory_{HOSTILE_NAME}.md", "sops/\x9b31m.md"):
                await pilot.press("m")
                await pilot.pause()
                assert viewer.rendered
                md = viewer.query_one(Markdown).source
                assert not any(ch in md for ch in RAW_CONTROLS)
                assert HOSTILE in md
                svg = app.export_screenshot()
                assert not any(ch in svg for ch in RAW_CONTROLS)
                assert "[@click=app.quit]x" in svg.replace("&#160;", " ")  # shown, not run
                await pilot.press("m")
                await pilot.pause()
            svg = app.export_screenshot()
            assert not any(ch in svg for ch in RAW_CONTROLS)
        assert "[@click=app.quit]x" in svg.replace("&#160;", " ")
        # search shows the hostile text literally too
        screen = await open_search(pilot, app)
        await searched(pilot, screen, "click=app.quit")
        assert screen.hits
        svg = app.export_screenshot()
        assert not any(ch in svg for ch in RAW_CONTROLS)
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running

    app = TreeAndFile(str(root))
    run(app, body)
    assert app.return_code in (None, 0)


def test_a_file_that_is_not_utf8_is_shown_raw_and_never_edited(tmp_path: Path) -> None:
    bad = b"# notes\nbad byte \xff here \x1b[2J and \xe4\xb8 cut\n"
    root = write_tree(
        tmp_path / "ws",
        {"memory.md": "# M\n\n## P\n- {notes} \u2192 memory_notes.md\n", "memory_notes.md": bad},
    )

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        await loaded(pilot, app)
        viewer = app.query_one(FilePane)
        app.open_file("memory_notes.md")
        await until(pilot, lambda: not viewer.loading and viewer.text is not None)
        assert viewer.text is not None and "\\xff" in viewer.text and "\\xe4\\xb8" in viewer.text
        shown = "".join(viewer._render_row(i).plain for i in range(viewer.rows.count))
        assert "bad byte \\xff here" in shown and not any(ch in shown for ch in RAW_CONTROLS)
        assert "not UTF-8" in str(viewer.query_one("#file-header").render())
        assert viewer.check_action("edit", ()) is None  # never edited
        await pilot.press("m")  # no rendered view either
        assert not viewer.rendered

    before = (root / "memory_notes.md").read_bytes()
    run(TreeAndFile(str(root)), body)
    assert (root / "memory_notes.md").read_bytes() == before


def test_snapshot_tree_and_viewer(demo: Path, snap_compare: Any) -> None:
    async def ready(pilot: Pilot) -> None:
        app: TreeAndFile = pilot.app  # type: ignore[assignment]
        tree = await loaded(pilot, app)
        await press_on(pilot, tree, "facts.md", "right")
        await cursor_to(pilot, tree, "GIT")
        await pilot.press("enter")
        viewer = app.query_one(FilePane)
        await until(pilot, lambda: viewer.rel == "facts.md" and not viewer.loading)
        await pilot.pause()

    assert snap_compare(TreeAndFile(str(demo)), terminal_size=SIZE, run_before=ready)
