"""Editing a workspace topic (Layout.edit) through the engine's replace_entry, and the
workspace's rules for any edit of its files: soul.md keeps its fields, and memory.md
at its block may only shrink (SPEC §1)."""

from __future__ import annotations

import os
from typing import Any

from memtui.engine.markdown import sections
from memtui.engine.ops.common import Refused
from memtui.engine.ops.replace import EditedText, replace_entry, whole
from memtui.engine.textfile import TextFile, line_count
from memtui.engine.words import listed
from memtui.engine.write.transaction import Receipt
from memtui.i18n import msg
from memtui.layouts.workspace.parse import INDEX, TOPIC_LIKE, topic_id

SOUL = "soul.md"


def edit(root: str, kind: str, name: str, new_text: str, **options: Any) -> Receipt:
    return replace_entry(
        root,
        kind,
        new_text,
        lambda tx_root, _fp, _s: (topic_file(tx_root, name), whole, 0),
        **options,
    )


def topic_file(root: str, name: str) -> str:
    if "/" in name or "\\" in name or "\x00" in name:
        raise Refused(msg("{name!r} is not a topic name", name=name))
    direct = f"memory_{name}.md"
    if os.path.isfile(os.path.join(root, direct)):
        return direct
    for file in sorted(os.listdir(root)):
        if TOPIC_LIKE.fullmatch(file) and topic_id(file) == name:
            return file
    raise Refused(msg("no entry topic:{name} ({direct} does not exist)", name=name, direct=direct))


def check_edit(change: EditedText) -> None:
    if change.rel == SOUL and change.before != change.after:
        before = sorted(s.name for s in sections(TextFile(SOUL, change.before, False, 0), 2, False))
        after = sorted(s.name for s in sections(TextFile(SOUL, change.after, False, 0), 2, False))
        if before != after:
            gone = sorted(set(before) - set(after))
            added = sorted(set(after) - set(before))
            raise Refused(
                msg(
                    "soul.md: only existing fields change; a `## ` section may not "
                    "be added or removed (added: {listed}, removed: {listed2})",
                    listed=listed(added, "-"),
                    listed2=listed(gone, "-"),
                )
            )
    if change.rel == INDEX:
        check_index_growth(change.before, change.after, change.limits.index_block_lines)


def check_index_growth(old: str, new: str, index_block: int) -> None:
    """memory.md at its block (SPEC §1) may shrink or stay, never grow: a change that
    would make it longer is refused until it is governed down."""
    lines_before, lines_after = line_count(old), line_count(new)
    if lines_before >= index_block and lines_after > lines_before:
        raise Refused(
            msg(
                "memory.md has {lines_before:,} lines (blocked at "
                "{index_block:,}); this edit would make it {lines_after:,}: "
                "govern it down first",
                lines_before=lines_before,
                index_block=index_block,
                lines_after=lines_after,
            )
        )
