"""Messages up to the shell: from worker threads (a snapshot loaded, an op done) and
from the panes (run this op, open this file, say this, ...). Plain dataclasses
carrying immutable data; the shell (ui/app.py) handles each once."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.screen import ModalScreen

from memtui.engine.queue import QueueItem
from memtui.engine.store import Store

if TYPE_CHECKING:
    from memtui.engine.write.progress import Progress


@dataclass
class StoreLoaded(Message):
    store: Store
    seconds: float


@dataclass
class StoreFailed(Message):
    reason: str


@dataclass
class StoreChanged(Message):
    """The watcher saw files change on disk (the agent wrote)."""

    paths: tuple[str, ...]

    def can_replace(self, message: Message) -> bool:
        # the poller may post faster than a load runs: one pending reload is enough
        return isinstance(message, StoreChanged)


@dataclass
class OpDone(Message):
    label: str
    receipts: list[Any]  # engine Receipts
    apply: Callable[[], None] | None = None  # a dry run's "go ahead"


@dataclass
class OpProgress(Message):
    """How far a running change is, or the lock it waits for (engine/write/progress.py)."""

    label: str
    progress: Progress

    def can_replace(self, message: Message) -> bool:
        # each report holds the whole state: a newer one of the same change is enough
        return isinstance(message, OpProgress) and message.label == self.label


@dataclass
class OpFailed(Message):
    label: str
    reason: str
    recorded: bool = False  # refused, yet it wrote its record of that (a conflict noted)


# --- a pane's wishes, up to the shell (which runs them through the engine) ------


@dataclass
class OpenFile(Message):
    """Show a file in the File pane, at a line (1-based)."""

    rel: str
    line: int | None = None


@dataclass
class EditEntry(Message):
    """Open the editor on an entry (its id), at a line of its file if known."""

    entry_id: str
    line: int | None = None


@dataclass
class ShowHistory(Message):
    rel: str


@dataclass
class RunOp(Message):
    """Run one engine operation in a worker, after asking `confirm` when given. With
    `apply`, `fn` is a dry run whose report offers `apply` as the key to go ahead."""

    label: str
    fn: Callable[[], Any]
    confirm: str | None = None
    apply: Callable[[], None] | None = None


@dataclass
class ChangeEntries(Message):
    """Archive, restore or mark these entries, each as the snapshot showed it: its id and
    its fingerprint then (the engine refuses one the agent changed since). `options` go
    to the engine's call (an item to archive, a state to mark); one or several entries
    are one operation, after `confirm` when given."""

    verb: str  # archive | restore | mark (engine.ops)
    entries: tuple[tuple[str, str | None], ...]  # (entry id, fingerprint as shown)
    label: str
    confirm: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class ApproveItems(Message):
    """Approve these queued items (any layouts'), each as the snapshot shown it: its id,
    and its fingerprint then (worked out in the op's worker: 10,000 selected items cost
    the UI thread nothing). `options` go to its layout's approve (QueueOption
    dests); `label` names the change in what the app says."""

    label: str
    items: tuple[QueueItem, ...]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class RejectItems(Message):
    """Reject these queued items, each as the snapshot shown it, for `reason`."""

    label: str
    items: tuple[QueueItem, ...]
    reason: str


@dataclass
class Say(Message):
    """A toast; store text in it is shown literally (no markup)."""

    text: str
    severity: str = "information"
    title: str = ""


@dataclass
class Confirm(Message):
    """Ask a yes/no question (No has the focus); run `then` on yes."""

    question: str
    then: Callable[[], None]


@dataclass
class Ask(Message):
    """Show a modal screen (a prompt, a choice); `then` gets its answer on dismiss."""

    screen: ModalScreen[Any]
    then: Callable[[Any], None]
