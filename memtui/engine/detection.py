"""Which layouts a folder holds and which files under it are the store's, before any
is read: folder listings and each layout's detection alone (layouts.detectors()), no
parser imported. Opening, searching and `memtui stores` all list a store here."""

from __future__ import annotations

import os

from memtui.engine.home import keep_store_files
from memtui.engine.layouts import detectors
from memtui.engine.layouts.listing import Listing
from memtui.engine.paths import LAYOUT_DIRS, Scan, Top, discover, is_inside, list_files
from memtui.i18n import Msg, msg


def listing(root: str, top: Top | None = None) -> tuple[Scan, Listing]:
    """Every file the store holds, before one is read: the root's own, the shared layout
    folders' (paths.LAYOUT_DIRS) and those of the folders its layouts read beyond them
    (Layout.folders: a memory's subfolders, an agent home's memory folder, ...). Opening and
    searching both list a store here, so search sees every file the store has. In an
    agent's whole home that is only the files its layouts read as memory, and never is
    a root dotfile no layout reads (engine.home)."""
    scan, root_files, dirs = discover(root, top)
    others = frozenset(scan.others)
    found = Listing(root, tuple(root_files), frozenset(scan.files), tuple(dirs), others)
    known = detectors().values()
    detected = [lay for lay in known if lay.detect(found)]
    extra = [(d, r) for lay in detected for d, r in lay.folders(found)]
    for folder, recursive in dict(extra).items():
        list_files(root, folder, recursive, scan)
    keep_store_files(scan, known, detected, (d for d, _ in extra))
    kept = frozenset(scan.files)
    mine = tuple(f for f in root_files if f in kept)
    return scan, Listing(root, mine, kept, tuple(dirs), frozenset(scan.others))


def no_layout(path: str) -> str:
    """Why `path` is not a store: what each layout is detected by (SPEC §1-§3)."""
    from memtui.engine.words import clauses  # a store that opens never needs it

    looked = clauses([Msg(lay.looks_for) for lay in detectors().values()])
    return msg("{path} holds no memory store: looked for {looked}", path=path, looked=looked)


def looks_like_store(path: str) -> bool:
    """A cheap test (no parsing): does `path` hold any known layout?"""
    return bool(layouts_at(path))


def layouts_at(path: str) -> tuple[str, ...]:
    """The layouts in `path`, from two folder listings (no parsing)."""
    try:
        with os.scandir(path) as entries:
            files = frozenset(e.name for e in entries if _is_file(e))
    except OSError:
        return ()
    real = os.path.realpath(path)
    known = detectors()
    for sub in dict.fromkeys(p for det in known.values() for p in det.peeks):
        folder = os.path.join(path, sub)
        if is_inside(real, os.path.realpath(folder)) and os.path.isdir(folder):
            files |= {f"{sub}/{n}" for n in os.listdir(folder)}
    dirs = [d for d, _ in LAYOUT_DIRS if os.path.isdir(os.path.join(path, d))]
    top = Listing(path, tuple(sorted(f for f in files if "/" not in f)), files, tuple(dirs))
    return tuple(name for name, lay in known.items() if lay.detect(top))


def _is_file(entry: os.DirEntry[str]) -> bool:
    """os.path.isfile without a stat per name (the type comes with the listing)."""
    try:
        return entry.is_file()
    except OSError:
        return False


def stores_near(root: str) -> list[tuple[str, tuple[str, ...]]]:
    """(path, layouts) of the stores one folder below `root` and of the folder above
    it: what the app offers to open next (the demo's other stores beside its first)."""
    try:
        names = sorted(n for n in os.listdir(root) if not n.startswith("."))
    except OSError:
        names = []
    paths = [os.path.join(root, n) for n in names if os.path.isdir(os.path.join(root, n))]
    paths.append(os.path.dirname(root.rstrip(os.sep)) or root)
    found = [(p, layouts_at(p)) for p in paths if os.path.realpath(p) != os.path.realpath(root)]
    return [(p, layouts) for p, layouts in found if layouts]


def default_stores() -> list[str]:
    """The stores a layout opens when none is given and the current folder is none
    (Detection.default_store, SPEC §6), as written (under `~`)."""
    return [d.default_store for d in detectors().values() if d.default_store]


def default_store() -> str | None:
    """The first of default_stores() that exists, its `~` expanded; None: none does."""
    found = (os.path.expanduser(p) for p in default_stores())
    return next((p for p in found if os.path.isdir(p)), None)


def default_said() -> str:
    """The default, for a --store help: `this folder if it is a store, else …`."""
    stores = " or ".join(default_stores())
    return "this folder if it is a store" + (f", else {stores}" if stores else "")
