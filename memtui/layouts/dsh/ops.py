"""Curating a dsh store (SPEC §3): accept, reject, add, update, archive, restore,
the index rebuild and maintenance.

Every operation is one `Transaction` (a bulk accept or reject: one per chunk), so it
takes the agent's lock, refuses a file changed since it was read, snapshots old bytes
to .history/, writes atomically, reads back and audits. All return Receipt objects
(`details` says what happened); refusals raise `ops.common.Refused`, conflicts
`transaction.Conflict`, a busy lock `write.lock.LockTimeout`; nothing is written when
they raise. The work is split over `dsh_accept`, `dsh_reject`, `dsh_chunks`,
`dsh_entries`, `dsh_archive`, `dsh_maintain`, `dsh_store` (the transaction,
candidates, names), `dsh_books` (meta, stats, index), `dsh_json` (memory-meta.json
entry by entry) and `dsh_text` (pure text edits).
"""

from __future__ import annotations

import os

from memtui.engine.write.transaction import Receipt
from memtui.layouts.dsh import archive as dsh_archive
from memtui.layouts.dsh.accept import accept
from memtui.layouts.dsh.archive import archive
from memtui.layouts.dsh.entries import add_fact, add_sop, rebuild_index, update_sop
from memtui.layouts.dsh.maintain import maintain
from memtui.layouts.dsh.reject import digest, reject, unreject


def restore(
    root: str | os.PathLike[str],
    entry_id: str,
    *,
    expect: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """A fact section or sop back from archive/, or a rejected candidate (`pending:<name>`,
    its file in archive/rejected/) back to pending/. `expect`: the fingerprint of the
    archived file as shown."""
    if entry_id.startswith("pending:"):
        return unreject(root, entry_id[len("pending:") :], expect=expect, dry_run=dry_run)
    return dsh_archive.restore(root, entry_id, expect=expect, dry_run=dry_run)


__all__ = [
    "accept",
    "add_fact",
    "add_sop",
    "archive",
    "digest",
    "maintain",
    "rebuild_index",
    "reject",
    "restore",
    "unreject",
    "update_sop",
]
