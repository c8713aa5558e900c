"""`memtui purge FILE [--secret N] [--yes]`: without --secret, the secrets FILE holds or
its snapshots in .history/ still hold, numbered, each masked; with it, that secret
taken out of the file and out of every snapshot of it (engine.ops.purge), after a
confirm that says this cannot be undone (--yes for scripts; refused without a
terminal to ask on)."""

from __future__ import annotations

import argparse
from typing import Any

from memtui.cli.output import emit_json, line


def register(verbs: Any, store: argparse.ArgumentParser) -> None:
    from memtui.cli.write_verbs import _settling

    p = verbs.add_parser("purge", parents=[store])
    p.set_defaults(handler=_settling(purge))
    p.add_argument("file", metavar="FILE", help="the file, relative to the store's root")
    p.add_argument(
        "--secret",
        type=int,
        metavar="N",
        help="the Nth secret `memtui purge FILE` lists (the file's own first, as `check` "
        "numbers them); none: list them",
    )
    p.add_argument("--yes", action="store_true", help="do not ask: purging cannot be undone")
    p.add_argument("--dry-run", action="store_true", help="say what would go, change nothing")
    p.add_argument("--json", action="store_true", help="print JSON for scripts")


def purge(args: argparse.Namespace) -> int:
    from memtui.cli.read_verbs import store_root
    from memtui.cli.reporting import engine_errors
    from memtui.engine.ops.history import agents_history
    from memtui.engine.ops.purge import held, purge

    root = store_root(args.store)
    with engine_errors():
        found = held(root, args.file)
    if args.secret is None:
        return _list(args, found)
    picked = next((h for h in found if h.number == args.secret), None)
    if picked is not None and not args.dry_run and not args.yes:
        _confirm(args.file, picked)
    with engine_errors():
        done = purge(root, args.file, args.secret, dry_run=args.dry_run)
    if args.json:
        emit_json(done.to_json())
        return 0
    verb = "would purge" if done.dry_run else "purged"
    where = "the file and " if done.live else ""
    line(
        f"{verb} the {done.kind} from {where}{done.snapshots:,} snapshot(s) of {done.file}; "
        "the audit log records the purge, not the value"
    )
    if agents_history(root, args.file):  # a Letta memory's git log: not memtui's to rewrite
        line(
            f"{done.file}'s agent keeps its own history (`memtui history {done.file}`), which "
            "memtui does not rewrite: earlier versions there may still hold the value"
        )
    return 0


def _list(args: argparse.Namespace, found: list[Any]) -> int:
    if args.json:
        emit_json({"file": args.file, "secrets": [h.to_json() for h in found]})
        return 0
    if not found:
        line(f"{args.file} holds no secret, nor does any snapshot of it")
    for h in found:
        where = f"line {h.line}" if h.line is not None else "only in its history"
        line(f"{h.number:>3}  {h.kind}  {where}, in {h.snapshots:,} snapshot(s): {h.shown}")
    return 0


def _confirm(rel: str, picked: Any) -> None:
    from memtui.cli.reporting import confirm

    confirm(
        f"Purge the {picked.kind} (secret {picked.number}) from {rel} and from "
        f"{picked.snapshots:,} snapshot(s) of it in .history/? This cannot be undone: "
        "no undo or rollback brings the value back."
    )
