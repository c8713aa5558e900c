"""memtui's headless engine: reads (and, through one transaction, writes) memory stores.

It never imports textual or rich. Names load lazily, so a CLI verb such as
`search` pays only for what it uses.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "open_store": "memtui.engine.store",
    "Store": "memtui.engine.store",
    "discover": "memtui.engine.paths",
    "StoreError": "memtui.engine.paths",
    "resolve": "memtui.engine.entries",
    "entry_text": "memtui.engine.entries",
    "EntryNotFound": "memtui.engine.entries",
    "search": "memtui.engine.search",
    "Finding": "memtui.engine.model",
    "Entry": "memtui.engine.model",
}

__all__ = [
    "Entry",
    "EntryNotFound",
    "Finding",
    "Store",
    "StoreError",
    "discover",
    "entry_text",
    "open_store",
    "resolve",
    "search",
]

if TYPE_CHECKING:
    from memtui.engine.entries import EntryNotFound, entry_text, resolve
    from memtui.engine.model import Entry, Finding
    from memtui.engine.paths import StoreError, discover
    from memtui.engine.search import search
    from memtui.engine.store import Store, open_store


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'memtui.engine' has no attribute {name!r}")
    return getattr(import_module(module), name)
