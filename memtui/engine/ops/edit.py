"""Replacing one entry's text (SPEC §4 "edits an entry or a file").

The entry is located again in the file's current bytes under the store lock,
so lines the agent wrote meanwhile elsewhere in the file are kept. If the
caller says what text it saw, an entry that has itself changed since is a
Conflict: nothing either side writes is lost.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Iterator

from memtui.engine import frontmatter
from memtui.engine.identity import check_shown, event_ref, fingerprint, pick_event, split_expect
from memtui.engine.layouts import bare_kind
from memtui.engine.markdown import HEADING, sections
from memtui.engine.ops.common import Refused, thresholds
from memtui.engine.ops.lines import check_root, eol_of_text, line_ranges, load
from memtui.engine.paths import LAYOUT_DIRS, is_temp_name
from memtui.engine.textfile import TextFile, decode, line_count
from memtui.engine.words import listed
from memtui.engine.write.files import read_or_none
from memtui.engine.write.transaction import (
    HISTORY,
    Conflict,
    Receipt,
    Transaction,
    WriteError,
    check_path,
)
from memtui.layouts.claude.ops import CLAUDE_KINDS, claude_target
from memtui.layouts.companion.ops import parse_event_ref
from memtui.layouts.companion.parse import EVENT_ID, EVENTS, HEADS, PROFILE, _events, small_int
from memtui.layouts.dsh.parse import INDEX as DSH_INDEX
from memtui.layouts.dsh.structure import check_structure
from memtui.layouts.openclaw.ops import OPENCLAW_KINDS, openclaw_target
from memtui.layouts.workspace.parse import DSH_L0, INDEX, TOPIC_LIKE, topic_id

FACTS = "facts.md"
SOUL = "soul.md"

Locate = Callable[[TextFile], tuple[int, int]]  # (char start, char stop) of the entry


def edit_entry(
    root: str,
    entry_id: str,
    new_text: str,
    *,
    seen_text: str | None = None,
    expect: str | None = None,
    insist: bool = False,
    dry_run: bool = False,
) -> Receipt:
    """Replace the entry's text with `new_text` (ids as in SPEC §6).

    `seen_text` is the entry's text as the caller read it: if the entry differs
    now, Conflict. Without it, `expect` (or `@FINGERPRINT` at the end of the id) is
    the entry's fingerprint as shown (identity), with the same effect. Changes
    elsewhere in the file do not matter; they are kept. Empty text is refused (an
    entry is removed by archiving it), and so is text that would leave an event, a
    section, a candidate or a sop without its structure. The dsh layout's L0
    meta-rules are read-only unless the user insists (SPEC §3).
    """
    if not isinstance(new_text, str):
        raise Refused("the new text must be text")
    if entry_id.strip().startswith("hermes:"):  # a Hermes §-entry: its own rules and lock
        from memtui.layouts.hermes.ops import edit_entry as edit_hermes

        return edit_hermes(
            root, entry_id, new_text, seen_text=seen_text, expect=expect, dry_run=dry_run
        )
    kind, name, expect = _split_ref(entry_id, expect)
    if seen_text is not None:  # the text seen names the entry more exactly than an id
        expect = fingerprint(seen_text)
    if not new_text.strip():
        raise Refused(
            f"{entry_id}: the new text is empty; an edit never removes an entry (archiving "
            "it does: `memtui archive`, or x in the app); nothing was written"
        )
    if kind == "claude-index" and "\n" in new_text.strip("\r\n"):
        raise Refused(f"{entry_id}: an index line stays one line (content goes in a memory)")
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "edit", details={"entry": entry_id}, dry_run=dry_run) as tx:
        rel, locate, heading_level = _target(tx.root, kind, name, expect, seen_text is not None)
        if is_l0(tx.root, rel) and not insist:
            raise Refused(
                f"{rel} holds the dsh layout's L0 meta-rules, which memtui keeps read-only; "
                "to change them anyway, insist (`memtui edit --insist`, or ctrl+u in the app)"
            )
        tf = load(tx, rel, limits)
        assert tf is not None
        try:
            start, stop = locate(tf)
        except Refused:
            if seen_text is not None:
                raise Conflict(
                    f"{entry_id} is no longer in {rel} (removed or renumbered since you read "
                    "it, by the agent?); nothing was changed — reload and try again"
                ) from None
            raise
        old = tf.text[start:stop]
        # Blank lines after it are not part of what was seen (the agent's append after
        # the last event adds one); fit() keeps them.
        if seen_text is not None and old.rstrip() != seen_text.rstrip():
            raise Conflict(
                f"{entry_id} changed since you read it (the agent wrote to it): "
                f"{what_changed(seen_text, old)}; nothing was changed — reload and try again"
            )
        check_shown(entry_id, old, expect, rel)
        new = fit(new_text, old, tf.text)
        if heading_level:
            _check_heading(entry_id, new, heading_level)
        text = tf.text[:start] + new + tf.text[stop:]
        if kind == "event":
            archived = read_or_none(os.path.join(tx.root, "archive", EVENTS))
            archived_text = archived.decode("utf-8", "replace") if archived else ""
            _check_event_edit(entry_id, old, new, text + "\n" + archived_text)
        check_structure(rel, old, new)
        _check_file_rules(rel, tf.text, text, limits.index_block_lines)
        tx.details["file"] = rel
        if text != tf.text:
            tx.write(rel, tf.encode(text))
        else:
            tx.details["unchanged"] = True
        return tx.commit()


# --- the new text ------------------------------------------------------------


def fit(new: str, old: str, whole: str) -> str:
    """`new` in the entry's line ending, ending the way the old text ended."""
    eol = eol_of_text(old, eol_of_text(whole))
    if eol == "\r\n":
        new = new.replace("\r\n", "\n").replace("\n", "\r\n")
    if not new:
        return new
    if old.endswith("\n") and not new.endswith("\n"):
        new += eol
    elif old and not old.endswith("\n") and new.endswith("\n"):
        new = new[:-2] if new.endswith("\r\n") else new[:-1]  # the file ends without one
    # The blank lines that separate the entry from the next one are kept when the new
    # text has none (text from `memtui show`, or an editor that trims): else the two
    # entries would run together.
    gap = old[len(old.rstrip("\r\n")) :]
    if gap.count("\n") > 1 and not new.endswith(eol + eol):
        new = new.rstrip("\r\n") + gap
    return new


