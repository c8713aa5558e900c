"""The operation log (SPEC §3d): `.history/audit.jsonl` read as operations.

Each audit line is one transaction; the lines that share an `opid` are one
operation (a bulk accept commits in chunks). Lines written before operation ids
existed are each an operation of their own.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from memtui.engine.write.dirs import Dirs
from memtui.engine.write.errors import Unsafe
from memtui.engine.write.files import read_at
from memtui.engine.write.journal import AUDIT, HISTORY


@dataclass(slots=True)
class Operation:
    opid: str
    op: str  # the verb: accept, reject, event-status, undo, …
    time: str  # when its first transaction committed (UTC, ISO)
    who: str
    details: list[dict[str, Any]] = field(default_factory=list)  # one per transaction
    files: list[dict[str, Any]] = field(default_factory=list)  # every file change, in order
    recovered: bool = False  # finished or undone by recovery after a crash

    @property
    def paths(self) -> list[str]:
        seen: dict[str, None] = {}
        for f in self.files:
            for key in ("source", "path"):
                if f.get(key):
                    seen.setdefault(f[key])
        return list(seen)

    @property
    def undoes(self) -> str | None:
        for d in self.details:
            if isinstance(d.get("undoes"), str):
                return d["undoes"]
        return None

    def to_json(self) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for d in self.details:
            merged.update(d)
        return {
            "id": self.opid,
            "op": self.op,
            "time": self.time,
            "who": self.who,
            "details": merged,
            "files": self.files,
            "recovered": self.recovered,
        }


def operations(root: str) -> list[Operation]:
    """Every operation in the log, oldest first. A line that does not parse is skipped
    (the log is append-only; a torn last line after a crash is not an operation)."""
    real = os.path.realpath(root)
    dirs = Dirs(real)
    try:
        folder = dirs.own(HISTORY, create=False)
        got = None if folder is None else read_at(folder, "audit.jsonl", AUDIT)
    except Unsafe:
        got = None
    finally:
        dirs.close()
    found: dict[str, Operation] = {}
    for raw in b"" if got is None else got[0].splitlines():
        try:
            line = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        if not isinstance(line, dict) or not isinstance(line.get("files"), list):
            continue
        opid = str(line.get("opid") or line.get("txid") or "")
        if not opid:
            continue
        op = found.get(opid)
        if op is None:
            op = found[opid] = Operation(
                opid, str(line.get("op", "?")), str(line.get("time", "")), str(line.get("who", ""))
            )
        details = line.get("details")
        op.details.append(details if isinstance(details, dict) else {})
        op.files.extend(f for f in line["files"] if isinstance(f, dict) and f.get("path"))
        op.recovered |= bool(line.get("recovered"))
    return list(found.values())


def find(root: str, opid: str | None) -> Operation | None:
    """The operation by id (a unique prefix will do), or the last one."""
    ops = operations(root)
    if not ops:
        return None
    if opid is None:
        return ops[-1]
    exact = [o for o in ops if o.opid == opid]
    if exact:
        return exact[0]
    matches = [o for o in ops if o.opid.startswith(opid)]
    return matches[0] if len(matches) == 1 else None


def snapshot_owner(root: str) -> dict[str, Operation]:
    """Which operation made each snapshot: `.history/<file>/<name>` -> the operation
    whose audit line names it (a history row says who changed the file, and whether
    rolling it back alone would split a multi-file operation)."""
    owners: dict[str, Operation] = {}
    for op in operations(root):
        for f in op.files:
            if isinstance(f.get("snapshot"), str):
                owners[f["snapshot"]] = op
    return owners
