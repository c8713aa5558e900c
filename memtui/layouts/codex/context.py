"""memory_summary.md as `memtui context` shows it: exactly the developer-instructions
text Codex builds from it (layouts.codex.prompt), with the cut named in the file's
lines: the first line not loaded, and the last one before the kept tail."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.model import ContextFile
from memtui.engine.words import clauses
from memtui.i18n import msg
from memtui.layouts.codex.detect import SUMMARY
from memtui.layouts.codex.findings import budget
from memtui.layouts.codex.prompt import BYTES_PER_TOKEN, inject

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.engine.textfile import TextFile

PROMPT = msg(
    "Codex's read-path prompt (codex-rs/ext/memories/templates/memories/read_path.md), "
    "the agent's own words, around the trimmed summary between its MEMORY_SUMMARY "
    "BEGINS and ENDS lines"
)


def summary_context(store: Store, tf: TextFile) -> ContextFile:
    tokens = budget(store.config.thresholds)
    bom = "\ufeff" if tf.bom else ""
    got = inject(bom + tf.text, os.path.abspath(store.root), tokens)
    text = tf.text
    total = len(text.splitlines())
    if not got.prompt:
        why = msg("empty once trimmed: Codex injects no memory prompt at all")
        return ContextFile(SUMMARY, "", 1 if total else None, 0, why)
    if got.head_stop is None or got.tail_start is None:
        return ContextFile(SUMMARY, got.prompt, None, total, PROMPT, agent_lines=got.agent_lines)
    head, tail = got.head_stop - len(bom), got.tail_start - len(bom)
    first = text.count("\n", 0, head) + 1
    # A line the tail starts inside is not loaded: its start is not.
    at_line_start = tail == 0 or text[tail - 1] == "\n"
    last = text.count("\n", 0, tail) + (0 if at_line_start else 1)
    said = msg(
        "Codex cuts {file} to {tokens:,} tokens: its first and last {bytes:,} bytes, joined "
        "by its own '…N tokens truncated…'",
        file=SUMMARY,
        tokens=tokens,
        bytes=tokens * BYTES_PER_TOKEN // 2,
    )
    note = clauses([PROMPT, said])
    loaded = (first - 1) + max(total - last, 0)
    last_cut = last if last >= first else None
    return ContextFile(SUMMARY, got.prompt, first, loaded, note, last_cut, None, got.agent_lines)
