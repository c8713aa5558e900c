"""Other layouts' approval queues in the pending pane (engine.queue): how an item's
row and detail read, and approving or rejecting items through the engine. Plain
QueueItem data only: nothing here knows which layout staged an item."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby
from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Text

from memtui.engine.queue import QueueItem
from memtui.engine.words import counted
from memtui.ui.safe import literal, row

if TYPE_CHECKING:
    from memtui.engine.write.transaction import Receipt

SHOWN = 5  # ids named in a refusal; the rest are counted


def item_kind(item: QueueItem) -> Text:
    return row(f"{item.action} → {item.target}")


def item_kind_width(item: QueueItem) -> int:
    return len(item.action) + 3 + len(item.target)


def item_note(item: QueueItem) -> Text:
    """The row's note: why it cannot be approved, else its summary and who staged it."""
    if item.read_only:
        return row(f"read-only · {item.summary}")
    if item.problem:
        return row(f"✗ {item.problem}")
    return row(f"{item.summary} · {item.origin}" if item.origin else item.summary)


def item_detail(item: QueueItem, muted: Style) -> Text:
    """The preview's head: the id, what it changes, then the item's own fields."""
    text = Text(end="")
    text.append_text(literal(item.id, style="bold"))
    text.append("  ")
    text.append_text(item_kind(item))
    text.append("\n")
    where = item.file if item.line is None else f"{item.file}:{item.line}"
    shown = [
        ("summary", item.summary),
        ("origin", item.origin or "—"),
        ("created", item.created or "—"),
        ("file", where),
        *item.fields,
    ]
    for label, value in shown:
        text.append(f"{label:<9} ", style=muted)
        text.append_text(literal(value))
        text.append("\n")
    return text


def not_approvable(items: Sequence[QueueItem], verb: str = "approve") -> str:
    """Why these items are not approved (or, read-only, not rejected either)."""
    said = "; ".join(
        f"{i.id}: {'read-only here' if i.read_only else i.problem}" for i in items[:SHOWN]
    )
    more = " …" if len(items) > SHOWN else ""
    return f"cannot {verb} {counted(len(items), 'queued item')}: {said}{more}"


def not_accepted(candidates: Sequence[Any]) -> str:
    """Why these dsh candidates are not accepted: each one's problem (the engine's)."""
    said = "; ".join(f"{c.id}: {c.problem}" for c in candidates[:SHOWN])
    more = " …" if len(candidates) > SHOWN else ""
    return f"cannot accept {counted(len(candidates), 'candidate')}: {said}{more}"


def problems(items: Sequence[QueueItem]) -> list[tuple[str, str]]:
    """(id, why) of each item approving will refuse: its problem, or read-only."""
    return [
        (i.id, "read-only here" if i.read_only else str(i.problem))
        for i in items
        if not i.approvable
    ]


def refused_said(refused: Sequence[tuple[str, str | None]]) -> str:
    """A confirm question's tail naming each one the engine will refuse, and why."""
    if not refused:
        return ""
    lines = [f"  {name}: {why}" for name, why in refused[:SHOWN]]
    if len(refused) > SHOWN:
        lines.append(f"  … and {len(refused) - SHOWN:,} more")
    head = f"\n\nRefused, left as they are ({len(refused):,}):\n"
    return head + "\n".join(lines)


def approve_all(root: str, items: Sequence[QueueItem], *, alone: bool) -> list[Receipt]:
    from memtui.engine import queue

    return _each_queue(items, lambda ids, shown: queue.approve(root, ids, expected=shown), alone)


def reject_all(root: str, items: Sequence[QueueItem], reason: str, *, alone: bool) -> list[Receipt]:
    from memtui.engine import queue

    def reject(ids: list[str], shown: dict[str, str]) -> list[Receipt]:
        return queue.reject(root, ids, reason, expected=shown)

    return _each_queue(items, reject, alone)


def _each_queue(
    items: Sequence[QueueItem],
    run: Callable[[list[str], dict[str, str]], list[Receipt]],
    alone: bool,
) -> list[Receipt]:
    """`run` once per queue (its ids, with the fingerprints the user saw). A queue that
    refuses as a whole is raised when it is the only change (a refusal, nothing
    written); beside others, it is listed as refused in a receipt of its own."""
    from memtui.engine.errors import MemtuiError
    from memtui.engine.write.transaction import Receipt, WriteError

    receipts: list[Receipt] = []
    groups = [list(g) for _, g in groupby(items, key=lambda i: i.id.partition(":")[0])]
    for group in groups:
        ids = [i.id for i in group]
        try:
            receipts += run(ids, {i.id: i.fingerprint for i in group if i.fingerprint})
        except (MemtuiError, WriteError) as exc:
            if alone and len(groups) == 1:
                raise
            refused = [{"id": i, "reason": str(exc)} for i in ids]
            receipts.append(Receipt("", "queue", (), False, {"refused": refused}))
    return receipts


def accept_label(candidates: str, items: Sequence[QueueItem]) -> str:
    """`approve <kind>:<name>`, `accept 2 candidates and 3 queued`."""
    queued = items[0].id if len(items) == 1 else f"{len(items):,} queued"
    return f"accept {candidates} and {queued}" if candidates else f"approve {queued}"


def reject_label(candidates: Sequence[Any], items: Sequence[QueueItem]) -> str:
    queued = items[0].id if len(items) == 1 else f"{len(items):,} queued"
    if not candidates:
        return f"reject {queued}"
    named = candidates[0].id if len(candidates) == 1 else f"{len(candidates):,} candidates"
    return f"reject {named} and {queued}"


def approve_question(candidates: int, items: int) -> str:
    if not (candidates or items):  # only writes whose refusal is recorded (a conflict)
        return (
            "None of these can be approved now. Approving records each refusal in its "
            "queue, as its agent does. Go ahead?"
        )
    also = f"{counted(candidates, 'candidate')} and " if candidates else ""
    return (
        f"Approve {also}{counted(items, 'queued write')}? Each is applied as its agent would apply "
        "it, as one operation that z undoes."
    )


def reject_question(candidates: str, items: Sequence[QueueItem]) -> str:
    what = items[0].id if len(items) == 1 else f"{len(items):,} queued writes"
    also = f"{candidates} and " if candidates else ""
    they = "It leaves" if len(items) == 1 and not candidates else "They leave"
    return f"Reject {also}{what}? {they} the queue unapplied; the reason is kept. Why?"
