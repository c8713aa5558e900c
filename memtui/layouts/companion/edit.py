"""Editing a companion entry (Layout.edit): an event, found by its id as shown
(ids.pick_event), or a profile category's `## ` section; through the engine's
replace_entry. An event stays one event with a number no other event has."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from typing import Any

from memtui.engine.ops.common import Refused
from memtui.engine.ops.replace import EditedText, Target, replace_entry, section
from memtui.engine.textfile import TextFile
from memtui.engine.write.files import read_or_none
from memtui.engine.write.transaction import Receipt
from memtui.i18n import msg
from memtui.layouts.companion.ids import pick_event
from memtui.layouts.companion.ops import parse_event_ref
from memtui.layouts.companion.parse import EVENT_ID, EVENTS, HEADS, PROFILE, _events, small_int


def edit(root: str, kind: str, name: str, new_text: str, **options: Any) -> Receipt:
    if kind == "event":
        parse_event_ref(name)  # says why it is not an event id, before anything else

        def event_target(_root: str, expect: str | None, seen: bool) -> Target:
            ref = dataclasses.replace(parse_event_ref(name), fp=expect)

            def event(tf: TextFile) -> tuple[int, int]:
                # changed in its place: found, for replace_entry to say what changed
                found = pick_event(_events(tf), ref, EVENTS, changed=seen)
                return found.span.char_start, found.span.char_stop

            return EVENTS, event, 3

        return replace_entry(root, kind, new_text, event_target, check=_check_event, **options)
    return replace_entry(
        root, kind, new_text, lambda _r, fp, _s: (PROFILE, section(PROFILE, name, fp), 2), **options
    )


def _check_event(change: EditedText) -> None:
    archived = read_or_none(os.path.join(change.root, "archive", EVENTS))
    archived_text = archived.decode("utf-8", "replace") if archived else ""
    _check_event_edit(change.entry_id, change.old, change.new, change.after + "\n" + archived_text)


def _check_event_edit(entry_id: str, old: str, new: str, after: str) -> None:
    """An event stays one event, and keeps a number no other event has, archived ones
    included (`after`: events.md as it would be, then the archive): a duplicate could
    not be restored, and the agent numbers new events after the highest it sees."""
    heads = _events(TextFile("", new, False, 0))
    if len(heads) != 1:
        raise Refused(
            msg(
                "{entry_id}: the text holds {count} `### ` event headings; an "
                "edit keeps one event (add events with `memtui add event`)",
                entry_id=entry_id,
                count=len(heads),
            )
        )
    number = heads[0].number
    was = next(iter(_events(TextFile("", old, False, 0))), None)
    if number is None or (was is not None and was.number == number):
        return
    if sum(1 for n in _event_numbers(after) if n == number) > 1:
        raise Refused(
            msg(
                "{entry_id}: E{number:03d} is already another event's number "
                "(in {EVENTS} or its archive); renumbering onto it would make "
                "two events with one id",
                entry_id=entry_id,
                number=number,
                EVENTS=EVENTS,
            )
        )


def _event_numbers(text: str) -> Iterator[int]:
    """The number of each `### [ENNN]` heading (a scan, not a parse: 20,000 events)."""
    for match in HEADS.finditer(text):
        heading = match.group()
        found = EVENT_ID.match(heading[4:].strip()) if heading.startswith("### ") else None
        number = small_int(found.group(1)) if found else None  # 5,000 digits: no number
        if number is not None:
            yield number
