"""The pending pane's wishes, run by the app (ApproveItems, RejectItems): the engine's
approve or reject of the items as shown, in the op runner's worker (progress, lock
waits, one operation that z undoes), and afterwards what it refused while it took the
rest."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memtui.ui.messages import ApproveItems, RejectItems, Say

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp

SHOWN = 5  # refusals named; the rest are counted


def approve(app: MemtuiApp, wish: ApproveItems) -> None:
    from memtui.engine import queue

    root, items, options = app.root, wish.items, dict(wish.options)
    app.run_op(wish.label, lambda: _refused(app, queue.approve_each(root, items, **options)))


def reject(app: MemtuiApp, wish: RejectItems) -> None:
    from memtui.engine import queue

    root, items, reason = app.root, wish.items, wish.reason
    app.run_op(
        wish.label, lambda: _refused(app, queue.reject_each(root, items, reason), "rejected")
    )


def _refused(app: MemtuiApp, receipts: list[Any], done: str = "accepted") -> list[Any]:
    """Say what a bulk change refused while it took the rest (from the op's thread)."""
    left = [r for rc in receipts for r in rc.details.get("refused", ())]
    if left:
        shown = "; ".join(f"{r.get('id')}: {r.get('reason')}" for r in left[:SHOWN])
        more = " …" if len(left) > SHOWN else ""
        app.post_message(Say(f"not {done}: {shown}{more}", "warning", "Refused"))
    return receipts
