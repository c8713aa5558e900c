"""What several layouts share: an outline by file, a file loaded whole or to a line cap."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memtui.engine.model import ContextFile, Entry, OutlineItem
from memtui.engine.textfile import TextFile, read_file

if TYPE_CHECKING:
    from memtui.engine.store import Store


def refused(message: str) -> Exception:
    """The ops' Refused (imported late: opening a store needs no write path)."""
    from memtui.engine.ops.common import Refused

    return Refused(message)


def by_file(entries: list[Entry]) -> list[OutlineItem]:
    """One row per file, its entries below it (the default outline)."""
    files: dict[str, list[Entry]] = {}
    for entry in entries:
        files.setdefault(entry.file, []).append(entry)
    return [
        OutlineItem(
            rel,
            file=rel,
            entry_id=rows[0].id if len(rows) == 1 and rows[0].span is None else None,
            verbs=("open",),
            children=_rows(rows),
        )
        for rel, rows in files.items()
    ]


def _rows(rows: list[Entry]) -> Callable[[], tuple[OutlineItem, ...]]:
    def children() -> tuple[OutlineItem, ...]:
        return tuple(
            OutlineItem(e.title or e.id, file=e.file, line=e.line, entry_id=e.id, verbs=("edit",))
            for e in rows
        )

    return children


def whole_or_cut(store: Store, rel: str, cap: int | None) -> ContextFile | None:
    """`rel` as the agent is given it: whole, or its first `cap` lines."""
    tf = store.texts.get(rel) or read_late(store, rel)
    if tf is None:
        return None
    lines = tf.text.splitlines(keepends=True)
    if cap is None or len(lines) <= cap:
        return ContextFile(rel, tf.text, None, len(lines))
    return ContextFile(
        rel, "".join(lines[:cap]), cap + 1, cap, f"only the first {cap:,} lines are loaded"
    )


def read_late(store: Store, rel: str) -> TextFile | None:
    """A file of the store no parser read (the dsh L0 rules, archive/), read now."""
    if rel not in store.files or rel in store.unreadable:
        return None
    got = read_file(os.path.join(store.root, rel), rel, store.config.thresholds.max_file_bytes)
    return got if isinstance(got, TextFile) else None


def op_options(shown: dict[str, Any]) -> dict[str, Any]:
    """The options every archive/restore op takes (`item` is a profile entry's own)."""
    return {k: v for k, v in shown.items() if k in ("expect", "dry_run")}
