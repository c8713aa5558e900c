"""Changes to a memory tool store, each one transaction with read-back (SPEC §0):
replacing a file's text, as the tool's `str_replace` of its whole text would leave it
(the tool writes exactly the bytes it is given: `create` adds no final newline, so an
edit ends the way the file ended); archiving a file out of /memories into the archive
book, a hidden file `view` never lists, and restoring it byte for byte. The SDK takes no
lock: memtui takes its own, and its content-hash check guards against the application
writing meanwhile; it replaces a file atomically, as the SDK's _atomic_write_file does.
"""

from __future__ import annotations

import os
from typing import Any

from memtui.engine.identity import check_shown, checked, fingerprint, split_expect
from memtui.engine.ops import archive_book as book
from memtui.engine.ops.common import Refused, now_iso, thresholds
from memtui.engine.ops.lines import check_root, load
from memtui.engine.textfile import BOM
from memtui.engine.write.transaction import Receipt, Transaction
from memtui.i18n import msg
from memtui.layouts.memory_tool.detect import BOOK, VIRTUAL, in_tool, tool_dir
from memtui.layouts.memory_tool.parse import KIND, at, record_of


def _name(name: str) -> str:
    """A path from /memories as ids give it (`/memories/` before it is allowed); Refused
    where the tool would refuse it: `..`, absolute, hidden, empty."""
    name = name.removeprefix(f"{VIRTUAL}/")
    norm = os.path.normpath(name) if name else ""
    if norm != name or "\x00" in name or in_tool("", name) is None:
        raise Refused(
            msg(
                "{KIND}:{name} names no file of {VIRTUAL} (a path in it, not hidden)",
                KIND=KIND,
                name=name,
                VIRTUAL=VIRTUAL,
            )
        )
    return name


def _file(root: str, name: str) -> str:
    top = tool_dir(root)
    if top is None:
        raise Refused(
            msg(
                "{root} holds no memory tool store (a {VIRTUAL} folder)", root=root, VIRTUAL=VIRTUAL
            )
        )
    return at(top, name)


def edit(
    root: str,
    name: str,
    new_text: str,
    *,
    expect: str | None = None,
    seen_text: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """The file's whole text replaced (in its line ending, ending as it ended)."""
    from memtui.engine.ops.replace import replace_entry

    name, fp = split_expect(name, expect)
    name = _name(name)

    def target(tx_root: str, shown: str | None, _seen: bool) -> Any:
        return _file(tx_root, name), lambda tf: (0, len(tf.text)), None

    return replace_entry(
        root,
        KIND,
        new_text,
        target,
        entry_id=f"{KIND}:{name}",
        seen_text=seen_text,
        expect=fp,
        dry_run=dry_run,
    )


def archive(root: str, name: str, *, expect: str | None = None, dry_run: bool = False) -> Receipt:
    """The file out of /memories, its exact text kept in the book."""
    name, fp = split_expect(name, expect)
    name = _name(name)
    entry_id = f"{KIND}:{name}"
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "archive", details={"entry": entry_id}, dry_run=dry_run) as tx:
        rel = _file(tx.root, name)
        tf = load(tx, rel, limits, must_exist=False)
        if tf is None:
            check_shown(entry_id, None, fp, rel)
            raise Refused(msg("{entry_id}: no such file ({rel})", entry_id=entry_id, rel=rel))
        check_shown(entry_id, tf.text, fp, rel)
        record = {"file": name, "text": tf.text, "bom": tf.bom, "archived_at": now_iso()}
        tx.remove(rel)
        book.append(tx, BOOK, limits, record)
        tx.details.update(file=rel, to=BOOK)
        return tx.commit()


def restore(root: str, name: str, *, expect: str | None = None, dry_run: bool = False) -> Receipt:
    """The archived file back at its path, byte for byte, its record out of the book
    (the book goes with the last one). `@FINGERPRINT` picks which of several archived
    under one path (the last archived, without); `expect` is the fingerprint shown."""
    name, picked = split_expect(name)
    name = _name(name)
    shown = checked(expect)
    entry_id = f"{KIND}:{name}"
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "restore", details={"entry": entry_id}, dry_run=dry_run) as tx:
        tf_book, lines = book.opened(tx, BOOK, limits)
        hits = [
            (i, r) for i, r in book.records(lines, record_of)
            if r["file"] == name and (picked is None or fingerprint(r["text"]) == picked)
        ]  # fmt: skip
        if not hits:
            raise Refused(
                msg(
                    "{entry_id} is not archived (nothing in {BOOK} by that path)",
                    entry_id=entry_id,
                    BOOK=BOOK,
                )
            )
        at_line, record = hits[-1]
        book.check_shown(shown, record, tf_book, entry_id, BOOK)
        rel = _file(tx.root, name)
        if load(tx, rel, limits, must_exist=False) is not None:
            raise Refused(
                msg(
                    "{rel} exists again; {entry_id} stays archived in {BOOK}",
                    rel=rel,
                    entry_id=entry_id,
                    BOOK=BOOK,
                )
            )
        data = record["text"].encode("utf-8")
        tx.write(rel, BOM + data if record.get("bom") is True else data)
        book.take_out(tx, BOOK, tf_book, lines, at_line)
        tx.details.update({"file": rel, "from": BOOK})
        return tx.commit()
