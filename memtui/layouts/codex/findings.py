"""The codex layout's findings (SPEC §3b, §5), each at the file and line it is about."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.i18n import msg
from memtui.layouts.codex import rules
from memtui.layouts.codex.detect import HANDBOOK, ROLLOUTS, SUMMARY
from memtui.layouts.codex.prompt import BYTES_PER_TOKEN, approx_tokens, inject

if TYPE_CHECKING:
    from collections.abc import Callable

    from memtui.engine.reader import StoreReader
    from memtui.layouts.codex.parse import CodexData

    Add = Callable[[str, str, int | None, str], None]


def budget(values: object) -> int:
    """The tokens Codex injects of memory_summary.md, as memtui.toml sets them."""
    got = getattr(values, "codex_summary_tokens", None)
    return int(got if got is not None else 2_500)


def check(reader: StoreReader, data: CodexData) -> None:
    def add(code: str, file: str, line: int | None, message: str) -> None:
        reader.findings.add(code, file, line, message, rules.CODES[code][0])

    summary = data.file(SUMMARY)
    if summary is not None and summary.tf is not None:
        _summary(reader, summary.tf.text, summary.tf.bom, add)
    missing: dict[str, int] = {}
    for line, name in data.rollout_refs:
        rel = f"{ROLLOUTS}/{name}"
        if rel not in reader.files and not os.path.lexists(os.path.join(reader.root, rel)):
            missing.setdefault(name, line)
    for name, line in missing.items():
        add(
            "rollout-missing",
            HANDBOOK,
            line,
            msg(
                "{file} line {line} names {target}, which is not there: Codex prunes the "
                "rollout summaries a consolidation no longer selects, and the model, sent "
                "there by this line, finds nothing",
                file=HANDBOOK,
                line=line,
                target=ROLLOUTS + "/" + name,
            ),
        )


def _summary(reader: StoreReader, text: str, bom: bool, add: Add) -> None:
    tokens = budget(reader.thresholds)
    got = inject(("\ufeff" if bom else "") + text, reader.root, tokens)
    if got.head_stop is not None and got.tail_start is not None:
        first = text.count("\n", 0, max(got.head_stop - bom, 0)) + 1
        again = text.count("\n", 0, max(got.tail_start - bom, 0)) + 1
        add(
            "summary-truncated",
            SUMMARY,
            first,
            msg(
                "{file} is about {tokens:,} tokens ({bytes:,} bytes trimmed), past the "
                "{budget:,} Codex injects at session start: it keeps the first and last "
                "{kept:,} bytes and leaves out the middle, from line {first} to line {again}; "
                "the model never sees that part",
                file=SUMMARY,
                tokens=approx_tokens(got.bytes),
                bytes=got.bytes,
                budget=tokens,
                kept=tokens * BYTES_PER_TOKEN // 2,
                first=first,
                again=again,
            ),
        )
