"""What a layout parser may use: safe reads inside the root, and the findings sink."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from stat import S_ISREG
from typing import Any, TypeVar

from memtui.engine.config import Thresholds
from memtui.engine.findings import Findings
from memtui.engine.markdown import Fences, fences
from memtui.engine.model import Finding
from memtui.engine.paths import LAYOUT_DIRS, is_inside
from memtui.engine.rawfile import never_shown, not_a_file, stamp_of
from memtui.engine.records import maker
from memtui.engine.textfile import BOM, TextFile, Unreadable, read_file, unchanged
from memtui.i18n import msg

SCANNED_DIRS = frozenset(["", *(name for name, _ in LAYOUT_DIRS)])
LINK_OUT = "a link that leads outside the store root (not followed)"

T = TypeVar("T")
# What one file parsed to, and the findings that parse reported: (kind, path) ->
# (the text it was parsed from, the result, the findings).
Memo = Mapping[tuple[str, str], tuple[TextFile, Any, tuple[Finding, ...]]]


@dataclass(slots=True)
class StoreReader:
    root: str
    files: frozenset[str]  # every regular file found under the root (relative paths)
    escaped: frozenset[str]  # links found under the root that lead out of it
    thresholds: Thresholds
    today: dt.date
    findings: Findings = field(default_factory=Findings)
    texts: dict[str, TextFile] = field(default_factory=dict)
    unreadable: dict[str, str] = field(default_factory=dict)
    # The previous snapshot of this store (same settings), to reuse what has not changed.
    previous_texts: Mapping[str, TextFile] = field(default_factory=dict)
    previous_memo: Memo = field(default_factory=dict)
    # Filled only when the snapshot is to be reopened (the app): it costs memory.
    memo: dict[tuple[str, str], tuple[TextFile, Any, tuple[Finding, ...]]] | None = None
    others: frozenset[str] = frozenset()  # names found that are no regular file (Listing)
    # Files read that their agent never reads: what a layout archives into (read_archive).
    archives: set[str] = field(default_factory=set)
    # The bytes of each file read the usual way (plain_text), kept for the scan of every
    # file at the end of the open (scan/findings.py), which then encodes none again.
    raw: dict[str, bytes] = field(default_factory=dict)

    def exists(self, rel: str) -> bool:
        """Whether something is there: a file, or what stands in its place (a FIFO, a
        folder), which `read` then reports as unreadable."""
        return rel in self.files or rel in self.others

    def read(self, rel: str) -> TextFile | None:
        """The file's text, or None (reported as `unreadable` once) when it can't be used."""
        if rel in self.texts:
            return self.texts[rel]
        if rel in self.unreadable:
            return None
        if rel not in self.files:
            self._not_a_file(rel)
            return None
        path = f"{self.root}/{rel}"  # rel is one of self.files: relative, normalised
        old = self.previous_texts.get(rel)
        if old is not None and unchanged(path, old.stamp):
            self.texts[rel] = old
            return old
        limit = self.thresholds.max_file_bytes
        got = plain_text(path, rel, limit, self.raw) or read_file(path, rel, limit)
        if isinstance(got, Unreadable):
            self._cannot(rel, got.reason)
            return None
        self.texts[rel] = got
        return got

    def _not_a_file(self, rel: str) -> None:
        """A name a layout reads that the listing found as no regular file: why, from a
        stat (never an open: a FIFO would hang the read). A link out is reported by the
        listing (`path-escape`): only its reason is kept. Nothing there: nothing said."""
        if rel in self.escaped:
            self.unreadable[rel] = LINK_OUT
        elif rel in self.others:
            why = not_a_file(f"{self.root}/{rel}")
            if why is not None:
                self._cannot(rel, why)

    def _cannot(self, rel: str, reason: str) -> None:
        self.unreadable[rel] = reason
        v = {"file": rel, "reason": reason}
        self.findings.add(
            "unreadable",
            rel,
            None,
            msg("{file} is {reason}; shown raw (bad bytes as \\xNN), never written", **v)
            if reason.startswith("not valid UTF-8")
            else never_shown(rel, reason),
        )

    def read_first(self, rels: Iterable[str]) -> list[TextFile | None]:
        """Read these files now, each before any is parsed: thousands of reads in a row
        and then their parses run about a sixth faster than a read and a parse in turn
        (the system calls between them push the parser's data out of the CPU caches).
        Their texts, as `read` gives them: the usual file (new to this reader, plain
        UTF-8) the quick way, plain_text; any other through `read`."""
        texts, files, unreadable = self.texts, self.files, self.unreadable
        previous = self.previous_texts
        limit, root, raw = self.thresholds.max_file_bytes, self.root, self.raw
        got: list[TextFile | None] = []
        for rel in rels:
            tf = texts.get(rel)
            if tf is None and rel in files and rel not in unreadable and rel not in previous:
                tf = plain_text(f"{root}/{rel}", rel, limit, raw)
                if tf is not None:
                    texts[rel] = tf
            got.append(tf if tf is not None else self.read(rel))
        return got

    def fences(self, tf: TextFile) -> Fences:
        """The file's fenced code blocks; a fence never closed is reported."""
        found = fences(tf.text)
        if found.unclosed is not None:
            self.findings.add(
                "fence-unclosed",
                tf.path,
                found.unclosed,
                msg(
                    "the code fence on line {line} is never closed: memtui reads the "
                    "headings after it as headings, a Markdown viewer shows them as code",
                    line=found.unclosed,
                ),
            )
        return found

    def parsed(self, kind: str, tf: TextFile, parse: Callable[[], T]) -> T:
        """`parse()` of one file, or what it gave last time when the file is the very
        text read then (reused unchanged); its findings are reported again either way.
        `parse` must depend only on that file's text (and on the store's settings)."""
        if self.memo is None:
            return parse()
        key = (kind, tf.path)
        old = self.previous_memo.get(key)
        if old is not None and old[0] is tf:
            self.memo[key] = old
            self.findings.items.extend(old[2])
            return old[1]  # type: ignore[no-any-return]
        mark = len(self.findings.items)
        result = parse()
        self.memo[key] = (tf, result, tuple(self.findings.items[mark:]))
        return result

    def read_archive(self, rel: str) -> TextFile | None:
        """`read(rel)` of a file a layout archives entries into, which its agent never
        reads: the scan for secrets and planted text leaves it out (scan/findings.py),
        so archiving a planted entry clears its finding."""
        self.archives.add(rel)
        return self.read(rel)

    def kept(self, kind: str, tf: TextFile) -> bool:
        """Whether `parsed(kind, tf, ...)` will give what the previous snapshot parsed
        (a scan over many files at once leaves those out)."""
        old = self.previous_memo.get((kind, tf.path)) if self.memo is not None else None
        return old is not None and old[0] is tf

    def earlier(self, kind: str, rel: str) -> tuple[TextFile, Any] | None:
        """What `rel` parsed to in the previous snapshot, and the text it was parsed
        from (for a parse that can reuse part of it: an append)."""
        old = self.previous_memo.get((kind, rel)) if self.memo is not None else None
        return None if old is None else (old[0], old[1])

    def escapes(self, base_dir: str, ref: str) -> bool:
        """Whether a reference written in a file leads outside the root."""
        if not ref or ref.startswith(("/", "~", "\\")) or "\x00" in ref or ":" in ref[:3]:
            return True
        if "/" not in ref and ref not in (".", "..") and base_dir in SCANNED_DIRS:
            # One file name in a folder the scan vetted (a sop target): no path to work out.
            return (f"{base_dir}/{ref}" if base_dir else ref) in self.escaped
        return self._escapes_by_path(base_dir, ref)

    def _escapes_by_path(self, base_dir: str, ref: str) -> bool:
        joined = os.path.normpath(os.path.join(base_dir, ref))
        if joined == ".." or joined.startswith(("../", "/")):
            return True
        if joined in self.escaped:
            return True
        parent = os.path.dirname(joined)
        if joined in self.files or parent in SCANNED_DIRS:
            return False  # the scan already vetted every link in these folders
        return not is_inside(self.root, os.path.realpath(os.path.join(self.root, joined)))


_FLAGS = os.O_RDONLY | os.O_NONBLOCK  # a FIFO must not hang us (rawfile.read_raw)
_new_text = maker(TextFile)


def plain_text(
    path: str, rel: str, limit: int, keep: dict[str, bytes] | None = None
) -> TextFile | None:
    """What read_file gives for the usual file (regular, within `limit`, unchanged
    while read, UTF-8 without a NUL or BOM), read with a Python step per file less:
    15,000 sops and candidates on a large store. None for any other file, which
    read_file then reads and says what is wrong with. Its bytes go into `keep`."""
    try:
        fd = os.open(path, _FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if info.st_size > limit or not S_ISREG(info.st_mode):
            return None
        raw = os.read(fd, info.st_size + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(raw) > info.st_size or b"\x00" in raw or raw.startswith(BOM):
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if keep is not None:
        keep[rel] = raw
    return _new_text(rel, text, False, len(raw), stamp_of(info), None)
