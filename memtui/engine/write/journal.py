"""The journal that makes a change to several files all-or-nothing.

`.history/journal/<txid>.json` is written (atomically) once every temp file
and snapshot is on disk: that is the commit point. Whoever takes the lock
next and finds a journal settles it (`recovery.py`).
"""

from __future__ import annotations

import json
import os
from typing import Any

from memtui.engine.paths import is_temp_name
from memtui.engine.write.dirs import Dirs
from memtui.engine.write.errors import JournalStuck  # noqa: F401 - re-exported
from memtui.engine.write.faults import crash_point, fault_point
from memtui.engine.write.files import append_at, unlink_quietly, write_new

HISTORY = ".history"
JOURNAL = ".history/journal"
AUDIT = ".history/audit.jsonl"
AUDIT_LIST_MAX = 20  # a longer list in an audit line becomes its count and its first few


def _folder(dirs: Dirs) -> int:
    fd = dirs.own(JOURNAL)
    assert fd is not None
    return fd


def write(dirs: Dirs, record: dict[str, Any], mode: int) -> None:
    folder = _folder(dirs)
    name = f"{record['txid']}.json"
    try:
        write_new(folder, name + ".part", json.dumps(record, ensure_ascii=False).encode(), mode)
        fault_point("replace", name)
        os.replace(name + ".part", name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        unlink_quietly(name + ".part", folder)  # never reached the commit point
        raise
    os.fsync(folder)


def prepare(dirs: Dirs, txid: str, temps: list[str], mode: int) -> None:
    """Name the temp files about to be written (relative paths), before writing them."""
    write_new(_folder(dirs), f"{txid}.prepare", json.dumps(temps).encode("utf-8"), mode)


def drop_prepared(dirs: Dirs, txid: str) -> None:
    """Remove the temp files of a transaction that never reached its journal."""
    folder = dirs.own(JOURNAL, create=False)
    if folder is None:
        return
    try:
        fd = os.open(f"{txid}.prepare", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
        with os.fdopen(fd, encoding="utf-8") as fh:
            temps = json.load(fh)
    except (OSError, ValueError):
        temps = []
    for temp in temps if isinstance(temps, list) else []:
        if isinstance(temp, str) and is_temp_name(os.path.basename(temp)):
            parent = dirs.store(os.path.dirname(temp), create=False)
            if parent is not None:
                unlink_quietly(os.path.basename(temp), parent)
    unlink_quietly(f"{txid}.prepare", folder)


def _at(dirs: Dirs, rel: str, create: bool = False) -> tuple[int | None, str]:
    return dirs.store(os.path.dirname(rel), create=create), os.path.basename(rel)


def exists(dirs: Dirs, rel: str) -> bool:
    folder, name = _at(dirs, rel)
    if folder is None:
        return False
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def apply(dirs: Dirs, changes: list[dict[str, Any]]) -> None:
    folders: set[int] = set()
    for index, change in enumerate(changes, 1):
        folders |= _apply_one(dirs, change)
        crash_point(f"applied:{index}")
    for folder in folders:
        os.fsync(folder)


def _apply_one(dirs: Dirs, change: dict[str, Any]) -> set[int]:
    folder, name = _at(dirs, change["path"], create=change["action"] == "move")
    assert folder is not None or change["action"] != "move"
    if change["action"] == "write":
        if folder is not None and exists(dirs, change["temp"]):
            fault_point("replace", change["path"])
            os.replace(os.path.basename(change["temp"]), name, src_dir_fd=folder, dst_dir_fd=folder)
    elif change["action"] == "move":
        src_folder, src_name = _at(dirs, change["source"])
        if exists(dirs, change["source"]) and not exists(dirs, change["path"]):
            fault_point("replace", change["path"])
            os.rename(src_name, name, src_dir_fd=src_folder, dst_dir_fd=folder)
            return {f for f in (folder, src_folder) if f is not None}
    elif folder is not None and exists(dirs, change["path"]):
        fault_point("replace", change["path"])
        os.unlink(name, dir_fd=folder)
    return set() if folder is None else {folder}


def prune(dirs: Dirs, folders: list[str]) -> None:
    """Remove each folder that is empty now, the deepest first; any other stays."""
    for rel in sorted(set(folders), key=lambda f: -f.count("/")):
        parent, name = _at(dirs, rel)
        if parent is None:
            continue
        try:
            os.rmdir(name, dir_fd=parent)
        except OSError:
            continue  # not empty (something was put there meanwhile), or gone already
        os.fsync(parent)


def _small(value: Any) -> Any:
    """Long lists (a bulk accept's ids) become their count and the first few."""
    if isinstance(value, list) and len(value) > AUDIT_LIST_MAX:
        return {"count": len(value), "first": value[:AUDIT_LIST_MAX]}
    if isinstance(value, dict):
        return {k: _small(v) for k, v in value.items()}
    return value


def audit(
    dirs: Dirs,
    record: dict[str, Any],
    mode: int,
    recovered: str | None = None,
    conflicts: list[str] | None = None,
) -> None:
    """One JSON line per change in .history/audit.jsonl (never twice for one txid)."""
    folder = dirs.own(HISTORY)
    assert folder is not None
    if recovered and _audited(folder, record["txid"]):
        return
    keys = ("path", "action", "before", "after", "snapshot", "source", "mode")
    files = [
        {k: change.get(k) for k in keys if change.get(k) is not None or k in ("before", "after")}
        for change in record["changes"]
    ]
    line = {
        "time": record["time"],
        "op": record["op"],
        "who": record["who"],
        "txid": record["txid"],
        "opid": record.get("opid", record["txid"]),
        "files": files,
        "details": _small(record.get("details", {})),
    }
    if recovered:
        line["recovered"] = recovered
    if conflicts:
        line["conflicts"] = conflicts
    data = (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
    append_at(folder, "audit.jsonl", data, AUDIT, mode)


def _audited(folder: int, txid: str) -> bool:
    try:
        fd = os.open("audit.jsonl", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as fh:
        fh.seek(max(0, os.fstat(fd).st_size - 256 * 1024))
        return f'"txid": "{txid}"'.encode() in fh.read()


def finish(dirs: Dirs, txid: str) -> None:
    folder = _folder(dirs)
    os.unlink(f"{txid}.json", dir_fd=folder)
    unlink_quietly(f"{txid}.prepare", folder)
    os.fsync(folder)
    crash_point("finished")


def _names(root: str, suffix: str) -> list[str]:
    folder = os.path.join(root, JOURNAL)
    if os.path.islink(os.path.join(root, HISTORY)) or os.path.islink(folder):
        return []  # refused by every write; not ours to read
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(n[: -len(suffix)] for n in names if n.endswith(suffix))


def pending(root: str) -> list[str]:
    """Interrupted changes waiting in the journal (txids)."""
    return _names(root, ".json")


def prepared(root: str) -> list[str]:
    return _names(root, ".prepare")
