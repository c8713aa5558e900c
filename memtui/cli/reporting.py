"""What every write verb shares: engine refusals as exit status 1, the report of what
changed (or would), and a text given as a file (-: stdin)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from typing import Any

from memtui.cli import CallError, Refused
from memtui.cli.output import detail, emit_json, line, warn


@contextlib.contextmanager
def engine_errors() -> Iterator[None]:
    """Whatever the engine refuses (the one root, MemtuiError: a refusal, a conflict, a
    busy lock, an id that names nothing) becomes exit status 1 with its reason."""
    from memtui.engine.errors import MemtuiError

    try:
        yield
    except MemtuiError as exc:
        raise Refused(str(exc)) from None


def report(args: argparse.Namespace, receipts: list[Any]) -> int:
    """What was done on stdout; ids refused along the way on stderr, and then exit
    status 1 (the others stay done)."""
    receipts = [r for r in receipts if r is not None]
    refused = [r for rc in receipts for r in rc.details.get("refused", ())]
    if args.json:
        emit_json({"dry_run": args.dry_run, "receipts": [_receipt_json(r, args) for r in receipts]})
    elif not receipts:
        line("nothing to change")
    for r in receipts if not args.json else ():
        verb = "would" if r.dry_run else "did"
        line(f"{verb} {r.op}: {_summary(r.details)}")
        for change in r.changes:
            line(f"  {_change_text(change)}")
            if args.dry_run and change.action == "write":
                sys.stdout.write(_diff(change))
    for r in refused:
        warn(f"refused {r.get('id')}: {r.get('reason')}")
    if refused:
        them = "it" if len(refused) == 1 else "them"
        warn(f"{len(refused):,} refused: nothing changed for {them}")
    return 1 if refused else 0


def _receipt_json(receipt: Any, args: argparse.Namespace) -> dict[str, Any]:
    data = receipt.to_json()
    if args.dry_run:
        for change, out in zip(receipt.changes, data["changes"], strict=True):
            out["diff"] = _diff(change) if change.action == "write" else ""
    return data


def _diff(change: Any) -> str:
    from memtui.cli.output import printable
    from memtui.engine.diff import change_diff

    return printable(change_diff(change))


def _change_text(change: Any) -> str:
    if change.action == "move":
        return f"moved {change.source} → {change.path}"
    if change.action == "remove":
        return f"removed {change.path} (kept in {change.snapshot})"
    if change.before is None:
        return f"wrote {change.path} (new file)"
    kept = change.snapshot or f".history/{change.path}/"
    return f"wrote {change.path} (old version kept in {kept})"


def _summary(details: dict[str, Any]) -> str:
    parts = []
    for key, value in details.items():
        if key == "refused":
            continue  # on stderr, one line each
        parts.append(f"{key}: {detail(key, value)}")
    return "; ".join(parts) or "done"


def confirm(question: str) -> None:
    """Asked on the terminal before a change that cannot be undone; refused (exit 1,
    nothing changed) unless answered yes, and without a terminal to ask on (--yes)."""
    if not sys.stdin.isatty():
        raise Refused(f"{question} Confirm with --yes (no terminal to ask on); nothing was changed")
    sys.stderr.write(f"{question} [y/N] ")
    sys.stderr.flush()
    if sys.stdin.readline().strip().lower() not in ("y", "yes"):
        raise Refused("not confirmed; nothing was changed")


def read_text_file(path: str, root: str) -> str:
    """The file's text ("-": stdin), read only up to the store's max_file_bytes."""
    from memtui.engine.config import thresholds_at
    from memtui.engine.inputs import InputError, InputMissing, read_input

    try:
        return read_input(path, thresholds_at(root).max_file_bytes)
    except InputMissing as exc:
        raise CallError(str(exc)) from None
    except InputError as exc:
        raise Refused(str(exc)) from None
