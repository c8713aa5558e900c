"""Event ids (SPEC §6 `event:E020`): an event with a number no other event has is
named by it (`E020`); one without a number only by its line (`L12`), and events
sharing a number only by their order (`E005#2`). The agent's writes can move either
onto another event, so their ids also carry the fingerprint of the event as listed
(`L12@3fa2c1d9e0b7`), and an action acts on the event at that place only if it is
still the one shown; otherwise it is refused with the reason (it moved, it changed,
it is gone), never applied to a neighbour (engine.identity: fingerprints)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from memtui.engine.identity import checked, fingerprint
from memtui.engine.model import Event
from memtui.engine.ops.common import Refused
from memtui.engine.write.transaction import Conflict
from memtui.i18n import msg
from memtui.layouts.companion.parse import MAX_DIGITS

_EVENT = re.compile(r"(?:event:)?([EL])(\d+)(?:#(\d+))?(?:@([0-9a-fA-F]{12}))?", re.IGNORECASE)
_LISTED = 5  # events named in a refusal that asks which one


@dataclass(frozen=True, slots=True)
class EventRef:
    """What an event id says: its label (`E005`, or `L12` for its line), which of the
    events with that label (1-based), and the fingerprint it was shown with."""

    label: str
    nth: int
    fp: str | None

    @property
    def shown(self) -> str:
        return self.label + (f"#{self.nth}" if self.nth > 1 else "")


def event_ref(ref: str, expect: str | None = None) -> EventRef | None:
    """An event id (`event:E007`, `E7`, `E007#2`, `event:L12`, each optionally with
    `@FINGERPRINT`) as an EventRef; None if `ref` is not shaped like one. Refused for
    the sentinel, `#0`, a line with `#n`, or a fingerprint that disagrees with `expect`."""
    match = _EVENT.fullmatch(ref.strip())
    if match is None:
        return None
    letter, digits, nth_text, inline = match.groups()
    longest = max(len(digits), len(nth_text or ""))
    if longest > MAX_DIGITS:  # int() refuses 4,300+ digits
        raise Refused(
            msg("an event id with a {longest:,}-digit number names no event", longest=longest)
        )
    want = checked(expect)
    if inline is not None and want is not None and inline.lower() != want:
        raise Refused(
            msg(
                "{ref!r} carries fingerprint {lower}, but {want} was expected",
                ref=ref,
                lower=inline.lower(),
                want=want,
            )
        )
    nth = int(nth_text or 1)
    if letter.upper() == "E" and int(digits) == 0:
        raise Refused(msg("E000 is the last_active sentinel the agent writes; it is not an event"))
    if nth < 1:
        raise Refused(msg("{ref!r}: events sharing a number are counted from #1", ref=ref))
    if letter.upper() == "L" and nth != 1:
        raise Refused(msg("{ref!r}: an event without a number is named by its line alone", ref=ref))
    label = f"E{int(digits):03d}" if letter.upper() == "E" else f"L{int(digits)}"
    return EventRef(label, nth, inline.lower() if inline else want)


def event_ids(events: Sequence[Event]) -> list[str | None]:
    """Each event's id without `event:` (None for a sentinel): its label, `#n` for the
    nth event of a shared number, and `@fingerprint` when the label alone could name
    another event after the agent writes (no number, or a shared one)."""
    counts = Counter(e.label for e in events if not e.is_sentinel)
    seen: dict[str, int] = {}
    out: list[str | None] = []
    for e in events:
        if e.is_sentinel:
            out.append(None)
            continue
        seen[e.label] = nth = seen.get(e.label, 0) + 1
        base = e.label if nth == 1 else f"{e.label}#{nth}"
        ambiguous = e.number is None or counts[e.label] > 1
        out.append(f"{base}@{fingerprint(e.text)}" if ambiguous else base)
    return out


def pick_event(
    events: Sequence[Event], ref: EventRef, where: str, *, changed: bool = False
) -> Event:
    """The event `ref` names in `events` (a file's events, in order), as it was shown:

    * with a fingerprint, the event at the place the id says, if it is still the one
      shown; else Conflict saying whether it moved (and its id now), changed or is gone
      (`changed`: an event that changed in its place is returned, for a caller that
      compares the texts itself and says what changed);
    * without one, a number no other event has; a number now shared, or an event known
      only by its line, is refused (Refused) with the ids to use instead.
    """
    live = [e for e in events if not e.is_sentinel]
    numbered = ref.label.startswith("E")
    if numbered:
        pool = [e for e in live if e.label == ref.label]
        at = pool[ref.nth - 1] if len(pool) >= ref.nth else None
    else:
        pool = [e for e in live if e.number is None]
        at = next((e for e in pool if e.label == ref.label), None)
    if ref.fp is None:
        if numbered and len(pool) == 1 and at is not None:
            return at
        if numbered and at is None:
            raise Refused(msg("no event {shown} in {where}", shown=ref.shown, where=where))
        raise Refused(_which(events, ref, pool, at, where))
    if at is not None and fingerprint(at.text) == ref.fp:
        return at
    reason = _not_as_shown(events, ref, pool, at, where)
    if changed and at is not None and reason.startswith(f"event:{ref.shown} changed"):
        return at
    raise Conflict(reason)


def _id_of(events: Sequence[Event], event: Event) -> str:
    ids = event_ids(events)
    return next(f"event:{i}" for e, i in zip(events, ids, strict=True) if e is event)


def _gist(event: Event) -> str:
    content = " ".join(event.content.split())
    content = content if len(content) <= 30 else content[:30] + "…"
    return " · ".join(p for p in (event.date, event.type, content) if p)


def _which(
    events: Sequence[Event], ref: EventRef, pool: list[Event], at: Event | None, where: str
) -> str:
    """Why an id without a fingerprint names no one event, and the ids to use."""
    if ref.label.startswith("L"):
        line = ref.label[1:]
        if at is None:
            return msg(
                "event:{label} has no number: it is known only by its line, which the agent's "
                "writes can move, so it is named with its fingerprint too; no event without a "
                "number starts at line {line} now; nothing was changed",
                label=ref.label,
                line=line,
            )
        return msg(
            "event:{label} has no number: it is known only by its line, which the agent's "
            "writes can move, so it is named with its fingerprint too: the event now at line "
            "{line} is {id} ({gist}); nothing was changed",
            label=ref.label,
            line=line,
            id=_id_of(events, at),
            gist=_gist(at),
        )
    v = {"label": ref.label, "count": len(pool), "where": where}
    v["names"] = ", ".join(f"{_id_of(events, e)} ({_gist(e)})" for e in pool[:_LISTED])
    if len(pool) > _LISTED:
        return msg(
            "{label} names {count} events in {where} (they share the number); say which "
            "one: {names} and {more} more (`memtui list` prints these ids); nothing was changed",
            more=len(pool) - _LISTED,
            **v,
        )
    return msg(
        "{label} names {count} events in {where} (they share the number); say which "
        "one: {names} (`memtui list` prints these ids); nothing was changed",
        **v,
    )


def _not_as_shown(
    events: Sequence[Event], ref: EventRef, pool: list[Event], at: Event | None, where: str
) -> str:
    """Why an id with a fingerprint names no event now: it moved, changed or is gone."""
    assert ref.fp is not None
    moved = [e for e in pool if fingerprint(e.text) == ref.fp]
    v = {
        "id": ref.shown,
        "where": where,
        "again": msg("nothing was changed — reload and try again"),
    }
    if moved:
        return _moved(v, ", ".join(_id_of(events, e) for e in moved[:_LISTED]), len(moved), at)
    if at is not None:
        return msg(
            "event:{id} changed since it was shown (the agent wrote to {where}); {again}", **v
        )
    return msg(
        "event:{id} is no longer in {where} (removed or renumbered since it was shown, by the "
        "agent?); {again}",
        **v,
    )


def _moved(v: dict[str, str], now: str, count: int, at: Event | None) -> str:
    # one sentence a case: one event or identical ones, another at its place or not
    if count == 1 and at is None:
        return msg(
            "event:{id} moved since it was shown (the agent wrote to {where}): it is now "
            "{now}; {again}",
            now=now,
            **v,
        )
    if count == 1:
        return msg(
            "event:{id} moved since it was shown (the agent wrote to {where}): it is now "
            "{now}; another event is at its place; {again}",
            now=now,
            **v,
        )
    if at is None:
        return msg(
            "event:{id} moved since it was shown (the agent wrote to {where}): identical "
            "events are now {now}; {again}",
            now=now,
            **v,
        )
    return msg(
        "event:{id} moved since it was shown (the agent wrote to {where}): identical "
        "events are now {now}; another event is at its place; {again}",
        now=now,
        **v,
    )
