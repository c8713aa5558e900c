"""Changes to a Codex memories folder, each one transaction with read-back (SPEC §0):
replacing a file's or one block's text; archiving a MEMORY.md block into the archive
book (its text and where it was: ops.places) and restoring it to that place, byte for
byte. What Codex would overwrite is refused with the reason (rules.rebuilt): the
files it rebuilds from its state DB, and a memory_summary.md that would not start
with `v1` (its next consolidation rewrites such a summary whole).

Codex takes no lock on the folder (its consolidation holds a lease in its state DB,
not a file): memtui takes its own, and the content-hash check under it refuses a
change to a file Codex wrote since it was shown.
"""

from __future__ import annotations

import os
from typing import Any

from memtui.engine.config import Thresholds
from memtui.engine.identity import checked, split_expect
from memtui.engine.model import Span
from memtui.engine.ops import archive_book as book
from memtui.engine.ops.common import Refused, thresholds
from memtui.engine.ops.headed import Sections, one_section
from memtui.engine.ops.lines import check_root, load
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Receipt, Transaction
from memtui.i18n import msg
from memtui.layouts.codex import rules
from memtui.layouts.codex.detect import BOOK, HANDBOOK, SUMMARY, knows
from memtui.layouts.codex.parse import KIND, LEVELS, file_part, record_of


def _split(name: str) -> tuple[str, str | None]:
    """(file, heading or None for the whole file); Refused if it is no Codex memory
    file, or one Codex rebuilds (the reason named)."""
    rel = file_part(name)
    heading = name[len(rel) + 1 :].strip() if len(rel) < len(name) else None
    norm = os.path.normpath(rel.replace("\\", "/")) if rel else ""
    if norm != rel or "\x00" in rel or rel.startswith("/") or not knows(rel) or rel == BOOK:
        raise Refused(
            msg("{KIND}:{name} is not a file of the Codex memories folder", KIND=KIND, name=name)
        )
    why = rules.rebuilt(rel)
    if why is not None:
        raise Refused(
            msg(
                "{KIND}:{name}: {why}, so a change to it would be lost; nothing was changed",
                KIND=KIND,
                name=name,
                why=why,
            )
        )
    if heading == "":
        raise Refused(msg("{KIND}:{name}: no heading after #", KIND=KIND, name=name))
    if heading is not None and not LEVELS.get(rel):
        raise Refused(
            msg(
                "{KIND}:{name}: {rel} is one entry, not split into blocks",
                KIND=KIND,
                name=name,
                rel=rel,
            )
        )
    return rel, heading


# --- finding the entry the user saw ---------------------------------------------


SECTIONS = Sections(msg("block"), "Codex", msg("Codex wrote to it?"))


def locate_entry(tf: TextFile, entry_id: str, heading: str | None, fp: str | None) -> Span:
    """The span of the entry in the file as it is now: the whole file, or its block
    (engine.ops.headed)."""
    return SECTIONS.locate(tf, entry_id, heading, fp, LEVELS.get(tf.path, 0))


# --- edit ------------------------------------------------------------------------


def edit(
    root: str,
    name: str,
    new_text: str,
    *,
    expect: str | None = None,
    seen_text: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """The file's or the block's text replaced by `new_text` (in the file's line
    ending, ending as the old text did); the rest of the file byte for byte as it was.
    A block keeps its own heading and stays one block; memory_summary.md keeps its
    first line `v1`. The engine's replace_entry does the rest: the lock, the check
    against what was seen, read-back."""
    from memtui.engine.ops.replace import replace_entry

    name, fp = split_expect(name, expect)
    entry_id = f"{KIND}:{name}"
    rel, heading = _split(name)

    target = SECTIONS.target(lambda _root: rel, entry_id, heading, LEVELS.get(rel, 0))

    def rules_kept(change: Any) -> None:
        if heading is not None:
            _one_block(entry_id, change.new, LEVELS[rel])
        if rel == SUMMARY:
            _versioned(entry_id, change.after)

    return replace_entry(
        root,
        KIND,
        new_text,
        target,
        entry_id=entry_id,
        seen_text=seen_text,
        expect=fp,
        dry_run=dry_run,
        check=rules_kept,
    )


def _one_block(entry_id: str, new: str, level: int) -> None:
    """The new text is one block from its heading line to its end."""
    if not one_section(new, level):
        mark = "#" * level
        raise Refused(
            msg(
                "{entry_id}: the text must be one block, beginning with its "
                "`{mark} ` heading line and holding no other heading of "
                "{level} `#` or fewer; nothing was written",
                entry_id=entry_id,
                mark=mark,
                level=level,
            )
        )


def _versioned(entry_id: str, after: str) -> None:
    """memory_summary.md must keep `v1` as its first line (consolidation.md)."""
    if after.split("\n", 1)[0].rstrip("\r") != rules.VERSION_LINE:
        raise Refused(
            msg(
                "{entry_id}: {SUMMARY} would not start with the line "
                "`{VERSION_LINE}`, and Codex's next memory consolidation would "
                "then discard it and write the whole summary again "
                "(consolidation.md), losing this edit; nothing was written",
                entry_id=entry_id,
                SUMMARY=SUMMARY,
                VERSION_LINE=rules.VERSION_LINE,
            )
        )


# --- archive and restore -----------------------------------------------------------


def _handbook_block(name: str, verb: str) -> tuple[str, str]:
    rel, heading = _split(name)
    if rel != HANDBOOK or heading is None:
        raise Refused(
            msg(
                "{KIND}:{name}: only a block of {HANDBOOK} is {verb} "
                "({KIND}:{HANDBOOK}#<Task Group: …>): the summary is what "
                "Codex injects, the other files are read whole",
                KIND=KIND,
                name=name,
                HANDBOOK=HANDBOOK,
                verb=verb,
            )
        )
    return rel, heading


def archive(root: str, name: str, *, expect: str | None = None, dry_run: bool = False) -> Receipt:
    """The block cut from MEMORY.md into the archive book, with where it was."""
    name, fp = split_expect(name, expect)
    entry_id = f"{KIND}:{name}"
    rel, heading = _handbook_block(name, "archived")
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "archive", details={"entry": entry_id}, dry_run=dry_run) as tx:
        tf = _load(tx, rel, limits)
        span = locate_entry(tf, entry_id, heading, fp)
        where = {"rel": rel, "file": rel, "prefix": f"{KIND}:{rel}", "level": 1}
        book.archive_section(tx, BOOK, limits, tf, span, **where)
        return tx.commit()


def restore(root: str, name: str, *, expect: str | None = None, dry_run: bool = False) -> Receipt:
    """The archived block back at its place in MEMORY.md (at its end when that place
    is gone), its record out of the book; the book goes with the last record.
    `@FINGERPRINT` in the id picks which of several archived under one id (the last
    archived, without); `expect` is the fingerprint shown: of the block, or of the
    whole book."""
    name, picked = split_expect(name)
    shown = checked(expect)
    entry_id = f"{KIND}:{name}"
    rel, heading = _handbook_block(name, "restored")
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "restore", details={"entry": entry_id}, dry_run=dry_run) as tx:
        book.restore_section(
            tx, BOOK, limits, record_of, lambda: rel,
            entry_id=entry_id, prefix=f"{KIND}:{rel}", heading=heading, level=1,
            picked=picked, shown=shown, what=msg("block"),
        )  # fmt: skip
        return tx.commit()


def _load(tx: Transaction, rel: str, limits: Thresholds) -> TextFile:
    tf = load(tx, rel, limits)
    assert tf is not None
    return tf
