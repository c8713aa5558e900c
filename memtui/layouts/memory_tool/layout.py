"""Anthropic's memory tool (`memory_20250818`, SPEC §3b "More agents"): the `/memories`
folder an application keeps for the model through the tool's commands (view, create,
str_replace, insert, delete, rename). Source: anthropic-sdk-python
`src/anthropic/lib/tools/_beta_builtin_memory_tool.py` (BetaLocalFilesystemMemoryTool:
the SDK's own file backend) and the memory tool docs (the API tells the model to view
its memory directory before anything else).

What the model has at the start of a session is what `view /memories` returns: the
listing (layouts.memory_tool.view), names and sizes two levels deep, no content; it
reads a file when it views it. Ids name a file by its path from /memories.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout, Listing
from memtui.engine.layouts.common import OpsModule, not_read, unreadable
from memtui.engine.model import ContextFile, Entry, OutlineItem
from memtui.engine.words import commas
from memtui.i18n import msg
from memtui.layouts.memory_tool import rules, view
from memtui.layouts.memory_tool.detect import BOOK, MEMORIES, VIRTUAL, MemoryToolDetection, in_tool
from memtui.layouts.memory_tool.parse import KIND, at

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.layouts.memory_tool.parse import ToolData

FIRST = msg(
    "what `view {root}` returns at the start of a session, as the tool's own text (the "
    "texts of these rows joined by newlines, an unlisted file's empty one aside): names and "
    "sizes two levels deep, hidden names left out; the model views a file's content on demand",
    root=VIRTUAL,
)
ROW = msg(
    "its row of the `view {root}` listing; the model views its content on demand", root=VIRTUAL
)


class MemoryTool(MemoryToolDetection, OpsModule, Layout):
    ops = "memtui.layouts.memory_tool.ops"
    kinds = (KIND,)
    codes = rules.CODES
    archived_to = msg(
        "out of {VIRTUAL}, to {BOOK} (hidden: `view` never lists it)", VIRTUAL=VIRTUAL, BOOK=BOOK
    )
    restored_from = msg(
        "from {BOOK} to its path in {VIRTUAL}, byte for byte", BOOK=BOOK, VIRTUAL=VIRTUAL
    )

    def parse(self, reader: StoreReader, top: Listing) -> ToolData:
        from memtui.layouts.memory_tool.findings import check
        from memtui.layouts.memory_tool.parse import parse

        data = parse(reader, top)
        check(reader, data)
        return data

    def knows(self, rel: str) -> bool:
        """A file the model reaches in /memories (either place it can be), or the book:
        a path with a folder or an extension (`memories`, `tasks`, folders the root's flat
        listing finds, are not files)."""
        return rel == BOOK or (in_tool("", rel) is not None and ("/" in rel or "." in rel))

    def file_of(self, kind: str, name: str) -> str | None:
        """The file below memories/, the SDK's place (the id alone does not say whether
        the root is the base folder or /memories itself)."""
        return at(MEMORIES, name.partition("@")[0])

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui.layouts.memory_tool.demo import build_memory_tool

        return build_memory_tool(sink, rng, size, today)

    # --- entries, outline, context ---------------------------------------------

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        for f in data.files:
            if f.tf is not None:  # unreadable: a `file:` entry, which says why
                yield Entry(f"{KIND}:{f.name}", KIND, self.name, f"{VIRTUAL}/{f.name}", f.rel)

    def summary(self, data: Any) -> list[str]:
        listed = sum(1 for f in data.files if not rules.deep(f.name))
        n = len(data.files)
        said = [
            msg("{n:,} file in {root}", n=n, root=VIRTUAL)
            if n == 1
            else msg("{n:,} files in {root}", n=n, root=VIRTUAL)
        ]
        said += [msg("{n:,} in the listing the model views first", n=listed)]
        said += [msg("{n:,} archived", n=len(data.archived))] if data.archived else []
        return [commas(said)]

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.layouts.memory_tool.outline import outline

        return outline(store, data)

    def context(self, store: Store, data: Any) -> list[ContextFile]:
        """`view /memories` as the tool renders it, cut into one row per file listed
        (the header and folders go with the file after them); a file of the listing
        memtui cannot read, or that the listing skips (no regular file), is named with
        why."""
        folder = os.path.join(store.root, data.top) if data.top else store.root
        pending = view.head(folder)
        if not pending:
            return []
        by_name = {f.name: f for f in data.files}
        out: list[ContextFile] = []
        for row in view.rows(folder):
            pending.append(view.line(row))
            f = by_name.pop(row.path, None)
            if row.is_dir or f is None:
                continue
            text = "\n".join(pending)
            why = (
                unreadable(store, f.rel) if f.rel in store.files else msg("a link out of the store")
            )
            out.append(
                ContextFile(f.rel, text, None, len(pending), FIRST if not out else ROW, None, why)
            )
            pending = []
        if pending and out:  # folders after the last file: its row carries them
            last = out[-1]
            text = "\n".join([last.text, *pending])
            out[-1] = ContextFile(last.file, text, None, last.lines + len(pending), last.note,
                                  None, last.unreadable)  # fmt: skip
        for f in by_name.values():  # not listed: too deep (a finding says so), or no file
            why = unreadable(store, f.rel)
            if why is not None and not rules.deep(f.name):
                out.append(not_read(f.rel, msg("{why}; `view` lists no such entry", why=why)))
        return out
