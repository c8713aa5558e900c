"""A store's timeline as the faces show it (the Events pane, `memtui events`): the dated
entries a layout declares (Layout.timeline), sorted once, newest first, the overdue ones
marked by that layout's rule. Asked of the store's layouts, never by name."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memtui.engine.identity import fingerprint
from memtui.engine.model import Event

if TYPE_CHECKING:
    from memtui.engine.store import Store


@dataclass(frozen=True, slots=True)
class Timeline:
    """One snapshot's dated entries, sorted once: what the pane's filters index into."""

    events: tuple[Event, ...]  # newest first
    # entry ids without the kind, as entries.iter_entries gives them: E007, or with the
    # fingerprint where the label alone is ambiguous (E007#2@…, L12@…)
    ids: tuple[str, ...]
    overdue: frozenset[int]  # indices into events: open and past their due date
    today: dt.date
    positions: tuple[int, ...] = ()  # each event's place in its file (file order)
    # What its layout declares of it, for the faces to say (they name none of it).
    layout: str = ""
    kind: str = ""  # its entries' id prefix: `kind:id`
    file: str = ""  # the file its entries live in
    archive: str = ""  # the file archived ones move to (the pane's `v`)
    types: tuple[str, ...] = ()  # the values of its type filter
    last_active: str | None = None  # when its agent was last active, as written

    def entry_id(self, shown: str) -> str:
        """The entry id of an entry the timeline lists as `shown` (E007, L12@fp)."""
        return f"{self.kind}:{shown}"

    def in_file_order(self) -> list[int]:
        """Indices into events, in the order they stand in the file."""
        return sorted(range(len(self.events)), key=self.positions.__getitem__)

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


def timelines(store: Store) -> tuple[Timeline, ...]:
    """Each of the store's layouts' timelines, in detection order; made once per
    snapshot (Store.derived: the app's loading worker makes it)."""
    return store.derived("timelines", lambda: tuple(_made(store)))


def timeline(store: Store) -> Timeline | None:
    """The timeline the Events pane shows: the first layout's that keeps one."""
    found = timelines(store)
    return found[0] if found else None


def archived(store: Store) -> tuple[Timeline | None, str | None]:
    """What was archived out of the shown timeline, read on demand (the pane's `v`), and
    why there is none if it can't be read."""
    from memtui.engine.layouts import layout

    shown = timeline(store)
    if shown is None:
        return None, None
    return layout(shown.layout).archived_timeline(store, store.data[shown.layout])


def _made(store: Store) -> list[Timeline]:
    from memtui.engine.layouts import layout

    made = (layout(name).timeline(store, store.data[name]) for name in store.layouts)
    return [line for line in made if line is not None]
