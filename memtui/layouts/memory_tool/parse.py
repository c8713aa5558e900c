"""Reading a memory tool store: every file below /memories the model can reach (hidden
paths aside), and the files memtui archived. Entry ids name a file by its path from
/memories, as the model names it: `memory-tool:notes/project.md` is
`/memories/notes/project.md`."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any

from memtui.engine import archive_records as records
from memtui.engine.rawfile import never_shown, not_regular
from memtui.i18n import msg
from memtui.layouts.memory_tool.detect import BOOK, MEMORIES, NAME, in_tool, tool_dir

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing
    from memtui.engine.reader import StoreReader
    from memtui.engine.textfile import TextFile

KIND = NAME
# A folder named like a file: where a file was, or where the model would create one
# (`create` refuses: the path exists). Reported as no file, as Cline's *.md folders are.
LIKE_A_FILE = re.compile(r"[^.].*\.(md|markdown|txt|xml|json|jsonl|ya?ml|csv)\Z", re.I | re.S)


@dataclass(frozen=True, slots=True)
class ToolFile:
    name: str  # from /memories: what ids say
    rel: str  # from the root
    tf: TextFile | None  # None: unreadable (the reader said why)


@dataclass(frozen=True, slots=True)
class Archived:
    name: str  # its path from /memories, which restores it
    text: str
    line: int  # 1-based, in BOOK


@dataclass(frozen=True, slots=True)
class ToolData:
    top: str  # /memories from the root: "" (the root is it) or "memories"
    files: tuple[ToolFile, ...]  # sorted by path
    archived: tuple[Archived, ...]


def at(top: str, name: str) -> str:
    """A file's path from the root."""
    return f"{top}/{name}" if top else name


def parse(reader: StoreReader, top: Listing) -> ToolData:
    found = tool_dir(top.root)
    where = MEMORIES if found is None else found  # gone since detection: read as empty
    names = {
        name: rel
        for rel in chain(top.files, top.others, reader.escaped)
        if (name := in_tool(where, rel)) is not None and not _folder(top.root, rel)
    }
    files = tuple(ToolFile(n, names[n], reader.read(names[n])) for n in sorted(names))
    _folders_like_files(reader, where)
    archived = _archived(reader) if BOOK in top.files else ()
    return ToolData(where, files, archived)


def _folder(root: str, rel: str) -> bool:
    """A folder (not a link to one): `view` lists it as a folder, no file to read."""
    try:
        return stat.S_ISDIR(os.lstat(os.path.join(root, rel)).st_mode)
    except OSError:
        return False


def _folders_like_files(reader: StoreReader, top: str) -> None:
    """Each folder of /memories named like a file (hidden ones and links aside) is
    reported as no file: a handful of folders, walked once."""
    base = os.path.join(reader.root, top)
    for parent, dirs, _files in os.walk(base):
        dirs[:] = [d for d in dirs if d[0] != "." and not os.path.islink(os.path.join(parent, d))]
        for name in sorted(d for d in dirs if LIKE_A_FILE.match(d)):
            rel = os.path.relpath(os.path.join(parent, name), reader.root).replace(os.sep, "/")
            if rel not in reader.unreadable:
                reader.unreadable[rel] = why = not_regular(stat.S_IFDIR)
                reader.findings.add("unreadable", rel, None, never_shown(rel, why))


def _archived(reader: StoreReader) -> tuple[Archived, ...]:
    found = records.book_records(reader, BOOK, record_of, msg("an archived file memtui wrote"))
    return tuple(Archived(record["file"], record["text"], n) for n, record in found)


def record_of(raw: str) -> dict[str, Any] | None:
    """An archive record, or None when the line is not one (not JSON, wrong shape)."""
    return records.record_of(raw, ("file", "text"))
