"""The memory-tool layout's outline: the files of /memories by path (the ones the
listing leaves out marked), and the files memtui archived."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from memtui.engine.model import OutlineItem
from memtui.engine.outline import Rows
from memtui.layouts.memory_tool import rules
from memtui.layouts.memory_tool.detect import BOOK, VIRTUAL
from memtui.layouts.memory_tool.parse import KIND

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.layouts.memory_tool.parse import Archived, ToolData, ToolFile


def outline(store: Store, data: ToolData) -> list[OutlineItem]:
    rows = Rows.of(store)
    items = [_file(rows, f) for f in data.files]
    if data.archived:
        twice = {n for n, c in Counter(a.name for a in data.archived).items() if c > 1}
        items.append(
            OutlineItem(
                f"archived ({len(data.archived):,})",
                key="archived",  # not the label: its count changes
                file=BOOK,
                children=lambda: tuple(_archived(a, twice) for a in data.archived),
            )
        )
    return items


def _file(rows: Rows, f: ToolFile) -> OutlineItem:
    badges = list(filter(None, rows.file_badges(f.rel)))
    if f.tf is not None:
        badges.insert(0, (f"{f.tf.size:,} B", "muted"))
    if rules.deep(f.name):
        badges.append(("not listed", "muted"))
    readable = f.tf is not None
    return OutlineItem(
        f"{VIRTUAL}/{f.name}",
        file=f.rel,
        entry_id=f"{KIND}:{f.name}" if readable else None,
        badges=tuple(badges),
        verbs=("edit", "archive", "open") if readable else ("open",),
    )


def _archived(a: Archived, twice: set[str]) -> OutlineItem:
    """A row that restores it (x): by its path, with its fingerprint when several were
    archived under that path."""
    from memtui.engine.identity import fingerprint

    target = f"{KIND}:{a.name}" + (f"@{fingerprint(a.text)}" if a.name in twice else "")
    return OutlineItem(f"{VIRTUAL}/{a.name}", file=BOOK, line=a.line, target=target,
                       verbs=("restore",))  # fmt: skip
