"""Cline's Memory Bank rules as memtui keeps them: the finding codes, the thresholds
and where their figures come from, the order the model reads the bank in, the dates a
file carries. Sources: cline/cline `docs/best-practices/memory-bank.mdx` (the custom
instructions: "I MUST read ALL memory bank files at the start of EVERY task", the core
files and their hierarchy) and `src/core/context/context-management/
context-window-utils.ts` (the context window a task gets).
"""

from __future__ import annotations

import datetime as dt
import re

from memtui.engine.model import ERROR, INFO, WARNING
from memtui.layouts.cline.detect import CORE

# What the bank costs the model. Cline gives a model whose window it does not know
# 128,000 tokens, and keeps a task within 128,000 - 30,000 = 98,000 of them before it
# truncates the conversation (getContextWindowInfo). The bank is read whole at the start
# of every task, so it is spent before any work: a quarter of those 98,000 (24,500) is
# worth a warning; all of them means the task starts truncated. A file's share is the
# quarter over the six core files (about 4,000 tokens, 16 KB).
USABLE_TOKENS = 128_000 - 30_000
THRESHOLDS: dict[str, int | float] = {
    "cline_bank_warn_tokens": USABLE_TOKENS // 4,
    "cline_bank_max_tokens": USABLE_TOKENS,
    "cline_file_tokens": USABLE_TOKENS // 4 // len(CORE),
    # activeContext.md older than progress.md by this many days (0: by any) is stale
    "cline_stale_days": 1,
}
BYTES_PER_TOKEN = 4  # the usual estimate for English text (a CJK character is ~1 token)

CODES: dict[str, tuple[str, str]] = {
    "bank-core-missing": (WARNING, "one of the six core Memory Bank files is missing"),
    "bank-size": (WARNING, "the bank, read whole at every task start, against a token budget"),
    "bank-file-size": (WARNING, "a Memory Bank file past its share of the token budget"),
    "bank-stale": (WARNING, "activeContext.md is older than progress.md"),
    "bank-heading-duplicate": (INFO, "two `## ` sections of one file share a heading"),
}
BANK_OVER = ERROR  # bank-size past cline_bank_max_tokens


def tokens(size: int) -> int:
    """About how many tokens `size` bytes of Markdown cost the model."""
    return -(-size // BYTES_PER_TOKEN)


def reading_order(names: list[str]) -> list[str]:
    """The bank's files (paths from the bank) in the order the model reads them: the core
    files in the instructions' hierarchy (projectbrief first, progress last), then the
    others sorted."""
    core = [n for n in CORE if n in names]
    return core + sorted(n for n in names if n not in CORE)


DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)", re.ASCII)


def newest_date(text: str, today: dt.date) -> dt.date | None:
    """The latest real date written in the text, not after today (a deadline ahead says
    nothing of when the file was written); None if it carries none."""
    best = None
    for m in DATE.finditer(text):
        try:
            day = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            continue
        if day <= today and (best is None or day > best):
            best = day
    return best
