"""Claude Code's auto memory (SPEC §3b): `~/.claude/projects/<project>/memory/`.

MEMORY.md is the index the agent loads (cut at 200 lines / 25,000 UTF-16 units);
every other `*.md` below the folder is one memory, with `name`, `description`
and `type` front matter, that recall may pick. Claude takes no lock: memtui
takes its own, and its content-hash check guards against a concurrent write.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from memtui.engine import frontmatter
from memtui.engine.layouts import claude_rules as rules
from memtui.engine.layouts.base import Listing
from memtui.engine.layouts.claude_rules import ARCHIVE, ARCHIVED, INDEX, LINK
from memtui.engine.layouts.common import op_options, refused
from memtui.engine.layouts.openclaw import detect as openclaw_workspace
from memtui.engine.model import ContextFile, Entry, OutlineItem, Span
from memtui.engine.paths import LAYOUT_DIRS, LOCK_NAME
from memtui.engine.textfile import TextFile, iter_lines

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt

COMPANION_EVENTS = "memory/events.md"  # MEMORY.md beside it is the companion's summary


@dataclass(frozen=True, slots=True)
class IndexLine:
    span: Span
    title: str
    target: str | None  # the memory's path from the root; None: not a pointer line
    text: str  # the line without its ending
    ref: str = ""  # the link as written


@dataclass(frozen=True, slots=True)
class Memory:
    file: str
    name: str | None
    description: str | None
    type: str | None
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class ClaudeData:
    index: TextFile | None
    lines: tuple[IndexLine, ...]  # the pointer lines of MEMORY.md
    memories: tuple[Memory, ...]  # newest first, as recall sorts them
    archived: tuple[str, ...]  # .archive/<file>.archived, relative to the root
    loaded: rules.Cut | None  # what of MEMORY.md the agent gets


def memory_files(files: frozenset[str] | tuple[str, ...]) -> list[str]:
    """What recall scans: every `*.md` below the folder but a MEMORY.md."""
    return sorted(
        f for f in files if f.endswith(".md") and os.path.basename(f) != INDEX and not _own(f)
    )


def _own(rel: str) -> bool:
    return rel.startswith((ARCHIVE + "/", ".history/"))


def _pointers(text: str) -> bool:
    return any(m.group(2) for m in LINK.finditer(text))


class Claude:
    name = "claude"
    looks_for = "MEMORY.md linking to .md memories, or .md memories with a type: (claude)"
    kinds = ("claude", "claude-index")
    archived_to = "to .archive/ with its MEMORY.md lines, out of Claude's recall"

    # --- detection and parse ---------------------------------------------------

    def detect(self, top: Listing) -> bool:
        if COMPANION_EVENTS in top.files or openclaw_workspace(top):
            return False  # that MEMORY.md is the companion's, or OpenClaw's
        if INDEX in top.root_files and _pointers(_head(top.root, INDEX, 64 * 1024)):
            return True
        typed = (f for f in top.root_files if f.endswith(".md") and f != INDEX)
        return any(_typed(_head(top.root, f, 4096)) for f in list(typed)[:50])

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        """Recall reads every subfolder: so does memtui (its own hidden ones aside)."""
        shared = {name for name, _ in LAYOUT_DIRS}
        try:
            names = sorted(os.listdir(top.root))
        except OSError:
            return []
        found = [(n, True) for n in names if n not in shared and not n.startswith(".")]
        found = [(n, r) for n, r in found if os.path.isdir(os.path.join(top.root, n))]
        if os.path.isdir(os.path.join(top.root, ARCHIVE)):
            found.append((ARCHIVE, True))
        return found

    def parse(self, reader: StoreReader, top: Listing) -> ClaudeData:
        from memtui.engine.layouts.claude_findings import check

        index = reader.read(INDEX)
        lines = _index_lines(reader, index) if index is not None else []
        memories = [m for m in (_memory(reader, rel) for rel in memory_files(top.files)) if m]
        memories.sort(key=lambda m: (-m.mtime_ns, m.file))
        archived = tuple(f for f in sorted(top.files) if _archived(f))
        loaded = rules.cut(index.text) if index is not None else None
        data = ClaudeData(index, tuple(lines), tuple(memories), archived, loaded)
        check(reader, data, top)
        return data

    # --- entries, outline, context ---------------------------------------------

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        for m in data.memories:
            yield Entry(f"claude:{m.file}", "claude", self.name, m.name or m.file, m.file)
        seen: set[str] = set()
        for line in data.lines:
            if line.target and line.target not in seen:  # the first line pointing there
                seen.add(line.target)
                eid = f"claude-index:{line.target}"
                yield Entry(eid, "claude-index", self.name, line.title, INDEX, line.span)

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.engine.layouts.claude_outline import outline

        return outline(store, data)

    def context(self, store: Store, data: Any) -> list[ContextFile]:
        cut = data.loaded
        if cut is None:
            return []
        note = ""
        if cut.first_unloaded_line is not None:
            why = "200 lines" if cut.by_lines else "25,000 UTF-16 units"
            note = f"Claude loads MEMORY.md up to {why}"  # the lines past it: context.unloaded
        return [ContextFile(INDEX, cut.text, cut.first_unloaded_line, cut.loaded_lines, note)]

    def locks(self, rel: str) -> list[str]:
        return [LOCK_NAME]  # Claude takes none; memtui's own keeps memtui's changes apart

    # --- ops ---------------------------------------------------------------------

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.engine.ops.claude import archive_memory

        if kind != "claude":
            raise refused(f"{kind}:{name}: archive the memory (claude:{name}) with its line")
        return archive_memory(root, name, **op_options(shown))

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.engine.ops.claude import restore_memory

        if kind != "claude":
            raise refused(f"{kind}:{name}: restore the memory (claude:{name})")
        return restore_memory(root, name, **op_options(shown))


def _head(root: str, rel: str, limit: int) -> str:
    """The first `limit` bytes of a root file, for detection (no link is followed)."""
    try:
        fd = os.open(os.path.join(root, rel), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return ""
    try:
        return os.read(fd, limit).decode("utf-8", "replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


def _typed(head: str) -> bool:
    """Front matter in the first 30 lines with one of Claude's four types."""
    meta = _meta("\n".join(head.split("\n")[: rules.RECALL_LINES + 1]))
    return meta is not None and meta.get("type") in rules.TYPES


