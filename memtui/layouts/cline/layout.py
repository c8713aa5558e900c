"""Cline's Memory Bank (SPEC §3b "More agents"): `memory-bank/` in a project.

The Memory Bank instructions (cline/cline docs/best-practices/memory-bank.mdx) have the
model "read ALL memory bank files at the start of EVERY task": every `**/*.md` of the
bank, whole, the six core files first in their hierarchy. Cline itself loads only
`.clinerules/**`, so a bank kept there reaches every prompt by Cline's own hand. Cline
takes no lock on the bank: memtui takes its own, and its content-hash check guards
against the agent writing meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout, Listing
from memtui.engine.layouts.common import OpsModule, late, not_read
from memtui.engine.model import ContextFile, Entry, OutlineItem
from memtui.engine.textfile import TextFile
from memtui.engine.words import commas
from memtui.i18n import msg
from memtui.layouts.cline import rules
from memtui.layouts.cline.detect import BANK, BOOK, CORE, RULES_BANK, ClineDetection, in_bank
from memtui.layouts.cline.parse import KIND, file_part, section_id

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.layouts.cline.parse import ClineData


class Cline(ClineDetection, OpsModule, Layout):
    ops = "memtui.layouts.cline.ops"
    kinds = (KIND,)
    codes = rules.CODES
    archived_to = msg("out of the bank, to {BOOK}, with its place", BOOK=BOOK)
    restored_from = msg("from {BOOK} to its place in its file", BOOK=BOOK)

    def parse(self, reader: StoreReader, top: Listing) -> ClineData:
        from memtui.layouts.cline.findings import check
        from memtui.layouts.cline.parse import parse

        data = parse(reader, top)
        check(reader, data)
        return data

    def knows(self, rel: str) -> bool:
        """A bank file (found as a FIFO, a folder, a link out: reported unreadable), or
        the archive of its sections."""
        in_either = in_bank(BANK, rel) or in_bank(RULES_BANK, rel)
        return in_either is not None or rel in CORE or rel == BOOK

    def file_of(self, kind: str, name: str) -> str | None:
        """The file in memory-bank/, the usual bank (the id alone does not say where the
        bank is: a refusal then names the file no longer there)."""
        return f"{BANK}/{file_part(name)}"

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui.layouts.cline.demo import build_cline

        return build_cline(sink, rng, size, today)

    # --- entries, outline, context ---------------------------------------------

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        for f in data.files:
            if f.tf is None:
                continue  # unreadable: a `file:` entry, which says why
            yield Entry(f"{KIND}:{f.name}", KIND, self.name, f.name, f.rel)
            for s in f.sections:
                title = f"{f.name} · {s.heading}"
                yield Entry(section_id(f, s), KIND, self.name, title, f.rel, s.span)

    def summary(self, data: Any) -> list[str]:
        """Its line of the one-screen summary: the bank's files, what they cost the model
        at every task start, the core files missing, the sections archived."""
        n, tokens = len(data.files), data.tokens
        said = [
            msg("{n:,} bank file (~{tokens:,} tokens at every task start)", n=n, tokens=tokens)
            if n == 1
            else msg(
                "{n:,} bank files (~{tokens:,} tokens at every task start)", n=n, tokens=tokens
            )
        ]
        said += [msg("{n:,} core missing", n=len(data.missing))] if data.missing else []
        said += [msg("{n:,} archived", n=len(data.archived))] if data.archived else []
        return [commas(said)]

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.layouts.cline.outline import outline

        return outline(store, data)

    def context(self, store: Store, data: Any) -> list[ContextFile]:
        """Every bank file, whole, in the order the model reads them; one that cannot be
        read is named with why."""
        who = (
            "Cline loads .clinerules/** into every prompt"
            if data.bank == RULES_BANK
            else "the Memory Bank instructions: read ALL memory bank files at every task start"
        )
        out = []
        for f in data.files:
            tf = late(store, f.rel)
            if isinstance(tf, TextFile):
                lines = len(tf.text.splitlines())
                out.append(ContextFile(f.rel, tf.text, None, lines, f"loaded whole ({who})"))
            else:
                out.append(not_read(f.rel, tf or "no longer there"))
        return out
