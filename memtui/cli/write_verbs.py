"""The mutating verbs. Each calls one engine operation; the engine's transaction
does the writing. `--dry-run` prints the diff that would be applied."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from memtui.cli import CallError, Refused
from memtui.cli.output import emit_json, line, said, warn
from memtui.cli.read_verbs import load, store_root
from memtui.cli.reporting import engine_errors, read_text_file, report
from memtui.i18n import N_, _, tr

_ENTRY_HELP = N_("the entry's id as `list` gives it (kind:name)")
_FILE_HELP = N_("a file of the store, relative to its root (e.g. memory/events.md)")
_SNAPSHOT_HELP = N_("a snapshot as `history FILE` lists it (default: the newest)")


def register(verbs: Any, store: argparse.ArgumentParser) -> None:
    common = argparse.ArgumentParser(add_help=False, parents=[store])
    common.add_argument("--json", action="store_true", help=_("print what changed as JSON"))
    common.add_argument("--dry-run", action="store_true", help=_("print the diff, change nothing"))

    def verb(name: str, handler: Callable[..., Any], more: str = "") -> argparse.ArgumentParser:
        p = verbs.add_parser(name, parents=[common], more=more)
        p.set_defaults(handler=_settling(handler))
        return p

    from memtui.cli import queue_cli

    queue_cli.register(verb, _expect_option)
    p = verb("edit", edit)
    p.add_argument("entry", metavar="ENTRY", help=_(_ENTRY_HELP))
    _expect_option(p)
    p.add_argument("--text-file", metavar="F", help=_("the new text (-: stdin)"))
    p.add_argument(
        "--insist",
        action="store_true",
        help=_("change a file its layout keeps read-only (meta-rules the agent lives by)"),
    )
    for name in ("archive", "restore"):
        p = verb(name, archive if name == "archive" else restore)
        p.add_argument("entry", metavar="ENTRY", help=_(_ENTRY_HELP))
        _expect_option(p)
        p.add_argument("--item", help=_("the item's text, for an entry that holds items"))
    p = verbs.add_parser("history", parents=[store])
    p.set_defaults(handler=history)
    p.add_argument("file", metavar="FILE", help=_(_FILE_HELP))
    p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    p = verbs.add_parser("diff", parents=[store])
    p.set_defaults(handler=diff)
    p.add_argument("file", metavar="FILE", help=_(_FILE_HELP))
    p.add_argument("snapshot", nargs="?", metavar="SNAPSHOT", help=_(_SNAPSHOT_HELP))
    p = verb("rollback", rollback)
    p.add_argument("file", metavar="FILE", help=_(_FILE_HELP))
    p.add_argument("--to", metavar="SNAPSHOT", help=_("default: the newest snapshot"))
    for name in ("done", "reopen"):
        p = verb(name, done if name == "done" else reopen)
        p.add_argument("event", metavar="EVENT", help=_("its id as `events` lists it, e.g. E020"))
        _expect_option(p)
    verb("index", index)
    p = verb("undo", undo)
    p.add_argument("op", nargs="?", metavar="OP", help=_("the operation's id, or a unique prefix"))
    _register_commands(verb)


def _expect_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--expect",
        metavar="FP",
        type=_fingerprint,
        help=_(
            "the entry's fingerprint as you saw it (`list --json`, `show --json`): "
            "refused, nothing changed, if the entry is not that any more (SPEC §6)"
        ),
    )


def _fingerprint(value: str) -> str | None:
    from memtui.engine.identity import checked
    from memtui.engine.ops.common import Refused as NotOne

    try:
        return checked(value)
    except NotOne as exc:  # a malformed option: a wrong call (exit status 2)
        raise argparse.ArgumentTypeError(said(exc)) from None


def _register_commands(verb: Callable[..., argparse.ArgumentParser]) -> None:
    """`maintain` and `add KIND`, from what the layouts declare (engine.commands): each
    command's questions are its arguments."""
    from memtui.cli.help_format import CellHelpFormatter
    from memtui.engine.commands import of_verb

    maintaining = dict.fromkeys(tr(c.help) for _layout, c in of_verb("maintain"))
    p = verb("maintain", maintain)
    text = "; ".join(maintaining) or _("apply what the dry run shows")
    p.add_argument("--apply", action="store_true", help=text)
    declared, seen = [], set()
    for _layout, command in of_verb("add"):
        if command.name not in seen:  # a name two layouts declare: the first one's
            seen.add(command.name)
            declared.append(command)
    p = verb("add", add, more=f": {', '.join(c.name for c in declared)}")
    kinds = p.add_subparsers(dest="kind", required=True, metavar="KIND")
    for command in declared:
        sub = kinds.add_parser(
            command.name,
            help=tr(command.help),
            description=tr(command.help),
            formatter_class=CellHelpFormatter,
        )
        sub.set_defaults(command=command)
        for ask in command.asks:
            _argument(sub, ask)
        # options after the kind work too
        sub.add_argument(
            "--store", metavar="PATH", default=argparse.SUPPRESS, help=_("the store's root")
        )
        sub.add_argument(
            "--json", action="store_true", default=argparse.SUPPRESS, help=_("print JSON")
        )
        sub.add_argument(
            "--dry-run",
            action="store_true",
            default=argparse.SUPPRESS,
            help=_("print the diff, change nothing"),
        )


