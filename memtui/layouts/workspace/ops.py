"""Workspace operations (SPEC §1): add, archive and restore topic files together
with their pointer lines in the memory.md index."""

from __future__ import annotations

import os
import re
from typing import Any

from memtui.engine.config import Thresholds
from memtui.engine.identity import check_shown, check_shown_bytes, split_expect
from memtui.engine.markdown import HEADING, fences, sections
from memtui.engine.ops.common import Refused, thresholds
from memtui.engine.ops.lines import (
    Line,
    append_block,
    check_root,
    cut,
    encode,
    eol_of_text,
    insert_after_content,
    line_ranges,
    load,
    one_line,
)
from memtui.engine.ops.places import Place, block, locate, put_back, removal, under
from memtui.engine.ops.places_book import Book
from memtui.engine.ops.replace import read_only
from memtui.engine.textfile import TextFile, line_count
from memtui.engine.write.transaction import Receipt, Transaction, WriteError
from memtui.i18n import msg
from memtui.layouts.workspace.parse import ARROW, INDEX, TOPIC_LIKE, pointer_file, topic_id

ARCHIVE = "archive"
ARCHIVE_INDEX = f"{ARCHIVE}/{INDEX}"
TOPIC_NAME = re.compile(r"[a-z0-9_]+")

Hit = tuple[Line, str | None]  # a pointer line and the `## section` heading line above it


# --- pointers ----------------------------------------------------------------


def pointer_target(content: str, filename: str) -> str | None:
    """The file a `- topic → file.md` line points to (None: not a pointer), as the
    layout reads it when `filename` is the file that exists."""
    stripped = content.strip()
    if not stripped or HEADING.match(stripped):
        return None
    _head, arrow, tail = stripped.partition(ARROW)
    return pointer_file(tail, lambda name: name == filename) if arrow else None


def pointers_to(text: str, filename: str) -> list[Hit]:
    """Every pointer line naming `filename`, with the `## ` heading line it is under
    (lines in fenced code blocks are examples: neither pointers nor headings)."""
    hits: list[Hit] = []
    heading: str | None = None
    code = fences(text).lines(text)
    for index, row in enumerate(line_ranges(text)):
        if index in code:
            continue
        match = HEADING.match(row[2])
        if match:
            depth = len(match.group(1))
            if depth <= 2:
                heading = row[2] if depth == 2 else None
            continue
        if pointer_target(row[2], filename) == filename:
            hits.append((row, heading))
    return hits


def place_line(text: str, heading: str | None, line: str, eol: str) -> str:
    """`line` at the end of the `## ` section that `heading` names (the section is
    created at the end if missing); without a heading, at the end of the file."""
    if heading is None:
        return append_block(text, [line], eol, blank=False)
    match = HEADING.match(heading)
    name = match.group(2).strip() if match else heading.strip()
    found = next(
        (s for s in sections(TextFile("", text, False, len(text)), 2, False) if s.name == name),
        None,
    )
    if found is None:
        return append_block(text, [heading, line], eol)
    return insert_after_content(text, found.span.char_start, found.span.char_stop, [line], eol)


def _cut_all(text: str, hits: list[Hit]) -> tuple[str, list[Place]]:
    """The text without the hits' lines, and where each was (last one first), with its
    text: the restore puts each line back there."""
    places = []
    for (start, stop, content), heading in reversed(hits):
        after = cut(text, start, stop)
        place = removal(text, after, start)
        if place is not None:
            places.append({**place, "text": content, "section": heading})
        text = after
    return text, places


