"""Companion operations (SPEC §2): event status, new events, MEMORY.md's unresolved
block, archiving events and profile items.

Each plans from the files' current bytes under the store lock and commits one
Transaction; only the lines of the entry concerned change.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re

from memtui.engine import config
from memtui.engine.identity import check_shown, split_expect
from memtui.engine.markdown import fences, sections
from memtui.engine.model import Event, Section, item_text
from memtui.engine.ops.common import Refused, thresholds
from memtui.engine.ops.lines import (
    append_block,
    block_lines,
    check_root,
    cut,
    encode,
    eol_of_text,
    insert_after_content,
    keep_final_newline,
    line_ranges,
    load,
    one_line,
)
from memtui.engine.ops.places import at_heading, block, locate, put_back, removal, under
from memtui.engine.ops.places_book import Book
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Receipt, Transaction
from memtui.i18n import msg
from memtui.layouts.companion.ids import EventRef, event_ref, pick_event
from memtui.layouts.companion.parse import (
    EVENT_TYPES,
    EVENTS,
    LIST_ITEM,
    PROFILE,
    SUMMARY,
    UNRESOLVED,
    UNRESOLVED_ID,
    _events,
    parse_date,
    unresolved_expected,
    unresolved_heading,
    unresolved_run,
)
from memtui.layouts.companion.vocab import EMOTIONAL, PROMISE
from memtui.layouts.workspace.parse import COMPANIONS, TOPIC_LIKE

OPEN = "待跟进"
DONE = "已完成"
ARCHIVE_EVENTS = "archive/" + EVENTS
ARCHIVE_PROFILE = "archive/" + PROFILE
WORKSPACE_INDEX = "memory.md"
UNRESOLVED_HEADING = f"## {UNRESOLVED}"
CONTENT_CHARS = 40

_STATUS = re.compile(r"\*\*[ \t]*状态[ \t]*\*\*[ \t]*[：:][ \t]*")
_FIELD = re.compile(r"\*\*[^*\n]+?\*\*[ \t]*[：:]")
_ITEM_MARKS = ("-", "*", "•")


# --- finding an event ------------------------------------------------------


def parse_event_ref(ref: str, expect: str | None = None) -> EventRef:
    """`event:E007`, `E7`, `E007#2` (the second E007), `event:L12`, each optionally
    with `@FINGERPRINT` (identity.event_ref); Refused if `ref` is no event id."""
    got = event_ref(ref, expect) if isinstance(ref, str) else None
    if got is None:
        raise Refused(
            msg("{ref!r} is not an event id (event:E020, E020, E020#2@… or L12@…)", ref=ref)
        )
    return got


# --- status ----------------------------------------------------------------


def set_event_status(
    root: str, event_id: str, status: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """Set the value on the event's **状态** line (the line is added after the last
    field line if the event has none). Nothing else in events.md changes. `expect`:
    the event's fingerprint as shown (identity); refused if it is not that now."""
    value = one_line(status, msg("the status"))
    assert value is not None
    ref = parse_event_ref(event_id, expect)
    check_root(root)
    limits = thresholds(root)
    event = f"event:{ref.shown}"
    details = {"event": event, "entry": event, "status": value}
    with Transaction(root, "event-status", details=details, dry_run=dry_run) as tx:
        tf = load(tx, EVENTS, limits)
        assert tf is not None
        event = pick_event(_events(tf), ref, EVENTS)
        text = _with_status(tf.text, event, value)
        if text == tf.text:
            tx.details["unchanged"] = f"{ref.shown} already has 状态 {value}"
            return tx.commit()
        tx.details["was"] = event.status
        tx.write(EVENTS, tf.encode(text))
        return tx.commit()


def done(root: str, event_id: str, *, expect: str | None = None, dry_run: bool = False) -> Receipt:
    return set_event_status(root, event_id, DONE, expect=expect, dry_run=dry_run)


