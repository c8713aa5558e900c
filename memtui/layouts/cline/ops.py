"""Changes to a Cline Memory Bank, each one transaction with read-back (SPEC §0):
replacing a file's or one `## ` section's text; archiving a section out of its file
into the archive book (its text and where it was: ops.places) and restoring it to
that place, byte for byte. A bank file is never archived whole: the model is told to
read every file of the bank, and the core ones by name.
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
from memtui.layouts.cline.detect import BOOK, bank_of, in_bank
from memtui.layouts.cline.parse import KIND, at, file_part, record_of


def _split(name: str) -> tuple[str, str | None]:
    """(file from the bank, heading or None for the whole file); Refused if the file is
    no Memory Bank file (`..`, absolute, hidden, not .md)."""
    file = file_part(name)
    heading = name[len(file) + 1 :].strip() if len(file) < len(name) else None
    norm = os.path.normpath(file.replace("\\", "/")) if file else ""
    if norm != file or "\x00" in file or in_bank("", file) is None or file.startswith("/"):
        raise Refused(
            msg(
                "{KIND}:{name} is not a Memory Bank file (a .md path in the bank)",
                KIND=KIND,
                name=name,
            )
        )
    if heading == "":
        raise Refused(msg("{KIND}:{name}: no section heading after #", KIND=KIND, name=name))
    return file, heading


def _bank_file(root: str, file: str) -> str:
    bank = bank_of(root)
    if bank is None:
        raise Refused(
            msg("{root} holds no Cline Memory Bank (memory-bank/ with its core files)", root=root)
        )
    return at(bank, file)


# --- finding the entry the user saw ---------------------------------------------


SECTIONS = Sections(msg("section"), msg("the agent"), msg("the agent wrote to it"))


def locate_entry(tf: TextFile, entry_id: str, heading: str | None, fp: str | None) -> Span:
    """The span of the entry `entry_id` names in the file as it is now: the whole file,
    or its `## ` section (engine.ops.headed)."""
    return SECTIONS.locate(tf, entry_id, heading, fp, 2)


def _current(
    tx: Transaction, file: str, shown: tuple[str, str | None, str | None], limits: Thresholds
) -> tuple[str, TextFile, Span]:
    """(path from the root, its text now under the lock, the span of the entry `shown`:
    its id, heading and fingerprint)."""
    rel = _bank_file(tx.root, file)
    tf = load(tx, rel, limits)
    assert tf is not None
    return rel, tf, locate_entry(tf, *shown)


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
    """The file's or the section's text replaced by `new_text` (in the file's line
    ending, ending as the old text did); the rest of the file byte for byte as it was.
    A section's text keeps its own `## ` heading and stays one section. The engine's
    replace_entry does the rest: the lock, the check against what was seen, read-back."""
    from memtui.engine.ops.replace import replace_entry

    name, fp = split_expect(name, expect)
    entry_id = f"{KIND}:{name}"
    file, heading = _split(name)

    target = SECTIONS.target(lambda tx_root: _bank_file(tx_root, file), entry_id, heading, 2)

    def one_section(change: Any) -> None:
        if heading is not None:
            _one_section(entry_id, change.new)

    return replace_entry(
        root,
        KIND,
        new_text,
        target,
        entry_id=entry_id,
        seen_text=seen_text,
        expect=fp,
        dry_run=dry_run,
        check=one_section,
    )


def _one_section(entry_id: str, new: str) -> None:
    """The new text is one `## ` section from its first line to its end."""
    if not one_section(new, 2):
        raise Refused(
            msg(
                "{entry_id}: the text must be one section, beginning with its "
                "`## ` heading line and holding no other `#` or `##` heading; "
                "nothing was written",
                entry_id=entry_id,
            )
        )


# --- archive and restore -----------------------------------------------------------


def archive(root: str, name: str, *, expect: str | None = None, dry_run: bool = False) -> Receipt:
    """The section cut from its file into the archive book, with where it was."""
    name, fp = split_expect(name, expect)
    entry_id = f"{KIND}:{name}"
    file, heading = _split(name)
    if heading is None:
        raise Refused(
            msg(
                "{entry_id}: a bank file is not archived whole (the model is "
                "told to read every file of the bank); archive one of its "
                "sections ({KIND}:{file}#<heading>)",
                entry_id=entry_id,
                KIND=KIND,
                file=file,
            )
        )
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "archive", details={"entry": entry_id}, dry_run=dry_run) as tx:
        rel, tf, span = _current(tx, file, (entry_id, heading, fp), limits)
        where = {"rel": rel, "file": file, "prefix": f"{KIND}:{file}", "level": 2}
        book.archive_section(tx, BOOK, limits, tf, span, **where)
        return tx.commit()


def restore(root: str, name: str, *, expect: str | None = None, dry_run: bool = False) -> Receipt:
    """The archived section back at its place in its file (at the file's end when that
    place is gone), its record out of the book; the book goes with the last
    record. `@FINGERPRINT` in the id picks which of several archived under one id
    (the last archived, without); `expect` is the fingerprint shown: of the section, or
    of the whole book (the tree shows the book's row)."""
    name, picked = split_expect(name)
    shown = checked(expect)
    entry_id = f"{KIND}:{name}"
    file, heading = _split(name)
    if heading is None:
        raise Refused(
            msg("{entry_id}: only a section is archived, and restored", entry_id=entry_id)
        )
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "restore", details={"entry": entry_id}, dry_run=dry_run) as tx:
        book.restore_section(
            tx, BOOK, limits, record_of, lambda: _bank_file(tx.root, file),
            entry_id=entry_id, prefix=f"{KIND}:{file}", heading=heading, level=2,
            picked=picked, shown=shown, what=msg("section"),
        )  # fmt: skip
        return tx.commit()
