"""The archive book a layout keeps beside the agent's files: a hidden JSONL file, one
record a line, of each block of lines cut out of a file (its text and where it was:
ops.places) or of each file taken out whole. Archiving appends a record; restoring
finds it (the last one archived under its id, or the one whose fingerprint the id
carries), puts its text back byte for byte, and takes its line out of the book; the
book goes with its last record, so no archive is left behind. Each step runs inside
the caller's Transaction; the layout says what a record holds and what its ids are.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from memtui.engine.config import Thresholds
from memtui.engine.identity import fingerprint
from memtui.engine.markdown import sections
from memtui.engine.model import Span
from memtui.engine.ops.common import Refused, now_iso
from memtui.engine.ops.headed import AGAIN, NTH
from memtui.engine.ops.lines import append_block, block_lines, cut, encode, load
from memtui.engine.ops.places import Fits, Place, at_heading, block, locate, put_back, removal, rows
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Conflict, Transaction
from memtui.i18n import msg

Record = dict[str, Any]


def cut_out(tf: TextFile, span: Span, *, separators: bool = True) -> tuple[str, str, Place | None]:
    """(the file's text without the span's lines, the text cut, where it was: the
    place ops.places records, with `plain` when the cut took exactly the span)."""
    after = cut(tf.text, span.char_start, span.char_stop, separators=separators)
    plain = after == tf.text[: span.char_start] + tf.text[span.char_stop :]
    place = removal(tf.text, after, span.char_start)
    return (
        after,
        tf.text[span.char_start : span.char_stop],
        {**place, "plain": plain} if place else None,
    )


def append(tx: Transaction, book: str, limits: Thresholds, record: Record) -> None:
    """The record written as the book's last line (a line is ended first if the book's
    last one is not)."""
    tf = load(tx, book, limits, must_exist=False)
    old = tf.text if tf else ""
    line = json.dumps(record, ensure_ascii=False) + "\n"
    tx.write(book, encode(tf, (old + "\n" if old and not old.endswith("\n") else old) + line))


def opened(tx: Transaction, book: str, limits: Thresholds) -> tuple[TextFile | None, list[str]]:
    """The book as it is under the lock and its lines (with their endings)."""
    tf = load(tx, book, limits, must_exist=False)
    return tf, rows(tf.text) if tf else []


def records(lines: list[str], parse: Callable[[str], Record | None]) -> list[tuple[int, Record]]:
    """(line index, record) of each line of the book that is a record."""
    return [(i, r) for i, raw in enumerate(lines) if (r := parse(raw.rstrip("\r\n")))]


def wanted_ids(prefix: str, heading: str) -> list[str]:
    """The ids a block archived as `prefix#heading` may be under: as written, else
    (`Notes#2`) by its own heading."""
    m = NTH.fullmatch(heading)
    return [f"{prefix}#{h}" for h in [heading, *([m.group(1).strip()] if m else [])]]


def pick(
    found: list[tuple[int, Record]],
    ids: Iterable[str],
    picked: str | None,
    entry_id: str,
    book: str,
    what: str,
) -> tuple[int, Record]:
    """(line, record) of the one archived under the first of `ids` that has any: the
    last archived, or the one whose text has the fingerprint `picked`."""
    hits = next((h for i in ids if (h := [(n, r) for n, r in found if r["id"] == i])), [])
    if not hits:
        raise Refused(
            msg(
                "{entry_id} is not archived (nothing in {book} by that id)",
                entry_id=entry_id,
                book=book,
            )
        )
    return _picked(hits, picked, entry_id, what)


def _picked(
    hits: list[tuple[int, Record]], picked: str | None, entry_id: str, what: str
) -> tuple[int, Record]:
    if picked is not None:
        hits = [(i, r) for i, r in hits if fingerprint(r["text"]) == picked]
        if not hits:
            raise Conflict(
                msg(
                    "{entry_id}: no archived {what} has the text shown; {AGAIN}",
                    entry_id=entry_id,
                    what=what,
                    AGAIN=AGAIN,
                )
            )
    return hits[-1]


def check_shown(
    shown: str | None, record: Record, tf: TextFile | None, entry_id: str, book: str
) -> None:
    """`shown`, the fingerprint the user saw, is the record's text's or the whole
    book's (the tree shows the book's row); else the book changed since."""
    whole = None if tf is None else fingerprint(tf.text)
    if shown is not None and shown not in (fingerprint(record["text"]), whole):
        raise Conflict(
            msg(
                "{entry_id} changed in {book} since it was shown; {AGAIN}",
                entry_id=entry_id,
                book=book,
                AGAIN=AGAIN,
            )
        )


def take_out(tx: Transaction, book: str, tf: TextFile | None, lines: list[str], at: int) -> None:
    """The record's line out of the book; the book removed with its last record."""
    left = [raw for i, raw in enumerate(lines) if i != at]
    if tf is not None and any(raw.strip() for raw in left):
        tx.write(book, tf.encode("".join(left)))
    else:  # the last one is back: no archive is left behind
        tx.remove(book)


