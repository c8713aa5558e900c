"""Hermes Agent's built-in memory and its approval queue (SPEC §3b hermes):
`~/.hermes/memories/MEMORY.md` and `USER.md` (§-separated entries, character limits,
a per-file flock), `pending/memory/*.json` (writes staged for approval) and
`pending/skills/*.json` (shown, read-only). The rules are Hermes' own: hermes_rules.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout, Listing
from memtui.engine.layouts.common import op_options, refused, unread_context
from memtui.engine.model import ContextFile, Entry, OutlineItem
from memtui.engine.words import clauses
from memtui.i18n import msg
from memtui.layouts.hermes import rules
from memtui.layouts.hermes.codes import CODES
from memtui.layouts.hermes.data import ARCHIVE, HermesData, Staged, read_home
from memtui.layouts.hermes.detect import PENDING, QUEUE, HermesDetection
from memtui.layouts.hermes.ids import (
    ARCHIVED,
    ENTRY,
    archived_span,
    entry_ids,
    pending_id,
    span_of,
    title_of,
)

if TYPE_CHECKING:
    from memtui.engine.queue import QueueItem, QueuePreview
    from memtui.engine.reader import StoreReader
    from memtui.engine.statements import Statement
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt


class Hermes(HermesDetection, Layout):
    kinds = (ENTRY, PENDING, ARCHIVED)
    codes = CODES
    archived_to = msg("to memories/archived.jsonl (Hermes never reads it) and leaves its file")
    restored_from = msg("from memories/archived.jsonl to its place in its file")

    # --- detection and parse ---------------------------------------------------

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui.layouts.hermes.demo import build_hermes

        return build_hermes(sink, rng, size, today)

    def parse(self, reader: StoreReader, top: Listing) -> HermesData:
        from memtui.layouts.hermes.findings import check

        data = read_home(reader)
        check(reader, data)
        return data

    def knows(self, rel: str) -> bool:
        return self.is_memory(rel)

    def file_of(self, kind: str, name: str) -> str | None:
        if kind == ENTRY:
            return rules.FILES.get(name.partition("#")[0])
        return f"{QUEUE}/{name}.json" if kind == PENDING else ARCHIVE

    # --- entries, outline, context ---------------------------------------------

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        for eid, mf, piece in entry_ids(data):
            yield Entry(eid, ENTRY, self.name, title_of(piece.text), mf.rel, span_of(mf, piece))
        for item in (*data.queue, *data.skills):
            summary = item.record.summary if item.record else ""
            yield Entry(pending_id(item), PENDING, self.name, summary or item.rel, item.rel)
        for a in data.archived:
            span = archived_span(a)
            yield Entry(f"{ARCHIVED}:{a.id}", ARCHIVED, self.name, title_of(a.text), ARCHIVE, span)

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.layouts.hermes.outline import outline

        return outline(store, data)

    def context(self, store: Store, data: Any) -> list[ContextFile]:
        """Each block as load_from_disk renders it into the system prompt."""
        out = []
        loading = data.loading
        for target, rel in rules.FILES.items():
            mf = data.file(target)
            if mf is None:
                out += unread_context(store, rel)
                continue
            if not loading.loaded(target):  # cut before its first line: none of it is given
                out.append(ContextFile(mf.rel, "", 1, 0, rules.not_loaded(target)))
                continue
            name = mf.rel.rsplit("/", 1)[-1]
            shown = rules.snapshot_entries(list(mf.entries), name)
            block = rules.render_block(mf.target, shown, mf.limit)
            if block is None:
                continue
            first = last = None
            note = msg(
                "frozen into the system prompt at session start, with its gauge ({name})", name=name
            )
            if block.omitted is not None:
                head, gone = block.omitted
                joined = rules.join(shown)
                first = rules.line_at(joined, head)
                # the tail is given again from the line after the one it starts inside
                tail = head + gone
                last = rules.line_at(joined, tail) - (joined[tail - 1] == "\n")
                note = msg(
                    "{name} is past Hermes' render cap: {gone:,} characters from line {first} "
                    "on are left out of the prompt (the head and the tail are kept)",
                    name=name,
                    gone=gone,
                    first=first,
                )
            lines = block.text.count("\n") + 1
            if loading.provider:
                note = clauses([note, rules.alongside(loading.provider)])
            out.append(ContextFile(mf.rel, block.text, first, lines, note, last))
        return out

    def statements(self, store: Store, data: Any, rel: str) -> list[Statement]:
        """Its entries, each with the `§` separator it moves with."""
        from memtui.engine.statements import separated

        mf = next((mf for mf in data.files if mf.rel == rel), None)
        return separated(mf.tf.text, [(p.start, p.stop) for p in mf.pieces]) if mf else []

    # --- ops ---------------------------------------------------------------------

    def summary(self, data: Any) -> list[str]:
        loading = data.loading
        said = [
            f"{mf.rel} {len(mf.entries):,} entries, {rules.char_count(list(mf.entries)):,} of "
            f"{mf.limit:,} characters"
            + ("" if loading.loaded(mf.target) else f" ({rules.not_loaded(mf.target)})")
            for mf in data.files
        ]
        said += [rules.alongside(loading.provider)] if loading.provider else []
        return [*said, f"{len(data.queue):,} staged writes"]

    def edit(self, root: str, kind: str, name: str, new_text: str, **shown: Any) -> Receipt:
        from memtui.layouts.hermes.ops import edit_entry

        if kind != ENTRY:
            given = shown.get("entry_id", f"{kind}:{name}").strip()
            raise refused(msg("{given!r} is not an entry id (see `memtui list`)", given=given))
        options = {k: shown.get(k) for k in ("seen_text", "expect")}
        dry_run = bool(shown.get("dry_run"))
        return edit_entry(root, f"{kind}:{name}", new_text, **options, dry_run=dry_run)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.layouts.hermes.ops import archive_entry

        if kind != ENTRY:
            raise refused(
                msg(
                    "{kind}:{name}: archive an entry (hermes:memory#N or hermes:user#N)",
                    kind=kind,
                    name=name,
                )
            )
        return archive_entry(root, name, **op_options(shown))

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.layouts.hermes.ops import restore_entry

        if kind != ARCHIVED:
            raise refused(
                msg(
                    "{kind}:{name}: restore an archived entry ({ARCHIVED}:<id>)",
                    kind=kind,
                    name=name,
                    ARCHIVED=ARCHIVED,
                )
            )
        return restore_entry(root, name, **op_options(shown))

    # --- the approval queue (engine.queue) -------------------------------------

    def queue(self, store: Store, data: Any) -> list[QueueItem]:
        from memtui.engine.queue import QueueItem

        items = []
        for item in (*data.queue, *data.skills):
            rec = item.record
            created = (
                dt.datetime.fromtimestamp(rec.created_at, dt.UTC).isoformat(timespec="seconds")
                if rec and rec.created_at is not None and abs(rec.created_at) < 1e11
                else None
            )
            problem = None if item.skill else (item.problem or item.error)
            items.append(
                QueueItem(
                    id=pending_id(item),
                    layout=self.name,
                    action=rec.action if rec else "skill" if item.skill else "bad-record",
                    target=rules.FILES[rec.target] if rec else "skills" if item.skill else "-",
                    summary=(rec.summary if rec else "") or item.rel,
                    file=item.rel,
                    created=created,
                    origin=rec.origin if rec else None,
                    problem=problem,
                    read_only=item.skill,
                    fingerprint=item.fingerprint,
                    fields=_fields(item),
                )
            )
        return items

    def preview(self, root: str, item_id: str) -> QueuePreview:
        from memtui.layouts.hermes import queue

        return queue.preview(root, item_id)

    def approve(self, root: str, ids: list[str], **shown: Any) -> list[Receipt]:
        from memtui.layouts.hermes import queue

        return queue.approve(root, ids, **shown)

    def reject(self, root: str, ids: list[str], reason: str, **shown: Any) -> list[Receipt]:
        from memtui.layouts.hermes import queue

        return queue.reject(root, ids, reason, **shown)


def _fields(item: Staged) -> tuple[tuple[str, str], ...]:
    rec = item.record
    if rec is None:
        return (("record", item.error or "read-only"),) if item.error or item.skill else ()
    out = [("action", rec.action), ("target", rules.FILES[rec.target])]
    payload = rec.payload
    if rec.action == "batch":
        for i, op in enumerate(payload.get("operations") or [], 1):
            act = op.get("action", "?")
            what = op.get("old_text") if act == "remove" else op.get("content")
            if act == "replace":
                what = f"{op.get('old_text')!s} → {op.get('content')!s}"
            out.append((f"{i}. {act}", str(what or "")))
    else:
        if payload.get("old_text"):
            out.append(("old_text", str(payload["old_text"])))
        if payload.get("content"):
            out.append(("content", str(payload["content"])))
    return tuple(out)
