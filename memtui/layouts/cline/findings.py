"""The cline layout's findings (SPEC §3b, §5), each at the file and line it is about."""

from __future__ import annotations

import datetime as dt
import os
from typing import TYPE_CHECKING

from memtui.layouts.cline import rules
from memtui.layouts.cline.parse import at

if TYPE_CHECKING:
    from collections.abc import Callable

    from memtui.engine.reader import StoreReader
    from memtui.layouts.cline.parse import BankFile, ClineData

    Add = Callable[..., None]  # check's add(code, file, line, message, level="")

ACTIVE, PROGRESS = "activeContext.md", "progress.md"
DAY = 86_400


def limit(values: object, key: str) -> int | float:
    """A threshold of this layout as the store sets it (memtui.toml), else its default."""
    got = getattr(values, key, None)
    return rules.THRESHOLDS[key] if got is None else got


def check(reader: StoreReader, data: ClineData) -> None:
    def add(code: str, file: str | None, line: int | None, message: str, level: str = "") -> None:
        reader.findings.add(code, file, line, message, level or rules.CODES[code][0])

    for name in data.missing:
        rel = at(data.bank, name)
        there = "is a folder, not a file" if os.path.isdir(os.path.join(reader.root, rel)) else ""
        add(
            "bank-core-missing",
            rel,
            None,
            f"{rel} {there or 'is missing'}: it is one of the six core files the Memory Bank "
            "instructions have the model read at the start of every task "
            '("initialize memory bank" writes it)',
        )
    _sizes(reader, data, add)
    _stale(reader, data, add)
    for f in data.files:
        for s in f.sections:
            if s.nth == 2:
                add(
                    "bank-heading-duplicate",
                    f.rel,
                    s.span.lineno,
                    f"{f.rel}: {s.count} sections are headed {s.heading!r}; each is named by "
                    "its place and fingerprint (`memtui list`), and the model may merge them",
                )


def _sizes(reader: StoreReader, data: ClineData, add: Add) -> None:
    t = reader.thresholds
    per_file = limit(t, "cline_file_tokens")
    readable = [f for f in data.files if f.tf is not None]
    for f in readable:
        assert f.tf is not None
        if rules.tokens(f.tf.size) > per_file:
            add(
                "bank-file-size",
                f.rel,
                None,
                f"{f.rel} is about {rules.tokens(f.tf.size):,} tokens ({f.tf.size:,} bytes), past "
                f"its share of the bank's budget ({per_file:,}): the model reads it whole at "
                "the start of every task; move what is done or settled out of it",
            )
    total, warn = data.tokens, limit(t, "cline_bank_warn_tokens")
    most = max(readable, key=lambda f: f.tf.size if f.tf else 0, default=None)
    if most is None or total <= warn:
        return
    over = total > limit(t, "cline_bank_max_tokens")
    window = f"the {rules.USABLE_TOKENS:,} tokens Cline lets a task use"
    said = "more than" if over else f"{total * 100 // rules.USABLE_TOKENS}% of"
    add(
        "bank-size",
        most.rel,
        None,
        f"the Memory Bank is about {total:,} tokens, {said} {window}, read at the start of "
        f"every task before any work{' (the task starts truncated)' if over else ''}; "
        f"its largest file is {most.rel}",
        rules.BANK_OVER if over else "",
    )


def _stale(reader: StoreReader, data: ClineData, add: Add) -> None:
    """activeContext.md older than progress.md: by the newest date each one carries in
    its text (what the agent wrote; a checkout or a sync resets modification times), else
    by their modification times."""
    top = {f.name: f for f in data.files if f.tf is not None}
    active, progress = top.get(ACTIVE), top.get(PROGRESS)
    if active is None or progress is None:
        return
    days = limit(reader.thresholds, "cline_stale_days")
    a_date, p_date = _dated(active, reader.today), _dated(progress, reader.today)
    if a_date is not None and p_date is not None:
        gap = (p_date - a_date).days
        when = f"is dated {a_date.isoformat()}, {PROGRESS} {p_date.isoformat()}"
    else:
        gap = (_mtime(reader.root, progress.rel) - _mtime(reader.root, active.rel)) / DAY
        when = f"was last changed {_span(gap)} before {PROGRESS} (neither carries a date)"
    if gap > 0 and gap >= days:
        add(
            "bank-stale",
            active.rel,
            None,
            f"{active.rel} {when}: it holds the current focus and next steps the model starts "
            f'each task from, and {PROGRESS} has moved on since; update it ("update memory '
            'bank")',
        )


def _dated(f: BankFile, today: dt.date) -> dt.date | None:
    assert f.tf is not None
    return rules.newest_date(f.tf.text, today)


def _mtime(root: str, rel: str) -> float:
    try:
        return os.stat(os.path.join(root, rel), follow_symlinks=False).st_mtime
    except OSError:
        return 0.0


def _span(days: float) -> str:
    if days >= 1:
        return f"{int(days):,} day{'s' if int(days) != 1 else ''}"
    return f"{int(days * 24):,} hour{'s' if int(days * 24) != 1 else ''}"
