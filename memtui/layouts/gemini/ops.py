"""Changes to Gemini CLI's memory, each one transaction with read-back (SPEC §0):
replacing a context file's, a `## ` section's or one Added Memories line's text;
archiving a section or a memory out of its file into the archive book (its text and
where it was: engine.ops.places) and restoring it there, byte for byte.

Gemini CLI takes no lock and writes a file whole (`fs.writeFile`, memoryTool.ts before
May 2026; the model's write_file and replace tools now): memtui takes its own lock,
and its content-hash check refuses a change when the agent wrote meanwhile. A context
file is never archived whole: Gemini CLI loads it by name.
"""

from __future__ import annotations

import json
import os
from typing import Any

from memtui.engine.identity import checked, fingerprint, split_expect
from memtui.engine.markdown import HEADING, ITEM_STARTS, sections
from memtui.engine.model import Span
from memtui.engine.ops import archive_book as book
from memtui.engine.ops.common import Refused, now_iso, thresholds
from memtui.engine.ops.headed import AGAIN, NTH, headed
from memtui.engine.ops.lines import check_root, load
from memtui.engine.ops.places import at_heading, content, rows
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Conflict, Receipt, Transaction
from memtui.i18n import msg
from memtui.layouts.gemini import rules
from memtui.layouts.gemini.detect import BOOK
from memtui.layouts.gemini.parse import KIND, MEMORY_KIND, file_part, record_of

ADDED_LINE = f"## {rules.ADDED}"


class Target:
    """What an id names: a file, a section of it, or the n-th memory of its Added
    Memories section."""

    def __init__(self, kind: str, name: str) -> None:
        self.kind, self.entry_id = kind, f"{kind}:{name}"
        if kind == MEMORY_KIND:
            file, _, n = name.rpartition("#")
            if not file or not n.isdigit() or int(n) < 1:
                raise Refused(
                    msg(
                        "{entry_id}: a memory is named `{MEMORY_KIND}:<file>#<n>`",
                        entry_id=self.entry_id,
                        MEMORY_KIND=MEMORY_KIND,
                    )
                )
            self.file, self.heading, self.n = file, None, int(n)
        else:
            self.file = file_part(name)
            rest = name[len(self.file) + 1 :].strip() if len(self.file) < len(name) else None
            if rest == "":
                raise Refused(msg("{entry_id}: no section heading after #", entry_id=self.entry_id))
            self.heading, self.n = rest, 0
        norm = os.path.normpath(self.file) if self.file else ""
        if norm != self.file or self.file.startswith("/") or not self.file.endswith(".md"):
            raise Refused(
                msg(
                    "{entry_id} is not a Gemini memory file (a .md path in the store)",
                    entry_id=self.entry_id,
                )
            )

    @property
    def whole(self) -> bool:
        return self.heading is None and not self.n

    def span(self, tf: TextFile, fp: str | None) -> Span:
        """Its span in the file as it is now; an entry that moved, changed or went since
        it was shown (fingerprint `fp`) is a Conflict."""
        if self.whole:
            if fp is not None and fingerprint(tf.text) != fp:
                raise _changed(self.entry_id)
            return Span(tf.path, 0, len(tf.text.splitlines()), 0, len(tf.text))
        if self.n:
            return self._memory(tf, fp)
        return self._section(tf, fp)

    def _memory(self, tf: TextFile, fp: str | None) -> Span:
        from memtui.layouts.gemini.parse import _memories

        added = [s.span for s in sections(tf, 2, False) if s.name.strip() == rules.ADDED]
        found = [m.span for m in _memories(tf, added[0])] if added else []
        if fp is None and len(found) < self.n:
            raise Refused(
                msg(
                    "{path} has no memory number {n} under {ADDED_LINE!r}",
                    path=tf.path,
                    n=self.n,
                    ADDED_LINE=ADDED_LINE,
                )
            )
        return self._shown(tf, found, self.n, fp)

    def _section(self, tf: TextFile, fp: str | None) -> Span:
        heading = self.heading or ""
        spans, nth = headed(tf, heading, 2)
        if fp is None and not spans:
            raise Refused(msg("no section {heading!r} in {path}", heading=heading, path=tf.path))
        if fp is None and (len(spans) > 1 or nth > 1):
            raise Refused(
                msg(
                    "{count} sections of {path} are headed {heading!r}: one is "
                    "named with its place and fingerprint, as `memtui list` prints "
                    "it; {AGAIN}",
                    count=len(spans),
                    path=tf.path,
                    heading=heading,
                    AGAIN=AGAIN,
                )
            )
        return self._shown(tf, spans, nth, fp)

    def _shown(self, tf: TextFile, spans: list[Span], nth: int, fp: str | None) -> Span:
        """The `nth` of `spans` if it is still the text shown (fingerprint `fp`)."""
        if nth > len(spans):
            raise Conflict(
                msg(
                    "{entry_id} is no longer in {path} (the agent?); {AGAIN}",
                    entry_id=self.entry_id,
                    path=tf.path,
                    AGAIN=AGAIN,
                )
            )
        span = spans[nth - 1]
        if fp is not None and fingerprint(_text(tf, span)) != fp:
            raise _changed(self.entry_id)
        return span


