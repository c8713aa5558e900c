"""How the pending pane words the queues: confirm questions, labels and refusals, from
plain QueueItem data and each layout's QueueFace. Nothing here knows which layout
staged an item. A face's words are the layout's (English, its own catalogue entries):
shown through tr."""

from __future__ import annotations

from collections.abc import Sequence

from memtui.engine.queue import QueueFace, QueueItem
from memtui.i18n import _, tr

SHOWN = 5  # ids named in a refusal; the rest are counted
Group = tuple[QueueFace, Sequence[QueueItem]]  # one layout's items, in list order


def why(item: QueueItem) -> str:
    """Why approving it is refused, as the rows show it."""
    return _("read-only here") if item.read_only else tr(item.problem)


def problems(items: Sequence[QueueItem]) -> list[tuple[str, str]]:
    """(name, why) of each item approving will refuse."""
    return [(i.shown_as, why(i)) for i in items if not i.approvable]


def refused_said(refused: Sequence[tuple[str, str]]) -> str:
    """A confirm question's tail naming each one the engine will refuse, and why."""
    head = _("Refused, left as they are ({n}):")
    return _tail(head, refused)


def flagged_said(flagged: dict[str, str], names: dict[str, str]) -> str:
    """A confirm question's tail naming each item whose text holds a secret or a planted
    instruction: approving them is what this confirm allows (and the audit log records)."""
    head = _(
        "Flagged: their text holds a secret or a planted instruction ({n}). "
        "Yes approves them too, as allowed, which the audit log records:"
    )
    return _tail(head, [(names.get(i, i), codes) for i, codes in flagged.items()])


def _tail(head: str, pairs: Sequence[tuple[str, str]]) -> str:
    """`head` with the count, then a line per (name, why), the first SHOWN of them."""
    if not pairs:
        return ""
    lines = [f"  {name}: {why}" for name, why in pairs[:SHOWN]]
    if len(pairs) > SHOWN:
        lines.append("  " + _("… and {n} more").format(n=f"{len(pairs) - SHOWN:,}"))
    return "\n\n" + head.format(n=f"{len(pairs):,}") + "\n" + "\n".join(lines)


def not_done(group: Group, verb: str = "") -> str:
    """Why none of one layout's items is approved (or, read-only, rejected either)."""
    face, items = group
    said = "; ".join(f"{i.shown_as}: {why(i)}" for i in items[:SHOWN])
    more = " …" if len(items) > SHOWN else ""
    return _("cannot {verb} {what}: {why}").format(
        verb=verb or tr(face.verb), what=counted(len(items), face), why=said + more
    )


def counted(n: int, face: QueueFace) -> str:
    """`3 candidates`, in the face's words (translated: one form for any count)."""
    return f"{n:,} {tr(face.one) if n == 1 else tr(face.many)}"


def label(verb: str, groups: Sequence[Group]) -> str:
    """`accept 20261129-0007`, `approve 3 queued`, `accept 2 candidates and 1,200 queued`."""
    parts = (
        items[0].shown_as if len(items) == 1 else f"{len(items):,} {tr(face.short)}"
        for face, items in groups
        if items
    )
    return f"{verb} " + _(" and ").join(parts)


def approve_question(groups: Sequence[Group]) -> str:
    """The confirm for approving these items (those approving applies, counted)."""
    counts = [(face, sum(1 for i in items if i.approvable)) for face, items in groups]
    if not any(n for _f, n in counts):  # only writes whose refusal is recorded (a conflict)
        return _(
            "None of these can be approved now. Approving records each refusal in its "
            "queue, as its agent does. Go ahead?"
        )
    face = groups[0][0] if len(groups) == 1 else QueueFace()
    what = _(" and ").join(counted(n, f) for f, n in counts if n)
    asked = tr(face.approves).format(Verb=tr(face.verb).capitalize(), what=what)
    return _("{question}, as one operation that z undoes.").format(question=asked)


def reject_question(groups: Sequence[Group]) -> str:
    face = groups[0][0] if len(groups) == 1 else QueueFace()
    what = _(" and ").join(
        items[0].shown_as if len(items) == 1 else counted(len(items), f) for f, items in groups
    )
    they = _("It leaves") if sum(len(items) for _f, items in groups) == 1 else _("They leave")
    return _("{question} Why?").format(question=tr(face.rejects).format(what=what, They=they))
