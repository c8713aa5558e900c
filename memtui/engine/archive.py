"""What memtui archived, read on demand: files no layout parses when a store opens."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.layouts.companion import EVENTS, PROFILE, _events
from memtui.engine.markdown import sections
from memtui.engine.model import Event
from memtui.engine.textfile import Unreadable, read_file

if TYPE_CHECKING:
    from memtui.engine.store import Store

ARCHIVED_EVENTS = "archive/" + EVENTS


def archived_events(store: Store) -> tuple[list[Event], str | None]:
    """The events in archive/memory/events.md, in file order, and why there are none if
    the file can't be read. Only a file the store's scan found is read (never a link
    out of the root)."""
    if ARCHIVED_EVENTS not in store.files:
        return [], None
    path = os.path.join(store.root, ARCHIVED_EVENTS)
    got = read_file(path, ARCHIVED_EVENTS, store.config.thresholds.max_file_bytes)
    if isinstance(got, Unreadable):
        return [], f"{ARCHIVED_EVENTS} is {got.reason}"
    return _events(got), None


ARCHIVED_PROFILE = "archive/" + PROFILE


def archived_profile(store: Store) -> tuple[list[tuple[str, str]], str | None]:
    """The (category, item) pairs in archive/memory/user_profile.md, and why there are
    none if the file can't be read."""
    if ARCHIVED_PROFILE not in store.files:
        return [], None
    path = os.path.join(store.root, ARCHIVED_PROFILE)
    got = read_file(path, ARCHIVED_PROFILE, store.config.thresholds.max_file_bytes)
    if isinstance(got, Unreadable):
        return [], f"{ARCHIVED_PROFILE} is {got.reason}"
    return [(s.name.strip(), item) for s in sections(got, 2) for item in s.items], None
