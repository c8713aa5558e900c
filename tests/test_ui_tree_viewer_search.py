"""The index tree, the file viewer and the search screen, driven by Pilot over real stores.

Most tests run the real MemtuiApp (its loading, run_op, confirm and open_file) with only
the index pane and the File pane composed, so they do not depend on the other panes;
one test runs the whole app once every pane exists.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widgets import Footer, Input, Markdown, TabbedContent, TabPane
from textual.widgets.tree import TreeNode

from memtui.engine.config import Thresholds
from memtui.engine.layouts.workspace import INDEX_CAP_LINES
from memtui.engine.search import search
from memtui.ui.app import MemtuiApp
from memtui.ui.panes.index_tree import CHUNK, IndexPane, IndexTree, Node
from memtui.ui.panes.viewer import FilePane, component_style
from memtui.ui.screens.search import CAP, SearchScreen
from tests import demo_facts as facts
from tests.conftest import tree_digest, write_tree
from tests.ui_helpers import (
    SIZE,
    HostApp,
    answer_confirm,
    demo_store,
    press_until,
    run,
    store_loaded,
    until,
)

CJK = "季度报告"  # on one line of the demo's memory.md
HOSTILE = "[@click=app.quit]x[/]"
HOSTILE_NAME = "[@click=app.quit]x[b]"  # a file name can't hold the "/" of "[/]"
ESCAPES = ("\x1b[2J", "\x1b]52;c;SGVsbG8=\x07", "\x9b31m")
RAW_CONTROLS = ("\x1b", "\x07", "\x9b")


class TreeAndFile(HostApp):
    """The real app with only the index and File panes; the history and editor screens
    the panes ask for are recorded instead (a confirm is the real dialog)."""

    focus_first = "#pane-index"

    def __init__(self, root: str, **kwargs: Any) -> None:
        super().__init__(root, **kwargs)
        self.calls: list[tuple[str, str]] = []

    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            yield IndexPane(id="pane-index")
            with TabbedContent(id="panes"), TabPane("File", id="tab-file"):
                yield FilePane(id="pane-file")
        yield Footer()

    def show_history(self, rel: str) -> None:
        self.calls.append(("history", rel))

    def edit_entry(self, entry_id: str, line: int | None = None) -> None:
        self.calls.append(("edit", entry_id))


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


async def loaded(pilot: Pilot, app: MemtuiApp) -> IndexTree:
    await store_loaded(pilot, app)
    return app.query_one(IndexTree)


def visible(tree: IndexTree) -> list[TreeNode[Node]]:
    return [n for i in range(tree.last_line + 1) if (n := tree.get_node_at_line(i)) is not None]


def labels(tree: IndexTree) -> list[str]:
    return [n.label.plain.split("  ")[0] for n in visible(tree)]  # type: ignore[union-attr]


def find(tree: IndexTree, start: str) -> TreeNode[Node]:
    for node in visible(tree):
        if node.label.plain.startswith(start):  # type: ignore[union-attr]
            return node
    raise AssertionError(f"no visible node starting {start!r}")


async def cursor_to(pilot: Pilot, tree: IndexTree, start: str) -> TreeNode[Node]:
    node = find(tree, start)
    tree.move_cursor(node)
    await pilot.pause()
    return node


async def press_on(pilot: Pilot, tree: IndexTree, start: str, key: str) -> None:
    """Move the cursor to the visible node starting `start`, press `key` (right expands,
    enter opens the file), let the app settle."""
    await cursor_to(pilot, tree, start)
    await pilot.press(key)
    await pilot.pause()


def built(tree: IndexTree) -> list[TreeNode[Node]]:
    """Every node that exists (expanded or not)."""
    out, stack = [], list(tree.root.children)
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


async def open_search(pilot: Pilot, app: MemtuiApp) -> SearchScreen:
    await press_until(pilot, "slash", lambda: isinstance(app.screen, SearchScreen))
    return app.screen  # type: ignore[return-value]


async def searched(pilot: Pilot, screen: SearchScreen, query: str) -> None:
    screen.query_one(Input).value = query
    await until(pilot, lambda: screen.done_query == query and not screen.searching)
    await pilot.pause()


# --- the tree ----------------------------------------------------------------------


def test_tree_shows_the_three_layouts_and_the_index_badge(demo: Path) -> None:
    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        labels = [n.label.plain for n in visible(tree)]  # type: ignore[union-attr]
        tops = [n.label.plain for n in tree.root.children]  # type: ignore[union-attr]
        assert tops[:3] == ["Workspace", "Companion", "Dsh"]
        assert tops[-1].startswith("History")
        memory = find(tree, "memory.md").label
        t = Thresholds()
        badge = (
            f"{facts.INDEX_LINES} lines · warn {t.index_warn_lines} · "
            f"block {t.index_block_lines} · cap {INDEX_CAP_LINES}"
        )
        assert badge in memory.plain  # type: ignore[union-attr]
        # the badge has the warning colour of the theme (150-179 lines)
        warning = component_style(tree, "index--warning")
        start = memory.plain.index(badge)  # type: ignore[union-attr]
        styles = [s.style for s in memory.spans if s.start <= start < s.end]  # type: ignore[union-attr]
        assert warning in styles
        l1 = f"index.txt  {facts.L1_LINES}/{Thresholds().l1_max_lines} lines  stale"
        assert any(label.startswith(l1) for label in labels)
        events = (
            f"events.md  {facts.EVENTS} events · {facts.OPEN} open  {len(facts.OVERDUE)} overdue"
        )
        assert any(label.startswith(events) for label in labels)
        assert any(f"🔥{facts.L1_HEAT}" in label for label in labels)  # index.txt's read heat
        # a missing pointer under its section, an orphan among the topics
        await cursor_to(pilot, tree, "memory.md")
        await pilot.press("right")
        for node in [
            n
            for n in visible(tree)
            if n.parent and n.parent.data and n.parent.data.rel == "memory.md"
        ]:
            node.expand()
        await pilot.pause()
        missing = find(tree, "旧版博客迁移")  # the pointer to memory_blog_migration.md
        assert "missing" in missing.label.plain  # type: ignore[union-attr]
        await press_on(pilot, tree, "topics", "right")
        assert "orphan" in find(tree, "memory_draft_ideas.md").label.plain  # type: ignore[union-attr]
        assert "bad name" in find(tree, "memory_Travel-Plans.md").label.plain  # type: ignore[union-attr]

    run(TreeAndFile(str(demo)), body)


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


def test_keys_call_history_edit_and_archive(demo: Path) -> None:
    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        await press_on(pilot, tree, "sops", "right")
        await cursor_to(pilot, tree, "rotate-nginx")
        await pilot.press("h", "e")
        assert app.calls == [("history", "sops/rotate-nginx.md"), ("edit", "sop:rotate-nginx")]
        await pilot.press("x")
        assert "sop:rotate-nginx" in await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: not (demo / "sops" / "rotate-nginx.md").exists())
        assert (demo / "archive" / "sops" / "rotate-nginx.md").exists()
        # the reload counts one sop less and keeps the sops group open
        sops = f"sops ({facts.SOPS - 1})"
        await until(pilot, lambda: sops in labels(tree))
        assert find(tree, sops).is_expanded
        assert "rotate-nginx" not in labels(tree)

    run(TreeAndFile(str(demo)), body)


def test_x_on_a_fact_section_and_a_topic_asks_first_then_archives(demo: Path) -> None:
    """Through the real dialog: "No" has the focus (Enter keeps everything), y archives."""
    before = tree_digest(demo)

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        await press_on(pilot, tree, "facts.md", "right")
        await cursor_to(pilot, tree, "GIT")
        await pilot.press("x")
        assert "fact:GIT" in await answer_confirm(pilot, app, "enter")
        assert app._changes_running == 0 and tree_digest(demo) == before
        await pilot.press("x")
        await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: "## GIT" not in (demo / "facts.md").read_text("utf-8"))
        assert "## GIT" in (demo / "archive" / "facts" / "GIT.md").read_text("utf-8")

        await until(pilot, lambda: "archive/facts/GIT.md" in app.store.files)  # type: ignore[union-attr]
        await press_on(pilot, tree, "topics", "right")
        await cursor_to(pilot, tree, "memory_blog_notes.md")
        await pilot.press("x")
        assert "topic:blog_notes" in await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: not (demo / "memory_blog_notes.md").exists())
        assert (demo / "archive" / "memory_blog_notes.md").exists()
        assert "→ memory_blog_notes.md" not in (demo / "memory.md").read_text("utf-8")

    run(TreeAndFile(str(demo)), body)


def test_x_on_a_profile_category_picks_an_item_and_archives_then_restores_it(
    demo: Path, tmp_path: Path
) -> None:
    import shutil

    from memtui.ui.screens.choose import ChoiceScreen
    from tests.conftest import run_cli

    cli = shutil.copytree(demo, tmp_path / "cli")
    profile = "memory/user_profile.md"

    async def pick(pilot: Pilot, app: TreeAndFile, key: str, down: int) -> ChoiceScreen:
        await press_until(pilot, key, lambda: isinstance(app.screen, ChoiceScreen))
        screen = app.screen
        assert isinstance(screen, ChoiceScreen)
        await pilot.press(*["down"] * down, "enter")
        return screen

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        await press_on(pilot, tree, "user_profile.md", "right")
        await cursor_to(pilot, tree, "重要关系")
        choice = await pick(pilot, app, "x", 2)  # the third item: 爸爸
        assert choice.choices[2] == facts.FATHER
        question = await answer_confirm(pilot, app, "y")
        assert "重要关系" in question and "爸爸" in question
        await until(pilot, lambda: "爸爸" not in (demo / profile).read_text("utf-8"))
        await until(
            pilot, lambda: app.store is not None and f"archive/{profile}" in app.store.files
        )
        await pilot.pause()
        await press_on(pilot, tree, "archive", "right")
        await cursor_to(pilot, tree, profile)  # shown by its path under archive/
        choice = await pick(pilot, app, "x", 0)
        assert choice.choices == [f"{facts.RELATIONS} · {facts.FATHER}"]
        assert "Restore" in await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: "爸爸" in (demo / profile).read_text("utf-8"))

    run(TreeAndFile(str(demo)), body)
    args = (f"profile:{facts.RELATIONS}", "--item", facts.FATHER, "--store", str(cli))
    assert run_cli("archive", *args).returncode == 0
    assert run_cli("restore", *args).returncode == 0
    for rel in (profile, f"archive/{profile}"):
        assert (demo / rel).read_bytes() == (cli / rel).read_bytes()


def test_x_on_a_rejected_candidate_brings_it_back_to_pending(demo: Path) -> None:
    from memtui.engine.ops import dsh

    cid = facts.SECOND
    before = (demo / "pending" / f"{cid}.md").read_bytes()
    dsh.reject(str(demo), [cid], "by mistake")

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        await press_on(pilot, tree, "archive", "right")
        await cursor_to(pilot, tree, f"rejected/{cid}.md")
        await pilot.press("x")
        assert f"pending:{cid}" in await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: (demo / "pending" / f"{cid}.md").exists())

    run(TreeAndFile(str(demo)), body)
    assert (demo / "pending" / f"{cid}.md").read_bytes() == before


def test_read_only_hides_edit_and_archive(demo: Path) -> None:
    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        await cursor_to(pilot, tree, "agent.md")
        pane = app.query_one(IndexPane)
        assert pane.check_action("edit", ()) is False
        assert pane.check_action("archive", ()) is False
        assert pane.check_action("history", ()) is True

    run(TreeAndFile(str(demo), read_only=True), body)


def test_expanded_state_cursor_and_viewer_line_survive_a_reload(demo: Path) -> None:
    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        await press_on(pilot, tree, "facts.md", "right")
        await press_on(pilot, tree, "NETWORK", "enter")
        viewer = app.query_one(FilePane)
        line = viewer.rows.cursor
        # the agent appends a fact; the watcher would reload: do what it does
        with (demo / "facts.md").open("a", encoding="utf-8") as fh:
            fh.write("- appended by the agent\n")
        before = len(viewer.lines)
        app.load_store()
        await until(pilot, lambda: len(viewer.lines) == before + 1)
        await pilot.pause()
        assert find(tree, "facts.md").is_expanded
        assert tree.cursor_node is not None
        assert tree.cursor_node.label.plain.startswith("NETWORK")  # type: ignore[union-attr]
        assert viewer.rel == "facts.md" and viewer.rows.cursor == line

    run(TreeAndFile(str(demo)), body)


def test_sops_are_built_only_when_expanded(tmp_path: Path) -> None:
    count = 3000
    files: dict[str, str | bytes] = {
        "index.txt": "[RULES] x\n# --- auto ---\n# --- end auto ---\n",
        "facts.md": "## ENV\n- a fact\n",
    }
    for i in range(count):
        files[f"sops/task-{i:04d}.md"] = f"# task {i}\n1. do it\n"
    root = write_tree(tmp_path / "big", files)

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        sops = find(tree, "sops (3000)")
        assert not sops.children
        assert len(built(tree)) < 30
        sops.expand()
        await pilot.pause()
        chunks = [n.label.plain for n in sops.children]  # type: ignore[union-attr]
        assert chunks[0] == f"sops 1–{CHUNK}" and len(chunks) == -(-count // CHUNK)
        assert all(not n.children for n in sops.children)
        sops.children[1].expand()
        await pilot.pause()
        assert len(sops.children[1].children) == CHUNK
        assert sops.children[1].children[0].label.plain == f"task-{CHUNK:04d}  task {CHUNK}"  # type: ignore[union-attr]
        assert len(built(tree)) < 30 + CHUNK + len(chunks)

    run(TreeAndFile(str(root)), body)


# --- a hostile store ----------------------------------------------------------------


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


# --- search --------------------------------------------------------------------------


def test_search_finds_cjk_and_enter_opens_the_line(demo: Path) -> None:
    expected = next(search(demo, CJK))

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        await loaded(pilot, app)
        screen = await open_search(pilot, app)
        await searched(pilot, screen, CJK)
        first = screen.hits[0]
        assert (first.file, first.line) == (expected.file, expected.line)
        row = screen._render_hit(0)
        assert row.plain.startswith(f"{expected.file}:{expected.line}: ")
        match = tuple(screen.rows.style_of("match") == s.style for s in row.spans)
        assert any(match)
        await press_until(pilot, "enter", lambda: not isinstance(app.screen, SearchScreen))
        viewer = app.query_one(FilePane)
        assert viewer.rel == expected.file
        assert viewer.rows.cursor == expected.line - 1

    run(TreeAndFile(str(demo)), body)


def test_search_bad_regex_and_escape(demo: Path) -> None:
    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        await loaded(pilot, app)
        screen = await open_search(pilot, app)
        await searched(pilot, screen, "re:(unclosed")
        status = screen.query_one("#search-status")
        assert status.has_class("-error")
        assert "bad regular expression" in str(status.render())
        await searched(pilot, screen, r"re:E0\d\d")
        assert screen.hits and all(h.file for h in screen.hits)
        assert not status.has_class("-error")
        await searched(pilot, screen, "re:.")  # every non-empty line: more than the cap
        assert screen.more and len(screen.hits) == CAP
        assert f"first {CAP:,}" in str(status.render())
        await press_until(pilot, "escape", lambda: not isinstance(app.screen, SearchScreen))
        assert app.is_running

    run(TreeAndFile(str(demo)), body)


# --- the whole app ---------------------------------------------------------------------


def test_whole_app_tree_search_and_viewer(demo: Path) -> None:
    expected = next(search(demo, CJK))

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        tree = await loaded(pilot, app)
        assert [n.label.plain for n in tree.root.children][:3] == [  # type: ignore[union-attr]
            "Workspace",
            "Companion",
            "Dsh",
        ]
        tree.focus()
        await press_on(pilot, tree, "facts.md", "enter")
        assert app.query_one(FilePane).rel == "facts.md"
        await searched(pilot, await open_search(pilot, app), CJK)
        await press_until(pilot, "enter", lambda: not isinstance(app.screen, SearchScreen))
        viewer = app.query_one(FilePane)
        assert (viewer.rel, viewer.rows.cursor + 1) == (expected.file, expected.line)

    run(MemtuiApp(str(demo), watch=False), body)


# --- pictures -------------------------------------------------------------------------


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


def test_snapshot_search(demo: Path, snap_compare: Any) -> None:
    async def ready(pilot: Pilot) -> None:
        app: TreeAndFile = pilot.app  # type: ignore[assignment]
        await loaded(pilot, app)
        await searched(pilot, await open_search(pilot, app), "pytest")
        for box in app.screen.query(Input):  # a blinking cursor makes the picture flaky
            box.cursor_blink = False
        await pilot.pause()

    assert snap_compare(TreeAndFile(str(demo)), terminal_size=SIZE, run_before=ready)