# Auto Memory's extraction (memoryService.ts): `<memory folder>/.extraction.lock`, made
# with O_CREAT|O_EXCL and holding {"pid", "startedAt"}; stale when its process is gone or
# it is older than LOCK_STALE_MS, 35 minutes.
EXTRACTION_LOCK = ".extraction.lock"
LOCK_STALE_S = 35 * 60


def check_extraction(root: str, rel: str) -> None:
    """Refused while Gemini CLI's memory extraction holds the lock of the private memory
    folder `rel` is in: it is reading that folder to draft changes to it."""
    parts = rel.split("/")
    if len(parts) < 4 or parts[0] != "tmp" or parts[2] != "memory":
        return
    lock = os.path.join(root, *parts[:3], EXTRACTION_LOCK)
    holder = _live_holder(lock)
    if holder is not None:
        raise Refused(
            msg(
                "{rel}: Gemini CLI's memory extraction (pid {holder}) holds "
                "{join}/{EXTRACTION_LOCK}; nothing was written, try again when "
                "it is done",
                rel=rel,
                holder=holder,
                join="/".join(parts[:3]),
                EXTRACTION_LOCK=EXTRACTION_LOCK,
            )
        )


def _live_holder(lock: str) -> int | None:
    """The pid holding an extraction lock that is not stale (isLockStale), else None."""
    import datetime as dt

    from memtui.engine.rawfile import read_bytes

    got = read_bytes(lock, 4096)
    if isinstance(got, str):
        return None
    try:
        info = json.loads(got)
        pid, started = int(info["pid"]), dt.datetime.fromisoformat(info["startedAt"])
        os.kill(pid, 0)
    except (ValueError, TypeError, KeyError, OverflowError, OSError):
        return None  # unreadable, malformed or its process gone: stale
    age = dt.datetime.now(dt.UTC) - started.astimezone(dt.UTC)
    return pid if age.total_seconds() <= LOCK_STALE_S else None


def _changed(entry_id: str) -> Conflict:
    return Conflict(
        msg(
            "{entry_id} changed since it was shown (the agent wrote to it); {AGAIN}",
            entry_id=entry_id,
            AGAIN=AGAIN,
        )
    )


def _text(tf: TextFile, span: Span) -> str:
    return tf.text[span.char_start : span.char_stop]


# --- edit ------------------------------------------------------------------------


def edit(root: str, kind: str, name: str, new_text: str, **shown: Any) -> Receipt:
    """The file's, the section's or the memory's text replaced by `new_text`; the rest
    of the file byte for byte as it was. A section stays one `## ` section; a memory
    stays one `- ` line, as save_memory wrote them (its continuation lines indented)."""
    from memtui.engine.ops.replace import replace_entry

    name, fp = split_expect(name, shown.get("expect"))
    target = Target(kind, name)

    def targeting(tx_root: str, seen: str | None, _given: bool) -> Any:
        check_extraction(tx_root, target.file)

        def span_of(tf: TextFile) -> tuple[int, int]:
            span = target.span(tf, seen)
            return span.char_start, span.char_stop

        return target.file, span_of, 0

    def keeps_shape(change: Any) -> None:
        if target.n:
            _one_memory(target.entry_id, change.new)
        elif target.heading is not None:
            _one_section(target.entry_id, change.new)

    return replace_entry(
        root,
        kind,
        new_text,
        targeting,
        entry_id=target.entry_id,
        seen_text=shown.get("seen_text"),
        expect=fp,
        dry_run=bool(shown.get("dry_run")),
        check=keeps_shape,
    )


def _one_section(entry_id: str, new: str) -> None:
    found = sections(TextFile("", new, False, 0), 2, False)
    if len(found) != 1 or found[0].span.char_start != 0 or found[0].span.char_stop != len(new):
        raise Refused(
            msg(
                "{entry_id}: the text must be one section, beginning with its "
                "`## ` heading line and holding no other `#` or `##` heading; "
                "nothing was written",
                entry_id=entry_id,
            )
        )


def _one_memory(entry_id: str, new: str) -> None:
    lines = [content(r) for r in rows(new)]
    if (
        not lines
        or not lines[0].startswith(ITEM_STARTS)
        or any(not (x[:1] in " \t" and x.strip()) for x in lines[1:])
    ):
        raise Refused(
            msg(
                "{entry_id}: a memory is one `- ` line (further lines "
                "indented, none blank), as save_memory wrote them; nothing was "
                "written",
                entry_id=entry_id,
            )
        )


# --- archive and restore -----------------------------------------------------------