def _drop_emptied(text: str, headings: set[str]) -> str:
    """The archive's `## ` sections among `headings` that the restore left with nothing
    under them go too: memtui's archive keeps no empty section."""
    rows = line_ranges(text)
    i = len(rows)
    while i > 0:
        i -= 1
        if rows[i][2] not in headings:
            continue
        end = next((j for j in range(i + 1, len(rows)) if HEADING.match(rows[j][2])), len(rows))
        if all(not r[2].strip() for r in rows[i + 1 : end]):
            stop = rows[end][0] if end < len(rows) else len(text)
            text = cut(text, rows[i][0], stop, separators=True)
            rows = line_ranges(text)
            i = min(i, len(rows))  # the cut may take the blank lines above it too
    return text


def _place_all(text: str, hits: list[Hit], eol: str) -> str:
    for (_start, _stop, content), heading in hits:
        text = place_line(text, heading, content, eol)
    return text


def _put_all(text: str, hits: list[Hit], record: dict[str, Any], eol: str, book: Book) -> str:
    """Each archived pointer line back where the archive recorded it, if that place is
    still found in its section; else at the end of its section (as before places)."""
    left = list(hits)
    places = record.get("places")
    for place in reversed(places if isinstance(places, list) else []):  # the last cut first
        if not isinstance(place, dict):
            continue
        line = (place.get("text"), place.get("section"))
        hit = next((h for h in left if (h[0][2], h[1]) == line), None)
        if hit is None:
            continue
        at = locate(text, place, under(hit[1]))
        if at is None:
            text = _place_all(text, [hit], eol)
        else:
            text = put_back(text, at, block(place, [hit[0][2]]), place)
        book.relink(record, place)  # the places archived after it beside it follow it
        left.remove(hit)
    return _place_all(text, left, eol)


# --- finding a topic file ----------------------------------------------------


def _topic_rel(root: str, name: str, folder: str) -> str | None:
    """`memory_<name>.md` in folder ("" = the root), or another topic-like file
    whose id is `name` (e.g. memory-notes.md for topic:notes)."""
    if not name or name in (".", "..") or any(c in name for c in "/\\\x00"):
        raise Refused(msg("{name!r} is not a topic name", name=name))
    base = os.path.join(root, folder) if folder else root
    prefix = f"{folder}/" if folder else ""
    direct = f"memory_{name}.md"
    if os.path.lexists(os.path.join(base, direct)):  # a FIFO there: the read says why
        return prefix + direct
    try:
        names = sorted(os.listdir(base))
    except OSError:
        return None
    for file in names:
        if (
            TOPIC_LIKE.fullmatch(file)
            and topic_id(file) == name
            and os.path.isfile(os.path.join(base, file))
        ):
            return prefix + file
    return None


def _read(tx: Transaction, rel: str) -> bytes | None:
    """tx.read, a path memtui may not touch (a link, outside the root) refused."""
    try:
        return tx.read(rel)
    except WriteError as exc:
        raise Refused(str(exc)) from None


def _check_move(tx: Transaction, src: str, dst: str, shown: tuple[str, str | None]) -> None:
    """A topic file may move from src to dst: src is there, as shown (`shown`: the
    topic's id and expected fingerprint), and nothing is at dst."""
    raw = _read(tx, src)
    check_shown_bytes(shown[0], raw, shown[1], src)
    if raw is None:
        raise Refused(msg("{src} does not exist", src=src))
    if os.path.lexists(os.path.join(tx.root, dst)):
        raise Refused(msg("{dst} already exists; not overwritten", dst=dst))


def index_to_add_to(tx: Transaction, limits: Thresholds) -> tuple[TextFile | None, str]:
    """memory.md and its text ("" if absent), for a change that adds to it: refused
    while it is at the block (SPEC §1), so nothing is added until it is governed."""
    index = load(tx, INDEX, limits, must_exist=False)
    old = index.text if index else ""
    before = line_count(old)
    if before >= limits.index_block_lines:
        raise Refused(
            msg(
                "memory.md has {before:,} lines (blocked at "
                "{index_block_lines:,}): run memory governance before anything "
                "is added",
                before=before,
                index_block_lines=limits.index_block_lines,
            )
        )
    return index, old