def reopen(
    root: str, event_id: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    return set_event_status(root, event_id, OPEN, expect=expect, dry_run=dry_run)


def _with_status(text: str, event: Event, value: str) -> str:
    lines = line_ranges(text, event.span.char_start, event.span.char_stop)
    for start, _stop, content in lines:
        match = _STATUS.match(content)
        if match:
            value_start = start + match.end()
            value_stop = start + len(content.rstrip(" \t"))
            return text[:value_start] + value + text[max(value_start, value_stop) :]
    fields = [r for r in lines if _FIELD.match(r[2])]
    _start, stop, _content = fields[-1] if fields else lines[0]
    eol = eol_of_text(text)
    new_line = f"**状态**：{value}"
    if text[stop - 1 : stop] == "\n":
        return text[:stop] + new_line + eol + text[stop:]
    return text[:stop] + eol + new_line + text[stop:]  # the file's last line, no newline


# --- adding an event -------------------------------------------------------


def _real_date(value: str | dt.date | None, what: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        value = value.date()
    if isinstance(value, dt.date):
        return value.isoformat()
    text = value.strip() if isinstance(value, str) else ""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) or parse_date(text) is None:
        raise Refused(
            msg("{what} {value!r} is not a real date (YYYY-MM-DD)", what=what, value=value)
        )
    return text


def due_date(type: str, due: str | dt.date | None) -> str | None:
    """The 到期日 add_event writes for an event of `type` (a real YYYY-MM-DD; a 约定
    needs one), or None; refused with the reason. Faces ask it before adding."""
    due_text = _real_date(due, "到期日")
    if type.strip() == PROMISE and due_text is None:
        raise Refused(msg("a {PROMISE} (promise) needs a due date (到期日)", PROMISE=PROMISE))
    return due_text


def add_event(
    root: str,
    type: str,  # the seed's field name (类型)
    content: str,
    *,
    stars: int | None = None,
    due: str | dt.date | None = None,
    user_state: str | None = None,
    follow_up: str | None = None,
    day: str | dt.date | None = None,
    dry_run: bool = False,
) -> Receipt:
    """Append a new event at the end of memory/events.md, numbered after the
    largest non-000 number, in the seed's format."""
    kind = one_line(type, msg("the type"))
    if kind not in EVENT_TYPES:
        raise Refused(
            msg("type {type!r} is not one of {join}", type=type, join=" / ".join(EVENT_TYPES))
        )
    text_content = one_line(content, msg("the content"))
    state = one_line(user_state, "用户状态", required=False)
    follow = one_line(follow_up, "后续", required=False)
    if stars is not None:
        if isinstance(stars, bool) or not isinstance(stars, int) or not 1 <= stars <= 5:
            raise Refused(msg("情绪强度 must be 1-5 stars, not {stars!r}", stars=stars))
        if kind != EMOTIONAL:
            raise Refused(
                msg(
                    "情绪强度 (stars) is only for {EMOTIONAL}, not {kind}",
                    EMOTIONAL=EMOTIONAL,
                    kind=kind,
                )
            )
    due_text = due_date(kind, due)
    date_text = _real_date(day, msg("the date")) or config.today().isoformat()
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "add-event", details={"type": kind}, dry_run=dry_run) as tx:
        tf = load(tx, EVENTS, limits, must_exist=False)
        text = tf.text if tf else ""
        numbers = [e.number for e in _events(tf)] if tf else []
        label = f"E{max((n for n in numbers if n), default=0) + 1:03d}"
        lines = [f"### [{label}] {date_text} · {kind}", f"**类型**：{kind}"]
        lines.append(f"**内容**：{text_content}")
        if stars is not None:
            lines.append(f"**情绪强度**：{'⭐' * stars}")
        if state:
            lines.append(f"**用户状态**：{state}")
        if follow:
            lines.append(f"**后续**：{follow}")
        lines.append(f"**状态**：{OPEN}")
        if due_text:
            lines.append(f"**到期日**：{due_text}")
        new = append_block(text, lines, eol_of_text(text))
        tx.details["event"] = f"event:{label}"
        tx.write(EVENTS, encode(tf, new))
        return tx.commit()


# --- MEMORY.md's unresolved block -----------------------------------------


def unresolved_line(event: Event) -> str:
    """`- [E012] 约定 · 到期 2026-12-01 · <content, about 40 characters>`."""
    parts = [f"- [{event.label}] {event.type}".rstrip()]
    if event.due and event.due.strip():
        parts.append(f"到期 {event.due.strip()}")
    content = " ".join(event.content.split())
    if len(content) > CONTENT_CHARS:
        content = content[:CONTENT_CHARS].rstrip() + "…"
    if content:
        parts.append(content)
    return " · ".join(parts)


