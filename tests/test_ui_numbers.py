"""Numbers in the app are written one way: a count or size of a thousand or more with
thousands separators (1,974), in the header, the index tree, the panes and the dialogs.
Pilot over a real workspace store in tmp_path that counts in thousands."""

from __future__ import annotations

import re
from pathlib import Path

from textual.pilot import Pilot

from memtui.engine.oplog import Operation
from memtui.ui.app import MemtuiApp
from memtui.ui.panes.index_tree import IndexPane
from memtui.ui.undoing import undo_question
from tests.conftest import write_tree
from tests.ui_helpers import answer_confirm, find, press_on, run, store_loaded, until

TOPICS = 1001
INDEX_LINES = 2038


def unseparated(text: str) -> list[str]:
    """Numbers of four or more digits written without separators (not inside a name,
    a path or a date)."""
    return re.findall(r"(?<![\w.,/:-])\d{4,}(?![\w.,:-])", text)


def big_store(root: Path) -> Path:
    pointers = "".join(f"- 话题 {n} → memory_gone{n}.md\n" for n in range(INDEX_LINES - 2))
    files = {"memory.md": "# 索引\n\n" + pointers, "soul.md": "# Soul\n"}
    files.update({f"memory_t{n:04d}.md": f"# t{n}\n" for n in range(TOPICS)})  # orphans
    return write_tree(root, files)


def test_counts_in_thousands_have_separators_everywhere(tmp_path: Path) -> None:
    root = big_store(tmp_path / "ws")

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await store_loaded(pilot, app)
        header = app.sub_title.removeprefix(str(root))
        assert "2,037 errors · 1,001 warnings" in header and not unseparated(header)
        tree = app.query_one(IndexPane).index_tree
        tree.focus()
        assert "blocked · 2,038/200" in find(tree, "memory.md").label.plain  # type: ignore[union-attr]
        topics = find(tree, "topics").label.plain  # type: ignore[union-attr]
        assert topics == "topics (1,001)  ⚠1,001"
        await press_on(pilot, tree, "topics", "right")
        chunks = [n.label.plain for n in find(tree, "topics").children]  # type: ignore[union-attr]
        assert chunks == ["topics 1–500", "topics 501–1,000", "topics 1,001–1,001"]
        for row in (n.label.plain for n in tree.root.children[0].children):  # type: ignore[union-attr]
            assert not unseparated(row.split("  ", 1)[-1]), row
        # the File pane's header
        await press_on(pilot, tree, "memory.md", "enter")
        shown = str(app.query_one("#file-header").render())
        assert f"{INDEX_LINES:,} lines" in shown and not unseparated(shown)
        # a bulk archive's confirm: two chunks selected whole (*), and one more row
        tree.focus()
        for chunk in ("topics 1–500", "topics 501–1,000"):
            await press_on(pilot, tree, chunk, "asterisk")
        await press_on(pilot, tree, "topics 1,001–1,001", "right")
        await press_on(pilot, tree, "memory_t1000.md", "space")
        await until(pilot, lambda: len(app.query_one(IndexPane).selected) == TOPICS)
        await pilot.press("x")
        question = await answer_confirm(pilot, app, "n")
        assert question.startswith("Archive these 1,001?") and "… and 989 more" in question
        assert not unseparated(question)

    run(MemtuiApp(str(root), watch=False), body)


def test_the_undo_confirm_counts_its_files_with_separators() -> None:
    files = [{"path": f"memory_t{n:04d}.md", "before": "a", "after": "b"} for n in range(1200)]
    question = undo_question(Operation("op-1", "edit", "2026-11-29T10:00:00", "ann", [], files))
    assert "These 1,200 files" in question and "… and 1,188 more" in question
    assert not unseparated(question)


def test_the_queue_panes_labels_and_questions_separate_thousands() -> None:
    from types import SimpleNamespace

    from memtui.engine.layouts import registry
    from memtui.engine.queue import QueueFace
    from memtui.ui.panes.queued import label, refused_said

    queued, dsh = QueueFace(), registry()["dsh"].queue_face
    items = [SimpleNamespace(id=f"hermes-pending:{n:08x}") for n in range(1200)]
    cands = [SimpleNamespace(id=f"2026-{n}") for n in range(2500)]
    said = " ".join(
        [
            label("approve", [(queued, items)]),  # type: ignore[list-item]
            label("reject", [(dsh, cands), (queued, items)]),  # type: ignore[list-item]
            refused_said([(i.id, "stale") for i in items]),
        ]
    )
    assert unseparated(said) == [] and "1,200 queued" in said and "2,500 candidates" in said