def _meta(text: str) -> dict[str, Any] | None:
    """Front matter as recall sees it: it must close within the first 30 lines."""
    try:
        split = frontmatter.split(text)
    except frontmatter.FrontMatterError:
        return None
    if split.yaml_text is None or split.body_line > rules.RECALL_LINES:
        return None
    try:
        return frontmatter.load(split.yaml_text)
    except (frontmatter.FrontMatterError, ValueError, RecursionError):
        return _lenient(split.yaml_text)


FIELD = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*\r?$", re.M)


def _lenient(yaml_text: str) -> dict[str, Any]:
    """Claude Code's own parser quotes what YAML would choke on (`description: a: b`
    is the text `a: b`): each `key: value` line as text, quotes taken off."""
    out: dict[str, Any] = {}
    for key, value in FIELD.findall(yaml_text):
        quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "'\""
        out.setdefault(key, value[1:-1] if quoted else value)
    return out


def target_of(ref: str) -> str:
    """A link's target as a path from the root (`#anchor` dropped, %-escapes read)."""
    return os.path.normpath(unquote(ref.split("#", 1)[0])).replace(os.sep, "/")


def _index_lines(reader: StoreReader, tf: TextFile) -> list[IndexLine]:
    code = reader.fences(tf).lines(tf.text)
    found = []
    for i, offset, raw in iter_lines(tf.text):
        match = LINK.search(raw) if i not in code else None
        if match and "://" in match.group(2):
            match = None  # a web link is no pointer to a memory: content
        end = offset + len(raw)
        end += 2 if tf.text.startswith("\r\n", end) else 1 if tf.text.startswith("\n", end) else 0
        span = Span(INDEX, i, i + 1, offset, end)
        if match:
            target = target_of(match.group(2))
            found.append(IndexLine(span, match.group(1) or target, target, raw, match.group(2)))
    return found


def _memory(reader: StoreReader, rel: str) -> Memory | None:
    tf = reader.read(rel)
    if tf is None:
        return None
    meta = reader.parsed("claude-meta", tf, lambda: _meta_of(tf.text))
    try:
        mtime = os.stat(os.path.join(reader.root, rel), follow_symlinks=False).st_mtime_ns
    except OSError:
        mtime = 0
    return Memory(rel, *meta, mtime)


def _meta_of(text: str) -> tuple[str | None, str | None, str | None]:
    head = "\n".join(text.split("\n", rules.RECALL_LINES + 1)[: rules.RECALL_LINES + 1])
    meta = _meta(head) or {}

    def field(key: str) -> str | None:
        value = meta.get(key)
        return None if value is None else str(value)

    return field("name"), field("description"), field("type")


def _archived(rel: str) -> bool:
    return rel.startswith(ARCHIVE + "/") and rel.endswith(ARCHIVED)
