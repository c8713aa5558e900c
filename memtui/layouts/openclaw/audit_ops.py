"""Applying and rejecting OpenClaw Memory Audit suggestions, each one transaction.

As applyMemoryAuditSuggestion / rejectMemoryAuditSuggestion do (memory-audit.ts):
an `add` appends its text to the target file; an `edit` replaces the source line
range, a `delete` removes it, a `move` removes it and appends the text to the
target, each only while the range's hash is still the one staged; otherwise, or
when the source is gone, the suggestion becomes `conflict` and no memory file is
touched. Every outcome appends one status record to the log, as OpenClaw writes
it. Where OpenClaw rewrites the whole file (CRLF to LF, trailing blank lines
trimmed), memtui changes only the range's lines, or appends after the old bytes, in
the file's own line ending: the rest stays byte for byte.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memtui.engine.diff import change_diff
from memtui.engine.errors import MemtuiError
from memtui.engine.identity import fingerprint, split_expect
from memtui.engine.layouts.common import JS_SPACE, read_late
from memtui.engine.ops.common import Refused, thresholds
from memtui.engine.ops.lines import check_root, eol_of_text, load
from memtui.engine.queue import Gauge, QueueItem, QueuePreview, each
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Conflict, Receipt, Transaction
from memtui.i18n import msg
from memtui.layouts.openclaw import audit, rules

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.layouts.openclaw.layout import OpenClawData

Get = Callable[[str], str | None]  # a file's current text by path (None: absent)


@dataclass
class Plan:
    writes: dict[str, str] = field(default_factory=dict)  # path -> new text
    conflict: str | None = None  # OpenClaw's conflict reason: recorded, nothing written
    refused: str | None = None  # OpenClaw would throw: nothing at all is written


def plan(s: audit.Suggestion, get: Get) -> Plan:
    """What applying `s` does to the workspace now (memory-audit.ts applyMemoryAuditSuggestion)."""
    if s.status != "pending":
        return Plan(refused=f"suggestion {s.id} is {s.status}, not pending")
    target = s.record.get("target")
    tkind = target.get("kind") if isinstance(target, dict) else None
    if tkind not in (*audit.WRITABLE_KINDS, audit.SHARED):
        return Plan(refused=f"its target kind {tkind!r} is not a writable memory surface")
    assert isinstance(target, dict)
    tpath = audit.relative_md(target.get("path"))
    if tpath is None:
        return Plan(refused=f"its target {target.get('path')!r} is not a Markdown file inside")
    text = str(s.record["text"])
    out = Plan()
    if s.action == "add":
        out.writes[tpath] = _append(get(tpath), text)
        return out
    if s.action not in ("edit", "delete", "move"):
        return Plan(refused=f"action {s.action!r} is none of {', '.join(audit.ACTIONS)}")
    source = s.record.get("source")
    if not source:
        return Plan(conflict="source range missing")
    if not isinstance(source, dict):
        return Plan(refused="its source is not a record")
    spath = audit.relative_md(source.get("path"))
    if spath is None:
        return Plan(refused=f"its source {source.get('path')!r} is not a Markdown file inside")
    if source.get("workspaceDir") != target.get("workspaceDir"):
        return Plan(refused=f"its source is in another workspace ({source.get('workspaceDir')})")
    content = get(spath)
    if content is None:
        return Plan(conflict="source file missing")
    start, end, staged = source.get("startLine"), source.get("endLine"), source.get("hash")
    lines = audit.split_lines(content)
    if not _whole(start) or not _whole(end) or start < 1 or end < start or end > len(lines):
        return Plan(conflict="source range no longer exists")
    if staged and audit.range_hash(lines, start, end) != staged:
        return Plan(conflict="source range changed since recommendation was staged")
    replacement = text.strip(JS_SPACE) if s.action == "edit" else ""
    out.writes[spath] = _replace_lines(content, start, end, replacement)
    if s.action == "move":
        out.writes[tpath] = _append(out.writes.get(tpath, get(tpath)), text)
    return out


def _whole(value: Any) -> bool:
    """A whole number of lines (JSON.parse reads 1e400 as Infinity: none)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    return isinstance(value, int) or (math.isfinite(value) and value == int(value))


def _append(existing: str | None, text: str) -> str:
    """appendToTarget: the text after a blank line, ended by a newline. OpenClaw trims
    the file's trailing whitespace to that blank line and writes LF; memtui keeps every
    old byte and writes the file's own line ending."""
    old = existing or ""
    eol = eol_of_text(old)
    body = eol.join(re.split(r"\r?\n", text.strip(JS_SPACE)))
    if old and not old.endswith("\n"):
        old += eol
    tail = old[len(old.rstrip(JS_SPACE)) :]
    if old.strip(JS_SPACE) and tail.count("\n") < 2:
        old += eol  # the blank line before the text
    return f"{old}{body}{eol}"


