"""Messages from worker threads to the UI: plain dataclasses carrying immutable data."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.message import Message

from memtui.engine.store import Store


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


@dataclass
class OpDone(Message):
    label: str
    receipts: list[Any]  # engine Receipts
    apply: Callable[[], None] | None = None  # a dry run's "go ahead"


@dataclass
class OpFailed(Message):
    label: str
    reason: str


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
    """Run one engine operation in a worker, after asking `confirm` when given."""

    label: str
    fn: Callable[[], Any]
    confirm: str | None = None