def archive(root: str, kind: str, name: str, **shown: Any) -> Receipt:
    """The section or memory cut from its file into the archive book, with its place."""
    name, fp = split_expect(name, shown.get("expect"))
    target = Target(kind, name)
    if target.whole:
        raise Refused(
            msg(
                "{entry_id}: a context file is not archived whole (Gemini CLI "
                "loads it by name); archive one of its sections "
                "({KIND}:{file}#<heading>) or memories",
                entry_id=target.entry_id,
                KIND=KIND,
                file=target.file,
            )
        )
    check_root(root)
    limits = thresholds(root)
    dry_run = bool(shown.get("dry_run"))
    with Transaction(root, "archive", details={"entry": target.entry_id}, dry_run=dry_run) as tx:
        check_extraction(tx.root, target.file)
        tf = load(tx, target.file, limits)
        assert tf is not None
        span = target.span(tf, fp)
        after, text, place = book.cut_out(tf, span, separators=not target.n)
        record = {
            "id": target.entry_id if target.n else _own_id(tf, target, span),
            "file": target.file,
            "text": text,
            "place": place,
            "archived_at": now_iso(),
        }
        tx.write(target.file, tf.encode(after))
        book.append(tx, BOOK, limits, record)
        tx.details.update(file=target.file, to=BOOK)
        return tx.commit()


def _own_id(tf: TextFile, target: Target, span: Span) -> str:
    """The section's id by its own heading (`Notes`, not `Notes#2`)."""
    own = next(s.name.strip() for s in sections(tf, 2, False) if s.span == span)
    return f"{KIND}:{target.file}#{own}"


def restore(root: str, kind: str, name: str, **shown: Any) -> Receipt:
    """The archived section or memory back at its place in its file (a memory at the end
    of the Added Memories section, a section at the file's end, when that place is
    gone), its record out of the book; the book goes with the last record.
    `@FINGERPRINT` in the id picks which of several archived under one id."""
    name, picked = split_expect(name)
    want = checked(shown.get("expect"))
    target = Target(kind, name)
    if target.whole:
        raise Refused(
            msg(
                "{entry_id}: only a section or a memory is archived, and restored",
                entry_id=target.entry_id,
            )
        )
    check_root(root)
    limits = thresholds(root)
    dry_run = bool(shown.get("dry_run"))
    with Transaction(root, "restore", details={"entry": target.entry_id}, dry_run=dry_run) as tx:
        check_extraction(tx.root, target.file)
        tf_book, lines = book.opened(tx, BOOK, limits)
        at_line, record = _archived(lines, target, picked)
        book.check_shown(want, record, tf_book, target.entry_id, BOOK)
        tf = load(tx, target.file, limits, must_exist=False)
        if tf is None:
            raise Refused(
                msg(
                    "{file} no longer exists; {entry_id} stays in {BOOK}",
                    file=target.file,
                    entry_id=target.entry_id,
                    BOOK=BOOK,
                )
            )
        tx.write(target.file, tf.encode(_put_back(tf.text, record, bool(target.n))))
        book.take_out(tx, BOOK, tf_book, lines, at_line)
        tx.details.update(file=target.file, to=target.file, **{"from": BOOK})
        return tx.commit()


def _archived(lines: list[str], target: Target, picked: str | None) -> tuple[int, dict[str, Any]]:
    found = book.records(lines, record_of)
    wanted = [target.entry_id]
    m = NTH.fullmatch(target.heading or "")
    if m:  # `Notes#2` was archived as `Notes`
        wanted.append(f"{KIND}:{target.file}#{m.group(1).strip()}")
    return book.pick(found, wanted, picked, target.entry_id, BOOK, "entry")


def _put_back(text: str, record: dict[str, Any], memory: bool) -> str:
    if memory:
        return book.put_back_block(text, record, _in_added, _append_memory)
    return book.put_back_block(text, record, at_heading(2))


def _in_added(lines: list[str]) -> Any:
    """Below a line of the Added Memories section (its heading included)."""
    owner, inside = [False], False
    for line in lines:
        m = HEADING.match(line)
        if m and len(m.group(1)) <= 2:
            inside = m.group(2) == rules.ADDED and len(m.group(1)) == 2
        owner.append(inside)
    return lambda k: owner[k]


def _append_memory(text: str, memory: str) -> str:
    """The memory where save_memory put a new one: at the end of the Added Memories
    section (memoryTool.ts computeGlobalMemoryContent), the section added if gone."""
    item = memory.rstrip("\r\n")
    at = text.find(ADDED_LINE)
    if at < 0:
        sep = (
            ""
            if not text or text.endswith(("\n\n", "\r\n\r\n"))
            else "\n"
            if text.endswith("\n")
            else "\n\n"
        )
        return f"{text}{sep}{ADDED_LINE}\n{item}\n"
    end = text.find("\n## ", at + len(ADDED_LINE))
    end = len(text) if end < 0 else end + 1
    body = text[:end]
    eol = "\r\n" if body.endswith("\r\n") else "\n"
    if not body.endswith("\n"):
        body += eol
    return body + item + eol + text[end:]
