"""entries.entry_at: the entry holding a line of a file (what `e` in the File pane edits),
for every line of facts.md and events.md."""

from __future__ import annotations

from pathlib import Path

from memtui.engine.store import open_store
from tests.conftest import write_tree
from tests.helpers import DSH_INDEX, OPEN_EVENT, TODAY_DATE


def test_entry_at_each_line_of_facts_and_events(tmp_path: Path) -> None:
    from memtui.engine.entries import entry_at

    facts = "# Facts\n\n## PYTHON_ENV\n- a\n- b\n\n## NETWORK\n- proxy at 10.0.0.1\n"
    root = write_tree(
        tmp_path / "s",
        {"index.txt": DSH_INDEX, "facts.md": facts, "memory/events.md": OPEN_EVENT},
    )
    store = open_store(root, today=TODAY_DATE)
    got = [entry_at(store, "facts.md", n) for n in range(1, 9)]
    assert got == ["file:facts.md"] * 2 + ["fact:PYTHON_ENV"] * 4 + ["fact:NETWORK"] * 2
    events = [entry_at(store, "memory/events.md", n) for n in range(1, 9)]
    assert events[0] == events[5] == "event:E001"  # its heading and its blank separator
    assert events[6] == "file:memory/events.md"  # the sentinel is not an entry
