"""Unified diffs that stay fast on 50,000-line files: the common head and tail
are trimmed before difflib sees the rest."""

from __future__ import annotations

import difflib
from typing import Any


def unified(old: str, new: str, path: str, context: int = 3) -> str:
    """A `diff -u` style text ("" when equal); line numbers are the file's own."""
    if old == new:
        return ""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    start = max(0, head - context)
    a_mid = a[start : len(a) - max(0, tail - context)]
    b_mid = b[start : len(b) - max(0, tail - context)]
    lines = list(difflib.unified_diff(a_mid, b_mid, f"a/{path}", f"b/{path}", n=context))
    return "".join(_shift(line, start) for line in lines)


def _shift(line: str, offset: int) -> str:
    """Renumber a hunk header by the trimmed head, and end every line with a newline."""
    if offset and line.startswith("@@"):
        parts = line.split(" ")
        for i in (1, 2):
            sign, rest = parts[i][0], parts[i][1:]
            start, comma, count = rest.partition(",")
            parts[i] = f"{sign}{int(start) + offset}{comma}{count}"
        line = " ".join(parts)
    return line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"


def change_diff(change: Any) -> str:
    """The diff a planned or made write (a transaction's Change) shows; bytes that are
    not UTF-8 show as U+FFFD (a dry run must still say something)."""
    old = (change.old or b"").decode("utf-8", "replace")
    new = (change.new or b"").decode("utf-8", "replace")
    return unified(old, new, change.path)
