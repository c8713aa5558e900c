"""An event by its id, which depends on its neighbours (ids.py): what the engine's
lookups ask the companion layout (Layout.find, Layout.entry_at)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.entries import EntryNotFound, unread_reason
from memtui.i18n import msg
from memtui.layouts.companion.ids import event_ids, event_ref, pick_event
from memtui.layouts.companion.parse import EVENTS

if TYPE_CHECKING:
    from memtui.engine.model import Event
    from memtui.engine.store import Store
    from memtui.layouts.companion.model import Companion


def find(
    store: Store, data: Companion | None, name: str, expect: str | None
) -> tuple[Event, str] | None:
    """The event `event:<name>` names, as it was shown (ids.pick_event), with its id; None
    if `name` is not shaped like an event id."""
    ref = event_ref(name, expect)
    if ref is None:
        return None
    events = data.events if data else ()
    if ref.label.startswith("E") and not any(e.label == ref.label for e in events):
        raise EntryNotFound(
            unread_reason(store, "event:")
            or msg("no entry event:{event} in this store (see `memtui list`)", event=ref.shown)
        )
    event = pick_event(events, ref, EVENTS)
    return event, id_in(events, event)


def entry_at(data: Companion, rel: str, line: int) -> str | None:
    """The id of the event holding `line` (1-based) of events.md: by place."""
    if rel != EVENTS:
        return None
    for e in data.events:
        span = e.span
        if not e.is_sentinel and span.start < line <= span.stop:
            return "event:" + id_in(data.events, e)
    return None


def id_in(events: tuple[Event, ...], event: Event) -> str:
    """The id (without `event:`) of one of `events`; it depends on the others."""
    return next(i for e, i in zip(events, event_ids(events), strict=True) if e is event and i)
