"""`memtui fix [FINDING|CODE] [--apply] [--choose X]...`: the quick fix for one finding,
or for every finding of a CODE in one operation (engine/fixes.py). A dry run printing
the diff unless --apply; with no FINDING, the findings that have a fix, numbered as
`memtui check` lists them."""

from __future__ import annotations

import argparse
from typing import Any

from memtui.cli import CallError
from memtui.cli.output import emit_json, line
from memtui.cli.read_verbs import load
from memtui.i18n import _, tr


def register(verbs: Any, store: argparse.ArgumentParser) -> None:
    from memtui.cli.write_verbs import _settling

    p = verbs.add_parser("fix", parents=[store])
    settled = _settling(fix)

    def run(args: argparse.Namespace) -> int:
        args.dry_run = not args.apply  # as the write verbs' --dry-run, for _settling/_report
        return settled(args)

    p.set_defaults(handler=run)
    p.add_argument(
        "finding",
        nargs="?",
        metavar="FINDING",
        help=_(
            "N (the Nth finding `memtui check` lists), FILE:LINE, FILE, or a CODE (every "
            "finding of that code, fixed in one operation); none: list the findings that "
            "have a fix"
        ),
    )
    p.add_argument("--apply", action="store_true", help=_("make the change (default: a dry run)"))
    p.add_argument(
        "--choose",
        action="append",
        default=[],
        metavar="X",
        help=_(
            "what the fix asks for: an item to archive (repeat for more), remove|create "
            "for a dangling pointer, a new topic name"
        ),
    )
    p.add_argument(
        "--yes",
        action="store_true",
        help=_("apply a fix that cannot be undone (a purge) without asking"),
    )
    p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))


def fix(args: argparse.Namespace) -> int:
    from memtui.cli.reporting import confirm
    from memtui.cli.write_verbs import _engine_errors, _report
    from memtui.engine.fixes import apply, find_findings, plan_all, where

    store = load(args)
    if args.finding is None:
        return _list(args, store)
    with _engine_errors():
        fixes = plan_all(store, find_findings(store, args.finding), tuple(args.choose))
        if not args.json:
            for planned in fixes:
                line(
                    _("{code} at {where}: {fix}").format(
                        code=planned.finding.code,
                        where=tr(where(planned.finding)),
                        fix=tr(planned.title),
                    )
                )
        if fixes[0].needs_choice:  # one fix (plan_all asks several for a shared choice)
            for choice in fixes[0].choices:
                line(f"  --choose {choice}")
            raise CallError(
                _(
                    "name {what} with --choose, one each (from the list above); nothing was changed"
                ).format(what=tr(fixes[0].ask))
            )
        if not args.dry_run and not args.yes and fixes[0].irreversible:
            confirm(_("{fix}? {why}").format(fix=tr(fixes[0].title), why=tr(fixes[0].irreversible)))
        receipt = apply(fixes, args.dry_run)
    if args.dry_run and not args.json:
        line(_("(a dry run: nothing was written; --apply makes it, `memtui undo` takes it back)"))
    return _report(args, [receipt])


def _list(args: argparse.Namespace, store: Any) -> int:
    from memtui.engine.fixes import fixable, where

    rows = [(n, f) for n, f in enumerate(store.findings, 1) if fixable(f)]
    if args.json:
        emit_json(
            {"fixable": [{"number": n, **f.to_json()} for n, f in rows]},
        )
        return 0
    for n, f in rows:
        line(f"{n:>4}  {f.code:<22} {tr(where(f))}  {tr(f.message)}")
    if not rows:
        line(_("no finding has a quick fix"))
    return 0
