"""dsh archive and restore (SPEC §3): a fact section's blocks cut from facts.md to
archive/facts/<SECTION>.md, a sop moved to archive/sops/, each back where it was
(ops.places); memory-meta.json's status, the counts and the index follow, and a
restore puts them back as the archive found them while they are as it left them.
Each is one transaction."""

from __future__ import annotations

import copy
import os
from typing import Any

from memtui.engine.identity import check_shown, check_shown_bytes, split_expect
from memtui.engine.ops.common import Refused, current_text, now_iso, thresholds
from memtui.engine.ops.places import Place, at_heading, locate, put_back, removal, rows
from memtui.engine.ops.places_book import Book
from memtui.engine.words import clauses
from memtui.engine.write.files import sha256
from memtui.engine.write.transaction import Receipt, Transaction
from memtui.i18n import msg
from memtui.layouts.dsh.books import (
    FactsState,
    counts,
    plan_books,
    plan_index,
    read_facts,
    sop_names,
)
from memtui.layouts.dsh.meta_json import update_meta
from memtui.layouts.dsh.parse import FACTS, INDEX, STATS
from memtui.layouts.dsh.store import (
    ARCHIVE_SOPS,
    SOPS,
    archived_section,
    begin,
    check_entry,
    refuse_path,
)
from memtui.layouts.dsh.text import append_block, auto_lines, cut_span, fact_sections, section_names

STATS_KEPT = 4096  # memory_stats.json up to this size is kept whole by an archive


