"""The companion layout (seed 003): memory/*.md, .mood_state_aux and MEMORY.md.

Planted findings, at every size: event-duplicate-id, promise-no-due, event-stars (six stars),
event-overdue (open promises past due), profile-category-full, mood-step, unresolved-stale.
Some promises are open and upcoming, so the unresolved block has real work to show.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from memtui.demo.common import Sink, at, day, iso, minute_stamp, random_time
from memtui.layouts.companion import demo_vocab as V

EVENTS_PER_SIZE = 40
SNAPSHOTS = 10
OPEN = "待跟进"

EMOTION, PROMISE, TODO, IMPORTANT = "情绪事件", "约定", "用户Todo", "重要事件"
# Type -> (weight, contents, follow-ups, resolved status)
EVENT_KINDS: dict[str, tuple[int, list[str], list[str], str]] = {
    EMOTION: (30, V.EMOTION_CONTENT, V.EMOTION_FOLLOWUP, "已跟进"),
    PROMISE: (30, V.PROMISE_CONTENT, V.PROMISE_FOLLOWUP, "已完成"),
    TODO: (20, V.TODO_CONTENT, V.TODO_FOLLOWUP, "已完成"),
    IMPORTANT: (20, V.IMPORTANT_CONTENT, V.IMPORTANT_FOLLOWUP, "已完成"),
}


@dataclass
class Event:
    number: int
    date: dt.date
    kind: str
    content: str
    followup: str
    user_state: str | None
    status: str
    stars: int = 0  # only 情绪事件 carry stars
    due: dt.date | None = None
    sentinel_after: list[dt.datetime] = field(default_factory=list)

    @property
    def ident(self) -> str:
        return f"E{self.number:03d}"  # E001..E999, then E1000 unpadded, as printf %03d does


def build_companion(sink: Sink, rng: random.Random, size: int, today: dt.date) -> dict[str, int]:
    events = _events(rng, size, today)
    last_active = _place_sentinels(rng, events, today)
    snapshots = _mood_snapshots(rng, last_active)

    sink.write("memory/persona.md", _persona_md(rng, today))
    sink.write("memory/user_profile.md", _profile_md())
    sink.write_lines("memory/events.md", _events_lines(events))
    sink.write("memory/mood_state.md", _mood_md(snapshots))
    sink.write(
        ".mood_state_aux",
        f"last_decay_written_at: {iso(snapshots[0].time)}\nconsecutive_g4c_count: 1\n",
    )
    # On a case-insensitive disk (macOS, Windows) MEMORY.md would be the workspace's memory.md.
    if not sink.taken("MEMORY.md"):
        sink.write("MEMORY.md", _memory_md(events))
    return {
        "events": len(events),
        "sentinels": sum(len(e.sentinel_after) for e in events),
        "snapshots": len(snapshots),
    }


# --- events -------------------------------------------------------------------------------------


def _events(rng: random.Random, size: int, today: dt.date) -> list[Event]:
    count = EVENTS_PER_SIZE * size
    # Bigger stores reach further back (up to ~2.6 years), with several events on busy days.
    span = 120 * min(size, 8)
    ages = sorted((rng.randint(1, span) for _ in range(count)), reverse=True)
    kinds = rng.choices(list(EVENT_KINDS), weights=[k[0] for k in EVENT_KINDS.values()], k=count)
    events = [
        _random_event(rng, i + 1, day(today, age), kind, today)
        for i, (age, kind) in enumerate(zip(ages, kinds, strict=True))
    ]
    _plant(rng, events, today)
    return events


def _random_event(
    rng: random.Random, number: int, date: dt.date, kind: str, today: dt.date
) -> Event:
    _, contents, followups, resolved = EVENT_KINDS[kind]
    # Events written through the bash template have no 用户状态 line; emotions always have one.
    state_pool = V.EMOTION_STATE if kind == EMOTION else V.GENERAL_STATE
    user_state = rng.choice(state_pool) if kind == EMOTION or rng.random() < 0.7 else None
    event = Event(
        number, date, kind, rng.choice(contents), rng.choice(followups), user_state, resolved
    )
    age = (today - date).days
    if kind == EMOTION:
        event.stars = rng.choices([1, 2, 3, 4, 5], weights=[2, 4, 5, 3, 1])[0]
        open_chance = 0.1 if age < 7 else 0.0
    elif kind == PROMISE:
        event.due = date + dt.timedelta(days=rng.randint(3, 21))
        # Upcoming promises are mostly open; a few past-due ones were forgotten (overdue).
        open_chance = 0.75 if event.due >= today else 0.04
    elif kind == TODO:
        open_chance = 0.1 if age < 14 else 0.02
    else:
        open_chance = 0.0
    if rng.random() < open_chance:
        event.status = OPEN
    return event


def _plant(rng: random.Random, events: list[Event], today: dt.date) -> None:
    """Make the planted cases happen at fixed places, whatever the dice said."""
    n = len(events)
    _reshape(rng, events[n // 6], EMOTION, "已跟进").stars = 6  # event-stars
    _reshape(rng, events[n // 5], PROMISE, "已完成")  # promise-no-due: _reshape drops the due
    yesterday = day(today, 1)
    for index in (n // 2, 2 * n // 3):  # event-overdue, at least these two
        overdue = _reshape(rng, events[index], PROMISE, OPEN)
        overdue.due = min(overdue.date + dt.timedelta(days=rng.randint(2, 5)), yesterday)
    for index in (n - 2, n - 1):  # open and upcoming
        upcoming = _reshape(rng, events[index], PROMISE, OPEN)
        upcoming.due = today + dt.timedelta(days=rng.randint(3, 14))
    # event-duplicate-id: the agent raced itself and wrote one number twice; the rest follow on.
    for event in events[n // 4 :]:
        event.number -= 1


def _reshape(rng: random.Random, event: Event, kind: str, status: str) -> Event:
    _, contents, followups, _ = EVENT_KINDS[kind]
    event.kind, event.status = kind, status
    event.content, event.followup = rng.choice(contents), rng.choice(followups)
    event.stars = rng.randint(2, 4) if kind == EMOTION else 0
    event.due = None
    if kind == EMOTION and event.user_state is None:
        event.user_state = rng.choice(V.EMOTION_STATE)
    return event


def _place_sentinels(rng: random.Random, events: list[Event], today: dt.date) -> dt.datetime:
    """Add `[E000] … last_active` after every few events; return the last one's time."""
    previous = at(events[0].date, 0, 0)
    for event in events:
        if rng.random() < 0.4:
            moment = max(previous + dt.timedelta(minutes=7), random_time(rng, event.date, 18))
            event.sentinel_after.append(moment)
            previous = moment
    # The last conversation was yesterday evening; its sentinel closes the file.
    last = max(previous + dt.timedelta(minutes=7), at(day(today, 1), 22, 47))
    events[-1].sentinel_after.append(last)
    return last


