"""The command line for every layout's approval queue (engine.queue): listed by
`pending`, approved by `accept`, rejected by `reject`, beside the dsh candidates.
The verbs hand an id to the queue when `queue.is_queue_id` says it is one of them."""

from __future__ import annotations

import argparse
from typing import Any

from memtui.cli import CallError, Refused
from memtui.cli.output import line


def full_ids(args: argparse.Namespace) -> list[str]:
    """The ids given, a queued item's bare id made whole (engine.queue.full_ids)."""
    if not args.ids:
        return []
    from memtui.cli.read_verbs import store_root
    from memtui.engine import queue

    try:
        return queue.full_ids(store_root(args.store), args.ids)
    except queue.AmbiguousId as exc:
        raise Refused(str(exc)) from None


def is_queue_call(ids: list[str]) -> bool:
    from memtui.engine.queue import is_queue_id

    return any(is_queue_id(i) for i in ids)


def items(store: Any, args: argparse.Namespace) -> list[Any]:
    """The queue items `pending` lists (none when it is asked for dsh filters)."""
    if getattr(args, "entry_type", None) or getattr(args, "target", None):
        return []
    from memtui.engine import queue

    return queue.items(store)


def empty_note(store: Any, args: argparse.Namespace) -> str:
    """What `pending` says when it lists nothing: which of the store's queues are empty,
    or that it has none (a store's queues: dsh's candidates, and each layout's with a
    queue, such as Hermes' pending/memory/ and OpenClaw's Memory Audit)."""
    from memtui.engine.queue import queue_layouts

    queues = queue_layouts(list(store.data))
    if not queues:
        kinds = ", ".join(queue_layouts())
        return f"this store has no approval queue (those of the {kinds} layouts)"
    if getattr(args, "entry_type", None) or getattr(args, "target", None):
        return "nothing pending: no dsh candidate matches --type/--target"
    which = "queue is" if len(queues) == 1 else "queues are"
    return f"nothing pending: the store's {which} empty ({', '.join(queues)})"


def print_items(found: list[Any]) -> None:
    for item in found:
        if item.read_only:
            state = "  [read-only]"
        elif item.problem:
            state = f"  [refused if approved: {item.problem}]"
        else:
            state = ""
        when = f"  {item.created}" if item.created else ""
        line(f"{item.id}  {item.action} → {item.target}{when}{state}  {item.summary}")


def _ids(args: argparse.Namespace, verb: str) -> list[str]:
    """The queue ids of one call: all of one layout's queue, and no dsh options."""
    from memtui.engine.queue import is_queue_id

    ids = list(args.ids)
    if not all(is_queue_id(i) for i in ids):
        raise CallError(
            f"{verb}: give dsh candidates and queued writes ({', '.join(ids[:3])}…) in "
            "separate calls; nothing was changed"
        )
    for option in ("all", "target", "entry_type", "body_file"):
        if getattr(args, option, None):
            flag = {"entry_type": "--type", "body_file": "--body-file"}.get(option, f"--{option}")
            raise CallError(f"{flag} is for dsh candidates, not queued writes")
    kinds = {i.partition(":")[0] for i in ids}
    if len(kinds) > 1:
        raise CallError(f"{verb}: give one queue's ids per call (got {', '.join(sorted(kinds))})")
    return ids


def _expected(args: argparse.Namespace, ids: list[str]) -> dict[str, str] | None:
    if args.expect is None:
        return None
    if len(ids) != 1:
        raise CallError("--expect goes with exactly one id")
    return {ids[0]: args.expect}


def accept(args: argparse.Namespace) -> int:
    from memtui.cli.read_verbs import store_root
    from memtui.cli.write_verbs import _engine_errors, _report
    from memtui.engine import queue
    from memtui.engine.errors import MemtuiError

    ids = _ids(args, "accept")
    root = store_root(args.store)
    with _engine_errors():
        try:
            receipts = queue.approve(root, ids, expected=_expected(args, ids), dry_run=args.dry_run)
        except MemtuiError as exc:
            raise Refused(str(exc)) from None
    return _report(args, receipts)


def reject(args: argparse.Namespace, reason: str) -> int:
    from memtui.cli.read_verbs import store_root
    from memtui.cli.write_verbs import _engine_errors, _report
    from memtui.engine import queue
    from memtui.engine.errors import MemtuiError

    ids = _ids(args, "reject")
    root = store_root(args.store)
    with _engine_errors():
        try:
            receipts = queue.reject(
                root, ids, reason, expected=_expected(args, ids), dry_run=args.dry_run
            )
        except MemtuiError as exc:
            raise Refused(str(exc)) from None
    return _report(args, receipts)
