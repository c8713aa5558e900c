"""The journal that makes a change to several files all-or-nothing.

`.history/journal/<txid>.json` is written (atomically) once every temp file
and snapshot is on disk: that is the commit point. Whoever takes the lock
next and finds a journal finishes it, or undoes the part already applied if
the agent has since written one of its files, so a half-applied change is
never what the store is left with.
"""

from __future__ import annotations

import json
import os
from typing import Any

from memtui.engine.paths import TEMP_MARK, is_temp_name
from memtui.engine.write.files import (
    crash_point,
    ensure_dir,
    fsync_dir,
    read_or_none,
    sha256,
    unlink_quietly,
    write_durable,
)

JOURNAL = ".history/journal"
AUDIT = ".history/audit.jsonl"


class JournalStuck(Exception):
    """An interrupted change that can be neither finished nor undone safely."""


def write(root: str, record: dict[str, Any]) -> None:
    folder = os.path.join(root, JOURNAL)
    ensure_dir(folder)
    final = os.path.join(folder, f"{record['txid']}.json")
    temp = final + ".part"
    write_durable(temp, json.dumps(record, ensure_ascii=False).encode("utf-8"))
    os.replace(temp, final)
    fsync_dir(folder)


def prepare(root: str, txid: str, temps: list[str]) -> None:
    """Name the temp files about to be written (relative paths), before writing them."""
    folder = os.path.join(root, JOURNAL)
    ensure_dir(folder)
    write_durable(os.path.join(folder, f"{txid}.prepare"), json.dumps(temps).encode("utf-8"))


def drop_prepared(root: str, txid: str) -> None:
    """Remove the temp files of a transaction that never reached its journal."""
    note = os.path.join(root, JOURNAL, f"{txid}.prepare")
    try:
        with open(note, encoding="utf-8") as fh:
            temps = json.load(fh)
    except (OSError, ValueError):
        temps = []
    for temp in temps if isinstance(temps, list) else []:
        if isinstance(temp, str) and is_temp_name(os.path.basename(temp)):
            unlink_quietly(os.path.join(root, temp))
    unlink_quietly(note)


def apply(root: str, changes: list[dict[str, Any]]) -> None:
    folders: set[str] = set()
    known: set[str] = set()
    for index, change in enumerate(changes, 1):
        _apply_one(root, change, known)
        folders.add(os.path.dirname(os.path.join(root, change["path"])))
        if change.get("source"):
            folders.add(os.path.dirname(os.path.join(root, change["source"])))
        crash_point(f"applied:{index}")
    for folder in folders:
        fsync_dir(folder)


def _apply_one(root: str, change: dict[str, Any], known: set[str]) -> None:
    path = os.path.join(root, change["path"])
    if change["action"] == "write":
        temp = os.path.join(root, change["temp"])
        if os.path.exists(temp):
            os.replace(temp, path)
    elif change["action"] == "move":
        source = os.path.join(root, change["source"])
        if os.path.exists(source) and not os.path.lexists(path):
            ensure_dir(os.path.dirname(path), known)
            os.rename(source, path)
    elif os.path.lexists(path):
        os.unlink(path)


