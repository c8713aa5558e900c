"""The cline layout's outline: the bank's files in the order the model reads them (each
with what it costs in tokens, its `## ` sections below it), the core files missing,
and the sections memtui archived."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.model import WARNING, OutlineItem
from memtui.engine.outline import Rows, book_rows
from memtui.i18n import msg
from memtui.layouts.cline import rules
from memtui.layouts.cline.detect import BOOK
from memtui.layouts.cline.findings import limit
from memtui.layouts.cline.parse import KIND, at, section_id

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.layouts.cline.parse import Archived, BankFile, ClineData

WHOLE = msg(
    "a bank file is not archived whole: the model is told to read them all (x on a section)"
)


def outline(store: Store, data: ClineData) -> list[OutlineItem]:
    rows = Rows.of(store)
    share = limit(store.config.thresholds, "cline_file_tokens")
    items = [_file(rows, f, share) for f in data.files]
    items += [
        OutlineItem(
            msg("{name} (missing)", name=name),
            file=at(data.bank, name),
            badges=((msg("missing"), WARNING),),
        )
        for name in data.missing
    ]
    items += book_rows(BOOK, data.archived, _id, _label)
    return items


def _file(rows: Rows, f: BankFile, share: int | float) -> OutlineItem:
    badges = list(filter(None, rows.file_badges(f.rel)))
    if f.tf is not None:
        cost = rules.tokens(f.tf.size)
        badges.insert(0, (msg("~{cost:,} tokens", cost=cost), WARNING if cost > share else "muted"))
    kids = tuple(
        OutlineItem(s.heading, file=f.rel, line=s.span.lineno, entry_id=section_id(f, s),
                    verbs=("edit", "archive"))
        for s in f.sections
    )  # fmt: skip
    return OutlineItem(
        f.name,
        file=f.rel,
        entry_id=f"{KIND}:{f.name}" if f.tf is not None else None,
        badges=tuple(badges),
        verbs=("edit", "open") if f.tf is not None else ("open",),
        children=(lambda: kids) if kids else None,
        not_offered=WHOLE,
    )


def _id(a: Archived) -> str:
    return a.id


def _label(a: Archived) -> str:
    return a.id.removeprefix(f"{KIND}:").replace("#", " · ", 1)
