"""Full-text search over a store's files, without parsing them.

Literal queries are matched on the raw bytes (UTF-8 keeps CJK byte sequences
intact, so a CJK literal never matches half a character); only lines with a
hit are decoded. Lower-case queries ignore case ("smart case").

Python pays ~8 µs a file just to open and read it, which on a 17,000-file
store is as much as grep's whole run. So when grep is installed, a literal
search first asks `grep -rlF` which files can match (a superset: it works on
bytes, like the exact pass) and reads only those, each as grep names it, while
grep goes on; the hits still come in the store's file order.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from itertools import filterfalse
from operator import methodcaller
from typing import NamedTuple

from memtui.engine.config import store_config
from memtui.engine.detection import listing
from memtui.engine.errors import MemtuiError
from memtui.engine.home import store_filter
from memtui.engine.layouts import detectors
from memtui.engine.layouts.base import Listing
from memtui.engine.paths import Scan, Top, discover_top, is_inside, resolve_root
from memtui.engine.rawfile import read_bytes


class Hit(NamedTuple):
    file: str
    line: int  # 1-based
    column: int  # 1-based, in characters
    text: str  # the whole line, without its line ending

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "column": self.column, "text": self.text}


class BadQuery(MemtuiError, ValueError):
    """A query that cannot be searched for (an invalid regex, say)."""


def search(
    root_path: str | os.PathLike[str],
    query: str,
    *,
    regex: bool = False,
    ignore_case: bool | None = None,
) -> Iterator[Hit]:
    """Hits in file order, one per matching line. `ignore_case=None` is smart case.

    Files `check` calls unreadable (binary, not UTF-8, over the size limit of
    memtui.toml) are skipped, as are links out of the root.
    """

    if not query:
        raise BadQuery("the search query is empty")
    fold = query == query.lower() if ignore_case is None else ignore_case
    pattern = _pattern(query, fold) if regex else None
    root = resolve_root(root_path)
    top = discover_top(root)
    grep = None if regex else _Grep.start(root, top, query, fold)  # runs beside the scan
    try:
        scan, listed = listing(root, top)  # every layout's files, as open_store lists them
        max_bytes = store_config(root, listed.files).thresholds.max_file_bytes

        needle = query.encode("utf-8")

        def hits_of(rel: str) -> list[Hit]:
            data = read_bytes(os.path.join(root, rel), max_bytes)
            if isinstance(data, str) or b"\x00" in data:
                return []  # unreadable, too big or binary: `check` reports it
            if pattern is None and fold:
                found = _folded_hits(rel, data, query)
                first = next(found, None)
                if first is None or not _utf8(data):  # only files with a hit pay for the check
                    return []
                return [first, *found]
            if pattern is None and needle not in data:
                return []
            try:  # a file with a hit is decoded once: the check, the lines and the columns
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                return []  # not UTF-8: `check` reports it
            if pattern is None:
                return list(_line_hits(rel, text, _finds(text, query)))
            return list(_line_hits(rel, text, (m.start() for m in pattern.finditer(text))))

        if grep is None:
            for rel in scan.files:
                yield from hits_of(rel)
            return
        # What grep does not read (links, folders only a layout reads) is read while it
        # runs; then each file it names, as it names it; and all the rest if it failed.
        got = {rel: hits_of(rel) for rel in grep.unsearched(scan, listed.files)}
        for rel in grep.names():
            if rel in listed.files and rel not in got:
                got[rel] = hits_of(rel)
        if not grep.trusted():
            got.update((rel, hits_of(rel)) for rel in scan.files if rel not in got)
    finally:
        if grep is not None:
            grep.stop()
    for rel in scan.files:
        hits = got.get(rel)
        if hits:
            yield from hits


def _pattern(query: str, fold: bool) -> re.Pattern[str]:
    try:
        return re.compile(query, re.MULTILINE | (re.IGNORECASE if fold else 0))
    except re.error as exc:
        raise BadQuery(f"bad regular expression: {exc}") from None


class _Grep:
    """`grep -rlZF` naming the files that may hold a literal (a superset: it works on
    bytes, like the exact pass), as it finds them."""

    def __init__(self, proc: subprocess.Popen[bytes], roots: frozenset[str], dirs: tuple[str, ...]):
        self.proc = proc
        self.roots = roots  # the root files it was given
        self.below = tuple(d + "/" for d in dirs)  # the folders it searches through

    @classmethod
    def start(cls, root: str, top: Top, query: str, fold: bool) -> _Grep | None:
        """None when grep can't say exactly (Python then reads every file)."""
        grep = shutil.which("grep")  # shutil comes with argparse: no cost of its own
        if grep is None or "\n" in query or "\x00" in query or (fold and not query.isascii()):
            return None
        dirs = top[2]
        roots = _store_roots(root, top)
        inside = [d for d in dirs if is_inside(root, os.path.realpath(os.path.join(root, d)))]
        argv = [grep, "-rlZF", "--line-buffered", *(["-i"] if fold else []), "-e", query, "--"]
        argv += [*roots, *inside]
        if sum(len(a) + 1 for a in argv) > 100_000:
            return None  # keep well under the argv limit; Python reads everything instead
        try:
            proc = subprocess.Popen(
                argv,
                cwd=root,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env={**os.environ, "LC_ALL": "C"},  # bytes, and -i folds ASCII only, as we do
            )
        except OSError:
            return None
        return cls(proc, frozenset(roots), tuple(inside))

    def unsearched(self, scan: Scan, files: frozenset[str]) -> set[str]:
        """The store's files grep does not read: links (grep -r does not follow them), a
        root file it was not given, and those of folders only a layout reads (a Claude
        memory's subfolders, Hermes' memories/)."""
        below = methodcaller("startswith", self.below)
        outside = set(filterfalse(below, scan.files))  # C-speed over 17,000 names
        outside.difference_update(self.roots)
        outside.update(rel for rel in scan.links if rel in files)  # not a link to a folder
        return outside

    def names(self) -> Iterator[str]:
        """The files grep names, each as soon as it does (--line-buffered)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        rest = b""
        while chunk := os.read(fd, 1 << 16):
            *done, rest = (rest + chunk).split(b"\0")
            for name in done:
                yield os.fsdecode(name)

    def trusted(self) -> bool:
        """Whether grep ran to the end without trouble (2: an unreadable file, ...)."""
        return self.proc.wait() in (0, 1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def _store_roots(root: str, top: Top) -> list[str]:
    """The root files that are the store's, guessed before the listing (what grep is
    given): no root dotfile a layout does not read, and in an agent's home only its
    memory (never Hermes' state.db). What the guess leaves out, Python reads."""
    _scan, root_files, dirs = top
    files = set(root_files)
    memory = os.path.join(root, "memory")
    if "memory" in dirs and is_inside(root, os.path.realpath(memory)):
        with contextlib.suppress(OSError):
            files.update(f"memory/{name}" for name in os.listdir(memory))
    quick = Listing(root, tuple(root_files), frozenset(files), tuple(dirs))
    known = detectors().values()
    keep = store_filter(known, [lay for lay in known if lay.detect(quick)])
    return [rel for rel in root_files if keep(rel)]


def _folded_hits(rel: str, data: bytes, query: str) -> Iterator[Hit]:
    """Case-insensitive hits: an ASCII query on the bytes (ASCII folded only, as grep -i
    in the C locale), any other line by line on the decoded text."""
    if not query.isascii():
        yield from _casefold_hits(rel, data, query)
        return
    needle, haystack = query.encode("ascii").lower(), data.lower()
    pos = haystack.find(needle)
    line_no, counted = 1, 0
    while pos >= 0:
        start = data.rfind(b"\n", 0, pos) + 1
        end = data.find(b"\n", pos)
        end = len(data) if end < 0 else end
        line_no += data.count(b"\n", counted, start)
        counted = start
        yield _hit(rel, line_no, data[start:end], pos - start)
        pos = haystack.find(needle, end)


def _casefold_hits(rel: str, data: bytes, query: str) -> Iterator[Hit]:
    """Case-insensitive match of a non-ASCII query, line by line on the decoded text."""
    folded = query.casefold()
    text = data.decode("utf-8", "replace")
    for index, line in enumerate(text.split("\n")):
        col = line.casefold().find(folded)
        if col >= 0:
            yield Hit(rel, index + 1, col + 1, _clean(line))


def _finds(text: str, query: str) -> Iterator[int]:
    pos = text.find(query)
    while pos >= 0:
        yield pos
        pos = text.find(query, pos + 1)


def _line_hits(rel: str, text: str, starts: Iterator[int]) -> Iterator[Hit]:
    """One hit per line: the first of `starts` (match offsets, ascending) on each."""
    last_line_end = -1
    line_no, counted = 1, 0
    for pos in starts:
        if pos <= last_line_end:
            continue
        start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        line_no += text.count("\n", counted, start)
        counted = start
        last_line_end = end
        yield Hit(rel, line_no, pos - start + 1, _clean(text[start:end]))


def _hit(rel: str, line_no: int, line: bytes, byte_col: int) -> Hit:
    column = len(line[:byte_col].decode("utf-8", "replace")) + 1
    return Hit(rel, line_no, column, _clean(line.decode("utf-8", "replace")))


def _clean(line: str) -> str:
    return line[:-1] if line.endswith("\r") else line


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
