"""The codex layout's outline: memory_summary.md first (what it costs against the
tokens Codex injects, its sections), MEMORY.md and its blocks, the files Codex
rebuilds from its state DB (shown, never offered for a change), the skills and
extensions, and the blocks memtui archived."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.model import ERROR, OutlineItem
from memtui.engine.outline import Rows, book_rows
from memtui.i18n import msg
from memtui.layouts.codex import rules
from memtui.layouts.codex.detect import BOOK, HANDBOOK, ROLLOUTS, SUMMARY
from memtui.layouts.codex.findings import budget
from memtui.layouts.codex.parse import KIND, block_id
from memtui.layouts.codex.prompt import BYTES_PER_TOKEN

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.layouts.codex.parse import Archived, CodexData, CodexFile

ONLY_HANDBOOK = msg("only a MEMORY.md block is archived (x on a # Task Group block)")


def outline(store: Store, data: CodexData) -> list[OutlineItem]:
    rows = Rows.of(store)
    limit = budget(store.config.thresholds) * BYTES_PER_TOKEN
    rollouts = [f for f in data.files if f.rel.startswith(f"{ROLLOUTS}/")]
    items = [_file(rows, f, limit) for f in data.files if f not in rollouts]
    if rollouts:
        items.append(
            OutlineItem(
                f"{ROLLOUTS}/ ({len(rollouts):,})",
                key=ROLLOUTS,
                folder=ROLLOUTS,
                holds=tuple(f.rel for f in rollouts),
                badges=((msg("rebuilt by Codex"), "muted"),),
                children=lambda: tuple(_file(rows, f, limit, short=True) for f in rollouts),
            )
        )
    items += book_rows(BOOK, data.archived, _id, _label)
    return items


def _file(rows: Rows, f: CodexFile, limit: int, short: bool = False) -> OutlineItem:
    badges = list(filter(None, rows.file_badges(f.rel)))
    rebuilt = rules.rebuilt(f.rel)
    if rebuilt is not None:
        badges.insert(0, (msg("rebuilt by Codex"), "muted"))
    elif f.rel == SUMMARY and f.tf is not None:
        over = f.tf.size > limit
        badges.insert(0, ("injected, cut" if over else "injected", ERROR if over else "muted"))
    readable = f.tf is not None
    editable = readable and rebuilt is None
    kids = tuple(
        OutlineItem(
            b.heading,
            file=f.rel,
            line=b.span.lineno,
            entry_id=block_id(f, b),
            verbs=(("edit", "archive") if f.rel == HANDBOOK else ("edit",)) if editable else (),
            not_offered=rebuilt or ONLY_HANDBOOK,
        )
        for b in f.blocks
    )
    return OutlineItem(
        f.rel.rpartition("/")[2] if short else f.rel,
        file=f.rel,
        entry_id=f"{KIND}:{f.rel}" if readable else None,
        badges=tuple(badges),
        verbs=("edit", "open") if editable else ("open",),
        children=(lambda: kids) if kids else None,
        not_offered=rebuilt or ONLY_HANDBOOK,
    )


def _id(a: Archived) -> str:
    return a.id


def _label(a: Archived) -> str:
    return a.id.removeprefix(f"{KIND}:").replace("#", " · ", 1)
