"""The companion timeline as the events pane shows it: one snapshot's events sorted
once, newest first, with the overdue ones marked (the same rule as `event-overdue`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memtui.engine.identity import fingerprint
from memtui.engine.model import Event
from memtui.layouts.companion.ids import event_ids
from memtui.layouts.companion.parse import EVENTS, parse_date
from memtui.layouts.companion.vocab import EVENT_TYPES  # noqa: F401 - the filter's values

if TYPE_CHECKING:
    from memtui.engine.store import Store

ARCHIVED = "archive/" + EVENTS  # where archived events live


@dataclass(frozen=True, slots=True)
class Timeline:
    """One snapshot's events, sorted once: what the pane's filters index into."""

    events: tuple[Event, ...]  # non-sentinel events, newest first
    # entry ids as entries.iter_entries gives them, without `event:`: E007, or with the
    # fingerprint where the label alone is ambiguous (E007#2@…, L12@…)
    ids: tuple[str, ...]
    overdue: frozenset[int]  # indices into events
    today: dt.date

    def find(self, entry_id: str, shown: str) -> int | None:
        """Where the event a user saw as `entry_id`, with fingerprint `shown`, is in this
        (newer) timeline: its id if still there, else the one event with its text (an
        agent's write above moved it: `L12@fp` is now `L4@fp`). None when it is gone,
        changed, or several events now have its text: no neighbour stands in for it."""
        ids = self.ids
        try:
            return ids.index(entry_id)
        except ValueError:
            pass
        label = entry_id.partition("@")[0].partition("#")[0]
        tail = f"@{shown}"
        found = [
            i
            for i, other in enumerate(ids)
            if other.endswith(tail)
            or ("@" not in other and other == label and fingerprint(self.events[i].text) == shown)
        ]
        return found[0] if len(found) == 1 else None


def event_id(shown: str) -> str:
    """The entry id of an event the timeline lists as `shown` (E007, L12@fp)."""
    return f"event:{shown}"


def timeline(store: Store) -> Timeline:
    """The snapshot's timeline, made once per snapshot (see Store.derived)."""
    companion = store.companion
    return store.derived(
        "timeline", lambda: timeline_of(companion.events if companion else (), store.today)
    )


def timeline_of(raw: tuple[Event, ...] | list[Event], today: dt.date) -> Timeline:
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
    )
