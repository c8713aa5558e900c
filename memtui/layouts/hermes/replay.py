"""Hermes' approval queue (`pending/memory/<id>.json`, tools/write_approval.py) and the
replay of a staged write exactly as `apply_memory_pending` does it against
MemoryStore.add / replace / remove / apply_batch: a pure function from the entries
to the new entries, or a refusal that says why.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from memtui.i18n import msg
from memtui.layouts.hermes import rules
from memtui.layouts.hermes.detect import QUEUE, SKILLS  # noqa: F401 - re-exported

ACTIONS = ("add", "replace", "remove", "batch")


class ReplayRefused(Exception):
    """Hermes would refuse this write; `kind` is stale, ambiguous, over-limit, threat,
    drift or bad (a payload it cannot apply)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class Record:
    """One staged memory write, as write_approval.stage_write records it."""

    id: str  # the file's stem: what `/memory approve <id>` names
    file: str
    action: str
    target: str  # memory | user
    summary: str
    origin: str | None
    created_at: float | None
    payload: dict[str, Any]


def record_id(rel: str) -> str:
    return rel.rsplit("/", 1)[-1].removesuffix(".json")


def parse_record(rel: str, text: str) -> Record | str:
    """The record, or why it is not one (not JSON, or not the shape Hermes stages)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return msg("not JSON ({error})", error=str(exc))
    if not isinstance(data, dict):
        return msg("not a JSON object")
    payload = data.get("payload")
    if not isinstance(payload, dict):
        return msg("no `payload` object (the write to replay)")
    action = payload.get("action")
    if action not in ACTIONS:
        return msg(
            "payload action {action!r} is none of {actions}",
            action=action,
            actions=", ".join(ACTIONS),
        )
    target = payload.get("target", "memory")
    if target not in rules.FILES:
        return msg("payload target {target!r} is neither memory nor user", target=target)
    why = _payload_problem(payload)
    if why:
        return why
    created = data.get("created_at")
    created = float(created) if isinstance(created, int | float) and created == created else None
    origin = data.get("origin")
    summary = data.get("summary")
    return Record(
        record_id(rel),
        rel,
        action,
        target,
        summary if isinstance(summary, str) else "",
        origin if isinstance(origin, str) else None,
        created,
        payload,
    )


def _payload_problem(payload: dict[str, Any]) -> str | None:
    texts = [payload]
    if payload["action"] == "batch":
        ops = payload.get("operations")
        if not isinstance(ops, list) or not all(isinstance(op, dict) for op in ops):
            return msg("a batch whose `operations` is not a list of objects")
        texts = ops
    for item in texts:
        for key in ("content", "old_text"):
            if item.get(key) is not None and not isinstance(item.get(key), str):
                return msg("a record whose `{key}` is not text", key=key)
    return None


def replay(record: Record, text: str, limit: int) -> list[str]:
    """The target file's entries after Hermes applies this record to `text` (its file
    now); ReplayRefused with Hermes' reason otherwise. Unchanged entries: a no-op
    (an add of an entry that exists), which Hermes reports as a success."""
    payload = record.payload
    entries = rules.dedupe(rules.split_entries(text))  # _reload_target
    if record.action == "batch":
        return _batch(payload.get("operations") or [], entries, text, limit)
    content = (payload.get("content") or "").strip()
    old = (payload.get("old_text") or "").strip()
    if record.action == "add":
        if not content:
            raise ReplayRefused("bad", msg("the content to add is empty"))
        _scan(content, "")
        if content in entries:
            return entries  # "Entry already exists (no duplicate added)."
        return _within([*entries, content], limit, msg("adding it"))
    if not old:
        raise ReplayRefused(
            "bad", msg("a {action} without old_text names no entry", action=record.action)
        )
    if record.action == "replace":
        if not content:
            raise ReplayRefused("bad", msg("the replacement content is empty (a remove deletes)"))
        _scan(content, "")
    _no_drift(text, limit)
    at = _match(entries, old, "")
    if record.action == "remove":
        return entries[:at] + entries[at + 1 :]
    return _within([*entries[:at], content, *entries[at + 1 :]], limit, msg("the replacement"))


def _batch(ops: list[dict[str, Any]], entries: list[str], text: str, limit: int) -> list[str]:
    """apply_batch: every op against a working copy, all or nothing, the limit checked
    on the final result only."""
    if not ops:
        raise ReplayRefused("bad", msg("the batch has no operations"))
    for i, op in enumerate(ops):
        if op.get("action") in ("add", "replace") and op.get("content"):
            _scan(op["content"], msg("operation {n}: ", n=i + 1))
    _no_drift(text, limit)
    working = list(entries)
    for i, op in enumerate(ops):
        act = op.get("action")
        content = (op.get("content") or "").strip()
        old = (op.get("old_text") or "").strip()
        where = msg("operation {n} ({action}): ", n=i + 1, action=act or "unknown")
        if act == "add":
            if not content:
                raise ReplayRefused("bad", _at(where, msg("content is required")))
            if content not in working:  # a duplicate is skipped, not a failure
                working.append(content)
        elif act in ("replace", "remove"):
            if not old:
                raise ReplayRefused("bad", _at(where, msg("old_text is required")))
            if act == "replace" and not content:
                raise ReplayRefused("bad", _at(where, msg("content is required")))
            at = _match(working, old, where)
            if act == "replace":
                working[at] = content
            else:
                working.pop(at)
        else:
            said = msg("unknown action (add, replace or remove)")
            raise ReplayRefused("bad", _at(where, said))
    return _within(working, limit, msg("all {n} operations", n=len(ops)))


def _scan(content: str, where: str) -> None:
    why = rules.threat_message(content)
    if why:
        said = msg("Hermes' threat scan blocks the content: {why}", why=why)
        raise ReplayRefused("threat", _at(where, said))


def _no_drift(text: str, limit: int) -> None:
    why = rules.drift(text, limit)
    if why:
        raise ReplayRefused("drift", msg("Hermes refuses to rewrite the file: {why}", why=why))


def _match(entries: list[str], old: str, where: str) -> int:
    """The one entry `old` is a substring of (identical copies count as one)."""
    hits = [i for i, e in enumerate(entries) if old in e]
    if not hits:
        said = msg("stale: no entry contains {text} any more", text=_short(old))
        raise ReplayRefused("stale", _at(where, said))
    if len({entries[i] for i in hits}) > 1:
        said = msg("ambiguous: {n:,} entries contain {text}", n=len(hits), text=_short(old))
        raise ReplayRefused("ambiguous", _at(where, said))
    return hits[0]


def _within(entries: list[str], limit: int, what: str) -> list[str]:
    total = rules.char_count(entries)
    if total > limit:
        raise ReplayRefused(
            "over-limit",
            msg(
                "over the limit: {what} would make it {total:,}/{limit:,} characters",
                what=what,
                total=total,
                limit=limit,
            ),
        )
    return entries


def _at(where: str, said: str) -> str:
    """`said` of one operation of a batch (`where`: which), or of the record."""
    return msg("{where}{said}", where=where, said=said) if where else said


def _short(text: str, width: int = 60) -> str:
    one = " ".join(text.split())
    return repr(one if len(one) <= width else one[:width] + "…")
