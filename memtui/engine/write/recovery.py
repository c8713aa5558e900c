"""Settling a change that a crash interrupted after its commit point (the journal).

Recovery never replaces bytes that no memtui transaction wrote. A file is moved
forward only while it holds exactly the journal's "before", and put back only
while it holds exactly memtui's "after". A file holding anything else was
written by someone else (the agent) since the crash: it is left as it is, its
bytes are kept in `.history/`, the version memtui meant is kept beside them,
and the conflict is reported so the user can decide.

Which way to settle: if some file already carries the change with the agent's
append after it, the change is finished (undoing would cut the agent's
append); otherwise it is undone.
"""

from __future__ import annotations

import json
import os
from typing import Any

from memtui.engine.write import journal
from memtui.engine.write.dirs import Dirs
from memtui.engine.write.errors import JournalStuck, Unsafe
from memtui.engine.write.faults import fault_point
from memtui.engine.write.files import Unsynced, read_at, sha256, unlink_quietly, write_new
from memtui.engine.write.snapshots import HISTORY, keep, stamp
from memtui.i18n import msg

UNAPPLIED = f"{HISTORY}/unapplied"

NEW = "new"  # exactly memtui's "after"
OLD = "old"  # exactly "before", and the staged copy is still there
CARRIES = "carries"  # memtui's "after" with someone's append behind it
FOREIGN = "foreign"  # anything else: written by someone else since
STRANDED = "stranded"  # still "before", but the staged copy is gone


def recover(dirs: Dirs) -> list[str]:
    """Settle every journalled change; call with the store lock held. One note a change."""
    root = dirs.root
    journalled = set(journal.pending(root))
    for txid in journal.prepared(root):
        if txid not in journalled:
            journal.drop_prepared(dirs, txid)  # died before its commit point: nothing applied
    notes = []
    for txid in journal.pending(root):
        record = _load(dirs, txid)
        outcome, conflicts = settle(dirs, record)
        journal.audit(dirs, record, record.get("mode", 0o600), outcome, conflicts)
        journal.finish(dirs, txid)
        head = f"{record['op']} interrupted at {record['time']}: {outcome}"
        notes.append("; ".join([head, *conflicts]))
    return notes


def _load(dirs: Dirs, txid: str) -> dict[str, Any]:
    folder = dirs.own(journal.JOURNAL, create=False)
    try:
        got = None if folder is None else read_at(folder, f"{txid}.json", journal.JOURNAL)
        record = json.loads(got[0]) if got else None
        if not isinstance(record, dict) or not isinstance(record.get("changes"), list):
            raise ValueError("not a journal record")
    except (OSError, ValueError, RecursionError, Unsafe) as exc:
        raise JournalStuck(
            msg(
                "the interrupted change {JOURNAL}/{txid}.json cannot be read "
                "({exc}); it is left as it is and nothing was changed",
                JOURNAL=journal.JOURNAL,
                txid=txid,
                exc=exc,
            )
        ) from None
    return record


def state(dirs: Dirs, change: dict[str, Any]) -> str:
    if change["action"] == "move":
        there, source = journal.exists(dirs, change["path"]), journal.exists(dirs, change["source"])
        return NEW if there and not source else OLD if source and not there else FOREIGN
    folder = dirs.store(os.path.dirname(change["path"]), create=False)
    try:
        got = None if folder is None else read_at(folder, os.path.basename(change["path"]))
    except Unsafe:
        return FOREIGN
    data = None if got is None else got[0]
    now = None if data is None else sha256(data)
    size = change.get("after_size")
    if now == change["after"]:
        return NEW
    if now == change["before"]:  # before any prefix test: a change may cut the file's tail
        staged = change["action"] != "write" or journal.exists(dirs, change["temp"])
        return OLD if staged else STRANDED
    if data is not None and size and len(data) > size and sha256(data[:size]) == change["after"]:
        return CARRIES  # (an empty "after" is the prefix of everything: exact match only)
    return FOREIGN