def _argument(p: argparse.ArgumentParser, ask: Any) -> None:
    """One question as an argument: a positional, or its option (`flag`)."""
    given: dict[str, Any] = {"help": tr(ask.help)}
    if ask.metavar:
        given["metavar"] = ask.metavar
    if ask.choices:
        given["choices"] = ask.choices
    if ask.kind == "int":
        given["type"] = int
    if ask.flag:
        p.add_argument(ask.flag, dest=ask.name, required=not ask.optional, **given)
    else:
        p.add_argument(ask.name, nargs="?" if ask.optional else None, **given)


# --- running an operation --------------------------------------------------


def _settling(handler: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """Settle a change a crash interrupted first, and say what that did (SPEC §0)."""

    def run(args: argparse.Namespace) -> int:
        if not args.dry_run and getattr(args, "apply", True):  # maintain: a dry run unless --apply
            from memtui.engine.write.transaction import settle_interrupted

            with _engine_errors():
                for note in settle_interrupted(store_root(args.store)):
                    warn(_("settled a change interrupted earlier: {note}").format(note=tr(note)))
        from memtui.engine.write.operation import operation

        with operation():  # one call, one operation for `memtui undo`, however many commits
            return handler(args)

    return run


# The shared helpers' old names, for the verbs that still call them (cli.reporting).
_engine_errors = engine_errors
_report = report
_read_text_file = read_text_file


# --- verbs -----------------------------------------------------------------


def edit(args: argparse.Namespace) -> int:
    from memtui.engine.entries import entry_text, resolve
    from memtui.engine.layouts.common import unreadable
    from memtui.engine.ops.edit import edit_entry
    from memtui.engine.ops.replace import read_only
    from memtui.engine.rawfile import not_readable

    store = load(args)
    with _engine_errors():
        entry = resolve(store, args.entry, expect=args.expect)
    seen = entry_text(store, entry)
    if seen is None:
        why = unreadable(store, entry.file) or _("it cannot be read as text")
        raise Refused(
            _("{why}; it is never edited, nothing was changed").format(
                why=tr(not_readable(entry.file, why))
            )
        )
    guard = read_only(store.root, entry.file)  # its layout's rule, asked before $EDITOR opens
    if guard and not args.insist:
        raise Refused(_("{why}: read-only unless you --insist").format(why=tr(guard)))
    new = (
        _read_text_file(args.text_file, store.root)
        if args.text_file
        else _in_editor(seen, entry.file, store.config.thresholds.max_file_bytes)
    )
    if new == seen:
        line(_("no change"))
        return 0
    with _engine_errors():
        receipt = edit_entry(
            store.root, entry.id, new, seen_text=seen, insist=args.insist, dry_run=args.dry_run
        )
    return _report(args, [receipt])


def _in_editor(text: str, name: str, limit: int) -> str:
    """$VISUAL or $EDITOR on the text (memtui.editor); the lock is not held meanwhile."""
    from memtui.editor import EditorFailed, EditorNotRun, run_editor

    try:
        return run_editor(text, name, limit)
    except EditorNotRun as exc:  # a wrong $EDITOR is a wrong call: exit status 2
        raise CallError(said(exc)) from None
    except EditorFailed as exc:
        raise Refused(said(exc)) from None


def _archive_call(args: argparse.Namespace, restoring: bool) -> Any:
    from memtui.engine import ops

    root = store_root(args.store)
    kind = args.entry.partition(":")[0]
    if kind == "pending" and not restoring:
        raise CallError(_("a pending candidate leaves with `memtui reject` (or accept)"))
    if kind == "profile" and not args.item:
        raise CallError(_("profile entries need --item TEXT (the item to archive/restore)"))
    shown = {"expect": args.expect, "dry_run": args.dry_run, "item": args.item}
    try:
        return (ops.restore if restoring else ops.archive)(root, args.entry, **shown)
    except ops.NotAnEntry as exc:  # no layout owns the id's kind: a wrong call
        raise CallError(said(exc)) from None


def archive(args: argparse.Namespace) -> int:
    with _engine_errors():
        return _report(args, [_archive_call(args, restoring=False)])


def restore(args: argparse.Namespace) -> int:
    with _engine_errors():
        return _report(args, [_archive_call(args, restoring=True)])


def history(args: argparse.Namespace) -> int:
    from memtui.engine.ops.history import agents_history, snapshots

    root = store_root(args.store)
    with _engine_errors():
        found = snapshots(root, args.file)
        agents = agents_history(root, args.file)
    if args.json:
        shown = [s.to_json() for s in found]
        emit_json({"file": args.file, "snapshots": shown, "agent_history": agents})
        return 0
    if not found and not agents:
        line(_("{file} has no history yet").format(file=args.file))
    for s in found:
        by = "  " + _("(kept by {who})").format(who=s.kept_by) if s.kept_by != "memtui" else ""
        size = _("{n} bytes").format(n=f"{s.size:,}")
        line(f"{s.name}  {s.time}  {size}{by}")
    for v in agents:  # the agent's own record (a git log): not memtui's to roll back
        line(f"{v['layout']} {v['version']}  {v['time']}  {v['who']}  {v['what']}")
    return 0


def diff(args: argparse.Namespace) -> int:
    from memtui.cli.output import printable
    from memtui.engine.ops.history import diff as run

    with _engine_errors():
        text = run(store_root(args.store), args.file, args.snapshot)
    sys.stdout.write(printable(text) if text else _("no difference") + "\n")
    return 0


def rollback(args: argparse.Namespace) -> int:
    from memtui.engine.ops.history import rollback as run

    with _engine_errors():
        receipt = run(store_root(args.store), args.file, args.to, dry_run=args.dry_run)
    return _report(args, [receipt])


def done(args: argparse.Namespace) -> int:
    return _mark(args, "done")


def reopen(args: argparse.Namespace) -> int:
    return _mark(args, "open")


def _mark(args: argparse.Namespace, state: str) -> int:
    from memtui.engine import ops

    with _engine_errors():
        receipt = ops.mark(
            store_root(args.store), args.event, state, expect=args.expect, dry_run=args.dry_run
        )
    return _report(args, [receipt])


def index(args: argparse.Namespace) -> int:
    from memtui.engine.ops.generated import rebuild

    with _engine_errors():
        receipt = rebuild(store_root(args.store), dry_run=args.dry_run)
    return _report(args, [receipt])


def maintain(args: argparse.Namespace) -> int:
    """Every maintenance the store's layouts declare (engine.commands), in turn."""
    from memtui.engine.commands import of_verb, run
    from memtui.engine.store import layouts_at

    if args.apply and args.dry_run:
        raise CallError(_("--apply and --dry-run contradict each other"))
    args.dry_run = not args.apply  # without --apply, maintain is a dry run
    root = store_root(args.store)
    with _engine_errors():
        receipts = [
            run(command, root, {}, dry_run=args.dry_run)
            for _layout, command in of_verb("maintain", layouts_at(root))
        ]
    return _report(args, receipts)


def add(args: argparse.Namespace) -> int:
    """The command `add KIND` names, with the answers its arguments gave."""
    from memtui.engine.commands import run

    root = store_root(args.store)
    command = args.command
    answers = {}
    for ask in command.asks:
        value = getattr(args, ask.name)
        answers[ask.name] = _read_text_file(value, root) if ask.kind == "file" and value else value
    with _engine_errors():
        receipt = run(command, root, answers, dry_run=args.dry_run)
    return _report(args, [receipt])


def undo(args: argparse.Namespace) -> int:
    from memtui.engine.ops.undo import undo as undo_op

    with _engine_errors():
        receipt = undo_op(store_root(args.store), args.op, dry_run=args.dry_run)
    return _report(args, [receipt])