def refresh_unresolved(root: str, *, dry_run: bool = False) -> Receipt | None:
    """Regenerate the lines of MEMORY.md's 【最近未解决事项】 block from events.md
    (None when it is already current). Every other line of MEMORY.md stays."""
    check_root(root)
    with Transaction(root, "refresh-unresolved", dry_run=dry_run) as tx:
        return tx.commit() if plan_unresolved(tx) else None


def plan_unresolved(tx: Transaction) -> bool:
    """refresh_unresolved planned into `tx` (False: the block is current already)."""
    limits = thresholds(tx.root)
    _refuse_shared_summary(tx.root)
    events_tf = load(tx, EVENTS, limits, must_exist=False)
    events = _events(events_tf) if events_tf else []
    wanted = unresolved_expected(events, limits.unresolved_max)
    items = [unresolved_line(e) for e in wanted]
    tf = load(tx, SUMMARY, limits, must_exist=False)
    text = tf.text if tf else ""
    new = _with_block(text, items)
    if new is None or new == text:
        return False
    tx.details["unresolved"] = [f"event:{e.label}" for e in wanted]
    tx.write(SUMMARY, encode(tf, new))
    return True


def _refuse_shared_summary(real: str) -> None:
    """MEMORY.md and the workspace's memory.md are one file on a case-insensitive
    file system: then the block may only be written if no workspace layout is there."""
    summary, index = os.path.join(real, SUMMARY), os.path.join(real, WORKSPACE_INDEX)
    if not (os.path.exists(summary) and os.path.exists(index)):
        return
    if not os.path.samefile(summary, index):
        return
    try:
        names = os.listdir(real)
    except OSError:
        names = []
    if any(n in COMPANIONS or TOPIC_LIKE.fullmatch(n) for n in names):
        raise Refused(
            msg(
                "{SUMMARY} and {WORKSPACE_INDEX} are the same file here (a "
                "case-insensitive file system?) and it is the workspace index: "
                "the unresolved block is not written into it",
                SUMMARY=SUMMARY,
                WORKSPACE_INDEX=WORKSPACE_INDEX,
            )
        )


def _with_block(text: str, items: list[str]) -> str | None:
    """`text` with the block's list replaced by `items`; every other line stays,
    including text the user wrote under the heading after the list."""
    eol = eol_of_text(text)
    lines = line_ranges(text)
    head = unresolved_heading([r[2] for r in lines], fences(text).lines(text))  # not in code
    if head is None:
        if not items:
            return None  # no block and nothing open: already current
        return append_block(text, [UNRESOLVED_HEADING, *items], eol)
    start, stop = unresolved_run([r[2] for r in lines], head)
    if start == stop:  # no list yet: right under the heading
        at = lines[head][1]
        if not items:
            return None
        if text[at - 1 : at] != "\n":  # the heading is the last line, without EOL
            return text + eol + eol.join(items)
        return text[:at] + "".join(item + eol for item in items) + text[at:]
    char_start, char_stop = lines[start][0], lines[stop - 1][1]
    ends_line = text[char_stop - 1 : char_stop] == "\n"
    kept = _users_lines([r[2] for r in lines[start:stop]])
    chunk = eol.join(items + kept) + (eol if ends_line and (items or kept) else "")
    return keep_final_newline(text, text[:char_start] + chunk + text[char_stop:])


def _users_lines(run: list[str]) -> list[str]:
    """The lines of the block's list that are not event items (a bullet the user added,
    with its wrapped lines): they stay, after the regenerated items."""
    kept: list[str] = []
    ours = False
    for line in run:
        if LIST_ITEM.match(line):
            ours = bool(UNRESOLVED_ID.search(line))
        elif not line.strip():
            continue
        if not ours:
            kept.append(line)
    return kept


# --- archiving events ------------------------------------------------------


