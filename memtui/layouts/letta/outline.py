"""The letta layout's outline: the files of the memory repository by what the agent
makes of them: `<self>` and the blocks of `system/` (in its prompt, each with its token
estimate), the external files (their paths in its prompt), skills, and the blocks memtui
archived; each file's row says when it differs from the committed HEAD."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.model import WARNING, OutlineItem
from memtui.engine.outline import Rows
from memtui.i18n import msg
from memtui.layouts.letta import rules
from memtui.layouts.letta.parse import KIND

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.layouts.letta.parse import LettaData, MemFile

GROUPS = (  # what each is to the agent, shortly: a tree row is narrow
    ("self", "<self>"),  # system/persona.md, in the prompt as <self>
    ("memory", "<memory> blocks"),  # system/**, in the prompt whole
    ("external", "by path only"),  # in the prompt's <external_projection>
    ("skill", "skills"),
    ("archived", "archived"),  # out of system/ (archive/system/)
)
WHOLE = msg("a file outside system/ is not archived: the agent sees only its path already")


def outline(store: Store, data: LettaData) -> list[OutlineItem]:
    rows = Rows.of(store)
    items = []
    for part, label in GROUPS:
        mine = [f for f in data.files if f.part == part]
        if not mine:
            continue
        kids = tuple(_file(rows, f, data) for f in mine)
        items.append(
            OutlineItem(
                f"{label} ({len(mine):,})", key=part, style="group", children=lambda kids=kids: kids
            )
        )
    return items


def _file(rows: Rows, f: MemFile, data: LettaData) -> OutlineItem:
    badges = list(filter(None, rows.file_badges(f.rel)))
    if f.tf is not None and f.part in ("self", "memory"):
        badges.insert(0, (msg("~{tokens:,} tokens", tokens=rules.tokens(f.tf.size)), "muted"))
    if f.rel in data.changed:
        badges.append((msg("uncommitted"), WARNING))
    if f.read_only:
        badges.append(("read-only", "muted"))
    readable = f.tf is not None
    verbs: tuple[str, ...] = ("open",)
    target = None
    if readable and not f.read_only:
        verbs = ("edit", "archive", "open") if f.part in ("self", "memory") else ("edit", "open")
    if readable and f.part == "archived" and f.rel.startswith(rules.ARCHIVE + rules.SYSTEM):
        verbs, target = ("restore", "open"), f"{KIND}:{f.rel.removeprefix(rules.ARCHIVE)}"
    return OutlineItem(
        f.rel.removeprefix(rules.ARCHIVE) if f.part == "archived" else f.rel,
        file=f.rel,
        entry_id=f"{KIND}:{f.rel}" if readable else None,
        badges=tuple(badges),
        verbs=verbs,
        target=target,
        not_offered="" if "archive" in verbs else WHOLE,
    )
