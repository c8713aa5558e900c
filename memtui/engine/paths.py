"""Keeping every read inside the store root (SPEC §0)."""

from __future__ import annotations

import os
from operator import attrgetter

from memtui.engine.errors import MemtuiError
from memtui.i18n import msg


class StoreError(MemtuiError):
    """A store that cannot be opened at all (the CLI exits 2)."""


def resolve_root(path: str | os.PathLike[str]) -> str:
    real = os.path.realpath(os.fspath(path))
    if not os.path.isdir(real):
        raise StoreError(msg("{fspath} is not a folder", fspath=os.fspath(path)))
    return real


def is_inside(root: str, real: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


LOCK_NAME = ".memory.lock"  # shared with the agents' flock; never memory itself
CONFIG_NAME = "memtui.toml"  # memtui's own settings at the root (engine.config)
TEMP_MARK = ".memtui-"  # temp files: .<name>.memtui-<txid>.tmp, never read as memory


def is_temp_name(name: str) -> bool:
    return name.startswith(".") and TEMP_MARK in name and name.endswith(".tmp")


def subfolders(parent: str) -> list[str]:
    """parent/* as a shell glob would give them (no hidden names), sorted; none when
    parent is missing or cannot be read (looking is not an error): the usual places of
    a layout's stores (Detection.usual_places)."""
    try:
        names = sorted(os.listdir(parent))
    except OSError:
        return []
    return [os.path.join(parent, n) for n in names if not n.startswith(".")]


# Folders a layout owns; everything else below the root is not memtui's to read.
LAYOUT_DIRS = (("memory", False), ("sops", False), ("pending", False), ("archive", True))


class Scan:
    """Files found under the root, as relative paths, plus links that lead out.
    (A plain class: listing a store for `search` imports no dataclasses.)"""

    __slots__ = ("bad_names", "escapes", "files", "links", "others")

    def __init__(self) -> None:
        self.files: list[str] = []
        self.escapes: list[tuple[str, str]] = []  # (relpath, where it leads)
        self.bad_names: list[str] = []  # names that are not UTF-8, escaped
        self.links: list[str] = []  # files that are links inside the root
        # Names that are no regular file and not a folder listed here: a FIFO, a socket,
        # a folder not walked, a dangling link. Where a layout expects a file, the store
        # reports it unreadable (reader.StoreReader); nothing here is ever opened.
        self.others: list[str] = []


_NAME = attrgetter("name")


def list_files(root: str, rel_dir: str, recursive: bool, scan: Scan) -> None:
    """Add the regular files of root/rel_dir to `scan`, refusing links that leave the root."""
    abs_dir = os.path.join(root, rel_dir) if rel_dir else root
    if rel_dir and not is_inside(root, os.path.realpath(abs_dir)):
        escape = (rel_dir, os.path.realpath(abs_dir))
        if escape not in scan.escapes:  # its parent's listing may have met the link first
            scan.escapes.append(escape)
        return
    try:
        with os.scandir(abs_dir) as found:
            entries = sorted(found, key=_NAME)
    except OSError:
        return
    prefix = f"{rel_dir}/" if rel_dir else ""
    for entry in entries:  # 17,000 on a large store: each name looked up once
        name = entry.name
        rel = prefix + name
        if name[0] == "." and (is_temp_name(name) or rel == LOCK_NAME):
            continue  # the lock, or a write in progress / left by a crash: not memory
        if not name.isascii() and not _utf8(name):
            raw = rel.encode("utf-8", "surrogateescape")
            scan.bad_names.append(raw.decode("utf-8", "backslashreplace"))
            continue
        try:
            if entry.is_symlink():
                real = os.path.realpath(entry.path)
                if not is_inside(root, real):
                    scan.escapes.append((rel, real))
                    continue
                scan.links.append(rel)
            if entry.is_file():
                scan.files.append(rel)
            elif recursive and entry.is_dir(follow_symlinks=False) and name[0] != ".":
                list_files(root, rel, recursive, scan)
            else:  # the type came with the listing: no stat for it
                scan.others.append(rel)
        except OSError:
            continue


def _utf8(name: str) -> bool:
    """os.scandir turns undecodable bytes into surrogates: such a name is not UTF-8."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


Top = tuple[Scan, list[str], list[str]]  # (scan so far, root files, layout folders)


def discover_top(root: str) -> Top:
    """The root's own files, and which layout folders exist (links included)."""
    scan = Scan()
    list_files(root, "", False, scan)
    dirs = [name for name, _ in LAYOUT_DIRS if os.path.isdir(os.path.join(root, name))]
    return scan, list(scan.files), dirs


def discover(root: str, top: Top | None = None) -> Top:
    """The files a store may hold: root files and the layouts' folders."""
    scan, root_files, dirs = top or discover_top(root)
    for name, recursive in LAYOUT_DIRS:
        if name in dirs:
            list_files(root, name, recursive, scan)
    return scan, root_files, dirs