def what_changed(seen: str, now: str) -> str:
    a, b = seen.split("\n"), now.split("\n")
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"line {index + 1} of the entry was {_short(x)}, now {_short(y)}"
    if len(b) > len(a):
        return f"{len(b) - len(a):,} line(s) were added to it"
    return f"{len(a) - len(b):,} line(s) were removed from it"


def _short(line: str, limit: int = 60) -> str:
    line = line.rstrip("\r")
    return repr(line if len(line) <= limit else line[:limit] + "…")


def _check_heading(entry_id: str, new: str, level: int) -> None:
    first = line_ranges(new)[0][2]
    match = HEADING.match(first)
    if not match or len(match.group(1)) != level:
        marks = "#" * level
        raise Refused(
            f"{entry_id}: the text must begin with its `{marks} ` heading line, or it would "
            "merge into the entry before it"
        )


def _check_event_edit(entry_id: str, old: str, new: str, after: str) -> None:
    """An event stays one event, and keeps a number no other event has, archived ones
    included (`after`: events.md as it would be, then the archive): a duplicate could
    not be restored, and the agent numbers new events after the highest it sees."""
    heads = _events(TextFile("", new, False, 0))
    if len(heads) != 1:
        raise Refused(
            f"{entry_id}: the text holds {len(heads)} `### ` event headings; an edit keeps one "
            "event (add events with `memtui add event`)"
        )
    number = heads[0].number
    was = next(iter(_events(TextFile("", old, False, 0))), None)
    if number is None or (was is not None and was.number == number):
        return
    if sum(1 for n in _event_numbers(after) if n == number) > 1:
        raise Refused(
            f"{entry_id}: E{number:03d} is already another event's number (in {EVENTS} or "
            "its archive); renumbering onto it would make two events with one id"
        )


