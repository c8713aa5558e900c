"""Bulk operations in chunks: each chunk is one transaction that holds the lock for
about a second at most (planning time plus the commit time learnt from the chunks
before it), with a short pause between chunks so a waiting agent goes first. How many
are done is reported before the first chunk and after each, and a stop the face asked
for ends the bulk between two chunks (write/progress.py)."""

from __future__ import annotations

import os
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from memtui.engine.ops.common import Refused
from memtui.engine.write import progress
from memtui.engine.write.files import read_or_none
from memtui.engine.write.operation import operation
from memtui.engine.write.transaction import Receipt
from memtui.i18n import msg
from memtui.layouts.dsh.store import PENDING, check_expected, md_files, resolve_ids

# flock wakes a blocked waiter on release, but a process that asks again at once usually
# wins the race: without a pause between chunks an agent could wait through all of them.
CHUNK_PAUSE = 0.01


@dataclass
class Pace:
    """How long a chunk's commit is expected to take, learnt from the chunks before it:
    a part that does not depend on the number of files written, and a part per file."""

    fixed: float = 0.05
    per_write: float = 0.0005  # an fsynced file, several in flight at once (write.parallel)

    def estimate(self, writes: int) -> float:
        return self.fixed + self.per_write * writes

    def learn(self, seconds: float, writes: int) -> None:
        guess = self.estimate(writes)
        scale = min(10.0, max(0.1, seconds / guess)) if guess > 0 else 1.0
        self.fixed *= scale
        self.per_write *= scale


def chunked(queue: deque[str], run: Any) -> list[Receipt]:
    """Run chunks until the queue is empty. An error after some chunks committed carries
    them as `exc.receipts` (those chunks stay done: each one is atomic on its own).
    A dry run plans everything in one chunk."""
    with operation():  # every chunk belongs to the one bulk action (SPEC §3d)
        return _chunks(queue, run)


def _chunks(queue: deque[str], run: Any) -> list[Receipt]:
    receipts: list[Receipt] = []
    pace = Pace()
    total = len(queue)
    while queue:
        try:
            receipt = run(queue, pace, len(receipts) + 1)
        except Exception as exc:
            if receipts:
                exc.receipts = receipts  # type: ignore[attr-defined]
                if exc.args and isinstance(exc.args[0], str):
                    exc.args = (
                        f"{exc.args[0]} ({len(receipts)} earlier chunk(s) were committed "
                        "and stay done)",
                        *exc.args[1:],
                    )
            raise
        receipts.append(receipt)
        progress.advanced(total - len(queue), total)
        if queue and not receipt.dry_run:
            if progress.stop_asked():  # whole chunks done, the rest untouched
                receipt.details["stopped"] = {"done": total - len(queue), "left": len(queue)}
                break
            time.sleep(CHUNK_PAUSE)  # let an agent blocked on the lock take it first
    return receipts


def stop(taken: int, started: float, pace: Pace, writes: int, size: int, seconds: float) -> bool:
    """Stop planning once the chunk's lock time reaches `seconds`, but never before its
    planning took as long as the commit's fixed part: on a slow or busy disk, where that
    part alone nears `seconds`, chunks of a candidate or two would pay it (re-reading the
    books, snapshots and fsyncs) once per candidate and the bulk would take many times
    as long, with the lock held about as much."""
    if taken >= size:
        return True
    if taken == 0:
        return False
    planned = time.monotonic() - started
    return planned + pace.estimate(writes) >= seconds and planned >= pace.fixed


def precheck(root: str, rels: list[str], expected: dict[str, str]) -> None:
    """Without the lock: a candidate that already differs from what the user saw stops
    the whole call before any chunk commits (each chunk checks again under the lock).
    The total is told first: a face shows it before this reads every candidate."""
    progress.advanced(0, len(rels))
    for rel in rels:
        if rel in expected:
            check_expected(rel, read_or_none(os.path.join(root, rel)), expected)


def targets(root: str, ids: Any, all_pending: bool) -> list[str]:
    if isinstance(ids, str):
        ids = [ids]
    if all_pending and ids:
        raise Refused(msg("name candidates or ask for all of them, not both"))
    if all_pending:
        return md_files(root, PENDING)
    if not ids:
        raise Refused(msg("no candidate named (give ids, or all_pending=True)"))
    return resolve_ids(root, list(ids))
