"""x in the index tree: archive or restore the row (asked first, refused by the engine
if the agent changed it since this snapshot), the selected rows as one operation, or one
item of an entry (the items its layout names inside it, or the archived ones) picked
first."""

from __future__ import annotations

from typing import Any

from textual import work

from memtui.engine.store import Store
from memtui.i18n import N_, _, tr
from memtui.ui.messages import Ask, ChangeEntries, Say

LISTED = 12  # entries a bulk archive's confirm names before "… and N more"
EVENTS_ELSEWHERE = N_(
    "Archived events are restored in the Events pane: 3, then v lists them, "
    "then x restores the highlighted one"
)


class Archiving:
    """Mixed into the index pane (its `store`, `selected` and cursor row)."""

    store: Store | None
    selected: dict[str, str]

    def _archive_selected(self: Any) -> None:
        """One confirm listing them, then one action (one operation for undo)."""
        from memtui.engine import ops

        entries = list(dict.fromkeys(self.selected.values()))
        shown = tuple((entry, self._shown(entry)) for entry in entries)

        listed = [f"  {e}" for e in entries[:LISTED]]
        if len(entries) > LISTED:
            listed.append("  " + _("… and {n} more").format(n=f"{len(entries) - LISTED:,}"))
        places = list(dict.fromkeys(tr(ops.archived_to(entry)) for entry in entries))
        where = places[0] if len(places) == 1 else _("where its layout keeps what it archives")
        question = (
            _("Archive these {n}? Each moves {where}; z undoes them all.").format(
                n=f"{len(entries):,}", where=where
            )
            + "\n"
            + "\n".join(listed)
        )
        label = _("archive {n} entries").format(n=f"{len(entries):,}")
        self.post_message(ChangeEntries("archive", shown, label, question))

    def action_archive(self: Any) -> None:
        if self.selected:
            self._archive_selected()
            return
        spec = self._current()
        if spec is None or spec.toggle is None:
            why = tr(spec.why) if spec is not None and spec.why else ""
            self.post_message(
                Say(
                    _("Archive: {why}").format(why=why) if why else
                    _("Archive: choose a fact section, a sop, a topic or an archived one"),
                    "warning",
                )
            )  # fmt: skip
            return
        verb, entry = spec.toggle
        if verb not in ("archive", "restore"):
            self.pick_item(verb, entry, self._shown(entry) if verb == "archive-item" else None)
            return
        from memtui.engine import ops

        shown = self._shown(entry if verb == "archive" else spec.rel)
        if verb == "archive":
            question = _(
                "Archive {entry}? It moves {where}; press x on it there to restore it."
            ).format(entry=entry, where=tr(ops.archived_to(entry)))
            label = _("archive {entry}").format(entry=entry)
        else:
            question = _("Restore {entry} {where}?").format(
                entry=entry, where=tr(ops.restored_from(entry))
            )
            label = _("restore {entry}").format(entry=entry)
        self.post_message(ChangeEntries(verb, ((entry, shown),), label, question))

    def _shown(self: Any, ref: str | None) -> str | None:
        """The fingerprint of entry `ref` (a file: `rel`) as this snapshot shows it: the
        engine refuses the action if the agent has changed it since."""
        from memtui.engine.entries import EntryNotFound, file_id, fingerprint_of, resolve

        store = self.store
        if store is None or not ref:
            return None
        try:
            entry = resolve(store, ref if ":" in ref else file_id(ref))
        except EntryNotFound:
            return None
        return fingerprint_of(store, entry)

    def pick_item(self: Any, verb: str, entry_id: str, shown: str | None) -> None:
        from memtui.engine.views import items

        store = self.store
        if verb == "restore-event":
            self.post_message(Say(_(EVENTS_ELSEWHERE)))
            return
        if store is None:
            return
        if verb == "archive-item":
            found, where = items(store, entry_id)
            if not found:
                self.post_message(
                    Say(_("{name}: no items to archive").format(name=_name(entry_id)), "warning")
                )
                return
            self._choose_item(verb, [(entry_id, item) for item in found], None, shown, where)
        else:
            self._read_archived_items(store)

    @work(thread=True, exclusive=True, group="archived-items")
    def _read_archived_items(self: Any, store: Store) -> None:
        from memtui.engine.views import archived_items

        pairs, problem = archived_items(store)
        self.app.call_from_thread(self._choose_item, "restore-item", pairs, problem)

    def _choose_item(
        self: Any,
        verb: str,
        pairs: list[tuple[str, str]],
        problem: str | None,
        shown: str | None = None,
        where: str = "",
    ) -> None:
        """Which (entry id, item), then archive or restore it; `shown`: the entry's
        fingerprint as displayed (an item is named by its text, so a restore needs
        none); `where`: where an archived item goes, in words."""
        from memtui.ui.screens.choose import ChoiceScreen

        if not pairs:
            self.post_message(Say(tr(problem) if problem else _("no archived items"), "warning"))
            return
        archiving = verb == "archive-item"
        question = (
            _("Archive which item of {name}? It moves {where}.").format(
                name=_name(pairs[0][0]), where=tr(where)
            )
            if archiving
            else _("Restore which item? It goes back where it was in its category.")
        )
        choices = [item if archiving else f"{_name(entry)} · {item}" for entry, item in pairs]

        def picked(index: int | None) -> None:
            if index is None:
                return
            entry, item = pairs[index]
            name = _name(entry)
            self.post_message(
                ChangeEntries(
                    "archive" if archiving else "restore",
                    ((entry, shown),),
                    (_("archive {name} item") if archiving else _("restore {name} item")).format(
                        name=name
                    ),
                    (
                        _("Archive “{item}” ({name})?")
                        if archiving
                        else _("Restore “{item}” ({name})?")
                    ).format(item=item, name=name),
                    {"item": item},
                )
            )

        self.post_message(Ask(ChoiceScreen(question, choices), picked))


def _name(entry_id: str) -> str:
    """An entry's name as a confirm says it: its id without the kind."""
    return entry_id.partition(":")[2]