def _events_lines(events: list[Event]) -> list[str]:
    # Each block starts with a blank line, exactly as the bash template's heredoc appends it.
    lines = ["# 事件记录"]
    for event in events:
        lines += ["", *_event_block(event)]
        for moment in event.sentinel_after:
            lines += ["", f"### [E000] {minute_stamp(moment)} · last_active"]
    return lines


def _event_block(event: Event) -> list[str]:
    fields = [("类型", event.kind), ("内容", event.content)]
    if event.stars:
        fields.append(("情绪强度", "⭐" * event.stars))
    if event.user_state:
        fields.append(("用户状态", event.user_state))
    fields += [("后续", event.followup), ("状态", event.status)]
    if event.due:
        fields.append(("到期日", event.due.isoformat()))
    heading = f"### [{event.ident}] {event.date} · {event.kind}"
    return [heading, *(f"**{key}**：{value}" for key, value in fields)]


# --- MEMORY.md ----------------------------------------------------------------------------------


def _memory_md(events: list[Event]) -> str:
    """MEMORY.md with a deliberately stale block (unresolved-stale).

    It lists promises that were resolved since the block was last written, as happens when an
    agent marks events done but skips Step 4.
    """
    resolved = [e for e in events if e.status != OPEN and e.due is not None]
    stale = sorted(resolved[-3:], key=lambda e: (e.due, -e.number))
    lines = [V.MEMORY_MD_HEAD, *(_unresolved_line(e) for e in stale), V.MEMORY_MD_TAIL]
    return "\n".join(lines)


