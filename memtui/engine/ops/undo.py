"""Undo one whole operation (SPEC §3d): every file it touched back as it was, in one
transaction, or nothing at all if any of them changed since.

Undoing an accept brings the candidate back to the queue (the move is reversed)
and the bookkeeping back with it (each file from its snapshot). An undo is an
operation like any other, so undoing it re-applies what it undid.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from memtui.engine.oplog import Operation, find
from memtui.engine.ops.common import Refused
from memtui.engine.write.files import sha256
from memtui.engine.write.transaction import Receipt, Transaction
from memtui.i18n import msg


@dataclass(slots=True)
class _Path:
    before: str | None  # the hash before the operation (None: absent)
    after: str | None  # the hash it left (None: absent)
    snapshot: str | None = None  # where the before bytes were kept
    moved_to: str | None = None  # the bytes went there unchanged (a move)


def net_effect(op: Operation) -> dict[str, _Path]:
    """Each path's state before the operation's first change and after its last."""
    paths: dict[str, _Path] = {}

    def touch(rel: str, before: str | None, after: str | None, **extra: str | None) -> None:
        if rel in paths:
            paths[rel].after = after
        else:
            paths[rel] = _Path(before, after, **extra)

    for f in op.files:
        if f.get("action") == "move" and f.get("source"):
            touch(f["source"], f.get("before"), None, moved_to=f["path"])
            touch(f["path"], None, f.get("before"))
        else:
            touch(f["path"], f.get("before"), f.get("after"), snapshot=f.get("snapshot"))
    return {rel: p for rel, p in paths.items() if p.before != p.after}


def undo(
    root: str | os.PathLike[str], opid: str | None = None, *, dry_run: bool = False
) -> Receipt:
    root = os.fspath(root)
    op = find(root, opid)
    if op is None:
        raise Refused(
            msg("nothing to undo: the operation log is empty")
            if opid is None
            else msg(
                "no operation {opid!r} in the log (see `memtui log`); nothing was changed",
                opid=opid,
            )
        )
    paths = net_effect(op)
    if op.op == "purge" or (not paths and any(f.get("purged") for f in op.files)):
        raise Refused(
            msg(
                "operation {opid} ({op}) cannot be undone: `memtui purge` took the secret "
                "out of the file's history, so nothing holds it any more",
                opid=op.opid,
                op=op.op,
            )
        )
    if not paths:
        raise Refused(
            msg("operation {opid} ({op}) changed no file; nothing to undo", opid=op.opid, op=op.op)
        )
    details = {"undoes": op.opid, "op": op.op}
    with Transaction(root, "undo", details=details, dry_run=dry_run) as tx:
        for rel, p in paths.items():
            data = tx.read(rel)
            if (None if data is None else sha256(data)) != p.after:
                raise Refused(
                    msg(
                        "{rel} changed since operation {opid} ({op}) — the agent wrote "
                        "to it? — so it cannot be put back; nothing was changed",
                        rel=rel,
                        opid=op.opid,
                        op=op.op,
                    )
                )
        done: set[str] = set()
        for rel, p in paths.items():
            if rel in done:
                continue
            back = p.moved_to
            if back and back in paths and paths[back].after == p.before and back not in done:
                tx.move(back, rel)  # the bytes are where the move put them: move them back
                done |= {rel, back}
        for rel, p in paths.items():
            if rel in done:
                continue
            if p.before is None:
                tx.remove(rel)  # it did not exist; its bytes are kept in .history
                continue
            got = tx.read_own(p.snapshot) if p.snapshot else None
            if got is None or sha256(got[0]) != p.before:
                raise Refused(
                    msg(
                        "{rel} cannot be put back: its snapshot from operation {opid} "
                        "is missing or changed; nothing was changed",
                        rel=rel,
                        opid=op.opid,
                    )
                )
            tx.write(rel, got[0], mode=got[1])
        return tx.commit()
