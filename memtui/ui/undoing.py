"""`z`: undo the last operation (SPEC §3d) after a confirm that lists its files.

The log is read in a worker (the audit file grows with the store's life); the
undo itself is an ordinary change (a RunOp message up to the shell), so a refusal
(a file the agent wrote since) is shown like any other and nothing is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.oplog import Operation
from memtui.ui.messages import RunOp, Say

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp

SHOWN = 12  # files listed in the question; the rest are counted


def undo_last(app: MemtuiApp) -> None:
    root = app.root
    if app.read_only:
        app.post_message(Say("undo: the store is open read-only (--read-only); nothing changes"))
        return

    def read_log() -> None:
        from memtui.engine.oplog import find

        try:
            op = find(root, None)
        except OSError as exc:
            app.post_message(Say(f"cannot read the operation log: {exc}", "error"))
            return
        app.post_message(_question(root, op))

    app.run_worker(read_log, thread=True, group="undo-log", exclusive=True)


def undo_question(op: Operation) -> str:
    from memtui.engine.ops.undo import net_effect

    paths = list(net_effect(op)) or op.paths
    listed = "\n".join(f"  {p}" for p in paths[:SHOWN])
    more = f"\n  … and {len(paths) - SHOWN:,} more" if len(paths) > SHOWN else ""
    return (
        f"Undo the last operation, {describe(op)}?\n"
        f"These {len(paths):,} file(s) go back to how they were before it:\n{listed}{more}\n"
        "(The undo is itself an operation: z again re-applies it.)"
    )


def describe(op: Operation) -> str:
    """`accept of 2026-12-01 02:40 by ann (20261201T…-ab12cd34)`."""
    when = op.time.replace("T", " ")[:16]
    what = f"undo of {op.undoes}" if op.undoes else op.op
    return f"{what} of {when} by {op.who or 'someone'} ({op.opid})"


def _question(root: str, op: Operation | None) -> Say | RunOp:
    """The undo of `op`, asked first; or why there is none."""
    if op is None:
        return Say("nothing to undo: the operation log is empty", "warning")

    def go() -> object:
        from memtui.engine.ops.undo import undo

        return undo(root, op.opid)

    return RunOp(f"undo {op.op} ({op.opid})", go, confirm=undo_question(op))
