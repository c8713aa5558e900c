"""The OpenClaw agent workspace (SPEC §3b): `~/.openclaw/workspace/`, as OpenClaw
reads it today (openclaw/openclaw, npm `openclaw` 2026.9.6).

The bootstrap files AGENTS.md, SOUL.md, IDENTITY.md, USER.md, BOOTSTRAP.md, MEMORY.md
are injected into every session, each cut at 20,000 characters (USER.md at 4,000) and
all of them at 60,000 (rules.py: bootstrap.ts, workspace-bootstrap-policy.ts,
workspace.ts); TOOLS.md and HEARTBEAT.md are retired, memory.md is the legacy name
(root-memory-files.ts). The daily notes `memory/YYYY-MM-DD[-slug].md` are append-only
logs; a new session quotes today's and yesterday's (startup.py:
session-startup-context.ts). DREAMS.md is dreaming's diary, never injected, and the
entries dreaming promotes into MEMORY.md carry their provenance (dreaming.py:
dreaming-consolidation.ts, short-term-promotion-apply.ts). `memory/audit/
suggestions.jsonl` is the Memory Audit queue (audit.py: memory-audit.ts). OpenClaw
takes no lock file in the workspace: memtui takes its own, and its content-hash check
guards against a concurrent write.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout, Listing, there
from memtui.engine.layouts.common import JS_SPACE, late, not_read, refused, unread_context
from memtui.engine.markdown import sections
from memtui.engine.model import ContextFile, Entry, OutlineItem, Span
from memtui.engine.textfile import TextFile
from memtui.engine.words import clauses
from memtui.i18n import msg
from memtui.layouts.openclaw import audit, dreaming, rules
from memtui.layouts.openclaw import startup as quoting
from memtui.layouts.openclaw.codes import CODES
from memtui.layouts.openclaw.detect import OpenClawDetection
from memtui.layouts.openclaw.rules import ALT_MEMORY, first_unloaded

if TYPE_CHECKING:
    from memtui.engine.queue import QueueItem, QueuePreview
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt

# ASCII digits: OpenClaw's JavaScript \d matches no other (a fullwidth date is no note).
DAILY = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:-(.+))?\.md", re.ASCII)
# Files OpenClaw itself keeps directly under memory/ that are no daily note: the bundled
# context-digest hook's rolling digest (src/hooks/bundled/context-digest/HOOK.md). The
# session-memory hook's notes are dated (memory/YYYY-MM-DD-slug.md): DAILY takes them.
OWN_MEMORY_FILES = ("context-digest.md",)


@dataclass(frozen=True, slots=True)
class Daily:
    file: str
    date: dt.date | None  # None: not named YYYY-MM-DD[-slug].md
    future: bool


@dataclass(frozen=True, slots=True)
class OpenClawData:
    present: tuple[str, ...]  # the bootstrap files that exist, in injection order
    injected: tuple[rules.Injected, ...]
    sections: tuple[tuple[str, str, Span], ...]  # (file, heading, span) of `## ` sections
    daily: tuple[Daily, ...]  # dated notes newest first, then the misnamed ones
    queue: tuple[audit.Suggestion, ...]
    today: dt.date
    startup: tuple[str, ...]  # the daily notes a new session quotes, in order
    promoted: tuple[dreaming.Promotion, ...]  # MEMORY.md's entries dreaming wrote


class OpenClaw(OpenClawDetection, Layout):
    kinds = ("openclaw", "openclaw-daily", audit.KIND)
    codes = CODES

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui.layouts.openclaw.demo import build_openclaw

        return build_openclaw(sink, rng, size, today)

    def parse(self, reader: StoreReader, top: Listing) -> OpenClawData:
        from memtui.layouts.openclaw.findings import check

        names = (*rules.FILES, *rules.DREAMS)
        texts = {name: reader.read(name) for name in names if name in top.root_files}
        present = tuple(n for n in names if texts.get(n) is not None)
        order = [
            (n, _text(texts.get(n)))
            for n in rules.BOOTSTRAP
            if n not in rules.OPTIONAL or there(top, n)  # absent: no [MISSING] marker
        ]
        where = {n: os.path.join(reader.root, n) for n in rules.BOOTSTRAP}
        injected = tuple(rules.build(order, where))
        found = []
        for name in present:
            tf = texts[name]
            assert tf is not None
            for s in sections(tf, 2, False):
                found.append((name, s.name.strip(), s.span))
        # every note, readable or not (a FIFO, a link out: reported, named by `context`)
        daily = _daily(chain(top.files, top.others, reader.escaped), reader.today)
        # a FIFO or a folder by a note's name too: `context` says why it is not read
        notes = chain(top.files, top.others)
        in_memory = [f[7:] for f in notes if f.startswith("memory/") and f.count("/") == 1]
        startup = tuple(
            rel
            for rel in quoting.paths(reader.root, in_memory, reader.today)
            if there(top, rel) or rel in reader.escaped
        )
        for rel in startup:  # the agent loads them: read, or why not
            reader.read(rel)
        queue_tf = reader.read(audit.QUEUE)
        queue = tuple(audit.read(queue_tf.text)) if queue_tf is not None else ()
        data = OpenClawData(
            present, injected, tuple(found), daily, queue, reader.today, startup,
            dreaming.promotions(texts.get(rules.MEMORY)),
        )  # fmt: skip
        check(reader, data, top, queue_tf)
        return data

    def knows(self, rel: str) -> bool:
        folder, _, name = rel.rpartition("/")
        if folder == "memory":
            return name.endswith(".md")  # a daily note, or a file OpenClaw keeps there
        return rel in (*rules.FILES, *rules.DREAMS, ALT_MEMORY, audit.QUEUE)

    def file_of(self, kind: str, name: str) -> str | None:
        if kind == audit.KIND:
            return audit.QUEUE
        return f"memory/{name}" if kind == "openclaw-daily" else name.partition("#")[0]

    # --- entries, outline, context ---------------------------------------------

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        for name in data.present:
            yield Entry(f"openclaw:{name}", "openclaw", self.name, name, name)
        for file, heading, span in data.sections:
            title = f"{file} · {heading}"
            if file == rules.MEMORY:  # where dreaming's promotions in it came from
                title += "".join(f" · {p.said()}" for p in _within(data.promoted, span)[:1])
            yield Entry(f"openclaw:{file}#{heading}", "openclaw", self.name, title, file, span)
        for d in data.daily:
            name = d.file.split("/", 1)[1]
            yield Entry(f"openclaw-daily:{name}", "openclaw-daily", self.name, name, d.file)
        for s in data.queue:  # the queue's items, as `memtui pending` names them
            if s.status == "pending":
                span = Span(audit.QUEUE, s.line - 1, s.line, s.start, s.stop)
                target = s.record["target"]
                where = target.get("path") if isinstance(target, dict) else target
                said = " ".join(s.record["text"].split()) or str(s.record.get("rationale", ""))
                title = f"{s.action} → {where}: {said[:60]}"
                yield Entry(s.item_id, audit.KIND, self.name, title, audit.QUEUE, span)

    def details(self, store: Store, data: Any, entry: Entry) -> dict[str, Any]:
        """Dreaming's provenance of the MEMORY.md entries it promoted (show --json)."""
        if entry.file != rules.MEMORY or not data.promoted:
            return {}
        found = _within(data.promoted, entry.span) if entry.span else data.promoted
        return {"promoted_by_dreaming": [p.to_json() for p in found]} if found else {}

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.layouts.openclaw.outline import outline

        return outline(store, data)

    def context(self, store: Store, data: Any) -> list[ContextFile]:
        out = []
        for item in data.injected:  # a file that could not be read: why, not "missing"
            unread = unread_context(store, item.name) if item.trim is None else []
            out += unread or [_context_file(item)]
        if all(item.name != rules.MEMORY for item in data.injected):
            out += unread_context(store, rules.MEMORY)
        out += _startup(store, data.startup)
        return out

    # --- ops ---------------------------------------------------------------------

    def summary(self, data: Any) -> list[str]:
        injected = sum(1 for n in data.present if n in rules.BOOTSTRAP)
        return [
            msg(
                "{injected:,} bootstrap files, {count:,} daily notes, {count2:,} suggestions",
                injected=injected,
                count=len(data.daily),
                count2=len(data.queue),
            )
        ]

    def edit(self, root: str, kind: str, name: str, new_text: str, **shown: Any) -> Receipt:
        from memtui.engine.ops.replace import replace_entry
        from memtui.layouts.openclaw.ops import openclaw_target

        target = lambda tx_root, fp, _seen: openclaw_target(tx_root, kind, name, fp)  # noqa: E731
        return replace_entry(root, kind, new_text, target, **shown)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        raise refused(
            msg(
                "{kind}:{name}: an OpenClaw workspace has no archive; edit the "
                "file, or apply a Memory Audit delete or move (memtui pending)",
                kind=kind,
                name=name,
            )
        )

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        raise refused(
            msg(
                "{kind}:{name}: an OpenClaw workspace has no archive to restore from",
                kind=kind,
                name=name,
            )
        )

    def queue(self, store: Store, data: Any) -> list[QueueItem]:
        from memtui.layouts.openclaw.audit_ops import queue_items

        return queue_items(store, data)

    def preview(self, root: str, item_id: str) -> QueuePreview:
        from memtui.layouts.openclaw import audit_ops

        return audit_ops.preview(root, item_id)

    def approve(self, root: str, ids: list[str], **shown: Any) -> list[Receipt]:
        from memtui.layouts.openclaw import audit_ops

        return audit_ops.approve(root, ids, **shown)

    def reject(self, root: str, ids: list[str], reason: str, **shown: Any) -> list[Receipt]:
        from memtui.layouts.openclaw import audit_ops

        return audit_ops.reject(root, ids, reason, **shown)


