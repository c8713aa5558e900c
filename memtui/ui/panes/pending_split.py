"""The pending pane's split between its list and its preview: beside it, or under it
below NARROW columns; shown or hidden (`p`), smaller or larger (`[` `]`), or the
preview alone (`m`)."""

from __future__ import annotations

from textual import events
from textual.binding import Binding

from memtui.i18n import N_
from memtui.ui.panes import Pane

NARROW = 100  # below this many columns the preview goes under the list
PREVIEW_STEPS = (20, 30, 40, 50, 60, 70, 80)  # the preview's share of the pane, in %


class PreviewSplit(Pane):
    """A pane of a list (#pending-list) and a preview (#pending-preview)."""

    DEFAULT_CSS = """
    PreviewSplit { layout: vertical; }
    PreviewSplit #pending-body { height: 1fr; }
    PreviewSplit #pending-list { width: 1fr; height: 1fr; }
    PreviewSplit #pending-header { height: 1; background: $boost; padding: 0 1; }
    PreviewSplit #pending-rows { height: 1fr; }
    PreviewSplit #pending-preview {
        width: 40%; height: 1fr; border-left: solid $primary-darken-2; padding: 0 1;
    }
    PreviewSplit.-narrow #pending-body { layout: vertical; }
    PreviewSplit.-narrow #pending-preview {
        width: 1fr; height: 45%; border-left: none; border-top: solid $primary-darken-2;
    }
    PreviewSplit.-no-preview #pending-preview { display: none; }
    PreviewSplit > .pending--refused { color: $error; }
    PreviewSplit > .pending--broken { color: $warning; }
    PreviewSplit > .pending--muted { color: $text-muted; }
    PreviewSplit > .pending--id { color: $accent; }
    PreviewSplit > .pending--heading { text-style: bold; }
    PreviewSplit > .pending--added { color: $success; }
    PreviewSplit > .pending--removed { color: $error; }
    PreviewSplit > .pending--hunk { color: $accent; }
    """
    COMPONENT_CLASSES = {
        "pending--refused",
        "pending--broken",
        "pending--muted",
        "pending--id",
        "pending--heading",
        "pending--added",
        "pending--removed",
        "pending--hunk",
    }
    KEYS = [
        Binding("p", "toggle_preview", N_("Preview"), id="pending.preview", show=False),
        Binding("[", "resize_preview(-1)", N_("Smaller preview"), id="pending.shrink", show=False),
        Binding("]", "resize_preview(1)", N_("Larger preview"), id="pending.grow", show=False),
        Binding("m", "zoom_preview", N_("Zoom preview"), id="pending.zoom", show=False),
    ]
    COMMANDS = [
        (
            N_("Pending: show / hide the preview"),
            N_("What accepting would change (p)"),
            "toggle_preview",
        ),
        (N_("Pending: smaller preview"), N_("Give the list more room ([)"), "resize_preview(-1)"),
        (N_("Pending: larger preview"), N_("Give the diff more room (])"), "resize_preview(1)"),
        (N_("Pending: zoom the preview"), N_("The preview alone, or back (m)"), "zoom_preview"),
    ]

    show_preview = True
    preview_share: int | None = None  # % of the pane; None: the CSS's
    zoomed = False  # the preview alone, the list hidden
    narrow = False
    preview_key: tuple[str, int] | None = None  # what the preview shows (the pane's)

    def _preview(self) -> None:
        """Draw the preview again (the pane's own)."""

    def on_resize(self, event: events.Resize) -> None:
        self.narrow = event.size.width < NARROW
        self.set_class(self.narrow, "-narrow")
        self._size_preview()

    def _size_preview(self) -> None:
        """The split as chosen with [ ] and m (inline styles: they beat the CSS)."""
        preview = self.query_one("#pending-preview")
        listing = self.query_one("#pending-list")
        listing.display = not (self.zoomed and self.show_preview)
        share = (
            "1fr"
            if self.zoomed
            else (None if self.preview_share is None else f"{self.preview_share}%")
        )
        preview.styles.width = "1fr" if self.narrow else share  # None: the CSS's
        preview.styles.height = share if self.narrow else "1fr"

    def action_resize_preview(self, step: int) -> None:
        self.zoomed = False
        default = 45 if self.narrow else 40
        now = self.preview_share or default
        index = min(range(len(PREVIEW_STEPS)), key=lambda i: abs(PREVIEW_STEPS[i] - now))
        self.preview_share = PREVIEW_STEPS[max(0, min(len(PREVIEW_STEPS) - 1, index + step))]
        self._size_preview()

    def action_zoom_preview(self) -> None:
        self.zoomed = not self.zoomed
        self._size_preview()
        if self.zoomed:
            self.query_one("#pending-preview").focus()
        else:
            self.query_one("#pending-rows").focus()

    def action_toggle_preview(self) -> None:
        self.show_preview = not self.show_preview
        self.set_class(not self.show_preview, "-no-preview")
        self._size_preview()
        self.preview_key = None
        self._schedule()

    def _schedule(self) -> None:
        """Draw the preview once the highlight rests (the pane's own)."""
