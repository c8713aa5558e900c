"""The companion layout (SPEC §2): memory/events.md, mood, profile, persona, MEMORY.md."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import itertools
import re
import sys
from collections.abc import Iterator

from memtui.engine.markdown import Fences, fences, sections
from memtui.engine.model import Event, Mood, MoodSnapshot, Span
from memtui.engine.reader import StoreReader
from memtui.engine.records import maker
from memtui.engine.textfile import LineCounter, TextFile, iter_lines
from memtui.engine.words import listed
from memtui.i18n import msg
from memtui.layouts.companion.detect import EVENTS, PERSONA
from memtui.layouts.companion.model import Companion, ProfileCategory
from memtui.layouts.companion.vocab import EVENT_TYPES  # noqa: F401 - re-exported

PROFILE = "memory/user_profile.md"
MOOD = Mood.FILE
MOOD_AUX = Mood.AUX
SUMMARY = "MEMORY.md"

NEW_DETAILS = "【在对话中形成的新细节】"
UNRESOLVED = "【最近未解决事项】"
PROMISE = "约定"
CORE_WORDS = ("称呼", "昵称", "关系", "禁忌", "nickname", "relationship", "taboo")

EVENT_ID = re.compile(r"\[E(\d+)\]")
DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?")
UNRESOLVED_ID = re.compile(r"E(\d+)")
NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)")
MAX_DIGITS = 18  # longer is no event number: int() of thousands of digits is refused


def small_int(digits: str) -> int | None:
    """The number written with ASCII `digits`, or None when it is none or too long to
    be a count or an event number (Python refuses int() of 4,300+ digits)."""
    if not digits or len(digits) > MAX_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(digits)


def parse(reader: StoreReader) -> Companion:
    events_tf = reader.read(EVENTS)  # None if absent, or unreadable (a link out too)
    events: list[Event] = []
    if events_tf:
        events = reader.parsed("events", events_tf, lambda: _checked_events(reader, events_tf))
        _check_overdue(reader, events)
    last_active = next((e.date for e in reversed(events) if e.is_sentinel), None)
    if events_tf and last_active is None:
        reader.findings.add(
            "sentinel-missing",
            EVENTS,
            None,
            msg("no `### [E000] … · last_active` sentinel: the last active time is unknown"),
        )
    mood = _mood(reader)
    profile = _profile(reader)
    unresolved = _unresolved(reader, events)
    return Companion(
        events=tuple(events),
        last_active=last_active,
        mood=mood,
        profile=tuple(profile),
        persona_details=tuple(_persona_details(reader)),
        unresolved_ids=unresolved,
    )


# --- events ----------------------------------------------------------------


HEAD_LINE = r"#{1,6}(?=[ \t\r\n]|\Z)[^\n]*"  # `#tag` is content
HEADS = re.compile("^" + HEAD_LINE, re.M)
# A heading (group 1), or one of the fields the checks need (groups 2, 3), in text order.
FIELD_KEY = r"\*\*[ \t]*(类型|状态|到期日|情绪强度)[ \t]*\*\*[ \t]*[：:]"
FIELDS = FIELD_KEY + r"[ \t]*([^\n]*?)[ \t]*\r?"
HEADS_AND_FIELDS = re.compile(rf"^(?:({HEAD_LINE})|{FIELDS}$)", re.M)
# The same from the newline before each line: a literal first character lets the
# search skip along the text instead of trying `^` at every character.
NL_HEADS = re.compile("\n" + HEAD_LINE)
NL_HEADS_AND_FIELDS = re.compile(rf"\n(?:({HEAD_LINE})|{FIELDS}(?=\n|\Z))")
# In a text without CR (the usual one), a value taken greedily up to its last non-blank
# is the one the lazy match finds, found a fifth faster.
FIELDS_LF = FIELD_KEY + r"[ \t]*((?:[^\n]*[^ \t\n])?)[ \t]*"
NL_HEADS_AND_FIELDS_LF = re.compile(rf"\n(?:({HEAD_LINE})|{FIELDS_LF}(?=\n|\Z))")
LEADING_TAG = re.compile(r"\[[^\]]*\]\s*")


def _checked_events(reader: StoreReader, tf: TextFile) -> list[Event]:
    """The events of events.md, and what is wrong in the file itself (its fences, each
    event's fields): reported again from the snapshot while the file is unchanged."""
    code = reader.fences(tf)  # an unclosed fence is reported
    events = _events_of(reader, tf, code)
    _check_events(reader, events)
    return events


def _events_of(reader: StoreReader, tf: TextFile, code: Fences) -> list[Event]:
    """The events of events.md (`code`: its fences). When the agent only appended to
    it since the last snapshot (the usual write), the events before the last one are
    taken from that snapshot and only the rest is parsed."""
    earlier = reader.earlier("events", tf.path)
    if earlier is not None:
        old_tf, old = earlier
        # A fence the agent opened and has closed only now turns the headings between
        # into code: then the whole text is parsed again.
        if old and tf.text.startswith(old_tf.text) and fences(old_tf.text).unclosed is None:
            # The last event may have grown; every one before it ends at a heading
            # inside the unchanged part. They are bound to the new text (same chars),
            # so the old text is not kept alive by them.
            kept = [dataclasses.replace(e, source=tf) for e in old[:-1]]
            return kept + _events(tf, old[-1].span.char_start)
    return _events(tf, code=code)


def _events(tf: TextFile, since: int = 0, code: Fences | None = None) -> list[Event]:
    """Each `### ` heading up to the next heading of any level is one event (from
    character `since`, which starts a line).

    Headings and the fields the checks need are found with one whole-text regular
    expression, in text order, in one pass: events.md may hold 20,000 events.
    Those inside fenced code blocks are an event's content.
    """
    if code is None:  # (given: the fences of the whole text, and `since` is 0)
        code = fences(tf.text, since)
    if code.starts:
        return _events_between_code(tf, since, code)
    # No code block (the usual file): findall hands the loop plain tuples, and the
    # headings' offsets come from a second, heading-only pass (a match object per
    # heading and field costs more than both passes).
    text, path = tf.text, tf.path
    # The first line has no newline before it: matched on its own.
    head_one = HEADS_AND_FIELDS.match(text, since)
    starts = [since] if head_one and head_one.group(1) else []
    starts += [m.start() + 1 for m in NL_HEADS.finditer(text, since)]
    heads = iter(starts)
    events: list[Event] = []
    append = events.append
    line, pos = text.count("\n", 0, since), since
    title: str | None = None
    values: dict[str, str] = {}
    at = first = 0  # the event being read: its char offset and line
    for found in _heads_and_fields(text, since, head_one, starts):
        for head, key, value in found:
            if not head:  # a field: the first of each kind in an event counts
                if key not in values:
                    values[key] = value
                continue
            start = next(heads)
            line += text.count("\n", pos, start)
            pos = start
            if title is not None:  # it ends on the line before this heading's, a later one
                span = _new_span(Span, (path, first, line, at, start))
                append(_event(tf, title, values, span))
            title = head[4:].strip() if head.startswith("### ") else None
            values, at, first = {}, start, line
    if title is not None:
        last = line + text.count("\n", pos) + (0 if text.endswith("\n") else 1)
        events.append(
            _event(tf, title, values, Span(path, first, max(last, first + 1), at, len(text)))
        )
    return events


PIECE = 4096  # headings whose matches are listed at once


def _heads_and_fields(
    text: str, since: int, head_one: re.Match[str] | None, starts: list[int]
) -> Iterator[list[tuple[str, str, str]]]:
    """The headings and fields from char `since` (`head_one`: its line's match), in text
    order, as findall's tuples: listed PIECE headings at a time, since those of the
    whole text at once would hold about five times its size."""
    pattern = NL_HEADS_AND_FIELDS if "\r" in text else NL_HEADS_AND_FIELDS_LF
    cuts = [since, *(start - 1 for start in starts[PIECE::PIECE]), len(text)]  # at a newline
    for n, (a, b) in enumerate(itertools.pairwise(cuts)):
        found = pattern.findall(text, a, b)
        yield [head_one.groups(""), *found] if n == 0 and head_one else found


def _events_between_code(tf: TextFile, since: int, code: Fences) -> list[Event]:
    """`_events` of a text with fenced code blocks: match by match, skipping those
    inside a block."""
    text = tf.text
    inside = code.inside
    lines = LineCounter(text)
    events: list[Event] = []
    # The event being read: its start, title, fields and first line.
    reading: tuple[int, str, dict[str, str], int] | None = None
    for m in HEADS_AND_FIELDS.finditer(text, since):
        if inside(m.start()):
            continue
        heading = m.group(1)
        if heading is None:  # a field: the first of each kind in an event counts
            if reading is not None:
                reading[2].setdefault(m.group(2), m.group(3))
            continue
        start = m.start()
        line = lines.at(start)
        if reading is not None:
            events.append(_ended(tf, reading, start, line))
        reading = (start, heading[4:].strip(), {}, line) if heading.startswith("### ") else None
    if reading is not None:
        last = lines.at(len(text)) + (0 if text.endswith("\n") else 1)
        events.append(_ended(tf, reading, len(text), last))
    return events


def _ended(
    tf: TextFile, reading: tuple[int, str, dict[str, str], int], stop: int, last: int
) -> Event:
    """The event read from `reading`'s start up to char `stop`, on line `last`."""
    start, title, values, first = reading
    return _event(tf, title, values, Span(tf.path, first, max(last, first + 1), start, stop))


_LABELS: dict[int, str] = {}  # number -> "E007": 20,000 events, formatted once each
_new_span = tuple.__new__  # Span(...) without its Python-level __new__
_new_event = maker(Event)
_intern = sys.intern


def _event(tf: TextFile, title: str, values: dict[str, str], span: Span) -> Event:
    # EVENT_ID.match(title), with str methods (\d is what isdecimal() accepts)
    end = title.find("]", 2) if title.startswith("[E") else -1
    digits = title[2:end] if end > 2 else ""
    if digits.isdecimal():
        number = int(digits) if len(digits) <= MAX_DIGITS and digits.isascii() else None
        rest = title[end + 1 :]
    else:
        number = None
        tag = LEADING_TAG.match(title)  # "[E]" or "[Ex]": a tag, but no number
        rest = title[tag.end() :] if tag else title
    date, _, kind = rest.partition("·")
    if number is None:
        label = f"L{span.start + 1}"
    elif len(digits) == 3 or (len(digits) > 3 and digits[0] != "0"):
        label = "E" + digits  # what f"E{number:03d}" writes, without formatting it
    elif (label := _LABELS.get(number)) is None:
        label = f"E{number:03d}"
        if len(_LABELS) < 65536:  # (a hostile file's numbers are not all kept)
            _LABELS[number] = label
    status = values.get("状态")
    return _new_event(
        number,
        label,
        date.strip(),
        _intern((values.get("类型") or kind).strip()),
        _intern(status) if status else status,
        values.get("到期日"),
        values.get("情绪强度"),
        span,
        tf,
    )


@functools.lru_cache(maxsize=4096)  # 20,000 events share a few hundred dates
def parse_date(text: str) -> dt.date | None:
    """A real calendar date at the start of `text` (a time may follow), else None."""
    match = DATE.match(text.strip())
    if not match:
        return None
    year, month, day, hour, minute, second = match.groups()
    if hour is not None and not (int(hour) < 24 and int(minute) < 60 and int(second or 0) < 60):
        return None  # a time dt.time refuses (two digits each: never below 0)
    return _day(year, month, day)


@functools.lru_cache(maxsize=1024)  # every last_active time is new, its day is not
def _day(year: str, month: str, day: str) -> dt.date | None:
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        return None


def _check_events(reader: StoreReader, events: list[Event]) -> None:
    """What is wrong in the events themselves (the day is _check_overdue's)."""
    # Each field read once into a local: 20,000 events go through this loop.
    add = reader.findings.add
    first_line: dict[int, int] = {}
    for e in events:
        line = e.span.start + 1
        number = e.number
        if number is None:
            add("event-missing-id", EVENTS, line, msg("event heading has no usable [ENNN] number"))
        elif number and number in first_line:
            add(
                "event-duplicate-id",
                EVENTS,
                line,
                msg(
                    "{event} is already used on line {first}",
                    event=e.label,
                    first=first_line[number],
                ),
            )
        elif number:
            first_line[number] = line
        if parse_date(e.date) is None:
            add(
                "event-bad-date",
                EVENTS,
                line,
                msg("{event}: {date!r} is not a real date", event=e.label, date=e.date)
                if e.date
                else msg("{event}: 'no date' is not a real date", event=e.label),
            )
        if number == 0:  # the sentinel
            continue
        if e.stars_raw is not None:
            stars = e.stars
            if stars is not None and not 1 <= stars <= 5:
                said = msg("{event}: 情绪强度 is {n:,} stars, not 1-5", event=e.label, n=stars)
                add("event-stars", EVENTS, line, said)
        due_text = e.due
        due = parse_date(due_text) if due_text else None
        if due_text and due is None:
            add(
                "event-bad-date",
                EVENTS,
                line,
                msg("{event}: 到期日 {due!r} is not a real date", event=e.label, due=due_text),
            )
        if not due_text and e.type == PROMISE:
            said = msg("{event}: a 约定 (promise) without 到期日", event=e.label)
            add("promise-no-due", EVENTS, line, said)


def _check_overdue(reader: StoreReader, events: list[Event]) -> None:
    """The open events due before today: worked out at every open, the day moves on."""
    add = reader.findings.add
    today = reader.today
    for e in events:
        due_text = e.due
        if not due_text or e.number == 0:  # (the sentinel)
            continue
        due = parse_date(due_text)
        if due and due < today and e.is_open:
            add(
                "event-overdue",
                EVENTS,
                e.span.start + 1,
                msg(
                    "{event} was due {due} and is still open",
                    event=e.label,
                    due=due.isoformat(),
                ),
            )


def unresolved_expected(events: tuple[Event, ...] | list[Event], limit: int) -> list[Event]:
    """Open events for MEMORY.md: nearest due date first, undated after, newest first."""
    open_events = [e for e in events if e.is_open and e.number]

    def key(e: Event) -> tuple[int, str, int]:
        due = parse_date(e.due) if e.due else None
        return (0, due.isoformat(), -(e.number or 0)) if due else (1, "", -(e.number or 0))

    return sorted(open_events, key=key)[:limit]


LIST_ITEM = re.compile(r"[ \t]*[-*+][ \t]")


def is_unresolved_heading(line: str) -> bool:
    """The block's heading line (`## 【最近未解决事项】` or the bare marker), not prose
    that merely mentions it."""
    return line.lstrip("# \t").startswith(UNRESOLVED)


def unresolved_heading(lines: list[str], code: frozenset[int]) -> int | None:
    """The 0-based line of the block's heading; `code`: lines inside fenced code blocks
    (Fences.lines), where a heading is an example, never the block."""
    return next(
        (i for i, ln in enumerate(lines) if is_unresolved_heading(ln) and i not in code), None
    )


def unresolved_run(lines: list[str], head: int) -> tuple[int, int]:
    """The unresolved block's items: lines [start, stop) of the list right under the
    heading at `head`. The list may be loose (blank lines between items) and an item
    may wrap onto indented lines; it ends at the first other line. Text after it,
    before the next heading, is the user's. No list: (head + 1, head + 1)."""
    n = len(lines)
    i = head + 1
    while i < n and not lines[i].strip():
        i += 1
    start = stop = i
    while i < n:
        if LIST_ITEM.match(lines[i]):
            i = stop = i + 1
            continue
        if stop == start:
            break  # no item yet: this line is not the block's
        j = i  # blank lines and indented continuations after an item
        while (
            j < n
            and not LIST_ITEM.match(lines[j])
            and (not lines[j].strip() or lines[j][:1] in " \t")
        ):
            if lines[j].strip() and not lines[j - 1].strip():
                break  # indented text after a blank line: a paragraph, not the item's
            j += 1
            if lines[j - 1].strip():
                stop = j  # a continuation line belongs to the item above
        if j < n and LIST_ITEM.match(lines[j]):
            i = j  # the list goes on after the blank lines
            continue
        break
    return (start, stop) if stop > start else (head + 1, head + 1)


def _unresolved(reader: StoreReader, events: list[Event]) -> tuple[str, ...] | None:
    tf = reader.read(SUMMARY)
    ids: list[str] | None = None
    block_line: int | None = None
    if tf:
        lines = tf.text.split("\n")
        head = unresolved_heading(lines, reader.fences(tf).lines(tf.text))
        if head is not None:
            block_line = head + 1
            start, stop = unresolved_run(lines, head)
            found = (UNRESOLVED_ID.search(line) for line in lines[start:stop])
            numbers = (small_int(m.group(1)) for m in found if m)
            ids = [f"E{n:03d}" for n in numbers if n is not None]
    expected = [e.label for e in unresolved_expected(events, reader.thresholds.unresolved_max)]
    unknown = SUMMARY in reader.unreadable or EVENTS in reader.unreadable  # not "empty"
    if (ids or []) != expected and (ids is not None or expected) and not unknown:
        said = (
            msg(
                "MEMORY.md's unresolved block is stale: no 【最近未解决事项】 block, events.md "
                "gives {expected} (run `memtui index`)",
                expected=listed(expected),
            )
            if ids is None
            else msg(
                "MEMORY.md's unresolved block is stale: it lists {ids}, events.md gives "
                "{expected} (run `memtui index`)",
                ids=listed(ids),
                expected=listed(expected),
            )
        )
        reader.findings.add("unresolved-stale", SUMMARY, block_line, said)
    return None if ids is None else tuple(ids)


# --- mood ------------------------------------------------------------------


def _number(raw: str | None) -> float | None:
    if raw is None or not NUMBER.fullmatch(raw.strip()):
        return None
    return float(raw)


def _mood(reader: StoreReader) -> Mood | None:
    tf = reader.read(MOOD) if reader.exists(MOOD) else None
    if tf is None:
        return None
    top: dict[str, tuple[str, int]] = {}
    snaps: list[tuple[int, str, str, dict[str, str]]] = []
    for index, _offset, line in iter_lines(tf.text):
        if line.startswith("###"):
            when, _, rest = line[3:].strip().partition("·")
            source = rest.strip().removeprefix("source=").strip()
            snaps.append((index + 1, when.strip(), source, {}))
            continue
        key, sep, value = line.partition(":")
        key = key.strip()
        if not sep or key not in ("valence", "energy", "note"):
            continue
        if snaps:
            snaps[-1][3].setdefault(key, value.strip())
        elif key != "note":
            top.setdefault(key, (value.strip(), index + 1))
    t = reader.thresholds
    snapshots = tuple(
        MoodSnapshot(
            when,
            source,
            _checked(reader, vals.get("valence"), "valence", line),
            _checked(reader, vals.get("energy"), "energy", line),
            vals.get("note", ""),
            line,
        )
        for line, when, source, vals in snaps
    )
    valence, energy = (_top_value(reader, top, key) for key in ("valence", "energy"))
    if len(snapshots) > t.mood_max_snapshots:
        reader.findings.add(
            "mood-snapshots",
            MOOD,
            snapshots[t.mood_max_snapshots].line,
            msg(
                "{n:,} snapshots; keep the newest {keep:,}",
                n=len(snapshots),
                keep=t.mood_max_snapshots,
            ),
        )
    for newer, older in itertools.pairwise(snapshots):
        for key, bound in (("valence", t.mood_step_valence), ("energy", t.mood_step_energy)):
            a, b = getattr(newer, key), getattr(older, key)
            if a is not None and b is not None and abs(a - b) > bound + 1e-9:
                reader.findings.add(
                    "mood-step",
                    MOOD,
                    newer.line,
                    msg(
                        "{key} moved {old:+.2f} → {new:+.2f} (|Δ| {step:.2f} > {bound:.2f}) "
                        "between {then} and {now}",
                        key=key,
                        old=b,
                        new=a,
                        step=abs(a - b),
                        bound=bound,
                        then=older.time,
                        now=newer.time,
                    ),
                )
    if snapshots:
        newest = snapshots[0]
        if (valence, energy) != (newest.valence, newest.energy):
            reader.findings.add(
                "mood-top-mismatch",
                MOOD,
                top.get("valence", (None, 1))[1],
                msg(
                    "current valence/energy {valence}/{energy} differ from the newest snapshot "
                    "{new_valence}/{new_energy} ({time})",
                    valence=valence,
                    energy=energy,
                    new_valence=newest.valence,
                    new_energy=newest.energy,
                    time=newest.time,
                ),
            )
    last_decay, g4c = _mood_aux(reader)
    mood = Mood(MOOD, valence, energy, snapshots, last_decay, g4c)
    now, then = (snapshots[0].valence, snapshots[1].valence) if len(snapshots) > 1 else (0, 0)
    if mood.healing_guard_on and now is not None and then is not None and now > then:
        reader.findings.add(
            "mood-guard",
            MOOD,
            snapshots[0].line,
            msg(
                "valence rose {then:+.2f} → {now:+.2f} at {time} while "
                "consecutive_g4c_count is {count} (the healing-loop guard forbids a positive "
                "step until it resets)",
                then=then,
                now=now,
                time=snapshots[0].time,
                count=g4c,
            ),
        )
    return mood


def _top_value(reader: StoreReader, top: dict[str, tuple[str, int]], key: str) -> float | None:
    if not top:
        return None  # no current values at all: reported as a top mismatch
    raw, line = top.get(key, (None, 1))
    return _checked(reader, raw, key, line)


def _checked(reader: StoreReader, raw: str | None, key: str, line: int) -> float | None:
    value = _number(raw)
    low = -1.0 if key == "valence" else 0.0
    if value is None or not low <= value <= 1.0:
        said = (
            msg("{key} missing is not a number in [{low}, 1.0]", key=key, low=low)
            if raw is None
            else msg("{key} {raw!r} is not a number in [{low}, 1.0]", key=key, raw=raw, low=low)
        )
        reader.findings.add("mood-range", MOOD, line, said)
    return value


def _mood_aux(reader: StoreReader) -> tuple[str | None, int | None]:
    tf = reader.read(MOOD_AUX) if reader.exists(MOOD_AUX) else None
    if tf is None:
        return None, None
    values: dict[str, str] = {}
    for _index, _offset, line in iter_lines(tf.text):
        key, sep, value = line.partition(":")
        if sep:
            values.setdefault(key.strip(), value.strip())
    count = small_int(values.get("consecutive_g4c_count") or "")
    return values.get("last_decay_written_at"), count


# --- profile and persona ---------------------------------------------------


def _profile(reader: StoreReader) -> list[ProfileCategory]:
    tf = reader.read(PROFILE) if reader.exists(PROFILE) else None
    if tf is None:
        return []
    limit = reader.thresholds.profile_category_max
    found = []
    for s in sections(tf, 2, fenced=reader.fences(tf)):
        core = any(word in s.name.casefold() for word in CORE_WORDS)
        found.append(ProfileCategory(s.name, s.items, core, s.span))
        if len(s.items) > limit:
            v = {"name": s.name, "n": len(s.items), "limit": limit}
            said = (
                msg(
                    "category {name!r} has {n:,} items, more than {limit:,} (a core category: "
                    "you choose what to archive)",
                    **v,
                )
                if core
                else msg("category {name!r} has {n:,} items, more than {limit:,}", **v)
            )
            reader.findings.add("profile-category-full", PROFILE, s.span.lineno, said)
    return found


def _persona_details(reader: StoreReader) -> list[str]:
    tf = reader.read(PERSONA) if reader.exists(PERSONA) else None
    if tf is None:
        return []
    details: list[str] = []
    inside = False
    code = reader.fences(tf).lines(tf.text)  # a fenced line is content, never a heading
    for index, _offset, line in iter_lines(tf.text):
        if index in code:
            continue
        if NEW_DETAILS in line:
            inside = True
        elif inside and line.startswith(("#", "【")):
            break
        elif inside and line.lstrip().startswith("•"):
            details.append(line.lstrip()[1:].strip())
    return details
