"""The gemini layout's outline: its files in the order Gemini CLI loads them (each with
where it goes: global, private, project, or later), their `## ` sections, the Added
Memories section's memories below it, and what memtui archived."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from memtui.engine.model import OutlineItem
from memtui.engine.outline import Rows
from memtui.layouts.gemini import rules
from memtui.layouts.gemini.detect import BOOK
from memtui.layouts.gemini.parse import KIND, MEMORY_KIND, memory_id, section_id

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.layouts.gemini.parse import Archived, GeminiData, GFile, GSection

WHOLE = "a context file is not archived whole: Gemini CLI loads it by name (x on a section)"
TIERS = {
    "global": "global",
    "private": "private memory",
    "project": "project",
    "subfolder": "when its folder is used",
    "note": "read on demand",
    "imported": "imported",
}


def outline(store: Store, data: GeminiData) -> list[OutlineItem]:
    rows = Rows.of(store)
    items = [_file(rows, f) for f in data.files]
    if data.archived:
        twice = {i for i, n in Counter(a.id for a in data.archived).items() if n > 1}
        items.append(
            OutlineItem(
                f"archived ({len(data.archived):,})",
                key="archived",
                file=BOOK,
                children=lambda: tuple(_archived(a, twice) for a in data.archived),
            )
        )
    return items


def _file(rows: Rows, f: GFile) -> OutlineItem:
    badges = [(TIERS[f.tier], "muted"), *filter(None, rows.file_badges(f.rel))]
    kids = tuple(_section(f, s) for s in f.sections)
    return OutlineItem(
        f.rel,
        file=f.rel,
        entry_id=f"{KIND}:{f.rel}" if f.tf is not None else None,
        badges=tuple(badges),
        verbs=("edit", "open") if f.tf is not None else ("open",),
        children=(lambda: kids) if kids else None,
        not_offered=WHOLE,
    )


def _section(f: GFile, s: GSection) -> OutlineItem:
    memories = ()
    if s.heading == rules.ADDED and s.nth == 1 and f.tf is not None:
        text = f.tf.text
        memories = tuple(
            OutlineItem(
                text[m.span.char_start : m.span.char_stop].split("\n", 1)[0].strip()[:100],
                file=f.rel,
                line=m.span.lineno,
                entry_id=memory_id(f, m),
                verbs=("edit", "archive"),
            )
            for m in f.memories
        )
    return OutlineItem(
        s.heading,
        file=f.rel,
        line=s.span.lineno,
        entry_id=section_id(f, s),
        verbs=("edit", "archive"),
        children=(lambda: memories) if memories else None,
    )


def _archived(a: Archived, twice: set[str]) -> OutlineItem:
    from memtui.engine.identity import fingerprint

    target = f"{a.id}@{fingerprint(a.text)}" if a.id in twice else a.id
    label = a.id.removeprefix(f"{MEMORY_KIND}:").removeprefix(f"{KIND}:").replace("#", " · ", 1)
    return OutlineItem(label, file=BOOK, line=a.line, target=target, verbs=("restore",))
