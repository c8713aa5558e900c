"""A full-screen page (editor, history, help, dry-run report): a title bar, a note
under it, the body and a Footer. The shared look lives here, once."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import Screen

ResultType = TypeVar("ResultType")


class PageScreen(Screen[ResultType]):
    DEFAULT_CSS = """
    PageScreen { layout: vertical; }
    PageScreen > .page-title {
        height: 1; padding: 0 1; background: $panel; color: $text; text-style: bold;
    }
    PageScreen > .page-note { height: auto; padding: 0 1; color: $text-muted; }
    """
