"""Stable entry ids (SPEC §6) and looking entries up by them."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from memtui.engine.layouts import workspace
from memtui.engine.model import Entry
from memtui.engine.textfile import TextFile, read_file

if TYPE_CHECKING:
    from memtui.engine.store import Store

KINDS = ("topic", "event", "fact", "sop", "pending", "profile", "file")
_BARE_EVENT = re.compile(r"E(\d+)(?:#(\d+))?", re.IGNORECASE)


class EntryNotFound(LookupError):
    pass


def iter_entries(store: Store) -> Iterator[Entry]:
    covered: set[str] = set()
    for entry in _typed(store):
        if entry.span is None:
            covered.add(entry.file)
        yield entry
    for path in store.files:
        if path not in covered:
            yield Entry(f"file:{path}", "file", "store", path, path)


def _typed(store: Store, titles: bool = True) -> Iterator[Entry]:
    """Every typed entry; with `titles=False` the costly titles (an event's content, a
    fact section's count: 0.3 s on 28,000 events) are left empty, for lookups by place."""
    if store.workspace:
        # reversed: with several pointers to one file, the first one's description wins
        described = {p.target: p.description for p in reversed(store.workspace.pointers)}
        for name in store.workspace.topics:
            yield Entry(
                f"topic:{workspace.topic_id(name)}",
                "topic",
                "workspace",
                described.get(name, name),
                name,
            )
    if store.companion:
        seen: dict[str, int] = {}
        for e in store.companion.events:
            if e.is_sentinel:
                continue
            seen[e.label] = seen.get(e.label, 0) + 1
            suffix = f"#{seen[e.label]}" if seen[e.label] > 1 else ""
            title = f"{e.date} · {e.type} · {e.content}".strip(" ·") if titles else ""
            yield Entry(
                f"event:{e.label}{suffix}", "event", "companion", title, e.span.file, e.span
            )
        for c in store.companion.profile:
            title = f"{c.name} ({len(c.items)} items)"
            yield Entry(f"profile:{c.name}", "profile", "companion", title, c.span.file, c.span)
    if store.dsh:
        for s in store.dsh.fact_sections:
            title = f"{s.name} ({len(s.facts)} facts)" if titles else ""
            yield Entry(f"fact:{s.name}", "fact", "dsh", title, s.span.file, s.span)
        for sop in store.dsh.sops:
            yield Entry(f"sop:{sop.name}", "sop", "dsh", sop.title, sop.file)
        for cand in store.dsh.candidates:
            title = f"{cand.entry_type or '?'} → {cand.target or '?'}"
            yield Entry(f"pending:{cand.id}", "pending", "dsh", title, cand.file)


def resolve(store: Store, ref: str) -> Entry:
    """An entry by id; bare `E020` and bare candidate ids are accepted too."""
    wanted = _normalise(ref.strip())
    for entry in iter_entries(store):
        if entry.id == wanted:
            return entry
    path = wanted[len("file:") :] if wanted.startswith("file:") else None
    if path is not None and path in store.files:  # SPEC §6: any file, whole, by its path
        return Entry(wanted, "file", "store", path, path)
    raise EntryNotFound(f"no entry {ref!r} in this store (see `memtui list`)")


def _normalise(ref: str) -> str:
    kind, sep, rest = ref.partition(":")
    if not sep:
        bare = _BARE_EVENT.fullmatch(ref)
        return _event_id(bare) if bare else f"pending:{ref}"
    if kind == "event":
        bare = _BARE_EVENT.fullmatch(rest)
        return _event_id(bare) if bare else ref
    return ref


def _event_id(match: re.Match[str]) -> str:
    suffix = f"#{match.group(2)}" if match.group(2) and match.group(2) != "1" else ""
    return f"event:E{int(match.group(1)):03d}{suffix}"


def entry_text(store: Store, entry: Entry) -> str | None:
    """The entry's exact text as it stands in the file (None if the file is unreadable)."""
    tf = store.texts.get(entry.file)
    if tf is None and entry.file in store.files and entry.file not in store.unreadable:
        tf = _read_late(store, entry.file)  # a file no layout parses (archive/, other files)
    if tf is None:
        return None
    if entry.span is None:
        return tf.text
    return tf.text[entry.span.char_start : entry.span.char_stop]


def _read_late(store: Store, rel: str) -> TextFile | None:
    got = read_file(os.path.join(store.root, rel), rel, store.config.thresholds.max_file_bytes)
    return got if isinstance(got, TextFile) else None


def entry_at(store: Store, rel: str, line: int) -> str:
    """The id of the entry that holds line `line` (1-based; spans count from 0) of file
    `rel`: the narrowest entry spanning it, else the entry that is the whole file, else
    `file:rel`."""
    best: tuple[int, str] | None = None  # (lines spanned, id)
    whole: str | None = None
    for entry in _typed(store, titles=False):
        if entry.file != rel:
            continue
        span = entry.span
        if span is None:
            whole = whole or entry.id
        elif span.start < line <= span.stop and (best is None or span.stop - span.start < best[0]):
            best = (span.stop - span.start, entry.id)
    return best[1] if best is not None else whole or f"file:{rel}"
