"""`memtui index`: what memtui generates from a store's memory, rebuilt as one operation
in one transaction: the dsh index.txt automatic segment and the companion MEMORY.md
unresolved block. Every file either reads is read before anything is written, so a
file that cannot be read (a FIFO for MEMORY.md) refuses the whole of it: nothing
written, no audit line."""

from __future__ import annotations

import os

from memtui.engine.write.transaction import Receipt
from memtui.layouts.companion.ops import plan_unresolved
from memtui.layouts.dsh.entries import plan_rebuild_index
from memtui.layouts.dsh.store import begin

PLANS = (("dsh", plan_rebuild_index), ("companion", plan_unresolved))  # in this order


def rebuild(root: str | os.PathLike[str], *, dry_run: bool = False) -> Receipt | None:
    """Each generated block of the layouts found in `root` rebuilt (None: all current)."""
    from memtui.engine.store import layouts_at

    found = layouts_at(os.fspath(root))  # two folder listings, no parse
    plans = [plan for name, plan in PLANS if name in found]
    if not plans:
        return None
    with begin(root, "index", dry_run) as tx:
        changed = [plan(tx) for plan in plans]  # every plan reads before any commit
        return tx.commit() if any(changed) else None