def settle(dirs: Dirs, record: dict[str, Any]) -> tuple[str, list[str]]:
    changes = record["changes"]
    states = [state(dirs, c) for c in changes]
    pairs = list(zip(changes, states, strict=True))
    conflicts: list[str] = []
    if all(s in (NEW, OLD) for s in states):
        journal.apply(dirs, [c for c, s in pairs if s == OLD])
        outcome = "completed after an interruption"
    elif CARRIES in states:
        journal.apply(dirs, [c for c, s in pairs if s == OLD])
        when = stamp()
        for change, s in pairs:
            if s in (FOREIGN, STRANDED):
                conflicts.append(_keep_both(dirs, record, change, when))
        carried = [c["path"] for c, s in pairs if s == CARRIES]
        outcome = (
            "completed after an interruption, except where a file was written since"
            if conflicts
            else f"completed after an interruption (kept what was appended since to "
            f"{', '.join(carried)})"
        )
    else:
        for change, s in pairs:
            if s == NEW:
                _undo(dirs, change)
            elif s == FOREIGN:
                conflicts.append(f"{change['path']} was written since; left as it is")
        outcome = "undone after an interruption (a file had changed meanwhile)"
    for change in changes:
        if change.get("temp"):
            folder = dirs.store(os.path.dirname(change["temp"]), create=False)
            if folder is not None:
                unlink_quietly(os.path.basename(change["temp"]), folder)
    return outcome, conflicts


def _keep_both(dirs: Dirs, record: dict[str, Any], change: dict[str, Any], when: str) -> str:
    """A file the change could not reach: keep its bytes and the version memtui meant."""
    rel = change["path"]
    if change["action"] == "move":
        return f"{change['source']} → {rel}: both or neither exist now; left as they are"
    mode = record.get("mode", 0o600)
    note = f"{rel} was written since the interruption; left as it is"
    folder = dirs.store(os.path.dirname(rel), create=False)
    current = None if folder is None else read_at(folder, os.path.basename(rel), rel)
    temp = change.get("temp")
    staged = None if not temp or folder is None else read_at(folder, os.path.basename(temp), temp)
    unsynced = Unsynced()
    try:
        if current is not None:
            folder_mode = record.get("dir_mode", 0o700)
            snap = keep(dirs, rel, current[0], current[1], when, folder_mode, unsynced)
            note += f" (its bytes are also in {snap})"
        if staged is not None:
            where = f"{UNAPPLIED}/{record['txid']}"
            target = dirs.own(f"{where}/{os.path.dirname(rel)}".rstrip("/"))
            assert target is not None
            name = os.path.basename(rel)
            write_new(target, name, staged[0], staged[1] & mode, unsynced, f"{where}/{rel}")
            unsynced.folders[target] = where
            note += f"; the version memtui meant is {where}/{rel}"
        unsynced.sync()
    finally:
        unsynced.close()
    return note


def _undo(dirs: Dirs, change: dict[str, Any]) -> None:
    """Put back a file that holds exactly memtui's bytes."""
    rel = change["path"]
    folder = dirs.store(os.path.dirname(rel), create=False)
    name = os.path.basename(rel)
    fault_point("replace", rel)
    if change["action"] == "move":
        source = dirs.store(os.path.dirname(change["source"]))
        os.rename(name, os.path.basename(change["source"]), src_dir_fd=folder, dst_dir_fd=source)
        return
    if change["before"] is None:
        os.unlink(name, dir_fd=folder)
        return
    snap = change.get("snapshot") or ""
    snap_folder = dirs.own(os.path.dirname(snap), create=False) if snap else None
    got = None if snap_folder is None else read_at(snap_folder, os.path.basename(snap), snap)
    if got is None or sha256(got[0]) != change["before"]:
        raise JournalStuck(
            msg("cannot undo {rel}: its snapshot is missing; nothing was changed", rel=rel)
        )
    if folder is None:
        folder = dirs.store(os.path.dirname(rel))
    temp = f".{name}.memtui-undo.tmp"
    unlink_quietly(temp, folder)
    write_new(folder, temp, got[0], change.get("mode") or got[1])
    os.replace(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
    os.fsync(folder)


def unapplied(root: str) -> list[tuple[str, list[str]]]:
    """Interrupted changes that could not reach some file: (txid, files), as kept in
    .history/unapplied/<txid>/ until the user has compared and deleted them."""
    base = os.path.join(root, UNAPPLIED)
    if any(os.path.islink(p) for p in (os.path.join(root, HISTORY), base)):
        return []
    try:
        txids = sorted(os.listdir(base))
    except OSError:
        return []
    found = []
    for txid in txids:
        top = os.path.join(base, txid)
        files = [
            os.path.relpath(os.path.join(folder, name), top)
            for folder, _, names in os.walk(top)
            for name in names
        ]
        if files:
            found.append((txid, sorted(files)))
    return found
