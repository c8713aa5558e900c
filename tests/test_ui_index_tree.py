"""The index tree driven by Pilot over real stores (TreeAndFile: the real app with only the
index and File panes): the layouts and their badges, the keys (history, edit, archive,
restore), read-only, state kept across a reload, and nodes built only when expanded."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.style import Style
from textual.pilot import Pilot
from textual.widgets.tree import TreeNode

from memtui.engine.config import Thresholds
from memtui.layouts.workspace.parse import INDEX_CAP_LINES
from memtui.ui.app import MemtuiApp
from memtui.ui.panes.index_tree import CHUNK, IndexPane, Node
from memtui.ui.panes.viewer import FilePane, component_style
from tests import demo_facts as facts
from tests.conftest import tree_digest, write_tree
from tests.helpers import bytes_of
from tests.ui_helpers import (
    TreeAndFile,
    answer_confirm,
    built,
    cursor_to,
    demo_store,
    find,
    labels,
    loaded,
    press_on,
    press_until,
    run,
    screen_text,
    until,
    visible,
)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


def test_tree_shows_the_three_layouts_and_the_index_badge(demo: Path) -> None:
    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        labels = [n.label.plain for n in visible(tree)]  # type: ignore[union-attr]
        tops = [n.label.plain for n in tree.root.children]  # type: ignore[union-attr]
        assert tops[:3] == ["Workspace", "Companion", "Dsh"]
        assert tops[-1].startswith("History")
        memory = find(tree, "memory.md").label
        badge = f"{facts.INDEX_LINES}/{INDEX_CAP_LINES} lines"  # against the hard cap
        assert badge in memory.plain  # type: ignore[union-attr]
        # the badge has the warning colour of the theme (150-179 lines)
        warning = component_style(tree, "index--warning")
        start = memory.plain.index(badge)  # type: ignore[union-attr]
        styles = [s.style for s in memory.spans if s.start <= start < s.end]  # type: ignore[union-attr]
        assert warning in styles
        l1 = f"index.txt  {facts.L1_LINES}/{Thresholds().l1_max_lines} lines  stale"
        assert any(label.startswith(l1) for label in labels)
        events = f"events.md  {facts.OPEN}/{facts.EVENTS} open  {len(facts.OVERDUE)} overdue"
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
        assert bytes_of(demo / rel) == bytes_of(cli / rel)


def test_x_on_a_rejected_candidate_brings_it_back_to_pending(demo: Path) -> None:
    from memtui.layouts.dsh import ops as dsh

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
        sops = find(tree, "sops (3,000)")
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


def test_a_findings_tally_draws_each_mark_in_its_levels_colour(demo: Path) -> None:
    """The engine hands "✖1 ⚠3" as one badge with a level per word; each word is drawn
    in its own level's colour, one space apart (as before outlines)."""

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        label = find(tree, "memory.md").label
        plain = label.plain  # type: ignore[union-attr]

        def styles_at(i: int) -> list[object]:
            return [s.style for s in label.spans if s.start <= i < s.end]  # type: ignore[union-attr]

        error, warning = plain.index("✖"), plain.index("⚠")
        assert re.fullmatch(r"✖\d+ ", plain[error:warning])
        assert component_style(tree, "index--error") in styles_at(error)
        assert component_style(tree, "index--warning") in styles_at(warning)
        assert styles_at(warning - 1) == []  # the space between the two is plain

    run(TreeAndFile(str(demo)), body)


@pytest.mark.parametrize(
    ("layout", "rows"),
    [
        ("claude", {"MEMORY.md": "✖3", "memories (202)": "⚠4"}),
        ("hermes", {"MEMORY.md": "⚠1"}),
        ("openclaw", {"MEMORY.md": "✖1", "SOUL.md": "⚠1", "daily notes (8)": "⚠2"}),
    ],
)
def test_every_layouts_rows_carry_their_findings_tally(
    tmp_path: Path, layout: str, rows: dict[str, str]
) -> None:
    """As the seed layouts' rows do: a file's findings counted by level, on its row."""
    root = demo_store(tmp_path / "demo") / layout

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        tree = app.query_one(IndexPane).index_tree
        labels = [n.label.plain for group in tree.root.children for n in group.children]
        for label, badge in rows.items():
            row = next(x for x in labels if x.split("  ")[0] == label)
            assert badge in row.split("  ", 1)[1], row

    run(MemtuiApp(str(root), watch=False), body, loaded=True)