def audit(root: str, record: dict[str, Any], recovered: str | None = None) -> None:
    """One JSON line per change in .history/audit.jsonl (never twice for one txid)."""
    path = os.path.join(root, AUDIT)
    ensure_dir(os.path.dirname(path))
    if recovered and _audited(path, record["txid"]):
        return
    files = [
        {
            k: change.get(k)
            for k in ("path", "action", "before", "after", "snapshot", "source")
            if change.get(k) is not None or k in ("before", "after")
        }
        for change in record["changes"]
    ]
    line = {
        "time": record["time"],
        "op": record["op"],
        "who": record["who"],
        "txid": record["txid"],
        "files": files,
        "details": record.get("details", {}),
    }
    if recovered:
        line["recovered"] = recovered
    data = (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _audited(path: str, txid: str) -> bool:
    try:
        with open(path, "rb") as fh:
            fh.seek(max(0, os.fstat(fh.fileno()).st_size - 256 * 1024))
            return f'"txid": "{txid}"'.encode() in fh.read()
    except FileNotFoundError:
        return False


def finish(root: str, txid: str) -> None:
    folder = os.path.join(root, JOURNAL)
    os.unlink(os.path.join(folder, f"{txid}.json"))
    unlink_quietly(os.path.join(folder, f"{txid}.prepare"))
    fsync_dir(folder)
    crash_point("finished")


def pending(root: str) -> list[str]:
    """Interrupted changes waiting in the journal (txids)."""
    try:
        names = os.listdir(os.path.join(root, JOURNAL))
    except FileNotFoundError:
        return []
    return sorted(n[: -len(".json")] for n in names if n.endswith(".json"))


def recover(root: str, who: str) -> list[str]:
    """Finish or undo every journalled change; call with the store lock held."""
    journalled = set(pending(root))
    for note in _prepared(root):
        if note not in journalled:
            drop_prepared(root, note)  # died before its commit point: nothing was applied
    done = []
    for txid in pending(root):
        path = os.path.join(root, JOURNAL, f"{txid}.json")
        try:
            with open(path, encoding="utf-8") as fh:
                record = json.load(fh)
        except (OSError, ValueError) as exc:
            raise JournalStuck(f"journal {path} cannot be read ({exc}); left as it is") from None
        outcome = _settle(root, record["changes"])
        audit(root, record, recovered=outcome)
        finish(root, txid)
        done.append(f"{record['op']} {txid}: {outcome}")
    return done


def _prepared(root: str) -> list[str]:
    try:
        names = os.listdir(os.path.join(root, JOURNAL))
    except FileNotFoundError:
        return []
    return [n[: -len(".prepare")] for n in names if n.endswith(".prepare")]


def _state(root: str, change: dict[str, Any]) -> str:
    """done | todo | blocked, for one change of an interrupted transaction."""
    path = os.path.join(root, change["path"])
    if change["action"] == "move":
        source = os.path.join(root, change["source"])
        if os.path.lexists(path) and not os.path.lexists(source):
            return "done"
        return "todo" if os.path.lexists(source) and not os.path.lexists(path) else "blocked"
    data = read_or_none(path)
    now = None if data is None else sha256(data)
    size = change.get("after_size")
    if now == change["after"] or (
        data is not None and size is not None and sha256(data[:size]) == change["after"]
    ):
        return "done"  # ours, perhaps with the agent's append after it
    temp_ok = change["action"] != "write" or os.path.exists(os.path.join(root, change["temp"]))
    return "todo" if now == change["before"] and temp_ok else "blocked"


def _settle(root: str, changes: list[dict[str, Any]]) -> str:
    states = [_state(root, c) for c in changes]
    if "blocked" not in states:
        apply(root, [c for c, s in zip(changes, states, strict=True) if s == "todo"])
        return "completed after an interruption"
    for change, state in zip(changes, states, strict=True):
        if state == "done":
            _undo(root, change)
    for change in changes:
        if change.get("temp"):
            unlink_quietly(os.path.join(root, change["temp"]))
    return "undone after an interruption (a file had changed meanwhile)"


def _undo(root: str, change: dict[str, Any]) -> None:
    path = os.path.join(root, change["path"])
    if change["action"] == "move":
        os.rename(path, os.path.join(root, change["source"]))
        return
    if change["before"] is None:
        os.unlink(path)
        return
    snapshot = read_or_none(os.path.join(root, change["snapshot"]))
    if snapshot is None or sha256(snapshot) != change["before"]:
        raise JournalStuck(f"cannot undo {change['path']}: its snapshot is missing")
    folder, name = os.path.split(path)
    temp = os.path.join(folder, f".{name}{TEMP_MARK}undo.tmp")
    unlink_quietly(temp)
    write_durable(temp, snapshot)
    os.replace(temp, path)
    fsync_dir(os.path.dirname(path))
