"""The gemini layout's outline: its files in the order Gemini CLI loads them (each with
where it goes: global, private, project, or later), their `## ` sections, the Added
Memories section's memories below it, and what memtui archived."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.model import OutlineItem
from memtui.engine.outline import Rows, book_rows
from memtui.i18n import N_, msg
from memtui.layouts.gemini import rules
from memtui.layouts.gemini.detect import BOOK
from memtui.layouts.gemini.parse import KIND, MEMORY_KIND, memory_id, section_id

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.layouts.gemini.parse import Archived, GeminiData, GFile, GSection

WHOLE = msg("a context file is not archived whole: Gemini CLI loads it by name (x on a section)")
TIERS = {
    "global": N_("global"),
    "private": N_("private memory"),
    "project": N_("project"),
    "subfolder": N_("when its folder is used"),
    "note": N_("read on demand"),
    "imported": N_("imported"),
}


def outline(store: Store, data: GeminiData) -> list[OutlineItem]:
    rows = Rows.of(store)
    items = [_file(rows, f) for f in data.files]
    items += book_rows(BOOK, data.archived, _id, _label)
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


def _id(a: Archived) -> str:
    return a.id


def _label(a: Archived) -> str:
    return a.id.removeprefix(f"{MEMORY_KIND}:").removeprefix(f"{KIND}:").replace("#", " · ", 1)