def test_the_archive_confirm_says_where_the_layout_puts_the_entry(tmp_path: Path) -> None:
    """Hermes keeps an archived entry in memories/archived.jsonl: the confirm says so
    (the engine's words), not the seed layouts' archive/."""
    root = demo_store(tmp_path / "demo") / "hermes"
    before = tree_digest(root)

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        tree = app.query_one(IndexPane).index_tree
        tree.focus()
        await press_on(pilot, tree, "MEMORY.md", "right")
        entry = next(n for n in built(tree) if n.data and n.data.toggle)
        tree.move_cursor(entry)
        await pilot.pause()
        await pilot.press("x")
        question = await answer_confirm(pilot, app, "n")
        assert "memories/archived.jsonl" in question and "under archive/" not in question

    run(MemtuiApp(str(root), watch=False), body, loaded=True)
    assert tree_digest(root) == before


@pytest.mark.parametrize(
    ("layout", "path", "key", "said"),
    [
        ("openclaw", ("daily notes", "2026-11-29.md"), "e", "daily notes are append-only"),
        ("openclaw", ("daily notes", "2026-11-29.md"), "x", "daily notes are append-only"),
        ("openclaw", ("AGENTS.md",), "x", "AGENTS.md is not archived"),
        ("", ("soul.md",), "x", "soul.md is not archived"),
    ],
)
def test_a_key_that_does_nothing_on_a_row_says_why(
    tmp_path: Path, layout: str, path: tuple[str, ...], key: str, said: str
) -> None:
    from tests.ui_helpers import HostApp

    root = demo_store(tmp_path / "demo") / layout
    before = tree_digest(root)

    async def body(pilot: Pilot, app: HostApp) -> None:
        tree = app.query_one(IndexPane).index_tree
        tree.focus()
        for step in path[:-1]:
            await press_on(pilot, tree, step, "right")
        await cursor_to(pilot, tree, path[-1])
        await pilot.press(key)
        await until(pilot, lambda: any(said in text for _, text in app.said))

    run(HostApp(root), body, loaded=True)
    assert tree_digest(root) == before


@pytest.mark.parametrize(
    ("layout", "group", "index"),
    [
        ("claude", "memories", 2),
        ("claude", "memories", -1),
        ("hermes", "MEMORY.md", 1),
        ("", "topics", -1),
    ],
    ids=["claude-middle", "claude-last", "hermes-entry", "workspace-last-topic"],
)
def test_archiving_a_row_keeps_the_place_in_its_group(
    tmp_path: Path, layout: str, group: str, index: int
) -> None:
    """The group stays open as it was and the cursor takes the neighbouring row of the
    same group (the next one, or the one before when it was the last), in every layout."""
    root = demo_store(tmp_path / "demo") / layout

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        tree = app.query_one(IndexPane).index_tree
        tree.focus()
        await press_on(pilot, tree, group, "right")
        parent = find(tree, group)
        rows = list(parent.children)
        gone = rows[index]
        assert gone.data is not None and gone.data.toggle is not None
        assert gone.data.toggle[0] == "archive"
        neighbour = rows[index - 1] if gone is rows[-1] else rows[index + 1]
        keys = (parent.data.key, gone.data.key, neighbour.data.key)  # type: ignore[union-attr]
        tree.move_cursor(gone)
        await pilot.pause()
        await pilot.press("x")
        await answer_confirm(pilot, app, "y")
        await until(
            pilot,
            lambda: all(n.data is None or n.data.key != keys[1] for n in built(tree)),
            what="the archived row to leave the tree",
        )
        await pilot.pause()
        cursor = tree.cursor_node
        assert cursor is not None and cursor.data is not None
        assert cursor.data.key == keys[2], cursor.label
        assert cursor.parent is not None and cursor.parent.data is not None
        assert cursor.parent.data.key == keys[0] and cursor.parent.is_expanded

    run(MemtuiApp(str(root), watch=False), body, loaded=True)