def _unresolved_line(event: Event) -> str:
    excerpt = event.content if len(event.content) <= 18 else event.content[:18] + "…"
    due = f" · 到期 {event.due}" if event.due else ""
    return f"- [{event.ident}] {event.kind}{due} · {excerpt}"


# --- persona, profile, mood ---------------------------------------------------------------------


def _persona_md(rng: random.Random, today: dt.date) -> str:
    ages = sorted(rng.sample(range(2, 200), len(V.PERSONA_DETAILS)), reverse=True)
    details = [
        f"• [{day(today, age)}] {detail}"
        for age, detail in zip(ages, V.PERSONA_DETAILS, strict=True)
    ]
    return "\n".join([V.PERSONA_HEAD, *details])


def _profile_md() -> str:
    lines = ["# 用户档案"]
    for category, items in V.PROFILE:
        lines += ["", f"## {category}", *(f"- {item}" for item in items)]
    return "\n".join(lines)


@dataclass(frozen=True)
class Snapshot:
    time: dt.datetime
    source: str
    valence: int  # hundredths, so that steps and bounds are exact
    energy: int
    note: str


def _mood_snapshots(rng: random.Random, newest: dt.datetime) -> list[Snapshot]:
    """Ten snapshots, newest first; all steps within bounds but one (mood-step)."""
    planted_step = SNAPSHOTS // 2
    # One snapshot every day or two, at a waking hour: conversations, and decay runs between.
    times = [newest]
    for _ in range(SNAPSHOTS - 1):
        times.append(random_time(rng, times[-1].date() - dt.timedelta(days=rng.randint(1, 2))))
    times.reverse()

    valence, energy = rng.randint(5, 35), rng.randint(45, 70)
    history = [Snapshot(times[0], "conversation", valence, energy, rng.choice(V.MOOD_NOTES_FLAT))]
    for step, moment in enumerate(times[1:], start=1):
        if step == planted_step:  # a big quarrel: |Δvalence| = 0.40 where 0.30 is the bound
            source, dv, de = "conversation", -40 if valence >= -60 else 40, -10
        elif step != SNAPSHOTS - 1 and rng.random() < 0.3:  # decay drifts back to neutral
            source, dv, de = "decay", -round(valence * 0.2), round((50 - energy) * 0.2)
        else:
            source, dv, de = "conversation", rng.randint(-25, 25), rng.randint(-15, 15)
        valence = min(95, max(-95, valence + dv))
        energy = min(95, max(5, energy + de))
        history.append(Snapshot(moment, source, valence, energy, _mood_note(rng, source, dv)))
    return history[::-1]


def _mood_note(rng: random.Random, source: str, delta_valence: int) -> str:
    if source == "decay":
        return V.MOOD_NOTE_DECAY
    if delta_valence > 5:
        return rng.choice(V.MOOD_NOTES_UP)
    if delta_valence < -5:
        return rng.choice(V.MOOD_NOTES_DOWN)
    return rng.choice(V.MOOD_NOTES_FLAT)


def _mood_md(snapshots: list[Snapshot]) -> str:
    newest = snapshots[0]
    lines = [f"valence: {_hundredths(newest.valence)}", f"energy: {_hundredths(newest.energy)}"]
    for snap in snapshots:
        lines += [
            "",
            f"### {minute_stamp(snap.time)} · source={snap.source}",
            f"valence: {_hundredths(snap.valence)}",
            f"energy: {_hundredths(snap.energy)}",
            f"note: {snap.note}",
        ]
    return "\n".join(lines)


def _hundredths(value: int) -> str:
    return f"{value / 100:.2f}"
