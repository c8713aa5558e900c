"""ops.history.rollback refuses to replace what it did not see: a file seen as absent that
an agent has since created is a conflict, and its bytes stay."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import write_tree
from tests.helpers import TWO_EVENTS


def test_rollback_over_a_file_that_was_absent_when_seen_is_a_conflict(tmp_path: Path) -> None:
    from memtui.engine.ops.edit import edit_entry
    from memtui.engine.ops.history import ABSENT, rollback
    from memtui.engine.write.transaction import Conflict

    root = write_tree(tmp_path / "c", {"memory/events.md": TWO_EVENTS})
    e001 = "### [E001] 2026-11-20 · 约定\n**内容**：周末去看海\n\n"
    edit_entry(str(root), "event:E001", e001.replace("看海", "看山"), seen_text=e001)
    events = root / "memory/events.md"
    events.unlink()  # the user looks at the history of a file that is gone…
    events.write_text("### [E001] 2026-11-30 · agent\n", encoding="utf-8")  # …the agent writes
    try:
        rollback(str(root), "memory/events.md", expected=ABSENT)
    except Conflict:
        pass
    else:
        raise AssertionError("rolled back over a file created since")
    assert events.read_text(encoding="utf-8") == "### [E001] 2026-11-30 · agent\n"
