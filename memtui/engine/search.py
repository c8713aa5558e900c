"""Full-text search over a store's files, without parsing them.

Literal queries are matched on the raw bytes (UTF-8 keeps CJK byte sequences
intact, so a CJK literal never matches half a character); only lines with a
hit are decoded. Lower-case queries ignore case ("smart case").
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

from memtui.engine.config import store_config
from memtui.engine.paths import discover, resolve_root
from memtui.engine.textfile import read_bytes


@dataclass(frozen=True, slots=True)
class Hit:
    file: str
    line: int  # 1-based
    column: int  # 1-based, in characters
    text: str  # the whole line, without its line ending

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "column": self.column, "text": self.text}


class BadQuery(ValueError):
    pass


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
    root = resolve_root(root_path)
    scan, _, _ = discover(root)
    max_bytes = store_config(root, frozenset(scan.files)).thresholds.max_file_bytes
    if regex:
        try:
            pattern = re.compile(query, re.MULTILINE | (re.IGNORECASE if fold else 0))
        except re.error as exc:
            raise BadQuery(f"bad regular expression: {exc}") from None
    for rel in scan.files:
        data = _read(os.path.join(root, rel), max_bytes)
        if data is None:
            continue
        hits = _regex_hits(rel, data, pattern) if regex else _literal_hits(rel, data, query, fold)
        first = next(hits, None)
        if first is None or not _utf8(data):  # only files with a hit pay for the check
            continue
        yield first
        yield from hits


def _read(path: str, max_bytes: int) -> bytes | None:
    data = read_bytes(path, max_bytes)
    if isinstance(data, str) or b"\x00" in data:
        return None  # unreadable, too big or binary: `check` reports it
    return data


def _literal_hits(rel: str, data: bytes, query: str, fold: bool) -> Iterator[Hit]:
    needle = query.encode("utf-8")
    haystack = data
    if fold:
        if query.isascii():
            needle, haystack = needle.lower(), data.lower()
        else:
            yield from _casefold_hits(rel, data, query)
            return
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


def _regex_hits(rel: str, data: bytes, pattern: re.Pattern[str]) -> Iterator[Hit]:
    text = data.decode("utf-8", "replace")
    last_line_end = -1
    line_no, counted = 1, 0
    for match in pattern.finditer(text):
        pos = match.start()
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
