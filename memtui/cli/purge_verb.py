"""`memtui purge FILE [--secret N] [--yes]`: without --secret, the secrets FILE holds or
its snapshots in .history/ still hold, numbered, each masked; with it, that secret
taken out of the file and out of every snapshot of it (engine.ops.purge), after a
confirm that says this cannot be undone (--yes for scripts; refused without a
terminal to ask on)."""

from __future__ import annotations

import argparse
from typing import Any

from memtui.cli.output import emit_json, line
from memtui.i18n import _, tr


def register(verbs: Any, store: argparse.ArgumentParser) -> None:
    from memtui.cli.write_verbs import _settling

    p = verbs.add_parser("purge", parents=[store])
    p.set_defaults(handler=_settling(purge))
    p.add_argument("file", metavar="FILE", help=_("the file, relative to the store's root"))
    p.add_argument(
        "--secret",
        type=int,
        metavar="N",
        help=_(
            "the Nth secret `memtui purge FILE` lists (the file's own first, as `check` "
            "numbers them); none: list them"
        ),
    )
    p.add_argument("--yes", action="store_true", help=_("do not ask: purging cannot be undone"))
    p.add_argument("--dry-run", action="store_true", help=_("say what would go, change nothing"))
    p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))


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
        done = purge(root, args.file, args.secret, dry_run=args.dry_run, listed=found)
    if args.json:
        emit_json(done.to_json())
        return 0
    line(_done(done).format(kind=tr(done.kind), n=f"{done.snapshots:,}", file=done.file))
    if agents_history(root, args.file):  # a Letta memory's git log: not memtui's to rewrite
        line(
            _(
                "{file}'s agent keeps its own history (`memtui history {file}`), which memtui "
                "does not rewrite: earlier versions there may still hold the value"
            ).format(file=done.file)
        )
    return 0


def _done(done: Any) -> str:
    """What the purge did (or would), one template for each case."""
    if done.dry_run and done.live:
        return _(
            "would purge the {kind} from the file and {n} snapshot(s) of {file}; the audit log "
            "records the purge, not the value"
        )
    if done.dry_run:
        return _(
            "would purge the {kind} from {n} snapshot(s) of {file}; the audit log records the "
            "purge, not the value"
        )
    if done.live:
        return _(
            "purged the {kind} from the file and {n} snapshot(s) of {file}; the audit log "
            "records the purge, not the value"
        )
    return _(
        "purged the {kind} from {n} snapshot(s) of {file}; the audit log records the purge, "
        "not the value"
    )


def _list(args: argparse.Namespace, found: list[Any]) -> int:
    if args.json:
        emit_json({"file": args.file, "secrets": [h.to_json() for h in found]})
        return 0
    if not found:
        line(_("{file} holds no secret, nor does any snapshot of it").format(file=args.file))
    for h in found:
        row = (
            _("{number}  {kind}  line {line}, in {n} snapshot(s): {shown}")
            if h.line is not None
            else _("{number}  {kind}  only in its history, in {n} snapshot(s): {shown}")
        )
        number, n = f"{h.number:>3}", f"{h.snapshots:,}"
        line(row.format(number=number, kind=_(h.kind), line=h.line, n=n, shown=h.shown))
    return 0


def _confirm(rel: str, picked: Any) -> None:
    from memtui.cli.reporting import confirm

    confirm(
        _(
            "Purge the {kind} (secret {number}) from {file} and from {n} snapshot(s) of it in "
            ".history/? This cannot be undone: no undo or rollback brings the value back."
        ).format(kind=_(picked.kind), number=picked.number, file=rel, n=f"{picked.snapshots:,}")
    )
