"""The memory-tool layout's outline: the files of /memories by path (the ones the
listing leaves out marked), and the files memtui archived."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.model import OutlineItem
from memtui.engine.outline import Rows, book_rows
from memtui.i18n import msg
from memtui.layouts.memory_tool import rules
from memtui.layouts.memory_tool.detect import BOOK, VIRTUAL
from memtui.layouts.memory_tool.parse import KIND

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.layouts.memory_tool.parse import Archived, ToolData, ToolFile


def outline(store: Store, data: ToolData) -> list[OutlineItem]:
    rows = Rows.of(store)
    items = [_file(rows, f) for f in data.files]
    items += book_rows(BOOK, data.archived, _id, _label)
    return items


def _file(rows: Rows, f: ToolFile) -> OutlineItem:
    badges = list(filter(None, rows.file_badges(f.rel)))
    if f.tf is not None:
        badges.insert(0, (f"{f.tf.size:,} B", "muted"))
    if rules.deep(f.name):
        badges.append((msg("not listed"), "muted"))
    readable = f.tf is not None
    return OutlineItem(
        f"{VIRTUAL}/{f.name}",
        file=f.rel,
        entry_id=f"{KIND}:{f.name}" if readable else None,
        badges=tuple(badges),
        verbs=("edit", "archive", "open") if readable else ("open",),
    )


def _id(a: Archived) -> str:
    return f"{KIND}:{a.name}"


def _label(a: Archived) -> str:
    return f"{VIRTUAL}/{a.name}"