def _text(tf: TextFile | None) -> str | None:
    """The text as OpenClaw reads it (utf-8, a BOM kept: it is one more character)."""
    return None if tf is None else ("\ufeff" if tf.bom else "") + tf.text


def _startup(store: Store, rels: tuple[str, ...]) -> list[ContextFile]:
    """The daily notes a new session quotes (startup.py): the prelude's text split by
    note (joined by newlines they are the prelude), the cut of each marked."""
    read, out = [], []
    for rel in rels:
        tf = late(store, rel)
        if isinstance(tf, TextFile) and len(tf.encode()) > quoting.FILE_MAX_BYTES:
            said = msg(
                "not loaded: over the {n:,} bytes OpenClaw reads of a startup note",
                n=quoting.FILE_MAX_BYTES,
            )
            out.append(ContextFile(rel, "", 1, 0, said))
        elif isinstance(tf, TextFile):
            read.append((rel, _text(tf) or ""))
        elif tf is not None:
            out.append(not_read(rel, tf))
    quoted, more = quoting.quote(read)
    texts = dict(read)
    for n, q in enumerate(quoted):
        text = "\n".join([*quoting.HEADER, "", q.block]) if n == 0 else q.block
        if more and n == len(quoted) - 1:
            text += "\n" + quoting.MORE
        out.append(_quoted(q, texts[q.file], text))
    for rel in [rel for rel, text in read if text.strip(JS_SPACE)][len(quoted) :]:
        said = msg(
            "not loaded: the {n:,} characters OpenClaw quotes in all are used up",
            n=quoting.TOTAL_MAX_CHARS,
        )
        out.append(ContextFile(rel, "", 1, 0, said))
    return out


