"""Which files found under a root are the store's: never a secret beside the memory.

An agent's home folder (`~/.<agent>`) may be the store: its API keys (`.env`,
`auth.json`), a SQLite `state.db`, sessions, logs, skills and lock files sit beside
its memory. A layout whose root is such a home says which files under it are memory
(`Detection.home`, `is_memory`); when every layout found in a root says so, the store
is those files only: nothing else is read, listed, searched, counted or shown. A root
that also holds a memory-folder layout keeps showing every file found, unknown ones
raw, except a root dotfile no layout reads (`Detection.dotfiles`, such as a mood
file's aux state): a dotfile at the root is where `.env` and its kind live.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from memtui.engine.paths import CONFIG_NAME

if TYPE_CHECKING:
    from memtui.engine.layouts.base import Detection as Layout
    from memtui.engine.paths import Scan


def store_filter(known: Iterable[Layout], found: Sequence[Layout]) -> Callable[[str], bool]:
    """Whether a file found is the store's, given every layout `known` and those `found`
    in this root."""
    dotfiles = frozenset(name for lay in known for name in lay.dotfiles)
    tests = [lay.is_memory for lay in found]
    home = is_home(found)

    def keep(rel: str) -> bool:
        if rel[:1] == "." and "/" not in rel and rel not in dotfiles:
            return False
        return not home or rel == CONFIG_NAME or any(test(rel) for test in tests)

    return keep


def is_home(found: Sequence[Layout]) -> bool:
    """Whether the root is an agent's whole home: every layout found is one (Detection.home)
    and says what is memory."""
    return bool(found) and all(lay.home for lay in found)


def keep_store_files(
    scan: Scan, known: Iterable[Layout], found: Sequence[Layout], folders: Iterable[str] = ()
) -> None:
    """Drop from `scan` what is not the store's: no finding names it either (a link out
    or an undecodable name among an agent's logs is not memtui's business). A folder the
    layouts read (`folders`, or one holding it) that links out is the store's: reported."""
    keep = store_filter(known, found)
    read = tuple(folders)

    def holds_memory(rel: str) -> bool:
        return keep(rel) or any(f == rel or f.startswith(rel + "/") for f in read)

    if is_home(found):
        scan.files[:] = [rel for rel in scan.files if keep(rel)]
    else:  # only a root dotfile can go: no call for each of 17,000 other files
        scan.files[:] = [rel for rel in scan.files if rel[:1] != "." or keep(rel)]
    scan.links[:] = [rel for rel in scan.links if keep(rel)]
    scan.escapes[:] = [(rel, real) for rel, real in scan.escapes if holds_memory(rel)]
    scan.bad_names[:] = [rel for rel in scan.bad_names if keep(rel)]
    scan.others[:] = [rel for rel in scan.others if keep(rel)]


def keeps(store: object) -> Callable[[str], bool]:
    """Whether a path under this snapshot's root is the store's (store_filter for the
    layouts it holds), made once per snapshot: the watcher asks it of every change, so
    an agent home's state.db or logs do not reload the store."""
    from memtui.engine.layouts import detectors

    def make() -> Callable[[str], bool]:
        known = detectors()
        found = [known[name] for name in getattr(store, "layouts", ()) if name in known]
        return store_filter(known.values(), found)

    return store.derived("keeps", make)  # type: ignore[attr-defined]
