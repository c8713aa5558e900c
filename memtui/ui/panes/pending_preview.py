"""The pending pane's preview: the highlighted item's detail (or the selection's) and
what approving it would change, the engine's dry run worked out in a thread worker once
the highlight rests (engine.queue.preview; a selection at once where its layout previews
several together). Writes nothing; whatever goes wrong is said in the preview."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import work
from textual.containers import VerticalScroll
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from memtui.engine.queue import QueueItem, QueuePreview, Queues
from memtui.engine.store import Store
from memtui.i18n import _, tr
from memtui.ui.panes.listing import GONE
from memtui.ui.panes.pending_detail import detail, preview, selection
from memtui.ui.panes.pending_split import PreviewSplit
from memtui.ui.panes.queued import Group
from memtui.ui.said import error_text
from memtui.ui.widgets.rows import Rows

DEBOUNCE = 0.15  # seconds the highlight must rest before the dry run starts
CACHE = 64  # dry-run results kept per snapshot
# A selection larger than this is not dry-run together: its diff is more than anyone
# reads, and working it out (2,500 candidates: about twice the accept itself) would
# run beside the accept that usually follows at once, on the same GIL.
TOGETHER_MAX = 200
PreviewKey = tuple[str, int]  # (the item id(s) previewed, the snapshot's number)


def dry_run(root: str, ids: Sequence[str]) -> QueuePreview:
    """What approving these items (one, or several of one queue) would change now."""
    from memtui.engine import queue
    from memtui.engine.errors import MemtuiError

    try:
        got = queue.preview(root, ids[0]) if len(ids) == 1 else queue.preview_together(root, ids)
    except MemtuiError as exc:  # a refusal or a conflict
        return QueuePreview(ids[0], "", error=error_text(exc))
    except Exception as exc:  # shown in the preview, never a traceback
        return QueuePreview(ids[0], "", error=_("internal error: {error}").format(error=repr(exc)))
    return got or QueuePreview(ids[0], "", error=_("each is previewed on its own row"))


class Previews(PreviewSplit):
    """The preview side of the pending pane (whose list gives what it previews)."""

    @dataclass
    class PreviewReady(Message):
        key: PreviewKey
        result: QueuePreview

    store: Store | None
    queues: Queues
    selected: set[str]
    rows: Rows
    current: QueueItem | None
    _generation: int

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.preview_text = Text()
        self._shown: str | None = None  # what the preview shows: an item id, or a selection
        self._head = Text()  # the preview's head, drawn above the dry run when it is ready
        self._doing = ""  # its layout's word for approving (`accepting would change`)
        self._results: dict[PreviewKey, QueuePreview] = {}
        self._timer: Timer | None = None
        self._preview_due = False

    def _style(self, name: str) -> Style:
        return self.style_of(f"pending--{name}")

    def _targets(self) -> list[QueueItem]:
        raise NotImplementedError

    def _groups(self, items: Sequence[QueueItem]) -> list[Group]:
        raise NotImplementedError

    def _forget_previews(self) -> None:
        """A new snapshot: no dry run of an older one is shown for it."""
        self._results.clear()
        self.preview_key = None

    def _schedule(self) -> None:
        """Show the preview once the highlight has rested for DEBOUNCE seconds."""
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self._preview)

    def _visible(self) -> bool:
        return self.show_preview and self.display and self.region.area > 0

    def on_show(self) -> None:
        if self._preview_due:
            self._schedule()

    def _preview(self) -> None:
        self._timer = None
        if not self._visible():
            self._preview_due = True  # drawn when the pane is shown
            return
        self._preview_due = False
        together, item, store = self._together(), self.current, self.store
        if store is None or not (together or item):
            self.preview_key = None
            said = "" if store is None else _(GONE) if self.rows.lost else _("Nothing pending.")
            self._draw(None, Text(said, style="italic"))
            return
        if together:
            face = self.queues.face(together[0])
            left = sum(1 for i in self._targets() if i.layout == together[0].layout)
            others = self._others(together)
            ids = [i.id for i in together]
            head = selection(together, left - len(together), others, face, self._style)
            if len(ids) > TOGETHER_MAX:
                self.preview_key = None
                said = _(
                    "{n} selected: no preview of what {doing} them would change "
                    "(select at most {most} to see it)"
                ).format(n=f"{len(ids):,}", doing=tr(face.doing), most=f"{TOGETHER_MAX:,}")
                self._draw("selection:" + "\n".join(ids), head, Text(said, style="italic"))
                return
            self._start("selection:" + "\n".join(ids), ids, head, tr(face.doing), store)
        elif item is not None:
            face = self.queues.face(item)
            head = detail(item.whole(), face, self._style)
            self._start(item.id, [item.id], head, tr(face.doing), store)

    def _together(self) -> list[QueueItem]:
        """The selected items `a` would approve, of the first layout that previews them
        together (its approve plans them as one); [] when there is none."""
        if not self.selected:
            return []
        chosen = [i for i in self._targets() if i.approvable]
        for name in dict.fromkeys(i.layout for i in chosen):
            if self.queues.faces[name].together:
                return [i for i in chosen if i.layout == name]
        return []

    def _others(self, together: list[QueueItem]) -> str:
        """The selected items not previewed with them: `3 queued`."""
        layout = together[0].layout
        rest = [i for i in self._targets() if i.layout != layout]
        return _(" and ").join(f"{len(g):,} {tr(face.short)}" for face, g in self._groups(rest))

    def _start(self, shown: str, ids: list[str], head: Text, doing: str, store: Store) -> None:
        """The head now; the dry run from the cache, or in a worker. A reload keeps the
        old dry run on screen until the new one is ready."""
        key = ("\n".join(ids), self._generation)
        if key == self.preview_key:
            return
        self.preview_key, self._head, self._doing = key, head, doing
        result = self._results.get(key)
        if result is not None:
            self._draw(shown, head, preview(result, doing, self._style))
            return
        if shown != self._shown or shown.startswith("selection:"):
            said = (
                _("working out what {doing} them would change…")
                if shown.startswith("selection:")
                else _("working out what {doing} would change…")
            )
            working = Text(said.format(doing=doing), style="italic")
            self._draw(shown, head, working)
        self._dry_run(key, store.root, ids)

    @work(thread=True, exclusive=True, group="preview", exit_on_error=False)
    def _dry_run(self, key: PreviewKey, root: str, ids: list[str]) -> None:
        from textual.worker import get_current_worker

        result = dry_run(root, ids)
        if not get_current_worker().is_cancelled:
            self.post_message(self.PreviewReady(key, result))

    def on_previews_preview_ready(self, message: Previews.PreviewReady) -> None:
        message.stop()
        if len(self._results) >= CACHE:
            self._results.clear()
        self._results[message.key] = message.result
        if message.key == self.preview_key:
            shown = self._shown
            self._draw(shown, self._head, preview(message.result, self._doing, self._style))

    def _draw(self, shown: str | None, *parts: Text) -> None:
        """Show the preview of `shown`; back to the top when it is another one."""
        text = Text(end="")
        for part in parts:
            text.append_text(part)
        self.preview_text = text
        self.query_one("#pending-detail", Static).update(text)
        if shown != self._shown:
            self.query_one("#pending-preview", VerticalScroll).scroll_home(animate=False)
        self._shown = shown
