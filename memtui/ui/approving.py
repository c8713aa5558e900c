"""The pending pane's wishes, run by the app (ApproveItems, RejectItems): the engine's
approve or reject of the items as shown, in the op runner's worker (progress, lock
waits, one operation that z undoes), and afterwards what it refused while it took the
rest."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memtui.i18n import _, tr
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
        wish.label, lambda: _refused(app, queue.reject_each(root, items, reason), rejected=True)
    )


def _refused(app: MemtuiApp, receipts: list[Any], *, rejected: bool = False) -> list[Any]:
    """Say what a bulk change refused while it took the rest (from the op's thread)."""
    left = [r for rc in receipts for r in rc.details.get("refused", ())]
    if left:
        shown = "; ".join(f"{r.get('id')}: {tr(r.get('reason') or '')}" for r in left[:SHOWN])
        more = " …" if len(left) > SHOWN else ""
        said = _("not rejected: {items}") if rejected else _("not accepted: {items}")
        app.post_message(Say(said.format(items=shown + more), "warning", _("Refused")))
    return receipts
