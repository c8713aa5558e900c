"""The operation log (SPEC §3d): `.history/audit.jsonl` read as operations.

Each audit line is one transaction; the lines that share an `opid` are one
operation (a bulk accept commits in chunks, a bulk archive is one transaction per
entry). Lines written before operation ids existed are each an operation of their
own. An operation names every entry its transactions name (`entries`), and its
details hold every transaction's values, not only the last one's.
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

    @property
    def entries(self) -> list[str]:
        """The entry ids its transactions name, in order, each once (of a list the audit
        shortened to its first few, those few: `entry_count` has them all)."""
        return list(dict.fromkeys(i for d in self.details for i in _named(d)[0]))

    @property
    def entry_count(self) -> int:
        listed = len(self.entries)
        return max(listed, sum(_named(d)[1] for d in self.details))

    @property
    def merged(self) -> dict[str, Any]:
        """The details of all its transactions: a key whose value differs between them
        holds each transaction's value in turn (lists of entry ids joined)."""
        values: dict[str, list[Any]] = {}
        for d in self.details:
            for key, value in d.items():
                values.setdefault(key, []).append(value)
        out: dict[str, Any] = {}
        for key, seen in values.items():
            if all(v == seen[0] for v in seen):
                out[key] = seen[0]
            elif key in _ids():
                out[key] = [x for v in seen for x in (v if isinstance(v, list) else [v])]
            else:
                out[key] = seen
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.opid,
            "op": self.op,
            "time": self.time,
            "who": self.who,
            "entries": self.entries,
            "entry_count": self.entry_count,
            "details": self.merged,
            "files": self.files,
            "recovered": self.recovered,
        }


# details keys that name entries (-> the prefix that makes an id): an id and a list of
# ids, a queued write's; each layout adds its own verbs' keys (Detection.log_ids: the
# candidates an accept took, a memory)
def _ids() -> dict[str, str]:
    from memtui.engine.layouts import merged

    return {"entry": "", "entries": "", **merged("log_ids"), "pending": ""}


def __getattr__(name: str) -> frozenset[str]:
    # ENTRY_KEYS, as the faces knew it: every details key that names entries
    if name == "ENTRY_KEYS":
        return frozenset(_ids())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _named(details: dict[str, Any]) -> tuple[list[str], int]:
    """(entry ids, how many there were) in one transaction's details."""
    ids: list[str] = []
    count = 0
    for key, prefix in _ids().items():
        value = details.get(key)
        if isinstance(value, dict):  # a long list the audit cut (journal._small)
            first = value.get("first")
            value, extra = (first if isinstance(first, list) else []), value.get("count")
            count += extra if isinstance(extra, int) else 0
        elif isinstance(value, list):
            count += len(value)
        elif isinstance(value, str):
            value, count = [value], count + 1
        else:
            continue
        ids += [i if i.startswith(prefix) else prefix + i for i in value if isinstance(i, str)]
    return ids, count


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
