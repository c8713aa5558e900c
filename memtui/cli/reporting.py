"""What every write verb shares: engine refusals as exit status 1, the report of what
changed (or would), and a text given as a file (-: stdin)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from typing import Any

from memtui.cli import CallError, Refused
from memtui.cli.output import detail, emit_json, line, said, warn
from memtui.i18n import _, ngettext, tr


@contextlib.contextmanager
def engine_errors() -> Iterator[None]:
    """Whatever the engine refuses (the one root, MemtuiError: a refusal, a conflict, a
    busy lock, an id that names nothing) becomes exit status 1 with its reason."""
    from memtui.engine.errors import MemtuiError

    try:
        yield
    except MemtuiError as exc:
        raise Refused(said(exc)) from None


def report(args: argparse.Namespace, receipts: list[Any]) -> int:
    """What was done on stdout; ids refused along the way on stderr, and then exit
    status 1 (the others stay done)."""
    receipts = [r for r in receipts if r is not None]
    refused = [r for rc in receipts for r in rc.details.get("refused", ())]
    if args.json:
        emit_json({"dry_run": args.dry_run, "receipts": [_receipt_json(r, args) for r in receipts]})
    elif not receipts:
        line(_("nothing to change"))
    for r in receipts if not args.json else ():
        done = _("would {op}: {details}") if r.dry_run else _("did {op}: {details}")
        line(done.format(op=r.op, details=_summary(r.details)))
        for change in r.changes:
            line(f"  {_change_text(change)}")
            if args.dry_run and change.action == "write":
                sys.stdout.write(_diff(change))
    for r in refused:
        why = r.get("reason")  # the engine's Msg, said in the reader's language
        warn(_("refused {id}: {why}").format(id=r.get("id"), why=tr(why) if why else why))
    if refused:
        n = len(refused)
        warn(
            ngettext(
                "{n} refused: nothing changed for it", "{n} refused: nothing changed for them", n
            ).format(n=f"{n:,}")
        )
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
        return _("moved {source} → {path}").format(source=change.source, path=change.path)
    if change.action == "remove":
        return _("removed {path} (kept in {snapshot})").format(
            path=change.path, snapshot=change.snapshot
        )
    if change.before is None:
        return _("wrote {path} (new file)").format(path=change.path)
    kept = change.snapshot or f".history/{change.path}/"
    return _("wrote {path} (old version kept in {snapshot})").format(
        path=change.path, snapshot=kept
    )


def _summary(details: dict[str, Any]) -> str:
    parts = []
    for key, value in details.items():
        if key == "refused":
            continue  # on stderr, one line each
        parts.append(f"{key}: {detail(key, value)}")
    return "; ".join(parts) or _("done")


def confirm(question: str) -> None:
    """Asked on the terminal before a change that cannot be undone; refused (exit 1,
    nothing changed) unless answered yes, and without a terminal to ask on (--yes)."""
    if not sys.stdin.isatty():
        raise Refused(
            _("{question} Confirm with --yes (no terminal to ask on); nothing was changed").format(
                question=question
            )
        )
    sys.stderr.write(f"{question} [y/N] ")
    sys.stderr.flush()
    if sys.stdin.readline().strip().lower() not in ("y", "yes"):
        raise Refused(_("not confirmed; nothing was changed"))


def read_text_file(path: str, root: str) -> str:
    """The file's text ("-": stdin), read only up to the store's max_file_bytes."""
    from memtui.engine.config import thresholds_at
    from memtui.engine.inputs import InputError, InputMissing, read_input

    try:
        return read_input(path, thresholds_at(root).max_file_bytes)
    except InputMissing as exc:
        raise CallError(said(exc)) from None
    except InputError as exc:
        raise Refused(said(exc)) from None
