"""The companion timeline (Layout.timeline): memory/events.md's events sorted once,
newest first, with the overdue ones marked (the same rule as `event-overdue`); and the
archived ones, read on demand for the Events pane's `v`."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from memtui.engine.model import Event
from memtui.engine.timeline import Timeline
from memtui.layouts.companion.ids import event_ids
from memtui.layouts.companion.model import Companion
from memtui.layouts.companion.parse import EVENTS, parse_date
from memtui.layouts.companion.vocab import EVENT_TYPES

if TYPE_CHECKING:
    from memtui.engine.store import Store

ARCHIVED = "archive/" + EVENTS  # where archived events live
KIND = "event"


def timeline(store: Store, data: Companion) -> Timeline:
    """The snapshot's events (empty when it has no events.md)."""
    return timeline_of(data.events, store.today, data.last_active)


def archived_timeline(store: Store, data: Companion) -> tuple[Timeline, str | None]:
    """archive/memory/events.md as a timeline, and why it is empty if it can't be read."""
    from memtui.layouts.companion.archived import archived_events

    events, problem = archived_events(store)
    return timeline_of(events, store.today), problem


def timeline_of(
    raw: tuple[Event, ...] | list[Event], today: dt.date, last_active: str | None = None
) -> Timeline:
    items = [
        (event, eid, position)
        for position, (event, eid) in enumerate(zip(raw, event_ids(raw), strict=True))
        if eid is not None
    ]

    def key(item: tuple[Event, str, int]) -> tuple[dt.date, int, int]:
        event, _id, position = item
        return (parse_date(event.date) or dt.date.min, event.number or 0, position)

    items.sort(key=key, reverse=True)
    overdue = set()
    for i, (event, _id, _pos) in enumerate(items):
        if event.is_open and event.due:
            due = parse_date(event.due)
            if due is not None and due < today:
                overdue.add(i)
    return Timeline(
        tuple(item[0] for item in items),
        tuple(item[1] for item in items),
        frozenset(overdue),
        today,
        positions=tuple(item[2] for item in items),
        layout="companion",
        kind=KIND,
        file=EVENTS,
        archive=ARCHIVED,
        types=EVENT_TYPES,
        last_active=last_active,
    )
