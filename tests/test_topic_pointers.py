"""memory.md's topic pointers (SPEC §1): a topic's title is its first pointer's description,
and the target is the whole file name after the arrow (spaces, brackets, text around it),
for reading, findings and archiving alike."""

from __future__ import annotations

from pathlib import Path

from memtui.engine.entries import iter_entries
from memtui.engine.store import open_store
from memtui.layouts.workspace import ops as workspace
from tests.conftest import write_tree
from tests.helpers import TODAY_DATE, findings


def test_topic_title_is_the_first_pointers_description(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "ws",
        {
            "memory.md": "# idx\n\n## A\n- {gardening notes} → memory_garden.md\n"
            "- {garden again} → memory_garden.md\n",
            "memory_garden.md": "roses\n",
        },
    )
    store = open_store(root, today=TODAY_DATE)
    titles = {e.id: e.title for e in iter_entries(store)}
    assert titles["topic:garden"] == "{gardening notes}"


ODD = "memory_[bold red]boom.md"


def odd_store(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "ws",
        {
            "memory.md": f"# idx\n\n## A\n- {{x}} → {ODD}\n- {{y}} → memory_my notes.md\n"
            "- {z} → 详见 memory_z.md（更多）\n",
            ODD: "boom\n",
            "memory_my notes.md": "notes\n",
            "memory_z.md": "z\n",
        },
    )


def test_pointer_takes_the_whole_file_name_after_the_arrow(tmp_path: Path) -> None:
    root = odd_store(tmp_path)
    store = open_store(root, today=TODAY_DATE)
    assert store.data.get("workspace") is not None
    targets = [p.target for p in store.data.get("workspace").pointers]
    assert targets == [ODD, "memory_my notes.md", "memory_z.md"]
    codes = {(code, file) for code, _level, file, _line in findings(root)}
    assert not {c for c in codes if c[0] in ("pointer-missing", "topic-orphan")}
    assert ("topic-name", ODD) in codes  # still not a good name


def test_archiving_an_odd_topic_moves_its_pointer(tmp_path: Path) -> None:
    root = odd_store(tmp_path)
    workspace.archive_topic(str(root), "[bold red]boom")
    assert ODD not in (root / "memory.md").read_text()
    assert f"- {{x}} → {ODD}" in (root / "archive/memory.md").read_text()
