"""Counts and lists said in words, the same on both faces and in every format:
`1 error`, `1,974 warnings`, `a, b`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from memtui.engine.model import ERROR, LEVELS, WARNING
from memtui.i18n import N_, msg

if TYPE_CHECKING:
    from memtui.engine.store import Store


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun, singular for exactly one (`plural`: when not noun + "s")."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def listed(items: Iterable[object], empty: str = msg("nothing")) -> str:
    """Items as people write them, `a, b` (not a Python list); `empty` for none."""
    return ", ".join(str(item) for item in items) or empty


def level_counts(store: Store) -> list[tuple[str, int, str]]:
    """Each finding level, most severe first: (level, count, the count said)."""
    out = []
    for level in LEVELS:
        n = store.count(level)
        out.append((level, n, _level_said(level, n)))
    return out


def _level_said(level: str, n: int) -> str:
    # a template per form (1 error, 2 errors), for the translators; "info" is a mass noun
    if level == ERROR:
        return msg("{n:,} error", n=n) if n == 1 else msg("{n:,} errors", n=n)
    if level == WARNING:
        return msg("{n:,} warning", n=n) if n == 1 else msg("{n:,} warnings", n=n)
    return msg("{n:,} info", n=n)


def clauses(parts: Sequence[str]) -> str:
    """Clauses joined with "; ", each a Msg of its own: the join is a Msg too, so a face
    translates every clause (a list of problems, a receipt's summary)."""
    return _folded(parts, N_("{first}; {then}"))


def dotted(parts: Sequence[str]) -> str:
    """Fields joined with " · " (a head line: name, file, size, state), as clauses()."""
    return _folded(parts, N_("{first} · {then}"))


def commas(parts: Sequence[str]) -> str:
    """Items joined with ", " (a summary line's counts), as clauses()."""
    return _folded(parts, N_("{first}, {then}"))


def anded(parts: Sequence[str]) -> str:
    """Items joined with " and " (the kinds of secret a fix takes out), as clauses()."""
    return _folded(parts, N_("{first} and {then}"))


def lined(parts: Sequence[str]) -> str:
    """Paragraphs one a line (a refusal for each of several items), as clauses()."""
    return _folded(parts, N_("{first}\n{then}"))


def _folded(parts: Sequence[str], template: str) -> str:
    # a Msg of two at a time, so each piece keeps its own template
    joined = parts[0] if parts else ""
    for part in parts[1:]:
        joined = msg(template, first=joined, then=part)
    return joined
