"""Edit, archive and restore a note: each one transaction (memtui's lock, conflict
check, snapshot, atomic replace, read-back, audit), located again in the file's
current bytes under the lock, and checked against the fingerprint the user saw."""

from __future__ import annotations

from typing import Any

from memtui.engine.identity import check_shown
from memtui.engine.ops.common import Refused
from memtui.engine.write.transaction import Receipt, Transaction
from memtui_notes.detect import ARCHIVE, NOTES
from memtui_notes.sections import HEADING, Section, archived, find, lines_of, mark, sections

BOM = "\ufeff"


def _text(tx: Transaction, rel: str) -> str | None:
    raw = tx.read(rel)
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(f"{rel} is not valid UTF-8; a note in it is never changed") from None


def _one(text: str, slug: str, entry_id: str, expect: str | None) -> Section:
    found = find(text, slug)
    if len(found) > 1:
        raise Refused(
            f"{entry_id}: two notes have that name; rename one first, nothing was changed"
        )
    if not found:
        check_shown(entry_id, None, expect, NOTES)  # gone since it was shown: a conflict
        raise Refused(f"no note {entry_id} in {NOTES}; nothing was changed")
    note = found[0]
    check_shown(entry_id, text[note.char_start : note.char_stop], expect, NOTES)
    return note


def _write(tx: Transaction, rel: str, text: str) -> None:
    tx.write(rel, text.encode("utf-8"))


def _change(root: str, op: str, entry_id: str, shown: dict[str, Any]) -> Transaction:
    return Transaction(root, op, details={"entry": entry_id}, dry_run=shown.get("dry_run", False))


def _located(
    tx: Transaction, name: str, entry_id: str, shown: dict[str, Any]
) -> tuple[str, Section]:
    """NOTES.md as it is now, under the lock, and the note the user saw in it."""
    text = _text(tx, NOTES) or ""
    return text, _one(text, name, entry_id, shown.get("expect"))


def edit(root: str, kind: str, name: str, new_text: str, **shown: Any) -> Receipt:
    entry_id = f"{kind}:{name}"
    if kind != "note":
        raise Refused(f"{entry_id}: restore it first; archived notes are not edited")
    heads = [line for line in lines_of(new_text) if HEADING.fullmatch(line)]
    if not lines_of(new_text) or not HEADING.fullmatch(lines_of(new_text)[0]) or len(heads) != 1:
        raise Refused(f"{entry_id}: a note is one `## ` heading and its lines; nothing was changed")
    with _change(root, "edit", entry_id, shown) as tx:
        text, note = _located(tx, name, entry_id, shown)
        old = text[note.char_start : note.char_stop]
        new = new_text if new_text.endswith("\n") or not old.endswith("\n") else new_text + "\n"
        _write(tx, NOTES, text[: note.char_start] + new + text[note.char_stop :])
        return tx.commit()


def archive(root: str, kind: str, name: str, **shown: Any) -> Receipt:
    entry_id = f"{kind}:{name}"
    if kind != "note":
        raise Refused(f"{entry_id} is archived already; nothing was changed")
    with _change(root, "archive", entry_id, shown) as tx:
        text, note = _located(tx, name, entry_id, shown)
        notes = sections(text)
        place = next(i for i, s in enumerate(notes) if s.start == note.start)
        after = notes[place + 1 :]
        cut = text[note.char_start : note.char_end]
        kept = _text(tx, ARCHIVE) or ""
        if kept and not kept.endswith("\n"):
            kept += "\n"
        body = cut if cut.endswith("\n") else cut + "\n"
        old = kept + mark(place, after[0].slug if after else None, cut.endswith("\n")) + body
        _write(tx, NOTES, text[: note.char_start] + text[note.char_end :])
        _write(tx, ARCHIVE, old)
        return tx.commit()


def restore(root: str, kind: str, name: str, **shown: Any) -> Receipt:
    entry_id = f"{kind}:{name}"
    with _change(root, "restore", entry_id, shown) as tx:
        kept = _text(tx, ARCHIVE)
        found = [a for a in archived(kept or "") if a.slug == name]
        if not found:
            raise Refused(f"no archived note {name!r} in {ARCHIVE}; nothing was changed")
        old = found[-1]  # the one archived last
        assert kept is not None
        check_shown(entry_id, kept[old.text_start : old.char_end], shown.get("expect"), ARCHIVE)
        body = kept[old.text_start : old.char_end]
        if not old.final_newline and body.endswith("\n"):
            body = body[:-1]
        text = _text(tx, NOTES) or ""
        notes = sections(text)  # the note it was before, where it was (a name may repeat)
        before = [i for i, s in enumerate(notes) if old.before and s.slug == old.before]
        if before:
            at = notes[old.place if old.place in before else before[0]].char_start
        else:
            at = len(text)
            if text and not text.endswith("\n"):
                body = "\n" + body
        if not old.final_newline and at < len(text):
            body += "\n"
        _write(tx, NOTES, text[:at] + body + text[at:])
        rest = kept[: old.char_start] + kept[old.char_end :]
        if rest:
            _write(tx, ARCHIVE, rest)
        else:  # the archive this layout made is emptied: gone, as it was before
            tx.remove(ARCHIVE)
            tx.prune("archive")
        return tx.commit()
