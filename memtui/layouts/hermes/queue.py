"""Approving and rejecting Hermes' staged memory writes (`pending/memory/<id>.json`),
as `/memory approve` does: the payload replayed against the file under Hermes' own
lock (hermes_replay.replay), then the record leaves pending/. Nothing is discarded:
the transaction keeps the record's bytes in .history/, the reason in the audit.

Each id is its own transaction: one refused id changes nothing and the others go on
(their refusals in a last receipt's details["refused"], as dsh accept reports them).
"""

from __future__ import annotations

import os
import re
from typing import Any

from memtui.engine.errors import MemtuiError
from memtui.engine.identity import check_shown_bytes, split_expect
from memtui.engine.ops.common import Refused
from memtui.engine.queue import Gauge, QueuePreview, each
from memtui.engine.textfile import TextFile, Unreadable, decode
from memtui.engine.write.transaction import Receipt, Transaction, WriteError
from memtui.i18n import msg
from memtui.layouts.hermes import rules
from memtui.layouts.hermes.data import with_bom
from memtui.layouts.hermes.detect import PENDING
from memtui.layouts.hermes.ops import open_file
from memtui.layouts.hermes.replay import QUEUE, ReplayRefused, parse_record, replay

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")


def record_rel(item_id: str, expect: str | None = None) -> tuple[str, str, str | None]:
    """(id as shown, record file, fingerprint) of `hermes-pending:<id>`; Refused for a
    skill (read-only here) or a name that is no record's."""
    ref, fp = split_expect(item_id.strip(), expect)
    name = ref.removeprefix(f"{PENDING}:")
    if name.startswith("skills/"):
        raise Refused(
            msg(
                "{ref}: staged skill writes are shown read-only; review them "
                "in Hermes (/skills pending)",
                ref=ref,
            )
        )
    if not _NAME.fullmatch(name):
        raise Refused(msg("{ref} names no staged write (see `memtui pending`)", ref=ref))
    return ref, f"{QUEUE}/{name}.json", fp


def _record(tx: Transaction, ref: str, rel: str, fp: str | None) -> bytes:
    raw = tx.read(rel)
    if raw is None:
        raise Refused(
            msg(
                "no staged write {ref} ({rel} does not exist: approved or rejected?)",
                ref=ref,
                rel=rel,
            )
        )
    check_shown_bytes(ref, raw, fp, rel)
    return raw


def _decoded(ref: str, rel: str, raw: bytes) -> TextFile:
    got = decode(rel, raw)
    if isinstance(got, Unreadable):
        raise Refused(
            msg(
                "{ref}: {rel} cannot be read ({reason}); nothing was changed (reject it)",
                ref=ref,
                rel=rel,
                reason=got.reason,
            )
        )
    return got


def _approve_one(root: str, item_id: str, expect: str | None, dry_run: bool) -> Receipt:
    ref, rel, fp = record_rel(item_id, expect)
    with Transaction(root, "approve", details={"pending": ref}, dry_run=dry_run) as tx:
        tf = _decoded(ref, rel, _record(tx, ref, rel, fp))
        record = parse_record(rel, tf.text)
        if isinstance(record, str):
            raise Refused(
                msg(
                    "{ref}: {rel} is {record}; Hermes cannot replay it, nothing "
                    "was changed (reject it)",
                    ref=ref,
                    rel=rel,
                    record=record,
                )
            )
        target_rel, target, limit = open_file(tx, record.target, drifting=True)
        # Hermes reads the file as UTF-8 text: a BOM is part of its first entry
        old = with_bom(target) if target else ""
        before = rules.dedupe(rules.split_entries(old))
        try:
            after = replay(record, old, limit)
        except ReplayRefused as exc:
            raise Refused(msg("{ref}: {exc}; nothing was changed", ref=ref, exc=exc)) from None
        new = rules.join(after)
        noop = record.action == "add" and after == before  # "Entry already exists"
        if not noop and (target is None or new != old):
            data = new.encode("utf-8")  # a kept BOM is the first entry's own character
            tx.write(target_rel, data)
        tx.remove(rel)
        tx.details.update(
            action=record.action,
            file=target_rel,
            chars=f"{rules.char_count(before):,} → {rules.char_count(after):,} of {limit:,}",
            gauge=[rules.char_count(before), rules.char_count(after), limit],
        )
        if noop:
            tx.details["note"] = "the entry already exists: Hermes adds no duplicate"
        return tx.commit()


def _reject_one(root: str, item_id: str, reason: str, expect: str | None, dry_run: bool) -> Receipt:
    ref, rel, fp = record_rel(item_id, expect)
    details = {"pending": ref, "reason": reason}
    with Transaction(root, "reject", details=details, dry_run=dry_run) as tx:
        _record(tx, ref, rel, fp)
        tx.remove(rel)
        return tx.commit()


def approve(root: str, ids: list[str], **shown: Any) -> list[Receipt]:
    """Replay each staged write as Hermes would, or refuse it saying why (options:
    expect / expected fingerprints as shown, dry_run)."""
    root, dry_run = os.path.realpath(root), bool(shown.get("dry_run"))
    return each(ids, "approve", lambda i, fp: _approve_one(root, i, fp, dry_run), **shown)


def reject(root: str, ids: list[str], reason: str, **shown: Any) -> list[Receipt]:
    """Take each staged write out of pending/ unapplied; the reason goes in the audit."""
    if not isinstance(reason, str) or not reason.strip():
        raise Refused(msg("a rejection needs a reason (it is kept in the audit)"))
    root, dry_run, why = os.path.realpath(root), bool(shown.get("dry_run")), reason.strip()
    return each(ids, "reject", lambda i, fp: _reject_one(root, i, why, fp, dry_run), **shown)


def preview(root: str, item_id: str) -> QueuePreview:
    """What approving would do now: the file's diff and its gauge before and after, or
    the refusal. A dry run: nothing is locked or written."""
    from memtui.engine.diff import change_diff

    try:
        receipt = _approve_one(os.path.realpath(root), item_id, None, dry_run=True)
    except (WriteError, MemtuiError) as exc:
        return QueuePreview(item_id, "", (), str(exc))
    diff = "".join(change_diff(c) for c in receipt.changes if c.action == "write")
    before, after, limit = receipt.details["gauge"]
    gauge = Gauge(receipt.details["file"], "chars", before, after, limit)
    return QueuePreview(item_id, diff, (gauge,))