def new_topic_file(root: str, name: str) -> str:
    """memory_<name>.md, if it may be made as a new topic (add topic's rules, which the
    quick fixes share): a name of lower-case ASCII letters, digits and _, and not the
    dsh layout's L0 meta-rules."""
    if not isinstance(name, str) or not TOPIC_NAME.fullmatch(name):
        raise Refused(
            msg("topic name {name!r}: use lower-case ASCII letters, digits and _", name=name)
        )
    filename = f"memory_{name}.md"
    if read_only(root, filename) is not None:
        raise Refused(
            msg(
                "{filename} holds the dsh layout's L0 meta-rules; it is not a topic",
                filename=filename,
            )
        )
    return filename


def _index_level(count: int, limits: Thresholds) -> str | None:
    block, warn = limits.index_block_lines, limits.index_warn_lines
    if count >= block:
        return msg(
            "memory.md now has {count:,} lines: at the {block:,}-line "
            "block, nothing more may be added until it is governed",
            count=count,
            block=block,
        )
    if count >= warn:
        return msg(
            "memory.md has {count:,} lines (warning from {warn:,}): run governance soon",
            count=count,
            warn=warn,
        )
    return None


# --- operations ----------------------------------------------------------------


def _about(name: str) -> dict[str, str]:
    """The audit's details of a change to one topic: its name and its id (the log)."""
    return {"topic": name, "entry": f"topic:{name}"}


def archive_topic(
    root: str, name: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """memory_<name>.md moves to archive/; its pointer lines move from memory.md to
    archive/memory.md under the same `## section`, their places kept (ops.places) for
    the restore. `expect` (or `@FINGERPRINT` after the name): the topic file's
    fingerprint as shown."""
    name, expect = split_expect(name, expect)
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "archive-topic", details=_about(name), dry_run=dry_run) as tx:
        src = _topic_rel(tx.root, name, "")
        if src is None:
            check_shown(f"topic:{name}", None, expect, f"memory_{name}.md")
            raise Refused(msg("no topic {name!r} (memory_{name}.md does not exist)", name=name))
        if (
            read_only(tx.root, src) is not None
        ):  # in a dsh store it is the L0 meta-rules, not a topic
            raise Refused(
                msg("{src} holds the dsh layout's L0 meta-rules; it is not archived", src=src)
            )
        dst = f"{ARCHIVE}/{src}"
        _check_move(tx, src, dst, (f"topic:{name}", expect))
        index = load(tx, INDEX, limits, must_exist=False)
        hits = pointers_to(index.text, src) if index else []
        book = Book(tx, limits)
        book.made(dst, shared=False)
        tx.move(src, dst)
        tx.details.update({"file": src, "to": dst, "pointers": len(hits)})
        if index is not None and hits:
            archived = load(tx, ARCHIVE_INDEX, limits, must_exist=False)
            book.made(ARCHIVE_INDEX, shared=True)
            old = archived.text if archived else ""
            eol = eol_of_text(old, eol_of_text(index.text))
            text, places = _cut_all(index.text, hits)
            tx.write(INDEX, index.encode(text))
            tx.write(ARCHIVE_INDEX, encode(archived, _place_all(old, hits, eol)))
            book.add({"entry": f"topic:{name}", "file": INDEX, "target": src, "places": places})
        else:
            tx.details["warning"] = f"memory.md had no pointer to {src}"
        book.save()
        return tx.commit()


