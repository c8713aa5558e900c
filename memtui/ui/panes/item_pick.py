"""x on a row whose verb acts on one item of an entry (a profile category's items, the
archived profile's): which item, then confirm, then the engine op."""

from __future__ import annotations

from typing import Any

from textual import work
from textual.widget import Widget

from memtui.engine.store import Store
from memtui.ui.editing import say

EVENTS_ELSEWHERE = (
    "Archived events are restored in the Events pane: 3, then v lists them, "
    "then x restores the highlighted one"
)


class ItemPick:
    """Mixed into the index pane: `pick_item(verb, entry_id, shown)`."""

    store: Store | None

    def pick_item(self: Any, verb: str, entry_id: str, shown: str | None) -> None:
        store = self.store
        if verb == "restore-event":
            self.app.notify(EVENTS_ELSEWHERE)
            return
        if store is None or store.companion is None:
            return
        if verb == "archive-item":
            category = entry_id.partition(":")[2]
            cat = next((c for c in store.companion.profile if c.name == category), None)
            if cat is None or not cat.items:
                say(self.app, f"{category}: no items to archive", severity="warning")
                return
            _choose(self, verb, [(category, item) for item in cat.items], None, shown)
        else:
            self._read_archived_profile(store)

    @work(thread=True, exclusive=True, group="archived-profile")
    def _read_archived_profile(self: Any, store: Store) -> None:
        from memtui.engine.archive import archived_profile

        pairs, problem = archived_profile(store)
        self.app.call_from_thread(_choose, self, "restore-item", pairs, problem)


def _choose(
    pane: Widget,
    verb: str,
    pairs: list[tuple[str, str]],
    problem: str | None,
    shown: str | None = None,
) -> None:
    """Which item, then archive or restore it; `shown`: the category's fingerprint
    as displayed (an item is named by its text, so a restore needs none)."""
    from memtui.engine import ops
    from memtui.ui.screens.choose import ChoiceScreen

    if not pairs:
        say(pane.app, problem or "no archived profile items", severity="warning")
        return
    archiving = verb == "archive-item"
    question = (
        f"Archive which item of {pairs[0][0]}? It moves to archive/memory/user_profile.md."
        if archiving
        else "Restore which item? It goes back to the end of its category."
    )
    choices = [item if archiving else f"{cat} · {item}" for cat, item in pairs]
    op = ops.archive if archiving else ops.restore
    app: Any = pane.app
    root = app.root

    def picked(index: int | None) -> None:
        if index is None:
            return
        cat, item = pairs[index]
        label = f"{'archive' if archiving else 'restore'} {cat} item"
        app.confirm(
            f"{'Archive' if archiving else 'Restore'} “{item}” ({cat})?",
            lambda: app.run_op(label, lambda: op(root, f"profile:{cat}", item=item, expect=shown)),
        )

    app.push_screen(ChoiceScreen(question, choices), picked)
