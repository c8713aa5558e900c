"""How the pending pane words the queues: confirm questions, labels and refusals, from
plain QueueItem data and each layout's QueueFace. Nothing here knows which layout
staged an item."""

from __future__ import annotations

from collections.abc import Sequence

from memtui.engine.queue import QueueFace, QueueItem
from memtui.engine.words import counted

SHOWN = 5  # ids named in a refusal; the rest are counted
Group = tuple[QueueFace, Sequence[QueueItem]]  # one layout's items, in list order


def why(item: QueueItem) -> str:
    """Why approving it is refused, as the rows show it."""
    return "read-only here" if item.read_only else str(item.problem)


def problems(items: Sequence[QueueItem]) -> list[tuple[str, str]]:
    """(name, why) of each item approving will refuse."""
    return [(i.shown_as, why(i)) for i in items if not i.approvable]


def refused_said(refused: Sequence[tuple[str, str]]) -> str:
    """A confirm question's tail naming each one the engine will refuse, and why."""
    if not refused:
        return ""
    lines = [f"  {name}: {reason}" for name, reason in refused[:SHOWN]]
    if len(refused) > SHOWN:
        lines.append(f"  … and {len(refused) - SHOWN:,} more")
    head = f"\n\nRefused, left as they are ({len(refused):,}):\n"
    return head + "\n".join(lines)


def flagged_said(flagged: dict[str, str], names: dict[str, str]) -> str:
    """A confirm question's tail naming each item whose text holds a secret or a planted
    instruction: approving them is what this confirm allows (and the audit log records)."""
    if not flagged:
        return ""
    lines = [f"  {names.get(i, i)}: {codes}" for i, codes in list(flagged.items())[:SHOWN]]
    if len(flagged) > SHOWN:
        lines.append(f"  … and {len(flagged) - SHOWN:,} more")
    head = (
        f"\n\nFlagged: their text holds a secret or a planted instruction ({len(flagged):,}). "
        "Yes approves them too, as allowed, which the audit log records:\n"
    )
    return head + "\n".join(lines)


def not_done(group: Group, verb: str = "") -> str:
    """Why none of one layout's items is approved (or, read-only, rejected either)."""
    face, items = group
    said = "; ".join(f"{i.shown_as}: {why(i)}" for i in items[:SHOWN])
    more = " …" if len(items) > SHOWN else ""
    return f"cannot {verb or face.verb} {counted(len(items), face.one, face.many)}: {said}{more}"


def label(verb: str, groups: Sequence[Group]) -> str:
    """`accept 20261129-0007`, `approve 3 queued`, `accept 2 candidates and 1,200 queued`."""
    parts = (
        items[0].shown_as if len(items) == 1 else f"{len(items):,} {face.short}"
        for face, items in groups
        if items
    )
    return f"{verb} {' and '.join(parts)}"


def approve_question(groups: Sequence[Group]) -> str:
    """The confirm for approving these items (those approving applies, counted)."""
    counts = [(face, sum(1 for i in items if i.approvable)) for face, items in groups]
    if not any(n for _, n in counts):  # only writes whose refusal is recorded (a conflict)
        return (
            "None of these can be approved now. Approving records each refusal in its "
            "queue, as its agent does. Go ahead?"
        )
    face = groups[0][0] if len(groups) == 1 else QueueFace()
    what = " and ".join(counted(n, f.one, f.many) for f, n in counts if n)
    asked = face.approves.format(Verb=face.verb.capitalize(), what=what)
    return f"{asked}, as one operation that z undoes."


def reject_question(groups: Sequence[Group]) -> str:
    face = groups[0][0] if len(groups) == 1 else QueueFace()
    what = " and ".join(
        items[0].shown_as if len(items) == 1 else counted(len(items), f.one, f.many)
        for f, items in groups
    )
    they = "It leaves" if sum(len(items) for _, items in groups) == 1 else "They leave"
    return f"{face.rejects.format(what=what, They=they)} Why?"
