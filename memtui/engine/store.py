"""Opening a store: detect its layouts, parse each, collect findings, freeze a snapshot."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from memtui.engine.collector import gc_paused
from memtui.engine.config import CONFIG_NAME, Config, cache_enabled, store_config
from memtui.engine.config import today as config_today
from memtui.engine.detection import (  # noqa: F401 - re-exported: callers open from here
    layouts_at,
    listing,
    looks_like_store,
    no_layout,
    stores_near,
)
from memtui.engine.layouts import detectors, loaded, newly_broken
from memtui.engine.layouts.guard import LayoutSkipped
from memtui.engine.model import LEVELS, Finding
from memtui.engine.paths import StoreError, resolve_root
from memtui.engine.reader import Memo, StoreReader
from memtui.engine.scan.findings import scan_store
from memtui.engine.textfile import TextFile
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing
    from memtui.engine.paths import Scan

_NONE = object()


@dataclass(frozen=True)
class Store:
    """One immutable snapshot of a store: safe to hand to another thread."""

    root: str
    layouts: tuple[str, ...]
    files: tuple[str, ...]  # every file found (relative), readable or not
    texts: Mapping[str, TextFile]  # the files that were read
    unreadable: Mapping[str, str]  # path -> reason
    data: Mapping[str, Any]  # layout name -> what its parse gave (layouts.registry())
    findings: tuple[Finding, ...]
    config: Config
    today: dt.date
    # For the next open of this store (open_store's `previous`): what it parsed, and
    # the links out of the root it was parsed with.
    memo: Memo = field(default_factory=dict, repr=False, compare=False)
    escaped: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    # What the faces derive from this snapshot (the timeline, the outline), made once:
    # the loading worker makes them, so the UI thread only draws (Store.derived).
    _derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def derived(self, name: str, make: Callable[[], Any]) -> Any:
        """`make()`'s result for this snapshot, made on first use and kept."""
        got = self._derived.get(name, _NONE)
        if got is _NONE:
            got = self._derived[name] = make()
        return got

    def count(self, level: str) -> int:
        return sum(1 for f in self.findings if f.level == level)


def skipped_layouts() -> list[str]:
    """Why each layout skipped since the last call was, in words (layouts.newly_broken):
    what a face warns of, once a run."""
    return newly_broken()


def open_store(
    path: str | os.PathLike[str],
    today: dt.date | None = None,
    previous: Store | None = None,
    *,
    reopen: bool = False,
    cache: bool = False,
) -> Store:
    """Read a store without writing anything. Raises StoreError if it cannot be opened.

    `reopen=True` keeps what each file parsed to, so that a later
    `open_store(..., previous=this)` takes every file whose stat is unchanged from
    this snapshot instead of reading and parsing it again (the app reloads on each
    change the agent makes). The result is the same as a fresh open.
    `cache=True` does the same across processes: without a `previous`, what the last
    open of this store kept in the user's cache folder is taken as one, and this
    open is kept there in turn by engine.cache.flush() (nothing in the store is
    written)."""
    with gc_paused():
        if not (cache and cache_enabled()):
            return _open(path, today, previous, reopen or previous is not None)
        from memtui.engine import cache as kept

        root = resolve_root(path)
        listed = None
        got = None
        if previous is None:  # the cache read while the store is listed
            loading = kept.load_soon(root)
            listed = listing(root)
            got = loading()
        loaded = None
        if got is not None:  # a snapshot of nothing but what each file parsed to
            loaded = Store(
                root, (), (), got.texts, {}, {}, (), got.config, dt.date.min, got.memo, got.escaped
            )
        store = _open(path, today, previous or loaded, True, listed)
        kept.remember(store, loaded)
        return store


def _interrupted(root: str, reader: StoreReader) -> None:
    """What the write path's .history says of changes it could not finish (its modules
    are imported only for a store that has that folder: 4 ms of every open)."""
    from memtui.engine.write.journal import pending as interrupted
    from memtui.engine.write.recovery import UNAPPLIED, unapplied

    for txid in interrupted(root):
        reader.findings.add(
            "txn-interrupted",
            f".history/journal/{txid}.json",
            None,
            msg(
                "change {id} was interrupted; the next change memtui makes (or opening the "
                "app) finishes it, or undoes it if a file changed meanwhile",
                id=txid,
            ),
        )
    for txid, rels in unapplied(root):
        reader.findings.add(
            "recovery-conflict",
            rels[0],
            None,
            msg(
                "change {id} was interrupted, and the agent wrote {files} before it could be "
                "finished: the agent's version is kept as it is, memtui's is in {folder}/; "
                "compare them, then delete that folder",
                id=txid,
                files=", ".join(rels),
                folder=UNAPPLIED + "/" + txid,
            ),
        )


