"""Counts and lists said in words, the same on both faces and in every format:
`1 error`, `1,974 warnings`, `a, b`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from memtui.engine.model import ERROR, INFO, LEVELS, WARNING
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.store import Store

# "info" is a mass noun: `3 info`, as the level is named.
_LEVEL_NOUNS = {
    ERROR: ("error", "errors"),
    WARNING: ("warning", "warnings"),
    INFO: ("info", "info"),
}


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
        out.append((level, n, counted(n, *_LEVEL_NOUNS[level])))
    return out


def clauses(parts: Sequence[str]) -> str:
    """Clauses joined with "; ", each a Msg of its own: the join is a Msg too, so a face
    translates every clause (a list of problems, a receipt's summary)."""
    joined = parts[0] if parts else ""
    for part in parts[1:]:
        joined = msg("{first}; {then}", first=joined, then=part)
    return joined
