"""Full-text search over a store's files, without parsing them.

Literal queries are matched on the raw bytes (UTF-8 keeps CJK byte sequences
intact, so a CJK literal never matches half a character); only lines with a
hit are decoded. Lower-case queries ignore case ("smart case").

Python pays ~8 µs a file just to open and read it, which on a 17,000-file
store is as much as grep's whole run. So when grep is installed, a literal
search first asks `grep -rlF` which files can match (a superset: it works on
bytes, like the exact pass) and reads only those.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

from memtui.engine.config import store_config
from memtui.engine.errors import MemtuiError
from memtui.engine.paths import Top, discover_top, is_inside, resolve_root
from memtui.engine.detection import listing
from memtui.engine.textfile import read_bytes


@dataclass(frozen=True, slots=True)
class Hit:
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
    root = resolve_root(root_path)
    top = discover_top(root)
    grep = None if regex else _start_grep(root, top, query, fold)  # runs beside the scan
    scan, listed = listing(root, top)  # every layout's files, as open_store lists them
    max_bytes = store_config(root, listed.files).thresholds.max_file_bytes
    if regex:
        try:
            pattern = re.compile(query, re.MULTILINE | (re.IGNORECASE if fold else 0))
        except re.error as exc:
            raise BadQuery(f"bad regular expression: {exc}") from None
    files = scan.files
    maybe = _grep_result(grep)
    if maybe is not None:
        maybe.update(scan.links)  # grep -r does not look inside links
        maybe.update(_not_grepped(scan.files, top))
        files = [rel for rel in files if rel in maybe]
    for rel in files:
        data = _read(os.path.join(root, rel), max_bytes)
        if data is None:
            continue
        hits = _regex_hits(rel, data, pattern) if regex else _literal_hits(rel, data, query, fold)
        first = next(hits, None)
        if first is None or not _utf8(data):  # only files with a hit pay for the check
            continue
        yield first
        yield from hits


def _start_grep(root: str, top: Top, query: str, fold: bool) -> subprocess.Popen[bytes] | None:
    """Ask grep which files may hold the literal; None when grep can't say exactly."""
    grep = shutil.which("grep")
    if grep is None or "\n" in query or "\x00" in query or (fold and not query.isascii()):
        return None
    _scan, root_files, dirs = top
    inside = [d for d in dirs if is_inside(root, os.path.realpath(os.path.join(root, d)))]
    argv = [grep, "-rlZF", *(["-i"] if fold else []), "-e", query, "--", *root_files, *inside]
    if sum(len(a) + 1 for a in argv) > 100_000:
        return None  # keep well under the argv limit; Python reads everything instead
    try:
        return subprocess.Popen(
            argv,
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "LC_ALL": "C"},  # bytes, and -i folds ASCII only, as we do
        )
    except OSError:
        return None


def _not_grepped(files: list[str], top: Top) -> list[str]:
    """The files in folders grep was not asked to look in (those only a layout reads,
    such as a Claude memory's subfolders): Python reads them all."""
    shared = set(top[2])
    return [rel for rel in files if "/" in rel and rel.split("/", 1)[0] not in shared]


def _grep_result(proc: subprocess.Popen[bytes] | None) -> set[str] | None:
    """The files grep listed (grep -r does not follow links), or None to read all."""
    if proc is None:
        return None
    out, _ = proc.communicate()
    if proc.returncode not in (0, 1):  # 2: trouble (an unreadable file, ...): don't trust it
        return None
    return {os.fsdecode(p) for p in out.split(b"\0") if p}


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
