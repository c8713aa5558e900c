"""What a layout is to the engine: one object that detects, parses, names entries,
outlines, says what the agent loads, and archives or restores its own entries."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from memtui.engine.layouts.listing import Listing

if TYPE_CHECKING:
    from memtui.engine.model import ContextFile, Entry, OutlineItem
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt


class Detection(Protocol):
    """A layout's detection alone (layouts.detectors()): importable without its parser,
    for what lists or searches a store without parsing it."""

    name: str
    looks_for: str  # what detect() looks for, for "holds no memory store"

    def detect(self, top: Listing) -> bool: ...

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        """Folders below the root it reads beyond the shared ones: (folder, recursive)."""
        ...

    def locks(self, rel: str) -> list[str]:
        """The lock files a change to `rel` must hold (with the detection: every write
        asks, and a write imports no parser for it)."""
        ...

    # Optional (engine.home): `dotfiles`, the root dotfiles it reads (no other is ever
    # shown: an agent home's .env holds API keys); and, for a layout whose root is an
    # agent's whole home rather than a memory folder (Hermes), `is_memory(rel) -> bool`,
    # whether a file found under it is memory: the store is then only those files.
    # A layout with a queue: `queued(root, names)`, the (name, full id) of each bare id
    # its queue holds, from the disk alone (engine.queue.full_ids).


class Layout(Detection, Protocol):
    kinds: tuple[str, ...]  # the entry-id prefixes it owns (`topic`, `event`, ...)

    def parse(self, reader: StoreReader, top: Listing) -> Any: ...

    def knows(self, rel: str) -> bool:
        """Whether `rel` is one of the files it reads (by name or by its pattern): found
        there as no regular file (a FIFO, a folder), the store reports it unreadable."""
        ...

    def file_of(self, kind: str, name: str) -> str | None:
        """The file an id `kind:name` of its own lives in, from the id alone (no parse):
        a refusal names that file when it could not be read."""
        ...

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        """Its typed entries; `titles=False` may leave costly titles empty, and
        `events=False` leaves out entries known only by their neighbours."""
        ...

    def outline(self, store: Store, data: Any) -> list[OutlineItem]: ...

    def context(self, store: Store, data: Any) -> list[ContextFile]: ...

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt: ...

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt: ...