def archive_event(
    root: str, event_id: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """The event's lines move to the end of archive/memory/events.md; where they were is
    kept (ops.places) for the restore."""
    ref = parse_event_ref(event_id, expect)
    return _move_event(root, ref, EVENTS, ARCHIVE_EVENTS, "archive-event", dry_run)


def restore_event(
    root: str, event_id: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """An archived event's lines move back to where they were in memory/events.md (to its
    end if that place is gone or was not kept); its id and fingerprint as the archive
    shows it."""
    ref = parse_event_ref(event_id, expect)
    return _move_event(root, ref, ARCHIVE_EVENTS, EVENTS, "restore-event", dry_run)


def _move_event(
    root: str, ref: EventRef, source: str, target: str, op: str, dry_run: bool
) -> Receipt:
    label = ref.label
    check_root(root)
    limits = thresholds(root)
    eid = f"event:{ref.shown}"
    details = {"event": eid, "entry": eid, "from": source, "to": target}
    with Transaction(root, op, details=details, dry_run=dry_run) as tx:
        src = load(tx, source, limits, must_exist=source == EVENTS)
        if src is None:
            raise Refused(
                msg(
                    "no event {shown} in {source} ({source} does not exist)",
                    shown=ref.shown,
                    source=source,
                )
            )
        event = pick_event(_events(src), ref, source)
        dst = load(tx, target, limits, must_exist=False)
        dst_events = _events(dst) if dst else []
        if target == EVENTS and event.number and any(e.number == event.number for e in dst_events):
            raise Refused(
                msg(
                    "{EVENTS} already has an event {label} (the agent numbers "
                    "after the events it sees); edit one of the numbers before "
                    "restoring",
                    EVENTS=EVENTS,
                    label=label,
                )
            )
        if target == ARCHIVE_EVENTS and event.number:
            highest = max((e.number for e in _events(src) if e.number), default=0)
            if event.number == highest:
                tx.details["warning"] = msg(
                    "{label} is the highest number in {EVENTS}: the agent's next "
                    "event will reuse it; restoring it later needs a renumbering",
                    label=label,
                    EVENTS=EVENTS,
                )
        src_text = src.text
        moved = block_lines(src_text[event.span.char_start : event.span.char_stop])
        dst_text = dst.text if dst else ""
        new_src: str | None = cut(
            src_text, event.span.char_start, event.span.char_stop, separators=True
        )
        book = Book(tx, limits)
        key = _block_key(moved)
        if target == ARCHIVE_EVENTS:
            new_dst = append_block(dst_text, moved, eol_of_text(dst_text, eol_of_text(src_text)))
            book.made(ARCHIVE_EVENTS, shared=True)
            place = removal(src_text, new_src or "", event.span.char_start)
            book.add({"entry": eid, "file": EVENTS, "key": key, "place": place})
            book.save()
        else:
            record = book.take(lambda r: r.get("file") == EVENTS and r.get("key") == key)
            if record is None and event.number:  # changed in the archive: its number
                label = event.label
                record = book.take(lambda r: r.get("file") == EVENTS and _label(r) == label)
            place = record.get("place") if record else None
            at = locate(dst_text, place, at_heading()) if isinstance(place, dict) else None
            if isinstance(place, dict) and not dst_text:
                at = 0  # nothing there: as it was, with the blank lines it took along
            if place is None or at is None:  # archived before places were kept, or gone
                eol = eol_of_text(dst_text, eol_of_text(src_text))
                new_dst = append_block(dst_text, moved, eol)
            else:
                new_dst = put_back(dst_text, at, block(place, moved), place)
            new_src = book.restored(record, place, ARCHIVE_EVENTS, new_src or "")
        if new_src is not None:
            tx.write(source, src.encode(new_src))
        tx.write(target, encode(dst, new_dst))
        return tx.commit()


def _block_key(lines: list[str]) -> str:
    """Which archived block a place record is for: a digest of its lines."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:16]


def _label(record: dict[str, object]) -> str | None:
    entry = record.get("entry")
    return entry.partition(":")[2].partition("#")[0] if isinstance(entry, str) else None


# --- archiving profile items -----------------------------------------------


def archive_profile_item(
    root: str, category: str, item: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """The `- item` line moves to archive/memory/user_profile.md, under the same
    `## category`. Core items are archived only this way: explicitly. `expect`: the
    fingerprint of the category (`profile:<category>`) as shown."""
    where = (PROFILE, ARCHIVE_PROFILE)
    return _move_item(root, category, item, where, "archive-profile", expect, dry_run)


def restore_profile_item(
    root: str, category: str, item: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """An archived item goes back to where it was in its `## category` of
    user_profile.md (to the category's end if that place is gone or was not kept);
    `expect`: the fingerprint of that category in the archive, as shown."""
    where = (ARCHIVE_PROFILE, PROFILE)
    return _move_item(root, category, item, where, "restore-profile", expect, dry_run)


def _section(tf: TextFile, name: str) -> Section | None:
    wanted = name.strip()
    return next((s for s in sections(tf, 2, False) if s.name.strip() == wanted), None)


def _move_item(
    root: str,
    category: str,
    item: str,
    where: tuple[str, str],
    op: str,
    expect: str | None,
    dry_run: bool,
) -> Receipt:
    source, target = where
    name = one_line(category, msg("the category"))
    wanted = one_line(item, msg("the item"))
    assert name is not None and wanted is not None
    wanted = wanted.lstrip("-*• \t") if wanted[:1] in _ITEM_MARKS else wanted
    name, expect = split_expect(name, expect)
    check_root(root)
    limits = thresholds(root)
    details: dict[str, object] = {"category": name, "item": wanted, "from": source, "to": target}
    details["entry"] = f"profile:{name}"
    with Transaction(root, op, details=details, dry_run=dry_run) as tx:
        src = load(tx, source, limits, must_exist=source == PROFILE)
        section = _section(src, name) if src else None
        if src is None or section is None:
            check_shown(f"profile:{name}", None, expect, source)
            raise Refused(msg("no category {name!r} in {source}", name=name, source=source))
        text = src.text
        shown = text[section.span.char_start : section.span.char_stop]
        check_shown(f"profile:{name}", shown, expect, source)
        rows = line_ranges(text, section.span.char_start, section.span.char_stop)
        heading = rows[0][2]
        hit = next(
            (
                r
                for r in rows[1:]
                if r[2][:1] in _ITEM_MARKS
                and r[2][1:2] in (" ", "\t")
                and item_text(r[2]) == wanted
            ),
            None,
        )
        if hit is None:
            raise Refused(
                msg(
                    "no item {wanted!r} under {name!r} in {source}",
                    wanted=wanted,
                    name=name,
                    source=source,
                )
            )
        dst = load(tx, target, limits, must_exist=False)
        dst_text = dst.text if dst else ""
        eol = eol_of_text(dst_text, eol_of_text(text))
        home = _section(dst, name) if dst else None
        if home is not None:
            if target == PROFILE:
                rows_there = line_ranges(dst_text, home.span.char_start, home.span.char_stop)
                if any(
                    item_text(r[2]) == wanted for r in rows_there[1:] if r[2][:1] in _ITEM_MARKS
                ):
                    raise Refused(
                        msg(
                            "{target} already has {wanted!r} under {name!r}",
                            target=target,
                            wanted=wanted,
                            name=name,
                        )
                    )
                count = len(home.item_lines) + 1
                if count > limits.profile_category_max:
                    tx.details["warning"] = msg(
                        "{name!r} now has {count:,} items, more than "
                        "{profile_category_max:,}: choose one to archive",
                        name=name,
                        count=count,
                        profile_category_max=limits.profile_category_max,
                    )
            new_dst = insert_after_content(
                dst_text, home.span.char_start, home.span.char_stop, [hit[2]], eol
            )
        else:
            new_dst = append_block(dst_text, [heading, hit[2]], eol)
        others = [r for r in rows[1:] if r is not hit and r[2].strip()]
        if source != PROFILE and not others:
            # memtui's archive keeps no empty category: its heading goes with the last item
            left: str | None = cut(
                text, section.span.char_start, section.span.char_stop, separators=True
            )
        else:
            left = cut(text, hit[0], hit[1])
        book = Book(tx, limits)

        def ours(record: dict[str, object]) -> bool:
            found = (record.get("file"), record.get("category"), record.get("item"))
            return found == (PROFILE, name, wanted)

        if target == ARCHIVE_PROFILE:
            book.made(ARCHIVE_PROFILE, shared=True)
            about = {"entry": f"profile:{name}", "file": PROFILE, "category": name}
            book.add({**about, "item": wanted, "place": removal(text, left or "", hit[0])})
            book.save()
        else:
            record = book.take(ours)
            place = record.get("place") if record else None
            if home is not None and isinstance(place, dict):
                head = line_ranges(dst_text, home.span.char_start, home.span.char_stop)[0][2]
                at = locate(dst_text, place, under(head))
                if at is not None:
                    new_dst = put_back(dst_text, at, block(place, [hit[2]]), place)
            left = book.restored(record, place, ARCHIVE_PROFILE, left or "")
        if left is not None:
            tx.write(source, src.encode(left))
        tx.write(target, encode(dst, new_dst))
        return tx.commit()