def _depth(node: TreeNode[Node]) -> int:
    """Rows above it (the root not drawn): its guides are this many steps wide."""
    depth, up = 0, node.parent
    while up is not None and not up.is_root:
        depth, up = depth + 1, up.parent
    return depth


def _numbers(label: str) -> list[str]:
    """The badges of a row that hold a number (what must never be cut)."""
    return [part for part in label.split("  ")[1:] if any(ch.isdigit() for ch in part)]


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
@pytest.mark.parametrize("layout", ["", "claude", "hermes", "openclaw"])
def test_no_number_in_the_tree_is_cut(tmp_path: Path, layout: str, size: tuple[int, int]) -> None:
    """Every row, its groups opened (so the scrollbar shows), fits the width its guides and
    the scrollbar's gutter leave, its numbers whole (not "warn 150" drawn as "warn 15");
    only store text gives way, ending in "…"."""
    root = demo_store(tmp_path / "demo") / layout

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await press_until(pilot, "1", lambda: app.query_one(IndexPane).display)
        tree = app.query_one(IndexPane).index_tree
        for group in list(tree.root.children):
            group.expand()
            await pilot.pause()
            for node in list(group.children):
                node.expand()
        await pilot.pause()
        assert tree.show_vertical_scrollbar
        width = tree.scrollable_content_region.width
        assert width < tree.region.width  # the gutter is kept
        lines = screen_text(app).splitlines()
        for node in visible(tree):
            depth = _depth(node)
            drawn = tree.render_label(node, Style(), Style()).plain
            assert cell_len(drawn) <= width - depth * tree.guide_depth, drawn
            y = node.line - round(tree.scroll_y)
            on_screen = lines[tree.region.y + y] if 0 <= y < tree.size.height else drawn
            for number in _numbers(node.label.plain):  # type: ignore[union-attr]
                assert number in drawn and number in on_screen, (number, on_screen)

    run(MemtuiApp(str(root), watch=False), body, loaded=True, size=size)


def test_an_index_over_its_cap_says_it_is_blocked(tmp_path: Path) -> None:
    """2,038 lines: blocked (the index-size finding's level, an error), and over the
    200-line hard cap."""
    pointers = "".join(f"- 话题 {n} → memory_t{n}.md\n" for n in range(2036))
    root = write_tree(tmp_path / "ws", {"memory.md": "# 索引\n\n" + pointers, "soul.md": "x\n"})

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        tree = await loaded(pilot, app)
        row = find(tree, "memory.md").label
        assert "blocked · 2,038/200" in row.plain  # type: ignore[union-attr]
        start = row.plain.index("blocked")  # type: ignore[union-attr]
        error = component_style(tree, "index--error")
        assert error in [s.style for s in row.spans if s.start <= start < s.end]  # type: ignore[union-attr]
        assert "blocked · 2,038/200" in screen_text(app)
        size = next(f for f in app.store.findings if f.code == "index-size")  # type: ignore[union-attr]
        assert size.level == "error"

    run(TreeAndFile(str(root)), body)


def test_a_row_gives_way_in_cells_keeping_its_numbers() -> None:
    """Rich cell widths (CJK and 🔥 take two): the description gives way first, ending
    in "…", then the label, "…" in its middle, neither below four cells; the number
    never."""
    from rich.text import Text

    from memtui.ui.panes.tree_fit import KEEP, fit

    parts = [(Text("memory_trip_notes.md"), True), (Text("云南自驾检查清单"), True),
             (Text("🔥38"), False)]  # fmt: skip
    full = cell_len("memory_trip_notes.md  云南自驾检查清单  🔥38")
    least = KEEP + 2 + KEEP + 2 + cell_len("🔥38")
    for room in range(8, 50):
        drawn = fit(parts, room)
        assert drawn.cell_len == max(min(room, full), least), (room, drawn.plain)
        assert drawn.plain.endswith("  🔥38")
        label, description, _ = drawn.plain.split("  ")
        assert (description == "云南自驾检查清单") == (room >= full)
        shortened = room < full - cell_len("云南自驾检查清单") + KEEP
        if shortened:
            head, tail = label.split("…")
            assert "memory_trip_notes.md".startswith(head) and len(head) >= len(tail) > 0
            assert "memory_trip_notes.md".endswith(tail)
        else:
            assert label == "memory_trip_notes.md"