def _event_numbers(text: str) -> Iterator[int]:
    """The number of each `### [ENNN]` heading (a scan, not a parse: 20,000 events)."""
    for match in HEADS.finditer(text):
        heading = match.group()
        found = EVENT_ID.match(heading[4:].strip()) if heading.startswith("### ") else None
        number = small_int(found.group(1)) if found else None  # 5,000 digits: no number
        if number is not None:
            yield number


def check_index_growth(old: str, new: str, index_block: int) -> None:
    """memory.md at its block (SPEC §1) may shrink or stay, never grow: a change that
    would make it longer is refused until it is governed down."""
    lines_before, lines_after = line_count(old), line_count(new)
    if lines_before >= index_block and lines_after > lines_before:
        raise Refused(
            f"memory.md has {lines_before:,} lines (blocked at {index_block:,}); this edit "
            f"would make it {lines_after:,}: govern it down first"
        )


def _check_file_rules(rel: str, old: str, new: str, index_block: int) -> None:
    if rel == SOUL and old != new:
        before = sorted(s.name for s in sections(TextFile(rel, old, False, 0), 2, False))
        after = sorted(s.name for s in sections(TextFile(rel, new, False, 0), 2, False))
        if before != after:
            gone = sorted(set(before) - set(after))
            added = sorted(set(after) - set(before))
            raise Refused(
                "soul.md: only existing fields change; a `## ` section may not be added or "
                f"removed (added: {listed(added, '-')}, removed: {listed(gone, '-')})"
            )
    if rel == INDEX:
        check_index_growth(old, new, index_block)
    if rel.endswith(".json"):
        try:
            json.loads(new)
        except (ValueError, RecursionError) as exc:
            raise Refused(f"{rel}: the new text is not valid JSON ({exc}); not written") from None


# --- finding the entry -------------------------------------------------------


def _split_ref(ref: str, expect: str | None) -> tuple[str, str, str | None]:
    """(kind, name, expected fingerprint) from an id that may end with `@FINGERPRINT`."""
    ref = ref.strip()
    eref = event_ref(ref, expect)
    if eref is not None:
        return "event", eref.shown, eref.fp
    kind, sep, rest = ref.partition(":")
    if not sep:
        return bare_kind(ref), *split_expect(ref, expect)
    kinds = ("event", "fact", "sop", "pending", "profile", "topic", "file", *CLAUDE_KINDS)
    kinds += OPENCLAW_KINDS
    if kind not in kinds or not rest:
        raise Refused(f"{ref!r} is not an entry id (see `memtui list`)")
    if kind == "event":
        parse_event_ref(rest)  # says why it is not an event id
    name, fp = split_expect(rest, expect)
    return kind, name, fp


def _whole(tf: TextFile) -> tuple[int, int]:
    return 0, len(tf.text)


