"""What a layout's detection sees (layouts.base names the rest of a layout). On its own
so that listing or searching a store does not build base's Protocol classes (2 ms of
every `memtui search`). No postponed annotations: the NamedTuple would compile each."""

from typing import NamedTuple


class Listing(NamedTuple):
    """The root's own files, every file found, the layout folders that exist. Two
    folder listings, no parsing. `others`: names found that are no regular file (a FIFO,
    a folder, ...): a layout that expects a file there gets it reported unreadable."""

    root: str
    root_files: tuple[str, ...]
    files: frozenset[str]
    dirs: tuple[str, ...]
    others: frozenset[str] = frozenset()
