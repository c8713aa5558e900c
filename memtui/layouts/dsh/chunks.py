"""Bulk operations in chunks: each chunk is one transaction that holds the lock for
about a second (planning time plus the commit time learnt from the chunks before it),
with a short pause between chunks so a waiting agent goes first. How many are done is
reported before the first chunk and after each, and a stop the face asked for ends the
bulk between two chunks (write/progress.py).

Part of every chunk's cost grows with the store, not with the chunk: the books it
reads, parses, rewrites and snapshots whole (facts.md and memory-meta.json are
megabytes on a large store). A chunk therefore plans at least twice as long as that
part takes, and takes the rest of the queue when the rest would be a smaller chunk than
that: the books are paid at most once per that much planning, so a bulk costs a
straight line in what it changes plus the books about once, however large the store
(on a large store a chunk holds the lock longer, as one accept does there)."""

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


# What a chunk's store-sized part costs per byte of the books it rewrites, before the
# first chunk has measured it: about what a quiet 2-core machine does (read, hash,
# parse, write, snapshot, fsync, read back); the first chunk's own time replaces it.
SECONDS_PER_BOOK_BYTE = 2.5e-8
# The measured part (planning the books) is about half of it; the commit writes,
# snapshots and reads them back.
BOOKS_SHARE = 2.0
# A chunk plans at least this many times as long as its books take: they are at most a
# third of a bulk's time, and a bulk of a tenth of a large store's candidates is one
# chunk, as on a small store (benchmarks/scale.py: growth per 4x of store).
PLAN_PER_BOOKS = 2.0
# However large the books: the agents wait 10 s for the lock (`flock -w 10`), so a chunk
# stops planning after this long, whatever the books cost (its commit follows).
LONGEST = 4.0


@dataclass
class Pace:
    """How long a chunk's commit is expected to take, learnt from the chunks before it:
    a fixed part that grows with the store's books, not the chunk, and a part per file."""

    fixed: float = 0.05
    per_write: float = 0.0005  # an fsynced file, several in flight at once (write.parallel)

    @classmethod
    def for_books(cls, root: str, books: tuple[str, ...]) -> Pace:
        """A first guess of the fixed part from the size of the books a chunk rewrites."""
        size = 0
        for rel in books:
            try:
                size += os.stat(os.path.join(root, rel)).st_size
            except OSError:
                continue
        return cls(fixed=max(cls.fixed, size * SECONDS_PER_BOOK_BYTE))

    def estimate(self, writes: int) -> float:
        return self.fixed + self.per_write * writes

    def learn(self, seconds: float, writes: int, books: float) -> None:
        """`seconds`: the commit took (planning the books included); `books`: of that, the
        time spent planning the books, which sets the fixed part directly."""
        self.fixed = max(Pace.fixed, books * BOOKS_SHARE)
        if writes:
            rest = max(0.0, seconds - self.fixed) / writes
            self.per_write = min(10 * self.per_write, max(0.1 * self.per_write, rest))


def chunked(queue: deque[str], run: Any, pace: Pace | None = None) -> list[Receipt]:
    """Run chunks until the queue is empty. An error after some chunks committed carries
    them as `exc.receipts` (those chunks stay done: each one is atomic on its own).
    A dry run plans everything in one chunk."""
    with operation():  # every chunk belongs to the one bulk action (SPEC §3d)
        return _chunks(queue, run, pace or Pace())


def _chunks(queue: deque[str], run: Any, pace: Pace) -> list[Receipt]:
    receipts: list[Receipt] = []
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
            if progress.stopped(receipt, total - len(queue), total):  # whole chunks done
                break
            time.sleep(CHUNK_PAUSE)  # let an agent blocked on the lock take it first
    return receipts


def stop(
    taken: int,
    started: float,
    pace: Pace,
    writes: int,
    size: int | None,
    seconds: float,
    left: int = 0,
) -> bool:
    """Stop planning once the chunk's lock time reaches `seconds`, but never before its
    planning took PLAN_PER_BOOKS times as long as the commit's fixed part: on a large
    store or a slow or busy disk, where that part alone nears `seconds`, small chunks
    would pay it (re-reading the books, snapshots and fsyncs) over and over and the bulk
    would take many times as long, with the lock held about as much. `left`: candidates
    still queued; when planning them would take less than that, they join this chunk
    rather than make a last one that pays the books for little. `size`: a hard cap
    (None: none). Never past LONGEST, for the agent waiting on the lock."""
    if size is not None and taken >= size:
        return True
    if taken == 0:
        return False
    planned = time.monotonic() - started
    if planned >= LONGEST:
        return True
    floor = pace.fixed * PLAN_PER_BOOKS
    if planned + pace.estimate(writes) < seconds or planned < floor:
        return False
    return size is not None or left * planned / taken >= floor


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
