"""Gemini CLI's memory (SPEC §3b "More agents": gemini): GEMINI.md context files.

What Gemini CLI loads at session start (google-gemini/gemini-cli
`packages/core/src/context/memoryContextManager.ts`, `utils/memoryDiscovery.ts`,
`utils/memoryImportProcessor.ts`, `config/config.ts`, `prompts/snippets.ts`):
1. global: `~/.gemini/<name>` for each context file name (`GEMINI.md`, or settings'
   `context.fileName` then GEMINI.md), in the system instruction (`<global_context>`);
2. the project's private memory: `~/.gemini/tmp/<project-id>/memory/MEMORY.md`, else a
   legacy GEMINI.md there, also in the system instruction (`<user_project_memory>`);
   the project id is the slug `projects.json` gives the project's path (storage.ts,
   projectRegistry.ts; `tmp/<id>/.project_root` names the project);
3. in a trusted folder, the context files of each workspace folder and of its parents up
   to the `.git` root (none above it without one), root to leaf, in the first message
   (`<project_context>`); a subfolder's only when a tool touches that folder (JIT).
Each file's `@path` imports are inlined (memoryImportProcessor.ts, layouts.gemini.imports),
then it is trimmed and put between `--- Context from: <path> ---` and
`--- End of Context from: <path> ---`; no file is cut. `memtui context` shows each file's
block, exactly; what lies outside the store (parents, the other tier) is named.

`save_memory` and its `## Gemini Added Memories` section were removed upstream on
2026-05-13 (7504259d72); files keep the section: its `- ` lines are shown as the tool's
memories, kept byte for byte. Gemini CLI takes no lock: memtui takes its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout, Listing
from memtui.engine.layouts.common import not_read
from memtui.engine.model import ContextFile, Entry, OutlineItem
from memtui.engine.words import clauses, commas
from memtui.i18n import msg
from memtui.layouts.gemini import rules
from memtui.layouts.gemini.detect import BOOK, GeminiDetection
from memtui.layouts.gemini.parse import (
    GLOBAL,
    KIND,
    MEMORY_KIND,
    PRIVATE,
    PROJECT,
    file_part,
    memory_id,
    section_id,
)

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt
    from memtui.layouts.gemini.parse import GeminiData, GFile


class Gemini(GeminiDetection, Layout):
    kinds = (KIND, MEMORY_KIND)
    codes = rules.CODES
    archived_to = msg("out of its file, to {BOOK}, with its place", BOOK=BOOK)
    restored_from = msg("from {BOOK} to its place in its file", BOOK=BOOK)

    def parse(self, reader: StoreReader, top: Listing) -> GeminiData:
        from memtui.layouts.gemini.parse import parse

        return parse(reader, top)

    def knows(self, rel: str) -> bool:
        """A Markdown file of the store (a context file, a private memory, an import) or
        the archive book."""
        return self.is_memory(rel)

    def file_of(self, kind: str, name: str) -> str | None:
        if kind == MEMORY_KIND:
            return name.rpartition("#")[0] or None
        return file_part(name)

    # --- entries, outline, context ---------------------------------------------

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        """Each readable file (an unreadable one is a `file:` entry, which says why), its
        sections, its Added Memories."""
        for f in (f for f in data.files if f.tf is not None):
            yield Entry(f"{KIND}:{f.rel}", KIND, self.name, f.rel, f.rel)
            yield from (
                Entry(section_id(f, s), KIND, self.name, f"{f.rel} · {s.heading}", f.rel, s.span)
                for s in f.sections
            )
            yield from (
                Entry(
                    memory_id(f, m),
                    MEMORY_KIND,
                    self.name,
                    _memory_title(f, m, titles),
                    f.rel,
                    m.span,
                )
                for m in f.memories
            )

    def summary(self, data: Any) -> list[str]:
        loaded = [f for f in data.files if f.loaded]
        memories = sum(len(f.memories) for f in data.files)
        n = len(loaded)
        said = [
            msg("{n:,} context file loaded at start", n=n)
            if n == 1
            else msg("{n:,} context files loaded at start", n=n)
        ]
        said += [msg("{n:,} Added Memories", n=memories)] if memories else []
        said += [msg("{n:,} archived", n=len(data.archived))] if data.archived else []
        return [commas(said)]

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.layouts.gemini.outline import outline

        return outline(store, data)

    def context(self, store: Store, data: Any) -> list[ContextFile]:
        """Each file loaded at session start, as its block in the prompt, in the agent's
        order; one that cannot be read is named with why."""
        out = []
        for f in (f for f in data.files if f.loaded):
            why = store.unreadable.get(f.rel)
            if f.inlined is None:
                out.append(not_read(f.rel, why or msg("no longer there")))
                continue
            text = rules.block(os.path.join(store.root, f.rel), f.inlined)
            note = _note(store, data, f)
            if not text:
                note = clauses([note, msg("empty once trimmed: left out")])
            out.append(ContextFile(f.rel, text, None, len(text.splitlines()), note))
        return out

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui.layouts.gemini.demo import build_gemini

        return build_gemini(sink, rng, size, today)

    # --- ops ---------------------------------------------------------------------

    def edit(self, root: str, kind: str, name: str, new_text: str, **shown: Any) -> Receipt:
        return _ops().edit(root, kind, name, new_text, **shown)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        return _ops().archive(root, kind, name, **shown)

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        return _ops().restore(root, kind, name, **shown)


def _ops() -> Any:
    """Its write path, imported when a change is asked for (opening a store needs none)."""
    from memtui.layouts.gemini import ops

    return ops


def _memory_title(f: GFile, m: Any, titles: bool) -> str:
    if not titles or f.tf is None:
        return ""
    line = f.tf.text[m.span.char_start : m.span.char_stop].split("\n", 1)[0].rstrip("\r")
    return f"{f.rel} · {rules.ADDED} · {line[2:].strip()[:80]}"


def _note(store: Store, data: GeminiData, f: GFile) -> str:
    """Where the file's block goes, and what else Gemini CLI loads with it."""
    if f.tier == GLOBAL:
        return msg(
            "global context: system instruction, in <global_context> (blocks joined by a "
            "blank line); the active extensions' context files (extensions/*/) go in "
            "<extension_context>, instructions they ship, not memory: not shown"
        )
    if f.tier == PRIVATE:
        if f.project:
            return msg(
                "private project memory of {project}: system instruction, in "
                "<user_project_memory> after `--- Private Project Memory Index (private, not "
                "committed to repo) ---`",
                project=f.project,
            )
        return msg(
            "private project memory: system instruction, in <user_project_memory> after "
            "`--- Private Project Memory Index (private, not committed to repo) ---`"
        )
    assert f.tier == PROJECT
    parents = outside_parents(store.root, data.names, data.markers)
    if parents:
        return msg(
            "project context when Gemini CLI starts here in a trusted folder: first message, "
            "in <project_context>; before it, from outside this store: {parents}; also "
            "loaded, outside this store: ~/.gemini/GEMINI.md and the project's private "
            "~/.gemini/tmp/<project-id>/memory/MEMORY.md",
            parents=", ".join(parents),
        )
    return msg(
        "project context when Gemini CLI starts here in a trusted folder: first message, in "
        "<project_context>; also loaded, outside this store: ~/.gemini/GEMINI.md and the "
        "project's private ~/.gemini/tmp/<project-id>/memory/MEMORY.md"
    )


def outside_parents(root: str, names: tuple[str, ...], markers: tuple[str, ...]) -> list[str]:
    """The context files Gemini CLI also loads from the folders above `root` up to the
    project root, the nearest holding a marker (`.git`), root to leaf
    (getEnvironmentMemoryPaths): named from whether they exist, never read. None when no
    marker is above (the traversal stops at the folder itself)."""
    from memtui.layouts.gemini.imports import Importer

    top = Importer(root, 0, lambda rel: None, markers).project_root(root)
    if not top or top == root or not markers:
        return []
    chain, here = [], os.path.dirname(root)
    while len(here) >= len(top):
        chain.append(here)
        here = os.path.dirname(here)
    home = os.path.join(os.path.expanduser("~"), ".gemini")
    found = []
    for folder in reversed(chain):
        if folder != home:  # findUpwardGeminiFiles stops at the global folder
            found += [p for n in names if os.access(p := os.path.join(folder, n), os.R_OK)]
    return found
