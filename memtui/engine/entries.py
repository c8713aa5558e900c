"""Stable entry ids (SPEC §6) and looking entries up by them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from memtui.engine.errors import MemtuiError
from memtui.engine.identity import check_shown, checked, fingerprint, split_expect
from memtui.engine.layouts import bare_kind, for_kind, registry
from memtui.engine.layouts.common import read_late, unreadable
from memtui.engine.model import Entry
from memtui.engine.rawfile import not_readable
from memtui.engine.write.transaction import WriteError
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.store import Store


class EntryNotFound(MemtuiError, LookupError):
    """No entry by that id (or not the one shown); nothing was changed."""


def file_id(rel: str) -> str:
    """The entry id of a whole file (SPEC §6 `file:<relative path>`)."""
    return f"file:{rel}"


def iter_entries(store: Store) -> Iterator[Entry]:
    covered: set[str] = set()
    for entry in _typed(store):
        if entry.span is None:
            covered.add(entry.file)
        yield entry
    for path in store.files:
        if path not in covered:
            yield Entry(file_id(path), "file", "store", path, path)


def _typed(store: Store, titles: bool = True, events: bool = True) -> Iterator[Entry]:
    """Every typed entry, layout by layout; with `titles=False` the costly titles (an
    event's content, a fact section's count: 0.3 s on 28,000 events) are left empty,
    for lookups by place; with `events=False`, no events (a lookup by a name that is
    not an event's)."""
    layouts = registry()
    for name, data in store.data.items():
        yield from layouts[name].entries(data, titles, events)


def resolve(store: Store, ref: str, expect: str | None = None) -> Entry:
    """An entry by id, as it was shown (SPEC §6); a bare id is the kind a layout claims
    (Detection.bare_kind). `expect` (or an `@FINGERPRINT` at the end of the id):
    the entry's fingerprint when it was shown; EntryNotFound if it is not that now. An
    id that depends on its neighbours is found by its layout (Layout.find), which may
    want its fingerprint: EntryNotFound then says which ids to use."""
    wanted = ref.strip()
    try:
        owned = _owned(store, wanted, expect)
        if owned is not None:
            return owned
        wanted = _queued(store.root, wanted)
        exact = _find(store, _normalise(wanted))
        base, fp = (wanted, checked(expect)) if exact is not None else split_expect(wanted, expect)
        entry = exact or _find(store, _normalise(base))
        if entry is None:
            raise EntryNotFound(
                unread_reason(store, _normalise(base))
                or msg("no entry {ref!r} in this store (see `memtui list`)", ref=ref)
            )
        check_shown(entry.id, entry_text(store, entry), fp, entry.file)
        return entry
    except WriteError as exc:  # Refused or Conflict: the id names no entry as shown
        raise EntryNotFound(str(exc)) from None


def _owned(store: Store, ref: str, expect: str | None) -> Entry | None:
    """The entry its layout finds itself (Layout.find), if it does."""
    kind, _, name = _normalise(ref).partition(":")
    owner = for_kind(kind)
    if owner is None:
        return None
    return owner.find(store, store.data.get(owner.name), kind, name, expect)


def _queued(root: str, ref: str) -> str:
    """A queued item's bare id made whole (queue.full_ids), as accept and reject do."""
    from memtui.engine.queue import AmbiguousId, full_ids

    try:
        return full_ids(root, [ref])[0]
    except AmbiguousId as exc:
        raise EntryNotFound(str(exc)) from None


def _find(store: Store, wanted: str) -> Entry | None:
    for entry in _typed(store, titles=True, events=False):
        if entry.id == wanted:
            return entry
    path = wanted[len("file:") :] if wanted.startswith("file:") else None
    if path is not None and path in store.files:  # SPEC §6: any file, whole, by its path
        return Entry(wanted, "file", "store", path, path)
    return None


def unread_reason(store: Store, wanted: str) -> str | None:
    """Why an id names nothing: the file it lives in could not be read (the reader's
    reason, named); None when that is not it."""
    kind, _, name = wanted.partition(":")
    owner = for_kind(kind)
    rel = name if kind == "file" else owner.file_of(kind, name) if owner else None
    why = unreadable(store, rel) if rel else None
    if why is None or rel is None:
        return None
    return msg("{not_readable}; nothing was changed", not_readable=not_readable(rel, why))


def _normalise(ref: str) -> str:
    kind, sep, _rest = ref.partition(":")
    return ref if sep and kind else f"{bare_kind(ref)}:{ref}"


def fingerprint_of(store: Store, entry: Entry) -> str | None:
    """The entry's fingerprint as this snapshot shows it (None: its file is unreadable)."""
    text = entry_text(store, entry)
    return None if text is None else fingerprint(text)


def entry_json(store: Store, entry: Entry) -> dict[str, Any]:
    """Entry.to_json() with the fingerprint an action can be given back (`--expect`)."""
    return {**entry.to_json(), "fingerprint": fingerprint_of(store, entry)}


def entry_text(store: Store, entry: Entry) -> str | None:
    """The entry's exact text as it stands in the file (None if the file is unreadable)."""
    tf = store.texts.get(entry.file)
    if tf is None and entry.file in store.files and entry.file not in store.unreadable:
        tf = read_late(store, entry.file)  # a file no layout parses (archive/, other files)
    if tf is None:
        return None
    if entry.span is None:
        return tf.text
    return tf.text[entry.span.char_start : entry.span.char_stop]


def entry_at(store: Store, rel: str, line: int) -> str:
    """The id of the entry that holds line `line` (1-based; spans count from 0) of file
    `rel`: the narrowest entry spanning it, else the entry that is the whole file, else
    `file:rel`."""
    best: tuple[int, Entry] | None = None  # (lines spanned, entry)
    whole: str | None = None
    layouts = registry()
    for name, data in store.data.items():  # an id by its neighbours: its layout's say
        owned = layouts[name].entry_at(data, rel, line)
        if owned is not None:
            return owned
    for entry in _typed(store, titles=False, events=False):
        if entry.file != rel:
            continue
        span = entry.span
        if span is None:
            whole = whole or entry.id
        elif span.start < line <= span.stop and (best is None or span.stop - span.start < best[0]):
            best = (span.stop - span.start, entry)
    return best[1].id if best is not None else whole or file_id(rel)