def put_back_block(
    text: str, record: Record, fits: Fits, fallback: Callable[[str, str], str] | None = None
) -> str:
    """`text` with the record's block back at its place (found where `fits` allows);
    where that place is gone, `fallback(text, record text)`, else at the file's end."""
    place = record.get("place")
    lines = block_lines(record["text"])
    if isinstance(place, dict):
        where = locate(text, place, fits)
        if where is not None:
            back = rows(record["text"]) if place.get("plain") else None
            return put_back(text, where, back or block(place, lines), place)
    if fallback is not None:
        return fallback(text, record["text"])
    eol = "\r\n" if "\r\n" in record["text"] else "\n"
    return append_block(text, lines, eol)


# --- a heading section, archived whole and restored to its place ---------------------


def archive_section(
    tx: Transaction, book: str, limits: Thresholds, tf: TextFile, span: Span, **where: Any
) -> None:
    """The section at `span` of `tf` (the file `where["rel"]` from the root, `where["file"]`
    as ids name it) cut out, and its record appended to the book under the id
    `where["prefix"]#<its own heading>` (of `where["level"]` `#`)."""
    rel, file, level = where["rel"], where["file"], where["level"]
    after, text, place = cut_out(tf, span)
    own = next(s.name.strip() for s in sections(tf, level, False) if s.span == span)
    record = {
        "id": f"{where['prefix']}#{own}",
        "file": file,
        "heading": own,
        "text": text,
        "place": place,
        "archived_at": now_iso(),
    }
    tx.write(rel, tf.encode(after))
    append(tx, book, limits, record)
    tx.details.update(file=rel, to=book)


def restore_section(
    tx: Transaction,
    book: str,
    limits: Thresholds,
    parse: Callable[[str], Record | None],
    rel: Callable[[], str],
    **shown: Any,
) -> None:
    """The section archived as `shown["prefix"]#shown["heading"]` (`shown["picked"]`: its
    fingerprint, if the id carries one; `shown["shown"]`: the fingerprint the user saw)
    back at its place in the file `rel()` names, its record out of the book."""
    entry_id = shown["entry_id"]
    tf_book, lines = opened(tx, book, limits)
    ids = wanted_ids(shown["prefix"], shown["heading"])
    at, record = pick(records(lines, parse), ids, shown["picked"], entry_id, book, shown["what"])
    check_shown(shown["shown"], record, tf_book, entry_id, book)
    path = rel()
    tf = load(tx, path, limits, must_exist=False)
    if tf is None:
        raise Refused(
            msg(
                "{path} no longer exists; {entry_id} stays archived in {book}",
                path=path,
                entry_id=entry_id,
                book=book,
            )
        )
    tx.write(path, tf.encode(put_back_block(tf.text, record, at_heading(shown["level"]))))
    take_out(tx, book, tf_book, lines, at)
    tx.details.update({"file": path, "from": book})
