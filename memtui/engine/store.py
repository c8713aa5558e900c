"""Opening a store: detect its layouts, parse each, collect findings, freeze a snapshot."""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from memtui.engine.config import CONFIG_NAME, Config, store_config
from memtui.engine.config import today as config_today
from memtui.engine.layouts import companion, dsh, workspace
from memtui.engine.model import LEVELS, Companion, Dsh, Finding, Workspace
from memtui.engine.paths import discover, is_inside, resolve_root
from memtui.engine.reader import Memo, StoreReader
from memtui.engine.textfile import TextFile
from memtui.engine.write.journal import pending as interrupted
from memtui.engine.write.recovery import UNAPPLIED, unapplied

LAYOUTS = ("workspace", "companion", "dsh")


@dataclass(frozen=True)
class Store:
    """One immutable snapshot of a store: safe to hand to another thread."""

    root: str
    layouts: tuple[str, ...]
    files: tuple[str, ...]  # every file found (relative), readable or not
    texts: Mapping[str, TextFile]  # the files that were read
    unreadable: Mapping[str, str]  # path -> reason
    workspace: Workspace | None
    companion: Companion | None
    dsh: Dsh | None
    findings: tuple[Finding, ...]
    config: Config
    today: dt.date
    # For the next open of this store (open_store's `previous`): what it parsed, and
    # the links out of the root it was parsed with.
    memo: Memo = field(default_factory=dict, repr=False, compare=False)
    escaped: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    def count(self, level: str) -> int:
        return sum(1 for f in self.findings if f.level == level)


def open_store(
    path: str | os.PathLike[str],
    today: dt.date | None = None,
    previous: Store | None = None,
    *,
    reopen: bool = False,
) -> Store:
    """Read a store without writing anything. Raises StoreError if it cannot be opened.

    `reopen=True` keeps what each file parsed to, so that a later
    `open_store(..., previous=this)` takes every file whose stat is unchanged from
    this snapshot instead of reading and parsing it again (the app reloads on each
    change the agent makes). The result is the same as a fresh open."""
    with _gc_paused():
        return _open(path, today, previous, reopen or previous is not None)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """A snapshot is hundreds of thousands of objects without cycles: the cyclic
    collector would walk every live object many times over while they are made
    (a quarter of the time on a large store). Reference counting still frees them."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _open(
    path: str | os.PathLike[str], today: dt.date | None, previous: Store | None, reopen: bool
) -> Store:
    root = resolve_root(path)
    scan, root_files, dirs = discover(root)
    files = frozenset(scan.files)
    config = store_config(root, files)
    escaped = frozenset(rel for rel, _ in scan.escapes)
    reader = StoreReader(root, files, escaped, config.thresholds, today or config_today())
    if reopen:
        reader.memo = {}
    if previous and (previous.root, previous.config, previous.escaped) == (root, config, escaped):
        reader.previous_texts = previous.texts
        reader.previous_memo = previous.memo
    for problem in config.problems:
        reader.findings.add("config-invalid", CONFIG_NAME, None, problem)
    for txid in interrupted(root):
        reader.findings.add(
            "txn-interrupted",
            f".history/journal/{txid}.json",
            None,
            f"change {txid} was interrupted; the next change memtui makes (or opening the app) "
            "finishes it, or undoes it if a file changed meanwhile",
        )
    for txid, rels in unapplied(root):
        reader.findings.add(
            "recovery-conflict",
            rels[0],
            None,
            f"change {txid} was interrupted, and the agent wrote {', '.join(rels)} before it "
            f"could be finished: the agent's version is kept as it is, memtui's is in "
            f"{UNAPPLIED}/{txid}/; compare them, then delete that folder",
        )
    for rel in scan.bad_names:
        reader.findings.add("unreadable", rel, None, f"{rel}: the file name is not valid UTF-8")
    for rel, real in scan.escapes:
        reader.findings.add(
            "path-escape", rel, None, f"{rel} is a link to {real}, outside the store root; not read"
        )
    found = []
    ws = cp = ds = None
    if workspace.detect(root_files):
        found.append("workspace")
        ws = workspace.parse(reader, root_files)
    if companion.detect(files):
        found.append("companion")
        cp = companion.parse(reader)
    if dsh.detect(files, dirs):
        found.append("dsh")
        ds = dsh.parse(reader)
    rank = {level: i for i, level in enumerate(LEVELS)}
    findings = sorted(
        reader.findings.items,
        key=lambda f: (rank[f.level], f.file or "", f.line or 0, f.code),
    )
    return Store(
        root=root,
        layouts=tuple(found),
        files=tuple(scan.files),
        texts=MappingProxyType(reader.texts),
        unreadable=MappingProxyType(reader.unreadable),
        workspace=ws,
        companion=cp,
        dsh=ds,
        findings=tuple(findings),
        config=config,
        today=reader.today,
        memo=MappingProxyType(reader.memo or {}),
        escaped=escaped,
    )


def no_layout(path: str) -> str:
    """Why `path` is not a store: what each layout is detected by (SPEC §1-§3)."""
    looked = "; ".join(m.LOOKS_FOR for m in (workspace, companion, dsh))
    return f"{path} holds no memory store: looked for {looked}"


def looks_like_store(path: str) -> bool:
    """A cheap test (no parsing): does `path` hold any known layout?"""
    return bool(layouts_at(path))


def layouts_at(path: str) -> tuple[str, ...]:
    """The layouts in `path`, from two folder listings (no parsing)."""
    try:
        names = os.listdir(path)
    except OSError:
        return ()
    files = frozenset(n for n in names if os.path.isfile(os.path.join(path, n)))
    memory_dir = os.path.join(path, "memory")
    inside = is_inside(os.path.realpath(path), os.path.realpath(memory_dir))
    if inside and os.path.isdir(memory_dir):
        files |= {f"memory/{n}" for n in os.listdir(memory_dir)}
    dirs = [d for d in ("sops", "pending") if os.path.isdir(os.path.join(path, d))]
    found = (workspace.detect(sorted(files)), companion.detect(files), dsh.detect(files, dirs))
    return tuple(name for name, yes in zip(LAYOUTS, found, strict=True) if yes)
