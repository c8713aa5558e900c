"""`z`: undo the last operation (SPEC §3d) after a confirm that lists its files.

The log is read in a worker (the audit file grows with the store's life); the
undo itself is an ordinary change (a RunOp message up to the shell), so a refusal
(a file the agent wrote since) is shown like any other and nothing is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.oplog import Operation
from memtui.i18n import _, ngettext
from memtui.ui.messages import RunOp, Say

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp

SHOWN = 12  # files listed in the question; the rest are counted


def undo_last(app: MemtuiApp) -> None:
    root = app.root
    if app.read_only:
        app.post_message(Say(_("undo: the store is open read-only (--read-only); nothing changes")))
        return

    def read_log() -> None:
        from memtui.engine.oplog import find

        try:
            op = find(root, None)
        except OSError as exc:
            app.post_message(
                Say(_("cannot read the operation log: {why}").format(why=exc), "error")
            )
            return
        app.post_message(_question(root, op))

    app.run_worker(read_log, thread=True, group="undo-log", exclusive=True)


def undo_question(op: Operation) -> str:
    from memtui.engine.ops.undo import net_effect

    paths = list(net_effect(op)) or op.paths
    listed = "\n".join(f"  {p}" for p in paths[:SHOWN])
    more = (
        "\n  " + _("… and {n} more").format(n=f"{len(paths) - SHOWN:,}")
        if len(paths) > SHOWN
        else ""
    )
    these = ngettext(
        "This file goes back to how it was before it:",
        "These {n} files go back to how they were before it:",
        len(paths),
    ).format(n=f"{len(paths):,}")
    return "\n".join(
        [
            _("Undo the last operation, {operation}?").format(operation=describe(op)),
            these,
            listed + more,
            _("(The undo is itself an operation: z again re-applies it.)"),
        ]
    )


def describe(op: Operation) -> str:
    """`accept of 2026-12-01 02:40 by ann (20261201T…-ab12cd34)`."""
    when = op.time.replace("T", " ")[:16]
    what = _("undo of {opid}").format(opid=op.undoes) if op.undoes else op.op
    return _("{what} of {when} by {who} ({opid})").format(
        what=what, when=when, who=op.who or _("someone"), opid=op.opid
    )


def _question(root: str, op: Operation | None) -> Say | RunOp:
    """The undo of `op`, asked first; or why there is none."""
    if op is None:
        return Say(_("nothing to undo: the operation log is empty"), "warning")

    def go() -> object:
        from memtui.engine.ops.undo import undo

        return undo(root, op.opid)

    label = _("undo {op} ({opid})").format(op=op.op, opid=op.opid)
    return RunOp(label, go, confirm=undo_question(op))
