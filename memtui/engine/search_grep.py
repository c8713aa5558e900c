"""search's prefilter: grep names the files that may hold a literal, and this says which
of them are the store's, and in which order, without listing the store's big folders
(on a large store, listing 17,000 files costs Python as much as grep's whole run).

The store's files are those detection.listing() lists. Here they are known by the
same rules, another way:
- the root and memory/ (what detection looks at) are listed as listing() lists them;
- so is a folder grep is not given (one only a layout reads: a memory's
  subfolders, an agent home's memory folder), and each of its files is read;
- in a folder grep searches, a file it names is the store's where listing() would list
  it: right in a flat folder, below no hidden folder in a recursive one, under a UTF-8
  name that is no temp file, and kept by engine.home. Links, which grep -r does not
  follow, come from `find -type l`.
When grep or find is missing or in trouble, search lists the store with listing() and
reads every file grep did not name (tests/test_search_grep.py holds the two equal).
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
from collections.abc import Iterator

from memtui.engine.home import store_filter
from memtui.engine.layouts import detectors
from memtui.engine.layouts.listing import Listing
from memtui.engine.paths import LAYOUT_DIRS, Scan, Top, is_inside, is_temp_name, list_files

MANY_GREPS = 256 * 1024  # folder sizes on disk (ext4: some 8,000 entries) worth more greps
# Three, though a laptop may have two cores: Python reads beside them, and a folder's
# size on disk says little of its files' (memory/: few entries, megabytes); with three
# shares the scheduler evens them out (5 ms less on the --size 500 store than two).
GREPS = 3
# Operands a grep is given at most (bytes, with their NULs): well under the argv limit.
# More (a root of thousands of topic files) are split over more greps, never dropped
# for Python to read every file, which made search grow faster than the store.
ARGV_BYTES = 100_000


class Prefilter:
    """grep (and find, for the links) running beside Python over one store."""

    def __init__(self, root: str, top: Top) -> None:
        scan, root_files, dirs = top
        self.root = root
        memory = Scan()  # as listing() lists it: detection looks at it beside the root
        if "memory" in dirs:
            list_files(root, "memory", False, memory)
        found = Listing(root, tuple(root_files), frozenset(scan.files + memory.files), tuple(dirs))
        known = detectors().values()
        detected = [lay for lay in known if lay.detect(found)]
        self.keep = store_filter(known, detected)
        extra = dict(folder for lay in detected for folder in lay.folders(found))
        self.roots = [rel for rel in root_files if self.keep(rel)]  # grep reads these
        self.kept_roots = frozenset(self.roots)
        self.dirs = [d for d in dirs if _inside(root, d)]  # and searches these
        self.read: list[str] = [rel for rel in scan.links if self.keep(rel)]  # Python reads
        # listing()'s folders, in its order: each file's place is (folder, path in it)
        self.searched: list[tuple[int, str, bool]] = []
        folders = [(d, r) for d, r in LAYOUT_DIRS if d in dirs] + list(extra.items())
        for index, (folder, recursive) in enumerate(folders, 1):
            if folder in self.dirs or any(_below(root, folder, d) for d in self.dirs):
                self.searched.append((index, folder + "/", recursive))
            elif folder not in dirs:  # only a layout reads it: Python lists and reads it
                listed = Scan()
                list_files(root, folder, recursive, listed)
                self.read += [rel for rel in listed.files if self.keep(rel)]
                self.searched.append((index, folder + "/", recursive))
        self.greps: list[Child] = []
        self.places: dict[str, tuple[int, list[str]] | None] = {}  # place() of what grep names
        self.find: Child | None = None

    @classmethod
    def start(cls, root: str, top: Top, query: str, fold: bool) -> Prefilter | None:
        """None when grep can't say exactly (Python then reads every file)."""
        grep = shutil.which("grep")  # shutil comes with argparse: no cost of its own
        if grep is None or "\n" in query or "\x00" in query or (fold and not query.isascii()):
            return None
        plan = cls(root, top)
        argv = [grep, "-rlZF", *(["-i"] if fold else []), "-e", query, "--"]
        room = ARGV_BYTES - sum(len(a.encode()) + 1 for a in argv)
        env = {**os.environ, "LC_ALL": "C"}  # bytes, and -i folds ASCII only, as search does
        # Without a file grep would search the whole root: an empty share gets no grep.
        shares = [piece for share in plan.shares() for piece in _fitting(share, room)]
        if any(sum(len(o.encode()) + 1 for o in piece) > room for piece in shares):
            return None  # one name longer than the room: Python reads everything instead
        plan.greps = [_run(root, [*argv, *share], env) for share in shares if share]
        find = shutil.which("find")
        if None in plan.greps or find is None:
            plan.stop()
            return None
        if plan.dirs:
            plan.find = _run(root, [find, "-H", *plan.dirs, "-type", "l", "-print0"], None)
            if plan.find is None:
                plan.stop()
                return None
        return plan

    def files(self) -> Iterator[str]:
        """The store's files that may hold the literal, each once: first those Python
        reads anyway (links, folders grep does not search), then each file grep names
        as it names it, then the links in the folders it searched."""
        seen = set(self.read)
        yield from self.read
        for rel in _names(self.greps):
            if rel in seen:
                continue
            seen.add(rel)
            self.places[rel] = place = self.place(rel)
            if place is not None:
                yield rel
        for rel in _names([self.find] if self.find else []):
            if rel not in seen and self._linked_file(rel):
                seen.add(rel)
                yield rel

    def vouched(self) -> bool:
        """Whether grep and find ran to the end without trouble (grep exits 2 on a file
        it cannot read, find on a folder)."""
        grep_ok = all(grep.wait() in (0, 1) for grep in self.greps)
        return grep_ok and (self.find is None or self.find.wait() == 0)

    def shares(self) -> list[list[str]]:
        """What grep searches, in GREPS shares of about the same size when the store is
        big enough for several greps to finish sooner than one (a folder's own size on
        disk grows with its entries: the weight)."""
        weighed = [(_size(self.root, d), [d]) for d in self.dirs]
        weighed.append((_size(self.root, ""), self.roots))  # the root's files: one share
        if sum(weight for weight, _ in weighed) < MANY_GREPS:
            return [[*self.roots, *self.dirs]]
        shares: list[tuple[int, list[str]]] = [(0, []) for _ in range(GREPS)]
        for weight, operands in sorted(weighed, key=lambda w: -w[0]):
            shares.sort(key=lambda s: s[0])
            shares[0] = (shares[0][0] + weight, shares[0][1] + operands)
        return [operands for _, operands in shares]

    def place(self, rel: str) -> tuple[int, list[str]] | None:
        """Where listing() lists `rel` (its folder's rank, then the path in it), or None
        when it does not list it."""
        if "/" not in rel:
            return (0, [rel]) if rel in self.kept_roots else None
        name = rel.rpartition("/")[2]
        if (name[0] == "." and is_temp_name(name)) or not _utf8(rel) or not self.keep(rel):
            return None
        for index, folder, recursive in self.searched:
            if rel.startswith(folder):
                inner = rel[len(folder) :].split("/")
                if (len(inner) == 1) if not recursive else all(p[0] != "." for p in inner[:-1]):
                    return index, inner
        return None

    def order(self, rel: str) -> tuple[int, list[str]]:
        return self.places.get(rel) or self.place(rel) or (0, [rel])

    def stop(self) -> None:
        for proc in [*self.greps, self.find]:
            if proc is not None:
                proc.stop()

    def _linked_file(self, rel: str) -> bool:
        """A link listing() lists: in its place, leading inside the root, to a file."""
        path = os.path.join(self.root, rel)
        real = os.path.realpath(path)
        return self.place(rel) is not None and is_inside(self.root, real) and os.path.isfile(path)