def _quoted(q: quoting.Quoted, full: str, text: str) -> ContextFile:
    note = msg("a recent daily note, quoted on a bare /new or /reset (startupContext)")
    if q.whole:
        return ContextFile(q.file, text, None, _lines(full), note)
    at = q.lead + len(q.kept)  # the first character not quoted
    first = full.count("\n", 0, at) + 1 + full.startswith(("\n", "\r\n"), at)
    said = msg(
        "OpenClaw quotes {note:,} characters of a note and {all:,} in all",
        note=quoting.FILE_MAX_CHARS,
        all=quoting.TOTAL_MAX_CHARS,
    )
    note = clauses([note, said])
    return ContextFile(q.file, text, first, first - 1, note)


def _within(promoted: tuple[dreaming.Promotion, ...], span: Span) -> list[dreaming.Promotion]:
    return [p for p in promoted if span.lineno <= p.line <= span.last_lineno]


def _lines(text: str) -> int:
    return len(text.splitlines())


def _context_file(item: rules.Injected) -> ContextFile:
    if item.trim is None:
        said = msg("missing: OpenClaw injects this marker")
        return ContextFile(item.name, item.text, None, 0, said)
    first = first_unloaded(item)
    private = item.name == rules.MEMORY
    if first is None:
        note = msg("loaded whole (in the main, private session only)") if private else ""
        return ContextFile(item.name, item.text, None, _lines(item.text), note)
    t = item.trim
    if item.clamped:
        why = msg("the {n:,}-character budget of all bootstrap files", n=rules.TOTAL_MAX_CHARS)
    else:
        why = msg("{cap:,} characters ({n:,} in the file)", cap=rules.cap(item.name), n=t.original)
    note = msg("OpenClaw cuts {file} at {why}", file=item.name, why=why)  # past it: unloaded
    if t.tail_units:
        said = msg("its last {n:,} characters are loaded again", n=t.tail_units)
        note = clauses([note, said])
    if private:
        note = msg("{note} (in the main, private session only)", note=note)
    last = None if item.clamped else _last_unloaded(t, first)
    return ContextFile(item.name, item.text, first, first - 1, note, last)


def _last_unloaded(t: rules.Trim, first: int) -> int | None:
    """The last line before the kept tail (None: no tail, or it starts in line `first`).
    A line the tail starts inside counts as not loaded: its start is not."""
    if not t.tail_units:
        return None
    start = len(t.trimmed) - len(rules.slice_safe(t.trimmed, -t.tail_units))
    line = t.trimmed.count("\n", 0, start) + 1
    last = line - 1 if start == 0 or t.trimmed[start - 1] == "\n" else line
    return last if last >= first else None


def _daily(files: Iterable[str], today: dt.date) -> tuple[Daily, ...]:
    dated, odd = [], []
    for rel in files:
        parts = rel.split("/")
        if len(parts) != 2 or parts[0] != "memory" or not parts[1].endswith(".md"):
            continue
        if parts[1] in OWN_MEMORY_FILES:
            continue
        date = _date(parts[1])
        if date is None:
            odd.append(Daily(rel, None, False))
        else:
            dated.append(Daily(rel, date, date > today))
    dated.sort(key=lambda d: (d.date, d.file), reverse=True)
    return tuple(dated) + tuple(sorted(odd, key=lambda d: d.file))


def _date(name: str) -> dt.date | None:
    m = DAILY.fullmatch(name)
    if not m:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
