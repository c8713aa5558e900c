"""What several layouts share: an outline by file, a file loaded whole or to a line cap."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memtui.engine.model import ContextFile, Entry, OutlineItem
from memtui.engine.rawfile import not_readable
from memtui.engine.textfile import TextFile, read_file

if TYPE_CHECKING:
    from memtui.engine.store import Store

# JavaScript's String.prototype.trim(): WhiteSpace and LineTerminator code points (what
# agents written in JavaScript or TypeScript trim).
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
JS_SPACE += "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def refused(message: str) -> Exception:
    """The ops' Refused (imported late: opening a store needs no write path; from its
    own module: the operations' would import the transaction, which asks the layouts)."""
    from memtui.engine.write.errors import Refused

    return Refused(message)


def by_file(entries: list[Entry]) -> list[OutlineItem]:
    """One row per file, its entries below it (the default outline)."""
    files: dict[str, list[Entry]] = {}
    for entry in entries:
        files.setdefault(entry.file, []).append(entry)
    return [
        OutlineItem(
            rel,
            file=rel,
            entry_id=rows[0].id if len(rows) == 1 and rows[0].span is None else None,
            verbs=("open",),
            children=_rows(rows),
        )
        for rel, rows in files.items()
    ]


def _rows(rows: list[Entry]) -> Callable[[], tuple[OutlineItem, ...]]:
    def children() -> tuple[OutlineItem, ...]:
        return tuple(
            OutlineItem(e.title or e.id, file=e.file, line=e.line, entry_id=e.id, verbs=("edit",))
            for e in rows
        )

    return children


def whole_or_cut(store: Store, rel: str, cap: int | None) -> ContextFile | None:
    """`rel` as the agent is given it: whole, or its first `cap` lines; or why it could
    not be read."""
    tf = late(store, rel)
    if not isinstance(tf, TextFile):
        return None if tf is None else not_read(rel, tf)
    lines = tf.text.splitlines(keepends=True)
    if cap is None or len(lines) <= cap:
        return ContextFile(rel, tf.text, None, len(lines))
    return ContextFile(
        rel, "".join(lines[:cap]), cap + 1, cap, f"only the first {cap:,} lines are loaded"
    )


def read_late(store: Store, rel: str) -> TextFile | None:
    """A file of the store no parser read (rules files, archive/), read now."""
    got = late(store, rel)
    return got if isinstance(got, TextFile) else None


def late(store: Store, rel: str) -> TextFile | str | None:
    """`rel`'s text (read now if no parser read it), or why it cannot be read: the
    reader's reason, kept in the snapshot, or the reason a read now gives. None: no
    such file."""
    tf = store.texts.get(rel)
    if tf is not None:
        return tf
    why = store.unreadable.get(rel)
    if why is not None or rel not in store.files:
        return why
    got = read_file(os.path.join(store.root, rel), rel, store.config.thresholds.max_file_bytes)
    return got if isinstance(got, TextFile) else got.reason


def unreadable(store: Store, rel: str) -> str | None:
    """Why `rel` cannot be read (None: it can, or there is no such file)."""
    got = late(store, rel)
    return got if isinstance(got, str) else None


def not_read(rel: str, why: str) -> ContextFile:
    """What `context` says of a file the agent loads that memtui could not read: named,
    with the reason; its text unknown, shown as none."""
    return ContextFile(rel, "", None, 0, not_readable(rel, why), unreadable=why)


def unread_context(store: Store, rel: str) -> list[ContextFile]:
    """[not_read(rel)] when `rel` could not be read, else []."""
    why = unreadable(store, rel)
    return [] if why is None else [not_read(rel, why)]


def op_options(shown: dict[str, Any]) -> dict[str, Any]:
    """The options every archive/restore op takes (`item` is a profile entry's own)."""
    return {k: v for k, v in shown.items() if k in ("expect", "dry_run")}


class OpsModule:
    """A layout whose edit, archive and restore are its ops module's functions of the
    same names (`ops`, a dotted module name, imported when a change is asked for:
    opening a store needs none), each called with the entry's name and the options it
    takes (`edit_options` for an edit; op_options for archive and restore). Put before
    Layout in the bases."""

    ops = ""
    edit_options: tuple[str, ...] = ("expect", "dry_run", "seen_text")

    def edit(self, root: str, kind: str, name: str, new_text: str, **shown: Any) -> Any:
        options = {k: v for k, v in shown.items() if k in self.edit_options}
        return self._op("edit")(root, name, new_text, **options)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Any:
        return self._op("archive")(root, name, **op_options(shown))

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Any:
        return self._op("restore")(root, name, **op_options(shown))

    def _op(self, verb: str) -> Callable[..., Any]:
        import importlib

        return getattr(importlib.import_module(self.ops), verb)