class Child:
    """grep or find, run in the root, its output read here. Started by os.posix_spawn
    through `sh -c 'cd …'`, not subprocess: importing subprocess (its threads, selectors
    and signals) cost every search 4 ms before grep could start."""

    def __init__(self, pid: int, out: int) -> None:
        self.pid = pid
        self.out = out  # the read end of its standard output
        self.status: int | None = None

    def wait(self, flags: int = 0) -> int | None:
        """Its exit status (2 if it could not change to the root), None while it runs
        with os.WNOHANG."""
        if self.status is None:
            try:
                pid, status = os.waitpid(self.pid, flags)
            except ChildProcessError:  # reaped by someone else: its word is lost
                pid, status = self.pid, 2 << 8
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status

    def stop(self) -> None:
        if self.wait(os.WNOHANG) is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            self.wait()
        if self.out >= 0:
            os.close(self.out)
            self.out = -1


def _fitting(operands: list[str], room: int) -> list[list[str]]:
    """`operands` in order, cut into pieces of at most `room` bytes of argv each."""
    pieces: list[list[str]] = [[]]
    used = 0
    for operand in operands:
        size = len(operand.encode()) + 1
        if pieces[-1] and used + size > room:
            pieces.append([])
            used = 0
        pieces[-1].append(operand)
        used += size
    return pieces


def _run(root: str, argv: list[str], env: dict[str, str] | None) -> Child | None:
    read, write = os.pipe()
    try:
        pid = os.posix_spawn(
            "/bin/sh",
            ["sh", "-c", 'cd -- "$0" || exit 2; exec "$@"', root, *argv],
            os.environ if env is None else env,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, write, 1),
                (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
            ],
            setsigdef=(signal.SIGPIPE,),  # Python ignores it; grep and find must not
        )
    except OSError:
        os.close(read)
        return None
    finally:
        os.close(write)
    return Child(pid, read)


def _names(procs: list[Child]) -> Iterator[str]:
    """The NUL-ended paths the processes print, as they print them (grep fills its
    pipe a block at a time: --line-buffered cost a search 10% more CPU in wake-ups)."""
    poller = select.poll()
    rest: dict[int, bytes] = {}
    for proc in procs:
        rest[proc.out] = b""
        poller.register(proc.out, select.POLLIN)
    while rest:
        for fd, _event in poller.poll():
            chunk = os.read(fd, 1 << 16)
            if not chunk:  # it is done
                poller.unregister(fd)
                del rest[fd]
                continue
            *done, rest[fd] = (rest[fd] + chunk).split(b"\0")
            for name in done:
                yield os.fsdecode(name)


def _size(root: str, folder: str) -> int:
    try:
        return os.stat(os.path.join(root, folder)).st_size
    except OSError:
        return 0


def _inside(root: str, folder: str) -> bool:
    return is_inside(root, os.path.realpath(os.path.join(root, folder)))


def _below(root: str, folder: str, searched: str) -> bool:
    """Whether grep -r reaches `folder` inside `searched` (no link between them)."""
    if not folder.startswith(searched + "/"):
        return False
    real = os.path.realpath(os.path.join(root, searched))
    return os.path.realpath(os.path.join(root, folder)) == os.path.join(
        real, folder[len(searched) + 1 :]
    )


def _utf8(rel: str) -> bool:
    """os.fsdecode turns undecodable bytes into surrogates: such a name is not UTF-8."""
    if rel.isascii():
        return True
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