def archive(
    root: str | os.PathLike[str],
    entry_id: str,
    *,
    expect: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """fact:SECTION (its block cut from facts.md to archive/facts/SECTION.md) or sop:name
    (sops/name.md moved to archive/sops/); status archived in memory-meta.json.
    `expect` (or `@FINGERPRINT` after the id): the entry's fingerprint as shown."""
    entry_id, expect = split_expect(entry_id, expect)
    kind, name = check_entry(entry_id)
    tx = begin(root, "archive", dry_run)
    with tx:
        book = Book(tx, thresholds(tx.root))
        record: dict[str, Any] = {"entry": f"{kind}:{name}"}
        if kind == "fact":
            state, moved, places = _archive_section(tx, name, expect)
            record.update(file=FACTS, places=places)
            sops = sop_names(tx.root)
        else:
            _, moved, state, sops = _move_sop(tx, name, restoring=False, expect=expect)
        book.made(moved, shared=False)
        fields = {"status": "archived", "archivedAt": now_iso(), "archivedTo": moved}
        entry = kind + ":" + name  # a value computed outside msg(): Babel reads the call
        summary = msg("{entry} archived to {path}", entry=entry, path=moved)
        return _finish_move(
            tx, (kind, name), (state, sops), fields, summary, (book, record), archived_to=moved
        )


def _archive_section(
    tx: Transaction, name: str, expect: str | None
) -> tuple[FactsState, str, list[Place]]:
    """The section's blocks cut from facts.md to archive/facts/NAME.md; the facts left,
    that file, and where each block was (the last one first)."""
    tf = current_text(tx, FACTS, must_exist=False)
    found = fact_sections(tf.text) if tf else []
    spans = [span for n, span, _ in found if n == name]
    if tf is None or not spans:
        check_shown(f"fact:{name}", None, expect, FACTS)
        raise Refused(msg("facts.md has no section {name!r}", name=name))
    # fact:NAME is shown as its first section (entries.resolve); all of them move
    check_shown(f"fact:{name}", tf.text[spans[0].char_start : spans[0].char_stop], expect, FACTS)
    dst = refuse_path(archived_section(name), tx.root)
    if os.path.lexists(os.path.join(tx.root, dst)):
        raise Refused(
            msg("{dst} exists already (an earlier archive); restore or rename it first", dst=dst)
        )
    text, pieces, places = tf.text, list[str](), list[Place]()
    for span in reversed(spans):
        after, piece = cut_span(text, span)
        pieces.insert(0, piece)
        place = removal(text, after, span.char_start)
        if place is not None:
            places.append(place)
        text = after
    tx.write(FACTS, tf.encode(text))
    tx.write(dst, "".join(pieces).encode("utf-8"), expect=None)
    left = [(n, s, nums) for n, s, nums in found if n != name]
    state = FactsState(section_names(left), sum(len(nums) for _, _, nums in left))
    return state, dst, places if len(places) == len(pieces) else []


def restore(
    root: str | os.PathLike[str],
    entry_id: str,
    *,
    expect: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """The reverse of archive: the section goes back to where it was in facts.md (to
    its end if that place is gone or was not kept), the sop back to sops/; Refused when
    that section or sop exists again meanwhile. `expect`: the fingerprint of the
    archived file, as shown."""
    entry_id, expect = split_expect(entry_id, expect)
    kind, name = check_entry(entry_id)
    tx = begin(root, "restore", dry_run)
    with tx:
        book = Book(tx, thresholds(tx.root))
        key = f"{kind}:{name}"
        record = book.take(lambda r: r.get("entry") == key)
        if kind == "fact":
            src = refuse_path(archived_section(name), tx.root)
            block = current_text(tx, src, must_exist=False)
            check_shown(f"fact:{name}", block.text if block else None, expect, src)
            if block is None:
                raise Refused(
                    msg("fact:{name} is not archived ({src} does not exist)", name=name, src=src)
                )
            tf, state, _ = read_facts(tx)
            if name in state.names:
                raise Refused(
                    msg("facts.md has a section {name!r} again; restore refused", name=name)
                )
            old = tf.text if tf else ""
            new = _put_sections(old, block.text, record, book) if record else None
            if new is None:  # archived before places were kept, or changed since
                text = block.text
                if name not in section_names(fact_sections(text)):
                    text = f"## {name}\n{text}"
                new = append_block(old, text)
            tx.write(FACTS, tf.encode(new) if tf else new.encode("utf-8"))
            tx.remove(src)
            found = fact_sections(new)
            state = FactsState(section_names(found), sum(len(n) for _, _, n in found))
            sops = sop_names(tx.root)
            target = FACTS
        else:
            src, target, state, sops = _move_sop(tx, name, restoring=True, expect=expect)
        book.leaving.add(src)
        fields = {"status": "active", "restoredAt": now_iso()}
        entry = kind + ":" + name
        summary = msg(
            "{entry} restored from {source} to {path}",
            entry=entry,
            source=src,
            path=target,
        )
        return _finish_move(
            tx, (kind, name), (state, sops), fields, summary, (book, record), restored_from=src
        )


def _put_sections(text: str, archived: str, record: dict[str, Any], book: Book) -> str | None:
    """The archived blocks back at their places in facts.md, each before the heading (or
    at the end) its anchors find, else at the end; None when the archived file no
    longer splits into the blocks recorded."""
    places = record.get("places")
    if not isinstance(places, list):
        return None
    lines = rows(archived)
    sizes = [p.get("rows") if isinstance(p, dict) else None for p in reversed(places)]
    if not sizes or not all(isinstance(n, int) for n in sizes) or sum(sizes) != len(lines):
        return None
    start = 0
    for place, size in zip(reversed(places), sizes, strict=True):
        piece = lines[start : start + size]
        start += size
        at = locate(text, place, at_heading(2))
        if at is None:
            text = append_block(text, "".join(piece))
        else:
            text = put_back(text, at, piece, place)
        book.relink(record, place)  # the sections archived after it beside it follow it
    return text


def _move_sop(
    tx: Transaction, name: str, *, restoring: bool, expect: str | None = None
) -> tuple[str, str, FactsState, list[str]]:
    """sops/NAME.md to archive/sops/ (or back, restoring), never over an existing file;
    (from, to, the facts, the sops after the move) for the books. `expect`: the
    fingerprint of the file moved, as shown."""
    live = refuse_path(f"{SOPS}/{name}.md", tx.root)
    kept = refuse_path(f"{ARCHIVE_SOPS}/{name}.md", tx.root)
    src, dst = (kept, live) if restoring else (live, kept)
    raw = tx.read(src)
    check_shown_bytes(f"sop:{name}", raw, expect, src)
    if raw is None:
        raise Refused(
            msg("sop:{name} is not archived ({src} does not exist)", name=name, src=src)
            if restoring
            else msg("sop:{name} does not exist", name=name)
        )
    if os.path.lexists(os.path.join(tx.root, dst)):
        raise Refused(
            msg("{dst} exists again; restore refused (not overwritten)", dst=dst)
            if restoring
            else msg("{dst} exists already (an earlier archive); not overwritten", dst=dst)
        )
    tx.move(src, dst)
    _, state, _ = read_facts(tx)
    sops = sop_names(tx.root, add={name}) if restoring else sop_names(tx.root, drop={name})
    return src, dst, state, sops


def _finish_move(
    tx: Transaction,
    entry: tuple[str, str],
    books: tuple[FactsState, list[str]],
    fields: dict[str, Any],
    summary: str,
    place: tuple[Book, dict[str, Any] | None],
    **details: Any,
) -> Receipt:
    """The rest of an archive or a restore: the entry's status `fields` in
    memory-meta.json, the counts (fields["status"] decides archived +1 or -1), the
    index, the places book and the details; then the commit. `place`: the book, and
    the archive's record (an archive: what it adds; a restore: what it took). A restore
    puts back the entry's memory-meta.json entry, and index.txt's automatic segment, as
    they were before the archive when they are still as the archive left them."""
    kind, name = entry
    key = f"{kind}:{name}"
    book, record = place
    archiving = fields["status"] == "archived"
    was: list[Any] = []

    def change(entries: dict[str, Any]) -> None:
        if archiving:
            was[:] = [copy.deepcopy(entries.get(key))]
        elif record is not None and "meta" in record and entries.get(key) == _archived(record):
            if record["meta"] is None:
                del entries[key]
            else:
                entries[key] = record["meta"]
            return
        entries.setdefault(key, {"type": kind}).update(fields)

    update_meta(tx, [key], change)
    counted = counts(tx, *books, archived=1 if archiving else -1)
    if archiving:
        record = {**(record or {}), "meta": was[0] if was else None, "fields": fields}
        index = _plan_keeping(tx, counted, books, record)
        book.add(record)
        book.save()
    else:
        index = _plan_putting_back(tx, counted, books, record or {})
        book.settle()
    said = clauses([summary, msg("index rebuilt")]) if index else summary
    tx.details.update(summary=said, entry=key, **details)
    tx.details.update(index or {})
    return tx.commit()


def _plan_keeping(
    tx: Transaction, counted: Any, books: tuple[FactsState, list[str]], record: dict[str, Any]
) -> dict[str, Any] | None:
    """An archive's books (plan_books), and in `record` what index.txt's automatic
    segment and memory_stats.json held before and hold after, for its restore."""
    auto, stats = _auto(tx), tx.read(STATS)
    index = plan_books(tx, counted, books[0].names, books[1])
    if auto is not None:  # the segment it found, and what it left there
        record["index"] = {"was": auto, "now": _auto(tx, planned=True) if index else auto}
    if stats is None or len(stats) <= STATS_KEPT:  # kept whole (None: it made the file)
        was = None if stats is None else stats.decode("utf-8")  # plan_books read it so
        record["stats"] = {"was": was, "now": sha256(tx.planned(STATS))}
    return index


def _plan_putting_back(
    tx: Transaction, counted: Any, books: tuple[FactsState, list[str]], kept: dict[str, Any]
) -> dict[str, Any] | None:
    """A restore's books: index.txt's automatic segment and memory_stats.json as the
    archive found them when they are still as it left them, else worked out anew."""
    back = _unless_changed(kept.get("index"), _auto(tx))
    back = back if isinstance(back, list) and all(isinstance(x, str) for x in back) else None
    stats, was = tx.read(STATS), kept.get("stats")
    same = isinstance(was, dict) and stats is not None and was.get("now") == sha256(stats)
    if same and was.get("was") is None:  # the archive made the file: it goes again
        tx.remove(STATS)
        return plan_index(tx, books[0].names, books[1], back)
    index = plan_books(tx, counted, books[0].names, books[1], back)
    if same and isinstance(was.get("was"), str):
        tx.replan(STATS, was["was"].encode("utf-8"))
    return index


def _unless_changed(kept: Any, now: Any) -> Any:
    """What an archive found in a bookkeeping file (`kept`: {"was", "now"}), if the file
    is still as that archive left it (`now`); else None (it is worked out anew)."""
    return kept.get("was") if isinstance(kept, dict) and kept.get("now") == now else None


def _auto(tx: Transaction, planned: bool = False) -> list[str] | None:
    """index.txt's automatic segment now (`planned`: as this change writes it)."""
    if planned:
        text = tx.planned(INDEX).decode("utf-8", "replace").removeprefix("\ufeff")
    else:
        tf = current_text(tx, INDEX, must_exist=False)
        text = tf.text if tf else ""
    return auto_lines(text)


def _archived(record: dict[str, Any]) -> dict[str, Any]:
    """The memory-meta.json entry as the archive that made `record` left it."""
    kind = str(record.get("entry", "")).partition(":")[0]
    meta = record.get("meta")
    entry = copy.deepcopy(meta) if isinstance(meta, dict) else {"type": kind}
    fields = record.get("fields")
    entry.update(fields if isinstance(fields, dict) else {})
    return entry
