"""Replacing one entry's text (SPEC §4 "edits an entry or a file"): the id names its
owner (layouts.for_kind, or the kind a bare id is claimed as), whose Layout.edit
replaces it, mostly through ops.replace.replace_entry; a whole file by its path
(`file:`) is the engine's own."""

from __future__ import annotations

import os

from memtui.engine.identity import split_expect
from memtui.engine.layouts import bare_kind, for_kind
from memtui.engine.ops.common import Refused
from memtui.engine.ops.replace import replace_entry, whole
from memtui.engine.paths import LAYOUT_DIRS, is_temp_name
from memtui.engine.write.transaction import HISTORY, Receipt, WriteError, check_path
from memtui.i18n import msg


def edit_entry(
    root: str,
    entry_id: str,
    new_text: str,
    *,
    seen_text: str | None = None,
    expect: str | None = None,
    insist: bool = False,
    dry_run: bool = False,
) -> Receipt:
    """Replace the entry's text with `new_text` (ids as in SPEC §6).

    `seen_text` is the entry's text as the caller read it: if the entry differs
    now, Conflict. Without it, `expect` (or `@FINGERPRINT` at the end of the id) is
    the entry's fingerprint as shown (identity), with the same effect. Changes
    elsewhere in the file do not matter; they are kept. Empty text is refused (an
    entry is removed by archiving it), and so is text that breaks a layout's rules
    for its file (Layout.check_edit). A file a layout keeps read-only (Layout.read_only:
    meta-rules, SPEC §3) changes only if the user insists.
    """
    if not isinstance(new_text, str):
        raise Refused(msg("the new text must be text"))
    ref = entry_id.strip()
    kind, sep, name = ref.partition(":")
    if not sep:  # a bare id: the kind a layout claims (Detection.bare_kind)
        kind, name = bare_kind(ref), ref
    owner = for_kind(kind)
    if (owner is None and kind != "file") or not name:
        raise Refused(msg("{ref!r} is not an entry id (see `memtui list`)", ref=ref))
    name, expect = split_expect(name, expect)
    options = {"seen_text": seen_text, "expect": expect, "insist": insist, "dry_run": dry_run}
    if owner is not None:
        return owner.edit(root, kind, name, new_text, entry_id=entry_id, **options)
    return replace_entry(
        root,
        kind,
        new_text,
        lambda r, _fp, _seen: (_file(r, name), whole, 0),
        entry_id=entry_id,
        **options,
    )


def _file(root: str, path: str) -> str:
    """A file memtui reads: at the root, or in a layout's folder; never .history/."""
    try:
        rel = check_path(root, path)
    except WriteError as exc:
        raise Refused(str(exc)) from None
    parts = rel.split("/")
    if parts[0] == HISTORY:
        raise Refused(
            msg("{rel} is memtui's own history; roll back with `memtui rollback`", rel=rel)
        )
    if any(is_temp_name(p) for p in parts):
        raise Refused(msg("{rel} is a temp file of a write in progress; not an entry", rel=rel))
    folders = dict(LAYOUT_DIRS)
    inside = len(parts) == 1 or (parts[0] in folders and (len(parts) == 2 or folders[parts[0]]))
    if not inside or any(p.startswith(".") for p in parts[:-1]):
        raise Refused(msg("{rel} is not a file of this store (see `memtui list`)", rel=rel))
    if not os.path.isfile(os.path.join(root, rel)):
        raise Refused(msg("no entry file:{rel} (it does not exist)", rel=rel))
    return rel
