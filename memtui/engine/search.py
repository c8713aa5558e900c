"""Full-text search over a store's files, without parsing them.

Literal queries are matched on the raw bytes (UTF-8 keeps CJK byte sequences
intact, so a CJK literal never matches half a character); only lines with a
hit are decoded. Lower-case queries ignore case ("smart case").

Python pays ~8 µs a file just to open and read it, which on a 17,000-file
store is as much as grep's whole run. So when grep is installed, a literal
search first asks `grep -rlF` which files can match (a superset: it works on
bytes, like the exact pass) and reads only those, each as grep names it, while
grep goes on; search_grep says which of them are the store's, in its order,
without listing the store's big folders. The hits come in the store's file order.

No `from __future__ import annotations`: the Hit NamedTuple would compile each
string annotation at every start of `memtui search`.
"""

import os
import re
from collections.abc import Iterator
from typing import NamedTuple

from memtui.engine.config import store_config
from memtui.engine.detection import listing
from memtui.engine.errors import MemtuiError
from memtui.engine.paths import discover_top, resolve_root
from memtui.engine.rawfile import read_bytes
from memtui.engine.search_grep import Prefilter
from memtui.i18n import msg


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
        raise BadQuery(msg("the search query is empty"))
    fold = query == query.lower() if ignore_case is None else ignore_case
    pattern = _pattern(query, fold) if regex else None
    root = resolve_root(root_path)
    top = discover_top(root)
    grep = None if regex else Prefilter.start(root, top, query, fold)  # runs beside us
    try:
        max_bytes = store_config(root, frozenset(top[1])).thresholds.max_file_bytes
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

        got: dict[str, list[Hit]] = {}
        if grep is not None:
            got = {rel: hits_of(rel) for rel in grep.files()}
            if grep.vouched():
                for rel in sorted((rel for rel, hits in got.items() if hits), key=grep.order):
                    yield from got[rel]
                return
        # Without grep (or if it could not vouch for its list): every file of the store,
        # as open_store lists them, but those already read.
        scan, _listed = listing(root, top)
        for rel in scan.files:
            yield from got[rel] if rel in got else hits_of(rel)
    finally:
        if grep is not None:
            grep.stop()


def _pattern(query: str, fold: bool) -> re.Pattern[str]:
    try:
        return re.compile(query, re.MULTILINE | (re.IGNORECASE if fold else 0))
    except re.error as exc:
        raise BadQuery(msg("bad regular expression: {exc}", exc=exc)) from None


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
