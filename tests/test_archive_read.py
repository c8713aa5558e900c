"""Reading what memtui archived (engine/archive.py): events and profile items, a file
that is not UTF-8, and a link that leads out of the root (never read)."""

from __future__ import annotations

import os
from pathlib import Path

from memtui.engine.store import open_store
from memtui.layouts.companion.archived import archived_events, archived_profile
from tests.conftest import write_tree
from tests.helpers import EVENTS_MD

EVENTS = "memory/events.md"


def store_with(tmp_path: Path, archived: dict[str, str | bytes]) -> Path:
    return write_tree(tmp_path / "s", {EVENTS: EVENTS_MD, **archived})


def test_archived_events_and_profile_items(tmp_path: Path) -> None:
    root = store_with(
        tmp_path,
        {
            "archive/memory/events.md": "### [E003] 2026-10-01 · 约定\n**类型**：约定\n",
            "archive/memory/user_profile.md": "## 工作\n- 后端\n- [bold]x[/]\n\n## 称呼\n- 老王\n",
        },
    )
    store = open_store(root)
    events, problem = archived_events(store)
    assert problem is None and [e.label for e in events] == ["E003"]
    assert events[0].span.file == "archive/memory/events.md"
    items, problem = archived_profile(store)
    assert problem is None
    assert items == [("工作", "后端"), ("工作", "[bold]x[/]"), ("称呼", "老王")]


def test_no_archive_is_no_items_and_no_problem(tmp_path: Path) -> None:
    store = open_store(store_with(tmp_path, {}))
    assert archived_events(store) == ([], None)
    assert archived_profile(store) == ([], None)


def test_broken_utf8_says_why(tmp_path: Path) -> None:
    root = store_with(tmp_path, {"archive/memory/events.md": b"### [E001] \xff\xfe\n"})
    events, problem = archived_events(open_store(root))
    assert events == [] and problem is not None and "UTF-8" in problem


def test_a_link_out_of_the_root_is_never_read(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"secret.md": "## s\n- SECRET\n"})
    root = store_with(tmp_path, {})
    (root / "archive" / "memory").mkdir(parents=True)
    os.symlink(outside / "secret.md", root / "archive" / "memory" / "user_profile.md")
    items, problem = archived_profile(open_store(root))
    assert items == [] and problem is None
