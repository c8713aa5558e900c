"""The notes layout: parse, entries, outline, findings and the agent's context; the
operations are in ops (imported when one runs), the demo in demo."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout
from memtui.engine.model import Entry, OutlineItem, Span
from memtui_notes.detect import ARCHIVE, NOTES, NotesDetection
from memtui_notes.sections import Archived, Section, archived, sections

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt

LOADED_LINES = 200  # what the agent is given of NOTES.md at the start of a session


@dataclass(frozen=True, slots=True)
class NotesData:
    notes: tuple[Section, ...]
    archived: tuple[Archived, ...]


class Notes(NotesDetection, Layout):
    kinds = ("note", "archived-note")
    loads = ((NOTES, LOADED_LINES),)
    archived_to = "to archive/NOTES.md, out of what the agent reads"
    restored_from = "from archive/NOTES.md to where it was in NOTES.md"
    codes = {
        "note-duplicate": ("warning", "two notes in NOTES.md share a heading"),
        "note-empty": ("info", "a note with a heading and nothing under it"),
    }

    def parse(self, reader: StoreReader, top: Listing) -> NotesData:
        tf = reader.read(NOTES)
        notes = tuple(sections(tf.text)) if tf is not None else ()
        seen: set[str] = set()
        for note in notes:
            if note.slug in seen:
                reader.findings.add(
                    "note-duplicate",
                    NOTES,
                    note.start + 1,
                    f"two notes are named note:{note.slug}: rename one to act on it",
                    self.codes["note-duplicate"][0],
                )
            seen.add(note.slug)
            if note.stop == note.start + 1:
                reader.findings.add(
                    "note-empty",
                    NOTES,
                    note.start + 1,
                    f"note:{note.slug} has a heading and nothing under it",
                    self.codes["note-empty"][0],
                )
        old = reader.read(ARCHIVE) if reader.exists(ARCHIVE) else None
        return NotesData(notes, tuple(archived(old.text)) if old is not None else ())

    def knows(self, rel: str) -> bool:
        return rel in (NOTES, ARCHIVE)

    def file_of(self, kind: str, name: str) -> str | None:
        return ARCHIVE if kind == "archived-note" else NOTES

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        for note in data.notes:
            span = Span(NOTES, note.start, note.stop, note.char_start, note.char_stop)
            yield Entry(f"note:{note.slug}", "note", self.name, note.title, NOTES, span)
        for old in data.archived:
            span = Span(ARCHIVE, old.line, old.line + 1, old.text_start, old.char_end)
            yield Entry(
                f"archived-note:{old.slug}", "archived-note", self.name, old.title, ARCHIVE, span
            )

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        notes = tuple(
            _row(n.title, NOTES, n.start, f"note:{n.slug}", "edit", "archive") for n in data.notes
        )
        rows = [OutlineItem(NOTES, file=NOTES, verbs=("open",), children=lambda: notes, key=NOTES)]
        if data.archived:
            old = tuple(
                _row(a.title, ARCHIVE, a.line, f"archived-note:{a.slug}", "restore", style="muted")
                for a in data.archived
            )
            rows.append(
                OutlineItem("Archived notes", file=ARCHIVE, children=lambda: old, key=ARCHIVE)
            )
        return rows

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui_notes.demo import build_notes

        return build_notes(sink, rng, size, today)

    def edit(self, root: str, kind: str, name: str, new_text: str, **shown: Any) -> Receipt:
        from memtui_notes.ops import edit

        return edit(root, kind, name, new_text, **shown)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui_notes.ops import archive

        return archive(root, kind, name, **shown)

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui_notes.ops import restore

        return restore(root, kind, name, **shown)


def _row(
    title: str, rel: str, line: int, entry_id: str, *verbs: str, style: str = ""
) -> OutlineItem:
    """A note's row: `line` counts from 0, the row's from 1."""
    return OutlineItem(title, file=rel, line=line + 1, entry_id=entry_id, verbs=verbs, style=style)
