"""`memtui index`: what the layouts generate from a store's memory (Layout.generates,
Layout.plan_generated: an index's automatic segment, a block of open items, ...),
rebuilt as one operation in one transaction over every layout
found that generates one, in detection order. Every file a plan reads is read before
anything is written, so a file that cannot be read (a FIFO where a file is) refuses the
whole of it: nothing written, no audit line."""

from __future__ import annotations

import os

from memtui.engine.write.transaction import Receipt, Transaction


def rebuild(root: str | os.PathLike[str], *, dry_run: bool = False) -> Receipt | None:
    """Each generated part of the layouts found in `root` rebuilt (None: all current)."""
    from memtui.engine.layouts import layout
    from memtui.engine.store import layouts_at

    found = (layout(name) for name in layouts_at(os.fspath(root)))  # no parse
    planners = [lay for lay in found if lay.generates]
    if not planners:
        return None
    with Transaction(os.fspath(root), "index", details={}, dry_run=dry_run) as tx:
        changed = [lay.plan_generated(tx) for lay in planners]  # every plan reads first
        return tx.commit() if any(changed) else None
