"""The archive/ folder's rows: each archived file with the id that restores it (a
topic, a sop, a fact section, a rejected candidate) or the verb that restores its items."""

from __future__ import annotations

from memtui.engine.model import OutlineItem
from memtui.engine.outline import ARCHIVE, Rows, chunked
from memtui.layouts.companion.archived import ARCHIVED_EVENTS, ARCHIVED_PROFILE
from memtui.layouts.workspace.parse import TOPIC_LIKE, topic_id

PREFIX = ARCHIVE + "/"


def archive_group(rows: Rows, archived: list[str]) -> OutlineItem:
    kids = chunked("archive", "archived", archived, lambda rel: archived_row(rows, rel))
    return rows.group("archive", "archive", len(archived), kids, folder=ARCHIVE)


def restorable(rel: str) -> tuple[str, str] | None:
    """(verb, id) that x runs on archived file `rel`, or None."""
    name = rel[len(PREFIX) :]
    one_deep = name.count("/") == 1 and name.endswith(".md")
    if one_deep and name.startswith("sops/"):
        return "restore", f"sop:{name[5:-3]}"
    if one_deep and name.startswith("facts/"):
        return "restore", f"fact:{name[6:-3]}"
    if "/" not in name and TOPIC_LIKE.fullmatch(name):
        return "restore", f"topic:{topic_id(name)}"
    if one_deep and name.startswith("rejected/"):
        return "restore", f"pending:{name[9:-3]}"  # back to pending/
    if rel == ARCHIVED_PROFILE:
        return "restore-item", ""  # x: which archived item, then restore it
    if rel == ARCHIVED_EVENTS:
        return "restore-event", ""  # restored from the Events pane
    return None


def archived_row(rows: Rows, rel: str) -> OutlineItem:
    verb, target = restorable(rel) or (None, None)
    return rows.file(rel, rel[len(PREFIX) :], entry=rows.entry_for(rel), verb=verb, target=target)
