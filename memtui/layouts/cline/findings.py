"""The cline layout's findings (SPEC §3b, §5), each at the file and line it is about."""

from __future__ import annotations

import datetime as dt
import os
from typing import TYPE_CHECKING

from memtui.i18n import Msg, msg
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
        folder = os.path.isdir(os.path.join(reader.root, rel))
        add("bank-core-missing", rel, None, _missing(rel, folder))
    _sizes(reader, data, add)
    _stale(reader, data, add)
    for f in data.files:
        for s in f.sections:
            if s.nth == 2:
                add(
                    "bank-heading-duplicate",
                    f.rel,
                    s.span.lineno,
                    msg(
                        "{file}: {count} sections are headed {heading!r}; each is named by "
                        "its place and fingerprint (`memtui list`), and the model may merge them",
                        file=f.rel,
                        count=s.count,
                        heading=s.heading,
                    ),
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
                msg(
                    "{file} is about {tokens:,} tokens ({bytes:,} bytes), past its share of "
                    "the bank's budget ({budget:,}): the model reads it whole at the start of "
                    "every task; move what is done or settled out of it",
                    file=f.rel,
                    tokens=rules.tokens(f.tf.size),
                    bytes=f.tf.size,
                    budget=per_file,
                ),
            )
    total, warn = data.tokens, limit(t, "cline_bank_warn_tokens")
    most = max(readable, key=lambda f: f.tf.size if f.tf else 0, default=None)
    if most is None or total <= warn:
        return
    over = total > limit(t, "cline_bank_max_tokens")
    v = {"tokens": total, "window": rules.USABLE_TOKENS, "file": most.rel}
    said = (
        msg(
            "the Memory Bank is about {tokens:,} tokens, more than the {window:,} tokens Cline "
            "lets a task use, read at the start of every task before any work (the task starts "
            "truncated); its largest file is {file}",
            **v,
        )
        if over
        else msg(
            "the Memory Bank is about {tokens:,} tokens, {percent}% of the {window:,} tokens "
            "Cline lets a task use, read at the start of every task before any work; its "
            "largest file is {file}",
            percent=total * 100 // rules.USABLE_TOKENS,
            **v,
        )
    )
    add("bank-size", most.rel, None, said, rules.BANK_OVER if over else "")


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
        v = {"file": active.rel, "other": PROGRESS, "date": a_date, "other_date": p_date}
        said = msg(
            "{file} is dated {date}, {other} {other_date}: it holds the current focus and "
            "next steps the model starts each task from, and {other} has moved on since; "
            'update it ("update memory bank")',
            **{k: str(x) for k, x in v.items()},
        )
    else:
        gap = (_mtime(reader.root, progress.rel) - _mtime(reader.root, active.rel)) / DAY
        said = _undated(active.rel, gap)
    if gap > 0 and gap >= days:
        add("bank-stale", active.rel, None, said)


def _dated(f: BankFile, today: dt.date) -> dt.date | None:
    assert f.tf is not None
    return rules.newest_date(f.tf.text, today)


def _mtime(root: str, rel: str) -> float:
    try:
        return os.stat(os.path.join(root, rel), follow_symlinks=False).st_mtime
    except OSError:
        return 0.0


def _missing(rel: str, folder: bool) -> Msg:
    if folder:
        return msg(
            "{file} is a folder, not a file: it is one of the six core files the Memory Bank "
            "instructions have the model read at the start of every task "
            '("initialize memory bank" writes it)',
            file=rel,
        )
    return msg(
        "{file} is missing: it is one of the six core files the Memory Bank instructions "
        'have the model read at the start of every task ("initialize memory bank" writes it)',
        file=rel,
    )


def _undated(rel: str, days: float) -> Msg:
    # one whole sentence a unit and a form (1 day, 2 days), for the translators
    v = {"file": rel, "other": PROGRESS}
    if days >= 1:
        if int(days) == 1:
            return msg(
                "{file} was last changed {n:,} day before {other} (neither carries a date): "
                "it holds the current focus and next steps the model starts each task from, "
                'and {other} has moved on since; update it ("update memory bank")',
                n=int(days),
                **v,
            )
        return msg(
            "{file} was last changed {n:,} days before {other} (neither carries a date): "
            "it holds the current focus and next steps the model starts each task from, "
            'and {other} has moved on since; update it ("update memory bank")',
            n=int(days),
            **v,
        )
    hours = int(days * 24)
    if hours == 1:
        return msg(
            "{file} was last changed {n:,} hour before {other} (neither carries a date): "
            "it holds the current focus and next steps the model starts each task from, "
            'and {other} has moved on since; update it ("update memory bank")',
            n=hours,
            **v,
        )
    return msg(
        "{file} was last changed {n:,} hours before {other} (neither carries a date): "
        "it holds the current focus and next steps the model starts each task from, "
        'and {other} has moved on since; update it ("update memory bank")',
        n=hours,
        **v,
    )