def _target(
    root: str, kind: str, name: str, expect: str | None, seen: bool = False
) -> tuple[str, Locate, int]:
    """(file, how to find the entry in its current text, heading level it starts with).
    Where a name can mean several places (an event's shared number, two sections of
    one name), the one shown (`expect`) is found; check_shown() vouches for the rest."""
    if kind == "event":
        ref = dataclasses.replace(parse_event_ref(name), fp=expect)

        def event(tf: TextFile) -> tuple[int, int]:
            # changed in its place: found, for edit_entry to say what changed
            found = pick_event(_events(tf), ref, EVENTS, changed=seen)
            return found.span.char_start, found.span.char_stop

        return EVENTS, event, 3
    if kind in ("fact", "profile"):
        rel = FACTS if kind == "fact" else PROFILE
        wanted = name.strip()

        def section(tf: TextFile) -> tuple[int, int]:
            spans = [s.span for s in sections(tf, 2, False) if s.name.strip() == wanted]
            if not spans:
                raise Refused(f"no section {wanted!r} in {rel}")
            shown = [
                sp for sp in spans if fingerprint(tf.text[sp.char_start : sp.char_stop]) == expect
            ]
            span = (shown or spans)[0]
            return span.char_start, span.char_stop

        return rel, section, 2
    if kind == "sop":
        return _in_folder(root, "sops", name), _whole, 0
    if kind == "pending":
        return _candidate(root, name), _whole, 0
    if kind == "topic":
        return _topic(root, name), _whole, 0
    if kind in CLAUDE_KINDS:
        return claude_target(root, kind, name)
    if kind in OPENCLAW_KINDS:
        return openclaw_target(root, kind, name, expect)
    return _file(root, name), _whole, 0


def _in_folder(root: str, folder: str, name: str) -> str:
    rel = f"{folder}/{name}.md"
    if "/" in name or "\\" in name or name in (".", "..") or "\x00" in name:
        raise Refused(f"{name!r} is not a name in {folder}/")
    if not os.path.isfile(os.path.join(root, rel)):
        raise Refused(f"no entry {folder[:-1]}:{name} ({rel} does not exist)")
    return rel


def _candidate(root: str, cid: str) -> str:
    """pending/<id>.md, or the candidate whose front matter says `id: <id>`."""
    if "/" not in cid and "\\" not in cid and cid not in (".", "..") and "\x00" not in cid:
        rel = f"pending/{cid}.md"
        if os.path.isfile(os.path.join(root, rel)):
            return rel
    folder = os.path.join(root, "pending")
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".md"))
    except OSError:
        names = []
    for file in names:
        raw = read_or_none(os.path.join(folder, file))
        got = decode(file, raw) if raw is not None else None
        if not isinstance(got, TextFile):
            continue
        try:
            split = frontmatter.split(got.text)
            meta = frontmatter.load(split.yaml_text) if split.yaml_text else {}
        except frontmatter.FrontMatterError:
            continue
        if str(meta.get("id")) == cid:
            return f"pending/{file}"
    raise Refused(f"no entry pending:{cid} (no such candidate in pending/)")


def _topic(root: str, name: str) -> str:
    if "/" in name or "\\" in name or "\x00" in name:
        raise Refused(f"{name!r} is not a topic name")
    direct = f"memory_{name}.md"
    if os.path.isfile(os.path.join(root, direct)):
        return direct
    for file in sorted(os.listdir(root)):
        if TOPIC_LIKE.fullmatch(file) and topic_id(file) == name:
            return file
    raise Refused(f"no entry topic:{name} ({direct} does not exist)")


def _file(root: str, path: str) -> str:
    """A file memtui reads: at the root, or in a layout's folder; never .history/."""
    try:
        rel = check_path(root, path)
    except WriteError as exc:
        raise Refused(str(exc)) from None
    parts = rel.split("/")
    if parts[0] == HISTORY:
        raise Refused(f"{rel} is memtui's own history; roll back with `memtui rollback`")
    if any(is_temp_name(p) for p in parts):
        raise Refused(f"{rel} is a temp file of a write in progress; not an entry")
    folders = dict(LAYOUT_DIRS)
    inside = len(parts) == 1 or (parts[0] in folders and (len(parts) == 2 or folders[parts[0]]))
    if not inside or any(p.startswith(".") for p in parts[:-1]):
        raise Refused(f"{rel} is not a file of this store (see `memtui list`)")
    if not os.path.isfile(os.path.join(root, rel)):
        raise Refused(f"no entry file:{rel} (it does not exist)")
    return rel


def is_l0(root: str, rel: str) -> bool:
    """Whether `rel` is the dsh layout's L0 meta-rules file (in a store with index.txt)."""
    return rel == DSH_L0 and os.path.isfile(os.path.join(root, DSH_INDEX))
