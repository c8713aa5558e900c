"""What the faces ask a store's layouts for their own views (Layout.views: "timeline",
"mood"): which views they feed, the mood, the items inside an entry that x archives one
of. Asked of the layouts, never by name."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memtui.engine.model import Mood
    from memtui.engine.store import Store


def views(store: Store) -> frozenset[str]:
    """The views some layout of this store has data for (a pane's tab is shown for its)."""
    from memtui.engine.layouts import layout

    return frozenset(view for name in store.layouts for view in layout(name).views)


def mood(store: Store) -> Mood | None:
    """Its agent's mood over time, from the first layout that has one."""
    from memtui.engine.layouts import layout

    made = (layout(name).mood(store.data[name]) for name in store.layouts)
    return next((m for m in made if m is not None), None)


def items(store: Store, entry_id: str) -> tuple[list[str], str]:
    """The items inside the entry that archiving moves one of (x in the tree asks which
    first), and where an archived item goes, in words ("to …"), for the confirm."""
    from memtui.engine.layouts import for_kind

    kind, _, name = entry_id.partition(":")
    owner = for_kind(kind)
    if owner is None or owner.name not in store.data:
        return [], ""
    return owner.items(store, store.data[owner.name], kind, name), owner.item_archived_to


def archived_items(store: Store) -> tuple[list[tuple[str, str]], str | None]:
    """(entry id, item) of each item the store's layouts archived out of an entry, read
    on demand, and why some can't be read."""
    from memtui.engine.layouts import layout

    pairs: list[tuple[str, str]] = []
    problems = []
    for name in store.layouts:
        got, problem = layout(name).archived_items(store, store.data[name])
        pairs += got
        problems += [problem] if problem else []
    return pairs, "; ".join(problems) or None


def marks(layout_name: str, kind: str) -> tuple[str, ...]:
    """The states a layout's `mark` sets on its entries of `kind` (Layout.marks)."""
    from memtui.engine.layouts import layout

    return layout(layout_name).marks.get(kind, ())