def _replace_lines(text: str, start: int, end: int, replacement: str) -> str:
    """Lines start..end (1-based, as split(/\\r?\\n/) numbers them) replaced by
    `replacement`'s lines (none: removed); every other character kept."""
    rows = re.findall(r"[^\n]*\n|[^\n]+\Z", text)
    if text.endswith("\n") or not text:
        rows.append("")  # split() counts the empty last line after a final newline
    start, end = int(start), int(end)
    ending = re.search(r"\r?\n\Z", rows[end - 1])
    eol = ending.group() if ending else ""
    new = ""
    if replacement:
        line_end = eol_of_text(text)
        new = line_end.join(re.split(r"\r?\n", replacement)) + (eol or "")
    elif not eol and start > 1:  # the last line removed: the one before loses its ending
        before = rows[start - 2]
        rows[start - 2] = re.sub(r"\r?\n\Z", "", before)
    return "".join(rows[: start - 1]) + new + "".join(rows[end:])


# --- the faces' view ------------------------------------------------------------


def _record_line(text: str, line: int) -> str:
    return audit.split_lines(text)[line - 1] if text else ""


def queue_items(store: Store, data: OpenClawData) -> list[QueueItem]:
    tf = store.texts.get(audit.QUEUE) or read_late(store, audit.QUEUE)
    raw = tf.text if tf else ""

    def get(rel: str) -> str | None:
        got = store.texts.get(rel) or read_late(store, rel)
        return got.text if got else None

    items = []
    for s in data.queue:
        if s.status != "pending":
            continue
        p = plan(s, get)
        problem = p.refused or (
            f"{p.conflict}: approving marks it conflict, as OpenClaw does" if p.conflict else None
        )
        items.append(_item(s, raw, problem, records_refusal=bool(p.conflict and not p.refused)))
    return items


def _item(
    s: audit.Suggestion, raw: str, problem: str | None, *, records_refusal: bool = False
) -> QueueItem:
    rec = s.record
    target = rec.get("target") if isinstance(rec.get("target"), dict) else {}
    source = rec.get("source") if isinstance(rec.get("source"), dict) else None
    text = str(rec["text"])
    fields = [("action", s.action), ("target", str(target.get("path")))]
    if source:
        fields.append(
            ("source", f"{source.get('path')}:{source.get('startLine')}-{source.get('endLine')}")
        )
    fields += [
        ("rationale", str(rec.get("rationale", ""))),
        ("confidence", str(rec.get("confidence", ""))),
        ("text", text),
    ]
    return QueueItem(
        id=s.item_id,
        layout="openclaw",
        action=s.action,
        target=str(target.get("path")),
        summary=(text.splitlines() or [str(rec.get("rationale", ""))])[0],
        file=audit.QUEUE,
        line=s.line,
        created=rec.get("createdAt") if isinstance(rec.get("createdAt"), str) else None,
        origin=rec.get("reviewerAgentId") if isinstance(rec.get("reviewerAgentId"), str) else None,
        problem=problem,
        records_refusal=records_refusal,
        fingerprint=fingerprint(_record_line(raw, s.line)),
        fields=tuple(fields),
    )


def preview(root: str, item_id: str) -> QueuePreview:
    """The diff approving would make now, or why it would not apply. Writes nothing."""
    try:
        receipt = _apply_one(root, item_id, None, dry_run=True)
    except MemtuiError as exc:  # refused, or a file memtui may not write (a link)
        return QueuePreview(item_id, "", error=str(exc))
    diff = "".join(change_diff(c) for c in receipt.changes)
    error = receipt.details.get("conflict")
    gauges = tuple(_gauge(c) for c in receipt.changes if c.path in rules.BOOTSTRAP)
    return QueuePreview(item_id, diff, gauges, f"conflict: {error}" if error else None)


def _gauge(change: Any) -> Gauge:
    """A bootstrap file's size against the 20,000 characters OpenClaw injects of it."""

    def size(data: bytes | None) -> int:
        text = (data or b"").decode("utf-8", "replace").removeprefix("\ufeff")
        return rules.units(rules.trim_end(text))

    return Gauge(change.path, "chars", size(change.old), size(change.new), rules.MAX_CHARS)


# --- approve and reject ---------------------------------------------------------------


def approve(root: str, ids: list[str], **shown: Any) -> list[Receipt]:
    dry = bool(shown.get("dry_run"))
    return each(ids, "approve", lambda i, fp: _apply_one(root, i, fp, dry), **shown)


def reject(root: str, ids: list[str], reason: str, **shown: Any) -> list[Receipt]:
    if not isinstance(reason, str) or not reason.strip():
        raise Refused(msg("a rejection needs a reason (it is kept in memtui's audit log)"))
    dry = bool(shown.get("dry_run"))
    return each(ids, "reject", lambda i, fp: _reject_one(root, i, reason.strip(), fp, dry), **shown)


