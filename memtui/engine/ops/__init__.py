"""Curation operations. Each plans its change under the store lock and commits
it through one `Transaction`; none writes a file any other way.

`archive`, `restore` and `edit_entry` take an entry id (SPEC §6) and hand it to the
layout that owns its kind (layouts.registry()), so no face decides by kind."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memtui.engine.errors import MemtuiError
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.write.transaction import Receipt


class NotAnEntry(MemtuiError):
    """An id of a kind no layout owns (a wrong call); nothing was changed."""


def archive(root: str, entry_id: str, **shown: Any) -> Receipt:
    """Archive the entry (options: expect, dry_run; item for a profile entry)."""
    layout, kind, name = _owner(entry_id, "archive")
    return layout.archive(root, kind, name, **shown)


def restore(root: str, entry_id: str, **shown: Any) -> Receipt:
    """Bring an archived entry back (same options as archive)."""
    layout, kind, name = _owner(entry_id, "restore")
    return layout.restore(root, kind, name, **shown)


def archived_to(entry_id: str) -> str:
    """Where archiving the entry puts it, in words, for a face's confirm ("It moves …"):
    its layout's `archived_to`."""
    layout, _kind, _name = _owner(entry_id, "archive")
    return layout.archived_to


def restored_from(entry_id: str) -> str:
    """Where restoring the entry takes it from, in words, for a face's confirm ("Restore
    X …?"): its layout's `restored_from`."""
    layout, _kind, _name = _owner(entry_id, "restore")
    return layout.restored_from


def mark(root: str, entry_id: str, state: str, **shown: Any) -> Receipt:
    """Set the entry to `state` ("done", "open": `memtui done`/`reopen`) through its
    layout's `mark` (options: expect, dry_run); refused for a kind with no such state."""
    from memtui.engine.layouts import registry
    from memtui.engine.ops.common import Refused

    try:
        layout, kind, name = _owner(entry_id, state)
    except NotAnEntry:
        layout, kind, name = None, "", ""
    if layout is None or state not in layout.marks.get(kind, ()):
        kinds = [f"{k}:" for lay in registry().values() for k, s in lay.marks.items() if state in s]
        raise Refused(
            msg(
                "{entry_id!r} is not marked {state}: {join} ids are",
                entry_id=entry_id,
                state=state,
                join=", ".join(kinds),
            )
        )
    return layout.mark(root, kind, name, state, **shown)


def edit_entry(root: str, entry_id: str, new_text: str, **shown: Any) -> Receipt:
    """Replace the entry's text (ops.edit.edit_entry; `ops.edit` is that module)."""
    from memtui.engine.ops import edit

    return edit.edit_entry(root, entry_id, new_text, **shown)


def _owner(entry_id: str, verb: str) -> tuple[Any, str, str]:
    from memtui.engine.layouts import bare_kind, for_kind, registry

    kind, sep, name = entry_id.strip().partition(":")
    if not sep:  # a bare id: the kind a layout claims (Detection.bare_kind)
        kind, name = bare_kind(entry_id), entry_id.strip()
    layout = for_kind(kind) if name else None
    if layout is None:
        kinds = ", ".join(f"{k}:" for lay in registry().values() for k in lay.kinds)
        raise NotAnEntry(
            msg(
                "{entry_id}: {verb} takes {kinds} ids (see `memtui list`)",
                entry_id=entry_id,
                verb=verb,
                kinds=kinds,
            )
        )
    return layout, kind, name
