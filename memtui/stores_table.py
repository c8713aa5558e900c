"""The stores found on this machine as a table, for both faces (`memtui stores`, the
app's store list): text columns left, numbers right, measured in terminal cells."""

from __future__ import annotations

from memtui.cells import cells, padded
from memtui.engine.outline import size_text
from memtui.engine.stores import FoundStore, tilde

HEADINGS = ("PATH", "LAYOUTS", "FILES", "SIZE", "ERRORS", "WARNINGS")


def table(found: list[FoundStore]) -> list[str]:
    """The stores as text lines under a heading line: `…` for counts not measured yet;
    a store that cannot be read or opened says why after its path."""
    rows: list[list[str]] = []
    for s in found:
        if s.problem is not None:
            rows.append([_one_row(tilde(s.shown)), _one_row(s.problem)])
            continue
        counts = (s.files, s.bytes, s.errors, s.warnings)
        shown_counts = ["…" if n is None else f"{n:,}" for n in counts]
        if s.bytes is not None:
            shown_counts[1] = size_text(s.bytes)
        rows.append([_one_row(tilde(s.shown)), ", ".join(s.layouts), *shown_counts])
    lines = [list(HEADINGS), *rows]
    full = [r for r in lines if len(r) == len(HEADINGS)]
    widths = [max(cells(r[i]) for r in full) for i in range(len(HEADINGS))]
    out = []
    for r in lines:
        if len(r) != len(HEADINGS):  # path and problem
            out.append(f"{padded(r[0], widths[0])}  {r[1]}")
            continue
        left = [padded(c, w) for c, w in zip(r[:2], widths[:2], strict=True)]
        right = [padded(c, w, right=True) for c, w in zip(r[2:], widths[2:], strict=True)]
        out.append("  ".join(left + right).rstrip())
    return out


def _one_row(text: str) -> str:
    """A folder's name may hold a line break or a tab: written `\\n`, `\\t`, so that no
    name can split its row and pass for another store's."""
    return text.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
