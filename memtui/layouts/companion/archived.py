"""What memtui archived, read on demand: files no layout parses when a store opens."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.markdown import sections
from memtui.engine.model import Event
from memtui.engine.textfile import TextFile, Unreadable, read_file
from memtui.layouts.companion.parse import EVENTS, PROFILE, _events

if TYPE_CHECKING:
    from memtui.engine.store import Store

ARCHIVED_EVENTS = "archive/" + EVENTS


def archived_events(store: Store) -> tuple[list[Event], str | None]:
    """The events in archive/memory/events.md, in file order, and why there are none if
    the file can't be read."""
    got = _read(store, ARCHIVED_EVENTS)
    return ([], got) if not isinstance(got, TextFile) else (_events(got), None)


ARCHIVED_PROFILE = "archive/" + PROFILE


def archived_profile(store: Store) -> tuple[list[tuple[str, str]], str | None]:
    """The (category, item) pairs in archive/memory/user_profile.md, and why there are
    none if the file can't be read."""
    got = _read(store, ARCHIVED_PROFILE)
    if not isinstance(got, TextFile):
        return [], got
    return [(s.name.strip(), item) for s in sections(got, 2) for item in s.items], None


def _read(store: Store, rel: str) -> TextFile | str | None:
    """The file, why it can't be read, or None when there is none. Only a file the
    store's scan found is read (never a link out of the root)."""
    if rel not in store.files:
        return None
    got = read_file(os.path.join(store.root, rel), rel, store.config.thresholds.max_file_bytes)
    return f"{rel} is {got.reason}" if isinstance(got, Unreadable) else got
