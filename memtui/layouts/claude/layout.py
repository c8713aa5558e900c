"""Claude Code's auto memory (SPEC §3b): `~/.claude/projects/<project>/memory/`.

MEMORY.md is the index the agent loads (cut at 200 lines / 25,000 UTF-16 units);
every other `*.md` below the folder is one memory, with `name`, `description`
and `type` front matter, that recall may pick. Claude takes no lock: memtui
takes its own, and its content-hash check guards against a concurrent write.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout, Listing
from memtui.engine.layouts.common import op_options, refused, unread_context
from memtui.engine.model import ContextFile, Entry, OutlineItem, Span
from memtui.engine.textfile import TextFile, iter_lines
from memtui.engine.words import clauses
from memtui.i18n import msg
from memtui.layouts.claude import rules
from memtui.layouts.claude.codes import CODES
from memtui.layouts.claude.detect import ClaudeDetection, field, recall_meta
from memtui.layouts.claude.rules import ARCHIVE, ARCHIVED, INDEX, LINK, target_of

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt


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
    modified: str | None = None  # the front matter's `modified` stamp, as written

    @property
    def modified_at(self) -> datetime | None:
        """The stamp as a time, when it parses (Date.parse)."""
        return stamp_time(self.modified)


@dataclass(frozen=True, slots=True)
class ClaudeData:
    index: TextFile | None
    lines: tuple[IndexLine, ...]  # the pointer lines of MEMORY.md
    memories: tuple[Memory, ...]  # newest first, as recall sorts them
    archived: tuple[str, ...]  # .archive/<file>.archived, relative to the root
    loaded: rules.Cut | None  # what of MEMORY.md the agent gets


def memory_files(files: frozenset[str] | tuple[str, ...]) -> list[str]:
    """What recall scans: every `*.md` below the folder but a MEMORY.md."""
    return sorted(f for f in files if f.endswith(".md") and _recalled(f) and not _own(f))


def _recalled(rel: str) -> bool:
    return os.path.basename(rel) != INDEX


def _own(rel: str) -> bool:
    return rel.startswith((ARCHIVE + "/", ".history/"))


class Claude(ClaudeDetection, Layout):
    kinds = ("claude", "claude-index")
    codes = CODES
    archived_to = msg("to .archive/ with its MEMORY.md lines, out of Claude's recall")
    restored_from = msg("from .archive/ with its MEMORY.md lines, back in Claude's recall")

    # --- detection and parse ---------------------------------------------------

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui.layouts.claude.demo import build_claude

        return build_claude(sink, rng, size, today)

    def parse(self, reader: StoreReader, top: Listing) -> ClaudeData:
        from memtui.layouts.claude.findings import check

        index = reader.read(INDEX)
        loaded = rules.cut(index.text) if index is not None else None
        lines = _index_lines(reader, index, loaded.stripped) if index and loaded else []
        memories = [m for m in (_memory(reader, rel) for rel in memory_files(top.files)) if m]
        memories.sort(key=lambda m: (-m.mtime_ns, m.file))
        archived = tuple(f for f in sorted(top.files) if _archived(f))
        data = ClaudeData(index, tuple(lines), tuple(memories), archived, loaded)
        check(reader, data, top)
        return data

    def knows(self, rel: str) -> bool:
        """The index, and what recall scans (a MEMORY.md in a subfolder is neither)."""
        return rel == INDEX or (rel.endswith(".md") and not _own(rel) and _recalled(rel))

    def file_of(self, kind: str, name: str) -> str | None:
        return INDEX if kind == "claude-index" else name

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
        from memtui.layouts.claude.outline import outline

        return outline(store, data)

    def context(self, store: Store, data: Any) -> list[ContextFile]:
        cut = data.loaded
        if cut is None:
            return unread_context(store, INDEX)
        notes = []
        if cut.stripped:
            notes.append(msg("front matter and HTML comments taken off, as Claude does"))
        if cut.first_unloaded_line is not None:  # the lines past it: context.unloaded
            notes.append(
                msg(
                    "Claude loads MEMORY.md up to 200 lines; the closing '> WARNING:' paragraph "
                    "is Claude's own, appended after the cut"
                )
                if cut.by_lines
                else msg(
                    "Claude loads MEMORY.md up to 25,000 UTF-16 units; the closing '> WARNING:' "
                    "paragraph is Claude's own, appended after the cut"
                )
            )
        note = clauses(notes)
        cf = ContextFile(INDEX, cut.text, cut.first_unloaded_line, cut.loaded_lines, note)
        if cut.warning and hasattr(cf, "agent_lines"):
            # the blank line and the warning are Claude's words (ContextFile.agent_lines,
            # where this engine has it: shown marked, not numbered as the file's)
            cf = replace(cf, agent_lines=(0, 2))
        return [cf]

    def details(self, store: Store, data: Any, entry: Entry) -> dict[str, Any]:
        """A memory's `modified`: Claude's front matter stamp (metadata.modified, written
        since 2.1.214) when it parses, else the file's mtime, as Claude's memory scan
        reports it; recall still picks the 200 newest by mtime (memoryScan)."""
        m = next((m for m in data.memories if f"claude:{m.file}" == entry.id), None)
        if m is None:
            return {}
        mtime = datetime.fromtimestamp(m.mtime_ns / 1e9, UTC)
        stamped = m.modified_at
        return {
            "modified": (stamped or mtime).isoformat().replace("+00:00", "Z"),
            "modified_from": "front matter" if stamped else "mtime",
            "mtime": mtime.isoformat().replace("+00:00", "Z"),
        }

    # --- ops ---------------------------------------------------------------------

    def summary(self, data: Any) -> list[str]:
        archived = f", {len(data.archived):,} archived" if data.archived else ""
        return [f"{len(data.memories):,} memories, {len(data.lines):,} in MEMORY.md{archived}"]

    def edit(self, root: str, kind: str, name: str, new_text: str, **shown: Any) -> Receipt:
        from memtui.engine.ops.replace import replace_entry
        from memtui.layouts.claude.ops import claude_target

        if kind == "claude-index" and new_text.strip() and "\n" in new_text.strip("\r\n"):
            raise refused(
                f"{shown.get('entry_id', f'{kind}:{name}')}: an index line stays one line "
                "(content goes in a memory)"
            )
        target = lambda tx_root, _fp, _seen: claude_target(tx_root, kind, name)  # noqa: E731
        return replace_entry(root, kind, new_text, target, **shown)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.layouts.claude.ops import archive_memory

        if kind != "claude":
            raise refused(
                msg(
                    "{kind}:{name}: archive the memory (claude:{name}) with its line",
                    kind=kind,
                    name=name,
                )
            )
        return archive_memory(root, name, **op_options(shown))

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.layouts.claude.ops import restore_memory

        if kind != "claude":
            raise refused(
                msg("{kind}:{name}: restore the memory (claude:{name})", kind=kind, name=name)
            )
        return restore_memory(root, name, **op_options(shown))


def _index_lines(reader: StoreReader, tf: TextFile, stripped: frozenset[int]) -> list[IndexLine]:
    """The pointer lines Claude's agent reads: none in the front matter or in an HTML
    comment Claude takes off (a pointer commented out points nowhere for the agent)."""
    code = reader.fences(tf).lines(tf.text)
    found = []
    for i, offset, raw in iter_lines(tf.text):
        match = LINK.search(raw) if i not in code and i + 1 not in stripped else None
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
    name, description, type_, modified = meta
    return Memory(rel, name, description, type_, mtime, modified)


def stamp_time(value: str | None) -> datetime | None:
    """An ISO 8601 stamp as Date.parse reads the ones Claude writes; None otherwise."""
    if not value:
        return None
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _meta_of(text: str) -> tuple[str | None, str | None, str | None, str | None]:
    head = "\n".join(text.split("\n", rules.RECALL_LINES + 1)[: rules.RECALL_LINES + 1])
    meta = recall_meta(head) or {}

    def read(key: str) -> str | None:
        value = field(meta, key) if key != "name" else meta.get(key)
        return None if value is None else str(value)

    return read("name"), read("description"), read("type"), read("modified")


def _archived(rel: str) -> bool:
    return rel.startswith(ARCHIVE + "/") and rel.endswith(ARCHIVED)
