"""Codex's memories (SPEC §3b "More agents": codex): `$CODEX_HOME/memories`.

At session start Codex gives the model one file of it: memory_summary.md, trimmed and
cut head and tail to 2,500 tokens, inside its read-path prompt (layouts.codex.prompt:
openai/codex codex-rs/ext/memories/src/prompts.rs, lib.rs, templates/memories/
read_path.md). MEMORY.md, raw_memories.md, rollout_summaries/, skills/ and
extensions/ are opened on demand, by the model's own searches. Codex writes the
folder in two phases (codex-rs/memories/write/): raw_memories.md and
rollout_summaries/ are rebuilt from its state DB before every consolidation, so memtui
refuses to change them; MEMORY.md, memory_summary.md and skills/ are edited in place
by its consolidation agent, which reads a change found in the folder's git diff as
authoritative, so memtui edits them (and archives MEMORY.md's blocks). Codex takes no
lock on the folder (its consolidation holds a lease in its state DB): memtui takes its
own, and its content-hash check guards against Codex writing meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout, Listing
from memtui.engine.layouts.common import OpsModule, late, not_read
from memtui.engine.model import ContextFile, Entry, OutlineItem
from memtui.engine.textfile import TextFile
from memtui.engine.words import clauses, commas
from memtui.i18n import msg
from memtui.layouts.codex import rules
from memtui.layouts.codex.detect import BOOK, ROLLOUTS, SUMMARY, CodexDetection, knows
from memtui.layouts.codex.parse import KIND, block_id, file_part

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.layouts.codex.parse import CodexData


class Codex(CodexDetection, OpsModule, Layout):
    ops = "memtui.layouts.codex.ops"
    kinds = (KIND,)
    codes = rules.CODES
    archived_to = msg("out of MEMORY.md, to {BOOK}, with its place", BOOK=BOOK)
    restored_from = msg("from {BOOK} to its place in MEMORY.md", BOOK=BOOK)

    def parse(self, reader: StoreReader, top: Listing) -> CodexData:
        from memtui.layouts.codex.findings import check
        from memtui.layouts.codex.parse import parse

        data = parse(reader, top)
        check(reader, data)
        return data

    def knows(self, rel: str) -> bool:
        return knows(rel)

    def file_of(self, kind: str, name: str) -> str | None:
        return file_part(name)

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui.layouts.codex.demo import build_codex

        return build_codex(sink, rng, size, today)

    # --- entries, outline, context ---------------------------------------------

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        for f in data.files:
            if f.tf is None:
                continue  # unreadable: a `file:` entry, which says why
            yield Entry(f"{KIND}:{f.rel}", KIND, self.name, f.rel, f.rel)
            for b in f.blocks:
                yield Entry(
                    block_id(f, b), KIND, self.name, f"{f.rel} · {b.heading}", f.rel, b.span
                )

    def summary(self, data: Any) -> list[str]:
        """Its line of the one-screen summary."""
        rollouts = sum(f.rel.startswith(f"{ROLLOUTS}/") for f in data.files)
        said = [msg("{n:,} files", n=len(data.files)), msg("{n:,} rollout summaries", n=rollouts)]
        said += [msg("{n:,} archived", n=len(data.archived))] if data.archived else []
        only = msg("only memory_summary.md is injected at session start")
        return [clauses([commas(said), only])]

    def details(self, store: Store, data: Any, entry: Entry) -> dict[str, Any]:
        """Who writes the entry's file, and whether memtui may change it."""
        rel = entry.file
        return {"codex": rules.kept_by(rel), "rebuilt_by_codex": rules.rebuilt(rel) is not None}

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.layouts.codex.outline import outline

        return outline(store, data)

    def context(self, store: Store, data: Any) -> list[ContextFile]:
        """memory_summary.md as Codex injects it (inside its read-path prompt, cut as
        Codex cuts it), then every other file, not loaded, with why; a file that cannot
        be read is named with why."""
        from memtui.layouts.codex.context import summary_context

        out = []
        for f in data.files:
            got = late(store, f.rel)
            if not isinstance(got, TextFile):
                out.append(not_read(f.rel, got or "no longer there"))
            elif f.rel == SUMMARY:
                out.append(summary_context(store, got))
            else:
                out.append(ContextFile(f.rel, "", 1, 0, rules.not_loaded(f.rel)))
        return out