def _unread_known(reader: StoreReader, found: tuple[str, ...]) -> None:
    """Each file a layout found here knows as one of its own (Layout.knows) that its
    parse did not read is read now, so that one that cannot be (no regular file, a link
    out, not UTF-8, over the size limit) is reported unreadable with the reason: never
    skipped without a word, whatever its parse reads at once. Few: the names no parse
    read (a set difference), one `knows` call each."""
    done = reader.texts.keys() | reader.unreadable.keys()
    for rel in sorted((reader.files | reader.others | reader.escaped) - done):
        owner = next((name for name in found if _knows(name, rel)), None)
        if owner is not None:
            reader.findings.layout = owner
            reader.read(rel)


def _knows(name: str, rel: str) -> bool:
    found = loaded(name)
    return found is not None and found.knows(rel)


def _parse(name: str, reader: StoreReader, top: Listing) -> Any:
    """What the layout's parse gives, or _NONE when the layout is skipped (it could not
    be loaded, or its parse raised: layouts.broken() names it): then the store is read
    as if it were not there, what its parse had found taken back."""
    found = loaded(name)
    if found is None:
        return _NONE
    mark = len(reader.findings.items)
    try:
        return found.parse(reader, top)
    except LayoutSkipped:
        del reader.findings.items[mark:]
        return _NONE


def _open(
    path: str | os.PathLike[str],
    today: dt.date | None,
    previous: Store | None,
    reopen: bool,
    listed: tuple[Scan, Listing] | None = None,
) -> Store:
    root = resolve_root(path)
    scan, top = listed or listing(root)
    files = top.files
    config = store_config(root, files)
    escaped = frozenset(rel for rel, _ in scan.escapes)
    reader = StoreReader(root, files, escaped, config.thresholds, today or config_today())
    reader.others = top.others
    if reopen:
        reader.memo = {}
    if previous and (previous.root, previous.config, previous.escaped) == (root, config, escaped):
        reader.previous_texts = previous.texts
        reader.previous_memo = previous.memo
    for problem in config.problems:
        reader.findings.add("config-invalid", CONFIG_NAME, None, problem)
    if os.path.lexists(os.path.join(root, ".history")):  # else no change to report
        _interrupted(root, reader)
    for rel in scan.bad_names:
        said = msg("{file}: the file name is not valid UTF-8", file=rel)
        reader.findings.add("unreadable", rel, None, said)
    for rel, real in scan.escapes:
        reader.findings.add(
            "path-escape",
            rel,
            None,
            msg(
                "{file} is a link to {target}, outside the store root; not read",
                file=rel,
                target=real,
            ),
        )
    data = {}
    detected = [name for name, found in detectors().items() if found.detect(top)]
    for name in detected:  # a layout's detection is its detector's
        reader.findings.layout = name  # what its parse finds is its own (fixes by layout)
        parsed = _parse(name, reader, top)
        if parsed is not _NONE:
            data[name] = parsed
    if detected and not data:  # each one found was skipped: as if none were there
        raise StoreError(no_layout(root))
    _unread_known(reader, tuple(data))
    reader.findings.layout = None
    scan_store(reader)  # every layout's secrets and planted instructions, by the engine
    store = Store(
        root=root,
        layouts=tuple(data),
        files=tuple(scan.files),
        texts=MappingProxyType(reader.texts),
        unreadable=MappingProxyType(reader.unreadable),
        data=MappingProxyType(data),
        findings=(),
        config=config,
        today=reader.today,
        memo=MappingProxyType(reader.memo or {}),
        escaped=escaped,
    )
    # the rules over what each layout's agent loads (its context, made from the snapshot)
    from memtui.engine.cut_correction import findings as cut_corrections

    found = [*reader.findings.items, *cut_corrections(store, reader)]
    rank = {level: i for i, level in enumerate(LEVELS)}
    found.sort(key=lambda f: (rank[f.level], f.file or "", f.line or 0, f.code))
    return replace(store, findings=tuple(found))
