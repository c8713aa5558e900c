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
from memtui.i18n import N_
from memtui.layouts.cline.detect import CORE, THRESHOLDS, USABLE_TOKENS  # noqa: F401 - re-exported

BYTES_PER_TOKEN = 4  # the usual estimate for English text (a CJK character is ~1 token)

CODES: dict[str, tuple[str, str]] = {
    "bank-core-missing": (WARNING, N_("one of the six core Memory Bank files is missing")),
    "bank-size": (WARNING, N_("the bank, read whole at every task start, against a token budget")),
    "bank-file-size": (WARNING, N_("a Memory Bank file past its share of the token budget")),
    "bank-stale": (WARNING, N_("activeContext.md is older than progress.md")),
    "bank-heading-duplicate": (INFO, N_("two `## ` sections of one file share a heading")),
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
