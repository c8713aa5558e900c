"""The changes running now, one line each below the panes: the label, done of total
with a bar (the engine's own chunks: engine/write/progress.py), and the lock it waits
for while another writer holds it. A line is shown at once for a change of many items
(a bulk accept's total) or one that has run a while without reporting; else
SHOWN_AFTER its first report (a wait of a moment never flashes one). It goes when the
change ends."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import ProgressBar, Static

from memtui.engine.write.progress import Progress
from memtui.i18n import N_, _
from memtui.ui.safe import row

SHOWN_AFTER = 0.25  # seconds

WAITING = N_("waiting for the store lock ({lock}), held by another writer (the agent?)")


def waiting_said(label: str, lock: str) -> str:
    return _("{label}: {waiting}; nothing is written until it is free (up to 10 s)").format(
        label=label, waiting=_(WAITING).format(lock=lock)
    )


class Working(Vertical):
    DEFAULT_CSS = """
    Working { height: auto; max-height: 3; padding: 0 1; background: $boost; }
    Working > WorkingLine { height: 1; }
    WorkingLine > ProgressBar { width: auto; height: 1; margin-right: 1; }
    WorkingLine Bar { width: 16; }
    WorkingLine > Static { width: 1fr; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self) -> None:
        super().__init__(id="working")
        self.lines: dict[str, WorkingLine] = {}

    def report(self, label: str, progress: Progress | None) -> bool:
        """Show `label`'s progress (None: working, nothing counted yet); True when this
        report starts a wait for a lock."""
        line = self.lines.get(label)
        if line is None:
            line = self.lines[label] = WorkingLine(label)
            if self.is_attached:
                self.mount(line)  # else composed with the others once this is mounted
        elif progress is None:
            return False  # it reported already: keep what it said
        self.display = True
        return line.show(progress)

    def compose(self) -> ComposeResult:
        yield from self.lines.values()

    def still_waiting(self, label: str) -> str | None:
        """The lock `label` waits for still, if not said before: said once a change."""
        line = self.lines.get(label)
        if line is None or line.lock is None or line.told:
            return None
        line.told = line.display = True
        return line.lock

    def finished(self, label: str) -> None:
        line = self.lines.pop(label, None)
        if line is not None:
            line.remove()
        self.display = bool(self.lines)


class WorkingLine(Horizontal):
    def __init__(self, label: str) -> None:
        super().__init__()
        self.display = False  # until SHOWN_AFTER (show() may show it sooner)
        self.label = label
        self.said = Text()  # what the line says (tests read it)
        self.lock: str | None = None  # the lock it waits for now
        self.told = False  # a wait of this change was said
        self._text = Static()
        self._bar = ProgressBar(show_eta=False)

    def compose(self) -> ComposeResult:
        yield self._bar
        yield self._text

    def on_mount(self) -> None:
        self.set_timer(SHOWN_AFTER, self._reveal)

    def _reveal(self) -> None:
        self.display = True

    def show(self, progress: Progress | None) -> bool:
        lock = progress.waiting if progress is not None else None
        began, self.lock = lock is not None and self.lock is None, lock
        if progress is None or (progress.total or 0) > 1:  # ran a while, or many: now
            self.display = True
        # what matters first, for a narrow terminal: how far, the wait, then which change
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        if progress is None or progress.total is None:
            self._bar.update(total=None)
            text.append(_("working…"))
        else:
            self._bar.update(total=progress.total, progress=progress.done)
            text.append(
                _("{done} of {total}").format(
                    done=f"{progress.done:,}", total=f"{progress.total:,}"
                )
            )
            if progress.done < progress.total:
                text.append(" · " + _("^x stops"), style="dim")
        if lock is not None:
            text.append_text(row(" · " + _(WAITING).format(lock=lock), style="bold"))
        text.append_text(row(f" · {self.label}"))
        self.said = text
        self._text.update(text)
        return began