def _name(item_id: str, expect: str | None) -> list[tuple[str, str | None]]:
    """The (suggestion id, fingerprint) readings of `item_id`: `ID@FINGERPRINT`, then, as
    an agent may write any id, the whole of it with only the fingerprint given apart."""
    kind, sep, rest = item_id.partition(":")
    if kind != audit.KIND or not sep or not rest:
        raise Refused(
            msg(
                "{item_id!r} is not a Memory Audit suggestion id ({KIND}:ma_…)",
                item_id=item_id,
                KIND=audit.KIND,
            )
        )
    first = split_expect(rest, expect)
    return [first] if first[0] == rest else [first, (rest, expect)]


def _find(
    tx: Transaction, item_id: str, names: list[tuple[str, str | None]], limits: Any
) -> tuple[TextFile, audit.Suggestion]:
    log = load(tx, audit.QUEUE, limits, must_exist=False)
    if log is None:
        raise Refused(
            msg("{item_id}: no {QUEUE} in this workspace", item_id=item_id, QUEUE=audit.QUEUE)
        )
    by_id = {s.id: s for s in audit.read(log.text)}
    name, expect = next((n for n in names if n[0] in by_id), names[0])
    found = by_id.get(name)
    if found is None:
        raise Refused(
            msg("{item_id}: no such suggestion in {QUEUE}", item_id=item_id, QUEUE=audit.QUEUE)
        )
    if expect is not None and fingerprint(_record_line(log.text, found.line)) != expect:
        raise Conflict(
            msg(
                "{item_id} changed since it was shown (a newer record in "
                "{QUEUE}); nothing was changed — reload and try again",
                item_id=item_id,
                QUEUE=audit.QUEUE,
            )
        )
    return log, found


def _log_append(log: TextFile, line: str) -> bytes:
    """appendFile: the record after the log's last byte (a log whose last line lacks its
    newline gets one first, or the record would merge into that line and be lost)."""
    text = log.text if not log.text or log.text.endswith("\n") else log.text + "\n"
    return log.encode(text + line)


def _apply_one(root: str, item_id: str, expect: str | None, dry_run: bool | None) -> Receipt:
    names = _name(item_id, expect)
    check_root(root)
    limits = thresholds(root)
    details = {"entry": item_id}
    with Transaction(root, "audit-apply", details=details, dry_run=bool(dry_run)) as tx:
        log, s = _find(tx, item_id, names, limits)
        texts: dict[str, TextFile | None] = {}

        def get(rel: str) -> str | None:
            if rel not in texts:
                texts[rel] = load(tx, rel, limits, must_exist=False)
            got = texts[rel]
            return got.text if got is not None else None

        p = plan(s, get)
        if p.refused:
            raise Refused(
                msg("{item_id}: {refused}; nothing was written", item_id=item_id, refused=p.refused)
            )
        if p.conflict:
            tx.details["conflict"] = p.conflict
            record = audit.status_record(s.record, "conflict", p.conflict)
            tx.write(audit.QUEUE, _log_append(log, record))
            receipt = tx.commit()
            if dry_run:
                return receipt
            exc = Refused(
                msg(
                    "{item_id}: {conflict}; marked conflict in {QUEUE} as OpenClaw "
                    "does, no memory file was changed",
                    item_id=item_id,
                    conflict=p.conflict,
                    QUEUE=audit.QUEUE,
                )
            )
            exc.receipt = receipt  # type: ignore[attr-defined]
            raise exc
        for rel, new in p.writes.items():
            old = texts.get(rel)
            if old is None or old.text != new:
                data = old.encode(new) if old is not None else new.encode("utf-8")
                tx.write(rel, data, mode=None if old is not None else tx.LIKE_SIBLINGS)
        tx.details.update({"action": s.action, "files": sorted(p.writes)})
        tx.write(audit.QUEUE, _log_append(log, audit.status_record(s.record, "applied")))
        return tx.commit()


def _reject_one(
    root: str, item_id: str, reason: str, expect: str | None, dry_run: bool | None
) -> Receipt:
    names = _name(item_id, expect)
    check_root(root)
    limits = thresholds(root)
    # OpenClaw's record has no field for a reason: it is kept in memtui's audit log.
    details = {"entry": item_id, "reason": reason}
    with Transaction(root, "audit-reject", details=details, dry_run=bool(dry_run)) as tx:
        log, s = _find(tx, item_id, names, limits)
        if s.status != "pending":
            raise Refused(
                msg(
                    "{item_id}: suggestion is {status}, not pending; nothing was written",
                    item_id=item_id,
                    status=s.status,
                )
            )
        tx.write(audit.QUEUE, _log_append(log, audit.status_record(s.record, "rejected")))
        return tx.commit()