def restore_topic(
    root: str, name: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """archive/memory_<name>.md comes back; its pointer lines go back to where they
    were in memory.md (ops.places; else to the end of their sections), refused while
    memory.md is at the block. `expect`: the archived file's fingerprint as shown."""
    name, expect = split_expect(name, expect)
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "restore-topic", details=_about(name), dry_run=dry_run) as tx:
        src = _topic_rel(tx.root, name, ARCHIVE)
        if src is None:
            check_shown(f"topic:{name}", None, expect, f"{ARCHIVE}/memory_{name}.md")
            raise Refused(
                msg(
                    "no archived topic {name!r} ({ARCHIVE}/memory_{name}.md)",
                    name=name,
                    ARCHIVE=ARCHIVE,
                )
            )
        dst = src[len(ARCHIVE) + 1 :]
        _check_move(tx, src, dst, (f"topic:{name}", expect))
        index, old = index_to_add_to(tx, limits)
        archived = load(tx, ARCHIVE_INDEX, limits, must_exist=False)
        hits = pointers_to(archived.text, dst) if archived else []
        present = pointers_to(old, dst)
        book = Book(tx, limits)
        record = book.take(lambda r: r.get("file") == INDEX and r.get("target") == dst)
        tx.move(src, dst)
        book.leaving.add(src)
        tx.details.update({"file": dst, "from": src, "pointers": len(hits)})
        new = old
        if archived is not None and hits and not present:
            eol = eol_of_text(old, eol_of_text(archived.text))
            new = _put_all(old, hits, record or {}, eol, book)
            left = _drop_emptied(_cut_all(archived.text, hits)[0], {h for _row, h in hits if h})
            kept = book.restored(None, None, ARCHIVE_INDEX, left)  # None: removed
            if kept is not None:
                tx.write(ARCHIVE_INDEX, archived.encode(kept))
            tx.write(INDEX, encode(index, new))
        elif present:
            book.settle()
            tx.details["note"] = f"memory.md already points to {dst}"
        else:
            book.settle()
            tx.details["warning"] = msg(
                "no archived pointer to {dst}: add one to memory.md", dst=dst
            )
        level = _index_level(line_count(new), limits)
        if level and new != old:
            tx.details["index"] = level
        return tx.commit()


def add_topic(
    root: str,
    name: str,
    description: str,
    section: str,
    body: str,
    *,
    dry_run: bool = False,
) -> Receipt:
    """Write memory_<name>.md and add `- {description} → memory_<name>.md` at the end
    of the `## section` in memory.md (created if needed). Both, or neither."""
    filename = new_topic_file(root, name)
    desc = one_line(description, msg("the description"))
    heading = one_line(section, msg("the section"))
    assert desc is not None and heading is not None
    if ARROW in desc:
        raise Refused(
            msg("the description must not contain {ARROW} (it separates the pointer)", ARROW=ARROW)
        )
    heading = heading.lstrip("#").strip()
    if not heading:
        raise Refused(msg("the section is empty"))
    if not isinstance(body, str) or not body.strip():
        raise Refused(msg("the topic's body is empty"))
    check_root(root)
    limits = thresholds(root)
    details = {**_about(name), "file": filename, "section": heading}
    with Transaction(root, "add-topic", details=details, dry_run=dry_run) as tx:
        if _read(tx, filename) is not None:
            raise Refused(
                msg(
                    "{filename} already exists; edit it (topic:{name}) instead",
                    filename=filename,
                    name=name,
                )
            )
        index, old = index_to_add_to(tx, limits)
        if os.path.lexists(os.path.join(tx.root, ARCHIVE, filename)):
            tx.details["note"] = msg(
                "{ARCHIVE}/{filename} exists too (an archived version)",
                ARCHIVE=ARCHIVE,
                filename=filename,
            )
        eol = eol_of_text(old)
        text = body if body.endswith("\n") else body + eol_of_text(body, eol)
        tx.write(filename, text.encode("utf-8"), mode=tx.LIKE_SIBLINGS)  # the user's own text
        if pointers_to(old, filename):
            tx.details["pointer"] = f"memory.md already points to {filename}"
            new = old
        else:
            new = place_line(old, f"## {heading}", f"- {desc} {ARROW} {filename}", eol)
            tx.write(INDEX, encode(index, new))
        level = _index_level(line_count(new), limits)
        if level:
            tx.details["warning"] = level
        return tx.commit()
