"""A tree row made to fit the room it has (the sidebar is 44 columns at 120): a badge
holding a number or a level (error, warning, ...) is shown whole, never cut to a
wrong number ("warn 150" drawn as "warn 15"); the muted words (a topic's
description) give up cells instead, ending in "…", then the label, "…" in its middle
(its end tells apart names that share a start: project_shared_1.md, _2.md).
Widths are Rich cell widths: 🔥 and CJK take two."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text

GAP = "  "  # between the label and each badge
KEEP = 4  # cells a shortened part keeps, its "…" included

Part = tuple[Text, bool]  # (text, may be shortened)


def soft(shown: str, level: str) -> bool:
    """Muted words without a number may be shortened; the rest is what the row says."""
    return level == "muted" and not any(ch.isdigit() for ch in shown)


def joined(parts: Sequence[Part]) -> Text:
    out = Text(end="", no_wrap=True)
    for i, (text, _) in enumerate(parts):
        if i:
            out.append(GAP)
        out.append_text(text)
    return out


def fit(parts: Sequence[Part], room: int) -> Text:
    """The parts (the label first) joined in at most `room` cells: the soft badges give
    up cells first (the widest first), then the label, none below KEEP; wider still if
    what may not be shortened needs more."""
    widths = [text.cell_len for text, _ in parts]
    over = sum(widths) + len(GAP) * (len(parts) - 1) - room
    badges = [i for i, (_, may) in enumerate(parts) if may and i]
    for group in (badges, [0] if parts and parts[0][1] else []):
        over = _shrink(widths, group, over)
    out = []
    for i, ((text, may), width) in enumerate(zip(parts, widths, strict=True)):
        if width < text.cell_len and i == 0:
            text = _middle(text, width)
        elif width < text.cell_len:
            text = text.copy()
            text.truncate(width, overflow="ellipsis")
        out.append((text, may))
    return joined(out)


def _middle(text: Text, width: int) -> Text:
    """`text` in `width` cells, its start and end kept around a "…"."""
    plain = text.plain
    head_room = width // 2
    tail_room = width - 1 - head_room
    head = used = 0
    while head < len(plain) and used + cell_len(plain[head]) <= head_room:
        used, head = used + cell_len(plain[head]), head + 1
    tail, used = len(plain), 0
    while tail > head and used + cell_len(plain[tail - 1]) <= tail_room:
        used, tail = used + cell_len(plain[tail - 1]), tail - 1
    out = text[:head] + Text("…") + text[tail:]
    out.append(" " * (width - out.cell_len))  # a wide character that did not fit
    return out


def _shrink(widths: list[int], group: list[int], over: int) -> int:
    """Take `over` cells from the parts in `group`, the widest first; what is still over."""
    while over > 0:
        shrinking = sorted((i for i in group if widths[i] > KEEP), key=lambda i: -widths[i])
        if not shrinking:
            break
        widest = shrinking[0]
        next_width = widths[shrinking[1]] if len(shrinking) > 1 else KEEP
        step = min(over, max(1, widths[widest] - max(next_width, KEEP)))
        widths[widest] -= step
        over -= step
    return over
