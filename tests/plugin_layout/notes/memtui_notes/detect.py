"""How a notes folder is recognised: light (listing and searching import only this)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection, there

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing

NOTES = "NOTES.md"
ARCHIVE = "archive/NOTES.md"


class NotesDetection(Detection):
    name = "notes"
    looks_for = "NOTES.md (notes)"
    full = "memtui_notes.layout:Notes"

    def detect(self, top: Listing) -> bool:
        return there(top, NOTES)  # a FIFO or a folder there too: reported unreadable
